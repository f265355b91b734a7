/*
 * The public API around the solver: invalid input (each with its own
 * reason and the right `which`), names and messages, the build that
 * boxtoi_solve runs, the default query, boxtoi_swept_aabb against dense
 * sampling, boxtoi_overlap_at against an independent separating-axis test,
 * boxtoi_motion_rigid against the quaternion formula, boxtoi_motion_multiply
 * against applying two motions in turn and against the product of their
 * matrices, degree overflow, answers unchanged under changes of scale, units
 * and world frame, reentrancy (two threads), and the stack a query takes.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_attr_setstack */
#include <config.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxtoi.h"
#include "judge.h"
#include "lib-util.h"
#include "tap/basic.h"

static boxtoi_query base_query(void)
{
    /* A = [-1,1]^3 at rest, B = [-1,1]^3 moving from x = 5 to x = 1 (a hit
     * at t = 3/4): a valid query the invalid ones are made from. */
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    for (int i = 0; i < 3; i++) {
        q.a.lo[i] = q.b.lo[i] = -1.0;
        q.a.hi[i] = q.b.hi[i] = 1.0;
    }
    double pa[1][3] = {{0, 0, 0}};
    double pb[2][3] = {{5.0, 0.2, 0.1}, {-4.0, 0, 0}};
    tu_motion_trans(&q.motion_a, pa, 0);
    tu_motion_trans(&q.motion_b, pb, 1);
    q.t0 = 0.0;
    q.t1 = 1.0;
    return q;
}

/* The larger of a running error and a new one, a NaN in either counting as
   infinite (fmax would drop it). */
static double worse(double acc, double d)
{
    return isnan(acc) || isnan(d) ? INFINITY : fmax(acc, d);
}

static void expect_invalid(const char *name, const boxtoi_query *q, boxtoi_reason reason,
                           int which)
{
    boxtoi_result r = boxtoi_solve(q);
    int good = r.state == BOXTOI_INVALID && r.reason == reason && r.which == which &&
               r.iterations == 0;
    if (!ok(good, "invalid: %s -> reason %d, which %d, no step taken", name, (int)reason,
            which))
        diag("got state %s, reason %d (%s), which %d, %d steps", boxtoi_state_name(r.state),
             (int)r.reason, boxtoi_reason_message(r.reason), r.which, r.iterations);
}

static void expect_valid(const char *name, const boxtoi_query *q)
{
    boxtoi_result r = boxtoi_solve(q);
    if (!ok(r.state == BOXTOI_HIT || r.state == BOXTOI_MISS || r.state == BOXTOI_OVERLAP,
            "valid: %s is answered", name))
        diag("got state %s, reason %d (%s), which %d", boxtoi_state_name(r.state),
             (int)r.reason, boxtoi_reason_message(r.reason), r.which);
}

static void test_invalid(void)
{
    boxtoi_result r = boxtoi_solve(NULL);
    ok(r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_NULL && r.which == 0,
       "invalid: NULL query");
    ok(isnan(r.toi), "invalid: toi is NaN");

    boxtoi_query q = base_query();
    expect_valid("the base query", &q);
    is_int(boxtoi_solve(&q).state, BOXTOI_HIT, "the base query is a hit");

    q = base_query();
    q.a.lo[1] = NAN;
    expect_invalid("NaN corner of A", &q, BOXTOI_REASON_BOX_NOT_FINITE, 1);
    q = base_query();
    q.b.hi[2] = INFINITY;
    expect_invalid("infinite corner of B", &q, BOXTOI_REASON_BOX_NOT_FINITE, 2);
    q = base_query();
    q.b.lo[0] = -INFINITY;
    expect_invalid("-inf corner of B", &q, BOXTOI_REASON_BOX_NOT_FINITE, 2);
    q = base_query();
    q.a.lo[2] = 1.5;
    expect_invalid("lo > hi in A", &q, BOXTOI_REASON_BOX_INVERTED, 1);
    q = base_query();
    q.b.hi[0] = -1.0 - 1e-12;
    expect_invalid("lo > hi in B", &q, BOXTOI_REASON_BOX_INVERTED, 2);
    q = base_query();
    q.b.hi[0] = -1.0;
    expect_valid("lo == hi (a plate)", &q);
    /* both bad: A's reason, whichever order the pair is solved in */
    q = base_query();
    q.a.lo[1] = NAN;
    q.b.hi[0] = -1.0 - 1e-12;
    expect_invalid("NaN corner of A, lo > hi in B", &q, BOXTOI_REASON_BOX_NOT_FINITE, 1);
    boxtoi_query sw = q;
    sw.a = q.b;
    sw.b = q.a;
    expect_invalid("lo > hi in A, NaN corner of B", &sw, BOXTOI_REASON_BOX_INVERTED, 1);

    q = base_query();
    q.motion_a.c[0][1][2] = NAN;
    expect_invalid("NaN motion coefficient of A", &q, BOXTOI_REASON_MOTION_NOT_FINITE, 1);
    q = base_query();
    q.motion_b.c[1][0][3] = INFINITY;
    expect_invalid("inf motion coefficient of B", &q, BOXTOI_REASON_MOTION_NOT_FINITE, 2);
    q = base_query();
    q.motion_b.c[5][0][3] = NAN; /* above the degree: ignored */
    expect_valid("NaN above the degree", &q);

    q = base_query();
    q.motion_a.degree = -1;
    expect_invalid("degree -1", &q, BOXTOI_REASON_DEGREE, 1);
    q = base_query();
    q.motion_b.degree = BOXTOI_MAX_DEGREE + 1;
    expect_invalid("degree MAX+1", &q, BOXTOI_REASON_DEGREE, 2);
    q = base_query();
    q.motion_b.degree = BOXTOI_MAX_DEGREE;
    expect_valid("degree MAX with zero high coefficients", &q);

    q = base_query();
    q.motion_a.c[0][3][0] = 0.5;
    expect_invalid("bottom row [0.5 0 0 1]", &q, BOXTOI_REASON_BOTTOM_ROW, 1);
    q = base_query();
    q.motion_b.c[1][3][2] = 1e-3;
    expect_invalid("bottom row with t term", &q, BOXTOI_REASON_BOTTOM_ROW, 2);
    q = base_query();
    q.motion_b.c[3][3][1] = 1.0; /* above the degree: ignored */
    expect_valid("bottom row entry above the degree", &q);

    /* w(t) = t - 1/2 for B (3x3 part identity times w, translation column
     * (5 - 4t) w): the world motion is a translation wherever w != 0. */
    q = base_query();
    boxtoi_motion *m = &q.motion_b;
    tu_motion_zero(m, 2);
    for (int i = 0; i < 3; i++) {
        m->c[0][i][i] = -0.5;
        m->c[1][i][i] = 1.0;
    }
    /* (5 - 4t)(t - 1/2) = -2.5 + 7t - 4t^2; y: 0.2 (t - 1/2), z: 0.1 (t - 1/2) */
    m->c[0][0][3] = -2.5;
    m->c[1][0][3] = 7.0;
    m->c[2][0][3] = -4.0;
    m->c[0][1][3] = -0.1;
    m->c[1][1][3] = 0.2;
    m->c[0][2][3] = -0.05;
    m->c[1][2][3] = 0.1;
    m->c[0][3][3] = -0.5;
    m->c[1][3][3] = 1.0;
    expect_invalid("w = t - 1/2 on [0, 1]", &q, BOXTOI_REASON_W_VANISHES, 2);
    q.t0 = 0.6;
    expect_valid("w = t - 1/2 on [0.6, 1]", &q);
    boxtoi_result r2 = boxtoi_solve(&q);
    is_double(r2.toi, 0.75, 1e-9, "w = t - 1/2 on [0.6, 1]: same hit at 0.75");
    q.t0 = 0.0;
    q.t1 = 0.5;
    expect_invalid("w = t - 1/2 on [0, 0.5] (zero at t1)", &q, BOXTOI_REASON_W_VANISHES, 2);
    q.t1 = 0.4;
    expect_valid("w = t - 1/2 on [0, 0.4] (w < 0 throughout)", &q);

    /*
     * B's motion times w = -(t^2 - t + 0.3), below 0 throughout [0, 1] but
     * with Bernstein coefficients of both signs (-0.3, 0.2, -0.3), as is
     * the determinant of its 3x3 part: valid, and the same world motion.
     */
    q = base_query();
    {
        boxtoi_motion wm;
        tu_motion_zero(&wm, 2);
        for (int i = 0; i < 4; i++) {
            wm.c[0][i][i] = -0.3;
            wm.c[1][i][i] = 1.0;
            wm.c[2][i][i] = -1.0;
        }
        boxtoi_motion_multiply(&q.motion_b, &wm, &q.motion_b);
    }
    expect_valid("B's motion times -(t^2 - t + 0.3) (w < 0, coefficients of both signs)", &q);
    r2 = boxtoi_solve(&q);
    is_double(r2.toi, 0.75, 1e-9, "B's motion times -(t^2 - t + 0.3): same hit at 0.75");

    /* singular 3x3 part: A's z column scaled by (t - 1/2) */
    q = base_query();
    q.motion_a.degree = 1;
    q.motion_a.c[0][2][2] = -0.5;
    q.motion_a.c[1][2][2] = 1.0;
    expect_invalid("3x3 part singular at t = 1/2", &q, BOXTOI_REASON_SINGULAR, 1);
    q.t0 = 0.6;
    expect_valid("3x3 part singular at 1/2, interval [0.6, 1]", &q);
    q = base_query();
    memset(q.motion_b.c[0], 0, sizeof q.motion_b.c[0]);
    memset(q.motion_b.c[1], 0, sizeof q.motion_b.c[1]);
    q.motion_b.c[0][3][3] = 1.0;
    expect_invalid("3x3 part zero", &q, BOXTOI_REASON_SINGULAR, 2);

    q = base_query();
    q.t0 = NAN;
    expect_invalid("t0 NaN", &q, BOXTOI_REASON_INTERVAL_NOT_FINITE, 0);
    q = base_query();
    q.t1 = NAN;
    expect_invalid("t1 NaN", &q, BOXTOI_REASON_INTERVAL_NOT_FINITE, 0);
    q = base_query();
    q.t1 = INFINITY;
    expect_invalid("t1 infinite", &q, BOXTOI_REASON_INTERVAL_NOT_FINITE, 0);
    q = base_query();
    q.t0 = 0.7;
    q.t1 = 0.2;
    expect_invalid("t0 > t1", &q, BOXTOI_REASON_INTERVAL_REVERSED, 0);
    /* flags: only BOXTOI_SKIP_EXIT is known; any other bit is refused first */
    q = base_query();
    q.flags = 2u;
    expect_invalid("flags 2", &q, BOXTOI_REASON_FLAGS, 0);
    q.flags = BOXTOI_SKIP_EXIT | 0x80000000u;
    q.t0 = NAN;
    expect_invalid("flags SKIP_EXIT | 1 << 31, interval NaN", &q, BOXTOI_REASON_FLAGS, 0);
    q = base_query();
    q.flags = BOXTOI_SKIP_EXIT;
    expect_valid("flags BOXTOI_SKIP_EXIT", &q);
    q = base_query();
    q.t0 = q.t1 = 0.75;
    expect_valid("t0 == t1", &q);

    /* numbers so large that products overflow: either refused as out of
     * range, or answered (never FAILED, never a wrong reason) */
    q = base_query();
    q.motion_b.c[0][0][3] = 1e300;
    r = boxtoi_solve(&q);
    ok((r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE &&
        r.which == 2) ||
           r.state == BOXTOI_MISS,
       "huge translation (1e300): out of range or a miss (got %s, reason %d)",
       boxtoi_state_name(r.state), (int)r.reason);

    /* local corners past 1e60 (finite, in order): out of range, for every
       entry point, in one corner or in all six numbers, also where the
       motion shrinks the box into range (the corners themselves are) */
    for (int k = 0; k < 5; k++) {
        q = base_query();
        boxtoi_box *big = k == 1 ? &q.b : &q.a;
        if (k == 0 || k == 4)
            big->hi[0] = 1e61;
        else if (k == 1)
            big->lo[2] = -2e61;
        if (k == 4)
            q.motion_a.c[0][0][0] = 1e-30; /* A's x from -1e-30 to 1e31 */
        for (int i = 0; k == 2 && i < 3; i++) {
            big->lo[i] = 2e60;
            big->hi[i] = 3e60;
        }
        /* only the lower corner out of range, on every axis */
        for (int i = 0; k == 3 && i < 3; i++) {
            big->lo[i] = -3e60;
            big->hi[i] = 0.0;
        }
        const boxtoi_motion *bm = k == 1 ? &q.motion_b : &q.motion_a;
        double lo[3], hi[3];
        boxtoi_reason why_o = BOXTOI_REASON_NONE;
        static const char *what[5] = {"A's hi x 1e61", "B's lo z -2e61",
                                      "A from 2e60 to 3e60 on every axis",
                                      "A from -3e60 to 0 on every axis",
                                      "A's hi x 1e61, its x times 1e-30"};
        expect_invalid(what[k], &q, BOXTOI_REASON_OUT_OF_RANGE, k == 1 ? 2 : 1);
        is_int(boxtoi_validate(big, bm, 0.0, 1.0), BOXTOI_REASON_OUT_OF_RANGE,
               "validate: %s is out of range", what[k]);
        is_int(boxtoi_swept_aabb(big, bm, 0.0, 1.0, lo, hi), BOXTOI_REASON_OUT_OF_RANGE,
               "swept_aabb: %s is out of range", what[k]);
        is_int(boxtoi_overlap_at(&q, 0.5, &why_o), -1, "overlap_at: %s refused", what[k]);
        is_int(why_o, BOXTOI_REASON_OUT_OF_RANGE, "overlap_at: %s is out of range", what[k]);
    }

    /*
     * A 3x3 coefficient past 1e60 is out of range even where it moves
     * nothing: the box is flat across the column it multiplies (local
     * coordinate 0 there), so its world bounds stay small.  Each column
     * (either other row), in A or in B, from t0 = 0, 0.5 and 1.
     */
    {
        int refused = 0, cases = 0;
        for (int k = 0; k < 3 * 2 * 2 * 3; k++) {
            int col = k % 3, row = (col + 1 + k / 3 % 2) % 3, of_b = k / 6 % 2, late = k / 12;
            q = base_query();
            q.motion_a.degree = 1; /* as B's: the pair is prepared together */
            q.motion_a.c[1][2][3] = 0.1;
            boxtoi_box *big = of_b ? &q.b : &q.a;
            boxtoi_motion *bm = of_b ? &q.motion_b : &q.motion_a;
            big->lo[col] = big->hi[col] = 0.0;
            bm->c[0][row][col] = 1e61;
            q.t0 = 0.5 * late;
            q.t1 = q.t0 + 1.0;
            boxtoi_result r = boxtoi_solve(&q);
            double lo[3], hi[3];
            boxtoi_reason why_v = boxtoi_validate(big, bm, q.t0, q.t1);
            boxtoi_reason why_s = boxtoi_swept_aabb(big, bm, q.t0, q.t1, lo, hi);
            int good = r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE &&
                       r.which == 1 + of_b && why_v == BOXTOI_REASON_OUT_OF_RANGE &&
                       why_s == BOXTOI_REASON_OUT_OF_RANGE;
            if (!good && cases - refused < 3)
                diag("%c flat across %c, entry (%d, %d) 1e61, t0 %g: solve %s (%s), validate "
                     "%s, swept box %s", of_b ? 'B' : 'A', 'x' + col, row, col, q.t0,
                     boxtoi_state_name(r.state), boxtoi_reason_message(r.reason),
                     boxtoi_reason_message(why_v), boxtoi_reason_message(why_s));
            refused += good;
            cases++;
        }
        is_int(refused, cases, "a 3x3 coefficient of 1e61 in the column a flat box leaves "
               "out is out of range, for every entry point (%d cases)", cases);
    }

    /* an interval longer than the largest double: out of range for a motion
       of degree 1 (even one that does not move), answered for degree 0 */
    q = base_query();
    q.t0 = -9e307;
    q.t1 = 9e307;
    q.motion_b.c[1][0][3] = 0.0;
    expect_invalid("t1 - t0 overflows, B of degree 1 at rest", &q,
                   BOXTOI_REASON_OUT_OF_RANGE, 2);
    q.motion_b.degree = 0;
    expect_valid("t1 - t0 overflows, both motions of degree 0", &q);
    /* ... where an overlap is at t0 (toi t0, not t0 + inf * 0) through t1 */
    q.motion_b.c[0][0][3] = 1.5;
    q.motion_b.c[0][1][3] = -1.5;
    r = boxtoi_solve(&q);
    ok(r.state == BOXTOI_OVERLAP && r.toi == q.t0 && r.exit_after_t1 && isnan(r.exit),
       "t1 - t0 overflows, degree 0, B into A: overlap at t0 through t1 "
       "(got %s, toi %g, exit %g, after t1 %d)",
       boxtoi_state_name(r.state), r.toi, r.exit, r.exit_after_t1);

    /* boxtoi_validate directly */
    q = base_query();
    is_int(boxtoi_validate(&q.b, &q.motion_b, 0.0, 1.0), BOXTOI_REASON_NONE,
           "validate: valid box and motion");
    is_int(boxtoi_validate(NULL, &q.motion_b, 0.0, 1.0), BOXTOI_REASON_NULL,
           "validate: NULL box");
    is_int(boxtoi_validate(&q.b, NULL, 0.0, 1.0), BOXTOI_REASON_NULL,
           "validate: NULL motion");
    q.b.lo[0] = 2.0;
    is_int(boxtoi_validate(&q.b, &q.motion_b, 0.0, 1.0), BOXTOI_REASON_BOX_INVERTED,
           "validate: inverted box");
    q = base_query();
    is_int(boxtoi_validate(&q.b, &q.motion_b, 1.0, 0.0),
           BOXTOI_REASON_INTERVAL_REVERSED, "validate: reversed interval");

    /* overlap_at with bad input */
    q = base_query();
    q.a.hi[0] = NAN;
    boxtoi_reason why = BOXTOI_REASON_NONE;
    is_int(boxtoi_overlap_at(&q, 0.5, &why), -1, "overlap_at: NaN box gives -1");
    is_int(why, BOXTOI_REASON_BOX_NOT_FINITE, "overlap_at: ... with its reason");
    is_int(boxtoi_overlap_at(&q, 0.5, NULL), -1, "overlap_at: reason may be NULL");
    is_int(boxtoi_overlap_at(NULL, 0.5, &why), -1, "overlap_at: NULL query gives -1");
    is_int(why, BOXTOI_REASON_NULL, "overlap_at: ... reason NULL");

    /* the motion helpers with NULL pointers: NaN, or nothing done */
    double mm[4][4], out[3] = {1, 2, 3}, p[3] = {0, 0, 0};
    boxtoi_motion_eval(NULL, 0.5, mm);
    ok(isnan(mm[0][0]) && isnan(mm[3][3]), "motion_eval: NULL motion gives NaN entries");
    boxtoi_motion_eval(&q.motion_a, 0.5, NULL);
    boxtoi_motion_apply(NULL, 0.5, p, out);
    ok(isnan(out[0]) && isnan(out[2]), "motion_apply: NULL motion gives NaN");
    out[0] = 1.0;
    boxtoi_motion_apply(&q.motion_a, 0.5, NULL, out);
    ok(isnan(out[0]), "motion_apply: NULL point gives NaN");
    boxtoi_motion_apply(&q.motion_a, 0.5, p, NULL);
    boxtoi_motion_identity(NULL);
    boxtoi_motion_constant(NULL, mm);
    boxtoi_motion mc;
    boxtoi_motion_constant(&mc, NULL);
    q = base_query();
    is_int(boxtoi_validate(&q.a, &mc, 0.0, 1.0), BOXTOI_REASON_DEGREE,
           "motion_constant: NULL matrix gives a motion refused for its degree");
}

/* An affine motion: 3x3 part u[k] (row-major) times t^k, k <= d, and a
 * translation x0 + x1 t in x; w = 1. */
