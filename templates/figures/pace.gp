# Figure: Rmax of the TOP500 No. 1 with its trend up to the article's year
# and its trend since, each drawn over its own window and extended to the
# newest list, where the gap between them is the shortfall; the earlier
# trend's extension within the band of its slope's uncertainty.
# needs: article.year edition.year series.top500.latest.time
# needs: series.top500.fit_article.slope series.top500.fit_article.intercept
# needs: series.top500.fit_since.slope series.top500.fit_since.intercept
# needs: series.top500.fit_article.value_latest series.top500.pace.shortfall
# needs: series.top500.fit_article.slope_se series.top500.fit_article.to
# needs: series.top500.fit_article.from series.top500.fit_since.from series.top500.fit_since.to
# needs: series.top500.fit_article.t95
# data: top500
set key below maxcols 1 width -3
set rmargin 4
set logscale y 10
set format y "10^{%L}"
set xlabel "Year (TOP500 list)" offset 0,0.3
set bmargin 7.5
set ylabel "Rmax of the No. 1 (FLOP/s)"
# On a phone (narrow): fewer tics, the key above the plot,
# its words shorter.
if (narrow) set xtics 10; set key above vertical maxcols 1 Left reverse width 0; set bmargin -1
# Each trend is solid over the lists it was fitted on (from the first to
# the last of them: stats, before the ranges are set, which it would
# read), dashed beyond.
stats 'top500.dat' using ($1 >= series_top500_fit_article_from && $1 < series_top500_fit_article_to + 1 ? $1 : 1/0) name "art" nooutput
stats 'top500.dat' using ($1 >= series_top500_fit_since_from && $1 < series_top500_fit_since_to + 1 ? $1 : 1/0) name "new" nooutput
set xrange [1992:edition_year + 2]
before(x) = 2**(series_top500_fit_article_intercept + series_top500_fit_article_slope * x)
# The band of the extension, as in top500.gp: from the window's last
# year, the line at the ends of its slope's 95% range (Student's t).
t0 = series_top500_fit_article_to
band(x, k) = 2**(series_top500_fit_article_intercept + series_top500_fit_article_slope * t0 + (series_top500_fit_article_slope + k * series_top500_fit_article_t95 * series_top500_fit_article_slope_se) * (x - t0))
since(x) = 2**(series_top500_fit_since_intercept + series_top500_fit_since_slope * x)
set arrow from first article_year, graph 0 to first article_year, graph 1 nohead ls 101
set label sprintf("%d", article_year) at first article_year, graph 0.96 offset 0.5,0 tc rgb muted
# The shortfall is told in the key, by its square, so that its text never
# lands on the points or the trends near the newest list.
newest = narrow ? "now" : "at the newest list"
shortfall = (series_top500_pace_shortfall >= 1 ? sprintf("trend to %d, %s: %.2g × the record", article_year, newest, series_top500_pace_shortfall) : sprintf("trend to %d, %s: the record / %.2g", article_year, newest, 1 / series_top500_pace_shortfall))
set style fill transparent solid 0.15 noborder
plot sample [t0:edition_year + 2] '+' using 1:(band($1, -1)):(band($1, 1)) with filledcurves lc rgb orange notitle, \
     [art_min:art_max] before(x) title sprintf("trend to %d: ×2 in %.2f years", article_year, 1 / series_top500_fit_article_slope) lw lw_data lc rgb orange, \
     [art_max:edition_year + 2] before(x) notitle lw lw_data lc rgb orange dt dt_extrap, \
     [new_min:new_max] since(x) title sprintf("trend since %d: ×2 in %.2f years", article_year, 1 / series_top500_fit_since_slope) lw lw_data lc rgb blue, \
     [new_max:edition_year + 2] since(x) notitle lw lw_data lc rgb blue dt dt_extrap, \
     'top500.dat' using 1:2 title "No. 1 of each list (Rmax)" with points pt 7 ps 0.6 lc rgb ink, \
     '+' using (series_top500_latest_time):(series_top500_fit_article_value_latest) every ::0::0 title shortfall with points pt 5 ps 1 lc rgb orange
