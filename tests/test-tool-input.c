/*
 * The boxtoi command on a large input: tens of thousands of lines (more
 * than one chunk of answers), blank and CRLF lines, lines of several MiB
 * (longer than one read of the input), error lines, and a last line
 * without a line end.  Every answer must be the one the same line gets
 * when it is the only line of the input, with its own line number in
 * error messages; with --threads 1 and 3, from a named file and from
 * standard input.  And 128 MiB of blank lines, alone on a pipe and after
 * a query in a file, answered without holding them in memory.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <config.h>

#include "tap/basic.h"
#include "test-tool-run.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define NLINES 36000
#define INPUT "test-tool-input.jsonl"
#define OOM_INPUT "test-tool-input-oom.jsonl"
#define OOM_ERR "test-tool-input-oom.err"
#define OOM_OUT "test-tool-input-oom.out"

/* A growable string. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *s, size_t n)
{
    if (t->cap - t->len <= n) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap - t->len <= n)
            cap *= 2;
        t->s = realloc(t->s, cap);
        if (t->s == NULL)
            bail("out of memory");
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void add_str(text *t, const char *s)
{
    add(t, s, strlen(s));
}

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)((rng_state >> 11) % n);
}

/* The lines the input is made of, and how each answer begins. */
static const char *const small_start[] = {
    "{\"id\": 7, \"status\": \"hit\", \"toi\": 0.875, ",
    "{\"id\": \"m\", \"status\": \"miss\", \"toi\": null, \"exit\": null}",
    "{\"id\": 2.5, \"status\": \"overlap\", \"toi\": 0.25, ",
    ("{\"id\": [1, {\"k\": null}], \"status\": \"error\", \"error\": \"line 1: "
     "a.motion[0][3][1]: the bottom row of M(t) must be [0 0 0 w(t)]"),
    "{\"status\": \"error\", \"error\": \"line 1: not valid JSON",
    "{\"status\": \"error\", \"error\": \"line 1: not valid JSON",
};
static const char *const small[] = {
    /* hit (the example of docs/query-format.md) */
    "{\"id\": 7, \"a\": {\"min\": [-1,-1,-1], \"max\": [1,1,1], \"motion\": "
    "[[[1,0,0,-3],[0,1,0,0],[0,0,1,0],[0,0,0,1]],"
    "[[0,0,0,4],[0,0,0,0],[0,0,0,0],[0,0,0,0]]]}, "
    "\"b\": {\"min\": [1.5,0,0], \"max\": [2,1,1]}, \"t0\": 0, \"t1\": 1}",
    /* miss */
    "{\"id\": \"m\", \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
    "\"b\": {\"min\": [3,0,0], \"max\": [4,1,1]}}",
    /* overlap, real id */
    "{\"id\": 2.5, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
    "\"b\": {\"min\": [0.5,0.5,0.5], \"max\": [2,2,2]}, \"t0\": 0.25}",
    /* error found while reading the fields */
    "{\"id\": [1, {\"k\": null}], \"a\": {\"min\": [0,0,0], \"max\": [1,1,1], "
    "\"motion\": [[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0.5,0,1]]]}, "
    "\"b\": {\"min\": [0,0,0], \"max\": [1,1,1]}}",
    /* not JSON */
    "{\"id\": 3, \"a\": ",
    /* NaN */
    "{\"id\": 4, \"t0\": NaN}",
};
#define NSMALL (sizeof small / sizeof small[0])
#define NBIG 2

/* The answer a line gets when it is the whole input. */
typedef struct answer {
    char *text; /* with its newline */
    long at;    /* offset of the line number ("1") in text, or -1 */
} answer;

static answer answer_alone(const char *line)
{
    tool_run r;
    tool_run_cmd(&r, "", line);
    if (r.nlines != 1)
        bail("a single line got %d answers", r.nlines);
    answer a;
    size_t n = strlen(r.lines[0]);
    a.text = malloc(n + 2);
    if (a.text == NULL)
        bail("out of memory");
    memcpy(a.text, r.lines[0], n);
    memcpy(a.text + n, "\n", 2);
    const char *at = strstr(a.text, "\"line 1: ");
    a.at = at ? (long)(at - a.text) + 6 : -1;
    tool_run_free(&r);
    return a;
}

