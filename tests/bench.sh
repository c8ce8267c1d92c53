#!/bin/sh
# Benchmarks (not tests: nothing here asserts a time). Prints, for each
# case, wall time and peak memory over several runs (median, min, max,
# from /usr/bin/time -v) and the stages of one run (--timings).
# Usage: tests/bench.sh path/to/ultimate [runs]
set -eu
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"

# stats FILE: median, min and max of the numbers in FILE
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%10.1f %10.1f %10.1f", m, v[1], v[NR] }'
}
# measure NAME CLEAN DATADIR: runs the report $runs times
measure() {
	name=$1 clean=$2 data=$3
	: >"$tmp/wall"
	: >"$tmp/rss"
	for i in $(seq "$runs"); do
		[ "$clean" = cold ] && rm -rf "$tmp/out"
		/usr/bin/time -v "$ult" -d "$data" -o "$tmp/out" report \
			>/dev/null 2>"$tmp/time"
		awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":")
			s = p[n] + (n > 1 ? p[n - 1] * 60 : 0)
			printf "%.3f\n", s * 1000 }' "$tmp/time" >>"$tmp/wall"
		awk -F': ' '/Maximum resident/ { printf "%.1f\n", $2 / 1024 }' \
			"$tmp/time" >>"$tmp/rss"
	done
	printf "%-22s %s   %s\n" "$name" "$(stats "$tmp/wall")" \
		"$(stats "$tmp/rss")"
}
stages() { # stages DATADIR: one run's --timings, on one line
	rm -rf "$tmp/out"
	"$ult" -d "$1" -o "$tmp/out" --timings report 2>&1 >/dev/null |
		awk '{ printf "%s %s ms  ", $2, $3 }'
	echo
}

echo "ultimate $("$ult" --version | cut -d' ' -f2) on $(nproc) cores; $runs runs per case"
printf "%-22s %32s   %32s\n" "" "wall ms: median    min    max" \
	"peak MB: median    min    max"
measure "shipped, cold" cold data
measure "shipped, no-op" warm data
for n in 10000 100000 1000000; do
	mkdir -p "$tmp/d$n"
	cp data/*.csv "$tmp/d$n/"
	sh tests/gen-history.sh "$n" >"$tmp/d$n/disk_capacity.csv"
	measure "history $n rows" cold "$tmp/d$n"
done
: >"$tmp/make"
for i in $(seq "$runs"); do
	s=$(date +%s%N)
	make -s report >/dev/null
	e=$(date +%s%N)
	echo "$(( (e - s) / 1000 ))" | awk '{ printf "%.1f\n", $1 / 1000 }' >>"$tmp/make"
done
printf "%-22s %s\n" "make report, no-op" "$(stats "$tmp/make")"
echo
echo "stages, shipped, cold:  $(stages data)"
rm -rf "$tmp/out"
"$ult" -d data -o "$tmp/out" report
echo "stages, shipped, no-op: $("$ult" -d data -o "$tmp/out" --timings report 2>&1 >/dev/null | awk '{ printf "%s %s ms  ", $2, $3 }')"
for n in 10000 100000 1000000; do
	echo "stages, $n rows: $(stages "$tmp/d$n")"
done
size=$(wc -c <"$tmp/d1000000/disk_capacity.csv")
load=$("$ult" -d "$tmp/d1000000" --timings list 2>&1 >/dev/null |
	awk '$2 == "load" { print $3 }')
echo "CSV loading: $size bytes of history (plus the other files) in $load ms: $(awk -v s="$size" -v l="$load" 'BEGIN { printf "%.0f", s / l / 1000 }') MB/s"
