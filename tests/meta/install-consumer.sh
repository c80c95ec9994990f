#!/usr/bin/env bash
# Installs libqubo into a staging directory, checks that every public header
# (and nothing else) is installed, and builds examples/consumer and
# examples/hello against it through pkg-config, as a user of the installed
# library would (doc/abi.md): PKG_CONFIG_LIBDIR points at the
# staged .pc files only, and PKG_CONFIG_SYSROOT_DIR maps their /usr/local
# paths into the stage (pitfall P21). The programs then run with
# LD_LIBRARY_PATH set to the staged libdir. consumer.c is also compiled as
# C++ (the headers' extern "C" guards must hold at link time) and linked
# against the static library with the .pc file's private libraries.
#
# Usage: install-consumer.sh BUILD_DIR SOURCE_DIR
# Environment: CC (default cc), CXX (default c++ when present), MESON
# (default meson), PYTHON (default python3), QUBO_KEEP_STAGE=1 keeps the
# stage for inspection.
set -euo pipefail

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cc=${CC:-cc}
meson=${MESON:-meson}

for tool in pkg-config "$meson" "$cc"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "install-consumer: $tool not found; skipping"
		exit 77
	fi
done

stage=$(mktemp -d /tmp/qubo-stage.XXXXXX)
cleanup() {
	if [ "${QUBO_KEEP_STAGE:-0}" = 1 ]; then
		echo "install-consumer: stage kept at $stage"
	else
		rm -rf "$stage"
	fi
}
trap cleanup EXIT

echo "install-consumer: meson install --destdir $stage"
"$meson" install -C "$build" --destdir "$stage" >"$stage.log" 2>&1 || {
	cat "$stage.log"
	rm -f "$stage.log"
	exit 1
}
rm -f "$stage.log"

# Every public header, and nothing else, is installed.
incdir=$(find "$stage" -type f -name qubo.h -printf '%h\n' -quit)
if [ -z "$incdir" ]; then
	echo "install-consumer: FAIL: qubo.h not installed under $stage"
	exit 1
fi
"${PYTHON:-python3}" "$src/tools/check-headers.py" installed "$src/include" "$incdir"

pc=$(find "$stage" -name libqubo.pc -print -quit)
if [ -z "$pc" ]; then
	echo "install-consumer: FAIL: no libqubo.pc installed under $stage"
	exit 1
fi
pcdir=$(dirname "$pc")
export PKG_CONFIG_LIBDIR="$pcdir"
export PKG_CONFIG_SYSROOT_DIR="$stage"
unset PKG_CONFIG_PATH
echo "install-consumer: pkg-config libqubo $(pkg-config --modversion libqubo)" \
     "from ${pc#"$stage"}"
cflags=$(pkg-config --cflags libqubo)
libs=$(pkg-config --libs libqubo)
echo "install-consumer: cflags: $cflags"
echo "install-consumer: libs: $libs"
libdir=$(pkg-config --variable=libdir libqubo)
libdir="$stage${libdir#"$stage"}"
case "$cflags $libs" in
*"$stage"*) ;;
*)
	echo "install-consumer: FAIL: pkg-config flags do not point into the stage"
	exit 1
	;;
esac

out="$stage/out"
mkdir -p "$out"
# shellcheck disable=SC2086 # pkg-config output is a list of flags
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror -o "$out/consumer" \
	"$src/examples/consumer/consumer.c" $cflags $libs
# shellcheck disable=SC2086
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror -o "$out/hello" \
	"$src/examples/hello.c" $cflags $libs

# The program must record libqubo's SONAME and a LIBQUBO_ version need.
if command -v objdump >/dev/null 2>&1; then
	deps=$(objdump -p "$out/consumer")
	if ! grep -q 'NEEDED.*libqubo\.so\.[0-9]' <<<"$deps"; then
		echo "install-consumer: FAIL: consumer does not need libqubo.so.N"
		exit 1
	fi
	if ! grep -q 'LIBQUBO_[0-9]' <<<"$deps"; then
		echo "install-consumer: FAIL: consumer has no LIBQUBO_x.y version need"
		exit 1
	fi
fi

run() {
	echo "install-consumer: running $(basename "$1")"
	LD_LIBRARY_PATH="$libdir" "$@"
}
run "$out/hello"
run "$out/consumer"

cxx=${CXX:-}
if [ -z "$cxx" ] && command -v c++ >/dev/null 2>&1; then
	cxx=c++
fi
if [ -n "$cxx" ]; then
	# shellcheck disable=SC2086
	"$cxx" -x c++ -std=c++11 -pedantic -Wall -Wextra -Werror -o "$out/consumer-cxx" \
		"$src/examples/consumer/consumer.c" -x none $cflags $libs
	run "$out/consumer-cxx" >/dev/null
	echo "install-consumer: C++ build of consumer.c ran"
fi

if [ -e "$libdir/libqubo.a" ]; then
	static_libs=$(pkg-config --static --libs-only-other --libs-only-l libqubo |
		sed -e 's/\(^\| \)-lqubo\( \|$\)/ /')
	# shellcheck disable=SC2086
	"$cc" -std=c99 -o "$out/consumer-static" "$src/examples/consumer/consumer.c" \
		$cflags "$libdir/libqubo.a" $static_libs
	if objdump -p "$out/consumer-static" 2>/dev/null | grep -q 'NEEDED.*libqubo'; then
		echo "install-consumer: FAIL: static consumer still needs libqubo.so"
		exit 1
	fi
	"$out/consumer-static" >/dev/null
	echo "install-consumer: static build of consumer.c ran"
fi
# The puzzle layer's module, once it is installed: its Requires: libqubo must
# resolve in the stage, and a program using both libraries must link and run.
if [ -e "$pcdir/libqubo-puzzle.pc" ]; then
	pflags=$(pkg-config --cflags --libs libqubo-puzzle)
	echo "install-consumer: libqubo-puzzle flags: $pflags"
	cat >"$out/puzzle_consumer.c" <<'PUZZLE'
#include <stdio.h>
#include <qubo.h>
#include <qubo/puzzle.h>

int main(void)
{
	qubo_puzzle *p = NULL;
	int rc = qubo_puzzle_parse(&p, "", 0, NULL);

	qubo_puzzle_free(p);
	printf("empty puzzle text: %s (%s)\n", qubo_status_name(rc), qubo_error_message());
	return rc < 0 ? 0 : 1;
}
PUZZLE
	# shellcheck disable=SC2086
	"$cc" -std=c99 -pedantic -Wall -Wextra -Werror -o "$out/puzzle_consumer" \
		"$out/puzzle_consumer.c" $pflags
	run "$out/puzzle_consumer"
fi
echo "install-consumer: OK"
