#!/bin/sh
# configure's refusals of --with-ode and --with-jansson: a value other than
# yes or no (a directory, say) and a library that pkg-config cannot find
# each stop configure with a message that says what to do instead.
# configure runs from a copy of the few source files it reads before those
# checks (a source tree already configured refuses a second build
# directory), in a scratch directory, with pkg-config searching nowhere for
# the missing library.  Run from the tests build directory; CC and CFLAGS
# come from the build (AM_TESTS_ENVIRONMENT).
: "${srcdir:=.}"
# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"

src=$(cd "$srcdir/.." && pwd)
if [ ! -x "$src/configure" ]; then
    echo "1..0 # SKIP no configure script in $src"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/boxtoi-configure.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src" "$tmp/src/include"
cp "$src/configure" "$tmp/src/" && cp -R "$src/build-aux" "$tmp/src/" &&
    cp "$src/include/boxtoi.h" "$tmp/src/include/" || exit 1

echo "1..4"

# refused DESCRIPTION MESSAGE ARGUMENT...: configure, given the arguments
# (and VAR=VALUE words before them as its environment), stops with a status
# other than 0 and says MESSAGE on standard error.
refused() {
    what=$1
    want=$2
    shift 2
    rm -rf "$tmp/build" && mkdir "$tmp/build" || exit 1
    (cd "$tmp/build" && env "$@" >"$tmp/out" 2>"$tmp/err")
    rc=$?
    result "$([ $rc -ne 0 ] && grep -qF -- "$want" "$tmp/err" && echo 1)" \
        "$what: status $rc, '$want'" "$(tail -5 "$tmp/err")"
}

refused "--with-ode=DIR is refused" "--with-ode takes yes or no, not /usr/local" \
    "$tmp/src/configure" --with-ode=/usr/local
refused "--with-jansson=maybe is refused" "--with-jansson takes yes or no, not maybe" \
    "$tmp/src/configure" --with-jansson=maybe
refused "ODE not found: configure names --without-ode" "configure --without-ode" \
    PKG_CONFIG_LIBDIR="$tmp/none" PKG_CONFIG_PATH= "$tmp/src/configure"
refused "jansson not found: configure names --without-jansson" "configure --without-jansson" \
    PKG_CONFIG_LIBDIR="$tmp/none" PKG_CONFIG_PATH= "$tmp/src/configure" --without-ode

[ "$failed" -eq 0 ]
