#!/bin/sh
# The pkg-config files as a user's build reads them: the flags that
# `pkg-config --cflags --libs boxtoi` and `... ode-boxtoi` print are enough
# to compile, link and run a program.  The plugin's header declares functions
# that take the solver's types (dGeomBoxtoiBoxSetMotion takes a
# boxtoi_motion), so a plugin user calls the solver too: ode-boxtoi must
# bring libboxtoi onto the link line itself.
#
# The .pc files generated in the build tree are read with their libdir and
# includedir pointed at a directory holding links to the built libraries
# (shared, or static where only those were built) and the two public
# headers, as an installed tree would.  The plugin program is also built as
# C++ (ODE's users often write C++): both headers declare C linkage and use
# nothing a C++ compiler rejects or warns about.
# Run from the tests build directory (srcdir: the tests source directory);
# CC, CXX, SAN_CFLAGS, CFLAGS, CXXFLAGS, LDFLAGS and PKG_CONFIG come from the
# build (AM_TESTS_ENVIRONMENT): a C program is built as the libraries were
# (clang's sanitizers, say, need their runtime linked into the program).  The
# pkg-config flags come first on the line, so they alone must find the
# libraries.  In a build without the plugin (BOXTOI_WITH_ODE=no: configure
# --without-ode) its checks are skipped, and without the command
# (BOXTOI_WITH_JANSSON=no) those of its manual page.
: "${srcdir:=.}"
: "${CC:=cc}"
: "${CXX:=c++}"
: "${PKG_CONFIG:=pkg-config}"

if ! command -v "$PKG_CONFIG" >/dev/null 2>&1; then
    echo "1..0 # SKIP pkg-config not found"
    exit 0
fi
# the shared libraries where they were built, else the static ones (configure
# --disable-shared), linked with pkg-config --static as a user links them
with_ode=${BOXTOI_WITH_ODE:-yes}
with_jansson=${BOXTOI_WITH_JANSSON:-yes}
# built SUFFIX: the libraries of this build are there with SUFFIX
built() {
    [ -f ../lib/.libs/libboxtoi$1 ] &&
        { [ "$with_ode" = no ] || [ -f ../plugin/.libs/libode-boxtoi$1 ]; }
}
if built .so; then
    suffix=.so
    static=
elif built .a; then
    suffix=.a
    static=--static
else
    echo "1..0 # SKIP no libraries built"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boxtoi-pc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/lib" "$tmp/include"
top=$(cd .. && pwd)
for f in "$top"/lib/.libs/libboxtoi$suffix* "$top"/plugin/.libs/libode-boxtoi$suffix*; do
    [ -e "$f" ] && ln -s "$f" "$tmp/lib/"
done
ln -s "$(cd "$srcdir/../include" && pwd)/boxtoi.h" "$tmp/include/"
ln -s "$(cd "$srcdir/../plugin" && pwd)/ode-boxtoi.h" "$tmp/include/"

# pc PACKAGE OPTIONS...: pkg-config on the build tree's .pc files (with
# --static for static libraries).
pc() {
    pkg=$1
    shift
    PKG_CONFIG_PATH="$top/lib:$top/plugin${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
        "$PKG_CONFIG" --define-variable=libdir="$tmp/lib" \
        --define-variable=includedir="$tmp/include" $static "$@" "$pkg"
}

# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"

cat >"$tmp/solver.c" <<'EOF'
#include <boxtoi.h>
#include <stdio.h>
int main(void)
{
    boxtoi_query q = boxtoi_default_query();
    q.motion_b.c[0][0][3] = 2.0; /* B starts 2 along x, comes back 2 */
    q.motion_b.c[1][0][3] = -2.0;
    q.motion_b.degree = 1;
    boxtoi_result r = boxtoi_solve(&q);
    printf("%d %.17g\n", r.state == BOXTOI_HIT, r.toi);
    return 0;
}
EOF
cat >"$tmp/plugin.c" <<'EOF'
#include <ode-boxtoi.h>
#include <stdio.h>
int main(void)
{
    dInitODE2(0);
    dBoxtoiInit();
    dSpaceID space = dSimpleSpaceCreate(0);
    dGeomID a = dCreateBoxtoiBox(space, 1, 1, 1);
    dGeomID b = dCreateBoxtoiBox(space, 1, 1, 1);
    boxtoi_motion m;
    boxtoi_motion_identity(&m);
    m.c[0][0][3] = 2.0; /* b starts 2 along x and comes back 2 over the step */
    m.c[1][0][3] = -2.0;
    m.degree = 1;
    dGeomSetPosition(b, 2, 0, 0);
    boxtoi_reason why = dGeomBoxtoiBoxSetMotion(b, &m, 1);
    dContactGeom c;
    dReal toi = -1;
    int k = dBoxtoiCollide(a, b, 1, &c, sizeof c, &toi);
    printf("%d %d %.17g\n", why == BOXTOI_REASON_NONE, k, (double)toi);
    dSpaceDestroy(space);
    dCloseODE();
    return 0;
}
EOF

