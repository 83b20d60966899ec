#!/bin/sh
# Build the C reference of the random-play odds loop (odds_random.c) into a
# shared library: scripts/c/build.sh OUT.so. $CC picks the compiler (default
# cc), $CFLAGS replaces the flags (default -O3 -march=native, as numba
# compiles for the host CPU). Exits non-zero when no compiler is found.
set -e
out=${1:?usage: build.sh OUT.so}
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "build.sh: no C compiler ($cc)" >&2; exit 3; }
exec "$cc" ${CFLAGS:--O3 -march=native} -shared -fPIC -o "$out" "$(dirname "$0")/odds_random.c"
