#!/bin/sh
# Run examples/first-contact and check every answer it prints against a
# reference of its own, written here in awk: each scene's boxes posed at a
# time t by their rotation matrices (axis and angle, Rodrigues' formula)
# and centres, the separating-axis test at each pose (the 15 axes), the
# first contact and its end found by sampling 20,000 times over [0, 1] and
# bisecting, and the contact checked by the support planes along the printed
# normal (A's highest point along it is B's lowest), the named features
# lying in that plane, and the point lying in both boxes.  Also: the
# example's usage and its refusal of arguments.  Run from the tests build
# directory (srcdir: the tests source directory).
: "${srcdir:=.}"
example=../examples/first-contact
if [ ! -x "$example" ]; then
    echo "Bail out! examples/first-contact not built"
    exit 1
fi
# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"
out=$("$example")
rc=$?

checks=$(printf '%s\n' "$out" | awk '
function rod(R, kx, ky, kz, a,    n, c, s, C) {
    n = sqrt(kx * kx + ky * ky + kz * kz); kx /= n; ky /= n; kz /= n
    c = cos(a); s = sin(a); C = 1 - c
    R[1,1] = c + kx * kx * C;      R[1,2] = kx * ky * C - kz * s; R[1,3] = kx * kz * C + ky * s
    R[2,1] = ky * kx * C + kz * s; R[2,2] = c + ky * ky * C;      R[2,3] = ky * kz * C - kx * s
    R[3,1] = kz * kx * C - ky * s; R[3,2] = kz * ky * C + kx * s; R[3,3] = c + kz * kz * C
}
function atan(x) { return atan2(x, 1) }
# the poses of scene k at t: A in RA, cA; B in RB, cB (unit cubes)
function pose(k, t,    i, j) {
    rod(RA, 0, 0, 1, 0); cA[1] = cA[2] = cA[3] = 0
    if (k == 1) {
        rod(RB, 1, 1, 1, 0.9); cB[1] = 0.1; cB[2] = 0.2; cB[3] = 3 - 4 * t
    } else if (k == 2) {
        rod(RA, 0, 1, 0, PI / 4)
        rod(RB, 1, 0, 0, PI / 4); cB[1] = 0.3 * t; cB[2] = 0; cB[3] = 2.5 - 3 * t
    } else if (k == 3 || k == 4) {
        rod(RB, 0, 0, 1, 2 * atan(1.5 * t)); cB[1] = -3 + 6 * t
        cB[2] = k == 3 ? 1.1 : 2.5; cB[3] = 0
    } else {
        rod(RB, 0, 0, 1, 0); cB[1] = 0.5 + t; cB[2] = 0.5; cB[3] = 0.5
    }
}
function abs(x) { return x < 0 ? -x : x }
# half-width of a unit cube with rotation R along direction (x, y, z)
function reach(R, x, y, z,    j, r) {
    r = 0
    for (j = 1; j <= 3; j++)
        r += 0.5 * abs(x * R[1,j] + y * R[2,j] + z * R[3,j])
    return r
}
function apart_along(x, y, z) {
    if (x * x + y * y + z * z < 1e-20)
        return 0
    return abs(x * (cB[1] - cA[1]) + y * (cB[2] - cA[2]) + z * (cB[3] - cA[3])) > \
           reach(RA, x, y, z) + reach(RB, x, y, z)
}
# do the boxes of scene k share a point at t (separating-axis test)?
function touching(k, t,    i, j) {
    pose(k, t)
    for (i = 1; i <= 3; i++) {
        if (apart_along(RA[1,i], RA[2,i], RA[3,i]) || apart_along(RB[1,i], RB[2,i], RB[3,i]))
            return 0
        for (j = 1; j <= 3; j++)
            if (apart_along(RA[2,i] * RB[3,j] - RA[3,i] * RB[2,j],
                            RA[3,i] * RB[1,j] - RA[1,i] * RB[3,j],
                            RA[1,i] * RB[2,j] - RA[2,i] * RB[1,j]))
                return 0
    }
    return 1
}
# the first t in [lo, hi] where touching(k, t) becomes want, by bisection
function bisect(k, lo, hi, want,    m, i) {
    for (i = 0; i < 80; i++) {
        m = 0.5 * (lo + hi)
        if (touching(k, m) == want) hi = m; else lo = m
    }
    return hi
}
# reference first contact (REF_TOI, -1 for none) and its end (REF_EXIT,
# -1 when it lasts through 1) of scene k
function reference(k,    i, t, prev) {
    REF_TOI = -1; REF_EXIT = -1
    for (i = 0; i <= N; i++) {
        t = i / N
        if (touching(k, t)) {
            REF_TOI = i == 0 ? 0 : bisect(k, (i - 1) / N, t, 1)
            break
        }
    }
    if (REF_TOI < 0)
        return
    for (i = i + 1; i <= N; i++)
        if (!touching(k, i / N)) {
            REF_EXIT = bisect(k, REF_TOI, i / N, 0)
            return
        }
}
# sides of a feature name ("X'\''YZ", "X-Z'\''", "Y'\''") into S[1..3]; its count
function sides(name,    i, c, k, n) {
    S[1] = S[2] = S[3] = 0; n = 0
    for (i = 1; i <= length(name); i++) {
        c = substr(name, i, 1)
        k = index("XYZ", c)
        if (k) {
            S[k] = substr(name, i + 1, 1) == "\047" ? 1 : -1
            n++
        } else if (c != "\047" && c != "-") {
            return -1
        }
    }
    return n
}
# do all corners of the feature (sides S) of the cube posed R, c lie at
# height h along (nx, ny, nz), within tol?
function feature_at(R, c, h, tol,    v, j, s, x, y, z, w) {
    for (v = 0; v < 8; v++) {
        x = c[1]; y = c[2]; z = c[3]
        for (j = 1; j <= 3; j++) {
            s = S[j] != 0 ? S[j] : (int(v / 2 ^ (j - 1)) % 2 ? 1 : -1)
            x += 0.5 * s * R[1,j]; y += 0.5 * s * R[2,j]; z += 0.5 * s * R[3,j]
        }
        w = x * NX + y * NY + z * NZ
        if (abs(w - h) > tol)
            return 0
    }
    return 1
}
# is the point P inside the cube posed R, c, within tol?
function inside(R, c, tol,    j, l) {
    for (j = 1; j <= 3; j++) {
        l = (P[1] - c[1]) * R[1,j] + (P[2] - c[2]) * R[2,j] + (P[3] - c[3]) * R[3,j]
        if (abs(l) > 0.5 + tol)
            return 0
    }
    return 1
}
function check(ok, what) { printf "%d\t%s\n", ok ? 1 : 0, what }
BEGIN { PI = atan2(0, -1); N = 20000 }
/^[1-6]\. / { k = $1 + 0; title[k] = $0; next }
k && /^  (hit|overlap) at t = / {
    state[k] = $1; toi[k] = $5 + 0
    if ($0 ~ /still in contact at t1/) ex[k] = -1
    else { ex[k] = $NF + 0 }
    next
}
k && /^  (miss|invalid)/ { state[k] = $1; sub(/:$/, "", state[k]); line[k] = $0; next }
k && /^  (vertex-face|face-vertex|edge-edge): A / {
    kind[k] = $1; sub(/:$/, "", kind[k]); fa[k] = $3; sub(/,$/, "", fa[k]); fb[k] = $5
    next
}
k && /^  point \(/ {
    s = $0; gsub(/[(),]/, " ", s); split(s, f, " ")
    px[k] = f[2]; py[k] = f[3]; pz[k] = f[4]; nx[k] = f[6]; ny[k] = f[7]; nz[k] = f[8]
    next
}
END {
    want[1] = "hit"; want[2] = "hit"; want[3] = "hit"; want[4] = "miss"; want[5] = "overlap"
    want[6] = "invalid"
    fk[1] = "face-vertex"; fk[2] = "edge-edge"; fk[3] = "vertex-face"
    for (k = 1; k <= 6; k++) {
        check(state[k] == want[k], "case " k ": " want[k] " (" state[k] ")")
        if (k == 6) {
            check(line[k] ~ /reversed/, "case 6: the reason names the reversed interval")
            continue
        }
        reference(k)
        if (k == 4) {
            check(REF_TOI < 0, "case 4: the reference finds no contact either")
            continue
        }
        check(abs(toi[k] - REF_TOI) <= 2e-9, sprintf("case %d: toi %.9f, reference %.12f", \
              k, toi[k], REF_TOI))
        if (REF_EXIT < 0)
            check(ex[k] == -1, sprintf("case %d: the contact lasts through t1 (reference)", k))
        else
            check(ex[k] >= 0 && abs(ex[k] - REF_EXIT) <= 2e-9, \
                  sprintf("case %d: exit %.9f, reference %.12f", k, ex[k], REF_EXIT))
        pose(k, REF_TOI)
        P[1] = px[k]; P[2] = py[k]; P[3] = pz[k]
        check(inside(RA, cA, 2e-6) && inside(RB, cB, 2e-6), \
              sprintf("case %d: the point lies in both boxes at the reference time", k))
        if (k == 5)
            continue
        NX = nx[k]; NY = ny[k]; NZ = nz[k]
        nn = sqrt(NX * NX + NY * NY + NZ * NZ)
        hA = NX * cA[1] + NY * cA[2] + NZ * cA[3] + reach(RA, NX, NY, NZ)
        hB = NX * cB[1] + NY * cB[2] + NZ * cB[3] - reach(RB, NX, NY, NZ)
        check(abs(nn - 1) <= 3e-6 && abs(hA - hB) <= 1e-5, \
              sprintf("case %d: the normal separates the boxes at toi, from A to B " \
                      "(A up to %.7f along it, B from %.7f)", k, hA, hB))
        check(kind[k] == fk[k], "case " k ": " fk[k] " (" kind[k] ")")
        na = sides(fa[k]); okA = feature_at(RA, cA, hA, 1e-5)
        nb = sides(fb[k]); okB = feature_at(RB, cB, hB, 1e-5)
        dims = (kind[k] == "vertex-face" && na == 3 && nb == 1) ||
               (kind[k] == "face-vertex" && na == 1 && nb == 3) ||
               (kind[k] == "edge-edge" && na == 2 && nb == 2)
        check(dims && okA && okB, sprintf("case %d: features A %s, B %s lie in the " \
              "contact plane", k, fa[k], fb[k]))
    }
}')

echo "1..$(($(printf '%s\n' "$checks" | grep -c .) + 10))"
result "$([ $rc -eq 0 ] && echo 1 || echo 0)" "first-contact runs (exit status $rc)"
tab=$(printf '\t')
while IFS="$tab" read -r ok what; do
    [ -n "$ok" ] && result "$ok" "$what" "$out"
done <<EOF
$checks
EOF

usage=$("$example" --help 2>/dev/null)
rc=$?
result "$([ $rc -eq 0 ] && echo "$usage" | grep -q '^usage: first-contact' && echo 1 || echo 0)" \
    "first-contact --help prints its usage and succeeds (status $rc)"
err=$("$example" --steps 5 2>&1 >/dev/null)
rc=$?
err=$(echo "$err" | head -n 1)
result "$([ $rc -eq 2 ] && echo "$err" | grep -q 'no arguments' && echo 1 || echo 0)" \
    "first-contact refuses arguments, status 2 ($rc: $err)"
usage=$(../examples/arm-sweep --help 2>/dev/null)
rc=$?
err=$(../examples/arm-sweep --svg 2>&1 >/dev/null)
rc2=$?
err=$(echo "$err" | head -n 1)
result "$([ $rc -eq 0 ] && [ $rc2 -eq 2 ] && echo "$usage" | grep -q '^usage: arm-sweep' &&
          echo "$err" | grep -q -- '--svg needs a file name' && echo 1 || echo 0)" \
    "arm-sweep --help succeeds ($rc); --svg without a file is refused with status 2 ($rc2: $err)"
if [ -w /dev/full ]; then
    err=$("$example" 2>&1 >/dev/full)
    rc=$?
    result "$([ $rc -eq 1 ] && echo "$err" | grep -q 'write error' && echo 1 || echo 0)" \
        "first-contact reports a failed write of its output, status 1 ($rc: $err)"
else
    skip "first-contact reports a failed write" "no /dev/full"
fi

# arm-sweep --svg takes no name that begins with -: an option forgotten
# (--svg --report wrote a file named --report), or -, which is not standard
# output here (the answers are); nothing is written.
dir=$(mktemp -d "${TMPDIR:-/tmp}/test-arm.XXXXXX") || exit 1
for v in - --report; do
    err=$(cd "$dir" && "$OLDPWD/../examples/arm-sweep" --svg "$v" 2>&1 >/dev/null)
    rc=$?
    result "$([ $rc -eq 2 ] && echo "$err" | grep -q -- "--svg needs a file name (got '$v'" &&
              [ -z "$(ls -A "$dir")" ] && echo 1 || echo 0)" \
        "arm-sweep --svg $v is refused, status 2, nothing written ($rc)" "$err"
done
if [ -w /dev/full ]; then
    err=$(cd "$dir" && "$OLDPWD/../examples/arm-sweep" --svg a.svg 2>&1 >/dev/full)
    rc=$?
    ok=$([ $rc -eq 1 ] && echo "$err" | grep -q '^arm-sweep: write error' && echo 1)
    result "${ok:-0}" \
        "arm-sweep reports a failed write of its output, status 1 ($rc)" "$err"
    for p in "$example" ../examples/arm-sweep; do
        err=$("$p" --help 2>&1 >/dev/full)
        rc=$?
        result "$([ $rc -eq 1 ] && echo "$err" | grep -q 'write error' && echo 1 || echo 0)" \
            "${p##*/} --help into a full device: a write error, status 1 ($rc)" "$err"
    done
else
    skip "arm-sweep reports a failed write" "no /dev/full"
    skip "first-contact --help into a full device" "no /dev/full"
    skip "arm-sweep --help into a full device" "no /dev/full"
fi
rm -rf "$dir"
[ "$failed" -eq 0 ]
