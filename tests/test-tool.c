/*
 * The boxtoi command: every query field, every error, the command line.
 *
 * Contact answers are checked against closed forms derived by hand (boxes
 * sliding along x, rotated so that a chosen vertex or edge leads); error
 * answers against tests/data/tool/errors.expect, one expected message part
 * per non-blank line of errors.jsonl.
 */
#define _GNU_SOURCE /* M_PI; sched_setaffinity */
#include <config.h>

#include "tap/basic.h"
#include "query.h"
#include "test-tool-run.h"

#include <boxtoi.h>
#include <jansson.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Writing queries                                                     */

typedef struct mat4 {
    double m[4][4];
} mat4;

static char qbuf[65536];

static void put(size_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(qbuf + *n, sizeof qbuf - *n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof qbuf - *n)
        bail("query text too long");
    *n += (size_t)k;
}

static void put_box(size_t *n, const char *name, const double lo[3],
                    const double hi[3], const mat4 *c, int nmat)
{
    put(n, "\"%s\": {\"min\": [%.17g, %.17g, %.17g], \"max\": [%.17g, %.17g, %.17g]",
        name, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    if (nmat > 0) {
        put(n, ", \"motion\": [");
        for (int k = 0; k < nmat; k++) {
            put(n, "%s[", k ? ", " : "");
            for (int r = 0; r < 4; r++)
                put(n, "%s[%.17g, %.17g, %.17g, %.17g]", r ? ", " : "",
                    c[k].m[r][0], c[k].m[r][1], c[k].m[r][2], c[k].m[r][3]);
            put(n, "]");
        }
        put(n, "]");
    }
    put(n, "}");
}

/* Rotation matrix of the unit quaternion (w, x, y, z), in a 4x4 with
 * translation (tx, ty, tz) and w = 1. */
static mat4 pose(const double q[4], double tx, double ty, double tz)
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    mat4 r = {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), tx},
               {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), ty},
               {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), tz},
               {0, 0, 0, 1}}};
    return r;
}

static mat4 translation(double tx, double ty, double tz, double w)
{
    mat4 r = {{{0, 0, 0, tx}, {0, 0, 0, ty}, {0, 0, 0, tz}, {0, 0, 0, w}}};
    return r;
}

static const double ident_q[4] = {1, 0, 0, 0};

/* ------------------------------------------------------------------ */
/* Reading answers                                                     */

