#!/bin/sh
# The solver, the ODE plugin and the command refuse to be compiled with
# options that drop IEEE 754 semantics (-ffast-math, -Ofast,
# -ffinite-math-only): NaN tests and rounding bounds would silently go wrong.
# Each source's private header is run through the preprocessor with such an
# option, where it must stop with its message, and without, where it must not.
# Run from the tests build directory; CC comes from the build
# (AM_TESTS_ENVIRONMENT).
: "${srcdir:=.}"
: "${CC:=cc}"
top=$srcdir/..

# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"

# message HEADER OPTION: what the preprocessor says of HEADER under OPTION
# that names the guard (empty when it says nothing of it).
message() {
    $CC $2 -E -I"$top/include" -I"$top/lib" -I"$top/plugin" -x c "$1" 2>&1 >/dev/null |
        grep 'needs IEEE 754 arithmetic'
}

echo "1..12"
for h in lib/poly.h plugin/internal.h tools/query.h; do
    for opt in -ffast-math -Ofast -ffinite-math-only; do
        out=$(message "$top/$h" "-O2 $opt")
        result "$([ -n "$out" ] && echo 1)" "$h refuses $opt" "preprocessor: no guard's message"
    done
    out=$(message "$top/$h" -O2)
    result "$([ -z "$out" ] && echo 1)" "$h is accepted with -O2 alone" "$out"
done

[ "$failed" -eq 0 ]
