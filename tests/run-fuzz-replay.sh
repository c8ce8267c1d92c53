#!/bin/sh
# The fuzzers' seeds and every past crash, as plain tests (no libFuzzer
# needed): each target's replay binary runs its inputs from
# tests/fuzz/corpus/TARGET/ and tests/fuzz/regressions/TARGET/ and says
# 'fuzz-replay TARGET: replayed N inputs'; stops at the first failure.
# Usage: tests/run-fuzz-replay.sh BUILD TARGET...  (BUILD/replay_TARGET)
set -u
build=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
for t; do
	files=$(find "$top/tests/fuzz/corpus/$t" "$top/tests/fuzz/regressions/$t" \
		-type f ! -name .keep | sort)
	printf 'fuzz-replay %s: ' "$t"
	# shellcheck disable=SC2086 # a list of files (no spaces in their names)
	"$build/replay_$t" $files || exit 1
done
