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
# phone; the layout: the contents beside the text at 1280 px, the
# text on the first screen at 390 px; screenshots of index.html, light
# and dark, at 1280 and 390 px,
# kept in build/browser/ as test artifacts). The layout checks measure
# text, so they run with the fonts the Makefile's DEPS_BROWSER installs
# (Liberation), not with whatever fonts the machine happens to have.
# Given the program (not --site), also the preview of `watch --serve`
# (tests/browser/preview.mjs): a page open reloads after a build when it
# or a file it shows changed, and only then.
# Usage: tests/run-browser.sh path/to/ultimate
#        tests/run-browser.sh --site DIR
#        tests/run-browser.sh --preview path/to/ultimate
# The first builds the site into a temporary folder and checks it, and
# the preview; the second checks the site already in DIR (the out/ that
# CI publishes), and writes nothing into it; the third, the preview
# alone.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
site= preview=
if [ "${1-}" = --preview ]; then
	preview=only
	shift
fi
if [ "${1-}" = --site ]; then
	if [ -n "$preview" ] || [ $# -ne 2 ] || [ ! -f "$2/index.html" ]; then
		echo "run-browser: --site ${2-}: no index.html there" >&2
		exit 2
	fi
	site=$(cd "$2" && pwd)
else
	ult=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$top/tests/browser"
if [ ! -d node_modules/playwright-core ] || [ ! -f node_modules/vnu-jar/build/dist/vnu.jar ]; then
	# The lock file pins both; no browser download (Debian's chromium).
	npm ci --no-audit --no-fund --ignore-scripts >"$tmp/npm.log" 2>&1 ||
		{ cat "$tmp/npm.log"; exit 1; }
fi
cd "$top"
fail=0
# The preview (watch --serve) reloads a page only when it changed.
if [ -n "${ult-}" ]; then
	mkdir "$tmp/preview"
	cp -R data templates "$tmp/preview/"
	node tests/browser/preview.mjs "$ult" "$tmp/preview" || fail=1
	[ -z "$preview" ] || exit $fail
fi
if [ -z "$site" ]; then
	site=$tmp/site
	"$ult" -o "$site" report >/dev/null
fi
# Every page of every edition (editions/YEAR/*.html) too.
find "$site" -name '*.html' | sort >"$tmp/pages"
# One argument per path: a --site folder may have spaces in its name.
set --
while IFS= read -r p; do set -- "$@" "$p"; done <"$tmp/pages"
if java -jar tests/browser/node_modules/vnu-jar/build/dist/vnu.jar \
	--errors-only "$@" 2>"$tmp/vnu"; then
	echo "html: $(wc -l <"$tmp/pages") passed, 0 failed"
else
	cat "$tmp/vnu"
	echo "html: 0 passed, $(grep -c error "$tmp/vnu") failed"
	fail=1
fi
node tests/browser/check.mjs "$site" "$top/build/browser" || fail=1
python3 tests/check-links.py "$site" || fail=1
exit $fail
