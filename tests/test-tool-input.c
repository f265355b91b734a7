/*
 * The boxtoi command on a large input: tens of thousands of lines (more
 * than one chunk of answers), blank and CRLF lines, lines of several MiB
 * (longer than one read of the input), error lines, and a last line
 * without a line end.  Every answer must be the one the same line gets
 * when it is the only line of the input, with its own line number in
 * error messages; with --threads 1 and 3, from a named file and from
 * standard input.
 */
#include <config.h>

#include "tap/basic.h"
#include "test-tool-run.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NLINES 36000
#define INPUT "test-tool-input.jsonl"

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

/* The lines the input is made of. */
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

int main(void)
{
    plan(6);

    answer alone[NSMALL + NBIG];
    for (size_t k = 0; k < NSMALL; k++)
        alone[k] = answer_alone(small[k]);

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
    return 0;
}
