# Figure: a new figure, which reads a column the data do not have.
# data: dust
set logscale xy 10
plot 'dust.dat' using 1:2 title "bits" with lines, \
     'dust.dat' using 1:9 title "nothing yet" with lines
