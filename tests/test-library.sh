#!/bin/sh
# What the built libraries link against, read from their symbol tables with
# binutils: promises of boxtoi.h and ode-boxtoi.h that no call can show.
#   - each library exports exactly the functions its public header declares,
#     and libboxtoi needs only libc and libm (no ODE, no jansson);
#   - the solver calls no allocator (no heap allocation, per query or not);
#   - neither library writes anything (no stdio output, no write, no ODE
#     message) or ends the program (abort, exit, assertions, ODE's dError);
#   - the solver's objects hold no writable data (.data, .bss, thread-local
#     storage): no global state;
#   - every name the objects define for the linker, internal ones included,
#     carries the library's prefix (boxtoi_; for the plugin, its public
#     names and dxBoxtoi_),
#     so that a program linked with the static libraries can use any name
#     of its own.  Not checked in a sanitizer or coverage
#     build, whose instrumentation adds its own (and a coverage build's
#     shared libraries also export its run-time's names, left out below).
# Run from the tests build directory (srcdir: the tests source directory).
: "${srcdir:=.}"
lib=../lib/.libs
plugin=../plugin/.libs

for tool in nm readelf size; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "1..0 # SKIP $tool (binutils) not found"
        exit 0
    fi
done

core=
for f in "$lib/libboxtoi-core.a" ../lib/libboxtoi-core.a; do
    if [ -f "$f" ]; then
        core=$f
        break
    fi
done
if [ -z "$core" ]; then
    echo "Bail out! the solver's archive libboxtoi-core.a was not found under ../lib"
    exit 1
fi
so=$lib/libboxtoi.so
pso=$plugin/libode-boxtoi.so
# the plugin's objects: PIC objects of a shared build, or its static archive
pobjs=$(ls "$plugin"/*.o 2>/dev/null)
[ -z "$pobjs" ] && [ -f "$plugin/libode-boxtoi.a" ] && pobjs=$plugin/libode-boxtoi.a

# shellcheck source=tap/basic.sh
. "$srcdir/tap/basic.sh"
# undefined FILES...: names of the undefined symbols, without versions.
undefined() {
    nm -u "$@" 2>/dev/null | awk 'NF >= 2 && $(NF - 1) ~ /^[Uw]$/ {print $NF}' |
        sed 's/@.*//' | sort -u
}
# declared HEADER MACRO: the functions the header declares with MACRO.
declared() {
    sed -n "s/^$2 .*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p" "$1" | sort -u
}
# exported LIBRARY: the names a shared library defines for others (in a
# coverage build, less those of gcov's or LLVM's profiling run-time).
exported() {
    nm -D --defined-only "$1" | awk 'NF >= 2 && $(NF - 1) ~ /^[TDBRVWi]$/ {print $NF}' |
        sed 's/@.*//' | sort -u |
        if [ -n "${coverage:-}" ]; then
            grep -v -E '^(__gcov_|__llvm_profile_|__(start|stop)___llvm_prf_|lprof|mangle_path$)'
        else
            cat
        fi
}
# same_names WHAT EXPORTED DECLARED: one result comparing the two lists.
same_names() {
    extra=$(echo "$2" | grep -v -x -F "$3" | tr '\n' ' ')
    missing=$(echo "$3" | grep -v -x -F "$2" | tr '\n' ' ')
    result "$([ -z "$extra$missing" ] && [ -n "$3" ] && echo 1)" \
        "$1 exports exactly the $(echo "$3" | wc -l) functions its header declares" \
        "exported, not declared: $extra
declared, not exported: $missing"
}
# among LIST PATTERN: the names of LIST matching the extended regex.
among() {
    echo "$1" | grep -E "$2" | tr '\n' ' '
}

alloc='^(malloc|calloc|realloc|reallocarray|free|aligned_alloc|posix_memalign|memalign|valloc|pvalloc|strdup|strndup|__libc_malloc)$'
output='^(printf|fprintf|vprintf|vfprintf|dprintf|vdprintf|__(v?f?|v?d)printf_chk|puts|fputs|fputs_unlocked|putchar|putchar_unlocked|putc|putc_unlocked|fputc|fputc_unlocked|fwrite|fwrite_unlocked|__overflow|_IO_putc|putw|wprintf|fwprintf|vwprintf|vfwprintf|__(v?f?)wprintf_chk|putwc|putwchar|fputwc|fputws|putwc_unlocked|fputwc_unlocked|fputws_unlocked|write|writev|pwrite|pwritev|fopen|fopen64|fdopen|freopen|open|open64|openat|creat|mmap|sbrk|perror|psignal|psiginfo|err|errx|warn|warnx|verr|verrx|vwarn|vwarnx|syslog|vsyslog|stdout|stderr|dMessage)$'
ending='^(abort|exit|_exit|_Exit|quick_exit|__assert_fail|__assert_perror_fail|dError|dDebug)$'

