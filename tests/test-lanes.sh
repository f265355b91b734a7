#!/bin/sh
# lib/motion.c validates and converts the usual pair of motions two at a
# time, one box per vector lane, and promises the answers of the one-box
# path bit for bit, invalid input included.  lanes-answers (the library as
# built) and scalar-answers (the same sources with -DBX_NO_LANES) print the
# full answers to the same queries, each after a hash of the boxes as
# validated and converted; they must be identical, group by group.  Where
# the library picks its AVX2 build (lib/dispatch.c), lanes-answers also
# prints a line for any answer of the baseline build that differs from it.
# The groups must also hold what they are meant to exercise: contacts and
# misses, answers and refusals.
# Run from the tests build directory.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-lanes.XXXXXX") || {
    echo "Bail out! no temporary directory"
    exit 1
}
trap 'rm -rf "$tmp"' EXIT
for p in lanes scalar; do
    if ! "./$p-answers" >"$tmp/$p" 2>"$tmp/$p.err"; then
        sed 's/^/# /' "$tmp/$p.err"
        echo "Bail out! $p-answers failed"
        exit 1
    fi
done

echo "1..9"
sed 's/^/# lanes-answers: /' "$tmp/lanes.err"
fail=0
if [ "$(sed -n 1p "$tmp/scalar")" != "lanes 0" ]; then
    echo "Bail out! scalar-answers was built with lanes"
    exit 1
fi
if [ "$(sed -n 1p "$tmp/lanes")" != "lanes 1" ]; then
    for n in 1 2 3 4 5 6 7 8 9; do
        echo "ok $n # SKIP this compiler gives the library no lanes"
    done
    exit 0
fi

n=0
# states: 1 hit, 2 miss, 3 overlap, 4 invalid, 5 failed (boxtoi.h)
count() { # count GROUP STATE
    grep "^$1 [0-9]* answer:" "$tmp/lanes" | awk -v s="$2" '$4 == s { k++ } END { print k + 0 }'
}
for group in rigid:6000 affine:3000 edges:3200 invalid:800; do
    name=${group%%:*}
    want=${group#*:}
    grep "^$name " "$tmp/lanes" >"$tmp/l.$name"
    grep "^$name " "$tmp/scalar" >"$tmp/s.$name"
    lines=$(wc -l <"$tmp/l.$name")
    n=$((n + 1))
    if [ "$lines" -eq "$want" ] && cmp -s "$tmp/l.$name" "$tmp/s.$name"; then
        echo "ok $n - $name: $((lines / 2)) queries, the same bit for bit"
    else
        fail=1
        echo "not ok $n - $name: $lines lines (want $want), the two builds differ"
        diff "$tmp/l.$name" "$tmp/s.$name" | head -6 | sed 's/^/# /'
    fi
done

mixed() { # mixed GROUP LEAST: at least LEAST hits and LEAST misses
    hits=$(count "$1" 1) misses=$(count "$1" 2)
    n=$((n + 1))
    if [ "$hits" -ge "$2" ] && [ "$misses" -ge "$2" ]; then
        echo "ok $n - $1: $hits hits, $misses misses"
    else
        fail=1
        echo "not ok $n - $1: $hits hits, $misses misses (want $2 of each at least)"
    fi
}
mixed rigid 900
mixed affine 450
refused=$(count edges 4)
answered=$(($(count edges 1) + $(count edges 2) + $(count edges 3)))
n=$((n + 1))
if [ "$refused" -ge 200 ] && [ "$answered" -ge 600 ]; then
    echo "ok $n - edges: $answered answered, $refused refused"
else
    fail=1
    echo "not ok $n - edges: $answered answered, $refused refused (want 600 and 200 at least)"
fi
reasons=$(grep "^\(edges\|invalid\) [0-9]* answer:" "$tmp/lanes" |
    awk '$4 == 4 { print $5 }' | sort -u | wc -l)
n=$((n + 1))
if [ "$(count invalid 4)" -eq 400 ] && [ "$reasons" -ge 8 ]; then
    echo "ok $n - invalid: all 400 refused; $reasons distinct reasons in all"
else
    fail=1
    echo "not ok $n - invalid: $(count invalid 4) of 400 refused, $reasons distinct reasons"
fi
n=$((n + 1))
sed 1d "$tmp/lanes" >"$tmp/l.all"
sed 1d "$tmp/scalar" >"$tmp/s.all"
if cmp -s "$tmp/l.all" "$tmp/s.all" && [ "$(wc -l <"$tmp/l.all")" -eq 13000 ]; then
    echo "ok $n - 6500 queries in all, every line the same"
else
    fail=1
    echo "not ok $n - the outputs differ, or lines outside the groups"
fi
exit $fail