static void affine_from(boxtoi_motion *m, int d, const double u[][3][3], double x0,
                        double x1)
{
    tu_motion_zero(m, d > 1 ? d : 1);
    for (int k = 0; k <= d; k++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                m->c[k][i][j] = u[k][i][j];
    m->c[0][0][3] = x0;
    m->c[1][0][3] = x1;
    m->c[0][3][3] = 1.0;
}

static const double shear[1][3][3] = {{{1.0, 0.2, 0.0}, {0.0, 1.1, 0.3}, {0.1, 0.0, 0.9}}};

/*
 * The general partner of a box whose own motion is under test: the shear
 * above plus 0.1 t^d I, placed as the other box (B at x = 5 - 4 t when the
 * box under test is A, which == 1; A at 0 otherwise).
 */
static void shear_partner(boxtoi_motion *m, int d, int which)
{
    affine_from(m, 0, shear, which == 1 ? 5.0 : 0.0, which == 1 ? -4.0 : 0.0);
    m->degree = d;
    for (int i = 0; i < 3; i++)
        m->c[d][i][i] = 0.1;
}

/*
 * 3x3 parts that are singular, exactly or within the rounding of the
 * numbers that give them, must be refused, whichever path validates them:
 * one general box (the other rigid), two general boxes of one degree from
 * t0 = 0 (converted and tested two at a time), an interval far from t = 0
 * (converted by a shift).  Their computed determinants are a few ulps from
 * zero, of either sign.  A 3x3 part merely close to singular is answered.
 */
static void test_singular_rounding(void)
{
    /* column 1 = 2 column 0, exactly */
    static const double twice[1][3][3] = {{{0.3, 0.6, 0.2}, {0.7, 1.4, 0.1}, {0.11, 0.22, 0.9}}};
    /* column 2 = column 0 + column 1, each sum rounded */
    static const double sum[1][3][3] = {
        {{0.1, 0.2, 0.1 + 0.2}, {0.7, 0.3, 0.7 + 0.3}, {0.13, 0.29, 0.13 + 0.29}}};
    /* degree 2: column 1 = 3 column 0 (as decimals) at every t */
    static const double poly[3][3][3] = {
        {{1.0, 3.0, 0.0}, {0.1, 0.3, 1.0}, {0.3, 0.9, 0.2}},
        {{0.1, 0.3, 0.1}, {0.0, 0.0, 0.0}, {-0.1, -0.3, 0.0}},
        {{0.0, 0.0, 0.0}, {0.2, 0.6, 0.0}, {0.0, 0.0, 0.1}}};
    static const double poly_ok[3][3][3] = {
        {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}},
        {{0.1, 0.0, 0.2}, {0.0, 0.2, 0.0}, {0.0, 0.0, -0.1}},
        {{0.0, 0.05, 0.0}, {0.0, 0.0, 0.1}, {0.0, 0.0, 0.0}}};

    boxtoi_query q = base_query();
    affine_from(&q.motion_a, 0, twice, 0.0, 0.0);
    expect_invalid("column 1 = 2 column 0 (A general, B rigid)", &q,
                   BOXTOI_REASON_SINGULAR, 1);
    is_int(boxtoi_validate(&q.a, &q.motion_a, 0.0, 1.0), BOXTOI_REASON_SINGULAR,
           "validate: column 1 = 2 column 0");
    boxtoi_reason why = BOXTOI_REASON_NONE;
    is_int(boxtoi_overlap_at(&q, 0.5, &why), -1, "overlap_at: column 1 = 2 column 0");
    is_int(why, BOXTOI_REASON_SINGULAR, "overlap_at: ... singular");
    boxtoi_motion m = q.motion_a;
    m.c[0][2][1] += 1e-6; /* a determinant of about 1e-7: a thin box, answered */
    q.motion_a = m;
    expect_valid("column 1 close to 2 column 0 (1e-6 off)", &q);

    q = base_query();
    affine_from(&q.motion_b, 0, sum, 5.0, -4.0);
    expect_invalid("column 2 = column 0 + column 1, rounded (B)", &q,
                   BOXTOI_REASON_SINGULAR, 2);

    /* both general, degree 2, t0 = 0: the paired tests */
    q = base_query();
    affine_from(&q.motion_a, 2, poly_ok, 0.0, 0.0);
    affine_from(&q.motion_b, 2, poly, 5.0, -4.0);
    expect_invalid("degree 2, column 1 = 3 column 0 (B; A general too)", &q,
                   BOXTOI_REASON_SINGULAR, 2);
    affine_from(&q.motion_a, 2, poly, 0.0, 0.0);
    expect_invalid("degree 2, both singular: A's is the reason", &q,
                   BOXTOI_REASON_SINGULAR, 1);
    q.t1 = 2.5;
    expect_invalid("degree 2, both singular, on [0, 2.5]", &q, BOXTOI_REASON_SINGULAR, 1);
    affine_from(&q.motion_a, 2, poly_ok, 0.0, 0.0);
    affine_from(&q.motion_b, 2, poly_ok, 5.0, -4.0);
    expect_valid("degree 2, both general and regular", &q);

    /*
     * Both general, of one degree d from t0 = 0 (the paired test), singular
     * at one instant only, with every entry moving: U(t) = R D(t) R^T for
     * R = shear and D(t) = diag(1 + 0.2 t^d, 1, t - 1/2), whose determinant
     * changes sign at t = 1/2, or diag(1 + 0.2 t^d, t - 1/2, t - 1/2)
     * (d >= 2), whose determinant only touches 0 there; answered with
     * diag(1 + 0.2 t^d, 1, t + 1/2).  The other box is shear + 0.1 t^d I.
     * (The singular parts above are singular throughout.)
     */
    static const char *shape[3] = {"changes sign at t = 1/2", "touches 0 at t = 1/2",
                                   "of one sign"};
    for (int d = 1; d <= 4; d++)
        for (int z = 0; z < 3; z++)
            for (int which = 1; which <= 2 && (z != 1 || d >= 2); which++) {
                double diag[3][BOXTOI_MAX_DEGREE + 1] = {{1.0}, {1.0}, {-0.5, 1.0}};
                diag[0][d] += 0.2;
                if (z == 1)
                    diag[1][0] = -0.5, diag[1][1] = 1.0;
                if (z == 2)
                    diag[2][0] = 0.5;
                q = base_query();
                boxtoi_motion *sm = which == 1 ? &q.motion_a : &q.motion_b;
                boxtoi_motion *rm = which == 1 ? &q.motion_b : &q.motion_a;
                affine_from(sm, 0, shear, which == 1 ? 0.0 : 5.0, which == 1 ? 0.0 : -4.0);
                shear_partner(rm, d, which);
                sm->degree = d;
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++)
                        for (int k = 0; k <= d; k++)
                            sm->c[k][i][j] = shear[0][i][0] * diag[0][k] * shear[0][j][0] +
                                             shear[0][i][1] * diag[1][k] * shear[0][j][1] +
                                             shear[0][i][2] * diag[2][k] * shear[0][j][2];
                char name[96];
                snprintf(name, sizeof name, "degree %d, both general, %s's determinant %s", d,
                         which == 1 ? "A" : "B", shape[z]);
                if (z < 2)
                    expect_invalid(name, &q, BOXTOI_REASON_SINGULAR, which);
                else
                    expect_valid(name, &q);
            }

    /*
     * A determinant of one sign at both ends that crosses 0 twice between
     * them: every term of its coefficients counts, since the ends alone
     * show no zero.  Small integer entries, so the determinant is exact:
     * degree 1, -2 + 12 t - 10 t^2 - 6 t^3 (zeros near 0.207 and 0.641)
     * and -4 + 30 t - 23 t^2 - 9 t^3 (0.152, 0.827); degree 2, -2 + 4 t +
     * 25 t^2 - 14 t^3 - 14 t^4 + 3 t^5 - 3 t^6 (0.227, 0.977) and -5 + 5 t
     * + 24 t^2 + 4 t^3 - 16 t^4 - 18 t^5 (0.374, 0.915).  Each also with
     * its rows rotated once and twice (the same determinant, its terms
     * gathered in other sums).  Checked
     * here at t = 0, 1/2 and 1, then refused as A and as B, the other box
     * rigid or general of the same degree: the shear above plus 0.1 t^d I,
     * or integer entries again, with determinants 4 + 12 t + 12 t^2 + 3 t^3
     * and 4 - 14 t + 18 t^2 + 2 t^3 + 6 t^4 + 3 t^5 + 3 t^6, whose Bernstein
     * coefficients on [0, 1] are all positive (two of those answered).
     */
    static const double integer_regular[2][3][3][3] = {
        {{{2, 0, -1}, {0, 2, -1}, {-2, 2, 1}}, {{0, 1, -1}, {0, -1, -2}, {-1, 2, 1}}},
        {{{-2, 0, -2}, {0, 2, -2}, {0, 1, -2}},
         {{0, 0, 0}, {2, -2, -1}, {-2, 0, -2}},
         {{-2, -1, 0}, {1, 2, 0}, {-1, -2, -1}}}};
    static const double twice_zero[4][3][3][3] = {
        {{{2, -2, 1}, {2, 1, -1}, {2, -1, 0}}, {{2, 1, -1}, {-1, -2, 2}, {1, 1, 1}}},
        {{{-2, 2, 2}, {2, -1, 1}, {2, -2, 0}}, {{1, 2, -1}, {-1, -2, -2}, {2, 1, 2}}},
        {{{1, 1, 2}, {-1, 0, 1}, {1, 1, 0}},
         {{-2, -1, -1}, {-1, -2, 2}, {2, 0, -2}},
         {{0, 0, -1}, {-1, -1, -2}, {1, -2, 2}}},
        {{{1, 2, 2}, {0, -1, -2}, {0, -2, 1}},
         {{-1, 1, 1}, {0, -2, -1}, {-1, 0, -2}},
         {{-2, -1, 2}, {-2, -1, -2}, {0, 0, -2}}}};
    for (int d = 1; d <= 2; d++) {
        q = base_query();
        affine_from(&q.motion_a, d, integer_regular[d - 1], 0.0, 0.0);
        affine_from(&q.motion_b, d, integer_regular[d - 1], 5.0, -4.0);
        char name[64];
        snprintf(name, sizeof name, "degree %d, two of the integer regular motions", d);
        expect_valid(name, &q);
    }
    for (int e = 0; e < 4; e++)
        for (int rot = 0, d = 1 + e / 2; rot < 3; rot++) {
            double u[3][3][3], sign[3];
            for (int k = 0; k < 3; k++)
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++)
                        u[k][i][j] = twice_zero[e][k][(i + rot) % 3][j];
            for (int s = 0; s < 3; s++) {
                double t = 0.5 * s, m[3][3], inv[3][3];
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++)
                        m[i][j] = u[0][i][j] + t * u[1][i][j] + t * t * u[2][i][j];
                sign[s] = tu_inverse3(m, inv);
            }
            ok(sign[0] < 0.0 && sign[1] > 0.0 && sign[2] < 0.0,
               "degree %d (%d), rows rotated %d: the determinant is -, +, - at t = 0, 1/2, 1 "
               "(%g, %g, %g)", d, e % 2 + 1, rot, sign[0], sign[1], sign[2]);
            for (int which = 1; which <= 2; which++)
                for (int other = 0; other < 3; other++) {
                    q = base_query();
                    boxtoi_motion *sm = which == 1 ? &q.motion_a : &q.motion_b;
                    boxtoi_motion *rm = which == 1 ? &q.motion_b : &q.motion_a;
                    affine_from(sm, d, (const double(*)[3][3])u, which == 1 ? 0.0 : 5.0,
                                which == 1 ? 0.0 : -4.0);
                    if (other == 1)
                        shear_partner(rm, d, which);
                    if (other == 2)
                        affine_from(rm, d, integer_regular[d - 1], which == 1 ? 5.0 : 0.0,
                                    which == 1 ? -4.0 : 0.0);
                    char name[112];
                    snprintf(name, sizeof name,
                             "degree %d (%d), rows rotated %d, %s's determinant zero twice, "
                             "the other %s", d, e % 2 + 1, rot, which == 1 ? "A" : "B",
                             other == 0 ? "rigid" : other == 1 ? "general" : "integer");
                    expect_invalid(name, &q, BOXTOI_REASON_SINGULAR, which);
                }
        }

    /*
     * On [1000, 1001], the motion written in t: poly_ok(t - 1000) expanded
     * (coefficients up to 1e6 times its values), then column 1 made twice
     * column 0, coefficient by coefficient (exactly).
     */
    q = base_query();
    boxtoi_motion *mb = &q.motion_b;
    tu_motion_zero(mb, 2);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double a = poly_ok[0][i][j], b = poly_ok[1][i][j], c = poly_ok[2][i][j];
            mb->c[0][i][j] = a - 1000.0 * b + 1e6 * c;
            mb->c[1][i][j] = b - 2000.0 * c;
            mb->c[2][i][j] = c;
        }
    mb->c[0][0][3] = 5.0 + 4000.0;
    mb->c[1][0][3] = -4.0;
    mb->c[0][3][3] = 1.0;
    boxtoi_motion regular = *mb;
    for (int k = 0; k <= 2; k++)
        for (int i = 0; i < 3; i++)
            mb->c[k][i][1] = 2.0 * mb->c[k][i][0];
    q.t0 = 1000.0;
    q.t1 = 1001.0;
    affine_from(&q.motion_a, 0, shear, 0.0, 0.0);
    expect_invalid("degree 2 on [1000, 1001], column 1 = 2 column 0", &q,
                   BOXTOI_REASON_SINGULAR, 2);
    mb->c[0][1][1] += 1e-3; /* column 1 off by 1e-3: regular, if thin */
    expect_valid("degree 2 on [1000, 1001], column 1 = 2 column 0 + 1e-3", &q);
    *mb = regular;
    expect_valid("degree 2 on [1000, 1001], regular", &q);
}

/*
 * A's 3x3 part [[1 7 4] [0 1 0] [0 5 e]] with w = 4 (moving along x as
 * -3 + 4t): det = e, and every other product of the determinant is
 * exactly 0, so the rounding margin is e's own.  Columns x and z are
 * parallel to within e: A is the plate z' = 5 y' (|y'| <= 1/4) to within
 * e.  A determinant within 2^-900 of the cube of the entries' magnitude
 * (here below about 4e-269) counts as singular (docs/method.md, Input);
 * before, e = 1.5e-321 (subnormal) was accepted and gave NaN for the
 * contact point.  Above that floor the plate is answered, its contact
 * point on the plate and in B.
 */
static void test_flat_determinant(void)
{
    static const double below[] = {1.5e-321, 3e-308, 1e-290, 1e-272};
    static const double above[] = {1e-250, 1e-150, 1e-12};
    char name[96];
    boxtoi_query q = base_query();
    boxtoi_motion *m = &q.motion_a;
    tu_motion_zero(m, 1);
    static const double c0[4][4] = {{1, 7, 4, -3}, {0, 1, 0, 0}, {0, 5, 0, 0}, {0, 0, 0, 4}};
    memcpy(m->c[0], c0, sizeof c0);
    m->c[1][0][3] = 4.0;
    for (size_t i = 0; i < sizeof below / sizeof below[0]; i++) {
        m->c[0][2][2] = below[i];
        snprintf(name, sizeof name, "3x3 part of determinant %g (flat within that)", below[i]);
        expect_invalid(name, &q, BOXTOI_REASON_SINGULAR, 1);
        is_int(boxtoi_validate(&q.a, m, 0.0, 1.0), BOXTOI_REASON_SINGULAR,
               "validate: 3x3 part of determinant %g", below[i]);
    }
    for (size_t i = 0; i < sizeof above / sizeof above[0]; i++) {
        m->c[0][2][2] = above[i];
        boxtoi_result r = boxtoi_solve(&q);
        double t = r.toi, *p = r.point, cb = 5.0 - 4.0 * t;
        int on_plate = fabs(p[2] - 5.0 * p[1]) <= 1e-9 && fabs(p[1]) <= 0.25 + 1e-9;
        int in_b = fabs(p[0] - cb) <= 1 + 1e-9 && fabs(p[1] - 0.2) <= 1 + 1e-9 &&
                   fabs(p[2] - 0.1) <= 1 + 1e-9;
        if (!ok((r.state == BOXTOI_HIT || r.state == BOXTOI_OVERLAP) && on_plate && in_b,
                "flat within %g: answered, the point on the plate and in B", above[i]))
            diag("state %s, toi %.17g, point (%.17g %.17g %.17g)", boxtoi_state_name(r.state),
                 t, p[0], p[1], p[2]);
    }
}

/*
 * A at rest with the 3x3 part 2^-830 I (determinant 2^-2490, below the
 * doubles): its frame is rescaled (docs/method.md, Input), the corners
 * times 2^-830 and the 3x3 part times 2^830, the same world box exactly.
 * Corners of +-1 stay exact, and the query is answered: A is a speck at
 * the origin, which B (base_query) reaches at t = 1.  A corner of 1e-100
 * would become subnormal, losing digits, so nothing is rescaled and the
 * motion is singular: solve, validate, swept_aabb and overlap_at refuse it
 * alike, with one such corner or two.
 */
static void test_tiny_frame_refused(void)
{
    boxtoi_query q = base_query();
    boxtoi_motion *m = &q.motion_a;
    for (int i = 0; i < 3; i++)
        m->c[0][i][i] = 0x1p-830;
    double lo[3], hi[3];
    boxtoi_result r = boxtoi_solve(&q);
    ok(r.state == BOXTOI_HIT && fabs(r.toi - 1.0) <= 1e-12,
       "tiny frame, corners +-1: a hit at t = 1 (%s at %.17g)", boxtoi_state_name(r.state),
       r.toi);
    is_int(boxtoi_validate(&q.a, m, 0.0, 1.0), BOXTOI_REASON_NONE,
           "tiny frame, corners +-1: validated");
    is_int(boxtoi_swept_aabb(&q.a, m, 0.0, 1.0, lo, hi), BOXTOI_REASON_NONE,
           "tiny frame, corners +-1: swept box given");
    ok(lo[0] <= -0x1p-830 && hi[0] >= 0x1p-830 && lo[0] >= -0x1p-829 && hi[0] <= 0x1p-829,
       "tiny frame, corners +-1: the swept box is about +-2^-830 (%g %g)", lo[0], hi[0]);
    for (int both = 0; both < 2; both++) {
        boxtoi_reason why = BOXTOI_REASON_NONE;
        q.a.hi[0] = 1e-100;
        q.a.lo[0] = both ? -1e-100 : -1.0;
        char name[96];
        snprintf(name, sizeof name, "tiny frame, corners %g and 1e-100", q.a.lo[0]);
        expect_invalid(name, &q, BOXTOI_REASON_SINGULAR, 1);
        is_int(boxtoi_validate(&q.a, m, 0.0, 1.0), BOXTOI_REASON_SINGULAR, "validate: %s",
               name);
        is_int(boxtoi_swept_aabb(&q.a, m, 0.0, 1.0, lo, hi), BOXTOI_REASON_SINGULAR,
               "swept_aabb: %s", name);
        ok(boxtoi_overlap_at(&q, 0.5, &why) == -1 && why == BOXTOI_REASON_SINGULAR,
           "overlap_at: %s refused as singular", name);
    }
    /*
     * B's frame tiny (2^-600 I) with a corner of 1e61, out of range, and A's
     * motion given at the scale 2^200, which is rescaled by w: B's frame,
     * rescaled too, would bring that corner into range; B is refused as
     * boxtoi_validate refuses it.
     */
    boxtoi_query y = base_query();
    for (int i = 0; i < 3; i++) {
        y.motion_a.c[0][i][i] = 0x1p200;
        y.motion_b.c[0][i][i] = 0x1p-600;
    }
    y.motion_a.c[0][3][3] = 0x1p200;
    y.b.hi[0] = 1e61;
    is_int(boxtoi_validate(&y.b, &y.motion_b, 0.0, 1.0), BOXTOI_REASON_OUT_OF_RANGE,
           "tiny frame, corner 1e61: validate refuses it");
    expect_invalid("tiny frame, corner 1e61, the other motion at scale 2^200", &y,
                   BOXTOI_REASON_OUT_OF_RANGE, 2);
    boxtoi_reason why = BOXTOI_REASON_NONE;
    ok(boxtoi_overlap_at(&y, 0.5, &why) == -1 && why == BOXTOI_REASON_OUT_OF_RANGE,
       "overlap_at: tiny frame, corner 1e61, the other motion at scale 2^200: out of range");
}

/*
 * A motion given at the scale 1e-100 (3x3 part and w's constant), whose w
 * has the term t^2: over [0, 1e-60] and at t = 0 that term is below the
 * rounding of w, and the motion is the identity.  Its 3x3 part was taken for
 * tiny against w's largest coefficient (1), its frame rescaled, and the
 * query refused as out of range while boxtoi_validate accepted the box.  B
 * (unit cube) at x = 1 + 1e-3 or 3, A the unit cube at the origin: apart
 * (a miss) or, at x = 0.5, overlapping, from every function.
 */
static void test_tiny_scale_interval(void)
{
    static const double xs[3] = {1.001, 3.0, 0.5};
    for (int i = 0; i < 3; i++) {
        boxtoi_query q = boxtoi_default_query();
        boxtoi_motion *m = &q.motion_b;
        m->degree = 2;
        for (int j = 0; j < 4; j++)
            m->c[0][j][j] = 1e-100;
        m->c[0][0][3] = xs[i] * 1e-100;
        m->c[2][3][3] = 1.0;
        q.t1 = 1e-60;
        double lo[3], hi[3];
        is_int(boxtoi_validate(&q.b, m, q.t0, q.t1), BOXTOI_REASON_NONE,
               "scale 1e-100, w with t^2, B at x = %g: validated", xs[i]);
        boxtoi_reason sw = boxtoi_swept_aabb(&q.b, m, q.t0, q.t1, lo, hi);
        ok(sw == BOXTOI_REASON_NONE && fabs(lo[0] - (xs[i] - 0.5)) < 1e-12 &&
               fabs(hi[0] - (xs[i] + 0.5)) < 1e-12,
           "scale 1e-100, w with t^2, B at x = %g: swept box at x %g to %g", xs[i], lo[0], hi[0]);
        int touch = xs[i] <= 1.0;
        boxtoi_reason why = BOXTOI_REASON_NONE;
        int o = boxtoi_overlap_at(&q, 0.0, &why);
        ok(o == touch && why == BOXTOI_REASON_NONE,
           "scale 1e-100, w with t^2, B at x = %g: overlap_at(0) %d (got %d, %s)", xs[i], touch,
           o, boxtoi_reason_message(why));
        boxtoi_result r = boxtoi_solve(&q);
        ok(r.state == (touch ? BOXTOI_OVERLAP : BOXTOI_MISS),
           "scale 1e-100, w with t^2, B at x = %g: %s over [0, 1e-60] (got %s, %s)", xs[i],
           touch ? "overlap" : "miss", boxtoi_state_name(r.state),
           boxtoi_reason_message(r.reason));
    }
}