/* Compare an output with the expected one; describe the first difference. */
static void same_output(const tool_run *r, const text *want, int status,
                        const char *label)
{
    size_t n = r->out_len < want->len ? r->out_len : want->len;
    size_t i = 0;
    while (i < n && r->out[i] == want->s[i])
        i++;
    long line = 1;
    for (size_t j = 0; j < i; j++)
        line += want->s[j] == '\n';
    if (!ok(r->out_len == want->len && i == n,
            "%s: every answer as for the line alone", label))
        diag("first difference in answer line %ld (of %zu bytes out, %zu "
             "expected)",
             line, r->out_len, want->len);
    is_int(r->status, status, "%s: exit status", label);
}

/* ------------------------------------------------------------------ */
/* Out of memory                                                       */

/*
 * A line with an id of 12 MiB after OOM_BEFORE short queries and before
 * OOM_AFTER more, the tool's address space held to 16 to 80 MiB: at the
 * least the line itself does not fit, above that jansson's copies of it may
 * not.  The tool answers every line, or
 * says it is out of memory and exits with status 2, having written the
 * answers to the lines before the long one (the first two blocks of 64 and
 * two lines of the third: none of them lost), and only those; it never
 * dies of a signal (jansson 2.14 crashed on the NULL its allocator gave
 * it).  With --threads 1 and 3 in turn.  The sanitizers reserve far more
 * address space than that, so not with them.
 */
#define OOM_BEFORE 130
#define OOM_AFTER 70
static void test_out_of_memory(void)
{
    const char *san = getenv("SAN_CFLAGS");
    if (san != NULL && *san != '\0') {
        skip(3, "address space limits under the sanitizers");
        return;
    }
    text shorts = {0};
    char line[200];
    for (int k = 0; k < OOM_BEFORE + OOM_AFTER; k++) {
        snprintf(line, sizeof line,
                 "{\"id\": %d, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                 "\"b\": {\"min\": [%d.5,0,0], \"max\": [9,1,1], \"motion\": "
                 "[[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]],"
                 "[[0,0,0,-%d],[0,0,0,0],[0,0,0,0],[0,0,0,0]]]}}\n",
                 k, 1 + k % 3, 1 + k % 4);
        add_str(&shorts, line);
    }
    /* the answers to the short lines, as the tool gives them with no long
       line between them and no limit */
    tool_run ref;
    tool_run_cmd(&ref, "", shorts.s);
    if (ref.status != 0 || ref.nlines != OOM_BEFORE + OOM_AFTER)
        bail("the short lines alone: status %d, %d answers", ref.status, ref.nlines);
    size_t before_len = (size_t)(ref.lines[OOM_BEFORE] - ref.lines[0]);
    size_t cut = 0;
    for (int k = 0; k < OOM_BEFORE; k++)
        cut += strcspn(shorts.s + cut, "\n") + 1;

    const size_t big = (size_t)12 << 20;
    FILE *f = fopen(OOM_INPUT, "wb");
    if (f == NULL)
        bail("cannot write " OOM_INPUT);
    fwrite(shorts.s, 1, cut, f);
    fputs("{\"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
          "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}, \"id\": \"", f);
    for (size_t i = 0; i < big; i++)
        putc('a' + (int)(i % 26), f);
    fputs("\"}\n", f);
    fwrite(shorts.s + cut, 1, shorts.len - cut, f);
    if (fclose(f) != 0)
        bail("cannot write " OOM_INPUT);
    int signalled = 0, refused = 0, other = 0, lost = 0;
    char cmd[4300];
    for (int mib = 16; mib <= 80; mib += 8) {
        int threads = mib % 16 ? 3 : 1;
        snprintf(cmd, sizeof cmd,
                 "ulimit -v %d && exec %s --threads %d " OOM_INPUT " >" OOM_OUT
                 " 2>" OOM_ERR,
                 mib * 1024, tool_path(), threads);
        int st = system(cmd);
        char err[256] = "";
        FILE *e = fopen(OOM_ERR, "rb");
        if (e != NULL) {
            size_t got = fread(err, 1, sizeof err - 1, e);
            err[got] = '\0';
            fclose(e);
        }
        text out = {0};
        add_str(&out, "");
        FILE *o = fopen(OOM_OUT, "rb");
        if (o != NULL) {
            char buf[65536];
            size_t got;
            while ((got = fread(buf, 1, sizeof buf, o)) > 0)
                add(&out, buf, got);
            fclose(o);
        }
        if (st == -1 || !WIFEXITED(st)) {
            signalled++;
        } else if (WEXITSTATUS(st) == 2 && strcmp(err, "boxtoi: out of memory\n") == 0) {
            refused++;
            if (out.len != before_len || memcmp(out.s, ref.out, before_len) != 0) {
                lost++;
                diag("%d MiB, --threads %d: %zu bytes of answers, the %d lines before the "
                     "long one's are %zu", mib, threads, out.len, OOM_BEFORE, before_len);
            }
        } else if (WEXITSTATUS(st) != 0) {
            other++;
            diag("%d MiB: status %d, %s", mib, WEXITSTATUS(st), err);
        }
        free(out.s);
    }
    tool_run_free(&ref);
    free(shorts.s);
    remove(OOM_INPUT);
    remove(OOM_OUT);
    remove(OOM_ERR);
    ok(signalled == 0 && other == 0,
       "a 12 MiB line in 16 to 80 MiB of address space: answered or out of memory "
       "(status 2), %d runs ended by a signal", signalled);
    ok(refused > 0, "... and out of memory in %d of the 9 runs", refused);
    ok(lost == 0, "... where out of memory, the answers to the %d lines before it written, "
       "in order, and no more (%d of %d runs not)", OOM_BEFORE, lost, refused);
}

