#!/bin/sh
# Command-line tests: what a user sees from ultimate's commands, the
# files `report` writes, reproducibility, and that a failed run leaves
# the previous output untouched.
# Usage: tests/run-cli.sh path/to/ultimate
set -u
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tests choose their folders: none from the caller's environment.
unset ULTIMATE_DATA ULTIMATE_TEMPLATES
pass=0 fail=0

ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
# expect_in DIR NAME WANT_RC CMD...: runs CMD in DIR, output in
# $tmp/stdout and $tmp/stderr; expect NAME WANT_RC CMD...: in $top
expect_in() {
	dir=$1 name=$2 want=$3
	shift 3
	(cd "$dir" && "$@") >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	if [ "$rc" = "$want" ]; then ok; else
		no "$name: exit $rc, want $want"; cat "$tmp/stderr"; fi
}
expect() { expect_in "$top" "$@"; }
has() { # has NAME FILE PATTERN
	if grep -q -- "$3" "$2"; then ok; else no "$1: no '$3' in $2"; fi
}

expect version 0 "$ult" --version
has version "$tmp/stdout" '^ultimate [0-9]'
expect help 0 "$ult" --help
has help "$tmp/stdout" 'explain NAME'
# Every exit status main.c uses is listed, and 128 + a signal.
for code in $(sed -n 's/^	EXIT_[A-Z]* = \([0-9]*\),.*/\1/p' "$top/src/main.c"); do
	has "help-exit-$code" "$tmp/stdout" "^  $code  "
done
if [ "$(sed -n 's/^	EXIT_[A-Z]* = \([0-9]*\),.*/\1/p' "$top/src/main.c" |
	wc -l)" -ge 4 ]; then ok; else no "help: exit codes not found in main.c"; fi
has help-exit-signal "$tmp/stdout" '^  128+N  *stopped by signal N'
expect no-command 2 "$ult"
expect bad-command 2 "$ult" frobnicate
has bad-command "$tmp/stderr" "unknown command 'frobnicate'"
expect bad-option 2 "$ult" --frob list
# Arguments are shown, not obeyed by the terminal: no raw ESC or BEL.
esc=$(printf '\033]0;owned\007\033[2J')
raw_controls() { # raw_controls NAME FILE: none in FILE
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$2"
	then no "$1: a raw terminal control in $2"; else ok; fi
}
expect bad-command-escaped 2 "$ult" "frob${esc}"
has bad-command-escaped "$tmp/stderr" "unknown command 'frob\\\\x1b\]0;owned"
raw_controls bad-command-escaped "$tmp/stderr"
expect bad-option-escaped 2 "$ult" "--frob${esc}" list
raw_controls bad-option-escaped "$tmp/stderr"
expect bad-year-escaped 2 "$ult" --as-of "20${esc}" list
raw_controls bad-year-escaped "$tmp/stderr"
expect bad-short-option-escaped 2 "$ult" "-${esc}" list
raw_controls bad-short-option-escaped "$tmp/stderr"
expect near-option-escaped 2 "$ult" "--as-of${esc}=2010" list
raw_controls near-option-escaped "$tmp/stderr"
expect near-command-escaped 2 "$ult" "report${esc}"
raw_controls near-command-escaped "$tmp/stderr"
expect out-escaped 1 "$ult" -o "$tmp/no/such${esc}/out" report
raw_controls out-escaped "$tmp/stderr"
expect get-needs-name 2 "$ult" get
expect list-takes-one 2 "$ult" list laptop. extra
expect check-takes-none 2 "$ult" check extra

# The command line is two tables in src/main.c, commands[] and options[]:
# --help is made from them, each command has its line in it.
ncmds=0
for c in $(sed -n 's/^	{ \.name = "\([a-z]*\)", \.run = cmd_[a-z]*,.*/\1/p' "$top/src/main.c"); do
	ncmds=$((ncmds + 1))
	"$ult" --help >"$tmp/stdout"
	has "help-command-$c" "$tmp/stdout" "^  $c\( [A-Z[]\| \{2,\}[a-z]\)"
done
if [ "$ncmds" -ge 8 ]; then ok; else
	no "help: $ncmds commands found in main.c's commands[]"; fi
# A mistyped command or option gets the closest, then the usage.
expect did-you-mean-command 2 "$ult" reprot
has did-you-mean-command "$tmp/stderr" "^ultimate: unknown command 'reprot'; did you mean 'report'?\$"
has did-you-mean-command-usage "$tmp/stderr" '^usage: ultimate '
expect did-you-mean-option 2 "$ult" --as-off=2010 list
has did-you-mean-option "$tmp/stderr" "^ultimate: unknown option '--as-off'; did you mean '--as-of'?\$"
has did-you-mean-option-usage "$tmp/stderr" '^usage: ultimate '
expect unknown-option-far 2 "$ult" --frob list
has unknown-option-far "$tmp/stderr" "^ultimate: unknown option '--frob'\$"
# --opt=value and --opt value, before or after the command, -dDIR, and
# an abbreviation that names one option; an ambiguous one is an error.
expect option-eq-after 0 "$ult" get --as-of=2008 record.name
has option-eq-after "$tmp/stdout" '^Roadrunner$'
expect short-attached 0 "$ult" "-d$top/data" get laptop.mass
has short-attached "$tmp/stdout" '^1$'
expect abbrev 0 "$ult" --as=2008 get edition.year
has abbrev "$tmp/stdout" '^2008$'
expect abbrev-space 0 "$ult" get edition.year --as 2008
has abbrev-space "$tmp/stdout" '^2008$'
expect abbrev-ambiguous 2 "$ult" --t list
has abbrev-ambiguous "$tmp/stderr" "^ultimate: option '--t' is ambiguous; could be '--templates', '--tables' or '--timings'\$"
expect abbrev-needs-value 2 "$ult" list --as
has abbrev-needs-value "$tmp/stderr" "^ultimate: option '--as-of' needs a value\$"
expect empty-option-name 2 "$ult" --=2008 list
has empty-option-name "$tmp/stderr" "^ultimate: unknown option '--'\$"
expect option-takes-no-value 2 "$ult" --no-editions=yes report
has option-takes-no-value "$tmp/stderr" "^ultimate: option '--no-editions' takes no value\$"
# After "--", words only.
expect double-dash 0 "$ult" -- get laptop.mass
has double-dash "$tmp/stdout" '^1$'

expect get 0 "$ult" get laptop.ops_max
has get "$tmp/stdout" '^5\.42556995[0-9]*e+50$'
expect get-text-free 0 "$ult" get laptop.bits_max
has get-bits "$tmp/stdout" '^2\.1329[0-9]*e+31$'
expect explain 0 "$ult" explain laptop.ops_max
has explain-formula "$tmp/stdout" 'formula: 2 . laptop.energy / (pi . const.hbar) (Margolus-Levitin)'
has explain-input "$tmp/stdout" 'laptop.energy = 8.98755'
has explain-source "$tmp/stdout" 'source: \[lloyd2000\]'
# README's "Command line" shows this explain as it is, and a data error
# (its line, the row and the caret) as the one 'one' in laptop.mass's
# value gives.
sed -n '/^    \$ \.\/ultimate explain laptop\.ops_max$/,/^$/p' "$top/README.md" |
	sed '1d;$d;s/^    //' | diff -u - "$tmp/stdout" >"$tmp/diff"
if [ "$(wc -l <"$tmp/stdout")" -ge 5 ] && [ ! -s "$tmp/diff" ]; then ok; else
	no "README.md's explain example is not the tool's:"; cat "$tmp/diff"; fi
mkdir "$tmp/one" && cp -R "$top/data" "$tmp/one/"
sed -i '2s/^laptop\.mass,1,/laptop.mass,one,/' "$tmp/one/data/assumptions.csv"
expect_in "$tmp/one" readme-data-error 1 "$ult" get laptop.mass
sed -n '/^    data\/assumptions\.csv:[0-9]*:[0-9]*: error: /{N;N;s/^    //;s/\n    /\n/g;p;}' \
	"$top/README.md" >"$tmp/one/readme-err"
head -3 "$tmp/stderr" | diff -u "$tmp/one/readme-err" - >"$tmp/one/diff"
if [ "$(wc -l <"$tmp/one/readme-err")" = 3 ] && [ ! -s "$tmp/one/diff" ] &&
	grep -q "^data/assumptions.csv:2:[0-9]*: error: column 'value'" "$tmp/stderr"
then ok; else no "README.md does not show the data error as the tool does:"
	cat "$tmp/one/diff"; fi
rm -rf "$tmp/one"
expect explain-assumption 0 "$ult" explain laptop.mass
has explain-origin "$tmp/stdout" 'defined at: data/assumptions.csv:2'
expect list 0 "$ult" list
has list "$tmp/stdout" '^laptop.temperature  *5870804[0-9.]* K$'
# list PREFIX: the quantities whose names start with it, or an error
# with the closest prefixes.
expect list-prefix 0 "$ult" list laptop.
has list-prefix "$tmp/stdout" '^laptop.ops_max  *5.4255'
if ! grep -qv '^laptop\.' "$tmp/stdout" && [ -s "$tmp/stdout" ]; then ok; else
	no "list laptop.: a name without the prefix"; fi
expect list-prefix-name 0 "$ult" list laptop.ops_max
if [ "$(wc -l <"$tmp/stdout")" = 1 ]; then ok; else
	no "list laptop.ops_max: not one line"; fi
expect list-no-match 1 "$ult" list lapt0p.
if [ "$(cat "$tmp/stderr")" = "ultimate: error: no quantity starts with 'lapt0p.'; did you mean 'laptop.'?" ] &&
	[ ! -s "$tmp/stdout" ]; then ok; else
	no "list lapt0p.: $(cat "$tmp/stderr")"; fi
