# Figure: for each device the edition picks (the article's year's, the
# newest of each kind, the nearest to each limit: every device of the
# data would not fit), how many orders of magnitude it stands below the
# 1 kg limits, for speed (its highest peak rate, as device.<id>.flops)
# and for working memory (its RAM, as device.<id>.ram_bits).
# needs: edition.year
# needs: laptop.mass laptop.volume
# data: picked
set grid noytics
set key above
set xlabel sprintf("Orders of magnitude below the limit of a %g kg, %g litre computer", laptop_mass, laptop_volume * 1e3)
# On a phone (narrow): the key in one column, the axis label
# on two lines, fewer tics.
if (narrow) set key above vertical maxrows 2 Left reverse; set xlabel sprintf("Orders of magnitude below\nthe %g kg, %g litre limit", laptop_mass, laptop_volume * 1e3); set xtics 10
set xrange [0:45]
set yrange [-0.7:*] reverse
# The names come from the data, written for enhanced text (ultimate
# escapes them): drawn enhanced, they show as they are.
set ytics scale 0
set lmargin 18
set style fill solid 0.85 noborder
plot 'picked.dat' using ($4 / 2):($0 - 0.19):($4 / 2):(0.17):ytic(6) with boxxyerror lc rgb blue title "speed (single-bit ops/s)", \
     'picked.dat' using ($5 / 2):($0 + 0.19):($5 / 2):(0.17) with boxxyerror lc rgb orange title "working memory (bits)", \
     'picked.dat' using ($4 + 0.4):($0 - 0.19):(sprintf("%.1f", $4)) with labels left tc rgb blue notitle, \
     'picked.dat' using ($5 + 0.4):($0 + 0.19):(sprintf("%.1f", $5)) with labels left tc rgb orange_text notitle
