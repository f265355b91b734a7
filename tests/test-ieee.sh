#!/bin/sh
# IEEE 754 arithmetic as written, whatever the build's options:
#   - the solver, the ODE plugin and the command refuse to be compiled with
#     options that drop IEEE 754 semantics (-ffast-math, -Ofast,
#     -ffinite-math-only, and -funsafe-math-optimizations and its parts where
#     the compiler names them in macros, as GCC does): NaN tests and rounding
#     bounds would silently go wrong.  Each part's private header (each
#     includes lib/ieee.h) is run through the preprocessor with such an
#     option, where it must stop with its message, and without, where it
#     must not; configure refuses them
#     by name, for compilers that do not name them, and refuses CFLAGS that
#     would turn fused multiply-adds back on (-ffp-contract=fast);
#   - the build's options (FP_CFLAGS before CFLAGS, as the Makefiles order
#     them) keep the compiler from fusing a * b + c into one instruction even
#     for a target that has it (x86-64 with -mfma), where GCC would by
#     default: answers would then depend on the target;
#   - double arithmetic is evaluated in double (double_t is double): the
#     x87 unit (32-bit x86, or -mfpmath=387) rounds each operation twice,
#     through 80 bits, and the solver's error-free sums and products go
#     wrong.  lib/poly.h refuses such a build, and the build's options
#     (configure adds -msse2 -mfpmath=sse where needed) do not make one.
# Run from the tests build directory; CC, FP_CFLAGS and CFLAGS come from the
# build (AM_TESTS_ENVIRONMENT).
: "${srcdir:=.}"
: "${CC:=cc}"
top=$(cd "$srcdir/.." && pwd)

# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"

# message HEADER OPTION: what the preprocessor says of HEADER under OPTION
# that names the guard (empty when it says nothing of it).
message() {
    $CC $2 -E -I"$top/include" -I"$top/lib" -I"$top/plugin" -x c "$1" 2>&1 >/dev/null |
        grep 'needs IEEE 754 arithmetic'
}

# names OPTION: does the compiler name OPTION in a macro (GCC does for the
# parts of -funsafe-math-optimizations, clang does not)?
names() {
    $CC $1 -dM -E -x c /dev/null 2>/dev/null |
        grep -q -E '__(ASSOCIATIVE_MATH|RECIPROCAL_MATH|NO_SIGNED_ZEROS)__'
}

echo "1..28"
for h in lib/poly.h plugin/internal.h tools/query.h; do
    # plugin/internal.h needs ODE's headers: not in a build without ODE
    if [ "$h" = plugin/internal.h ] && [ "${BOXTOI_WITH_ODE:-yes}" = no ]; then
        for k in 1 2 3 4 5 6 7; do
            skip "$h check $k" "the ODE plugin is not built (configure --without-ode)"
        done
        continue
    fi
    for opt in -ffast-math -Ofast -ffinite-math-only; do
        out=$(message "$top/$h" "-O2 $opt")
        result "$([ -n "$out" ] && echo 1)" "$h refuses $opt" "preprocessor: no guard's message"
    done
    for opt in -funsafe-math-optimizations -freciprocal-math -fno-signed-zeros; do
        if names "$opt"; then
            out=$(message "$top/$h" "-O2 $opt")
            result "$([ -n "$out" ] && echo 1)" "$h refuses $opt" "preprocessor: no guard's message"
        else
            skip "$h refuses $opt" "$CC does not name it in a macro (configure refuses it)"
        fi
    done
    # accepted: the preprocessor succeeds (any other failure counts too)
    out=$($CC -O2 -E -I"$top/include" -I"$top/lib" -I"$top/plugin" -x c "$top/$h" 2>&1 \
        >/dev/null) && good=1 || good=
    result "$good" "$h is accepted with -O2 alone" "$out"
done

