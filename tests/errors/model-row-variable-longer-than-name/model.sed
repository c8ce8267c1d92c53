# A reduction whose variable is longer than a name its condition reads:
# the name is not read past its end (ASan), and it is unknown.
1i\
```define\
n = count(a_long_variable_name in top500 where r.rmax_flops > 0)\
  unit:\
```\

