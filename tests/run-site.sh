#!/bin/sh
# Site tests: the whole report from the shipped data and templates, its
# figures (valid SVG with their series), reproducibility, the figure
# cache, text from data that tries to become markup or gnuplot commands,
# and gnuplot missing or failing. Skips the figure tests, with a message,
# when gnuplot is not installed.
# Usage: tests/run-site.sh path/to/ultimate
set -u
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
# The shipped templates with a fixed report.md (tests/site/report.md).
cp -R "$top/templates" "$tmp/templates"
cp "$top/tests/site/report.md" "$tmp/templates/report.md"
# (only: the project's other pages belong to the shipped report)
for f in "$tmp"/templates/*.md; do
	[ "$(basename "$f")" = report.md ] || rm -f "$f"
done
report() { # report OUT [args...]: exit status in $rc, stderr in $tmp/err
	out=$1
	shift
	(cd "$top" && "$ult" -t "$tmp/templates" -o "$out" "$@" report) \
		>/dev/null 2>"$tmp/err"
	rc=$?
}
same() { diff -r "$1" "$2" >/dev/null; }
no_staging() {
	if ls -A "$1" 2>/dev/null | grep -q '^\.staging'; then
		no "$2: a staging folder was left in $1"
	else ok; fi
}

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "site: gnuplot not installed, skipping (sudo apt-get install -y gnuplot-nox)"
	echo "site: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
real_gnuplot=$(command -v gnuplot)

# The whole site, twice: same bytes.
report "$tmp/a"
if [ "$rc" = 0 ]; then ok; else no "report: exit $rc"; cat "$tmp/err"; fi
report "$tmp/b"
if same "$tmp/a" "$tmp/b"; then ok; else no "two runs differ"; fi
for f in index.html quantities.html data.html style.css quantities.csv \
	quantities.json data/devices.csv data/top500.csv; do
	if [ -s "$tmp/a/$f" ]; then ok; else no "missing $f"; fi
done

# Every figure the report places exists, is valid SVG, holds its series.
figs=$(grep -o 'src="figures/[a-z0-9_-]*\.svg"' "$tmp/a/index.html" |
	sed 's/src="figures\///; s/\.svg"//')
[ -n "$figs" ] && ok || no "the report places no figure"
for f in $figs; do
	if xmllint --noout "$tmp/a/figures/$f.svg" 2>"$tmp/xml"; then ok; else
		no "figures/$f.svg is not valid XML"; cat "$tmp/xml"; fi
done
check_series() { # check_series FIGURE TEXT...
	fig=$1
	shift
	[ -f "$tmp/a/figures/$fig.svg" ] || return 0
	for t in "$@"; do
		if grep -qF -- "$t" "$tmp/a/figures/$fig.svg"; then ok; else
			no "figures/$fig.svg lacks '$t'"; fi
	done
}
check_series top500 "No. 1 of each list" "trend 1993–" "extrapolated" "1 kg ultimate limit"
check_series disk "largest drive" "disks 1956–" "since 2008" "SSDs 2008–" "areal density"
check_series gaps "speed (single-bit ops/s)" "memory (bits)" "Roadrunner"
check_series ladder "ultimate laptop" "1 kg black hole" "atomic-matter laptop"
check_series sensitivity "from the" "24 months"
check_series dust "bits, atomic matter" "ops/s, ultimate limit"

# Nothing changed: no gnuplot is started (a gnuplot that fails is first
# on PATH), and the output is the same.
mkdir -p "$tmp/fake"
printf '#!/bin/sh\ntouch "%s/fake/ran"\nexit 1\n' "$tmp" >"$tmp/fake/gnuplot"
chmod +x "$tmp/fake/gnuplot"
cp -R "$tmp/a" "$tmp/before"
PATH="$tmp/fake:$PATH" report "$tmp/a"
if [ "$rc" = 0 ] && [ ! -e "$tmp/fake/ran" ]; then ok; else
	no "unchanged run started gnuplot (exit $rc)"; cat "$tmp/err"; fi
if same "$tmp/before" "$tmp/a"; then ok; else no "cached run differs"; fi

# Prose changed, figures not: the page is rebuilt, no gnuplot is started
# (not even ahead of need), and no gnuplot process is left behind.
printf '\nOne more sentence of prose.\n' >>"$tmp/templates/report.md"
PATH="$tmp/fake:$PATH" report "$tmp/a"
if [ "$rc" = 0 ] && [ ! -e "$tmp/fake/ran" ] &&
   grep -q "One more sentence" "$tmp/a/index.html"; then ok; else
	no "prose-only change started gnuplot (exit $rc)"; cat "$tmp/err"; fi
cp "$top/tests/site/report.md" "$tmp/templates/report.md"
report "$tmp/a"
if same "$tmp/before" "$tmp/a"; then ok; else no "prose restored differs"; fi

# A figure script changed, its data not: the figure is redrawn from data
# that out/ already holds (gnuplot still finds it), and the data files
# are left as they were.
cp "$tmp/templates/figures/disk.gp" "$tmp/disk.gp.orig"
printf '\n# a comment changes the script\n' >>"$tmp/templates/figures/disk.gp"
touch -d '2000-01-01' "$tmp/a/figures/disk.dat"
report "$tmp/a"
if [ "$rc" = 0 ] && [ -s "$tmp/a/figures/disk.svg" ] &&
   [ -n "$(find "$tmp/a/figures/disk.dat" ! -newermt '2001-01-01')" ]; then
	ok; else no "script-only change (exit $rc)"; cat "$tmp/err"; fi
cp "$tmp/disk.gp.orig" "$tmp/templates/figures/disk.gp"
report "$tmp/a"
if same "$tmp/before" "$tmp/a"; then ok; else no "script restored differs"; fi

# A data file newer than the figures, what they are drawn from unchanged:
# the figures' keys decide, no gnuplot is started, and the run succeeds
# with a gnuplot that would fail.
touch "$tmp/fake/ran" && rm "$tmp/fake/ran"
cp -R "$top/data" "$tmp/data3"
sleep 0.01
touch "$tmp/data3/claims.csv"
printf '#!/bin/sh\ntouch "%s/fake/ran"\nsleep 30\n' "$tmp" >"$tmp/fake/gnuplot"
PATH="$tmp/fake:$PATH" report "$tmp/a" -d "$tmp/data3"
if [ "$rc" = 0 ] && same "$tmp/before" "$tmp/a"; then ok; else
	no "newer data, same figures: exit $rc"; cat "$tmp/err"; fi
if [ ! -e "$tmp/fake/ran" ]; then ok; else
	no "newer data, same figures: gnuplot was started"
	pkill -f "$tmp/fake/gnuplot"
fi
printf '#!/bin/sh\ntouch "%s/fake/ran"\nexit 1\n' "$tmp" >"$tmp/fake/gnuplot"
rm -rf "$tmp/data3" "$tmp/fake/ran"

# A file of out/ changed or removed by hand is put back on the next run.
rm "$tmp/a/figures/dust.svg"
echo "tampered" >>"$tmp/a/index.html"
report "$tmp/a"
if [ "$rc" = 0 ] && same "$tmp/before" "$tmp/a"; then ok; else
	no "a tampered out/ was not repaired (exit $rc)"; fi

# A figure the report no longer places is removed from out/.
cp -R "$tmp/templates" "$tmp/templates2"
grep -v '#figure dust' "$tmp/templates/report.md" >"$tmp/templates2/report.md"
(cd "$top" && "$ult" -t "$tmp/templates2" -o "$tmp/a" report) 2>"$tmp/err"
if [ ! -e "$tmp/a/figures/dust.svg" ] && [ -e "$tmp/a/figures/top500.svg" ]
then ok; else no "a figure no longer placed was left in out/"; fi
rm -rf "$tmp/templates2"
report "$tmp/a"
if same "$tmp/before" "$tmp/a"; then ok; else no "out/ not restored"; fi

# A new data row changes a figure: gnuplot must run; when it fails the
# run fails with exit 3 and out/ stays as it was.
cp -R "$top/data" "$tmp/data2"
echo '2099-06,Next,Somewhere,Nowhere,9e20,1e21,,,test row,,' >>"$tmp/data2/top500.csv"
PATH="$tmp/fake:$PATH" report "$tmp/a" -d "$tmp/data2"
if [ "$rc" = 3 ] && [ -e "$tmp/fake/ran" ]; then ok; else
	no "changed data with failing gnuplot: exit $rc"; fi
grep -q "figure '" "$tmp/err" && ok || no "gnuplot failure names no figure"
if same "$tmp/before" "$tmp/a"; then ok; else no "failed run changed out/"; fi
no_staging "$tmp/a" "failing gnuplot"

# gnuplot killed mid-run.
printf '#!/bin/sh\nkill -9 $$\n' >"$tmp/fake/gnuplot"
PATH="$tmp/fake:$PATH" report "$tmp/a" -d "$tmp/data2"
if [ "$rc" = 3 ] && grep -q "signal 9" "$tmp/err"; then ok; else
	no "killed gnuplot: exit $rc"; cat "$tmp/err"; fi
if same "$tmp/before" "$tmp/a"; then ok; else no "killed run changed out/"; fi

# gnuplot missing from PATH: one clear line, exit 3, out/ untouched.
mkdir -p "$tmp/empty"
PATH="$tmp/empty" report "$tmp/a" -d "$tmp/data2"
if [ "$rc" = 3 ] && grep -q "apt-get install -y gnuplot-nox" "$tmp/err"; then
	ok; else no "missing gnuplot: exit $rc"; cat "$tmp/err"; fi
if same "$tmp/before" "$tmp/a"; then ok; else no "missing gnuplot changed out/"; fi
no_staging "$tmp/a" "missing gnuplot"

# A new output folder is staged beside it and renamed into place whole:
# a failed run leaves no folder at all, a good one nothing beside it.
mkdir "$tmp/fresh"
PATH="$tmp/empty" report "$tmp/fresh/out"
if [ "$rc" = 3 ] && [ -z "$(ls -A "$tmp/fresh")" ]; then ok; else
	no "failed fresh run left: $(ls -A "$tmp/fresh") (exit $rc)"; fi
report "$tmp/fresh/out/"
if [ "$rc" = 0 ] && [ "$(ls -A "$tmp/fresh")" = out ] &&
   same "$tmp/b" "$tmp/fresh/out" &&
   [ "$(stat -c %a "$tmp/fresh/out")" = "$(stat -c %a "$tmp/b")" ]; then
	ok; else no "fresh run: exit $rc, left $(ls -A "$tmp/fresh")"; fi
rm -rf "$tmp/fresh"

# Interrupted by SIGINT or SIGTERM while gnuplot runs: exit 128+signal,
# out/ as it was, no staging folder, no gnuplot left running.
# A sleep of its own length: another test suite running on the machine
# (its own "sleep 30") is not this one's gnuplot.
nap="30.$$"
printf '#!/bin/sh\nsleep %s\n' "$nap" >"$tmp/fake/gnuplot"
for sig in INT TERM; do
	(PATH="$tmp/fake:$PATH" report "$tmp/a" -d "$tmp/data2"
	 echo "$rc" >"$tmp/rc") &
	bg=$!
	# Signal the run once it is inside gnuplot, not before it has
	# started: wait (up to 20 s) for the fake gnuplot's sleep.
	i=0
	until pgrep -f "sleep $nap" >/dev/null || [ $i -ge 200 ]; do
		sleep 0.1; i=$((i + 1)); done
	pkill -"$sig" -f "^$ult -t $tmp/templates -o $tmp/a" ||
		no "SIG$sig: found no run to signal after $((i / 10)) s"
	wait "$bg"
	want=130
	[ "$sig" = TERM ] && want=143
	if [ "$(cat "$tmp/rc")" = "$want" ]; then ok; else
		no "SIG$sig: exit $(cat "$tmp/rc"), want $want"; fi
	if same "$tmp/before" "$tmp/a"; then ok; else
		no "SIG$sig changed out/"; fi
	no_staging "$tmp/a" "SIG$sig"
	if pgrep -f "sleep $nap" >/dev/null; then
		no "SIG$sig left gnuplot running"; pkill -f "sleep $nap"
	else ok; fi
done

# A full disk: out/ on a small file system that holds one site but not
# two; the second run (new data) fails cleanly and leaves out/ as it was.
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/small" &&
   size=$(du -sk "$tmp/a" | cut -f1) &&
   mount -t tmpfs -o size=$((size * 3 / 2))k tmpfs "$tmp/small" 2>/dev/null
then
	report "$tmp/small/out"
	cp -R "$tmp/small/out" "$tmp/small-before"
	report "$tmp/small/out" -d "$tmp/data2"
	if [ "$rc" = 1 ] && grep -q "No space left" "$tmp/err"; then ok; else
		no "full disk: exit $rc"; cat "$tmp/err"; fi
	if [ "$(grep -c error: "$tmp/err")" = 1 ]; then ok; else
		no "full disk: more than one error line"; fi
	if same "$tmp/small-before" "$tmp/small/out"; then ok; else
		no "full disk changed out/"; fi
	no_staging "$tmp/small/out" "full disk"
	umount "$tmp/small"
else
	echo "site: skipping the full-disk test (needs root to mount a tmpfs)"
	skip=$((skip + 1))
fi

# Text from data is shown as text: not Markdown, not HTML, not gnuplot.
cp -R "$top/data" "$tmp/evil"
python3 - "$tmp/evil/devices.csv" "$tmp" <<'PY'
import csv, sys
path, tmp = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(path, encoding="utf-8")))
h = rows[0]
evil = ('Evil "q" `touch %s/pwned1` system("touch %s/pwned2") '
        '<script>alert(1)</script> *bold* | [x](javascript:y) \\n'
        % (tmp, tmp))
for r in rows[1:2]:
    r[h.index("name")] = evil
    r[h.index("label")] = evil
w = csv.writer(open(path, "w", encoding="utf-8", newline=""),
               lineterminator="\n")
w.writerows(rows)
PY
PATH="$(dirname "$real_gnuplot"):$PATH" report "$tmp/evil-out" -d "$tmp/evil"
if [ "$rc" = 0 ]; then ok; else no "evil data: exit $rc"; cat "$tmp/err"; fi
if [ ! -e "$tmp/pwned1" ] && [ ! -e "$tmp/pwned2" ] &&
   [ ! -e "$tmp/evil-out/figures/pwned1" ]; then ok; else
	no "a device name ran a command"; fi
if grep -q '<script>' "$tmp/evil-out/index.html" "$tmp/evil-out/data.html" \
	"$tmp/evil-out/quantities.html"; then no "a device name became HTML"
else ok; fi
if grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/evil-out/data.html"
then ok; else no "data.html does not show the name as text"; fi
if grep -qF 'system("touch' "$tmp/evil-out/figures/gaps.svg" &&
   grep -qF '`touch' "$tmp/evil-out/figures/gaps.svg"; then ok; else
	no "gaps.svg does not draw the name as text"; fi
if [ -f "$tmp/evil-out/figures/gaps.svg" ] &&
   xmllint --noout "$tmp/evil-out/figures/gaps.svg" 2>/dev/null; then ok; else
	no "gaps.svg with an evil name is not valid XML"; fi

# A long history is thinned for plotting; the fit still uses every row.
cp -R "$top/data" "$tmp/long"
awk -F, 'NR == 1 { print; next } { print }
	END { for (i = 0; i < 20000; i++)
		printf "%d,Synthetic %d,Test,%g,generated,\n", 2026, i, 4.4e13 }' \
	"$top/data/disk_capacity.csv" >"$tmp/long/disk_capacity.csv"
report "$tmp/long-out" -d "$tmp/long"
if [ "$rc" = 0 ]; then ok; else no "long history: exit $rc"; cat "$tmp/err"; fi
rows=$(grep -vc '^#' "$tmp/long-out/figures/disk.dat")
if [ "$rows" -le 2000 ]; then ok; else no "disk.dat has $rows rows"; fi
n=$(cd "$top" && "$ult" -d "$tmp/long" get series.disk.fit_all.n)
if [ "$n" -gt 20000 ]; then ok; else no "the fit used $n rows"; fi
# The changes page lists 100 added rows of a file, then counts the rest
# (it was 20,000 list items, most linking to rows data.html leaves out),
# and every link of the site still leads somewhere.
listed=$(grep -c '^<li>.*disk_capacity\.csv:' "$tmp/long-out/changes.html")
if [ "$listed" -le 200 ] &&
   grep -q '^<li>… and [0-9]* more rows of disk_capacity\.csv, lines' \
	"$tmp/long-out/changes.html"; then ok; else
	no "changes.html lists $listed rows of the long history"; fi
if python3 "$top/tests/check-links.py" "$tmp/long-out" >"$tmp/links"; then ok
else no "broken links (long history)"; grep -v '^links:' "$tmp/links" | head; fi

# The shipped report places every figure of templates/figures/ (but the
# house style, style.gp, which is loaded before each).
(cd "$top" && "$ult" -o "$tmp/shipped" report) >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ]; then ok; else no "shipped report: exit $rc"; cat "$tmp/err"; fi
for gp in "$top"/templates/figures/*.gp; do
	f=$(basename "$gp" .gp)
	[ "$f" = style ] && continue
	if grep -q "src=\"figures/$f.svg\"" "$tmp/shipped/index.html"; then ok
	else no "the shipped report does not place figure '$f'"; fi
done

# Every local link and anchor of the shipped site resolves; nothing is
# loaded from another host.
if python3 "$top/tests/check-links.py" "$tmp/shipped" >"$tmp/links"; then ok
else no "broken links"; grep -v '^links:' "$tmp/links"; fi
if python3 "$top/tests/check-links.py" "$tmp/a" >"$tmp/links"; then ok
else no "broken links (test report)"; grep -v '^links:' "$tmp/links"; fi

# The site's quantities are in parts, each quantity a row of exactly
# one of them, each part listed on quantities.html, every [key] of a
# source a link to its reference, and no page of
# quantities large to open on a phone (200 KB; the site-wide page was
# 2 MB in one piece; an edition's page, whose formulas are typeset, is
# held to what a phone downloads, 100 KB compressed, and 1.5 MB as
# written: every quantity is a row of about 1 KB with its typeset
# formula, and with the per-kilogram trend and each machine's gaps at its
# own precision the 2026 edition's page held 1,030 of them, 1.03 MB,
# 74 KB compressed; with the appendix and audit pages' links, every
# trend's three windows with their ranges and each machine's memory gap
# to its own size it holds 1,250, 1.56 MB, 110 KB compressed: held at
# 2 MB and 128 KB, and past that the edition's page must be split in parts as the
# site-wide one is).
if python3 - "$tmp/shipped" >"$tmp/parts" 2>&1 <<'PY'
import gzip, json, os, re, sys
root = sys.argv[1]
names = [q["name"] for q in json.load(open(os.path.join(root, "quantities.json")))]
index = open(os.path.join(root, "quantities.html")).read()
rows = {}
for f in sorted(os.listdir(os.path.join(root, "quantities"))):
    page = open(os.path.join(root, "quantities", f)).read()
    assert 'href="quantities/%s"' % f in index, "%s is not listed" % f
    assert len(page) < 200000, "%s: %d bytes" % (f, len(page))
    raw = re.findall(r'data-label="Source">[^<]*(\[[a-z][a-z0-9_]*\])', page)
    assert not raw, "%s: a source cites %s as text, not as a link" % (f, raw[0])
    for n in re.findall(r'<tr id="([^"]+)"', page):
        assert n not in rows, "%s on %s and %s" % (n, rows[n], f)
        rows[n] = f
missing = [n for n in names if n not in rows]
assert not missing, "not on any part: %s" % missing[:5]
assert len(rows) == len(names), "%d rows, %d quantities" % (len(rows), len(names))
for f in ["quantities.html"] + ["editions/" + d + "/quantities.html"
                                for d in os.listdir(os.path.join(root, "editions"))
                                if d.isdigit()]:
    data = open(os.path.join(root, f), "rb").read()
    z = len(gzip.compress(data, 9, mtime=0))
    assert len(data) < 2000000, "%s: %d bytes" % (f, len(data))
    assert z < 128000, "%s: %d bytes compressed" % (f, z)
PY
then ok; else no "quantities parts"; cat "$tmp/parts"; fi

# The main page is a story one reads in a sitting: at most 6,000 words of
# running text in every edition (paragraphs and lists of the article;
# not its tables, figures and their captions, formulas, references or
# notes, which a reader consults rather than reads), and the check can
# fail (a page with a paragraph of 6,001 words is refused).
words() { python3 - "$@" <<'PY'
import html, re, sys
def running(page):
    s = open(page, encoding="utf-8").read()
    s = s[s.find("<main"):s.find("</main>")]
    for tag in ("table", "figure", "math", "nav", "script", "style"):
        s = re.sub(r"<%s\b.*?</%s>" % (tag, tag), " ", s, flags=re.S)
    s = re.sub(r'<section[^>]*class="footnotes".*?</section>', " ", s, flags=re.S)
    s = re.sub(r'<h2[^>]*id="references".*', " ", s, flags=re.S)
    s = re.sub(r"<[^>]+>", " ", s)
    return len(html.unescape(s).split())
bad = 0
for page in sys.argv[1:]:
    n = running(page)
    if n > 6000:
        print("%s: %d words of running text, more than 6,000" % (page, n))
        bad = 1
sys.exit(bad)
PY
}
if words "$tmp/shipped/index.html" "$tmp/shipped/editions"/[0-9]*/index.html
then ok; else no "the main page is longer than a sitting"; fi
python3 -c 'print("<main><p>" + "word " * 6001 + "</p></main>")' >"$tmp/long.html"
if ! words "$tmp/long.html" >/dev/null; then ok
else no "a main page of 6,001 words passes"; fi

