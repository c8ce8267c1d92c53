# Figure: the largest drives by year, in bits: every hard disk in the
# data (grey), the record hard disks (black) with their fitted trend
# extrapolated to the entropy limit of the ultimate laptop, the fit over
# all drives (dashed), and the record solid-state drives (red); below, in
# a panel of its own (its own quantity, its own scale), the areal density
# of the record drives over the years of the data.
# needs: laptop.bits_max atomic.bits edition.year article.year
# needs: series.disk.fit_all.slope series.disk.fit_all.intercept
# needs: series.disk_record.fit_all.slope series.disk_record.fit_all.intercept
# needs: series.disk_record.fit_all.year_entropy
# needs: series.disk_record.fit_all.year_atomic
# needs: laptop.mass laptop.volume
# needs: series.disk_record.fit_all.slope_se series.disk_record.fit_all.to
# data: disk disk_record ssd areal
set multiplot
set lmargin 12
set rmargin 3
# Capacity, from the first drive to the year the record trend reaches the
# entropy limit.
set origin 0, 0.28
set size 1, 0.72
# The key stands above the top panel, in two columns.
set key above vertical maxrows 3 Left reverse samplen 1 width -8
# On a phone (narrow): the key in one column, fewer tics.
if (narrow) set key maxrows 5 width -2; set xtics 100; set ytics 1e8
set logscale y 10
set format y "10^{%L}"
set ytics 1e4
unset xlabel
set ylabel "Bits in largest drive"
set xrange [1950:series_disk_record_fit_all_year_entropy + 10]
set yrange [1e6:laptop_bits_max * 1e3]
fit_all(x) = 2**(series_disk_fit_all_intercept + series_disk_fit_all_slope * x) * 8
fit_rec(x) = 2**(series_disk_record_fit_all_intercept + series_disk_record_fit_all_slope * x) * 8
# The band of the extrapolation: from its last year, the line at a slope
# two standard errors steeper and shallower.
t_rec = series_disk_record_fit_all_to
band(x, k) = 2**(series_disk_record_fit_all_intercept + series_disk_record_fit_all_slope * t_rec + (series_disk_record_fit_all_slope + k * 2 * series_disk_record_fit_all_slope_se) * (x - t_rec)) * 8
set arrow 1 from graph 0, first laptop_bits_max to graph 1, first laptop_bits_max nohead lw lw_data lc rgb vermilion dt 2
set label 1 sprintf("entropy limit of %g kg in %g litre", laptop_mass, laptop_volume * 1e3) at graph 0.02, first laptop_bits_max * 300 tc rgb vermilion
set arrow 2 from graph 0, first atomic_bits to graph 1, first atomic_bits nohead lw lw_data lc rgb purple dt 2
set label 2 "atomic-matter limit" at graph 0.02, first atomic_bits * 300 tc rgb purple
set arrow 3 from first edition_year, graph 0 to first edition_year, graph 1 nohead ls 101
set label 3 sprintf("%d", edition_year) at first edition_year, graph 0.04 offset 0.5,0 tc rgb muted
set label 4 sprintf("%d", series_disk_record_fit_all_year_entropy) at first series_disk_record_fit_all_year_entropy, first laptop_bits_max point pt 7 ps 1 lc rgb blue offset -5,-1.2 tc rgb blue
set label 5 sprintf("%d", series_disk_record_fit_all_year_atomic) at first series_disk_record_fit_all_year_atomic, first atomic_bits point pt 7 ps 1 lc rgb blue offset -5,-1.2 tc rgb blue
set style fill transparent solid 0.15 noborder
plot sample [t_rec:series_disk_record_fit_all_year_entropy + 10] '+' using 1:(band($1, -1)):(band($1, 1)) with filledcurves lc rgb blue notitle, \
     fit_rec(x) title sprintf("capacity trend: ×2 in %.2f y", 1 / series_disk_record_fit_all_slope) lw lw_data lc rgb blue, \
     fit_all(x) title sprintf("all disks: ×2 in %.2f y", 1 / series_disk_fit_all_slope) lw lw_guide dt 2 lc rgb sky, \
     'disk.dat' using 1:3 title "every hard disk" with points pt 6 ps 0.7 lc rgb faint, \
     'disk_record.dat' using 1:3 title "largest of its year" with points pt 7 ps 0.7 lc rgb ink, \
     'ssd.dat' using 1:3 title "largest SSD" with points pt 9 ps 0.9 lc rgb vermilion
# Areal density, over the years of the data only: a quantity of its own,
# on its own axis, so that no crossing with the capacities is suggested.
unset arrow
unset label
set origin 0, 0
set size 1, 0.28
unset key
set label 1 (narrow ? "areal density" : "areal density of the drives in the data") at graph 0.02, graph 0.85 tc rgb green
set xrange [1950:edition_year + 5]
set yrange [*:*]
set autoscale y
set ytics autofreq
set ytics 1e4
set xtics autofreq
if (narrow) set xtics 25; set ytics 1e8
set xlabel "Year" offset 0,0.5
set ylabel "Areal density\n(bit/in²)" textcolor rgb green
plot 'areal.dat' using 1:2 notitle with linespoints pt 4 ps 0.6 lw lw_guide lc rgb green
unset multiplot