/* A number for reasons_agree: mostly near 1, sometimes 0, huge, tiny,
   subnormal, or a power of two far from 1. */
static double odd_number(unsigned long long *st)
{
    int k = (int)tu_rand(st, 0.0, 60.0);
    double u = tu_rand(st, -0.5, 0.5);
    switch (k) {
    case 0: return 0.0;
    case 1: return ldexp(u, (int)tu_rand(st, -1074.0, 1026.0));
    case 2: return u * 1e61;
    case 3: return u * 1e-300;
    case 4: return ldexp(1.0, (int)tu_rand(st, -900.0, -600.0));
    case 5: return ldexp(u, -(int)tu_rand(st, 0.0, 1000.0));
    default: return 4.0 * u;
    }
}

/* A box and motion of odd numbers: corners in order nine times in ten, a
   motion of degree 0 to 3 near the identity (an odd number added to an
   entry, or given to a coefficient of w past the first, one time in ten),
   its 3x3 part scaled by a power of two down to 2^-900 three times in ten. */
static void odd_part(unsigned long long *st, boxtoi_box *b, boxtoi_motion *m)
{
    for (int i = 0; i < 3; i++) {
        double x = odd_number(st), y = odd_number(st);
        int order = tu_rand(st, 0.0, 1.0) < 0.9;
        b->lo[i] = order ? fmin(x, y) : x;
        b->hi[i] = order ? fmax(x, y) : y;
    }
    memset(m, 0, sizeof *m);
    m->degree = (int)tu_rand(st, 0.0, 4.0);
    double sc = tu_rand(st, 0.0, 1.0) < 0.3 ? ldexp(1.0, -(int)tu_rand(st, 0.0, 900.0)) : 1.0;
    for (int k = 0; k <= m->degree; k++) {
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) {
                double x = k == 0 && r == c ? sc : 0.0;
                if (tu_rand(st, 0.0, 1.0) < 0.1)
                    x += odd_number(st) * (c < 3 ? sc : 1.0);
                m->c[k][r][c] = x;
            }
        m->c[k][3][3] = k == 0 ? 1.0 : tu_rand(st, 0.0, 1.0) < 0.1 ? odd_number(st) : 0.0;
    }
}

/* The corners and translations of a box and motion times 2^-k (ldexp:
   past the normal doubles they round). */
static void shrink_lengths(boxtoi_box *b, boxtoi_motion *m, int k)
{
    for (int i = 0; i < 3; i++) {
        b->lo[i] = ldexp(b->lo[i], -k);
        b->hi[i] = ldexp(b->hi[i], -k);
    }
    for (int d = 0; d <= m->degree; d++)
        for (int r = 0; r < 3; r++)
            m->c[d][r][3] = ldexp(m->c[d][r][3], -k);
}

/*
 * The functions that check a box and its motion give the same reason:
 * boxtoi_validate and boxtoi_swept_aabb for each box, boxtoi_overlap_at at
 * t = 1/2 (against boxtoi_validate over [1/2, 1/2]), and boxtoi_solve
 * refuses a query exactly when one of its boxes is refused (the interval
 * being in range), with the first refused box's reason.  Odd numbers
 * (odd_part) over [0, 1], 20,000 pairs as drawn, and 10,000 with every
 * length of both boxes (corners, translations) times 2^-400 to 2^-800,
 * where the solver scales them back near 1 and a tiny 3x3 part can make a
 * box's world lengths fall below the normal doubles.  A tiny 3x3 part (a
 * determinant below the doubles) was refused as singular by
 * boxtoi_swept_aabb, and by boxtoi_solve when the other box was refused
 * too, while boxtoi_validate accepted it; with corners near 2^-560 under a
 * 3x3 part near 2^-500, boxtoi_validate and boxtoi_overlap_at refused the
 * box as singular while boxtoi_swept_aabb bounded it, and boxtoi_solve
 * answered when the other box's lengths were as small.
 */
static void test_reasons_agree(void)
{
    unsigned long long st = 20261126;
    static const char *what[2] = {"odd numbers", "odd numbers, lengths times 2^-400 to 2^-800"};
    for (int pass = 0; pass < 2; pass++) {
        int swept_differs = 0, solve_differs = 0, overlap_differs = 0, refused = 0, n = 0;
        for (int it = 0; it < (pass ? 10000 : 20000); it++) {
            boxtoi_query q = base_query();
            odd_part(&st, &q.a, &q.motion_a);
            odd_part(&st, &q.b, &q.motion_b);
            if (pass) {
                int k = (int)tu_rand(&st, 400.0, 800.0);
                shrink_lengths(&q.a, &q.motion_a, k);
                shrink_lengths(&q.b, &q.motion_b, k);
            }
            n++;
            boxtoi_reason va = boxtoi_validate(&q.a, &q.motion_a, 0.0, 1.0);
            boxtoi_reason vb = boxtoi_validate(&q.b, &q.motion_b, 0.0, 1.0);
            double lo[3], hi[3];
            boxtoi_reason sa = boxtoi_swept_aabb(&q.a, &q.motion_a, 0.0, 1.0, lo, hi);
            boxtoi_reason sb = boxtoi_swept_aabb(&q.b, &q.motion_b, 0.0, 1.0, lo, hi);
            boxtoi_result r = boxtoi_solve(&q);
            refused += va || vb;
            if ((va != sa || vb != sb) && swept_differs++ < 3)
                diag("%s, pair %d: validate %s / %s, swept_aabb %s / %s", what[pass], it,
                     boxtoi_reason_message(va), boxtoi_reason_message(vb),
                     boxtoi_reason_message(sa), boxtoi_reason_message(sb));
            boxtoi_reason want = va ? va : vb;
            int which = va ? 1 : vb ? 2 : 0;
            int same = want ? r.state == BOXTOI_INVALID && r.reason == want && r.which == which
                            : r.state != BOXTOI_INVALID;
            if (!same && solve_differs++ < 3)
                diag("%s, pair %d: validate %s / %s, solve %s (%s, which %d)", what[pass], it,
                     boxtoi_reason_message(va), boxtoi_reason_message(vb),
                     boxtoi_state_name(r.state), boxtoi_reason_message(r.reason), r.which);
            boxtoi_reason ha = boxtoi_validate(&q.a, &q.motion_a, 0.5, 0.5);
            boxtoi_reason hb = boxtoi_validate(&q.b, &q.motion_b, 0.5, 0.5);
            boxtoi_reason ro = BOXTOI_REASON_NONE;
            int o = boxtoi_overlap_at(&q, 0.5, &ro);
            want = ha ? ha : hb;
            same = want ? o == -1 && ro == want : o == 0 || o == 1;
            if (!same && overlap_differs++ < 3)
                diag("%s, pair %d: validate at 1/2 %s / %s, overlap_at %d (%s)", what[pass], it,
                     boxtoi_reason_message(ha), boxtoi_reason_message(hb), o,
                     boxtoi_reason_message(ro));
        }
        ok(refused >= n / 10 && refused <= n * 9 / 10, "%s: some pairs refused, some not (%d "
           "of %d refused)", what[pass], refused, n);
        is_int(swept_differs, 0, "%s: boxtoi_swept_aabb gives boxtoi_validate's reason",
               what[pass]);
        is_int(solve_differs, 0, "%s: boxtoi_solve refuses exactly the pairs with a box "
               "refused, with the first one's reason", what[pass]);
        is_int(overlap_differs, 0, "%s: boxtoi_overlap_at refuses exactly the pairs with a box "
               "refused at that time, with the first one's reason", what[pass]);
    }
}

/* A number of either sign for the extreme pairs: odd_number's, or near
   1e160, or a power of two from 2^100 to 2^700. */
static double extreme_number(unsigned long long *st)
{
    double k = tu_rand(st, 0.0, 1.0);
    if (k < 0.01)
        return tu_rand(st, -0.5, 0.5) * 1e160;
    if (k < 0.02) {
        double u = tu_rand(st, -0.5, 0.5); /* drawn in this order by every compiler */
        return ldexp(u, (int)tu_rand(st, 100.0, 700.0));
    }
    return odd_number(st);
}

/* A box and motion for the extreme pairs: its lengths (corners and
   translations) times 2^-800 to 2^300 two times in five, a motion of
   degree 0 to 4 whose 3x3 part is times 2^-900 to 2^400 two times in five,
   odd or huge numbers added to entries and to w's coefficients, and w's
   constant term not 1 one time in ten. */
static void extreme_part(unsigned long long *st, boxtoi_box *b, boxtoi_motion *m)
{
    double u = tu_rand(st, 0.0, 1.0);
    double len = u < 0.25 ? ldexp(1.0, -(int)tu_rand(st, 0.0, 800.0))
                 : u < 0.4 ? ldexp(1.0, (int)tu_rand(st, 0.0, 300.0)) : 1.0;
    for (int i = 0; i < 3; i++) {
        double x = extreme_number(st) * len, y = extreme_number(st) * len;
        int order = tu_rand(st, 0.0, 1.0) < 0.95;
        b->lo[i] = order ? fmin(x, y) : x;
        b->hi[i] = order ? fmax(x, y) : y;
    }
    memset(m, 0, sizeof *m);
    m->degree = (int)tu_rand(st, 0.0, 5.0);
    u = tu_rand(st, 0.0, 1.0);
    double sc = u < 0.25 ? ldexp(1.0, -(int)tu_rand(st, 0.0, 900.0))
                : u < 0.4 ? ldexp(1.0, (int)tu_rand(st, 0.0, 400.0)) : 1.0;
    for (int k = 0; k <= m->degree; k++) {
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) {
                double x = k == 0 && r == c ? sc : 0.0;
                if (tu_rand(st, 0.0, 1.0) < 0.15)
                    x += extreme_number(st) * (c < 3 ? sc : len);
                m->c[k][r][c] = x;
            }
        u = tu_rand(st, 0.0, 1.0);
        m->c[k][3][3] = k == 0 ? (u < 0.9 ? 1.0 : extreme_number(st))
                        : u < 0.2 ? extreme_number(st) : 0.0;
    }
}

/* A time for the extreme pairs: 0, in [0, 1] or [-3, 3], or of either sign
   up to 2^1000, near 1e160, or below 2^-1000. */
static double extreme_time(unsigned long long *st)
{
    double u = tu_rand(st, 0.0, 1.0);
    switch ((int)tu_rand(st, 0.0, 8.0)) {
    case 0: return 0.0;
    case 1: return u;
    case 2: return ldexp(u, (int)tu_rand(st, 0.0, 1000.0));
    case 3: return -ldexp(u, (int)tu_rand(st, 0.0, 1000.0));
    case 4: return u * 1e160;
    case 5: return ldexp(u, -(int)tu_rand(st, 0.0, 1074.0));
    default: return tu_rand(st, -3.0, 3.0);
    }
}

/* log2 of the spread of a query's scales: its boxes' largest world
   coordinate over their least world extent, each taken at t0, the middle
   and t1 from the matrices (boxtoi_motion_eval): a box's extent as its
   local one times the 3x3 part's largest entry over |w|, its reach as its
   largest corner times that plus the translation's largest over |w|.
   INT_MAX where a number there is not finite or an extent is 0. */
static int scale_spread(const boxtoi_query *q)
{
    const boxtoi_box *box[2] = {&q->a, &q->b};
    const boxtoi_motion *motion[2] = {&q->motion_a, &q->motion_b};
    double least = INFINITY, most = 0.0;
    for (int k = 0; k < 2; k++) {
        double corner = 0.0, extent = 0.0;
        for (int i = 0; i < 3; i++) {
            corner = fmax(corner, fmax(fabs(box[k]->lo[i]), fabs(box[k]->hi[i])));
            extent = fmax(extent, box[k]->hi[i] - box[k]->lo[i]);
        }
        for (int j = 0; j < 3; j++) {
            double t = j == 0 ? q->t0 : j == 1 ? q->t0 + (q->t1 - q->t0) / 2 : q->t1, m[4][4];
            boxtoi_motion_eval(motion[k], t, m);
            double u = 0.0, x = 0.0, w = fabs(m[3][3]);
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++)
                    u = fmax(u, fabs(m[r][c]));
                x = fmax(x, fabs(m[r][3]));
            }
            double size = extent * u / w, reach = (corner * u + x) / w;
            if (!isfinite(size) || !isfinite(reach))
                return INT_MAX;
            least = fmin(least, size);
            most = fmax(most, reach);
        }
    }
    return least > 0.0 ? ilogb(most) - ilogb(least) : INT_MAX;
}

/*
 * The agreement of test_reasons_agree on numbers further out: 50,000 pairs
 * of extreme_part over intervals of extreme_time (their ends in order nine
 * times in ten, equal three times in ten; seven in ten [0, 1] or [u, 1]).
 * boxtoi_swept_aabb gives boxtoi_validate's reason for each box;
 * boxtoi_overlap_at at t0 and at t1 refuses exactly the pairs with a box
 * refused there, with the first one's reason; boxtoi_solve refuses every
 * pair with a box refused, with the first one's reason, and answers the
 * others, but for pairs whose scales are too far apart for one frame:
 * refused as out of range, where the boxes' world coordinates reach at
 * least 2^300 times their least world extent (scale_spread), and at most
 * one pair in 1,000.  Before, boxtoi_swept_aabb refused as out of range
 * tiny corners under a huge 3x3 part (scaled near 1, their world
 * coordinates left the range), and boxtoi_overlap_at and boxtoi_solve gave
 * the reasons of the rescaled motions (a 3x3 part singular, where
 * boxtoi_validate found a coefficient times t^2 out of range) or answered
 * where boxtoi_validate refused a box.
 */
static void test_reasons_agree_extreme(void)
{
    unsigned long long st = 20261128;
    int n = 50000, refused = 0, swept_differs = 0, overlap_differs = 0, solve_differs = 0;
    int spread_refused = 0, least_spread = INT_MAX;
    for (int it = 0; it < n; it++) {
        boxtoi_query q = base_query();
        extreme_part(&st, &q.a, &q.motion_a);
        extreme_part(&st, &q.b, &q.motion_b);
        double x = extreme_time(&st), y = tu_rand(&st, 0.0, 1.0) < 0.3 ? x : extreme_time(&st);
        if (tu_rand(&st, 0.0, 1.0) < 0.7) {
            x = tu_rand(&st, 0.0, 1.0) < 0.5 ? 0.0 : tu_rand(&st, 0.0, 1.0);
            y = 1.0;
        }
        int order = tu_rand(&st, 0.0, 1.0) < 0.9;
        q.t0 = order ? fmin(x, y) : x;
        q.t1 = order ? fmax(x, y) : y;
        boxtoi_reason va = boxtoi_validate(&q.a, &q.motion_a, q.t0, q.t1);
        boxtoi_reason vb = boxtoi_validate(&q.b, &q.motion_b, q.t0, q.t1);
        double lo[3], hi[3];
        boxtoi_reason sa = boxtoi_swept_aabb(&q.a, &q.motion_a, q.t0, q.t1, lo, hi);
        boxtoi_reason sb = boxtoi_swept_aabb(&q.b, &q.motion_b, q.t0, q.t1, lo, hi);
        refused += va || vb;
        if ((va != sa || vb != sb) && swept_differs++ < 3)
            diag("extreme pair %d: validate %s / %s, swept_aabb %s / %s", it,
                 boxtoi_reason_message(va), boxtoi_reason_message(vb),
                 boxtoi_reason_message(sa), boxtoi_reason_message(sb));
        for (int e = 0; e < 2; e++) {
            double t = e ? q.t1 : q.t0;
            boxtoi_reason ha = boxtoi_validate(&q.a, &q.motion_a, t, t);
            boxtoi_reason hb = boxtoi_validate(&q.b, &q.motion_b, t, t), ro = BOXTOI_REASON_NONE;
            int o = boxtoi_overlap_at(&q, t, &ro);
            boxtoi_reason want = ha ? ha : hb;
            int same = want ? o == -1 && ro == want : o == 0 || o == 1;
            if (!same && overlap_differs++ < 3)
                diag("extreme pair %d, t%d: validate %s / %s, overlap_at %d (%s)", it, e,
                     boxtoi_reason_message(ha), boxtoi_reason_message(hb), o,
                     boxtoi_reason_message(ro));
        }
        boxtoi_result r = boxtoi_solve(&q);
        boxtoi_reason query_why = q.t0 > q.t1 ? BOXTOI_REASON_INTERVAL_REVERSED
                                              : BOXTOI_REASON_NONE;
        boxtoi_reason want = query_why ? query_why : va ? va : vb;
        int which = query_why ? 0 : va ? 1 : vb ? 2 : 0;
        int same = want ? r.state == BOXTOI_INVALID && r.reason == want && r.which == which
                        : r.state != BOXTOI_INVALID && r.state != BOXTOI_FAILED;
        if (!want && r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE) {
            int spread = scale_spread(&q);
            least_spread = spread < least_spread ? spread : least_spread;
            spread_refused++;
            same = spread >= 300;
        }
        if (!same && solve_differs++ < 3)
            diag("extreme pair %d: validate %s / %s, solve %s (%s, which %d)", it,
                 boxtoi_reason_message(va), boxtoi_reason_message(vb),
                 boxtoi_state_name(r.state), boxtoi_reason_message(r.reason), r.which);
    }
    diag("extreme pairs: %d of %d refused; %d more refused as out of range, scales "
         "2^%d or more apart", refused, n, spread_refused, least_spread);
    ok(refused >= n / 10 && refused <= n * 9 / 10,
       "extreme pairs: some refused, some not (%d of %d refused)", refused, n);
    is_int(swept_differs, 0, "extreme pairs: boxtoi_swept_aabb gives boxtoi_validate's reason");
    is_int(overlap_differs, 0, "extreme pairs: boxtoi_overlap_at at t0 and t1 refuses exactly "
           "the pairs with a box refused there, with the first one's reason");
    is_int(solve_differs, 0, "extreme pairs: boxtoi_solve refuses the pairs with a box "
           "refused, with the first one's reason, and answers the others but for scales "
           "2^300 or more apart");
    ok(spread_refused <= n / 1000, "extreme pairs: at most 1 in 1,000 refused for scales "
       "far apart (%d)", spread_refused);
}

/*
 * Pairs found by the extreme pairs' search, each at one time t:
 * - a unit box under the 3x3 part 2^219 I plus shears, w = 1 - 1.69 t and
 *   an entry -2^-518 t^2, at t near 2^613 (boxtoi_validate: singular),
 *   against a tiny box at rest: boxtoi_solve answered OVERLAP;
 * - a box whose motion has w = 1 + 1.86 t and entries near 2^-345 t^2 and
 *   2^-882 t^3, at t near 2^459 (singular), against a unit box at rest:
 *   boxtoi_solve answered MISS;
 * - a motion with terms t and w = 1 + 2^212 t and an entry 2^-1002 t^3,
 *   at t near -2^645 (singular), against a box on a sheared frame near
 *   2^57: boxtoi_overlap_at answered 0.
 * Scaled by w's power of two, the motions passed the tests that the boxes
 * as given fail.  Each is refused now with boxtoi_validate's reason.
 */