static json_t *parse_line(const char *line)
{
    json_error_t e;
    json_t *j = json_loads(line, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    if (j == NULL || !json_is_object(j)) {
        diag("answer is not a JSON object: %s", line);
        json_decref(j);
        return NULL;
    }
    return j;
}

static double num(const json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : "(absent)";
}

/* One answered contact case, checked against its closed form. */
typedef struct expect {
    const char *status;
    double toi, exit;       /* NaN: must be null */
    const char *kind, *fa, *fb;
    double point[3], normal[3];
    int check_point;
} expect;

static void check_answer(const char *what, const char *line, const expect *x)
{
    json_t *j = parse_line(line);
    if (j == NULL) {
        ok(0, "%s: answer parses", what);
        return;
    }
    is_string(str(j, "status"), x->status, "%s: status", what);
    const json_t *toi = json_object_get(j, "toi");
    const json_t *ex = json_object_get(j, "exit");
    if (isnan(x->toi))
        ok(json_is_null(toi), "%s: toi is null", what);
    else
        is_double(num(toi), x->toi, 1e-9, "%s: toi", what);
    if (isnan(x->exit))
        ok(json_is_null(ex), "%s: exit is null", what);
    else
        is_double(num(ex), x->exit, 1e-9, "%s: exit", what);
    const json_t *c = json_object_get(j, "contact");
    if (x->kind == NULL) {
        ok(c == NULL, "%s: no contact for a miss", what);
    } else if (!json_is_object(c)) {
        ok(0, "%s: contact object present", what);
    } else {
        /* "*": face on face, where the pair of features named is a
         * matter of choice; any kind will do. */
        if (strcmp(x->kind, "*") == 0) {
            const char *k = str(c, "kind");
            ok(strcmp(k, "vertex-face") == 0 || strcmp(k, "face-vertex") == 0 ||
                   strcmp(k, "edge-edge") == 0,
               "%s: contact kind is one of the three", what);
        } else {
            is_string(str(c, "kind"), x->kind, "%s: contact kind", what);
        }
        if (x->fa)
            is_string(str(c, "a"), x->fa, "%s: feature of a", what);
        if (x->fb)
            is_string(str(c, "b"), x->fb, "%s: feature of b", what);
        const json_t *p = json_object_get(c, "point");
        const json_t *n = json_object_get(c, "normal");
        ok(json_array_size(p) == 3 && json_array_size(n) == 3,
           "%s: point and normal have 3 numbers", what);
        double len = 0;
        for (int i = 0; i < 3; i++)
            len += num(json_array_get(n, (size_t)i)) * num(json_array_get(n, (size_t)i));
        is_double(sqrt(len), 1.0, 1e-12, "%s: normal is a unit vector", what);
        for (int i = 0; i < 3; i++)
            is_double(num(json_array_get(n, (size_t)i)), x->normal[i], 1e-7,
                      "%s: normal[%d]", what, i);
        /* check_point 2: face on face, the point is on the contact plane
         * x = point[0] within the shared square [0,1]^2 in y and z. */
        if (x->check_point == 2) {
            double py = num(json_array_get(p, 1)), pz = num(json_array_get(p, 2));
            is_double(num(json_array_get(p, 0)), x->point[0], 1e-7,
                      "%s: point on the contact plane", what);
            ok(py >= -1e-9 && py <= 1 + 1e-9 && pz >= -1e-9 && pz <= 1 + 1e-9,
               "%s: point within the shared face (y %.17g, z %.17g)", what, py, pz);
        }
        if (x->check_point == 1)
            for (int i = 0; i < 3; i++)
                is_double(num(json_array_get(p, (size_t)i)), x->point[i], 1e-7,
                          "%s: point[%d]", what, i);
    }
    json_decref(j);
}

/* Run one query line through the tool and check the single answer. */
static void run_case(const char *what, const char *query, const expect *x)
{
    tool_run r;
    char *in = malloc(strlen(query) + 2);
    if (in == NULL)
        bail("out of memory");
    sprintf(in, "%s\n", query);
    tool_run_cmd(&r, "", in);
    free(in);
    if (!is_int(r.nlines, 1, "%s: one answer line", what) || r.nlines < 1) {
        diag("output: %s", r.out);
        tool_run_free(&r);
        return;
    }
    is_int(r.status, strcmp(x->status, "error") ? 0 : 1, "%s: exit status", what);
    check_answer(what, r.lines[0], x);
    tool_run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Hand-derived contact cases                                          */

static void test_contacts(void)
{
    static const double unit_lo[3] = {0, 0, 0}, unit_hi[3] = {1, 1, 1};
    static const double cube_lo[3] = {-1, -1, -1}, cube_hi[3] = {1, 1, 1};
    size_t n;
    mat4 c[9];

    /*
     * 1. Linear slide, face on face.  a = [0,1]^3 at x offset -3 + 4t; b
     * covers x in [1.5, 2].  a's face X' reaches b's face X when
     * -2 + 4t = 1.5: t = 0.875; a leaves b when -3 + 4t = 2: t = 1.25.
     */
    {
        const double blo[3] = {1.5, 0, 0}, bhi[3] = {2, 1, 1};
        c[0] = pose(ident_q, -3, 0, 0);
        c[1] = translation(4, 0, 0, 0);
        n = 0;
        put(&n, "{\"id\": \"slide\", ");
        put_box(&n, "a", unit_lo, unit_hi, c, 2);
        put(&n, ", ");
        put_box(&n, "b", blo, bhi, NULL, 0);
        put(&n, "}");
        expect x = {"hit", 0.875, NAN, "*", NULL, NULL,
                    {1.5, 0, 0}, {1, 0, 0}, 2};
        run_case("linear slide, default interval", qbuf, &x);

        /* The same with t0, t1 explicit: the contact ends inside. */
        n--; /* drop the closing brace */
        put(&n, ", \"t0\": 0.5, \"t1\": 2}");
        expect y = x;
        y.exit = 1.25;
        run_case("linear slide, t0 = 0.5, t1 = 2", qbuf, &y);

        n = strlen(qbuf) - strlen(", \"t0\": 0.5, \"t1\": 2}");
        put(&n, ", \"t0\": 1, \"t1\": 2}");
        /* Starting inside: an overlap at t0; the features are not pinned
         * down (the boxes share a whole face region). */
        {
            tool_run r;
            char in[70000];
            snprintf(in, sizeof in, "%s\n", qbuf);
            tool_run_cmd(&r, "", in);
            json_t *j = r.nlines == 1 ? parse_line(r.lines[0]) : NULL;
            is_string(j ? str(j, "status") : "", "overlap", "overlap at t0: status");
            is_double(j ? num(json_object_get(j, "toi")) : NAN, 1.0, 0,
                      "overlap at t0: toi is t0");
            is_double(j ? num(json_object_get(j, "exit")) : NAN, 1.25, 1e-9,
                      "overlap at t0: exit");
            ok(j && json_is_object(json_object_get(j, "contact")),
               "overlap at t0: contact present");
            json_decref(j);
            tool_run_free(&r);
        }

        /* Stopping before the contact: a miss. */
        n = strlen(qbuf) - strlen(", \"t0\": 1, \"t1\": 2}");
        put(&n, ", \"t1\": 0.5}");
        expect m = {"miss", NAN, NAN, NULL, NULL, NULL, {0, 0, 0}, {0, 0, 0}, 0};
        run_case("linear slide, t1 = 0.5: miss", qbuf, &m);
    }

    /*
     * 2. The same slide written with w(t) = 1 + t: every entry of the
     * first case times (1 + t), so the motion has degree 2 and the same
     * world path; toi 0.875 again.
     */
    {
        const double blo[3] = {1.5, 0, 0}, bhi[3] = {2, 1, 1};
        memset(c, 0, sizeof c);
        for (int i = 0; i < 4; i++) {
            c[0].m[i][i] = 1;
            c[1].m[i][i] = 1;
        }
        /* (1 + t)(-3 + 4t) = -3 + t + 4t^2 */
        c[0].m[0][3] = -3;
        c[1].m[0][3] = 1;
        c[2].m[0][3] = 4;
        n = 0;
        put(&n, "{");
        put_box(&n, "a", unit_lo, unit_hi, c, 3);
        put(&n, ", ");
        put_box(&n, "b", blo, bhi, NULL, 0);
        put(&n, ", \"t1\": 2}");
        expect x = {"hit", 0.875, 1.25, "*", NULL, NULL,
                    {1.5, 0, 0}, {1, 0, 0}, 2};
        run_case("homogeneous w(t) = 1 + t", qbuf, &x);

        /* Padded to degree 8 with zero matrices: same answer. */
        n = 0;
        put(&n, "{");
        put_box(&n, "a", unit_lo, unit_hi, c, 9);
        put(&n, ", ");
        put_box(&n, "b", blo, bhi, NULL, 0);
        put(&n, ", \"t1\": 2}");
        run_case("nine coefficient matrices (degree 8)", qbuf, &x);
    }

    /*
     * 3. Quadratic slide: a = [0,1]^3 at x offset -2 + 3t^2 against b
     * covering x in [2, 3]: contact when -1 + 3t^2 = 2 (t = 1), exit when
     * -2 + 3t^2 = 3 (t = sqrt(5/3)).
     */
    {
        const double blo[3] = {2, -1, -1}, bhi[3] = {3, 2, 2};
        c[0] = pose(ident_q, -2, 0, 0);
        c[1] = translation(0, 0, 0, 0);
        c[2] = translation(3, 0, 0, 0);
        n = 0;
        put(&n, "{\"id\": 3, ");
        put_box(&n, "a", unit_lo, unit_hi, c, 3);
        put(&n, ", ");
        put_box(&n, "b", blo, bhi, NULL, 0);
        put(&n, ", \"t0\": 0, \"t1\": 2}");
        expect x = {"hit", 1.0, sqrt(5.0 / 3.0), "*", NULL, NULL,
                    {2, 0, 0}, {1, 0, 0}, 2};
        run_case("quadratic slide, face of b covers a's face", qbuf, &x);
    }

    /*
     * 4. Vertex on face: a = [-1,1]^3 turned so that its vertex X'Y'Z'
     * (direction (1,1,1)) points along +x; the vertex is then sqrt(3)
     * ahead of the centre, which moves along x as -5 + 4t.  b is the slab
     * x in [0, 1].  Contact at (5 - sqrt(3)) / 4, at the origin.
     * The turn: axis (0, 1, -1)/sqrt(2), angle acos(1/sqrt(3)).
     */
    double qv[4];
    {
        double ang = acos(1 / sqrt(3.0));
        double s = sin(ang / 2) / sqrt(2.0);
        qv[0] = cos(ang / 2);
        qv[1] = 0;
        qv[2] = s;
        qv[3] = -s;
        const double blo[3] = {0, -10, -10}, bhi[3] = {1, 10, 10};
        c[0] = pose(qv, -5, 0, 0);
        c[1] = translation(4, 0, 0, 0);
        n = 0;
        put(&n, "{\"id\": 4, ");
        put_box(&n, "a", cube_lo, cube_hi, c, 2);
        put(&n, ", ");
        put_box(&n, "b", blo, bhi, NULL, 0);
        put(&n, "}");
        expect x = {"hit", (5 - sqrt(3.0)) / 4, NAN, "vertex-face", "X'Y'Z'",
                    "X", {0, 0, 0}, {1, 0, 0}, 1};
        run_case("vertex of a on face of b", qbuf, &x);
    }

    /*
     * 5. Face under vertex: the mirror case.  a is the slab x in [-1, 0];
     * b is the turned cube, centre at 5 - 4t, its vertex XYZ (direction
     * (-1,-1,-1) turned to -x) sqrt(3) behind the centre.
     */
    {
        const double alo[3] = {-1, -10, -10}, ahi[3] = {0, 10, 10};
        c[0] = pose(qv, 5, 0, 0);
        c[1] = translation(-4, 0, 0, 0);
        n = 0;
        put(&n, "{\"id\": 5, ");
        put_box(&n, "a", alo, ahi, NULL, 0);
        put(&n, ", ");
        put_box(&n, "b", cube_lo, cube_hi, c, 2);
        put(&n, "}");
        expect x = {"hit", (5 - sqrt(3.0)) / 4, NAN, "face-vertex", "X'",
                    "XYZ", {0, 0, 0}, {1, 0, 0}, 1};
        run_case("face of a under vertex of b", qbuf, &x);
    }

    /*
     * 6. Edge on edge: a = [-1,1]^3 turned 45 degrees about z, so its edge
     * X'-Y (running along z) leads at sqrt(2) ahead of the centre, which
     * moves as -5 + 4t.  b = [-1,1]^3 turned 45 degrees about y, centred
     * at (2, 0, 0): its edge X-Z (running along y) trails at 2 - sqrt(2).
     * Contact when -5 + 4t + sqrt(2) = 2 - sqrt(2): t = (7 - 2 sqrt(2))/4,
     * at (2 - sqrt(2), 0, 0).
     */
    {
        double h = sin(M_PI / 8), k = cos(M_PI / 8);
        const double qa[4] = {k, 0, 0, h}, qb[4] = {k, 0, h, 0};
        mat4 cb[1];
        c[0] = pose(qa, -5, 0, 0);
        c[1] = translation(4, 0, 0, 0);
        cb[0] = pose(qb, 2, 0, 0);
        n = 0;
        put(&n, "{\"id\": 6, ");
        put_box(&n, "a", cube_lo, cube_hi, c, 2);
        put(&n, ", ");
        put_box(&n, "b", cube_lo, cube_hi, cb, 1);
        put(&n, ", \"t1\": 3}");
        expect x = {"hit", (7 - 2 * sqrt(2.0)) / 4, (7 + 2 * sqrt(2.0)) / 4,
                    "edge-edge", "X'-Y", "X-Z", {2 - sqrt(2.0), 0, 0},
                    {1, 0, 0}, 1};
        run_case("edge of a on edge of b", qbuf, &x);
    }
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

static const char *reason_text(const char *token)
{
    if (strcmp(token, "W_VANISHES") == 0)
        return boxtoi_reason_message(BOXTOI_REASON_W_VANISHES);
    if (strcmp(token, "SINGULAR") == 0)
        return boxtoi_reason_message(BOXTOI_REASON_SINGULAR);
    if (strcmp(token, "OUT_OF_RANGE") == 0)
        return boxtoi_reason_message(BOXTOI_REASON_OUT_OF_RANGE);
    return NULL;
}

static void test_errors(const char *args, const char *label, int from_stdin)
{
    char path[4200];
    snprintf(path, sizeof path, "%s", tool_data_path("errors.jsonl"));
    FILE *f = fopen(tool_data_path("errors.expect"), "r");
    FILE *in = fopen(path, "r");
    if (f == NULL || in == NULL)
        bail("cannot read the error data in %s", path);

    tool_run r;
    char cmd[8400];
    if (from_stdin)
        snprintf(cmd, sizeof cmd, "%s - < '%s'", args, path);
    else
        snprintf(cmd, sizeof cmd, "%s '%s'", args, path);
    tool_run_cmd(&r, cmd, NULL);
    is_int(r.status, 1, "%s: exit status 1 when some line is an error", label);

    char expect[1024], line[70000];
    long lineno = 0;
    int i = 0, bad = 0, checked = 0;
    while (fgets(expect, sizeof expect, f)) {
        expect[strcspn(expect, "\n")] = '\0';
        /* the next non-blank input line */
        do {
            if (!fgets(line, sizeof line, in))
                bail("errors.jsonl has fewer lines than errors.expect");
            lineno++;
        } while (strspn(line, " \t\r\n") == strlen(line));
        line[strcspn(line, "\n")] = '\0';
        if (i >= r.nlines) {
            bad++;
            diag("no answer for line %ld", lineno);
            i++;
            continue;
        }
        json_t *ans = parse_line(r.lines[i]);
        i++;
        checked++;
        if (ans == NULL) {
            bad++;
            continue;
        }
        /* The id, when the line is an object with one, comes back. */
        json_t *q = json_loads(line,
                               JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
                               NULL);
        json_t *qid = json_is_object(q) ? json_object_get(q, "id") : NULL;
        json_t *aid = json_object_get(ans, "id");
        if ((qid == NULL) != (aid == NULL) || (qid && !json_equal(qid, aid))) {
            bad++;
            diag("line %ld: id not echoed: %s", lineno, r.lines[i - 1]);
        }
        json_decref(q);
        if (strcmp(expect, "@OK") == 0) {
            const char *st = str(ans, "status");
            if (strcmp(st, "hit") && strcmp(st, "miss") && strcmp(st, "overlap")) {
                bad++;
                diag("line %ld: expected an answer, got %s", lineno, r.lines[i - 1]);
            }
            json_decref(ans);
            continue;
        }
        /* expected: "<fixed text>" or "<field>: @REASON" */
        char want[2048];
        const char *at = strchr(expect, '@');
        if (at) {
            const char *msg = reason_text(at + 1);
            if (msg == NULL)
                bail("unknown reason token %s", at);
            snprintf(want, sizeof want, "%.*s%s", (int)(at - expect), expect, msg);
        } else {
            snprintf(want, sizeof want, "%s", expect);
        }
        char where[4400];
        if (from_stdin)
            snprintf(where, sizeof where, "line %ld: ", lineno);
        else
            snprintf(where, sizeof where, "line %ld of %s: ", lineno, path);
        const char *err = str(ans, "error");
        if (strcmp(str(ans, "status"), "error") != 0 || strstr(err, want) == NULL ||
            strncmp(err, where, strlen(where)) != 0) {
            bad++;
            diag("line %ld: wanted \"%s%s...\", got %s", lineno, where, want,
                 r.lines[i - 1]);
        }
        if (json_object_size(ans) != (aid ? 3u : 2u)) {
            bad++;
            diag("line %ld: an error answer has id, status and error only: %s",
                 lineno, r.lines[i - 1]);
        }
        json_decref(ans);
    }
    is_int(r.nlines, checked, "%s: one answer per non-blank line", label);
    is_int(bad, 0, "%s: %d lines answered as expected", label, checked);
    fclose(f);
    fclose(in);
    tool_run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Ids, numbers, blank lines, several files                            */

static void test_ids(void)
{
    const char *base = "\"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                       "\"b\": {\"min\": [5,0,0], \"max\": [6,1,1]}}";
    static const char *ids[] = {
        "0.1", "1e+300", "-0.0", "123456789012345678", "\"a\\\"b\\\\c\\n\\u00e9\"",
        "null", "true", "[1, {\"k\": [false, 2.5]}]", "{}", "-2.2250738585072014e-308",
        "[\"x\\u0000y\", \"\\u0000\"]",
    };
    char in[8192];
    size_t n = 0;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        n += (size_t)snprintf(in + n, sizeof in - n, "{\"id\": %s, %s\n", ids[i], base);
    n += (size_t)snprintf(in + n, sizeof in - n, "{%s\n", base);
    tool_run r;
    tool_run_cmd(&r, "", in);
    is_int(r.status, 0, "ids: exit status 0");
    is_int(r.nlines, (int)(sizeof ids / sizeof ids[0]) + 1, "ids: one line each");
    for (size_t i = 0; i < sizeof ids / sizeof ids[0] && (int)i < r.nlines; i++) {
        json_t *got = parse_line(r.lines[i]);
        json_t *wid = json_loads(ids[i], JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
        json_t *st = got ? json_object_get(got, "status") : NULL;
        ok(got && wid && json_equal(json_object_get(got, "id"), wid) && json_is_string(st) &&
               strcmp(json_string_value(st), "miss") == 0,
           "id %s echoed as the same JSON value, the query a miss", ids[i]);
        json_decref(got);
        json_decref(wid);
    }
    /* Numbers that read back exactly are written the short way. */
    ok(r.nlines > 2 && strncmp(r.lines[0], "{\"id\": 0.1,", 11) == 0 &&
           strncmp(r.lines[1], "{\"id\": 1e+300,", 14) == 0 &&
           strncmp(r.lines[2], "{\"id\": -0.0,", 12) == 0,
       "ids 0.1, 1e300, -0.0 written as 0.1, 1e+300, -0.0");
    if (r.nlines > (int)(sizeof ids / sizeof ids[0])) {
        json_t *j = parse_line(r.lines[sizeof ids / sizeof ids[0]]);
        ok(j && json_object_get(j, "id") == NULL, "no id in, no id out");
        is_string(j ? str(j, "status") : "", "miss", "query without id answered");
        json_decref(j);
    }
    tool_run_free(&r);

    /* Blank lines give no answer; CRLF line ends are accepted. */
    snprintf(in, sizeof in, "\n{\"id\": 1, %s\r\n  \t\n\r\n{\"id\": 2, %s\n\n", base, base);
    tool_run_cmd(&r, "", in);
    is_int(r.nlines, 2, "blank lines skipped, CRLF accepted");
    is_int(r.status, 0, "blank lines: exit status 0");
    tool_run_free(&r);

    /* No final newline. */
    snprintf(in, sizeof in, "{\"id\": 1, %s", base);
    tool_run_cmd(&r, "", in);
    is_int(r.nlines, 1, "last line without newline answered");
    tool_run_free(&r);
}

/* Run the tool on file under a stack limit of kb KiB: its exit status, or
 * -1 when it did not exit (a stack overflow kills it). */
static int run_with_stack(const char *file, int kb)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "ulimit -s %d && exec %s %s >/dev/null 2>&1", kb, tool_path(),
             file);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* An id nested as deep as jansson reads (2048 levels in all, the query
 * object one of them) is echoed within the stack that jansson's parser
 * needed to read it, give or take 64 KiB: the same nesting elsewhere in a
 * query (an error answer, nothing echoed) sets the limit (not in sanitizer
 * builds, whose frames are larger). */
static void test_deep_id(void)
{
    enum { DEPTH = 2046 };
    static char line[2 * DEPTH + 256];
    const char *files[2] = {"test-tool-deep-a.jsonl", "test-tool-deep-id.jsonl"};
    for (int f = 0; f < 2; f++) {
        size_t n = 0;
        n += (size_t)sprintf(line + n, f ? "{\"id\": " : "{\"id\": 1, \"a\": ");
        memset(line + n, '[', DEPTH);
        memset(line + n + DEPTH, ']', DEPTH);
        n += 2 * DEPTH;
        sprintf(line + n, f ? ", \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                              "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}}\n"
                            : "}\n");
        tool_write_file(files[f], line);
    }
    tool_run r;
    tool_run_cmd(&r, files[1], NULL);
    json_t *j = r.nlines == 1 ? parse_line(r.lines[0]) : NULL;
    const json_t *id = j ? json_object_get(j, "id") : NULL;
    int depth = 0;
    while (json_is_array(id) && json_array_size(id) <= 1) {
        depth++;
        id = json_array_size(id) ? json_array_get(id, 0) : NULL;
    }
    ok(r.status == 0 && depth == DEPTH, "an id nested %d deep echoed whole", DEPTH);
    json_decref(j);
    tool_run_free(&r);
    const char *san = getenv("SAN_CFLAGS");
    if (san && *san) {
        skip(1, "an id nested %d deep: stack use, in a sanitizer build (%s)", DEPTH, san);
    } else {
        int kb = 64;
        while (kb < 8192 && run_with_stack(files[0], kb) != 1)
            kb += 32;
        int st = run_with_stack(files[1], kb + 64);
        if (!ok(kb < 8192 && st == 0,
                "an id nested %d deep: echoed within the stack jansson needs to read it, "
                "plus 64 KiB",
                DEPTH))
            diag("reading the nesting elsewhere took %d KiB; the id under %d KiB: status %d",
                 kb, kb + 64, st);
    }
    remove(files[0]);
    remove(files[1]);
}

static void test_files(void)
{
    const char *q = "{\"id\": %d, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                    "\"b\": {\"min\": [5,0,0], \"max\": [6,1,1]}}\n";
    char text[512];
    snprintf(text, sizeof text, q, 1);
    strcat(text, "oops\n");
    tool_write_file("test-tool-1.jsonl", text);
    snprintf(text, sizeof text, q, 2);
    tool_write_file("test-tool-2.jsonl", text);
    tool_run r;
    tool_run_cmd(&r, "test-tool-1.jsonl - test-tool-2.jsonl", "{\"id\": 9\n");
    is_int(r.nlines, 4, "files and stdin read in order");
    if (r.nlines == 4) {
        ok(strstr(r.lines[0], "\"id\": 1,") != NULL, "first file first");
        ok(strstr(r.lines[1], "line 2 of test-tool-1.jsonl: not valid JSON") != NULL,
           "error names the file and line");
        ok(strstr(r.lines[2], "\"line 1: not valid JSON") != NULL,
           "standard input error names the line only");
        ok(strstr(r.lines[3], "\"id\": 2,") != NULL, "last file last");
    } else {
        skip(4, "wrong number of lines");
    }
    is_int(r.status, 1, "exit status 1 with an error line");
    tool_run_free(&r);

    tool_run_cmd(&r, "test-tool-2.jsonl", NULL);
    is_int(r.status, 0, "exit status 0 when every line is answered");
    tool_run_free(&r);

    tool_run_cmd(&r, "test-tool-2.jsonl test-tool-does-not-exist.jsonl", NULL);
    is_int(r.status, 2, "missing file: exit status 2");
    ok(strstr(r.err, "test-tool-does-not-exist.jsonl") != NULL,
       "missing file named on stderr");
    is_int(r.nlines, 1, "the readable file is still answered");
    tool_run_free(&r);

    /* a file that opens but cannot be read (a directory), between two that can */
    tool_run_cmd(&r, "test-tool-2.jsonl . test-tool-2.jsonl", NULL);
    is_int(r.status, 2, "unreadable file: exit status 2");
    ok(strstr(r.err, "error reading .") != NULL, "unreadable file named on stderr");
    is_int(r.nlines, 2, "the files before and after it are still answered");
    tool_run_free(&r);

    remove("test-tool-1.jsonl");
    remove("test-tool-2.jsonl");
}

static void test_cli(void)
{
    tool_run r;
    tool_run_cmd(&r, "--help", NULL);
    is_int(r.status, 0, "--help: exit status 0");
    ok(strstr(r.out, "Usage: boxtoi") != NULL && strstr(r.out, "--threads") != NULL,
       "--help prints the usage");
    tool_run_free(&r);

    tool_run_cmd(&r, "--version", NULL);
    is_int(r.status, 0, "--version: exit status 0");
    ok(strstr(r.out, PACKAGE_VERSION) != NULL && strstr(r.out, boxtoi_version()),
       "--version prints the versions");
    char build[64];
    snprintf(build, sizeof build, "solver's %s build", boxtoi_solver_build());
    ok(strstr(r.out, build) != NULL, "--version names the solver's build (%s)",
       boxtoi_solver_build());
    tool_run_free(&r);

    /* the manual page (built from boxtoi.1.in) names the same version */
    char line[256] = "", want[64];
    FILE *man = fopen("../tools/boxtoi.1", "r");
    if (!man || !fgets(line, sizeof line, man))
        line[0] = '\0';
    if (man)
        fclose(man);
    snprintf(want, sizeof want, "\"boxtoi %s\"", PACKAGE_VERSION);
    ok(strncmp(line, ".TH BOXTOI 1 ", 13) == 0 && strstr(line, want) != NULL,
       "the manual page's title line names version %s", PACKAGE_VERSION);

    static const char *bad[] = {"--bogus", "--threads", "--threads x",
                                "--threads -1", "--threads 100000", "-t 2x",
                                "-t +4", "--threads ' 4'"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tool_run_cmd(&r, bad[i], "");
        is_int(r.status, 2, "usage error '%s': exit status 2", bad[i]);
        ok(strncmp(r.err, "boxtoi: ", 8) == 0 && r.out_len == 0,
           "usage error '%s': message on stderr, beginning 'boxtoi: '", bad[i]);
        tool_run_free(&r);
    }

    tool_run_cmd(&r, "", "");
    is_int(r.status, 0, "empty input: exit status 0");
    is_int((int)r.out_len, 0, "empty input: no output");
    tool_run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Error messages are valid UTF-8                                      */

/* The error message of an answer line that must parse as JSON (jansson
 * rejects text that is not valid UTF-8); "" when it does not. */
static const char *error_of(json_t **j, const tool_run *r, int i)
{
    *j = r->nlines > i ? parse_line(r->lines[i]) : NULL;
    return *j ? str(*j, "error") : "";
}

static void test_utf8(void)
{
    const char *boxes = "\"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                        "\"b\": {\"min\": [5,0,0], \"max\": [6,1,1]}";
    char k79[100], euro[128], in[1024], want[1024];
    tool_run r;
    json_t *j;

    /* Unknown fields of more than 80 bytes are cut, at a character
     * boundary: 79 letters then a 2-byte "é" (which would be cut in half),
     * and "k" then thirty 3-byte "€" (cut after 26 of them). */
    memset(k79, 'k', 79);
    k79[79] = '\0';
    snprintf(euro, sizeof euro, "k");
    for (int i = 0; i < 30; i++)
        strcat(euro, "\xe2\x82\xac");
    snprintf(in, sizeof in,
             "{\"%s\\u00e9\": 1, %s}\n"
             "{\"a\": {\"min\": [0,0,0], \"max\": [1,1,1], \"%s\": 2}, "
             "\"b\": {\"min\": [5,0,0], \"max\": [6,1,1]}}\n",
             k79, boxes, euro);
    tool_run_cmd(&r, "", in);
    is_int(r.nlines, 2, "long unknown fields: two answers");
    snprintf(want, sizeof want, "line 1: %s: unknown field (", k79);
    ok(strncmp(error_of(&j, &r, 0), want, strlen(want)) == 0,
       "unknown field of 79 letters and an \"\\u00e9\": cut before the "
       "\"\\u00e9\", valid UTF-8");
    json_decref(j);
    euro[1 + 26 * 3] = '\0';
    snprintf(want, sizeof want, "line 2: a.%s: unknown field (", euro);
    if (!ok(strncmp(error_of(&j, &r, 1), want, strlen(want)) == 0,
            "box field of \"k\" and 30 \"\\u20ac\": 26 of them shown, valid "
            "UTF-8"))
        diag("got %s", r.nlines > 1 ? r.lines[1] : "nothing");
    json_decref(j);
    tool_run_free(&r);

    /* File names go into messages whole, bytes that are not UTF-8 as
     * U+FFFD: a name with the byte 0xff, and one of 217 bytes with a 2-byte
     * character at bytes 199 and 200. */
    char longname[256];
    snprintf(longname, sizeof longname, "test-tool-x");
    for (int i = 0; i < 100; i++)
        strcat(longname, "\xc3\xa9");
    strcat(longname, ".jsonl");
    tool_write_file("test-tool-q\xff.jsonl", "x\n");
    tool_write_file(longname, "{\"id\": 1, \"t0\": 2}\n");
    snprintf(in, sizeof in, "'test-tool-q\xff.jsonl' '%s'", longname);
    tool_run_cmd(&r, in, NULL);
    is_int(r.status, 1, "odd file names: exit status 1");
    const char *want1 = "line 1 of test-tool-q\xef\xbf\xbd.jsonl: not valid JSON";
    ok(strncmp(error_of(&j, &r, 0), want1, strlen(want1)) == 0,
       "file name with the byte 0xff: written as U+FFFD, valid UTF-8");
    json_decref(j);
    snprintf(want, sizeof want, "line 1 of %s: a: missing", longname);
    is_string(error_of(&j, &r, 1), want,
              "file name of 217 bytes of UTF-8: written whole, valid UTF-8");
    json_decref(j);
    tool_run_free(&r);
    remove("test-tool-q\xff.jsonl");
    remove(longname);

    /* The edges of well-formed UTF-8 (RFC 3629) in file names: each
     * ill-formed sequence's maximal well-formed start is one U+FFFD, as
     * Unicode recommends (what Python's bytes.decode("utf-8", "replace")
     * gives); the last code point of each range is kept. */
    static const struct {
        const char *bytes, *shown, *what;
    } names[] = {
        {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
         "a code point above U+10FFFF"},
        {"\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf", "U+10FFFF"},
        {"\xf1\x90\x80\x80", "\xf1\x90\x80\x80", "U+50000"},
        {"\xf0\x8f\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
         "an overlong U+FFFF"},
        {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a surrogate"},
        {"\xed\x9f\xbf", "\xed\x9f\xbf", "U+D7FF"},
        {"\xe0\x9f\xbf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "an overlong U+07FF"},
        {"\xf5\x80\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
         "the byte 0xf5 before three continuation bytes"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char file[64], shown[128];
        snprintf(file, sizeof file, "test-tool-u%s.jsonl", names[k].bytes);
        snprintf(shown, sizeof shown, "line 1 of test-tool-u%s.jsonl: not valid JSON",
                 names[k].shown);
        tool_write_file(file, "x\n");
        snprintf(in, sizeof in, "'%s'", file);
        tool_run_cmd(&r, in, NULL);
        const char *got = error_of(&j, &r, 0);
        ok(strncmp(got, shown, strlen(shown)) == 0, "file name with %s: written as Unicode says",
           names[k].what);
        json_decref(j);
        tool_run_free(&r);
        remove(file);
    }
}

/* ------------------------------------------------------------------ */
/* The NaN / Infinity hint                                             */

/* One line from fd within 30 s (without the newline), or 0. */
static int read_line_within(int fd, char *buf, size_t cap);

/* Start the tool (with args) as a co-process: write its input to in[1],
 * read its output from out[0].  The first npre bytes of pre (at most a
 * pipe's capacity) are in the pipe before it starts, so that its first read
 * takes them all.  nonblocking: 1 sets the tool's standard input
 * O_NONBLOCK, 2 its standard output, 3 both; with 4 besides 2, the output
 * pipe is full before the tool starts (of '#' bytes, read first). */
static pid_t start_coprocess_pre(const char *args, const char *pre, size_t npre,
                                 int nonblocking, int in[2], int out[2])
{
    signal(SIGPIPE, SIG_IGN);
    if (pipe(in) != 0 || pipe(out) != 0)
        bail("pipe failed");
    if ((nonblocking & 1) && fcntl(in[0], F_SETFL, fcntl(in[0], F_GETFL) | O_NONBLOCK) != 0)
        bail("fcntl failed");
    if ((nonblocking & 2) &&
        fcntl(out[1], F_SETFL, fcntl(out[1], F_GETFL) | O_NONBLOCK) != 0)
        bail("fcntl failed");
    if ((nonblocking & 6) == 6) {
        char buf[4096];
        memset(buf, '#', sizeof buf);
        while (write(out[1], buf, sizeof buf) > 0 || errno == EINTR)
            continue;
        while (write(out[1], buf, 1) > 0) /* the last bytes of the pipe */
            continue;
    }
    if (npre && write(in[1], pre, npre) != (ssize_t)npre)
        bail("writing %zu bytes into a pipe failed", npre);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "exec %s %s", tool_path(), args);
    pid_t pid = fork();
    if (pid < 0)
        bail("fork failed");
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    return pid;
}

static pid_t start_coprocess(const char *args, int in[2], int out[2])
{
    return start_coprocess_pre(args, NULL, 0, 0, in, out);
}

/* Close the co-process's input (unless in_fd < 0), read its output to the
 * end, and wait for it; returns its wait status. */
static int end_coprocess(pid_t pid, int in_fd, int out_fd)
{
    if (in_fd >= 0)
        close(in_fd);
    char rest[4096];
    while (read(out_fd, rest, sizeof rest) > 0)
        continue;
    close(out_fd);
    int st = 0;
    waitpid(pid, &st, 0);
    return st;
}

/* Run the tool as a co-process: write first, read its answer, then write
 * second and close the input; the answers to each go to a1 and a2 (empty
 * when none came). */
static void coprocess_two(const char *first, const char *second, char *a1,
                          char *a2, size_t cap)
{
    int in[2], out[2];
    pid_t pid = start_coprocess("", in, out);
    a1[0] = a2[0] = '\0';
    ssize_t n1 = (ssize_t)strlen(first), n2 = (ssize_t)strlen(second);
    if (write(in[1], first, (size_t)n1) == n1 &&
        read_line_within(out[0], a1, cap) &&
        write(in[1], second, (size_t)n2) == n2) {
        close(in[1]);
        in[1] = -1;
        if (!read_line_within(out[0], a2, cap))
            a2[0] = '\0';
    }
    end_coprocess(pid, in[1], out[0]);
}

static void test_hints(void)
{
    static const char hint[] = "(NaN and Infinity are not numbers in JSON";
    /* The hint is for the token jansson names: NaN or an infinity, in any
     * case, signed or not; never for one nearby, nor for what lies past
     * the line's end. */
    static const struct {
        const char *line;
        int hint;
    } cases[] = {
        {"{\"t0\": NaN}", 1},
        {"{\"t0\": -Infinity}", 1},
        {"{\"t1\": +inf}", 1},
        {"[-nan]", 1},
        {"{\"t0\": INF}", 1},
        {"{\"nano\": x}", 0},
        {"{\"id\": \"NaN\", \"t0\": x}", 0},
        {"{\"t0\": NaNx}", 0},
        {"{\"t0\": - inf}", 0},
        {"{\"t0\": In", 0},
    };
    size_t ncases = sizeof cases / sizeof cases[0];
    char in[1024] = "";
    for (size_t i = 0; i < ncases; i++) {
        strcat(in, cases[i].line);
        if (i + 1 < ncases)
            strcat(in, "\n"); /* the last line has no line end */
    }
    tool_run r;
    tool_run_cmd(&r, "", in);
    is_int(r.nlines, (int)ncases, "hints: one answer per line");
    for (size_t i = 0; i < ncases && (int)i < r.nlines; i++)
        ok((strstr(r.lines[i], hint) != NULL) == cases[i].hint,
           "%s: %s", cases[i].line,
           cases[i].hint ? "NaN / Infinity hint" : "no NaN / Infinity hint");
    tool_run_free(&r);

    /* A byte-order mark before the line: said so, and only there. */
    static const char bom[] = "byte-order mark";
    tool_run_cmd(&r, "", "\xEF\xBB\xBF{\"t0\": 0}\n{\"t0\": 0}\xEF\xBB\xBF\n\"\xEF\xBB\xBF\" x\n");
    ok(r.nlines == 3 && strstr(r.lines[0], bom) && strstr(r.lines[0], "column 1:") &&
           !strstr(r.lines[1], bom) && !strstr(r.lines[2], bom),
       "a byte-order mark at the line's start is named; one after it, or in a string, not");
    tool_run_free(&r);

    /* A string that says "too big" is no integer too big. */
    tool_run_cmd(&r, "", "{\"id\": \"too big");
    ok(r.nlines == 1 && strstr(r.lines[0], "premature end of input") &&
           !strstr(r.lines[0], "write it as a real"),
       "unterminated string \"too big: no hint about integers");
    tool_run_free(&r);

    /* The same last line, without a line end, answered alike from a file
     * and from a pipe where the line before it was answered first (its
     * bytes then lie past the last line's end in the tool's buffer). */
    const char *l1 = "{\"t0\": Infinity}\n", *l2 = "{\"t0\": In";
    char file_ans[1024], a1[1024], a2[1024];
    snprintf(in, sizeof in, "%s%s", l1, l2);
    tool_write_file("test-tool-hint.jsonl", in);
    tool_run_cmd(&r, "test-tool-hint.jsonl", NULL);
    const char *colon = r.nlines == 2 ? strstr(r.lines[1], ".jsonl: ") : NULL;
    snprintf(file_ans, sizeof file_ans, "%s", colon ? colon + 6 : "(none)");
    tool_run_free(&r);
    remove("test-tool-hint.jsonl");
    coprocess_two(l1, l2, a1, a2, sizeof a1);
    static const char head[] = "{\"status\": \"error\", \"error\": \"line 2";
    colon = strncmp(a2, head, sizeof head - 1) == 0 ? a2 + sizeof head - 1
                                                    : "(other)";
    if (!ok(a1[0] && strcmp(colon, file_ans) == 0 && !strstr(a2, hint),
            "last line without a line end: same answer from a file and a "
            "pipe, no hint"))
        diag("file: %s; pipe: %s", file_ans, a2);
}

/* The resident memory of process pid in KiB (VmRSS), or -1. */
static long resident_kib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

/* Read from fd until n line ends have come (each line may be long); 1 when
 * they did. */
static int drain_lines(int fd, int n)
{
    char buf[65536];
    while (n > 0) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got <= 0)
            return 0;
        for (ssize_t i = 0; i < got; i++)
            n -= buf[i] == '\n';
    }
    return 1;
}

/*
 * What a long line makes the tool take goes back once it is answered: a
 * query whose id is a string of 48 MiB, then a short one, from a pipe that
 * stays open.  Both answered, the tool waiting for more holds less than 64
 * MiB (about 50; its input buffer had grown to 64 MiB and its output
 * buffer to the id's echo, and both stayed until the end: about 100).  Not
 * in sanitizer builds, which keep freed memory in quarantine.
 */
static void test_memory_after_long_line(void)
{
    const char *san = getenv("SAN_CFLAGS");
    if (san && *san) {
        skip(1, "memory after a long line, in a sanitizer build (%s)", san);
        return;
    }
    enum { ID = 48 << 20 };
    const char *tail = "\", \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                       "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}}\n"
                       "{\"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                       "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}}\n";
    size_t ntail = strlen(tail), n = 8 + (size_t)ID + ntail;
    char *line = malloc(n);
    if (!line)
        bail("out of memory");
    memcpy(line, "{\"id\": \"", 8);
    memset(line + 8, 'a', ID);
    memcpy(line + 8 + ID, tail, ntail);
    int in[2], out[2];
    pid_t pid = start_coprocess("", in, out);
    /* written by a child of ours, so that the answers are read meanwhile */
    pid_t writer = fork();
    if (writer < 0)
        bail("fork failed");
    if (writer == 0) {
        close(out[0]);
        size_t done = 0;
        while (done < n) {
            ssize_t w = write(in[1], line + done, n - done);
            if (w <= 0)
                _exit(1);
            done += (size_t)w;
        }
        pause(); /* the input stays open until the test is done */
        _exit(0);
    }
    int answered = drain_lines(out[0], 2);
    /* the memory goes back just after the answers are written: looked at
       for up to 5 s */
    long kib = -1;
    for (int i = 0; answered && i < 500; i++) {
        kib = resident_kib(pid);
        if (kib > 0 && kib < 64 * 1024)
            break;
        usleep(10000);
    }
    kill(writer, SIGTERM);
    waitpid(writer, NULL, 0);
    close(in[1]);
    end_coprocess(pid, -1, out[0]);
    free(line);
    ok(answered && kib > 0 && kib < 64 * 1024,
       "after a line of 48 MiB, answered, the tool holds %ld KiB (less than 64 MiB)", kib);
}

