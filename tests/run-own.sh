#!/bin/sh
# A report of one's own (issue 36), with the tool as a user has it and
# no C. From a fresh `ultimate init`, the minimal example builds and its
# numbers are the data's. Then a second, different report is written
# over it: an invented harbour's lanterns (its own data file, a values
# file, references), a fitted trend, a curve over logspace, checks and a
# figure; its numbers are computed again here with awk, its Methods page
# is typeset, and each kind of mistake (a failed check, a unit that does
# not fit, an unknown source key, a missing column) is one located error
# with its exact text, out/ left as it was. Last, no data file cut to
# its header makes the tool abort (exit 134, 'BUG:'): every shipped CSV
# of the Lloyd report and of the minimal project, alone and all at once.
# Usage: tests/run-own.sh path/to/ultimate
set -u
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset ULTIMATE_DATA ULTIMATE_TEMPLATES
pass=0 fail=0
# The no-break space a format puts between a number and its unit.
nbsp=$(printf '\302\240')

ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
# run NAME WANT_RC CMD...: CMD in $proj, output in $tmp/stdout, stderr
run() {
	name=$1 want=$2
	shift 2
	(cd "$proj" && "$@") >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	if [ "$rc" = "$want" ]; then ok; else
		no "$name: exit $rc, want $want"; head -5 "$tmp/stderr"; fi
}
has() { # has NAME FILE PATTERN
	if grep -q -- "$3" "$2"; then ok; else no "$1: no '$3' in $2"; fi
}
# near NAME GOT WANT: equal to 1e-9 relative (awk against C sums)
near() {
	if awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d
		m = w < 0 ? -w : w; exit !(d <= 1e-9 * m) }'; then ok
	else no "$1: $2, want $3"; fi
}
# get NAME: the value of a quantity of $proj, for near
get() { (cd "$proj" && "$ult" get "$1") 2>&1; }
# fit FILE YEAR_FIELD VALUE_FIELD: the least squares of log2(value) on
# the year's middle (year + 0.5), as 'n slope r2 value_to' where
# value_to is the line at the start of the last year
fit() {
	awk -F, -v xf="$2" -v yf="$3" 'NR > 1 {
		x = $xf + 0.5; y = log($yf) / log(2)
		n++; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y
		last = $xf
	} END {
		d = n * sxx - sx * sx
		k = (n * sxy - sx * sy) / d
		a = (sy - k * sx) / n
		r2 = (n * sxy - sx * sy) ^ 2 / (d * (n * syy - sy * sy))
		printf "%d %.17g %.17g %.17g\n", n, k, r2, 2 ^ (a + k * last)
	}' "$1"
}
# fitted NAME TREND DOUBLING CSV: the trend TREND and its doubling time
# DOUBLING are fit's of CSV's first two columns
fitted() {
	name=$1 trend=$2 doubling=$3
	set -- $(fit "$4" 1 2)
	near "$name-n" "$(get "$trend.n")" "$1"
	near "$name-slope" "$(get "$trend.slope")" "$2"
	near "$name-r2" "$(get "$trend.r2")" "$3"
	near "$name-value-to" "$(get "$trend.value_to")" "$4"
	near "$name-doubling" "$(get "$doubling")" \
		"$(awk -v k="$2" 'BEGIN { printf "%.17g", 1 / k }')"
}
# written NAME FILE...: $proj/out has each FILE, not empty
written() {
	name=$1
	shift
	for f in "$@"; do
		if [ -s "$proj/out/$f" ]; then ok; else
			no "$name: no out/$f"; fi
	done
}
# same NAME FILE: $tmp/stderr is the text of FILE, exactly
same() {
	if cmp -s "$2" "$tmp/stderr"; then ok; else
		no "$1: stderr differs:"; diff "$2" "$tmp/stderr"; fi
}

# The share folder, as make install lays it out (without the engine's
# source, which tests/run-cli.sh checks).
share=$tmp/share
mkdir -p "$share/examples" "$share/docs"
cp -R "$top/docs/examples/minimal" "$share/examples/"
cp -R "$top/data" "$top/templates" "$share/"
cp "$top/docs/templates.md" "$share/docs/"
export ULTIMATE_SHARE="$share"

# --- The minimal example --------------------------------------------------
proj=$tmp
run init 0 "$ult" init mine
proj=$tmp/mine
run minimal-report 0 "$ult" report
if [ "$(cat "$tmp/stdout")" = "report: out/index.html ($(find "$proj/out" \
	-name '*.html' | wc -l) pages)" ] && [ ! -s "$tmp/stderr" ]; then ok
