#!/bin/sh
# PDF tests (report --pdf): the report printed by headless Chromium from
# the shipped data and templates, one edition (--no-editions, for time):
# page numbers, a reference's address, few pages ending half empty,
# nothing that only works on a screen, figures as vectors, the same
# bytes from two runs into two folders, links made relative, the no-op,
# and a browser missing, failing or printing no PDF, each a one-line
# error with out/ untouched. Skips, with a message, without chromium,
# gnuplot, poppler-utils or python3.
# Usage: tests/run-pdf.sh path/to/ultimate
set -u
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
report() { # report OUT [args...]: exit status in $rc, stderr in $tmp/err
	out=$1
	shift
	(cd "$top" && "$ult" -o "$out" --no-editions "$@" report) \
		>/dev/null 2>"$tmp/err"
	rc=$?
}
no_staging() {
	if ls -A "$1" 2>/dev/null | grep -q 'staging'; then
		no "$2: a staging folder was left in $1"
	else ok; fi
}

browser=${ULTIMATE_CHROMIUM:-chromium}
for c in "$browser" gnuplot pdftotext pdfimages pdftoppm python3; do
	if ! command -v "$c" >/dev/null 2>&1; then
		echo "pdf: '$c' not installed, skipping (sudo apt-get install" \
			"-y chromium gnuplot-nox poppler-utils)"
		echo "pdf: 0 passed, 0 failed, 1 skipped"
		exit 0
	fi
done

# One PDF, linked from the report, not from the other pages.
report "$tmp/a" --pdf
if [ "$rc" = 0 ]; then ok; else no "report --pdf: exit $rc"; cat "$tmp/err"; fi
if [ -s "$tmp/a/report.pdf" ]; then ok; else no "no report.pdf"; fi
if grep -q '<a href="report.pdf">' "$tmp/a/index.html"; then ok; else
	no "index.html does not link report.pdf"; fi
if grep -q 'report.pdf' "$tmp/a/quantities.html"; then
	no "quantities.html links a PDF"; else ok; fi
no_staging "$tmp/a" "report --pdf"
pdftotext -layout "$tmp/a/report.pdf" "$tmp/a.txt" 2>/dev/null
pages=$(pdfinfo "$tmp/a/report.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
if [ "${pages:-0}" -gt 1 ]; then ok; else no "report.pdf has '$pages' pages"; fi

# Page numbers at the foot of every page: "N / PAGES".
n=$(grep -cE "^ *[0-9]+ / $pages *$" "$tmp/a.txt")
if [ "$n" = "$pages" ]; then ok; else
	no "page numbers: $n of $pages pages numbered"; fi
# A reference prints its address.
if grep -q 'doi:10.1038/35023282' "$tmp/a.txt"; then ok; else
	no "the reference list prints no address"; fi
# What only works on a screen is not printed.
for t in 'Full size' 'all editions' 'This report as PDF' \
	'Skip to content'; do
	if grep -q "$t" "$tmp/a.txt"; then no "the PDF prints '$t'"; else ok; fi
done
# The figures stay vectors: no raster image at all.
if [ "$(pdfimages -list "$tmp/a/report.pdf" 2>/dev/null | wc -l)" = 2 ]
then ok; else no "raster images in the PDF:"
	pdfimages -list "$tmp/a/report.pdf"; fi
if grep -c '<svg' "$tmp/a/figures/"*.svg >/dev/null; then ok; else
	no "no SVG figure"; fi
# Links to the site's pages are relative: no path of the staging folder.
if grep -aq '/URI (file:' "$tmp/a/report.pdf"; then
	no "the PDF links file:// paths"; else ok; fi
if grep -aq '/URI (quantities/' "$tmp/a/report.pdf"; then ok; else
	no "no relative link to the quantities pages"; fi
# The edition's date, not the time of the run.
if pdfinfo "$tmp/a/report.pdf" | grep -q 'CreationDate:.*Jan  1 00:00:00'
then ok; else no "the PDF's date is not the edition's"
	pdfinfo "$tmp/a/report.pdf" | grep Date; fi
# Few pages end half empty: a figure that does not fit at the foot of
# a page moves to the next one with the first lines of its caption,
# not with the whole of it, and is a third of a page high at most. A
# page's blank foot: from its last line of text to its page number, as
# a share of the page from its first line; at most one page in 20 (the
# last apart) ends 40% blank or more (3 of 34 did, the figure and its
# caption kept whole).
pdftoppm -r 20 -gray "$tmp/a/report.pdf" "$tmp/page"
if python3 - "$tmp" <<'EOF'
import glob, sys
shares = []
for f in sorted(glob.glob(sys.argv[1] + "/page-*.pgm")):
    data = open(f, "rb").read()
    _, size, _, px = data.split(b"\n", 3)
    w, h = map(int, size.split())
    ink = [min(px[y * w:(y + 1) * w]) < 200 for y in range(h)]
    rows = [y for y in range(h) if ink[y]]
    foot = y = rows[-1]
    while y > 0 and ink[y]:	# the page number
        y -= 1
    while y > 0 and not ink[y]:
        y -= 1
    shares.append((foot - y) / (foot - rows[0]))
blank = [i + 1 for i, s in enumerate(shares[:-1]) if s >= 0.4]
print("pdf: %d of %d pages end 40%% blank or more%s" % (len(blank),
      len(shares), blank and " (pages %s)" % blank or ""))
sys.exit(1 if len(blank) * 20 > len(shares) - 1 else 0)
EOF
then ok; else no "too many pages end half empty"; fi

# The same bytes from another run into another folder.
report "$tmp/b" --pdf
if [ "$rc" = 0 ] && cmp -s "$tmp/a/report.pdf" "$tmp/b/report.pdf"; then
	ok; else no "two runs give different PDFs (exit $rc)"; fi

# A failing browser: one line naming the page, exit 3. The no-op first:
# nothing changed, so the browser is not even started.
fake=$tmp/bin
mkdir -p "$fake"
printf '#!/bin/sh\necho "[0101/000000:ERROR] something broke" >&2\nexit 21\n' \
	>"$fake/chromium"
printf '#!/bin/sh\nfor a; do case $a in --print-to-pdf=*) echo junk >"${a#*=}";; esac; done\n' \
	>"$fake/junk"
chmod +x "$fake/chromium" "$fake/junk"
ULTIMATE_CHROMIUM=$fake/chromium report "$tmp/a" --pdf
if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ]; then ok; else
	no "the no-op started the browser (exit $rc)"; cat "$tmp/err"; fi