/* --threads: byte-identical output. */
/* ------------------------------------------------------------------ */
/* A co-process: each answer comes while the input stays open          */

/* One line from fd within 30 s (without the newline), or 0. */
static int read_line_within(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    while (n + 1 < cap) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 30000) <= 0)
            return 0;
        ssize_t got = read(fd, buf + n, 1);
        if (got <= 0)
            return 0;
        if (buf[n] == '\n') {
            buf[n] = '\0';
            return 1;
        }
        n++;
    }
    return 0;
}

static void test_coprocess(const char *args)
{
    int in[2], out[2];
    pid_t pid = start_coprocess(args, in, out);
    int answered = 0;
    for (int i = 1; i <= 3; i++) {
        char q[256], line[4096], want[64];
        int n = snprintf(q, sizeof q,
                         "{\"id\": %d, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                         "\"b\": {\"min\": [5,0,0], \"max\": [6,1,1]}}\n",
                         i);
        if (write(in[1], q, (size_t)n) != n)
            break;
        if (!read_line_within(out[0], line, sizeof line))
            break;
        snprintf(want, sizeof want, "{\"id\": %d, \"status\": \"miss\"", i);
        if (strncmp(line, want, strlen(want)) != 0) {
            diag("answer %d: %s", i, line);
            break;
        }
        answered++;
    }
    is_int(answered, 3, "co-process%s: each answer comes before the next query",
           args);
    int st = end_coprocess(pid, in[1], out[0]);
    ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "co-process%s: exit status 0 at the input's end",
       args);
}

