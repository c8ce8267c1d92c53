# Figure: the ladder of limits: operations per second against bits on
# log-log axes for real machines, smart dust, the atomic-matter laptop,
# the ultimate laptop and the 1 kg black hole; the machines, a fifth of
# the speeds and a third of the memories, enlarged in a panel of their
# own (inside the plot, bottom right; on a phone, under it), where they
# are named.
# needs: laptop.ops_max laptop.bits_max dust.atomic_ops dust.atomic_bits
# needs: atomic.ops atomic.bits blackhole.ops blackhole.bits dust.volume
# data: ladder
# In the enlarged panel the machines' labels stand in a column right of
# the machines, each joined to its point by a leader line; the dataset
# places them (label_bits, label_ops: columns 4 and 5) so that none
# overlaps another and no two leader lines cross (src/ladder.c, at about
# 15 pixels a decade on both axes and 1.2 decades a line: the panel's
# ranges below keep it so). The labels come from the data, written for
# enhanced text (ultimate escapes them): drawn enhanced, they show as
# they are.
#
# The machines' extent (kind 1), and that of their labels, read before
# any range is set (stats would read it).
stats 'ladder.dat' using ($3 == 1 ? log10($2) : 1/0):(log10($1)) name "m" nooutput
stats 'ladder.dat' using ($3 == 1 && $4 == $4 ? log10($4) : 1/0):(log10($5)) name "lab" nooutput
# The enlarged panel, in decades: from just left of the leftmost machine
# to its labels' column and room for their text (0.4 of the panel),
# from under the slowest machine or label to over the fastest.
z_x0 = m_min_x - 0.3
z_col = lab_records > 0 ? lab_max_x : m_max_x
z_x1 = z_col + (z_col - z_x0) * (narrow ? 0.75 : 0.65)
z_y0 = (m_min_y < lab_min_y ? m_min_y : lab_min_y) - 0.6
z_y1 = (m_max_y > lab_max_y ? m_max_y : lab_max_y) + 0.6
# The machines' box in the whole ladder: their own extent.
b_x0 = m_min_x - 0.3
b_x1 = m_max_x + 0.3
b_y0 = m_min_y - 0.6
b_y1 = m_max_y + 0.6
label_font = narrow ? ",13" : ",12"
set multiplot
# ---- The whole ladder.
set logscale xy 10
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [1e8:1e36]
set yrange [1e8:1e54]
set xtics 1e4
set ytics 1e5
# Wide: the plot fills the canvas and the enlarged panel sits in its
# empty lower right (fast of memory, slow of speed: nothing is there);
# on a phone the ladder takes the upper half, the panel the lower, the
# key above both and one label of the speed for the two.
if (narrow) { \
  set lmargin at screen 0.22; set rmargin at screen 0.95; \
  set tmargin at screen 0.86; set bmargin at screen 0.56; \
  set key at screen 0.5, screen 0.995 center top vertical maxcols 1 Left reverse samplen 1 font ",13"; \
  set xtics 1e8; set ytics 1e15; \
  unset xlabel; unset ylabel; \
  set label 20 "Single-bit operations per second" at screen 0.03, screen 0.5 center rotate by 90 \
} else { \
  set lmargin at screen 0.15; set rmargin at screen 0.97; \
  set tmargin at screen 0.97; set bmargin at screen 0.15; \
  set key at graph 0.02, graph 0.84 left top Left reverse samplen 1; \
  set xlabel "Memory (bits)"; \
  set ylabel "Speed (single-bit operations per second)" \
}
set object 1 rect from 10**b_x0, 10**b_y0 to 10**b_x1, 10**b_y1 fs empty border lc rgb muted lw lw_guide dt 3
# (on a phone right of the box's foot, clear of the smart dust's label)
if (narrow) { set label 21 "enlarged below" at 10**b_x1, 10**b_y0 offset 0.5,0.3 left font label_font tc rgb muted } else { set label 21 "enlarged" at 10**b_x0, 10**b_y1 offset 0,0.5 left font label_font tc rgb muted }
# The limits, as the machines' rows are (ops, bits, kind): atomic
# matter (kind 2), the ultimate ones (kind 3).
set print $limits
print sprintf("%.17g\t%.17g\t2", dust_atomic_ops, dust_atomic_bits)
print sprintf("%.17g\t%.17g\t2", atomic_ops, atomic_bits)
print sprintf("%.17g\t%.17g\t3", laptop_ops_max, laptop_bits_max)
print sprintf("%.17g\t%.17g\t3", blackhole_ops, blackhole_bits)
unset print
# Their labels, each where it clears the others: right of its point,
# the ultimate laptop's (the rightmost) left of it; on a phone, where
# the text is larger against the axes, the two at the top centred above
# their points (the axis goes higher for them), the atomic-matter
# laptop's left of its point, all 13 px.
lim_font = narrow ? ",13" : ""
set label 10 sprintf("smart dust (%g µm³)", dust_volume * 1e18) at dust_atomic_bits, dust_atomic_ops left offset 0.8,(narrow ? 0 : 0.35) font lim_font tc rgb ink_soft
set label 11 "1 kg black hole" at blackhole_bits, blackhole_ops left offset 0.8,(narrow ? 0 : 0.35) font lim_font tc rgb ink_soft
if (narrow) { \
  set label 11 "1 kg black hole" at blackhole_bits, blackhole_ops center offset 0,1.2 font lim_font tc rgb ink_soft; \
  set label 12 "atomic-matter laptop" at atomic_bits, atomic_ops right offset -0.8,0 font lim_font tc rgb ink_soft; \
  set label 13 "ultimate laptop" at laptop_bits_max, laptop_ops_max center offset 0,1.2 font lim_font tc rgb ink_soft; \
  set yrange [1e8:1e63] \
} else { \
  set label 12 "atomic-matter laptop" at atomic_bits, atomic_ops left offset 0.8,0.35 tc rgb ink_soft; \
  set label 13 "ultimate laptop" at laptop_bits_max, laptop_ops_max right offset -0.8,0.35 tc rgb ink_soft \
}
plot 'ladder.dat' using ($3 == 1 ? $2 : 1/0):1 title "machines" with points pt 7 ps 0.6 lc rgb blue, \
     $limits using ($3 == 2 ? $2 : 1/0):1 title "ordinary matter (atoms)" with points pt 5 ps 1.2 lc rgb green, \
     $limits using ($3 == 3 ? $2 : 1/0):1 title "ultimate limits" with points pt 9 ps 1.6 lc rgb vermilion
