#!/bin/sh
# The cmocka unit tests, one binary per module: runs each, passing its
# output through, and ends with 'unit: N passed, N failed', counted from
# cmocka's '[ RUN      ]' and '[       OK ]' lines: a test that failed or
# crashed has no OK line (one that was skipped neither, but its binary
# exits 0), and a binary that fails outside any test counts as one.
# Usage: tests/run-unit.sh build/test_buf build/test_expr ...
set -u
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass=0 fail=0 skip=0 status=0
for t in "$@"; do
	echo 1 >"$tmp/rc"
	{ "$t"; echo $? >"$tmp/rc"; } | tee "$tmp/out"
	rc=$(cat "$tmp/rc")
	run=$(grep -c '^\[ RUN      \]' "$tmp/out")
	ok=$(grep -c '^\[       OK \]' "$tmp/out")
	pass=$((pass + ok))
	if [ "$rc" = 0 ]; then
		skip=$((skip + run - ok))
	elif [ "$run" -gt "$ok" ]; then
		fail=$((fail + run - ok))
		status=1
	else
		echo "FAIL: $t: exit $rc outside any test"
		fail=$((fail + 1))
		status=1
	fi
done
if [ "$skip" -gt 0 ]; then
	echo "unit: $pass passed, $fail failed, $skip skipped"
else
	echo "unit: $pass passed, $fail failed"
fi
exit $status