/* More lines than the batch threshold (16,384), all read at once, with
 * the input left open: every answer comes, the last ones too, without
 * waiting for the input's end. */
static void test_coprocess_batch(void)
{
    enum { N = 20000 };
    static char q[3 * N];
    for (int i = 0; i < N; i++)
        memcpy(q + 3 * i, "{}\n", 3);
    int in[2], out[2];
    pid_t pid = start_coprocess_pre("", q, sizeof q, 0, in, out);
    int lines = 0;
    char buf[65536];
    while (lines < N) {
        struct pollfd p = {.fd = out[0], .events = POLLIN};
        if (poll(&p, 1, 30000) <= 0)
            break;
        ssize_t got = read(out[0], buf, sizeof buf);
        if (got <= 0)
            break;
        for (ssize_t k = 0; k < got; k++)
            lines += buf[k] == '\n';
    }
    is_int(lines, N, "co-process: all %d answers of a batch read at once come "
           "while the input stays open", N);
    end_coprocess(pid, in[1], out[0]);
}

/* A named file, then standard input kept open: the file's answer comes
 * before any input is written (reading the pipe waits; a co-process
 * waiting for that answer would wait for ever). */
static void test_coprocess_after_file(void)
{
    tool_write_file("test-tool-first.jsonl", "{\"id\": \"file\"}\n");
    int in[2], out[2];
    pid_t pid = start_coprocess("test-tool-first.jsonl -", in, out);
    char line[4096] = "";
    int first = read_line_within(out[0], line, sizeof line);
    ok(first && strncmp(line, "{\"id\": \"file\", \"status\": \"error\"", 32) == 0,
       "co-process: a file's answer comes before standard input is read (%s)",
       first ? line : "none in 30 s");
    static const char q[] = "{\"id\": 2}\n";
    int second = write(in[1], q, sizeof q - 1) == (ssize_t)(sizeof q - 1) &&
                 read_line_within(out[0], line, sizeof line) &&
                 strncmp(line, "{\"id\": 2, ", 10) == 0;
    ok(second, "co-process: then standard input's answer");
    end_coprocess(pid, in[1], out[0]);
    remove("test-tool-first.jsonl");
}