/* ------------------------------------------------------------------ */
/* Blank lines are not held                                            */

#define BLANK_MIB 128
#define BLANK_INPUT "test-tool-input-blank.jsonl"
#define BLANK_OUTPUT "test-tool-input-blank.out"

static const char blank_query[] =
    "{\"id\": 1, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
    "\"b\": {\"min\": [3,0,0], \"max\": [4,1,1]}}\n";

/* Write head, BLANK_MIB MiB of blank lines (1 KiB each) and tail to fd. */
static int write_blank_input(int fd, const char *head, const char *tail)
{
    static char block[1 << 20];
    for (size_t i = 0; i < sizeof block; i++)
        block[i] = (i + 1) % 1024 == 0 ? '\n' : i % 7 == 3 ? '\t' : ' ';
    ssize_t n = (ssize_t)strlen(head);
    if (write(fd, head, (size_t)n) != n)
        return -1;
    for (int k = 0; k < BLANK_MIB; k++)
        for (size_t off = 0; off < sizeof block;) {
            ssize_t got = write(fd, block + off, sizeof block - off);
            if (got <= 0)
                return -1;
            off += (size_t)got;
        }
    n = (ssize_t)strlen(tail);
    return write(fd, tail, (size_t)n) == n ? 0 : -1;
}

/* Run "TOOL args" with the blank input on a pipe (file: named in args, NULL:
 * the input goes to a pipe); returns the tool's largest resident size in
 * KiB, its output in *out (free it) and its exit status in *status. */
