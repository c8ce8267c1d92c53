#!/bin/sh
# Bad-input tests: each folder tests/errors/<case>/ holds data files that
# replace the shipped ones in a copy of data/ (or, .bib and .json, join
# them: for import-refs) (a file named 'remove' lists
# files to delete instead; 'model.sed', a sed script, edits the copy of
# data/model.md), optionally a templates/ folder laid over a
# copy of templates/, 'expected.err', the exact stderr, and optionally
# 'args' (default: list) and 'expected.rc' (default: 1). Every case also
# checks that no output folder or staging folder is left behind, and
# that stderr holds no terminal control (ESC, another C0 control but tab
# and line feed, DEL, a C1 control): user text in messages is escaped.
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
	cp -R "$top/templates" "$tmp/templates"
	if [ -d "$dir/templates" ]; then
		cp -R "$dir/templates/." "$tmp/templates/"
	fi
	# A case's own report.md is the whole report: the project's other
	# pages (which cite the shipped report's references) are not its.
	if [ -f "$dir/templates/report.md" ]; then
		for f in "$tmp"/templates/*.md; do
			[ "$(basename "$f")" = report.md ] ||
				[ -f "$dir/templates/$(basename "$f")" ] || rm -f "$f"
		done
	fi
	for f in "$dir"*.csv "$dir"*.bib "$dir"*.json; do
		[ -e "$f" ] && cp "$f" "$tmp/data/"
	done
	if [ -f "$dir/remove" ]; then
		while read -r f; do rm -f "$tmp/data/$f"; done < "$dir/remove"
	fi
	if [ -f "$dir/model.sed" ]; then
		sed -i -f "$dir/model.sed" "$tmp/data/model.md"
	fi
	args=list
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	want_rc=1
	[ -f "$dir/expected.rc" ] && want_rc=$(cat "$dir/expected.rc")
	# shellcheck disable=SC2086 # args is a word list on purpose
	(cd "$tmp" && "$ult" -d data -t templates -o out $args >/dev/null \
		2>stderr; echo $? >rc)
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
	elif LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" \
		"$tmp/stderr" ||
		LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$tmp/stderr"; then
		echo "FAIL $name: a terminal control in stderr, not escaped"
		fail=$((fail + 1))
	elif [ "$want_rc" != 0 ] && [ -n "$(ls -A "$tmp/out" 2>/dev/null)" ]; then
		echo "FAIL $name: a failed run left files in out/"
		ls -A "$tmp/out"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
	rm -rf "$tmp"
done
echo "errors: $pass passed, $fail failed"
[ "$fail" = 0 ]