echo "1..18"

# no_plugin DESCRIPTION...: skip these checks of the plugin where it is not
# built (and say so), else fail (status 1) so that they run.
no_plugin() {
    [ "$with_ode" = no ] || return 1
    for d in "$@"; do
        skip "$d" "the ODE plugin is not built (configure --without-ode)"
    done
}

if ! no_plugin "pkg-config --libs ode-boxtoi names -lboxtoi" \
    "pkg-config --libs ode-boxtoi names -lode"; then
    libs=$(pc ode-boxtoi --libs 2>&1)
    case " $libs " in
    *" -lboxtoi "*) ok=1 ;;
    *) ok= ;;
    esac
    result "$ok" "pkg-config --libs ode-boxtoi names -lboxtoi" "$libs"
    case " $libs " in
    *" -lode "*) ok=1 ;;
    *) ok= ;;
    esac
    result "$ok" "pkg-config --libs ode-boxtoi names -lode" "$libs"
fi

# build NAME PACKAGE: compile and link NAME.c with the package's flags and the
# options the libraries were built with.
build() {
    flags=$(pc "$2" --cflags --libs 2>&1) &&
        $CC $SAN_CFLAGS $CFLAGS -o "$tmp/$1" "$tmp/$1.c" $flags $LDFLAGS -Wl,-rpath,"$tmp/lib" \
            >"$tmp/$1.log" 2>&1
}

# run NAME EXPECTED DESCRIPTION: run what build made (fails when it made nothing).
run() {
    out=$("$tmp/$1" 2>&1)
    result "$([ "$out" = "$2" ] && echo 1)" "$3" "got: $out"
}

# B (unit box at 2 - 2t) first touches A (unit box at 0) when 2 - 2t = 1.
build solver boxtoi
result "$([ $? = 0 ] && echo 1)" "a solver program builds with pkg-config boxtoi alone" \
    "$(cat "$tmp/solver.log" 2>/dev/null)"
run solver "1 0.5" "it runs: first contact at t = 1/2"
if ! no_plugin \
    "a plugin program that also calls the solver builds with pkg-config ode-boxtoi alone" \
    "it runs: the collider reports the contact at t = 1/2" \
    "the plugin program builds as C++" "it runs: the same contact"; then
    build plugin ode-boxtoi
    result "$([ $? = 0 ] && echo 1)" \
        "a plugin program that also calls the solver builds with pkg-config ode-boxtoi alone" \
        "$(cat "$tmp/plugin.log" 2>/dev/null)"
    run plugin "1 1 0.5" "it runs: the collider reports the contact at t = 1/2"

    # (not where the libraries carry a sanitizer: its run-time is the C
    # compiler's, which the C++ one, g++ beside clang say, need not link)
    if [ -n "$SAN_CFLAGS" ]; then
        skip "the plugin program builds as C++" "a sanitizer build ($SAN_CFLAGS)"
        skip "it runs: the same contact" "a sanitizer build"
    elif command -v "$CXX" >/dev/null 2>&1; then
        cp "$tmp/plugin.c" "$tmp/pluscc.cpp"
        flags=$(pc ode-boxtoi --cflags --libs 2>&1) &&
            $CXX -Wall -Wextra -Werror $CXXFLAGS -o "$tmp/pluscc" "$tmp/pluscc.cpp" \
                $flags $LDFLAGS -Wl,-rpath,"$tmp/lib" >"$tmp/pluscc.log" 2>&1
        result "$([ $? = 0 ] && echo 1)" \
            "the plugin program builds as C++ ($CXX -Wall -Wextra -Werror)" \
            "$(cat "$tmp/pluscc.log" 2>/dev/null)"
        run pluscc "1 1 0.5" "it runs: the same contact"
    else
        skip "the plugin program builds as C++" "no C++ compiler ($CXX)"
        skip "it runs: the same contact" "no C++ compiler"
    fi
fi

# The solver needs libm; a shared libboxtoi brings it itself, so only a
# static link is given it (Libs.private).
libs=$(static=; pc boxtoi --libs 2>&1)
sl=$(static=--static; pc boxtoi --libs 2>&1)
case " $libs | $sl " in
*" -lm "*"|"*) ok= ;;
*"|"*" -lm "*) ok=1 ;;
*) ok= ;;
esac
result "$ok" "-lm only for static links (pkg-config --libs, --static --libs boxtoi)" \
    "--libs: $libs; --static --libs: $sl"