static long run_blank(const char *args, const char *file, const char *head,
                      const char *tail, char **out, int *status)
{
    int p[2] = {-1, -1};
    if (file) {
        int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || write_blank_input(fd, head, tail) != 0 || close(fd) != 0)
            bail("cannot write %s", file);
    } else if (pipe(p) != 0) {
        bail("pipe failed");
    }
    signal(SIGPIPE, SIG_IGN);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "exec %s %s >%s", tool_path(), args,
             BLANK_OUTPUT);
    pid_t pid = fork();
    if (pid < 0)
        bail("fork failed");
    if (pid == 0) {
        if (file == NULL) {
            dup2(p[0], 0);
            close(p[0]);
            close(p[1]);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    if (file == NULL) {
        close(p[0]);
        if (write_blank_input(p[1], head, tail) != 0)
            diag("writing to the tool failed");
        close(p[1]);
    }
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (wait4(pid, &st, 0, &ru) != pid)
        bail("wait4 failed");
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (file)
        remove(file);

    FILE *f = fopen(BLANK_OUTPUT, "rb");
    if (f == NULL)
        bail("cannot read " BLANK_OUTPUT);
    *out = calloc(1, 4096);
    if (*out == NULL)
        bail("out of memory");
    size_t got = fread(*out, 1, 4095, f);
    (*out)[got] = '\0';
    fclose(f);
    remove(BLANK_OUTPUT);
    return ru.ru_maxrss;
}

/* Run first (the test process is still small: a child's largest resident
 * size counts what it shared with this process before exec). */
static void test_blank_memory(void)
{
    /* Held whole, the input alone is BLANK_MIB MiB; bounded, the tool
     * needs some 20 MiB (some 70 MiB with AddressSanitizer, which keeps
     * freed buffers a while). */
    const long limit = (long)BLANK_MIB * 1024 * 3 / 4;
    const long last = (long)BLANK_MIB * 1024 + 2; /* the tail's line */
    char *out, want[256];
    int status;

    /* Blank lines only, then an error line: no line ever waits for an
     * answer, so only the unfinished line is kept. */
    long rss = run_blank("", NULL, "", "oops\n", &out, &status);
    snprintf(want, sizeof want,
             "{\"status\": \"error\", \"error\": \"line %ld: not valid "
             "JSON",
             last - 1);
    ok(rss > 0 && rss < limit,
       "%d MiB of blank lines on a pipe: largest resident size %ld KiB "
       "(below %ld)",
       BLANK_MIB, rss, limit);
    if (!ok(status == 1 && strncmp(out, want, strlen(want)) == 0 &&
                strchr(out, '\n') == out + strlen(out) - 1,
            "blank lines on a pipe: one answer, with its line number"))
        diag("status %d, output %s", status, out);
    free(out);

    /* A query, the blank lines, a query, from a file (always ready, so
     * only the limit on bytes held ends the batch). */
    char args[64];
    snprintf(args, sizeof args, "--threads 2 %s", BLANK_INPUT);
    rss = run_blank(args, BLANK_INPUT, blank_query, "{\"id\": 2, \"t0\": NaN}",
                    &out, &status);
    snprintf(want, sizeof want,
             "{\"id\": 1, \"status\": \"miss\", \"toi\": null, \"exit\": "
             "null}\n{\"status\": \"error\", \"error\": \"line %ld of %s: "
             "not valid JSON at column 19: invalid token near 'NaN' (NaN",
             last, BLANK_INPUT);
    ok(rss > 0 && rss < limit,
       "a query and %d MiB of blank lines in a file: largest resident size "
       "%ld KiB (below %ld)",
       BLANK_MIB, rss, limit);
    if (!ok(status == 1 && strncmp(out, want, strlen(want)) == 0,
            "a query, blank lines and a query in a file: both answered, in "
            "order"))
        diag("status %d, output %s", status, out);
    free(out);
}

int main(void)
{
    plan(10 + 3 + (int)NSMALL + 2);
    test_blank_memory();
    test_out_of_memory();

    answer alone[NSMALL + NBIG];
    for (size_t k = 0; k < NSMALL; k++) {
        alone[k] = answer_alone(small[k]);
        if (!ok(strncmp(alone[k].text, small_start[k], strlen(small_start[k])) == 0,
                "line %zu alone: its answer begins %s", k, small_start[k]))
            diag("got %s", alone[k].text);
    }

    /* Two lines of several MiB each: a query with a long string id, and the
     * same string left unterminated. */
    const size_t big = (size_t)3 << 20;
    char *id = malloc(big + 1);
    if (id == NULL)
        bail("out of memory");
    for (size_t i = 0; i < big; i++)
        id[i] = (char)('a' + i % 26);
    id[big] = '\0';
    text bigline[NBIG] = {{0}, {0}};
    add_str(&bigline[0], "{\"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                         "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}, "
                         "\"id\": \"");
    add_str(&bigline[0], id);
    add_str(&bigline[0], "\"}");
    add_str(&bigline[1], "{\"id\": \"");
    add_str(&bigline[1], id);
    free(id);
    for (int k = 0; k < NBIG; k++)
        alone[NSMALL + k] = answer_alone(bigline[k].s);
    /* bigline[1] is the first's answer up to the id's closing quote */
    const char *rest = "\", \"status\": \"miss\", \"toi\": null, \"exit\": null}\n";
    ok(strncmp(alone[NSMALL].text, bigline[1].s, bigline[1].len) == 0 &&
           strcmp(alone[NSMALL].text + bigline[1].len, rest) == 0,
       "a 3 MiB id alone: a miss, the id echoed whole");
    const char *bad = "{\"status\": \"error\", \"error\": \"line 1: not valid JSON";
    ok(strncmp(alone[NSMALL + 1].text, bad, strlen(bad)) == 0,
       "a 3 MiB unterminated string alone: not valid JSON");

    static const char *const blank[] = {"", " ", "\t  ", "\r", " \r"};
    text in = {0}, want = {0};
    char buf[64];
    int status = 0;
    for (long lineno = 1; lineno <= NLINES; lineno++) {
        unsigned u = rnd(100);
        size_t k;
        if (lineno == 777 || lineno == 20000 || lineno == 20001 ||
            lineno == NLINES - 1)
            k = NSMALL + (size_t)(lineno % NBIG);
        else if (u < 30) {
            add_str(&in, blank[rnd(5)]);
            add_str(&in, "\n");
            continue;
        } else
            k = rnd(NSMALL);
        add_str(&in, k < NSMALL ? small[k] : bigline[k - NSMALL].s);
        if (k < 3 && rnd(4) == 0)
            add_str(&in, "\r"); /* CRLF line */
        if (lineno < NLINES)
            add_str(&in, "\n");
        if (k >= 3 && k != NSMALL)
            status = 1;
        /* The line number, where the answer has one. */
        const answer *a = &alone[k];
        if (a->at < 0) {
            add_str(&want, a->text);
        } else {
            add(&want, a->text, (size_t)a->at);
            snprintf(buf, sizeof buf, "%ld", lineno);
            add_str(&want, buf);
            add_str(&want, a->text + a->at + 1);
        }
    }
    tool_write_file(INPUT, in.s);
    diag("%d lines, %zu bytes in, %zu bytes of answers expected", NLINES,
         in.len, want.len);

    /* From a named file, error messages name it. */
    text want_named = {0};
    const char *p = want.s;
    const char *hit;
    while ((hit = strstr(p, "\"line ")) != NULL) {
        const char *colon = strchr(hit, ':');
        add(&want_named, p, (size_t)(colon - p));
        add_str(&want_named, " of " INPUT);
        p = colon;
    }
    add_str(&want_named, p);

    tool_run r;
    tool_run_cmd(&r, "--threads 1 " INPUT, NULL);
    same_output(&r, &want_named, status, "file, --threads 1");
    tool_run_free(&r);
    tool_run_cmd(&r, "--threads 3 " INPUT, NULL);
    same_output(&r, &want_named, status, "file, --threads 3");
    tool_run_free(&r);
    tool_run_cmd(&r, "--threads 2", in.s);
    same_output(&r, &want, status, "standard input, --threads 2");
    tool_run_free(&r);

    remove(INPUT);
    for (size_t k = 0; k < NSMALL + NBIG; k++)
        free(alone[k].text);
    for (int k = 0; k < NBIG; k++)
        free(bigline[k].s);
    free(in.s);
    free(want.s);
    free(want_named.s);
    return tap_failures() ? 1 : 0;
}
