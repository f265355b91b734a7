/*
 * A few thousand generated queries through the boxtoi command, each answer
 * compared with the library's own answer to the same query: the command
 * must read every number exactly, write every number so that it reads back
 * to the same double, and keep input order with --threads.
 *
 * The queries mix identity, constant, rigid rational (degree 2 to 4),
 * affine and homogeneously scaled motions, zero-extent boxes, intervals
 * with t0 = t1, and some motions whose w(t) vanishes (error answers).
 *
 * The command's number writer (tools/query.c) is also checked on its own,
 * over doubles of every exponent: its fast path, which rounds in long
 * double, must write the same text as its plain path (printf's digits, each
 * read back by strtod), which is what it writes where long double is no
 * wider than double; and that text must read back to the same double.
 */
#include <config.h>

#include "query.h"
#include "tap/basic.h"
#include "test-tool-run.h"

#include <boxtoi.h>
#include <jansson.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NQUERIES 3000

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t next_bits(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_bits() >> 11) / 9007199254740992.0;
}

static void random_box(boxtoi_box *b)
{
    for (int i = 0; i < 3; i++) {
        b->lo[i] = uniform(-1, 0);
        double size = uniform(0, 1) < 0.05 ? 0 : uniform(0.05, 1.5);
        b->hi[i] = b->lo[i] + size;
    }
}

/* A motion of one of several kinds; `start` is where it begins along x. */
static void random_motion(boxtoi_motion *m, double start, double speed)
{
    double u = uniform(0, 1);
    if (u < 0.1) {
        double c[4][4] = {{1, 0, 0, start}, {0, 1, 0, uniform(-0.5, 0.5)},
                          {0, 0, 1, uniform(-0.5, 0.5)}, {0, 0, 0, 1}};
        boxtoi_motion_constant(m, c);
    } else if (u < 0.75) {
        /* rigid: quaternion linear in t, position of degree 0..2 */
        double q[2][4], p[3][3];
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 4; i++)
                q[k][i] = uniform(-1, 1);
        q[0][0] += 2; /* keeps |q| away from 0 */
        int pdeg = (int)uniform(0, 3);
        if (pdeg > 2)
            pdeg = 2;
        p[0][0] = start;
        p[0][1] = uniform(-0.5, 0.5);
        p[0][2] = uniform(-0.5, 0.5);
        for (int k = 1; k <= 2; k++)
            for (int i = 0; i < 3; i++)
                p[k][i] = uniform(-0.5, 0.5);
        p[1][0] = speed;
        if (pdeg == 0) {
            pdeg = 1; /* keep the motion moving */
        }
        if (boxtoi_motion_rigid(m, (const double(*)[4])q, 1,
                                (const double(*)[3])p, pdeg) != BOXTOI_REASON_NONE)
            bail("boxtoi_motion_rigid refused a small degree");
    } else {
        /* affine, linear in t: near-identity 3x3 part plus a translation */
        memset(m, 0, sizeof *m);
        m->degree = 1;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                m->c[0][r][c] = (r == c ? 1 : 0) + uniform(-0.2, 0.2);
                m->c[1][r][c] = uniform(-0.2, 0.2);
            }
        }
        m->c[0][0][3] = start;
        m->c[1][0][3] = speed;
        m->c[0][3][3] = 1;
    }
    if (uniform(0, 1) < 0.15) {
        /* the same path with every entry times w(t) = 1 + t / 2 */
        boxtoi_motion s;
        memset(&s, 0, sizeof s);
        s.degree = 1;
        for (int i = 0; i < 4; i++) {
            s.c[0][i][i] = 1;
            s.c[1][i][i] = 0.5;
        }
        if (boxtoi_motion_multiply(m, m, &s) != BOXTOI_REASON_NONE)
            bail("boxtoi_motion_multiply refused a small degree");
    }
}

