# The variable of a reduction alone, where a value of its row is meant:
# an error that says so, not a read past the name (ASan).
1i\
```define\
n = count(r in top500 where r > 0)\
  unit:\
```\

