# Figure: the TOP500 No. 1 in single-bit operations per second, with its
# trends up to the article and since, extrapolated to the 1 kg and the
# atomic-matter limits.
# needs: sbops_per_flop laptop.ops_max atomic.ops edition.year article.year
# needs: series.top500.fit_since.slope series.top500.fit_since.intercept
# needs: series.top500.fit_article.slope series.top500.fit_article.intercept
# needs: series.top500.fit_since.year_ml series.top500.fit_since.year_atomic
# needs: series.top500.fit_article.year_ml series.top500.fit_article.year_atomic
# needs: laptop.mass
# needs: series.top500.fit_since.slope_se series.top500.fit_since.to
# needs: series.top500.fit_article.slope_se series.top500.fit_article.to
# needs: series.top500.fit_since.from series.top500.fit_article.from
# needs: series.top500.fit_article.t95 series.top500.fit_since.t95
# data: top500
set key bottom right width -8 samplen 2
# Each trend is solid over the lists it was fitted on (from the first
# to the last of them: stats, before the ranges are set, which it would
# read), dashed beyond.
stats 'top500.dat' using ($1 >= series_top500_fit_article_from && $1 < series_top500_fit_article_to + 1 ? $1 : 1/0) name "art" nooutput
stats 'top500.dat' using ($1 >= series_top500_fit_since_from && $1 < series_top500_fit_since_to + 1 ? $1 : 1/0) name "since" nooutput
# Room right of the plot for the year of the latest crossing.
set rmargin 6
set logscale y 10
set format y "10^{%L}"
set ytics 1e5
set xlabel "Year (TOP500 list)"
set ylabel "Single-bit operations per second (SBOPS)"
# On a phone (narrow): the key above the plot, a shorter axis
# label.
if (narrow) set key above vertical maxcols 1 Left reverse; set ylabel "SBOPS"; set ytics 1e10; set xtics 50
last = series_top500_fit_since_year_ml
if (series_top500_fit_article_year_ml > last) last = series_top500_fit_article_year_ml
set xrange [1990:last + 10]
set yrange [1e10:1e55]
fit_since(x) = sbops_per_flop * 2**(series_top500_fit_since_intercept + series_top500_fit_since_slope * x)
fit_art(x) = sbops_per_flop * 2**(series_top500_fit_article_intercept + series_top500_fit_article_slope * x)
# The band of each extrapolation: from its last year, the line at a slope
# ends of the slope's 95% range, Student's t (the years of the text's
# ranges are where its edges meet the limits).
band(x, a, b, se, t, k) = sbops_per_flop * 2**(a + b * t + (b + k * se) * (x - t))
set arrow from graph 0, first laptop_ops_max to graph 1, first laptop_ops_max nohead lw lw_data lc rgb vermilion dt 2
set arrow from graph 0, first atomic_ops to graph 1, first atomic_ops nohead lw lw_data lc rgb purple dt 2
set label sprintf("%g kg ultimate limit", laptop_mass) at graph 0.02, first laptop_ops_max * 40 tc rgb vermilion
set label "atomic-matter limit" at graph 0.02, first atomic_ops * 40 tc rgb purple
set arrow from first edition_year, graph 0 to first edition_year, graph 1 nohead ls 101
# The years stand half-way up their lines, clear of the limits' labels
# at the top, of the key and the No. 1 points at the foot.
# Both right of their lines (left of the article's, the year would
# run into the tic labels on a phone), the article's a line higher.
set label sprintf("%d", edition_year) at first edition_year, graph 0.5 offset 0.5,0 tc rgb muted
set arrow from first article_year, graph 0 to first article_year, graph 1 nohead ls 101
set label sprintf("%d", article_year) at first article_year, graph 0.5 offset 0.5,1.2 tc rgb muted
# Where the two trends cross a limit, the earlier crossing is labelled
# above and to its left, the later one below and to its right: the
# other trend runs below-right of the earlier and above-left of the later.
se_ml = series_top500_fit_since_year_ml <= series_top500_fit_article_year_ml
se_at = series_top500_fit_since_year_atomic <= series_top500_fit_article_year_atomic
set label sprintf("%d", series_top500_fit_since_year_ml) at first series_top500_fit_since_year_ml, first laptop_ops_max point pt 7 ps 1 lc rgb blue offset (se_ml ? -5 : 0.8),(se_ml ? 1 : -1) tc rgb blue
set label sprintf("%d", series_top500_fit_since_year_atomic) at first series_top500_fit_since_year_atomic, first atomic_ops point pt 7 ps 1 lc rgb blue offset (se_at ? -5 : 0.8),(se_at ? 1 : -1) tc rgb blue
set label sprintf("%d", series_top500_fit_article_year_ml) at first series_top500_fit_article_year_ml, first laptop_ops_max point pt 5 ps 1 lc rgb orange offset (se_ml ? 0.8 : -5),(se_ml ? -1 : 1) tc rgb orange_text
set label sprintf("%d", series_top500_fit_article_year_atomic) at first series_top500_fit_article_year_atomic, first atomic_ops point pt 5 ps 1 lc rgb orange offset (se_at ? 0.8 : -5),(se_at ? -1 : 1) tc rgb orange_text
set style fill transparent solid 0.15 noborder
plot sample [series_top500_fit_article_to:last + 10] '+' using 1:(band($1, series_top500_fit_article_intercept, series_top500_fit_article_slope, series_top500_fit_article_t95 * series_top500_fit_article_slope_se, series_top500_fit_article_to, -1)):(band($1, series_top500_fit_article_intercept, series_top500_fit_article_slope, series_top500_fit_article_t95 * series_top500_fit_article_slope_se, series_top500_fit_article_to, 1)) with filledcurves lc rgb orange notitle, \
     [series_top500_fit_since_to:last + 10] '+' using 1:(band($1, series_top500_fit_since_intercept, series_top500_fit_since_slope, series_top500_fit_since_t95 * series_top500_fit_since_slope_se, series_top500_fit_since_to, -1)):(band($1, series_top500_fit_since_intercept, series_top500_fit_since_slope, series_top500_fit_since_t95 * series_top500_fit_since_slope_se, series_top500_fit_since_to, 1)) with filledcurves lc rgb blue notitle, \
     [art_min:art_max] fit_art(x) title sprintf("trend %d–%d: ×2 in %.2f years", series_top500_fit_article_from, series_top500_fit_article_to, 1 / series_top500_fit_article_slope) lw lw_data lc rgb orange, \
     [art_max:last + 10] fit_art(x) notitle lw lw_data lc rgb orange dt dt_extrap, \
     [since_min:since_max] fit_since(x) title sprintf("trend %d–%d: ×2 in %.2f years", series_top500_fit_since_from, series_top500_fit_since_to, 1 / series_top500_fit_since_slope) lw lw_data lc rgb blue, \
     [since_max:last + 10] fit_since(x) notitle lw lw_data lc rgb blue dt dt_extrap, \
     NaN title "extrapolated" lw lw_data lc rgb muted dt dt_extrap, \
     'top500.dat' using 1:3 title "No. 1 of each list" with points pt 7 ps 0.6 lc rgb ink
