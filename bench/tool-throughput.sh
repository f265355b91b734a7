#!/bin/sh
# Queries per second of the boxtoi command-line tool, parsing and printing
# included.
#
# usage: tool-throughput.sh TOOL BENCH
#   TOOL   the built tools/boxtoi
#   BENCH  the built bench/boxtoi-bench (writes the queries: its quadratic
#          scenario, both boxes rigid rational motions of degree 2)
# Environment: QUERIES (default 200000), DIGITS (significant digits of the
# numbers in the queries, default 9), RUNS (timed runs, best kept, default 3),
# BASELINE (another build of the tool, timed in turn with TOOL on the same
# queries, and checked to write the same bytes).
# The queries go to tool-queries.jsonl in the current directory and are
# reused while QUERIES and DIGITS stay the same.
set -u

tool=${1:?usage: tool-throughput.sh TOOL BENCH}
bench=${2:?usage: tool-throughput.sh TOOL BENCH}
queries=${QUERIES:-200000}
digits=${DIGITS:-9}
runs=${RUNS:-3}
baseline=${BASELINE:-}
target=200000
file=tool-queries.jsonl
stamp=tool-queries.stamp

if [ ! -x "$tool" ]; then
    echo "tool throughput: $tool is not an executable program" >&2
    exit 2
fi
for v in "QUERIES=$queries" "DIGITS=$digits" "RUNS=$runs"; do
    case ${v#*=} in
    '' | *[!0-9]* | 0*)
        echo "tool throughput: $v: expected a whole number of at least 1" >&2
        exit 2 ;;
    esac
done

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

# Check the answers once: one line out per query, and what they say.  The
# tool exits 1 when some line got an error answer (few digits can round a
# query into one, DIGITS=1 say): the timed runs must then exit 1 as well.
answers=tool-answers.out
"$tool" "$file" > "$answers"
expect=$?
out=$(awk '
    { n++ }
    /"(state|status)" *: *"hit"/ { hit++ }
    /"(state|status)" *: *"miss"/ { miss++ }
    /"(state|status)" *: *"overlap"/ { ovl++ }
    /"(state|status)" *: *"(error|invalid)"/ { bad++ }
    END { printf "%d %d %d %d %d\n", n, hit, miss, ovl, bad }' "$answers")
rm -f "$answers"
set -- $out
if [ "$expect" -gt 1 ] || { [ "$expect" -eq 1 ] && [ "$5" -eq 0 ]; } ||
    [ "$1" -ne "$queries" ]; then
    echo "tool throughput: $tool answered $1 lines for $queries queries (status $expect)" >&2
    exit 1
fi
echo "tool throughput: $queries quadratic queries, $bytes bytes ($digits significant digits);"
echo "  answers: $2 hit, $3 miss, $4 overlap, $5 invalid or error"
if [ -n "$baseline" ]; then
    if [ ! -x "$baseline" ]; then
        echo "tool throughput: baseline $baseline is not built" >&2
        exit 1
    fi
    "$baseline" "$file" > tool-baseline.out
    if ! "$tool" "$file" | cmp -s - tool-baseline.out; then
        echo "tool throughput: $tool and $baseline answer differently" >&2
        rm -f tool-baseline.out
        exit 1
    fi
    rm -f tool-baseline.out
    echo "  same answers, byte for byte, as $baseline"
fi

# elapsed COMMAND...: nanoseconds the command takes, output discarded; fails
# (saying so) when it exits otherwise than the checked run did.
elapsed() {
    t0=$(now)
    "$@" > /dev/null
    st=$?
    t1=$(now)
    if [ "$st" -ne "$expect" ]; then
        echo "tool throughput: '$*' exited $st, not $expect as when checked" >&2
        return 1
    fi
    echo $((t1 - t0))
}

# report LABEL NANOSECONDS
report() {
    awk -v q="$queries" -v ns="$2" -v target="$target" -v label="$1" 'BEGIN {
        qps = q / (ns / 1e9)
        verdict = (qps >= target) ? "met" : "MISSED"
        printf "  %-28s %8.3f s %10.0f queries/s   (target %d: %s)\n", label, ns / 1e9,
               qps, target, verdict
    }'
}

# time_runs LABEL PREFIX ARGS...: best of $runs runs of PREFIX TOOL ARGS
# (PREFIX: a word such as "taskset -c 0", or "-" for none), and of the
# baseline the same way, one run of each in turn.
time_runs() {
    label=$1
    prefix=$2
    shift 2
    [ "$prefix" = - ] && prefix=
    best=
    base_best=
    i=0
    while [ "$i" -lt "$runs" ]; do
        dt=$(elapsed $prefix "$tool" "$@") || return 1
        if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then best=$dt; fi
        if [ -n "$baseline" ]; then
            dt=$(elapsed $prefix "$baseline" "$@") || return 1
            if [ -z "$base_best" ] || [ "$dt" -lt "$base_best" ]; then base_best=$dt; fi
        fi
        i=$((i + 1))
    done
    report "$label" "$best"
    if [ -n "$baseline" ]; then
        report "  baseline" "$base_best"
    fi
}

if [ -n "$pin" ]; then
    time_runs "1 thread, one core" "$pin" "$file" || exit 1
else
    time_runs "1 thread" - "$file" || exit 1
fi
if "$tool" --threads 2 "$file" > /dev/null 2>&1 || [ $? -eq "$expect" ]; then
    time_runs "--threads 2, not pinned" - --threads 2 "$file" || exit 1
else
    echo "  --threads 2: not accepted by $tool"
fi
exit 0
