#!/bin/sh
# The command's examples in the documentation, run as written: README.md's
# example under "The command" (its shell block, run from the top of the
# build tree) must print the answer shown in the block after it, and
# docs/query-format.md's query (under "Query", its lines joined) must get
# the answer shown under "Answer", and so must the query in the command's
# --help (the indented lines under "Query", joined, and those under
# "Answer", joined with a space each).  Run from the tests build directory
# (srcdir: the tests source directory).
: "${srcdir:=.}"
top=$srcdir/..
tool=../tools/boxtoi
if [ ! -x "$tool" ]; then
    echo "Bail out! tools/boxtoi not built"
    exit 1
fi
# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"

# block FILE HEADING N: the Nth fenced code block after the line HEADING
block() {
    awk -v heading="$2" -v want="$3" '
        $0 == heading { after = 1; next }
        after && /^```/ { if (inside) { inside = 0; if (n == want) exit } else { n++; inside = 1 }
                          next }
        after && inside && n == want { print }' "$1"
}

echo "1..3"

cmd=$(block "$top/README.md" "## The command" 1)
want=$(block "$top/README.md" "## The command" 2)
got=$(cd .. && sh -c "$cmd" 2>&1)
result "$([ -n "$cmd" ] && [ -n "$want" ] && [ "$got" = "$want" ] && echo 1 || echo 0)" \
    "README.md's example of the command prints the answer it shows" \
    "command: $cmd
shown: $want
printed: $got"

# answers QUERY WANT DESCRIPTION: the tool's answer to the one-line QUERY is
# WANT.
answers() {
    got=$(printf '%s\n' "$1" | "$tool" 2>&1)
    result "$([ -n "$1" ] && [ -n "$2" ] && [ "$got" = "$2" ] && echo 1 || echo 0)" "$3" \
        "query: $1
shown: $2
printed: $got"
}

answers "$(block "$top/docs/query-format.md" "## Query" 1 | tr -d '\n')" \
    "$(block "$top/docs/query-format.md" "## Answer" 1)" \
    "docs/query-format.md's example query gets the answer shown under Answer"

# help_json HEADING: the lines under the --help line that begins with
# HEADING that open with "  {" and the ones after them that open with
# three spaces, without their indent, joined with a space each.
help_json() {
    "$tool" --help 2>/dev/null | awk -v heading="$1" '
        index($0, heading) == 1 { after = 1; next }
        after && (/^  [{]/ || (n && /^   /)) { sub(/^ +/, ""); out = out (n++ ? " " : "") $0; next }
        after && n { exit }
        END { print out }'
}
answers "$(help_json "Query, ")" "$(help_json "Answer:")" \
    "boxtoi --help's example query gets the answer shown under Answer"
[ "$failed" -eq 0 ]
