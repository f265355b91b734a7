/*
 * The fuzz targets (tests/fuzz-solve.c, tests/fuzz-tool.c,
 * tests/fuzz-plugin.c) over the inputs
 * kept for them in tests/data/fuzz/TARGET.hex: one input a line, in
 * hexadecimal (the corpus a fuzzing run grew, merged to the inputs that
 * each reach code the others do not, and the inputs of the faults it
 * found).  Every one must pass.
 *
 *   test-fuzz-replay                      replay the kept inputs of both
 *                                         targets ($srcdir/data/fuzz/)
 *   test-fuzz-replay TARGET FILE...       replay these raw inputs
 *   test-fuzz-replay --unpack TARGET DIR  write TARGET's kept inputs to DIR,
 *                                         one a file (a fuzzing run's corpus)
 *   test-fuzz-replay --pack FILE...       print these raw inputs as lines
 *                                         of hex
 * TARGET is solve, tool or plugin.  A build without ODE or jansson
 * (configure --without-ode, --without-jansson) has no plugin or tool
 * target: config.h defines BOXTOI_WITH_ODE and BOXTOI_WITH_JANSSON where
 * it has them, and their checks are skipped where it does not.
 */
#include <config.h>

#include "fuzz-solve.h"
#include "tap/basic.h"
#ifdef BOXTOI_WITH_ODE
#include "fuzz-plugin.h"
#endif
#ifdef BOXTOI_WITH_JANSSON
#include "fuzz-tool.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 4096

/* The next input of the kept file; 0 at its end.  Lines of # are comments. */
static int next_input(FILE *f, const char *name, uint8_t *buf, size_t *len, long *lineno)
{
    char line[2 * MAX_INPUT + 16];
    while (fgets(line, sizeof line, f)) {
        ++*lineno;
        size_t n = strcspn(line, "\r\n");
        if (n == 0 || line[0] == '#')
            continue;
        if (n % 2 || n / 2 > MAX_INPUT)
            bail("%s.hex line %ld: %zu hex digits", name, *lineno, n);
        for (size_t i = 0; i < n / 2; i++) {
            unsigned v;
            if (sscanf(line + 2 * i, "%2x", &v) != 1)
                bail("%s.hex line %ld: not hexadecimal", name, *lineno);
            buf[i] = (uint8_t)v;
        }
        *len = n / 2;
        return 1;
    }
    return 0;
}

static size_t read_file(const char *path, uint8_t *buf)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        bail("%s: %s", path, strerror(errno));
    size_t n = fread(buf, 1, MAX_INPUT, f);
    int longer = fgetc(f) != EOF;
    fclose(f);
    if (longer)
        bail("%s: longer than %d bytes", path, MAX_INPUT);
    return n;
}

typedef int check_fn(const uint8_t *data, size_t size, char *why, size_t n);
typedef int kind_fn(const uint8_t *data, size_t size);

/* The kind of query an input of the solver's target reads as. */
static int solve_kind(const uint8_t *data, size_t size)
{
    boxtoi_query q;
    return fuzz_decode(data, size, &q);
}

static const struct target {
    const char *name;
    check_fn *check;
    kind_fn *kind; /* what an input is, counted over the kept ones */
} targets[] = {{"solve", fuzz_solve_check, solve_kind},
#ifdef BOXTOI_WITH_JANSSON
               {"tool", fuzz_tool_check, fuzz_tool_status},
#endif
#ifdef BOXTOI_WITH_ODE
               {"plugin", fuzz_plugin_check, fuzz_plugin_kind},
#endif
};

#define NTARGETS (int)(sizeof targets / sizeof targets[0])

static const struct target *find_target(const char *name)
{
    for (int i = 0; i < NTARGETS; i++)
        if (!strcmp(targets[i].name, name))
            return &targets[i];
    bail("%s: no such fuzz target in this build (solve, tool, plugin)", name);
}

static FILE *open_kept(const char *name)
{
    const char *srcdir = getenv("srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/fuzz/%s.hex", srcdir && *srcdir ? srcdir : ".", name);
    FILE *f = fopen(path, "r");
    if (!f)
        bail("%s: %s", path, strerror(errno));
    return f;
}

/*
 * Run t over its kept inputs: n[k] counts those of kind k (KINDS at most),
 * *total all of them; returns how many fail (the first five as diagnostics).
 */
#define KINDS 8
_Static_assert(FUZZ_BUILT < KINDS, "KINDS counts every kind");
#ifdef BOXTOI_WITH_JANSSON
_Static_assert(FUZZ_LINE_STATES <= KINDS, "KINDS counts every kind");
#endif
#ifdef BOXTOI_WITH_ODE
_Static_assert(FUZZ_ROOM_KINDS <= KINDS, "KINDS counts every kind");
#endif
static int replay_kept(const struct target *t, int n[KINDS], int *total)
{
    static uint8_t buf[MAX_INPUT];
    char why[1024];
    size_t len;
    long lineno = 0;
    int bad = 0;
    FILE *f = open_kept(t->name);
    memset(n, 0, KINDS * sizeof n[0]);
    *total = 0;
    while (next_input(f, t->name, buf, &len, &lineno)) {
        n[t->kind(buf, len)]++;
        ++*total;
        if (t->check(buf, len, why, sizeof why) && bad++ < 5)
            diag("%s.hex line %ld: %s", t->name, lineno, why);
    }
    fclose(f);
    return bad;
}