/* Standard input set non-blocking by whoever made the pipe: read as a
 * blocking one, nothing lost. */
static void test_nonblocking_stdin(void)
{
    int in[2], out[2];
    pid_t pid = start_coprocess_pre("", NULL, 0, 1, in, out);
    static const char q[] = "{\"id\": 1, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                            "\"b\": {\"min\": [5,0,0], \"max\": [6,1,1]}}\n";
    char line[4096];
    int got = 0;
    for (int i = 0; i < 2; i++) {
        if (write(in[1], q, sizeof q - 1) != (ssize_t)(sizeof q - 1))
            break;
        if (!read_line_within(out[0], line, sizeof line) ||
            strncmp(line, "{\"id\": 1, \"status\": \"miss\"", 26) != 0)
            break;
        got++;
        struct timespec pause = {0, 100000000};
        nanosleep(&pause, NULL); /* the tool finds the pipe empty */
    }
    int st = end_coprocess(pid, in[1], out[0]);
    ok(got == 2 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
       "non-blocking standard input: both answers, status 0 (%d, status %d)", got,
       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Standard output set non-blocking, read slower than it is written (the
 * pipe fills): written as a blocking one, every answer whole and in order.
 * Each id is a string of 5,000 characters, numbered, so that an answer
 * line is longer than PIPE_BUF and a write into the full pipe can be cut
 * short; one resumed from the wrong place shows. */
static void test_nonblocking_stdout(void)
{
    enum { N = 2000, PAD = 5000 };
    static char pad[PAD + 1];
    memset(pad, 'x', PAD);
    FILE *f = fopen("test-tool-nb.jsonl", "w");
    if (!f)
        bail("cannot write test-tool-nb.jsonl");
    for (int i = 1; i <= N; i++)
        fprintf(f, "{\"id\": \"%d-%s\", \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
                   "\"b\": {\"min\": [5,0,0], \"max\": [6,1,1]}}\n", i, pad);
    if (fclose(f) != 0)
        bail("cannot write test-tool-nb.jsonl");
    int in[2], out[2];
    pid_t pid = start_coprocess_pre("test-tool-nb.jsonl", NULL, 0, 3, in, out);
    close(in[1]);
    struct timespec pause = {0, 300000000};
    nanosleep(&pause, NULL); /* the tool fills the pipe and finds it full */
    static char buf[65536], head[PAD + 64];
    long lines = 0, whole = 0;
    size_t have = 0;
    ssize_t n;
    while ((n = read(out[0], buf + have, sizeof buf - have)) > 0) {
        have += (size_t)n;
        char *s = buf, *nl;
        while ((nl = memchr(s, '\n', have - (size_t)(s - buf))) != NULL) {
            int len = snprintf(head, sizeof head, "{\"id\": \"%ld-%s\", \"status\": \"miss\"",
                               lines + 1, pad);
            lines++;
            whole += nl - s > len && strncmp(s, head, (size_t)len) == 0 && nl[-1] == '}';
            s = nl + 1;
        }
        have -= (size_t)(s - buf);
        memmove(buf, s, have);
    }
    close(out[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    ok(lines == N && whole == N && have == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
       "non-blocking standard output, slow reader, answers longer than PIPE_BUF: %d whole "
       "answers in order, status 0 (%ld lines, %ld whole, %zu bytes left over, status %d)",
       (int)N, lines, whole, have, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    remove("test-tool-nb.jsonl");
}

/* --help and --version into a non-blocking output pipe that is full when
 * the tool starts, read slowly: the whole text arrives, status 0 (the tool
 * waits, as for its answers). */
static void test_help_nonblocking(void)
{
    static const char *const opt[] = {"--help", "--version"};
    static const char *const head[] = {"Usage: boxtoi ", "boxtoi "};
    for (int k = 0; k < 2; k++) {
        int in[2], out[2];
        pid_t pid = start_coprocess_pre(opt[k], NULL, 0, 6, in, out);
        close(in[1]);
        struct timespec pause = {0, 200000000};
        nanosleep(&pause, NULL); /* the tool finds the pipe full */
        static char text[65536 * 4];
        size_t have = 0;
        ssize_t n;
        while (have < sizeof text - 1 &&
               (n = read(out[0], text + have, sizeof text - 1 - have)) > 0)
            have += (size_t)n;
        text[have] = '\0';
        close(out[0]);
        int st = 0;
        waitpid(pid, &st, 0);
        const char *t = text + strspn(text, "#");
        size_t len = strlen(t);
        ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strncmp(t, head[k], strlen(head[k])) == 0 &&
               len > 0 && t[len - 1] == '\n' &&
               (k == 1 || strstr(t, "for the full format.\n")),
           "%s into a full non-blocking pipe: all of it, status %d (%zu bytes)", opt[k],
           WIFEXITED(st) ? WEXITSTATUS(st) : -1, len);
    }
}

/* The first cap - 1 bytes of the file name into buf (empty when it cannot
 * be read), NUL-terminated; the file is removed. */
static void take_file(const char *name, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(name, "rb");
    if (f) {
        buf[fread(buf, 1, cap - 1, f)] = '\0';
        fclose(f);
    }
    remove(name);
}

/* Run the tool with args, its output into /dev/full: its exit status (-1
 * when it did not exit), and what it wrote on standard error in err. */
static int run_into_full(const char *args, char *err, size_t cap)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "%s %s >/dev/full 2>test-tool-full.err", tool_path(), args);
    int st = system(cmd);
    take_file("test-tool-full.err", err, cap);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Answers that cannot be written: status 2 and a message, once everything
 * is released (a sanitizer build's leak check would make it 1). */
static void test_answers_unwritable(void)
{
    char args[4300], err[4096];
    snprintf(args, sizeof args, "'%s'", tool_data_path("errors.jsonl"));
    int st = run_into_full(args, err, sizeof err);
    const char *nl = strchr(err, '\n');
    if (!ok(st == 2 && strncmp(err, "boxtoi: error writing standard output", 37) == 0 &&
                nl && nl[1] == '\0',
            "answers into /dev/full: status 2 and one message"))
        diag("status %d: %s", st, err);
}

/* --help and --version that cannot be written: status 2 and a message. */
static void test_help_unwritable(void)
{
    static const char *const opt[] = {"--help", "--version"};
    for (int k = 0; k < 2; k++) {
        char err[256];
        int st = run_into_full(opt[k], err, sizeof err);
        ok(st == 2 && strstr(err, "boxtoi: error writing standard output"),
           "%s into /dev/full: status 2 and a message", opt[k]);
    }
}

/* NUL bytes are not JSON: each such line gets an error naming the column
 * (jansson alone would stop reading at a NUL that follows a token). */
static void test_nul_bytes(void)
{
    static const char text[] =
        "{\"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
        "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}, \"t0\": 0\0}\n"
        "{\"id\": 1\0, \"a\": 1}\n"
        "\0\n"
        "{\"id\": \"x\\u0000y\", \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
        "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}}\n";
    FILE *f = fopen("test-tool-nul.jsonl", "wb");
    if (!f || fwrite(text, 1, sizeof text - 1, f) != sizeof text - 1 || fclose(f))
        bail("cannot write test-tool-nul.jsonl");
    tool_run r;
    tool_run_cmd(&r, "test-tool-nul.jsonl", NULL);
    remove("test-tool-nul.jsonl");
    is_int(r.nlines, 4, "NUL bytes: one answer per line");
    is_int(r.status, 1, "NUL bytes: exit status 1");
    /* the columns of the NUL bytes, counted from the text */
    int col[3], line = 0, c = 1;
    for (size_t k = 0; k < sizeof text - 1 && line < 3; k++) {
        if (text[k] == '\n') {
            line++;
            c = 1;
        } else if (text[k] == '\0') {
            col[line] = c;
        } else {
            c++;
        }
    }
    for (int i = 0; i < 3 && i < r.nlines; i++) {
        char want[128], where[64];
        snprintf(where, sizeof where, "\"line %d of ", i + 1);
        snprintf(want, sizeof want, ": not valid JSON at column %d: a NUL byte", col[i]);
        if (!ok(strstr(r.lines[i], where) && strstr(r.lines[i], want),
                "NUL byte on line %d: error at column %d", i + 1, col[i]))
            diag("%s", r.lines[i]);
    }
    ok(r.nlines == 4 && strstr(r.lines[3], "\"status\": \"miss\""),
       "an escaped \\u0000 inside a string is no NUL byte");
    tool_run_free(&r);
}

/* A read that fails after some lines: the master side of a pseudo-terminal
 * gives its bytes, then EIO once the other side is closed.  The lines read
 * whole are answered; the last one, a complete query without its newline
 * (answered at the end of a file), may have been cut short and is not. */
static void test_read_error(void)
{
    static const char text[] =
        "{\"id\": 1, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
        "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}}\n"
        "{\"id\": 2, \"a\": {\"min\": [0,0,0], \"max\": [1,1,1]}, "
        "\"b\": {\"min\": [2,0,0], \"max\": [3,1,1]}}";
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    const char *name = m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0 ? ptsname(m) : NULL;
    int s = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    struct termios raw;
    if (s < 0 || tcgetattr(s, &raw) != 0) {
        skip(2, "a read error: no pseudo-terminal (%s)", strerror(errno));
        if (m >= 0)
            close(m);
        return;
    }
    cfmakeraw(&raw);
    if (tcsetattr(s, TCSANOW, &raw) != 0 ||
        write(s, text, sizeof text - 1) != (ssize_t)(sizeof text - 1))
        bail("writing into a pseudo-terminal failed");
    close(s);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "exec %s <&%d >test-tool-eio.out 2>test-tool-eio.err",
             tool_path(), m);
    int st = system(cmd);
    close(m);
    char out[4096], err[4096];
    take_file("test-tool-eio.out", out, sizeof out);
    take_file("test-tool-eio.err", err, sizeof err);
    char want[256];
    snprintf(want, sizeof want, "boxtoi: error reading standard input: %s\n", strerror(EIO));
    if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 2 && strcmp(err, want) == 0,
            "a read error: status 2 and its message"))
        diag("status %d, stderr: %s", st, err);
    const char *nl = strchr(out, '\n');
    if (!ok(strncmp(out, "{\"id\": 1, \"status\": \"miss\"", 26) == 0 && nl && nl[1] == '\0',
            "a read error: the line before it answered, the cut-short line not"))
        diag("output: %s", out);
}

/* --threads 3 and --threads 0 (one per CPU) answer as --threads 1 does,
 * on errors.jsonl four times over (over 192 lines: more than the three
 * groups of 64 lines that three threads take). */
static void test_threads(void)
{
    char args[4400];
    tool_run one, many;
    const char *e = tool_data_path("errors.jsonl");
    snprintf(args, sizeof args, "--threads 1 - < test-tool-threads.jsonl");
    char cmd[4400 * 2];
    snprintf(cmd, sizeof cmd, "cat '%s' '%s' '%s' '%s' > test-tool-threads.jsonl", e, e, e, e);
    if (system(cmd) != 0)
        bail("cannot write test-tool-threads.jsonl");
    tool_run_cmd(&one, args, NULL);
    ok(one.nlines > 3 * 64, "--threads 1: %d answers", one.nlines);
    static const char *const n[] = {"3", "0"};
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "--threads %s - < test-tool-threads.jsonl", n[k]);
        tool_run_cmd(&many, args, NULL);
        ok(one.out_len > 0 && one.out_len == many.out_len &&
               memcmp(one.out, many.out, one.out_len) == 0,
           "--threads %s output identical to --threads 1", n[k]);
        is_int(many.status, one.status, "--threads %s: same exit status", n[k]);
        tool_run_free(&many);
    }
    tool_run_free(&one);
    remove("test-tool-threads.jsonl");
}

