#!/bin/sh
# `make test`'s last lines: runs a command (make with every suite),
# passing its output through, and sums the counts the suites print
# themselves: 'NAME: N passed, N failed[, N skipped]', the claims
# audit's 'claims: N agree, N known discrepancies (N error, ...), N inputs,
# N off' (a claim that agrees, is a known discrepancy or an input taken
# as printed passed, one off failed) and each fuzz replay's 'fuzz-replay T: replayed N inputs'.
# A suite run through tests/timed.sh also says how long it took
# ('time NAME: W s, cpu C s'). Ends with one line for every suite, the
# slowest first, each with its count and its time, then 'test: N
# passed, N failed', with ', N skipped' when a suite skipped some; exits
# with the command's status. A command that failed while no suite counted a failure (a
# build error, a crash before the count) adds one.
# Usage: tests/tally.sh COMMAND [ARG...]
set -u
end="tally-$$-end"
{
	"$@"
	echo "$end $?"
} | awk -v end="$end" '
function add(name, p, f, s) {
	if (!(name in seen)) {
		seen[name] = 1
		order[++n] = name
	}
	pass[name] += p
	fail[name] += f
	skip[name] += s
}
$1 == end && NF == 2 { rc = $2; next }
{ print; fflush() }
/^[a-z][a-z0-9-]*: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {
	sub(/:$/, "", $1)
	add($1, $2, $4, NF >= 6 ? $6 : 0)
}
/^claims: [0-9]+ agree, [0-9]+ known discrepanc(y|ies)( \([^()]*\))?(, [0-9]+ inputs?)?, [0-9]+ off$/ {
	add("claims", $2 + $4 + ($(NF - 2) == "inputs," || \
	    $(NF - 2) == "input," ? $(NF - 3) : 0), $(NF - 1), 0)
}
/^fuzz-replay [a-z0-9_-]+: replayed [0-9]+ inputs$/ {
	add("fuzz-replay", $4, 0, 0)
}
/^time [a-z][a-z0-9-]*: [0-9.]+ s, cpu [0-9.?]+ s$/ {
	sub(/:$/, "", $2)
	add($2, 0, 0, 0)
	timed[$2] = 1
	wall[$2] += $3
	cpu[$2] += $6
}
END {
	if (rc == "")
		rc = 1
	# The slowest first (a suite without a time last, in its order).
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && wall[order[j]] > wall[order[j - 1]]; j--) {
			s = order[j]; order[j] = order[j - 1]; order[j - 1] = s
		}
	line = ""
	for (i = 1; i <= n; i++) {
		s = order[i]
		tp += pass[s]; tf += fail[s]; ts += skip[s]
		part = s " " pass[s]
		if (fail[s])
			part = part " (" fail[s] " failed)"
		if (skip[s])
			part = part " (" skip[s] " skipped)"
		if (timed[s])
			part = part sprintf(" in %.0f s (cpu %.0f s)", wall[s], cpu[s])
		line = line (i > 1 ? ", " : "") part
	}
	if (rc != 0 && tf == 0) {
		tf = 1
		line = line (n ? ", " : "") "1 failure outside the counts (exit " rc ")"
	}
	print "test: " (line != "" ? line : "no suite counted")
	printf "test: %d passed, %d failed%s\n", tp, tf, \
		ts ? ", " ts " skipped" : ""
	exit rc
}'
