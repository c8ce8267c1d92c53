# Figure: years until a computer reaches the 1 kg speed limit, against the
# assumed doubling time and against the SBOPS-per-FLOP factor, with the
# article's choices marked.
# needs: moore.article_doubling rate.lloyd moore.fast_doubling sbops_per_flop
# needs: article.year record.year moore.lloyd_factor moore.lloyd_period
# needs: laptop.mass fma.fp64.ops_per_flop fma.fp32.ops_per_flop
# data: sensitivity_rate sensitivity_sbops
# Side by side; on a phone (narrow), one above the other.
# On a phone the panels' margins are fixed, the same for both, the top
# one keeping room above it for the key.
if (narrow) { set multiplot layout 2,1 margins 0.25,0.95,0.15,0.84 spacing 0.17 } else { set multiplot layout 1,2 spacing 0.08 }
# One key, above both panels, clear of their tics and curves (the left
# panel draws it, at the top of the canvas; its top margin and, wide,
# the right panel's keep the room for it).
set key at screen 0.5, screen 0.995 center top horizontal maxrows 1 samplen 2
if (narrow) set key at screen 0.5, screen 0.995 center top vertical maxrows auto maxcols 1 Left reverse
if (!narrow) set tmargin 3
# The marks' labels each on a row of its own, right of its line, above
# the curves: the y axis is given more room above. No opaque box: the
# SVG terminal draws one with a filter, which a printed PDF rasterises.
set xlabel "Doubling time (years)"
set ylabel (narrow ? "Years to the limit" : sprintf("Years to the %g kg speed limit", laptop_mass))
row = narrow ? 0.15 : 0.07
set xrange [0.5:4]
set yrange [0:*]
if (narrow) set ytics 200
set offsets 0, 0, graph (narrow ? 0.5 : 0.2), 0
set arrow 1 from first moore_article_doubling, graph 0 to first moore_article_doubling, graph 1 nohead ls 101
set label 1 sprintf("%g months", moore_article_doubling * 12) at first moore_article_doubling, graph 1 - row offset 0.4,0
set arrow 2 from first rate_lloyd, graph 0 to first rate_lloyd, graph 1 nohead ls 101
# Lloyd's rate, as the data state it: "10^{8} per 50 years".
lloyd = sprintf("10^{%d} per %g", floor(log10(moore_lloyd_factor) + 0.5), moore_lloyd_period)
set label 2 lloyd . (narrow ? " y" : " years") at first rate_lloyd, graph 1 - 2 * row offset 0.4,0
set arrow 3 from first moore_fast_doubling, graph 0 to first moore_fast_doubling, graph 1 nohead ls 101
set label 3 sprintf("%g months", moore_fast_doubling * 12) at first moore_fast_doubling, graph 1 - 3 * row offset 0.4,0
plot 'sensitivity_rate.dat' using 1:2 title sprintf("from the %d laptop", article_year) with lines lw lw_data lc rgb orange, \
     'sensitivity_rate.dat' using 1:3 title sprintf("from the %d record", record_year) with lines lw lw_data lc rgb blue
unset arrow
unset label
unset key
set ytics autofreq
set logscale x 10
set format x "10^{%L}"
set xlabel "Single-bit operations per FLOP"
set ylabel ("Years at " . lloyd . (narrow ? " y" : " years"))
set xrange [1:1e6]
set offsets 0, 0, 0, 0
# The conversions derived by precision and the article's guess: their
# labels under the curves: the article's left of its line (the
# leftmost), the others right of theirs, the rightmost a row lower.
row = narrow ? 0.17 : 0.1
set arrow 1 from first sbops_per_flop, graph 0 to first sbops_per_flop, graph 1 nohead ls 101
set label 1 "the article's\nguess" at first sbops_per_flop, graph 0.4 right offset -0.4,0
set arrow 2 from first fma_fp32_ops_per_flop, graph 0 to first fma_fp32_ops_per_flop, graph 1 nohead ls 101
set arrow 3 from first fma_fp64_ops_per_flop, graph 0 to first fma_fp64_ops_per_flop, graph 1 nohead ls 101
set label 2 "FP32" at first fma_fp32_ops_per_flop, graph 0.4 offset 0.4,0
set label 3 "FP64" at first fma_fp64_ops_per_flop, graph 0.4 - row offset 0.4,0
plot 'sensitivity_sbops.dat' using 1:2 notitle with lines lw lw_data lc rgb orange, \
     'sensitivity_sbops.dat' using 1:3 notitle with lines lw lw_data lc rgb blue
unset multiplot
