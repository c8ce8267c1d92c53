# Figure: the world's population, the UN's estimates and the fitted trend.
# needs: population.trend.to
# data: census projection
set logscale y 2
set xlabel "Year"
set ylabel "People (billions)"
set arrow from first population_trend_to, graph 0 to first population_trend_to, graph 1 nohead dt 3 lc rgb "#777777"
if (narrow) set key above
plot 'projection.dat' using 1:($2 / 1e9) title "fitted trend" with lines lw 2 lc rgb "#0072B2", \
     'census.dat' using 1:($2 / 1e9) title "UN estimates" with points pt 7 lc rgb "#000000"