# The .pc files and the manual page are made by make, with the directories
# make is given (make install prefix=DIR, in a tree configured with another
# prefix, installs files that name DIR).  The .pc files name the directories
# below the prefix as ${prefix}/..., so that pkg-config's
# --define-variable=prefix moves them, and others as they are.  Each file is
# remade as configured afterwards; only pkg-config runs read the .pc files
# here, with their own libdir and includedir.  test-install.sh, which
# installs these files, does not run meanwhile (tests.lock).
if [ -n "${MAKE:-}" ]; then
    other=/nonexistent/boxtoi-prefix
    for f in lib/boxtoi.pc plugin/ode-boxtoi.pc tools/boxtoi.1; do
        d=${f%/*}
        name=${f#*/}
        if [ "$f" = plugin/ode-boxtoi.pc ] && no_plugin "make prefix=DIR $name names DIR" \
            "$name: --define-variable=prefix moves libdir and includedir" \
            "make libdir=DIR $name (outside the prefix) names DIR as it is"; then
            continue
        fi
        if [ "$f" = tools/boxtoi.1 ] && [ "$with_jansson" = no ]; then
            skip "make prefix=DIR $name names DIR" \
                "the command is not built (configure --without-jansson)"
            continue
        fi
        $MAKE -s -C "$top/$d" prefix="$other" "$name" >"$tmp/make.log" 2>&1
        case $name in
        *.pc)
            pcpath=$top/lib:$top/plugin${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
            libdir=$(PKG_CONFIG_PATH=$pcpath "$PKG_CONFIG" --variable=libdir "${name%.pc}")
            moved=
            for v in libdir includedir; do
                moved="$moved $(PKG_CONFIG_PATH=$pcpath "$PKG_CONFIG" \
                    --define-variable=prefix=/moved --variable=$v "${name%.pc}" 2>&1)"
            done
            moved=${moved# }
            result "$(grep -qxF "prefix=$other" "$top/$f" && [ "$libdir" = "$other/lib" ] \
                && echo 1)" \
                "make prefix=DIR $name names DIR (libdir $libdir)" \
                "$(cat "$tmp/make.log" "$top/$f" 2>&1)"
            result "$(grep -qxF 'libdir=${prefix}/lib' "$top/$f" \
                && [ "$moved" = "/moved/lib /moved/include" ] && echo 1)" \
                "$name: --define-variable=prefix moves libdir and includedir ($moved)" \
                "$(cat "$top/$f" 2>&1)"
            $MAKE -s -C "$top/$d" prefix="$other" libdir=/elsewhere/lib "$name" \
                >"$tmp/make.log" 2>&1
            result "$(grep -qxF "libdir=/elsewhere/lib" "$top/$f" && echo 1)" \
                "make libdir=DIR $name (outside the prefix) names DIR as it is" \
                "$(cat "$tmp/make.log" "$top/$f" 2>&1)"
            ;;
        *)
            want=".IR $other/share/doc/boxtoi/docs/query-format.md ,"
            result "$(grep -qxF "$want" "$top/$f" && echo 1)" \
                "make prefix=DIR $name names DIR ($want)" \
                "$(cat "$tmp/make.log" "$top/$f" 2>&1)"
            ;;
        esac
        $MAKE -s -C "$top/$d" "$name" >"$tmp/make.log" 2>&1 || cat "$tmp/make.log" >&2
    done
    # libtool installs a library only into the libdir it was linked for: the
    # libraries depend on libdir.stamp, which holds that libdir, so that make
    # install prefix=DIR relinks them for DIR first (shown with make -n, which
    # changes nothing here).
    for f in lib/libboxtoi.la plugin/libode-boxtoi.la; do
        d=${f%/*}
        name=${f#*/}
        if [ "$f" = plugin/libode-boxtoi.la ] &&
            no_plugin "make prefix=DIR relinks $name for DIR/lib"; then
            continue
        fi
        $MAKE -n -C "$top/$d" prefix="$other" "$name" >"$tmp/make.log" 2>&1
        result "$(grep -q -e "-rpath $other/lib " "$tmp/make.log" && echo 1)" \
            "make prefix=DIR relinks $name for DIR/lib" "$(cat "$tmp/make.log")"
    done
else
    for f in boxtoi.pc ode-boxtoi.pc; do
        skip "make prefix=DIR $f names DIR" "MAKE not set (run by make check)"
        skip "$f: --define-variable=prefix moves libdir and includedir" "MAKE not set"
        skip "make libdir=DIR $f (outside the prefix) names DIR as it is" "MAKE not set"
    done
    skip "make prefix=DIR boxtoi.1 names DIR" "MAKE not set (run by make check)"
    for f in libboxtoi.la libode-boxtoi.la; do
        skip "make prefix=DIR relinks $f for DIR/lib" "MAKE not set (run by make check)"
    done
fi

[ "$failed" = 0 ]
