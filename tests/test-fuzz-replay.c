/*
 * The fuzz target of boxtoi_solve() (tests/fuzz-solve.c) over the inputs
 * kept in tests/data/fuzz/solve.hex: one input a line, in hexadecimal (the
 * corpus a fuzzing run grew, merged to the inputs that each reach code the
 * others do not, and the inputs of the faults it found).  Every one must
 * pass.
 *
 *   test-fuzz-replay                 replay the kept inputs ($srcdir/data/...)
 *   test-fuzz-replay FILE...         replay these raw inputs
 *   test-fuzz-replay --unpack DIR    write the kept inputs to DIR, one a file
 *                                    (the corpus for a fuzzing run)
 *   test-fuzz-replay --pack FILE...  print these raw inputs as lines of hex
 */
#include "fuzz-solve.h"
#include "tap/basic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 4096

/* The next input of the kept file; 0 at its end.  Lines of # are comments. */
static int next_input(FILE *f, uint8_t *buf, size_t *len, long *lineno)
{
    char line[2 * MAX_INPUT + 16];
    while (fgets(line, sizeof line, f)) {
        ++*lineno;
        size_t n = strcspn(line, "\r\n");
        if (n == 0 || line[0] == '#')
            continue;
        if (n % 2 || n / 2 > MAX_INPUT)
            bail("solve.hex line %ld: %zu hex digits", *lineno, n);
        for (size_t i = 0; i < n / 2; i++) {
            unsigned v;
            if (sscanf(line + 2 * i, "%2x", &v) != 1)
                bail("solve.hex line %ld: not hexadecimal", *lineno);
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

static FILE *open_kept(void)
{
    const char *srcdir = getenv("srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/fuzz/solve.hex", srcdir && *srcdir ? srcdir : ".");
    FILE *f = fopen(path, "r");
    if (!f)
        bail("%s: %s", path, strerror(errno));
    return f;
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
    if (argc == 3 && !strcmp(argv[1], "--unpack")) {
        FILE *f = open_kept();
        int count = 0;
        while (next_input(f, buf, &len, &lineno)) {
            char path[4096];
            snprintf(path, sizeof path, "%s/line-%06ld", argv[2], lineno);
            FILE *o = fopen(path, "wb");
            if (!o || fwrite(buf, 1, len, o) != len || fclose(o))
                bail("%s: %s", path, strerror(errno));
            count++;
        }
        fclose(f);
        fprintf(stderr, "%d inputs written to %s\n", count, argv[2]);
        return 0;
    }

    plan(0);
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            len = read_file(argv[i], buf);
            int bad = fuzz_solve_check(buf, len, why, sizeof why);
            ok(!bad, "%s%s%s", argv[i], bad ? ": " : "", bad ? why : "");
        }
        return tap_failures() ? 1 : 0;
    }
    FILE *f = open_kept();
    int n[2] = {0, 0}, bad = 0;
    while (next_input(f, buf, &len, &lineno)) {
        boxtoi_query q;
        n[fuzz_decode(buf, len, &q)]++;
        if (fuzz_solve_check(buf, len, why, sizeof why) && bad++ < 5)
            diag("solve.hex line %ld: %s", lineno, why);
    }
    fclose(f);
    ok(n[FUZZ_RAW] >= 20 && n[FUZZ_BUILT] >= 200,
       "the kept inputs hold both kinds: %d raw, %d built", n[FUZZ_RAW], n[FUZZ_BUILT]);
    ok(bad == 0, "every kept input passes the fuzz target's checks (%d of %d fail)", bad,
       n[0] + n[1]);
    return tap_failures() ? 1 : 0;
}
