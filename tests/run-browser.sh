#!/bin/sh
# Proof that the published site is valid and renders: every page of every
# edition through the Nu Html Checker (vnu-jar, zero errors), every link
# (into other editions too) through tests/check-links.py, then headless
# Chromium with
# no network (tests/browser/check.mjs: images load, anchors resolve,
# nothing from other hosts; a skip link, one <h1> first, no heading
# level skipped, every table captioned, every image with alt text,
# contrast in both colour schemes, figures dark in dark mode with text of
# 11 px or more at 1280 and 390 px, table captions not cut off on a
# phone; screenshots of index.html, light and dark,
# kept in build/browser/ as test artifacts). The layout checks measure
# text, so they run with the fonts the Makefile's DEPS_BROWSER installs
# (Liberation), not with whatever fonts the machine happens to have.
# Usage: tests/run-browser.sh path/to/ultimate
set -eu
ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$top/tests/browser"
if [ ! -d node_modules/playwright-core ] || [ ! -f node_modules/vnu-jar/build/dist/vnu.jar ]; then
	# The lock file pins both; no browser download (Debian's chromium).
	npm ci --no-audit --no-fund --ignore-scripts >"$tmp/npm.log" 2>&1 ||
		{ cat "$tmp/npm.log"; exit 1; }
fi
cd "$top"
"$ult" -o "$tmp/site" report
fail=0
# Every page of every edition (editions/YEAR/*.html) too.
find "$tmp/site" -name '*.html' | sort >"$tmp/pages"
# shellcheck disable=SC2046 # one path per line, no spaces: mktemp's
if java -jar tests/browser/node_modules/vnu-jar/build/dist/vnu.jar \
	--errors-only $(cat "$tmp/pages") 2>"$tmp/vnu"; then
	echo "html: $(wc -l <"$tmp/pages") passed, 0 failed"
else
	cat "$tmp/vnu"
	echo "html: 0 passed, $(grep -c error "$tmp/vnu") failed"
	fail=1
fi
node tests/browser/check.mjs "$tmp/site" "$top/build/browser" || fail=1
python3 tests/check-links.py "$tmp/site" || fail=1
exit $fail
