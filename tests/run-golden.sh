#!/bin/sh
# Golden tests: each tests/golden/<case>/ holds data/, templates/ and
# expected/ (pages the report must write, byte for byte, at the same
# paths: expected/editions/2008/index.html is out/editions/2008/...). A
# case without its own data/model.md, data/schema.csv or
# data/references.csv is run with the project's model document,
# catalogue and references (the model is the same; the pages are the
# case's). With --regen, shows each difference and then replaces the
# expected file.
# Usage: tests/run-golden.sh path/to/ultimate [--regen]
set -u
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
regen=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
for dir in "$top"/tests/golden/*/; do
	name=$(basename "$dir")
	tmp=$(mktemp -d)
	mkdir "$tmp/case"
	cp -R "$dir/data" "$dir/templates" "$tmp/case/"
	for f in model.md schema.csv references.csv; do
		[ -f "$tmp/case/data/$f" ] || cp "$top/data/$f" "$tmp/case/data/"
	done
	if ! (cd "$tmp/case" && "$ult" -d data -t templates -o "$tmp/out" report) \
		>/dev/null 2>"$tmp/err"; then
		echo "FAIL $name: report failed"
		cat "$tmp/err"
		fail=$((fail + 1))
		rm -rf "$tmp"
		continue
	fi
	for f in $(cd "$dir"expected && find . -type f | sed 's|^\./||' | sort)
	do
		want="$dir"expected/$f
		if diff -u "$want" "$tmp/out/$f" >"$tmp/diff"; then
			pass=$((pass + 1))
			continue
		fi
		cat "$tmp/diff"
		if [ "$regen" = --regen ]; then
			cp "$tmp/out/$f" "$want"
			echo "regenerated $name/$f"
			pass=$((pass + 1))
		else
			echo "FAIL $name/$f differs"
			fail=$((fail + 1))
		fi
	done
	rm -rf "$tmp"
done
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