static void test_reasons_found(void)
{
    boxtoi_query q = base_query();
    q.a = tu_box(-0x1.5fc5acb43f85ap-718, 0x1.9f8e8856c982p-721, -0x1.b2191debeac69p-189,
                 -0x1.5987cf847beaep-718, 0x1.f9b4c03e1d31ap-718, 0x1.abf06c67cd8cp-722);
    boxtoi_motion_identity(&q.motion_a);
    q.b = tu_box(-0x1.3021441c4f0cp-1, 0x1.f9fcf6fdf4258p-1, -0x1.457f128d34856p+0,
                 -0x1.f051356179dep-2, 0x1.17e40336a1b62p+0, -0x1.d53b2b10dad4p-5);
    boxtoi_motion_identity(&q.motion_b);
    q.motion_b.degree = 2;
    static const double b0[3][4] = {
        {0x1p+219, 0x1.2b87de8c49b5cp+219, -0x1.31dfea9583524p+218, -0x1.c6e1fd6fc6038p-2},
        {-0x1.50ab631d837eap+219, 0x1p+219, 0, 0},
        {0, 0, 0x1p+219, 0}};
    memcpy(q.motion_b.c[0], b0, sizeof b0);
    q.motion_b.c[1][3][3] = -0x1.b08f8a72966d4p+0;
    q.motion_b.c[2][1][0] = -0x1.ddda7fcbcba7cp-518;
    q.t0 = q.t1 = 0x1.51b20f244be8ap+613;
    boxtoi_result r = boxtoi_solve(&q);
    boxtoi_reason v = boxtoi_validate(&q.b, &q.motion_b, q.t0, q.t1);
    ok(v == BOXTOI_REASON_SINGULAR && r.state == BOXTOI_INVALID && r.reason == v &&
       r.which == 2, "found: a motion singular within rounding at t near 2^613 is refused by "
       "boxtoi_solve as by boxtoi_validate (%s, %s, which %d)", boxtoi_state_name(r.state),
       boxtoi_reason_message(r.reason), r.which);

    q.a = tu_box(-0x1.092ead04a528ep+0, 0x1.02b8d3f0037dp-1, -0x1.cdc61a34c421ep+0,
                 0x1.4c9edbeb89b18p-1, 0x1.152be785bb188p-1, 0x1.254d31716a8dp-2);
    boxtoi_motion_identity(&q.motion_a);
    q.motion_a.c[0][2][0] = -0x1.d9900542eb56p-2;
    q.b = tu_box(0x1.4d71de003fe1cp-343, -0x1.c9e791e6ca588p-345, -0x1.2ba574129db2p-343,
                 0x1.177bf4b5f1b9p+186, 0x1.ce6ff884dab1p-344, 0x1.552fc0d3739d8p-344);
    boxtoi_motion_identity(&q.motion_b);
    q.motion_b.degree = 3;
    q.motion_b.c[1][3][3] = 0x1.dd1a1f6c97034p+0;
    q.motion_b.c[2][0][1] = -0x1.e38fa3af4a1a8p-788;
    q.motion_b.c[2][2][3] = -0x1.982ee2e94e8f8p-345;
    q.motion_b.c[3][1][2] = 0x1.d542d357b6cacp-882;
    q.t0 = q.t1 = 0x1.2abedd08b8417p+459;
    r = boxtoi_solve(&q);
    v = boxtoi_validate(&q.b, &q.motion_b, q.t0, q.t1);
    ok(v == BOXTOI_REASON_SINGULAR && r.state == BOXTOI_INVALID && r.reason == v &&
       r.which == 2, "found: a cubic motion singular within rounding at t near 2^459 is "
       "refused by boxtoi_solve as by boxtoi_validate (%s, %s, which %d)",
       boxtoi_state_name(r.state), boxtoi_reason_message(r.reason), r.which);

    q.a = tu_box(0x1.90512b309083p-465, -0x1.7b8b0ea8b949ep-462, -0x1.9b578b47e6f38p-462,
                 0x1.4912396ddc504p-462, 0x1.381f0b1de65d8p-463, -0x1.32e6eb475a5f4p-462);
    boxtoi_motion_identity(&q.motion_a);
    q.motion_a.degree = 4;
    q.motion_a.c[0][2][0] = 0x1.beddba218e41cp-1;
    q.motion_a.c[1][0][2] = 0x1.da0becd128f4p-1;
    q.motion_a.c[1][0][3] = 0x1.d40117d6b4658p-464;
    q.motion_a.c[1][2][0] = 0x1.4c37359821544p-1;
    q.motion_a.c[1][3][3] = 0x1.b90a1e22d53e8p+212;
    q.motion_a.c[3][1][2] = 0x1.b514cc678a076p-1002;
    q.b = tu_box(0x1.43b18b0b0c7p-514, -0x1.5b83a2e2abd91p+23, 0x1.306c354c8c3cp-512,
                 0x1.a3eb98a00ebcp-512, 0x1.b37a618c45d8p-511, 0x1.73f7aebc6078cp-507);
    boxtoi_motion_identity(&q.motion_b);
    q.motion_b.c[0][1][1] = -0x1.33dde4c91f1dap+57;
    q.motion_b.c[0][1][3] = -0x1.13f0f10a2ccbp+112;
    double t = -0x1.f229558dc8408p+645;
    boxtoi_reason why = BOXTOI_REASON_NONE;
    int o = boxtoi_overlap_at(&q, t, &why);
    v = boxtoi_validate(&q.a, &q.motion_a, t, t);
    ok(v == BOXTOI_REASON_SINGULAR && o == -1 && why == v, "found: a quartic motion singular "
       "within rounding at t near -2^645 is refused by boxtoi_overlap_at as by "
       "boxtoi_validate (%d, %s)", o, boxtoi_reason_message(why));
}

/*
 * A box of corners near 2^-762 under the 3x3 part 2^680 times a shear,
 * with w = 1 + 2^521 t over [0, 1]: its world lengths are near 2^-82 at
 * t = 0 and shrink to near 2^-603.  boxtoi_validate accepts it;
 * boxtoi_swept_aabb, scaling its tiny corners near 1, put its world
 * coordinates out of range and refused it.  It now gives the bounds of the
 * box as given, which hold: the corners at 2001 times (boxtoi_motion_apply)
 * lie within them.  They are wide (about 1e119): their rounding margin
 * takes w's rounding at its largest, 2^521 times its least.
 */
static void test_tiny_corners_huge_frame(void)
{
    boxtoi_box b = tu_box(-0x1.f754361247d1ep-762, -0x1.cafd6f8349e6p-766,
                          -0x1.45496931d9a3p-762, -0x1.e8daeacd3d0f8p-764,
                          -0x1.19f8153af608p-766, -0x1.026cfd63a12e6p-762);
    const double *lo = b.lo, *hi = b.hi;
    boxtoi_motion m;
    boxtoi_motion_identity(&m);
    m.degree = 1;
    for (int i = 0; i < 3; i++)
        m.c[0][i][i] = 0x1p+680;
    m.c[0][1][0] = 0x1.f8b35cdb869bap+680;
    m.c[0][2][0] = -0x1.f25cac180b88cp+680;
    m.c[1][3][3] = 0x1.2efe19a1f9183p+521;
    double l[3], h[3];
    boxtoi_reason v = boxtoi_validate(&b, &m, 0.0, 1.0);
    boxtoi_reason s = boxtoi_swept_aabb(&b, &m, 0.0, 1.0, l, h);
    is_int(v, BOXTOI_REASON_NONE, "tiny corners, huge frame: boxtoi_validate accepts the box");
    is_int(s, BOXTOI_REASON_NONE, "tiny corners, huge frame: boxtoi_swept_aabb bounds it");
    int outside = 0;
    for (int k = 0; k <= 2000 && !s; k++) {
        double t = k / 2000.0;
        for (int c = 0; c < 8; c++) {
            double p[3] = {c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]};
            double x[3];
            boxtoi_motion_apply(&m, t, p, x);
            for (int i = 0; i < 3; i++)
                outside += !(x[i] >= l[i] && x[i] <= h[i]);
        }
    }
    ok(!s && outside == 0, "tiny corners, huge frame: every corner at 2001 times within the "
       "bounds (%d outside)", outside);
}

/*
 * Two unit cubes at scale 2^k under the 3x3 part 2^205 I with w = 1 +
 * 2^210 t^2 (within range: 2^205 is below 1e60 times w's largest
 * coefficient), B moved along x by 2^(k + 205) (3 - 3 t): both shrink
 * alike, B's centre 3 - 3 t of their size from A's, so they touch at t =
 * 2/3.  At t = 0 the world's lengths are 2^205 times the corners.  With
 * corners of 2^-700 to 2^-450, below 2^-400, the lengths are scaled before
 * solving; scaled near 1, the world coordinates reached 2^206, out of range,
 * and the query was refused while boxtoi_validate accepted both boxes.  The
 * answer must be the one at corners of 2^-300 (not scaled), bit for bit,
 * with the point scaled alike.
 */
static boxtoi_query big_frame_query(int k)
{
    boxtoi_query q = base_query();
    for (int i = 0; i < 3; i++) {
        q.a.lo[i] = q.b.lo[i] = ldexp(-0.5, k);
        q.a.hi[i] = q.b.hi[i] = ldexp(0.5, k);
    }
    memset(&q.motion_a, 0, sizeof q.motion_a);
    q.motion_a.degree = 2;
    for (int i = 0; i < 3; i++)
        q.motion_a.c[0][i][i] = ldexp(1.0, 205);
    q.motion_a.c[0][3][3] = 1.0;
    q.motion_a.c[2][3][3] = ldexp(1.0, 210);
    q.motion_b = q.motion_a;
    q.motion_b.c[0][0][3] = ldexp(3.0, k + 205);
    q.motion_b.c[1][0][3] = ldexp(-3.0, k + 205);
    return q;
}

static void test_tiny_big_frame(void)
{
    boxtoi_query q = big_frame_query(-300);
    boxtoi_result ref = boxtoi_solve(&q);
    is_int(ref.state, BOXTOI_HIT, "big frame, corners 2^-300: a hit");
    is_double(ref.toi, 2.0 / 3.0, 1e-15, "big frame, corners 2^-300: at t = 2/3");
    double rlo[3], rhi[3], lo[3], hi[3];
    if (boxtoi_swept_aabb(&q.b, &q.motion_b, 0.0, 1.0, rlo, rhi))
        bail("big frame, corners 2^-300: no swept box");
    int accepted = 0, same = 0, swept = 0;
    for (int k = -700; k <= -450; k += 50) {
        q = big_frame_query(k);
        if (!boxtoi_swept_aabb(&q.b, &q.motion_b, 0.0, 1.0, lo, hi)) {
            int eq = 1;
            for (int i = 0; i < 3; i++)
                eq &= ldexp(lo[i], -300 - k) == rlo[i] && ldexp(hi[i], -300 - k) == rhi[i];
            swept += eq;
        }
        accepted += boxtoi_validate(&q.a, &q.motion_a, 0.0, 1.0) == BOXTOI_REASON_NONE &&
                    boxtoi_validate(&q.b, &q.motion_b, 0.0, 1.0) == BOXTOI_REASON_NONE;
        boxtoi_result r = boxtoi_solve(&q);
        int ok_k = r.state == ref.state && r.toi == ref.toi && r.kind == ref.kind &&
                   !memcmp(&r.feature_a, &ref.feature_a, sizeof r.feature_a) &&
                   !memcmp(&r.feature_b, &ref.feature_b, sizeof r.feature_b) &&
                   r.exit_after_t1 == ref.exit_after_t1 &&
                   (r.exit == ref.exit || (isnan(r.exit) && isnan(ref.exit)));
        for (int i = 0; i < 3; i++)
            ok_k &= ldexp(r.point[i], -300 - k) == ref.point[i] && r.normal[i] == ref.normal[i];
        if (!ok_k)
            diag("big frame, corners 2^%d: %s (%s) at %.17g", k, boxtoi_state_name(r.state),
                 boxtoi_reason_message(r.reason), r.toi);
        same += ok_k;
    }
    is_int(accepted, 6, "big frame, corners 2^-700 to 2^-450: boxtoi_validate accepts both boxes");
    is_int(same, 6, "big frame, corners 2^-700 to 2^-450: the answer at 2^-300, scaled");
    is_int(swept, 6, "big frame, corners 2^-700 to 2^-450: B's swept box is the one at 2^-300, "
           "scaled");
}

/*
 * A rigid motion turning nearly a full turn, q(t) = (1, 0, 0, 150 (2 t - 1))
 * (358.5 degrees): det u = w^3 with w = 1 + 150^2 (2 t - 1)^2 is positive
 * throughout, but within the rounding of the whole interval's coefficients
 * of zero near t = 1/2, where w is 22501 times smaller than at the ends.
 * boxtoi_validate, boxtoi_swept_aabb and boxtoi_solve accept it alike.  The
 * same motion with its x column scaled by (t - 0.9), det u = w^3 (t - 0.9),
 * is refused by all three on [0, 1], even though the boxes touch before
 * 0.9 (B moving at -6 along x: on [0, 0.8], where the motion is regular,
 * the answer is a hit).
 */
static void test_full_turn(void)
{
    double qz[2][4] = {{1, 0, 0, -150}, {0, 0, 0, 300}};
    double p0[1][3] = {{0, 0, 0}};
    double lo[3], hi[3];
    boxtoi_query q = base_query();
    if (boxtoi_motion_rigid(&q.motion_a, qz, 1, p0, 0))
        bail("full turn: motion not built");
    is_int(boxtoi_validate(&q.a, &q.motion_a, 0.0, 1.0), BOXTOI_REASON_NONE,
           "full turn: validate accepts a 358.5 degree turn");
    is_int(boxtoi_swept_aabb(&q.a, &q.motion_a, 0.0, 1.0, lo, hi), BOXTOI_REASON_NONE,
           "full turn: swept_aabb accepts it");
    boxtoi_result r = boxtoi_solve(&q);
    is_int(r.state, BOXTOI_HIT, "full turn: solved, a hit");

    boxtoi_motion m = q.motion_a;
    m.degree = 3;
    for (int k = 0; k <= 3; k++)
        for (int i = 0; i < 3; i++)
            m.c[k][i][0] = (k > 0 ? q.motion_a.c[k - 1][i][0] : 0.0) -
                           (k < 3 ? 0.9 * q.motion_a.c[k][i][0] : 0.0);
    q.motion_a = m;
    q.motion_b.c[1][0][3] = -6.0;
    expect_invalid("full turn, x column scaled by (t - 0.9)", &q, BOXTOI_REASON_SINGULAR, 1);
    is_int(boxtoi_validate(&q.a, &q.motion_a, 0.0, 1.0), BOXTOI_REASON_SINGULAR,
           "full turn, x column scaled by (t - 0.9): validate refuses it");
    is_int(boxtoi_swept_aabb(&q.a, &q.motion_a, 0.0, 1.0, lo, hi), BOXTOI_REASON_SINGULAR,
           "full turn, x column scaled by (t - 0.9): swept_aabb refuses it");
    q.t1 = 0.8;
    r = boxtoi_solve(&q);
    is_int(r.state, BOXTOI_HIT, "full turn, x column scaled by (t - 0.9), on [0, 0.8]: a hit");
}

static void test_names(void)
{
    int good = 1, distinct = 1;
    const char *msg[BOXTOI_REASON_FLAGS + 1];
    for (int i = 0; i <= BOXTOI_REASON_FLAGS; i++) {
        msg[i] = boxtoi_reason_message((boxtoi_reason)i);
        if (!msg[i] || !msg[i][0])
            good = 0;
    }
    ok(good, "every reason has a non-empty message");
    is_string(boxtoi_reason_message((boxtoi_reason)(BOXTOI_REASON_FLAGS + 1)), "unknown reason",
              "the reason after the last has none");
    for (int i = 0; i <= BOXTOI_REASON_FLAGS; i++)
        for (int j = 0; j < i; j++)
            if (msg[i] && msg[j] && strcmp(msg[i], msg[j]) == 0) {
                distinct = 0;
                diag("reasons %d and %d share \"%s\"", i, j, msg[i]);
            }
    ok(distinct, "reason messages are distinct");

    is_string(boxtoi_state_name(BOXTOI_HIT), "hit", "state name hit");
    is_string(boxtoi_state_name(BOXTOI_MISS), "miss", "state name miss");
    is_string(boxtoi_state_name(BOXTOI_OVERLAP), "overlap", "state name overlap");
    is_string(boxtoi_state_name(BOXTOI_INVALID), "invalid", "state name invalid");
    is_string(boxtoi_state_name(BOXTOI_FAILED), "failed", "state name failed");
    is_string(boxtoi_state_name(BOXTOI_UNKNOWN), "unknown", "state name unknown");
    is_string(boxtoi_kind_name(BOXTOI_VERTEX_FACE), "vertex-face", "kind vertex-face");
    is_string(boxtoi_kind_name(BOXTOI_FACE_VERTEX), "face-vertex", "kind face-vertex");
    is_string(boxtoi_kind_name(BOXTOI_EDGE_EDGE), "edge-edge", "kind edge-edge");
    is_string(boxtoi_kind_name(BOXTOI_KIND_NONE), "none", "kind none");

    /* all 26 features, against names written from the definition */
    int count = 0, fine = 0;
    for (int sx = -1; sx <= 1; sx++)
        for (int sy = -1; sy <= 1; sy++)
            for (int sz = -1; sz <= 1; sz++) {
                if (!sx && !sy && !sz)
                    continue;
                boxtoi_feature f = tu_feature(sx, sy, sz);
                char want[16], got[BOXTOI_FEATURE_NAME_MAX];
                tu_feature_name(&f, want);
                boxtoi_feature_name(f, got, sizeof got);
                count++;
                if (strcmp(got, want) == 0)
                    fine++;
                else
                    diag("feature (%d %d %d): got \"%s\" want \"%s\"", sx, sy, sz, got,
                         want);
            }
    is_int(count, 26, "26 features enumerated");
    is_int(fine, 26, "all 26 feature names right");
    char buf[BOXTOI_FEATURE_NAME_MAX];
    is_string(boxtoi_feature_name(tu_feature(1, -1, -1), buf, sizeof buf), "X'YZ",
              "vertex X'YZ");
    is_string(boxtoi_feature_name(tu_feature(-1, 0, 1), buf, sizeof buf), "X-Z'",
              "edge X-Z'");
    is_string(boxtoi_feature_name(tu_feature(0, 1, 0), buf, sizeof buf), "Y'", "face Y'");
    is_string(boxtoi_feature_name(tu_feature(1, 1, 1), buf, sizeof buf), "X'Y'Z'",
              "vertex X'Y'Z'");
    is_string(boxtoi_feature_name(tu_feature(0, 0, 0), buf, sizeof buf), "",
              "empty feature");
    char small[3] = {'#', '#', '#'};
    boxtoi_feature_name(tu_feature(1, 1, 1), small, 3);
    ok(small[2] == '\0' && strncmp(small, "X'", 2) == 0,
       "short buffer: truncated and terminated");
    char none[1] = {'#'};
    boxtoi_feature_name(tu_feature(1, 1, 1), none, 0);
    ok(none[0] == '#', "size 0: nothing written");
    ok(boxtoi_feature_name(tu_feature(1, 0, 0), NULL, 8) == NULL, "NULL buffer: NULL");

    const char *v = boxtoi_version();
    int a, b, c, n = 0;
    ok(v && sscanf(v, "%d.%d.%d%n", &a, &b, &c, &n) == 3 && v[n] == '\0',
       "version is MAJOR.MINOR.PATCH (%s)", v ? v : "(null)");
    /* The header's version macros, the package's version and the library's
     * agree; BOXTOI_VERSION orders versions as #if compares them. */
    char hv[32];
    snprintf(hv, sizeof hv, "%d.%d.%d", BOXTOI_VERSION_MAJOR, BOXTOI_VERSION_MINOR,
             BOXTOI_VERSION_PATCH);
    ok(v && strcmp(v, hv) == 0 && strcmp(PACKAGE_VERSION, hv) == 0,
       "boxtoi_version() %s, the header's BOXTOI_VERSION_* %s and configure's %s agree",
       v ? v : "(null)", hv, PACKAGE_VERSION);
#if BOXTOI_VERSION != BOXTOI_VERSION_MAJOR * 10000 + BOXTOI_VERSION_MINOR * 100 \
    + BOXTOI_VERSION_PATCH || BOXTOI_VERSION_MINOR > 99 || BOXTOI_VERSION_PATCH > 99
    ok(0, "BOXTOI_VERSION is MAJOR * 10000 + MINOR * 100 + PATCH, in #if");
#else
    ok(1, "BOXTOI_VERSION is MAJOR * 10000 + MINOR * 100 + PATCH, in #if (%d)",
       BOXTOI_VERSION);
#endif

    /* The AVX2 copy where configure built it and this processor has AVX2. */
    const char *build = boxtoi_solver_build(), *want = "baseline";
#ifdef BOXTOI_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        want = "avx2";
#endif
    ok(build && strcmp(build, want) == 0 && build == boxtoi_solver_build(),
       "boxtoi_solve runs the %s build (expected %s)", build ? build : "(null)", want);
}

static void test_defaults(void)
{
    boxtoi_result zero;
    memset(&zero, 0, sizeof zero);
    is_int(zero.state, BOXTOI_UNKNOWN, "a zeroed result is UNKNOWN");
    is_int(zero.reason, BOXTOI_REASON_NONE, "a zeroed result has no reason");
    is_int(zero.kind, BOXTOI_KIND_NONE, "a zeroed result has kind none");

    boxtoi_query q = boxtoi_default_query();
    int unit = 1;
    for (int i = 0; i < 3; i++) {
        if (q.a.hi[i] - q.a.lo[i] != 1.0 || q.b.hi[i] - q.b.lo[i] != 1.0)
            unit = 0;
    }
    ok(unit, "default query: two unit boxes");
    is_double(q.t0, 0.0, 0.0, "default query: t0 = 0");
    is_double(q.t1, 1.0, 0.0, "default query: t1 = 1");
    int ident = 1;
    for (int s = 0; s <= 4; s++) {
        double t = s / 4.0, ma[4][4], mb[4][4];
        tu_eval(&q.motion_a, t, ma);
        tu_eval(&q.motion_b, t, mb);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                if (ma[i][j] != (i == j) || mb[i][j] != (i == j))
                    ident = 0;
    }
    ok(ident && q.motion_a.degree >= 0 && q.motion_b.degree >= 0,
       "default query: identity motions");
    is_int(boxtoi_solve(&q).state, BOXTOI_OVERLAP, "default query: the boxes overlap");

    boxtoi_motion m;
    memset(&m, 0x55, sizeof m);
    boxtoi_motion_identity(&m);
    double e[4][4];
    boxtoi_motion_eval(&m, 0.7, e);
    int idok = 1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (e[i][j] != (i == j))
                idok = 0;
    ok(idok, "motion_identity evaluates to I");
    double cm[4][4] = {{0, -1, 0, 2}, {1, 0, 0, 3}, {0, 0, 1, 4}, {0, 0, 0, 1}};
    boxtoi_motion_constant(&m, cm);
    double x[3] = {1, 2, 3}, y[3];
    boxtoi_motion_apply(&m, 5.0, x, y);
    ok(y[0] == 0.0 && y[1] == 4.0 && y[2] == 7.0, "motion_constant + motion_apply");
}

