#!/bin/sh
# bench/boxtoi-bench's output, not its timings: one JSON record per
# scenario in table order, the percentile records of --percentiles (counts
# within the cases, percentiles in order, no hits where nothing meets), the
# table's percentile lines, --skip-exit's records and table (the same
# outcomes as the whole query, no targets), and refusals of bad options.  A few cases, one
# call each: this checks what the program prints, never how fast.
# Run from the tests build directory (srcdir: the tests source directory).
: "${srcdir:=.}"
bench=../bench/boxtoi-bench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-bench.XXXXXX") || {
    echo "Bail out! no temporary directory"
    exit 1
}
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$bench" ]; then
    echo "Bail out! $bench not built"
    exit 1
fi

# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"
# check DESCRIPTION COMMAND...: one result, passing when the command does;
# its output is the detail of a failure.
check() {
    d=$1
    shift
    if "$@" >"$tmp/why" 2>&1; then
        result 1 "$d"
    else
        result 0 "$d" "$(cat "$tmp/why")"
    fi
}

echo "1..39"
"$bench" --json --percentiles -n 40 --reps 1 --passes 1 >"$tmp/json" 2>"$tmp/err"
rc=$?
check "--json --percentiles runs (exit 0, nothing on stderr)" \
    sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/err' ] || { cat '$tmp/err'; exit 1; }"

# Main records: the six scenarios in order, n 40, positive times.
check "one record per scenario, in order, with n and both times" awk '
    !/"kind"/ {
        if ($0 !~ /^\{"method":"boxtoi","scenario":"[a-z-]+","n":40,"ns_median":[0-9.]+,"ns_mean":[0-9.]+\}$/) {
            print "bad record: " $0; bad = 1
        }
        match($0, /"scenario":"[a-z-]+"/)
        got = got " " substr($0, RSTART + 12, RLENGTH - 13)
    }
    END {
        want = " linear quadratic static-quadratic quartic affine far-apart"
        if (got != want) { print "scenarios:" got; bad = 1 }
        exit bad
    }' "$tmp/json"

