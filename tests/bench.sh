#!/bin/bash
# Benchmarks (not tests: nothing here asserts a time). For each case,
# over several runs: wall time of the whole process (bash's
# EPOCHREALTIME, microseconds), peak memory (/usr/bin/time -v), and from
# --timings the program's own time ("own": every stage but the wait for
# gnuplot) and CPU time ("cpu": this process only, gnuplot is a child);
# median, min and max of each. Then the median of each stage, per case.
# "one edition" cases run with --no-editions; the others build the whole
# site, every edition from the article's year on.
# Usage: tests/bench.sh path/to/ultimate [runs] [base]
# With base, a folder holding another checkout with its ultimate built
# (make bench BENCH_BASE=../wt-base), a paired comparison instead: see
# paired() below.
set -eu
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-5}
base=${3:-}
extra=
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
# The same cold runs on tmpfs, when there is one: the program without
# the file system's cost of creating ~30 files.
shm=
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	shm=$(mktemp -d /dev/shm/ultimate-bench.XXXXXX)
fi
trap 'rm -rf "$tmp" ${shm:+"$shm"}' EXIT
cd "$top"

# stats FILE: "median min max" of the numbers in FILE
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%7.1f %6.1f %6.1f", m, v[1], v[NR] }'
}

# fail WHAT [FILE]: stops the benchmark, naming the case that failed
# and showing the end of FILE (its messages), so that no case is left
# out without a word.
fail() {
	echo "bench: $1 failed" >&2
	[ -n "${2:-}" ] && [ -s "$2" ] && tail -n 5 "$2" | sed 's/^/    /' >&2
	exit 1
}

# one DATADIR OUT: one report into OUT; appends to the result files
# (case: the name of the case it is a run of, for a failure)
case=
one() {
	local s e
	s=$EPOCHREALTIME
	# shellcheck disable=SC2086 # $extra: options, split on purpose
	/usr/bin/time -v -o "$tmp/time" "$ult" -d "$1" -o "$2" $extra \
		--timings report >/dev/null 2>"$tmp/timings" ||
		fail "case '$case'" "$tmp/timings"
	e=$EPOCHREALTIME
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' \
		>>"$tmp/wall"
	awk -F': ' '/Maximum resident/ { printf "%.1f\n", $2 / 1024 }' \
		"$tmp/time" >>"$tmp/rss"
	awk '$2 == "own" { print $3 }' "$tmp/timings" >>"$tmp/own"
	awk '$2 == "own-cpu" { print $3 }' "$tmp/timings" >>"$tmp/cpu"
	cat "$tmp/timings" >>"$tmp/allstages"
}

# measure NAME MODE DATADIR: $runs reports; MODE is cold (into a new
# output folder each time, as a first run; the folders are removed only
# when the benchmark ends, since creating files where many were just
# deleted is slow on some file systems: ext4 without a journal skips
# inodes freed in the last minutes, one by one), coldshm (the same on
# tmpfs), scratch (out/ removed before each run: rm -rf out; make
# report), warm (only the manifest removed: everything is made again but
# the figures come from their cache) or noop (nothing changed)
measure() {
	local name=$1 mode=$2 data=$3 i out="$tmp/out"
	: >"$tmp/wall"; : >"$tmp/rss"; : >"$tmp/own"; : >"$tmp/cpu"
	: >"$tmp/allstages"
	rm -rf "$tmp/out"
	case=$name
	case $mode in
	# shellcheck disable=SC2086
	warm|noop) "$ult" -d "$data" -o "$tmp/out" $extra report \
			>/dev/null 2>"$tmp/timings" ||
		fail "case '$name'" "$tmp/timings" ;;
	esac
	for i in $(seq "$runs"); do
		case $mode in
		cold) out="$tmp/new/$i" ;;
		coldshm) out="$shm/new/$i" ;;
		scratch) rm -rf "$tmp/out" ;;
		warm) rm -f "$tmp/out/.manifest" ;;
		esac
		case $mode in
		cold*) mkdir -p "$(dirname "$out")" ;;
		esac
		one "$data" "$out"
	done
	printf "%-24s %s   %s   %s   %s\n" "$name" "$(stats "$tmp/wall")" \
		"$(stats "$tmp/own")" "$(stats "$tmp/cpu")" "$(stats "$tmp/rss")"
	# The medians, for the marks at the end.
	stats "$tmp/wall" | awk '{ print $1 }' >"$tmp/median-wall-$name"
	stats "$tmp/own" | awk '{ print $1 }' >"$tmp/median-own-$name"
	cp "$tmp/allstages" "$tmp/stages-$name"
}