static void random_query(boxtoi_query *q)
{
    *q = boxtoi_default_query();
    random_box(&q->a);
    random_box(&q->b);
    random_motion(&q->motion_a, uniform(-3, -1), uniform(0.5, 4));
    if (uniform(0, 1) < 0.3)
        boxtoi_motion_identity(&q->motion_b);
    else
        random_motion(&q->motion_b, uniform(0, 1), uniform(-1, 1));
    q->t0 = uniform(0, 1) < 0.5 ? 0 : uniform(0, 0.3);
    q->t1 = uniform(0, 1) < 0.02 ? q->t0 : q->t0 + uniform(0.2, 1.5);
    if (uniform(0, 1) < 0.03) {
        /* w(t) = 1 - t / mid vanishes at the middle of the interval */
        if (q->t1 == q->t0)
            q->t1 = q->t0 + 1;
        double mid = 0.5 * (q->t0 + q->t1);
        boxtoi_motion *m = uniform(0, 1) < 0.5 ? &q->motion_a : &q->motion_b;
        boxtoi_motion_identity(m);
        m->degree = 1;
        m->c[1][3][3] = -1 / mid;
    }
}

static size_t write_box(char *s, size_t n, const char *name, const boxtoi_box *b,
                        const boxtoi_motion *m, int omit_motion)
{
    size_t k = (size_t)snprintf(s, n,
                                "\"%s\": {\"min\": [%.17g, %.17g, %.17g], "
                                "\"max\": [%.17g, %.17g, %.17g]",
                                name, b->lo[0], b->lo[1], b->lo[2], b->hi[0],
                                b->hi[1], b->hi[2]);
    if (!omit_motion) {
        k += (size_t)snprintf(s + k, n - k, ", \"motion\": [");
        for (int d = 0; d <= m->degree; d++) {
            k += (size_t)snprintf(s + k, n - k, "%s[", d ? ", " : "");
            for (int r = 0; r < 4; r++)
                k += (size_t)snprintf(s + k, n - k, "%s[%.17g, %.17g, %.17g, %.17g]",
                                      r ? ", " : "", m->c[d][r][0], m->c[d][r][1],
                                      m->c[d][r][2], m->c[d][r][3]);
            k += (size_t)snprintf(s + k, n - k, "]");
        }
        k += (size_t)snprintf(s + k, n - k, "]");
    }
    k += (size_t)snprintf(s + k, n - k, "}");
    return k;
}

static int is_identity(const boxtoi_motion *m)
{
    boxtoi_motion id;
    boxtoi_motion_identity(&id);
    return m->degree == 0 && memcmp(m->c[0], id.c[0], sizeof id.c[0]) == 0;
}

static int same_double(const json_t *v, double want)
{
    if (!json_is_number(v))
        return 0;
    double got = json_number_value(v);
    return got == want && signbit(got) == signbit(want);
}

static int same_vec(const json_t *v, const double want[3])
{
    if (json_array_size(v) != 3)
        return 0;
    for (int i = 0; i < 3; i++)
        if (!same_double(json_array_get(v, (size_t)i), want[i]))
            return 0;
    return 1;
}

static double from_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/*
 * tool_format_double against tool_format_double_plain on n doubles drawn
 * by draw(k): the same text, and strtod reads it back bit for bit.
 */
static void check_writer(const char *what, int n, double (*draw)(int))
{
    int differ = 0, unread = 0;
    for (int k = 0; k < n; k++) {
        double x = draw(k), y;
        char fast[TOOL_DOUBLE_MAX], plain[TOOL_DOUBLE_MAX];
        size_t lf = tool_format_double(fast, x), lp = tool_format_double_plain(plain, x);
        if ((lf != lp || strcmp(fast, plain)) && differ++ < 3)
            diag("%a: written as %s, the plain path writes %s", x, fast, plain);
        int back;
        if (!isfinite(x)) {
            back = strcmp(fast, "null") == 0;
        } else {
            y = strtod(fast, NULL);
            back = memcmp(&x, &y, sizeof x) == 0;
        }
        if (!back && unread++ < 3)
            diag("%a: written as %s, which does not read back", x, fast);
    }
    ok(differ == 0 && unread == 0,
       "number writer, %d %s: the plain path's text (%d differ), read back (%d not)", n,
       what, differ, unread);
}

/* any bit pattern: every exponent, subnormals, NaN and infinities */
static double draw_bits(int k)
{
    (void)k;
    return from_bits(next_bits());
}

