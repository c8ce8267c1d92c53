# A figure script with a mistake on its fourth line.
# needs: laptop.ops_max
set xrange [0:1]
plot undefined_function(x) title "broken"
