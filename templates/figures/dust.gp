# Figure: smart dust: bits and operations per second against volume, from
# one cubic micrometre to one litre, for ordinary (atomic) matter and for
# the ultimate limits at the laptop's density.
# needs: dust.volume laptop.volume
# data: dust
set style line 100 lc rgb "#bbbbbb" lw 1
set border 3 lw 1 lc rgb "#555555"
set tics nomirror textcolor rgb "#333333"
unset mxtics
unset mytics
set grid xtics ytics lc rgb "#dddddd" lw 1 dt 1
set key top left box ls 100 opaque samplen 2
set logscale xy 10
set format x "10^{%L}"
set format y "10^{%L}"
set ytics 1e5
# The key stands at the top left, above the lines: the y axis is given
# room above them.
set offsets 0, 0, graph 0.25, 0
set xlabel "Volume (m³)"
set ylabel "Bits, or operations per second"
set xrange [dust_volume / 3:laptop_volume * 3]
set arrow from first dust_volume, graph 0 to first dust_volume, graph 1 nohead lc rgb "#777777" dt 3
set label "1 µm³" at first dust_volume, graph 0.04 offset 0.5,0
set arrow from first laptop_volume, graph 0 to first laptop_volume, graph 1 nohead lc rgb "#777777" dt 3
set label "1 litre" at first laptop_volume, graph 0.04 offset -5,0
plot 'dust.dat' using 1:5 title "ops/s, ultimate limit" with lines lw 2 lc rgb "#D55E00", \
     'dust.dat' using 1:3 title "ops/s, atomic matter" with lines lw 2 lc rgb "#D55E00" dt 2, \
     'dust.dat' using 1:4 title "bits, ultimate limit" with lines lw 2 lc rgb "#0072B2", \
     'dust.dat' using 1:2 title "bits, atomic matter" with lines lw 2 lc rgb "#0072B2" dt 2
