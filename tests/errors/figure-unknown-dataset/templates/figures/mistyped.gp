# A figure script with misspelt names in its header.
# needs: laptop.ops_max laptop.ops_mx
# data: top500 devics
# data: nothing_like_it
plot 'top500.dat' using 1:2 with lines