else no "minimal: $(cat "$tmp/stdout" "$tmp/stderr")"; fi
written minimal index.html methods.html figures/population.svg \
	figures/population-narrow.svg figures/census.dat \
	figures/projection.dat data/population.csv
fitted minimal population.trend population.doubling \
	"$proj/data/population.csv"
set -- $(fit "$proj/data/population.csv" 1 2)
near minimal-latest "$(get population.latest)" \
	"$(awk -F, 'END { print $2 }' "$proj/data/population.csv")"
doubling=$(awk -v k="$2" 'BEGIN { printf "%.3g", 1 / k }')
has minimal-prose "$proj/out/index.html" "doubles every <a href=\"quantities/population.html#population.doubling\">$doubling</a>${nbsp}yr"
# The projection: 51 years from the first estimate to 30 after the
# last, on the fitted line.
if awk -F'\t' -v k="$2" -v v="$4" -v to="$(get population.trend.to)" '
	/^#/ { next }
	{ n++; want = v * 2 ^ (k * ($1 - to)); d = $2 - want
	  if ((d < 0 ? -d : d) > 1e-9 * want) bad++; last = $1 }
	END { exit !(n == 51 && !bad && last == to + 30) }' \
	"$proj/out/figures/projection.dat"; then ok
else no "minimal: projection.dat is not the fitted line"; fi
# The README's second thing to try, as written there.
sed -n '/^       ```define/,/^       ```$/s/^       //p' "$proj/README.md" \
	>>"$proj/data/model.md"
printf '\nAt that rate it would reach ten billion in {{ population.ten_billion | year }}.\n' \
	>>"$proj/templates/report.md"
run minimal-try-2 0 "$ult" report
near minimal-ten-billion "$(get population.ten_billion)" \
	"$(awk -v k="$2" -v v="$4" -v to="$(get population.trend.to)" \
	'BEGIN { printf "%.17g", to + log(1e10 / v) / log(2) / k }')"

# --- A second report: the lanterns of Vell --------------------------------
# Everything but the project's frame (page shell, style, house style
# of the figures) is replaced.
(cd "$proj" && rm -r out data/population.csv templates/figures/population.gp)
cat >"$proj/data/schema.csv" <<'EOF'
file,column,kind,unit,required,name,description
lanterns.csv,,rows,,,,"the lanterns lit in the harbour of Vell in one year (invented)"
lanterns.csv,year,year,,yes,,the year counted
lanterns.csv,lanterns,number,,yes,,lanterns lit that year
lanterns.csv,oil,number,L,yes,,lamp oil burnt that year
lanterns.csv,source,text,,yes,,where the count comes from
harbour.csv,,values,,,,the harbour's figures
harbour.csv,name,text,,yes,,the quantity's name
harbour.csv,value,number,,yes,,"its value, in the row's unit"
harbour.csv,unit,text,,column,,its unit
harbour.csv,source,text,,yes,,where the value comes from
references.csv,,references,,no,,a work the report cites
references.csv,key,id,,yes,,what a source cites
references.csv,label,text,,yes,,the citation's text
references.csv,authors,text,,column,,the authors
references.csv,title,text,,yes,,the work's title
references.csv,venue,text,,column,,the publisher
references.csv,year,year,,yes,,the year of publication
references.csv,doi,text,,column,,its DOI
references.csv,url,text,,column,,its address
EOF
v='"invented for tests/run-own.sh: there is no harbour of Vell [vell_book]"'
cat >"$proj/data/lanterns.csv" <<EOF
year,lanterns,oil,source
1900,12,3100,$v
1910,19,4700,$v
1920,33,8200,$v
1930,50,12900,$v
1940,81,20100,$v
1950,124,31900,$v
1960,205,52000,$v
EOF
cat >"$proj/data/harbour.csv" <<'EOF'
name,value,unit,source
vell.great_lantern,2500,W,"[vell_book], the mole (invented)"
vell.far,1000,m,invented
EOF
cat >"$proj/data/references.csv" <<'EOF'
key,label,authors,title,venue,year,doi,url
vell_book,Harbourmaster 1961,,"The Lanterns of Vell, a book invented for a test",,1961,,
EOF
cat >"$proj/data/model.md" <<'EOF'
# Methods

The lanterns of Vell, a harbour invented for a test.

