# The house style of the figures: ultimate loads this file before every
# figure script (after the terminal, the output and the script's "# needs:"
# variables), so that every figure has the same fonts, colours, lines,
# axes and key. A script sets only what is its own: scales, ranges,
# labels, where its key stands, and which of the colours below it uses.
# It is not a figure: no figure may be called "style".
#
# narrow is 1 in the rendering for phones (a 380x500 canvas, shown on a
# page up to 30rem wide), 0 in the wide one (600x450).
#
# Text: sans-serif, 14 px wide, 16 px narrow, so that the smallest text
# (an exponent, 0.8 of it) is at least 11 px on a 390 px wide phone.
font = sprintf("sans-serif,%d", narrow ? 16 : 14)
set termoption font font
# Text is UTF-8 (×, –, ½): gnuplot then sizes a key by its characters,
# not its bytes, and the narrow keys fit their canvas.
set encoding utf8

# Colours: the Okabe-Ito palette, told apart by colour-blind readers too,
# and greys. Scripts name them (lc rgb blue) rather than writing a hex
# number. In dark mode the page inverts the figure's lightness and keeps
# its hues (plot.c), so no colour here may rely on being darker than
# another to be seen: each must stand out from white by itself.
blue = "#0072B2"	# the main trend, the main measure
sky = "#56B4E9"		# a second trend of the same measure
orange = "#E69F00"	# the other trend, the other measure
orange_text = "#B35806"	# text in orange (#E69F00 is too light for text)
vermilion = "#D55E00"	# the ultimate limit (1 kg in 1 litre)
purple = "#CC79A7"	# the atomic-matter limit, a held energy
green = "#009E73"	# ordinary matter, a quantity on its own axis
ink = "#000000"		# data points
ink_soft = "#333333"	# tic labels, data labels
muted = "#555555"	# the border, the labels of marker lines
guide = "#777777"	# marker lines (a year, a size)
faint = "#999999"	# points behind the others
leader = "#9ab8d0"	# a line from a point to its label
frame = "#bbbbbb"	# the key's box
grid_colour = "#dddddd"	# the grid

# Lines: data and limits 2 wide, guides 1; a limit is dashed (dt 2).
lw_data = 2
lw_guide = 1
# ls 100: the key's box; ls 101: a marker line (a year, a size), as
#   set arrow from first edition_year, graph 0 to first edition_year, graph 1 nohead ls 101
set style line 100 lc rgb frame lw 1
set style line 101 lc rgb guide lw lw_guide dt 3
# A fitted line (a trend) is solid over its window, the years of the
# points it was fitted on, and dashed (dt dt_extrap) where it is
# extrapolated beyond them; a script plots the two stretches apart:
#   [fit_from:fit_to] f(x) lw lw_data lc rgb blue, [fit_to:last] f(x) lw lw_data lc rgb blue dt dt_extrap
dt_extrap = 2

# Axes: left and bottom only, tics outside, no minor tics, a light grid.
set border 3 lw 1 lc rgb muted
set tics nomirror textcolor rgb ink_soft
unset mxtics
unset mytics
set grid xtics ytics lc rgb grid_colour lw 1 dt 1

# The key: boxed, opaque (the grid does not run through it), short
# samples, top right unless the script places it (set key top left, set
# key above ...: only the place, the rest stays).
set key top right box ls 100 opaque spacing 1.1

# Curves: every function these figures draw is a trend, 2**(a + b x),
# a straight line on their log y axes, or the band between two such
# lines, so a few samples draw it exactly. 16, not 2: with two samples
# gnuplot 5.4 clips a band that leaves the plot wrongly. (400 samples,
# as before, cost gnuplot about 36 of its 82 ms for a cold edition's
# figures, 18 of them: measured alone, five runs each; the SVGs are the
# same to the pixel but for the phase of some dashes.) A script that
# draws a curved function sets its own: set samples 200.
set samples 16