/*
 * The CPUs counted for --threads 0: those of the affinity mask, which the
 * kernel also lists in /proc/self/status (Cpus_allowed_list); with the mask
 * cut to one CPU, one, where sysconf's online CPUs stay at their number.
 */
static int allowed_in_status(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[4096];
    int n = -1;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
            continue;
        n = 0;
        for (char *p = line + 18; *p;) {
            char *end;
            long a = strtol(p, &end, 10), b = a;
            if (end == p) {
                p++;
                continue;
            }
            if (*end == '-')
                b = strtol(end + 1, &end, 10);
            n += (int)(b - a + 1);
            p = end;
        }
    }
    if (f)
        fclose(f);
    return n;
}

static void test_cpu_count(void)
{
    cpu_set_t mask, one;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) {
        skip(3, "sched_getaffinity failed");
        return;
    }
    int listed = allowed_in_status();
    if (listed < 1)
        skip(1, "no Cpus_allowed_list in /proc/self/status");
    else
        is_int(tool_cpu_count(), listed, "the CPUs counted are those the process may use");
    int first = 0;
    while (!CPU_ISSET(first, &mask))
        first++;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    /* (the mask holds online CPUs only: with two in it, sysconf counts two
       or more, which tool_cpu_count must not) */
    if (CPU_COUNT(&mask) < 2 || sched_setaffinity(0, sizeof one, &one) != 0) {
        skip(1, "one CPU, or its affinity cannot be set");
        return;
    }
    is_int(tool_cpu_count(), 1, "affinity cut to one CPU: one counted, where %ld are online",
           sysconf(_SC_NPROCESSORS_ONLN));
    if (sched_setaffinity(0, sizeof mask, &mask) != 0)
        bail("cannot restore the affinity mask");
}

int main(void)
{
    plan(0);
    test_cli();
    test_contacts();
    test_errors("", "errors.jsonl by name", 0);
    test_errors("", "errors.jsonl on stdin", 1);
    test_ids();
    test_deep_id();
    test_files();
    test_utf8();
    test_hints();
    test_memory_after_long_line();
    test_threads();
    test_cpu_count();
    test_coprocess("");
    test_coprocess(" --threads 2");
    test_coprocess_batch();
    test_coprocess_after_file();
    test_nonblocking_stdin();
    test_nonblocking_stdout();
    test_help_unwritable();
    test_help_nonblocking();
    test_answers_unwritable();
    test_nul_bytes();
    test_read_error();
    return tap_failures() ? 1 : 0;
}
