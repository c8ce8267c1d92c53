# Figure: smart dust: bits and operations per second against volume, from
# one cubic micrometre to one litre, for ordinary (atomic) matter and for
# the ultimate limits at the laptop's density.
# needs: dust.volume laptop.volume
# data: dust
set key top left
set logscale xy 10
set format x "10^{%L}"
set format y "10^{%L}"
set ytics 1e5
# The key stands at the top left, above the lines: the y axis is given
# room above them.
set offsets 0, 0, graph 0.25, 0
# On a phone (narrow): the key above the plot, fewer tics.
if (narrow) set key above vertical maxcols 1 Left reverse; set offsets 0, 0, 0, 0; set xtics 1e4; set ytics 1e10
set xlabel "Volume (m³)"
set ylabel "Bits, or operations per second"
set xrange [dust_volume / 3:laptop_volume * 3]
set arrow from first dust_volume, graph 0 to first dust_volume, graph 1 nohead ls 101
set label sprintf("%g µm³", dust_volume * 1e18) at first dust_volume, graph 0.04 offset 0.5,0
set arrow from first laptop_volume, graph 0 to first laptop_volume, graph 1 nohead ls 101
set label sprintf("%g litre", laptop_volume * 1e3) at first laptop_volume, graph 0.04 offset -5,0
plot 'dust.dat' using 1:5 title "ops/s, ultimate limit" with lines lw lw_data lc rgb vermilion, \
     'dust.dat' using 1:3 title "ops/s, atomic matter" with lines lw lw_data lc rgb vermilion dt 2, \
     'dust.dat' using 1:4 title "bits, ultimate limit" with lines lw lw_data lc rgb blue, \
     'dust.dat' using 1:2 title "bits, atomic matter" with lines lw lw_data lc rgb blue dt 2