# Every superlative of every edition (nearest, closest, heaviest, ran
# ahead) agrees with the table of its own edition (its report's pages)
# that shows the figure it names; and the check can fail: the newest
# edition with every machine's speed gap set to 0.0 in its table is
# refused.
if python3 "$top/tests/check-superlatives.py" "$tmp/shipped" >"$tmp/sup" 2>&1
then ok; else no "superlatives disagree with their tables"; cat "$tmp/sup"; fi
newest=$(for d in "$tmp/shipped/editions"/[0-9]*/; do basename "$d"; done |
	sort -n | tail -1)
mkdir "$tmp/sup-bad"
for f in "$tmp/shipped/editions/$newest"/*.html; do
	sed -E 's|(#device\.[a-z0-9_]+\.gap\.ops\.orders">)[0-9.]+<|\10.0<|' \
		"$f" >"$tmp/sup-bad/$(basename "$f")"
done
if ! python3 "$top/tests/check-superlatives.py" "$tmp/shipped" \
	"$tmp/sup-bad/index.html" >"$tmp/sup" 2>&1 &&
	grep -q 'but the smallest in the table is 0.0' "$tmp/sup"
then ok; else no "a superlative that disagrees with its table passes"
	cat "$tmp/sup"; fi

# No edition cites a work published after its year (it tells what its
# data could say then), but for the sources of the physical constants and
# particle data, which every edition shares so that its numbers stay
# comparable (CODATA 2018, the IAU 2015 Sun, the PDG 2022 top quark).
if python3 - "$tmp/shipped" "$top/data/references.csv" >"$tmp/anachron" 2>&1 <<'PY'
import csv, glob, os, re, sys
shared = {"codata2018", "iau2015", "pdg2022"}
year = {r["key"]: int(r["year"]) for r in csv.DictReader(open(sys.argv[2]))
        if r["year"].isdigit()}
bad = []
for page in glob.glob(os.path.join(sys.argv[1], "editions", "[0-9]*", "index.html")):
    ed = int(os.path.basename(os.path.dirname(page)))
    for key in set(re.findall(r'href="#ref-([a-z0-9_]+)"', open(page).read())):
        if key not in shared and year.get(key, 0) > ed:
            bad.append("%d cites %s (%d)" % (ed, key, year[key]))
assert not bad, "; ".join(sorted(bad)[:5])
PY
then ok; else no "an edition cites a later work"; cat "$tmp/anachron"; fi

# Every formula of a quantity with a symbol on the quantities pages, each
# edition's too, is typeset: none left as code (a name with no symbol did
# that), and the formulas are there. A quantity without a symbol (a
# machine's name, a count of rows) shows its formula as code.
if python3 - "$tmp/shipped" >"$tmp/typeset" 2>&1 <<'PY'
import json, os, re, sys
root = sys.argv[1]
symbols = set(q["name"] for q in json.load(
    open(os.path.join(root, "quantities.json")))
    if q.get("symbol"))
pages = [os.path.join("quantities", f)
         for f in os.listdir(os.path.join(root, "quantities"))]
pages += [os.path.join("editions", d, "quantities.html")
          for d in os.listdir(os.path.join(root, "editions")) if d.isdigit()]
typeset = 0
for f in sorted(pages):
    page = open(os.path.join(root, f)).read()
    code = [n for n in re.findall(
        r'<tr id="([^"]+)">(?:(?!</tr>).)*<code class="formula">', page,
        re.S) if n in symbols]
    assert not code, "%s: %d formulas as code, the first of %s" % (
        f, len(code), code[0])
    typeset += len(re.findall(r'data-label="Formula"><math ', page))
assert typeset > 0, "no formula typeset"
print("typeset: %d formulas on %d pages" % (typeset, len(pages)))
PY
then ok; else no "formulas left as code"; cat "$tmp/typeset"; fi

# The Pages workflow is valid YAML with a build and a deploy job (and
# the Ubuntu quick start): the deploy needs the build, whose upload
# comes after the site is built and checked (.ci/site).
if python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert set(d["jobs"]) == {"build", "ubuntu", "deploy"}, set(d["jobs"])
assert d["jobs"]["deploy"]["needs"] == "build"
runs = [s.get("run", s.get("uses", "")) for s in d["jobs"]["build"]["steps"]]
up = [i for i, r in enumerate(runs) if "upload-pages-artifact" in r]
site = [i for i, r in enumerate(runs) if r == "sh .ci/site"]
assert up and site and site[0] < up[0], runs' \
	"$top/.github/workflows/pages.yml" 2>"$tmp/yaml"; then ok; else
	no "pages.yml"; cat "$tmp/yaml"; fi

if [ "$skip" -gt 0 ]; then
	echo "site: $pass passed, $fail failed, $skip skipped"
else
	echo "site: $pass passed, $fail failed"
fi
[ "$fail" = 0 ]