expect list-no-match-part 1 "$ult" list device.roadrunnr
has list-no-match-part "$tmp/stderr" "did you mean 'device.roadrunner'?"
expect list-nothing-close 1 "$ult" list zzzz
has list-nothing-close "$tmp/stderr" "^ultimate: error: no quantity starts with 'zzzz' (see 'ultimate list')\$"

# datasets: what a figure script can read, as docs/templates.md lists
# it (the block after "as \`ultimate datasets\` prints them").
expect datasets 0 "$ult" datasets
has datasets "$tmp/stdout" '^top500.dat: '
has datasets-label "$tmp/stdout" '^   4  label '
awk '/as `ultimate datasets` prints them/ { on = 1; next }
	on && /^```/ { if (in_block) exit; in_block = 1; next }
	in_block { print }' "$top/docs/templates.md" >"$tmp/doc-datasets"
diff -u "$tmp/doc-datasets" "$tmp/stdout" >"$tmp/diff"
if [ -s "$tmp/doc-datasets" ] && [ ! -s "$tmp/diff" ]; then ok; else
	no "docs/templates.md lists other datasets than 'ultimate datasets'"
	cat "$tmp/diff"; fi
# Every dataset a shipped figure script asks for exists.
for ds in $(sed -n 's/^# data://p' "$top"/templates/figures/*.gp); do
	has "datasets-$ds" "$tmp/stdout" "^$ds.dat: "
done
# The worked example of a figure script in docs/templates.md draws.
cp -R "$top/templates" "$tmp/ex-templates"
for f in "$tmp"/ex-templates/*.md; do	# the report's other pages are not the example's
	[ "$(basename "$f")" = report.md ] || rm -f "$f"
done
printf '# R\n\n{{#figure ex}}\nCap.\n{{#alt}}\nAlt.\n{{/figure}}\n' \
	>"$tmp/ex-templates/report.md"
{
	sed -n '/^    # Figure: the TOP500 No. 1 against/,/^    # data: top500$/p' \
		"$top/docs/templates.md"
	sed -n '/^    set logscale y 10$/,/laptop_ops_max title "1 kg limit"/p' \
		"$top/docs/templates.md"
} | sed 's/^    //' >"$tmp/ex-templates/figures/ex.gp"
expect docs-figure-example 0 "$ult" -t "$tmp/ex-templates" -o "$tmp/ex-out" \
	--no-editions report
if grep -q '^plot ' "$tmp/ex-templates/figures/ex.gp" &&
	grep -q 'doubling every 2.0 years' "$tmp/ex-out/figures/ex.svg"; then ok
else no "docs/templates.md: the figure script example does not draw"; fi
# "# optional:": a quantity the model has is a variable, one it lacks
# is none (exists() is 0), where "# needs:" would be an error.
printf '%s\n' '# optional: article.year no.such.quantity' \
	'set title sprintf("opt %d %d %d", exists("article_year"), exists("no_such_quantity"), article_year)' \
	'plot x' >"$tmp/ex-templates/figures/ex.gp"
expect figure-optional 0 "$ult" -t "$tmp/ex-templates" -o "$tmp/ex-out" \
	--no-editions report
if grep -q 'opt 1 0 2008' "$tmp/ex-out/figures/ex.svg"; then ok
else no "a figure's '# optional:' names are not variables as they should be"; fi
expect datasets-takes-none 2 "$ult" datasets top500
expect tables-only-datasets 2 "$ult" --tables list
has tables-only-datasets "$tmp/stderr" "^ultimate: --tables is an option of 'datasets'\$"

# The data files' columns, as the loader reads them: docs/design.md ("The
# data files") lists each file's columns, in order ("\`data/FILE.csv\`
# (\`a,b,c\`)").
expect tables 0 "$ult" datasets --tables
awk '/^[a-z_0-9]*\.csv: / { if (f) print f ": " c; f = $1; sub(":", "", f); c = ""; next }
	/^  [a-z_0-9]/ { c = c (c ? "," : "") $1 }
	END { if (f) print f ": " c }' "$tmp/stdout" >"$tmp/tables"
tr '\n' ' ' <"$top/docs/design.md" |
	grep -o '`data/[a-z_0-9]*\.csv` (`[^`]*`' |
	sed 's/^`data\/\([^`]*\)` (`\([^`]*\)`$/\1: \2/; s/ //g; s/:/: /' |
	sort >"$tmp/readme-tables"
sort "$tmp/tables" >"$tmp/tables-sorted"
if [ "$(wc -l <"$tmp/tables")" -ge 7 ] &&
	diff -u "$tmp/readme-tables" "$tmp/tables-sorted" >"$tmp/diff"; then ok
else
	no "docs/design.md's column lists differ from 'ultimate datasets --tables'"
	cat "$tmp/diff"; fi
# docs/design.md's module table ("Layout and modules") names every
# module of src/ once, and none that is gone.
sed -n '/^| stage | module | owns |$/,/^$/s/^|[^|]*| `\([a-z0-9_]*\)` |.*/\1/p' \
	"$top/docs/design.md" | sort >"$tmp/mods-doc"
(cd "$top/src" && ls -- *.c) | sed 's/\.c$//' | sort >"$tmp/mods-src"
if [ "$(wc -l <"$tmp/mods-src")" -ge 40 ] &&
	diff -u "$tmp/mods-src" "$tmp/mods-doc" >"$tmp/diff"; then ok
else no "docs/design.md's module table is not src/'s modules:"
	cat "$tmp/diff"; fi
# And every shipped data file's header names the schema's columns.
for f in "$top"/data/*.csv; do
	b=$(basename "$f")
	if grep -qx "$b: $(head -1 "$f" | tr -d '\r')" "$tmp/tables"; then ok
	else no "$b: header '$(head -1 "$f")' is not the schema's"; fi
done

# Every column the schema declares is checked when its file is read,
# whether the model reads it or not: for each column of each file, as
# 'datasets --tables' lists them, bad values of its kind in the last row
# of a copy of the data each fail 'report' with an error at that line,
# naming the file and the column. A column added to schema.c is tested
# here without a word more (and the headers above are the schema's).
# csv_set FIELD VALUE: the line with its FIELD-th field (1-based,
# RFC 4180 quoting) replaced by VALUE.
csv_set='
function set(line, k, v,   i, c, q, n, out, start) {
	n = 1; q = 0; start = 1
	for (i = 1; i <= length(line) + 1; i++) {
		c = substr(line, i, 1)
		if (c == "\"") q = !q
		else if ((c == "," && !q) || i > length(line)) {
			if (n == k) return substr(line, 1, start - 1) v substr(line, i)
			n++; start = i + 1
		}
	}
	return line
}'
cols_checked=0
awk '/^[a-z_0-9]*\.csv: / { f = $1; sub(":", "", f); next }
	/^  [a-z_0-9]/ { e = /may be empty|optional/ ? "empty" : "required"
		print f, $1, $2, e }' "$tmp/stdout" >"$tmp/columns"
while read -r file col kind empty; do
	case $kind in
	number) bads='banana Infinity 0x10 1e400 nan' ;;
	year) bads='banana 2000.5 99 1e400' ;;
	month) bads='banana 2000-13 2000-1' ;;
	id) bads='Not-an-id' ;;
	text) bads='' ;;
	*) no "$file: column '$col' of unknown kind '$kind'"; continue ;;
	esac
	# An empty cell is a bad value where the column must not be empty.
	[ "$empty" = required ] && bads="$bads ''"
	[ -n "$bads" ] || continue
	k=$(head -1 "$top/data/$file" | tr -d '\r' | tr ',' '\n' |
		grep -nx -- "$col" | cut -d: -f1)
	if [ -z "$k" ]; then
		no "$file: schema column '$col' not in the shipped file"
		continue
	fi
	line=$(wc -l <"$top/data/$file")
	cols_checked=$((cols_checked + 1))
	for bad in $bads; do
		[ "$bad" = "''" ] && bad=
		rm -rf "$tmp/gen"
		mkdir "$tmp/gen"
		cp -R "$top/data" "$tmp/gen/"
		awk -v n="$line" -v k="$k" -v v="$bad" "$csv_set"'
			NR == n { $0 = set($0, k, v) } { print }' \
			"$top/data/$file" >"$tmp/gen/data/$file"
		expect_in "$tmp/gen" "bad-$file-$col-'$bad'" 1 "$ult" -d data \
			-t "$top/templates" -o out report
		if grep -q "^data/$file:$line:[0-9]*: error: column '$col': " \
			"$tmp/stderr" && [ ! -e "$tmp/gen/out" ]; then ok
		else no "$file: '$bad' in column '$col', line $line:" \
			"$(head -3 "$tmp/stderr")"; fi
	done
done <"$tmp/columns"
# Every column but those of text that may be empty: 56 of 81 in 10 files.
if [ "$cols_checked" -ge 50 ]; then ok; else
	no "bad values: only $cols_checked columns tried"; fi
rm -rf "$tmp/gen"

# With no folder given or found, the commands read the share folder's
# data/ and templates/: $ULTIMATE_SHARE's when set (the one init uses).
mkdir "$tmp/noproject"
expect_in "$tmp/noproject" share-data 0 env ULTIMATE_SHARE="$top" "$ult" get laptop.mass
has share-data "$tmp/stdout" '^1$'
expect_in "$tmp/noproject" share-missing 1 env ULTIMATE_SHARE="$tmp/none" "$ult" get laptop.mass
has share-missing "$tmp/stderr" "cannot open '$tmp/none/data/"
rmdir "$tmp/noproject"

# README's "Adding a limit": its define block, appended to a copy of
# data/model.md, and a sentence in report.md give the new quantity,
# typeset on the Methods and quantities pages, with no rebuild; the
# wrong unit is a located error naming both units, as README shows it
# (but the line, which is where the block goes).
mkdir "$tmp/limit" && cp -R "$top/data" "$top/templates" "$tmp/limit/"
sed -n '/^## Adding a limit$/,/^##/p' "$top/README.md" >"$tmp/limit/readme"
sed -n '/^    ```define$/,/^    ```$/s/^    //p' "$tmp/limit/readme" \
	>"$tmp/limit/block"
lim=$(sed -n '2s/ = .*//p' "$tmp/limit/block")
{ echo; cat "$tmp/limit/block"; } >>"$tmp/limit/data/model.md"
printf '\nIt would dissipate {{ %s }}.\n' "$lim" \
	>>"$tmp/limit/templates/report.md"
expect_in "$tmp/limit" limit-report 0 "$ult" -o out report
expect_in "$tmp/limit" limit-get 0 "$ult" get "$lim"
want=$("$ult" get laptop.ops_max) room=$("$ult" get landauer.energy_room)
if [ -n "$lim" ] && awk -v g="$(cat "$tmp/stdout")" -v a="$want" \
	-v b="$room" 'BEGIN { d = g / (a * b) - 1; exit !(d < 1e-12 &&
	d > -1e-12) }'; then ok; else
	no "limit: $lim is '$(cat "$tmp/stdout")', not ops_max x energy_room"
