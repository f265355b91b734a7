/*
 * Hand-built first-contact cases whose answers are derived in closed form
 * (the derivation is in the comment of each case).  Motions are written by
 * filling the coefficient matrices c[k][row][col] directly.
 *
 * Every HIT is also checked for internal consistency: unit normal, the
 * contact point on both boxes at toi, the point on the reported features,
 * and the normal agreeing with the kind (face normal of A for face-vertex,
 * minus face normal of B for vertex-face, perpendicular to both edges for
 * edge-edge).  Each expectation is first checked against an independent
 * separating-axis evaluation (tests/lib-util.c) around the expected times,
 * so a slip in a derivation shows up as a failing "reference" line.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boxtoi.h"
#include "judge.h"
#include "lib-util.h"
#include "ref/ref.h"
#include "tap/basic.h"

#define SQ2 1.41421356237309504880
#define ISQ2 0.70710678118654752440
#define DEG45 (TU_PI / 4.0)

enum { EXIT_UNCHECKED = 0, EXIT_AT = 1, EXIT_AFTER_T1 = 2 };
/* check_kind: the kind, and the point on the features named; or the kind
   only (a flat contact, named by a vertex of a feature that lies in the
   face, with the point where that feature meets the face, off the vertex) */
enum { KIND_UNCHECKED = 0, KIND_AND_POINT = 1, KIND_ONLY = 2 };

typedef struct expect {
    boxtoi_state state;
    double toi;        /* expected toi (HIT, OVERLAP) */
    int exit_mode;     /* EXIT_* */
    double exit;       /* for EXIT_AT */
    int check_kind;    /* KIND_* */
    boxtoi_kind kind;
    const char *fa;    /* expected feature names, NULL = not checked */
    const char *fb;
    int check_normal;
    double normal[3];
    int check_point;
    double point[3];
    int reference;     /* check the expectation with the SAT oracle */
    int check_depth;   /* OVERLAP: the penetration depth is depth */
    double depth;
} expect;

/* ---------- small builders ---------- */

static boxtoi_box cube(double h)
{
    boxtoi_box b = {{-h, -h, -h}, {h, h, h}};
    return b;
}

/* Constant motion [R c; 0 1], degree 0. */
static void motion_static(boxtoi_motion *m, const double r[3][3], double cx, double cy,
                          double cz)
{
    double p[1][3] = {{cx, cy, cz}};
    tu_motion_rot_trans(m, r, p, 0);
}

/* R = Ry(45) Rz(45): a cube rotated so a single vertex leads along -x
 * (local vertex (-1,+1,-1), "XY'Z", at offset (-(1+1/sqrt2), 0, 1-1/sqrt2))
 * and along -z (local vertex (+1,-1,-1), "X'YZ", at offset
 * (1-1/sqrt2, 0, -(1+1/sqrt2))).  Rows of R: (1/2, -1/2, 1/sqrt2),
 * (1/sqrt2, 1/sqrt2, 0), (-1/2, 1/2, 1/sqrt2). */
static void rot_vertex_lead(double r[3][3])
{
    double ry[3][3], rz[3][3];
    tu_rot_y(ry, DEG45);
    tu_rot_z(rz, DEG45);
    tu_mul3(ry, rz, r);
}

static double qsize(const boxtoi_query *q)
{
    double a = tu_box_size(&q->a), b = tu_box_size(&q->b);
    return a > b ? a : b;
}

static int nonzero_sides(boxtoi_feature f)
{
    return (f.side[0] != 0) + (f.side[1] != 0) + (f.side[2] != 0);
}

/* ---------- the reference (SAT) check of an expectation ---------- */

static double sep(const boxtoi_query *q, double t)
{
    return tu_sat_separation(&q->a, &q->motion_a, &q->b, &q->motion_b, t);
}

/*
 * Local coordinates of world point y at t, the motion evaluated with the
 * reference's compensated Horner: near a full turn its entries are sums of
 * terms a million times larger than themselves.
 */
static int to_local(const boxtoi_motion *m, double t, const double y[3], double out[3])
{
    double e[4][4];
    ref_motion_at(m, t, e);
    return tu_to_local_at(e, y, out);
}

static void check_reference(const char *name, const boxtoi_query *q, const expect *e)
{
    const int N = 400;
    /* d: how close to the expected times the reference must already see the
     * change; small enough to pin each expectation well inside the 1e-9
     * tolerance, large enough to stay above rounding in these cases. */
    double span = q->t1 - q->t0, d = 2e-10 * span;
    int good = 1;
    char why[200] = "";
    if (e->state == BOXTOI_MISS) {
        for (int i = 0; i <= N && good; i++) {
            double t = q->t0 + span * i / N;
            if (!(sep(q, t) > 0.0)) {
                good = 0;
                snprintf(why, sizeof why, "touching at t = %.17g", t);
            }
        }
    } else if (e->state == BOXTOI_OVERLAP) {
        if (!(sep(q, q->t0) <= 1e-12 * qsize(q))) {
            good = 0;
            snprintf(why, sizeof why, "apart at t0 (%.3g)", sep(q, q->t0));
        }
    } else if (e->state == BOXTOI_HIT) {
        for (int i = 0; i <= N && good; i++) {
            double t = q->t0 + (e->toi - d - q->t0) * i / N;
            if (!(sep(q, t) > 0.0)) {
                good = 0;
                snprintf(why, sizeof why, "touching before toi, t = %.17g", t);
            }
        }
        if (good && !(sep(q, e->toi + d) < 0.0)) {
            good = 0;
            snprintf(why, sizeof why, "not overlapping just after toi (%.3g)",
                     sep(q, e->toi + d));
        }
    }
    if (good && e->state != BOXTOI_MISS && e->exit_mode != EXIT_UNCHECKED) {
        double end = e->exit_mode == EXIT_AT ? e->exit - d : q->t1;
        for (int i = 0; i <= N && good; i++) {
            double t = e->toi + d + (end - e->toi - d) * i / N;
            if (!(sep(q, t) < 0.0)) {
                good = 0;
                snprintf(why, sizeof why, "apart before exit, t = %.17g", t);
            }
        }
        if (good && e->exit_mode == EXIT_AT && !(sep(q, e->exit + d) > 0.0)) {
            good = 0;
            snprintf(why, sizeof why, "not apart just after exit");
        }
    }
    if (good && e->check_point && (e->state == BOXTOI_HIT || e->state == BOXTOI_OVERLAP)) {
        double la[3], lb[3];
        to_local(&q->motion_a, e->toi, e->point, la);
        to_local(&q->motion_b, e->toi, e->point, lb);
        double ex = fmax(tu_box_excess(&q->a, la), tu_box_excess(&q->b, lb));
        if (!(ex <= 1e-12 * qsize(q))) {
            good = 0;
            snprintf(why, sizeof why, "expected point off the boxes by %.3g", ex);
        }
    }
    if (!ok(good, "%s: reference agrees with the expectation", name))
        diag("%s", why);
}

/* ---------- checks of a result ---------- */

/* Outward world normal of face (axis i, side s) of a box with motion m at t. */
static void face_normal(const boxtoi_motion *m, double t, int i, int s, double n[3])
{
    double e[4][4], a[3][3], inv[3][3];
    tu_eval(m, t, e);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            a[r][c] = e[r][c];
    tu_inverse3(a, inv);
    double sg = (e[3][3] < 0 ? -1.0 : 1.0) * s;
    for (int r = 0; r < 3; r++)
        n[r] = sg * inv[i][r];
    double len = tu_norm(n);
    for (int r = 0; r < 3; r++)
        n[r] /= len;
}

/* World direction of the edge of a box running along the axis with side 0. */
static void edge_dir(const boxtoi_motion *m, double t, boxtoi_feature f, double d[3])
{
    double e[4][4];
    tu_eval(m, t, e);
    int j = f.side[0] == 0 ? 0 : f.side[1] == 0 ? 1 : 2;
    for (int r = 0; r < 3; r++)
        d[r] = e[r][j];
}

/* Does local point x lie on the feature (within tol)? */
static int on_feature(const boxtoi_box *box, boxtoi_feature f, const double x[3],
                      double tol)
{
    for (int i = 0; i < 3; i++) {
        if (f.side[i] < 0 && fabs(x[i] - box->lo[i]) > tol)
            return 0;
        if (f.side[i] > 0 && fabs(x[i] - box->hi[i]) > tol)
            return 0;
    }
    return 1;
}

/*
 * Consistency of a HIT.  strict_features: the contact point must lie on the
 * reported features (for contacts whose features are unique; for face on
 * face and the like any point of the contact patch may be reported, so a
 * mismatch is only noted).
 */
static void check_hit_geometry(const char *name, const boxtoi_query *q,
                               const boxtoi_result *r, int strict_features)
{
    double size = qsize(q), tol = 1e-9 * size + tu_coord_rounding(q);
    double len = tu_norm(r->normal);
    if (!ok(fabs(len - 1.0) <= 1e-9, "%s: normal is a unit vector", name))
        diag("|n| = %.17g", len);

    double la[3], lb[3];
    int inv = to_local(&q->motion_a, r->toi, r->point, la) &&
              to_local(&q->motion_b, r->toi, r->point, lb);
    double ea = inv ? tu_box_excess(&q->a, la) : INFINITY;
    double eb = inv ? tu_box_excess(&q->b, lb) : INFINITY;
    if (!ok(ea <= tol && eb <= tol, "%s: contact point on both boxes at toi", name))
        diag("point (%.17g, %.17g, %.17g): outside A by %.3g, B by %.3g (tol %.3g)",
             r->point[0], r->point[1], r->point[2], ea, eb, tol);

    int counts_ok = 0;
    switch (r->kind) {
    case BOXTOI_FACE_VERTEX:
        counts_ok = nonzero_sides(r->feature_a) == 1 && nonzero_sides(r->feature_b) == 3;
        break;
    case BOXTOI_VERTEX_FACE:
        counts_ok = nonzero_sides(r->feature_a) == 3 && nonzero_sides(r->feature_b) == 1;
        break;
    case BOXTOI_EDGE_EDGE:
        counts_ok = nonzero_sides(r->feature_a) == 2 && nonzero_sides(r->feature_b) == 2;
        break;
    case BOXTOI_KIND_NONE:
        break;
    }
    if (!ok(counts_ok, "%s: features fit the kind %s", name, boxtoi_kind_name(r->kind)))
        diag("feature sides A (%d %d %d) B (%d %d %d)", r->feature_a.side[0],
             r->feature_a.side[1], r->feature_a.side[2], r->feature_b.side[0],
             r->feature_b.side[1], r->feature_b.side[2]);
    if (!counts_ok)
        return;
    int fa_ok = inv && on_feature(&q->a, r->feature_a, la, 1e-8 * size);
    int fb_ok = inv && on_feature(&q->b, r->feature_b, lb, 1e-8 * size);
    char na[16], nb[16];
    tu_feature_name(&r->feature_a, na);
    tu_feature_name(&r->feature_b, nb);
    if (strict_features) {
        if (!ok(fa_ok && fb_ok, "%s: contact point lies on the reported features", name))
            diag("features %s / %s; local A (%.17g %.17g %.17g) local B (%.17g %.17g "
                 "%.17g)", na, nb, la[0], la[1], la[2], lb[0], lb[1], lb[2]);
    } else if (!(fa_ok && fb_ok)) {
        diag("%s: note: degenerate contact reported as %s %s / %s with the point "
             "(%.17g %.17g %.17g) off those features", name, boxtoi_kind_name(r->kind),
             na, nb, r->point[0], r->point[1], r->point[2]);
    }

    /* the normal agrees with the kind */
    double n[3];
    int nok = 1;
    if (r->kind == BOXTOI_FACE_VERTEX || r->kind == BOXTOI_VERTEX_FACE) {
        const boxtoi_motion *m = r->kind == BOXTOI_FACE_VERTEX ? &q->motion_a : &q->motion_b;
        boxtoi_feature f = r->kind == BOXTOI_FACE_VERTEX ? r->feature_a : r->feature_b;
        int i = f.side[0] ? 0 : f.side[1] ? 1 : 2;
        face_normal(m, r->toi, i, f.side[i], n);
        double sg = r->kind == BOXTOI_FACE_VERTEX ? 1.0 : -1.0;
        for (int k = 0; k < 3; k++)
            if (fabs(r->normal[k] - sg * n[k]) > 1e-9)
                nok = 0;
    } else {
        double da[3], db[3], c[3];
        edge_dir(&q->motion_a, r->toi, r->feature_a, da);
        edge_dir(&q->motion_b, r->toi, r->feature_b, db);
        tu_cross(da, db, c);
        if (tu_norm(c) > 1e-6 * tu_norm(da) * tu_norm(db)) {
            if (fabs(tu_dot(r->normal, da)) > 1e-9 * tu_norm(da) ||
                fabs(tu_dot(r->normal, db)) > 1e-9 * tu_norm(db))
                nok = 0;
        }
        /* from A to B: A's centre lies behind the contact point */
        double ca[3], ga[3][3], d[3];
        tu_parallelepiped(&q->a, &q->motion_a, r->toi, ca, ga);
        for (int k = 0; k < 3; k++)
            d[k] = r->point[k] - ca[k];
        if (tu_dot(r->normal, d) < 0.0)
            nok = 0;
    }
    if (!ok(nok, "%s: normal agrees with the kind and features", name))
        diag("%s %s / %s, normal (%.17g %.17g %.17g)", boxtoi_kind_name(r->kind), na, nb,
             r->normal[0], r->normal[1], r->normal[2]);
}

static boxtoi_result run_case(const char *name, const boxtoi_query *q, const expect *e)
{
    if (e->reference)
        check_reference(name, q, e);
    boxtoi_result r = boxtoi_solve(q);
    double span = q->t1 - q->t0;
    if (!is_int(r.state, e->state, "%s: state %s", name, boxtoi_state_name(e->state)))
        diag("got %s (reason %d: %s)", boxtoi_state_name(r.state), (int)r.reason,
             boxtoi_reason_message(r.reason));
    if (e->state == BOXTOI_MISS) {
        ok(isnan(r.toi) && isnan(r.exit), "%s: toi and exit are NaN", name);
        is_int(r.kind, BOXTOI_KIND_NONE, "%s: kind none", name);
        return r;
    }
    if (e->state == BOXTOI_OVERLAP) {
        is_double(r.toi, q->t0, 0.0, "%s: toi = t0", name);
        ok(r.depth >= -1e-12 * qsize(q), "%s: depth >= 0 (%.17g)", name, r.depth);
        if (e->check_depth)
            is_double(r.depth, e->depth, 1e-9 * qsize(q), "%s: depth %.17g", name, e->depth);
    } else {
        is_double(r.toi, e->toi, 1e-9 * span, "%s: toi %.17g", name, e->toi);
        ok(fabs(r.depth) <= 1e-9 * qsize(q), "%s: depth about 0 (%.3g)", name, r.depth);
    }
    if (e->exit_mode == EXIT_AT) {
        ok(r.exit_after_t1 == 0, "%s: contact ends before t1", name);
        is_double(r.exit, e->exit, 1e-9 * span, "%s: exit %.17g", name, e->exit);
    } else if (e->exit_mode == EXIT_AFTER_T1) {
        ok(r.exit_after_t1 == 1 && isnan(r.exit), "%s: contact lasts through t1", name);
    }
    if (e->check_kind)
        is_string(boxtoi_kind_name(r.kind), boxtoi_kind_name(e->kind), "%s: kind", name);
    char got[BOXTOI_FEATURE_NAME_MAX];
    if (e->fa)
        is_string(boxtoi_feature_name(r.feature_a, got, sizeof got), e->fa,
                  "%s: feature of A", name);
    if (e->fb)
        is_string(boxtoi_feature_name(r.feature_b, got, sizeof got), e->fb,
                  "%s: feature of B", name);
    if (e->check_normal) {
        int good = 1;
        for (int k = 0; k < 3; k++)
            if (!(fabs(r.normal[k] - e->normal[k]) <= 1e-9))
                good = 0;
        if (!ok(good, "%s: normal (%.6g %.6g %.6g)", name, e->normal[0], e->normal[1],
                e->normal[2]))
            diag("got (%.17g %.17g %.17g)", r.normal[0], r.normal[1], r.normal[2]);
    }
    if (e->check_point && (e->state == BOXTOI_HIT || e->state == BOXTOI_OVERLAP)) {
        int good = 1;
        for (int k = 0; k < 3; k++)
            if (!(fabs(r.point[k] - e->point[k]) <= 1e-9 * qsize(q)))
                good = 0;
        if (!ok(good, "%s: point (%.9g %.9g %.9g)", name, e->point[0], e->point[1],
                e->point[2]))
            diag("got (%.17g %.17g %.17g)", r.point[0], r.point[1], r.point[2]);
    }
    if (e->state == BOXTOI_HIT && r.state == BOXTOI_HIT)
        check_hit_geometry(name, q, &r, e->check_kind == KIND_AND_POINT);
    return r;
}

/* Swapping A and B: same toi and exit, swapped features and kind, negated
 * normal. */
static void check_swap(const char *name, const boxtoi_query *q, const boxtoi_result *r)
{
    boxtoi_query s = tu_swapped(q);
    boxtoi_result w = boxtoi_solve(&s);
    double span = q->t1 - q->t0;
    is_int(w.state, r->state, "%s swapped: same state", name);
    is_double(w.toi, r->toi, 1e-9 * span, "%s swapped: same toi", name);
    if (!r->exit_after_t1)
        is_double(w.exit, r->exit, 1e-9 * span, "%s swapped: same exit", name);
    boxtoi_kind want = tu_swapped_kind(r->kind);
    is_string(boxtoi_kind_name(w.kind), boxtoi_kind_name(want), "%s swapped: kind", name);
    char n1[16], n2[16], n3[16], n4[16];
    tu_feature_name(&r->feature_a, n1);
    tu_feature_name(&r->feature_b, n2);
    tu_feature_name(&w.feature_a, n3);
    tu_feature_name(&w.feature_b, n4);
    if (!ok(memcmp(&w.feature_a, &r->feature_b, sizeof w.feature_a) == 0 &&
                memcmp(&w.feature_b, &r->feature_a, sizeof w.feature_b) == 0,
            "%s swapped: features swapped", name))
        diag("direct %s / %s, swapped %s / %s", n1, n2, n3, n4);
    int good = 1;
    for (int k = 0; k < 3; k++)
        if (!(fabs(w.normal[k] + r->normal[k]) <= 1e-9))
            good = 0;
    if (!ok(good, "%s swapped: normal negated", name))
        diag("(%.17g %.17g %.17g) vs (%.17g %.17g %.17g)", w.normal[0], w.normal[1],
             w.normal[2], r->normal[0], r->normal[1], r->normal[2]);
}

/* ---------- the cases ---------- */

static void case_face_face(void)
{
    /* A = [-1,1]^3 at rest.  B = [-1,1]^3 translating, centre
     * (5 - 8t, 0.3, -0.2).  B's face X (x = 4 - 8t) meets A's face X'
     * (x = 1) at 4 - 8t = 1: t = 3/8; B's face X' (x = 6 - 8t) passes A's
     * face X (x = -1) at 6 - 8t = -1: exit t = 7/8.  Face on face: the kind
     * is ambiguous; the normal is +x, and every reported feature lies in
     * A's face X' and B's face X. */
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[2][3] = {{5.0, 0.3, -0.2}, {-8.0, 0.0, 0.0}};
    tu_motion_trans(&mb, p, 1);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT, .toi = 0.375, .exit_mode = EXIT_AT, .exit = 0.875,
                .check_normal = 1, .normal = {1, 0, 0}, .reference = 1};
    boxtoi_result r = run_case("face on face", &q, &e);
    ok(r.feature_a.side[0] == 1 && r.feature_b.side[0] == -1,
       "face on face: features lie in A's face X' and B's face X");
    check_swap("face on face", &q, &r);
}

/*
 * A = [-1,1]^3 at rest.  B = [-1,1]^3 starting at rest and accelerating
 * straight through A: centre (10 - 20t^2, 0.3, -0.2).  B's face X meets A's
 * face X' at 10 - 20t^2 = 2, t = sqrt(0.4); B's face X' leaves A's face X at
 * 10 - 20t^2 = -2, exit t = sqrt(0.6).  Face on face, as in case_face_face.
 * At t = 0 the gap is not closing at all, and n . D changes sign on the way:
 * a lower bound that took |n . D| coefficient by coefficient would call this
 * a miss.
 */
static void case_pass_through(void)
{
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[3][3] = {{10.0, 0.3, -0.2}, {0.0, 0.0, 0.0}, {-20.0, 0.0, 0.0}};
    tu_motion_trans(&mb, p, 2);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT, .toi = sqrt(0.4), .exit_mode = EXIT_AT,
                .exit = sqrt(0.6), .check_normal = 1, .normal = {1, 0, 0}, .reference = 1};
    boxtoi_result r = run_case("through from rest", &q, &e);
    ok(r.feature_a.side[0] == 1 && r.feature_b.side[0] == -1,
       "through from rest: features lie in A's face X' and B's face X");
}

/*
 * Parallel faces: B = a box with the same orientation R as A, falling
 * along A's local -z: centre R (bx, by, 4 - 4t) (local offsets).  The faces
 * meet flat, which reads either as A's face Z' under a vertex of B or as a
 * vertex of A on B's face Z; the answer must not depend on which box is A.
 */
static boxtoi_query parallel_faces_query(const double r[3][3], boxtoi_box a,
                                         boxtoi_box b, double bx, double by)
{
    boxtoi_motion ma, mb;
    motion_static(&ma, r, 0, 0, 0);
    double c0[3] = {bx, by, 4.0}, c1[3] = {0, 0, -4.0}, p[2][3];
    tu_mul3v(r, c0, p[0]);
    tu_mul3v(r, c1, p[1]);
    tu_motion_rot_trans(&mb, r, p, 1);
    return tu_query(a, &ma, b, &mb, 0.0, 1.0);
}

/*
 * One parallel-faces case: features are not unique on a flat contact, so
 * the kind is checked here rather than by run_case's strict feature test;
 * then the same with A and B swapped.
 */
static void flat_case(const char *name, const boxtoi_query *q, const expect *e)
{
    boxtoi_result res = run_case(name, q, e);
    is_string(boxtoi_kind_name(res.kind), boxtoi_kind_name(e->kind), "%s: kind", name);
    check_swap(name, q, &res);
}

static void case_parallel_faces(void)
{
    double r[3][3], up[3] = {0, 0, 1}, n[3], c[3];
    rot_vertex_lead(r); /* A's local z turns to (1/sqrt2, 0, 1/sqrt2): up */
    tu_mul3v(r, up, n);

    /* A small box lands inside a large face: the large face, the small
     * box's vertex.  B's face Z (local z = 3.5 - 4t) meets A's Z' (z = 1)
     * at t = 0.625, all of it over A's face: the point is its centre, and
     * the vertex named is the one on the + sides (the half-way rule). */
    boxtoi_query q = parallel_faces_query(r, tu_box(-3, -3, -1, 3, 3, 1), cube(0.5),
                                          0.4, -0.7);
    expect e = {.state = BOXTOI_HIT, .toi = 0.625, .exit_mode = EXIT_AFTER_T1,
                .kind = BOXTOI_FACE_VERTEX, .fa = "Z'", .fb = "X'Y'Z",
                .check_normal = 1, .check_point = 1, .reference = 1};
    memcpy(e.normal, n, sizeof n);
    c[0] = 0.4;
    c[1] = -0.7;
    c[2] = 1.0;
    tu_mul3v(r, c, e.point);
    flat_case("small box flat on a large face", &q, &e);

    /* The large box lands on the small one: still the large face.  B's
     * face Z (z = 3 - 4t) meets A's Z' (z = 0.5) at t = 0.625. */
    q = parallel_faces_query(r, cube(0.5), tu_box(-3, -3, -1, 3, 3, 1), 0.4, -0.7);
    e.kind = BOXTOI_VERTEX_FACE;
    e.fa = "X'Y'Z'";
    e.fb = "Z";
    c[0] = c[1] = 0.0;
    c[2] = 0.5;
    tu_mul3v(r, c, e.point);
    flat_case("large box flat on a small face", &q, &e);

    /* Equal faces, offset: each holds a vertex of the other, so the face
     * facing up is named, A's Z'.  B's face spans local x in [-0.7, 1.3],
     * y in [-1.2, 0.8]; the common part [-0.7, 1] x [-1, 0.8] has its centre
     * at (0.15, -0.1), nearest B's vertex X Y' Z.  B's face Z (z = 3 - 4t)
     * meets A's Z' at t = 0.5. */
    q = parallel_faces_query(r, cube(1), cube(1), 0.3, -0.2);
    e.toi = 0.5;
    e.kind = BOXTOI_FACE_VERTEX;
    e.fa = "Z'";
    e.fb = "XY'Z";
    c[0] = 0.15;
    c[1] = -0.1;
    c[2] = 1.0;
    tu_mul3v(r, c, e.point);
    flat_case("equal faces meeting flat", &q, &e);
}

static void case_vertex_face(double scale, const char *name)
{
    /* A = [-1,1]^3 at rest.  B = [-1,1]^3 rotated by R = Ry(45) Rz(45), centre
     * (4 - 3t, 0.1, 0.2) (all lengths times `scale`).  Along -x the single
     * leading vertex of B is local (-1,+1,-1) ("XY'Z"), at offset
     * R (-1,1,-1) = (-(1 + 1/sqrt2), 0, 1 - 1/sqrt2).  It reaches A's face
     * X' (x = 1) when 4 - 3t - (1 + 1/sqrt2) = 1: t = (2 - 1/sqrt2)/3, at
     * (1, 0.1, 0.2 + 1 - 1/sqrt2), inside the face.  Before that B lies in
     * x > 1.  Face of A under a vertex of B: face-vertex, normal +x.  At
     * t = 1 the centre is at x = 1: still overlapping, exit after t1. */
    double r[3][3], id[3][3];
    rot_vertex_lead(r);
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[2][3] = {{4.0 * scale, 0.1 * scale, 0.2 * scale}, {-3.0 * scale, 0, 0}};
    tu_motion_rot_trans(&mb, r, p, 1);
    boxtoi_query q = tu_query(cube(scale), &ma, cube(scale), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT,
                .toi = (2.0 - ISQ2) / 3.0,
                .exit_mode = EXIT_AFTER_T1,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "X'",
                .fb = "XY'Z",
                .check_normal = 1,
                .normal = {1, 0, 0},
                .check_point = 1,
                .point = {scale, 0.1 * scale, (0.2 + 1.0 - ISQ2) * scale},
                .reference = 1};
    boxtoi_result res = run_case(name, &q, &e);
    check_swap(name, &q, &res);
}

/* A = [-1,1]^3 rotated 45 deg about x; B = [-1,1]^3 rotated 45 deg about y,
 * with centre (0.2, -0.3, bz(t)). */
static boxtoi_query edge_edge_query(const double bz[], int deg)
{
    double rx[3][3], ry[3][3];
    tu_rot_x(rx, DEG45);
    tu_rot_y(ry, DEG45);
    boxtoi_motion ma, mb;
    motion_static(&ma, rx, 0, 0, 0);
    double p[3][3] = {{0.2, -0.3, 0.0}, {0, 0, 0}, {0, 0, 0}};
    for (int k = 0; k <= deg; k++)
        p[k][2] = bz[k];
    tu_motion_rot_trans(&mb, ry, p, deg);
    return tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
}

static void case_edge_edge(void)
{
    /* A's highest points: Rx(45) has z row (0, s, c), maximal on the local
     * edge y = +1, z = +1 ("Y'-Z'", along x), at world (x, 0, sqrt2).
     * B's lowest points: Ry(45) has z row (-s, 0, c), minimal on the local
     * edge x = +1, z = -1 ("X'-Z", along y), at world (0.2, -0.3 + y,
     * bz - sqrt2).  The edges cross at (0.2, 0, .) (inside both edges).
     *
     * Linear: bz = 5 - 4t.  Contact when bz - sqrt2 = sqrt2:
     * t = (5 - 2 sqrt2)/4.  Edge on edge, normal = x cross y = +z (A to B).
     *
     * Quadratic: bz = 2 sqrt2 - 0.01 + (t - 1/2)^2 = (2 sqrt2 + 0.24) - t +
     * t^2.  B's lowest edge is below A's ridge exactly while
     * (t - 1/2)^2 < 0.01, and then the crossing point lies in both boxes;
     * otherwise B lies above z = sqrt2: contact on [0.4, 0.6]. */
    double lin[2] = {5.0, -4.0};
    boxtoi_query q = edge_edge_query(lin, 1);
    double toi = (5.0 - 2.0 * SQ2) / 4.0;
    expect e = {.state = BOXTOI_HIT,
                .toi = toi,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_EDGE_EDGE,
                .fa = "Y'-Z'",
                .fb = "X'-Z",
                .check_normal = 1,
                .normal = {0, 0, 1},
                .check_point = 1,
                .point = {0.2, 0.0, SQ2},
                .reference = 1};
    boxtoi_result r = run_case("edge on edge, linear", &q, &e);
    check_swap("edge on edge, linear", &q, &r);

    double quad[3] = {2.0 * SQ2 + 0.24, -1.0, 1.0};
    q = edge_edge_query(quad, 2);
    e.toi = 0.4;
    e.exit_mode = EXIT_AT;
    e.exit = 0.6;
    r = run_case("edge on edge, quadratic", &q, &e);
    check_swap("edge on edge, quadratic", &q, &r);

    /* Brief clip: bz = 2 sqrt2 - 1e-7 + 4000 (t - 1/2)^2.  Contact while
     * 4000 (t - 1/2)^2 <= 1e-7, i.e. |t - 1/2| <= 5e-6: 1e-5 of the
     * interval, 1e-7 deep (far above 1e-9 of the size). */
    double clip[3] = {2.0 * SQ2 - 1e-7 + 1000.0, -4000.0, 4000.0};
    q = edge_edge_query(clip, 2);
    e.toi = 0.5 - 5e-6;
    e.exit = 0.5 + 5e-6;
    r = run_case("edge clips edge for 1e-5", &q, &e);
    check_swap("edge clips edge for 1e-5", &q, &r);
}

static void case_corner_clip(void)
{
    /* A = [-1,1]^3 rotated 45 deg about z: its largest x is sqrt2, on the
     * edge "X'-Y" (along z) at world (sqrt2, 0, z).  B = [-1,1]^3 rotated by
     * R = Ry(45) Rz(45): its single smallest-x vertex "XY'Z" sits at offset
     * (-(1 + 1/sqrt2), 0, 1 - 1/sqrt2).  B's centre is
     * (sqrt2 + 1 + 1/sqrt2 - 1e-7 + 4000 (t - 1/2)^2, 0, 0.1), so the
     * vertex moves along the line y = 0, z = 0.1 + 1 - 1/sqrt2 (within A's
     * z range) with x = sqrt2 - 1e-7 + 4000 (t - 1/2)^2.  B lies in
     * x >= vertex x; A's cross-section at y = 0 reaches x = sqrt2, so the
     * boxes share a point exactly while the vertex has x <= sqrt2:
     * |t - 1/2| <= 5e-6.  The vertex cuts 1e-7 into the edge region for
     * 1e-5 of the interval.  Vertex on edge: kind and normal are not
     * unique (the normal points into +x by at least cos 60 deg). */
    double rz[3][3], r[3][3];
    tu_rot_z(rz, DEG45);
    rot_vertex_lead(r);
    boxtoi_motion ma, mb;
    motion_static(&ma, rz, 0, 0, 0);
    double c0 = SQ2 + 1.0 + ISQ2 - 1e-7 + 1000.0;
    double p[3][3] = {{c0, 0.0, 0.1}, {-4000.0, 0, 0}, {4000.0, 0, 0}};
    tu_motion_rot_trans(&mb, r, p, 2);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT,
                .toi = 0.5 - 5e-6,
                .exit_mode = EXIT_AT,
                .exit = 0.5 + 5e-6,
                .check_point = 1,
                .point = {SQ2, 0.0, 0.1 + 1.0 - ISQ2},
                .reference = 1};
    boxtoi_result res = run_case("corner clips an edge for 1e-5", &q, &e);
    ok(res.normal[0] > 0.49, "corner clip: normal points into +x (%.17g)", res.normal[0]);

    /* The same vertex clipping A's face X' (A unrotated; the face lies at
     * x = 1): vertex x = 1 - 1e-7 + 4000 (t - 1/2)^2, B lies in x >= vertex
     * x, so contact exactly while |t - 1/2| <= 5e-6.  Face-vertex, "X'",
     * "XY'Z", normal +x. */
    double id[3][3];
    tu_identity3(id);
    motion_static(&ma, id, 0, 0, 0);
    p[0][0] = 1.0 + 1.0 + ISQ2 - 1e-7 + 1000.0;
    tu_motion_rot_trans(&mb, r, p, 2);
    q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect f = {.state = BOXTOI_HIT,
                .toi = 0.5 - 5e-6,
                .exit_mode = EXIT_AT,
                .exit = 0.5 + 5e-6,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "X'",
                .fb = "XY'Z",
                .check_normal = 1,
                .normal = {1, 0, 0},
                .check_point = 1,
                .point = {1.0, 0.0, 0.1 + 1.0 - ISQ2},
                .reference = 1};
    res = run_case("corner clips a face for 1e-5", &q, &f);
    check_swap("corner clips a face for 1e-5", &q, &res);
}

static void case_grazes(void)
{
    /* Quadratic graze: as in the vertex-face case, B's leading vertex at
     * x = 1 + 4 (t - 1/2)^2: it touches A's face X' at t = 1/2 only, without
     * penetrating.  Either MISS or HIT at t = 1/2 (a double root, located to
     * about sqrt(eps): allow 1e-6). */
    double r[3][3], id[3][3];
    rot_vertex_lead(r);
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double c0 = 1.0 + 1.0 + ISQ2 + 1.0;
    double p[3][3] = {{c0, 0.1, 0.2}, {-4.0, 0, 0}, {4.0, 0, 0}};
    tu_motion_rot_trans(&mb, r, p, 2);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    boxtoi_result res = boxtoi_solve(&q);
    ok(res.state == BOXTOI_MISS || (res.state == BOXTOI_HIT && fabs(res.toi - 0.5) <= 1e-6),
       "vertex grazes a face: miss, or hit at 0.5 (got %s, toi %.17g)",
       boxtoi_state_name(res.state), res.toi);
    if (res.state == BOXTOI_HIT)
        check_hit_geometry("vertex graze", &q, &res, 1);
    ok(sep(&q, 0.5) <= 1e-12 && sep(&q, 0.5) >= -1e-12 && sep(&q, 0.4) > 0 &&
           sep(&q, 0.6) > 0,
       "vertex graze: reference touches at 0.5 only (%.3g)", sep(&q, 0.5));

    /* Sliding graze: A = [-1,1]^3, B = [-1,1]^3 with centre (2, 5 - 4t, 0.3):
     * the x ranges [1,3] and [-1,1] always touch at x = 1, never overlap;
     * the y ranges [4 - 4t, 6 - 4t] and [-1,1] meet at t = 3/4.  Touching
     * without penetration from 3/4 on: MISS, or HIT at 3/4. */
    double pl[2][3] = {{2.0, 5.0, 0.3}, {0.0, -4.0, 0.0}};
    tu_motion_trans(&mb, pl, 1);
    q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    res = boxtoi_solve(&q);
    ok(res.state == BOXTOI_MISS ||
           (res.state == BOXTOI_HIT && fabs(res.toi - 0.75) <= 1e-9),
       "face slides onto a face: miss, or hit at 0.75 (got %s, toi %.17g)",
       boxtoi_state_name(res.state), res.toi);
    if (res.state == BOXTOI_HIT)
        check_hit_geometry("sliding graze", &q, &res, 0);

    /* A graze, then a real contact on the same axis: B's centre
     * (2.75 - 7t + 20t^2 - 16t^3, 0.3, -0.2), so the x gap between A's face
     * X' and B's face X is 16 (t - 1/4)^2 (3/4 - t): touching at t = 1/4
     * without penetrating, apart again (by 1/4 at t = 1/2), then overlapping
     * from t = 3/4 on.  Either the graze is the first contact (toi 1/4, and it
     * ends there: the rise above rounding comes about 1e-7 later), or it is
     * passed over and the contact at 3/4 lasts through t1.  A contact said to
     * start at 1/4 and last to t1 would miss the gap at 1/2. */
    double pg[4][3] = {{2.75, 0.3, -0.2}, {-7.0, 0, 0}, {20.0, 0, 0}, {-16.0, 0, 0}};
    tu_motion_trans(&mb, pg, 3);
    q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    res = boxtoi_solve(&q);
    int early = res.state == BOXTOI_HIT && fabs(res.toi - 0.25) <= 1e-6;
    if (early)
        ok(!res.exit_after_t1 && res.exit >= res.toi && res.exit - 0.25 <= 1e-6,
           "graze then contact: the graze at 1/4 ends there (exit %.17g, after t1 %d)",
           res.exit, res.exit_after_t1);
    else
        ok(res.state == BOXTOI_HIT && fabs(res.toi - 0.75) <= 1e-9 && res.exit_after_t1,
           "graze then contact: hit at 3/4 lasting through t1 (got %s, toi %.17g, "
           "after t1 %d)", boxtoi_state_name(res.state), res.toi, res.exit_after_t1);
    ok(sep(&q, 0.5) > 0.2 && sep(&q, 0.25) <= 1e-12 && sep(&q, 0.9) < -0.1,
       "graze then contact: reference apart at 1/2, touching at 1/4, overlapping at 0.9");
}

static void case_parallel_edges(void)
{
    /* A and B = [-1,1]^3, both rotated 45 deg about z.  A's largest x is
     * sqrt2 on its edge "X'-Y" (along z); B's smallest x is its centre minus
     * sqrt2, on its edge "X-Y'" (along z).  B's centre (5 - 4t, 0, 0.5):
     * the parallel edges meet (over z in [-0.5, 1]) when
     * 5 - 4t - sqrt2 = sqrt2: t = (5 - 2 sqrt2)/4.  The normal is any unit
     * vector in the cone spanned by (1, +-1, 0)/sqrt2: z component 0, x
     * component >= 1/sqrt2. */
    double rz[3][3];
    tu_rot_z(rz, DEG45);
    boxtoi_motion ma, mb;
    motion_static(&ma, rz, 0, 0, 0);
    double p[2][3] = {{5.0, 0.0, 0.5}, {-4.0, 0, 0}};
    tu_motion_rot_trans(&mb, rz, p, 1);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT, .toi = (5.0 - 2.0 * SQ2) / 4.0, .reference = 1};
    boxtoi_result r = run_case("parallel edges", &q, &e);
    ok(fabs(r.normal[2]) <= 1e-9 && r.normal[0] >= ISQ2 - 1e-9,
       "parallel edges: normal in the edges' common normal cone (%.17g %.17g %.17g)",
       r.normal[0], r.normal[1], r.normal[2]);
    check_swap("parallel edges", &q, &r);
}

/*
 * A segment crossing a thin rod's edge at a small angle th, edge on edge
 * (tu_rod_crossing).  A: x in [-2, 2], y and z in [-e, e] (e = 1e-3), at rest.  B: half length
 * 1/2 along b = (cos th, sin th, -sin th) / (1, sqrt2, sqrt2), its other
 * axes turned by 1/2 about b from n and b x n, centre (1.2, 0, 0) +
 * (1 - 2t) n with n = (0, 1, 1) / sqrt2, square to x and to b.  Along n,
 * A reaches e sqrt2, at its edge y = z = e ("Y'-Z'"), and B's centre
 * reaches that edge at t = (1 - sqrt2 e) / 2, the rest of B lying off
 * the rod along (0, 1, -1), square to n: first contact there, at
 * (1.2, e, e), normal n, edge on edge (neither box has a face along n).
 * B leaves through the opposite edge at t = (1 + sqrt2 e) / 2.  For th
 * below 1e-8 the closest points of the edges' lines come from a
 * difference of nearly equal products; the midpoint of the centres, 0.6
 * along x, lies 0.1 beyond B's end.
 */
static void case_nearly_parallel_edges(void)
{
    static const double ths[] = {2e-9, 5e-9, 2e-8, 1e-7, 1e-3};
    const double e = 1e-3;
    for (size_t k = 0; k < sizeof ths / sizeof ths[0]; k++) {
        double th = ths[k], b[3], n[3] = {0.0, ISQ2, ISQ2};
        boxtoi_query q = tu_rod_crossing(th, b);
        expect x = {.state = BOXTOI_HIT,
                    .toi = (1.0 - SQ2 * e) / 2.0,
                    .exit_mode = EXIT_AT,
                    .exit = (1.0 + SQ2 * e) / 2.0,
                    .check_kind = KIND_AND_POINT,
                    .kind = BOXTOI_EDGE_EDGE,
                    .fa = "Y'-Z'",
                    .check_normal = 1,
                    .normal = {n[0], n[1], n[2]},
                    .check_point = 1,
                    .point = {1.2, e, e},
                    .reference = 1};
        char name[64];
        snprintf(name, sizeof name, "segment over a rod's edge at %g rad", th);
        boxtoi_result r = run_case(name, &q, &x);
        check_swap(name, &q, &r);
    }
}

static void diag_mirror(int c, const char *what, const boxtoi_result *r,
                        const boxtoi_result *w);
static int swap_mirrors(const boxtoi_query *q, const boxtoi_result *r, const boxtoi_result *w);

/* f (4x4 polynomial entries, power form in t) = g h. */
static void poly_matmul(tu_poly g[4][4], tu_poly h[4][4], tu_poly f[4][4])
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            f[r][c] = tu_poly_const(0.0);
            for (int k = 0; k < 4; k++)
                f[r][c] = tu_poly_add(f[r][c], tu_poly_mul(g[r][k], h[k][c]), 1.0);
        }
}

/* The entries of motion m as polynomials in t. */
static void motion_entries(const boxtoi_motion *m, tu_poly e[4][4])
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            e[r][c] = tu_poly_const(0.0);
            e[r][c].n = m->degree;
            for (int k = 0; k <= m->degree; k++)
                e[r][c].a[k] = m->c[k][r][c];
        }
}

/*
 * Two unit cubes whose edges along x are nearly parallel, edge on edge.  In
 * A's frame B is A turned by th about k = (0, cos phi, sin phi), square to
 * x, with its centre at (0, 1, 1) + p(t) k,
 *   p(t) = K (t - 0.55) (t - 0.8) ((t - 0.3)^2 + 0.005).
 * Turning about k keeps B's edges along x square to k, so B's edge
 * y = z = -1/2 lies at p along k from A's edge y = z = 1/2: the boxes are
 * apart exactly while p > 0 (k parts them by p), and touch or overlap when
 * p <= 0 (every other axis then parts them by less than th).  A near miss
 * at t = 0.3 (p about K / 1000), first contact at 0.55, edge on edge, and
 * it ends at 0.8.  The frame is a random rotation about X0, at rest or
 * turning with a rational quaternion path that moves both cubes alike.
 * Below 1e-8 the edges stay within the touching tolerance of each other
 * over their length, and a corner on a face names the contact as well.  The
 * edge axis's function is the gap times the sine of th: formed the plain
 * way from terms of size 1, its roots were up to 1e-6 off at th = 1e-8
 * (rounding, eps over the sine), as were the exits.
 */
/*
 * Two cubes of half side 1/2 with local motions la and lb (entries in t)
 * placed in a random frame [Rq X0 w; 0 w]: q = q0 (+ q1 t when turning),
 * X0 up to 1000 from the origin when far, else 0; over [0, 1].
 */
static boxtoi_query cubes_in_frame(unsigned long long *rng, tu_poly la[4][4],
                                   tu_poly lb[4][4], int turning, int far)
{
    double q[2][4], x0[1][3] = {{0.0, 0.0, 0.0}};
    tu_rand_unit_quaternion(rng, q[0]);
    for (int c = 0; c < 4; c++)
        q[1][c] = tu_rand(rng, -0.5, 0.5);
    if (far)
        for (int c = 0; c < 3; c++)
            x0[0][c] = tu_rand(rng, -1000.0, 1000.0);
    boxtoi_motion frame, ma, mb;
    tu_poly fr[4][4], ma_e[4][4], mb_e[4][4];
    tu_rigid_motion(&frame, (const double(*)[4])q, turning, x0, 0, 0.0);
    motion_entries(&frame, fr);
    poly_matmul(fr, la, ma_e);
    poly_matmul(fr, lb, mb_e);
    tu_motion_from_tau(&ma, ma_e, 0.0);
    tu_motion_from_tau(&mb, mb_e, 0.0);
    return tu_query(cube(0.5), &ma, cube(0.5), &mb, 0.0, 1.0);
}

static void case_nearly_parallel_cubes(void)
{
    static const double ths[] = {2e-9, 1e-8, 1e-7, 1e-6, 1e-4};
    const double tc = 0.55, te = 0.8, t1 = 0.3, g = 0.005;
    unsigned long long rng = 0x9a11e1;
    for (size_t n = 0; n < sizeof ths / sizeof ths[0]; n++) {
        double th = ths[n];
        int bad = 0, bad_swap = 0, cases = 0;
        for (int f = 0; f < 16; f++) {
            double phi = tu_rand(&rng, 0.2, 1.37), K = tu_rand(&rng, 1.0, 5.0);
            double k[3] = {0.0, cos(phi), sin(phi)}, sn = sin(th), cs = cos(th), e[3][3];
            /* E = cos th I + sin th [k]x + (1 - cos th) k k^T */
            double kx[3][3] = {{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}};
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    e[r][c] = (r == c ? cs : 0.0) + sn * kx[r][c] + (1.0 - cs) * k[r] * k[c];
            /* p(t) in power form */
            tu_poly a = {1, {-tc, 1}}, b = {1, {-te, 1}}, d = {2, {t1 * t1 + g, -2 * t1, 1}};
            tu_poly pt = tu_poly_mul(tu_poly_mul(a, b), d);
            for (int i = 0; i <= pt.n; i++)
                pt.a[i] *= K;
            /* local motions: A [I 0; 0 1], B [E (0,1,1) + p k; 0 1] */
            tu_poly la[4][4], lb[4][4];
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) {
                    la[r][c] = tu_poly_const(r == c ? 1.0 : 0.0);
                    lb[r][c] = tu_poly_const(r == c ? 1.0 : 0.0);
                    if (r < 3 && c < 3)
                        lb[r][c] = tu_poly_const(e[r][c]);
                }
            for (int r = 0; r < 3; r++) {
                tu_poly off = tu_poly_const(r == 0 ? 0.0 : 1.0);
                lb[r][3] = tu_poly_add(off, pt, k[r]);
            }
            int turning = f >= 8;
            boxtoi_query qy = cubes_in_frame(&rng, la, lb, turning, f % 2);
            boxtoi_query sw = tu_swapped(&qy);
            boxtoi_result r = boxtoi_solve(&qy), w = boxtoi_solve(&sw);
            double size = sqrt(3.0), pe = NAN;
            if (r.state == BOXTOI_HIT && !r.exit_after_t1) {
                pe = 0.0;
                for (int i = pt.n; i >= 0; i--)
                    pe = pe * r.exit + pt.a[i];
            }
            int good = r.state == BOXTOI_HIT && fabs(r.toi - tc) <= 1e-9 &&
                       (th < 1e-8 || r.kind == BOXTOI_EDGE_EDGE) &&
                       fabs(r.exit - te) <= 1e-3 && fabs(pe) <= 1e-7 * size;
            cases++;
            if (!good && bad++ < 3)
                diag("th %g, frame %d (%s): %s toi %.17g exit %.17g (%.3g apart or deep "
                     "there), %s", th, f, turning ? "turning" : "at rest",
                     boxtoi_state_name(r.state), r.toi, r.exit, pe, boxtoi_kind_name(r.kind));
            if (!swap_mirrors(&qy, &r, &w) && bad_swap++ < 3)
                diag_mirror(f, " (nearly parallel cubes, swapped)", &r, &w);
        }
        ok(bad == 0 && bad_swap == 0,
           "cubes with edges %g rad from parallel, edge on edge: first contact at 0.55 "
           "within 1e-9, its end at 0.8 within 1e-7 of the size, mirrored when swapped, "
           "%d frames (%d bad, %d not mirrored)", th, cases, bad, bad_swap);
    }
}

/*
 * The motions of case_edges_meeting_turning_parallel's cubes: A at rest, B
 * turned about k by the quaternion (1, l(t) k), l = sg (t - tp), about the
 * point (x_local, -1/2, -1/2) of its edge y = z = -1/2, which lies at (x(t),
 * 1/2, 1/2) + p(t) k, p = K (t - 0.55) (t - 0.8) ((t - 0.3)^2 + 0.005)
 * (returned in pt); x = 0 where it is NULL.
 */
static void turning_edge_motions(double K, double sg, double tp, const double k[3],
                                 const tu_poly *x, double x_local, tu_poly la[4][4],
                                 tu_poly lb[4][4], tu_poly *pt)
{
    const double tc = 0.55, te = 0.8, t1 = 0.3, g = 0.005, h = 0.5;
    tu_poly a = {1, {-tc, 1}}, b = {1, {-te, 1}}, d = {2, {t1 * t1 + g, -2 * t1, 1}};
    *pt = tu_poly_mul(tu_poly_mul(a, b), d);
    for (int i = 0; i <= pt->n; i++)
        pt->a[i] *= K;
    tu_poly l = {1, {-sg * tp, sg}}, l2 = tu_poly_mul(l, l);
    tu_poly w = tu_poly_add(tu_poly_const(1.0), l2, 1.0), wp = tu_poly_mul(w, *pt);
    /* U = (1 - l^2) I + 2 l^2 k k^T + 2 l [k]x */
    double kx[3][3] = {{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}};
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            la[r][c] = tu_poly_const(r == c ? 1.0 : 0.0);
            lb[r][c] = tu_poly_const(0.0);
        }
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            tu_poly u = tu_poly_add(tu_poly_const(r == c ? 1.0 : 0.0), l2,
                                    (r == c ? -1.0 : 0.0) + 2.0 * k[r] * k[c]);
            lb[r][c] = tu_poly_add(u, l, 2.0 * kx[r][c]);
        }
    /* B's position: w (x, h, h) + w p k - U (x_local, -h, -h) */
    for (int r = 0; r < 3; r++) {
        tu_poly pos = tu_poly_add(tu_poly_const(0.0), wp, k[r]);
        if (r > 0)
            pos = tu_poly_add(pos, w, h);
        else if (x)
            pos = tu_poly_add(pos, tu_poly_mul(w, *x), 1.0);
        if (x_local != 0.0)
            pos = tu_poly_add(pos, lb[r][0], -x_local);
        for (int c = 1; c < 3; c++)
            pos = tu_poly_add(pos, lb[r][c], h);
        lb[r][3] = pos;
    }
    lb[3][3] = w;
}

/*
 * Edges turning through parallel as they meet.  In A's frame (the unit
 * cube at rest) B, another, turns about a direction k square to their x
 * edges, through the centre of its edge y = z = -1/2, by the rational
 * rotation of the quaternion (1, l(t) k), l = +-s (t - tp): its edges pass
 * through parallel to A's at tp.  That edge's centre lies on the line
 * through the centre of A's edge y = z = 1/2 along k, at p(t) = K (t -
 * 0.55) (t - 0.8) ((t - 0.3)^2 + 0.005) from it; the turn keeps every
 * point's distance along k, so the boxes are apart exactly while p > 0 (k
 * separates them, and the edges cross at their centres otherwise): the
 * first contact is at 0.55 and it ends at 0.8.  Near the contact the edge
 * axis's function is the gap times the sine of the edges' angle, nearly
 * double zero at tp and 0.55, and its slope as small as both: its root
 * moved by 7e-7 with rounding (the boxes 9e-9 deep there), and an exit
 * read from rounding ended a contact where it began.  With tp near 0.8
 * instead, exits came 5e-5 of the interval early or late, the boxes 1e-6
 * deep or apart there.  The frame is at rest or turning, near the origin
 * or up to 1000 from it.
 */
static void case_edges_meeting_turning_parallel(void)
{
    /* turning rate, distance of tp from the contact's start (or end) */
    static const double sets[][3] = {{1e-3, 1e-6, 0}, {1e-3, 1e-4, 0}, {1e-2, 1e-4, 0},
                                     {1e-2, 1e-3, 0}, {1e-4, 0.0, 0},  {3e-2, 3e-5, 1},
                                     {1e-3, 1e-4, 1}};
    const double tc = 0.55, te = 0.8;
    unsigned long long rng = 0x7e9a11;
    for (size_t n = 0; n < sizeof sets / sizeof sets[0]; n++) {
        double sp = sets[n][0], dtp = sets[n][1], at = sets[n][2] ? te : tc;
        int bad = 0, bad_swap = 0, cases = 0;
        for (int f = 0; f < 16; f++) {
            double phi = tu_rand(&rng, 0.2, 1.37), K = tu_rand(&rng, 0.2, 1.0);
            double k[3] = {0.0, cos(phi), sin(phi)};
            double tp = at + (f % 4 < 2 ? -dtp : dtp), sg = f % 2 ? -sp : sp;
            tu_poly la[4][4], lb[4][4], pt;
            turning_edge_motions(K, sg, tp, k, NULL, 0.0, la, lb, &pt);
            int turning = f >= 8;
            boxtoi_query qy = cubes_in_frame(&rng, la, lb, turning, f % 4 >= 2);
            boxtoi_query sw = tu_swapped(&qy);
            boxtoi_result r = boxtoi_solve(&qy), sr = boxtoi_solve(&sw);
            double size = sqrt(3.0), pc = NAN, pe = NAN;
            if (r.state == BOXTOI_HIT) {
                pc = pe = 0.0;
                for (int i = pt.n; i >= 0; i--) {
                    pc = pc * r.toi + pt.a[i];
                    pe = pe * r.exit + pt.a[i];
                }
            }
            /* no later than 0.55 + 1e-9, within 1e-9 of the size of touching */
            int good = r.state == BOXTOI_HIT && r.toi <= tc + 1e-9 &&
                       fabs(pc) <= 1e-9 * size && fabs(r.exit - te) <= 1e-3 &&
                       fabs(pe) <= 1e-7 * size;
            cases++;
            if (!good && bad++ < 3)
                diag("s %g, tp = %.17g, frame %d: %s toi %.17g (%.3g apart or deep), "
                     "exit %.17g (%.3g)", sg, tp, f, boxtoi_state_name(r.state), r.toi, pc,
                     r.exit, pe);
            if (!swap_mirrors(&qy, &r, &sr) && bad_swap++ < 3)
                diag_mirror(f, " (edges turning parallel, swapped)", &r, &sr);
        }
        ok(bad == 0 && bad_swap == 0,
           "cubes whose edges turn through parallel at %g rad per unit time, %g from their "
           "%s: first contact no later than 0.55 + 1e-9 and within 1e-9 of the size "
           "there, its end at 0.8 within 1e-7 of the size, mirrored when swapped, "
           "%d frames (%d bad, %d not mirrored)", sp, dtp, sets[n][2] ? "parting" : "meeting",
           cases, bad, bad_swap);
    }
}

/*
 * The same turn, with B's edge meeting A's end to end: B turns about the
 * corner (-1/2, -1/2, -1/2) at the end of that edge, which comes to A's
 * corner (1/2, 1/2, 1/2) along k as before (p) and along x at speed 10,
 * reaching x = 1/2 at tf, 3e-8 to 3e-7 after the edges' lines meet (0.55).
 * The turn keeps distances along k, and at the corner B's faces are
 * turned by 2 l from A's, a few 1e-9 rad, so the boxes first touch at tf
 * within 1e-9 / 10.  The edge axis's root at 0.55, near parallel edges, is
 * as far off as in the case above: in some frames past tf, the boxes
 * touching there, and A's face x then parts them where that axis's own
 * separation falls to the touching tolerance.  The first contact must be
 * no later than tf + 1e-9, the boxes within 1e-9 of the size of touching
 * there (the reference's signed distance), and at its end within 1e-7.
 */
static void case_edges_turning_parallel_end_to_end(void)
{
    /* turning rate, tp's distance from 0.55, tf - 0.55 */
    static const double sets[][3] = {{1e-3, 1e-6, 3e-7}, {1e-3, 1e-6, 3e-8}, {3e-3, 1e-6, 1e-7}};
    const double tc = 0.55, h = 0.5, u = 10.0;
    unsigned long long rng = 0x7e9a12;
    for (size_t n = 0; n < sizeof sets / sizeof sets[0]; n++) {
        double sp = sets[n][0], tf = tc + sets[n][2];
        int bad = 0, bad_swap = 0, cases = 0;
        for (int f = 0; f < 64; f++) {
            double phi = tu_rand(&rng, 0.2, 1.37), K = tu_rand(&rng, 0.2, 1.0);
            double k[3] = {0.0, cos(phi), sin(phi)};
            double tp = tc + (f % 4 < 2 ? -sets[n][1] : sets[n][1]), sg = f % 2 ? -sp : sp;
            tu_poly x = {1, {h + u * tf, -u}}, la[4][4], lb[4][4], pt;
            turning_edge_motions(K, sg, tp, k, &x, -h, la, lb, &pt);
            boxtoi_query qy = cubes_in_frame(&rng, la, lb, f >= 32, f % 4 >= 2);
            boxtoi_query sw = tu_swapped(&qy);
            boxtoi_result r = boxtoi_solve(&qy), sr = boxtoi_solve(&sw);
            double size = sqrt(3.0), dc = NAN, de = NAN;
            if (r.state == BOXTOI_HIT) {
                dc = ref_signed_distance(&qy, r.toi);
                de = ref_signed_distance(&qy, r.exit);
            }
            int good = r.state == BOXTOI_HIT && r.toi <= tf + 1e-9 &&
                       fabs(dc) <= 1e-9 * size && r.exit > r.toi && fabs(de) <= 1e-7 * size;
            cases++;
            if (!good && bad++ < 3)
                diag("s %g, tp = %.17g, frame %d: %s toi %.17g (%.3g deep), exit %.17g "
                     "(%.3g)", sg, tp, f, boxtoi_state_name(r.state), r.toi, dc, r.exit, de);
            if (!swap_mirrors(&qy, &r, &sr) && bad_swap++ < 3)
                diag_mirror(f, " (edges end to end, swapped)", &r, &sr);
        }
        ok(bad == 0 && bad_swap == 0,
           "cubes whose edges turn through parallel at %g rad per unit time, meeting end to "
           "end %g after their lines do: first contact no later than that + 1e-9 and "
           "within 1e-9 of the size there, within 1e-7 at its end, mirrored when swapped, "
           "%d frames (%d bad, %d not mirrored)", sp, sets[n][2], cases, bad, bad_swap);
    }
}

/* A coefficient of a recorded motion: box (0 A, 1 B), power, row, column. */
typedef struct recorded {
    int b, e, r, c;
    double v;
} recorded;

/*
 * The construction of case_edges_meeting_turning_parallel drawn by another
 * generator (A at rest, B's motion of degree 6, p = K (t - tc) (t - te)
 * ((t - t1)^2 + g)), the motions as it rounded them: first contact at tc,
 * its end at te, mirrored when swapped.
 */
static void check_recorded(const char *what, const recorded *coef, size_t n, double tc,
                           double te, double t1, double g, double K)
{
    boxtoi_motion m[2];
    memset(m, 0, sizeof m);
    m[1].degree = 6;
    for (size_t i = 0; i < n; i++)
        m[coef[i].b].c[coef[i].e][coef[i].r][coef[i].c] = coef[i].v;
    boxtoi_query q = tu_query(cube(0.5), &m[0], cube(0.5), &m[1], 0.0, 1.0);
    boxtoi_query sw = tu_swapped(&q);
    boxtoi_result r = boxtoi_solve(&q), w = boxtoi_solve(&sw);
    double pe = K * (r.exit - tc) * (r.exit - te) * ((r.exit - t1) * (r.exit - t1) + g);
    ok(r.state == BOXTOI_HIT && r.toi <= tc + 1e-9 && r.toi >= tc - 1e-9 &&
           fabs(r.exit - te) <= 1e-3 && fabs(pe) <= 1e-7 * sqrt(3.0),
       "%s: %s toi %.17g (%.17g), exit %.17g (%.17g, %.3g apart or deep)", what,
       boxtoi_state_name(r.state), r.toi, tc, r.exit, te, pe);
    ok(swap_mirrors(&q, &r, &w), "%s, swapped: mirrored", what);
}

/*
 * Recorded cases of that construction.  First, B turning at 1e-4 rad per
 * unit time, its edges parallel to A's just as they meet: the contact was
 * accepted 3e-14 before the boxes touched, two face axes still closing,
 * and an exit where they came down to their rounding level, read as a
 * graze 3e-13 later, ended it; it lasts 0.2 more.  Then, 1000 from the
 * origin, B's edges turning through parallel 1e-4 after they part (at
 * 0.03 rad per unit time): the edge axis stayed within its rounding level
 * as the boxes parted along it, and two face axes gave the exit, 1.2e-5
 * late, the boxes 8e-7 apart there.
 */
static void case_turning_parallel_recorded(void)
{
    static const recorded graze[] = {
        {0, 0, 0, 0, 0x1.c3febf86b7eedp-1}, {0, 0, 0, 1, 0x1.1f6a93e9d3faap-2},
        {0, 0, 0, 2, 0x1.81b4e05d91d1p-2}, {0, 0, 1, 0, -0x1.d0a683e3636aap-4},
        {0, 0, 1, 1, 0x1.cf9eca06c53bfp-1}, {0, 0, 1, 2, -0x1.a2b27280a7aa7p-2},
        {0, 0, 2, 0, -0x1.d2c7c772737bep-2}, {0, 0, 2, 1, 0x1.45df57784a89bp-2},
        {0, 0, 2, 2, 0x1.a9966d231e074p-1}, {0, 0, 3, 3, 0x1p+0},
        {1, 0, 0, 0, 0x1.c3fa47de33292p-1}, {1, 0, 0, 1, 0x1.1f5fcf06cfce1p-2},
        {1, 0, 0, 2, 0x1.81d1d701480d5p-2}, {1, 0, 0, 3, 0x1.529eb681df76ap-1},
        {1, 0, 1, 0, -0x1.d044ab242bbddp-4}, {1, 0, 1, 1, 0x1.cf9f7b3a44df7p-1},
        {1, 0, 1, 2, -0x1.a2b62b045af35p-2}, {1, 0, 1, 3, 0x1.01ec94a75ae26p-1},
        {1, 0, 2, 0, -0x1.d2df2aece7dbap-2}, {1, 0, 2, 1, 0x1.45e4e74f203afp-2},
        {1, 0, 2, 2, 0x1.a98ef2c565b58p-1}, {1, 0, 2, 3, 0x1.27c758d9be714p+0},
        {1, 0, 3, 3, 0x1.0000001324ebep+0}, {1, 1, 0, 0, 0x1.ac4ca57c63ad9p-15},
        {1, 1, 0, 1, 0x1.02120d09cb9bbp-14}, {1, 1, 0, 2, -0x1.5b0e49bdccfb4p-13},
        {1, 1, 0, 3, -0x1.d16cda2b39af7p-5}, {1, 1, 1, 0, -0x1.251dae1407c28p-13},
        {1, 1, 1, 1, -0x1.09829268cfcf6p-17}, {1, 1, 1, 2, 0x1.6492f362036fdp-16},
        {1, 1, 1, 3, -0x1.a0576c8f0c3bep-4}, {1, 1, 2, 0, 0x1.183feb3c88b93p-13},
        {1, 1, 2, 1, -0x1.0aa06af5f7e38p-15}, {1, 1, 2, 2, 0x1.666f58c4e375dp-14},
        {1, 1, 2, 3, -0x1.5a8b1a21970efp-4}, {1, 1, 3, 3, -0x1.cacb8db0e952cp-27},
        {1, 2, 0, 0, -0x1.2f542b29f4e58p-27}, {1, 2, 0, 1, 0x1.3b22ea0fe9d9fp-28},
        {1, 2, 0, 2, -0x1.17c7afa162437p-30}, {1, 2, 0, 3, 0x1.5c140c1b9d1eep-2},
        {1, 2, 1, 0, 0x1.37d256e72f405p-30}, {1, 2, 1, 1, 0x1.1f844a4b4150cp-28},
        {1, 2, 1, 2, 0x1.35a264943ba5cp-27}, {1, 2, 1, 3, 0x1.37acf4370a589p-1},
        {1, 2, 2, 0, 0x1.3940428730b39p-28}, {1, 2, 2, 1, 0x1.0d60fb281d29p-27},
        {1, 2, 2, 2, -0x1.2191d9d35c634p-28}, {1, 2, 2, 3, 0x1.037d5470664f2p-1},
        {1, 2, 3, 3, 0x1.5798ee2308c3ap-27}, {1, 3, 0, 3, -0x1.4608786a19545p-1},
        {1, 3, 1, 3, -0x1.23ef97e39727cp+0}, {1, 3, 2, 3, -0x1.e61c2d77c76a8p-1},
        {1, 4, 0, 3, 0x1.728cfa00b4d1fp-2}, {1, 4, 1, 3, 0x1.4bcc3b0de5436p-1},
        {1, 4, 2, 3, 0x1.143e179869e9cp-1}, {1, 5, 0, 3, -0x1.80d1c4c70d564p-27},
        {1, 5, 1, 3, -0x1.589301b3de281p-26}, {1, 5, 2, 3, -0x1.1ee1381c3a3bp-26},
        {1, 6, 0, 3, 0x1.f1583e2586ed4p-29}, {1, 6, 1, 3, 0x1.bd54d7f0ead13p-28},
        {1, 6, 2, 3, 0x1.72c4368a6e51ep-28},
    };
    static const recorded parting[] = {
        {0, 0, 0, 0, -0x1.18aea85708a86p-1}, {0, 0, 0, 1, -0x1.18e43a5c08cp-9},
        {0, 0, 0, 2, -0x1.ac34b3e67f0fbp-1}, {0, 0, 0, 3, 0x1.2a4670db4cp+10},
        {0, 0, 1, 0, -0x1.0566b246190a9p-1}, {0, 0, 1, 1, -0x1.9516fd9a97621p-1},
        {0, 0, 1, 2, 0x1.58c3c6842d217p-2}, {0, 0, 1, 3, -0x1.6441499ffcp+10},
        {0, 0, 2, 0, -0x1.53297d0a692f7p-1}, {0, 0, 2, 1, 0x1.391f1787954ccp-1},
        {0, 0, 2, 2, 0x1.bb06b40438e6cp-2}, {0, 0, 2, 3, 0x1.8fce27452p+8},
        {0, 0, 3, 3, 0x1p+0}, {1, 0, 0, 0, -0x1.2a470fa1b5ab3p-1},
        {1, 0, 0, 1, -0x1.12f1ab23c04p-6}, {1, 0, 0, 2, -0x1.a06e5a16e0493p-1},
        {1, 0, 0, 3, 0x1.2a3e1d8316a31p+10}, {1, 0, 1, 0, -0x1.e7323c66c3096p-2},
        {1, 0, 1, 1, -0x1.9bde8e895b719p-1}, {1, 0, 1, 2, 0x1.6df5dcd2e35dfp-2},
        {1, 0, 1, 3, -0x1.64958289f3053p+10}, {1, 0, 2, 0, -0x1.51dbde41a5959p-1},
        {1, 0, 2, 1, 0x1.308ba736ef139p-1}, {1, 0, 2, 2, 0x1.d76e1b0ae440bp-2},
        {1, 0, 2, 3, 0x1.911cb176320a7p+8}, {1, 0, 3, 3, 0x1.0027425e50659p+0},
        {1, 1, 0, 0, 0x1.55c5d18929374p-5}, {1, 1, 0, 1, 0x1.2f02366a4c1bbp-6},
        {1, 1, 0, 2, -0x1.d2418439f686fp-6}, {1, 1, 0, 3, -0x1.a54c2261e4b15p+0},
        {1, 1, 1, 0, -0x1.6036ff6ec01c8p-5}, {1, 1, 1, 1, 0x1.0a79c6fa421d3p-6},
        {1, 1, 1, 2, -0x1.95595cef4c55cp-6}, {1, 1, 1, 3, 0x1.1b202740dd46ep+1},
        {1, 1, 2, 0, -0x1.d8ad46590fb7p-9}, {1, 1, 2, 1, 0x1.48752f364d4aap-6},
        {1, 1, 2, 2, -0x1.18acedf548fecp-5}, {1, 1, 2, 3, -0x1.902b8a2370b24p-1},
        {1, 1, 3, 3, -0x1.80f74286c0333p-10}, {1, 2, 0, 0, 0x1.02ad409eda837p-11},
        {1, 2, 0, 1, -0x1.62a51c2aaa4fp-11}, {1, 2, 0, 2, 0x1.5a34591ba8c88p-12},
        {1, 2, 0, 3, 0x1.471b3a8462e12p-1}, {1, 2, 1, 0, 0x1.e1d08a8a372adp-12},
        {1, 2, 1, 1, -0x1.606d1915e66cp-15}, {1, 2, 1, 2, -0x1.95210dcf2677fp-11},
        {1, 2, 1, 3, -0x1.c41717ad1f147p+0}, {1, 2, 2, 0, 0x1.38925ec1ea27ap-11},
        {1, 2, 2, 1, 0x1.3678d72faa7e5p-11}, {1, 2, 2, 2, 0x1.51fa1e233b68cp-12},
        {1, 2, 2, 3, 0x1.17a4fd2adf463p+0}, {1, 2, 3, 3, 0x1.d7dbf487fcb92p-11},
        {1, 3, 0, 3, 0x1.5e94b054865afp-1}, {1, 3, 1, 3, 0x1.85b72aa26854ap-1},
        {1, 3, 2, 3, -0x1.273f8216a77ap+0}, {1, 4, 0, 3, -0x1.791bda402f42bp-2},
        {1, 4, 1, 3, -0x1.a3346a48050cap-2}, {1, 4, 2, 3, 0x1.3d96cfc238403p-1},
        {1, 5, 0, 3, 0x1.2e6d653dbedp-10}, {1, 5, 1, 3, 0x1.502fccf40b033p-10},
        {1, 5, 2, 3, -0x1.fd63b3f44af3ap-10}, {1, 6, 0, 3, -0x1.5a053068a1877p-12},
        {1, 6, 1, 3, -0x1.80a5574edbf9ep-12}, {1, 6, 2, 3, 0x1.236846de41095p-11},
    };
    check_recorded("edges parallel as they meet, face axes closing at the contact", graze,
                   sizeof graze / sizeof graze[0], 0x1.55d439feccccdp-1, 0x1.beeadbcf9999ap-1,
                   0x1.c0ecc5f333334p-4, 0x1.c3712d9374bc7p-8, 0x1.d5d0c78cccccep-1);
    check_recorded("edges turning parallel as they part, 1000 from the origin", parting,
                   sizeof parting / sizeof parting[0], 0x1.2f64419f33333p-1, 0x1.a1afb568p-1,
                   0x1.d2f4a6e333334p-3, 0x1.7fb36bd604189p-8, 0x1.a6d04a8666666p-1);
}

/* The constant motion mb = [r 0; 0 w] (a frame) times a translation along
   c0 + t v in that frame: [r r (c0 + t v); 0 w]. */
static void moving_in_frame(const boxtoi_motion *mb, double r[3][3], const double c0[3],
                            const double v[3], boxtoi_motion *ma)
{
    double p0[3], p1[3];
    tu_mul3v((const double(*)[3])r, c0, p0);
    tu_mul3v((const double(*)[3])r, v, p1);
    *ma = *mb;
    ma->degree = 1;
    for (int i = 0; i < 3; i++) {
        ma->c[0][i][3] = p0[i];
        ma->c[1][i][3] = p1[i];
    }
}

/*
 * Boxes turned alike, so that edges of A stay parallel to edges of B: those
 * edge axes are zero throughout and separate nowhere, and must not end a
 * contact.  In the boxes' common frame (orientation from the quaternion q,
 * constant), B is the unit cube at rest; A, a cube of half side 1/8 at
 * (-1 + 4t, -3/8, -1/4), passes through B from t = 3/32 (its face reaches
 * x = -1/2) to 13/32 (it leaves x = 1/2), or a point at (-1 + 4t, 1/4,
 * 1/8) from 1/8 to 3/8; or A, a unit cube at (-1.5 + t, dy, dz), pushes
 * into B from t = 1/2 to the end.
 */
static void case_parallel_exit(void)
{
    static const double quats[5][4] = {
        {0.23485798824452428, -0.18763862207291035, 0.63167417411717974, 0.71457764491879605},
        {0.67687179083455085, 0.20485942613599292, 0.54571261622619094, -0.44952745721170978},
        {-0.22800562063960442, 0.52752965687058817, -0.30071646910659711, -0.76111464529780881},
        {0.5, 0.5, 0.5, 0.5},
        {0.8, 0.0, 0.6, 0.0}};
    int bad = 0;
    for (int k = 0; k < 5; k++) {
        /* B: [Rq 0; 0 |q|^2], Rq the unnormalised rotation of q; A the same
           times the translation: [Rq Rq c(t); 0 |q|^2] */
        boxtoi_motion mb;
        double zero[1][3] = {{0, 0, 0}}, r[3][3];
        tu_rigid_motion(&mb, &quats[k], 0, zero, 0, 0.0);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                r[i][j] = mb.c[0][i][j];
        for (int push = 0; push < 2; push++) {
            /* A's centre in the common frame: c0 + t v */
            double c0[3] = {-1.0, -0.375, -0.25}, v[3] = {4.0, 0, 0};
            if (push) {
                c0[0] = -1.5;
                c0[1] = k % 2 ? 0.1 : -0.375;
                c0[2] = k % 2 ? 0.1 : 0.5;
                v[0] = 1.0;
            } else if (k == 2) { /* a point (A of size 0) along y = 1/4, z = 1/8 */
                c0[1] = 0.25;
                c0[2] = 0.125;
            }
            boxtoi_motion ma;
            moving_in_frame(&mb, r, c0, v, &ma);
            double h = push ? 0.5 : k == 2 ? 0.0 : 0.125;
            boxtoi_query q = tu_query(cube(h), &ma, cube(0.5), &mb, 0, 1);
            for (int swap = 0; swap < 2; swap++) {
                boxtoi_query x = swap ? tu_swapped(&q) : q;
                boxtoi_result res = boxtoi_solve(&x);
                /* passing: from x + h = -1/2 to x - h = 1/2, x = -1 + 4t */
                double toi = push ? 0.5 : (0.5 - h) / 4, exit = (1.5 + h) / 4;
                int good = res.state == BOXTOI_HIT && fabs(res.toi - toi) <= 1e-12 &&
                           (push ? res.exit_after_t1 == 1
                                 : !res.exit_after_t1 && fabs(res.exit - exit) <= 1e-12);
                if (!good && bad++ < 4)
                    diag("q %d, %s%s: %s toi %.17g exit %.17g (after t1 %d)", k,
                         push ? "pushing in" : "passing through", swap ? ", swapped" : "",
                         boxtoi_state_name(res.state), res.toi, res.exit, res.exit_after_t1);
            }
        }
    }
    is_int(bad, 0, "parallel edges throughout: the contact ends when the boxes part "
           "(passing through), or after t1 (pushing in), in both orders");
}

/* A random constant frame, [R 0; 0 w] with R w the unnormalised rotation of
   a random unit quaternion; r (when not NULL) gets R w. */
static void random_frame(unsigned long long *rng, boxtoi_motion *m, double r[3][3])
{
    double q[1][4], zero[1][3] = {{0, 0, 0}};
    tu_rand_unit_quaternion(rng, q[0]);
    tu_rigid_motion(m, (const double(*)[4])q, 0, zero, 0, 0.0);
    for (int i = 0; r && i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = m->c[0][i][j];
}

/* Both answers of case c, r and w (A and B swapped), in a diagnostic. */
static void diag_mirror(int c, const char *what, const boxtoi_result *r,
                        const boxtoi_result *w)
{
    char fa[16], fb[16], ga[16], gb[16];
    tu_feature_name(&r->feature_a, fa);
    tu_feature_name(&r->feature_b, fb);
    tu_feature_name(&w->feature_a, ga);
    tu_feature_name(&w->feature_b, gb);
    diag("case %d%s: %s toi %.17g %s %s / %s normal (%.17g %.17g %.17g); swapped %s "
         "toi %.17g %s %s / %s normal (%.17g %.17g %.17g)", c, what,
         boxtoi_state_name(r->state), r->toi, boxtoi_kind_name(r->kind), fa, fb,
         r->normal[0], r->normal[1], r->normal[2], boxtoi_state_name(w->state), w->toi,
         boxtoi_kind_name(w->kind), ga, gb, w->normal[0], w->normal[1], w->normal[2]);
}

/* Is w, the answer to q with A and B swapped, r's mirror bit for bit? */
static int swap_mirrors(const boxtoi_query *q, const boxtoi_result *r, const boxtoi_result *w)
{
    char why[1024];
    return mirrors_exactly(q, r, w, why, sizeof why);
}

/* Solve q into *r, and its swap: do the two answers mirror each other? */
static int solve_mirrored(const boxtoi_query *q, boxtoi_result *r)
{
    boxtoi_query y = tu_swapped(q);
    boxtoi_result w = boxtoi_solve(&y);
    *r = boxtoi_solve(q);
    return swap_mirrors(q, r, &w);
}

/*
 * Faces meeting flat, both boxes turned by one random constant rotation R
 * (the frame): B at rest, centred on the origin; A, with other half
 * extents, comes along axis k from the side s and meets B's face at
 * t = 1/2, off centre across the face.  Extents and offsets are multiples
 * of 1/8, so that the faces' rectangles often share a side or a corner.
 * The contact is the box where the two overlap at t = 1/2, read from the
 * extents in the frame: its centre, R times it, is the point, in both
 * orders.  (The centre was the mean of the clipped outline's corners,
 * pulled off centre by the repeated corners that shared sides leave.)
 * With `edges`, A also comes along one or both other axes, at its own
 * speed, to meet B edge to edge or corner to corner at t = 1/2: the
 * contact is then a segment or a point, which rounding in the frame leaves
 * a sliver or nothing when the rectangles are clipped exactly.  (Its point
 * was cut short along the segment, or taken from what an empty clip left
 * behind, up to 0.8 off.)  With `equal_speeds`, A comes along all of them
 * at one speed, so that no axis leads the approach, and either box is
 * sometimes a plate across one of the other axes (a zero extent, whose
 * side the normal runs square to: named - in both orders, not by the sign
 * rounding gives).  SHARED_TINY_FAR makes the boxes 1/1024 the size and
 * puts the frame up to 1000 from the origin, where rounding in the
 * coordinates is 1e-10 of the boxes.
 */
#define SHARED_EDGES 1u    /* edges and corners meeting too */
#define SHARED_EQUAL 2u    /* at one speed, some boxes plates */
#define SHARED_TINY_FAR 4u /* boxes 1/1024 the size, the frame up to 1000 away */

static void flat_shared_orientation(unsigned mode, unsigned long long seed)
{
    unsigned long long rng = seed;
    int bad = 0, bad_swap = 0, n = mode & SHARED_TINY_FAR ? 2000 : 300,
        edges = (mode & SHARED_EDGES) != 0,
        equal_speeds = (mode & SHARED_EQUAL) != 0;
    double sc = mode & SHARED_TINY_FAR ? 0x1p-10 : 1.0, far = mode & SHARED_TINY_FAR ? 1000 : 0;
    /* the promise for the point, with the rounding of coordinates up to 1000 */
    double tol_point = 1e-9 * sc * 4 + 16 * DBL_EPSILON * far;
    for (int c = 0; c < n; c++) {
        double r[3][3], hA[3], hB[3], o[3];
        boxtoi_motion mb;
        random_frame(&rng, &mb, r);
        double w = mb.c[0][3][3], p0[3];
        for (int i = 0; i < 3; i++) {
            p0[i] = (int)tu_rand(&rng, -8 * far, 8 * far + 1) / 8.0;
            mb.c[0][i][3] = w * p0[i];
        }
        int k = (int)tu_rand(&rng, 0, 3), meet[3] = {0, 0, 0};
        meet[k] = 1;
        if (edges) {
            int j = (k + 1 + (int)tu_rand(&rng, 0, 2)) % 3;
            meet[j] = 1;
            meet[3 - k - j] = tu_rand(&rng, 0, 1) < 0.3;
        }
        double c0[3], v[3], want_f[3], want[3];
        for (int j = 0; j < 3; j++) {
            hA[j] = (1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
            hB[j] = (1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
            if (equal_speeds && j != k && tu_rand(&rng, 0, 1) < 0.3)
                *(tu_rand(&rng, 0, 1) < 0.5 ? &hA[j] : &hB[j]) = 0.0; /* a plate */
            /* across the face: an overlap of at least 1/8 */
            int m = (int)(8 * (hA[j] + hB[j])) - 1;
            o[j] = (int)tu_rand(&rng, -m, m + 1) / 8.0;
            v[j] = 0.0;
            if (meet[j]) {
                /* A's centre at t = 1/2 on the plane where the faces meet */
                double s = tu_rand(&rng, -1, 1) < 0 ? -1.0 : 1.0;
                o[j] = s * (hA[j] + hB[j]);
                v[j] = j == k || equal_speeds ? -2.0 * s
                                              : -s * (1 + (int)tu_rand(&rng, 0, 4)) / 4.0;
            }
            c0[j] = o[j] - 0.5 * v[j];
        }
        for (int j = 0; j < 3; j++) {
            hA[j] *= sc;
            hB[j] *= sc;
            o[j] *= sc;
            v[j] *= sc;
            c0[j] *= sc;
        }
        for (int j = 0; j < 3; j++)
            want_f[j] = 0.5 * (fmax(o[j] - hA[j], -hB[j]) + fmin(o[j] + hA[j], hB[j]));
        tu_mul3v((const double(*)[3])r, want_f, want);
        for (int j = 0; j < 3; j++)
            want[j] = want[j] / w + p0[j];
        boxtoi_motion ma;
        moving_in_frame(&mb, r, c0, v, &ma);
        for (int i = 0; i < 3; i++)
            ma.c[0][i][3] += mb.c[0][i][3];
        boxtoi_box a = tu_box(-hA[0], -hA[1], -hA[2], hA[0], hA[1], hA[2]);
        boxtoi_box b = tu_box(-hB[0], -hB[1], -hB[2], hB[0], hB[1], hB[2]);
        boxtoi_query x = tu_query(a, &ma, b, &mb, 0, 1), y = tu_swapped(&x);
        boxtoi_result res[2] = {boxtoi_solve(&x), boxtoi_solve(&y)};
        for (int swap = 0; swap < 2; swap++) {
            double err = 0;
            for (int j = 0; j < 3; j++)
                err = fmax(err, fabs(res[swap].point[j] - want[j]));
            if (res[swap].state == BOXTOI_HIT && fabs(res[swap].toi - 0.5) <= 1e-9 &&
                err <= tol_point)
                continue;
            if (bad++ < 4)
                diag("case %d%s: %s toi %.17g, point (%.17g %.17g %.17g), "
                     "%.3g from the overlap's centre", c, swap ? ", swapped" : "",
                     boxtoi_state_name(res[swap].state), res[swap].toi,
                     res[swap].point[0], res[swap].point[1], res[swap].point[2], err);
        }
        if (!swap_mirrors(&x, &res[0], &res[1]) && bad_swap++ < 4)
            diag_mirror(c, "", &res[0], &res[1]);
    }
    if (mode & SHARED_TINY_FAR) {
        is_int(bad, 0, "faces, edges and corners meeting in a shared turned frame, boxes "
               "of 1e-3 up to 1000 from the origin: the point is the centre of where they "
               "meet, in both orders (%d cases)", n);
        is_int(bad_swap, 0, "boxes of 1e-3 up to 1000 from the origin: swapping A and B "
               "swaps the features and negates the normal (%d cases)", n);
        return;
    }
    if (equal_speeds) {
        is_int(bad, 0, "edges and corners meeting at equal speeds in a shared turned "
               "frame, some of the boxes plates: the point is the centre of where they "
               "meet, in both orders (%d cases)", n);
        is_int(bad_swap, 0, "edges and corners meeting at equal speeds: swapping A and B "
               "swaps the features and negates the normal (%d cases)", n);
        return;
    }
    is_int(bad_swap, 0, "%s in a shared turned frame: swapping A and B swaps the "
           "features and negates the normal (%d cases)",
           edges ? "edges and corners meeting" : "faces meeting flat", n);
    if (edges)
        is_int(bad, 0, "edges and corners meeting in a shared turned frame: the point is "
               "the centre of the segment, or the point, where they meet, in both "
               "orders (%d cases)", n);
    else
        is_int(bad, 0, "faces meeting flat in a shared turned frame: the point is the "
               "centre of the faces' overlap, in both orders (%d cases)", n);
}

static void case_flat_shared_orientation(void)
{
    flat_shared_orientation(0, 0x5eed0f1a7ull);
    flat_shared_orientation(SHARED_EDGES, 0x5eed0f1a8ull);
    flat_shared_orientation(SHARED_EDGES | SHARED_EQUAL, 0x5eed0f1a9ull);
    flat_shared_orientation(SHARED_EDGES | SHARED_TINY_FAR, 0x5eed0f1aaull);
}

/*
 * Half extents of A (1/4 to 11/8) and B (1/8 to 1) in eighths, and the
 * rational turn (c, 0, 0, s) of B's face about z, not a multiple of 90
 * degrees.
 */
static void turned_face_draw(unsigned long long *rng, double hA[3], double hB[3], int *cq,
                             int *sq)
{
    for (int j = 0; j < 3; j++) {
        hA[j] = (2 + (int)tu_rand(rng, 0, 10)) / 8.0;
        hB[j] = (1 + (int)tu_rand(rng, 0, 8)) / 8.0;
    }
    do {
        *cq = (int)tu_rand(rng, -4, 5);
        *sq = (int)tu_rand(rng, -4, 5);
    } while (*cq == 0 || *sq == 0 || *cq == *sq || *cq == -*sq);
}

/*
 * A face turned about its normal and tilting, that comes down flat on
 * another exactly at the contact: in a random frame, A at rest, centred on
 * the origin; B below it, turned about z by the rational rotation of
 * (c, 0, 0, s) (not a multiple of 90 degrees) and tilted about its own x
 * by the quaternion (1, k (t - 1/2), 0, 0), rises fast enough (v > 2 k hB_y)
 * that its top face meets A's bottom face flat at t = 1/2, where the tilt
 * is 0.  Then edges of A and B lie in the two faces, so their pairs are
 * level with the faces along the same line, and 1e-6 before the contact the
 * tilted edge pair separates most: it was named, with edges that need not
 * meet and a point off both boxes.  The point must lie in both boxes, and
 * swapping A and B must mirror the answer.
 */
static void case_tilting_turned_face(void)
{
    unsigned long long rng = 0x7117ed5ull;
    int bad = 0, n = 300;
    for (int id = 0; id < n; id++) {
        double hA[3], hB[3];
        boxtoi_motion frame, inner, mb;
        random_frame(&rng, &frame, NULL);
        int cq, sq;
        turned_face_draw(&rng, hA, hB, &cq, &sq);
        double k = (1 + (int)tu_rand(&rng, 0, 8)) / 4.0;
        double v = 2.0 * k * hB[1] + (1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
        int m = (int)(4 * fmin(hA[0], hA[1]));
        double ox = (int)tu_rand(&rng, -m, m + 1) / 8.0, oy = (int)tu_rand(&rng, -m, m + 1) / 8.0;
        /* (c, 0, 0, s) times (1, a, 0, 0), a = k (t - 1/2): linear in t */
        double q[2][4] = {{cq, -0.5 * k * cq, -0.5 * k * sq, sq}, {0, k * cq, k * sq, 0}};
        double p[2][3] = {{ox, oy, -hA[2] - hB[2] - 0.5 * v}, {0, 0, v}};
        boxtoi_motion_rigid(&inner, (const double(*)[4])q, 1, (const double(*)[3])p, 1);
        boxtoi_motion_multiply(&mb, &frame, &inner);
        boxtoi_box a = tu_box(-hA[0], -hA[1], -hA[2], hA[0], hA[1], hA[2]);
        boxtoi_box b = tu_box(-hB[0], -hB[1], -hB[2], hB[0], hB[1], hB[2]);
        boxtoi_query x = tu_query(a, &frame, b, &mb, 0, 1), y = tu_swapped(&x);
        boxtoi_result res[2] = {boxtoi_solve(&x), boxtoi_solve(&y)};
        double worst = 0.0, apart = 0.0, tol = 1e-9 * 4;
        for (int swap = 0; swap < 2; swap++) {
            double la[3], lb[3];
            if (!to_local(&x.motion_a, res[swap].toi, res[swap].point, la) ||
                !to_local(&x.motion_b, res[swap].toi, res[swap].point, lb)) {
                worst = INFINITY;
                continue;
            }
            for (int j = 0; j < 3; j++) {
                worst = fmax(worst, fabs(la[j]) - hA[j]);
                worst = fmax(worst, fabs(lb[j]) - hB[j]);
                apart = fmax(apart, fabs(res[0].point[j] - res[1].point[j]));
            }
        }
        if (res[0].state == BOXTOI_HIT && fabs(res[0].toi - 0.5) <= 1e-9 && worst <= tol &&
            apart <= tol && swap_mirrors(&x, &res[0], &res[1]))
            continue;
        if (bad++ < 4) {
            diag_mirror(id, "", &res[0], &res[1]);
            diag("case %d: point outside a box by %.3g, the two points %.3g apart", id,
                 worst, apart);
        }
    }
    is_int(bad, 0, "a turned face tilting down flat on another: the point lies in both "
           "boxes and swapping A and B mirrors the answer (%d cases)", n);
}

/*
 * Plates in one plane (no z extent; some also with no x or y extent:
 * segments and points) touching at t0 edge to edge or corner to corner,
 * with extents off centre, in a random frame; A then moves off in the
 * plane, sometimes out of it.  All axes are level at t0, and the tie named
 * one whose offset the centres did not orient while the axis that led
 * before the tie was oriented: the normal was then taken at t0 in one
 * order and 1e-6 later in the other, and came out the same in both
 * (a point on a segment's end).  Swapping A and B must swap the features
 * and negate the normal.
 */
static void case_plates_touching_at_t0(void)
{
    unsigned long long rng = 0xc0b1a7eull;
    int bad = 0, n = 2000;
    for (int c = 0; c < n; c++) {
        double r[3][3], lo[2][3] = {{0}}, hi[2][3] = {{0}}, d0[3] = {0, 0, 0},
                        v[3] = {0, 0, 0};
        boxtoi_motion mb, ma;
        random_frame(&rng, &mb, r);
        for (int b = 0; b < 2; b++)
            for (int k = 0; k < 2; k++) {
                lo[b][k] = -(int)tu_rand(&rng, 0, 13) / 8.0;
                hi[b][k] = tu_rand(&rng, 0, 1) < 0.3 ? lo[b][k] : (int)tu_rand(&rng, 0, 13) / 8.0;
            }
        int both = tu_rand(&rng, 0, 1) < 0.5, ax = (int)tu_rand(&rng, 0, 2);
        for (int k = 0; k < 2; k++) {
            /* A's offset from B: touching along axis k at either end */
            double dlo = lo[1][k] - hi[0][k], dhi = hi[1][k] - lo[0][k];
            if (k == ax || both)
                d0[k] = tu_rand(&rng, 0, 1) < 0.5 ? dlo : dhi;
            else
                d0[k] = dlo + (int)tu_rand(&rng, 0, 8 * (dhi - dlo) + 1) / 8.0;
            v[k] = (int)tu_rand(&rng, -8, 9) / 8.0;
        }
        if (tu_rand(&rng, 0, 1) < 0.3)
            v[2] = (int)tu_rand(&rng, -8, 9) / 8.0;
        if (v[0] == 0 && v[1] == 0 && v[2] == 0)
            v[0] = 1 / 8.0;
        moving_in_frame(&mb, r, d0, v, &ma);
        boxtoi_box a = tu_box(lo[0][0], lo[0][1], 0, hi[0][0], hi[0][1], 0);
        boxtoi_box b = tu_box(lo[1][0], lo[1][1], 0, hi[1][0], hi[1][1], 0);
        boxtoi_query x = tu_query(a, &ma, b, &mb, 0, 1), y = tu_swapped(&x);
        boxtoi_result r0 = boxtoi_solve(&x), r1 = boxtoi_solve(&y);
        if (r0.state == BOXTOI_OVERLAP && r0.toi == 0.0 && swap_mirrors(&x, &r0, &r1))
            continue;
        if (bad++ < 4)
            diag_mirror(c, "", &r0, &r1);
    }
    is_int(bad, 0, "plates, segments and points in one plane touching edge to edge or "
           "corner to corner at t0: swapping A and B swaps the features and negates the "
           "normal (%d cases)", n);
}

/*
 * A face tilted by a tiny constant angle (1e-12 to 1e-5 rad) coming down
 * on another: in a random frame, A at rest, centred on the origin; B below
 * it, turned about z by the rational rotation of (c, 0, 0, s) (not a
 * multiple of 90 degrees) and tilted by about `tilt` about a random
 * horizontal axis, rises at a constant speed to meet A's bottom face near
 * t = 1/2.  Such faces are parallel within the face preference (1e-9 of
 * the size) but not within the touching tolerance, or the edges of the
 * tilted face lie along the other face's lines: the face was named with a
 * support (a single corner or edge) beyond the face's side, and the point,
 * clamped onto the face, was up to 0.5 off the other box; or edge pairs
 * level by their nearly coincident lines alone were named, edges that do
 * not meet, with a point 1e-6 off both boxes.  The time must agree with the
 * reference's, the point must lie in both boxes (within twice the promise)
 * and swapping A and B must mirror the answer.  With `tiny_far`, boxes
 * 1/1024 the size, the frame up to 1000 from the origin.
 */
static void near_flat_tilt(double lo, double hi, int tiny_far, unsigned long long seed)
{
    unsigned long long rng = seed;
    int bad = 0, n = 300;
    double sc = tiny_far ? 0x1p-10 : 1.0, far = tiny_far ? 1000.0 : 0.0;
    for (int id = 0; id < n; id++) {
        double hA[3], hB[3];
        boxtoi_motion frame, inner, mb;
        random_frame(&rng, &frame, NULL);
        double w = frame.c[0][3][3];
        for (int i = 0; i < 3; i++)
            frame.c[0][i][3] = w * (int)tu_rand(&rng, -8 * far, 8 * far + 1) / 8.0;
        int cq, sq;
        turned_face_draw(&rng, hA, hB, &cq, &sq);
        double d = lo * pow(hi / lo, tu_rand(&rng, 0, 1)), ang = tu_rand(&rng, 0, 6.283185307179586);
        double x = 0.5 * d * cos(ang), y = 0.5 * d * sin(ang);
        double v = (2 + (int)tu_rand(&rng, 0, 6)) / 8.0;
        int m = (int)(8 * (fmin(hA[0], hA[1]) + fmin(hB[0], hB[1]))) - 1;
        double ox = (int)tu_rand(&rng, -m, m + 1) / 8.0, oy = (int)tu_rand(&rng, -m, m + 1) / 8.0;
        /* (c, 0, 0, s) times (1, x, y, 0) */
        double q[1][4] = {{cq, cq * x - sq * y, cq * y + sq * x, sq}};
        double p[2][3] = {{ox * sc, oy * sc, (-hA[2] - hB[2] - 0.5 * v) * sc}, {0, 0, v * sc}};
        boxtoi_motion_rigid(&inner, (const double(*)[4])q, 0, (const double(*)[3])p, 1);
        boxtoi_motion_multiply(&mb, &frame, &inner);
        boxtoi_box a = tu_box(-hA[0] * sc, -hA[1] * sc, -hA[2] * sc, hA[0] * sc,
                                hA[1] * sc, hA[2] * sc);
        boxtoi_box b = tu_box(-hB[0] * sc, -hB[1] * sc, -hB[2] * sc, hB[0] * sc,
                                hB[1] * sc, hB[2] * sc);
        boxtoi_query qx = tu_query(a, &frame, b, &mb, 0, 1), qy = tu_swapped(&qx);
        boxtoi_result res[2] = {boxtoi_solve(&qx), boxtoi_solve(&qy)};
        ref_answer ra;
        ref_solve(&qx, 0.0, &ra);
        /* the promise, with the rounding of coordinates up to 1000 */
        double size = qsize(&qx), tol = 2e-9 * size + 16 * DBL_EPSILON * (far + 2.0);
        double outside = 0.0, dist = INFINITY;
        for (int swap = 0; swap < 2; swap++) {
            outside = fmax(outside, ref_point_box_distance(&qx.a, &qx.motion_a, res[swap].toi,
                                                           res[swap].point));
            outside = fmax(outside, ref_point_box_distance(&qx.b, &qx.motion_b, res[swap].toi,
                                                           res[swap].point));
        }
        if (res[0].state == BOXTOI_HIT)
            dist = -ref_signed_distance(&qx, res[0].toi);
        if (ra.valid && ra.hit && res[0].state == BOXTOI_HIT &&
            res[0].toi <= ra.toi + 1e-9 && dist <= tol && outside <= tol &&
            swap_mirrors(&qx, &res[0], &res[1]))
            continue;
        if (bad++ < 4) {
            diag_mirror(id, "", &res[0], &res[1]);
            diag("case %d: tilt %.3g, reference toi %.17g, apart %.3g at the time, point "
                 "outside a box by %.3g (tolerance %.3g)", id, d, ra.toi, dist, outside,
                 tol);
        }
    }
    is_int(bad, 0, "a face tilted by %g to %g rad coming down on another%s: the time is "
           "the reference's, the point lies in both boxes and swapping A and B mirrors "
           "the answer (%d cases)", lo, hi, tiny_far ? ", boxes of 1e-3 up to 1000 from "
           "the origin" : "", n);
}

/*
 * A plate (no z extent) tilted by about 1e-8 rad coming down on another,
 * in a random frame (drawn once; the numbers are that draw's).  A plate's
 * face was probed for the other box's support with the normal oriented by
 * the centres at the contact, where the offset along it is 0, and so by
 * rounding: the face was kept, then named with the normal from before the
 * contact, its support a corner beyond its sides: the point was 0.19
 * outside A, in both orders.  The point must lie in both boxes, and
 * swapping A and B must mirror the answer.
 */
/*
 * A query written out bit for bit (hex literals), as a fuzzer or test-random
 * found it: the boxes' corners, the motions' degrees, the nonzero
 * coefficients (k, row, column, value) of A's motion, then of B's.
 */
typedef struct literal_query {
    double alo[3], ahi[3], blo[3], bhi[3];
    int deg_a, deg_b, na, nb;
    struct {
        int k, r, c;
        double v;
    } e[128];
} literal_query;

/* The query of l over the interval [t0, t1]. */
static boxtoi_query literal_over(const literal_query *l, double t0, double t1)
{
    boxtoi_query q = boxtoi_default_query();
    memset(&q.motion_a, 0, sizeof q.motion_a);
    memset(&q.motion_b, 0, sizeof q.motion_b);
    memcpy(q.a.lo, l->alo, sizeof q.a.lo);
    memcpy(q.a.hi, l->ahi, sizeof q.a.hi);
    memcpy(q.b.lo, l->blo, sizeof q.b.lo);
    memcpy(q.b.hi, l->bhi, sizeof q.b.hi);
    q.motion_a.degree = l->deg_a;
    q.motion_b.degree = l->deg_b;
    for (int i = 0; i < l->na + l->nb; i++) {
        boxtoi_motion *m = i < l->na ? &q.motion_a : &q.motion_b;
        m->c[l->e[i].k][l->e[i].r][l->e[i].c] = l->e[i].v;
    }
    q.t0 = t0;
    q.t1 = t1;
    return q;
}

/* l's query over [t0, t1] (returned), solved as given (res[0]) and swapped (res[1]). */
static boxtoi_query solve_literal(const literal_query *l, double t0, double t1,
                                  boxtoi_result res[2])
{
    boxtoi_query q = literal_over(l, t0, t1), y = tu_swapped(&q);
    res[0] = boxtoi_solve(&q);
    res[1] = boxtoi_solve(&y);
    return q;
}

/*
 * A degenerate contact given literally: a hit (or an overlap at t0) no
 * later than the reference's, a point in both boxes in both orders, and
 * swapping A and B mirrors the answer.
 */
static void check_literal_as(const literal_query *l, double t0, double t1, const char *what,
                             int mirrored)
{
    boxtoi_result res[2];
    boxtoi_query q = solve_literal(l, t0, t1, res);
    double outside = 0.0, tol = 2e-9 * qsize(&q);
    for (int swap = 0; swap < 2; swap++) {
        outside = fmax(outside, ref_point_box_distance(&q.a, &q.motion_a, res[swap].toi,
                                                       res[swap].point));
        outside = fmax(outside, ref_point_box_distance(&q.b, &q.motion_b, res[swap].toi,
                                                       res[swap].point));
    }
    ref_answer ra;
    ref_solve(&q, 0.0, &ra);
    ok(ra.valid && (ra.overlap_t0 ? res[0].state == BOXTOI_OVERLAP
                                  : ra.hit && res[0].state == BOXTOI_HIT) &&
           res[0].toi <= ra.toi + 1e-9,
       "%s: a contact no later than the reference's (%s at %.17g, reference %.17g)", what,
       boxtoi_state_name(res[0].state), res[0].toi, ra.toi);
    ok(outside <= tol, "%s: the point lies in both boxes, in both orders (outside by %.3g)",
       what, outside);
    if (mirrored &&
        !ok(swap_mirrors(&q, &res[0], &res[1]),
            "%s: swapping A and B mirrors the answer bit for bit", what))
        diag_mirror(0, "", &res[0], &res[1]);
}

static void check_literal(const literal_query *l, const char *what)
{
    check_literal_as(l, 0.0, 1.0, what, 1);
}

static const literal_query plate_tilted_onto_plate = {
    {-0x1.8p-2, -0x1p+0, -0x0p+0},
    {0x1.8p-2, 0x1p+0, 0x0p+0},
    {-0x1p+0, -0x1p-2, -0x0p+0},
    {0x1p+0, 0x1p-2, 0x0p+0},
    0, 1, 10, 16,
    {{0, 0, 0, 0x1.3146ab4329cd9p-3},
     {0, 0, 1, -0x1.518ad74fc99p-1},
     {0, 0, 2, 0x1.46b3080183d2fp-2},
     {0, 1, 0, 0x1.096b6ff224dfep-1},
     {0, 1, 1, 0x1.4cc364895cfa4p-2},
     {0, 1, 2, 0x1.b799a94d41b9dp-2},
     {0, 2, 0, -0x1.08e598a22329dp-1},
     {0, 2, 1, 0x1.15d849c3a67eap-3},
     {0, 2, 2, 0x1.0b4bdd37c7d27p-1},
     {0, 3, 3, 0x1.7ead993da3b6ap-1},
     {0, 0, 0, -0x1.0c39c21a0adc1p-1},
     {0, 0, 1, -0x1.b5548e1969003p-2},
     {0, 0, 2, 0x1.46b307ee64d5ap-2},
     {0, 0, 3, -0x1.41f1bfa460c17p-1},
     {0, 1, 0, 0x1.0b2e2cd195ffp-1},
     {0, 1, 1, -0x1.47141e374169fp-2},
     {0, 1, 2, 0x1.b799a916726e7p-2},
     {0, 1, 3, -0x1.8916d1266ddc2p-4},
     {0, 2, 0, -0x1.be4c2851aa56p-4},
     {0, 2, 1, 0x1.0c1c2bef656f2p-1},
     {0, 2, 2, 0x1.0b4bdd54288fp-1},
     {0, 2, 3, 0x1.0cda415696aa6p-2},
     {0, 3, 3, 0x1.7ead993da3b6ap-1},
     {1, 0, 3, 0x1.ea0c8c0245bc6p-4},
     {1, 1, 3, 0x1.49b33ef9f14b6p-3},
     {1, 2, 3, 0x1.90f1cbd3abbbap-3}}};

static const literal_query segment_through_plate = {
    {-0x1.4p-1, -0x1.8p-2, -0x0p+0},
    {0x1.4p-1, 0x1.8p-2, 0x0p+0},
    {-0x1p-2, -0x0p+0, -0x0p+0},
    {0x1p-2, 0x0p+0, 0x0p+0},
    0, 1, 10, 16,
    {{0, 0, 0, -0x1.7716ac9d3658ep-2},
     {0, 0, 1, 0x1.c51b61de1c3bp-4},
     {0, 0, 2, 0x1.3664186c929bbp-3},
     {0, 1, 0, 0x1.5366fb466787dp-5},
     {0, 1, 1, 0x1.7cd4e3e1e4ec6p-2},
     {0, 1, 2, -0x1.5edcbe82af82p-3},
     {0, 2, 0, -0x1.76cae28766b2fp-3},
     {0, 2, 1, -0x1.190781aae0b32p-3},
     {0, 2, 2, -0x1.5e5a467f64d44p-2},
     {0, 3, 3, 0x1.a56fbc922b86cp-2},
     {0, 0, 0, 0x1.51a450fe4fdeep-2},
     {0, 0, 1, 0x1.8d991504f8285p-3},
     {0, 0, 2, 0x1.3664152b91d2bp-3},
     {0, 0, 3, -0x1.ba19f9ff3a213p-3},
     {0, 1, 0, 0x1.f625cccff2b3bp-3},
     {0, 1, 1, -0x1.21790e2e8c02bp-2},
     {0, 1, 2, -0x1.5edcbf893376cp-3},
     {0, 1, 3, 0x1.947125e4ecc6cp-3},
     {0, 2, 0, 0x1.7d86fcaee7debp-6},
     {0, 2, 1, 0x1.d2048611eff15p-3},
     {0, 2, 2, -0x1.5e5a46f62abd3p-2},
     {0, 2, 3, -0x1.a07f8789dd46cp-4},
     {0, 3, 3, 0x1.a56fbc922b86ap-2},
     {1, 0, 3, 0x1.d19624a2dbe96p-5},
     {1, 1, 3, -0x1.07258ee203a17p-4},
     {1, 2, 3, -0x1.06c3b4df8b9f2p-3}}};

static const literal_query segment_beside_plate = {
    {-0x1p-2, -0x1.8p-2, -0x0p+0},
    {0x1p-2, 0x1.8p-2, 0x0p+0},
    {-0x0p+0, -0x1p-3, -0x0p+0},
    {0x0p+0, 0x1p-3, 0x0p+0},
    0, 1, 10, 13,
    {{0, 0, 0, 0x1.6708e35a86ad3p-4},
     {0, 0, 1, 0x1.feba8874b3cbep-3},
     {0, 0, 2, -0x1.355c2f7d96f2ap-2},
     {0, 1, 0, 0x1.7b6737ffb5623p-2},
     {0, 1, 1, 0x1.872e576bd7465p-5},
     {0, 1, 2, 0x1.2ce3712955c37p-3},
     {0, 2, 0, 0x1.04856c2c8028fp-3},
     {0, 2, 1, -0x1.3e62aed0ccc7cp-2},
     {0, 2, 2, -0x1.c20a5892a04eep-3},
     {0, 3, 3, 0x1.9b0fa455059d5p-2},
     {0, 0, 0, 0x1.6708e357396cdp-4},
     {0, 0, 1, 0x1.feba88730c959p-3},
     {0, 0, 2, -0x1.355c2f7e82ee5p-2},
     {0, 0, 3, 0x1.d8ce1f2e28843p-4},
     {0, 1, 0, 0x1.7b6738001c259p-2},
     {0, 1, 1, 0x1.872e576f0e852p-5},
     {0, 1, 2, 0x1.2ce371270c8e8p-3},
     {0, 1, 3, 0x1.c4bfe863edbf6p-4},
     {0, 2, 0, 0x1.04856c2b4cc0ep-3},
     {0, 2, 1, -0x1.3e62aed166b26p-2},
     {0, 2, 2, -0x1.c20a58919eb3ap-3},
     {0, 2, 3, -0x1.5b515022f3172p-4},
     {0, 3, 3, 0x1.9b0fa455059d5p-2}}};

static const literal_query segment_on_plate_edge = {
    {-0x1.8p-2, -0x1p+0, -0x0p+0},
    {0x1.8p-2, 0x1p+0, 0x0p+0},
    {-0x1.8p-2, -0x0p+0, -0x0p+0},
    {0x1.8p-2, 0x0p+0, 0x0p+0},
    0, 1, 10, 16,
    {{0, 0, 0, -0x1.51626eaaa5931p-2},
     {0, 0, 1, -0x1.b674acf464c6cp-3},
     {0, 0, 2, -0x1.6c8ef868abd58p-1},
     {0, 1, 0, -0x1.d4ce0a6c32fe8p-2},
     {0, 1, 1, 0x1.5819ea51b3a4fp-1},
     {0, 1, 2, 0x1.402367f511f4p-7},
     {0, 2, 0, 0x1.2bf4bca022af6p-1},
     {0, 2, 1, 0x1.9e8225ec1c3f2p-2},
     {0, 2, 2, -0x1.923ae9f505ab9p-2},
     {0, 3, 3, 0x1.a062299c49c0cp-1},
     {0, 0, 0, -0x1.51626e34370d5p-2},
     {0, 0, 1, -0x1.b674ac6f3689p-3},
     {0, 0, 2, -0x1.6c8ef88e154ffp-1},
     {0, 0, 3, 0x1.9e52361b8f4b2p-3},
     {0, 1, 0, -0x1.d4ce0a6dd2ffcp-2},
     {0, 1, 1, 0x1.5819ea513eb0fp-1},
     {0, 1, 2, 0x1.4023664b9fbebp-7},
     {0, 1, 3, 0x1.863d64a7a8dd8p-1},
     {0, 2, 0, 0x1.2bf4bcc0cd8e9p-1},
     {0, 2, 1, 0x1.9e822610d896dp-2},
     {0, 2, 2, -0x1.923ae96db866bp-2},
     {0, 2, 3, -0x1.192ccbfc03546p-3},
     {0, 3, 3, 0x1.a062299c49c0cp-1},
     {1, 0, 3, -0x1.6c8ef868abd58p-3},
     {1, 1, 3, 0x1.402367f511f4p-9},
     {1, 2, 3, -0x1.923ae9f505ab9p-4}}};


static const literal_query plates_corner_to_corner = {
    {-0x1.8p-2, -0x0p+0, -0x1.4p-1},
    {0x1.8p-2, 0x0p+0, 0x1.4p-1},
    {-0x1p-3, -0x1p-3, -0x0p+0},
    {0x1p-3, 0x1p-3, 0x0p+0},
    0, 1, 4, 14,
    {{0, 0, 0, 0x1p+0},
     {0, 1, 1, 0x1p+0},
     {0, 2, 2, 0x1p+0},
     {0, 3, 3, 0x1p+0},
     {0, 0, 0, 0x1.ffffffffffffp-1},
     {0, 0, 1, 0x1.71fe94aec3b35p-49},
     {0, 0, 2, -0x1.f030b5879344ap-25},
     {0, 0, 3, -0x1p-1},
     {0, 1, 0, 0x1.71fe94aec3b35p-49},
     {0, 1, 1, 0x1.fffffffffffdcp-1},
     {0, 1, 2, 0x1.7dc886bb825fdp-24},
     {0, 1, 3, -0x1.8p-4},
     {0, 2, 0, 0x1.f030b5879344ap-25},
     {0, 2, 1, -0x1.7dc886bb825fdp-24},
     {0, 2, 2, 0x1.fffffffffffccp-1},
     {0, 2, 3, -0x1.1p+0},
     {0, 3, 3, 0x1p+0},
     {1, 2, 3, 0x1.cp-1}}};


static const literal_query box_on_plate_edge = {
    {-0x1p-1, -0x1p-1, -0x1.8p-1},
    {0x1p-1, 0x1p-1, 0x1.8p-1},
    {-0x1p+0, -0x1p+0, -0x0p+0},
    {0x1p+0, 0x1p+0, 0x0p+0},
    0, 1, 4, 14,
    {{0, 0, 0, 0x1p+0},
     {0, 1, 1, 0x1p+0},
     {0, 2, 2, 0x1p+0},
     {0, 3, 3, 0x1p+0},
     {0, 0, 0, -0x1.cdc181369319p-1},
     {0, 0, 1, 0x1.ba61d9ca5534fp-2},
     {0, 0, 2, -0x1.4a1cba7800066p-27},
     {0, 0, 3, 0x1p-2},
     {0, 1, 0, -0x1.ba61d9ca5534dp-2},
     {0, 1, 1, -0x1.cdc181369319p-1},
     {0, 1, 2, -0x1.53521586bf388p-27},
     {0, 1, 3, -0x1p+0},
     {0, 2, 0, -0x1.bc4efc0527a6ap-27},
     {0, 2, 1, -0x1.46d169140702ep-28},
     {0, 2, 2, 0x1.fffffffffffffp-1},
     {0, 2, 3, -0x1.2p+0},
     {0, 3, 3, 0x1p+0},
     {1, 2, 3, 0x1.8p-1}}};

static const literal_query small_box_across_plate_edge = {
    {-0x1.cp-10, -0x1.8p-10, -0x0p+0},
    {0x1.cp-10, 0x1.8p-10, 0x0p+0},
    {-0x1p-11, -0x1.4p-10, -0x1p-12},
    {0x1p-11, 0x1.4p-10, 0x1p-12},
    0, 1, 7, 14,
    {{0, 0, 0, 0x1p+0},
     {0, 0, 3, 0x1.753e26b9781dp-4},
     {0, 1, 1, 0x1p+0},
     {0, 1, 3, 0x1.05451b1b6dadep-4},
     {0, 2, 2, 0x1p+0},
     {0, 2, 3, -0x1.bfe42e7829bc6p-6},
     {0, 3, 3, 0x1p+0},
     {0, 0, 0, 0x1.cc1fa11dd6faap-1},
     {0, 0, 1, 0x1.c12247c310513p-2},
     {0, 0, 2, 0x1.aec543430e425p-27},
     {0, 0, 3, 0x1.6d3e26b9781dp-4},
     {0, 1, 0, -0x1.c12247c310513p-2},
     {0, 1, 1, 0x1.cc1fa11dd6faap-1},
     {0, 1, 2, -0x1.b5594418b3004p-28},
     {0, 1, 3, 0x1.05451b1b6dadep-4},
     {0, 2, 0, -0x1.e3095b0a5fd0dp-27},
     {0, 2, 1, 0x1.e50c57f428e3p-33},
     {0, 2, 2, 0x1p+0},
     {0, 2, 3, -0x1.c5e42e7829bc6p-6},
     {0, 3, 3, 0x1p+0},
     {1, 2, 3, 0x1p-12}}};

static const literal_query segment_across_plate_edge = {
    {-0x1p+0, -0x1.4p-1, -0x0p+0},
    {0x1p+0, 0x1.4p-1, 0x0p+0},
    {-0x0p+0, -0x1.8p-1, -0x0p+0},
    {0x0p+0, 0x1.8p-1, 0x0p+0},
    0, 1, 10, 16,
    {{0, 0, 0, 0x1.6f44885823183p-2},
     {0, 0, 1, -0x1.6c3b3d3161037p-3},
     {0, 0, 2, 0x1.eeddf1c8d94ccp-2},
     {0, 1, 0, -0x1.2ea5878cefb08p-2},
     {0, 1, 1, -0x1.1b531f85f9a02p-1},
     {0, 1, 2, 0x1.01404d317ba9cp-6},
     {0, 2, 0, 0x1.afd0b9c072f7ep-2},
     {0, 2, 1, -0x1.e482693ab454ep-3},
     {0, 2, 2, -0x1.99a02bc206d49p-2},
     {0, 3, 3, 0x1.414dd241910fap-1},
     {0, 0, 0, 0x1.1a81e9f7f59cfp-2},
     {0, 0, 1, -0x1.290de28562d5fp-2},
     {0, 0, 2, 0x1.eeddf1e746e48p-2},
     {0, 0, 3, -0x1.6ecdde7bd66dep-1},
     {0, 1, 0, -0x1.deab0d66c0d3p-2},
     {0, 1, 1, -0x1.ac715f69cafa1p-2},
     {0, 1, 2, 0x1.01404deb86e8ap-6},
     {0, 1, 3, -0x1.72d95737f6dcbp-2},
     {0, 2, 0, 0x1.4282032e5685fp-2},
     {0, 2, 1, -0x1.77afcc9b7fd94p-2},
     {0, 2, 2, -0x1.99a02b9ccf6b4p-2},
     {0, 2, 3, -0x1.63e7254468621p-1},
     {0, 3, 3, 0x1.414dd241910fap-1},
     {1, 0, 3, 0x1.73267556a2f99p-3},
     {1, 1, 3, 0x1.81e073ca397eap-8},
     {1, 2, 3, -0x1.333820d1851f7p-3}}};

/*
 * Two plates (no y extent) on affine motions of degree 4 grazing at one
 * instant, a corner of A on an edge of B: the contact is named by A's edge
 * along y, of length 0, and B's edge along x.  The closest points of the
 * two edges took A's as a segment like any other and, with no length to
 * divide by, read the edges as parallel: the point was the midpoint of A's
 * corner and the middle of B's edge, 0.054 outside A.
 */
static const literal_query plates_corner_on_edge = {
    {-0x1.47f4e55586fbcp-2, 0x0p+0, -0x1.069c7011d0804p-1},
    {0x1.47f4e55586fbcp-2, 0x0p+0, 0x1.069c7011d0804p-1},
    {-0x1.3116fff427a34p-1, 0x0p+0, -0x1.2e6ef2071f252p-3},
    {0x1.3116fff427a34p-1, 0x0p+0, 0x1.374d956f26a55p-2},
    4, 4, 45, 45,
    {{0, 0, 0, 0x1.43b76b7fcab3ep-4},
     {0, 0, 1, -0x1.9754f462736d6p-1},
     {0, 0, 2, -0x1.69f3f0dd2ed9fp-1},
     {0, 0, 3, 0x1.630e1836352ccp-3},
     {0, 1, 0, 0x1.0b8c19903d946p-2},
     {0, 1, 1, 0x1.6744a546c808dp-1},
     {0, 1, 2, -0x1.855af365d9f55p-1},
     {0, 1, 3, -0x1.22358607ed0c1p+0},
     {0, 2, 0, 0x1.081e442580ee2p+0},
     {0, 2, 1, -0x1.de3ded0e8d364p-4},
     {0, 2, 2, 0x1.f951307fcc448p-3},
     {0, 2, 3, -0x1.7998a5405f5d6p+0},
     {0, 3, 3, 0x1.1134c9b877f54p+0},
     {1, 0, 0, 0x1.1fa01c10e054cp-4},
     {1, 0, 1, 0x1.a20690b7c21dcp-4},
     {1, 0, 2, 0x1.3db55137b799p-3},
     {1, 0, 3, -0x1.95b70c28b56adp-2},
     {1, 1, 0, -0x1.4ce37abcf644cp-1},
     {1, 1, 1, -0x1.093428413b798p-4},
     {1, 1, 2, -0x1.432084180bc1ep-5},
     {1, 1, 3, 0x1.0d8af23717361p-1},
     {1, 2, 0, -0x1.4d46f4e67789ep-6},
     {1, 2, 1, 0x1.015836cd3d301p-1},
     {1, 2, 2, -0x1.b66c04f5e3f01p-2},
     {1, 2, 3, 0x1.26966c58dead5p+1},
     {1, 3, 3, -0x1.639e05aca4f93p-3},
     {2, 0, 0, 0x1.e1821c12b5288p-7},
     {2, 0, 1, -0x1.b8177c820027dp-5},
     {2, 0, 2, -0x1.5fde13f785312p-4},
     {2, 0, 3, 0x1.c8d48b351597dp-2},
     {2, 1, 0, 0x1.05a2cf0124e39p-5},
     {2, 1, 1, -0x1.475ce7ddadf82p-4},
     {2, 1, 2, 0x1.c632761b788e6p-5},
     {2, 1, 3, -0x1.7c0441c68549bp-2},
     {2, 2, 0, -0x1.89d984ca8ae3ap-4},
     {2, 2, 1, -0x1.1cb94cb80610ep-5},
     {2, 2, 2, 0x1.5a892ac9c216p-8},
     {2, 2, 3, -0x1.50f0b2145f5a3p+0},
     {2, 3, 3, 0x1.a359578644307p-4},
     {3, 0, 3, -0x1.86edc14746659p-4},
     {3, 1, 3, 0x1.1025ebb5a999ap-4},
     {3, 2, 3, 0x1.5656923dbc324p-2},
     {4, 0, 3, 0x1.22792d935555fp-5},
     {4, 1, 3, -0x1.44e6cad1b4db3p-6},
     {4, 2, 3, -0x1.49c7282d7b48fp-4},
     {0, 0, 0, 0x1.e7ce9bc30b81p-4},
     {0, 0, 1, -0x1.8d787130eccc2p-1},
     {0, 0, 2, 0x1.dc275c4515a76p-3},
     {0, 0, 3, -0x1.fbf3ef166f74p+0},
     {0, 1, 0, 0x1.c8e04103955ebp-3},
     {0, 1, 1, -0x1.8e5a6bc713953p-3},
     {0, 1, 2, -0x1.870891d7c7966p-1},
     {0, 1, 3, -0x1.c800767041807p+0},
     {0, 2, 0, 0x1.8ee1d301bfb65p-1},
     {0, 2, 1, 0x1.651b9f300c386p-3},
     {0, 2, 2, 0x1.77191a71beee9p-3},
     {0, 2, 3, 0x1.079b9a8a3c01bp-2},
     {0, 3, 3, 0x1.a35ea803da2ffp-1},
     {1, 0, 0, -0x1.e6f237cd2686ap-3},
     {1, 0, 1, -0x1.0407e28685ea1p-2},
     {1, 0, 2, 0x1.d357eb22260f6p-3},
     {1, 0, 3, 0x1.d7cbe050402e9p+1},
     {1, 1, 0, 0x1.2743a4c1e2095p-4},
     {1, 1, 1, -0x1.1c53320e7c683p-2},
     {1, 1, 2, -0x1.9703553da23a4p-3},
     {1, 1, 3, -0x1.d8327fb29effdp-4},
     {1, 2, 0, 0x1.33b54a256afedp-2},
     {1, 2, 1, -0x1.57c5eb9700b8p-3},
     {1, 2, 2, 0x1.7cf1cd46ea884p-4},
     {1, 2, 3, -0x1.b8ccb635c0a3p-9},
     {1, 3, 3, 0x1.15611b11a86d9p-2},
     {2, 0, 0, -0x1.67548bb7fe9fcp-5},
     {2, 0, 1, 0x1.43ad632c92bap-7},
     {2, 0, 2, 0x1.d20807f75365p-6},
     {2, 0, 3, 0x1.ef000daa3c74dp-2},
     {2, 1, 0, -0x1.804e9f650d708p-6},
     {2, 1, 1, -0x1.5dfd501b8911fp-5},
     {2, 1, 2, -0x1.5d8d95f8bd834p-6},
     {2, 1, 3, 0x1.b590d817a11dap+0},
     {2, 2, 0, 0x1.355478537577ep-6},
     {2, 2, 1, -0x1.eda5af398d776p-6},
     {2, 2, 2, 0x1.44389b30aaca1p-5},
     {2, 2, 3, -0x1.a13eb9b91bc8ep+0},
     {2, 3, 3, 0x1.b3d8cb6fa6b78p-5},
     {3, 0, 3, 0x1.3bea45aead58cp-7},
     {3, 1, 3, 0x1.2a3b54bedd3cfp-1},
     {3, 2, 3, -0x1.14cafd15c64b6p-1},
     {4, 0, 3, -0x1.b64cd39e970b5p-5},
     {4, 1, 3, 0x1.bbda6120e06c6p-4},
     {4, 2, 3, -0x1.ae4d0229b36f2p-4}}};

/*
 * A box and a plate turned alike within 1e-8 rad or so (test-random's
 * nearly-aligned kind, seeds 11 and 13), touching edge to edge at the
 * first contact while a corner of one lies 1e-10 across the other's face
 * plane, beyond that face's side (the face, within the preference of the
 * edge pair, was probed).  The section of so thin an overlap is a sliver
 * whose tip, where an edge nearly in the face crosses its plane, rounding
 * moves by 1e-8 or more: it reached over the face's side in one order and
 * not in the other, and the two orders named vertex-face and edge-edge.
 */
static const literal_query aligned_box_plate_1 = {
    {-0x1.7bea70d8b76c8p-2, -0x1.d007690b46abp-2, -0x1.0037038f296c6p-2},
    {0x1.7bea70d8b76c8p-2, 0x1.29e3a06722192p-4, 0x1.0037038f296c6p-2},
    {-0x1.945549ef57091p-1, 0x0p+0, -0x1.adff53d7b1f67p-1},
    {-0x1.53d335db1cddp-5, 0x0p+0, 0x1.afd308fc45372p-2},
    3, 3, 42, 42,
    {{0, 0, 0, 0x1.c215348a7e7e4p+0},
     {0, 0, 1, 0x1.35cde9d32613ap-2},
     {0, 0, 2, 0x1.06e662879c08ep-1},
     {0, 0, 3, -0x1.5cdcde6851689p+1},
     {0, 1, 0, 0x1.5c87b6bf204dap-2},
     {0, 1, 1, -0x1.d2988f738e6e5p+0},
     {0, 1, 2, -0x1.76b6553030c1p-4},
     {0, 1, 3, 0x1.d5c70ed66b13cp-1},
     {0, 2, 0, 0x1.f4f8559e87267p-2},
     {0, 2, 1, 0x1.723e62578a31p-3},
     {0, 2, 2, -0x1.c818e922743e8p+0},
     {0, 2, 3, -0x1.c36115df70084p+0},
     {0, 3, 3, 0x1.db3d3deecd2cfp+0},
     {1, 0, 0, -0x1.6b1bc9d5c8df1p-1},
     {1, 0, 1, -0x1.bda4e992f6fe8p-3},
     {1, 0, 2, -0x1.3580d357b8f4ap-2},
     {1, 0, 3, 0x1.084b7d99a330ap+1},
     {1, 1, 0, -0x1.c32b77b1dbe08p-2},
     {1, 1, 1, 0x1.5efc69ef44862p-1},
     {1, 1, 2, 0x1.7f3fba07849f8p-1},
     {1, 1, 3, 0x1.1af4b84878298p-1},
     {1, 2, 0, -0x1.298280afc39e4p-3},
     {1, 2, 1, -0x1.b033027f9c30bp-1},
     {1, 2, 2, 0x1.658f751cde6a6p-1},
     {1, 2, 3, 0x1.47bf5a7829e5p+0},
     {1, 3, 3, -0x1.94d93c8660ebep-1},
     {2, 0, 0, 0x1.230d509d69f2fp-3},
     {2, 0, 1, 0x1.b34780e6deee5p-6},
     {2, 0, 2, 0x1.4c57ac11e453p-4},
     {2, 0, 3, -0x1.41bf899e868cbp-1},
     {2, 1, 0, 0x1.449da7982346cp-4},
     {2, 1, 1, 0x1.1f90b57279242p-6},
     {2, 1, 2, -0x1.280e1d06603fp-3},
     {2, 1, 3, -0x1.4798e9c5d616cp-2},
     {2, 2, 0, -0x1.042319bba7962p-5},
     {2, 2, 1, 0x1.4d36f91f6dafep-3},
     {2, 2, 2, 0x1.336973494dfbp-9},
     {2, 2, 3, -0x1.8814d7a2cc1dbp-2},
     {2, 3, 3, 0x1.53892d4155fd1p-3},
     {3, 0, 3, 0x1.4aa5c47113f29p-4},
     {3, 1, 3, 0x1.591e79b663b62p-4},
     {3, 2, 3, 0x1.8331947abb9eep-5},
     {0, 0, 0, 0x1.c215349f0a4acp+0},
     {0, 0, 1, 0x1.35cdea16a30d6p-2},
     {0, 0, 2, 0x1.06e661e7073bdp-1},
     {0, 0, 3, 0x1.85bcbd09b70cep+1},
     {0, 1, 0, 0x1.5c87b75581087p-2},
     {0, 1, 1, -0x1.d2988f6751487p+0},
     {0, 1, 2, -0x1.76b65bafb1558p-4},
     {0, 1, 3, -0x1.4a3a6943a6054p+3},
     {0, 2, 0, 0x1.f4f8540e90368p-2},
     {0, 2, 1, 0x1.723e6550c8ca4p-3},
     {0, 2, 2, -0x1.c818e93441799p+0},
     {0, 2, 3, -0x1.ee245a5df8079p-2},
     {0, 3, 3, 0x1.db3d3deecd2dp+0},
     {1, 0, 0, -0x1.6b1bc9ec21302p-1},
     {1, 0, 1, -0x1.bda4e9a5a44e1p-3},
     {1, 0, 2, -0x1.3580d2e82395ep-2},
     {1, 0, 3, -0x1.f8abbe354bc2cp+0},
     {1, 1, 0, -0x1.c32b7750dcb1cp-2},
     {1, 1, 1, 0x1.5efc69945874cp-1},
     {1, 1, 2, 0x1.7f3fba775536ap-1},
     {1, 1, 3, 0x1.206849f892788p+3},
     {1, 2, 0, -0x1.29827ee5eb394p-3},
     {1, 2, 1, -0x1.b03302c809efep-1},
     {1, 2, 2, 0x1.658f74dd21696p-1},
     {1, 2, 3, 0x1.198deec68e2c9p-1},
     {1, 3, 3, -0x1.94d93c8660ebfp-1},
     {2, 0, 0, 0x1.230d50bb59abfp-3},
     {2, 0, 1, 0x1.b34780c6ede1bp-6},
     {2, 0, 2, 0x1.4c57ababa3608p-4},
     {2, 0, 3, 0x1.1e4f86db8de1ep-1},
     {2, 1, 0, 0x1.449da71540945p-4},
     {2, 1, 1, 0x1.1f90b79ba6761p-6},
     {2, 1, 2, -0x1.280e1d21dbc54p-3},
     {2, 1, 3, -0x1.71b25e1faf1b4p+1},
     {2, 2, 0, -0x1.04231a310f128p-5},
     {2, 2, 1, 0x1.4d36f9189f03ep-3},
     {2, 2, 2, 0x1.336985fef44b8p-9},
     {2, 2, 3, -0x1.84a9a284b63bep-3},
     {2, 3, 3, 0x1.53892d4155fd1p-3},
     {3, 0, 3, -0x1.ed6df6bf14d84p-5},
     {3, 1, 3, 0x1.a63d57ef4e467p-2},
     {3, 2, 3, 0x1.f7e1103dfa04fp-6}}};

static const literal_query aligned_box_plate_2 = {
    {0x0p+0, -0x1.d79f602d78de6p-2, -0x1.78425a387ec02p-1},
    {0x0p+0, 0x1.d79f602d78de6p-2, 0x1.78425a387ec02p-1},
    {0x1.9812bedf4d2ap-6, -0x1.39cab48e81146p-1, -0x1.ff1d620886258p-2},
    {0x1.91722d87b5386p-2, 0x1.39cab48e81146p-1, 0x1.ff1d620886258p-2},
    2, 2, 19, 19,
    {{0, 0, 0, -0x1.a69b280bd16c8p-3},
     {0, 0, 1, 0x1.defd923b679b4p-1},
     {0, 0, 2, 0x1.2598e958be5dp-2},
     {0, 0, 3, 0x1.efdb6d9e2b34ap-1},
     {0, 1, 0, 0x1.792b11bbd003ep-1},
     {0, 1, 1, 0x1.5d96dc3d72048p-2},
     {0, 1, 2, -0x1.2ae3b819e3452p-1},
     {0, 1, 3, -0x1.20f2f1fb2ec34p+0},
     {0, 2, 0, -0x1.49bc6f0dd3f8dp-1},
     {0, 2, 1, 0x1.73b6a13658a1ep-4},
     {0, 2, 2, -0x1.84ebaa10eaea2p-1},
     {0, 2, 3, -0x1.12b7d3531f5a4p-5},
     {0, 3, 3, 0x1p+0},
     {1, 0, 3, 0x1.751f39c9f74c5p+0},
     {1, 1, 3, -0x1.4f948d1f20682p-2},
     {1, 2, 3, 0x1.453a94e7d1f1ep-2},
     {2, 0, 3, 0x1.9a4ce33305fb7p+0},
     {2, 1, 3, 0x1.88b975652954p+1},
     {2, 2, 3, -0x1.838ae6e60c819p+1},
     {0, 0, 0, -0x1.a69b27d437b5cp-3},
     {0, 0, 1, 0x1.defd92146a1cfp-1},
     {0, 0, 2, 0x1.2598ea6b31c7p-2},
     {0, 0, 3, 0x1.3285cb9c51f4cp+0},
     {0, 1, 0, 0x1.792b11f26ea51p-1},
     {0, 1, 1, 0x1.5d96dcc4d91fcp-2},
     {0, 1, 2, -0x1.2ae3b7ad5ee22p-1},
     {0, 1, 3, -0x1.a6ff0c79672f9p+0},
     {0, 2, 0, -0x1.49bc6ed3ce1efp-1},
     {0, 2, 1, 0x1.73b6a5d063aa6p-4},
     {0, 2, 2, -0x1.84ebaa3084abcp-1},
     {0, 2, 3, 0x1.6dd3bea1c219ep-2},
     {0, 3, 3, 0x1.fffffffffffffp-1},
     {1, 0, 3, -0x1.6a79b5f2408f2p+0},
     {1, 1, 3, 0x1.22c0076a07bf2p+3},
     {1, 2, 3, -0x1.9db0d64e56e6bp+2},
     {2, 0, 3, -0x1.53685ece76e75p+1},
     {2, 1, 3, -0x1.7ac0d6dc88b63p+0},
     {2, 2, 3, 0x1.4a567eb6b01dfp+1}}};

static const literal_query aligned_box_plate_3 = {
    {-0x1.a84468d858e28p-2, -0x1.ec96a677c247fp-1, -0x1.13353f51d5918p-2},
    {0x1.a84468d858e28p-2, -0x1.4388ec7082338p-4, 0x1.2896750dbbc9cp-2},
    {-0x1.36cceaffc1ed6p-3, -0x1.9de4cf5357098p-4, 0x0p+0},
    {0x1.36cceaffc1ed6p-3, 0x1.01b77c870d8eap+0, 0x0p+0},
    1, 2, 16, 19,
    {{0, 0, 0, 0x1.da67dfa7cfcf2p-1},
     {0, 0, 1, 0x1.2bede75266967p-2},
     {0, 0, 2, 0x1.e338087ce1ecfp-3},
     {0, 0, 3, -0x1.ccd684459b4f8p-1},
     {0, 1, 0, 0x1.7b32cded3d53bp-2},
     {0, 1, 1, -0x1.338be4ee572e4p-1},
     {0, 1, 2, -0x1.6ac860c5618d4p-1},
     {0, 1, 3, 0x1.61bf0f511e1f4p+1},
     {0, 2, 0, -0x1.0d8e16f54026ap-4},
     {0, 2, 1, 0x1.7ce15902c44ap-1},
     {0, 2, 2, -0x1.547f7f53a3fccp-1},
     {0, 2, 3, 0x1.f4713f04438bcp-1},
     {0, 3, 3, 0x1.ffffffffffffep-1},
     {1, 0, 3, -0x1.0bce522ff1dd5p-2},
     {1, 1, 3, -0x1.286772dbc54efp-1},
     {1, 2, 3, 0x1.898281e172e38p-2},
     {0, 0, 0, 0x1.da67df8883a3ap-1},
     {0, 0, 1, 0x1.2bede81bb3825p-2},
     {0, 0, 2, 0x1.e3380874ba9e2p-3},
     {0, 0, 3, -0x1.6c2ffc5780e67p+1},
     {0, 1, 0, 0x1.7b32ce8dc6b7bp-2},
     {0, 1, 1, -0x1.338be58182b81p-1},
     {0, 1, 2, -0x1.6ac8601eab204p-1},
     {0, 1, 3, 0x1.44c9dcc5a3a42p+2},
     {0, 2, 0, -0x1.0d8e169d25104p-4},
     {0, 2, 1, 0x1.7ce158644da3p-1},
     {0, 2, 2, -0x1.547f8005fcbd3p-1},
     {0, 2, 3, 0x1.00ebbd7c5dddep-1},
     {0, 3, 3, 0x1.ffffffffffffep-1},
     {1, 0, 3, 0x1.956dbcb9e2ep-2},
     {1, 1, 3, -0x1.90296118dd08dp-1},
     {1, 2, 3, 0x1.d61eef41db77p-1},
     {2, 0, 3, -0x1.94372dcff0c8ap-5},
     {2, 1, 3, -0x1.28750626d9c0cp-3},
     {2, 2, 3, -0x1.3d41471894ee1p-3}}};

static const literal_query aligned_box_plate_4 = {
    {-0x1.da8f9f93d4458p-2, 0x1.79f1303590eccp-2, -0x1.53306fda92b9cp-1},
    {0x1.da8f9f93d4458p-2, 0x1.79f1303590eccp-2, 0x1.b70d6846ed62cp-4},
    {-0x1.4ef4dcb4ec91cp-1, -0x1.4bfef8b6ac93ap-2, -0x1.4f7207bdca8bdp-1},
    {0x1.4ef4dcb4ec91cp-1, 0x1.4bfef8b6ac93ap-2, 0x1.4f7207bdca8bdp-1},
    1, 1, 16, 16,
    {{0, 0, 0, 0x1.8ee524d7ea3a7p-1},
     {0, 0, 1, -0x1.40f8264c7bdaep-1},
     {0, 0, 2, 0x1.293124efba9p-8},
     {0, 0, 3, -0x1.7c98f2ac750f4p+0},
     {0, 1, 0, -0x1.f86cc6f20a33bp-2},
     {0, 1, 1, -0x1.372358c594e2dp-1},
     {0, 1, 2, 0x1.3ef1f2104eef3p-1},
     {0, 1, 3, -0x1.7e2a3f79312bcp-1},
     {0, 2, 0, -0x1.8d113134cb6f3p-2},
     {0, 2, 1, -0x1.f34339b252e86p-2},
     {0, 2, 2, -0x1.9083f516054e1p-1},
     {0, 2, 3, -0x1.6eed20b63e045p+0},
     {0, 3, 3, 0x1.fffffffffffffp-1},
     {1, 0, 3, -0x1.6cd83512ac6cap-1},
     {1, 1, 3, -0x1.9b70916fac0dfp+0},
     {1, 2, 3, 0x1.068b7bcbf6e8bp+0},
     {0, 0, 0, 0x1.8ee524e8150c5p-1},
     {0, 0, 1, -0x1.40f826389f4cep-1},
     {0, 0, 2, 0x1.293114facd7p-8},
     {0, 0, 3, -0x1.290c8fe31fa91p+1},
     {0, 1, 0, -0x1.f86cc6de0375cp-2},
     {0, 1, 1, -0x1.372358f91cf69p-1},
     {0, 1, 2, 0x1.3ef1f1e5f4ce8p-1},
     {0, 1, 3, -0x1.32cd87d9d838bp+0},
     {0, 2, 0, -0x1.8d11310d44d59p-2},
     {0, 2, 1, -0x1.f3433964f11fp-2},
     {0, 2, 2, -0x1.9083f537eea5fp-1},
     {0, 2, 3, -0x1.be6507c9e343ap+0},
     {0, 3, 3, 0x1.fffffffffffffp-1},
     {1, 0, 3, 0x1.6598f63e31ea7p+0},
     {1, 1, 3, -0x1.b7badae5ee043p-1},
     {1, 2, 3, 0x1.1cf4bb071cfdbp-3}}};

/*
 * Boxes turned alike within 1e-8 rad (test-random's nearly-aligned kind,
 * seed 15), meeting on B's face X, along which the edge axis of A's y and
 * B's z nearly runs: at the contact that axis reads 2.4e-13 above 0,
 * within the touching tolerance but above its local rounding level, still
 * closing.  Its exit search read that as a graze rising at once: the exit
 * was the contact's own time, with the boxes 0.05 deep after it, in one
 * order only.
 */
static const literal_query aligned_boxes_exit = {
    {-0x1.50deddf136e5p-4, -0x1.ffed04f61934p-7, -0x1.4eb0fae867f39p-2},
    {0x1.6479a5b0e2888p-2, 0x1.26aae0c3d4ccfp-1, 0x1.eba8f7af32f84p-1},
    {-0x1.57c24b80e34a8p-2, -0x1.00ae7905a51d6p-1, -0x1.f2e0208568b4p-1},
    {0x1.57c24b80e34a8p-2, 0x1.00ae7905a51d6p-1, 0x1.4f4b09257210ep-3},
    3, 3, 42, 42,
    {{0, 0, 0, 0x1.2f1967c532b3dp-2},
     {0, 0, 1, -0x1.711f9af752c9ep-1},
     {0, 0, 2, 0x1.2296342483a62p-1},
     {0, 0, 3, -0x1.27c60f3272a0bp+0},
     {0, 1, 0, 0x1.d409b4b887351p-1},
     {0, 1, 1, 0x1.21cec4a3a99fbp-2},
     {0, 1, 2, -0x1.e03ae40a3234cp-4},
     {0, 1, 3, -0x1.ce50077065f3ep+1},
     {0, 2, 0, -0x1.434fca7106d48p-4},
     {0, 2, 1, 0x1.25f50887a0cdbp-1},
     {0, 2, 2, 0x1.8a7b5d4a5b2b8p-1},
     {0, 2, 3, 0x1.8b36aebb6c089p+2},
     {0, 3, 3, 0x1.ed9e8dd311ad9p-1},
     {1, 0, 0, 0x1.73eedbc8986a2p-5},
     {1, 0, 1, -0x1.d9c363f0a6c93p-6},
     {1, 0, 2, -0x1.0461a90a3dc0cp-4},
     {1, 0, 3, 0x1.52a4a35fb4d09p-3},
     {1, 1, 0, -0x1.d5cefa3201aa4p-8},
     {1, 1, 1, -0x1.8a06ad32393bep-6},
     {1, 1, 2, -0x1.9412c3fe22094p-4},
     {1, 1, 3, 0x1.5bdf219a4c9abp+0},
     {1, 2, 0, 0x1.c25def825cd12p-4},
     {1, 2, 1, -0x1.c3da16e844972p-6},
     {1, 2, 2, 0x1.e3210c4faadbep-6},
     {1, 2, 3, -0x1.937ff81d21873p+0},
     {1, 3, 3, -0x1.e7a06c99c139p-10},
     {2, 0, 0, -0x1.8af9f47f1fbacp-9},
     {2, 0, 1, -0x1.48ce3e51430cep-9},
     {2, 0, 2, -0x1.d46ce442e216fp-11},
     {2, 0, 3, -0x1.5075fad89041cp-8},
     {2, 1, 0, -0x1.42a55e3cfd39p-9},
     {2, 1, 1, 0x1.9b684cfa2db0ep-9},
     {2, 1, 2, -0x1.0ba375b05f304p-11},
     {2, 1, 3, -0x1.2191f943e28fep-6},
     {2, 2, 0, 0x1.0a48600a5856bp-10},
     {2, 2, 1, 0x1.58b6e4b07b372p-13},
     {2, 2, 2, -0x1.fd8d2664a9f8p-9},
     {2, 2, 3, 0x1.d777aa83e2321p-6},
     {2, 3, 3, 0x1.078cad0f3045dp-8},
     {3, 0, 3, 0x1.64bc8e751b316p-11},
     {3, 1, 3, 0x1.718f9c435b8f2p-8},
     {3, 2, 3, -0x1.ab9c375fd543ep-8},
     {0, 0, 0, 0x1.2f1968bac0cb5p-2},
     {0, 0, 1, -0x1.711f9c0775b1fp-1},
     {0, 0, 2, 0x1.2296328acbabep-1},
     {0, 0, 3, 0x1.392aeadced025p+3},
     {0, 1, 0, 0x1.d409b4af408fcp-1},
     {0, 1, 1, 0x1.21cec42a128d7p-2},
     {0, 1, 2, -0x1.e03aeae2d0808p-4},
     {0, 1, 3, -0x1.36f685c99fa91p+2},
     {0, 2, 0, -0x1.434fbf692c334p-4},
     {0, 2, 1, 0x1.25f5074fdfa41p-1},
     {0, 2, 2, 0x1.8a7b5e56d456bp-1},
     {0, 2, 3, -0x1.9f7bb292d8afep+3},
     {0, 3, 3, 0x1.ed9e8dd311ad7p-1},
     {1, 0, 0, 0x1.73eeda1a0b053p-5},
     {1, 0, 1, -0x1.d9c3614eda6a4p-6},
     {1, 0, 2, -0x1.0461a9f09dd38p-4},
     {1, 0, 3, -0x1.b527e6ba245fdp+1},
     {1, 1, 0, -0x1.d5cf0dd36e1ecp-8},
     {1, 1, 1, -0x1.8a06a7f28f80cp-6},
     {1, 1, 2, -0x1.9412c439331d2p-4},
     {1, 1, 3, 0x1.ae21f6eabb657p+0},
     {1, 2, 0, 0x1.c25defbee0748p-4},
     {1, 2, 1, -0x1.c3da1a17d1adap-6},
     {1, 2, 2, 0x1.e32105ce58232p-6},
     {1, 2, 3, 0x1.19cb78106f5c7p+2},
     {1, 3, 3, -0x1.e7a06c99c13ap-10},
     {2, 0, 0, -0x1.8af9f52082e4cp-9},
     {2, 0, 1, -0x1.48ce3d9558e19p-9},
     {2, 0, 2, -0x1.d46ce4000ba7ep-11},
     {2, 0, 3, 0x1.8417417cd5b32p-5},
     {2, 1, 0, -0x1.42a55e0cc530dp-9},
     {2, 1, 1, 0x1.9b684d7c44d76p-9},
     {2, 1, 2, -0x1.0ba36cd2e3b95p-11},
     {2, 1, 3, -0x1.80df1aece043p-6},
     {2, 2, 0, 0x1.0a485d368115dp-10},
     {2, 2, 1, 0x1.58b6fcac1953bp-13},
     {2, 2, 2, -0x1.fd8d26b3018b8p-9},
     {2, 2, 3, -0x1.006e2dd95dea4p-4},
     {2, 3, 3, 0x1.078cad0f3045dp-8},
     {3, 0, 3, -0x1.d0399e042174p-7},
     {3, 1, 3, 0x1.c8be63093438ep-8},
     {3, 2, 3, 0x1.2b320b2f83c77p-6}}};

/*
 * A corner of B grazing A's face Z at one instant (test-random's graze
 * kind, a quartic motion against a quadratic one over [2.5, 3.5]): the
 * boxes part at once, at a rate of 5 sizes per unit of time.  At the
 * contact the edge axis of A's x and B's z reads 2.5e-13, within the
 * touching tolerance but above its local rounding level, and opening.  Read
 * as still closing (aligned_boxes_exit), its rise was counted only after
 * it came back down to that level, far later: the exit came from another
 * axis 0.035 after the contact, the boxes 0.2 apart by then.
 */
static const literal_query graze_opening_exit = {
    {-0x1.4d733680f06dap-1, -0x1.2b4ef1c7ec79ap-1, -0x1.6d9b92e9daea6p-3},
    {0x1.4d733680f06dap-1, 0x1.2b4ef1c7ec79ap-1, 0x1.d5b5a7816231p-1},
    {-0x1.2078911a5e4b8p-5, -0x1.33bb1c6d647b4p-1, -0x1.588bf749dbdd9p-1},
    {0x1.39dcd4a83a2e2p-1, 0x1.3a1000875bebcp-2, 0x1.588bf749dbdd9p-1},
    4, 2, 45, 39,
    {{0, 0, 0, 0x1.ba7da6c71adb5p+7},
     {0, 0, 1, -0x1.4d2516e15ec8p+10},
     {0, 0, 2, -0x1.2183709d1f1c8p+11},
     {0, 0, 3, -0x1.76ef6655e50a2p+16},
     {0, 1, 0, -0x1.20a613f988483p+5},
     {0, 1, 1, -0x1.22a9f3cde245cp+11},
     {0, 1, 2, 0x1.4d9b66ecca7d4p+10},
     {0, 1, 3, -0x1.1de81b251996cp+15},
     {0, 2, 0, -0x1.4dfb6d3992183p+11},
     {0, 2, 1, -0x1.3bc6c151d330ep+6},
     {0, 2, 2, -0x1.a39d77106e6cfp+7},
     {0, 2, 3, 0x1.75012dbd62423p+14},
     {0, 3, 3, 0x1.4f27d24e23d53p+11},
     {1, 0, 0, -0x1.05347f2e9167p+7},
     {1, 0, 1, 0x1.c6bd7e4c2d0b4p+9},
     {1, 0, 2, 0x1.8d791c5d569d4p+10},
     {1, 0, 3, 0x1.8051fecafc53ap+16},
     {1, 1, 0, 0x1.a3e0434c0f9f3p+5},
     {1, 1, 1, 0x1.8ed81c63b8d27p+10},
     {1, 1, 2, -0x1.c5f764086a124p+9},
     {1, 1, 3, 0x1.2825ce9d3516p+15},
     {1, 2, 0, 0x1.c9c60cc130902p+10},
     {1, 2, 1, 0x1.31fc371ac7718p+4},
     {1, 2, 2, 0x1.171ae6b129014p+7},
     {1, 2, 3, -0x1.91194a1b50418p+14},
     {1, 3, 3, -0x1.cb0aaba8bf3a9p+10},
     {2, 0, 0, 0x1.2ce6bf72f8e2p+4},
     {2, 0, 1, -0x1.3631492b099dfp+7},
     {2, 0, 2, -0x1.10eca071eff72p+8},
     {2, 0, 3, -0x1.041ab4684c9b6p+15},
     {2, 1, 0, -0x1.b8859ca89cb1p+3},
     {2, 1, 1, -0x1.118edfa50c7e3p+8},
     {2, 1, 2, 0x1.3504023402f55p+7},
     {2, 1, 3, -0x1.90ce8993cb9d6p+13},
     {2, 2, 0, -0x1.399ce44ff7e7ap+8},
     {2, 2, 1, 0x1.5a8df4f4ed08p+1},
     {2, 2, 2, -0x1.7260ccce46774p+4},
     {2, 2, 3, 0x1.2733d71bbcd45p+13},
     {2, 3, 3, 0x1.3a7a4999bb57ap+8},
     {3, 0, 3, 0x1.c2c3c48ffba3ap+11},
     {3, 1, 3, 0x1.4b99c2a2ef9c4p+10},
     {3, 2, 3, -0x1.3e4c5a8e6a25dp+10},
     {4, 0, 3, 0x1.32c3ce808d7dfp+5},
     {4, 1, 3, 0x1.edc58a6225695p+4},
     {4, 2, 3, 0x1.ecc2a5acdbbfp+4},
     {0, 0, 0, -0x1.63a5030d638e8p+0},
     {0, 0, 1, -0x1.4e1e04e5fb83ep+0},
     {0, 0, 2, 0x1.2a9dbf4ac6193p-1},
     {0, 0, 3, 0x1.6eb018a09392dp+0},
     {0, 1, 0, -0x1.4e02b9c1a0ee4p+0},
     {0, 1, 1, 0x1.7d6df38d55053p+0},
     {0, 1, 2, 0x1.cfa3320b8ebap-3},
     {0, 1, 3, 0x1.0d0503755d0ecp-2},
     {0, 2, 0, -0x1.2b17c89b5e957p-1},
     {0, 2, 1, -0x1.cab1d7940442cp-3},
     {0, 2, 2, -0x1.e484dd7021624p+0},
     {0, 2, 3, -0x1.f6f622b221cecp-2},
     {0, 3, 3, 0x1.fe4ddc6207258p+0},
     {1, 0, 0, 0x1.4f66badd2fd5cp-2},
     {1, 0, 1, 0x1.74089bd0fbbfap-2},
     {1, 0, 2, 0x1.6df8b8d1750ccp-4},
     {1, 0, 3, -0x1.43c322ee6b8f2p-2},
     {1, 1, 0, 0x1.275ef1870ac72p-2},
     {1, 1, 1, -0x1.35e2b30cefa4bp-2},
     {1, 1, 2, -0x1.c30539ab647dbp-3},
     {1, 1, 3, -0x1.db0dfc2107af8p-5},
     {1, 2, 0, 0x1.40932e7ecddep-4},
     {1, 2, 1, -0x1.b6afeb452fd56p-3},
     {1, 2, 2, 0x1.dbc3d046aae2bp-2},
     {1, 2, 3, 0x1.bc154eb4341f7p-4},
     {1, 3, 3, -0x1.c290fc7cc1057p-2},
     {2, 0, 0, -0x1.7d959965b905p-6},
     {2, 0, 1, -0x1.fe355b621436ap-7},
     {2, 0, 2, -0x1.405b11abc4a9ap-6},
     {2, 0, 3, 0x1.923697f22d627p-6},
     {2, 1, 0, -0x1.95fd0dc7c69a3p-6},
     {2, 1, 1, 0x1.648ee0107eed6p-7},
     {2, 1, 2, 0x1.559e146306db6p-6},
     {2, 1, 3, 0x1.27152ad2824c8p-8},
     {2, 2, 0, -0x1.ad45eb0462f2p-9},
     {2, 2, 1, 0x1.d13e3294bdf9cp-6},
     {2, 2, 2, -0x1.3290b6d6270dap-6},
     {2, 2, 3, -0x1.13d83a3eb92dap-7},
     {2, 3, 3, 0x1.17df25516ea6ep-5}}};

/*
 * Queries of test-random's turning-parallel kind (B's edges turning through
 * parallel to A's as the boxes meet), each with a contact once got wrong.
 * The first touches come from the separations along the 15 axes in 50-digit
 * arithmetic (mpmath) on the query as rounded, by bisection.
 * - A clip 4.3e-9 deep (2.7e-9 of the size) from 2.7514317248 to 2.7514341,
 *   the edges within 3e-6 rad: the edge axis that parted the boxes up to it
 *   was stuck at its rounding, and the bisection on the largest separation
 *   across its band found the band's last crossing, 2.75145.
 * - A clip 1.6e-12 deep (1.6e-9 of the size) from 2.6273724508, the edges
 *   turning parallel 1.4e-7 of the interval later: the edge axis's zeros of
 *   the gap and of the sine lay within its rounding of each other, and its
 *   search gave the second, 2.62737259, where a face axis parts the boxes.
 * - A contact at 1.32052562 where the edge axis parts the boxes by 2e-12
 *   and a face of A is crossed by 4.1e-9 (2e-9 of the size): the face was
 *   named, the point 9e-9 off A.
 */
static const literal_query turning_stuck_clip = {
    {-0x1.36762167028f8p-3, -0x1.448c91b1334bep-1, -0x1.36a0b2cbdcd1ap-2},
    {0x1.36762167028f8p-3, 0x1.448c91b1334bep-1, 0x1.103d3904ef756p-4},
    {-0x1.22c87216b8332p-2, -0x1.65ff775da4b17p-1, -0x1.029e311d34a94p-1},
    {0x1.c4a2a118c969ep-4, 0x1.65ff775da4b17p-1, 0x1.3245539100012p-3},
    1, 4, 16, 42,
    {{0, 0, 0, -0x1.c7825e2178cp-9},
     {0, 0, 1, 0x1.b82e65c2668bp-5},
     {0, 0, 2, 0x1.ff41da2f3da3fp-1},
     {0, 0, 3, -0x1.7cfb82e5cfa6fp+1},
     {0, 1, 0, 0x1.819a8ed0edc5cp-1},
     {0, 1, 1, 0x1.50696566555aep-1},
     {0, 1, 2, -0x1.0c2bb6ef1e208p-5},
     {0, 1, 3, -0x1.aef80aee93a1dp+2},
     {0, 2, 0, -0x1.50d3034f5b66fp-1},
     {0, 2, 1, 0x1.80fc70a8f2388p-1},
     {0, 2, 2, -0x1.5e3879654f8b8p-5},
     {0, 2, 3, 0x1.05abdff667879p+3},
     {0, 3, 3, 0x1p+0},
     {1, 0, 3, 0x1.d8c490d6aca38p-2},
     {1, 1, 3, 0x1.3fb9be28d6fb6p+1},
     {1, 2, 3, -0x1.679d6e07746f7p+1},
     {0, 0, 0, -0x1.5d1881dbee9b2p-5},
     {0, 0, 1, -0x1.606e84b0698cfp-2},
     {0, 0, 2, 0x1.ff91953048672p-1},
     {0, 0, 3, -0x1.d4078326d9d83p+1},
     {0, 1, 0, 0x1.e5bdca62efacap-1},
     {0, 1, 1, 0x1.b6507fe12b138p-2},
     {0, 1, 2, 0x1.80d53a892029ap-3},
     {0, 1, 3, -0x1.c39b79681fc4cp+2},
     {0, 2, 0, -0x1.dcb247fe75e0fp-2},
     {0, 2, 1, 0x1.cec312cb6a938p-1},
     {0, 2, 2, 0x1.2a79f9c641bfbp-2},
     {0, 2, 3, 0x1.008da7d300cc1p+3},
     {0, 3, 3, 0x1.0ec0fc60800bbp+0},
     {1, 0, 0, 0x1.146b6b6b0961cp-5},
     {1, 0, 1, 0x1.2a7acc92c92b8p-3},
     {1, 0, 2, 0x1.de42a4db7af88p-8},
     {1, 0, 3, 0x1.44e9c3e3890eep-1},
     {1, 1, 0, -0x1.3d36016c19ab1p-4},
     {1, 1, 1, 0x1.8d4bfec8b52d4p-4},
     {1, 1, 2, -0x1.0d449495e97ffp-4},
     {1, 1, 3, 0x1.75c44f6d897eap+1},
     {1, 2, 0, -0x1.0d4554aa75762p-4},
     {1, 2, 1, -0x1.4340ba650fa3ep-5},
     {1, 2, 2, -0x1.13bec402cc7c9p-3},
     {1, 2, 3, -0x1.a4c40296b4edap+1},
     {1, 3, 3, -0x1.572e8b11985bap-5},
     {2, 0, 0, -0x1.d0e3755435d4dp-8},
     {2, 0, 1, -0x1.acedb30ce3642p-12},
     {2, 0, 2, -0x1.662cb3de47011p-9},
     {2, 0, 3, -0x1.76869a048d8a5p-5},
     {2, 1, 0, 0x1.2f05a03625f79p-9},
     {2, 1, 1, -0x1.47cfc38f5ab09p-8},
     {2, 1, 2, -0x1.583b9bac3518ap-8},
     {2, 1, 3, -0x1.3e3923a33e065p-3},
     {2, 2, 0, -0x1.8cb185b179d86p-10},
     {2, 2, 1, -0x1.7724e956066c8p-8},
     {2, 2, 2, 0x1.39991ab11de81p-8},
     {2, 2, 3, 0x1.67162de4ca5dp-3},
     {2, 3, 3, 0x1.f2e93c39633b5p-8},
     {3, 0, 3, 0x1.ce116476a5558p-9},
     {3, 1, 3, 0x1.37674ef9bc7ecp-6},
     {3, 2, 3, -0x1.5e3774cae7c4ap-6}}};

static const literal_query turning_merged_roots = {
    {-0x1.662f57b6a36ep-14, -0x1.32985c49bb3a2p-14, -0x1.edd63249c5d79p-13},
    {0x1.662f57b6a36ep-14, 0x1.8b28299326b8cp-12, 0x1.edd63249c5d79p-13},
    {-0x1.cc252f16e85a1p-14, -0x1.2451ba2283f13p-12, -0x1.a354dfb97ab7dp-12},
    {0x1.cc252f16e85a1p-14, 0x1.2451ba2283f13p-12, 0x1.a354dfb97ab7dp-12},
    2, 3, 19, 42,
    {{0, 0, 0, 0x1.69b4f5e4d0bf1p-2},
     {0, 0, 1, 0x1.4e9ae663ecddfp-1},
     {0, 0, 2, -0x1.56bf387b4a932p-1},
     {0, 0, 3, 0x1.833adcaf5ab2dp-6},
     {0, 1, 0, 0x1.dbfd676cb8cb7p-1},
     {0, 1, 1, -0x1.524862dbe0336p-3},
     {0, 1, 2, 0x1.51326dd247fbap-2},
     {0, 1, 3, -0x1.1139c0d4bddfbp-6},
     {0, 2, 0, 0x1.ac8e43746ea34p-4},
     {0, 2, 1, -0x1.7a31d8a6b74e1p-1},
     {0, 2, 2, -0x1.54f1c31376b58p-1},
     {0, 2, 3, -0x1.f2aabdefa5a75p-8},
     {0, 3, 3, 0x1.0000000000001p+0},
     {1, 0, 3, -0x1.1f808641b0a63p-7},
     {1, 1, 3, 0x1.a2578c6dcf48cp-8},
     {1, 2, 3, 0x1.c02642356dde4p-10},
     {2, 0, 3, -0x1.8d201cb56f66fp-13},
     {2, 1, 3, 0x1.226f080799f06p-13},
     {2, 2, 3, 0x1.5e1da1a03aeb5p-12},
     {0, 0, 0, 0x1.b91359f280e6cp+5},
     {0, 0, 1, 0x1.933e9455221a6p+5},
     {0, 0, 2, 0x1.1fb0fd29c012fp+6},
     {0, 0, 3, 0x1.528f021d4548dp+1},
     {0, 1, 0, -0x1.1331966a703b5p+4},
     {0, 1, 1, 0x1.65e3fcc69b723p+6},
     {0, 1, 2, -0x1.8c2933c5b7a7bp+5},
     {0, 1, 3, -0x1.cffc790154c07p+0},
     {0, 2, 0, -0x1.58819f8b4a175p+6},
     {0, 2, 1, 0x1.ccc984852672bp+3},
     {0, 2, 2, 0x1.bf72d8de8065ep+5},
     {0, 2, 3, -0x1.15ebb724cf90fp+0},
     {0, 3, 3, 0x1.9ecb7acd37d87p+6},
     {1, 0, 0, -0x1.6bbabe7ae33d8p+5},
     {1, 0, 1, -0x1.12b51d28bf1b4p+5},
     {1, 0, 2, -0x1.ae5dcf701db98p+5},
     {1, 0, 3, -0x1.81718124c1926p+1},
     {1, 1, 0, 0x1.f4e313b0f8738p+3},
     {1, 1, 1, -0x1.17e359db82448p+6},
     {1, 1, 2, 0x1.fd83408f16436p+4},
     {1, 1, 3, 0x1.0cf92a2071e58p+1},
     {1, 2, 0, 0x1.ef283be9b5266p+5},
     {1, 2, 1, -0x1.00451fe415307p+3},
     {1, 2, 2, -0x1.7c8fdeac26804p+5},
     {1, 2, 3, 0x1.2dfe0344066a9p+0},
     {1, 3, 3, -0x1.38b4336472854p+6},
     {2, 0, 0, 0x1.2bcf48231b4e4p+3},
     {2, 0, 1, 0x1.772f9aa2cb1f2p+2},
     {2, 0, 2, 0x1.3eb1ed7f26a15p+3},
     {2, 0, 3, 0x1.25788414c87ecp+0},
     {2, 1, 0, -0x1.aa680886cb719p+1},
     {2, 1, 1, 0x1.b4b23d77b5a8ep+3},
     {2, 1, 2, -0x1.3988daeadd29dp+2},
     {2, 1, 3, -0x1.a0d4220cdadedp-1},
     {2, 2, 0, -0x1.621c1b8a47575p+3},
     {2, 2, 1, 0x1.b5d0d00c6146p-1},
     {2, 2, 2, 0x1.3d04d7a9a6ff2p+3},
     {2, 2, 3, -0x1.b65871cbfb50ep-2},
     {2, 3, 3, 0x1.dc1226612549cp+3},
     {3, 0, 3, -0x1.2ae54ed8072bcp-3},
     {3, 1, 3, 0x1.afe8a98a83289p-4},
     {3, 2, 3, 0x1.a88a8ffec6f52p-5}}};

static const literal_query turning_face_crossed = {
    {-0x1.bd6e72393e6e6p-2, -0x1.ca26926abc1f3p-1, -0x1.4157945da3cafp-1},
    {0x1.bd6e72393e6e6p-2, 0x1.fd7bbfae9e806p-2, 0x1.4157945da3cafp-1},
    {-0x1.084fb216ced51p+0, -0x1.3ca0a3718a92ap-3, -0x1.508d08e2b8627p-1},
    {0x1.72a83aa279c8ep-3, 0x1.3ca0a3718a92ap-3, 0x1.508d08e2b8627p-1},
    1, 4, 16, 45,
    {{0, 0, 0, 0x1.52cf64a93b8ep-2},
     {0, 0, 1, -0x1.6b7afadb206c1p-2},
     {0, 0, 2, -0x1.bfadce7009d3bp-1},
     {0, 0, 3, -0x1.167cdc1077332p-3},
     {0, 1, 0, -0x1.54910634e99dcp-1},
     {0, 1, 1, 0x1.2397e41af8cap-1},
     {0, 1, 2, -0x1.ee7f33ab2785p-2},
     {0, 1, 3, -0x1.c0564fa4c7ecp-1},
     {0, 2, 0, 0x1.56b9957844bb1p-1},
     {0, 2, 1, 0x1.7b96caed1570ap-1},
     {0, 2, 2, -0x1.8689e3f7e4fp-5},
     {0, 2, 3, 0x1.6e27988c00b26p-1},
     {0, 3, 3, 0x1p+0},
     {1, 0, 3, -0x1.cc78197113013p-7},
     {1, 1, 3, -0x1.06f0813458db8p-3},
     {1, 2, 3, -0x1.992683ce23d08p-5},
     {0, 0, 0, 0x1.55b3adfb2599cp-2},
     {0, 0, 1, -0x1.5822ff0e4b5ap-2},
     {0, 0, 2, -0x1.c2ffaeef2a73cp-1},
     {0, 0, 3, -0x1.b352d06cda306p-1},
     {0, 1, 0, -0x1.56f6977af7cc5p-1},
     {0, 1, 1, 0x1.2563aeb986e88p-1},
     {0, 1, 2, -0x1.e3b8633725554p-2},
     {0, 1, 3, -0x1.2cd6349dd849ep+1},
     {0, 2, 0, 0x1.53ae7f8483443p-1},
     {0, 2, 1, 0x1.7ec506fd8da09p-1},
     {0, 2, 2, -0x1.15b2e9960a89p-5},
     {0, 2, 3, 0x1.cbb06c6bea23fp+0},
     {0, 3, 3, 0x1.0006ae2461034p+0},
     {1, 0, 0, -0x1.1417a66d2ebb2p-9},
     {1, 0, 1, -0x1.d5a68d8631ce3p-7},
     {1, 0, 2, 0x1.3d8f80ccb96dp-8},
     {1, 0, 3, -0x1.cbc56f013749ap-7},
     {1, 1, 0, 0x1.d8cc9958d17dap-9},
     {1, 1, 1, -0x1.566d7024a594p-9},
     {1, 1, 2, -0x1.04bee11ac4f87p-7},
     {1, 1, 3, -0x1.060c7c3e1b7d7p-3},
     {1, 2, 0, 0x1.24dd84ef5424cp-8},
     {1, 2, 1, -0x1.308cc4827b3eap-8},
     {1, 2, 2, -0x1.5720801f152d2p-7},
     {1, 2, 3, -0x1.9b2f66ce2dbd4p-5},
     {1, 3, 3, -0x1.43c342d0686bap-13},
     {2, 0, 0, -0x1.97ed22ee9f8fep-16},
     {2, 0, 1, 0x1.5c1d663a8a6dcp-16},
     {2, 0, 2, 0x1.9a8d0a91ffb35p-15},
     {2, 0, 3, -0x1.4dc731c60aca2p-18},
     {2, 1, 0, -0x1.8b6eab787b4e8p-15},
     {2, 1, 1, -0x1.174445a8efc12p-15},
     {2, 1, 2, -0x1.3837645fcfe04p-17},
     {2, 1, 3, -0x1.d66e4a9ad4e2ap-14},
     {2, 2, 0, 0x1.9c38593a20276p-16},
     {2, 2, 1, -0x1.6b8ae281737dbp-15},
     {2, 2, 2, 0x1.00861e9a485c8p-15},
     {2, 2, 3, 0x1.357d3daf57873p-14},
     {2, 3, 3, 0x1.ea5b24794b39bp-15},
     {3, 0, 3, -0x1.bfef16c7720b6p-21},
     {3, 1, 3, -0x1.f75ebd86ba91dp-18},
     {3, 2, 3, -0x1.86c86e454a066p-19},
     {4, 0, 3, 0x1.55b2c69a99a55p-29},
     {4, 1, 3, 0x1.5b58177a62ef2p-32},
     {4, 2, 3, -0x1.38441a020d043p-29}}};

/*
 * Another of that kind, 1e5 from the origin, every edge of B within 6e-6
 * rad of parallel to one of A's: a clip 6e-7 deep (2.7e-7 of the size)
 * lasting 1.1e-5 of the interval, from -4.7268027200514.  The edge axis
 * that parted the boxes up to 3.5e-4 of the interval before it was stuck
 * at its rounding, and in its band its separation in the poses, falling
 * to 0 through the clip, rises again and drops through 0 once more where
 * its edges swing through parallel, 5.5e-5 of the interval after it: the
 * bisection across the band found that crossing and passed over the clip,
 * while two face axes, whose roots are exact, parted the boxes up to it.
 */
static const literal_query turning_band_recrossed = {
    {-0x1.42ebc9527d267p-1, -0x1.62ebaa70645b5p-1, -0x1.4958289cf8c59p+0},
    {0x1.42ebc9527d267p-1, 0x1.62ebaa70645b5p-1, -0x1.a998906bf2c10p-4},
    {-0x1.27bc2e6c38e08p-1, -0x1.4da4c7ed1029ep-3, -0x1.05e631e176eecp-2},
    {0x1.3e55b8947a5c2p-3, 0x1.96c8114e36ac6p-1, 0x1.27439a4f9cdddp-3},
    4, 6, 45, 71,
    {{0, 0, 0, 0x1.977c5f1add9d9p-1},
     {0, 0, 1, 0x1.b823a56d50127p-2},
     {0, 0, 2, -0x1.2f2bf8b41c967p-1},
     {0, 0, 3, -0x1.3df6e3ef17a78p+16},
     {0, 1, 0, 0x1.711163e518908p-1},
     {0, 1, 1, -0x1.38b0cd270adcbp-1},
     {0, 1, 2, 0x1.0d1373f76ca04p-1},
     {0, 1, 3, -0x1.19feef4a23499p+14},
     {0, 2, 0, -0x1.01244d548095bp-3},
     {0, 2, 1, -0x1.903a58d8ba4f2p-1},
     {0, 2, 2, -0x1.78ed233144671p-1},
     {0, 2, 3, -0x1.af8a673465fcfp+15},
     {0, 3, 3, 0x1.14c307ac90e89p+0},
     {1, 0, 0, 0x1.ad91531d1ebcfp-7},
     {1, 0, 1, 0x1.486b9fd7fc371p-6},
     {1, 0, 2, -0x1.d44e4c2159694p-10},
     {1, 0, 3, -0x1.5df04560d1d91p+10},
     {1, 1, 0, 0x1.289cccf3d092fp-6},
     {1, 1, 1, 0x1.59c951d43699ap-7},
     {1, 1, 2, 0x1.a4ee231197b22p-6},
     {1, 1, 3, -0x1.35c240de53d79p+8},
     {1, 2, 0, 0x1.b88decf0dd530p-6},
     {1, 2, 1, -0x1.77eda8b8f554fp-6},
     {1, 2, 2, -0x1.edd4d3a34d955p-8},
     {1, 2, 3, -0x1.db561fa74e983p+9},
     {1, 3, 3, 0x1.30b8944364bc8p-6},
     {2, 0, 0, 0x1.805a42b3459b0p-17},
     {2, 0, 1, 0x1.121945de7ff75p-12},
     {2, 0, 2, -0x1.47f8b514e24d8p-13},
     {2, 0, 3, -0x1.6f0e6bf47fcecp+4},
     {2, 1, 0, -0x1.dff5e7e4972c5p-14},
     {2, 1, 1, 0x1.37e88f8afe0a5p-13},
     {2, 1, 2, 0x1.f7c56bcaf8a0dp-13},
     {2, 1, 3, -0x1.44dd263a38007p+2},
     {2, 2, 0, 0x1.28035fde6c3d3p-12},
     {2, 2, 1, 0x1.a0c24460f891cp-15},
     {2, 2, 2, 0x1.b306e24979bbap-14},
     {2, 2, 3, -0x1.f29b2a948706fp+3},
     {2, 3, 3, 0x1.3fa23a328a7b8p-12},
     {3, 0, 3, 0x1.5cf9b3f56d2adp-13},
     {3, 1, 3, 0x1.b5ee653236858p-13},
     {3, 2, 3, -0x1.d30b702b3d0d3p-14},
     {4, 0, 3, 0x1.34863e830aeb3p-29},
     {4, 1, 3, 0x1.36857cb94fea1p-24},
     {4, 2, 3, 0x1.dca090db87ceep-26},
     {0, 0, 0, 0x1.94c5fd0a91f21p-1},
     {0, 0, 1, 0x1.b530eac668d79p-2},
     {0, 0, 2, -0x1.33df55969db8bp-1},
     {0, 0, 3, -0x1.3df9a3b97bfd4p+16},
     {0, 1, 0, 0x1.73052c90d3813p-1},
     {0, 1, 1, -0x1.3a0d6f89601d0p-1},
     {0, 1, 2, 0x1.08d025b701b56p-1},
     {0, 1, 3, -0x1.19fa16bc89a65p+14},
     {0, 2, 0, -0x1.18622618fdeb8p-3},
     {0, 2, 1, -0x1.8fff582f751e5p-1},
     {0, 2, 2, -0x1.782a0c733c463p-1},
     {0, 2, 3, -0x1.af8d1931fc07dp+15},
     {0, 3, 3, 0x1.14c5a0bcb8161p+0},
     {1, 0, 0, 0x1.8a577f20076c0p-7},
     {1, 0, 1, 0x1.3dc029b9afc06p-6},
     {1, 0, 2, -0x1.fc6dbee66e9f6p-9},
     {1, 0, 3, -0x1.5e43f463ac71ap+10},
     {1, 1, 0, 0x1.3b37c2c3e0663p-6},
     {1, 1, 1, 0x1.44f61186ea785p-7},
     {1, 1, 2, 0x1.849d2ba35ff6dp-6},
     {1, 1, 3, -0x1.36049797d1d9ep+8},
     {1, 2, 0, 0x1.8e690dfbda207p-6},
     {1, 2, 1, -0x1.7802c4b0d4c37p-6},
     {1, 2, 2, -0x1.ecf5654552d3cp-8},
     {1, 2, 3, -0x1.dbc680f9b97b2p+9},
     {1, 3, 3, 0x1.3101cc56ac6b4p-6},
     {2, 0, 0, 0x1.53186396c75c8p-16},
     {2, 0, 1, 0x1.08ec596353dcfp-12},
     {2, 0, 2, -0x1.8aee563349427p-13},
     {2, 0, 3, -0x1.718cdc7ad2400p+4},
     {2, 1, 0, -0x1.5d697b44c5d11p-15},
     {2, 1, 1, 0x1.187f0b8cb171fp-13},
     {2, 1, 2, 0x1.9c9b370382295p-13},
     {2, 1, 3, -0x1.4709decdb647cp+2},
     {2, 2, 0, 0x1.035669ea8fbfdp-12},
     {2, 2, 1, 0x1.ca07827042b58p-16},
     {2, 2, 2, 0x1.3492291fa3a0dp-15},
     {2, 2, 3, -0x1.f5fafcf3270dbp+3},
     {2, 3, 3, 0x1.41cf12bffab6dp-12},
     {3, 0, 0, -0x1.b185b359ef8bfp-23},
     {3, 0, 1, 0x1.a47cbe4f0967cp-26},
     {3, 0, 2, -0x1.813e7b9bd6b3ap-25},
     {3, 0, 3, -0x1.457801e239249p-9},
     {3, 1, 0, 0x1.69c53ba2d3d62p-21},
     {3, 1, 1, 0x1.4f4e4c4f1f27cp-24},
     {3, 1, 2, 0x1.ef834ccfedb00p-23},
     {3, 1, 3, -0x1.8acb73de32b84p-12},
     {3, 2, 0, 0x1.05349380d8d79p-22},
     {3, 2, 1, -0x1.03ea245757758p-22},
     {3, 2, 2, -0x1.622e562841857p-21},
     {3, 2, 3, -0x1.f40d8f233dda5p-10},
     {3, 3, 3, 0x1.2ee17fa3b2630p-25},
     {4, 0, 0, -0x1.4acc3d3a52060p-36},
     {4, 0, 1, 0x1.1227838d3812cp-31},
     {4, 0, 2, -0x1.42013951f5ae4p-35},
     {4, 0, 3, -0x1.3b64625cebb2fp-15},
     {4, 1, 0, 0x1.9d11bd714de22p-33},
     {4, 1, 1, -0x1.d9535acd32c44p-36},
     {4, 1, 2, -0x1.fd136f2c91bd8p-32},
     {4, 1, 3, -0x1.140185fef9ff5p-17},
     {4, 2, 0, -0x1.fd83f3cd0c3e2p-32},
     {4, 2, 1, -0x1.11eca799a1904p-35},
     {4, 2, 2, -0x1.99724973e21dcp-33},
     {4, 2, 3, -0x1.ab2a5fd82a88fp-16},
     {4, 3, 3, 0x1.13161ad7b368cp-31},
     {5, 0, 3, 0x1.34c6bf5c28bccp-32},
     {5, 1, 3, 0x1.7df6a74721128p-32},
     {5, 2, 3, -0x1.77f8bedd6ab45p-33},
     {6, 0, 3, 0x1.a7fb357e11d5bp-44},
     {6, 1, 3, 0x1.7a9af45c12993p-43},
     {6, 2, 3, 0x1.b04bac25bc5e8p-43}}};

/*
 * A literal query judged against the reference in both orders (the promise
 * and the contact's description, tests/judge.h), no later than touch (the
 * first touch, where given) by 1e-9 of the interval, and mirrored when
 * swapped.
 */
static void check_literal_judged(const literal_query *l, double t0, double t1, double touch,
                                 const char *what)
{
    boxtoi_result res[2];
    boxtoi_query q = solve_literal(l, t0, t1, res), y = tu_swapped(&q);
    ref_answer ra;
    check ck[2];
    ref_solve(&q, REL_TOL * ref_size(&q, q.t0), &ra);
    judge(&q, &res[0], &ra, &ck[0]);
    judge(&y, &res[1], &ra, &ck[1]);
    int bad = ck[0].verdict == V_DISAGREE || ck[0].geom_bad || ck[0].point_bad ? 0
              : ck[1].verdict == V_DISAGREE || ck[1].geom_bad || ck[1].point_bad ? 1 : -1;
    ok(ra.valid && !ra.inconsistent && bad < 0, "%s: the promise kept in both orders%s%s%s",
       what, bad < 0 ? "" : ": ", bad < 0 ? "" : ck[bad].why, bad < 0 ? "" : ck[bad].geom_why);
    if (!isnan(touch))
        ok(res[0].state == BOXTOI_HIT && res[0].toi <= touch + 1e-9 * (t1 - t0),
           "%s: first contact %.17g, no later than the first touch %.17g", what, res[0].toi,
           touch);
    ok(swap_mirrors(&q, &res[0], &res[1]), "%s, swapped: mirrored", what);
}

/*
 * Plates turned nearly alike, touching at t0: the query of a randomized
 * case started again at that case's time of contact.  Their centres lie
 * 1.2e-9 of their size apart across A's face: oriented the other way, its
 * normal overlapped the plates by 2.6e-9 for a depth of 1.7e-10.
 */
static const literal_query plates_from_contact = {
    {-0x1.687ee25461c1dp-1, -0x1.5780a23899c7ap-2, 0x0p+0},
    {0x1.687ee25461c1dp-1, 0x1.5780a23899c7ap-2, 0x0p+0},
    {-0x1.2c5021b8d14bfp-1, -0x1.be9d8efe1774p-6, -0x1.b01111d67a903p-6},
    {0x1.2c5021b8d14bfp-1, 0x1.3242f2b396a9p-1, -0x1.b01111d67a903p-6},
    3, 3, 42, 42,
    {{0, 0, 0, 0x1.2dffbb6201d31p+0},
     {0, 0, 1, 0x1.2af900605bf3ap+3},
     {0, 0, 2, 0x1.8555222182e25p+4},
     {0, 0, 3, -0x1.7066f4d442368p+9},
     {0, 1, 0, 0x1.4207a57af042dp+4},
     {0, 1, 1, 0x1.e4d52dbfa7a1dp+3},
     {0, 1, 2, -0x1.b2c1b18845a57p+2},
     {0, 1, 3, 0x1.60090f0326bafp+7},
     {0, 2, 0, -0x1.08feeb5e41a7bp+4},
     {0, 2, 1, 0x1.313cffaeb7c34p+4},
     {0, 2, 2, -0x1.a1673e039fb9p+2},
     {0, 2, 3, -0x1.f4d46000aed47p+9},
     {0, 3, 3, 0x1.a178a53d077c7p+4},
     {1, 0, 0, -0x1.d00171cdb9584p+0},
     {1, 0, 1, -0x1.4de9e758698e8p+2},
     {1, 0, 2, -0x1.68bf4d2d88a84p+3},
     {1, 0, 3, 0x1.0d63cbe1362b7p+9},
     {1, 1, 0, -0x1.59a6ae4190538p+3},
     {1, 1, 1, -0x1.507a577ef5d8dp+2},
     {1, 1, 2, 0x1.0925c3b719473p+2},
     {1, 1, 3, -0x1.0005e2daeda88p+7},
     {1, 2, 0, 0x1.984bf14dfe9a2p+2},
     {1, 2, 1, -0x1.4a1b99dead16ap+3},
     {1, 2, 2, 0x1.be4f47c0b8363p+1},
     {1, 2, 3, 0x1.6d8c6a24e282cp+9},
     {1, 3, 3, -0x1.8ed663bde9cbp+3},
     {2, 0, 0, 0x1.9747325d9011ep-2},
     {2, 0, 1, 0x1.5926302027d76p-1},
     {2, 0, 2, 0x1.55bb9de3d59a7p+0},
     {2, 0, 3, -0x1.09e0be9c4f989p+7},
     {2, 1, 0, 0x1.622cc168cffbfp+0},
     {2, 1, 1, 0x1.6f21efa533c7dp-2},
     {2, 1, 2, -0x1.2fc1011a62a6ep-1},
     {2, 1, 3, 0x1.f6c94b5b4cdb8p+4},
     {2, 2, 0, -0x1.22adc5553363p-1},
     {2, 2, 1, 0x1.58906a0596238p+0},
     {2, 2, 2, -0x1.056699d2a91ep-1},
     {2, 2, 3, -0x1.68284360906a8p+7},
     {2, 3, 3, 0x1.8c25062415ebep+0},
     {3, 0, 3, 0x1.628df8bfc16aep+3},
     {3, 1, 3, -0x1.4d7e5acff876bp+1},
     {3, 2, 3, 0x1.df6eeb6114f8p+3},
     {0, 0, 0, 0x1.2dffbc0342938p+0},
     {0, 0, 1, 0x1.2af9004f39d15p+3},
     {0, 0, 2, 0x1.855522244fd7bp+4},
     {0, 0, 3, 0x1.17f31651df4e2p+11},
     {0, 1, 0, 0x1.4207a57696db2p+4},
     {0, 1, 1, 0x1.e4d52dc7f9c7dp+3},
     {0, 1, 2, -0x1.b2c1b196b30abp+2},
     {0, 1, 3, 0x1.1fdb152a9dd41p+11},
     {0, 2, 0, -0x1.08feeb62d2ec8p+4},
     {0, 2, 1, 0x1.313cffaf9beb5p+4},
     {0, 2, 2, -0x1.a1673dcacce4cp+2},
     {0, 2, 3, -0x1.df2b842a8b091p+6},
     {0, 3, 3, 0x1.a178a53d077c6p+4},
     {1, 0, 0, -0x1.d0017217336c3p+0},
     {1, 0, 1, -0x1.4de9e748f98f2p+2},
     {1, 0, 2, -0x1.68bf4d2fa121bp+3},
     {1, 0, 3, -0x1.921ca627aa0d5p+10},
     {1, 1, 0, -0x1.59a6ae3cf2954p+3},
     {1, 1, 1, -0x1.507a578899a42p+2},
     {1, 1, 2, 0x1.0925c3c2efc22p+2},
     {1, 1, 3, -0x1.9f4f0bbd601f4p+10},
     {1, 2, 0, 0x1.984bf157cd69ep+2},
     {1, 2, 1, -0x1.4a1b99e00e9f6p+3},
     {1, 2, 2, 0x1.be4f478c7c903p+1},
     {1, 2, 3, 0x1.80c1b90066a3ap+6},
     {1, 3, 3, -0x1.8ed663bde9cbp+3},
     {2, 0, 0, 0x1.974732800d97cp-2},
     {2, 0, 1, 0x1.5926301209dbep-1},
     {2, 0, 2, 0x1.55bb9de4d470bp+0},
     {2, 0, 3, 0x1.861e76f1e8c0ap+8},
     {2, 1, 0, 0x1.622cc16411d95p+0},
     {2, 1, 1, 0x1.6f21efba62a6ep-2},
     {2, 1, 2, -0x1.2fc1012a1acp-1},
     {2, 1, 3, 0x1.94a746d536bbp+8},
     {2, 2, 0, -0x1.22adc5603bf7ep-1},
     {2, 2, 1, 0x1.58906a07b60a1p+0},
     {2, 2, 2, -0x1.056699bb3068ep-1},
     {2, 2, 3, -0x1.9b7d6dc016568p+4},
     {2, 3, 3, 0x1.8c25062415ebdp+0},
     {3, 0, 3, -0x1.ff1d8a6b21938p+4},
     {3, 1, 3, -0x1.0a44a50ae5034p+5},
     {3, 2, 3, 0x1.27ce6b0fe373cp+1}}};

static void case_plates_from_contact(void)
{
    check_literal_judged(&plates_from_contact, 0x1.05dd279f4736bp+2, 0x1.0c28065327796p+2, NAN,
                         "plates nearly in one plane, touching at t0: the normal a direction "
                         "of the depth");
}

/*
 * Two unit cubes [-1, 1]^3 far from the origin (at T = 1e6, where the
 * coordinates' rounding allows 1.8e-9), apart by g = 1e-8 along n = (0, 1,
 * 1) / sqrt 2 between nearly parallel edges: A's edge Y'-Z' (along x, at y =
 * z = 1 about A's centre) and B's edge Y-Z, B turned by 1e-5 rad about n
 * through that edge's middle, so that it crosses A's edge at that angle, g
 * above it.  Only the axis of those two edges parts the boxes: their faces'
 * axes all overlap (by about the turn, 7e-6, more than g), and its function
 * (the gap times the sine of the edges' angle, 1e-13) lies within its
 * rounding 1e6 from the origin, so its roots say nothing.  The poses decide:
 * across the whole interval they keep the boxes apart by g, more than the
 * promise's distance (1e-9 of the size plus that rounding, 5.3e-9), so they
 * never touch.  At rest, and with B sliding along A's edge (-0.25 + 0.5 t
 * along x: the distance between the edges' lines does not change).
 */
static void case_parallel_edges_apart_far(void)
{
    const double T = 1e6, g = 1e-8, th = 1e-5, r2 = sqrt(0.5);
    const double n[3] = {0.0, r2, r2}, c = cos(th), s = sin(th);
    /* Rodrigues: c I + s K + (1 - c) n n^T, K the cross product by n */
    const double K[3][3] = {{0.0, -n[2], n[1]}, {n[2], 0.0, -n[0]}, {-n[1], n[0], 0.0}};
    double R[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = (i == j ? c : 0.0) + s * K[i][j] + (1.0 - c) * n[i] * n[j];
    /* B's edge Y-Z has its middle at local (0, -1, -1): put it at A's (0, 1, 1) + g n */
    double cb[3];
    for (int i = 0; i < 3; i++)
        cb[i] = (i == 0 ? 0.0 : 1.0) + g * n[i] + R[i][1] + R[i][2];
    boxtoi_motion ma, mb;
    double id[3][3];
    tu_identity3(id);
    motion_static(&ma, id, T, T, T);
    motion_static(&mb, R, T + cb[0], T + cb[1], T + cb[2]);
    for (int moving = 0; moving < 2; moving++) {
        if (moving) {
            mb.degree = 1;
            mb.c[0][0][3] -= 0.25;
            mb.c[1][0][3] = 0.5;
        }
        boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
        const char *name = moving ? "nearly parallel edges 1e-8 apart 1e6 from the origin, "
                                    "B sliding along them"
                                  : "nearly parallel edges 1e-8 apart 1e6 from the origin";
        ref_answer ra;
        int solved = ref_solve(&q, 0.0, &ra);
        double d0 = ref_signed_distance(&q, 0.0), d1 = ref_signed_distance(&q, 1.0);
        if (!ok(solved && ra.valid && !ra.overlap_t0 && !ra.hit &&
                    fabs(d0 + g) <= 1e-9 && fabs(d1 + g) <= 1e-9,
                "%s: the reference keeps them apart by g", name))
            diag("reference: valid %d overlap %d hit %d, distance %.3g at t0, %.3g at t1",
                 ra.valid, ra.overlap_t0, ra.hit, -d0, -d1);
        expect e = {.state = BOXTOI_MISS};
        boxtoi_result r = run_case(name, &q, &e);
        check_swap(name, &q, &r);
    }
}

static void case_turning_parallel_random(void)
{
    check_literal_judged(&turning_stuck_clip, 2.5, 3.5, 2.7514317248025744,
                         "a clip across an edge axis's stuck band");
    check_literal_judged(&turning_merged_roots, 0x1.3fb88922ae994p+1, 0x1.5362cab877afbp+1,
                         2.6273724507834407, "a clip just before the edges turn parallel");
    check_literal_judged(&turning_face_crossed, -0x1.0744b0f70967ep+0, 0x1.1abb8b4487fbfp+1,
                         NAN, "edges meeting beside a face the boxes cross");
    check_literal_judged(&turning_band_recrossed, -0x1.3737e141dbb06p+2, -0x1.03dcff4f8d83ap+0,
                         -4.726802720051397, "a clip in a stuck band that falls to 0 twice");
}

/*
 * Two points (boxes of no size) meeting at t = 0 with equal velocities (a
 * fuzz find), B on a motion of degree 8 whose coefficients reach 5e3, over
 * [-1.296875, 0.34375]: in powers of s on that interval they reach 4e6
 * while the Bernstein ones stay below 6e4.  Rounded before the Bernstein
 * conversion, they put B 5e-12 off where the points meet, and the contact
 * reported had the points 9e-12 apart, against the coordinates' rounding of
 * 1.7e-13 that the promise allows.  Over the whole [-2.9375, 0.34375] of
 * the fuzz input B's w varies 220-fold, and the query is solved in pieces:
 * each re-expanded in powers of its own s and rounded there, the points
 * were reported touching 9e-12 apart again (allowed 4.8e-12); each piece
 * prepared from the caller's motions over its own times, they are not.
 */
static const literal_query points_together = {
    {0, 0, 0},
    {0, 0, 0},
    {0, 0, 0},
    {0, 0, 0},
    3, 8, 36, 65,
    {{0, 0, 0, 0x1.7a00000000000p+2},
     {0, 0, 1, 0x1.9bc0000000000p+5},
     {0, 0, 2, 0x1.ab00000000000p+2},
     {0, 0, 3, -0x1.2d8be08000000p+11},
     {0, 1, 0, 0x1.ab00000000000p+2},
     {0, 1, 1, 0x1.7a00000000000p+2},
     {0, 1, 2, -0x1.9bc0000000000p+5},
     {0, 1, 3, -0x1.2d8be08000000p+11},
     {0, 2, 0, -0x1.9bc0000000000p+5},
     {0, 2, 1, 0x1.ab00000000000p+2},
     {0, 2, 2, -0x1.7a00000000000p+2},
     {0, 2, 3, -0x1.2d8be08000000p+11},
     {0, 3, 3, 0x1.a1e0000000000p+5},
     {1, 0, 0, -0x1.3d40000000000p+5},
     {1, 0, 1, -0x1.3d40000000000p+5},
     {1, 0, 2, -0x1.8f80000000000p+5},
     {1, 0, 3, -0x1.a84fd00000000p+6},
     {1, 1, 0, -0x1.8f80000000000p+5},
     {1, 1, 1, -0x1.3d40000000000p+5},
     {1, 1, 2, 0x1.3d40000000000p+5},
     {1, 1, 3, -0x1.a84fd00000000p+6},
     {1, 2, 0, 0x1.3d40000000000p+5},
     {1, 2, 1, -0x1.8f80000000000p+5},
     {1, 2, 2, 0x1.3d40000000000p+5},
     {1, 2, 3, -0x1.a84fd00000000p+6},
     {1, 3, 3, -0x1.8f80000000000p+5},
     {2, 0, 2, 0x1.1420000000000p+5},
     {2, 0, 3, 0x1.641e6a0000000p+9},
     {2, 1, 0, 0x1.1420000000000p+5},
     {2, 1, 3, 0x1.641e6a0000000p+9},
     {2, 2, 1, 0x1.1420000000000p+5},
     {2, 2, 3, 0x1.641e6a0000000p+9},
     {2, 3, 3, 0x1.1420000000000p+5},
     {3, 0, 3, -0x1.8e838f0000000p+10},
     {3, 1, 3, -0x1.8e838f0000000p+10},
     {3, 2, 3, -0x1.8e838f0000000p+10},
     {0, 0, 2, 0x1.1420000000000p+5},
     {0, 0, 3, -0x1.8e838f0000000p+10},
     {0, 1, 0, 0x1.1420000000000p+5},
     {0, 1, 3, -0x1.8e838f0000000p+10},
     {0, 2, 1, 0x1.1420000000000p+5},
     {0, 2, 3, -0x1.8e838f0000000p+10},
     {0, 3, 3, 0x1.1420000000000p+5},
     {1, 0, 0, 0x1.6c40000000000p+5},
     {1, 0, 1, -0x1.6c40000000000p+5},
     {1, 0, 2, -0x1.0e40000000000p+6},
     {1, 0, 3, 0x1.7d8e4d0000000p+10},
     {1, 1, 0, -0x1.0e40000000000p+6},
     {1, 1, 1, 0x1.6c40000000000p+5},
     {1, 1, 2, -0x1.6c40000000000p+5},
     {1, 1, 3, 0x1.7d8e4d0000000p+10},
     {1, 2, 0, -0x1.6c40000000000p+5},
     {1, 2, 1, -0x1.0e40000000000p+6},
     {1, 2, 2, 0x1.6c40000000000p+5},
     {1, 2, 3, 0x1.7d8e4d0000000p+10},
     {1, 3, 3, -0x1.0e40000000000p+6},
     {2, 0, 0, -0x1.d100000000000p+3},
     {2, 0, 1, 0x1.2a60000000000p+6},
     {2, 0, 2, 0x1.5c50000000000p+6},
     {2, 0, 3, -0x1.4954268000000p+12},
     {2, 1, 0, 0x1.5c50000000000p+6},
     {2, 1, 1, -0x1.d100000000000p+3},
     {2, 1, 2, 0x1.2a60000000000p+6},
     {2, 1, 3, -0x1.4954268000000p+12},
     {2, 2, 0, 0x1.2a60000000000p+6},
     {2, 2, 1, 0x1.5c50000000000p+6},
     {2, 2, 2, -0x1.d100000000000p+3},
     {2, 2, 3, -0x1.4954268000000p+12},
     {2, 3, 3, 0x1.2648000000000p+7},
     {3, 0, 0, 0x1.6c40000000000p+5},
     {3, 0, 1, -0x1.6c40000000000p+5},
     {3, 0, 2, -0x1.0e40000000000p+6},
     {3, 0, 3, -0x1.0c9f5f0000000p+11},
     {3, 1, 0, -0x1.0e40000000000p+6},
     {3, 1, 1, 0x1.6c40000000000p+5},
     {3, 1, 2, -0x1.6c40000000000p+5},
     {3, 1, 3, -0x1.0c9f5f0000000p+11},
     {3, 2, 0, -0x1.6c40000000000p+5},
     {3, 2, 1, -0x1.0e40000000000p+6},
     {3, 2, 2, 0x1.6c40000000000p+5},
     {3, 2, 3, -0x1.0c9f5f0000000p+11},
     {3, 3, 3, -0x1.0e40000000000p+6},
     {4, 0, 2, 0x1.1420000000000p+5},
     {4, 0, 3, -0x1.d3e1268000000p+11},
     {4, 1, 0, 0x1.1420000000000p+5},
     {4, 1, 3, -0x1.d3e1268000000p+11},
     {4, 2, 1, 0x1.1420000000000p+5},
     {4, 2, 3, -0x1.d3e1268000000p+11},
     {4, 3, 3, 0x1.1420000000000p+5},
     {5, 0, 3, -0x1.0c9f5f0000000p+11},
     {5, 1, 3, -0x1.0c9f5f0000000p+11},
     {5, 2, 3, -0x1.0c9f5f0000000p+11},
     {6, 0, 3, -0x1.4954268000000p+12},
     {6, 1, 3, -0x1.4954268000000p+12},
     {6, 2, 3, -0x1.4954268000000p+12},
     {7, 0, 3, 0x1.7d8e4d0000000p+10},
     {7, 1, 3, 0x1.7d8e4d0000000p+10},
     {7, 2, 3, 0x1.7d8e4d0000000p+10},
     {8, 0, 3, -0x1.8e838f0000000p+10},
     {8, 1, 3, -0x1.8e838f0000000p+10},
     {8, 2, 3, -0x1.8e838f0000000p+10}}};

static void case_points_together_shifted(void)
{
    check_literal_judged(&points_together, -1.296875, 0.34375, NAN,
                         "two points meeting at equal velocities, degree 8 over [-1.3, 0.34]");
    check_literal_judged(&points_together, -2.9375, 0.34375, NAN,
                         "two points meeting at equal velocities, degree 8 over [-2.94, 0.34], "
                         "in pieces");
}

/*
 * The exit of a literal query, in both orders, against the reference's:
 * within 1e-9 of the interval.
 */
static void check_literal_exit(const literal_query *l, double t0, double t1, const char *what)
{
    boxtoi_result res[2];
    boxtoi_query q = solve_literal(l, t0, t1, res);
    ref_answer ra;
    ref_solve(&q, 1e-9 * qsize(&q), &ra);
    double tol = 1e-9 * (t1 - t0);
    ok(ra.valid && !ra.inconsistent && !ra.exit_after_t1 && !res[0].exit_after_t1 &&
           !res[1].exit_after_t1 && fabs(res[0].exit - ra.exit) <= tol &&
           fabs(res[1].exit - ra.exit) <= tol,
       "%s: the exit is the reference's in both orders (%.17g, swapped %.17g, reference "
       "%.17g)", what, res[0].exit, res[1].exit, ra.exit);
}

/*
 * Queries whose two orders, solved each as given, parted by rounding:
 * a fuzz find, a segment and a plate meeting at t = 0 where A's w is 1/128
 * and its coefficients reach 1.4e3 (the contact times 2.2e-11 apart, at
 * speeds of 2e3: edge-edge in one order, face-vertex in the other); and a
 * plate on a box's edge, turned alike within 1e-8 rad (test-random's
 * nearly-aligned kind, seed 20: vertex X'YZ named in one order, X'YZ' in
 * the other, the points 0.4 apart along the edge).  The pair is solved in
 * one order whichever box is A, so the two answers are each other's mirror
 * bit for bit.
 */
static const literal_query fast_pair_at_small_w = {
    {-0x1.0fp+1, 0x1p-5, 0x0p+0},
    {0x1.dep+0, 0x1p-5, 0x0p+0},
    {0x0p+0, -0x1p-5, -0x1.eep+0},
    {0x0p+0, 0x1p-5, 0x1.eep+0},
    6, 2, 63, 13,
    {{0, 0, 0, -0x1p-7},
     {0, 0, 3, -0x1.091p-2},
     {0, 1, 2, 0x1p-7},
     {0, 1, 3, -0x1.091p-2},
     {0, 2, 1, 0x1p-7},
     {0, 2, 3, -0x1.091p-2},
     {0, 3, 3, 0x1p-7},
     {1, 0, 0, -0x1.1p-1},
     {1, 0, 1, 0x1p-4},
     {1, 0, 2, 0x1.3p-1},
     {1, 0, 3, -0x1.1997ap+4},
     {1, 1, 0, 0x1.3p-1},
     {1, 1, 2, 0x1.1p-1},
     {1, 1, 3, -0x1.19a1p+4},
     {1, 2, 0, 0x1p-4},
     {1, 2, 1, 0x1.1p-1},
     {1, 2, 3, -0x1.1dc54p+4},
     {1, 3, 3, 0x1.1p-1},
     {2, 0, 0, 0x1.d8p+0},
     {2, 0, 1, 0x1.4ep+1},
     {2, 0, 2, 0x1.43cp+4},
     {2, 0, 3, -0x1.5b6e3p+9},
     {2, 1, 0, 0x1.43cp+4},
     {2, 1, 1, -0x1.3p+1},
     {2, 1, 2, -0x1.98p+0},
     {2, 1, 3, -0x1.5b819ap+9},
     {2, 2, 0, 0x1.4ep+1},
     {2, 2, 1, 0x1.4b8p+4},
     {2, 2, 2, -0x1.3p+1},
     {2, 2, 3, -0x1.644ea2p+9},
     {2, 3, 3, 0x1.4f8p+4},
     {3, 0, 0, -0x1.cbp+3},
     {3, 0, 1, 0x1.298p+4},
     {3, 0, 2, 0x1.5c8p+4},
     {3, 0, 3, -0x1.6eb384p+9},
     {3, 1, 0, 0x1.5c8p+4},
     {3, 1, 1, -0x1.298p+4},
     {3, 1, 2, 0x1.238p+4},
     {3, 1, 3, -0x1.71a35p+9},
     {3, 2, 0, 0x1.298p+4},
     {3, 2, 1, 0x1.1e8p+4},
     {3, 2, 2, -0x1.298p+4},
     {3, 2, 3, -0x1.6681e4p+10},
     {3, 3, 3, 0x1.5c8p+4},
     {4, 0, 0, -0x1.74p+0},
     {4, 0, 1, 0x1.078p+4},
     {4, 0, 2, 0x1.98p+0},
     {4, 0, 3, -0x1.38558p+10},
     {4, 1, 0, 0x1.98p+0},
     {4, 1, 1, -0x1.74p+0},
     {4, 1, 2, 0x1.078p+4},
     {4, 1, 3, -0x1.37446ap+10},
     {4, 2, 0, 0x1.078p+4},
     {4, 2, 1, 0x1.98p+0},
     {4, 2, 2, -0x1.74p+0},
     {4, 2, 3, -0x1.ebaf8ep+10},
     {4, 3, 3, 0x1.09cp+4},
     {5, 0, 3, -0x1.6bef36p+9},
     {5, 1, 3, -0x1.68d648p+9},
     {5, 2, 3, -0x1.3dff52p+10},
     {6, 0, 3, -0x1.175ff8p+9},
     {6, 1, 3, -0x1.13285cp+9},
     {6, 2, 3, -0x1.13285cp+9},
     {0, 0, 2, 0x1.21p+4},
     {0, 0, 3, -0x1.2b3b1p+9},
     {0, 1, 0, 0x1.21p+4},
     {0, 1, 3, -0x1.2b3b1p+9},
     {0, 2, 1, 0x1.21p+4},
     {0, 2, 3, -0x1.2b3b1p+9},
     {0, 3, 3, 0x1.21p+4},
     {1, 0, 3, -0x1.2b3b1p+9},
     {1, 1, 3, -0x1.31dcfp+9},
     {1, 2, 3, -0x1.2b3b1p+9},
     {2, 0, 3, -0x1.2b3b1p+9},
     {2, 1, 3, -0x1.2b3b1p+9},
     {2, 2, 3, 0x1.a7de78p+10}}};

static const literal_query plate_on_box_edge = {
    {0x0p+0, -0x1.057328d194ebp-3, -0x1.efdb8e273dab2p-2},
    {0x0p+0, 0x1.5460ebc9c408ep+0, 0x1.d2b0359aedd83p-1},
    {-0x1.d8a0f775eda1p-5, -0x1.3418d2cfaf8c4p-1, -0x1.04b78b6fda1bfp-1},
    {0x1.2931da49437eap+0, 0x1.3418d2cfaf8c4p-1, 0x1.04b78b6fda1bfp-1},
    2, 2, 19, 19,
    {{0, 0, 0, -0x1.9974ff25201a9p-1},
     {0, 0, 1, -0x1.4b74c9570eb4ap-2},
     {0, 0, 2, 0x1.02e36715a4d8cp-1},
     {0, 0, 3, -0x1.8a3950e1a44a6p+11},
     {0, 1, 0, -0x1.25d0186003f66p-1},
     {0, 1, 1, 0x1.51bfbd3a1c35ap-1},
     {0, 1, 2, -0x1.f0f71c7faecdep-2},
     {0, 1, 3, 0x1.e39c09def6da2p+11},
     {0, 2, 0, -0x1.6965671d993a2p-3},
     {0, 2, 1, -0x1.5b47d626c0fdfp-1},
     {0, 2, 2, -0x1.6d355ea22691cp-1},
     {0, 2, 3, 0x1.e2a8616b3ad01p+11},
     {0, 3, 3, 0x1p+0},
     {1, 0, 3, 0x1.4437a30cc6c43p+11},
     {1, 1, 3, -0x1.8d17c2b760aacp+11},
     {1, 2, 3, -0x1.8c53603ed9a3cp+11},
     {2, 0, 3, -0x1.0a8f16110674ep+9},
     {2, 1, 3, 0x1.45fe1326817c6p+9},
     {2, 2, 3, 0x1.457d7c8668f2ep+9},
     {0, 0, 0, -0x1.9974ff3ef7eeep-1},
     {0, 0, 1, -0x1.4b74c6314beacp-2},
     {0, 0, 2, 0x1.02e367eeacf7dp-1},
     {0, 0, 3, -0x1.c8ac1fa9b3cc2p+10},
     {0, 1, 0, -0x1.25d0181a8e1efp-1},
     {0, 1, 1, 0x1.51bfbc6311f01p-1},
     {0, 1, 2, -0x1.f0f71f6c87fe8p-2},
     {0, 1, 3, 0x1.07144092d1ea9p+12},
     {0, 2, 0, -0x1.696568d0a75bfp-3},
     {0, 2, 1, -0x1.5b47d7b827344p-1},
     {0, 2, 2, -0x1.6d355d098c785p-1},
     {0, 2, 3, -0x1.6e1b0d5f76d13p+11},
     {0, 3, 3, 0x1p+0},
     {1, 0, 3, 0x1.78c78a22afbd4p+10},
     {1, 1, 3, -0x1.a98dfa85ae9c8p+11},
     {1, 2, 3, 0x1.2dbcf6d7d7a7cp+11},
     {2, 0, 3, -0x1.3696b4f870d6cp+8},
     {2, 1, 3, 0x1.581f7b19ea9d8p+9},
     {2, 2, 3, -0x1.f154663f1808ep+8}}};

/*
 * Boxes turned alike within 1e-8 rad, overlapping 0.059 deep at t0
 * (test-random's nearly-aligned kind, seed 15): an edge pair penetrates
 * least; B's face X' 3.8e-10 more, A's face X, parallel to it, 1.5975e-9
 * more.  The face preference was 1e-9 of the size plus the touching
 * tolerance, 1e-12 of the size of it, and A's face, within that of the
 * least, was named: its depth exceeded the least penetration by more than
 * 1e-9 of the size (1.5963e-9) and the coordinates' rounding.
 */
static const literal_query aligned_boxes_overlap = {
    {-0x1.d58328c29681ep-3, -0x1.5ee6dcc571581p-3, -0x1.1f5e5064c079fp-1},
    {0x1.d58328c29681ep-3, -0x1.5ee6dcc571581p-3, 0x1.1f5e5064c079fp-1},
    {-0x1.7202ec9928b96p-3, 0x1.522584dab9928p-4, -0x1.e5eb8bf0265dap-2},
    {0x1.7202ec9928b96p-3, 0x1.506a35d09c806p+0, 0x1.e5eb8bf0265dap-2},
    4, 4, 45, 45,
    {{0, 0, 0, -0x1.e8959a477dbcfp-1},
     {0, 0, 1, 0x1.1ec5825e75701p-2},
     {0, 0, 2, 0x1.4c7e2a61abfa6p-5},
     {0, 0, 3, -0x1.654ed1dbd61c4p+0},
     {0, 1, 0, -0x1.cd946bc2d7eb3p-3},
     {0, 1, 1, -0x1.ad50e17cdbd5cp-1},
     {0, 1, 2, 0x1.f24efc67477f5p-2},
     {0, 1, 3, -0x1.37a313434a70cp+0},
     {0, 2, 0, 0x1.5e6f8c52aa189p-3},
     {0, 2, 1, 0x1.d455b41db873ep-2},
     {0, 2, 2, 0x1.bc1163f766d76p-1},
     {0, 2, 3, -0x1.3dada1a14ac18p-2},
     {0, 3, 3, 0x1.fd9d14c7c304p-1},
     {1, 0, 0, -0x1.0fd835a429006p-9},
     {1, 0, 1, -0x1.82900bda85b05p-7},
     {1, 0, 2, -0x1.481c774be8542p-9},
     {1, 0, 3, -0x1.3b4f23fbc6c94p-1},
     {1, 1, 0, 0x1.568a9b2d65dbbp-7},
     {1, 1, 1, 0x1.1b6ccbf5232abp-9},
     {1, 1, 2, 0x1.716887d182394p-8},
     {1, 1, 3, -0x1.306dfa8631fccp+0},
     {1, 2, 0, -0x1.91e4332383abap-8},
     {1, 2, 1, 0x1.086cf7c8ee5cbp-7},
     {1, 2, 2, -0x1.335a33abdae98p-8},
     {1, 2, 3, 0x1.0fa506d036b67p-2},
     {1, 3, 3, -0x1.779deca1cb288p-10},
     {2, 0, 0, 0x1.77cec37e79f66p-16},
     {2, 0, 1, -0x1.f812a4abdda36p-18},
     {2, 0, 2, 0x1.896382940adap-15},
     {2, 0, 3, -0x1.1983ccd12974bp-4},
     {2, 1, 0, -0x1.b50a7485eec38p-16},
     {2, 1, 1, 0x1.5b625d4fd46cfp-15},
     {2, 1, 2, 0x1.40091c73c1d15p-16},
     {2, 1, 3, -0x1.5a2b55519461cp-3},
     {2, 2, 0, -0x1.4d208848f4b68p-15},
     {2, 2, 1, -0x1.0769e15441f32p-15},
     {2, 2, 2, 0x1.d3b6e9c2a94c5p-17},
     {2, 2, 3, -0x1.89a7ba4e19181p-4},
     {2, 3, 3, 0x1.b87dcc9d760e1p-15},
     {3, 0, 3, 0x1.1b32bfa0e6e9bp-14},
     {3, 1, 3, 0x1.7f840627a33efp-13},
     {3, 2, 3, 0x1.3e3f9d8cd2ddap-13},
     {4, 0, 3, -0x1.ec705cd37475p-19},
     {4, 1, 3, -0x1.2e2327652f211p-17},
     {4, 2, 3, -0x1.52da7cc61bdcbp-18},
     {0, 0, 0, -0x1.e8959a4960cc1p-1},
     {0, 0, 1, 0x1.1ec58256e1e6fp-2},
     {0, 0, 2, 0x1.4c7e293e0b4e4p-5},
     {0, 0, 3, -0x1.0e59d966a097cp+0},
     {0, 1, 0, -0x1.cd946be76f3e4p-3},
     {0, 1, 1, -0x1.ad50e18641f1ep-1},
     {0, 1, 2, 0x1.f24efc3e6a602p-2},
     {0, 1, 3, 0x1.74817e830b10ap-1},
     {0, 2, 0, 0x1.5e6f8bf85ffebp-3},
     {0, 2, 1, 0x1.d455b3ffe57c2p-2},
     {0, 2, 2, 0x1.bc116403b7eb6p-1},
     {0, 2, 3, 0x1.7d6ed0fda6407p+1},
     {0, 3, 3, 0x1.fd9d14c7c3041p-1},
     {1, 0, 0, -0x1.0fd8358ade56p-9},
     {1, 0, 1, -0x1.82900bd817ab3p-7},
     {1, 0, 2, -0x1.481c778ea9f3bp-9},
     {1, 0, 3, -0x1.f1868afa3767ap-2},
     {1, 1, 0, 0x1.568a9b242cfa3p-7},
     {1, 1, 1, 0x1.1b6ccbe401eb5p-9},
     {1, 1, 2, 0x1.716887f7000ebp-8},
     {1, 1, 3, 0x1.1c16b27f6f0dp-1},
     {1, 2, 0, -0x1.91e4331839a1cp-8},
     {1, 2, 1, 0x1.086cf7cd0579ap-7},
     {1, 2, 2, -0x1.335a33ac8a6fcp-8},
     {1, 2, 3, 0x1.1f5c2728068a1p+1},
     {1, 3, 3, -0x1.779deca1cb288p-10},
     {2, 0, 0, 0x1.77cec359e0695p-16},
     {2, 0, 1, -0x1.f812a5100354cp-18},
     {2, 0, 2, 0x1.8963829ac7418p-15},
     {2, 0, 3, -0x1.73f8dbd8ced05p-5},
     {2, 1, 0, -0x1.b50a74997fec3p-16},
     {2, 1, 1, 0x1.5b625d48e33bcp-15},
     {2, 1, 2, 0x1.40091c772d8dfp-16},
     {2, 1, 3, 0x1.d1a81c98022b7p-3},
     {2, 2, 0, -0x1.4d20884cdc49cp-15},
     {2, 2, 1, -0x1.0769e15a6b194p-15},
     {2, 2, 2, 0x1.d3b6e95ea6654p-17},
     {2, 2, 3, 0x1.df80e910d0724p-4},
     {2, 3, 3, 0x1.b87dcc9d760e2p-15},
     {3, 0, 3, 0x1.54705bf63fe7bp-15},
     {3, 1, 3, -0x1.399d95a697fffp-12},
     {3, 2, 3, -0x1.c7779a871cc28p-15},
     {4, 0, 3, -0x1.4617bdeadf9b9p-19},
     {4, 1, 3, 0x1.93d8697081c14p-17},
     {4, 2, 3, 0x1.a95f6e529371fp-18}}};

/*
 * The depth of an overlap at t0, in both orders, against the reference's
 * penetration depth: within 1e-9 of the size and the coordinates' rounding.
 */
static void check_literal_depth(const literal_query *l, double t0, double t1, const char *what)
{
    boxtoi_result res[2];
    boxtoi_query q = solve_literal(l, t0, t1, res);
    double n[3], pd = ref_penetration(&q, t0, n);
    double tol = 1e-9 * ref_size(&q, t0) + tu_coord_rounding(&q);
    ok(res[0].state == BOXTOI_OVERLAP && res[1].state == BOXTOI_OVERLAP &&
           fabs(res[0].depth - pd) <= tol && fabs(res[1].depth - pd) <= tol,
       "%s: the depth is the penetration depth in both orders (%.17g, swapped %.17g, "
       "reference %.17g, tolerance %.3g)", what, res[0].depth, res[1].depth, pd, tol);
}

static void case_degenerate_literals(void)
{
    check_literal(&plate_tilted_onto_plate, "a plate tilted by 1e-8 coming down on another");
    /* a segment parallel to a plate's plane, crossing it at the instant its
       line passes the plate's corner: the corner meets the segment */
    check_literal(&segment_through_plate,
                  "a segment crossing a plate's plane at the plate's corner");
    /* a segment at rest in a plate's plane, tilted by 2e-10, along the
       plate's side: the normal lies in the plane, from A to B */
    check_literal(&segment_beside_plate, "a segment at rest beside a plate, in its plane");
    /* a segment tilted by 1e-8 coming down along a plate's edge */
    check_literal(&segment_on_plate_edge, "a segment coming down along a plate's edge");
    /* a plate edge on (tilted by 1e-7) meeting the corner of another: an
       edge axis as close as the faces, within rounding, takes part in the
       tie in both orders */
    check_literal(&plates_corner_to_corner, "a plate's corner meeting another's corner");
    /* a box's face coming down, tilted by 1.4e-8, across a plate's edge:
       the faces' flat readings lie beyond each other's sides, the reading
       within the touching tolerance meets */
    check_literal(&box_on_plate_edge, "a box's face coming down across a plate's edge");
    /* a box 3e-3 across, its face tilted by 1.4e-8, coming up across a
       plate's edge: neither face's flat reading meets the other box, the
       plate's reading within the touching tolerance does */
    check_literal(&small_box_across_plate_edge, "a small box's face coming up across a plate's edge");
    /* a segment tilted by 4.6e-9 coming down across a plate's edge */
    check_literal(&segment_across_plate_edge, "a segment coming down across a plate's edge");
    /* a plate's corner grazing another's edge: an edge of length 0 */
    check_literal(&plates_corner_on_edge, "a plate's corner grazing another plate's edge");
    check_literal_as(&aligned_box_plate_1, 0x1.7137ac1fbd89ep+1, 0x1.ebfed10d2ad39p+1,
                     "a box's corner 1e-10 across an aligned plate's plane, past its side", 1);
    check_literal(&aligned_box_plate_2, "a plate's edge on an aligned box's edge");
    check_literal_as(&aligned_box_plate_3, 0x1.1cf5d92bd0e3ep+1, 0x1.8c3ec9046d62dp+2,
                     "a box's edge on an aligned plate's edge", 1);
    check_literal(&aligned_box_plate_4, "an aligned plate's edge on a box's edge");
    check_literal_as(&aligned_boxes_exit, 2.5, 3.5, "aligned boxes, an edge axis still closing",
                     1);
    check_literal_exit(&aligned_boxes_exit, 2.5, 3.5,
                       "aligned boxes, an edge axis still closing");
    check_literal_as(&graze_opening_exit, 2.5, 3.5, "a corner grazing a face, an edge axis "
                     "opening", 1);
    check_literal_exit(&graze_opening_exit, 2.5, 3.5,
                       "a corner grazing a face, an edge axis opening");
    check_literal_as(&fast_pair_at_small_w, -0x1.1p+1, 0x1.5cp+0,
                     "a segment meeting a plate at speed 2e3, w = 1/128", 1);
    check_literal_as(&plate_on_box_edge, 0x1.333ab5e5b15fcp+1, 0x1.3ca0f0e2d00bcp+1,
                     "an aligned plate on a box's edge", 1);
    check_literal_as(&aligned_boxes_overlap, -0x1.7a569a4da4caep+1, 0x1.075dd599daa6p-1,
                     "aligned boxes overlapping at t0", 1);
    check_literal_depth(&aligned_boxes_overlap, -0x1.7a569a4da4caep+1, 0x1.075dd599daa6p-1,
                        "aligned boxes overlapping at t0");
}

static void case_near_flat_tilt(void)
{
    near_flat_tilt(1e-12, 1e-9, 0, 0xf1a7711ull);
    near_flat_tilt(1e-9, 1e-7, 0, 0xf1a7712ull);
    near_flat_tilt(1e-7, 1e-5, 0, 0xf1a7713ull);
    near_flat_tilt(1e-12, 1e-9, 1, 0xf1a7714ull);
    near_flat_tilt(1e-9, 1e-7, 1, 0xf1a7715ull);
    near_flat_tilt(1e-7, 1e-5, 1, 0xf1a7716ull);
}

/*
 * Contacts at t0 whose normal the centres cannot orient: in a random frame,
 * plates (no z extent) in one plane overlapping, or edge to edge, and
 * drifting in it; or two points at one place, B leaving in a random
 * direction, or at rest (plates concentric and at rest, or points at one
 * place at rest, have no direction from A to B: the normal is the axis as
 * it comes for the order the pair is solved in).  The centres' offset
 * along the normal is 0, so it decided nothing, and both orders kept one
 * orientation.  Swapping A and B must swap the features and negate the
 * normal.
 */
static void case_undecided_normal_at_t0(void)
{
    unsigned long long rng = 0x91a7e5ull;
    int bad = 0, n = 400;
    for (int c = 0; c < n; c++) {
        double r[3][3], hA[3] = {0, 0, 0}, hB[3] = {0, 0, 0}, c0[3] = {0, 0, 0},
                        v[3] = {0, 0, 0};
        boxtoi_motion mb, ma;
        random_frame(&rng, &mb, r);
        int points = c % 4 == 3;
        for (int j = 0; j < 3; j++) {
            if (points) {
                v[j] = (int)tu_rand(&rng, -8, 9) / 8.0;
                continue;
            }
            if (j == 2)
                break;
            hA[j] = (1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
            hB[j] = (1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
            int m = (int)(8 * (hA[j] + hB[j]));
            c0[j] = (int)tu_rand(&rng, -m, m + 1) / 8.0;
            v[j] = (int)tu_rand(&rng, -4, 5) / 8.0;
        }
        moving_in_frame(&mb, r, c0, v, &ma);
        boxtoi_box a = tu_box(-hA[0], -hA[1], -hA[2], hA[0], hA[1], hA[2]);
        boxtoi_box b = tu_box(-hB[0], -hB[1], -hB[2], hB[0], hB[1], hB[2]);
        boxtoi_query x = tu_query(a, &ma, b, &mb, 0, 1), y = tu_swapped(&x);
        boxtoi_result r0 = boxtoi_solve(&x), r1 = boxtoi_solve(&y);
        if (r0.state == BOXTOI_OVERLAP && r0.toi == 0.0 && swap_mirrors(&x, &r0, &r1))
            continue;
        if (bad++ < 4)
            diag_mirror(c, points ? " (points)" : " (plates)", &r0, &r1);
    }
    is_int(bad, 0, "plates in one plane, or points at one place, at t0: touching, and "
           "swapping A and B swaps the features and negates the normal (%d cases)", n);
}

/*
 * A corner of a turned face landing on an edge: in a random frame R, A at
 * rest, centred on the origin; B turned about z by the rational rotation
 * of the quaternion (c, 0, 0, s) (not a multiple of 90 degrees), its
 * corner furthest along -x on its bottom face reaching (hA_x, y, hA_z),
 * on A's top edge (or at its corner), at t = 1/2, coming down and in.
 * Before, A's top plane separates them; at t = 1/2 that corner is the one
 * point they share, so it is the point, in both orders.  (Clipping B's
 * bottom face to A's top face left nothing, a point, within rounding, and
 * the point was taken from what the clip left behind, up to 0.6 off B.)
 */
static void case_turned_corner_on_edge(void)
{
    unsigned long long rng = 0x7c0e4e5ull;
    int bad = 0, n = 300;
    for (int id = 0; id < n; id++) {
        double hA[3], hB[3];
        boxtoi_motion frame;
        random_frame(&rng, &frame, NULL);
        for (int j = 0; j < 3; j++) {
            hA[j] = (1 + (int)tu_rand(&rng, 0, 12)) / 8.0;
            hB[j] = (1 + (int)tu_rand(&rng, 0, 12)) / 8.0;
        }
        int cq, sq;
        do {
            cq = (int)tu_rand(&rng, -4, 5);
            sq = (int)tu_rand(&rng, -4, 5);
        } while (cq == 0 || sq == 0 || cq == sq || cq == -sq);
        /* B's turn times W = c^2 + s^2, exact in integers */
        double W = cq * cq + sq * sq, rz[3][3] = {{cq * cq - sq * sq, -2.0 * cq * sq, 0},
                                                   {2.0 * cq * sq, cq * cq - sq * sq, 0},
                                                   {0, 0, W}};
        double corner[3] = {0, 0, -hB[2]}, best = INFINITY;
        for (int v = 0; v < 4; v++) {
            double x = (v & 1) ? hB[0] : -hB[0], y = (v & 2) ? hB[1] : -hB[1];
            double turned = rz[0][0] * x + rz[0][1] * y;
            if (turned < best) {
                best = turned;
                corner[0] = x;
                corner[1] = y;
            }
        }
        /* where the corner lands on A's top edge x = hA_x, z = hA_z */
        int m = (int)(8 * hA[1]);
        double yc = (int)tu_rand(&rng, -m, m + 1) / 8.0;
        double land[3] = {hA[0], yc, hA[2]};
        double vel[3] = {0, 0, 0};
        vel[0] = -(1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
        vel[2] = -(1 + (int)tu_rand(&rng, 0, 8)) / 4.0;
        if (fabs(yc) < hA[1])
            vel[1] = (int)tu_rand(&rng, -4, 5) / 8.0;
        /* B in the frame: [rz W (d + t vel); 0 W], d placing the corner */
        boxtoi_motion turn;
        memset(&turn, 0, sizeof turn);
        turn.degree = 1;
        for (int i = 0; i < 3; i++) {
            double rc = 0.0;
            for (int j = 0; j < 3; j++) {
                turn.c[0][i][j] = rz[i][j];
                rc += rz[i][j] * corner[j];
            }
            turn.c[0][i][3] = W * (land[i] - 0.5 * vel[i]) - rc;
            turn.c[1][i][3] = W * vel[i];
        }
        turn.c[0][3][3] = W;
        boxtoi_motion mb;
        boxtoi_motion_multiply(&mb, &frame, &turn);
        double want[3];
        tu_apply(&frame, 0.0, land, want);
        boxtoi_box a = tu_box(-hA[0], -hA[1], -hA[2], hA[0], hA[1], hA[2]);
        boxtoi_box b = tu_box(-hB[0], -hB[1], -hB[2], hB[0], hB[1], hB[2]);
        boxtoi_query x = tu_query(a, &frame, b, &mb, 0, 1);
        for (int swap = 0; swap < 2; swap++) {
            boxtoi_query y = swap ? tu_swapped(&x) : x;
            boxtoi_result res = boxtoi_solve(&y);
            double err = 0;
            for (int j = 0; j < 3; j++)
                err = fmax(err, fabs(res.point[j] - want[j]));
            if (res.state == BOXTOI_HIT && fabs(res.toi - 0.5) <= 1e-9 && err <= 1e-9)
                continue;
            if (bad++ < 4)
                diag("case %d%s: %s toi %.17g, point (%.17g %.17g %.17g), "
                     "%.3g from the corner", id, swap ? ", swapped" : "",
                     boxtoi_state_name(res.state), res.toi, res.point[0],
                     res.point[1], res.point[2], err);
        }
    }
    is_int(bad, 0, "a turned face's corner landing on an edge of a face: the corner is "
           "the point, in both orders (%d cases)", n);
}

/*
 * Degenerate first contacts, where several axes are level at toi: the
 * answer is one of the level ones, and swapping A and B swaps it.  Unit
 * cubes turned about y by a (A) and b (B), in the xz cross-section the
 * corner of A furthest along (1, 0, 1) and the corner of B furthest along
 * -(1, 0, 1) meet at t = 1/2 with B moving by (-2, 0, -0.5): their edges
 * along y are parallel.  Before that the plane x + z = const through A's
 * corner separates them (B's x + z is larger by 2.5 (1/2 - t)), so every
 * pair first touches at t = 1/2; each answer must be symmetric.
 */
static void case_level_axes(void)
{
    int hits = 0, at_half = 0, asym = 0;
    for (int ia = 0; ia < 17; ia++)
        for (int ib = 0; ib < 17; ib++) {
            double a = (-85.0 + 5.0 * ia) * TU_PI / 180.0;
            double b = (-40.0 + 5.0 * ib) * TU_PI / 180.0;
            double ra[3][3], rb[3][3], ca[3] = {0, 0, 0}, cb[3] = {0, 0, 0};
            tu_rot_y(ra, a);
            tu_rot_y(rb, b);
            double best_a = -INFINITY, best_b = INFINITY;
            for (int v = 0; v < 4; v++) {
                double lx = (v & 1) ? 0.5 : -0.5, lz = (v & 2) ? 0.5 : -0.5;
                double xa = ra[0][0] * lx + ra[0][2] * lz, za = ra[2][0] * lx + ra[2][2] * lz;
                double xb = rb[0][0] * lx + rb[0][2] * lz, zb = rb[2][0] * lx + rb[2][2] * lz;
                if (xa + za > best_a) {
                    best_a = xa + za;
                    ca[0] = xa;
                    ca[2] = za;
                }
                if (xb + zb < best_b) {
                    best_b = xb + zb;
                    cb[0] = xb;
                    cb[2] = zb;
                }
            }
            boxtoi_motion ma, mb;
            motion_static(&ma, ra, 0, 0, 0);
            /* B's corner cb sits on A's corner ca at t = 1/2 */
            double p[2][3] = {{ca[0] - cb[0] + 1.0, 0.2, ca[2] - cb[2] + 0.25},
                              {-2.0, 0, -0.5}};
            tu_motion_rot_trans(&mb, rb, p, 1);
            boxtoi_query q = tu_query(cube(0.5), &ma, cube(0.5), &mb, 0.0, 1.0);
            boxtoi_result r = boxtoi_solve(&q);
            if (r.state != BOXTOI_HIT)
                continue;
            hits++;
            at_half += fabs(r.toi - 0.5) <= 1e-9;
            boxtoi_query sq = tu_swapped(&q);
            boxtoi_result w = boxtoi_solve(&sq);
            int same = w.state == r.state && fabs(w.toi - r.toi) <= 1e-9 &&
                       w.kind == tu_swapped_kind(r.kind) &&
                       memcmp(&w.feature_a, &r.feature_b, sizeof w.feature_a) == 0 &&
                       memcmp(&w.feature_b, &r.feature_a, sizeof w.feature_b) == 0;
            for (int k = 0; k < 3; k++)
                same &= fabs(w.normal[k] + r.normal[k]) <= 1e-9;
            if (!same) {
                if (asym < 3)
                    diag("a = %g, b = %g deg: normal (%.6g %.6g %.6g), swapped (%.6g %.6g %.6g)",
                         -85.0 + 5.0 * ia, -40.0 + 5.0 * ib, r.normal[0], r.normal[1],
                         r.normal[2], w.normal[0], w.normal[1], w.normal[2]);
                asym++;
            }
        }
    ok(hits == 289 && at_half == 289, "level axes: %d of 289 hit, %d of them at t = 1/2",
       hits, at_half);
    is_int(asym, 0, "level axes: swapping A and B swaps every answer");

    /* Two square plates in the plane x = 0; B falls onto A's top edge at
       t = 1/4 (its bottom 2 - 4t reaches 1).  The plates' own axis x is
       level (0) throughout, so they only ever touch (no check of overlap
       after toi); the normal is the approach's, +z. */
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double pz[2][3] = {{0, 0, 3.0}, {0, 0, -4.0}};
    tu_motion_rot_trans(&mb, id, pz, 1);
    boxtoi_query q = tu_query(tu_box(0, -1, -1, 0, 1, 1), &ma, tu_box(0, -1, -1, 0, 1, 1),
                              &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT, .toi = 0.25, .check_normal = 1, .normal = {0, 0, 1}};
    boxtoi_result r = run_case("coplanar plates edge on edge", &q, &e);
    check_swap("coplanar plates edge on edge", &q, &r);

    /* A point falls through the centre of a plate at t = 3/4, an instant
       of contact (so no check of overlap after it): normal +z. */
    q = tu_query(tu_box(-1, -1, 0, 1, 1, 0), &ma, tu_box(0, 0, 0, 0, 0, 0), &mb, 0.0, 1.0);
    expect f = {.state = BOXTOI_HIT, .toi = 0.75, .check_normal = 1, .normal = {0, 0, 1}};
    r = run_case("point on a plate", &q, &f);
    check_swap("point on a plate", &q, &r);
}

static void case_plate(void)
{
    /* A = plate [-1,1] x [-1,1] x [0,0] at rest.  B = [-0.5,0.5]^3 rotated
     * by R = Ry(45) Rz(45): its single lowest vertex is local
     * 0.5 (+1,-1,-1) ("X'YZ"), at offset 0.5 (1 - 1/sqrt2, 0,
     * -(1 + 1/sqrt2)).  B's centre (0.1, 0.2, 3 - 4t): the vertex reaches
     * z = 0 when 3 - 4t = 0.5 (1 + 1/sqrt2): t = (2.5 - 1/(2 sqrt2))/4, at
     * (0.1 + 0.5 (1 - 1/sqrt2), 0.2, 0), inside the plate.  Face Z' (the
     * one facing +z) under a vertex of B, normal +z. */
    double r[3][3], id[3][3];
    rot_vertex_lead(r);
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[2][3] = {{0.1, 0.2, 3.0}, {0, 0, -4.0}};
    tu_motion_rot_trans(&mb, r, p, 1);
    boxtoi_query q = tu_query(tu_box(-1, -1, 0, 1, 1, 0), &ma, cube(0.5), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT,
                .toi = (2.5 - 0.5 * ISQ2) / 4.0,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "Z'",
                .fb = "X'YZ",
                .check_normal = 1,
                .normal = {0, 0, 1},
                .check_point = 1,
                .point = {0.1 + 0.5 * (1.0 - ISQ2), 0.2, 0.0},
                .reference = 1};
    /* Exit: B's highest vertex (offset 0.5 (1 + 1/sqrt2) above the centre)
     * passes z = 0 when 3 - 4t = -0.5 (1 + 1/sqrt2):
     * t = (3.5 + 1/(2 sqrt2))/4 = 0.96339; until then the centre (0.1, 0.2)
     * keeps B's section at z = 0 over the plate. */
    e.exit_mode = EXIT_AT;
    e.exit = (3.5 + 0.5 * ISQ2) / 4.0;
    boxtoi_result res = run_case("plate hit by a vertex", &q, &e);
    check_swap("plate hit by a vertex", &q, &res);

    /* Plate hit by a face (degenerate face on face): B = [-0.5,0.5]^3
     * unrotated, centre (0.3, -0.2, 3 - 4t): bottom z = 2.5 - 4t = 0 at
     * t = 5/8; top passes z = 0 at 3.5 - 4t = 0: t = 7/8.  Normal +z. */
    double pf[2][3] = {{0.3, -0.2, 3.0}, {0, 0, -4.0}};
    tu_motion_trans(&mb, pf, 1);
    q = tu_query(tu_box(-1, -1, 0, 1, 1, 0), &ma, cube(0.5), &mb, 0.0, 1.0);
    expect f = {.state = BOXTOI_HIT, .toi = 0.625, .exit_mode = EXIT_AT, .exit = 0.875,
                .check_normal = 1, .normal = {0, 0, 1}, .reference = 1};
    run_case("plate hit by a face", &q, &f);
}

static void case_t0(void)
{
    /* Touching at t0: A = [-1,1]^3, B = [-1,1]^3 centre (2 + t, 0.5, 0): the
     * faces x = 1 touch at t = 0 (y overlap [-0.5, 1]).  OVERLAP, toi = 0. */
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[2][3] = {{2.0, 0.5, 0.0}, {1.0, 0, 0}};
    tu_motion_trans(&mb, p, 1);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_OVERLAP, .reference = 1};
    run_case("touching at t0", &q, &e);

    /* Overlapping at t0: centre (1.5 + 2t, 0.2, 0): B's face X at
     * 0.5 + 2t passes x = 1 at t = 1/4: exit 0.25. */
    double p2[2][3] = {{1.5, 0.2, 0.0}, {2.0, 0, 0}};
    tu_motion_trans(&mb, p2, 1);
    q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect f = {.state = BOXTOI_OVERLAP, .toi = 0.0, .exit_mode = EXIT_AT, .exit = 0.25,
                .reference = 1, .check_normal = 1, .normal = {1, 0, 0},
                .check_depth = 1, .depth = 0.5};
    run_case("overlapping at t0 (0.5 deep along x)", &q, &f);

    /* The same on [0.5, 2]: at 0.5 the centre is at 2.5, apart: MISS. */
    q.t0 = 0.5;
    q.t1 = 2.0;
    expect g = {.state = BOXTOI_MISS, .reference = 1};
    run_case("moving apart after 0.25", &q, &g);
}

/*
 * Deep overlaps at t0 whose least penetration is along a face: A = [-1,1]^3
 * at rest, B a box turned about one of A's face normals by a random angle,
 * its section within that face, d into A through it (d at most 0.15; every
 * other direction, edge axes included, overlaps by at least B's smallest
 * width, 0.4).  Edge axes lie along the face normal too (A's edges in the
 * face crossed with B's), as deep: faces are preferred, so the contact is
 * face-vertex on that face of A, normal along it, depth d; swapped, the
 * mirror (docs/method.md, Features).
 */
static void case_deep_overlap(void)
{
    unsigned long long rng = 0xdee9;
    static const char *const face_name[3][2] = {{"X", "X'"}, {"Y", "Y'"}, {"Z", "Z'"}};
    boxtoi_motion ma, mb;
    double id[3][3];
    tu_identity3(id);
    motion_static(&ma, id, 0, 0, 0);
    for (int i = 0; i < 60; i++) {
        int axis = i % 3, up = (i / 3) % 2;
        double s = up ? 1.0 : -1.0, r[3][3], h[3], c[3];
        double th = tu_rand(&rng, -TU_PI, TU_PI), d = tu_rand(&rng, 0.02, 0.15);
        if (axis == 0)
            tu_rot_x(r, th);
        else if (axis == 1)
            tu_rot_y(r, th);
        else
            tu_rot_z(r, th);
        for (int k = 0; k < 3; k++)
            h[k] = k == axis ? tu_rand(&rng, 0.2, 0.5) : tu_rand(&rng, 0.2, 0.4);
        int u = (axis + 1) % 3, v = (axis + 2) % 3;
        double room = 0.95 - sqrt(h[u] * h[u] + h[v] * h[v]);
        c[axis] = s * (1.0 + h[axis] - d);
        c[u] = tu_rand(&rng, -room, room);
        c[v] = tu_rand(&rng, -room, room);
        motion_static(&mb, r, c[0], c[1], c[2]);
        boxtoi_query q = tu_query(cube(1), &ma, tu_box(-h[0], -h[1], -h[2], h[0], h[1], h[2]),
                                  &mb, 0.0, 1.0);
        expect e = {.state = BOXTOI_OVERLAP, .reference = 1, .check_kind = KIND_AND_POINT,
                    .kind = BOXTOI_FACE_VERTEX, .fa = face_name[axis][up], .check_normal = 1,
                    .check_depth = 1, .depth = d};
        e.normal[axis] = s;
        char name[80];
        snprintf(name, sizeof name, "overlap %.3f deep through A's face %s (%d)", d,
                 face_name[axis][up], i);
        boxtoi_result res = run_case(name, &q, &e);
        check_swap(name, &q, &res);
    }
}

/*
 * Corner to corner: at tc each box has a corner on the line through the
 * two centres, pointing at the other box, with a gap eps between the two
 * corners along it.  The balls about the centres through the corners are
 * then eps apart at tc, and B's centre path (along the line, quadratic,
 * plus a sideways drift, linear) is nearest A's centre there, so the balls
 * are farther apart at every other time: the pair is as near as a pair can
 * be to one that the balls prove apart.  Boxes centred in their frames;
 * with probability 1/2 both turn (linear quaternion paths through their
 * poses at tc), else they keep their orientation.  eps runs from -1e-6 to
 * 1e-6 of the size, 0 included: overlaps by more than 1e-9 of the size must
 * be hits by tc, gaps a miss past the touching tolerance; every answer is
 * judged against the reference in both orders and mirrored.
 */
static void case_corner_to_corner(void)
{
    static const double epss[] = {-0.03, -1e-3,  -1e-4, -1e-6, -1e-8, -3e-9, -1.5e-9, -1e-10,
                                  0.0,   1e-10, 1.5e-9, 3e-9, 1e-8,  1e-6, 1e-4,   1e-3, 0.03};
    const int n_eps = (int)(sizeof epss / sizeof epss[0]), per = 30;
    unsigned long long st = 0x5eed0c0c;
    int bad = 0, late = 0, missed = 0, kept_apart = 0, mirrored = 0, total = 0;
    for (int c = 0; c < n_eps * per; c++) {
        double eps_rel = epss[c % n_eps], ha[3], hb[3], qa[2][4], qb[2][4], pa[1][3] = {{0}};
        double pb[3][3], qr[4], dir[3], va[3], vb[3];
        for (int i = 0; i < 3; i++) {
            ha[i] = tu_rand(&st, 0.1, 1.0);
            hb[i] = tu_rand(&st, 0.1, 1.0);
        }
        tu_rand_unit_quaternion(&st, qa[0]);
        tu_rand_unit_quaternion(&st, qr);
        /* A's corner (signs from the draw) gives the line's direction */
        double ca[3], cb[3];
        for (int i = 0; i < 3; i++) {
            ca[i] = tu_rand(&st, -1, 1) < 0 ? -ha[i] : ha[i];
            cb[i] = tu_rand(&st, -1, 1) < 0 ? -hb[i] : hb[i];
        }
        tu_quat_rotate(qa[0], ca, va);
        double ra = tu_norm(va), rb = tu_norm(cb);
        for (int i = 0; i < 3; i++)
            dir[i] = va[i] / ra;
        /* B: a random turn, then the shortest turn taking its corner's
           direction v to -dir */
        tu_quat_rotate(qr, cb, vb);
        double v[3] = {vb[0] / rb, vb[1] / rb, vb[2] / rb}, x[3], md[3];
        for (int i = 0; i < 3; i++)
            md[i] = -dir[i];
        tu_cross(v, md, x);
        double align[4] = {1.0 + tu_dot(v, md), x[0], x[1], x[2]};
        double an = sqrt(align[0] * align[0] + tu_dot(x, x));
        for (int i = 0; i < 4; i++)
            align[i] /= an;
        tu_quat_mul(align, qr, qb[0]);
        int turning = tu_rand(&st, 0, 1) < 0.5;
        for (int i = 0; i < 4; i++) {
            qa[1][i] = turning ? tu_rand(&st, -0.5, 0.5) : 0.0;
            qb[1][i] = turning ? tu_rand(&st, -0.5, 0.5) : 0.0;
        }
        double size = 2.0 * (ra > rb ? ra : rb), gap = eps_rel * size;
        double side[3], r3[3];
        for (int i = 0; i < 3; i++)
            r3[i] = tu_rand(&st, -1, 1);
        tu_cross(dir, r3, side);
        double a = tu_rand(&st, 0.5, 4.0), b = tu_rand(&st, 0.0, 3.0), sl = tu_norm(side);
        for (int i = 0; i < 3; i++) {
            pb[0][i] = dir[i] * (ra + rb + gap);
            pb[1][i] = b * side[i] / sl;
            pb[2][i] = a * dir[i];
        }
        double tc = tu_rand(&st, 0.3, 0.7);
        boxtoi_motion ma, mb;
        tu_rigid_motion(&ma, (const double(*)[4])qa, 1, (const double(*)[3])pa, 0, tc);
        tu_rigid_motion(&mb, (const double(*)[4])qb, 1, (const double(*)[3])pb, 2, tc);
        boxtoi_query q = tu_query(tu_box(-ha[0], -ha[1], -ha[2], ha[0], ha[1], ha[2]), &ma,
                                  tu_box(-hb[0], -hb[1], -hb[2], hb[0], hb[1], hb[2]), &mb,
                                  0.0, 1.0),
                     y = tu_swapped(&q);
        boxtoi_result r = boxtoi_solve(&q), w = boxtoi_solve(&y);
        ref_answer ref;
        check ck[2];
        ref_solve(&q, REL_TOL * ref_size(&q, q.t0), &ref);
        judge(&q, &r, &ref, &ck[0]);
        judge(&y, &w, &ref, &ck[1]);
        total++;
        int this_bad = !ref.valid || ref.inconsistent || ck[0].verdict == V_DISAGREE ||
                       ck[0].geom_bad || ck[1].verdict == V_DISAGREE || ck[1].geom_bad;
        if (eps_rel <= -1.5e-9 && !(r.state == BOXTOI_HIT && r.toi <= tc + 1e-9)) {
            this_bad = 1;
            if (r.state == BOXTOI_HIT)
                late++;
            else
                missed++;
        }
        if (eps_rel >= 1.5e-9 && r.state != BOXTOI_MISS) {
            this_bad = 1;
            kept_apart++;
        }
        if (!swap_mirrors(&q, &r, &w)) {
            this_bad = 1;
            mirrored++;
        }
        if (this_bad && bad++ < 3) {
            diag("corner to corner, eps %g of the size, %s: %s %s", eps_rel,
                 turning ? "turning" : "not turning", ck[0].why, ck[1].why);
            print_query(&q);
            print_answers(&r, &ref);
        }
    }
    ok(bad == 0,
       "corner to corner, the balls' gap = the corners' gap: %d of %d wrong (overlaps not hit "
       "by tc: %d late, %d missed; gaps not a miss: %d; not mirrored: %d)",
       bad, total, late, missed, kept_apart, mirrored);
}

/*
 * A box far from its own frame's origin: a unit cube with corners [C, C+1]^3,
 * turned 30 degrees about z and brought back near the world origin by a
 * translation -R centre rounded to doubles, as a caller would form it.  The
 * cube's world centre is then t + R centre exactly (each product split
 * exactly by fma, the sums by TwoSum), up to 3e-5 from the origin at
 * C = 1e12.  A second unit cube, axis-aligned, comes
 * along x (its first contact with the cube's leading vertex is known in
 * closed form, held to 1e-9 of the interval), or passes along y with its
 * face 2e-8 inside or outside the leading vertex's path (a hit, a miss).
 * For C from 1e4 to 1e12; each answer mirrored when swapped.
 */
static void case_far_local_frame(void)
{
    const double cs[5] = {1e4, 1e6, 1e8, 1e10, 1e12};
    double rz[3][3];
    tu_rot_z(rz, M_PI / 6);
    for (int k = 0; k < 5; k++) {
        double C = cs[k], centre = C + 0.5, t[3];
        boxtoi_box a = tu_box(C, C, C, C + 1, C + 1, C + 1);
        for (int i = 0; i < 3; i++)
            t[i] = -(rz[i][0] * centre + rz[i][1] * centre + rz[i][2] * centre);
        long double ca[3];
        for (int i = 0; i < 3; i++) {
            /* each product exact as p + pe (fma), each sum as s + e1 */
            double sum = t[i], err = 0.0;
            for (int j = 0; j < 3; j++) {
                double p = rz[i][j] * centre, pe = fma(rz[i][j], centre, -p);
                double x = sum + p, z = x - sum, e1 = (sum - (x - z)) + (p - z);
                sum = x;
                err += e1 + pe;
            }
            ca[i] = (long double)sum + err;
        }
        /* the cube's reach along +x from its centre */
        long double sx = 0.5L * (fabsl(rz[0][0]) + fabsl(rz[0][1]) + fabsl(rz[0][2]));
        boxtoi_motion ma, mb;
        motion_static(&ma, rz, t[0], t[1], t[2]);
        /* head on: B's face X at 2.5 - 3 t meets the vertex at ca.x + sx */
        double pb[2][3] = {{3.0, (double)ca[1] - 0.1, 0.0}, {-3.0, 0.0, 0.0}};
        tu_motion_trans(&mb, pb, 1);
        boxtoi_query q = tu_query(a, &ma, cube(0.5), &mb, 0.0, 1.0);
        boxtoi_result r;
        int mirrored = solve_mirrored(&q, &r);
        double toi = (double)((2.5L - ca[0] - sx) / 3.0L);
        ok(r.state == BOXTOI_HIT && fabs(r.toi - toi) <= 1e-9 && mirrored,
           "a cube with corners at %g, turned, at the origin: first contact %.17g, exactly "
           "%.17g (its centre %.3Lg off the origin), mirrored when swapped",
           C, r.toi, toi, ca[0]);
        /* passing along y, the face 2e-8 inside or outside the vertex's x */
        for (int in = 0; in < 2; in++) {
            double gap = in ? -2e-8 : 2e-8;
            double px[2][3] = {{(double)(ca[0] + sx + 0.5L + gap), -3.0, 0.0},
                               {0.0, 6.0, 0.0}};
            tu_motion_trans(&mb, px, 1);
            q = tu_query(a, &ma, cube(0.5), &mb, 0.0, 1.0);
            mirrored = solve_mirrored(&q, &r);
            ok(r.state == (in ? BOXTOI_HIT : BOXTOI_MISS) && mirrored,
               "a cube with corners at %g, turned, at the origin: a cube passing %s its "
               "leading vertex by 2e-8: %s", C, in ? "into" : "clear of",
               boxtoi_state_name(r.state));
        }
    }
}

/*
 * A box far from its frame's origin, moved by a translation of degree 4 over
 * [1000, 1000.5]: X(t) = 16 t^4 - 64000 t^3 + 96e6 t^2 - 64e9 t + K, with K
 * the double nearest 16e12 - C, is 16 u^4 + (K - 16e12), u = t - 1000, so
 * the coefficients, near 1e13, cancel to positions near 1.  The face X' of
 * a box with x in [lo, hi] (centre C) lies at F0 + 16 u^4, F0 = hi + (K -
 * 16e12), exact in doubles (Sterbenz), and reaches a cube at rest with its
 * face X at b when u = ((b - F0) / 16)^(1/4).
 */
static void case_far_local_frame_late(void)
{
    const double cs[3] = {600.7, 1000.3, 1e5 + 0.3};
    for (int k = 0; k < 3; k++) {
        double C = cs[k], lo = C - 0.5, hi = C + 0.5, K = 16e12 - C;
        double F0 = hi + (K - 16e12);
        boxtoi_box a = tu_box(lo, -0.5, -0.5, hi, 0.5, 0.5);
        boxtoi_motion ma, mb;
        memset(&ma, 0, sizeof ma);
        ma.degree = 4;
        for (int i = 0; i < 4; i++)
            ma.c[0][i][i] = 1.0;
        const double x[5] = {K, -64e9, 96e6, -64000.0, 16.0};
        for (int j = 0; j < 5; j++)
            ma.c[j][0][3] = x[j];
        double id[3][3];
        tu_identity3(id);
        /* a face 0.01 short of A's reach at t1: contact near the end */
        double b = F0 + 0.99;
        motion_static(&mb, id, b + 0.5, 0.0, 0.0);
        boxtoi_query q = tu_query(a, &ma, cube(0.5), &mb, 1000.0, 1000.5);
        boxtoi_result r;
        int mirrored = solve_mirrored(&q, &r);
        double toi = 1000.0 + (double)powl(((long double)b - F0) / 16.0L, 0.25L);
        ok(r.state == BOXTOI_HIT && fabs(r.toi - toi) <= 0.5e-9 && mirrored,
           "a box centred at x = %g of its frame, degree 4 over [1000, 1000.5]: first contact "
           "%.17g, exactly %.17g, mirrored when swapped", C, r.toi, toi);
        /* A's swept bounds along x: from its face X at t0 (F0 - 1) to its
           face X' at t1 (F0 + 1), widened by at most 1e-7 (its bound of the
           rounding: 5.3e-9 at 1e5 from the origin) */
        double sl[3], sh[3];
        boxtoi_reason why = boxtoi_swept_aabb(&a, &ma, 1000.0, 1000.5, sl, sh);
        ok(why == BOXTOI_REASON_NONE && sl[0] <= F0 - 1.0 && sl[0] >= F0 - 1.0 - 1e-7 &&
               sh[0] >= F0 + 1.0 && sh[0] <= F0 + 1.0 + 1e-7,
           "a box centred at x = %g of its frame, degree 4 over [1000, 1000.5]: swept x "
           "[%.17g, %.17g], exactly [%.17g, %.17g]", C, sl[0], sh[0], F0 - 1.0, F0 + 1.0);
        /* the face at t1 2e-8 short of A's reach, or past it */
        for (int in = 0; in < 2; in++) {
            b = F0 + 1.0 + (in ? -2e-8 : 2e-8);
            motion_static(&mb, id, b + 0.5, 0.0, 0.0);
            q = tu_query(a, &ma, cube(0.5), &mb, 1000.0, 1000.5);
            mirrored = solve_mirrored(&q, &r);
            ok(r.state == (in ? BOXTOI_HIT : BOXTOI_MISS) && mirrored,
               "a box centred at x = %g of its frame, degree 4 over [1000, 1000.5], a cube "
               "2e-8 %s its reach: %s", C, in ? "within" : "beyond", boxtoi_state_name(r.state));
        }
    }
}

/*
 * A unit cube sliding along x as x = t + 1/2 past a unit cube at rest,
 * its motion written with the common factor w = 1 + t^2 (the same map),
 * over [t0, 1] with t0 from -1e3 to -4e5: w spans up to 1.6e11 times its
 * least, and the positions near t = 0 are far smaller than the Bernstein
 * coefficients on the interval, whose rounding moved the end of the swept
 * box by units (its x bound at t1 came out -1.5, not 1.5), so the cubes
 * were found apart.  The contact lasts from t = -1.5 to 0.5.  Each query
 * is a hit at those times, or refused as singular (w^3 within rounding of
 * 0, which the header allows), never a miss.
 */
static void case_common_factor_long(void)
{
    boxtoi_motion ma, mb;
    boxtoi_motion_identity(&ma);
    memset(&mb, 0, sizeof mb);
    mb.degree = 3;
    for (int i = 0; i < 4; i++)
        mb.c[0][i][i] = mb.c[2][i][i] = 1.0;
    const double x[4] = {0.5, 1.0, 0.5, 1.0}; /* (t + 1/2)(1 + t^2) */
    for (int k = 0; k < 4; k++)
        mb.c[k][0][3] = x[k];
    unsigned long long seed = 5;
    int hits = 0, refused = 0, wrong = 0;
    for (int i = 0; i < 400; i++) {
        double t0 = i == 0 ? -244140.625 : -pow(10.0, tu_rand(&seed, 3.0, 5.6));
        boxtoi_query q = tu_query(cube(0.5), &ma, cube(0.5), &mb, t0, 1.0);
        boxtoi_result r = boxtoi_solve(&q);
        double tol = 1e-9 * (1.0 - t0);
        if (r.state == BOXTOI_HIT && fabs(r.toi + 1.5) <= tol && !r.exit_after_t1 &&
            fabs(r.exit - 0.5) <= tol)
            hits++;
        else if (r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_SINGULAR)
            refused++;
        else if (wrong++ < 3)
            diag("t0 = %.17g: %s, toi %.17g, exit %.17g", t0, boxtoi_state_name(r.state),
                 r.toi, r.exit);
    }
    ok(wrong == 0 && hits >= 300,
       "a cube's translation times 1 + t^2 over [t0, 1], t0 from -1e3 to -4e5: %d hits at "
       "-1.5 to 0.5, %d refused as singular, %d wrong", hits, refused, wrong);
}

static void case_miss(void)
{
    /* B = [-1,1]^3 centre (5 - 4t, 3, 0): y ranges [2,4] and [-1,1] never
     * meet.  MISS. */
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[2][3] = {{5.0, 3.0, 0.0}, {-4.0, 0, 0}};
    tu_motion_trans(&mb, p, 1);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_MISS, .reference = 1};
    run_case("passing by", &q, &e);

    /* Centre (10 - 4t, 0, 0): contact would be at 10 - 4t = 2, t = 2 > 1. */
    double p2[2][3] = {{10.0, 0.0, 0.0}, {-4.0, 0, 0}};
    tu_motion_trans(&mb, p2, 1);
    q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    run_case("contact after t1", &q, &e);
    /* ... and on [0, 2.5] it is a hit at 2 (face on face, normal +x). */
    q.t1 = 2.5;
    expect f = {.state = BOXTOI_HIT, .toi = 2.0, .check_normal = 1, .normal = {1, 0, 0},
                .reference = 1};
    run_case("contact at 2 on [0, 2.5]", &q, &f);
}

static void case_both_moving(void)
{
    /* A = [-1,1]^3 centre (2t, 0, 0); B as in the vertex-face case with
     * centre (6 - 3t, 0.1, 0.2).  B's vertex "XY'Z" at x = 6 - 3t -
     * (1 + 1/sqrt2) meets A's face X' at x = 2t + 1:
     * t = (4 - 1/sqrt2)/5, point (2t + 1, 0.1, 0.2 + 1 - 1/sqrt2). */
    double r[3][3], id[3][3];
    rot_vertex_lead(r);
    tu_identity3(id);
    boxtoi_motion ma, mb;
    double pa[2][3] = {{0, 0, 0}, {2.0, 0, 0}};
    tu_motion_rot_trans(&ma, id, pa, 1);
    double pb[2][3] = {{6.0, 0.1, 0.2}, {-3.0, 0, 0}};
    tu_motion_rot_trans(&mb, r, pb, 1);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    double t = (4.0 - ISQ2) / 5.0;
    expect e = {.state = BOXTOI_HIT,
                .toi = t,
                .exit_mode = EXIT_AFTER_T1,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "X'",
                .fb = "XY'Z",
                .check_normal = 1,
                .normal = {1, 0, 0},
                .check_point = 1,
                .point = {2.0 * t + 1.0, 0.1, 0.2 + 1.0 - ISQ2},
                .reference = 1};
    boxtoi_result res = run_case("both moving", &q, &e);
    check_swap("both moving", &q, &res);
}

static void case_interval(void)
{
    /* The vertex-face case shifted in time: B's centre
     * (5 - 4 (t - 2.5), 0.1, 0.2) = (15 - 4t, 0.1, 0.2) on [2.5, 3.5].
     * 15 - 4t - (1 + 1/sqrt2) = 1: t = (13 - 1/sqrt2)/4. */
    double r[3][3], id[3][3];
    rot_vertex_lead(r);
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[2][3] = {{15.0, 0.1, 0.2}, {-4.0, 0, 0}};
    tu_motion_rot_trans(&mb, r, p, 1);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 2.5, 3.5);
    expect e = {.state = BOXTOI_HIT,
                .toi = (13.0 - ISQ2) / 4.0,
                .exit_mode = EXIT_AFTER_T1,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "X'",
                .fb = "XY'Z",
                .check_normal = 1,
                .normal = {1, 0, 0},
                .check_point = 1,
                .point = {1.0, 0.1, 0.2 + 1.0 - ISQ2},
                .reference = 1};
    boxtoi_result res = run_case("interval [2.5, 3.5]", &q, &e);
    check_swap("interval [2.5, 3.5]", &q, &res);
}

/* A query of boxes a and b translating by the paths pa and pb (degree 1)
   over [t0, t1]. */
static boxtoi_query translating(boxtoi_box a, const double pa[2][3], boxtoi_box b,
                                const double pb[2][3], double t0, double t1)
{
    boxtoi_motion ma, mb;
    tu_motion_trans(&ma, pa, 1);
    tu_motion_trans(&mb, pb, 1);
    return tu_query(a, &ma, b, &mb, t0, t1);
}

/*
 * The touching tolerance, 1e-12 size + 8 eps |coordinates| (docs/method.md,
 * Tolerance), for cubes of side 1 (size: the diagonal, sqrt 3) and
 * coordinates about 1: boxes at rest half of it apart touch, twice it apart
 * do not.  The size is the larger box's: for a cube of side 1e-3 beside a
 * 1 x 1.2 x 1 box it is the box's diagonal, sqrt 3.44 (the cube's would
 * make the tolerance 1e-3 of that).  Boxes 1e-8 and 5e-8 apart closing at
 * speed 1 are apart at t0 and meet at that time.
 */
static void case_touching_tolerance(void)
{
    static const double rest[2] = {0.5, 2.0};
    for (int k = 0; k < 4; k++) {
        int small = k >= 2;
        double h = small ? 5e-4 : 0.5, size = small ? sqrt(3.44) : sqrt(3.0);
        double tol = 1e-12 * size + 8.0 * DBL_EPSILON * 1.5;
        double x = 0.5 + h + rest[k % 2] * tol;
        double pa[2][3] = {{0, 0, 0}, {0, 0, 0}}, pb[2][3] = {{x, 0.3, 0.1}, {0, 0, 0}};
        boxtoi_box a = small ? tu_box(-0.5, -0.6, -0.5, 0.5, 0.6, 0.5) : cube(0.5);
        boxtoi_query q = translating(a, pa, cube(h), pb, 0.0, 1.0);
        boxtoi_result r = boxtoi_solve(&q);
        is_int(r.state, k % 2 == 0 ? BOXTOI_OVERLAP : BOXTOI_MISS,
               "%s at rest %g touching tolerances apart: %s",
               small ? "a cube of side 1e-3 beside a 1 x 1.2 x 1 box" : "cubes", rest[k % 2],
               k % 2 == 0 ? "touching" : "apart");
    }
    static const double gap[2] = {1e-8, 5e-8};
    for (int k = 0; k < 2; k++) {
        double pa[2][3] = {{0, 0, 0}, {0, 0, 0}}, pb[2][3] = {{1.0 + gap[k], 0.3, 0.1}, {-1, 0, 0}};
        boxtoi_query q = translating(cube(0.5), pa, cube(0.5), pb, 0.0, 1.0);
        boxtoi_result r = boxtoi_solve(&q);
        is_int(r.state, BOXTOI_HIT, "cubes %g apart at t0, closing at speed 1: a hit", gap[k]);
        is_double(r.toi, gap[k], 1e-9, "cubes %g apart at t0, closing at speed 1: toi", gap[k]);
    }
}

/*
 * Ties told apart by the rules of docs/method.md (Features, point and
 * normal).  Plates in the plane z = 0, overlapping at rest, B's centre off
 * by (0.5, 0.25, 0), then by (-0.5, -0.25, 0): the common normal z, which
 * the offset along it cannot orient, is read +z and takes the sign of the
 * first of the offset's z, y, x components beyond the tolerance (y): +z,
 * then -z.  Cubes closing along the diagonal
 * x = y at equal speeds until their z edges meet: the faces x and y tie, the
 * offset orients both, and the line larger in y comes first: the normal is
 * +y (-y with A and B swapped).  The same with B also coming down along z,
 * five times as fast, so that the edges meet over the last 2e-6 of B's
 * edge, B's bottom that far below A's top: just before, the faces z
 * separate most, but they are not in the tie (crossed by 2e-6), and the
 * normal is still +y.
 */
static void case_tie_rules(void)
{
    boxtoi_box plate = {{-1, -1, 0}, {1, 1, 0}};
    for (int k = 0; k < 2; k++) {
        double d = k == 0 ? 1.0 : -1.0;
        double pa[2][3] = {{0, 0, 0}, {0, 0, 0}}, pb[2][3] = {{0.5 * d, 0.25 * d, 0}, {0, 0, 0}};
        boxtoi_query q = translating(plate, pa, plate, pb, 0.0, 1.0);
        boxtoi_result r = boxtoi_solve(&q);
        double want[3] = {0, 0, k == 0 ? 1.0 : -1.0};
        ok(r.state == BOXTOI_OVERLAP && r.normal[0] == want[0] && r.normal[1] == want[1] &&
               r.normal[2] == want[2],
           "plates overlapping at rest in one plane, B off by %s(0.5, 0.25): normal %s (got %s, "
           "%g %g %g)",
           k == 0 ? "" : "-", k == 0 ? "+z" : "-z", boxtoi_state_name(r.state),
           r.normal[0], r.normal[1], r.normal[2]);
    }
    for (int sinking = 0; sinking < 2; sinking++) {
        double pa[2][3] = {{0, 0, 0}, {0, 0, 0}};
        double pb[2][3] = {{3, 3, sinking ? 7.0 - 2e-6 : 0.2}, {-2, -2, sinking ? -10.0 : 0.0}};
        boxtoi_query q = translating(cube(1), pa, cube(1), pb, 0.0, 1.0), y = tu_swapped(&q);
        for (int k = 0; k < 2; k++) {
            boxtoi_result r = boxtoi_solve(k == 0 ? &q : &y);
            double sign = k == 0 ? 1.0 : -1.0;
            ok(r.state == BOXTOI_HIT && fabs(r.toi - 0.5) <= 1e-12 &&
                   fabs(r.normal[0]) <= 1e-12 && fabs(r.normal[1] - sign) <= 1e-12 &&
                   fabs(r.normal[2]) <= 1e-12,
               "cubes closing along x = y, edges meeting%s%s: normal %s (got %s at %.17g, "
               "%g %g %g)", sinking ? ", B sinking along z across A's top" : "",
               k == 0 ? "" : ", A and B swapped", k == 0 ? "+y" : "-y",
               boxtoi_state_name(r.state), r.toi, r.normal[0], r.normal[1], r.normal[2]);
        }
    }
}

/*
 * Plates 2e-8 thick, A = [-1, 1]^2 x [-1e-8, 1e-8] at rest and B its copy
 * closing along x at 1/2 and rising along z at 1: B's side reaches A's at
 * 0.5 just as its bottom comes level with A's top, the centres 2e-8 apart
 * along z, a touch at one instant (after it z parts them).  Faces x and z
 * tie there; 1e-6 before, z parts them most (by 9.6e-7, x by 5e-7), with B
 * below A, and a tie reached from before takes the axis and its
 * orientation from there (docs/method.md, Features, point and normal),
 * though the offset at the contact, 2e-8 up, would orient it: the normal
 * is -z, +z swapped.
 */
static void case_tie_oriented_before(void)
{
    const double e = 1e-8, u = 0.5, v = 1.0, tc = 0.5;
    boxtoi_box plate = {{-1, -1, -e}, {1, 1, e}};
    double pa[2][3] = {{0, 0, 0}, {0, 0, 0}};
    double pb[2][3] = {{2 + u * tc, 0.3, 2 * e - v * tc}, {-u, 0, v}};
    boxtoi_query q = translating(plate, pa, plate, pb, 0.0, 1.0), y = tu_swapped(&q);
    for (int k = 0; k < 2; k++) {
        boxtoi_result r = boxtoi_solve(k == 0 ? &q : &y);
        double sign = k == 0 ? -1.0 : 1.0;
        ok(r.state == BOXTOI_HIT && fabs(r.toi - tc) <= 1e-9 && fabs(r.normal[0]) <= 1e-12 &&
               fabs(r.normal[1]) <= 1e-12 && fabs(r.normal[2] - sign) <= 1e-12,
           "thin plates meeting side to side as B rises past A's top%s: normal %s, from "
           "the offset 1e-6 before (got %s at %.17g, %g %g %g)", k == 0 ? "" : ", swapped",
           k == 0 ? "-z" : "+z", boxtoi_state_name(r.state), r.toi, r.normal[0],
           r.normal[1], r.normal[2]);
    }
}

/*
 * Steps of 1/60 far from 0: [t0, t0 + 1/60] with t0 = 1e6 + 0.37 k, where
 * doubles are 1.2e-10 apart, 7e-9 of the step.  B (unit cube) falls at
 * speed along z through A (unit cube at rest): its centre z = c0 - speed t,
 * c0 = 2.5 + speed t0 as a double, meets A's top at t* = (c0 - 2) / speed
 * and leaves A's bottom at (c0 + 2) / speed, taken in long double from the
 * coefficient itself.  The time of contact (exit 0) or the exit (exit 1, at
 * a speed that ends it within the step) is never later than the exact one
 * (rounded to nearest it would be, by up to half that spacing), and no
 * earlier than the spacing allows.
 */
static void far_steps(double speed, int exit)
{
    int late = 0, early = 0;
    double worst_late = 0.0, worst_early = 0.0;
    for (int k = 0; k < 200; k++) {
        double t0 = 1e6 + 0.37 * k, t1 = t0 + 1.0 / 60.0;
        double pa[2][3] = {{0, 0, 0}, {0, 0, 0}},
               pb[2][3] = {{0, 0, 2.5 + speed * t0}, {0, 0, -speed}};
        boxtoi_query q = translating(cube(1), pa, cube(1), pb, t0, t1);
        boxtoi_result res = boxtoi_solve(&q);
        long double exact = ((long double)q.motion_b.c[0][2][3] + (exit ? 2.0L : -2.0L)) / speed;
        long double off = ((long double)(exit ? res.exit : res.toi) - exact) / (t1 - t0);
        double spacing = nextafter(t1, INFINITY) - t1;
        if (res.state != BOXTOI_HIT || (exit && res.exit_after_t1) || !(off <= 1e-9L)) {
            late++;
            worst_late = fmax(worst_late, (double)off);
        }
        if (res.state == BOXTOI_HIT && -off * (t1 - t0) > 2.0L * spacing + 1e-9L * (t1 - t0)) {
            early++;
            worst_early = fmax(worst_early, (double)-off);
        }
    }
    const char *what = exit ? "exit" : "time of contact";
    if (!is_int(late, 0, "steps far from 0: no %s later than the exact one", what))
        diag("worst %.3g of the step", worst_late);
    if (!is_int(early, 0, "steps far from 0: no %s earlier than the spacing of doubles allows",
                what))
        diag("worst %.3g of the step", worst_early);
}

static void case_far_from_zero(void)
{
    far_steps(60.0, 0);
    far_steps(600.0, 1);

    /* Points 2^-42 apart at t0 = 1024, where doubles are 2^-42 apart,
     * closing at 2: they meet 2^-43 after t0, between two doubles.  Rounded
     * toward t0, that is t0 itself: a HIT at t0 (boxtoi.h), apart there. */
    double p = 0x1p-42, pa2[2][3] = {{-1024.0 - p, 0, 0}, {1, 0, 0}},
           pb2[2][3] = {{1024.0, 0, 0}, {-1, 0, 0}};
    boxtoi_box dot = {{0, 0, 0}, {0, 0, 0}};
    boxtoi_query q = translating(dot, pa2, dot, pb2, 1024.0, 1024.0 + 1.0 / 64.0);
    boxtoi_result res = boxtoi_solve(&q);
    ok(res.state == BOXTOI_HIT && res.toi == 1024.0 && boxtoi_overlap_at(&q, 1024.0, NULL) == 0,
       "a contact half a double's spacing after t0: a hit at t0, apart there (got %s at "
       "%.17g)", boxtoi_state_name(res.state), res.toi);
}

/*
 * The swinging bar.  A = [-1,1]^3 rotated 30 deg about x, at rest.  B = bar
 * [0,4] x [-0.25,0.25] x [-1,1] rotating about z around the pivot
 * p = (0, 3, 0) by theta = -phi (clockwise).  B's local y axis is
 * n = (sin phi, cos phi, 0): its face "Y" (local y = -0.25) lies in the
 * plane n.x = 3 cos phi - 0.25 with B on the side n.x >= that.  A's support
 * along n: R_A^T n = (sin phi, c cos phi, -s cos phi) (c = cos 30, s = sin 30),
 * so h_A = sin phi + (c + s) cos phi for phi in [0, pi/2], reached at the
 * single vertex sign(R_A^T n) = (+1,+1,-1) ("X'Y'Z") at
 * R_A (1,1,-1) = (1, c + s, s - c).  The gap
 * g = K cos phi - sin phi - 0.25 with K = 3 - c - s decreases on [0, pi/2];
 * it vanishes at phi* = acos(0.25 / sqrt(K^2 + 1)) - atan(1 / K).  The
 * vertex projects into the face (bar coordinate cos phi + K sin phi = 1.90
 * in [0, 4], z = s - c in [-1, 1]).  Vertex of A on face of B:
 * vertex-face, normal n(phi*) from A to B.
 */
static double bar_phi(void)
{
    double c = cos(TU_PI / 6.0), s = sin(TU_PI / 6.0);
    double k = 3.0 - c - s;
    return acos(0.25 / sqrt(k * k + 1.0)) - atan(1.0 / k);
}

static void bar_query_a(boxtoi_motion *ma)
{
    double rx[3][3];
    tu_rot_x(rx, TU_PI / 6.0);
    motion_static(ma, rx, 0, 0, 0);
}

static void bar_expect(expect *e, double toi)
{
    double phi = bar_phi();
    double c = cos(TU_PI / 6.0), s = sin(TU_PI / 6.0);
    memset(e, 0, sizeof *e);
    e->state = BOXTOI_HIT;
    e->toi = toi;
    e->exit_mode = EXIT_AFTER_T1;
    e->check_kind = KIND_AND_POINT;
    e->kind = BOXTOI_VERTEX_FACE;
    e->fa = "X'Y'Z";
    e->fb = "Y";
    e->check_normal = 1;
    e->normal[0] = sin(phi);
    e->normal[1] = cos(phi);
    e->normal[2] = 0.0;
    e->check_point = 1;
    e->point[0] = 1.0;
    e->point[1] = c + s;
    e->point[2] = s - c;
    e->reference = 1;
}

static int same_motion(const boxtoi_motion *a, const boxtoi_motion *b, double tol)
{
    if (a->degree != b->degree)
        return 0;
    for (int k = 0; k <= a->degree; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                if (!(fabs(a->c[k][i][j] - b->c[k][i][j]) <= tol))
                    return 0;
    return 1;
}

static void case_rigid_rotation(void)
{
    boxtoi_box bar = tu_box(0, -0.25, -1, 4, 0.25, 1);
    boxtoi_motion ma, mb, mh;
    bar_query_a(&ma);
    double phi = bar_phi();
    expect e;

    /* Quadratic: q(t) = (1, 0, 0, -t): theta = -2 atan(t), so
     * t* = tan(phi* / 2).  By hand, with z = -t: Rq = [[1 - t^2, 2t, 0],
     * [-2t, 1 - t^2, 0], [0, 0, 1 + t^2]], w = 1 + t^2, translation column
     * (0, 3 (1 + t^2), 0). */
    double qv[2][4] = {{1, 0, 0, 0}, {0, 0, 0, -1}};
    double pv[1][3] = {{0, 3, 0}};
    is_int(boxtoi_motion_rigid(&mb, qv, 1, pv, 0), BOXTOI_REASON_NONE,
           "rigid: quadratic motion built");
    tu_motion_zero(&mh, 2);
    mh.c[0][0][0] = 1;
    mh.c[2][0][0] = -1;
    mh.c[1][0][1] = 2;
    mh.c[1][1][0] = -2;
    mh.c[0][1][1] = 1;
    mh.c[2][1][1] = -1;
    mh.c[0][2][2] = 1;
    mh.c[2][2][2] = 1;
    mh.c[0][1][3] = 3;
    mh.c[2][1][3] = 3;
    mh.c[0][3][3] = 1;
    mh.c[2][3][3] = 1;
    ok(same_motion(&mb, &mh, 1e-15), "rigid: quadratic motion equals the hand-built one");
    boxtoi_query q = tu_query(cube(1), &ma, bar, &mh, 0.0, 1.0);
    bar_expect(&e, tan(0.5 * phi));
    boxtoi_result r = run_case("swinging bar, quadratic", &q, &e);
    check_swap("swinging bar, quadratic", &q, &r);
    q.motion_b = mb;
    run_case("swinging bar, quadratic (boxtoi_motion_rigid)", &q, &e);

    /* Quartic: q(t) = (1, 0, 0, -t^2): theta = -2 atan(t^2),
     * t* = sqrt(tan(phi* / 2)).  With z = -t^2: Rq = [[1 - t^4, 2t^2, 0],
     * [-2t^2, 1 - t^4, 0], [0, 0, 1 + t^4]], w = 1 + t^4. */
    double q4[3][4] = {{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, -1}};
    is_int(boxtoi_motion_rigid(&mb, q4, 2, pv, 0), BOXTOI_REASON_NONE,
           "rigid: quartic motion built");
    tu_motion_zero(&mh, 4);
    mh.c[0][0][0] = 1;
    mh.c[4][0][0] = -1;
    mh.c[2][0][1] = 2;
    mh.c[2][1][0] = -2;
    mh.c[0][1][1] = 1;
    mh.c[4][1][1] = -1;
    mh.c[0][2][2] = 1;
    mh.c[4][2][2] = 1;
    mh.c[0][1][3] = 3;
    mh.c[4][1][3] = 3;
    mh.c[0][3][3] = 1;
    mh.c[4][3][3] = 1;
    ok(same_motion(&mb, &mh, 1e-15), "rigid: quartic motion equals the hand-built one");
    q = tu_query(cube(1), &ma, bar, &mh, 0.0, 1.0);
    bar_expect(&e, sqrt(tan(0.5 * phi)));
    r = run_case("swinging bar, quartic", &q, &e);
    check_swap("swinging bar, quartic", &q, &r);
}

/*
 * Edges that turn parallel during a contact.  A = [-1/2, 1/2]^3 turns about
 * z by q = (1, 0, 0, k (t - t*)): its x and y edges are parallel to the
 * world's x and y at t* and at t* +- 1/k (a quarter turn away), and there
 * the edge axes a_x x b_x and a_x x b_y (and their pairs) vanish with all
 * their terms.  Their rounding must not read as the contact ending.
 *
 * First, B = [0.1, 0.9] x [-0.1, 0.25] x [-0.3, 0.3] at rest (and the same
 * as a plate, y from 0.25 to 0.25): its point (0.1, 0, 0) lies within 0.5
 * of A's axis, inside A however A turns, so they overlap on all of [0, 1]:
 * overlap at t0, lasting through t1.  Forty t* and k, each with both B.
 *
 * Then B = [-1/4, 1/4]^3 with centre (0.1, 0, 1/4 + t) rises off A's top
 * face (z = 1/2 at every turn of A, the turn being about z): B's bottom
 * face z = t leaves it at t = 1/2, the only exit; A's edges turn parallel
 * to B's at 0.1 and 0.35 (t* = 0.1, k = 4) while B's square
 * [-0.15, 0.35] x [-0.25, 0.25] still covers A's axis.
 */
static void case_edges_turning_parallel(void)
{
    int bad = 0, n = 0;
    for (int i = 1; i <= 40; i++)
        for (int plate = 0; plate < 2; plate++) {
            double ts = i / 41.0, k = 0.5 + 0.1 * i;
            double qv[2][4] = {{1, 0, 0, 0}, {0, 0, 0, k}}, pv[1][3] = {{0, 0, 0}};
            boxtoi_motion ma, mb;
            tu_rigid_motion(&ma, qv, 1, pv, 0, ts);
            boxtoi_motion_identity(&mb);
            boxtoi_box b = tu_box(0.1, plate ? 0.25 : -0.1, -0.3, 0.9, 0.25, 0.3);
            boxtoi_query q = tu_query(cube(0.5), &ma, b, &mb, 0.0, 1.0);
            for (int sw = 0; sw < 2; sw++) {
                boxtoi_query s = sw ? tu_swapped(&q) : q;
                boxtoi_result r = boxtoi_solve(&s);
                n++;
                if (r.state != BOXTOI_OVERLAP || !r.exit_after_t1) {
                    if (bad++ < 3)
                        diag("t* = %.17g, k = %g%s%s: %s, exit %.17g", ts, k,
                             plate ? ", plate" : "", sw ? ", swapped" : "",
                             boxtoi_state_name(r.state), r.exit);
                }
            }
        }
    ok(bad == 0, "edges turning parallel inside an overlap: the overlap lasts through t1 "
                 "(%d of %d queries end it)", bad, n);

    double qv[2][4] = {{1, 0, 0, 0}, {0, 0, 0, 4}}, p0[1][3] = {{0, 0, 0}};
    double pv[2][3] = {{0.1, 0, 0.25}, {0, 0, 1}};
    boxtoi_motion ma, mb;
    tu_rigid_motion(&ma, qv, 1, p0, 0, 0.1);
    tu_motion_trans(&mb, pv, 1);
    boxtoi_query q = tu_query(cube(0.5), &ma, cube(0.25), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_OVERLAP, .exit_mode = EXIT_AT, .exit = 0.5, .reference = 1};
    boxtoi_result r = run_case("edges turning parallel, then the box lifts off", &q, &e);
    check_swap("edges turning parallel, then the box lifts off", &q, &r);
}

/*
 * A segment skimming a plate's face from inside, 78 from the origin, the two
 * boxes moving together: with k = 95.0625, X = 7443.83935546875 / k (about
 * 78.3) and the same turn R (world x, y, z = local z, x, y) for both, A (a
 * segment along its local x, [-0.1640625, 0.1015625]) sits at X (1 + t) on
 * all three axes, given as the motion k (1 + t + t^2)^2 [R  X (1 + t); 0 1]
 * (degree 5, whose coefficients reach 1e7 over the interval); B (local y
 * within 1.9921875, z in [0, 0.125], no x extent) at rest in k [R  c(t); 0 1]
 * with k c(t) = k X (1 + t) - (1.114013671875, 0.371337890625,
 * -7509.566162109375 / t) t^2 - 0.371337890625 t^3 (a vector, per axis).
 * Along world x, A lies (1.114013671875 t^2 + 0.371337890625 t^3) / k
 * beyond B's face x = c_x: inside B's range [0, 0.125] there, touching the
 * face at t = 0 from inside.  Along z, B moves off by (7509.566162109375 t^2
 * - 0.371337890625 t^3) / k, which passes B's half height 1.9921875 at t =
 * 0.1588 (the root below), and along y the plane of B stays within A.  So
 * the boxes overlap at t0 = -0.0625 and part at that root; at t = 0, where
 * A's x lies a few ulps of the coordinates from the face, rounding read the
 * segment as leaving it and the exit came at t = 0.  (The sampled
 * separating-axis check of the expectation reads that touch as apart too:
 * the exit is checked against the root alone.)
 */
static void case_skim_far_out(void)
{
    const double k = 95.0625, X = 7443.83935546875;
    double w[5] = {1, 2, 3, 2, 1}, R[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
    boxtoi_motion ma, mb;
    memset(&ma, 0, sizeof ma);
    memset(&mb, 0, sizeof mb);
    ma.degree = 5;
    for (int i = 0; i <= 4; i++) {
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                ma.c[i][r][c] = k * w[i] * R[r][c];
            ma.c[i][r][3] += X * w[i];     /* X (1 + t) (1 + t + t^2)^2 k / k */
            ma.c[i + 1][r][3] += X * w[i];
        }
        ma.c[i][3][3] = k * w[i];
    }
    mb.degree = 3;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++)
            mb.c[0][r][c] = k * R[r][c];
        mb.c[0][r][3] = mb.c[1][r][3] = X;
        mb.c[3][r][3] = -0.371337890625;
    }
    mb.c[2][0][3] = -1.114013671875;
    mb.c[2][1][3] = -0.371337890625;
    mb.c[2][2][3] = 7509.566162109375;
    mb.c[0][3][3] = k;
    /* exit: 7509.566162109375 t^2 - 0.371337890625 t^3 = 1.9921875 k */
    double te = 0.16;
    for (int it = 0; it < 60; it++) {
        double f = 7509.566162109375 * te * te - 0.371337890625 * te * te * te - 1.9921875 * k;
        double d = 2 * 7509.566162109375 * te - 3 * 0.371337890625 * te * te;
        te -= f / d;
    }
    boxtoi_query q = tu_query(tu_box(-0.1640625, 0, 0, 0.1015625, 0, 0), &ma,
                              tu_box(0, -1.9921875, 0, 0, 1.9921875, 0.125), &mb,
                              -0.0625, 3.9375);
    expect e = {.state = BOXTOI_OVERLAP, .exit_mode = EXIT_AT, .exit = te};
    boxtoi_result r = run_case("a segment skimming a plate's face from inside, 78 out", &q, &e);
    check_swap("a segment skimming a plate's face from inside, 78 out", &q, &r);
}

/*
 * Two points far out, B passing A's side with an offset of 13 ulps (about
 * 1.5e-12) along x and y.  No axis parts them by more than the rounding of
 * coordinates near 1000 (8 DBL_EPSILON times them, 1.8e-12), so they touch
 * when B comes level with A, t = 0.5; along the diagonal they are 2.1e-12
 * apart, more than that.  The contact point is within the rounding of both
 * points, each at its own place at the time reported.
 */
static void case_points_beside_far_out(void)
{
    const char *name = "a point passing another beside it, 1000 out";
    const double X = 1000.0, e = 13 * (nextafter(X, 2 * X) - X);
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, X, X, X);
    double p[2][3] = {{X + e, X + e, X - 0.5}, {0, 0, 1}};
    tu_motion_rot_trans(&mb, id, p, 1);
    boxtoi_box pt = tu_box(0, 0, 0, 0, 0, 0);
    boxtoi_query q = tu_query(pt, &ma, pt, &mb, 0.0, 1.0);
    expect ex = {.state = BOXTOI_HIT, .toi = 0.5};
    boxtoi_result r = run_case(name, &q, &ex);
    double round = 8 * DBL_EPSILON * (X + 0.5);
    double b[3] = {X + e, X + e, X - 0.5 + r.toi}, da = 0.0, db = 0.0;
    for (int k = 0; k < 3; k++) {
        da += (r.point[k] - X) * (r.point[k] - X);
        db += (r.point[k] - b[k]) * (r.point[k] - b[k]);
    }
    ok(sqrt(da) <= round && sqrt(db) <= round,
       "%s: point %.3g from A and %.3g from B (rounding %.3g)", name, sqrt(da),
       sqrt(db), round);
    check_swap(name, &q, &r);
}

static void case_quartic_translation(void)
{
    /* The vertex-face case with centre (6 - 5t^4, 0.1, 0.2): contact when
     * 6 - 5t^4 - (1 + 1/sqrt2) = 1, t = ((4 - 1/sqrt2)/5)^(1/4). */
    double r[3][3], id[3][3];
    rot_vertex_lead(r);
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    double p[5][3] = {{6.0, 0.1, 0.2}, {0}, {0}, {0}, {-5.0, 0, 0}};
    tu_motion_rot_trans(&mb, r, p, 4);
    boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT,
                .toi = pow((4.0 - ISQ2) / 5.0, 0.25),
                .exit_mode = EXIT_AFTER_T1,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "X'",
                .fb = "XY'Z",
                .check_normal = 1,
                .normal = {1, 0, 0},
                .check_point = 1,
                .point = {1.0, 0.1, 0.2 + 1.0 - ISQ2},
                .reference = 1};
    boxtoi_result res = run_case("quartic translation", &q, &e);
    check_swap("quartic translation", &q, &res);
}

/*
 * A = [-1,1]^3 at rest, B a cube of half side 0.1 translating with centre
 * p(t) (degree deg) over [0, 1]: the expectation, and the swapped query.
 */
static void small_cube_over_cube(const char *name, const double p[][3], int deg,
                                 const expect *e)
{
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    tu_motion_trans(&mb, p, deg);
    boxtoi_query q = tu_query(cube(1), &ma, cube(0.1), &mb, 0.0, 1.0);
    boxtoi_result r = run_case(name, &q, e);
    check_swap(name, &q, &r);
}

/*
 * A contact that ends and starts again: A = [-1,1]^3 at rest, B a cube of
 * half side 0.1 crossing above it, centre (-1.5 + 3t, 0.2, z(t)) with
 * z(t) = 1.1 + 100 (t - 0.3)(t - 0.36)(t - 0.42)(t - 0.8).  B's face Z
 * comes down on A's face Z' at t = 0.3, lifts off it at t = 0.36 (3.4e-3
 * high at most), is back at 0.42 and sinks 0.38 deep before leaving at
 * 0.8: the first contact ends at 0.36.
 * Then with the polynomial times 1000 instead of 100 (lift-off 3.4e-2)
 * and B drifting across y, centre y -0.1 + 2t, off A's side Y' at 0.6:
 * the y axis, the least closed a quarter of the way to t1, parts the
 * boxes at 0.6, and the z axis, closed at 0.3 and at 0.6, must still be
 * found parting them in between.
 */
static void case_interrupted_contact(void)
{
    static const double roots[4] = {0.3, 0.36, 0.42, 0.8};
    static const double scale[2] = {100.0, 1000.0};
    for (int v = 0; v < 2; v++) {
        double c[5] = {1.0, 0.0, 0.0, 0.0, 0.0}; /* (t - r0)...(t - r3), by powers */
        for (int k = 0; k < 4; k++) {
            for (int j = k + 1; j > 0; j--)
                c[j] = c[j - 1] - roots[k] * c[j];
            c[0] = -roots[k] * c[0];
        }
        double p[5][3] = {{0}};
        p[0][0] = -1.5;
        p[1][0] = 3.0;
        p[0][1] = v == 0 ? 0.2 : -0.1;
        p[1][1] = v == 0 ? 0.0 : 2.0;
        for (int j = 0; j <= 4; j++)
            p[j][2] = scale[v] * c[j];
        p[0][2] += 1.1;
        expect e = {.state = BOXTOI_HIT, .toi = 0.3, .exit_mode = EXIT_AT, .exit = 0.36,
                    .check_normal = 1, .normal = {0, 0, 1}, .reference = 1};
        char name[64];
        snprintf(name, sizeof name, "contact interrupted at 0.36 (dip %g)", scale[v]);
        small_cube_over_cube(name, p, 4, &e);
    }
}

/*
 * A side contact whose box then lifts over the top for a while: A =
 * [-1,1]^3 at rest, B a cube of half side 0.1 coming in along -x, centre
 * (1.1 - 2 (t - 0.4), 1.1 + 0.02 (t - 0.9), 1.1 - 2 (t - 0.58)(t - 0.66)).
 * B's face X meets A's face X' at t = 0.4 (B's bottom 0.094 below A's top);
 * B rises clear of A's top from 0.58 to 0.66 (3.2e-3 at most), comes down
 * again and slides off A's side Y' at 0.9.  The first contact ends at 0.58.
 * A quarter and half of the way to t1 (0.55, 0.7) the boxes overlap along
 * every axis, along y and z by less than 0.01; the z axis is closed at 0.4,
 * before it and at 0.9.
 */
static void case_lift_over_top(void)
{
    double p[3][3] = {{1.9, 1.1 - 0.02 * 0.9, 1.1 - 2.0 * 0.58 * 0.66},
                      {-2.0, 0.02, 2.0 * (0.58 + 0.66)},
                      {0.0, 0.0, -2.0}};
    expect e = {.state = BOXTOI_HIT, .toi = 0.4, .exit_mode = EXIT_AT, .exit = 0.58,
                .check_normal = 1, .normal = {1, 0, 0}, .reference = 1};
    small_cube_over_cube("lift over the top at 0.58", p, 2, &e);
}

/*
 * Parallel faces meeting flat along a strip at their sides, each box's
 * named vertex over the other's face: A a plate [0,0] x [0.9,1.1] x
 * [0,0.2] moving along x at 4, B = [2,3] x [0,1] x [0,1] at rest, given as
 * a box [-0.5,0.5]^2 x [0,1] turned a quarter turn about z (its local x
 * along world y), so that its axes are not the world's.  They meet at
 * t = 0.5 on x = 2, y in [0.9, 1], z in [0, 0.2] (centre (2, 0.95, 0.1)).
 * Both faces meet the other box's supporting feature, and both named
 * vertices (B's X'Y'Z at (2, 1, 0), A's X'YZ' at (2, 0.9, 0.2)) lie over
 * the other's face, so the face whose outward normal points up along x is
 * taken (docs/method.md, Features): face-vertex, A's X' and B's X'Y'Z.
 */
static void case_flat_along_side(void)
{
    const char *name = "plate flat on a face along its side";
    double quarter[3][3] = {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}};
    boxtoi_motion ma, mb;
    double p[2][3] = {{0, 0, 0}, {4, 0, 0}};
    tu_motion_trans(&ma, p, 1);
    motion_static(&mb, quarter, 2.5, 0.5, 0.0);
    boxtoi_box a = {{0, 0.9, 0}, {0, 1.1, 0.2}}, b = {{-0.5, -0.5, 0}, {0.5, 0.5, 1}};
    boxtoi_query q = tu_query(a, &ma, b, &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT, .toi = 0.5, .exit_mode = EXIT_AT, .exit = 0.75,
                .check_normal = 1, .normal = {1, 0, 0}, .reference = 1};
    boxtoi_result r = run_case(name, &q, &e);
    char got[BOXTOI_FEATURE_NAME_MAX];
    is_string(boxtoi_kind_name(r.kind), "face-vertex", "%s: kind", name);
    is_string(boxtoi_feature_name(r.feature_a, got, sizeof got), "X'", "%s: feature of A", name);
    is_string(boxtoi_feature_name(r.feature_b, got, sizeof got), "X'Y'Z", "%s: feature of B",
              name);
    static const double centre[3] = {2.0, 0.95, 0.1};
    for (int k = 0; k < 3; k++)
        is_double(r.point[k], centre[k], 1e-9, "%s: point %c, the strip's centre", name,
                  "xyz"[k]);
    check_swap(name, &q, &r);
}

/*
 * A = [-1,1]^3 at rest; B = [-1,1] x [-0.1,0.1]^2 turned by r, its centre at
 * (x, y, 2 + 0.1 sqrt 2 - 2t): falling at 2 a unit of time, an edge turned
 * down 0.1 sqrt 2 below the centre reaches z = 1 at t = 1/2.
 */
static boxtoi_query falling_rod(const double r[3][3], double x, double y)
{
    boxtoi_motion ma, mb;
    double id[3][3];
    tu_identity3(id);
    motion_static(&ma, id, 0, 0, 0);
    motion_static(&mb, r, x, y, 2.0 + 0.1 * sqrt(2.0));
    mb.degree = 1;
    mb.c[1][2][3] = -2.0;
    return tu_query(cube(1), &ma, tu_box(-1, -0.1, -0.1, 1, 0.1, 0.1), &mb, 0.0, 1.0);
}

/*
 * A rod, B = [-1,1] x [-0.1,0.1]^2, turned 45 degrees about its length (an
 * edge down) and then -45 degrees about z (its length along (1,-1,0)), its
 * lowest edge on the line x + y = 2 + o sqrt(2) in the plane z = 2 - 2t,
 * falls onto the corner (1,1,1) of A = [-1,1]^3 at rest.  For o > 0 the
 * edge passes beside the corner at the distance o and the rod's side, at 45
 * degrees, meets the corner at t = (1 + o) / 2: A's vertex X'Y'Z' on B's
 * face Y, normal (1, 1, sqrt 2) / 2.  For o <= 0 the edge lies on A's top
 * face over a length of -2 o from t = 1/2.  Where |o| is far below the
 * touching tolerance the edge flat on the face and the face's rectangle
 * meet only within rounding (apart by o): the face is taken, A's Z' under
 * the edge, named B's vertex X'YZ, normal +z, the point the midpoint of
 * their closest points, the corner.  Either way the contact lasts through t1
 * and the point is the corner.
 */
static void case_rod_beside_corner(void)
{
    static const double offsets[] = {-1e-13, -1e-15, 0.0, 1e-15, 1e-13, 1e-12, 1e-7, 1e-5};
    double c = sqrt(0.5);
    double r[3][3] = {{c, c * c, -c * c}, {-c, c * c, -c * c}, {0, c, c}};
    for (size_t k = 0; k < sizeof offsets / sizeof *offsets; k++) {
        double o = offsets[k];
        boxtoi_query q = falling_rod(r, 1.0 + o * c, 1.0 + o * c);
        int side = o > 1e-9;
        expect e = {.state = BOXTOI_HIT,
                    .toi = 0.5 + (o > 0.0 ? 0.5 * o : 0.0),
                    .exit_mode = EXIT_AFTER_T1,
                    .check_kind = side ? KIND_AND_POINT : KIND_ONLY,
                    .kind = side ? BOXTOI_VERTEX_FACE : BOXTOI_FACE_VERTEX,
                    .fa = side ? "X'Y'Z'" : "Z'",
                    .fb = side ? "Y" : "X'YZ",
                    .check_normal = 1,
                    .normal = {side ? 0.5 : 0.0, side ? 0.5 : 0.0, side ? c : 1.0},
                    .check_point = 1,
                    .point = {1, 1, 1},
                    .reference = 1};
        char name[96];
        snprintf(name, sizeof name, "rod falling with its edge %g beside a corner", o);
        boxtoi_result res = run_case(name, &q, &e);
        check_swap(name, &q, &res);
    }
}

/*
 * The rod of case_rod_beside_corner turned about its length only (lying
 * along x, an edge down), its end at x = 1 + o over the side X' of A =
 * [-1,1]^3, falls onto A's top face from 2 - 2t.  For o <= 0 its edge lies
 * on the face over a length of -o from t = 1/2 (face-vertex, A's Z' under
 * the edge's end XYZ, normal +z, the point the end); for o > 0 the boxes
 * are apart along x by o throughout: a miss, where o is beyond the touching
 * tolerance (1e-9 and 1e-7).  Below it (1e-15 to 1e-12) the edge flat on
 * the face and the face's rectangle meet within rounding, and the answer
 * is that of o = 0: nothing changes for a move far below the tolerance.
 */
static void case_rod_end_at_edge(void)
{
    static const double offsets[] = {0.0, -1e-13, 1e-15, 1e-13, 1e-12, 1e-9, 1e-7};
    double c = sqrt(0.5);
    double r[3][3] = {{1, 0, 0}, {0, c, -c}, {0, c, c}};
    boxtoi_result at0 = {0};
    for (size_t k = 0; k < sizeof offsets / sizeof *offsets; k++) {
        double o = offsets[k];
        boxtoi_query q = falling_rod(r, 2.0 + o, 0.0);
        char name[96];
        snprintf(name, sizeof name, "rod falling with its end %g past the edge of a face", o);
        if (o <= 0.0) {
            expect e = {.state = BOXTOI_HIT,
                        .toi = 0.5,
                        .exit_mode = EXIT_AFTER_T1,
                        .check_kind = KIND_AND_POINT,
                        .kind = BOXTOI_FACE_VERTEX,
                        .fa = "Z'",
                        .fb = "XYZ",
                        .check_normal = 1,
                        .normal = {0, 0, 1},
                        .check_point = 1,
                        .point = {1, 0, 1},
                        .reference = o < 0.0}; /* o = 0: touching, never overlapping */
            boxtoi_result res = run_case(name, &q, &e);
            check_swap(name, &q, &res);
            if (o == 0.0)
                at0 = res;
        } else if (o >= 1e-9) {
            expect e = {.state = BOXTOI_MISS, .reference = 1};
            run_case(name, &q, &e);
        } else {
            boxtoi_result res = boxtoi_solve(&q);
            int same = res.state == at0.state && res.kind == at0.kind &&
                       memcmp(&res.feature_a, &at0.feature_a, sizeof res.feature_a) == 0 &&
                       memcmp(&res.feature_b, &at0.feature_b, sizeof res.feature_b) == 0 &&
                       fabs(res.toi - at0.toi) <= 1e-9;
            for (int i = 0; i < 3; i++)
                same = same && fabs(res.normal[i] - at0.normal[i]) <= 1e-9 &&
                       fabs(res.point[i] - at0.point[i]) <= 1e-9;
            if (!ok(same, "%s: the answer of o = 0", name))
                diag("got %s %s at %.17g, normal (%.17g %.17g %.17g), point (%.17g %.17g "
                     "%.17g)", boxtoi_state_name(res.state), boxtoi_kind_name(res.kind),
                     res.toi, res.normal[0], res.normal[1], res.normal[2], res.point[0],
                     res.point[1], res.point[2]);
            check_swap(name, &q, &res);
        }
    }
}

/*
 * A face tilting down flat on a turned face, the edges in both faces
 * crossing.  A = [-1,1]^3 at rest, turned about z by (c, s); B = [-1,1]^3,
 * its centre at (x, y, 2 + 3 (1/2 - t)), tilted about its own y (or x) by
 * the quaternion (1, 0, (t - 1/2) / 2, 0) (or (1, (t - 1/2) / 2, 0, 0)): its
 * lowest point stays 2 (1/2 - t) or more above z = 1 before t = 1/2, and its
 * bottom face, the square of side 2 about (x, y), comes down flat on z = 1
 * at t = 1/2.  Edges of A and B in the two faces cross there, and their
 * pairs are level with the face along the same line: the face is named
 * (face-vertex, A's Z', B's vertex on the side of the point along each of
 * B's axes), normal +z, the point the centre of the part of B's face over
 * A's (the mean of its corners), not a crossing of the edges.  B goes on
 * sinking into A: the contact lasts through t1.
 *   1. (c, s) = (4/5, -3/5), tilt about y, (x, y) = (-1.4, 1.2): A's top
 *      face has corners (1.4, 0.2), (0.2, -1.4), (-1.4, -0.2), (-0.2, 1.4);
 *      the faces share the triangle (-0.4, 0.2) (B's corner), (-1.1, 0.2),
 *      (-0.4, 17/15) (A's side x' = -1, from (-1.4, -0.2) along (3, 4),
 *      across B's sides y = 0.2 and x = -0.4), centre (-19/30, 23/45).
 *   2. (c, s) = (4/5, 3/5), tilt about x, (x, y) = (-1.8, -0.6): A's corners
 *      (0.2, 1.4), (1.4, -0.2), (-1.4, 0.2), (-0.2, -1.4); the faces share
 *      the quadrilateral (-1.4, 0.2) (A's corner), (-17/15, 0.4) (A's side
 *      y' = 1 across B's side y = 0.4), (-0.8, 0.4) (B's corner), (-0.8,
 *      -0.6) (A's side x' = -1 across B's side x = -0.8), centre (-31/30,
 *      1/10).  One of its sides lies along a side of A's face.
 *   3. (c, s) = (4/5, -3/5), tilt about y, (x, y) = (0, 0.1): in A's frame
 *      B's face is the square turned by (4/5, 3/5) about (-0.06, 0.08), with
 *      corners (0.14, 1.48), (1.34, -0.12), (-0.26, -1.32), (-1.46, 0.28);
 *      the faces share the octagon (1/2, 1), (1, 1/3), (1, -3/8), (1/6, -1),
 *      (-1/2, -1), (-1, -1/3), (-1, 5/8), (-1/2, 1), centre (-1/24, 1/32),
 *      in the world (-7/480, 1/20).  Its side along A's side y' = 1 has its
 *      ends at x' = -1/2 and 1/2, either side of A's axis alike.
 *   4. 3 mirrored through z = 0 (`below`): B comes up flat to A's bottom
 *      face z = -1.  Neither box's named vertex lies over the other's face,
 *      so the face whose outward normal points up is named, B's top face
 *      (vertex-face, A's vertex XY'Z on B's Z'), normal -z, point (-7/480,
 *      1/20, -1).
 */
static void case_flat_face_over_crossing_edges(void)
{
    static const struct {
        double c, s;
        int tilt; /* 1: about B's x, 2: about its y */
        double x, y;
        int below; /* B comes up to A's bottom face */
        const char *vertex;
        double point[2];
    } cases[] = {
        {0.8, -0.6, 2, -1.4, 1.2, 0, "X'YZ", {-19.0 / 30.0, 23.0 / 45.0}},
        {0.8, 0.6, 1, -1.8, -0.6, 0, "X'Y'Z", {-31.0 / 30.0, 0.1}},
        {0.8, -0.6, 2, 0.0, 0.1, 0, "XYZ", {-7.0 / 480.0, 0.05}},
        {0.8, -0.6, 2, 0.0, 0.1, 1, "XY'Z", {-7.0 / 480.0, 0.05}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char name[96];
        snprintf(name, sizeof name, "face tilting %s flat with edges crossing in the faces, %zu",
                 cases[k].below ? "up" : "down", k + 1);
        boxtoi_motion ma, mb;
        double c = cases[k].c, s = cases[k].s;
        double turn[3][3] = {{c, -s, 0}, {s, c, 0}, {0, 0, 1}};
        motion_static(&ma, turn, 0, 0, 0);
        double q[2][4] = {{1, 0, 0, 0}, {0, 0, 0, 0}};
        q[0][cases[k].tilt] = -0.25;
        q[1][cases[k].tilt] = 0.5;
        int below = cases[k].below;
        double up = below ? -1.0 : 1.0;
        double p[2][3] = {{cases[k].x, cases[k].y, 3.5 * up}, {0, 0, -3 * up}};
        boxtoi_motion_rigid(&mb, (const double(*)[4])q, 1, (const double(*)[3])p, 1);
        boxtoi_query x = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
        expect e = {.state = BOXTOI_HIT,
                    .toi = 0.5,
                    .exit_mode = EXIT_AFTER_T1,
                    .check_kind = KIND_ONLY,
                    .kind = below ? BOXTOI_VERTEX_FACE : BOXTOI_FACE_VERTEX,
                    .fa = below ? cases[k].vertex : "Z'",
                    .fb = below ? "Z'" : cases[k].vertex,
                    .check_normal = 1,
                    .normal = {0, 0, up},
                    .check_point = 1,
                    .point = {cases[k].point[0], cases[k].point[1], up},
                    .reference = 1};
        boxtoi_result r = run_case(name, &x, &e);
        check_swap(name, &x, &r);
    }
}

/*
 * A box landing flat on A's top face, turned about the normal: A = [-1,1]^3
 * at rest, B = [-h,h]^3 turned about z by (c, s) (cos and sin), its centre
 * at (x, 0, 1 + h + 3 (1/2 - t)), so its bottom face lies on A's top face
 * at t = 1/2.  The point is the mean of the corners of the faces' overlap
 * (points on its sides and repeats left out), face-vertex, normal +z.
 * - Turned by a hair, s = 2e-10 (theta about 2e-10), h = 1, x = 1/2: B's
 *   corner XY'Z, (-1/2 - theta, 1 - theta), lies inside A's face and the
 *   other three outside it by theta or more.  B's sides y ~ +-1 cross A's
 *   sides y = +-1 near x = 1/2 at an angle theta: the outline passes there
 *   from B's side to A's, a point on a side, not a corner.  The corners:
 *   (-1/2 - theta, 1 - theta), (-1/2 + theta, -1) (B's side x ~ -1/2 on
 *   A's y = -1), (1, -1 + theta/2) (B's side y ~ -1 on A's x = 1) and
 *   (1, 1); their mean (1/4, -theta/8) is within 1e-10 of (1/4, 0).  With
 *   the two points on the sides taken as corners it would be x = 3/8.
 * - Turned by 45 degrees, h = 1/2, x = 0.9: B's face is a square of half
 *   diagonal d = 1/sqrt2 with corners (0.9 - d, 0) (XY'Z), (0.9, -d) (XYZ),
 *   (0.9 + d, 0) and (0.9, d) (X'Y'Z); A's side x = 1 cuts its sides at
 *   (1, +-(d - 0.1)).  The overlap's five corners: (0.9 - d, 0), (0.9, -d),
 *   (1, 0.1 - d), (1, d - 0.1), (0.9, d); mean (0.94 - d/5, 0).  Three of
 *   them join sides at +-45 degrees to A's axes, the corners that a test of
 *   collinearity exact only on sides along the axes would lose (the mean
 *   of the other two is (1, 0)).  The corner of B named is the one farthest
 *   into A's face.
 */
static void case_flat_face_turned(void)
{
    static const struct {
        double c, s, h, x;
        double point[2];
        const char *vertex;
        const char *name;
    } cases[] = {
        {1.0, 2e-10, 1.0, 0.5, {0.25, 0.0}, "XY'Z", "flat face turned by 2e-10 rad"},
        {ISQ2, ISQ2, 0.5, 0.9, {0.94 - ISQ2 / 5.0, 0.0}, "XY'Z",
         "flat face turned by 45 degrees over A's side"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        double id[3][3], c = cases[k].c, s = cases[k].s, h = cases[k].h;
        double turn[3][3] = {{c, -s, 0}, {s, c, 0}, {0, 0, 1}};
        tu_identity3(id);
        boxtoi_motion ma, mb;
        motion_static(&ma, id, 0, 0, 0);
        double p[2][3] = {{cases[k].x, 0, 2.5 + h}, {0, 0, -3}};
        tu_motion_rot_trans(&mb, turn, p, 1);
        boxtoi_query q = tu_query(cube(1), &ma, cube(h), &mb, 0.0, 1.0);
        expect e = {.state = BOXTOI_HIT,
                    .toi = 0.5,
                    .exit_mode = EXIT_AFTER_T1,
                    .check_kind = KIND_ONLY,
                    .kind = BOXTOI_FACE_VERTEX,
                    .fa = "Z'",
                    .fb = cases[k].vertex,
                    .check_normal = 1,
                    .normal = {0, 0, 1},
                    .check_point = 1,
                    .point = {cases[k].point[0], cases[k].point[1], 1},
                    .reference = 1};
        boxtoi_result r = run_case(cases[k].name, &q, &e);
        check_swap(cases[k].name, &q, &r);
    }
}

/*
 * Flat faces that overlap in part, named by the face over which the other
 * box's named vertex lies: A = [-1,1]^3 at rest; B of half sides (1/2, 6/5,
 * 1/4) turned a quarter about z (its x along world y, its y along world
 * -x), centre (0, 1, +-(1 + 1/4 + 3 (1/2 - t))), so that B's face meets
 * A's top face (above) or bottom face (below) at t = 1/2.  B's face spans
 * x in [-6/5, 6/5], y in [1/2, 3/2]; the faces share x in [-1, 1], y in
 * [1/2, 1], centre (0, 3/4).  The named vertices are those nearest that
 * centre, on the + side along a direction where it lies half way: A's
 * X'Y'Z' (above) or X'Y'Z (below), at (1, 1), lies over B's face; B's
 * vertex at (-6/5, 1/2) (its X side, and Y', along world -x) lies beyond
 * A's side x = -1.  So B's
 * face is named either way, A's vertex on it (vertex-face), whichever
 * face's outward normal points up (the rule when both or neither vertex
 * lies over the other face): above, that would be A's.
 */
static void case_flat_face_named_vertex_over(void)
{
    for (int below = 0; below < 2; below++) {
        const char *name = below ? "flat faces in part, B under A: B's face, A's vertex over it"
                                 : "flat faces in part, B on A: B's face, A's vertex over it";
        double id[3][3], quarter[3][3] = {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}};
        double up = below ? -1.0 : 1.0;
        tu_identity3(id);
        boxtoi_motion ma, mb;
        motion_static(&ma, id, 0, 0, 0);
        double p[2][3] = {{0, 1, up * (1.25 + 1.5)}, {0, 0, -3 * up}};
        tu_motion_rot_trans(&mb, quarter, p, 1);
        boxtoi_query q = tu_query(cube(1), &ma, tu_box(-0.5, -1.2, -0.25, 0.5, 1.2, 0.25), &mb,
                                  0.0, 1.0);
        expect e = {.state = BOXTOI_HIT,
                    .toi = 0.5,
                    .exit_mode = EXIT_AFTER_T1,
                    .check_kind = KIND_ONLY,
                    .kind = BOXTOI_VERTEX_FACE,
                    .fa = below ? "X'Y'Z" : "X'Y'Z'",
                    .fb = below ? "Z'" : "Z",
                    .check_normal = 1,
                    .normal = {0, 0, up},
                    .check_point = 1,
                    .point = {0, 0.75, up},
                    .reference = 1};
        boxtoi_result r = run_case(name, &q, &e);
        check_swap(name, &q, &r);
    }
}

/*
 * The corners of the overlap of two rectangles in the plane, found one by
 * one: A = [-ax, ax] x [-ay, ay]; B, of half sides bx, by about o, its
 * sides along u = (c, s) and v = (-s, c).  Corners of either inside the
 * other, and crossings of a side of A with a side of B.  For rectangles in
 * general position these are the overlap's corners, each once.  Returns
 * their number and their mean, or -1 when a corner of either lies within
 * `near` of a side line of the other (where corners merge).
 */
static int overlap_corners(double ax, double ay, double bx, double by, const double o[2],
                           double c, double s, double near, double mean[2])
{
    double u[2] = {c, s}, v[2] = {-s, c}, pts[24][2];
    int n = 0;
    for (int i = 0; i < 4; i++) {
        double sx = i & 1 ? 1.0 : -1.0, sy = i & 2 ? 1.0 : -1.0;
        /* A's corner in B's frame */
        double dx = sx * ax - o[0], dy = sy * ay - o[1];
        double du = fabs(dx * u[0] + dy * u[1]), dv = fabs(dx * v[0] + dy * v[1]);
        /* B's corner in A's frame */
        double px = o[0] + sx * bx * u[0] + sy * by * v[0],
               py = o[1] + sx * bx * u[1] + sy * by * v[1];
        if (fabs(du - bx) <= near || fabs(dv - by) <= near || fabs(fabs(px) - ax) <= near ||
            fabs(fabs(py) - ay) <= near)
            return -1;
        if (du <= bx && dv <= by) {
            pts[n][0] = sx * ax;
            pts[n++][1] = sy * ay;
        }
        if (fabs(px) <= ax && fabs(py) <= ay) {
            pts[n][0] = px;
            pts[n++][1] = py;
        }
    }
    /* B's sides: o + sb d + t e for t in [-half, half], sb = +-1 */
    for (int side = 0; side < 4; side++) {
        const double *d = side < 2 ? v : u, *e = side < 2 ? u : v;
        double off = (side & 1 ? 1.0 : -1.0) * (side < 2 ? by : bx), half = side < 2 ? bx : by;
        double p0[2] = {o[0] + off * d[0], o[1] + off * d[1]};
        for (int a = 0; a < 2; a++) {
            double ha = a == 0 ? ax : ay, hb = a == 0 ? ay : ax;
            for (int sa = -1; sa <= 1; sa += 2) {
                /* A's side: coordinate a equal to sa ha, the other within hb */
                double t = (sa * ha - p0[a]) / e[a], other = p0[1 - a] + t * e[1 - a];
                if (fabs(t) <= half && fabs(other) <= hb) {
                    pts[n][a] = sa * ha;
                    pts[n++][1 - a] = other;
                }
            }
        }
    }
    mean[0] = mean[1] = 0.0;
    for (int k = 0; k < n; k++) {
        mean[0] += pts[k][0] / n;
        mean[1] += pts[k][1] / n;
    }
    return n;
}

/*
 * Boxes landing flat, turned about the normal by any angle: in a random
 * frame, A at rest and B turned about the frame's z by theta (a rational
 * rotation, theta at least 1e-3 from a multiple of 90 degrees), coming down
 * along -z onto A's top face at t = 1/2, its face's centre off A's; every
 * other B spins about z as it comes, turned by theta at t = 1/2.  The
 * point must be the mean of the corners of the faces' overlap, found by
 * overlap_corners (corners inside the other face and crossings of sides),
 * in both orders, and swapping A and B must mirror the answer.  Extents are
 * multiples of 1/8; cases with a corner within 1e-6 of a side line of the
 * other face (where corners merge) are drawn again.
 */
static void case_flat_turned_random(void)
{
    unsigned long long rng = 0x5eedf1a7ull;
    int n = 300, bad = 0, bad_swap = 0;
    for (int k = 0; k < n; k++) {
        double r[3][3], hA[3], hB[3], o[2], e, c, s, mean[2];
        boxtoi_motion frame, local, mb;
        random_frame(&rng, &frame, r);
        do {
            for (int j = 0; j < 3; j++) {
                hA[j] = (1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
                hB[j] = (1 + (int)tu_rand(&rng, 0, 8)) / 8.0;
            }
            /* theta = 2 atan e in (-90, 90) degrees */
            e = tu_rand(&rng, 1.0 - SQ2, SQ2 - 1.0);
            c = (1 - e * e) / (1 + e * e);
            s = 2 * e / (1 + e * e);
            double reach = hypot(hB[0], hB[1]);
            o[0] = tu_rand(&rng, -(hA[0] + reach), hA[0] + reach);
            o[1] = tu_rand(&rng, -(hA[1] + reach), hA[1] + reach);
        } while (fabs(s) < 1e-3 || fabs(c) < 1e-3 ||
                 overlap_corners(hA[0], hA[1], hB[0], hB[1], o, c, s, 1e-6, mean) < 3);
        /* every other case spins about z as it comes down: q(t) = (1, 0, 0,
           e + spin (t - 1/2)), a rigid motion of degree 2 */
        double spin = k % 2 ? tu_rand(&rng, -2, 2) : 0.0;
        double q[2][4] = {{1, 0, 0, e - 0.5 * spin}, {0, 0, 0, spin}};
        double p[2][3] = {{o[0], o[1], hA[2] + hB[2] + 1.5}, {0, 0, -3}};
        boxtoi_motion_rigid(&local, (const double(*)[4])q, spin != 0.0,
                            (const double(*)[3])p, 1);
        boxtoi_motion_multiply(&mb, &frame, &local);
        double want_f[3] = {mean[0], mean[1], hA[2]}, want[3], w = frame.c[0][3][3];
        tu_mul3v((const double(*)[3])r, want_f, want);
        for (int j = 0; j < 3; j++)
            want[j] /= w;
        boxtoi_box a = tu_box(-hA[0], -hA[1], -hA[2], hA[0], hA[1], hA[2]);
        boxtoi_box b = tu_box(-hB[0], -hB[1], -hB[2], hB[0], hB[1], hB[2]);
        boxtoi_query x = tu_query(a, &frame, b, &mb, 0, 1), y = tu_swapped(&x);
        boxtoi_result res[2] = {boxtoi_solve(&x), boxtoi_solve(&y)};
        for (int swap = 0; swap < 2; swap++) {
            double err = 0;
            for (int j = 0; j < 3; j++)
                err = fmax(err, fabs(res[swap].point[j] - want[j]));
            if (res[swap].state == BOXTOI_HIT && fabs(res[swap].toi - 0.5) <= 1e-9 &&
                err <= 4e-9)
                continue;
            if (bad++ < 4)
                diag("case %d%s: %s toi %.17g, point (%.17g %.17g %.17g), %.3g from the "
                     "mean of the overlap's corners", k, swap ? ", swapped" : "",
                     boxtoi_state_name(res[swap].state), res[swap].toi,
                     res[swap].point[0], res[swap].point[1], res[swap].point[2], err);
        }
        if (!swap_mirrors(&x, &res[0], &res[1]) && bad_swap++ < 4)
            diag_mirror(k, "", &res[0], &res[1]);
    }
    is_int(bad, 0, "boxes landing flat turned about the normal: the point is the mean of "
           "the corners of the faces' overlap, in both orders (%d cases)", n);
    is_int(bad_swap, 0, "boxes landing flat turned about the normal: swapping A and B swaps "
           "the features and negates the normal (%d cases)", n);
}

/*
 * A plate's corner meeting a box's edge off the edge's middle: A = [-1,1]^3
 * at rest; B the square plate [-h,h]^2 x {0}, standing in the vertical
 * plane through A's edge X'-Y' (the line x = y = 1) and turned in it so
 * that its corner X'Y' (local (h, h, 0)) leads along -(1, 1, 0): local x
 * goes to (-1/2, -1/2, 1/sqrt2), y to (-1/2, -1/2, -1/sqrt2), z to
 * (1, -1, 0)/sqrt2, so the corner lies at the centre - h (1, 1, 0).  The
 * centre, (1 + h, 1 + h, 1/2) + 3 (1/2 - t) (1, 1, 0), brings the corner
 * onto the edge at (1, 1, 1/2), at t = 1/2; the rest of the plate lies
 * beyond the plane x + y = 2 that touches A along that edge.  Edge on
 * edge: A's X'-Y' and B's X'-Y' (of length 0, the plate's thickness), the
 * normal the plane's, (1, 1, 0)/sqrt2, the point the corner.  The plate's
 * size changes which box the solver takes first: with h = 1 the edge of
 * length 0 is the first edge of the pair, with h = 2 the second, whose
 * point the first edge's nearest point must be (not that edge's middle,
 * (1, 1, 0), which lies off the plate).
 */
static void case_plate_corner_on_edge(void)
{
    static const double sizes[] = {1.0, 2.0};
    double turn[3][3] = {{-0.5, -0.5, ISQ2}, {-0.5, -0.5, -ISQ2}, {ISQ2, -ISQ2, 0}}, id[3][3];
    tu_identity3(id);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        char name[80];
        double h = sizes[k];
        snprintf(name, sizeof name, "a plate's corner on an edge off its middle, h = %g", h);
        boxtoi_motion ma, mb;
        motion_static(&ma, id, 0, 0, 0);
        double p[2][3] = {{2.5 + h, 2.5 + h, 0.5}, {-3, -3, 0}};
        tu_motion_rot_trans(&mb, turn, p, 1);
        boxtoi_query q = tu_query(cube(1), &ma, tu_box(-h, -h, 0, h, h, 0), &mb, 0.0, 1.0);
        expect e = {.state = BOXTOI_HIT,
                    .toi = 0.5,
                    .exit_mode = EXIT_AFTER_T1,
                    .check_kind = KIND_AND_POINT,
                    .kind = BOXTOI_EDGE_EDGE,
                    .fa = "X'-Y'",
                    .fb = "X'-Y'",
                    .check_normal = 1,
                    .normal = {ISQ2, ISQ2, 0},
                    .check_point = 1,
                    .point = {1, 1, 0.5},
                    .reference = 1};
        boxtoi_result r = run_case(name, &q, &e);
        check_swap(name, &q, &r);
    }
}

/*
 * Corners touching at t0 and coming on unequally along the three axes:
 * A = [-1,1]^3 at rest, B = [-1,1]^3 at (2, 2, 2) - v t, its corner XYZ on
 * A's corner (1, 1, 1) at t = 0.  A's faces X', Y' and Z' (and B's) all
 * separate by 0 there, a tie, which for an overlap at t0 the axis that
 * separates most just after t0 decides: along axis i the boxes then
 * overlap by v_i t, least along the slowest axis.  So v = (1, 1/2, 1/5)
 * names A's face Z', and v = (1/5, 1, 1/2) its face X' (just before t0,
 * read backwards, the fastest axis would separate most).  B keeps going
 * in: the contact lasts through t1.  The same again with both motions
 * written times 1 + 100 t^2 (the same maps), whose w has the Bernstein
 * coefficients 1, 1 and 101 on [0, 1], uneven: solved in pieces, where
 * the first piece's overlap at its start is one at t0, read after it, and
 * not a contact arrived at from an earlier piece, read before.
 */
static void case_corner_touching_at_t0(void)
{
    static const struct corner_case {
        double v[3];
        const char *face;
        double normal[3];
    } cases[] = {
        {{1.0, 0.5, 0.2}, "Z'", {0, 0, 1}},
        {{0.2, 1.0, 0.5}, "X'", {1, 0, 0}},
    };
    double id[3][3];
    tu_identity3(id);
    const size_t n = sizeof cases / sizeof *cases;
    for (size_t k = 0; k < 2 * n; k++) {
        char name[120];
        const struct corner_case *c = &cases[k % n];
        const double *v = c->v;
        int factor = k >= n; /* both motions times 1 + 100 t^2: solved in pieces */
        snprintf(name, sizeof name, "corners touching at t0, closing at (%g, %g, %g)%s", v[0],
                 v[1], v[2], factor ? ", motions times 1 + 100 t^2" : "");
        boxtoi_motion ma, mb, w;
        motion_static(&ma, id, 0, 0, 0);
        double p[2][3] = {{2, 2, 2}, {-v[0], -v[1], -v[2]}};
        tu_motion_rot_trans(&mb, id, p, 1);
        if (factor) {
            boxtoi_motion plain_a = ma, plain_b = mb;
            tu_motion_zero(&w, 2);
            for (int i = 0; i < 4; i++)
                w.c[0][i][i] = 1.0, w.c[2][i][i] = 100.0;
            if (boxtoi_motion_multiply(&ma, &plain_a, &w) ||
                boxtoi_motion_multiply(&mb, &plain_b, &w))
                bail("%s: no product", name);
        }
        boxtoi_query q = tu_query(cube(1), &ma, cube(1), &mb, 0.0, 1.0);
        expect e = {.state = BOXTOI_OVERLAP,
                    .toi = 0.0,
                    .exit_mode = EXIT_AFTER_T1,
                    .check_kind = KIND_AND_POINT,
                    .kind = BOXTOI_FACE_VERTEX,
                    .fa = c->face,
                    .fb = "XYZ",
                    .check_normal = 1,
                    .normal = {c->normal[0], c->normal[1], c->normal[2]},
                    .check_point = 1,
                    .point = {1, 1, 1},
                    .reference = 1};
        boxtoi_result r = run_case(name, &q, &e);
        check_swap(name, &q, &r);
    }
}

/*
 * Overlapping at t0 off the middle of a face: A = [-1,1]^3, B = [-1/2,1/2]^3
 * turned 45 degrees about z, its centre at (1/2, 1/2, 6/5), both at rest.
 * The boxes cross least along z, by 3/10: A's face Z' against B's face Z.
 * The point is the mean of the corners of the boxes' common part, a prism
 * from z = 0.7 to 1 over B's square turned 45 degrees, corners
 * (1/2 +- d, 1/2) and (1/2, 1/2 +- d) with d = 1/sqrt2, which A's sides
 * x = 1 and y = 1 cut to the hexagon (1/2 - d, 1/2), (1/2, 1/2 - d),
 * (1, 1 - d), (1, d), (d, 1), (1 - d, 1): (4 - d)/6 in x and y, and 0.85.
 * B's vertex is the corner of its face Z nearest that point: along B's x
 * the point is 0.069 out, and along its y half way, which goes to the +
 * side: X'Y'Z.
 */
static void case_overlap_turned_off_centre(void)
{
    const char *name = "turned cube overlapping a face off its middle at t0";
    double id[3][3], rz[3][3], d = sqrt(0.5), m = (4.0 - d) / 6.0;
    tu_identity3(id);
    tu_rot_z(rz, M_PI / 4);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    motion_static(&mb, rz, 0.5, 0.5, 1.2);
    boxtoi_query q = tu_query(cube(1), &ma, cube(0.5), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_OVERLAP,
                .toi = 0.0,
                .exit_mode = EXIT_AFTER_T1,
                .check_kind = KIND_ONLY,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "Z'",
                .fb = "X'Y'Z",
                .check_normal = 1,
                .normal = {0, 0, 1},
                .check_point = 1,
                .point = {m, m, 0.85},
                .reference = 1,
                .check_depth = 1,
                .depth = 0.3};
    boxtoi_result r = run_case(name, &q, &e);
    check_swap(name, &q, &r);
}

/*
 * Boxes overlapping at t0 with faces in common (B turned by quarter turns,
 * every number dyadic, so each face lies exactly in a plane of the
 * other's): the part they share is a box, and the point named is its
 * centre: the mean of the vertices of that part, each once, though most are
 * found several times (a corner of one box on an edge or in a face of the
 * other is also a crossing of that edge or of its own edges with a face).
 * Counted as often as found, the coincident cubes got (-0.2, -0.2, -0.2)
 * and the box in the corner (0.571, 0, -0.714).
 */
static void case_overlap_faces_in_common(void)
{
    static const struct {
        const char *name;
        double half[3], turn, c[3];
    } cs[] = {
        {"coincident cubes", {1, 1, 1}, 0, {0, 0, 0}},
        {"cubes half over each other", {1, 1, 1}, 0, {1, 0, 0}},
        {"cubes a quarter over each other", {1, 1, 1}, 0, {1, 1, 0}},
        {"box in a corner, two faces in common", {0.5, 0.5, 0.5}, 0, {0.5, 0, -0.5}},
        {"turned slab through the top face", {0.25, 0.75, 0.5}, 1, {0, 0.5, 0.5}},
        {"turned slab in the middle, top face in common", {0.25, 2, 0.25}, 2, {0, 0, 0.75}},
    };
    double id[3][3];
    tu_identity3(id);
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        /* B turned by cs[i].turn quarter turns about z: exact entries */
        double r[3][3] = {{0}}, ext[3];
        int qt = (int)cs[i].turn;
        r[2][2] = 1.0;
        r[0][0] = r[1][1] = qt % 2 ? 0.0 : qt == 2 ? -1.0 : 1.0;
        r[1][0] = qt % 2 ? 1.0 : 0.0;
        r[0][1] = -r[1][0];
        for (int k = 0; k < 3; k++)
            ext[k] = fabs(r[k][0]) * cs[i].half[0] + fabs(r[k][1]) * cs[i].half[1] +
                     fabs(r[k][2]) * cs[i].half[2];
        boxtoi_motion ma, mb;
        motion_static(&ma, id, 0, 0, 0);
        motion_static(&mb, r, cs[i].c[0], cs[i].c[1], cs[i].c[2]);
        boxtoi_box b = tu_box(-cs[i].half[0], -cs[i].half[1], -cs[i].half[2],
                              cs[i].half[0], cs[i].half[1], cs[i].half[2]);
        boxtoi_query q = tu_query(cube(1), &ma, b, &mb, 0.0, 1.0);
        /* the shared box: A's [-1, 1] and B's world extent, per axis */
        expect e = {.state = BOXTOI_OVERLAP, .toi = 0.0, .exit_mode = EXIT_AFTER_T1,
                    .check_point = 1, .reference = 1};
        for (int k = 0; k < 3; k++) {
            double lo = fmax(-1.0, cs[i].c[k] - ext[k]), hi = fmin(1.0, cs[i].c[k] + ext[k]);
            e.point[k] = 0.5 * (lo + hi);
        }
        char name[96];
        snprintf(name, sizeof name, "overlap, faces in common: %s", cs[i].name);
        boxtoi_result res = run_case(name, &q, &e);
        check_swap(name, &q, &res);
    }
}

/*
 * The point of an overlap deeper than the face preference, checked against
 * the corners of the shared polytope found another way: every three of the
 * twelve face planes (in world coordinates, from the boxes' turned axes)
 * meeting in a point that lies in both boxes, within 1e-9 of the size,
 * those within 1e-9 of one another counted once.  Their mean is the point
 * docs/method.md names.  Boxes turned at random, off their local origin,
 * their centres within 0.6 of each other; pairs overlapping by less than
 * 1e-6 are skipped.
 */
static void case_overlap_point_random(void)
{
    unsigned long long rng = 0x0c0417;
    int checked = 0, bad = 0, shown = 0;
    double worst = 0.0;
    for (int i = 0; i < 400; i++) {
        boxtoi_box box[2];
        boxtoi_motion m[2];
        double ax[2][3][3], c[2][3];
        for (int j = 0; j < 2; j++) {
            double qt[4], r[3][3];
            tu_rand_unit_quaternion(&rng, qt);
            for (int k = 0; k < 3; k++) {
                double e[3] = {k == 0, k == 1, k == 2};
                tu_quat_rotate(qt, e, ax[j][k]);
                c[j][k] = j ? tu_rand(&rng, -0.6, 0.6) : 0.0;
                double mid = tu_rand(&rng, -0.25, 0.25), h = tu_rand(&rng, 0.2, 0.8);
                box[j].lo[k] = mid - h;
                box[j].hi[k] = mid + h;
            }
            for (int row = 0; row < 3; row++)
                for (int k = 0; k < 3; k++)
                    r[row][k] = ax[j][k][row];
            motion_static(&m[j], r, c[j][0], c[j][1], c[j][2]);
        }
        boxtoi_query q = tu_query(box[0], &m[0], box[1], &m[1], 0.0, 1.0);
        boxtoi_result res = boxtoi_solve(&q);
        if (res.state != BOXTOI_OVERLAP || !(res.depth > 1e-6))
            continue;
        /* plane p of box j: n . x = d, n = axis k, k = p / 2, lo side first */
        double n[12][3], d[12], eps = 1e-9 * qsize(&q), sum[3] = {0, 0, 0}, v[20][3];
        for (int j = 0; j < 2; j++)
            for (int p = 0; p < 6; p++) {
                int k = p / 2;
                memcpy(n[6 * j + p], ax[j][k], sizeof n[0]);
                d[6 * j + p] = tu_dot(ax[j][k], c[j]) + (p % 2 ? box[j].hi[k] : box[j].lo[k]);
            }
        int nv = 0, over = 0;
        for (int a = 0; a < 12; a++)
            for (int b = a + 1; b < 12; b++)
                for (int e = b + 1; e < 12; e++) {
                    double bc[3], ca[3], ab[3];
                    tu_cross(n[b], n[e], bc);
                    tu_cross(n[e], n[a], ca);
                    tu_cross(n[a], n[b], ab);
                    double det = tu_dot(n[a], bc);
                    if (fabs(det) < 1e-9)
                        continue;
                    double x[3];
                    int in = 1;
                    for (int r = 0; r < 3; r++)
                        x[r] = (d[a] * bc[r] + d[b] * ca[r] + d[e] * ab[r]) / det;
                    for (int j = 0; j < 2 && in; j++)
                        for (int k = 0; k < 3 && in; k++) {
                            double y = tu_dot(ax[j][k], x) - tu_dot(ax[j][k], c[j]);
                            in = y >= box[j].lo[k] - eps && y <= box[j].hi[k] + eps;
                        }
                    for (int w = 0; w < nv && in; w++)
                        if (fabs(v[w][0] - x[0]) <= eps && fabs(v[w][1] - x[1]) <= eps &&
                            fabs(v[w][2] - x[2]) <= eps)
                            in = 0;
                    if (!in)
                        continue;
                    if (nv == 20) {
                        over = 1;
                        continue;
                    }
                    memcpy(v[nv++], x, sizeof x);
                    for (int r = 0; r < 3; r++)
                        sum[r] += x[r];
                }
        checked++;
        double err = 0.0;
        for (int r = 0; r < 3; r++)
            err = fmax(err, nv ? fabs(res.point[r] - sum[r] / nv) : INFINITY);
        worst = fmax(worst, err);
        if (over || !(err <= 1e-9 * qsize(&q))) {
            bad++;
            if (shown++ < 3)
                diag("pair %d: %d corners%s, point (%.17g %.17g %.17g), their mean "
                     "(%.17g %.17g %.17g)", i, nv, over ? " (more than 20)" : "",
                     res.point[0], res.point[1], res.point[2], sum[0] / nv, sum[1] / nv,
                     sum[2] / nv);
        }
    }
    ok(checked >= 100 && bad == 0,
       "overlaps of turned boxes: the point is the mean of the shared polytope's corners "
       "found from the face planes, %d of %d differ (largest difference %.3g)",
       bad, checked, worst);
}

static void case_shear(void)
{
    /* A = [-1,1]^3 at rest.  B = [0,1]^3 under the shearing affine motion
     * x' = 1.7 + x - 0.45 t y - 0.8 t z, y' = y - 0.3, z' = z - 0.6 (a
     * parallelepiped for t > 0).  Over B, x' is smallest at the single
     * vertex x = 0, y = 1, z = 1 ("XY'Z'"): 1.7 - 1.25 t.  It reaches A's
     * face X' at t = 0.7/1.25 = 0.56, at (1, 0.7, 0.4), inside the face;
     * before, B lies in x' > 1.  Face-vertex, normal +x.  x' keeps
     * decreasing to 0.45 at t = 1: exit after t1. */
    double id[3][3];
    tu_identity3(id);
    boxtoi_motion ma, mb;
    motion_static(&ma, id, 0, 0, 0);
    tu_motion_zero(&mb, 1);
    mb.c[0][0][0] = mb.c[0][1][1] = mb.c[0][2][2] = mb.c[0][3][3] = 1.0;
    mb.c[1][0][1] = -0.45;
    mb.c[1][0][2] = -0.8;
    mb.c[0][0][3] = 1.7;
    mb.c[0][1][3] = -0.3;
    mb.c[0][2][3] = -0.6;
    boxtoi_query q = tu_query(cube(1), &ma, tu_box(0, 0, 0, 1, 1, 1), &mb, 0.0, 1.0);
    expect e = {.state = BOXTOI_HIT,
                .toi = 0.56,
                .exit_mode = EXIT_AFTER_T1,
                .check_kind = KIND_AND_POINT,
                .kind = BOXTOI_FACE_VERTEX,
                .fa = "X'",
                .fb = "XY'Z'",
                .check_normal = 1,
                .normal = {1, 0, 0},
                .check_point = 1,
                .point = {1.0, 0.7, 0.4},
                .reference = 1};
    boxtoi_result res = run_case("shearing motion", &q, &e);
    check_swap("shearing motion", &q, &res);

    /* The same with the whole motion of B written with w = 2 (every entry
     * of B's matrix doubled, rows 0-2 and w): the same world motion. */
    for (int k = 0; k <= 1; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                mb.c[k][i][j] *= 2.0;
    q.motion_b = mb;
    run_case("shearing motion, homogeneous w = 2", &q, &e);
}

/*
 * Lengths given at another scale than the world's: A = [-1,1]^3 with the
 * affine motion s (x - 3 + 4t, y, z) (w = 1), as a box given in millimetres
 * moving in metres is for s = 1e-3; B = [1.5, 2] x [0, 1] x [0, 1] times s,
 * at rest.  A's face X' reaches B's face X at t = 0.875 whatever s, face on
 * face (named as A's face X' on a corner of B, or a corner of A on B's
 * face X): the normal is +x, the point the middle of the faces' overlap,
 * s (1.5, 0.5, 0.5).
 * At t = 0 the boxes are apart by 3.5 s.  The solver's tolerances were
 * measured in the local lengths (1e-12 of A's local diagonal, 3.5e-12), so
 * at s = 1e-15 and below it took the boxes for touching at t = 0, and at
 * s = 1e-12 it named A's face Z' with its normal +z.
 */
static void case_scaled_motion(void)
{
    static const double scales[] = {1e-3, 1e-6, 1e-9, 1e-12, 1e-15, 1e-30, 1e-60, 1e-90, 1e3};
    char name[64];
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        double s = scales[i];
        boxtoi_motion ma, mb;
        tu_motion_zero(&ma, 1);
        ma.c[0][0][0] = ma.c[0][1][1] = ma.c[0][2][2] = s;
        ma.c[0][0][3] = -3.0 * s;
        ma.c[1][0][3] = 4.0 * s;
        ma.c[0][3][3] = 1.0;
        tu_motion_zero(&mb, 0);
        mb.c[0][0][0] = mb.c[0][1][1] = mb.c[0][2][2] = mb.c[0][3][3] = 1.0;
        boxtoi_query q = tu_query(cube(1), &ma, tu_box(1.5 * s, 0, 0, 2 * s, s, s), &mb,
                                  0.0, 1.0);
        expect e = {.state = BOXTOI_HIT,
                    .toi = 0.875,
                    .exit_mode = EXIT_AFTER_T1,
                    .check_normal = 1,
                    .normal = {1, 0, 0}};
        snprintf(name, sizeof name, "lengths at scale %g", s);
        boxtoi_result r = run_case(name, &q, &e);
        double want[3] = {1.5 * s, 0.5 * s, 0.5 * s}, far = 0.0;
        for (int k = 0; k < 3; k++)
            far = fmax(far, fabs(r.point[k] - want[k]));
        if (!ok(far <= 1e-9 * s, "%s: point s (1.5, 0.5, 0.5)", name))
            diag("got (%.17g %.17g %.17g)", r.point[0], r.point[1], r.point[2]);
        check_swap(name, &q, &r);
    }
}

/*
 * A plate whose frame is nearly flat: B = [-1, 1] x [-L, L]^2 under the
 * constant 3x3 part diag(e, 1, 1), e = 2^-896 (just above the determinant
 * floor, 2^-900 of the entries' cube), is the plate |x| <= e, |y|, |z| <= L,
 * with L = 1e38.  A is the box [-L, 5L] x [-L/2, L/2]^2 turned about x by
 * the angle of cosine 0.8 and sine 0.6, its centre at (0, y, 0).  A world
 * point's coordinate along B's x is its distance from the plate over e:
 * beyond 1.8e308 e (3.4e38) it is not a double, so A's corners at x = 5L
 * have no coordinates in B's frame while those at x = -L have.
 * - y = 0, at rest: A crosses the plate, its face X 1e38 behind it and its
 *   face X' 5e38 beyond; the least penetration is along x, depth L, the
 *   normal from A to B -x (B lies on A's side x = -L), through B's face X'.
 *   The overlap is the plate's part inside A (|y|, |z| within A's turned
 *   section): the point lies in both boxes.
 * - y = 2.5L - 2Lt: A's lowest edge (along x, at y = -0.7L, z = 0.1L from
 *   its centre) reaches B's face Y' (y = L) at t = 0.4, a vertex of A on
 *   B's face along -y; A's corners at x = 5L, 5L from the plate, again
 *   have no coordinates in B's frame.  A runs on through B past t1 (its
 *   top leaves B's face Y at t = 2.1).  The point is checked on A's edge
 *   (y = L, z = 0.1L); where along the edge it lies is not checked: the
 *   solver gives the middle of A's edge (x = 2L), off the plate, when the
 *   edge's far corner has no coordinate in B's frame.
 */
static double thin_plate_excess(const boxtoi_query *q, double t, const double p[3])
{
    double ea[4][4], la[3], lb[3];
    boxtoi_motion_eval(&q->motion_a, t, ea);
    if (!tu_to_local_at(ea, p, la))
        return INFINITY;
    /* B's frame is diag(e, 1, 1): its x read in the world */
    lb[0] = fabs(p[0]) <= q->motion_b.c[0][0][0] ? 0.0 : fabs(p[0]) - q->motion_b.c[0][0][0];
    lb[1] = p[1];
    lb[2] = p[2];
    boxtoi_box bw = q->b;
    bw.lo[0] = bw.hi[0] = 0.0;
    return fmax(tu_box_excess(&q->a, la), tu_box_excess(&bw, lb));
}

static void case_thin_plate_far_corners(void)
{
    const double L = 1e38, e = 0x1p-896;
    boxtoi_motion ma, mb;
    tu_motion_zero(&mb, 0);
    mb.c[0][0][0] = e;
    mb.c[0][1][1] = mb.c[0][2][2] = mb.c[0][3][3] = 1.0;
    double turn[3][3] = {{1, 0, 0}, {0, 0.8, -0.6}, {0, 0.6, 0.8}};
    motion_static(&ma, turn, 0, 0, 0);
    boxtoi_query q = tu_query(tu_box(-L, -L / 2, -L / 2, 5 * L, L / 2, L / 2), &ma,
                              tu_box(-1, -L, -L, 1, L, L), &mb, 0.0, 1.0);
    double tol = 1e-9 * qsize(&q);
    expect e0 = {.state = BOXTOI_OVERLAP,
                 .exit_mode = EXIT_AFTER_T1,
                 .fb = "X'",
                 .check_normal = 1,
                 .normal = {-1, 0, 0},
                 .check_depth = 1,
                 .depth = L};
    const char *name = "A across a plate of frame 2^-896 thin, corners far beyond it";
    boxtoi_result r = run_case(name, &q, &e0);
    double out = thin_plate_excess(&q, 0.0, r.point);
    if (!ok(out <= tol, "%s: the point lies in both boxes", name))
        diag("point (%.17g %.17g %.17g), outside by %.3g", r.point[0], r.point[1], r.point[2],
             out);
    check_swap(name, &q, &r);

    ma.degree = 1;
    ma.c[0][1][3] = 2.5 * L;
    ma.c[1][1][3] = -2.0 * L;
    q.motion_a = ma;
    name = "A's edge down onto a plate of frame 2^-896 thin, its corners far beyond it";
    r = boxtoi_solve(&q);
    is_int(r.state, BOXTOI_HIT, "%s: state hit", name);
    is_double(r.toi, 0.4, 1e-9, "%s: toi 0.4", name);
    ok(r.exit_after_t1 == 1 && isnan(r.exit), "%s: contact lasts through t1", name);
    ok(fabs(r.depth) <= tol, "%s: depth about 0 (%.3g)", name, r.depth);
    is_string(boxtoi_kind_name(r.kind), "vertex-face", "%s: kind", name);
    char fb[BOXTOI_FEATURE_NAME_MAX];
    is_string(boxtoi_feature_name(r.feature_b, fb, sizeof fb), "Y'", "%s: B's face Y'", name);
    ok(fabs(r.normal[0]) <= 1e-9 && fabs(r.normal[1] + 1.0) <= 1e-9 &&
           fabs(r.normal[2]) <= 1e-9,
       "%s: normal (0 -1 0)", name);
    if (!ok(fabs(r.point[1] - L) <= tol && fabs(r.point[2] - 0.1 * L) <= tol,
            "%s: the point on A's edge, y = L, z = 0.1L", name))
        diag("point (%.17g %.17g %.17g)", r.point[0], r.point[1], r.point[2]);
    check_swap(name, &q, &r);
}

/*
 * A w that falls far below its terms: the unit cube under M(t) = [I 0; 0
 * w(t)] is the cube of half side 1 / (2 w), met by a point at rest at x = X
 * when w = 1 / (2 X).  With w = t^2 over [-3, -3e-11] (Bernstein
 * coefficients 9, 9e-11 and 9e-22, the last a sum of terms near 9) and
 * with w = (1 - t)^2 over [0, 1 - 3e-11] (from t0 = 0, the point's motion
 * of the same degree, so that the pair is converted two at a time), w at
 * t1 is 9e-22: the cube's half side there is 5.6e20.  Converted in
 * doubles, w's last coefficient was rounding alone (1.8e-15, or not
 * positive): the cube was bounded 2000 times too small, a point 6e18 deep
 * at t1 was missed, or the motion was refused as reaching w = 0.
 */
static void case_w_far_below_terms(void)
{
    static const double xs[] = {1e17, 4e20, 5.5e20};
    for (int mirror = 0; mirror < 2; mirror++) {
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            double x = xs[i], t0 = mirror ? 0.0 : -3.0, t1 = mirror ? 1.0 - 3e-11 : -3e-11;
            /* w = 1 / (2 x): t = -sqrt(1 / (2 x)), or 1 - sqrt(1 / (2 x)) */
            double toi = mirror ? 1.0 - sqrt(0.5 / x) : -sqrt(0.5 / x);
            boxtoi_motion ma, mb;
            tu_motion_zero(&ma, 2);
            ma.c[0][0][0] = ma.c[0][1][1] = ma.c[0][2][2] = 1.0;
            ma.c[0][3][3] = mirror ? 1.0 : 0.0;
            ma.c[1][3][3] = mirror ? -2.0 : 0.0;
            ma.c[2][3][3] = 1.0;
            tu_motion_zero(&mb, mirror ? 2 : 0);
            mb.c[0][0][0] = mb.c[0][1][1] = mb.c[0][2][2] = mb.c[0][3][3] = 1.0;
            mb.c[0][0][3] = x;
            boxtoi_box point = tu_box(0, 0, 0, 0, 0, 0);
            boxtoi_query q = tu_query(cube(0.5), &ma, point, &mb, t0, t1);
            char name[96];
            snprintf(name, sizeof name, "w = %s far below its terms, point at %g",
                     mirror ? "(1 - t)^2" : "t^2", x);
            boxtoi_result r = boxtoi_solve(&q);
            if (!is_int(r.state, BOXTOI_HIT, "%s: hit", name))
                diag("got %s (%s)", boxtoi_state_name(r.state),
                     boxtoi_reason_message(r.reason));
            is_double(r.toi, toi, 1e-9 * (t1 - t0), "%s: toi %.17g", name, toi);
            ok(r.exit_after_t1 == 1, "%s: contact lasts through t1", name);
            ok(r.normal[0] == 1.0 || fabs(r.normal[0] - 1.0) <= 1e-9,
               "%s: normal (1, 0, 0) (%.17g)", name, r.normal[0]);
            ok(fabs(r.point[0] - x) <= 1e-9 * x, "%s: point at x (%.17g)", name, r.point[0]);
            check_swap(name, &q, &r);
            /* the cube at t1 inside its swept bounds */
            double lo[3], hi[3], w1 = mirror ? (1.0 - t1) * (1.0 - t1) : t1 * t1;
            boxtoi_reason why = boxtoi_swept_aabb(&q.a, &q.motion_a, t0, t1, lo, hi);
            if (!ok(why == BOXTOI_REASON_NONE && hi[0] >= 0.5 / w1 * (1.0 - 1e-9) &&
                        lo[0] <= -0.5 / w1 * (1.0 - 1e-9),
                    "%s: swept bounds hold the cube at t1 (half side %.6g)", name, 0.5 / w1))
                diag("reason %d, x in [%.17g, %.17g]", (int)why, lo[0], hi[0]);
        }
    }
}

/*
 * The same where the translation's degree is above that of w and the 3x3
 * part: from t0 = 0 the shape is converted apart at its own degree, and w
 * must be converted there as it is everywhere else.  The cube under w =
 * t^2 + c1 t + c0, whose near-double root near 3.6e-4 puts w's least at
 * 1.77e-17, the translation given a degree 3 term of 1e-30 along y (which
 * moves it by nothing), against a point on the x axis: one point at x = X
 * is reached where w = 1 / (2 X) (w's smaller root there, in long double:
 * the discriminant cancels to 1e-13 of its terms), 2.8e10 deep at w's
 * least; another, beyond the cube's reach, stays 5e10 away (its w reaches
 * down only to 1.5e-18, where the cube's half side is 3.3e17).  Converted
 * in doubles there, w's last coefficient on the first piece was rounding
 * alone: the first point was missed and the second hit.
 */
static void case_w_far_below_terms_trimmed(void)
{
    static const struct {
        double t1, c0, c1, x;
        int hit;
    } cs[] = {
        {0x1.75c07a42eb81p+0, 0x1.10d53547ce072p-23, -0x1.75c076afbad97p-11,
         0x1.90e6275194e29p+54, 1},
        {0x1.ccccccccccccdp-1, 0x1.9eb851ebaa038p-25, -0x1.ccccccccccccdp-12,
         0x1.bc168dc3e93eep+58, 0},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        boxtoi_motion ma, mb;
        tu_motion_zero(&ma, 3);
        ma.c[0][0][0] = ma.c[0][1][1] = ma.c[0][2][2] = 1.0;
        ma.c[0][3][3] = cs[i].c0;
        ma.c[1][3][3] = cs[i].c1;
        ma.c[2][3][3] = 1.0;
        ma.c[3][1][3] = 1e-30;
        tu_motion_zero(&mb, 0);
        mb.c[0][0][0] = mb.c[0][1][1] = mb.c[0][2][2] = mb.c[0][3][3] = 1.0;
        mb.c[0][0][3] = cs[i].x;
        boxtoi_query q = tu_query(cube(0.5), &ma, tu_box(0, 0, 0, 0, 0, 0), &mb, 0.0, cs[i].t1);
        char name[96];
        snprintf(name, sizeof name, "w far below its terms, translation of degree 3, point %zu",
                 i + 1);
        boxtoi_result r = boxtoi_solve(&q);
        if (!cs[i].hit) {
            if (!is_int(r.state, BOXTOI_MISS, "%s: miss", name))
                diag("got %s at %.17g", boxtoi_state_name(r.state), r.toi);
            continue;
        }
        long double c1 = cs[i].c1, disc = c1 * c1 - 4.0L * (cs[i].c0 - 0.5L / cs[i].x);
        double toi = (double)((-c1 - sqrtl(disc)) / 2.0L);
        if (!is_int(r.state, BOXTOI_HIT, "%s: hit", name))
            diag("got %s (%s)", boxtoi_state_name(r.state), boxtoi_reason_message(r.reason));
        is_double(r.toi, toi, 1e-9 * cs[i].t1, "%s: toi %.17g", name, toi);
        check_swap(name, &q, &r);
    }
}

/*
 * Turns of nearly a full circle: a bar spun by q(t) = (1, 0, 0, k (2 t - 1))
 * (angle 2 atan(k (2 t - 1)), 4 atan(k) in all: 348.6 degrees for k = 20,
 * 354.3 for k = 40, 356.9 for k = 75) and a slab spun the other way, so
 * that in the slab's frame the bar turns by a = 4 atan(k (2 t - 1)).
 * w = 1 + k^2 (2 t - 1)^2 is k^2 + 1 times larger at the ends of the
 * interval than at its middle.  The bar (half lengths 2 and hy in the
 * turning plane) reaches out along the slab's normal by
 * 2 |cos a| + hy |sin a|, which is R cos(a + pi + phi) near a = -pi
 * (R = sqrt(4 + hy^2), phi = atan(hy / 2)); the slab's face is at
 * d = R (1 - 1e-4), so the bar touches it at a = -pi - phi - acos(d / R)
 * and leaves it at a = -pi - phi + acos(d / R), before its reach dips to 2
 * at a = -pi.  (It starts, at a = -4 atan(k), past the window around
 * a = -2 pi + phi: 4 atan(1 / k) > phi + acos(d / R) for these k and hy.)
 * At first contact the slab's face normal, turned by
 * -2 atan(k (2 t - 1)), points from the bar to the slab.
 */
static void case_near_full_turn(double k, double hy, const char *name)
{
    double R = sqrt(4.0 + hy * hy), phi = atan(0.5 * hy), d = R * (1.0 - 1e-4);
    double c = acos(d / R);
    double qa[2][4] = {{1, 0, 0, -k}, {0, 0, 0, 2 * k}};
    double qb[2][4] = {{1, 0, 0, k}, {0, 0, 0, -2 * k}};
    double p0[1][3] = {{0, 0, 0}};
    boxtoi_motion ma, mb;
    if (boxtoi_motion_rigid(&ma, qa, 1, p0, 0) || boxtoi_motion_rigid(&mb, qb, 1, p0, 0))
        bail("near full turn: motions not built");
    boxtoi_query q = tu_query(tu_box(-2, -hy, -0.5, 2, hy, 0.5), &ma,
                              tu_box(d, -5, -5, d + 1, 5, 5), &mb, 0.0, 1.0);
    /* tan(a / 4) = k (2 t - 1) */
    double tc = 0.5 * (tan((-TU_PI - phi - c) / 4.0) / k + 1.0);
    double te = 0.5 * (tan((-TU_PI - phi + c) / 4.0) / k + 1.0);
    double tb = -2.0 * atan(k * (2.0 * tc - 1.0));
    expect e;
    memset(&e, 0, sizeof e);
    e.state = BOXTOI_HIT;
    e.toi = tc;
    e.exit_mode = EXIT_AT;
    e.exit = te;
    e.check_normal = 1;
    e.normal[0] = cos(tb);
    e.normal[1] = sin(tb);
    e.reference = 1;
    boxtoi_result r = run_case(name, &q, &e);
    check_swap(name, &q, &r);
}

/*
 * Turns nearer a full circle than case_near_full_turn's, where w spans more
 * than the determinant test can resolve in one piece: a bar reaching from
 * its axis to x = 2 (half height hy = 0.05) spun by q(t) = (1, 0, 0,
 * k (2 t - 1)), angle a = 2 atan(k (2 t - 1)), 4 atan(k) in all (358.5
 * degrees for k = 150, 359.8 for k = 1000), and a static slab whose face
 * is at x = d = R (1 - 1e-4).  The bar's far corners reach x = R cos(a +-
 * phi) (R = sqrt(4 + hy^2), phi = atan(hy / 2)), so the corner (2, hy)
 * touches the face at a = -phi - acos(d / R) and leaves it at a = -phi +
 * acos(d / R), before the other corner's window (acos(d / R) < phi).  Away
 * from a = 0 the bar reaches at most hy along x: nothing touches earlier.
 * The corner touches at (d, -R sin(acos(d / R)), 0), normal +x.
 */
/* The bar, spun as above (the bar at x in [C, C + 2] of its own frame and
   the translation column -C times the first, as case_full_turn_far says),
   and the slab, over [0, t1]; d, R and phi of the geometry above. */
static const double full_turn_hy = 0.05;

static boxtoi_query full_turn_query(double k, double C, double t1, double *d, double *R,
                                    double *phi)
{
    double hy = full_turn_hy;
    *R = sqrt(4.0 + hy * hy);
    *phi = atan(0.5 * hy);
    *d = *R * (1.0 - 1e-4);
    double qa[2][4] = {{1, 0, 0, -k}, {0, 0, 0, 2 * k}};
    double p0[1][3] = {{0, 0, 0}};
    boxtoi_motion ma, mb;
    if (boxtoi_motion_rigid(&ma, qa, 1, p0, 0))
        bail("full turn: motion not built");
    for (int j = 0; j <= ma.degree; j++)
        for (int r = 0; r < 3; r++) {
            ma.c[j][r][3] = -C * ma.c[j][r][0];
            if (fma(-C, ma.c[j][r][0], -ma.c[j][r][3]) != 0.0)
                bail("full turn: the frame's offset is not exact");
        }
    boxtoi_motion_identity(&mb);
    return tu_query(tu_box(C, -hy, -0.5, C + 2, hy, 0.5), &ma,
                    tu_box(*d, -5, -5, *d + 1, 5, 5), &mb, 0.0, t1);
}

static void case_full_turn_static(double k, const char *name)
{
    double d, R, phi;
    boxtoi_query q = full_turn_query(k, 0.0, 1.0, &d, &R, &phi);
    double c = acos(d / R);
    /* tan(a / 2) = k (2 t - 1) */
    expect e;
    memset(&e, 0, sizeof e);
    e.state = BOXTOI_HIT;
    e.toi = 0.5 * (tan((-phi - c) / 2.0) / k + 1.0);
    e.exit_mode = EXIT_AT;
    e.exit = 0.5 * (tan((-phi + c) / 2.0) / k + 1.0);
    e.check_normal = 1;
    e.normal[0] = 1.0;
    e.check_point = 1;
    e.point[0] = d;
    e.point[1] = -R * sin(c);
    e.reference = 1;
    boxtoi_result r = run_case(name, &q, &e);
    check_swap(name, &q, &r);
}

/*
 * case_full_turn_static's bar and slab over [0, t1], the bar at x in [C,
 * C + 2] of its own frame and the motion's translation column -C times its
 * first column (each product exact for these k and C: checked), so that
 * the world motion is the same and so is the answer: the first contact,
 * its end, the point and the normal in closed form.  Solved in pieces, as
 * the turn is near a full one; t1 = 0.9 puts the pieces' ends off the
 * dyadic grid, where shifting a far box's coefficients rounds them.  (With
 * the pieces' translations rounded in the far frame, the first contact was
 * 2.8e-8 late at C = 1e10.)
 */
static void case_full_turn_far(double k, double C, double t1)
{
    double d, R, phi;
    boxtoi_query q = full_turn_query(k, C, t1, &d, &R, &phi);
    double c = acos(d / R);
    double tc = 0.5 * (tan((-phi - c) / 2.0) / k + 1.0);
    double te = 0.5 * (tan((-phi + c) / 2.0) / k + 1.0);
    double py = -R * sin(c), tol = 1e-9 * t1;
    boxtoi_result r;
    int mirrored = solve_mirrored(&q, &r);
    ok(r.state == BOXTOI_HIT && fabs(r.toi - tc) <= tol && !r.exit_after_t1 &&
           fabs(r.exit - te) <= tol && mirrored,
       "full turn, k = %g, the bar at x = %.17g of its frame, over [0, %g]: contact %.17g to "
       "%.17g, exactly %.17g to %.17g, mirrored when swapped",
       k, C, t1, r.toi, r.exit, tc, te);
    ok(r.state == BOXTOI_HIT && fabs(r.point[0] - d) <= 1e-6 && fabs(r.point[1] - py) <= 1e-6 &&
           fabs(r.point[2]) <= 1e-6 && fabs(r.normal[0] - 1.0) <= 1e-9,
       "full turn, k = %g, the bar at x = %.17g of its frame, over [0, %g]: point (%.17g %.17g "
       "%.17g), exactly (%.17g %.17g 0), normal x %.17g", k, C, t1, r.point[0], r.point[1],
       r.point[2], d, py, r.normal[0]);
}

int main(void)
{
    plan(0);
    case_face_face();
    case_parallel_faces();
    case_vertex_face(1.0, "vertex on face");
    case_vertex_face(1e3, "vertex on face, x1000");
    case_vertex_face(1e-3, "vertex on face, x0.001");
    case_edge_edge();
    case_corner_clip();
    case_grazes();
    case_parallel_edges();
    case_nearly_parallel_edges();
    case_nearly_parallel_cubes();
    case_edges_meeting_turning_parallel();
    case_edges_turning_parallel_end_to_end();
    case_turning_parallel_recorded();
    case_turning_parallel_random();
    case_plates_from_contact();
    case_points_together_shifted();
    case_level_axes();
    case_parallel_exit();
    case_flat_shared_orientation();
    case_turned_corner_on_edge();
    case_undecided_normal_at_t0();
    case_plates_touching_at_t0();
    case_tilting_turned_face();
    case_near_flat_tilt();
    case_degenerate_literals();
    case_plate();
    case_t0();
    case_deep_overlap();
    case_miss();
    case_common_factor_long();
    case_corner_to_corner();
    case_far_local_frame();
    case_far_local_frame_late();
    case_both_moving();
    case_interval();
    case_far_from_zero();
    case_touching_tolerance();
    case_tie_rules();
    case_tie_oriented_before();
    case_rigid_rotation();
    case_edges_turning_parallel();
    case_skim_far_out();
    case_points_beside_far_out();
    case_quartic_translation();
    case_interrupted_contact();
    case_lift_over_top();
    case_flat_along_side();
    case_rod_beside_corner();
    case_rod_end_at_edge();
    case_flat_face_over_crossing_edges();
    case_flat_face_turned();
    case_flat_face_named_vertex_over();
    case_flat_turned_random();
    case_plate_corner_on_edge();
    case_corner_touching_at_t0();
    case_overlap_turned_off_centre();
    case_overlap_faces_in_common();
    case_overlap_point_random();
    case_pass_through();
    case_shear();
    case_scaled_motion();
    case_thin_plate_far_corners();
    case_parallel_edges_apart_far();
    case_w_far_below_terms();
    case_w_far_below_terms_trimmed();
    case_near_full_turn(20.0, 0.1, "near full turn, k = 20");
    case_near_full_turn(40.0, 0.1, "near full turn, k = 40");
    case_near_full_turn(75.0, 0.05, "near full turn, k = 75");
    case_full_turn_static(150.0, "full turn against a static slab, k = 150");
    case_full_turn_static(1000.0, "full turn against a static slab, k = 1000");
    for (int i = 0; i < 2; i++) {
        double t1 = i ? 0.9 : 1.0;
        case_full_turn_far(150.0, 1e4 + 0.375, t1);
        case_full_turn_far(150.0, 1e10 + 0.5, t1);
        case_full_turn_far(1000.0, 1e6 + 0.375, t1);
        case_full_turn_far(1000.0, 1e8 + 0.5, t1);
    }
    return tap_failures() ? 1 : 0;
}