# fused OPTIONS...: does the compiler, given the options, fuse a * b + c (an
# FMA instruction in the assembly)?  yes or no; empty when it cannot target FMA.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/boxtoi-fp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
echo 'double f(double a, double b, double c) { return a * b + c; }' >"$tmp/f.c"
fused() {
    # shellcheck disable=SC2068 # options as separate words
    $CC $@ -mfma -O2 -S -o "$tmp/f.s" "$tmp/f.c" >/dev/null 2>&1 || return 0
    if grep -q -i 'vfmadd' "$tmp/f.s"; then echo yes; else echo no; fi
}
# shellcheck disable=SC2086 # options as separate words
control=$(fused $FP_CFLAGS $CFLAGS -ffp-contract=fast)
if [ "$control" = yes ]; then
    result 1 "the test sees a fused multiply-add where the compiler is asked for one"
    # shellcheck disable=SC2086 # options as separate words
    got=$(fused $FP_CFLAGS $CFLAGS)
    result "$([ "$got" = no ] && echo 1)" \
        "the build's options ($FP_CFLAGS $CFLAGS) fuse no multiply-add" "fused: $got"
else
    if [ -z "$control" ]; then
        why="$CC does not target FMA here (it refuses -mfma)"
    else
        why="$CC gave no FMA instruction even with -ffp-contract=fast after the build's options"
    fi
    skip "the test sees a fused multiply-add where the compiler is asked for one" "$why"
    skip "the build's options fuse no multiply-add" "$why"
fi

# wider OPTIONS...: does the compiler, given the options, evaluate double
# arithmetic in a wider format (double_t wider than double)?  yes or no;
# empty when it refuses the options.
printf '#include <math.h>\nint w[sizeof(double_t) > sizeof(double) ? 1 : -1];\n' >"$tmp/w.c"
printf '#include <math.h>\nint w[sizeof(double_t) < sizeof(double) ? -1 : 1];\n' >"$tmp/n.c"
# shellcheck disable=SC2068 # options as separate words
wider() {
    $CC $@ -fsyntax-only "$tmp/n.c" >/dev/null 2>&1 || return 0
    if $CC $@ -fsyntax-only "$tmp/w.c" >/dev/null 2>&1; then echo yes; else echo no; fi
}
# shellcheck disable=SC2086 # options as separate words
got=$(wider $FP_CFLAGS $CFLAGS)
result "$([ "$got" = no ] && echo 1)" \
    "the build's options ($FP_CFLAGS $CFLAGS) evaluate double arithmetic in double" \
    "wider: ${got:-the options are refused}"
x87=
for opt in -mfpmath=387 -m32; do
    [ "$(wider $opt)" = yes ] && { x87=$opt; break; }
done
if [ -n "$x87" ]; then
    result 1 "the test sees double arithmetic evaluated wider where the compiler is asked for x87 ($x87)"
    out=$($CC $x87 -fsyntax-only -I"$top/include" -I"$top/lib" -x c "$top/lib/poly.h" 2>&1 |
        grep 'needs double arithmetic evaluated in double')
    result "$([ -n "$out" ] && echo 1)" "lib/poly.h refuses double arithmetic evaluated wider" \
        "compiler: no guard's message"
else
    why="$CC does not evaluate wider here (-mfpmath=387, -m32)"
    skip "the test sees double arithmetic evaluated wider where the compiler is asked for x87" "$why"
    skip "lib/poly.h refuses double arithmetic evaluated wider" "$why"
fi
# configure refuses such options by name, whatever the compiler
mkdir "$tmp/conf"
out=$(cd "$tmp/conf" && CC="$CC" "$top/configure" CFLAGS="-O2 -fassociative-math" 2>&1 </dev/null)
status=$?
result "$([ $status -ne 0 ] && echo "$out" | grep -q 'needs IEEE 754 arithmetic' && echo 1)" \
    "configure refuses CFLAGS with -fassociative-math" "$(echo "$out" | tail -3)"
out=$(cd "$tmp/conf" && CC="$CC" "$top/configure" CFLAGS="-O2 -ffp-contract=fast" 2>&1 </dev/null)
status=$?
result "$([ $status -ne 0 ] && echo "$out" | grep -q 'needs IEEE 754 arithmetic' && echo 1)" \
    "configure refuses CFLAGS with -ffp-contract=fast" "$(echo "$out" | tail -3)"
[ "$failed" -eq 0 ]
