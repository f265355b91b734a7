/*
 * Fuzz target of the boxtoi command's line reader (tools/query.c).
 *
 * The input, up to its first newline, is one line of JSON Lines; a blank
 * line is skipped, as the command skips it.  tool_answer_line answers it,
 * twice, and the answer must be:
 *  - the same bytes both times, with the same return value;
 *  - one line: one JSON object (valid UTF-8) and a newline;
 *  - exactly the fields docs/query-format.md gives for its status, and a
 *    return value of 1 just for "error";
 *  - the line's id written back as the same JSON value (reals bit for bit)
 *    when the line is a JSON object that has one, and no id otherwise;
 *  - what this file reads the line as, with jansson's json_unpack and its
 *    own checks (a different reading from the tool's walk of the tree):
 *    "error" ("not valid JSON at column" when jansson cannot read it) when it
 *    is not a query or boxtoi_solve() does not answer it; otherwise the
 *    library's answer to that query, every number read back to the same
 *    double.
 * The input's first 8 bytes are also read as a double (in both byte
 * orders, and negated), which tool_format_double must write so that strtod and jansson read it back
 * exactly, in at most the fewest of 15, 16 and 17 significant digits that
 * do.
 */
#include "fuzz-tool.h"
#include "boxtoi.h"
#include "query.h"
#include "tap/basic.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINENO 7

static int fail(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return 1;
}

