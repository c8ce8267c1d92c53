#!/bin/sh
# Bad-input tests: each folder tests/errors/<case>/ holds data files that
# replace the shipped ones in a copy of data/ (a file named 'remove' lists
# files to delete instead), 'expected.err', the exact stderr, and
# optionally 'args' (default: list) and 'expected.rc' (default: 1).
# Usage: tests/run-errors.sh path/to/ultimate [--regen]
set -u
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
regen=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
for dir in "$top"/tests/errors/*/; do
	name=$(basename "$dir")
	tmp=$(mktemp -d)
	cp -R "$top/data" "$tmp/data"
	for f in "$dir"*.csv; do
		[ -e "$f" ] && cp "$f" "$tmp/data/"
	done
	if [ -f "$dir/remove" ]; then
		while read -r f; do rm -f "$tmp/data/$f"; done < "$dir/remove"
	fi
	args=list
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	want_rc=1
	[ -f "$dir/expected.rc" ] && want_rc=$(cat "$dir/expected.rc")
	# shellcheck disable=SC2086 # args is a word list on purpose
	(cd "$tmp" && "$ult" -d data $args >/dev/null 2>stderr; \
		echo $? >rc)
	rc=$(cat "$tmp/rc")
	if [ "$regen" = --regen ]; then
		cp "$tmp/stderr" "$dir/expected.err"
	fi
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL $name: exit $rc, want $want_rc"
		fail=$((fail + 1))
	elif ! diff -u "$dir/expected.err" "$tmp/stderr" >"$tmp/diff"; then
		echo "FAIL $name: stderr differs"
		cat "$tmp/diff"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
	rm -rf "$tmp"
done
echo "errors: $pass passed, $fail failed"
[ "$fail" = 0 ]
