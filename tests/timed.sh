#!/bin/sh
# Runs one suite, then says how long it took, as its last line:
# 'time NAME: W s, cpu C s' (the wall clock, and the user and system
# time of every process it started and waited for). tests/tally.sh
# puts each suite's time beside its count at the end of `make test`, so
# that the slowest suites show.
# Usage: tests/timed.sh NAME COMMAND [ARG...]; exits with COMMAND's status.
set -u
name=$1
shift
now() { # milliseconds since the epoch (GNU date), else whole seconds
	_t=$(date +%s%N)
	case $_t in
	*[!0-9]*) echo $(($(date +%s) * 1000)) ;;
	*) echo $((_t / 1000000)) ;;
	esac
}
t0=$(now)
"$@"
rc=$?
t1=$(now)
# The second line of `times`: the children's user and system time, as
# 1m2.345s 0m6.789s (into a file: in a pipe or $(...), times would
# speak for a subshell, which started nothing).
cpu=
if f=$(mktemp 2>/dev/null); then
	times >"$f"
	cpu=$(sed -n '2s/[ms]/ /gp' "$f" |
		awk '{ printf "%.1f", ($1 + $3) * 60 + $2 + $4 }')
	rm -f "$f"
fi
echo "time $name: $(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.1f", ms / 1000 }') s, cpu ${cpu:-?} s"
exit $rc
