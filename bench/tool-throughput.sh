#!/bin/sh
# Queries per second of the boxtoi command-line tool, parsing and printing
# included.
#
# usage: tool-throughput.sh TOOL BENCH
#   TOOL   the built tools/boxtoi
#   BENCH  the built bench/boxtoi-bench (writes the queries: its quadratic
#          scenario, both boxes rigid rational motions of degree 2)
# Environment: QUERIES (default 200000), DIGITS (significant digits of the
# numbers in the queries, default 9), RUNS (timed runs, best kept, default 3).
# The queries go to tool-queries.jsonl in the current directory and are
# reused while QUERIES and DIGITS stay the same.
set -u

tool=${1:?usage: tool-throughput.sh TOOL BENCH}
bench=${2:?usage: tool-throughput.sh TOOL BENCH}
queries=${QUERIES:-200000}
digits=${DIGITS:-9}
runs=${RUNS:-3}
target=200000
file=tool-queries.jsonl
stamp=tool-queries.stamp

if [ ! -x "$tool" ]; then
    echo "tool throughput: $tool is not built; skipped"
    exit 0
fi

if [ ! -f "$file" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$queries $digits" ]; then
    rm -f "$stamp"
    "$bench" --emit quadratic -n "$queries" --digits "$digits" > "$file" || {
        echo "tool throughput: could not write $file" >&2
        exit 1
    }
    echo "$queries $digits" > "$stamp"
fi
bytes=$(wc -c < "$file")

now() { date +%s%N; }

# A run on one core if taskset is there (the target is per core).
pin=
if command -v taskset > /dev/null 2>&1 && taskset -c 0 true 2> /dev/null; then
    pin="taskset -c 0"
fi

# Check the answers once: one line out per query, and what they say.
out=$($tool "$file" | awk '
    { n++ }
    /"(state|status)" *: *"hit"/ { hit++ }
    /"(state|status)" *: *"miss"/ { miss++ }
    /"(state|status)" *: *"overlap"/ { ovl++ }
    /"(state|status)" *: *"(error|invalid)"/ { bad++ }
    END { printf "%d %d %d %d %d\n", n, hit, miss, ovl, bad }')
status=$?
set -- $out
if [ "$status" -ne 0 ] || [ "${1:-0}" -ne "$queries" ]; then
    echo "tool throughput: $tool answered ${1:-0} lines for $queries queries (status $status)" >&2
    exit 1
fi
echo "tool throughput: $queries quadratic queries, $bytes bytes ($digits significant digits);"
echo "  answers: $2 hit, $3 miss, $4 overlap, $5 invalid or error"

# time_runs LABEL COMMAND...: best of $runs runs, output discarded.
time_runs() {
    label=$1
    shift
    best=
    i=0
    while [ "$i" -lt "$runs" ]; do
        t0=$(now)
        "$@" > /dev/null || return 1
        t1=$(now)
        dt=$((t1 - t0))
        if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then best=$dt; fi
        i=$((i + 1))
    done
    awk -v q="$queries" -v ns="$best" -v target="$target" -v label="$label" 'BEGIN {
        qps = q / (ns / 1e9)
        verdict = (qps >= target) ? "met" : "MISSED"
        printf "  %-28s %8.3f s %10.0f queries/s   (target %d: %s)\n", label, ns / 1e9,
               qps, target, verdict
    }'
}

if [ -n "$pin" ]; then
    time_runs "1 thread, one core" $pin "$tool" "$file" || exit 1
else
    time_runs "1 thread" "$tool" "$file" || exit 1
fi
if "$tool" --threads 2 "$file" > /dev/null 2>&1; then
    time_runs "--threads 2, all cores" "$tool" --threads 2 "$file"
else
    echo "  --threads 2: not accepted by $tool"
fi
exit 0
