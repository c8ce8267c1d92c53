# Figure: energy per single-bit operation of the TOP500 No. 1 (power over
# Rmax, over the SBOPS counted per FLOP), its fitted trend extended to
# Landauer's kT ln 2 at room temperature, and the energy one operation
# holds in the ultimate laptop for scale.
# needs: sbops_per_flop landauer.energy_room landauer.room_temperature
# needs: laptop.op_energy edition.year article.year
# needs: energy.fit.slope energy.fit.intercept energy.fit.year_landauer
# data: energy
set style line 100 lc rgb "#bbbbbb" lw 1
set border 3 lw 1 lc rgb "#555555"
set tics nomirror textcolor rgb "#333333"
unset mxtics
unset mytics
set grid xtics ytics lc rgb "#dddddd" lw 1 dt 1
set key top right box ls 100 opaque samplen 2 spacing 1.1
set logscale y 10
set format y "10^{%L}"
set ytics 100
set xlabel "Year (TOP500 list)"
set ylabel "Energy per single-bit operation (J)"
set xrange [article_year - 3:energy_fit_year_landauer + 10]
set yrange [landauer_energy_room / 100:1e-10]
set samples 400
trend(x) = 2**(energy_fit_intercept + energy_fit_slope * x) / sbops_per_flop
set arrow from graph 0, first landauer_energy_room to graph 1, first landauer_energy_room nohead lw 2 lc rgb "#D55E00" dt 2
set label sprintf("Landauer's limit: kT ln 2 at %g K", landauer_room_temperature) at graph 0.02, first landauer_energy_room * 4 tc rgb "#D55E00"
set arrow from graph 0, first laptop_op_energy to graph 1, first laptop_op_energy nohead lw 2 lc rgb "#CC79A7" dt 4
set label "energy one operation holds in\nthe ultimate laptop (held, not spent)" at graph 0.98, first laptop_op_energy * 30 right tc rgb "#CC79A7"
set arrow from first edition_year, graph 0 to first edition_year, graph 1 nohead lw 1 lc rgb "#777777" dt 3
set label sprintf("%d", edition_year) at first edition_year, graph 0.04 offset 0.5,0 tc rgb "#555555"
set label sprintf("%d", energy_fit_year_landauer) at first energy_fit_year_landauer, first landauer_energy_room point pt 7 ps 1 lc rgb "#0072B2" offset 1,1.2 tc rgb "#0072B2"
plot trend(x) title sprintf("trend: halving in %.2f years", -1 / energy_fit_slope) lw 2 lc rgb "#0072B2", \
     'energy.dat' using 1:4 title sprintf("No. 1: power / (Rmax × %d)", sbops_per_flop) with points pt 7 ps 0.7 lc rgb "#000000"
