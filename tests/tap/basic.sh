# TAP results for the shell tests, sourced: result and skip print one test
# line each and count them in $n (and the failures in $failed).
n=0
failed=0
# result OK DESCRIPTION [DETAIL]: one TAP line (and the detail as a comment);
# OK is 1 for a pass.
result() {
    n=$((n + 1))
    if [ "$1" = 1 ]; then
        echo "ok $n - $2"
    else
        failed=$((failed + 1))
        echo "not ok $n - $2"
        [ -n "${3:-}" ] && echo "$3" | sed 's/^/# /'
    fi
}
# skip DESCRIPTION REASON
skip() {
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}
