#!/bin/sh
# The options of BENCH_FLAGS that the peers take, as make bench passes them:
# prints its arguments less boxtoi-bench's own options (--percentiles and
# --skip-exit, and --reps, --digits and --emit with their values), one line,
# separated by spaces.
shared=
while [ $# -gt 0 ]; do
    case $1 in
    --percentiles | --skip-exit) ;;
    --reps | --digits | --emit) shift ;;
    *) shared="$shared${shared:+ }$1" ;;
    esac
    [ $# -gt 0 ] && shift
done
printf '%s\n' "$shared"