```define
vell.lit = rows r in lanterns
  value: r.lanterns
  check: r.lanterns > 0: a year of the harbour has lanterns lit

vell.trend = trend r in vell.lit
  needs: 4 points, 30 years

vell.doubling = 1 / vell.trend.slope
  unit: yr
  symbol: T_V
  note: the lanterns double in number every this long
  check: vell.doubling < 50: the harbour grows fast
  source: [vell_book]

vell.great_lantern
  unit: W
  symbol: P
  check: vell.great_lantern > 0: a lantern gives light

vell.far
  unit: m
  symbol: d

vell.irradiance_far = vell.great_lantern / (4 * pi * vell.far^2)
  unit: W/m^2
  symbol: E
  note: the great lantern's light at that distance
```

```define
data beam for d in logspace(1, 1000, 31)
  unit: m
  note: the great lantern's light against distance
distance = d
irradiance = vell.great_lantern / (4 * pi * d^2)
  unit: W/m^2
```
EOF
cat >"$proj/templates/report.md" <<'EOF'
# The lanterns of Vell

The harbour's lanterns double every {{ vell.doubling | sig:3 | unit }}.
At {{ vell.far | unit }} the great lantern gives {{ vell.irradiance_far | sci:3 | unit }}
({{ cite(vell_book) }}).