/* ---------- swept AABB ---------- */

static void check_swept(const char *name, const boxtoi_box *box, const boxtoi_motion *m,
                        double t0, double t1, int check_tight)
{
    double lo[3], hi[3];
    boxtoi_reason r = boxtoi_swept_aabb(box, m, t0, t1, lo, hi);
    if (!is_int(r, BOXTOI_REASON_NONE, "swept aabb %s: valid", name))
        return;
    double slo[3] = {INFINITY, INFINITY, INFINITY};
    double shi[3] = {-INFINITY, -INFINITY, -INFINITY};
    const int N = 2000;
    for (int s = 0; s <= N; s++) {
        double t = t0 + (t1 - t0) * s / N;
        for (int v = 0; v < 8; v++) {
            double x[3] = {(v & 1) ? box->hi[0] : box->lo[0],
                           (v & 2) ? box->hi[1] : box->lo[1],
                           (v & 4) ? box->hi[2] : box->lo[2]};
            double y[3];
            tu_apply(m, t, x, y);
            for (int i = 0; i < 3; i++) {
                if (y[i] < slo[i])
                    slo[i] = y[i];
                if (y[i] > shi[i])
                    shi[i] = y[i];
            }
        }
    }
    double scale = 0.0;
    for (int i = 0; i < 3; i++)
        scale = fmax(scale, fmax(fabs(slo[i]), fabs(shi[i])));
    int contains = 1, tight = 1;
    for (int i = 0; i < 3; i++) {
        if (!(lo[i] <= slo[i] + 1e-12 * scale && hi[i] >= shi[i] - 1e-12 * scale))
            contains = 0;
        if (!(hi[i] - lo[i] <= 2.0 * (shi[i] - slo[i]) + 1e-9 * scale))
            tight = 0;
    }
    if (!ok(contains, "swept aabb %s: contains every sampled vertex", name) || !tight)
        for (int i = 0; i < 3; i++)
            diag("axis %d: aabb [%.17g, %.17g] sampled [%.17g, %.17g]", i, lo[i], hi[i],
                 slo[i], shi[i]);
    if (check_tight)
        ok(tight, "swept aabb %s: within 2x of the sampled extent", name);
}

/*
 * Boxes at rest, whose exact corners are p + corner (long double holds the
 * sum exactly): the swept box contains each one exactly, not only within
 * rounding; also written as f(t) [I p; 0 1] with f(t) = 1 + K (t - 1/2)^2
 * (the same motion, its coefficients up to K / 4 times its values, whose
 * Bernstein weights are not all positive), and not wider than the box by
 * more than 1e-11 (K + 1): the rounding grows with the coefficients.
 */
static void test_swept_exact(void)
{
    unsigned long long st = 0x5e97ull;
    static const double factor[3] = {0.0, 1e3, 1e6};
    for (int f = 0; f < 3; f++) {
        int outside = 0, wide = 0;
        for (int n = 0; n < 2000; n++) {
            boxtoi_box box;
            double p[1][3];
            for (int i = 0; i < 3; i++) {
                box.lo[i] = tu_rand(&st, -1.0, 0.0);
                box.hi[i] = tu_rand(&st, 0.0, 1.0);
                p[0][i] = tu_rand(&st, -5.0, 5.0);
            }
            boxtoi_motion m;
            tu_motion_trans(&m, p, 0);
            if (factor[f] > 0.0) {
                double K = factor[f], c[3] = {1.0 + K / 4.0, -K, K};
                boxtoi_motion g = m;
                tu_motion_zero(&m, 2);
                for (int k = 0; k <= 2; k++)
                    for (int r = 0; r < 4; r++)
                        for (int col = 0; col < 4; col++)
                            m.c[k][r][col] = c[k] * g.c[0][r][col];
            }
            double lo[3], hi[3];
            if (boxtoi_swept_aabb(&box, &m, 0.0, 1.0, lo, hi) != BOXTOI_REASON_NONE) {
                outside++;
                continue;
            }
            for (int i = 0; i < 3; i++) {
                long double a = (long double)p[0][i] + box.lo[i];
                long double b = (long double)p[0][i] + box.hi[i];
                if (!(lo[i] <= a && hi[i] >= b))
                    outside++;
                if (!((long double)hi[i] - lo[i] <= (b - a) + 1e-11L * (factor[f] + 1.0)))
                    wide++;
            }
        }
        is_int(outside, 0, "swept aabb of boxes at rest, weight factor K = %g: contains the exact corners",
               factor[f]);
        is_int(wide, 0, "swept aabb of boxes at rest, weight factor K = %g: within 1e-11 (K + 1)",
               factor[f]);
    }
}

static void test_swept(void)
{
    boxtoi_box unit = {{-1, -1, -1}, {1, 1, 1}};
    boxtoi_box bar = {{0, -0.25, -1}, {4, 0.25, 1}};
    boxtoi_motion m;

    double p1[2][3] = {{5.0, 0.2, 0.1}, {-4.0, 1.0, 0.0}};
    tu_motion_trans(&m, p1, 1);
    check_swept("linear translation", &unit, &m, 0.0, 1.0, 1);

    double p2[3][3] = {{0.0, 0.0, 0.0}, {1.0, -2.0, 0.5}, {-3.0, 2.0, 1.0}};
    double rz[3][3];
    tu_rot_z(rz, 0.3);
    tu_motion_rot_trans(&m, rz, p2, 2);
    check_swept("quadratic translation", &unit, &m, 0.0, 1.0, 1);
    check_swept("quadratic translation on [-1, 2]", &unit, &m, -1.0, 2.0, 1);

    /* quadratic rigid rotation: q = (1, 0, 0, -t), pivot (0, 3, 0) */
    double qv[2][4] = {{1, 0, 0, 0}, {0, 0, 0, -1}};
    double pv[1][3] = {{0, 3, 0}};
    boxtoi_motion_rigid(&m, qv, 1, pv, 0);
    check_swept("quadratic rotation", &bar, &m, 0.0, 1.0, 1);
    /* a general rational rigid motion: q linear in all components, p quadratic */
    double qg[2][4] = {{1, 0.2, -0.1, 0.3}, {0.2, -0.5, 0.4, 0.6}};
    double pg[3][3] = {{1, 2, 3}, {-1, 0.5, 2}, {0.3, -0.2, -1}};
    boxtoi_motion_rigid(&m, qg, 1, pg, 2);
    check_swept("rational rigid, degree 4", &bar, &m, 0.0, 1.0, 0);
    /*
     * A quaternion interpolated along the chord from the identity to a turn
     * about z: w's middle Bernstein coefficient is cos(angle / 2), which is
     * 0 to rounding for half a turn, and for a turn of 359.8 degrees w at
     * mid-interval is 7.6e-7 of its ends.  The control points' hull reaches
     * out by about 1 / that coefficient (1e18 for half a turn).
     */
    static const double turn[3] = {180.0, 359.8, 90.0};
    boxtoi_box off = {{1.5, -0.5, -0.5}, {2.5, 0.5, 0.5}};
    for (int k = 0; k < 3; k++) {
        double a = turn[k] * TU_PI / 360.0;
        double qc[2][4] = {{1, 0, 0, 0}, {cos(a) - 1.0, 0, 0, sin(a)}};
        char name[64];
        boxtoi_motion_rigid(&m, qc, 1, NULL, -1);
        snprintf(name, sizeof name, "chord turn of %g degrees", turn[k]);
        check_swept(name, &off, &m, 0.0, 1.0, 1);
    }
    /* shear */
    tu_motion_zero(&m, 1);
    m.c[0][0][0] = m.c[0][1][1] = m.c[0][2][2] = m.c[0][3][3] = 1.0;
    m.c[1][0][1] = -0.45;
    m.c[1][0][2] = -0.8;
    m.c[0][0][3] = 1.7;
    check_swept("shear", &unit, &m, 0.0, 1.0, 1);
    /* static plate */
    boxtoi_box plate = {{-1, -1, 0}, {1, 1, 0}};
    double p0[1][3] = {{0.5, 0.5, 0.5}};
    tu_motion_trans(&m, p0, 0);
    check_swept("static plate", &plate, &m, 0.0, 1.0, 1);
    /*
     * w(t) = t^2 - t + 0.26 > 0 with a negative Bernstein coefficient
     * (0.26 - 0.5): the control points alone do not bound the motion, the
     * weights have to be subdivided.  The box runs out to x = 100 at t = 0.5.
     */
    tu_motion_zero(&m, 2);
    for (int i = 0; i < 4; i++) {
        m.c[0][i][i] = 0.26;
        m.c[1][i][i] = -1.0;
        m.c[2][i][i] = 1.0;
    }
    m.c[1][0][3] = 2.0;
    m.c[0][1][3] = 0.1;
    check_swept("w with a negative Bernstein coefficient", &unit, &m, 0.0, 1.0, 1);

    double lo[3] = {7, 7, 7}, hi[3] = {7, 7, 7};
    boxtoi_box bad = {{0, 0, 0}, {-1, 1, 1}};
    ok(boxtoi_swept_aabb(&bad, &m, 0.0, 1.0, lo, hi) == BOXTOI_REASON_BOX_INVERTED &&
           lo[0] == 7 && hi[0] == 7,
       "swept aabb: inverted box refused, output untouched");
    ok(boxtoi_swept_aabb(&unit, &m, 1.0, 0.0, lo, hi) == BOXTOI_REASON_INTERVAL_REVERSED,
       "swept aabb: reversed interval refused");
    /* a missing box or motion, also for a box of lengths below 2^-400,
       which is swept on a path of its own */
    boxtoi_box speck = {{-1e-200, -1e-200, -1e-200}, {1e-200, 1e-200, 1e-200}};
    ok(boxtoi_swept_aabb(NULL, &m, 0.0, 1.0, lo, hi) == BOXTOI_REASON_NULL && lo[0] == 7,
       "swept aabb: no box refused (NULL), output untouched");
    ok(boxtoi_swept_aabb(&unit, NULL, 0.0, 1.0, lo, hi) == BOXTOI_REASON_NULL && lo[0] == 7,
       "swept aabb: no motion refused (NULL)");
    ok(boxtoi_swept_aabb(&speck, NULL, 0.0, 1.0, lo, hi) == BOXTOI_REASON_NULL && lo[0] == 7,
       "swept aabb: a box of 1e-200 with no motion refused (NULL)");
    /* either output missing: nothing written to the other */
    ok(boxtoi_swept_aabb(&unit, &m, 0.0, 1.0, NULL, hi) == BOXTOI_REASON_NULL && hi[0] == 7 &&
           hi[2] == 7,
       "swept aabb: no lo refused (NULL), hi untouched");
    ok(boxtoi_swept_aabb(&unit, &m, 0.0, 1.0, lo, NULL) == BOXTOI_REASON_NULL && lo[0] == 7 &&
           lo[2] == 7,
       "swept aabb: no hi refused (NULL), lo untouched");
    ok(boxtoi_swept_aabb(&speck, &m, 0.0, 1.0, lo, NULL) == BOXTOI_REASON_NULL && lo[0] == 7,
       "swept aabb: a box of 1e-200 with no hi refused (NULL), lo untouched");
    /* the path for tiny lengths is for tiny boxes only: a box of ordinary
       size, on a motion whose translation is tiny, gets its own bounds */
    boxtoi_box plain = {{-1, -2, -3}, {1, 2, 3}};
    boxtoi_motion nudge;
    boxtoi_motion_identity(&nudge);
    nudge.c[0][0][3] = 1e-200;
    int held = boxtoi_swept_aabb(&plain, &nudge, 0.0, 1.0, lo, hi) == BOXTOI_REASON_NONE;
    for (int i = 0; i < 3; i++)
        held &= lo[i] <= plain.lo[i] && lo[i] >= plain.lo[i] - 1e-12 && hi[i] >= plain.hi[i] &&
                hi[i] <= plain.hi[i] + 1e-12;
    ok(held, "swept aabb: a box of sides 2, 4, 6 moved by 1e-200: its own corners (got %g %g "
       "%g, %g %g %g)", lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    boxtoi_query tq = boxtoi_default_query();
    tq.a = speck;
    tq.b = speck;
    boxtoi_result tr = boxtoi_solve(&tq);
    ok(tr.state == BOXTOI_OVERLAP, "solve: two boxes of 1e-200 at the origin overlap");
}

/* ---------- overlap_at against the SAT oracle ---------- */

static void random_motion_r(unsigned long long *st, boxtoi_motion *m, double reach)
{
    /* random rotation (three angles), random scale/shear with probability
     * 1/2, random quadratic translation */
    double rx[3][3], ry[3][3], rz[3][3], r[3][3];
    tu_rot_x(rx, tu_rand(st, -3.2, 3.2));
    tu_rot_y(ry, tu_rand(st, -3.2, 3.2));
    tu_rot_z(rz, tu_rand(st, -3.2, 3.2));
    tu_mul3(rx, ry, r);
    tu_mul3(r, rz, r);
    if (tu_rand(st, 0, 1) < 0.5) {
        /* drawn one by one: an initializer's items have no set order */
        double s[3][3] = {{0}};
        s[0][0] = tu_rand(st, 0.5, 1.5);
        s[0][1] = tu_rand(st, -0.3, 0.3);
        s[1][1] = tu_rand(st, 0.5, 1.5);
        s[1][2] = tu_rand(st, -0.3, 0.3);
        s[2][2] = tu_rand(st, 0.5, 1.5);
        tu_mul3(r, s, r);
    }
    double p[3][3];
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            p[k][i] = tu_rand(st, -reach, reach);
    tu_motion_rot_trans(m, r, p, 2);
}

static void random_motion(unsigned long long *st, boxtoi_motion *m)
{
    random_motion_r(st, m, 2.0);
}

/*
 * Two rods 2L long, 1 thick, B turned by a small angle th about the
 * diagonal k = (0, s, s) (R = I + th [k]x, s = 1/sqrt 2) and moved by
 * c = (0, e, e).  Their long edges are th from parallel and their cross
 * product is along k, on which B's long axis has no component: the plane
 * y + z = 1 parts them when e > 1.  Along every other axis B's ends reach
 * out by L th s, so for e - 1 < L th s all fifteen axes but that one
 * overlap: only the nearly parallel edges' axis shows the gap.  The
 * answers are certified here without the library: apart, the extreme
 * values of y + z over the corners (in long double); touching, the point
 * (0, e/2, e/2), inside A and the image of (0, -e/2, -e/2) in B.
 */
static void test_overlap_twisted_rods(void)
{
    static const double th[3] = {5e-10, 1e-10, 1e-12};
    const double s = 1.0 / sqrt(2.0);
    for (int k = 0; k < 3; k++) {
        double L = 1e-5 / th[k];
        for (int side = -1; side <= 1; side += 2) {
            boxtoi_query q = boxtoi_default_query();
            double e = 1.0 + side * 3.5e-6;
            q.a.lo[0] = q.b.lo[0] = -L;
            q.a.hi[0] = q.b.hi[0] = L;
            for (int i = 1; i < 3; i++) {
                q.a.lo[i] = q.b.lo[i] = -0.5;
                q.a.hi[i] = q.b.hi[i] = 0.5;
            }
            double m[3][4] = {{1.0, -th[k] * s, th[k] * s, 0.0},
                              {th[k] * s, 1.0, 0.0, e},
                              {-th[k] * s, 0.0, 1.0, e}};
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    q.motion_b.c[0][r][c] = m[r][c];
            int certified;
            if (side > 0) {
                long double amax = -INFINITY, bmin = INFINITY;
                for (int v = 0; v < 8; v++) {
                    long double x[3], y = 0.0L;
                    for (int i = 0; i < 3; i++)
                        x[i] = (v >> i) & 1 ? q.b.hi[i] : q.b.lo[i];
                    long double ya = x[1] + x[2];
                    for (int r = 1; r < 3; r++)
                        y += m[r][0] * x[0] + m[r][1] * x[1] + m[r][2] * x[2] + m[r][3];
                    amax = ya > amax ? ya : amax;
                    bmin = y < bmin ? y : bmin;
                }
                certified = bmin - amax > 4e-6L;
            } else {
                long double local[3] = {0.0L, -e / 2, -e / 2}, p[3];
                for (int r = 0; r < 3; r++)
                    p[r] = m[r][0] * local[0] + m[r][1] * local[1] + m[r][2] * local[2] +
                           m[r][3];
                certified = p[0] == 0.0L && p[1] == e / 2 && p[2] == e / 2 &&
                            fabsl(local[1]) <= 0.5L && e / 2 <= 0.5;
            }
            ok(certified, "twisted rods (angle %g, length %g, e - 1 = %+g): certificate holds",
               th[k], 2 * L, e - 1.0);
            ok(tu_sat_separation(&q.a, &q.motion_a, &q.b, &q.motion_b, 0.0) < -1e-6,
               "twisted rods (angle %g, e - 1 = %+g): every other axis overlaps", th[k],
               e - 1.0);
            is_int(boxtoi_overlap_at(&q, 0.5, NULL), side > 0 ? 0 : 1,
                   "twisted rods (angle %g, e - 1 = %+g): overlap_at says %s", th[k], e - 1.0,
                   side > 0 ? "apart" : "touching");
        }
    }
}

static void test_overlap_at(void)
{
    unsigned long long st = 12345;
    int agree = 0, compared = 0, skipped = 0, overlapping = 0;
    for (int trial = 0; trial < 3000; trial++) {
        boxtoi_query q;
        memset(&q, 0, sizeof q);
        for (int i = 0; i < 3; i++) {
            q.a.lo[i] = tu_rand(&st, -1.0, 0.0);
            q.a.hi[i] = q.a.lo[i] + tu_rand(&st, 0.0, 1.5);
            q.b.lo[i] = tu_rand(&st, -1.0, 0.0);
            q.b.hi[i] = q.b.lo[i] + tu_rand(&st, 0.0, 1.5);
        }
        random_motion_r(&st, &q.motion_a, 0.7);
        random_motion_r(&st, &q.motion_b, 0.7);
        q.t0 = 0.0;
        q.t1 = 1.0;
        double t = tu_rand(&st, 0.0, 1.0);
        double s = tu_sat_separation(&q.a, &q.motion_a, &q.b, &q.motion_b, t);
        if (fabs(s) < 1e-9) {
            skipped++;
            continue;
        }
        boxtoi_reason why;
        int got = boxtoi_overlap_at(&q, t, &why);
        compared++;
        overlapping += s < 0.0;
        if (got == (s < 0.0 ? 1 : 0))
            agree++;
        else if (compared - agree <= 3)
            diag("trial %d t %.17g: overlap_at %d, separation %.17g", trial, t, got, s);
    }
    is_int(agree, compared, "overlap_at agrees with the SAT oracle (%d cases, %d skipped)",
           compared, skipped);
    ok(overlapping > compared / 5 && overlapping < compared * 4 / 5,
       "overlap_at: the random cases mix overlapping (%d) and apart", overlapping);
    /* exact touching counts as overlapping */
    boxtoi_query q = base_query();
    is_int(boxtoi_overlap_at(&q, 0.75, NULL), 1, "overlap_at: touching faces count");
    is_int(boxtoi_overlap_at(&q, 0.7, NULL), 0, "overlap_at: apart");
    is_int(boxtoi_overlap_at(&q, 0.8, NULL), 1, "overlap_at: overlapping");

    /* The touching tolerance grows with the coordinates (8 DBL_EPSILON of
       them): unit cubes 5.4e6 from the origin, B beside A at a gap of about
       4.7e-9 (0.66e-9 < 8 eps 5.4e6 = 9.6e-9) and falling past it, touch
       for boxtoi_solve, not for the exact boxtoi_overlap_at; at a gap of
       about 4e-8 they miss. */
    const double X = 5.4e6;
    const double gap[2] = {4.66e-9, 4e-8};
    for (int g = 0; g < 2; g++) {
        q = boxtoi_default_query();
        q.motion_a.c[0][0][3] = X;
        q.motion_b.degree = 1;
        q.motion_b.c[0][0][3] = X + 1.0 + gap[g];
        q.motion_b.c[0][2][3] = 3;
        q.motion_b.c[1][2][3] = -6;
        double real = (q.motion_b.c[0][0][3] - 0.5) - (X + 0.5);
        boxtoi_result r = boxtoi_solve(&q);
        if (g == 0) {
            ok(real > 2e-9 && real < 8.0 * DBL_EPSILON * X,
               "far from the origin: gap %.3g within the coordinate tolerance", real);
            is_int(r.state, BOXTOI_HIT, "far from the origin: a gap that close touches");
            ok(fabs(r.depth) <= 8.0 * DBL_EPSILON * (X + 2.0),
               "far from the origin: depth %.3g, 0 within the tolerance", r.depth);
            is_int(boxtoi_overlap_at(&q, r.toi, NULL), 0,
                   "far from the origin: overlap_at, exact, says apart at toi");
        } else {
            is_int(r.state, BOXTOI_MISS, "far from the origin: gap %.3g misses", real);
        }
    }
    test_overlap_twisted_rods();
}

/* ---------- rigid motions and products ---------- */

static void test_rigid(void)
{
    unsigned long long st = 777;
    double worst = 0.0;
    int built = 1;
    for (int trial = 0; trial < 40; trial++) {
        int qdeg = trial % 3, pdeg = (trial / 3) % 3;
        double qc[3][4], pc[3][3];
        for (int k = 0; k <= qdeg; k++)
            for (int i = 0; i < 4; i++)
                qc[k][i] = tu_rand(&st, -1.0, 1.0);
        qc[0][0] += 2.0; /* keep |q| away from 0 */
        for (int k = 0; k <= pdeg; k++)
            for (int i = 0; i < 3; i++)
                pc[k][i] = tu_rand(&st, -3.0, 3.0);
        boxtoi_motion m;
        if (boxtoi_motion_rigid(&m, qc, qdeg, pc, pdeg) != BOXTOI_REASON_NONE ||
            m.degree != 2 * qdeg + pdeg)
            built = 0;
        for (int s = 0; s <= 10; s++) {
            double t = s / 10.0;
            double qt[4] = {0, 0, 0, 0}, pt[3] = {0, 0, 0};
            for (int k = qdeg; k >= 0; k--)
                for (int i = 0; i < 4; i++)
                    qt[i] = qt[i] * t + qc[k][i];
            for (int k = pdeg; k >= 0; k--)
                for (int i = 0; i < 3; i++)
                    pt[i] = pt[i] * t + pc[k][i];
            double x[3];
            for (int i = 0; i < 3; i++)
                x[i] = tu_rand(&st, -2, 2);
            double want[3], got[3], got2[3];
            tu_quat_rotate(qt, x, want);
            for (int i = 0; i < 3; i++)
                want[i] += pt[i];
            boxtoi_motion_apply(&m, t, x, got);
            tu_apply(&m, t, x, got2);
            for (int i = 0; i < 3; i++) {
                worst = worse(worst, fabs(got[i] - want[i]));
                worst = worse(worst, fabs(got2[i] - want[i]));
            }
        }
    }
    ok(built, "rigid: built with degree 2 qdeg + pdeg");
    ok(worst < 1e-12, "rigid: maps x to R(q(t)) x + p(t) (err %.3g)", worst);

    /* degree overflow: 2*4 + 1 = 9 > 8, motion untouched */
    double q5[5][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0}, {0}, {0, 0, 0, 1}};
    double p1[2][3] = {{0, 0, 0}, {1, 1, 1}};
    boxtoi_motion m, copy;
    memset(&m, 0x33, sizeof m);
    copy = m;
    is_int(boxtoi_motion_rigid(&m, q5, 4, p1, 1), BOXTOI_REASON_DEGREE,
           "rigid: degree 9 refused");
    ok(memcmp(&m, &copy, sizeof m) == 0, "rigid: refused motion untouched");
    is_int(boxtoi_motion_rigid(&m, q5, 4, p1, 0), BOXTOI_REASON_NONE,
           "rigid: degree 8 accepted");
    is_int(m.degree, 8, "rigid: degree 8");

    /* degrees whose sum overflows an int (2 qdeg + pdeg wrapped to a small
       or negative total, and the helper wrote far past its arrays) */
    static const int huge[][2] = {{0x40000000, 0}, {1, INT_MAX}, {INT_MAX, -1},
                                  {INT_MAX / 2 + 1, 1}, {5, 0}, {0, 9}};
    for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++) {
        memset(&m, 0x33, sizeof m);
        copy = m;
        int r = boxtoi_motion_rigid(&m, q5, huge[k][0], p1, huge[k][1]);
        ok(r == BOXTOI_REASON_DEGREE && memcmp(&m, &copy, sizeof m) == 0,
           "rigid: qdeg %d, pdeg %d refused, motion untouched (%d)", huge[k][0],
           huge[k][1], r);
    }

    /* NULL: motion, q, or p where pdeg >= 0 (motion untouched); p may be
       NULL with pdeg < 0, a turn alone */
    {
        double qt[2][4] = {{1, 0, 0, 0}, {0, 0, 0, 1}};
        memset(&m, 0x33, sizeof m);
        copy = m;
        int r0 = boxtoi_motion_rigid(NULL, qt, 1, p1, 0);
        int r1 = boxtoi_motion_rigid(&m, NULL, 1, p1, 0);
        int r2 = boxtoi_motion_rigid(&m, qt, 1, NULL, 0);
        int r3 = boxtoi_motion_rigid(&m, qt, 1, NULL, 2);
        ok(r0 == BOXTOI_REASON_NULL && r1 == BOXTOI_REASON_NULL && r2 == BOXTOI_REASON_NULL &&
               r3 == BOXTOI_REASON_NULL && memcmp(&m, &copy, sizeof m) == 0,
           "rigid: NULL motion, q, or p with pdeg 0 or 2 refused, motion untouched "
           "(%d %d %d %d)", r0, r1, r2, r3);
        int r4 = boxtoi_motion_rigid(&m, qt, 1, NULL, -1);
        double x[3] = {1, 0, 0}, y[3];
        boxtoi_motion_apply(&m, 1.0, x, y); /* q = 1 + t k: a quarter turn at t = 1 */
        ok(r4 == BOXTOI_REASON_NONE && m.degree == 2 && fabs(y[0]) <= 1e-15 &&
               fabs(y[1] - 1.0) <= 1e-15 && fabs(y[2]) <= 1e-15,
           "rigid: p NULL with pdeg -1 is a turn alone, (1, 0, 0) at t = 1 to (%g, %g, %g) "
           "(%d, degree %d)", y[0], y[1], y[2], r4, m.degree);
    }

    /* eval and apply have no reason to give: a degree out of range reads
       no coefficient and gives NaN */
    static const int bad[] = {-1, 9, 100000, INT_MAX, INT_MIN};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        boxtoi_motion_identity(&m);
        m.degree = bad[k];
        double e[4][4], x[3] = {1, 2, 3}, out[3];
        boxtoi_motion_eval(&m, 0.5, e);
        boxtoi_motion_apply(&m, 0.5, x, out);
        int all_nan = isnan(out[0]) && isnan(out[1]) && isnan(out[2]);
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                all_nan &= isnan(e[r][c]);
        ok(all_nan, "eval, apply: degree %d gives NaN", bad[k]);
    }
}