/* uniform in [0, 1), as times and coordinates mostly are */
static double draw_unit(int k)
{
    (void)k;
    return uniform(0.0, 1.0);
}

/* powers of two (where the spacing below is half the one above), their
   neighbours, and 16-digit numbers ending in 5 (ties at 15 digits, to the
   rounding of the power of ten) */
static double draw_edges(int k)
{
    double p = ldexp(1.0, (int)(next_bits() % 2098) - 1074);
    switch (k % 4) {
    case 0:
        return p;
    case 1:
        return nextafter(p, 0.0);
    case 2:
        return -nextafter(p, INFINITY);
    default:
        return ((double)(next_bits() % 1000000000000000ULL) * 10.0 + 5.0) *
               pow(10.0, (double)((int)(next_bits() % 40) - 30));
    }
}

int main(void)
{
    plan(0);
    tool_format_init();
    check_writer("bit patterns", 200000, draw_bits);
    check_writer("in [0, 1)", 200000, draw_unit);
    check_writer("powers of two, their neighbours and ties", 100000, draw_edges);

    static boxtoi_query qs[NQUERIES];
    static boxtoi_result rs[NQUERIES];
    size_t cap = (size_t)NQUERIES * 4096;
    char *text = malloc(cap);
    if (text == NULL)
        bail("out of memory");
    size_t n = 0;
    for (int i = 0; i < NQUERIES; i++) {
        boxtoi_query *q = &qs[i];
        random_query(q);
        rs[i] = boxtoi_solve(q);
        if (i % 7 == 3)
            n += (size_t)snprintf(text + n, cap - n, "{\"id\": \"q%d\", ", i);
        else
            n += (size_t)snprintf(text + n, cap - n, "{\"id\": %d, ", i);
        n += write_box(text + n, cap - n, "a", &q->a, &q->motion_a,
                       is_identity(&q->motion_a));
        n += (size_t)snprintf(text + n, cap - n, ", ");
        n += write_box(text + n, cap - n, "b", &q->b, &q->motion_b,
                       is_identity(&q->motion_b));
        if (q->t0 == 0 && q->t1 == 1)
            n += (size_t)snprintf(text + n, cap - n, "}\n");
        else if (q->t0 == 0)
            n += (size_t)snprintf(text + n, cap - n, ", \"t1\": %.17g}\n", q->t1);
        else
            n += (size_t)snprintf(text + n, cap - n, ", \"t0\": %.17g, \"t1\": %.17g}\n",
                                  q->t0, q->t1);
        if (cap - n < 8192)
            bail("query buffer too small");
    }
    tool_write_file("test-tool-roundtrip.jsonl", text);
    free(text);

    tool_run one, many;
    tool_run_cmd(&one, "test-tool-roundtrip.jsonl", NULL);
    tool_run_cmd(&many, "--threads 4 test-tool-roundtrip.jsonl", NULL);
    if (!getenv("KEEP")) /* KEEP=1 leaves the generated file for a look */
        remove("test-tool-roundtrip.jsonl");

    if (!is_int(one.nlines, NQUERIES, "one answer per query"))
        bail("cannot compare answers: %d lines for %d queries", one.nlines, NQUERIES);
    ok(one.out_len == many.out_len && memcmp(one.out, many.out, one.out_len) == 0,
       "--threads 4 writes the same bytes as one thread");

    int count[6] = {0};
    int bad_status = 0, bad_id = 0, bad_time = 0, bad_contact = 0, bad_error = 0;
    int expect_errors = 0;
    for (int i = 0; i < NQUERIES; i++) {
        const boxtoi_result *r = &rs[i];
        json_t *a = json_loads(one.lines[i], 0, NULL);
        if (a == NULL) {
            bad_status++;
            diag("line %d: not JSON: %s", i + 1, one.lines[i]);
            continue;
        }
        if ((unsigned)r->state < 6)
            count[r->state]++;
        const char *status = json_string_value(json_object_get(a, "status"));
        const char *want = r->state == BOXTOI_HIT       ? "hit"
                           : r->state == BOXTOI_MISS    ? "miss"
                           : r->state == BOXTOI_OVERLAP ? "overlap"
                                                        : "error";
        if (status == NULL || strcmp(status, want) != 0) {
            bad_status++;
            if (bad_status < 5)
                diag("line %d: library says %s: %s", i + 1, want, one.lines[i]);
            json_decref(a);
            continue;
        }
        const json_t *id = json_object_get(a, "id");
        if (i % 7 == 3) {
            char w[16];
            snprintf(w, sizeof w, "q%d", i);
            bad_id += !json_is_string(id) || strcmp(json_string_value(id), w) != 0;
        } else {
            bad_id += !json_is_integer(id) || json_integer_value(id) != i;
        }
        if (strcmp(want, "error") == 0) {
            expect_errors = 1;
            const char *msg = json_string_value(json_object_get(a, "error"));
            char where[32];
            snprintf(where, sizeof where, "line %d of ", i + 1);
            if (msg == NULL || strncmp(msg, where, strlen(where)) != 0 ||
                (r->state == BOXTOI_INVALID &&
                 strstr(msg, boxtoi_reason_message(r->reason)) == NULL)) {
                bad_error++;
                diag("line %d: %s", i + 1, one.lines[i]);
            }
            json_decref(a);
            continue;
        }
        const json_t *toi = json_object_get(a, "toi");
        const json_t *ex = json_object_get(a, "exit");
        if (r->state == BOXTOI_MISS) {
            bad_time += !json_is_null(toi) || !json_is_null(ex);
            bad_contact += json_object_get(a, "contact") != NULL;
        } else {
            int t_ok = same_double(toi, r->toi) &&
                       (r->exit_after_t1 ? json_is_null(ex) : same_double(ex, r->exit));
            if (!t_ok) {
                bad_time++;
                if (bad_time < 5)
                    diag("line %d: toi %.17g exit %.17g (after t1: %d): %s", i + 1,
                         r->toi, r->exit, r->exit_after_t1, one.lines[i]);
            }
            const json_t *c = json_object_get(a, "contact");
            char fa[BOXTOI_FEATURE_NAME_MAX], fb[BOXTOI_FEATURE_NAME_MAX];
            boxtoi_feature_name(r->feature_a, fa, sizeof fa);
            boxtoi_feature_name(r->feature_b, fb, sizeof fb);
            const char *kind = json_string_value(json_object_get(c, "kind"));
            const char *ga = json_string_value(json_object_get(c, "a"));
            const char *gb = json_string_value(json_object_get(c, "b"));
            if (!kind || !ga || !gb || strcmp(kind, boxtoi_kind_name(r->kind)) ||
                strcmp(ga, fa) || strcmp(gb, fb) ||
                !same_vec(json_object_get(c, "point"), r->point) ||
                !same_vec(json_object_get(c, "normal"), r->normal)) {
                bad_contact++;
                if (bad_contact < 5)
                    diag("line %d: contact differs: %s", i + 1, one.lines[i]);
            }
        }
        json_decref(a);
    }
    diag("library answers: %d hit, %d miss, %d overlap, %d invalid, %d failed",
         count[BOXTOI_HIT], count[BOXTOI_MISS], count[BOXTOI_OVERLAP],
         count[BOXTOI_INVALID], count[BOXTOI_FAILED]);
    ok(count[BOXTOI_HIT] > 100 && count[BOXTOI_MISS] > 100 &&
           count[BOXTOI_OVERLAP] > 100 && expect_errors,
       "the generated file has hits, misses, overlaps and errors");
    is_int(bad_status, 0, "status as the library's");
    is_int(bad_id, 0, "ids echoed");
    is_int(bad_time, 0, "toi and exit read back to the library's doubles");
    is_int(bad_contact, 0, "kind, features, point and normal as the library's");
    is_int(bad_error, 0, "error answers carry the line and the library's reason");
    is_int(one.status, expect_errors ? 1 : 0, "exit status");
    is_int(many.status, one.status, "--threads 4: same exit status");
    tool_run_free(&one);
    tool_run_free(&many);
    return tap_failures() ? 1 : 0;
}
