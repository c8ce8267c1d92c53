# A dataset over a range the document misspells, with the unit of its
# range: an error at the range, not a crash (the header kept no rule).
1i\
```define\
data p for t in linspac(1, 2, 3)\
  unit: m\
x = t\
```\

