#!/usr/bin/env bash
# Builds libqubo the ways packagers do and fails on any warning: gcc and
# clang, each with buildtype=release and with buildtype=plain plus
# c_args=-O3, all with -Dwerror=true, the tests and examples included (docs
# left out). Build only: nothing is run.
#
# A plain -O3 build whose compiler and linker commands are the ones of the
# release build of the same compiler (up to the order of the flags, the
# build directory's name, and the -Wl,-O1 that release adds, which only makes
# the linker optimise its hash tables) would print the same warnings, so it
# is configured and compared but not compiled again; --all compiles it
# anyway. With gcc 12, clang 14 and meson 1.0.1 the commands are the same.
#
# --compiler CC builds only the configurations of CC (gcc or clang). CI
# passes gcc: its asan step compiles the whole tree with clang and
# -Dwerror=true, and clang's warnings come from its front end, which the
# optimisation level and the sanitizers leave alone (the code has no
# NDEBUG-dependent parts).
#
# --no-tests leaves the test suites out (-Dtests=disabled): the libraries,
# the examples and the programs only, as packagers ship them. CI passes it:
# its build step compiles the suites with gcc at -O2 and -Dwerror=true.
#
# Usage: tools/check-builds.sh [--all] [--compiler CC] [--no-tests] [OUT_DIR]   (default:
# build-ci-builds; one build directory per configuration under it, logs in
# OUT_DIR/*.log)
# Exit status: 0 when every build is warning-free, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
all=0
only=
notests=0
while [ $# -gt 0 ]; do
	case $1 in
	--all) all=1 ;;
	--no-tests) notests=1 ;;
	--compiler)
		only=${2:-}
		shift
		;;
	*) break ;;
	esac
	shift
done
out=${1:-build-ci-builds}
mkdir -p "$out" || exit 1

# Tests are required where Criterion is installed (as in CI), else left to
# auto so that the libraries and examples are still checked.
tests=auto
if pkg-config --exists criterion 2>/dev/null; then
	tests=enabled
fi
[ "$notests" = 1 ] && tests=disabled

# name  compiler  meson options
configs=(
	"gcc-release   gcc   --buildtype=release"
	"gcc-plain-O3  gcc   --buildtype=plain -Dc_args=-O3"
	"clang-release clang --buildtype=release"
	"clang-plain-O3 clang --buildtype=plain -Dc_args=-O3"
)

# The build's compiler and linker commands, each command's words sorted, the
# build directory's path replaced by BUILD and -Wl,-O1 left out.
commands_of() {
	python3 - "$1" <<'EOF'
import json, os, re, sys
d = sys.argv[1]
absd = os.path.abspath(d)
def norm(words):
    return " ".join(sorted(w.replace(absd, "BUILD") for w in words if w != "-Wl,-O1"))
for e in sorted(json.load(open(d + "/compile_commands.json")), key=lambda e: e["output"]):
    print(e["output"], norm(e["command"].split()))
with open(d + "/build.ninja") as f:
    for line in f:
        if re.match(r"\s*(LINK_ARGS|command)\s*=", line):
            print(norm(line.split()))
EOF
}

rc=0
for c in "${configs[@]}"; do
	read -r name compiler opts <<<"$c"
	if [ -n "$only" ] && [ "$compiler" != "$only" ]; then
		continue
	fi
	dir=$out/$name
	log=$out/$name.log
	rm -rf "$dir"
	if ! command -v "$compiler" >/dev/null 2>&1; then
		echo "builds: $name: $compiler is not installed" >&2
		rc=1
		continue
	fi
	# shellcheck disable=SC2086 # opts holds several options
	if ! CC=$compiler meson setup "$dir" $opts -Dwerror=true -Dtests=$tests \
		-Ddocs=disabled -Dpython=disabled -Db_colorout=never >"$log" 2>&1; then
		cat "$log"
		echo "builds: $name: meson setup failed" >&2
		rc=1
		continue
	fi
	base=$out/${compiler}-release
	if [ "$all" = 0 ] && [ "$name" != "${compiler}-release" ] && [ -d "$base" ] &&
		[ "$(commands_of "$dir")" = "$(commands_of "$base")" ]; then
		echo "builds: $name: the same commands as ${compiler}-release (compiled there)"
		continue
	fi
	if ! meson compile -C "$dir" --ninja-args=-k0 >>"$log" 2>&1; then
		grep -E -A8 'warning:|error:' "$log" | head -200
		echo "builds: $name: compile failed (see $log)" >&2
		rc=1
		continue
	fi
	# werror turns compiler warnings into errors; this also catches the
	# linker's and meson's own.
	if grep -E -i 'warning[:]' "$log"; then
		echo "builds: $name: warnings (see $log)" >&2
		rc=1
		continue
	fi
	echo "builds: $name: warning-free ($compiler $opts)"
done
exit $rc