# stages NAME: the median of each stage over the runs of a case, in the
# order --timings prints them, on one line
stages() {
	awk '$2 !~ /^own/ {
		if (!($2 in n)) order[++k] = $2
		v[$2, ++n[$2]] = $3
	} END {
		for (i = 1; i <= k; i++) {
			s = order[i]; m = n[s]
			for (a = 1; a <= m; a++)	# insertion sort: few runs
				for (b = a; b > 1 && v[s, b - 1] > v[s, b]; b--) {
					t = v[s, b]; v[s, b] = v[s, b - 1]
					v[s, b - 1] = t
				}
			med = m % 2 ? v[s, (m + 1) / 2] : \
			      (v[s, m / 2] + v[s, m / 2 + 1]) / 2
			printf "%s %.3f  ", s, med
		}
	}' "$tmp/stages-$1" | fold -s -w 76 | sed 's/ *$//; 2,$s/^/    /'
	echo
}

# paired: the checkout at $base against this one, each its own
# ultimate on its own data and templates (with BENCH_SAME_DATA=1, the
# base on this checkout's data: the code compared, not the data's
# growth), run by run in turn (base, this, base, this, ...), so that
# the machine's moods fall on both alike.
# Cases: one edition (--no-editions) and every edition, each warm (only
# the manifest removed: everything made again, the figures from their
# cache) and after rm -rf of the output (gnuplot draws). Per case the
# median, min and max wall time of each (ms), then the ratio of the
# medians and the median of the ratios of the pairs; below, the same of
# the program's CPU time (--timings own-cpu: gnuplot is a child and not
# in it), steadier than wall time on a busy machine. Then, when valgrind
# is there, the instructions of one warm run of each (callgrind:
# deterministic, where wall times on a shared VM are not).
# dopt: the data option of run $1 (the base on this data with
# BENCH_SAME_DATA), as words for "${dopt[@]}".
dopt=()
dargs() {
	dopt=()
	if [ "$1" = base ] && [ -n "${BENCH_SAME_DATA:-}" ]; then
		dopt=(-d "$top/data")
	fi
}

