#!/bin/sh
# What `make install` puts in place, installed here into a scratch DESTDIR:
# the headers, libraries, pkg-config files, the command and its manual page,
# and the documents.  The installed README.md and documents are read as a
# user reads them in the documentation directory: every relative link in
# them must name an installed file, and every installed path the manual page
# names must exist.  A build without the plugin (BOXTOI_WITH_ODE=no:
# configure --without-ode) must install none of its files, and one without
# the command (BOXTOI_WITH_JANSSON=no) neither it nor its manual page.
# Run from the tests build directory by make check (MAKE from
# AM_TESTS_ENVIRONMENT), under tap/lock.sh: the shared lock it holds on
# file descriptor 9 is made exclusive while make install runs, so that no
# other test runs then.  libtool relinks the plugin's library in place as
# it installs it, and test-pkgconfig.sh remakes the manual page and the
# .pc files for another prefix for a while.
: "${srcdir:=.}"
# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"

if [ -z "${MAKE:-}" ]; then
    echo "1..0 # SKIP MAKE not set (run by make check)"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boxtoi-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
top=$(cd .. && pwd)
root=$tmp/root

echo "1..6"

locked=
if command -v flock >/dev/null 2>&1 && { true >&9; } 2>/dev/null; then
    flock -x 9 && locked=1
fi
$MAKE -s -C "$top" install DESTDIR="$root" >"$tmp/install.log" 2>&1
rc=$?
[ -n "$locked" ] && flock -s 9
result "$([ $rc = 0 ] && echo 1)" "make install DESTDIR=... succeeds (status $rc)" \
    "$(tail -20 "$tmp/install.log")"

# find_one NAME: the installed file called NAME (the first, sorted).
find_one() {
    find "$root" -name "$1" \( -type f -o -type l \) 2>/dev/null | LC_ALL=C sort | head -1
}

with_ode=${BOXTOI_WITH_ODE:-yes}
with_jansson=${BOXTOI_WITH_JANSSON:-yes}
# The installed files by name: those of the solver and the documents, the
# plugin's (with ODE) and the command's (with jansson); each is looked for,
# or, where its part is not built, looked for to be absent.
missing=
extra=
what="the solver's header, library and .pc file, and the documents"
# expect YES FILE...: FILE is installed when YES is yes, and absent else.
expect() {
    want=$1
    shift
    for f in "$@"; do
        case $f in
        bin/*) got=$(find "$root" -path "*/$f" -type f 2>/dev/null) ;;
        lib*.*) got=$(find "$root" -name "$f" ! -name '*.la' 2>/dev/null) ;;
        *) got=$(find_one "$f") ;;
        esac
        if [ "$want" = yes ]; then
            [ -n "$got" ] || missing="$missing $f"
        else
            [ -z "$got" ] || extra="$extra $f"
        fi
    done
}
expect yes boxtoi.h boxtoi.pc 'libboxtoi.*' README.md method.md query-format.md
expect "$with_ode" ode-boxtoi.h ode-boxtoi.pc 'libode-boxtoi.*'
expect "$with_jansson" bin/boxtoi boxtoi.1
[ "$with_ode" = yes ] && what="$what; the plugin's" || what="$what; not the plugin's"
[ "$with_jansson" = yes ] && what="$what; the command and its manual page" ||
    what="$what; not the command"
result "$([ -z "$missing$extra" ] && echo 1)" "installed: $what" \
    "missing:$missing; not built, yet installed:$extra
$(cd "$root" && find . -type f | LC_ALL=C sort)"

# links FILE: the relative link targets of the markdown FILE, one per line,
# without their #fragments.
links() {
    grep -o '\]([^)]*)' "$1" 2>/dev/null | sed 's/^](//; s/)$//; s/#.*//' |
        grep -v '^[a-z][a-z]*:' | grep -v '^$'
}

readme=$(find_one README.md)
docdir=${readme%/*}
broken=
count=0
for doc in "$readme" $(find "$docdir" -name '*.md' ! -path "$readme" 2>/dev/null); do
    [ -f "$doc" ] || continue
    dir=${doc%/*}
    for l in $(links "$doc"); do
        count=$((count + 1))
        [ -f "$dir/$l" ] || broken="$broken ${doc#"$root"} -> $l;"
    done
done
result "$([ -n "$readme" ] && [ "$count" -gt 0 ] && [ -z "$broken" ] && echo 1)" \
    "every relative link of the installed README.md and documents names a file ($count links)" \
    "broken:$broken"

# The installed README.md is the source's, byte for byte.
result "$([ -n "$readme" ] && cmp -s "$readme" "$srcdir/../README.md" && echo 1)" \
    "the installed README.md is the source's"

if [ "$with_jansson" = yes ]; then
    man=$(find_one boxtoi.1)
    paths=$(sed -n 's/^\.IR \(\/[^ ]*\).*/\1/p' "$man" 2>/dev/null)
    absent=
    for p in $paths; do
        [ -f "$root$p" ] || absent="$absent $p"
    done
    result "$([ -n "$paths" ] && [ -z "$absent" ] && echo 1)" \
        "every installed path boxtoi(1) names exists ($(echo $paths))" \
        "absent:$absent"
else
    skip "every installed path boxtoi(1) names exists" \
        "the command is not built (configure --without-jansson)"
fi

# Uninstalling takes every file back out.
$MAKE -s -C "$top" uninstall DESTDIR="$root" >"$tmp/uninstall.log" 2>&1
rc=$?
left=$(cd "$root" 2>/dev/null && find . -type f | LC_ALL=C sort)
result "$([ $rc = 0 ] && [ -z "$left" ] && echo 1)" \
    "make uninstall DESTDIR=... takes every file out (status $rc)" \
    "left: $left
$(tail -20 "$tmp/uninstall.log")"

[ "$failed" -eq 0 ]
