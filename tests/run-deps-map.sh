#!/bin/sh
# The Ubuntu 24.04 dependency map (.ci/ubuntu-24.04.map) against what
# the build installs: every Debian package of the Makefile's DEPS_*
# groups (what .ci/deps.sh installs) and of the apt-get lines in .ci/run
# and .github/workflows/*.yml has a line in the map; every line of the
# map is used, names its package once, and says why when the Ubuntu
# name differs. Then the same check on a list with one package added,
# which must fail: the check can fail. Last, .ci/deps.sh with a stand-in
# apt-get: it asks for the map's names on Ubuntu 24.04 only.
# Usage: tests/run-deps-map.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
map=.ci/ubuntu-24.04.map
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1
pass=0 fail=0

# Each installed package, as 'PACKAGE WHERE' lines: the Makefile's
# groups (asked of make itself, so that what a group expands to is what
# is checked), then each apt-get install line, its continuations joined.
# shellcheck disable=SC2016 # make's $(...), not the shell's
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
	NO_DEPS=1 --eval 'deps-map-list: ; @$(foreach g,$(DEPS_GROUPS),$(foreach \
	e,$($(g)),echo "$(firstword $(subst :, ,$(e))) Makefile:$(g)";))' \
	deps-map-list >"$tmp/installed" || {
	echo "FAIL: make could not list the DEPS_* groups"
	echo "deps-map: 0 passed, 1 failed"
	exit 1
}
for f in .ci/run .github/workflows/*.yml; do
	awk -v f="$f" '
	start == 0 { start = FNR }
	/\\$/ { line = line substr($0, 1, length($0) - 1); next }
	{
		line = line $0
		n = split(line, w, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (w[i] == "apt-get" && w[i + 1] == "install") {
				for (j = i + 2; j <= n; j++) {
					if (w[j] ~ /^[>|;&]/ || w[j] ~ /^[0-9]?>/)
						break
					if (w[j] ~ /^[a-z0-9][a-z0-9.+-]+$/)
						print w[j], f ":" start
				}
			}
		line = ""; start = 0
	}' "$f"
done >>"$tmp/installed"
if [ "$(grep -c 'Makefile:DEPS_BUILD$' "$tmp/installed")" -lt 5 ]; then
	echo "FAIL: found too few packages in DEPS_BUILD to trust the list:"
	cat "$tmp/installed"
	fail=$((fail + 1))
fi

# check INSTALLED: the map against the 'PACKAGE WHERE' lines in
# INSTALLED; prints a FAIL line for each problem, sets $ok and $bad.
check() {
	ok=0 bad=0
	awk -v map="$map" '
	FILENAME == map {
		sub(/#.*/, "")
		if (NF == 0)
			next
		if (NF < 2 || ($1 != $2 && NF < 3)) {
			print "FAIL: " map ":" FNR ": want DEBIAN UBUNTU, and" \
				" a reason when they differ"
			bad++
			next
		}
		if ($1 in line) {
			print "FAIL: " map ":" FNR ": " $1 " again (line " \
				line[$1] ")"
			bad++
			next
		}
		line[$1] = FNR
		ok++
		next
	}
	{
		used[$1] = 1
		if ($1 in line)
			ok++
		else {
			print "FAIL: " $2 ": package " $1 " has no line in " \
				map " (its Ubuntu 24.04 name)"
			bad++
		}
	}
	END {
		for (p in line)
			if (!(p in used)) {
				print "FAIL: " map ":" line[p] ": " p " is" \
					" installed by nothing: a stale line"
				bad++
			}
		print ok, bad >"/dev/stderr"
	}' "$map" "$1" 2>"$tmp/counts"
	read -r ok bad <"$tmp/counts"
}

check "$tmp/installed"
pass=$((pass + ok)) fail=$((fail + bad)) base=$bad

# A package the map lacks must fail, naming it.
cp "$tmp/installed" "$tmp/more"
echo "not-in-the-map Makefile:DEPS_TEST" >>"$tmp/more"
check "$tmp/more" >"$tmp/out"
if [ "$bad" = $((base + 1)) ] && grep -q 'package not-in-the-map has no line' \
	"$tmp/out"; then
	pass=$((pass + 1))
else
	echo "FAIL: a package missing from the map was not caught:"
	cat "$tmp/out"
	fail=$((fail + 1))
fi

# .ci/deps.sh installs by the map's names on Ubuntu 24.04, by Debian's
# elsewhere; a package the map says Ubuntu lacks is named, not asked of
# apt-get. Its checks all fail here (no such commands), and apt-get is a
# stand-in that keeps its arguments: as root deps.sh calls it, as
# another user it prints the apt-get line to run.
mkdir "$tmp/bin"
# shellcheck disable=SC2016 # the stand-in's own $*, $1 and $APT_LOG
printf '%s\n' '#!/bin/sh' 'echo "apt-get $*" >>"$APT_LOG"' \
	'[ "$1" = update ]' >"$tmp/bin/apt-get"
chmod +x "$tmp/bin/apt-get"
printf 'ID=ubuntu\nVERSION_ID="24.04"\n' >"$tmp/ubuntu"
printf 'ID=debian\nVERSION_ID="12"\n' >"$tmp/debian"
entries="gcc:-:cmd=ultimate-test-no-1 chromium:-:cmd=ultimate-test-no-2"
entries="$entries libclang-rt-14-dev:-:cmd=ultimate-test-no-3"
entries="$entries fonts-liberation2:-:cmd=ultimate-test-no-4"
# deps OS WANT NOTWANT: WANT is the package list apt-get is given (or
# told), NOTWANT a name it must not be.
deps() {
	: >"$tmp/apt"
	APT_LOG=$tmp/apt OS_RELEASE=$tmp/$1 PATH="$tmp/bin:$PATH" \
		sh .ci/deps.sh "$tmp/stamps" G key "$entries" \
		>"$tmp/out" 2>&1
	rc=$?
	got=$(sed -n 's/^apt-get install -y -q --no-install-recommends //p
		s/.*sudo apt-get install -y //p' "$tmp/apt" "$tmp/out")
	if [ "$rc" != 0 ] && [ "$got" = "$2" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: deps.sh on $1: exit $rc, packages '$got', want '$2'"
		cat "$tmp/out"
		fail=$((fail + 1))
	fi
}
deps debian "gcc chromium libclang-rt-14-dev fonts-liberation2"
deps ubuntu "gcc libclang-rt-18-dev fonts-liberation"
if grep -q '^ultimate: chromium has no package on ubuntu-24.04: Ubuntu ships' \
	"$tmp/out"; then
	pass=$((pass + 1))
else
	echo "FAIL: deps.sh on ubuntu does not say chromium has no package:"
	cat "$tmp/out"
	fail=$((fail + 1))
fi

echo "deps-map: $pass passed, $fail failed"
[ "$fail" = 0 ]