# readable FUNCTION FILES...: do the files hold machine code (.text) and
# define FUNCTION, with some undefined symbol listed?  Objects of compiler
# bytecode only (slim LTO) have an empty .text, and their symbol tables leave
# out calls to built-in functions (malloc, printf, abort...): an empty list
# of calls would prove nothing.
readable() {
    fn=$1
    shift
    nm --defined-only "$@" 2>/dev/null |
        awk -v f="$fn" 'NF >= 2 && $(NF - 1) ~ /^[Ti]$/ && $NF == f {found = 1} END {exit !found}' &&
        size -A "$@" 2>/dev/null |
        awk '$1 ~ /^\.text(\.|$)/ {text += $2} END {exit !(text > 0)}' &&
        [ -n "$(undefined "$@")" ]
}
unreadable="no machine code in the symbol tables (LTO bytecode objects?)"

echo "1..12"

if readable boxtoi_solve "$core"; then
    u=$(undefined "$core")
    bad=$(among "$u" "$alloc")
    result "$([ -z "$bad" ] && echo 1)" "the solver calls no allocator" "calls: $bad"
    bad=$(among "$u" "$output")
    result "$([ -z "$bad" ] && echo 1)" "the solver writes nothing" "calls: $bad"
    bad=$(among "$u" "$ending")
    result "$([ -z "$bad" ] && echo 1)" "the solver never ends the program" "calls: $bad"
else
    core_unreadable=1
    skip "the solver calls no allocator" "$unreadable"
    skip "the solver writes nothing" "$unreadable"
    skip "the solver never ends the program" "$unreadable"
fi

# Beyond the deny lists: every name the solver's objects leave undefined is
# defined in the archive itself, exported by the libm it links, or one of
# the memory copies and the stack protector's (and, in a sanitizer or
# coverage build, their run-time's), or, where boxtoi_solve picks between
# two builds (lib/dispatch.c), the processor's features as GCC's run-time
# support library reads them (__builtin_cpu_supports).
if [ -n "${core_unreadable:-}" ]; then
    skip "the solver calls only itself, libm and memory copies" "$unreadable"
else
    libm=$( (ldd "$so" 2>/dev/null || true) | awk '/libm\.so/ {print $3; exit}')
    if [ -f "$libm" ]; then
        own=$(nm --defined-only "$core" 2>/dev/null |
            awk 'NF >= 2 && $(NF - 1) ~ /^[TDBRVWi]$/ {print $NF}' | sort -u)
        mfns=$(nm -D --defined-only "$libm" | awk 'NF >= 2 {print $NF}' | sed 's/@.*//' |
            sort -u)
        bad=$(undefined "$core" | grep -v -x -F "$own" | grep -v -x -F "$mfns" |
            grep -v -E '^(memcpy|memmove|memset|memcmp|__(memcpy|memmove|memset)_chk|__stack_chk_fail|__stack_chk_guard|_GLOBAL_OFFSET_TABLE_)$' |
            grep -v -E '^__cpu_(model|indicator_init|features2)$' |
            grep -v -E '^(__asan_|__ubsan_|__sanitizer_|__gcov_|__llvm_profile_)' |
            tr '\n' ' ')
        result "$([ -z "$bad" ] && echo 1)" \
            "the solver calls only itself, libm and memory copies" "calls: $bad"
    else
        skip "the solver calls only itself, libm and memory copies" "libm not found"
    fi
fi

# linked NAMEPATTERN FILES...: the names the objects define for the linker
# (global and weak symbols) that do not match NAMEPATTERN, less those a
# sanitizer's or coverage instrumentation adds (AddressSanitizer's ODR
# indicators, __odr_asan.NAME, among them).
linked() {
    pat=$1
    shift
    nm -g --defined-only "$@" 2>/dev/null |
        awk 'NF >= 2 && $(NF - 1) ~ /^[TDBRVWiGSCu]$/ {print $NF}' | sort -u |
        grep -v -E "$pat" |
        grep -v -E '^(__asan_|__odr_asan|__ubsan_|__sanitizer_|__gcov_|__llvm_profile_|__llvm_prf_|_GLOBAL_OFFSET_TABLE_$)' |
        tr '\n' ' '
}
if [ -n "${core_unreadable:-}" ]; then
    skip "every name the solver defines begins with boxtoi_" "$unreadable"
