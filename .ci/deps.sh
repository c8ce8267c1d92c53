#!/bin/sh
# The Makefile's dependency check: whether what the goals need is there,
# asked by capability (the compiler, pkg-config, PATH, python3), not by
# where Debian puts files. Run by make only when a group's stamp is
# missing or was written for another compiler, flags or PATH.
#
# Usage: deps.sh STAMPDIR GROUP KEY ENTRIES [GROUP KEY ENTRIES]...
# ENTRIES is a space-separated list of debian-package:homebrew:check.
# homebrew is a formula, pip=NAME for a Python package, or - for what
# macOS and its command line tools provide. A check is one of
#   cmd=NAME            a command on PATH (or an executable path)
#   cc=HEADER[,LIB...]  HEADER compiles and, with -lLIB..., links
#   pc=MODULE[,HEADER[,LIB...]]  pkg-config knows MODULE, or else cc=
#   py=MODULE           python3 imports MODULE
#   fuzz=CLANG          CLANG links a libFuzzer target
#   font=FAMILY         fontconfig knows the font family (a '_' in
#                       FAMILY stands for a space)
# Compilers and flags come from the environment: CC, CPPFLAGS, CFLAGS,
# CMARK_CFLAGS, LDFLAGS, PKG_CONFIG.
#
# All present: writes KEY into STAMPDIR/GROUP for each group, exit 0.
# Missing, as root with apt-get: installs the Debian packages, checks
# again. Otherwise: says what is missing and the command that installs
# it (apt-get, or brew when Homebrew is there), exit 1.
set -u
stamps=$1
shift
: "${CC:=cc}" "${PKG_CONFIG:=pkg-config}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ultimate-deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# try_cc HEADER [LIB...]: the header compiles and the libraries link,
# with the flags the build uses. Headers that expect others first
# (cmocka.h) get the usual ones.
try_cc() {
	_h=$1
	shift
	_libs=
	for _l in "$@"; do _libs="$_libs -l$_l"; done
	printf '%s\n' '#include <stdarg.h>' '#include <stddef.h>' \
		'#include <stdint.h>' '#include <setjmp.h>' \
		"#include <$_h>" 'int main(void) { return 0; }' >"$tmp/t.c"
	# shellcheck disable=SC2086 # CC and the flags are word lists
	$CC ${CPPFLAGS:-} ${CMARK_CFLAGS:-} ${CFLAGS:-} -o "$tmp/t" \
		"$tmp/t.c" ${LDFLAGS:-} $_libs >/dev/null 2>&1
}

# try_list HEADER,LIB,...: try_cc with the comma-separated list.
try_list() {
	(
		IFS=,
		# shellcheck disable=SC2086 # split on commas only
		set -- $1
		unset IFS
		try_cc "$@"
	)
}

# check CHECK: exit 0 when the capability is there.
check() {
	_kind=${1%%=*}
	_arg=${1#*=}
	case $_kind in
	cmd) command -v "$_arg" >/dev/null 2>&1 ;;
	cc) try_list "$_arg" ;;
	pc)
		$PKG_CONFIG --exists "${_arg%%,*}" >/dev/null 2>&1 ||
			{ [ "$_arg" != "${_arg#*,}" ] &&
				try_list "${_arg#*,}"; }
		;;
	py) python3 -c "import $_arg" >/dev/null 2>&1 ;;
	font)
		fc-list : family 2>/dev/null | tr ',' '\n' |
			grep -qxF "$(echo "$_arg" | tr _ ' ')"
		;;
	fuzz)
		printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
			'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
			'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
			'{ (void)d; (void)n; return 0; }' >"$tmp/f.c"
		"$_arg" -fsanitize=fuzzer -o "$tmp/f" "$tmp/f.c" \
			>/dev/null 2>&1
		;;
	*) echo "ultimate: deps.sh: unknown check '$1'" >&2; return 1 ;;
	esac
}

# what CHECK: the capability in words, for messages.
what() {
	_kind=${1%%=*}
	_arg=${1#*=}
	case $_kind in
	cmd) echo "command '$_arg'" ;;
	cc) echo "header '${_arg%%,*}'$(libs "${_arg#*,}" "$_arg")" ;;
	pc) echo "library '${_arg%%,*}' (pkg-config)" ;;
	py) echo "python3 module '$_arg'" ;;
	fuzz) echo "libFuzzer for '$_arg'" ;;
	font) echo "font '$(echo "$_arg" | tr _ ' ')'" ;;
	*) echo "'$1'" ;;
	esac
}
libs() { # libs REST ALL: ' and -lA -lB' when ALL names libraries
	[ "$1" = "$2" ] && return
	printf ' and'
	_r=$1
	while [ -n "$_r" ]; do
		printf ' -l%s' "${_r%%,*}"
		case $_r in *,*) _r=${_r#*,} ;; *) _r= ;; esac
	done
}

