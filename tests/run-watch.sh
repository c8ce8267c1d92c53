#!/bin/sh
# Tests of `ultimate watch`, with inotify and with --poll: the first
# build; a template edit rebuilt once, without redrawing a figure; an
# error printed with its location while out/ keeps the last good site;
# the fix rebuilt; a new subfolder watched; SIGINT and SIGTERM (during a
# build that waits on gnuplot) ending it with status 0, leaving no
# process, no staging folder and no lock; and --serve (files, types,
# index.html, 404, no way out of out/ with "..").
# Every wait polls with a time limit: no fixed long sleep.
# Usage: tests/run-watch.sh path/to/ultimate
set -u
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pass=0 fail=0 skip=0

# Every process started here carries WATCH_RUN=$tmp in its environment,
# down to gnuplot: those are the only ones ever looked for or killed.
ours() {
	grep -lzxF "WATCH_RUN=$tmp" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|^/proc/||; s|/environ$||' | grep -vx "$$"
}
cleanup() {
	for p in $(ours); do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
# waitfor SECONDS CMD...: runs CMD every 50 ms until it succeeds, or
# fails when SECONDS have passed.
waitfor() {
	n=$(($1 * 20))
	shift
	until "$@"; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || return 1
		sleep 0.05
	done
}
has() { grep -q -- "$2" "$1"; }
count() { grep -c -- "$2" "$1"; }

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "watch: gnuplot not installed, skipping (sudo apt-get install -y gnuplot-nox)"
	echo "watch: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
# gnuplot, logged: one line per start; it waits while $tmp/hang exists.
mkdir "$tmp/bin"
cat >"$tmp/bin/gnuplot" <<EOF
#!/bin/sh
echo \$\$ >>"$tmp/gnuplot.log"
while [ -e "$tmp/hang" ]; do sleep 0.05; done
exec $(command -v gnuplot) "\$@"
EOF
chmod +x "$tmp/bin/gnuplot"
: >"$tmp/gnuplot.log"

# Options and misuse, before anything runs.
expect_rc() { # expect_rc NAME WANT CMD...
	name=$1 want=$2
	shift 2
	"$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	if [ "$rc" = "$want" ]; then ok; else
		no "$name: exit $rc, want $want"; cat "$tmp/e"; fi
}
expect_rc poll-not-watch 2 "$ult" --poll list
if has "$tmp/e" "^ultimate: --poll is an option of 'watch'$"; then ok; else
	no "poll-not-watch: message"; cat "$tmp/e"; fi
expect_rc serve-bad-port 2 "$ult" --serve 70000 watch
expect_rc watch-no-argument 2 "$ult" watch extra
expect_rc watch-no-data 1 "$ult" -d "$tmp/nothing" -t "$top/templates" \
	-o "$tmp/o1" watch
if has "$tmp/e" "cannot watch '$tmp/nothing'.*-d"; then ok; else
	no "watch-no-data: message"; cat "$tmp/e"; fi
if [ -e "$tmp/o1" ]; then no "watch-no-data: made the output folder"
else ok; fi

# start MODE ARGS...: copies the data and templates into $tmp/MODE and
# starts watch there in the background ($pid), its output in log. One
# edition (--no-editions) is enough and quicker: every edition is built
# by the same code.
start() {
	dir=$tmp/$1
	shift
	mkdir "$dir"
	cp -R "$top/data" "$top/templates" "$dir/"
	: >"$dir/log"
	(cd "$dir" && exec env WATCH_RUN="$tmp" PATH="$tmp/bin:$PATH" \
		"$ult" -d data -t templates -o out --no-editions "$@" watch) \
		>>"$dir/log" 2>&1 &
	pid=$!
}
# stop SIGNAL NAME: sends the signal, waits, checks the end is clean.
stop() {
	kill -"$1" "$pid"
	waitfor 10 sh -c "! kill -0 $pid 2>/dev/null" ||
		no "$2: still running 10 s after SIG$1"
	wait "$pid"
	rc=$?
	if [ "$rc" = 0 ]; then ok; else no "$2: exit $rc after SIG$1"; fi
	if has "$dir/log" '^watch: stopped$'; then ok; else
		no "$2: no 'watch: stopped'"; fi
	left=$(ours)
	if [ -z "$left" ]; then ok; else
		no "$2: processes left: $(ps -o pid=,args= -p "$left")"; fi
	if ls -A "$dir/out" | grep -q '^\.staging'; then
		no "$2: staging folder left"; else ok; fi
	# The lock was released: a report does not wait for it.
	if (cd "$dir" && timeout 20 "$ult" -d data \
		-t templates -o out --no-editions report) >/dev/null 2>&1
	then ok; else no "$2: report after the watch failed or waited"; fi
}
# save FILE SED: edits FILE as vim does: a test file made and removed,
# the file renamed to a backup, written anew, the backup removed.
save() {
	d=$(dirname "$1")
	: >"$d/4913" && rm "$d/4913" && mv "$1" "$1~" &&
		sed "$2" "$1~" >"$1" && rm "$1~"
}

# scenario MODE ARGS...: the author's loop, in MODE.
scenario() {
	m=$1
	start "$@"
	sec=$dir/templates/sections/speed.md
	if waitfor 30 has "$dir/log" '^watch: built out/ in [0-9]* ms$'; then
		ok; else no "$m: first build"; cat "$dir/log"; return; fi
	has "$dir/log" "^watch: watching 'data' and 'templates'" && ok ||
		no "$m: no 'watching' line"
	drawn=$(wc -l <"$tmp/gnuplot.log")

	# A prose edit: rebuilt once, no figure drawn.
	save "$sec" '$a\
Watchword zebra.'
	if waitfor 10 has "$dir/out/index.html" 'Watchword zebra'; then ok
	else no "$m: edit not published"; cat "$dir/log"; fi
	waitfor 5 has "$dir/log" 'speed.md changed; rebuilt' ||
		no "$m: no line for the edit"
	line=$(grep '^watch: templates/sections/speed.md changed; rebuilt out/ in [0-9]* ms$' "$dir/log")
	if [ -n "$line" ]; then ok; else
		no "$m: line for the edit"; cat "$dir/log"; fi
	echo "watch ($m): prose edit: ${line#watch: }"
	if [ "$(wc -l <"$tmp/gnuplot.log")" = "$drawn" ]; then ok; else
		no "$m: a prose edit started gnuplot"; fi

	# An error: said with its place; the last good site stays.
	cp "$dir/out/index.html" "$tmp/good.html"
	save "$sec" 's/^Watchword zebra\.$/{{ laptop.ops_mx }}/'
	if waitfor 10 has "$dir/log" 'build failed (exit status 1)'; then ok
	else no "$m: no failed build"; cat "$dir/log"; fi
	if has "$dir/log" "^templates/sections/speed.md:[0-9]*:4: error: unknown quantity 'laptop.ops_mx'"
	then ok; else no "$m: error without its place"; cat "$dir/log"; fi
	if cmp -s "$tmp/good.html" "$dir/out/index.html"; then ok; else
		no "$m: out/index.html changed by a failed build"; fi
	if ls -A "$dir/out" | grep -q '^\.staging'; then
		no "$m: staging folder left"; else ok; fi

	# The fix: rebuilt. An editor's autosave file builds nothing.
	echo autosave >"$dir/templates/sections/#speed.md#"
	save "$sec" 's/^{{ laptop.ops_mx }}$/Watchword yak./'
	if waitfor 10 has "$dir/out/index.html" 'Watchword yak'; then ok
	else no "$m: fix not published"; cat "$dir/log"; fi
	if waitfor 5 sh -c "[ \$(grep -c '^watch: templates/sections/speed.md changed; rebuilt' '$dir/log') = 2 ]"
	then ok; else no "$m: line for the fix"; cat "$dir/log"; fi

	# A new subfolder is watched too.
	mkdir "$dir/templates/sections/extra"
	echo one >"$dir/templates/sections/extra/note.md"
	if waitfor 10 has "$dir/log" \
		'^watch: templates/sections/extra/note.md added; rebuilt'
	then ok; else no "$m: new file in a new folder"; cat "$dir/log"; fi
	echo two >>"$dir/templates/sections/extra/note.md"
	if waitfor 10 has "$dir/log" \
		'^watch: templates/sections/extra/note.md changed; rebuilt'
	then ok; else no "$m: change in a new folder"; cat "$dir/log"; fi

	# One save, one build: a line for each of the 5 changes above.
	n=$(count "$dir/log" '^watch: .*\(rebuilt\|failed\)')
	if [ "$n" = 5 ]; then ok; else
		no "$m: $n builds for 5 changes"; cat "$dir/log"; fi
}

scenario inotify
stop INT inotify

scenario poll --poll
if has "$dir/log" "(polling)"; then ok; else no "poll: not polling"; fi
stop INT poll

# SIGTERM while a build waits for gnuplot: gnuplot stopped, out/ kept.
start term
if waitfor 30 has "$dir/log" '^watch: built out/'; then ok; else
	no "term: first build"; cat "$dir/log"; fi
cp "$dir/out/index.html" "$tmp/good.html"
drawn=$(wc -l <"$tmp/gnuplot.log")
: >"$tmp/hang"
echo '# touched' >>"$dir/templates/figures/dust.gp"
if waitfor 10 sh -c "[ \$(wc -l <'$tmp/gnuplot.log') -gt $drawn ]"; then
	ok; else no "term: gnuplot not started"; fi
stop TERM term
if has "$dir/log" 'interrupted by SIGTERM'; then ok; else
	no "term: build not interrupted"; cat "$dir/log"; fi
rm -f "$tmp/hang"

# --serve: the site over HTTP on 127.0.0.1 only.
start serve --serve 0
if waitfor 30 has "$dir/log" '^watch: built out/'; then ok; else
	no "serve: first build"; cat "$dir/log"; fi
port=$(sed -n "s|^watch: serving 'out' at http://127.0.0.1:\([0-9]*\)/\$|\1|p" "$dir/log")
if [ -n "$port" ] && python3 - "$port" "$dir/out" <<'EOF'
import http.client, sys
port, out = int(sys.argv[1]), sys.argv[2]
bad = 0
def get(path, want, ctype=None, body=None, method="GET"):
    global bad
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    c.endheaders()
    r = c.getresponse()
    data = r.read()
    got = (r.status, r.getheader("Content-Type"))
    if r.status != want or (ctype and not got[1].startswith(ctype)) or \
            (body is not None and data != body) or \
            (want == 301 and r.getheader("Location") != path + "/"):
        print("FAIL: serve: %s %s: %r, want %d %s" % (method, path, got,
              want, ctype or ""))
        bad += 1
    c.close()
page = open(out + "/index.html", "rb").read()
get("/", 200, "text/html", page)
get("/index.html", 200, "text/html", page)
get("/index.html?x=1", 200, "text/html", page)
get("/index.html", 200, "text/html", b"", "HEAD")
get("/style.css", 200, "text/css")
get("/figures/dust.svg", 200, "image/svg+xml")
get("/quantities.csv", 200, "text/csv")
get("/quantities.json", 200, "application/json")
get("/figures", 301)
get("/nothing.html", 404)
get("/.manifest", 404)
get("/figures/.cache", 404)
get("/../log", 400)
get("/figures/../../log", 400)
get("/%2e%2e/log", 400)
get("/figures/%2E%2E/%2e%2e/log", 400)
get("..", 400)
get("/index.html", 405, None, None, "POST")
sys.exit(1 if bad else 0)
EOF
then ok; else no "serve: requests (port '$port')"; cat "$dir/log"; fi
stop INT serve

total=$((pass + fail))
echo "watch: $pass passed, $fail failed"
[ "$fail" = 0 ]