else
    bad=$(linked '^boxtoi_' "$core")
    result "$([ -z "$bad" ] && echo 1)" "every name the solver defines begins with boxtoi_" \
        "also: $bad"
fi
# shellcheck disable=SC2086 # one argument per object
if [ -n "$pobjs" ] && readable dCreateBoxtoiBox $pobjs; then
    # shellcheck disable=SC2086 # one argument per object
    pub=$(declared "$srcdir/../plugin/ode-boxtoi.h" ODE_BOXTOI_API | tr '\n' '|')
    # shellcheck disable=SC2086 # one argument per object
    bad=$(linked "^(dxBoxtoi_|(${pub%|})\$)" $pobjs)
    result "$([ -z "$bad" ] && [ -n "$pub" ] && echo 1)" \
        "every name the ODE plugin defines is public or begins with dxBoxtoi_" "also: $bad"
else
    skip "every name the ODE plugin defines is public or begins with dxBoxtoi_" \
        "plugin objects not readable"
fi

sanitized=
coverage=
# gcov's counters are named symbols; clang's sit in sections of their own
{ nm "$core" 2>/dev/null | grep -q '__gcov_' ||
    size -A "$core" 2>/dev/null | grep -q '^__llvm_prf_'; } && coverage=1
if nm "$core" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
    sanitized=1
    skip "the solver's objects hold no writable data" "sanitizer build"
elif [ -n "$coverage" ]; then
    skip "the solver's objects hold no writable data" "coverage build"
elif [ -n "${core_unreadable:-}" ]; then
    skip "the solver's objects hold no writable data" "$unreadable"
else
    w=$(size -A "$core" 2>/dev/null | awk '
        /^[^ ]+ +\(ex / {obj = $1}
        $1 ~ /^\.(data|bss|tdata|tbss)(\.|$)/ && $1 !~ /^\.data\.rel\.ro/ && $2 > 0 {
            print obj " " $1 " " $2 " bytes"
        }')
    c=$(nm "$core" 2>/dev/null | awk 'NF >= 2 && $(NF - 1) == "C" {print $NF}')
    result "$([ -z "$w$c" ] && echo 1)" "the solver's objects hold no writable data" "$w $c"
fi

if [ -f "$so" ]; then
    same_names libboxtoi "$(exported "$so")" \
        "$(declared "$srcdir/../include/boxtoi.h" BOXTOI_API)"
    need=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    allowed='^(libc|libm)\.so\.[0-9]+$'
    # the sanitizers' run-time libraries, in a sanitizer build
    [ -n "$sanitized" ] && allowed='^(libc|libm|libasan|libubsan)\.so\.[0-9]+$'
    bad=$(echo "$need" | tr ' ' '\n' | grep -v -E "$allowed|^\$" | tr '\n' ' ')
    result "$([ -z "$bad" ] && echo 1)" \
        "libboxtoi needs only libc and libm${sanitized:+ and the sanitizers'} ($need)" \
        "also: $bad"
else
    skip "libboxtoi exports exactly what its header declares" "no shared library built"
    skip "libboxtoi needs only libc and libm" "no shared library built"
fi

# shellcheck disable=SC2086 # one argument per object
if [ -n "$pobjs" ] && readable dCreateBoxtoiBox $pobjs; then
    # shellcheck disable=SC2086 # one argument per object
    u=$(undefined $pobjs)
    bad=$(among "$u" "$output")
    result "$([ -z "$bad" ] && echo 1)" "the ODE plugin writes nothing" "calls: $bad"
    bad=$(among "$u" "$ending")
    result "$([ -z "$bad" ] && echo 1)" "the ODE plugin never ends the program" \
        "calls: $bad"
else
    why="plugin objects not found"
    [ -n "$pobjs" ] && why=$unreadable
    skip "the ODE plugin writes nothing" "$why"
    skip "the ODE plugin never ends the program" "$why"
fi
if [ -f "$pso" ]; then
    same_names "the ODE plugin" "$(exported "$pso")" \
        "$(declared "$srcdir/../plugin/ode-boxtoi.h" ODE_BOXTOI_API)"
else
    skip "the ODE plugin exports exactly what its header declares" "no shared library built"
fi

[ "$failed" -eq 0 ]