# Percentile records: well formed, counts within n, values in order.
check "percentile records are well formed and ordered" awk '
    /"kind":"percentiles"/ {
        if ($0 !~ /^\{"method":"boxtoi","kind":"percentiles","scenario":"[a-z-]+","outcome":"(hit|miss)","n":[0-9]+,"ns_p5":[0-9.]+,"ns_p25":[0-9.]+,"ns_p50":[0-9.]+,"ns_p75":[0-9.]+,"ns_p95":[0-9.]+\}$/) {
            print "bad record: " $0; bad = 1; next
        }
        gsub(/[{}"]/, ""); split($0, f, ",")
        for (i in f) { split(f[i], kv, ":"); v[kv[1]] = kv[2] }
        if (!(v["n"] >= 1 && v["n"] <= 40)) { print "count " v["n"]; bad = 1 }
        if (!(v["ns_p5"] + 0 <= v["ns_p25"] + 0 && v["ns_p25"] + 0 <= v["ns_p50"] + 0 &&
              v["ns_p50"] + 0 <= v["ns_p75"] + 0 && v["ns_p75"] + 0 <= v["ns_p95"] + 0)) {
            print "out of order: " $0; bad = 1
        }
        total[v["scenario"]] += v["n"]
        seen[v["scenario"] " " v["outcome"]] = 1
    }
    END {
        for (s in total) if (total[s] > 40) { print s " counts " total[s]; bad = 1 }
        exit bad
    }' "$tmp/json"

check "far-apart: misses only, all 40 of them" \
    grep -q '"kind":"percentiles","scenario":"far-apart","outcome":"miss","n":40,' "$tmp/json"
check "far-apart: no hit record" \
    sh -c "! grep -q '\"scenario\":\"far-apart\",\"outcome\":\"hit\"' '$tmp/json'"
check "quadratic: both outcomes among 40 cases" \
    sh -c "grep -q '\"scenario\":\"quadratic\",\"outcome\":\"hit\"' '$tmp/json' &&
           grep -q '\"scenario\":\"quadratic\",\"outcome\":\"miss\"' '$tmp/json'"

# The table: a row, then one line per outcome with five percentiles.
"$bench" --percentiles -n 40 --reps 1 --passes 1 --scenario quadratic >"$tmp/table" 2>&1
check "table: the row, then hits and misses with five percentiles each" awk '
    /^quadratic / { row = NR }
    /^  (hits|misses) / {
        if (NR != row + 1 && NR != row + 2) { print "misplaced: " $0; bad = 1 }
        if (NF != 12 || $3 != "p5" || $5 != "p25" || $7 != "p50" || $9 != "p75" || $11 != "p95") {
            print "bad line: " $0; bad = 1
        }
        lines++
    }
    END { if (!row || lines != 2) { print "row " row ", lines " lines; bad = 1 } exit bad }' "$tmp/table"

# Without --percentiles there are none.
"$bench" --json -n 10 --reps 1 --passes 1 --scenario far-apart >"$tmp/plain" 2>&1
rc=$?
check "no percentiles unless asked" \
    sh -c "[ $rc -eq 0 ] && grep -q '\"scenario\":\"far-apart\"' '$tmp/plain' &&
           ! grep -q percentiles '$tmp/plain'"

# --skip-exit: its own method name, the same answers' outcomes, no targets.
"$bench" --skip-exit --json --percentiles -n 40 --reps 1 --passes 1 \
    --scenario quadratic,far-apart >"$tmp/skip" 2>"$tmp/err"
rc=$?
check "--skip-exit runs (exit 0, no exit time given, nothing on stderr)" \
    sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/err' ] || { cat '$tmp/err'; exit 1; }"
check "--skip-exit: every record has the method boxtoi-skip-exit" awk '
    { n++ }
    !/^\{"method":"boxtoi-skip-exit",("kind":"percentiles",)?"scenario":"(quadratic|far-apart)",/ {
        print "bad record: " $0; bad = 1
    }
    END { if (n != 5) { print n " records"; bad = 1 } exit bad }' "$tmp/skip"
"$bench" --skip-exit -n 40 --reps 1 --passes 1 --scenario quadratic,static-quadratic \
    >"$tmp/skip-table" 2>&1
"$bench" -n 40 --reps 1 --passes 1 --scenario quadratic,static-quadratic >"$tmp/full-table" 2>&1
check "--skip-exit: the same hits and overlaps, no target or ratio" awk '
    FNR == 1 { file++ }
    /^(quadratic|static-quadratic) / {
        rows[file] = rows[file] " " $1 " " $3 " " $4
        if (file == 1 && ($(NF - 1) != "-" || $NF != "-")) { print "target: " $0; bad = 1 }
        if (file == 2 && $(NF - 1) == "-") { print "no target: " $0; bad = 1 }
    }
    END {
        if (rows[1] != rows[2] || rows[1] == "") { print rows[1] " /" rows[2]; bad = 1 }
        exit bad
    }' "$tmp/skip-table" "$tmp/full-table"
"$bench" --skip-exit --emit quadratic -n 2 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--skip-exit with --emit is refused" \
    sh -c "[ $rc -eq 2 ] && grep -q 'does not apply to --emit' '$tmp/err' && [ ! -s '$tmp/out' ]"

# A bad option is refused with a message and status 2.
"$bench" --reps 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--reps 0 is refused" \
    sh -c "[ $rc -eq 2 ] && grep -q 'expected an integer' '$tmp/err' && [ ! -s '$tmp/out' ]"
# --emit takes none of the timing's options; --digits only with --emit.
"$bench" -n 2 --scenario quadratic --emit linear >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--scenario with --emit is refused ($(head -n 1 "$tmp/err"))" \
    sh -c "[ $rc -eq 2 ] && grep -q -- '--scenario does not apply to --emit' '$tmp/err' &&
           [ ! -s '$tmp/out' ]"
"$bench" -n 2 --scenario far-apart --digits 3 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--digits without --emit is refused ($(head -n 1 "$tmp/err"))" \
    sh -c "[ $rc -eq 2 ] && grep -q -- '--digits applies to --emit only' '$tmp/err' &&
           [ ! -s '$tmp/out' ]"

# full PROGRAM ARGS...: one result, passing when PROGRAM's output into a
# full device is a write error, said with its name, status 1.
full() {
    prog=$1
    shift
    if [ -w /dev/full ]; then
        "$prog" "$@" >/dev/full 2>"$tmp/err"
        rc=$?
        check "${prog##*/} $* into a full device: a write error, status 1 ($rc)" \
            sh -c "[ $rc -eq 1 ] && grep -q '^${prog##*/}: write error' '$tmp/err'"
    else
        skip "${prog##*/} $* into a full device" "no /dev/full"
    fi
}

# Output that cannot be written is an error.
full "$bench" -n 5 --reps 1 --passes 1 --scenario far-apart --json

# refused PROGRAM ARGS...: one result, passing when PROGRAM refuses ARGS
# with status 2 and a message that begins with its name, printing nothing.
refused() {
    prog=$1
    shift
    "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "${prog##*/} $* is refused ($(head -n 1 "$tmp/err"))" \
        sh -c "[ $rc -eq 2 ] && grep -q '^${prog##*/}: ' '$tmp/err' && [ ! -s '$tmp/out' ]"
}

# The options shared with the peers likewise, the message naming the program.
refused "$bench" -n 0
refused "$bench" -n
refused "$bench" --seed x
refused "$bench" --scenario linear,nope

# Counts take digits only, as -n does; --emit one scenario at a time; --help
# into a full device is a write error.
refused "$bench" --reps +3
refused "$bench" --passes " 3"
refused "$bench" --digits 1x
refused "$bench" --emit linear --emit quadratic
full "$bench" --help

# The peers' shared driver (bench/peer.h), run by a stand-in peer that
# reports a contact at the middle of the interval for every third case.
# Its accuracy record is checked against the command's answers to the same
# cases (--emit at 17 digits gives the very cases): the contacts, the
# stand-in's misses and extras, and the median time difference over the
# contacts both report.
peer=../bench/stand-in-peer
tool=../tools/boxtoi
if [ -x "$peer" ] && [ -x "$tool" ]; then
    "$peer" --json -n 60 --passes 1 --scenario linear,far-apart >"$tmp/peer" 2>"$tmp/err"
    rc=$?
    "$bench" --emit linear -n 60 --digits 17 | "$tool" >"$tmp/answers"
    want=$(awk '
        /"status": "(hit|overlap)"/ {
            contacts++
            if ($2 % 3 == 0) {
                match($0, /"toi": [^,]*/)
                t = substr($0, RSTART + 7, RLENGTH - 7) + 0
                d[++m] = t > 0.5 ? t - 0.5 : 0.5 - t
            } else
                misses++
        }
        /"status": "miss"/ { if ($2 % 3 == 0) extra++ }
        END {
            for (i = 1; i <= m; i++)
                for (j = i + 1; j <= m; j++)
                    if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
            med = m % 2 ? d[(m + 1) / 2] : (d[m / 2] + d[m / 2 + 1]) / 2
            printf "\"contacts\":%d,\"misses\":%d,.*\"extra\":%d,.*\"toi_err_median\":%.3g}\n",
                contacts, misses, extra, med
        }' FS='[ ,]+' "$tmp/answers")
    check "stand-in peer: linear's accuracy record matches the command's answers" \
        sh -c "[ $rc -eq 0 ] && grep '\"scenario\":\"linear\"' '$tmp/peer' |
               grep -q '\"kind\":\"accuracy\".*$want' ||
               { echo 'want $want'; cat '$tmp/peer' '$tmp/err'; exit 1; }"
    check "stand-in peer: no contacts in common gives toi_err_median null" \
        sh -c "grep '\"scenario\":\"far-apart\"' '$tmp/peer' |
               grep -q '\"contacts\":0,.*\"toi_err_median\":null}' ||
               { cat '$tmp/peer'; exit 1; }"
    check "stand-in peer: times are not negative" \
        sh -c "! grep -q '\"ns_m[a-z]*\":-' '$tmp/peer' || { cat '$tmp/peer'; exit 1; }"
    refused "$peer" --passes +3
    refused "$peer" --passes 0
    refused "$peer" --reps 2
    refused "$peer" -n
    full "$peer" -n 5 --passes 1 --scenario far-apart
else
    if [ "${BOXTOI_WITH_JANSSON:-yes}" = no ]; then
        why="they compare with the command, not built (configure --without-jansson)"
    else
        why="$peer or $tool not built (make check builds them)"
    fi
    for k in 1 2 3 4 5 6 7 8; do
        skip "stand-in peer check $k" "$why"
    done
fi

# make bench gives the peers only the options they take (bench/peer-args.sh).
out=$(sh "$srcdir/../bench/peer-args.sh" -n 5 --reps 3 --percentiles --scenario linear \
      --emit quadratic --digits 4 --skip-exit --passes 2 --json)
check "peer-args.sh keeps the peers' options only (got '$out')" \
    [ "$out" = "-n 5 --scenario linear --passes 2 --json" ]

# tool-throughput.sh: at 1 significant digit some queries round into errors
# (the 105th of the quadratic scenario's, say) and the tool exits 1; the
# script still times it.  Bad settings are refused.
tp=$(cd "$srcdir/../bench" && pwd)/tool-throughput.sh
if [ -x "$tool" ]; then
    abs_tool=$(cd "${tool%/*}" && pwd)/boxtoi
    abs_bench=$(cd "${bench%/*}" && pwd)/boxtoi-bench
    (cd "$tmp" && QUERIES=120 DIGITS=1 RUNS=1 sh "$tp" "$abs_tool" "$abs_bench") \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "tool-throughput.sh at DIGITS=1 times the tool (status $rc)" \
        sh -c "[ $rc -eq 0 ] && grep -q 'queries/s' '$tmp/out' &&
               grep -q 'answers: .*[1-9][0-9]* invalid or error' '$tmp/out' ||
               { cat '$tmp/out' '$tmp/err'; exit 1; }"
    for env in RUNS=0 QUERIES=-1 DIGITS=x; do
        (cd "$tmp" && env "$env" sh "$tp" "$abs_tool" "$abs_bench") >"$tmp/out" 2>"$tmp/err"
        rc=$?
        check "tool-throughput.sh refuses $env, status 2" \
            sh -c "[ $rc -eq 2 ] && grep -q 'expected a whole number' '$tmp/err'"
    done
    (cd "$tmp" && sh "$tp" "$tmp/no-such-tool" "$abs_bench") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "tool-throughput.sh refuses a tool that is not there, status 2" \
        sh -c "[ $rc -eq 2 ] && grep -q 'not an executable' '$tmp/err'"
else
    for k in 1 2 3 4 5; do
        skip "tool-throughput.sh check $k" "$tool not built (configure --without-jansson?)"
    done
fi

[ "$failed" -eq 0 ]
