# Figure: the largest drives by year, in bits: every hard disk in the
# data (grey), the record hard disks (black) with their trend up to the
# article and their trend since, and the record solid-state drives with
# theirs, each trend extended to the entropy limit of the ultimate laptop;
# below, in a panel of its own (its own quantity, its own scale, the same
# years), the areal density of the drives in the data.
# needs: laptop.bits_max atomic.bits edition.year article.year
# needs: laptop.mass laptop.volume
# needs: series.disk_record.fit_article.slope series.disk_record.fit_article.intercept
# needs: series.disk_record.fit_article.from series.disk_record.fit_article.to
# needs: series.disk_record.fit_article.slope_se
# needs: series.disk_record.fit_article.year_entropy
# An edition may be too young for a trend since the article, or for one
# of the solid-state drives: those are drawn when it has them.
# optional: series.disk_record.fit_since.slope series.disk_record.fit_since.intercept
# optional: series.disk_record.fit_since.from series.disk_record.fit_since.to
# optional: series.disk_record.fit_since.slope_se series.disk_record.fit_since.t95
# optional: series.disk_record.pace.slowed_beyond_scatter series.disk_record.pace.quickened_beyond_scatter
# optional: series.disk_record.fit_since.year_entropy
# optional: series.ssd.fit_all.slope series.ssd.fit_all.intercept
# optional: series.ssd.fit_all.from series.ssd.fit_all.to
# optional: series.ssd.fit_all.year_entropy
# data: disk disk_record ssd areal
since = exists("series_disk_record_fit_since_year_entropy")
flash = exists("series_ssd_fit_all_year_entropy")
# Each trend is solid over the drives it was fitted on (from the first
# to the last of them: stats, before any range is set, which it would
# read), dashed beyond.
stats 'disk_record.dat' using ($1 >= series_disk_record_fit_article_from && $1 < series_disk_record_fit_article_to + 1 ? $1 : 1/0) name "art" nooutput
if (since) stats 'disk_record.dat' using ($1 >= series_disk_record_fit_since_from && $1 < series_disk_record_fit_since_to + 1 ? $1 : 1/0) name "new" nooutput
if (flash) stats 'ssd.dat' using ($1 >= series_ssd_fit_all_from && $1 < series_ssd_fit_all_to + 1 ? $1 : 1/0) name "ssd" nooutput
# Both panels span the same years: from before the first drive to past
# the last year a trend reaches the entropy limit.
last = series_disk_record_fit_article_year_entropy
if (since && series_disk_record_fit_since_year_entropy > last) last = series_disk_record_fit_since_year_entropy
if (flash && series_ssd_fit_all_year_entropy > last) last = series_ssd_fit_all_year_entropy
x_lo = 1950
x_hi = last + 10
set multiplot
set lmargin 12
set rmargin 3
set origin 0, (narrow ? 0.2 : 0.25)
set size 1, (narrow ? 0.8 : 0.75)
# The key stands above the top panel, in two columns.
set key above vertical maxrows 4 Left reverse samplen 2 width -9
# On a phone (narrow): the key in one column, its text smaller (12 px,
# above the 11 px of a phone's smallest), fewer tics.
if (narrow) set key maxrows 7 width -4 font ",13" spacing 1
set logscale y 10
set format y "10^{%L}"
set ytics 1e6
if (narrow) set ytics 1e8
set xtics 50
if (narrow) set xtics 100
unset xlabel
set ylabel "Bits in largest drive"
set xrange [x_lo:x_hi]
# Room above the entropy limit for the years labelled above it.
set yrange [1e6:laptop_bits_max * 1e6]
line(x, a, k) = 2**(a + k * x) * 8
art(x) = line(x, series_disk_record_fit_article_intercept, series_disk_record_fit_article_slope)
new(x) = line(x, series_disk_record_fit_since_intercept, series_disk_record_fit_since_slope)
ssd(x) = line(x, series_ssd_fit_all_intercept, series_ssd_fit_all_slope)
# The band of the extrapolation since the article: from its last year,
# the line at the ends of its slope's 95% range (Student's t).
band(x, k) = 2**(series_disk_record_fit_since_intercept + series_disk_record_fit_since_slope * series_disk_record_fit_since_to + (series_disk_record_fit_since_slope + k * series_disk_record_fit_since_t95 * series_disk_record_fit_since_slope_se) * (x - series_disk_record_fit_since_to)) * 8
set arrow 1 from graph 0, first laptop_bits_max to graph 1, first laptop_bits_max nohead lw lw_data lc rgb vermilion dt 2
set label 1 (narrow ? "entropy limit" : sprintf("entropy limit of %g kg in %g litre", laptop_mass, laptop_volume * 1e3)) at graph 0.02, first laptop_bits_max * 300 tc rgb vermilion
set arrow 2 from graph 0, first atomic_bits to graph 1, first atomic_bits nohead lw lw_data lc rgb purple dt 2
set label 2 "atomic-matter limit" at graph 0.02, first atomic_bits * 300 tc rgb purple
set arrow 3 from first edition_year, graph 0 to first edition_year, graph 1 nohead ls 101
set label 3 sprintf("%d", edition_year) at first edition_year, graph 0.04 offset 0.5,0 tc rgb muted
# The years the trends reach the entropy limit: the hard disks' up to
# the article above the line, since the article below it, the flash
# one (the earliest, its line coming from the lower left) left of its
# point and a little above.
set label 4 sprintf("%d", series_disk_record_fit_article_year_entropy) at first series_disk_record_fit_article_year_entropy, first laptop_bits_max point pt 5 ps 1 lc rgb orange center offset 0,1.1 tc rgb orange_text
if (since) set label 5 sprintf("%d", series_disk_record_fit_since_year_entropy) at first series_disk_record_fit_since_year_entropy, first laptop_bits_max point pt 7 ps 1 lc rgb blue center offset 0,-1.1 tc rgb blue
if (flash) set label 6 sprintf("%d", series_ssd_fit_all_year_entropy) at first series_ssd_fit_all_year_entropy, first laptop_bits_max point pt 9 ps 1.2 lc rgb sky right offset -0.8,0.8 tc rgb blue
# The slowdown (or not) of the record hard disks since the article,
# named at the right end, under both trends, clear of the limits: slower
# or faster only when the two slopes' 95% ranges do not overlap, as the
# text decides it (series.disk_record.pace.*).
if (since && exists("series_disk_record_pace_slowed_beyond_scatter")) { \
  pace = series_disk_record_pace_slowed_beyond_scatter ? sprintf("hard disks\nslower since %d", article_year) : series_disk_record_pace_quickened_beyond_scatter ? sprintf("hard disks\nfaster since %d", article_year) : sprintf("hard disks since %d:\nno change beyond the scatter", article_year); \
  x_at = x_hi - 0.02 * (x_hi - x_lo); \
  set label 7 pace at first x_at, first (new(x_at) < art(x_at) ? new(x_at) : art(x_at)) / (narrow ? 1e14 : 1e10) right tc rgb blue \
}
set style fill transparent solid 0.15 noborder
# The plot is built as text, what an edition lacks left out.
t_art = sprintf("disks %d–%d: ×2 in %.2f y", series_disk_record_fit_article_from, series_disk_record_fit_article_to, 1 / series_disk_record_fit_article_slope)
# (sample: the ranges that follow are each a curve's own, not the plot's)
cmd = "plot sample "
if (since) { \
  t_new = sprintf("disks %d–%d: ×2 in %.2f y", series_disk_record_fit_since_from, series_disk_record_fit_since_to, 1 / series_disk_record_fit_since_slope); \
  cmd = cmd . "[series_disk_record_fit_since_to:x_hi] '+' using 1:(band($1, -1)):(band($1, 1)) with filledcurves lc rgb blue notitle, " \
}
cmd = cmd . "[art_min:art_max] art(x) title t_art lw lw_data lc rgb orange, [art_max:x_hi] art(x) notitle lw lw_data lc rgb orange dt dt_extrap, "
if (since) cmd = cmd . "[new_min:new_max] new(x) title t_new lw lw_data lc rgb blue, [new_max:x_hi] new(x) notitle lw lw_data lc rgb blue dt dt_extrap, "
if (flash) { \
  t_ssd = sprintf("SSDs %d–%d: ×2 in %.2f y", series_ssd_fit_all_from, series_ssd_fit_all_to, 1 / series_ssd_fit_all_slope); \
  cmd = cmd . "[ssd_min:ssd_max] ssd(x) title t_ssd lw lw_data lc rgb sky, [ssd_max:x_hi] ssd(x) notitle lw lw_data lc rgb sky dt dt_extrap, " \
}
cmd = cmd . "NaN title 'extrapolated' lw lw_data lc rgb muted dt dt_extrap, "
cmd = cmd . "'disk.dat' using 1:3 title 'every hard disk' with points pt 6 ps 0.7 lc rgb faint, "
cmd = cmd . "'disk_record.dat' using 1:3 title 'largest hard disk of its year' with points pt 7 ps 0.7 lc rgb ink, "
cmd = cmd . "'ssd.dat' using 1:3 title 'largest SSD' with points pt 9 ps 0.9 lc rgb sky"
eval cmd
# Areal density, over the years of the data: a quantity of its own, on
# its own axis, so that no crossing with the capacities is suggested;
# the years are the capacities'.
unset arrow
unset label
set origin 0, 0
set size 1, (narrow ? 0.2 : 0.25)
unset key
# Its label right of the data, where the years run on.
set label 1 (narrow ? "areal density" : "areal density of the drives in the data") at first edition_year + 0.06 * (x_hi - x_lo), graph 0.5 tc rgb green
set autoscale y
set ytics 1e4
if (narrow) set ytics 1e8
set xlabel "Year" offset 0,0.5
set ylabel "Areal density\n(bit/in²)" textcolor rgb green
plot 'areal.dat' using 1:2 notitle with linespoints pt 4 ps 0.6 lw lw_guide lc rgb green
unset multiplot