# ---- The machines, enlarged.
unset object 1
unset label
unset key
set xrange [10**z_x0:10**z_x1]
set yrange [10**z_y0:10**z_y1]
set xtics 1e2
set ytics 1e2
if (narrow) { \
  set lmargin at screen 0.22; set rmargin at screen 0.95; \
  set tmargin at screen 0.47; set bmargin at screen 0.155; \
  set xlabel "Memory (bits)" \
} else { \
  set lmargin at screen 0.56; set rmargin at screen 0.97; \
  set tmargin at screen 0.64; set bmargin at screen 0.23; \
  unset xlabel; unset ylabel; \
  set object 2 rect from screen 0.47, screen 0.165 to screen 0.995, screen 0.67 behind fc rgb "white" fs solid border lc rgb frame lw 1 \
}
# The named machines blue, the others (in the data, not picked by the
# document) small and grey.
set label 22 "machines" at graph 0.03, graph 0.95 left font label_font tc rgb muted
plot 'ladder.dat' using ($3 == 1 ? $2 : 1/0):1:($4 - $2):($5 - $1) with vectors nohead lw lw_guide lc rgb leader notitle, \
     'ladder.dat' using ($3 == 1 && $4 != $4 ? $2 : 1/0):1 notitle with points pt 7 ps 0.4 lc rgb faint, \
     'ladder.dat' using ($3 == 1 && $4 == $4 ? $2 : 1/0):1 notitle with points pt 7 ps 0.6 lc rgb blue, \
     'ladder.dat' using ($3 == 1 ? $4 : 1/0):5:6 with labels left offset 0.3,0 font label_font tc rgb ink_soft notitle
unset multiplot