static void test_multiply(void)
{
    unsigned long long st = 4242;
    boxtoi_motion a, b, out;
    double worst = 0.0, worst_alias = 0.0, worst_matrix = 0.0;
    for (int trial = 0; trial < 30; trial++) {
        random_motion(&st, &a);
        double qv[2][4] = {{1.5}}, pv[2][3] = {{1, 2, 3}, {0, 0.5, -0.5}};
        for (int i = 1; i < 8; i++)
            qv[i / 4][i % 4] = tu_rand(&st, -1, 1);
        pv[1][0] = tu_rand(&st, -1, 1);
        boxtoi_motion_rigid(&b, qv, 1, pv, 1); /* rational, degree 3 */
        if (boxtoi_motion_multiply(&out, &a, &b) != BOXTOI_REASON_NONE)
            worst = INFINITY;
        boxtoi_motion al = a, bl = b;
        boxtoi_motion_multiply(&al, &al, &b); /* out aliases a */
        boxtoi_motion_multiply(&bl, &a, &bl); /* out aliases b */
        for (int s = 0; s <= 8; s++) {
            double t = s / 8.0;
            double x[3];
            for (int i = 0; i < 3; i++)
                x[i] = tu_rand(&st, -2, 2);
            double mid[3], want[3], got[3];
            tu_apply(&b, t, x, mid);
            tu_apply(&a, t, mid, want);
            tu_apply(&out, t, x, got);
            for (int i = 0; i < 3; i++)
                worst = worse(worst, fabs(got[i] - want[i]));
            tu_apply(&al, t, x, got);
            for (int i = 0; i < 3; i++)
                worst_alias = worse(worst_alias, fabs(got[i] - want[i]));
            tu_apply(&bl, t, x, got);
            for (int i = 0; i < 3; i++)
                worst_alias = worse(worst_alias, fabs(got[i] - want[i]));
            /* the matrices themselves, not only what they do to points
               (which a multiple of a * b does alike): relative to the
               product's terms */
            double ea[4][4], eb[4][4], eo[4][4];
            tu_eval(&a, t, ea);
            tu_eval(&b, t, eb);
            tu_eval(&out, t, eo);
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) {
                    double v = 0.0, size = 0.0;
                    for (int k = 0; k < 4; k++) {
                        v += ea[r][k] * eb[k][c];
                        size += fabs(ea[r][k] * eb[k][c]);
                    }
                    worst_matrix = worse(worst_matrix, fabs(eo[r][c] - v) / (1.0 + size));
                }
        }
        if (out.degree != a.degree + b.degree)
            worst = INFINITY;
    }
    ok(worst < 1e-11, "multiply: a * b applies b, then a (err %.3g)", worst);
    ok(worst_alias < 1e-11, "multiply: output may alias a or b (err %.3g)", worst_alias);
    ok(worst_matrix < 1e-12, "multiply: the matrix at t is A(t) B(t) (relative err %.3g)",
       worst_matrix);

    /* degree overflow: 5 + 4 > 8, out untouched */
    tu_motion_zero(&a, 5);
    tu_motion_zero(&b, 4);
    a.c[0][3][3] = b.c[0][3][3] = 1.0;
    memset(&out, 0x44, sizeof out);
    boxtoi_motion copy = out;
    is_int(boxtoi_motion_multiply(&out, &a, &b), BOXTOI_REASON_DEGREE,
           "multiply: degree 9 refused");
    ok(memcmp(&out, &copy, sizeof out) == 0, "multiply: refused output untouched");
    b.degree = 3;
    is_int(boxtoi_motion_multiply(&out, &a, &b), BOXTOI_REASON_NONE,
           "multiply: degree 8 accepted");

    /* NULL out, a or b: refused, out untouched */
    memset(&out, 0x44, sizeof out);
    copy = out;
    int n0 = boxtoi_motion_multiply(NULL, &a, &b), n1 = boxtoi_motion_multiply(&out, NULL, &b);
    int n2 = boxtoi_motion_multiply(&out, &a, NULL);
    ok(n0 == BOXTOI_REASON_NULL && n1 == BOXTOI_REASON_NULL && n2 == BOXTOI_REASON_NULL &&
           memcmp(&out, &copy, sizeof out) == 0,
       "multiply: NULL out, a or b refused, output untouched (%d %d %d)", n0, n1, n2);

    /* degrees whose sum overflows an int */
    static const int huge[][2] = {{INT_MAX, 1}, {1, INT_MAX}, {INT_MAX, INT_MAX}, {9, -1}};
    for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++) {
        a.degree = huge[k][0];
        b.degree = huge[k][1];
        memset(&out, 0x44, sizeof out);
        copy = out;
        int r = boxtoi_motion_multiply(&out, &a, &b);
        ok(r == BOXTOI_REASON_DEGREE && memcmp(&out, &copy, sizeof out) == 0,
           "multiply: degrees %d and %d refused, output untouched (%d)", huge[k][0],
           huge[k][1], r);
    }
}

/* ---------- reentrancy ---------- */

#define NQ 150

