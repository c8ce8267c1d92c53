# Figure: the TOP500 No. 1 per kilogram of its own mass, in single-bit
# operations per second per kilogram, with its trend since the article
# and the band at its slope's 95% range, extrapolated to the
# speed limit of one kilogram (each machine's own-mass limit per
# kilogram); beside it, for the whole-machine view, the No. 1's trend
# since the article held against one kilogram.
# needs: sbops_per_flop laptop.ops_max laptop.mass edition.year article.year
# needs: mass.limit_per_kg mass.fit.slope mass.fit.intercept mass.fit.slope_se
# needs: mass.fit.to mass.fit.year_kg mass.fit.from
# needs: series.top500.fit_since.from series.top500.fit_since.to
# needs: series.top500.fit_since.slope series.top500.fit_since.intercept
# needs: series.top500.fit_since.year_ml
# needs: mass.fit.t95
# data: mass top500
# Each trend is solid over the lists it was fitted on (from the first to
# the last of them: stats, before the ranges are set, which it would
# read), dashed beyond.
stats 'mass.dat' using ($1 >= mass_fit_from && $1 < mass_fit_to + 1 ? $1 : 1/0) name "kg" nooutput
stats 'top500.dat' using ($1 >= series_top500_fit_since_from && $1 < series_top500_fit_since_to + 1 ? $1 : 1/0) name "new" nooutput
set key bottom right width -9 samplen 2
set logscale y 10
set format y "10^{%L}"
set ytics 1e5
set xlabel "Year (TOP500 list)"
set ylabel "Single-bit operations per second (per kg, or whole)"
# The key stands bottom right, under the extensions, where no line runs. On a phone
# (narrow): the key above the plot, a shorter axis label.
if (narrow) set key above vertical maxcols 1 Left reverse; set ylabel "SBOPS"; set ytics 1e10
last = mass_fit_year_kg
if (series_top500_fit_since_year_ml > last) last = series_top500_fit_since_year_ml
set xrange [article_year - 5:last + 20]
set yrange [1e10:1e55]
per_kg(x) = sbops_per_flop * 2**(mass_fit_intercept + mass_fit_slope * x)
whole(x) = sbops_per_flop * 2**(series_top500_fit_since_intercept + series_top500_fit_since_slope * x)
# The band: from the trend's last year, the line at the ends of its
# slope's 95% range, Student's t (where its edges meet the limit are the
# years of the text's range).
band(x, k) = sbops_per_flop * 2**(mass_fit_intercept + mass_fit_slope * mass_fit_to + (mass_fit_slope + k * mass_fit_t95 * mass_fit_slope_se) * (x - mass_fit_to))
limit = mass_limit_per_kg * laptop_mass
set arrow from graph 0, first limit to graph 1, first limit nohead lw lw_data lc rgb vermilion dt 2
lim_label = narrow ? sprintf("%g kg speed limit", laptop_mass) : sprintf("speed limit of %g kg (per kg: of its own mass)", laptop_mass)
set label lim_label at graph 0.02, first limit * 40 tc rgb vermilion
set arrow from first edition_year, graph 0 to first edition_year, graph 1 nohead ls 101
set label sprintf("%d", edition_year) at first edition_year, graph 0.5 offset 0.5,0 tc rgb muted
set arrow from first article_year, graph 0 to first article_year, graph 1 nohead ls 101
# Right of its line, a line above the edition's (left of it, the year
# would run into the tic labels).
set label sprintf("%d", article_year) at first article_year, graph 0.5 offset 0.5,1.2 tc rgb muted
# The earlier crossing is labelled above and to its left, the later one
# below and to its right.
kg_late = mass_fit_year_kg >= series_top500_fit_since_year_ml
set label sprintf("%d", mass_fit_year_kg) at first mass_fit_year_kg, first limit point pt 7 ps 1 lc rgb blue offset (kg_late ? 0.8 : -5),(kg_late ? -1 : 1) tc rgb blue
set label sprintf("%d", series_top500_fit_since_year_ml) at first series_top500_fit_since_year_ml, first limit point pt 5 ps 1 lc rgb orange offset (kg_late ? -5 : 0.8),(kg_late ? 1 : -1) tc rgb orange_text
set style fill transparent solid 0.15 noborder
plot sample [mass_fit_to:last + 20] '+' using 1:(band($1, -1)):(band($1, 1)) with filledcurves lc rgb blue notitle, \
     [kg_min:kg_max] per_kg(x) title sprintf("per kg of own mass: ×2 in %.2f yr", 1 / mass_fit_slope) lw lw_data lc rgb blue, \
     [kg_max:last + 20] per_kg(x) notitle lw lw_data lc rgb blue dt dt_extrap, \
     [new_min:new_max] whole(x) title sprintf("whole machine: ×2 in %.2f yr", 1 / series_top500_fit_since_slope) lw lw_data lc rgb orange, \
     [new_max:last + 20] whole(x) notitle lw lw_data lc rgb orange dt dt_extrap, \
     NaN title "extrapolated" lw lw_data lc rgb muted dt dt_extrap, \
     'mass.dat' using 1:($3 * sbops_per_flop) title "No. 1 per kg (mass known)" with points pt 7 ps 0.6 lc rgb ink