/* The solver's kept inputs: both kinds of query, and every one passes. */
static void replay_solve(void)
{
    int n[KINDS], total, bad = replay_kept(&targets[0], n, &total);
    ok(n[FUZZ_RAW] >= 20 && n[FUZZ_BUILT] >= 200,
       "the kept inputs hold both kinds: %d raw, %d built", n[FUZZ_RAW], n[FUZZ_BUILT]);
    ok(bad == 0, "every kept input passes the fuzz target's checks (%d of %d fail)", bad,
       total);
    long judged, unjudged;
    fuzz_solve_judged(&judged, &unjudged);
    ok(judged >= 200 && unjudged * 100 <= judged + unjudged,
       "the reference judges all but 1 %% of the valid built queries (%ld of %ld unjudged)",
       unjudged, judged + unjudged);
}

/* The tool's kept inputs: lines of every status, and every one passes. */
static void replay_tool(void)
{
#ifndef BOXTOI_WITH_JANSSON
    skip(2, "the command is not built (configure --without-jansson)");
#else
    int n[KINDS], total, bad = replay_kept(find_target("tool"), n, &total);
    ok(n[FUZZ_LINE_HIT] >= 20 && n[FUZZ_LINE_MISS] >= 20 && n[FUZZ_LINE_OVERLAP] >= 5 &&
       n[FUZZ_LINE_ERROR] >= 100,
       "the kept lines get every answer: %d hit, %d miss, %d overlap, %d error, %d blank",
       n[FUZZ_LINE_HIT], n[FUZZ_LINE_MISS], n[FUZZ_LINE_OVERLAP], n[FUZZ_LINE_ERROR],
       n[FUZZ_LINE_BLANK]);
    ok(bad == 0, "every kept line passes the fuzz target's checks (%d of %d fail)", bad, total);
#endif
}

/* The plugin's kept rooms: every path of the stepper, and every one passes. */
static void replay_plugin(void)
{
#ifndef BOXTOI_WITH_ODE
    skip(2, "the ODE plugin is not built (configure --without-ode)");
#else
    int n[KINDS], total, bad = replay_kept(find_target("plugin"), n, &total);
    ok(n[FUZZ_ROOM_QUIET] >= 1 && n[FUZZ_ROOM_IMPACTS] >= 5 && n[FUZZ_ROOM_SPECULATIVE] >= 5 &&
       n[FUZZ_ROOM_REDONE] >= 5,
       "the kept rooms take every path: %d quiet, %d impacts, %d speculative, %d redone",
       n[FUZZ_ROOM_QUIET], n[FUZZ_ROOM_IMPACTS], n[FUZZ_ROOM_SPECULATIVE],
       n[FUZZ_ROOM_REDONE]);
    ok(bad == 0, "every kept room passes the fuzz target's checks (%d of %d fail)", bad, total);
#endif
}

int main(int argc, char **argv)
{
    static uint8_t buf[MAX_INPUT];
    size_t len;
    long lineno = 0;
    char why[1024];
    if (argc > 1 && !strcmp(argv[1], "--pack")) {
        for (int i = 2; i < argc; i++) {
            len = read_file(argv[i], buf);
            for (size_t k = 0; k < len; k++)
                printf("%02x", buf[k]);
            printf("\n");
        }
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "--unpack")) {
        const struct target *t = find_target(argv[2]);
        FILE *f = open_kept(t->name);
        int count = 0;
        while (next_input(f, t->name, buf, &len, &lineno)) {
            char path[4096];
            snprintf(path, sizeof path, "%s/line-%06ld", argv[3], lineno);
            FILE *o = fopen(path, "wb");
            if (!o || fwrite(buf, 1, len, o) != len || fclose(o))
                bail("%s: %s", path, strerror(errno));
            count++;
        }
        fclose(f);
        fprintf(stderr, "%d inputs written to %s\n", count, argv[3]);
        return 0;
    }
    if (argc > 1 && argv[1][0] == '-')
        bail("usage: test-fuzz-replay [--pack FILE... | --unpack TARGET DIR | TARGET FILE...]");

    plan(0);
    if (argc > 1) {
        const struct target *t = find_target(argv[1]);
        for (int i = 2; i < argc; i++) {
            len = read_file(argv[i], buf);
            int bad = t->check(buf, len, why, sizeof why);
            ok(!bad, "%s%s%s", argv[i], bad ? ": " : "", bad ? why : "");
        }
        return tap_failures() ? 1 : 0;
    }
    replay_solve();
    replay_tool();
    replay_plugin();
    return tap_failures() ? 1 : 0;
}