static int same_bits(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

/* Are a and b the same JSON value, reals compared bit for bit? */
static int same_json(const json_t *a, const json_t *b)
{
    if (json_typeof(a) != json_typeof(b))
        return 0;
    switch (json_typeof(a)) {
    case JSON_OBJECT: {
        const char *key;
        json_t *v;
        if (json_object_size(a) != json_object_size(b))
            return 0;
        json_object_foreach((json_t *)a, key, v) {
            const json_t *w = json_object_get(b, key);
            if (w == NULL || !same_json(v, w))
                return 0;
        }
        return 1;
    }
    case JSON_ARRAY:
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_json(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    case JSON_INTEGER:
        return json_integer_value(a) == json_integer_value(b);
    case JSON_REAL:
        return same_bits(json_real_value(a), json_real_value(b));
    default:
        return 1;
    }
}

/* ------------------------------------------------------------------ */
/* The line read as a query, with json_unpack                          */

static int read_motion(json_t *v, boxtoi_motion *m)
{
    if (v == NULL) {
        boxtoi_motion_identity(m);
        return 0;
    }
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n < 1 || n > BOXTOI_MAX_DEGREE + 1)
        return -1;
    memset(m, 0, sizeof *m);
    m->degree = (int)n - 1;
    for (size_t k = 0; k < n; k++) {
        double(*c)[4] = m->c[k];
        if (json_unpack_ex(json_array_get(v, k), NULL, JSON_STRICT,
                           "[[FFFF][FFFF][FFFF][FFFF]]", &c[0][0], &c[0][1], &c[0][2],
                           &c[0][3], &c[1][0], &c[1][1], &c[1][2], &c[1][3], &c[2][0],
                           &c[2][1], &c[2][2], &c[2][3], &c[3][0], &c[3][1], &c[3][2],
                           &c[3][3]))
            return -1;
        if (c[3][0] != 0 || c[3][1] != 0 || c[3][2] != 0)
            return -1;
    }
    return 0;
}

static int read_box(json_t *v, boxtoi_box *b, boxtoi_motion *m)
{
    json_t *motion = NULL;
    if (json_unpack_ex(v, NULL, JSON_STRICT, "{s:[FFF], s:[FFF], s?o}", "min", &b->lo[0],
                       &b->lo[1], &b->lo[2], "max", &b->hi[0], &b->hi[1], &b->hi[2],
                       "motion", &motion))
        return -1;
    for (int i = 0; i < 3; i++)
        if (!(b->lo[i] <= b->hi[i]))
            return -1;
    return read_motion(motion, m);
}

/* The query of a JSON object: 0, or -1 when the object is not one. */
static int read_query(json_t *root, boxtoi_query *q)
{
    json_t *a, *b, *id = NULL, *t0 = NULL, *t1 = NULL;
    *q = boxtoi_default_query();
    if (json_unpack_ex(root, NULL, JSON_STRICT, "{s:o, s:o, s?o, s?o, s?o}", "a", &a, "b", &b,
                       "id", &id, "t0", &t0, "t1", &t1))
        return -1;
    q->t0 = 0;
    q->t1 = 1;
    if ((t0 != NULL && json_unpack(t0, "F", &q->t0)) ||
        (t1 != NULL && json_unpack(t1, "F", &q->t1)) || q->t0 > q->t1)
        return -1;
    if (read_box(a, &q->a, &q->motion_a) || read_box(b, &q->b, &q->motion_b))
        return -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The answer                                                          */

static int bad_vec(json_t *v[3], const double want[3], const char *what, char *why, size_t n)
{
    for (int i = 0; i < 3; i++)
        if (!same_bits(json_number_value(v[i]), want[i]))
            return fail(why, n, "%s[%d] reads back as %.17g, the library says %.17g", what, i,
                        json_number_value(v[i]), want[i]);
    return 0;
}

/* The answer of a query the library answers: r, with every number exact. */
static int bad_result(json_t *ans, const boxtoi_result *r, char *why, size_t n)
{
    const char *status = json_string_value(json_object_get(ans, "status"));
    const char *want = r->state == BOXTOI_HIT    ? "hit"
                       : r->state == BOXTOI_MISS ? "miss"
                                                 : "overlap";
    if (strcmp(status, want) != 0)
        return fail(why, n, "status %s, the library says %s", status, want);
    json_t *id = NULL, *toi, *ex, *p[3], *nv[3];
    const char *st, *kind, *fa, *fb;
    if (r->state == BOXTOI_MISS) {
        if (json_unpack_ex(ans, NULL, JSON_STRICT, "{s?o, s:s, s:n, s:n}", "id", &id,
                           "status", &st, "toi", "exit"))
            return fail(why, n, "a miss, not as {id, status, toi: null, exit: null}");
        return 0;
    }
    if (json_unpack_ex(ans, NULL, JSON_STRICT,
                       "{s?o, s:s, s:o, s:o, s:{s:s, s:s, s:s, s:[ooo], s:[ooo]}}", "id", &id,
                       "status", &st, "toi", &toi, "exit", &ex, "contact", "kind", &kind,
                       "a", &fa, "b", &fb, "point", &p[0], &p[1], &p[2], "normal", &nv[0],
                       &nv[1], &nv[2]))
        return fail(why, n, "a %s, not as {id, status, toi, exit, contact: {kind, a, b, "
                            "point, normal}}", status);
    for (int i = 0; i < 3; i++)
        if (!json_is_number(p[i]) || !json_is_number(nv[i]))
            return fail(why, n, "a contact point or normal that is not 3 numbers");
    if (!json_is_number(toi) || !same_bits(json_number_value(toi), r->toi))
        return fail(why, n, "toi is not %.17g", r->toi);
    if (r->exit_after_t1 ? !json_is_null(ex)
                         : !json_is_number(ex) || !same_bits(json_number_value(ex), r->exit))
        return fail(why, n, "exit is not %s%.17g", r->exit_after_t1 ? "null, the contact lasts "
                            "through t1; " : "", r->exit);
    char name[BOXTOI_FEATURE_NAME_MAX];
    if (strcmp(kind, boxtoi_kind_name(r->kind)) != 0)
        return fail(why, n, "kind %s, the library says %s", kind, boxtoi_kind_name(r->kind));
    if (strcmp(fa, boxtoi_feature_name(r->feature_a, name, sizeof name)) != 0)
        return fail(why, n, "feature of a %s, the library says %s", fa, name);
    if (strcmp(fb, boxtoi_feature_name(r->feature_b, name, sizeof name)) != 0)
        return fail(why, n, "feature of b %s, the library says %s", fb, name);
    if (bad_vec(p, r->point, "point", why, n) || bad_vec(nv, r->normal, "normal", why, n))
        return 1;
    /* and that answer as boxtoi.h describes it: a unit normal */
    double len = sqrt(r->normal[0] * r->normal[0] + r->normal[1] * r->normal[1] +
                      r->normal[2] * r->normal[2]);
    if (!(fabs(len - 1.0) <= 1e-9))
        return fail(why, n, "a normal of length %.17g, not a unit vector", len);
    return 0;
}

/* Significant digits of a number as text (leading and trailing zeros left out). */
static int digits(const char *s)
{
    int count = 0, zeros = 0, started = 0;
    for (; *s && *s != 'e' && *s != 'E'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        if (*s == '0') {
            zeros += started;
            continue;
        }
        count += zeros + 1;
        zeros = 0;
        started = 1;
    }
    return count;
}

static int bad_format(double x, char *why, size_t n)
{
    char s[TOOL_DOUBLE_MAX + 16], t[64];
    memset(s, 'x', sizeof s);
    size_t len = tool_format_double(s, x);
    if (len >= TOOL_DOUBLE_MAX || s[len] != '\0' || strlen(s) != len)
        return fail(why, n, "tool_format_double(%a): %zu bytes, not a string of under %d",
                    x, len, TOOL_DOUBLE_MAX);
    if (!isfinite(x))
        return strcmp(s, "null") ? fail(why, n, "%a written as %s, not null", x, s) : 0;
    if (x == 0 && signbit(x))
        return strcmp(s, "-0.0") ? fail(why, n, "-0 written as %s, not -0.0", s) : 0;
    char *end;
    double y = strtod(s, &end);
    if (*end || !same_bits(x, y))
        return fail(why, n, "%a written as %s, which strtod reads as %a", x, s, y);
    json_t *j = json_loadb(s, len, JSON_DECODE_ANY, NULL);
    int back = j && json_is_number(j) && same_bits(json_number_value(j), x);
    json_decref(j);
    if (!back)
        return fail(why, n, "%a written as %s, which jansson does not read back", x, s);
    int p = 15;
    for (; p < 17; p++) {
        snprintf(t, sizeof t, "%.*e", p - 1, x);
        if (same_bits(strtod(t, NULL), x))
            break;
    }
    if (digits(s) > p)
        return fail(why, n, "%a written as %s, while %d digits read back (%s)", x, s, p, t);
    return 0;
}

/* ------------------------------------------------------------------ */

static void show(const char *what, const char *s, size_t len)
{
    char buf[700];
    size_t o = 0;
    for (size_t i = 0; i < len && o + 8 < sizeof buf; i++) {
        unsigned char c = (unsigned char)s[i];
        o += (size_t)snprintf(buf + o, sizeof buf - o, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x",
                              c);
    }
    diag("%s (%zu bytes): %s%s", what, len, buf, o + 8 >= sizeof buf ? "..." : "");
}

static int failed(const char *line, size_t len, const tool_buf *out)
{
    show("line", line, len);
    show("answer", out->data, out->len);
    return 1;
}

/* The checks of one answered line (the tool's arena is not reset meanwhile). */
static int bad_answer(const char *line, size_t len, const tool_buf *out, int rc, char *why,
                      size_t n)
{
    if (out->len == 0 || out->data[out->len - 1] != '\n' ||
        memchr(out->data, '\n', out->len - 1) != NULL)
        return fail(why, n, "the answer is not one line ending in a newline");
    json_error_t e;
    json_t *ans = json_loadb(out->data, out->len - 1, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &e);
    if (ans == NULL)
        return fail(why, n, "the answer is not JSON (column %d: %s)", e.column, e.text);
    const char *status = json_string_value(json_object_get(ans, "status"));
    if (status == NULL)
        return fail(why, n, "the answer has no status");
    int is_error = strcmp(status, "error") == 0;
    if (!is_error && strcmp(status, "hit") && strcmp(status, "miss") && strcmp(status, "overlap"))
        return fail(why, n, "status %s", status);
    if (rc != is_error)
        return fail(why, n, "returned %d for status %s", rc, status);

    /* What the line reads as. */
    json_t *root = memchr(line, '\0', len) ? NULL
                   : json_loadb(line, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, NULL);
    const json_t *id = json_is_object(root) ? json_object_get(root, "id") : NULL;
    const json_t *got_id = json_object_get(ans, "id");
    if (id == NULL ? got_id != NULL : got_id == NULL || !same_json(id, got_id))
        return fail(why, n, "the id is %s", id == NULL ? "echoed, the line has none"
                                            : got_id == NULL ? "missing"
                                                             : "not the line's");
    boxtoi_query q;
    boxtoi_result r = {0};
    int answered = json_is_object(root) && read_query(root, &q) == 0;
    if (answered) {
        r = boxtoi_solve(&q);
        answered = r.state == BOXTOI_HIT || r.state == BOXTOI_MISS || r.state == BOXTOI_OVERLAP;
    }
    if (!answered) {
        const char *msg;
        json_t *eid = NULL;
        char head[32];
        snprintf(head, sizeof head, "line %d: ", LINENO);
        if (!is_error)
            return fail(why, n, "status %s; the line is %s", status,
                        json_is_object(root) ? "not a query the library answers" : "not a query");
        if (json_unpack_ex(ans, NULL, JSON_STRICT, "{s?o, s:s, s:s}", "id", &eid, "status",
                           &status, "error", &msg))
            return fail(why, n, "an error, not as {id, status, error}");
        if (strncmp(msg, head, strlen(head)) != 0 || strlen(msg) <= strlen(head))
            return fail(why, n, "the error does not start with \"%s\" and say what", head);
        /* (The converse need not hold: an unknown field's name starts the
         * message, and it can be any text.) */
        if (root == NULL && strncmp(msg + strlen(head), "not valid JSON at column ", 25) != 0)
            return fail(why, n, "the error does not say \"not valid JSON at column\"; jansson "
                                "does not read the line");
    } else if (is_error) {
        return fail(why, n, "an error; the library answers %s", boxtoi_state_name(r.state));
    } else if (bad_result(ans, &r, why, n)) {
        return 1;
    }
    json_decref(root);
    json_decref(ans);
    return 0;
}

static void ready(void)
{
    static int done;
    if (!done) {
        tool_format_init();
        tool_json_init();
        done = 1;
    }
}

/* The input's line, up to its first newline. */
static size_t line_of(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    return nl ? (size_t)(nl - data) : size;
}

int fuzz_tool_status(const uint8_t *data, size_t size)
{
    ready();
    const char *line = (const char *)data;
    size_t len = line_of(data, size);
    if (tool_line_is_blank(line, len))
        return FUZZ_LINE_BLANK;
    tool_buf out = {0};
    tool_answer_line(line, len, NULL, LINENO, &out);
    json_t *ans = json_loadb(out.data, out.len, JSON_ALLOW_NUL, NULL);
    const char *st = json_string_value(json_object_get(ans, "status"));
    int status = st == NULL               ? FUZZ_LINE_ERROR
                 : !strcmp(st, "hit")     ? FUZZ_LINE_HIT
                 : !strcmp(st, "miss")    ? FUZZ_LINE_MISS
                 : !strcmp(st, "overlap") ? FUZZ_LINE_OVERLAP
                                          : FUZZ_LINE_ERROR;
    json_decref(ans);
    tool_buf_free(&out);
    return status;
}

int fuzz_tool_check(const uint8_t *data, size_t size, char *why, size_t n)
{
    ready();
    if (size >= 8) {
        /* The first 8 bytes in both orders, and negated. */
        uint8_t rev[8];
        double x[2];
        for (int i = 0; i < 8; i++)
            rev[i] = data[7 - i];
        memcpy(&x[0], data, sizeof x[0]);
        memcpy(&x[1], rev, sizeof x[1]);
        for (int i = 0; i < 4; i++)
            if (bad_format(i & 2 ? -x[i & 1] : x[i & 1], why, n))
                return 1;
    }
    const char *line = (const char *)data;
    size_t len = line_of(data, size);
    if (tool_line_is_blank(line, len))
        return 0;
    tool_buf out = {0}, again = {0};
    int rc = tool_answer_line(line, len, NULL, LINENO, &out);
    int rc2 = tool_answer_line(line, len, NULL, LINENO, &again);
    int bad = 0;
    if (rc != rc2 || out.len != again.len || memcmp(out.data, again.data, out.len) != 0)
        bad = fail(why, n, "answered twice, the answers differ");
    else if (bad_answer(line, len, &out, rc, why, n))
        bad = 1;
    if (bad)
        failed(line, len, &out);
    tool_buf_free(&out);
    tool_buf_free(&again);
    return bad;
}
