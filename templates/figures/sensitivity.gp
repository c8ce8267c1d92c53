# Figure: years until a computer reaches the 1 kg speed limit, against the
# assumed doubling time and against the SBOPS-per-FLOP factor, with the
# article's choices marked.
# needs: moore.article_doubling rate.lloyd moore.fast_doubling sbops_per_flop
# needs: article.year record.year moore.lloyd_factor moore.lloyd_period
# needs: laptop.mass fma.fp64.ops_per_flop fma.fp32.ops_per_flop
# data: sensitivity_rate sensitivity_sbops
# Side by side; on a phone (narrow), one above the other.
if (narrow) { set multiplot layout 2,1 spacing 0.12 } else { set multiplot layout 1,2 spacing 0.08 }
# One key, in the right panel, below its curves: the left one has none.
unset key
set xlabel "Doubling time (years)"
set ylabel (narrow ? "Years to the limit" : sprintf("Years to the %g kg speed limit", laptop_mass))
# The marks' labels one above the other, a line apart: on a phone
# (narrow) the panel is shorter, and they stand further apart in it.
row = narrow ? 0.17 : 0.06
set xrange [0.5:4]
set yrange [0:*]
set arrow 1 from first moore_article_doubling, graph 0 to first moore_article_doubling, graph 1 nohead ls 101
set label 1 sprintf("%g months", moore_article_doubling * 12) at first moore_article_doubling, graph 0.97 offset 0.4,0
set arrow 2 from first rate_lloyd, graph 0 to first rate_lloyd, graph 1 nohead ls 101
# Lloyd's rate, as the data state it: "10^{8} per 50 years".
lloyd = sprintf("10^{%d} per %g", floor(log10(moore_lloyd_factor) + 0.5), moore_lloyd_period)
set label 2 lloyd . " years" at first rate_lloyd, graph 0.97 - row offset 0.4,0
set arrow 3 from first moore_fast_doubling, graph 0 to first moore_fast_doubling, graph 1 nohead ls 101
set label 3 sprintf("%g months", moore_fast_doubling * 12) at first moore_fast_doubling, graph 0.97 - 2.8 * row offset -6.5,0
plot 'sensitivity_rate.dat' using 1:2 title sprintf("from the %d laptop", article_year) with lines lw lw_data lc rgb orange, \
     'sensitivity_rate.dat' using 1:3 title sprintf("from the %d record", record_year) with lines lw lw_data lc rgb blue
unset arrow
unset label
set logscale x 10
set format x "10^{%L}"
set xlabel "Single-bit operations per FLOP"
set ylabel ("Years at " . lloyd . (narrow ? " y" : " years"))
set xrange [1:1e6]
set key bottom right nobox samplen 1
if (narrow) set key bottom left
set arrow 1 from first sbops_per_flop, graph 0 to first sbops_per_flop, graph 1 nohead ls 101
# The label stands at the top, clear of the key at the bottom: the
# curves keep below it, the y axis being given a tenth more room above.
set offsets 0, 0, graph 0.12, 0
set label 1 "the article's\nguess" at first sbops_per_flop, graph 0.95 offset 0.4,0
# The conversions derived by precision, labelled below the curves so that
# they keep clear of the article's label and of each other; on a phone
# (narrow) the key fills that space, and the caption names the lines.
set arrow 2 from first fma_fp32_ops_per_flop, graph 0 to first fma_fp32_ops_per_flop, graph 0.72 nohead ls 101
set arrow 3 from first fma_fp64_ops_per_flop, graph 0 to first fma_fp64_ops_per_flop, graph 0.86 nohead ls 101
if (!narrow) { set label 2 "FP32" at first fma_fp32_ops_per_flop, graph 0.40 offset 0.4,0; set label 3 "FP64" at first fma_fp64_ops_per_flop, graph 0.50 offset 0.4,0 }
plot 'sensitivity_sbops.dat' using 1:2 title sprintf("from the %d laptop", article_year) with lines lw lw_data lc rgb orange, \
     'sensitivity_sbops.dat' using 1:3 title sprintf("from the %d record", record_year) with lines lw lw_data lc rgb blue
unset multiplot