paired() {
	local name mode opt i w dir s e data=
	[ -n "${BENCH_SAME_DATA:-}" ] && data=1
	echo "paired: $base (base) against $top (this); $runs pairs per" \
		"case; wall times in ms${data:+; the base on this data}"
	printf "%-28s %-21s   %-21s   %s\n" "" "base: median min max" \
		"this: median min max" "ratio (medians, pairs)"
	for name in "one edition, warm" "one edition, rm -rf out" \
		"every edition, warm" "every edition, rm -rf out"; do
		case $name in
		one*) opt=--no-editions ;;
		*) opt= ;;
		esac
		case $name in
		*warm) mode=warm ;;
		*) mode=scratch ;;
		esac
		: >"$tmp/base"; : >"$tmp/this"
		: >"$tmp/cpu-base"; : >"$tmp/cpu-this"
		for w in base this; do
			dir=$top; [ $w = base ] && dir=$base
			rm -rf "$tmp/out-$w"
			# shellcheck disable=SC2086 # $opt: split on purpose
			(cd "$dir" && dargs $w && ./ultimate "${dopt[@]}" \
				-o "$tmp/out-$w" $opt report >/dev/null 2>&1)
		done
		for i in $(seq "$runs"); do
			for w in base this; do
				dir=$top; [ $w = base ] && dir=$base
				case $mode in
				warm) rm -f "$tmp/out-$w/.manifest" ;;
				*) rm -rf "$tmp/out-$w" ;;
				esac
				s=$EPOCHREALTIME
				# shellcheck disable=SC2086
				(cd "$dir" && dargs $w && ./ultimate "${dopt[@]}" \
					-o "$tmp/out-$w" $opt --timings \
					report >/dev/null 2>"$tmp/timings")
				e=$EPOCHREALTIME
				awk -v s="$s" -v e="$e" \
					'BEGIN { printf "%.3f\n", (e - s) * 1000 }' \
					>>"$tmp/$w"
				awk '$2 == "own-cpu" { print $3 }' \
					"$tmp/timings" >>"$tmp/cpu-$w"
			done
		done
		paste "$tmp/this" "$tmp/base" |
			awk '{ printf "%.0f\n", $1 / $2 * 1e6 }' >"$tmp/ratio"
		printf "%-28s %s   %s   %6.3f %6.3f\n" "$name" \
			"$(stats "$tmp/base")" "$(stats "$tmp/this")" \
			"$(paste <(stats "$tmp/this") <(stats "$tmp/base") |
				awk '{ print $1 / $4 }')" \
			"$(stats "$tmp/ratio" | awk '{ print $1 / 1e6 }')"
		printf "%-28s %s   %s   %6.3f\n" "  its CPU time (own-cpu)" \
			"$(stats "$tmp/cpu-base")" "$(stats "$tmp/cpu-this")" \
			"$(paste <(stats "$tmp/cpu-this") \
				<(stats "$tmp/cpu-base") |
				awk '{ print $1 / $4 }')"
	done
	if command -v valgrind >/dev/null; then
		for opt in --no-editions ""; do
			name="every edition"
			[ -n "$opt" ] && name="one edition"
			for w in base this; do
				dir=$top; [ $w = base ] && dir=$base
				rm -rf "$tmp/out-$w"
				# shellcheck disable=SC2086
				(cd "$dir" && dargs $w && ./ultimate "${dopt[@]}" \
					-o "$tmp/out-$w" $opt report \
					>/dev/null 2>&1 &&
				 rm -f "$tmp/out-$w/.manifest" &&
				 valgrind --tool=callgrind \
					--callgrind-out-file=/dev/null \
					./ultimate "${dopt[@]}" \
					-o "$tmp/out-$w" $opt \
					report 2>&1 >/dev/null |
					sed -n 's/.*refs: *//p' | tr -d , \
					>"$tmp/instr-$w")
			done
			printf "%-28s %7.1fM %7.1fM   %6.3f\n" \
				"instructions, $name" \
				"$(awk '{ print $1 / 1e6 }' "$tmp/instr-base")" \
				"$(awk '{ print $1 / 1e6 }' "$tmp/instr-this")" \
				"$(paste "$tmp/instr-this" "$tmp/instr-base" |
					awk '{ print $1 / $2 }')"
		done
	fi
}

if [ -n "$base" ]; then
	base=$(cd "$base" && pwd)
	[ -x "$base/ultimate" ] || {
		echo "bench: no ultimate built in '$base'" >&2
		exit 2
	}
	paired
	exit 0
fi

echo "ultimate $("$ult" --version | cut -d' ' -f2) on $(nproc) cores;" \
	"$runs runs per case; times in ms, memory in MB"
printf "%-24s %-21s   %-21s   %-21s   %s\n" "" "wall: median min max" \
	"own: median min max" "cpu: median min max" "peak: median min max"
# Warm-up, not measured: after a quiet spell this VM runs the first
# 100 to 200 ms of work about 40% slower (the host's scheduling or
# clocks; seen as runs 2 to 4 of 8 taking 11.6 ms of CPU instead of
# 8.4), which would land on the first case alone.
mkdir -p "${shm:-$tmp}/warm"
for i in 1 2 3 4 5 6; do
	"$ult" -d data -o "${shm:-$tmp}/warm/$i" report >/dev/null 2>&1 || :
done
# One edition (--no-editions) against the whole site: every edition
# from the article's year, with editions/ and changes.html.
extra=--no-editions
measure "one edition, cold" cold data
[ -n "$shm" ] && measure "one edition, cold, tmpfs" coldshm data
measure "one edition, no-op" noop data
extra=
measure "shipped, cold" cold data
[ -n "$shm" ] && measure "shipped, cold, tmpfs" coldshm data
measure "shipped, rm -rf out" scratch data
measure "shipped, figures cached" warm data
measure "shipped, no-op" noop data
for n in 10000 100000 1000000; do
	mkdir -p "$tmp/d$n"
	# The whole data folder (its catalogue and model document too),
	# the history swapped for a longer one.
	cp -R data/. "$tmp/d$n/"
	bash tests/gen-history.sh "$n" >"$tmp/d$n/disk_capacity.csv"
	extra=--no-editions
	measure "history $n, one edition" scratch "$tmp/d$n"
	extra=
	measure "history $n rows" scratch "$tmp/d$n"
