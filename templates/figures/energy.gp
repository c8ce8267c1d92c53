# Figure: energy per single-bit operation of the TOP500 No. 1 (power over
# Rmax, over the SBOPS counted per FLOP), its fitted trend extended to
# Landauer's kT ln 2 at room temperature within the band of its slope's
# uncertainty. (The energy an operation of the ultimate laptop holds is
# no spending and no limit on it: it is not drawn here.)
# needs: sbops_per_flop landauer.energy_room landauer.room_temperature
# needs: edition.year article.year
# needs: energy.fit.slope energy.fit.intercept energy.fit.year_landauer
# needs: energy.fit.slope_se energy.fit.from energy.fit.to
# needs: energy.fit.t95
# data: energy
set key top right width -5
# The trend is solid over the lists it was fitted on, dashed beyond
# (stats reads the ranges: before they are set).
stats 'energy.dat' using ($1 >= energy_fit_from && $1 < energy_fit_to + 1 ? $1 : 1/0) name "win" nooutput
set logscale y 10
set format y "10^{%L}"
set ytics 100
set xlabel "Year (TOP500 list)"
# On a phone (narrow): the key above the plot, fewer tics.
if (narrow) set key above vertical maxcols 1 Left reverse; set xtics 20
set ylabel "Energy per single-bit operation (J)"
last = energy_fit_year_landauer + 10
set xrange [article_year - 3:last]
# A decade above the data, for the key.
set yrange [landauer_energy_room / 100:1e-9]
trend(x) = 2**(energy_fit_intercept + energy_fit_slope * x) / sbops_per_flop
# The band of the extrapolation, as in top500.gp: from the last list, the
# line at the ends of its slope's 95% range (Student's t); its edges
# meet kT ln 2 in the years of the text's range.
band(x, k) = 2**(energy_fit_intercept + energy_fit_slope * energy_fit_to + (energy_fit_slope + k * energy_fit_t95 * energy_fit_slope_se) * (x - energy_fit_to)) / sbops_per_flop
set arrow from graph 0, first landauer_energy_room to graph 1, first landauer_energy_room nohead lw lw_data lc rgb vermilion dt 2
set label sprintf(narrow ? "kT ln 2 at %g K" : "Landauer's limit: kT ln 2 at %g K", landauer_room_temperature) at graph 0.02, first landauer_energy_room * 4 tc rgb vermilion
set arrow from first edition_year, graph 0 to first edition_year, graph 1 nohead ls 101
set label sprintf("%d", edition_year) at first edition_year, graph 0.04 offset 0.5,0 tc rgb muted
set label sprintf("%d", energy_fit_year_landauer) at first energy_fit_year_landauer, first landauer_energy_room point pt 7 ps 1 lc rgb blue offset 1,1.2 tc rgb blue
set style fill transparent solid 0.15 noborder
plot sample [energy_fit_to:last] '+' using 1:(band($1, -1)):(band($1, 1)) with filledcurves lc rgb blue notitle, \
     [win_min:win_max] trend(x) title sprintf("trend %d–%d: ×½ in %.2f years", energy_fit_from, energy_fit_to, -1 / energy_fit_slope) lw lw_data lc rgb blue, \
     [win_max:last] trend(x) title "extrapolated" lw lw_data lc rgb blue dt dt_extrap, \
     'energy.dat' using 1:4 title sprintf("No. 1: power / (Rmax × %d)", sbops_per_flop) with points pt 7 ps 0.7 lc rgb ink
