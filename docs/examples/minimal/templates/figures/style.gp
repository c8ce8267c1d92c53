# The house style: loaded before every figure script, after its
# variables (narrow is 1 in the rendering for phones, 0 otherwise).
font = sprintf("sans-serif,%d", narrow ? 16 : 14)
set termoption font font
set border 3
set tics nomirror
set grid lc rgb "#dddddd"
set key top left box opaque