done
: >"$tmp/make"
for i in $(seq "$runs"); do
	s=$EPOCHREALTIME
	make -s report >/dev/null 2>"$tmp/make-err" ||
		fail "case 'make report, no-op'" "$tmp/make-err"
	e=$EPOCHREALTIME
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' \
		>>"$tmp/make"
done
printf "%-24s %s\n" "make report, no-op" "$(stats "$tmp/make")"
# The floor: gnuplot alone, drawing the batch of a cold report (caught
# by a gnuplot on PATH that copies its folder). A cold report cannot
# take less; docs/bench.md compares the two.
mkdir -p "$tmp/catch"
printf '%s\n' '#!/bin/sh' 'IFS= read -r line' "d=\${line#cd \\'}" \
	"d=\${d%\\'}" "cp -R \"\$d\" \"$tmp/batch\"" 'exit 1' \
	>"$tmp/catch/gnuplot"
chmod +x "$tmp/catch/gnuplot"
PATH="$tmp/catch:$PATH" "$ult" -d data -o "$tmp/floor-out" --no-editions \
	report >/dev/null 2>&1 || :
: >"$tmp/floor"
if [ -f "$tmp/batch/.batch-0.gp" ]; then
	for i in $(seq "$runs"); do
		s=$EPOCHREALTIME
		(cd "$tmp/batch" && gnuplot .batch-0.gp) >/dev/null 2>&1
		e=$EPOCHREALTIME
		awk -v s="$s" -v e="$e" \
			'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >>"$tmp/floor"
	done
	printf "%-24s %s\n" "gnuplot alone (floor)" "$(stats "$tmp/floor")"
else
	fail "the floor (no batch of figures caught to draw alone)"
fi
stats "$tmp/floor" | awk '{ print $1 }' >"$tmp/median-wall-floor"
# The marks of issue 40 (docs/bench.md), from the medians above: stated,
# not asserted (this is a benchmark; the machine's load moves them).
# med KIND CASE: the median KIND (wall or own) of CASE
med() {
	cat "$tmp/median-$1-$2"
}
# ratio A B: A / B to two decimals
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}
# both WHAT DISK [TMPFS]: a mark's line, with the tmpfs figure if any
both() {
	printf "  %-50s %s%s\n" "$1" "$2" "${3:+ on disk, $3 on tmpfs}"
}
one_own=$(med own "one edition, cold")
one_wall=$(med wall "one edition, cold")
all_own=$(med own "shipped, cold")
all_wall=$(med wall "shipped, cold")
floor=$(med wall floor)
echo
echo "marks (of the medians above; docs/bench.md):"
both "one edition's own time, cold, ms (at most 80):" "$one_own" \
	"${shm:+$(med own "one edition, cold, tmpfs")}"
both "one edition's wall time / floor (at most 1.3):" \
	"$(ratio "$one_wall" "$floor")" \
	"${shm:+$(ratio "$(med wall "one edition, cold, tmpfs")" "$floor")}"
both "every edition / one edition, wall (at most 8):" \
	"$(ratio "$all_wall" "$one_wall")" \
	"${shm:+$(ratio "$(med wall "shipped, cold, tmpfs")" \
		"$(med wall "one edition, cold, tmpfs")")}"
both "  the same, own time:" "$(ratio "$all_own" "$one_own")" \
	"${shm:+$(ratio "$(med own "shipped, cold, tmpfs")" \
		"$(med own "one edition, cold, tmpfs")")}"
echo
for c in "one edition, cold" "shipped, cold" ${shm:+"shipped, cold, tmpfs"} \
	"shipped, rm -rf out" "shipped, figures cached" \
	"shipped, no-op" "history 10000 rows" "history 100000 rows" \
	"history 1000000, one edition" "history 1000000 rows"; do
	echo "stages, $c:"
	echo "    $(stages "$c")"
done
size=$(wc -c <"$tmp/d1000000/disk_capacity.csv")
rm -rf "$tmp/out"
load=$("$ult" -d "$tmp/d1000000" --timings list 2>&1 >/dev/null |
	awk '$2 == "load" { print $3 }')
echo "CSV loading: $size bytes of history (plus the other files) in" \
	"$load ms: $(awk -v s="$size" -v l="$load" \
	'BEGIN { printf "%.0f", s / l / 1000 }') MB/s"