# The run is not a no-op (another templates folder, with a file more),
# but no page changed: the published PDF is kept, no browser started.
cp -R "$top/templates" "$tmp/tpl"
echo unused >"$tmp/tpl/unused.txt"
ULTIMATE_CHROMIUM=$fake/chromium report "$tmp/a" --pdf -t "$tmp/tpl"
if [ "$rc" = 0 ] && cmp -s "$tmp/a/report.pdf" "$tmp/b/report.pdf"; then
	ok; else no "an unchanged page's PDF was printed again (exit $rc)"
	cat "$tmp/err"; fi
cp -R "$tmp/a" "$tmp/before"
# Another edition: the PDF must be printed again.
ULTIMATE_CHROMIUM=$fake/chromium report "$tmp/a" --pdf --as-of 2015
if [ "$rc" = 3 ]; then ok; else no "failing browser: exit $rc, not 3"; fi
if [ "$(wc -l <"$tmp/err")" = 2 ] &&
	grep -q "^ultimate: error: .*/chromium exited with status 21 printing 'index.html': \[0101/000000:ERROR\] something broke$" "$tmp/err"
then ok; else no "failing browser: the message"; cat "$tmp/err"; fi
if diff -r "$tmp/before" "$tmp/a" >/dev/null; then ok; else
	no "failing browser: out/ changed"; fi
no_staging "$tmp/a" "failing browser"
# The browser on PATH, as it is named by default.
(cd "$top" && PATH="$fake:$PATH" ULTIMATE_CHROMIUM= "$ult" -o "$tmp/a" \
	--no-editions --pdf --as-of 2015 report) >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 3 ] && grep -q "chromium exited with status 21" "$tmp/err"
then ok; else no "chromium from PATH: exit $rc"; cat "$tmp/err"; fi
# Missing.
ULTIMATE_CHROMIUM=$tmp/no-such-browser report "$tmp/a" --pdf --as-of 2015
if [ "$rc" = 3 ] && grep -q "^ultimate: error: cannot run '.*no-such-browser': No such file or directory; install Chromium with: sudo apt-get install -y chromium" "$tmp/err"
then ok; else no "missing browser: exit $rc"; cat "$tmp/err"; fi
# Something that is not a PDF.
ULTIMATE_CHROMIUM=$fake/junk report "$tmp/a" --pdf --as-of 2015
if [ "$rc" = 3 ] && grep -q "printed 'index.html' into something not a PDF (5 bytes)" "$tmp/err"
then ok; else no "junk PDF: exit $rc"; cat "$tmp/err"; fi
if diff -r "$tmp/before" "$tmp/a" >/dev/null; then ok; else
	no "missing or junk browser: out/ changed"; fi
no_staging "$tmp/a" "missing or junk browser"

# SIGTERM while the browser prints: it and what it started are killed
# at once, exit 143, out/ untouched.
printf '#!/bin/sh\nsleep 987 &\necho $! >"%s"\nwait\n' "$tmp/slow.pid" \
	>"$fake/slow"
chmod +x "$fake/slow"
(cd "$top" && ULTIMATE_CHROMIUM=$fake/slow exec "$ult" -o "$tmp/a" \
	--no-editions --pdf --as-of 2015 report) >/dev/null 2>"$tmp/err" &
pid=$!
i=0
while [ $i -lt 300 ] && ! [ -s "$tmp/slow.pid" ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
rc=$?
if [ "$rc" = 143 ]; then ok; else no "SIGTERM while printing: exit $rc"
	cat "$tmp/err"; fi
# Alive: listed by ps and not a zombie (which its new parent reaps).
alive() { ps -o stat= -p "$1" 2>/dev/null | grep -qv Z; }
child=$(cat "$tmp/slow.pid" 2>/dev/null)
i=0
while [ $i -lt 20 ] && [ -n "$child" ] && alive "$child"; do
	sleep 0.1
	i=$((i + 1))
done
if [ -z "$child" ] || alive "$child"; then
	no "SIGTERM while printing: the browser's child is left"
	[ -z "$child" ] || kill "$child"; else ok; fi
if diff -r "$tmp/before" "$tmp/a" >/dev/null; then ok; else
	no "SIGTERM while printing: out/ changed"; fi
no_staging "$tmp/a" "SIGTERM while printing"

# Without --pdf the PDF goes, and so does the link; nothing else differs
# from a site that never had one.
report "$tmp/a"
report "$tmp/c"
if [ ! -e "$tmp/a/report.pdf" ] && ! grep -q 'report.pdf' "$tmp/a/index.html"
then ok; else no "report without --pdf kept the PDF or its link"; fi
if diff -r -x .manifest "$tmp/a" "$tmp/c" >/dev/null; then ok; else
	no "a site without PDF differs after one with"; fi

echo "pdf: $pass passed, $fail failed"
[ "$fail" = 0 ]