typedef struct job {
    const boxtoi_query *q;
    boxtoi_result *r;
    int n;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    for (int i = 0; i < j->n; i++)
        j->r[i] = boxtoi_solve(&j->q[i]);
    return NULL;
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static int same_result(const boxtoi_result *a, const boxtoi_result *b)
{
    if (a->state != b->state || a->reason != b->reason || a->which != b->which ||
        a->kind != b->kind || a->exit_after_t1 != b->exit_after_t1 ||
        a->iterations != b->iterations)
        return 0;
    if (memcmp(&a->feature_a, &b->feature_a, sizeof a->feature_a) ||
        memcmp(&a->feature_b, &b->feature_b, sizeof a->feature_b))
        return 0;
    if (!same_double(a->toi, b->toi) || !same_double(a->exit, b->exit) ||
        !same_double(a->depth, b->depth))
        return 0;
    for (int i = 0; i < 3; i++)
        if (!same_double(a->point[i], b->point[i]) ||
            !same_double(a->normal[i], b->normal[i]))
            return 0;
    return 1;
}

/*
 * Stack: queries solved in a thread on a stack of our own, filled with a
 * pattern first; the lowest byte changed shows how deep the thread went.
 * The thread's own frames (and what glibc keeps at the top of a stack it
 * is given) are measured with no query and taken off.  docs/method.md
 * gives at most 30 KB up to degree 4 and 40 KB at degree 8 away from
 * multiple roots (these queries are not grazes), for an optimised build
 * without sanitizers (which grow every frame).
 */
#define STACK_BYTES (1024 * 1024)
#define STACK_FILL 0xa5
#define NSTACK 200

/* A rigid rational motion, quaternion and position paths of the given
 * degrees about t = 1/2 (B comes from +x when side > 0, A from -x), made
 * general (not rigid) by small changes to its 3x3 part when general. */
static void stack_motion(unsigned long long *st, boxtoi_motion *m, int qdeg,
                         int pdeg, int general, double side)
{
    double q[5][4], p[3][3];
    tu_rand_unit_quaternion(st, q[0]);
    for (int k = 1; k <= qdeg; k++)
        for (int c = 0; c < 4; c++)
            q[k][c] = tu_rand(st, -0.3, 0.3) / qdeg;
    for (int i = 0; i < 3; i++) {
        p[0][i] = (i == 0 ? 1.5 * side : 0.0) + tu_rand(st, -0.5, 0.5);
        p[1][i] = (i == 0 ? -3.0 * side : 0.0) + tu_rand(st, -1.0, 1.0);
        p[2][i] = tu_rand(st, -2.0, 2.0);
    }
    tu_rigid_motion(m, (const double(*)[4])q, qdeg, (const double(*)[3])p, pdeg, 0.5);
    if (general)
        for (int k = 0; k <= m->degree; k++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    m->c[k][i][j] += tu_rand(st, -0.01, 0.01);
}

/* NSTACK queries with motions of degree 8 (high) or 1 to 4 (low). */
static void stack_queries(unsigned long long *st, int high, boxtoi_query *q)
{
    for (int i = 0; i < NSTACK; i++) {
        boxtoi_query *x = &q[i];
        memset(x, 0, sizeof *x);
        for (int d = 0; d < 3; d++) {
            x->a.lo[d] = -tu_rand(st, 0.2, 0.8);
            x->a.hi[d] = tu_rand(st, 0.2, 0.8);
            x->b.lo[d] = -tu_rand(st, 0.2, 0.8);
            x->b.hi[d] = tu_rand(st, 0.2, 0.8);
        }
        int general = i % 2;
        int qdeg = high ? 3 : i % 4 < 2 ? 1 : 0, pdeg = high ? 2 : 1 + (i / 4) % 2;
        stack_motion(st, &x->motion_a, qdeg, pdeg, general, -1.0);
        stack_motion(st, &x->motion_b, qdeg, pdeg, general, 1.0);
        x->t0 = 0.0;
        x->t1 = 1.0;
    }
}

/*
 * ---------- scale ----------
 * A motion times any positive constant is the same map, and lengths (box
 * corners and translations) times a power of two are the same scene in
 * other units: the answers must be the same, up to the scaling of the
 * contact point, however large or small the factor (within the range of
 * doubles and the library's documented limit of 1e60 on lengths).  Times
 * in other units (t = 2^e u) give the same answers exactly, and a world
 * turned and moved by a rigid map gives them within rounding, with the
 * point and normal mapped.
 */

/*
 * Does r give base's answer: the same state and features, times, point and
 * normal within rel (the interval is [0, 1], the boxes about 1 across)?
 * r answers the query with lengths times 2^e, or, when g is given, the
 * query in the world mapped by g (a rigid map times g[3][3]), so its point
 * and normal are compared with base's mapped.
 */
static int same_answer(const boxtoi_result *base, const boxtoi_result *r, int e,
                       const double (*g)[4], double rel, double *worst)
{
    if (r->state != base->state || r->kind != base->kind ||
        r->exit_after_t1 != base->exit_after_t1 ||
        memcmp(&r->feature_a, &base->feature_a, sizeof r->feature_a) ||
        memcmp(&r->feature_b, &base->feature_b, sizeof r->feature_b))
        return 0;
    if (base->state == BOXTOI_MISS)
        return 1;
    double err = fabs(r->toi - base->toi);
    if (!base->exit_after_t1)
        err = worse(err, fabs(r->exit - base->exit));
    for (int i = 0; i < 3; i++) {
        double p = base->point[i], n = base->normal[i];
        if (g) {
            p = g[i][3];
            n = 0.0;
            for (int j = 0; j < 3; j++) {
                p += g[i][j] * base->point[j];
                n += g[i][j] * base->normal[j];
            }
            p /= g[3][3];
            n /= g[3][3];
        }
        err = worse(err, fabs(ldexp(r->point[i], -e) - p));
        err = worse(err, fabs(r->normal[i] - n));
    }
    *worst = fmax(*worst, err);
    return err <= rel;
}

/* Box corners times 2^el, the 3x3 parts times 2^eu and the translations
   times 2^(el + eu): the world's lengths times 2^(el + eu). */
/* Box j's (0 A, 1 B) corners times 2^-eu and its 3x3 part times 2^eu:
   the same box in the world. */
static void scale_frame_of(boxtoi_query *q, int j, int eu)
{
    boxtoi_box *box = j == 0 ? &q->a : &q->b;
    boxtoi_motion *m = j == 0 ? &q->motion_a : &q->motion_b;
    for (int i = 0; i < 3; i++) {
        box->lo[i] = ldexp(box->lo[i], -eu);
        box->hi[i] = ldexp(box->hi[i], -eu);
    }
    for (int k = 0; k <= m->degree; k++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                m->c[k][r][c] = ldexp(m->c[k][r][c], eu);
}

/*
 * How far box j's (0 A, 1 B) swept box over [0, 1] in query x, times 2^-e,
 * lies from its swept box in q (largest difference of a bound; infinite
 * when either is refused, *why then x's reason).
 */
static double swept_scaled_off(const boxtoi_query *q, const boxtoi_query *x, int j, int e,
                               boxtoi_reason *why)
{
    double l0[3], h0[3], l1[3], h1[3], dev = 0.0;
    boxtoi_reason why0 = boxtoi_swept_aabb(j ? &q->b : &q->a, j ? &q->motion_b : &q->motion_a,
                                           0.0, 1.0, l0, h0);
    *why = boxtoi_swept_aabb(j ? &x->b : &x->a, j ? &x->motion_b : &x->motion_a, 0.0, 1.0, l1,
                             h1);
    if (why0 != BOXTOI_REASON_NONE || *why != BOXTOI_REASON_NONE)
        return INFINITY;
    for (int k = 0; k < 3; k++)
        dev = worse(worse(dev, fabs(ldexp(l1[k], -e) - l0[k])), fabs(ldexp(h1[k], -e) - h0[k]));
    return dev;
}

static void scale_frames(boxtoi_query *q, int el, int eu)
{
    tu_scale_lengths(q, el + eu);
    for (int j = 0; j < 2; j++)
        scale_frame_of(q, j, eu);
}

/* The same motion in time units 2^e times larger: M'(u) = M(2^e u). */
static void scale_time(boxtoi_motion *m, int e)
{
    for (int k = 0; k <= m->degree; k++)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                m->c[k][r][c] = ldexp(m->c[k][r][c], e * k);
}

/*
 * The world turned and moved by the rigid map G = [R t; 0 1], with R from
 * the quaternion (3, 1, -2, 5) (entries over 39, exact as 39 G), applied
 * to a motion: 39 G M, the same motion up to its scale.
 */
static const double frame_q[1][4] = {{3, 1, -2, 5}}, frame_t[1][3] = {{0.7, -1.3, 2.1}};

static void frame_matrix(double g[4][4])
{
    boxtoi_motion m;
    tu_rigid_motion(&m, frame_q, 0, frame_t, 0, 0.0);
    memcpy(g, m.c[0], sizeof m.c[0]);
}

static void frame_motion(boxtoi_motion *m)
{
    double g[4][4];
    frame_matrix(g);
    boxtoi_motion o = *m;
    for (int k = 0; k <= m->degree; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                double v = 0.0;
                for (int l = 0; l < 4; l++)
                    v += g[i][l] * m->c[k][l][j];
                o.c[k][i][j] = v;
            }
    *m = o;
}

/* The unit box's motion x = (x0, 0, 0) over w = w0 + 2e8 t: at t0 the
   box lies 1 / w0 times its own size and place out. */
static void far_w_motion(boxtoi_motion *m, double x0, double w0)
{
    memset(m, 0, sizeof *m);
    m->degree = 1;
    for (int i = 0; i < 3; i++)
        m->c[0][i][i] = 1.0;
    m->c[0][0][3] = x0;
    m->c[0][3][3] = w0;
    m->c[1][3][3] = 2e8;
}

static void test_scale(void)
{
    static boxtoi_query q[NSTACK];
    unsigned long long st = 31337;
    stack_queries(&st, 0, q); /* boxes of size about 1 to 3, interval [0, 1] */
    static const double factor[] = {0x1p-1000, 0x1p-600, 0x1p-300, 3e-80, 0x1p-97,
                                    5e59, 1e60, 0x1p300, 1e61, 0x1p900};
    static const int lengths[] = {-1000, -600, -540, -537, -534, -531, -300, 100, 190};
    int nf = (int)(sizeof factor / sizeof *factor), nl = (int)(sizeof lengths / sizeof *lengths);
    static const int times[] = {-60, -7, 1, 9, 60};
    int nt = (int)(sizeof times / sizeof *times);
    int hits = 0, edges = 0, bad_motion = 0, bad_length = 0, bad_box = 0, bad_at = 0;
    int bad_time = 0, bad_frame = 0, bad_mixed = 0, bad_frames = 0, bad_tiny_w = 0;
    int bad_one_frame = 0, bad_frames_box = 0, bad_one_frame_box = 0;
    static const int frames[][2] = {{-200, -300}, {0, -179}, {0, -350}, {-200, -350},
                                    {-100, -200}, {150, -150}};
    int nframes = (int)(sizeof frames / sizeof *frames);
    double worst = 0.0, worst_len = 0.0, worst_frame = 0.0, worst_mixed = 0.0;
    for (int i = 0; i < NSTACK; i++) {
        boxtoi_result base = boxtoi_solve(&q[i]);
        double lo0[3], hi0[3];
        boxtoi_swept_aabb(&q[i].a, &q[i].motion_a, 0.0, 1.0, lo0, hi0);
        hits += base.state == BOXTOI_HIT;
        edges += base.kind == BOXTOI_EDGE_EDGE;
        for (int f = 0; f < nf; f++) {
            /* A times the factor, B times its inverse (within range too) */
            boxtoi_query x = q[i];
            tu_motion_scale(&x.motion_a, factor[f]);
            tu_motion_scale(&x.motion_b, 1.0 / factor[f]);
            boxtoi_result r = boxtoi_solve(&x);
            int exact = frexp(factor[f], &(int){0}) == 0.5;
            if (!same_answer(&base, &r, 0, NULL, exact ? 0.0 : 1e-9, &worst)) {
                if (bad_motion++ < 3)
                    diag("query %d, motions times %g and %g: state %s toi %.17g "
                         "(unscaled %s %.17g)", i, factor[f], 1.0 / factor[f],
                         boxtoi_state_name(r.state), r.toi,
                         boxtoi_state_name(base.state), base.toi);
            }
            double lo[3], hi[3], dev = 0.0;
            if (boxtoi_swept_aabb(&x.a, &x.motion_a, 0.0, 1.0, lo, hi) !=
                BOXTOI_REASON_NONE)
                dev = INFINITY;
            else
                for (int k = 0; k < 3; k++)
                    dev = worse(worse(dev, fabs(lo[k] - lo0[k])), fabs(hi[k] - hi0[k]));
            bad_box += !(dev <= 1e-9);
            double t = (i % 7) / 6.0;
            if (boxtoi_overlap_at(&x, t, NULL) != boxtoi_overlap_at(&q[i], t, NULL))
                bad_at++;
        }
        for (int e = 150; e <= 200; e++) {
            /* B alone times 2^e, below the rescaling (products of the two
               motions' coefficients then near 1e150 and above) */
            boxtoi_query x = q[i];
            tu_motion_scale(&x.motion_b, ldexp(1.0, e));
            boxtoi_result r = boxtoi_solve(&x);
            if (!same_answer(&base, &r, 0, NULL, 0.0, &worst_mixed) && bad_mixed++ < 3)
                diag("query %d, B's motion times 2^%d: %s toi %.17g (unscaled %s %.17g)", i,
                     e, boxtoi_state_name(r.state), r.toi, boxtoi_state_name(base.state),
                     base.toi);
        }
        for (int k = 0; k < nt; k++) {
            /* t = 2^e u: the same answers, times in u */
            boxtoi_query x = q[i];
            scale_time(&x.motion_a, times[k]);
            scale_time(&x.motion_b, times[k]);
            x.t0 = ldexp(q[i].t0, -times[k]);
            x.t1 = ldexp(q[i].t1, -times[k]);
            boxtoi_result r = boxtoi_solve(&x);
            if (r.state == base.state && base.state != BOXTOI_MISS) {
                r.toi = ldexp(r.toi, times[k]);
                r.exit = ldexp(r.exit, times[k]);
            }
            double w = 0.0;
            if (!same_answer(&base, &r, 0, NULL, 0.0, &w) && bad_time++ < 3)
                diag("query %d, time in units of 2^%d: %s toi %.17g (unscaled %s %.17g)",
                     i, times[k], boxtoi_state_name(r.state), r.toi,
                     boxtoi_state_name(base.state), base.toi);
        }
        {
            boxtoi_query x = q[i];
            frame_motion(&x.motion_a);
            frame_motion(&x.motion_b);
            boxtoi_result r = boxtoi_solve(&x);
            double g[4][4];
            frame_matrix(g);
            if (!same_answer(&base, &r, 0, (const double(*)[4])g, 1e-9, &worst_frame) &&
                bad_frame++ < 3)
                diag("query %d, world turned: %s %s toi %.17g (before %s %s %.17g)", i,
                     boxtoi_state_name(r.state), boxtoi_kind_name(r.kind), r.toi,
                     boxtoi_state_name(base.state), boxtoi_kind_name(base.kind), base.toi);
        }
        for (int f = 0; f < nframes; f++) {
            /* world lengths set by a tiny 3x3 part: products of a few of
               its entries and the corners underflow (2^-179 missed clips,
               2^-500 gave overlaps a box's size apart, 2^-350 alone a
               determinant below the normal doubles, refused as singular) */
            boxtoi_query x = q[i];
            int el = frames[f][0], eu = frames[f][1];
            scale_frames(&x, el, eu);
            boxtoi_result r = boxtoi_solve(&x);
            double t = (i % 7) / 6.0;
            int v = boxtoi_validate(&x.a, &x.motion_a, 0.0, 1.0) == BOXTOI_REASON_NONE &&
                    boxtoi_validate(&x.b, &x.motion_b, 0.0, 1.0) == BOXTOI_REASON_NONE;
            if ((!same_answer(&base, &r, el + eu, NULL, 1e-12, &worst_len) || !v ||
                 boxtoi_overlap_at(&x, t, NULL) != boxtoi_overlap_at(&q[i], t, NULL)) &&
                bad_frames++ < 3)
                diag("query %d, corners times 2^%d, 3x3 parts times 2^%d: %s toi %.17g "
                     "validated %d (unscaled %s %.17g)", i, el, eu,
                     boxtoi_state_name(r.state), r.toi, v, boxtoi_state_name(base.state),
                     base.toi);
            /* the swept boxes: the unscaled ones times 2^(el + eu), a 3x3
               part whose determinant is below the normal doubles taken as
               the solver and boxtoi_validate take it */
            for (int j = 0; j < 2; j++) {
                boxtoi_reason why;
                double dev = swept_scaled_off(&q[i], &x, j, el + eu, &why);
                if (!(dev <= 1e-9) && bad_frames_box++ < 3)
                    diag("query %d, corners times 2^%d, 3x3 parts times 2^%d: %c's swept "
                         "box %s, off the unscaled one's by %.3g", i, el, eu, j ? 'B' : 'A',
                         boxtoi_reason_message(why), dev);
            }
        }
        for (int f = 0; f < 4; f++) {
            /* one box made tiny (corners times 2^-500 or 2^-329), then its
               frame alone scaled apart, the other's as given: corners times
               2^-150, 3x3 part times 2^-350 (its determinant alone below
               the normal doubles) or 2^-179 */
            boxtoi_query y = q[i];
            int j = f % 2, eu = f < 2 ? -350 : -179;
            boxtoi_box *b = j == 0 ? &y.a : &y.b;
            for (int k = 0; k < 3; k++) {
                b->lo[k] = ldexp(b->lo[k], eu - 150);
                b->hi[k] = ldexp(b->hi[k], eu - 150);
            }
            boxtoi_query x = y;
            scale_frame_of(&x, j, eu);
            boxtoi_result ry = boxtoi_solve(&y), r = boxtoi_solve(&x);
            double t = (i % 7) / 6.0, w = 0.0;
            int v = boxtoi_validate(&x.a, &x.motion_a, 0.0, 1.0) == BOXTOI_REASON_NONE &&
                    boxtoi_validate(&x.b, &x.motion_b, 0.0, 1.0) == BOXTOI_REASON_NONE;
            if ((ry.state == BOXTOI_INVALID || !same_answer(&ry, &r, 0, NULL, 1e-12, &w) ||
                 !v || boxtoi_overlap_at(&x, t, NULL) != boxtoi_overlap_at(&y, t, NULL)) &&
                bad_one_frame++ < 3)
                diag("query %d, %c tiny, its corners times 2^%d and 3x3 part times 2^%d: %s "
                     "toi %.17g validated %d (unscaled %s %.17g)", i, j == 0 ? 'A' : 'B',
                     -eu, eu, boxtoi_state_name(r.state), r.toi, v,
                     boxtoi_state_name(ry.state), ry.toi);
            boxtoi_reason why;
            double dev = swept_scaled_off(&y, &x, j, 0, &why);
            if (!(dev <= 1e-9) && bad_one_frame_box++ < 3)
                diag("query %d, %c tiny, its corners times 2^%d and 3x3 part times 2^%d: "
                     "swept box %s, off the unscaled one's by %.3g", i, j == 0 ? 'A' : 'B',
                     -eu, eu, boxtoi_reason_message(why), dev);
        }
        {
            /* lengths tiny, and A's motion given at a tiny scale with no
               translation (w times 2^-700: the test of the lengths against
               w underflowed, and a clip was missed) */
            boxtoi_query y = q[i];
            double g[4][4];
            frame_matrix(g);
            memset(&y.motion_a, 0, sizeof y.motion_a);
            for (int a = 0; a < 4; a++)
                for (int c = 0; c < 3; c++)
                    y.motion_a.c[0][a][c] = g[a][c];
            y.motion_a.c[0][3][3] = g[3][3]; /* A turned, not moved: 39 R */
            boxtoi_result by = boxtoi_solve(&y);
            boxtoi_query x = y;
            tu_scale_lengths(&x, -537);
            tu_motion_scale(&x.motion_a, 0x1p-700);
            boxtoi_result r = boxtoi_solve(&x);
            double w = 0.0;
            if (!same_answer(&by, &r, -537, NULL, 1e-12, &w) && bad_tiny_w++ < 3)
                diag("query %d, lengths times 2^-537, A's motion times 2^-700: %s toi %.17g "
                     "(unscaled %s %.17g)", i, boxtoi_state_name(r.state), r.toi,
                     boxtoi_state_name(by.state), by.toi);
        }
        for (int l = 0; l < nl; l++) {
            boxtoi_query x = q[i];
            tu_scale_lengths(&x, lengths[l]);
            boxtoi_result r = boxtoi_solve(&x);
            if (!same_answer(&base, &r, lengths[l], NULL, 1e-12, &worst_len)) {
                if (bad_length++ < 3)
                    diag("query %d, lengths times 2^%d: %s %s point %.17g %.17g %.17g "
                         "(scaled back)", i, lengths[l], boxtoi_state_name(r.state),
                         boxtoi_kind_name(r.kind), ldexp(r.point[0], -lengths[l]),
                         ldexp(r.point[1], -lengths[l]), ldexp(r.point[2], -lengths[l]));
            }
        }
    }
    ok(hits >= NSTACK / 5 && edges >= 5, "scale: the queries include hits (%d) and "
       "edge-edge contacts (%d)", hits, edges);
    is_int(bad_motion, 0, "scale: motions times 2^-1000 to 2^900 (and 3e-80, 5e59, 1e60, "
           "1e61) give "
           "the same answers (largest difference %.3g)", worst);
    is_int(bad_box, 0, "scale: swept box of a motion times a constant unchanged");
    is_int(bad_at, 0, "scale: overlap_at of motions times a constant unchanged");
    is_int(bad_length, 0, "scale: lengths times 2^-1000 to 2^190 (2^-540 to 2^-531 among "
           "them, where the square of a length is subnormal) give the same answers (largest "
           "difference %.3g)", worst_len);
    is_int(bad_frames, 0, "scale: corners and 3x3 parts scaled apart (world lengths times "
           "2^-500 to 2^-179, 3x3 parts down to 2^-350) give the same answers, validated");
    is_int(bad_frames_box, 0, "scale: corners and 3x3 parts scaled apart (3x3 parts down to "
           "2^-350, their determinants below the normal doubles): the swept boxes are the "
           "unscaled ones scaled, not refused");
    is_int(bad_one_frame, 0, "scale: one box 2^-500 or 2^-329 across, its corners and 3x3 "
           "part scaled apart (3x3 part times 2^-350 or 2^-179), the other's as given: the "
           "same answers, validated");
    is_int(bad_one_frame_box, 0, "scale: one box 2^-500 or 2^-329 across, its corners and 3x3 "
           "part scaled apart: its swept box is the unscaled one's, not refused");
    is_int(bad_tiny_w, 0, "scale: tiny lengths with a motion given at a tiny scale give the "
           "same answers");
    {
        /* lengths tiny and w huge: the motion rescaled by w put the
           translation's t^3 coefficient among the subnormals, and the
           swept box was off the box's path */
        boxtoi_box b = {{-0.5, -0.25, -0.125}, {0.5, 0.25, 0.125}};
        boxtoi_motion m;
        boxtoi_motion_identity(&m);
        m.degree = 3;
        m.c[3][0][3] = 1e-18; /* x = 1e-18 t^3: from -1 to 0 over [-1e6, 0] */
        double lo0b[3], hi0b[3], lo[3], hi[3], dev = 0.0;
        boxtoi_reason r0 = boxtoi_swept_aabb(&b, &m, -1e6, 0.0, lo0b, hi0b);
        tu_motion_scale(&m, 0x1p950);
        for (int i = 0; i < 3; i++) {
            b.lo[i] = ldexp(b.lo[i], -1000);
            b.hi[i] = ldexp(b.hi[i], -1000);
        }
        for (int k = 0; k <= m.degree; k++)
            for (int r = 0; r < 3; r++)
                m.c[k][r][3] = ldexp(m.c[k][r][3], -1000);
        if (r0 || boxtoi_swept_aabb(&b, &m, -1e6, 0.0, lo, hi))
            dev = INFINITY;
        else
            for (int k = 0; k < 3; k++)
                dev = worse(worse(dev, fabs(ldexp(lo[k], 1000) - lo0b[k])),
                            fabs(ldexp(hi[k], 1000) - hi0b[k]));
        ok(dev <= 1e-9 && lo0b[0] <= -1.5 && hi0b[0] >= 0.5,
           "scale: the swept box of tiny lengths under a motion times 2^950 is the same, "
           "scaled (difference %.3g)", dev);
    }
    is_int(bad_mixed, 0, "scale: B's motion alone times 2^150 to 2^200 gives the same answers "
           "bit for bit (largest difference %.3g)", worst_mixed);
    is_int(bad_time, 0, "scale: time units 2^-60 to 2^60 give the same answers");
    is_int(bad_frame, 0, "scale: a turned and moved world gives the same answers, point "
           "and normal turned (largest difference %.3g)", worst_frame);

    /* validation agrees; a w tiny next to the translation is a far box */
    boxtoi_motion m = q[0].motion_a;
    tu_motion_scale(&m, 0x1p-1000);
    is_int(boxtoi_validate(&q[0].a, &m, 0.0, 1.0), BOXTOI_REASON_NONE,
           "scale: validate accepts a motion times 2^-1000");
    boxtoi_motion_identity(&m);
    tu_motion_scale(&m, 0x1p-1000);
    m.c[0][0][3] = 1.0; /* x = 2^1000 */
    is_int(boxtoi_validate(&q[0].a, &m, 0.0, 1.0), BOXTOI_REASON_OUT_OF_RANGE,
           "scale: translation 1 over w = 2^-1000 is out of range");

    /*
     * The range is on lengths, whatever the scale: B a unit box at x = 1e6
     * moving to x = 1e6 - 2 (A a unit box at 1e6 - 1.5), hit at 1/4, given
     * with w = f for f from 1 to 1e70 (translation coefficients f 1e6: past
     * 1e60 for f >= 1e55 while w is not).  Then lengths past 1e60 over w,
     * with w in range: translation 1e59 over w = 2^-90, and a 3x3 part
     * 1e61 I over w = 1, are out of range for every entry point.
     */
    static const double wf[] = {1.0, 1e40, 1e54, 1e55, 0x1p190, 1e59, 1e60, 1e61, 1e70};
    int bad_far = 0;
    for (int f = 0; f < (int)(sizeof wf / sizeof *wf); f++) {
        boxtoi_query y = boxtoi_default_query();
        y.motion_a.c[0][0][3] = 1e6 - 1.5;
        y.motion_b.degree = 1;
        y.motion_b.c[0][0][3] = 1e6;
        y.motion_b.c[1][0][3] = -2.0;
        tu_motion_scale(&y.motion_a, wf[f]);
        tu_motion_scale(&y.motion_b, wf[f]);
        boxtoi_result r = boxtoi_solve(&y);
        double lo[3], hi[3];
        boxtoi_reason why = boxtoi_swept_aabb(&y.b, &y.motion_b, 0.0, 1.0, lo, hi);
        int at = boxtoi_overlap_at(&y, 0.5, NULL);
        if (r.state != BOXTOI_HIT || fabs(r.toi - 0.25) > 1e-9 || why != BOXTOI_REASON_NONE ||
            !(fabs(lo[0] - (1e6 - 2.5)) <= 1e-6) || !(fabs(hi[0] - (1e6 + 0.5)) <= 1e-6) ||
            at != 1) {
            if (bad_far++ < 3)
                diag("w = %g: %s toi %.17g, swept box %s [%.17g, %.17g], overlap_at(1/2) %d",
                     wf[f], boxtoi_state_name(r.state), r.toi, boxtoi_reason_message(why),
                     lo[0], hi[0], at);
        }
    }
    is_int(bad_far, 0, "scale: a box at 1e6 given with w = 1 to 1e70 answers the same "
           "(hit at 1/4, swept box, overlap_at)");
    for (int c = 0; c < 2; c++) {
        boxtoi_query y = boxtoi_default_query();
        if (c == 0) {
            tu_motion_scale(&y.motion_b, 0x1p-90);
            y.motion_b.c[0][0][3] = 1e59; /* x = 1e59 2^90, about 1.2e86 */
        } else {
            for (int i = 0; i < 3; i++)
                y.motion_b.c[0][i][i] = 1e61; /* a box 1e61 across */
        }
        boxtoi_result r = boxtoi_solve(&y);
        double lo[3], hi[3];
        boxtoi_reason why_v = boxtoi_validate(&y.b, &y.motion_b, 0.0, 1.0);
        boxtoi_reason why_s = boxtoi_swept_aabb(&y.b, &y.motion_b, 0.0, 1.0, lo, hi);
        boxtoi_reason why_a = BOXTOI_REASON_NONE;
        int at = boxtoi_overlap_at(&y, 0.5, &why_a);
        ok(r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE &&
               r.which == 2 && why_v == BOXTOI_REASON_OUT_OF_RANGE &&
               why_s == BOXTOI_REASON_OUT_OF_RANGE && at == -1 &&
               why_a == BOXTOI_REASON_OUT_OF_RANGE,
           "scale: %s is out of range (solve %s %s, validate %s, swept box %s, overlap_at %s)",
           c == 0 ? "translation 1e59 over w = 2^-90" : "a 3x3 part 1e61 I",
           boxtoi_state_name(r.state), boxtoi_reason_message(r.reason),
           boxtoi_reason_message(why_v), boxtoi_reason_message(why_s), boxtoi_reason_message(why_a));
    }

    /*
     * The unit box at x = +-0.6 over w = 1e-60 + 2e8 t: at t0 its corners
     * lie at 0.1e60 and 1.1e60 (or their negatives), beyond the range on
     * one side only, and the swept box cannot be bounded.
     */
    for (int c = 0; c < 2; c++) {
        boxtoi_query y = boxtoi_default_query();
        far_w_motion(&y.motion_b, c == 0 ? 0.6 : -0.6, 1e-60);
        boxtoi_result r = boxtoi_solve(&y);
        double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        boxtoi_reason why_v = boxtoi_validate(&y.b, &y.motion_b, 0.0, 1.0);
        boxtoi_reason why_s = boxtoi_swept_aabb(&y.b, &y.motion_b, 0.0, 1.0, lo, hi);
        ok(r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE &&
               r.which == 2 && why_v == BOXTOI_REASON_OUT_OF_RANGE &&
               why_s == BOXTOI_REASON_OUT_OF_RANGE && lo[0] == 0.0 && hi[0] == 0.0,
           "scale: the unit box at x = %s0.6 over w from 1e-60 at t0, out of range on one "
           "side only, is out of range (solve %s %s, validate %s, swept box %s)",
           c == 0 ? "" : "-", boxtoi_state_name(r.state), boxtoi_reason_message(r.reason),
           boxtoi_reason_message(why_v), boxtoi_reason_message(why_s));
    }

    /*
     * A motion at rest declared of degree 8 (or 2), over an interval so far
     * out that t0^8 (t0^2) overflows: its bounds over the interval cannot be
     * formed, and the functions that need them say so alike, naming B.
     */
    for (int c = 0; c < 2; c++) {
        boxtoi_query y = boxtoi_default_query();
        y.t0 = c == 0 ? 1e39 : 1e155;
        y.t1 = 2.0 * y.t0;
        y.motion_b.degree = c == 0 ? 8 : 2;
        y.motion_b.c[0][2][3] = 3.0;
        boxtoi_result r = boxtoi_solve(&y);
        double lo[3], hi[3];
        boxtoi_reason why_v = boxtoi_validate(&y.b, &y.motion_b, y.t0, y.t1);
        boxtoi_reason why_s = boxtoi_swept_aabb(&y.b, &y.motion_b, y.t0, y.t1, lo, hi);
        ok(r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE &&
               r.which == 2 && why_v == BOXTOI_REASON_OUT_OF_RANGE &&
               why_s == BOXTOI_REASON_OUT_OF_RANGE,
           "scale: degree %d at rest over [%g, %g] is out of range alike (solve %s %s which "
           "%d, validate %s, swept box %s)",
           y.motion_b.degree, y.t0, y.t1, boxtoi_state_name(r.state),
           boxtoi_reason_message(r.reason), r.which, boxtoi_reason_message(why_v),
           boxtoi_reason_message(why_s));
    }

    /*
     * A w that starts next to 0 and grows: w = w0 + 2e8 t, the 3x3 part I
     * and the translation (1, 0, 0), so that B is 1 / w0 across and 1 / w0
     * out at t0.  Up to 1e60 that is a box like any other; beyond, out of
     * range alike everywhere (at w0 = 1.5e-323 its bounds overflowed and
     * the solver answered an overlap at a point of NaN).
     */
    static const double w0s[] = {1.5e-323, 1e-300, 1e-61, 1e-59, 1e-3};

    /*
     * A constant w alone made tiny: the box is 1 / w across and out of
     * range.  Below about 2^-1040 the power of two that brings w to 1 took
     * the other coefficients past the largest double, and the answer was
     * "a coefficient is NaN or infinite", which none was.
     */
    static const double tiny[] = {0x1p-1074, 0x1p-1060, 0x1p-1040, 0x1p-1023, 1e-300, 1e-61};
    for (size_t k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
        for (int which = 1; which <= 2; which++) {
            boxtoi_query y = boxtoi_default_query();
            boxtoi_motion *m = which == 1 ? &y.motion_a : &y.motion_b;
            m->c[0][3][3] = tiny[k];
            boxtoi_result r = boxtoi_solve(&y);
            double lo[3], hi[3];
            const boxtoi_box *bx = which == 1 ? &y.a : &y.b;
            boxtoi_reason why_v = boxtoi_validate(bx, m, 0.0, 1.0);
            boxtoi_reason why_s = boxtoi_swept_aabb(bx, m, 0.0, 1.0, lo, hi);
            boxtoi_reason why_o = BOXTOI_REASON_NONE;
            int at = boxtoi_overlap_at(&y, 0.5, &why_o);
            ok(r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE
                   && r.which == which && why_v == BOXTOI_REASON_OUT_OF_RANGE
                   && why_s == BOXTOI_REASON_OUT_OF_RANGE && at == -1
                   && why_o == BOXTOI_REASON_OUT_OF_RANGE,
               "scale: w = %a alone on %c is out of range (reasons: solve %d, validate %d, "
               "swept box %d, overlap %d)", tiny[k], which == 1 ? 'A' : 'B', (int)r.reason,
               (int)why_v, (int)why_s, (int)why_o);
        }
    }

    for (size_t k = 0; k < sizeof w0s / sizeof w0s[0]; k++) {
        boxtoi_query y = boxtoi_default_query();
        far_w_motion(&y.motion_b, 1.0, w0s[k]);
        boxtoi_result r = boxtoi_solve(&y);
        double lo[3], hi[3];
        boxtoi_reason why_v = boxtoi_validate(&y.b, &y.motion_b, 0.0, 1.0);
        boxtoi_reason why_s = boxtoi_swept_aabb(&y.b, &y.motion_b, 0.0, 1.0, lo, hi);
        int in_range = 1.0 / w0s[k] <= 1e60;
        ok(in_range ? r.state == BOXTOI_HIT && why_v == BOXTOI_REASON_NONE &&
                          why_s == BOXTOI_REASON_NONE && isfinite(r.point[0])
                    : r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE &&
                          r.which == 2 && why_v == BOXTOI_REASON_OUT_OF_RANGE &&
                          why_s == BOXTOI_REASON_OUT_OF_RANGE,
           "scale: w from %g at t0 is %s (solve %s %s, validate %s, swept box %s)", w0s[k],
           in_range ? "a box 1 / w across" : "out of range", boxtoi_state_name(r.state),
           boxtoi_reason_message(r.reason), boxtoi_reason_message(why_v),
           boxtoi_reason_message(why_s));
    }

    /*
     * Such a box as A, with B bad as well: A's reason first, as
     * boxtoi_validate orders A's own tests (its swept bounds after its
     * determinant); with A good, B's reasons in the same order.
     */
    {
        boxtoi_query y = boxtoi_default_query();
        far_w_motion(&y.motion_a, 0.0, 1.5e-323);
        boxtoi_motion far = y.motion_a, singular_m, nan_m;
        boxtoi_motion_identity(&singular_m);
        singular_m.c[0][1][1] = 0.0;
        boxtoi_motion_identity(&nan_m);
        nan_m.c[0][2][3] = NAN;
        static const char *bname[] = {"a NaN coefficient", "a singular 3x3 part",
                                      "also out of range"};
        static const boxtoi_reason bwhy[] = {BOXTOI_REASON_MOTION_NOT_FINITE,
                                             BOXTOI_REASON_SINGULAR,
                                             BOXTOI_REASON_OUT_OF_RANGE};
        for (int k = 0; k < 3; k++) {
            y.motion_a = far;
            y.motion_b = k == 0 ? nan_m : k == 1 ? singular_m : far;
            char name[96];
            snprintf(name, sizeof name, "scale: A out of range, B %s", bname[k]);
            expect_invalid(name, &y, BOXTOI_REASON_OUT_OF_RANGE, 1);
            y.motion_a = y.motion_b;
            y.motion_b = far;
            snprintf(name, sizeof name, "scale: B out of range, A %s", bname[k]);
            expect_invalid(name, &y, bwhy[k], 1);
            boxtoi_motion_identity(&y.motion_a);
            y.motion_b = k == 0 ? nan_m : k == 1 ? singular_m : far;
            snprintf(name, sizeof name, "scale: A good, B %s", bname[k]);
            expect_invalid(name, &y, bwhy[k], 2);
        }
        /* A singular and out of range: its determinant is tested first */
        y.motion_a = far;
        y.motion_a.c[0][1][1] = 0.0;
        y.motion_b = nan_m;
        expect_invalid("scale: A singular and out of range, B a NaN coefficient", &y,
                       BOXTOI_REASON_SINGULAR, 1);
        is_int(boxtoi_validate(&y.a, &y.motion_a, 0.0, 1.0), BOXTOI_REASON_SINGULAR,
               "scale: validate, singular and out of range: singular");
    }

    /* lengths beyond the documented limit are refused, not answered */
    boxtoi_query x = q[0];
    tu_scale_lengths(&x, 200); /* 2^200 > 1e60 */
    boxtoi_result r = boxtoi_solve(&x);
    ok(r.state == BOXTOI_INVALID && r.reason == BOXTOI_REASON_OUT_OF_RANGE,
       "scale: lengths times 2^200 are out of range (got %s)", boxtoi_state_name(r.state));
}

/*
 * A point at rest at the origin (a box of zero extent: its lengths are all 0)
 * against a box turned 0.3 rad about z that passes over it along x, all
 * lengths times 2^e.  Lengths below 2^-400 are solved scaled near 1 by a
 * power of two, taken from both boxes, the point's zero included: for every
 * e the answer is the one for e = 0 bit for bit (the point times 2^e), with
 * the point as A or as B.  At e = 0 the times are where the origin enters
 * and leaves the box (slabs in the box's frame), and the two orders mirror.
 */
static void test_tiny_against_point(void)
{
    static const int exps[] = {0, -300, -400, -537, -700, -900, -1000};
    double rz[3][3], p[2][3] = {{5.0, 0.3, -0.2}, {-8.0, 0.0, 0.0}}, rest[1][3] = {{0}};
    boxtoi_box point = {{0, 0, 0}, {0, 0, 0}}, box = {{-1, -0.5, -0.75}, {1, 0.5, 0.75}};
    boxtoi_motion still, moving;
    tu_rot_z(rz, 0.3);
    tu_motion_trans(&still, rest, 0);
    tu_motion_rot_trans(&moving, rz, p, 1);
    /* the origin in the box's frame: -R^T (p0 + p1 t), slab by slab */
    double enter = 0.0, leave = 1.0;
    for (int k = 0; k < 3; k++) {
        double u = 0.0, v = 0.0;
        for (int r = 0; r < 3; r++) {
            u -= rz[r][k] * p[0][r];
            v -= rz[r][k] * p[1][r];
        }
        double ta = (box.lo[k] - u) / v, tb = (box.hi[k] - u) / v;
        enter = fmax(enter, fmin(ta, tb));
        leave = fmin(leave, fmax(ta, tb));
    }
    boxtoi_result base[2];
    boxtoi_query first;
    for (int j = 0; j < 2; j++) {
        int bad = 0;
        double worst = 0.0;
        for (size_t k = 0; k < sizeof exps / sizeof *exps; k++) {
            boxtoi_query q = boxtoi_default_query();
            q.a = j ? box : point;
            q.b = j ? point : box;
            q.motion_a = j ? moving : still;
            q.motion_b = j ? still : moving;
            tu_scale_lengths(&q, exps[k]);
            boxtoi_result r = boxtoi_solve(&q);
            if (k == 0)
                base[j] = r;
            if (j == 0 && k == 0)
                first = q;
            if (!same_answer(&base[j], &r, exps[k], NULL, 0.0, &worst) && bad++ < 3)
                diag("point as %c, lengths times 2^%d: %s toi %.17g exit %.17g (at 2^0 %s "
                     "toi %.17g exit %.17g)", j ? 'B' : 'A', exps[k],
                     boxtoi_state_name(r.state), r.toi, r.exit,
                     boxtoi_state_name(base[j].state), base[j].toi, base[j].exit);
        }
        is_int(bad, 0, "scale: a point at the origin as %c against a box of lengths 2^0 down "
               "to 2^-1000 gives one answer (largest difference %g)", j ? 'B' : 'A', worst);
        ok(base[j].state == BOXTOI_HIT && fabs(base[j].toi - enter) <= 1e-12 &&
               fabs(base[j].exit - leave) <= 1e-12,
           "scale: the point as %c is met at %.17g and left at %.17g (the slabs: %.17g, %.17g)",
           j ? 'B' : 'A', base[j].toi, base[j].exit, enter, leave);
    }
    char why[256] = "";
    ok(mirrors_exactly(&first, &base[0], &base[1], why, sizeof why),
       "scale: the point against the box mirrors its answer when swapped%s%s",
       why[0] ? ": " : "", why);
}

/*
 * One box on one motion, written two ways: the query is not its own swap
 * (its parts differ in their bits), so the answer with A and B swapped is
 * the mirrored one, bit for bit, though the solver, rescaling the motions
 * or balancing a frame, makes the two parts the same bits.  The motion is
 * a turn of 0.3 rad about z and a translation along x, written times 2^400
 * and times 2^600 (a homogeneous multiple is the same motion; both are
 * rescaled); or the box is [-1, 1]^3 on it, and [-2^100, 2^100]^3 on it
 * with its 3x3 part times 2^-100 (the same world box, whose frame the
 * solver balances).  The boxes coincide throughout: they overlap at t0.
 */
static void test_one_motion_two_ways(void)
{
    double rz[3][3], p[2][3] = {{0.5, 0.25, 0}, {3, 0, 0}};
    tu_rot_z(rz, 0.3);
    boxtoi_motion m;
    tu_motion_rot_trans(&m, rz, p, 1);
    const boxtoi_box unit = {{-1, -1, -1}, {1, 1, 1}};
    for (int way = 0; way < 2; way++) {
        boxtoi_query q = boxtoi_default_query();
        q.a = q.b = unit;
        q.motion_a = q.motion_b = m;
        if (way == 0) {
            tu_motion_scale(&q.motion_a, 0x1p400);
            tu_motion_scale(&q.motion_b, 0x1p600);
        } else {
            for (int i = 0; i < 3; i++) {
                q.b.lo[i] = -0x1p100;
                q.b.hi[i] = 0x1p100;
                for (int j = 0; j < 3; j++)
                    q.motion_b.c[0][i][j] *= 0x1p-100;
            }
        }
        boxtoi_query sq = tu_swapped(&q);
        boxtoi_result r = boxtoi_solve(&q), w = boxtoi_solve(&sq);
        char why[512] = "";
        int mirrored = mirrors_exactly(&q, &r, &w, why, sizeof why);
        ok(r.state == BOXTOI_OVERLAP && mirrored,
           "one box on one motion written two ways (%s): overlap at t0 (%s), mirrored when "
           "swapped%s%s", way ? "its frame times 2^-100, its corners times 2^100"
                              : "times 2^400 and 2^600",
           boxtoi_state_name(r.state), why[0] ? ": " : "", why);
    }
}

/*
 * BOXTOI_SKIP_EXIT: the exit is not computed (NaN, exit_after_t1 0) and
 * every other field is what the query without the flag gives, bit for bit.
 */
static void test_skip_exit(void)
{
    static boxtoi_query q[NSTACK];
    unsigned long long st = 4242;
    int exits = 0, lasting = 0, contacts = 0, bad = 0, uncounted = 0;
    for (int high = 0; high < 2; high++) {
        stack_queries(&st, high, q);
        for (int i = 0; i < NSTACK; i++) {
            boxtoi_result full = boxtoi_solve(&q[i]);
            q[i].flags = BOXTOI_SKIP_EXIT;
            boxtoi_result r = boxtoi_solve(&q[i]);
            contacts += full.state == BOXTOI_HIT || full.state == BOXTOI_OVERLAP;
            /* the step that finds a contact counts; a miss may take none */
            if ((full.state == BOXTOI_MISS ? full.iterations < 0 : full.iterations < 1) &&
                uncounted++ < 3)
                diag("query %d (degree %s): %s after %d steps", i, high ? "high" : "low",
                     boxtoi_state_name(full.state), full.iterations);
            exits += isfinite(full.exit);
            lasting += full.exit_after_t1;
            int same = r.state == full.state && r.reason == full.reason &&
                       r.which == full.which && r.kind == full.kind &&
                       r.iterations == full.iterations &&
                       !memcmp(&r.toi, &full.toi, sizeof r.toi) &&
                       !memcmp(&r.depth, &full.depth, sizeof r.depth) &&
                       !memcmp(r.point, full.point, sizeof r.point) &&
                       !memcmp(r.normal, full.normal, sizeof r.normal) &&
                       !memcmp(&r.feature_a, &full.feature_a, sizeof r.feature_a) &&
                       !memcmp(&r.feature_b, &full.feature_b, sizeof r.feature_b);
            if ((!same || !isnan(r.exit) || r.exit_after_t1) && bad++ < 3)
                diag("query %d (degree %s): %s toi %.17g exit %.17g after %d; without the "
                     "flag %s toi %.17g exit %.17g after %d", i, high ? "high" : "low",
                     boxtoi_state_name(r.state), r.toi, r.exit, r.exit_after_t1,
                     boxtoi_state_name(full.state), full.toi, full.exit, full.exit_after_t1);
        }
    }
    ok(contacts >= NSTACK / 5 && exits >= NSTACK / 10,
       "skip exit: the queries include contacts (%d) with an exit (%d; %d last through t1)",
       contacts, exits, lasting);
    is_int(bad, 0, "skip exit: exit NaN, exit_after_t1 0, the rest as without the flag");
    is_int(uncounted, 0, "iterations: at least 1 for every contact, at least 0 for a miss");
}

/* Stack the job's queries take in a thread, in bytes (-1: no thread). */
static long stack_use(job *j, unsigned char *stack)
{
    pthread_attr_t attr;
    pthread_t th;
    memset(stack, STACK_FILL, STACK_BYTES);
    if (pthread_attr_init(&attr) != 0)
        return -1;
    int started = pthread_attr_setstack(&attr, stack, STACK_BYTES) == 0 &&
                  pthread_create(&th, &attr, run_job, j) == 0;
    pthread_attr_destroy(&attr);
    if (!started)
        return -1;
    pthread_join(th, NULL);
    long k = 0;
    while (k < STACK_BYTES && stack[k] == STACK_FILL)
        k++;
    return STACK_BYTES - k;
}

static void test_stack(void)
{
    static boxtoi_query q[2][NSTACK];
    static boxtoi_result r[2][NSTACK];
    unsigned long long st = 4242;
    unsigned char *stack = aligned_alloc(4096, STACK_BYTES);
    if (!stack)
        bail("no memory for the test stack");
    stack_queries(&st, 0, q[0]);
    stack_queries(&st, 1, q[1]);
    job none = {q[0], r[0], 0}, jobs[2] = {{q[0], r[0], NSTACK}, {q[1], r[1], NSTACK}};
    long base = stack_use(&none, stack), use[2];
    for (int k = 0; k < 2; k++)
        use[k] = stack_use(&jobs[k], stack);
    free(stack);
    if (base < 0 || use[0] < 0 || use[1] < 0)
        bail("could not start a thread on a given stack");
    static const char *const what[2] = {"degree 1 to 4", "degree 8"};
    static const long limit[2] = {30 * 1024, 40 * 1024};
    for (int k = 0; k < 2; k++) {
        int hits = 0, bad = 0, deg = 0;
        for (int i = 0; i < NSTACK; i++) {
            hits += r[k][i].state == BOXTOI_HIT;
            bad += r[k][i].state != BOXTOI_HIT && r[k][i].state != BOXTOI_MISS &&
                   r[k][i].state != BOXTOI_OVERLAP;
            deg = q[k][i].motion_a.degree > deg ? q[k][i].motion_a.degree : deg;
        }
        diag("stack: %d queries of %s (up to %d), %d hits: %.1f KB", NSTACK, what[k],
             deg, hits, (use[k] - base) / 1024.0);
        ok(bad == 0 && hits >= NSTACK / 5, "stack: %s queries answered, %d hits", what[k],
           hits);
/* AddressSanitizer's red zones enlarge every frame (BOXTOI_ASAN, config.h) */
#if defined(__OPTIMIZE__) && !defined(BOXTOI_ASAN)
        ok(use[k] - base <= limit[k], "stack: %s takes %.1f KB, at most %ld KB",
           what[k], (use[k] - base) / 1024.0, limit[k] / 1024);
#else
        skip(1, "stack: %s: at most %ld KB, for optimised builds without sanitizers",
             what[k], limit[k] / 1024);
#endif
    }
}

static void test_threads(void)
{
    static boxtoi_query q[2][NQ];
    static boxtoi_result seq[2][NQ], par[2][NQ];
    unsigned long long st = 99;
    int hits = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < NQ; i++) {
            boxtoi_query *x = &q[k][i];
            memset(x, 0, sizeof *x);
            for (int d = 0; d < 3; d++) {
                x->a.lo[d] = -tu_rand(&st, 0.2, 1.0);
                x->a.hi[d] = tu_rand(&st, 0.2, 1.0);
                x->b.lo[d] = -tu_rand(&st, 0.2, 1.0);
                x->b.hi[d] = tu_rand(&st, 0.2, 1.0);
            }
            random_motion(&st, &x->motion_a);
            random_motion(&st, &x->motion_b);
            /* start B away from A so that hits and misses both occur */
            x->motion_b.c[0][0][3] += k == 0 ? 3.0 : -3.0;
            x->motion_b.c[1][0][3] += k == 0 ? -3.0 : 3.0;
            x->t0 = 0.0;
            x->t1 = 1.0;
        }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < NQ; i++) {
            seq[k][i] = boxtoi_solve(&q[k][i]);
            hits += seq[k][i].state == BOXTOI_HIT;
        }
    diag("threads: %d of %d queries are hits", hits, 2 * NQ);
    pthread_t th[2];
    job jobs[2];
    for (int k = 0; k < 2; k++) {
        jobs[k].q = q[k];
        jobs[k].r = par[k];
        jobs[k].n = NQ;
    }
    int started = 1;
    for (int k = 0; k < 2; k++)
        if (pthread_create(&th[k], NULL, run_job, &jobs[k]) != 0)
            started = 0;
    if (!started)
        bail("pthread_create failed");
    for (int k = 0; k < 2; k++)
        pthread_join(th[k], NULL);
    int same = 1;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < NQ; i++)
            if (!same_result(&seq[k][i], &par[k][i]))
                same = 0;
    ok(same, "two threads give the same answers as one");
}

int main(void)
{
    plan(0);
    test_invalid();
    test_singular_rounding();
    test_flat_determinant();
    test_tiny_frame_refused();
    test_tiny_scale_interval();
    test_reasons_agree();
    test_reasons_agree_extreme();
    test_reasons_found();
    test_tiny_corners_huge_frame();
    test_tiny_big_frame();
    test_full_turn();
    test_names();
    test_defaults();
    test_swept();
    test_swept_exact();
    test_overlap_at();
    test_rigid();
    test_multiply();
    test_threads();
    test_stack();
    test_scale();
    test_tiny_against_point();
    test_one_motion_two_ways();
    test_skip_exit();
    return tap_failures() ? 1 : 0;
}
