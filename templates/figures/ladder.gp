# Figure: the ladder of limits: operations per second against bits on
# log-log axes for real machines, smart dust, the atomic-matter laptop,
# the ultimate laptop and the 1 kg black hole.
# needs: laptop.ops_max laptop.bits_max dust.atomic_ops dust.atomic_bits
# needs: atomic.ops atomic.bits blackhole.ops blackhole.bits dust.volume
# data: ladder
# The machines' labels stand in a column right of the machines, each
# joined to its point by a leader line; the dataset places them
# (label_bits, label_ops: columns 4 and 5) so that none overlaps another
# and no two leader lines cross. The labels come from the data, written
# for enhanced text (ultimate escapes them): drawn enhanced, they show
# as they are.
set key at graph 0.02, graph 0.84 left top Left reverse samplen 1
set logscale xy 10
set format x "10^{%L}"
set format y "10^{%L}"
set xtics 1e4
set ytics 1e5
set xlabel "Memory (bits)"
set ylabel "Speed (single-bit operations per second)"
# On a phone (narrow): the key above the plot, fewer tics, the
# labels of the machines smaller (still 12 px on a 390 px screen), the
# limits' labels above or under their points, clear of the machines'.
label_font = narrow ? ",13" : ""
if (narrow) set key above vertical maxcols 1 Left reverse; set xtics 1e8; set ytics 1e10; set ylabel "Single-bit operations per second"
set xrange [1e8:1e36]
# The limits, as the machines' rows are (ops, bits, kind, where the label
# goes, label): atomic matter (kind 2), the ultimate ones (kind 3).
set print $limits
print sprintf("%.17g\t%.17g\t2\t%.17g\t%.17g\tsmart dust (%g µm³)", dust_atomic_ops, dust_atomic_bits, dust_atomic_bits, dust_atomic_ops, dust_volume * 1e18)
print sprintf("%.17g\t%.17g\t2\t%.17g\t%.17g\tatomic-matter laptop", atomic_ops, atomic_bits, atomic_bits, atomic_ops)
print sprintf("%.17g\t%.17g\t3\t%.17g\t%.17g\tultimate laptop", laptop_ops_max, laptop_bits_max, laptop_bits_max, laptop_ops_max)
print sprintf("%.17g\t%.17g\t3\t%.17g\t%.17g\t1 kg black hole", blackhole_ops, blackhole_bits, blackhole_bits, blackhole_ops)
unset print
set yrange [1e8:1e54]
plot 'ladder.dat' using ($3 == 1 ? $2 : 1/0):1:($4 - $2):($5 - $1) with vectors nohead lw lw_guide lc rgb leader notitle, \
     'ladder.dat' using ($3 == 1 ? $2 : 1/0):1 title "machines" with points pt 7 ps 1 lc rgb blue, \
     $limits using ($3 == 2 ? $2 : 1/0):1 title "ordinary matter (atoms)" with points pt 5 ps 1.2 lc rgb green, \
     $limits using ($3 == 3 ? $2 : 1/0):1 title "ultimate limits" with points pt 9 ps 1.6 lc rgb vermilion, \
     'ladder.dat' using ($3 == 1 ? $4 : 1/0):5:6 with labels left offset 0.3,0 font label_font tc rgb ink_soft notitle, \
     $limits using ($3 == 1 || narrow || $2 >= 1e30 ? 1/0 : $4):5:6 with labels left offset 0.8,0.35 tc rgb ink_soft notitle, \
     $limits using ($3 == 1 || narrow || $2 < 1e30 ? 1/0 : $4):5:6 with labels right offset -0.8,0.35 tc rgb ink_soft notitle, \
     $limits using ($3 != 2 || !narrow || $2 >= 1e20 ? 1/0 : $4):5:6 with labels left offset -0.5,4 tc rgb ink_soft notitle, \
     $limits using ($3 != 2 || !narrow || $2 < 1e20 ? 1/0 : $4):5:6 with labels right offset -1,1 tc rgb ink_soft notitle, \
     $limits using ($3 != 3 || !narrow ? 1/0 : $4):5:6 with labels center offset 0,-1.3 tc rgb ink_soft notitle