# Where a map is kept for this system (.ci/ID-VERSION_ID.map, from
# os-release: .ci/ubuntu-24.04.map), packages go by their names there:
# each line is DEBIAN NAME [REASON], NAME - for none; a package the map
# lacks keeps its Debian name. OS_RELEASE: another os-release (tests).
# shellcheck disable=SC1090,SC1091 # the system's file, read to know it
os=$(. "${OS_RELEASE:-/etc/os-release}" 2>/dev/null &&
	echo "${ID:-}-${VERSION_ID:-}")
map=$(dirname "$0")/$os.map
[ -f "$map" ] || map=
# native DEBIAN: the name here ('-': none), then the map's reason.
native() {
	if [ -n "$map" ]; then
		awk -v p="$1" '{ sub(/#.*/, "") }
			$1 == p { f = 1; $1 = ""; sub(/^ /, ""); print; exit }
			END { if (!f) print p }' "$map"
	else
		echo "$1"
	fi
}
# nopkg: a line for each missing entry the map has no package for.
nopkg() {
	for _e in $missing; do
		_n=$(native "${_e%%:*}")
		case $_n in - | "- "*)
			echo "ultimate: ${_e%%:*} has no package on $os:" \
				"${_n#- }" >&2 ;;
		esac
	done
}

# Runs the check of every entry once: sets $missing (the entries that
# failed).
scan() {
	missing=
	for _e in $entries; do
		case " $missing " in *" $_e "*) continue ;; esac
		check "${_e#*:*:}" || missing="$missing $_e"
	done
	missing=${missing# }
}

# debs|brews|checks: one field of each missing entry, once each.
field() {
	_out=
	for _e in $missing; do
		case $1 in
		deb)
			_v=$(native "${_e%%:*}")
			_v=${_v%% *}
			[ "$_v" != - ] || continue
			;;
		brew) _v=${_e#*:}; _v=${_v%%:*} ;;
		esac
		case " $_out " in *" $_v "*) ;; *) _out="$_out $_v" ;; esac
	done
	echo "${_out# }"
}
caps() {
	_out=
	for _e in $missing; do
		_out="$_out${_out:+, }$(what "${_e#*:*:}")"
	done
	echo "$_out"
}

# The arguments: GROUP KEY ENTRIES triples.
entries=
n=0
while [ $# -ge 3 ]; do
	n=$((n + 1))
	eval "group_$n=\$1 key_$n=\$2"
	entries="$entries $3"
	shift 3
done
if [ $# -ne 0 ]; then
	echo "ultimate: deps.sh: arguments come in threes" >&2
	exit 2
fi

scan
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null
then
	pkgs=$(field deb)
	if [ -n "$pkgs" ]; then
		echo "ultimate: installing $pkgs"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q >/dev/null
		# shellcheck disable=SC2086 # package names, as words
		apt-get install -y -q --no-install-recommends $pkgs \
			>/dev/null || { nopkg; exit 1; }
		scan
	fi
	if [ -n "$missing" ]; then
		echo "ultimate: ${pkgs:+still }not found${pkgs:+ after" \
			"apt-get}: $(caps)" >&2
		nopkg
		case " $(field brew) " in *" pip="*)
			echo "ultimate: python3 is $(command -v python3):" \
				"python3 -m pip install pyyaml" >&2 ;;
		esac
		exit 1
	fi
elif [ -n "$missing" ]; then
	echo "ultimate: not found: $(caps)" >&2
	if command -v apt-get >/dev/null; then
		pkgs=$(field deb)
		[ -z "$pkgs" ] || echo "ultimate: missing packages; install" \
			"them with: sudo apt-get install -y $pkgs" >&2
		nopkg
	elif command -v brew >/dev/null; then
		formulas='' pips='' system=''
		for b in $(field brew); do
			case $b in
			-) ;;
			pip=*) pips="$pips ${b#pip=}" ;;
			*) formulas="$formulas $b" ;;
			esac
		done
		for e in $missing; do
			case $e in *:-:*)
				system="$system${system:+, }$(what "${e#*:*:}")"
			esac
		done
		[ -z "$formulas" ] || echo "ultimate: missing packages;" \
			"install them with: brew install${formulas}" >&2
		[ -z "$pips" ] || echo "ultimate: and with pip:" \
			"python3 -m pip install${pips}" >&2
		[ -z "$system" ] || echo "ultimate: $system: part of" \
			"macOS or of its command line tools" \
			"(xcode-select --install)" >&2
		case " $missing " in *:cc=* | *:pc=*)
			p=$(brew --prefix 2>/dev/null)
			echo "ultimate: if they are installed, the compiler may" \
				"not look in Homebrew's folders: put" \
				"CPPFLAGS=-I$p/include and LDFLAGS=-L$p/lib" \
				"in config.mk" >&2 ;;
		esac
	else
		echo "ultimate: install them with the system's package" \
			"manager (on Debian: apt-get install -y $(field deb))" >&2
	fi
	echo "ultimate: or build without these checks: make NO_DEPS=1" >&2
	exit 1
fi

mkdir -p "$stamps" || exit 1
i=1 g='' k=''
while [ "$i" -le "$n" ]; do
	eval "g=\$group_$i k=\$key_$i"
	printf '%s\n' "$k" >"$stamps/$g" || exit 1
	i=$((i + 1))
done
exit 0