fi
has limit-methods "$tmp/limit/out/methods.html" \
	"<math[^>]*alttext=\"$lim = "
has limit-page "$tmp/limit/out/quantities/landauer.html" \
	"<tr id=\"$lim\">.*<math"
has limit-report "$tmp/limit/out/index.html" "It would dissipate"
line=$(grep -n "^$lim = " "$tmp/limit/data/model.md" | cut -d: -f1)
sed -i "${line:-1},\$ s/^  unit: W\$/  unit: J/" "$tmp/limit/data/model.md"
expect_in "$tmp/limit" limit-bad-unit 1 "$ult" get "$lim"
has limit-bad-unit "$tmp/stderr" "^data/model.md:$line:[0-9]*: error: \
this expression is in kg m^2 ops/(bit s^3), but the unit given is 'J'$"
sed -n '/^    data\/model.md:[0-9]*:[0-9]*: error: /{N;N;s/^    //;s/\n    /\n/g;p;}' \
	"$tmp/limit/readme" | sed '1s/^data\/model.md:[0-9]*:/data\/model.md:L:/' \
	>"$tmp/limit/readme-err"
head -3 "$tmp/stderr" | sed '1s/^data\/model.md:[0-9]*:/data\/model.md:L:/' |
	diff -u "$tmp/limit/readme-err" - >"$tmp/limit/diff"
if [ "$(wc -l <"$tmp/limit/readme-err")" = 3 ] && [ ! -s "$tmp/limit/diff" ]
then ok; else no "README.md's error for a wrong unit is not the tool's:"
	cat "$tmp/limit/diff"; fi

