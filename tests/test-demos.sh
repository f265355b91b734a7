#!/bin/sh
# The ODE demos that `make demo` runs, checked by what they print: with
# plain ODE bullets tunnel through bullet-wall's thin wall and boxes escape
# box-rain's room, with dWorldStepToContact none do, and bullet-wall's
# contacts lie within 1e-9 m of the exact ones it computes itself (as does
# boxtoi_solve alone, with no miss).  bullet-wall runs as in `make demo` and
# with a boxtoi wall; box-rain runs smaller (60 boxes, 200 steps: about half
# a second).  Each runs in a directory of its own (bullet-wall writes its
# curves there).  Run from the tests build directory (srcdir: the tests
# source directory).
: "${srcdir:=.}"
examples=$(cd ../examples 2>/dev/null && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-demos.XXXXXX") || {
    echo "Bail out! no temporary directory"
    exit 1
}
trap 'rm -rf "$tmp"' EXIT
for d in bullet-wall box-rain; do
    if [ -z "$examples" ] || [ ! -x "$examples/$d" ]; then
        echo "Bail out! examples/$d not built"
        exit 1
    fi
done

# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"

# bullet NAME [OPTION]: run bullet-wall, then check its summary line
# "plain ODE: tunnelled P/S; boxtoi: tunnelled B/S; max contact error E m".
bullet() {
    name=$1
    shift
    (cd "$tmp" && "$examples/bullet-wall" "$@") >"$tmp/out" 2>&1
    rc=$?
    line=$(grep '^plain ODE: tunnelled .*; boxtoi: tunnelled' "$tmp/out" | tail -n 1)
    ok=$(echo "$line" | awk -v rc="$rc" '{
        split($4, p, "/"); split($7, b, "/"); e = $11 + 0
        print (rc == 0 && NF == 12 && p[1] > 0 && b[1] == 0 && b[2] == p[2] &&
               $11 ~ /^[0-9.]+(e[-+]?[0-9]+)?$/ && e <= 1e-9) ? 1 : 0 }')
    result "${ok:-0}" "bullet-wall$name: plain ODE tunnels, boxtoi never, contacts within \
1e-9 m of the exact ones ($line)" "exit status $rc
$(tail -n 20 "$tmp/out")"
    # "boxtoi_solve alone on the step of contact: M misses, worst |toi - exact| E s":
    # no miss, and every time within 1e-9 of the 1/60 s step of the exact one
    solver=$(grep '^boxtoi_solve alone on the step of contact: ' "$tmp/out")
    ok=$(echo "$solver" | awk '{
        print (NF == 15 && $8 == "0" && $9 == "misses," &&
               $14 ~ /^[0-9.]+(e[-+]?[0-9]+)?$/ && $14 + 0 <= 1e-9 / 60) ? 1 : 0 }')
    result "${ok:-0}" \
        "bullet-wall$name: boxtoi_solve alone misses no contact, times within 1e-9 of the \
step ($solver)" "$solver"
}

echo "1..12"
bullet ""
bullet " --boxtoi-wall" --boxtoi-wall

(cd "$tmp" && "$examples/box-rain" --boxes 60 --steps 200) >"$tmp/rain" 2>&1
rc=$?
result "$([ $rc -eq 0 ] && echo 1 || echo 0)" "box-rain --boxes 60 --steps 200 runs" \
    "exit status $rc
$(tail -n 20 "$tmp/rain")"
plain=$(grep '^plain ODE: .* boxes escaped' "$tmp/rain" | sed 's/^plain ODE: *\([0-9]*\)\/.*/\1/')
boxtoi=$(grep '^boxtoi: .* boxes escaped' "$tmp/rain" | sed 's/^boxtoi: *\([0-9]*\)\/.*/\1/')
result "$([ -n "$plain" ] && [ "$plain" -gt 0 ] && echo 1 || echo 0)" \
    "box-rain: boxes escape the room under plain ODE (${plain:-?} of 60)" "$(cat "$tmp/rain")"
result "$([ "$boxtoi" = 0 ] && echo 1 || echo 0)" \
    "box-rain: none escapes with dWorldStepToContact (${boxtoi:-?} of 60)" "$(cat "$tmp/rain")"
if [ -w /dev/full ]; then
    (cd "$tmp" && "$examples/box-rain" --boxes 2 --steps 2) >/dev/full 2>"$tmp/err"
    rc=$?
    result "$([ $rc -eq 1 ] && grep -q 'write error' "$tmp/err" && echo 1 || echo 0)" \
        "box-rain reports a failed write of its output, status 1 ($rc)" "$(cat "$tmp/err")"
else
    skip "box-rain reports a failed write" "no /dev/full"
fi

# bullet-wall with a gnuplot that fails, its output into a full device: both
# reported, status 1 (make demo must not pass without its picture).
mkdir "$tmp/bin" "$tmp/fail"
printf '#!/bin/sh\nexit 3\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
if [ -w /dev/full ]; then
    out=/dev/full
else
    out=/dev/null
fi
(cd "$tmp/fail" && PATH="$tmp/bin:$PATH" "$examples/bullet-wall") >"$out" 2>"$tmp/err"
rc=$?
ok=$([ $rc -eq 1 ] && grep -q '^bullet-wall: gnuplot failed' "$tmp/err" &&
     { [ "$out" = /dev/null ] || grep -q '^bullet-wall: write error' "$tmp/err"; } && echo 1)
result "${ok:-0}" "bullet-wall: a failing gnuplot and a failed write are reported, status 1 ($rc)" \
    "$(cat "$tmp/err")"

# Counts take digits only; --help into a full device is a write error.
err=$("$examples/box-rain" --steps +3 2>&1 >/dev/null)
rc=$?
result "$([ $rc -eq 2 ] && echo "$err" | grep -q -- '--steps needs an integer' && echo 1)" \
    "box-rain --steps +3 is refused, status 2 ($rc)" "$err"
for d in bullet-wall box-rain; do
    if [ -w /dev/full ]; then
        err=$("$examples/$d" --help 2>&1 >/dev/full)
        rc=$?
        result "$([ $rc -eq 1 ] && echo "$err" | grep -q "^$d: write error" && echo 1)" \
            "$d --help into a full device: a write error, status 1 ($rc)" "$err"
    else
        skip "$d --help into a full device" "no /dev/full"
    fi
done
[ "$failed" -eq 0 ]