{{#figure beam }}
The great lantern's light against distance.
{{#alt}}
The light falls as the square of the distance.
{{/figure}}

{{ references() }}
EOF
cat >"$proj/templates/figures/beam.gp" <<'EOF'
# Figure: the great lantern's light against distance.
# needs: vell.far
# data: beam
set logscale xy 10
set arrow from first vell_far, graph 0 to first vell_far, graph 1 nohead
plot 'beam.dat' using 1:2 title "irradiance (W/m²)" with lines
EOF
run vell-report 0 "$ult" report
written vell index.html methods.html references.html figures/beam.svg \
	figures/beam.dat data/lanterns.csv data/harbour.csv
fitted vell vell.trend vell.doubling "$proj/data/lanterns.csv"
set -- $(fit "$proj/data/lanterns.csv" 1 2)
near vell-irradiance "$(get vell.irradiance_far)" \
	"$(awk 'BEGIN { printf "%.17g", 2500 / (16 * atan2(1, 1) * 1e6) }')"
has vell-prose "$proj/out/index.html" \
	"double every <a href=\"quantities/vell.html#vell.doubling\">$(awk \
	-v k="$2" 'BEGIN { printf "%.3g", 1 / k }')</a>${nbsp}yr"
# The curve: 31 distances from 1 m to 1 km, a tenth of a decade apart,
# each with P / (4 pi d^2).
if awk -F'\t' '/^#/ { next }
	{ d = 10 ^ (n / 10); n++; e = 2500 / (16 * atan2(1, 1) * d * d)
	  if ($1 - d > 1e-9 * d || d - $1 > 1e-9 * d ||
	      $2 - e > 1e-9 * e || e - $2 > 1e-9 * e) bad++ }
	END { exit !(n == 31 && !bad) }' "$proj/out/figures/beam.dat"
then ok; else no "vell: beam.dat is not P / (4 pi d^2)"; fi
# The Methods page typesets each formula (MathML, with its symbols),
# and cites the source by its label.
has vell-methods-math "$proj/out/methods.html" \
	'<math display="block" alttext="vell.irradiance_far = vell.great_lantern / (4 \* pi \* vell.far^2)"><mrow><mrow><mtext class="sym"><a href="quantities/vell.html#vell.irradiance_far" title="vell.irradiance_far, W/m^2"><i>E</i></a></mtext>'
has vell-methods-frac "$proj/out/methods.html" '<mfrac>'
has vell-methods-source "$proj/out/methods.html" \
	'Source: <a href="references.html#ref-vell_book">Harbourmaster 1961</a>'
cp -R "$proj/out" "$tmp/good"

# Each mistake: one located error, exactly, and out/ as it was. edit
# NAME FILE SED makes it in a copy of FILE; the next edit starts over.
edit() {
	cp "$proj/$2" "$tmp/orig"
	sed "$3" "$tmp/orig" >"$proj/$2"
	run "$1" 1 "$ult" report
	cp "$tmp/orig" "$proj/$2"
	if diff -r "$tmp/good" "$proj/out" >/dev/null; then ok; else
		no "$1: out/ changed"; fi
}
edit vell-check-row data/lanterns.csv 's/^1930,50,/1930,0,/'
cat >"$tmp/want" <<EOF
data/lanterns.csv:5:6: error: column 'lanterns': fails the check 'a year of the harbour has lanterns lit' (r.lanterns = 0), data/model.md:8:10
    1930,0,12900,$v
         ^
ultimate: 1 error
EOF
same vell-check-row "$tmp/want"
edit vell-check data/model.md 's/vell.doubling < 50:/vell.doubling < 10:/'
cat >"$tmp/want" <<'EOF'
data/model.md:17:10: error: this check fails: the harbour grows fast (vell.doubling = 14.7434)
      check: vell.doubling < 10: the harbour grows fast
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
ultimate: 1 error
EOF
same vell-check "$tmp/want"
edit vell-unit data/model.md \
	'/^vell.irradiance_far =/,/unit:/s|unit: W/m^2|unit: W|'
cat >"$tmp/want" <<'EOF'
data/model.md:29:23: error: this expression is in kg/s^3, but the unit given is 'W'
    vell.irradiance_far = vell.great_lantern / (4 * pi * vell.far^2)
                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
ultimate: 1 error
EOF
same vell-unit "$tmp/want"
edit vell-unit-data data/harbour.csv 's/^vell.great_lantern,2500,W,/vell.great_lantern,2500,J,/'
cat >"$tmp/want" <<'EOF'
data/harbour.csv:2:25: error: column 'unit': 'J' is not of the dimension of 'W', the unit data/model.md:21:9 declares for 'vell.great_lantern'
    vell.great_lantern,2500,J,"[vell_book], the mole (invented)"
                            ^
ultimate: 1 error
EOF
same vell-unit-data "$tmp/want"
edit vell-source-key data/model.md 's/  source: \[vell_book\]$/  source: [vell_boook]/'
cat >"$tmp/want" <<'EOF'
data/model.md:18:11: error: unknown reference '[vell_boook]' (not a key of data/references.csv); did you mean 'vell_book'?
      source: [vell_boook]
              ^^^^^^^^^^^^
ultimate: 1 error
EOF
same vell-source-key "$tmp/want"
edit vell-missing-column data/lanterns.csv \
	's/^year,lanterns,oil,source$/year,lanterns,source/; s/^\([0-9]*,[0-9]*\),[0-9]*,/\1,/'
cat >"$tmp/want" <<'EOF'
data/lanterns.csv:1:1: error: missing required column 'oil'
    year,lanterns,source
    ^
ultimate: 1 error
EOF
same vell-missing-column "$tmp/want"

# --- A page of its own ------------------------------------------------------
# templates/NAME.md is a page, out/NAME.html (and in every edition's
# folder), in the navigation by its title; its tables are numbered on
# from the report's, references go across pages both ways (a link to
# a heading too), and its citations link to the report's references
# list, which lists them.
cat >>"$proj/data/references.csv" <<'EOF'
vell_chart,Chart of Vell 1955,,"A chart of the harbour, invented for a test",,1955,,
EOF
cat >"$proj/templates/lamps.md" <<'EOF'
# The lamps of the mole

The light of {{@beam}} comes from oil ({{ cite(vell_chart) }}).

{{#table doubling }}
How fast the lanterns grow.
{{/table}}

| quantity | value |
|---|---|
| doubling time | {{ vell.doubling | sig:3 | unit }} |
EOF
cat >>"$proj/templates/report.md" <<'EOF'

{{#table far }}
The far mark.
{{/table}}

| quantity | value |
|---|---|
| distance | {{ vell.far | unit }} |

{{@doubling}}, on a page of its own, gives the pace; [the lamps](#the-lamps-of-the-mole)
tell more.
EOF
run pages-report 0 "$ult" report
written pages lamps.html references.html
has pages-title "$proj/out/lamps.html" '<title>The lamps of the mole · '
has pages-nav "$proj/out/index.html" \
	'<li><a href="index.html" aria-current="page">Report</a></li><li><a href="lamps.html">The lamps of the mole</a></li>'
has pages-number "$proj/out/lamps.html" '<strong>Table 2\.</strong>'
has pages-number-main "$proj/out/index.html" '<strong>Table 1\.</strong>'
has pages-ref-out "$proj/out/index.html" \
	'<a href="lamps.html#tab-doubling">Table 2</a>'
has pages-heading "$proj/out/index.html" \
	'<a href="lamps.html#the-lamps-of-the-mole">the lamps</a>'
has pages-ref-in "$proj/out/lamps.html" \
	'<a href="index.html#fig-beam">Figure 1</a>'
has pages-cite "$proj/out/lamps.html" \
	'<a href="index.html#ref-vell_chart">Chart of Vell 1955</a>'
has pages-cite-list "$proj/out/index.html" '<li id="ref-vell_chart">'
has pages-quantity "$proj/out/lamps.html" \
	'<a href="quantities/vell.html#vell.doubling">'
cp -R "$proj/out" "$tmp/pages-good"
# A name the site writes itself, or one not made of a-z, 0-9 and '-':
# an error at the file, out/ as it was.
# (run sets $name.)
for pg in data Lamps_2; do
	printf '# Not a page\n' >"$proj/templates/$pg.md"
	run "pages-name-$pg" 1 "$ult" report
	rm "$proj/templates/$pg.md"
	if diff -r "$tmp/pages-good" "$proj/out" >/dev/null; then ok; else
		no "pages-name-$pg: out/ changed"; fi
	cp "$tmp/stderr" "$tmp/stderr-$pg"
done
cp "$tmp/stderr-data" "$tmp/stderr"
cat >"$tmp/want" <<'EOF'
templates/data.md:1:1: error: the site writes a page 'data' itself: name this page otherwise
ultimate: 1 error
EOF
same pages-name-data "$tmp/want"
cp "$tmp/stderr-Lamps_2" "$tmp/stderr"
cat >"$tmp/want" <<'EOF'
templates/Lamps_2.md:1:1: error: a page's name is made of a-z, 0-9 and '-': rename it (or move it into a folder, for an include)
ultimate: 1 error
EOF
same pages-name-Lamps_2 "$tmp/want"
# The no-op key: unchanged, the run stops after the check; the page
# changed, it is built again.
run pages-noop 0 "$ult" --timings report
has pages-noop "$tmp/stderr" '^timing: noop '
if grep -q '^timing: model ' "$tmp/stderr"; then
	no "pages-noop: a model was built"; else ok; fi
printf '\nA line more.\n' >>"$proj/templates/lamps.md"
run pages-changed 0 "$ult" --timings report
has pages-changed "$tmp/stderr" '^timing: model '
has pages-changed "$proj/out/lamps.html" 'A line more\.'
# Two pages that place the same label: an error at the second.
printf '\n{{#table far }}\nAgain.\n{{/table}}\n\n| a |\n|---|\n| b |\n' \
	>>"$proj/templates/lamps.md"
run pages-label-twice 1 "$ult" report
has pages-label-twice "$tmp/stderr" \
	"^templates/lamps.md:[0-9]*:[0-9]*: error: label 'far' is used on two pages (first at templates/report.md:"

# --- Data files cut to their header ----------------------------------------
# Each alone, then all at once: an error or a report, never an abort.
# (An empty history leaves a figure script of the Lloyd report no point
# to plot: gnuplot's warning, exit 3, is a located error too.)
# cut_run NAME FILE...: report with each FILE of $proj/data cut
cut_run() {
	name=$1
	shift
	for f in "$@"; do
		head -n 1 "$proj/data/$f" >"$tmp/head" &&
			cp "$tmp/head" "$proj/data/$f"
	done
	(cd "$proj" && "$ult" report) >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	case $rc in
	0 | 1 | 3) ok ;;
	*) no "header-only $name: exit $rc"; head -3 "$tmp/stderr" ;;
	esac
	if grep -q 'BUG' "$tmp/stderr"; then
		no "header-only $name: $(grep -m1 BUG "$tmp/stderr")"; else ok; fi
	# A failure says where: file:line:col, or the tool's own line.
	if [ "$rc" = 0 ] || head -n 1 "$tmp/stderr" |
		grep -Eq '^([^ :]+:[0-9]+:[0-9]+|ultimate): (error|warning): '
	then ok; else no "header-only $name: $(head -n 1 "$tmp/stderr")"; fi
}
# cut_each DIR: every CSV of DIR's data/ alone, then all at once, and
# all but the catalogue, each in a copy of DIR as $proj
cut_each() {
	files=$(cd "$1/data" && ls -- *.csv)
	for f in $files; do
		rm -rf "$tmp/cut"
		cp -R "$1" "$tmp/cut"
		proj=$tmp/cut
		cut_run "$(basename "$1")/$f" "$f"
	done
	# shellcheck disable=SC2086 # names without spaces, from ls
	for set in "$files" "$(echo $files | sed 's/schema\.csv//')"; do
		rm -rf "$tmp/cut"
		cp -R "$1" "$tmp/cut"
		cut_run "$(basename "$1")/$(echo $set | tr ' ' '+')" $set
	done
}
mkdir "$tmp/lloyd"
cp -R "$top/data" "$top/templates" "$tmp/lloyd/"
cut_each "$tmp/lloyd"
rm -rf "$tmp/mine"
proj=$tmp
run init-again 0 "$ult" init mine
cut_each "$tmp/mine"

echo "own: $pass passed, $fail failed"
[ "$fail" = 0 ]