# README's "Your first section": each file it shows (the fenced block
# after a line ending in \`PATH\`:), added to a copy of the project, is a
# section with a computed value, a table and a figure that builds in
# every edition; the mistyped name it shows gives the error it shows.
mkdir "$tmp/first" && cp -R "$top/data" "$top/templates" "$tmp/first/"
awk -v dir="$tmp/first" '
	$0 == "## Your first section" { on = 1; next }
	!on { next }
	/^```/ { if (path != "" && !inblock) { inblock = 1; n++ }
		else { inblock = 0; path = "" }
		next }
	inblock { print >>(dir "/" path); next }
	/^## / { exit }
	/`[a-z][^`]*`:$/ { path = $0; sub(/`:$/, "", path); sub(/.*`/, "", path) }
	END { print n + 0 >(dir "/files") }' "$top/README.md"
if [ "$(cat "$tmp/first/files")" = 3 ]; then ok; else
	no "README.md's first section: $(cat "$tmp/first/files") files, not 3"; fi
expect_in "$tmp/first" first-section 0 "$ult" -o out report
has first-section-heading "$tmp/first/out/index.html" '<h2 id="my-first-section"'
has first-section-value "$tmp/first/out/index.html" \
	'^<a href="quantities/record.html#record.gap.ops.orders">[0-9.]*</a> orders of magnitude'
has first-section-table "$tmp/first/out/index.html" \
	'<strong>Table [0-9]*\.</strong> The newest machine of each kind'
has first-section-figure "$tmp/first/out/index.html" 'src="figures/first.svg"'
has first-section-2008 "$tmp/first/out/editions/2008/index.html" \
	'src="figures/first.svg"'
if xmllint --noout "$tmp/first/out/figures/first.svg" 2>/dev/null; then ok
else no "README.md's first section: figures/first.svg is not valid SVG"; fi
sed -i 's/{{ record.name }}/{{ record.nmae }}/' \
	"$tmp/first/templates/sections/first.md"
expect_in "$tmp/first" first-section-typo 1 "$ult" -o out report
sed -n '/^    templates\/sections\/first.md:[0-9]*:[0-9]*: error: /{N;N;s/^    //;s/\n    /\n/g;p;}' \
	"$top/README.md" >"$tmp/first/readme-err"
head -3 "$tmp/stderr" | diff -u "$tmp/first/readme-err" - >"$tmp/first/diff"
if [ "$(wc -l <"$tmp/first/readme-err")" = 3 ] && [ ! -s "$tmp/first/diff" ]
then ok; else no "README.md's error for a mistyped name is not the tool's:"
	cat "$tmp/first/diff"; fi
rm -rf "$tmp/first"

# A loop is named as the loop, whatever the way to it: through a
# constant defined before the provider of what the loop's members read
# (had been "unknown quantity 'laptop.mass'"), and through a pick that
# reads a definition that reads the pick (had been "unknown quantity").
mkdir "$tmp/loop" && cp -R "$top/data" "$tmp/loop/"
sed -i 's|^const\.hbar = const\.h / (2 \* pi)$|const.hbar = laptop.ops_max / (2 * pi)|' \
	"$tmp/loop/data/model.md"
line=$(grep -n '^const\.hbar = laptop' "$tmp/loop/data/model.md" | cut -d: -f1)
expect_in "$tmp/loop" loop-constant 1 "$ult" list
has loop-constant "$tmp/stderr" "^data/model.md:${line:-0}:1: error: 'const.hbar' depends on itself: const.hbar -> laptop.ops_max -> const.hbar\$"
if grep -q 'unknown quantity' "$tmp/stderr"; then
	no "loop-constant: an unknown quantity said"; cat "$tmp/stderr"; else ok; fi
cp "$top/data/model.md" "$tmp/loop/data/model.md"
sed -i 's|^\(closest\.heaviest = largest d in device by d\.mass where has(d\.mass)\)$|\1 \&\& d.mass > closest.half|' \
	"$tmp/loop/data/model.md"
printf '\n```define\nclosest.half = closest.heaviest.mass / 2\n  unit: kg\n```\n' \
	>>"$tmp/loop/data/model.md"
line=$(grep -n '^closest\.heaviest = ' "$tmp/loop/data/model.md" | cut -d: -f1)
expect_in "$tmp/loop" loop-pick 1 "$ult" list
if [ "$(head -n 1 "$tmp/stderr")" = "data/model.md:${line:-0}:1: error: 'closest.heaviest' depends on itself: closest.heaviest -> closest.half -> closest.heaviest" ]
then ok; else no "loop-pick: the loop is not named first"; cat "$tmp/stderr"; fi

# A data file of one's own, declared without C (docs/templates.md, "The
# data catalogue"): in a copy of the project, a two-column file and its
# three rows of data/schema.csv (the file, each column); `list` shows each row's
# quantities with their units, and a report after the file changed
# shows the change (the run is not skipped as unchanged).
mkdir "$tmp/own" && cp -R "$top/data" "$top/templates" "$tmp/own/"
printf '%s\n' 'clocks.csv,,rows,,,,one processor' \
	'clocks.csv,id,id,,yes,,the processor' \
	'clocks.csv,clock,number,MHz,yes,,its clock rate' \
	>>"$tmp/own/data/schema.csv"
printf 'id,clock\nz80,4\nm68k,8\n' >"$tmp/own/data/clocks.csv"
printf '%s\n' 'clocks.csv: one processor' \
	'id id required the processor' \
	'clock number (MHz) required its clock rate' >"$tmp/own/want-tables"
expect_in "$tmp/own" own-file 0 "$ult" -d data -t templates list clocks.
printf '%s\n' 'clocks.z80.id z80' 'clocks.z80.clock 4 MHz' \
	'clocks.m68k.id m68k' 'clocks.m68k.clock 8 MHz' >"$tmp/own/want"
if awk '{ $1 = $1; print }' "$tmp/stdout" | diff -u "$tmp/own/want" - \
	>"$tmp/own/diff"; then ok
else no "own-file: 'list clocks.' differs:"; cat "$tmp/own/diff"; fi
# 'datasets --tables' lists its columns with the shipped files'.
expect_in "$tmp/own" own-file-tables 0 "$ult" -d data datasets --tables
if sed -n '/^clocks\.csv:/,/^$/p' "$tmp/stdout" | grep -v '^$' |
	awk '{ $1 = $1; print }' |
	diff -u - "$tmp/own/want-tables" >"$tmp/own/diff" 2>&1; then ok; else
	no "own-file-tables: the declared columns differ:"; cat "$tmp/own/diff"; fi
expect_in "$tmp/own" own-file-report 0 "$ult" -d data -t templates -o out \
	report
printf 'id,clock\nz80,4\nm68k,16\n' >"$tmp/own/data/clocks.csv"
expect_in "$tmp/own" own-file-changed 0 "$ult" -d data -t templates \
	-o out report
has own-file-changed "$tmp/own/out/quantities.csv" '^clocks\.m68k\.clock,16,MHz,'
# Shown and published as the built-in files are.
if cmp -s "$tmp/own/data/clocks.csv" "$tmp/own/out/data/clocks.csv"; then ok
else no "own-file: out/data/clocks.csv is not data/clocks.csv"; fi
has own-file-data-page "$tmp/own/out/data.html" 'id="clocks.csv"'
# A family over its rows in the model document, with no C: one cycle
# time per processor, typeset once on the Methods page; the report after
# the document changed is not skipped as unchanged.
printf '%s\n' '' '```define' 'for p in clocks' 'p.clock' '  unit: MHz' \
	'  symbol: f_p' '' 'p.cycle = 1 / p.clock' '  unit: ns' \
	'  symbol: t_p' '  note: one clock cycle' '```' \
	>>"$tmp/own/data/model.md"
expect_in "$tmp/own" own-family 0 "$ult" -d data get clocks.m68k.cycle
has own-family "$tmp/stdout" '^62\.[45]'
expect_in "$tmp/own" own-family-report 0 "$ult" -d data -t templates -o out \
	report
has own-family-methods "$tmp/own/out/methods.html" \
	'<p><code>p\.<wbr>cycle</code>, for each of the 2 rows'
has own-family-page "$tmp/own/out/quantities/clocks.html" \
	'<tr id="clocks.z80.cycle">'
# Rates of one's own, as many as wanted and named as wanted, placed
# before the history: every gap the C part counts is counted at each
# (there was room for 8, and a name without a dot crashed).
for r in a b c d e; do
	printf '%s\n' '' '```define' "rate.extra_$r = 3" '  unit: yr' \
		"  rate: extra $r" '```'
done >"$tmp/own/rates"
printf '%s\n' '' '```define' 'myrate = 4' '  unit: yr' '  rate: mine' \
	'```' >>"$tmp/own/rates"
sed -i "/^## The history\$/r $tmp/own/rates" "$tmp/own/data/model.md"
expect_in "$tmp/own" own-rates 0 "$ult" -d data list \
	article.gap.ops.years_
has own-rates "$tmp/stdout" '^article\.gap\.ops\.years_myrate '
has own-rates "$tmp/stdout" '^article\.gap\.ops\.years_extra_e '
# Every gap counts at a rate the document adds, the machines' too.
expect_in "$tmp/own" own-rates-gaps 0 "$ult" -d data list
has own-rates-gaps "$tmp/stdout" '^device\.macbook_2008\.gap\.ram\.year_myrate '
has own-rates-gaps "$tmp/stdout" '^current\.laptop\.gap\.storage\.years_extra_e '
has own-rates-gaps "$tmp/stdout" '^record\.gap\.atomic_ops\.year_myrate '
has own-rates-gaps "$tmp/stdout" '^current\.disk\.gap\.bits\.years_myrate '
# A declaration that does not parse: located, and nothing is written.
printf 'clocks.csv,speed,number,furlong,no,,\n' >>"$tmp/own/data/schema.csv"
line=$(wc -l <"$tmp/own/data/schema.csv")
rm -rf "$tmp/own/out"
expect_in "$tmp/own" own-file-bad-unit 1 "$ult" -d data -t templates \
	-o out report
has own-file-bad-unit "$tmp/stderr" \
	"^data/schema.csv:$line:25: error: column 'unit': unknown unit 'furlong'\$"
if [ -e "$tmp/own/out" ]; then no "own-file-bad-unit: out/ written"
else ok; fi
rm -rf "$tmp/own"

# README's "A new year's data" walk-through: its example row, added
# to a copy of data/, gives exactly the lines README prints from `ultimate
# diff` (its "..." lines stand for rows left out), so the figures there
# (quantities changed, the causes) cannot go stale unnoticed.
mkdir "$tmp/walk" && cp -R "$top/data" "$tmp/walk/data"
sed -n 's/^    \(20[0-9][0-9]-[0-9][0-9],Example Machine,.*\)$/\1/p' \
	"$top/README.md" >"$tmp/walk/row"
cat "$tmp/walk/row" >>"$tmp/walk/data/top500.csv"
sed -n '/^    From the [0-9]* edition to/,/^[^ ]/s/^    //p' "$top/README.md" |
	grep -v '^\.\.\.$' | grep -v '^$' >"$tmp/walk/want"
years=$(sed -n '1s/^From the \([0-9]*\) edition to the \([0-9]*\) edition.*/\1 \2/p' \
	"$tmp/walk/want")
# shellcheck disable=SC2086 # two words: the years
expect walk-through 0 env ULTIMATE_DATA="$tmp/walk/data" "$ult" diff $years
grep -vxF -f "$tmp/stdout" "$tmp/walk/want" >"$tmp/walk/missing"
if [ "$(wc -l <"$tmp/walk/row")" = 1 ] && [ -n "$years" ] &&
	[ "$(wc -l <"$tmp/walk/want")" -ge 4 ] && ! [ -s "$tmp/walk/missing" ]; then ok
else
	no "README.md's new-year walk-through no longer matches 'ultimate diff $years':"
	cat "$tmp/walk/missing"; fi
# And the same row with its Rmax negated fails its check at that cell,
# as README shows it: line, row and caret (the check's place included).
sed 's/^\([^,]*,[^,]*,[^,]*,[^,]*,\)/\1-/' "$tmp/walk/row" >"$tmp/walk/neg"
cp "$top/data/top500.csv" "$tmp/walk/data/top500.csv"
cat "$tmp/walk/neg" >>"$tmp/walk/data/top500.csv"
expect_in "$tmp/walk" walk-check 1 "$ult" get record.name
sed -n '/^    data\/top500\.csv:[0-9]*:[0-9]*: error: .*fails the check/{N;N;s/^    //;s/\n    /\n/g;p;}' \
	"$top/README.md" >"$tmp/walk/readme-err"
head -3 "$tmp/stderr" | diff -u "$tmp/walk/readme-err" - >"$tmp/walk/diff"
if [ "$(wc -l <"$tmp/walk/readme-err")" = 3 ] && [ ! -s "$tmp/walk/diff" ] &&
	grep -qF "$(cat "$tmp/walk/neg")" "$top/README.md"; then ok
else no "README.md's failed check is not the tool's:"; cat "$tmp/walk/diff"; fi

expect data-option 0 "$ult" --data="$top/data" get laptop.mass
has data-option "$tmp/stdout" '^1$'

# Where inputs come from: -d, then $ULTIMATE_DATA, then ./data, then the
# installed copy (the same for -t and the templates). A folder of
# another project that has a data/ of its own (a Hugo site) does not
# hide $ULTIMATE_DATA.
mkdir -p "$tmp/proj/data" "$tmp/proj/templates" "$tmp/alt"
cp -R "$top/data" "$tmp/alt/data"
sed 's/^laptop.mass,1,/laptop.mass,2,/' "$top/data/assumptions.csv" \
	>"$tmp/alt/data/assumptions.csv"
# in_proj NAME WANT_RC CMD...: as expect, in $tmp/proj
in_proj() { expect_in "$tmp/proj" "$@"; }
in_proj env-beats-cwd 0 env ULTIMATE_DATA="$top/data" "$ult" get laptop.mass
has env-beats-cwd "$tmp/stdout" '^1$'
in_proj flag-beats-env 0 env ULTIMATE_DATA="$top/data" "$ult" \
	-d "$tmp/alt/data" get laptop.mass
has flag-beats-env "$tmp/stdout" '^2$'
(cd "$tmp/alt" && ULTIMATE_DATA='' "$ult" get laptop.mass) \
	>"$tmp/stdout" 2>"$tmp/stderr"
has cwd-without-env "$tmp/stdout" '^2$'
# Without them, the project's data/ is used, and the error says so.
in_proj cwd-data-folder 1 "$ult" get laptop.mass
has cwd-data-folder "$tmp/stderr" "^ultimate: error: cannot open 'data/model.md': No such file or directory (data folder 'data', found in the working directory; choose another with -d DIR or ULTIMATE_DATA=DIR)\$"
in_proj env-data-folder 1 env ULTIMATE_DATA="$tmp/none" "$ult" list
has env-data-folder "$tmp/stderr" "(data folder '$tmp/none', from ULTIMATE_DATA; choose another with -d DIR"
in_proj flag-data-folder 1 "$ult" -d "$tmp/none" list
has flag-data-folder "$tmp/stderr" "(data folder '$tmp/none', given with -d; choose another"
in_proj env-templates 1 env ULTIMATE_DATA="$top/data" \
	ULTIMATE_TEMPLATES="$tmp/none" "$ult" -o "$tmp/o" report
has env-templates "$tmp/stderr" "cannot open '$tmp/none/page.html': No such file or directory (templates folder '$tmp/none', from ULTIMATE_TEMPLATES; choose another with -t DIR or ULTIMATE_TEMPLATES=DIR)"
in_proj cwd-templates 1 "$ult" -d "$top/data" -o "$tmp/o" report
has cwd-templates "$tmp/stderr" "cannot open 'templates/page.html': No such file or directory (templates folder 'templates', found in the working directory"
in_proj env-templates-ok 0 env ULTIMATE_TEMPLATES="$top/templates" \
	"$ult" -d "$top/data" -o "$tmp/o" --no-editions report

# report: both files, full precision, every quantity, nothing left over.
out=$tmp/site
expect report 0 "$ult" -o "$out" report
has report-csv "$out/quantities.csv" '^name,value,unit,formula,inputs,source,origin$'
has report-csv-precision "$out/quantities.csv" '^laptop.ops_max,5.4255699586085285e+50,ops/s,'
has report-json "$out/quantities.json" '"name": "laptop.bits_max", "value": 2.13291625263983[0-9]*e+31'
n_list=$(cd "$top" && "$ult" list | wc -l)
n_csv=$(($(wc -l <"$out/quantities.csv") - 1))
if [ "$n_list" = "$n_csv" ]; then ok; else
	no "report: $n_csv rows in quantities.csv, $n_list quantities"; fi
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
	"$out/quantities.json" 2>/dev/null || ! command -v python3 >/dev/null
then ok; else no "report: quantities.json is not valid JSON"; fi
if ls -A "$out" | grep -q staging; then no "report: staging left"; else ok; fi
# It says where the site is, on stdout, in one line, with its pages;
# nothing on stderr.
says_where() { # says_where NAME OUT [DIR]: stdout names OUT (in DIR)
	n=$(cd "${3:-.}" && find "$2" -name '*.html' | wc -l)
	if [ "$(cat "$tmp/stdout")" = "report: $2/index.html ($n pages)" ] &&
		[ "$n" -gt 1 ] && [ ! -s "$tmp/stderr" ]
	then ok; else no "$1: stdout '$(cat "$tmp/stdout")', want" \
		"'report: $2/index.html ($n pages)' alone"; fi
}
says_where report "$out"

# Same inputs, same bytes; an unchanged file keeps its timestamp.
cp -R "$out" "$tmp/first"
touch -d '2000-01-01' "$out/quantities.csv"
expect report-again 0 "$ult" -o "$out" report
says_where report-again "$out"
if diff -r "$tmp/first" "$out" >/dev/null; then ok; else
	no "report: second run differs"; fi
if [ "$(date -r "$out/quantities.csv" +%Y)" = 2000 ]; then ok; else
	no "report: unchanged quantities.csv was rewritten"; fi

# A failing run leaves the previous output exactly as it was.
cp -R "$top/data" "$tmp/bad"
sed 's/^laptop.mass,1,/laptop.mass,-1,/' "$top/data/assumptions.csv" \
	>"$tmp/bad/assumptions.csv"
expect report-bad-data 1 "$ult" -d "$tmp/bad" -o "$out" report
if [ -s "$tmp/stdout" ]; then no "report-bad-data: said '$(cat "$tmp/stdout")'"
else ok; fi
if diff -r "$tmp/first" "$out" >/dev/null; then ok; else
	no "report: failed run changed out/"; fi
# An output folder that cannot be created: one line, exit 1.
: >"$tmp/file"
expect report-unwritable 1 "$ult" -o "$tmp/file/out" report
has report-unwritable "$tmp/stderr" "cannot create output folder"
if [ "$(wc -l <"$tmp/stderr")" -le 2 ]; then ok; else
	no "report-unwritable: more than one message"; fi

# HTML in a data cell is text: no error (raw HTML in a template is
# one), no markup.
cp -R "$top/data" "$tmp/html"
sed 's/^eee_pc_2008,ASUS Eee PC 701 (4G),Eee PC 701,/eee_pc_2008,Typical <b>2008<\/b> laptop,<b>2008<\/b> laptop,/' \
	"$top/data/devices.csv" >"$tmp/html/devices.csv"
expect data-html 0 "$ult" -d "$tmp/html" -o "$tmp/html-out" --no-editions report
if grep -qF 'Typical &lt;b&gt;2008&lt;/b&gt; laptop' "$tmp/html-out/index.html" &&
	! grep -q '<b>2008' "$tmp/html-out/index.html" "$tmp/html-out/data.html" \
		"$tmp/html-out/quantities.html"; then ok; else
	no "data-html: a data cell's <b> is not shown as text"; fi

# Editions: the article's view and today's.
expect as-of-2008 0 "$ult" --as-of 2008 get record.name
has as-of-2008 "$tmp/stdout" '^Roadrunner$'
expect as-of-2008-laptop 0 "$ult" --as-of=2008 get current.laptop.year
has as-of-2008-laptop "$tmp/stdout" '^2008$'
expect as-of-2008-disk 0 "$ult" --as-of 2008 get current.disk.year
has as-of-2008-disk "$tmp/stdout" '^200[0-8]$'
expect as-of-default 0 "$ult" get edition.year
newest=$(cut -c1-4 "$top/data/top500.csv" | grep '^[0-9]' | sort -n | tail -1)
has as-of-default "$tmp/stdout" "^$newest\$"

# Every edition has a present of its own (issue 26): from 2010 to 2021
# the newest GPU and laptop of an edition are at most three years older
# than it, and from 2013 so is its newest phone (before the rows of
# 2010-2020, the editions 2009-2021 held only machines of 2008).
y=2010
while [ "$y" -le 2021 ]; do
	for k in gpu laptop phone; do
		[ "$k" = phone ] && [ "$y" -lt 2013 ] && continue
		expect "present-$y-$k" 0 "$ult" --as-of "$y" get "current.$k.year"
		if [ "$(cat "$tmp/stdout")" -ge $((y - 3)) ] 2>/dev/null; then ok
		else no "present-$y-$k: newest $k of $(cat "$tmp/stdout")"; fi
	done
	y=$((y + 1))
done

# A new TOP500 list is one CSV row: the record, its gap and the trend
# follow with no change to code.
cp -R "$top/data" "$tmp/next"
before_fit=$(cd "$top" && "$ult" get series.top500.fit_all.doubling_time)
printf '%s\n' '2099-06,"Test Machine ""X""",Somewhere,Nowhere,9e20,1e21,,,test row,,' \
	>>"$tmp/next/top500.csv"
expect new-row 0 "$ult" -d "$tmp/next" get record.name
has new-row "$tmp/stdout" '^Test Machine "X"$'
expect new-row-gap 0 "$ult" -d "$tmp/next" get record.gap.ops.orders
has new-row-gap "$tmp/stdout" '^26\.7'
after_fit=$(cd "$top" && "$ult" -d "$tmp/next" get series.top500.fit_all.doubling_time)
if [ "$before_fit" != "$after_fit" ]; then ok; else
	no "new-row: fitted doubling time did not change"; fi

# Every edition is a site: report --as-of YEAR works for each year from
# the article's to the newest, and writes the editions up to it. Each
# run writes every edition up to its year (into the same folder): with
# CLI_FULL (make test FULL=1) every year, else the first two, one
# between and the newest (a fifth of the work).
article=$(cd "$top" && "$ult" get article.year)
if [ -n "${CLI_FULL:-}" ]; then years=$(seq "$article" "$newest")
else years=$(printf '%s\n' "$article" $((article + 1)) \
	$(((article + newest) / 2)) "$newest" | sort -un); fi
for y in $years; do
	expect "report-as-of-$y" 0 "$ult" --as-of "$y" -o "$tmp/ed" report
	if [ -f "$tmp/ed/editions/$y/index.html" ] &&
		[ ! -e "$tmp/ed/editions/$((y + 1))" ]; then ok; else
		no "report-as-of-$y: editions/ is not $article to $y"; fi
done
has report-as-of-2008-record "$tmp/ed/editions/2008/index.html" 'Roadrunner'
# Editions stop where the data stop: --as-of after them gives the newest
# edition and says so once (it wrote 93 editions for --as-of 2100, 74 of
# years with no data); before the first edition it is a usage error,
# said before the data of such an edition are read.
expect report-as-of-2100 0 "$ult" --as-of 2100 -o "$tmp/far" report
has report-as-of-2100-note "$tmp/stderr" "^ultimate: note: the data end in $newest; --as-of 2100 gives the $newest edition\$"
if [ "$(wc -l <"$tmp/stderr")" = 1 ]; then ok; else
	no "report-as-of-2100: more than the note on stderr"; cat "$tmp/stderr"; fi
if [ -f "$tmp/far/editions/$newest/index.html" ] &&
	[ "$(ls "$tmp/far/editions" | grep -c '^[0-9]*$')" = $((newest - article + 1)) ]
then ok; else
	no "report-as-of-2100: editions/ is not $article to $newest: $(ls "$tmp/far/editions" | tr '\n' ' ')"; fi
expect get-as-of-2100 0 "$ult" --as-of 2100 get edition.year
has get-as-of-2100 "$tmp/stdout" "^$newest\$"
expect get-as-of-newest 0 "$ult" --as-of "$newest" get edition.year
if [ -s "$tmp/stderr" ]; then no "get-as-of-newest: a note for the newest year"; else ok; fi
for c in report list check datasets "get record.name" "explain record.name"; do
	# shellcheck disable=SC2086 # c is a command and its argument
	expect "as-of-before-article-$c" 2 "$ult" --as-of $((article - 1)) -o "$tmp/early" $c
	has "as-of-before-article-$c" "$tmp/stderr" "^ultimate: --as-of $((article - 1)) is before the first edition ($article)\$"
done
# The whole site holds every edition, its index and the changes.
for f in editions/index.html changes.html "editions/$article/index.html" \
	"editions/$article/quantities.html" \
	"editions/$article/figures/ladder.svg" "editions/$newest/index.html"; do
	if [ -f "$out/$f" ]; then ok; else no "report: no $f"; fi
done
has report-editions-index "$out/editions/index.html" "href=\"$article/index.html\""
has report-changes "$out/changes.html" 'Since the'
# A relative output folder: gnuplot goes from one edition's folder to
# the next, so each is named in full.
if (cd "$tmp" && "$ult" -d "$top/data" -t "$top/templates" -o rel report) \
	>/dev/null 2>"$tmp/stderr" && [ -f "$tmp/rel/editions/$article/figures/ladder.svg" ]
then ok; else no "report -o rel: $(head -3 "$tmp/stderr")"; fi
expect report-one-edition 0 "$ult" --no-editions -o "$tmp/one" report
if [ ! -e "$tmp/one/editions" ] && [ ! -e "$tmp/one/changes.html" ] &&
	[ -f "$tmp/one/index.html" ]; then ok; else
	no "report --no-editions: editions written"; fi
if grep -q 'editions/index.html' "$tmp/one/index.html"; then
	no "report --no-editions: links to editions"; else ok; fi
# The no-change key (report.c): with nothing changed the run stops after
# the no-op check and builds no model; an option that changes the site
# (--as-of, every edition) is in the key, and the run is not skipped.
expect report-noop 0 "$ult" --no-editions -o "$tmp/one" --timings report
has report-noop "$tmp/stderr" '^timing: noop '
if grep -q '^timing: model ' "$tmp/stderr"; then
	no "report-noop: a model was built"; else ok; fi
expect report-key-as-of 0 "$ult" --no-editions --as-of "$article" \
	-o "$tmp/one" --timings report
has report-key-as-of "$tmp/stderr" '^timing: model '
has report-key-as-of "$tmp/one/quantities.csv" "^edition.year,$article,"
expect report-key-editions 0 "$ult" --as-of "$article" -o "$tmp/one" report
if [ -f "$tmp/one/editions/$article/index.html" ]; then ok; else
	no "report-key-editions: skipped as unchanged"; fi

# diff: what changed between two editions, and the rows that did it.
expect diff 0 "$ult" diff "$article" "$newest"
has diff "$tmp/stdout" "^From the $article edition to the $newest edition: [0-9]* quantities changed"
has diff-record "$tmp/stdout" '^record.name  *Roadrunner  '
has diff-cause "$tmp/stdout" '^record.rmax .*top500.csv:[0-9]'
expect diff-csv 0 "$ult" diff --format csv "$article" "$newest"
has diff-csv "$tmp/stdout" "^name,unit,value_$article,value_$newest,relative_change,caused_by\$"
has diff-csv-row "$tmp/stdout" '^record.rmax,FLOP/s,1105000000000000,2.198e+18,'
expect diff-order 2 "$ult" diff "$newest" "$article"
has diff-order "$tmp/stderr" "needs the earlier year first"
expect diff-one-year 2 "$ult" diff "$article"
expect diff-bad-format 2 "$ult" --format xml diff "$article" "$newest"
expect diff-before-article 2 "$ult" diff $((article - 1)) "$newest"
has diff-before-article "$tmp/stderr" "^ultimate: 'diff' $((article - 1)) is before the first edition ($article)\$"
expect diff-after-data 2 "$ult" diff "$article" $((newest + 1))
has diff-after-data "$tmp/stderr" "^ultimate: 'diff' $((newest + 1)) is after the newest edition ($newest, the newest year of the data)\$"
# The new TOP500 row above, dated 2099: the cause of the record's change.
expect diff-new-row 0 "$ult" -d "$tmp/next" diff "$newest" 2099
has diff-new-row "$tmp/stdout" "^record.name .*Test Machine \"X\" .*top500.csv:$(wc -l <"$tmp/next/top500.csv")\$"
# Every change names the data rows that caused it: one new row of each
# data file, dated the newest year, is the cause of some change and no
# change is without one (a new device's then-and-now comparison, the
# newest row's year, the edition's year were "caused by -").
no_uncaused() { # no_uncaused NAME: no row of diff --format csv without one
	if grep ',$' "$tmp/stdout" >"$tmp/uncaused"; then
		no "$1: changes without a cause: $(head -3 "$tmp/uncaused")"
	else ok; fi
}
while IFS='|' read -r f row; do
	rm -rf "$tmp/cause"
	cp -R "$top/data" "$tmp/cause"
	printf '%s\n' "$row" | sed "s/NEWEST/$newest/" >>"$tmp/cause/$f"
	line=$(wc -l <"$tmp/cause/$f")
	expect "diff-cause-$f" 0 "$ult" -d "$tmp/cause" diff --format csv \
		$((newest - 1)) "$newest"
	no_uncaused "diff-cause-$f"
	if grep -Eq "$f:([0-9]+-)?$line([^0-9]|\$)" "$tmp/stdout"; then ok
	else no "diff-cause-$f: the new row $f:$line causes nothing"; fi
done <<'ROWS'
devices.csv|test_netbook,Test Netbook,Test Netbook,NEWEST,netbook,2e10,4e10,,,,,2147483648,6.4e10,1,1,10,,test row,
quantum.csv|test_qc,Test QC,NEWEST,5e9,3e7,2e-8,4e-8,test row,
top500.csv|NEWEST-11,Test Machine,Somewhere,Nowhere,3e18,4e18,5e7,,test row,,
disk_capacity.csv|NEWEST,Test Disk,Test,5e13,test row,
ssd_capacity.csv|NEWEST,Test SSD,Test,3e14,test row,
areal_density.csv|NEWEST,Test Drive,3e12,test row,,drive
transistors.csv|NEWEST,Test CPU,Test,2e11,chip,test row,
ROWS
y=$article
while [ "$y" -lt "$newest" ]; do
	expect "diff-cause-$y" 0 "$ult" diff --format csv "$y" $((y + 1))
	no_uncaused "diff-cause-$y"
	y=$((y + 1))
done
expect diff-cause-all 0 "$ult" diff --format csv "$article" "$newest"
no_uncaused diff-cause-all

# import-refs: Zotero's BibTeX and CSL-JSON exports of some of the
# shipped references become references.csv rows (tests/import/*.csv)...
for f in zotero.bib zotero.json; do
	expect "import-refs-$f" 0 "$ult" import-refs "tests/import/$f"
	if cmp -s "$tmp/stdout" "$top/tests/import/$f.csv" &&
		[ ! -s "$tmp/stderr" ]; then ok; else
		no "import-refs $f: output differs from tests/import/$f.csv"
		diff -u "$top/tests/import/$f.csv" "$tmp/stdout"; fi
done
# ... which the report reads in place of those rows of references.csv.
rm -rf "$tmp/refs"
cp -R "$top/data" "$tmp/refs"
keys=$(cut -d, -f1 "$top/tests/import/zotero.bib.csv" | sed 1d | paste -sd'|')
{ cat "$top/tests/import/zotero.bib.csv"
  sed 1d "$top/data/references.csv" | grep -Ev "^($keys)," |
	sed 's/,[^,]*$/,/'; } >"$tmp/refs/references.csv.new"
mv "$tmp/refs/references.csv.new" "$tmp/refs/references.csv"
expect import-refs-report 0 "$ult" -d "$tmp/refs" -o "$tmp/refs-out" \
	--no-editions report
has import-refs-report "$tmp/refs-out/references.html" 'Nature 406 (6799), 1047–1054'
has import-refs-report "$tmp/refs-out/references.html" 'Prša et al. 2016\|Andrej Prša, Petr Harmanec, Guillermo Torres et al.'
# An error prints nothing on stdout; a file cut anywhere is an error or
# fine, never a crash.
expect import-refs-error 1 "$ult" import-refs "$top/tests/errors/import-bib-no-title/refs.bib"
if [ ! -s "$tmp/stdout" ]; then ok; else no "import-refs-error: stdout not empty"; fi
for f in zotero.bib zotero.json; do
	size=$(wc -c <"$top/tests/import/$f")
	n=1 bad=
	while [ "$n" -lt "$size" ]; do
		head -c "$n" "$top/tests/import/$f" >"$tmp/cut.${f##*.}"
		"$ult" import-refs "$tmp/cut.${f##*.}" >/dev/null 2>&1
		rc=$?
		[ "$rc" -le 1 ] || bad="$bad $n:$rc"
		n=$((n + 37))
	done
	if [ -z "$bad" ]; then ok; else no "import-refs $f cut at (bytes:exit):$bad"; fi
done

# The claims audit passes on the shipped data, in both editions.
expect check 0 "$ult" check
has check "$tmp/stdout" '^claims: [0-9]* agree, [0-9]* known discrepancies ([0-9]* error, [0-9]* rounding, [0-9]* convention, [0-9]* data-moved), [0-9]* inputs, 0 off$'
has check-discrepancy "$tmp/stdout" '^error_rejection .*known discrepancy \[error\]'
has check-rounding "$tmp/stdout" '^bits_doublings .*known discrepancy \[rounding\]'
has check-range "$tmp/stdout" '^storage_range  *50\.\.100 .*outside the printed range'
expect check-2008 0 "$ult" --as-of 2008 check

# The man page and README's "Command line" name every command and option
# --help lists (made from main.c's tables).
"$ult" --help >"$tmp/help"
awk '/^commands:/ { p = 1; next } /^options:/ { p = 0 }
	p && /^  [a-z]/ { print $1 }' "$tmp/help" >"$tmp/help-commands"
awk '/^options:/ { p = 1; next } /^$/ { p = 0 }
	p && /^  -/ { for (i = 1; i <= 2; i++) if ($i ~ /^--/) print $i }' \
	"$tmp/help" >"$tmp/help-options"
awk '/^options:/ { p = 1; next } /^$/ { p = 0 }
	p && /^  -/ { n = $1 ~ /,$/ ? 2 : 1
		if ($(n + 1) ~ /^[A-Z]+$|\|/) print $n }' \
	"$tmp/help" >"$tmp/help-values"
sed -n '/^\.SH COMMANDS/,/^\.SH OPTIONS/p' "$top/docs/ultimate.1" >"$tmp/man-commands"
sed -n '/^\.SH OPTIONS/,/^\.SH EXIT STATUS/p' "$top/docs/ultimate.1" >"$tmp/man-options"
sed -n '/^## Command line$/,/^##/p' "$top/README.md" >"$tmp/readme-usage"
if [ "$(wc -l <"$tmp/help-commands")" -ge 8 ] &&
	[ "$(wc -l <"$tmp/help-options")" -ge 13 ] &&
	[ "$(wc -l <"$tmp/help-values")" -ge 7 ]; then ok; else
	no "help: commands, options or values not found"; fi
for c in $(cat "$tmp/help-commands"); do
	if grep -Eq "^\.B[IR]? \"?$c( |\"|\$)" "$tmp/man-commands"; then ok
	else no "docs/ultimate.1: no command '$c' under COMMANDS"; fi
	if grep -Eq "^    ultimate( .*)? $c( |\$)" "$tmp/readme-usage"; then ok
	else no "README.md: no command '$c' under Command line"; fi
done
for o in $(cat "$tmp/help-options"); do
	if grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$tmp/man-options"
	then ok; else no "docs/ultimate.1: no option '$o' under OPTIONS"; fi
	if grep -qF -- "$o" "$tmp/readme-usage"; then ok; else
		no "README.md: no option '$o' under Command line"; fi
done

# Bash completion (docs/ultimate.bash-completion): commands and options
# from --help, quantity names from 'list' with the -d on the line.
if command -v bash >/dev/null; then
	cp -R "$top/data" "$tmp/comp"
	echo 'zz_test,Test Box,Test,2020,laptop,1e9,,,,,,1e9,,,,,,test source,' \
		>>"$tmp/comp/devices.csv"
	# complete WORD...: COMPREPLY for the line "$ult WORD...", one a line
	complete_line() {
		(cd "$top" && bash -c '
			. docs/ultimate.bash-completion
			COMP_WORDS=("$@")
			COMP_CWORD=$(($# - 1))
			_ultimate
			[ "${#COMPREPLY[@]}" = 0 ] ||
				printf "%s\n" "${COMPREPLY[@]}"' bash "$ult" "$@") \
			>"$tmp/comp.out" 2>&1
	}
	comp_has() { # comp_has NAME WORD: WORD is one of the completions
		if grep -qx -- "$2" "$tmp/comp.out"; then ok; else
			no "completion $1: no '$2' in: $(tr '\n' ' ' <"$tmp/comp.out")"
		fi
	}
	complete_line ""
	for c in $(cat "$tmp/help-commands"); do
		comp_has commands "$c"
	done
	# The value of each option that takes one (--help: "--opt VALUE")
	# is not completed as a command, nor taken for one.
	for o in $(cat "$tmp/help-values"); do
		complete_line "$o" ""
		if grep -qx report "$tmp/comp.out"; then
			no "completion: a command as the value of $o"; else ok; fi
		complete_line "$o" 1 ""
		comp_has "after-$o" report
	done
	complete_line --fo
	comp_has options --format
	complete_line datasets --ta
	comp_has tables --tables
	complete_line --serve 0 watch --op
	comp_has open --open
	complete_line --format ""
	comp_has format text
	# Every example --example knows (init.c's examples[]).
	complete_line init --example ""
	for e in $(sed -n '/^} examples\[\] = {/,/^};/s/^	{ "\([a-z]*\)",.*/\1/p' \
		"$top/src/init.c"); do
		comp_has example "$e"
	done
	if [ "$(wc -l <"$tmp/comp.out")" = 2 ]; then ok; else
		no "completion --example: $(tr '\n' ' ' <"$tmp/comp.out")"; fi
	complete_line get laptop.ops_m
	comp_has names laptop.ops_max
	if [ "$(wc -l <"$tmp/comp.out")" = 1 ]; then ok; else
		no "completion get laptop.ops_m: more than one name"; fi
	complete_line get device.zz
	if [ ! -s "$tmp/comp.out" ]; then ok; else
		no "completion: a name from another data folder"; fi
	complete_line -d "$tmp/comp" explain device.zz_test.sb
	comp_has data-folder device.zz_test.sbops
	complete_line --data = "$tmp/comp" get device.zz_test.sb
	comp_has data-folder-eq device.zz_test.sbops
	complete_line -d "$top/da"
	comp_has folders "$top/data"
	complete_line get laptop.ops_max ""
	if [ ! -s "$tmp/comp.out" ]; then ok; else
		no "completion: a second name after get"; fi
else
	echo "cli: no bash, completion not tested"
fi

# --- init, install, uninstall ---------------------------------------------
# make install (PREFIX, DESTDIR) into $tmp/inst, from a copy of the
# build's objects: only main.o and init.o, which name the share folder,
# are compiled again. Under make, MAKEFLAGS carries the build's
# variables (CC, SANITIZE, ...), so the copy matches; not its jobserver.
bdir=$(dirname "$ult")
mkdir "$tmp/ib"
find "$bdir" -maxdepth 1 -type f \( -name '*.o' -o -name cflags \) \
	-exec cp -p {} "$tmp/ib/" \;
imake() {
	MAKEFLAGS=$(printf '%s' "${MAKEFLAGS-}" |
		sed 's/--jobserver-[a-z]*=[^ ]*//g') \
	make --no-print-directory -C "$top" BUILD="$tmp/ib" NO_DEPS=1 \
		DESTDIR="$tmp/inst" PREFIX=/usr "$@" >"$tmp/make.out" 2>&1
}
if imake install; then ok; else
	no "make install failed"; cat "$tmp/make.out"; fi
iult=$tmp/inst/usr/bin/ultimate
share=$tmp/inst/usr/share/ultimate
for f in usr/bin/ultimate usr/share/man/man1/ultimate.1 \
	usr/share/doc/ultimate/templates.md \
	usr/share/ultimate/docs/templates.md \
	usr/share/ultimate/data/assumptions.csv \
	usr/share/ultimate/templates/page.html \
	usr/share/ultimate/templates/style.css \
	usr/share/ultimate/templates/report.md \
	usr/share/ultimate/templates/figures/top500.gp \
	usr/share/ultimate/templates/sections/intro.md \
	usr/share/ultimate/examples/minimal/README.md \
	usr/share/ultimate/examples/minimal/.github/workflows/pages.yml \
	usr/share/ultimate/examples/minimal/engine/ultimate.tar.gz \
	usr/share/bash-completion/completions/ultimate; do
	if [ -f "$tmp/inst/$f" ]; then ok; else no "make install: no $f"; fi
done
# The share folder is compiled in from PREFIX, not DESTDIR.
expect install-help 0 "$iult" --help
has install-datadir "$tmp/stdout" 'else /usr/share/ultimate)'
# init --example lloyd DIR: the Lloyd report, whose report is the repo's.
mkdir "$tmp/pp"
expect_in "$tmp/pp" init 0 env ULTIMATE_SHARE="$share" "$iult" init \
	--example lloyd proj
has init-says "$tmp/stdout" "^ultimate: new project in 'proj', from the example 'lloyd': data/, docs/, templates/\$"
has init-says-cd "$tmp/stdout" '^  cd proj && ultimate report$'
for f in data/assumptions.csv templates/page.html templates/style.css \
	templates/figures/top500.gp templates/sections/intro.md \
	docs/templates.md; do
	if cmp -s "$top/$f" "$tmp/pp/proj/$f"; then ok; else
		no "init: proj/$f is not the repository's"; fi
done
if [ "$(ls -A "$tmp/pp")" = proj ]; then ok; else
	no "init: left beside the project: $(ls -A "$tmp/pp")"; fi
expect_in "$tmp/pp/proj" init-report 0 env -u ULTIMATE_SHARE "$iult" report
says_where init-report out "$tmp/pp/proj"
if [ -f "$tmp/pp/proj/out/index.html" ] &&
	diff -r -x .manifest "$tmp/first" "$tmp/pp/proj/out" >/dev/null
then ok; else no "init: the project's report differs from the repository's"; fi
# init DIR: the minimal example, docs/examples/minimal/ as it is, with
# the reference and the engine's source, which builds the tool that
# builds its report (as its publishing workflow does).
expect_in "$tmp/pp" init-minimal 0 env ULTIMATE_SHARE="$share" "$iult" \
	init mine
has init-minimal-says "$tmp/stdout" "^ultimate: new project in 'mine', from the example 'minimal': .github/, README.md, data/, docs/, engine/, templates/\$"
if (cd "$top/docs/examples/minimal" && find . -type f | sort) >"$tmp/want" &&
	(cd "$tmp/pp/mine" && find . -type f ! -path './docs/*' \
		! -path './engine/*' | sort) >"$tmp/got" &&
	cmp -s "$tmp/want" "$tmp/got"; then ok; else
	no "init: the minimal project's files are not docs/examples/minimal's:" \
		"$(diff "$tmp/want" "$tmp/got")"; fi
while read -r f; do
	if cmp -s "$top/docs/examples/minimal/$f" "$tmp/pp/mine/$f"; then ok
	else no "init: mine/$f is not docs/examples/minimal's"; fi
done <"$tmp/want"
if cmp -s "$top/docs/templates.md" "$tmp/pp/mine/docs/templates.md"; then ok
else no "init: mine/docs/templates.md is not the repository's"; fi
# The engine is this source, every file of src/, and enough to build.
mkdir "$tmp/engine"
if tar -xzf "$tmp/pp/mine/engine/ultimate.tar.gz" -C "$tmp/engine" &&
	(cd "$tmp/engine" && find . -type f | sort) >"$tmp/got" &&
	(cd "$top" && find ./Makefile ./.ci/deps.sh ./src -type f | sort) \
		>"$tmp/want" && cmp -s "$tmp/want" "$tmp/got" &&
	while read -r f; do cmp -s "$top/$f" "$tmp/engine/$f" || exit 1
	done <"$tmp/want"
then ok; else no "init: engine/ultimate.tar.gz is not this source"; fi
# (make -n writes build/cflags itself: the folder must be there; and
# the build's own variables, BUILD among them, are in the environment.)
if mkdir "$tmp/engine/build" && MAKEFLAGS= make -n -C "$tmp/engine" \
	NO_DEPS=1 BUILD=build ultimate >/dev/null 2>&1
then ok; else no "init: engine/ultimate.tar.gz lacks what 'make ultimate' needs"; fi
rm -rf "$tmp/engine"
# Errors: one line, exit 1, nothing written.
expect_in "$tmp/pp" init-not-empty 1 env ULTIMATE_SHARE="$share" \
	"$iult" init proj
has init-not-empty "$tmp/stderr" "^ultimate: error: cannot create project 'proj': it exists and is not empty; choose a new folder\$"
: >"$tmp/pp/file"
expect_in "$tmp/pp" init-file 1 env ULTIMATE_SHARE="$share" \
	"$iult" init file
has init-file "$tmp/stderr" "'file': it exists and is not a folder"
expect_in "$tmp/pp" init-no-share 1 env ULTIMATE_SHARE="$tmp/none" \
	"$iult" init p2
has init-no-share "$tmp/stderr" "^ultimate: error: cannot start a project: no share folder '$tmp/none' (from ULTIMATE_SHARE; "
if [ ! -e /usr/share/ultimate ]; then
	expect_in "$tmp/pp" init-built-in 1 env -u ULTIMATE_SHARE \
		"$iult" init p2
	has init-built-in "$tmp/stderr" "no share folder '/usr/share/ultimate' (built in; "
fi
cp -R "$share" "$tmp/share2"
rm "$tmp/share2/docs/templates.md"
expect_in "$tmp/pp" init-part-missing 1 env ULTIMATE_SHARE="$tmp/share2" \
	"$iult" init p2
has init-part-missing "$tmp/stderr" "no 'docs/templates.md' in the share folder '$tmp/share2'"
mv "$tmp/share2/examples" "$tmp/share2/examples.not"
expect_in "$tmp/pp" init-example-missing 1 env \
	ULTIMATE_SHARE="$tmp/share2" "$iult" init p2
has init-example-missing "$tmp/stderr" "^ultimate: error: cannot start a project: no 'examples/minimal' in the share folder '$tmp/share2' (from ULTIMATE_SHARE; "
mv "$tmp/share2/examples.not" "$tmp/share2/examples"
# A failure halfway (a FIFO among the templates) leaves no project.
cp "$share/docs/templates.md" "$tmp/share2/docs/"
mkfifo "$tmp/share2/templates/sections/zz-fifo" \
	"$tmp/share2/examples/minimal/templates/zz-fifo"
for ex in lloyd minimal; do
	expect_in "$tmp/pp" "init-halfway-$ex" 1 env \
		ULTIMATE_SHARE="$tmp/share2" "$iult" init --example "$ex" p2
	has "init-halfway-$ex" "$tmp/stderr" "zz-fifo': not a regular file or folder"
	if [ "$(ls -A "$tmp/pp" | tr '\n' ' ')" = "file mine proj " ]; then ok
	else no "init: a failed init left $(ls -A "$tmp/pp")"; fi
	if [ "$(wc -l <"$tmp/stderr")" = 1 ]; then ok; else
		no "init-halfway-$ex: not one line"; cat "$tmp/stderr"; fi
done
# An empty folder, the working directory included, may become one.
mkdir "$tmp/pp/empty" "$tmp/pp/here"
expect_in "$tmp/pp" init-empty 0 env ULTIMATE_SHARE="$share" \
	"$iult" --example=lloyd init empty/
has init-empty "$tmp/stdout" '^  cd empty && ultimate report$'
if [ "$(ls -A "$tmp/pp/empty" | tr '\n' ' ')" = "data docs templates " ]
then ok; else no "init into empty/: $(ls -A "$tmp/pp/empty")"; fi
expect_in "$tmp/pp/here" init-here 0 env ULTIMATE_SHARE="$share" \
	"$iult" init .
if [ -f "$tmp/pp/here/templates/page.html" ] &&
	[ "$(ls -A "$tmp/pp/here" | tr '\n' ' ')" = \
		".github README.md data docs engine templates " ]
then ok; else no "init .: $(ls -A "$tmp/pp/here")"; fi
expect init-needs-dir 2 "$iult" init
# --example: a name init knows, with init only.
expect init-example-unknown 2 "$iult" init --example loyd "$tmp/pp/p3"
has init-example-unknown "$tmp/stderr" "^ultimate: unknown example 'loyd'; did you mean 'lloyd'? (the examples: minimal, lloyd)\$"
expect init-example-far 2 "$iult" init --example=zzzzzzzz "$tmp/pp/p3"
has init-example-far "$tmp/stderr" "^ultimate: unknown example 'zzzzzzzz' (the examples: minimal, lloyd)\$"
expect init-example-other-command 2 "$iult" --example lloyd list
has init-example-other-command "$tmp/stderr" "^ultimate: --example is an option of 'init'\$"
if [ ! -e "$tmp/pp/p3" ]; then ok; else no "init: a usage error made p3"; fi
# uninstall removes every file install put.
if imake uninstall; then ok; else
	no "make uninstall failed"; cat "$tmp/make.out"; fi
left=$(find "$tmp/inst" ! -type d)
if [ -z "$left" ]; then ok; else no "make uninstall left: $left"; fi

# out/ is wholly untracked: `rm -rf out` deletes no file of the
# repository, and git ignores what make report writes there.
if command -v git >/dev/null &&
	git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	if [ -z "$(git -C "$top" ls-files -- out)" ]; then ok; else
		no "tracked under out/: $(git -C "$top" ls-files -- out)"; fi
	if git -C "$top" check-ignore -q out/index.html; then ok; else
		no "git does not ignore out/"; fi
else
	echo "cli: not a git checkout, out/ tracking not tested"
fi

# A verdict turns with the data: one row changed in a copy of data/, and
# the 0/1 quantities the story's sentences read turn with it. The
# record flash drive of 2025 twice as large moves the flash drives'
# whole range to the memory limit before the speed's (memory comes
# first, settled); the newest No. 1 thirty times as fast ends the
# record's slowdown beyond the scatter. Each against the data as they
# are, so that a test of the sentence can follow the quantity.
vd="$tmp/verdict-data"
verdict_get() { # verdict_get NAME DIR: the value of NAME, "-" for none
	"$ult" -d "$2" --as-of 2026 get "$1" 2>/dev/null || echo -
}
verdict_is() { # verdict_is TEST NAME DIR WANT
	got=$(verdict_get "$2" "$3")
	if [ "$got" = "$4" ]; then ok; else
		no "$1: $2 is '$got', want '$4'"; fi
}
rm -rf "$vd"
cp -R "$top/data" "$vd"
verdict_is verdict-as-is verdict.first.settled "$top/data" 0
verdict_is verdict-as-is first.flash_before_speed "$top/data" 0
verdict_is verdict-as-is series.top500.pace.slowed_beyond_scatter "$top/data" 1
sed 's/^\(2025,Kioxia LC9 245\.76 TB (E3\.L),Kioxia,\)2\.4576e14,/\14.9152e14,/' \
	"$top/data/ssd_capacity.csv" >"$vd/ssd_capacity.csv"
if cmp -s "$top/data/ssd_capacity.csv" "$vd/ssd_capacity.csv"; then
	no "verdict-flash: the 2025 flash row was not changed"; else ok; fi
verdict_is verdict-flash first.flash_before_speed "$vd" 1
verdict_is verdict-flash verdict.first.settled "$vd" 1
verdict_is verdict-flash verdict.first.name "$vd" memory
# ... and the sentences that read them turn too (the newest edition's
# page, before and after).
verdict_says() { # verdict_says TEST DIR PHRASE...: each phrase on the page
	_t=$1 _d=$2
	shift 2
	rm -rf "$tmp/verdict-out"
	if ! "$ult" -d "$_d" -o "$tmp/verdict-out" --no-editions report \
		>/dev/null 2>&1; then
		no "$_t: the report failed"
		return
	fi
	for _p in "$@"; do
		if tr '\n' ' ' <"$tmp/verdict-out/index.html" | grep -qF "$_p"
		then ok; else no "$_t: the page does not say '$_p'"; fi
	done
}
verdict_says verdict-as-is-text "$top/data" \
	"flash may come before speed or after it" \
	"do not yet settle whether speed or memory comes first" \
	"The climb has slowed, beyond the scatter of both trends"
verdict_says verdict-flash-text "$vd" \
	"and flash before speed, beyond the scatter of both" \
	"memory comes first." "memory meets its limit first."
cp "$top/data/ssd_capacity.csv" "$vd/"
sed 's/^\(2026-06,LineShine,[^,]*,[^,]*,\)2\.198e18,/\16.594e19,/' \
	"$top/data/top500.csv" >"$vd/top500.csv"
if cmp -s "$top/data/top500.csv" "$vd/top500.csv"; then
	no "verdict-pace: the 2026 list's row was not changed"; else ok; fi
verdict_is verdict-pace series.top500.pace.slowed_beyond_scatter "$vd" 0
verdict_is verdict-pace series.top500.pace.overlap "$vd" 1
verdict_says verdict-pace-text "$vd" \
	"The two ranges overlap, so the record may have kept its pace"
rm -rf "$vd"

# sudo make report, then make report as oneself: out/ belongs to root,
# and the message says so and how to fix it, not "Permission denied".
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	id nobody >/dev/null 2>&1; then
	su=$(mktemp -d)
	chmod 755 "$su"
	cp -R "$top/data" "$top/templates" "$su/"
	cp "$ult" "$su/ultimate"
	chmod -R a+rX "$su"
	asnobody() {
		(cd "$su" && setpriv --reuid=nobody --regid=nogroup \
			--clear-groups ./ultimate --no-editions report) \
			>"$tmp/stdout" 2>"$tmp/stderr"
	}
	(cd "$su" && ./ultimate --no-editions report) >/dev/null 2>&1
	# Up to date: nothing to write, so no error.
	if asnobody; then ok; else no "sudo: a no-op as nobody failed"
		cat "$tmp/stderr"; fi
	echo 'Changed.' >>"$su/templates/sections/intro.md"
	if asnobody; then no "sudo: nobody wrote into root's out/"; else
		ok; fi
	has sudo-owner "$tmp/stderr" "^ultimate: error: cannot write to output folder 'out': it belongs to root (made by sudo?), not to nobody; remove it with \`sudo rm -rf out\` or \`sudo chown -R nobody out\`\$"
	if grep -q 'Permission denied' "$tmp/stderr"; then
		no "sudo: a raw permission error"; else ok; fi
	chown -R nobody "$su/out"
	if asnobody; then ok; else no "sudo: after chown, nobody failed"
		cat "$tmp/stderr"; fi
	rm -rf "$su"
else
	echo "cli: not root (or no setpriv, no user nobody): out/ of sudo not tested"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
