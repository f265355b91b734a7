/*
 * Closed-form checks of the independent reference (tests/ref) used by the
 * randomized differential test: its root finder, and first contact, exit
 * and distances for configurations solved by hand.
 */
#define _XOPEN_SOURCE 700 /* M_PI */
#include "ref/ref.h"
#include "tap/basic.h"

#include <math.h>
#include <string.h>

/* A motion with constant rotation r and position path p0 + p1 t + p2 t^2
 * (the local origin's world position), w = 1. */
static void make_motion(boxtoi_motion *m, const double r[3][3],
                        const double p0[3], const double p1[3],
                        const double p2[3])
{
    memset(m, 0, sizeof *m);
    m->degree = 2;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            m->c[0][i][j] = r[i][j];
        m->c[0][i][3] = p0[i];
        m->c[1][i][3] = p1[i];
        m->c[2][i][3] = p2[i];
    }
    m->c[0][3][3] = 1.0;
}

/* Rotation by angle about a unit axis (Rodrigues). */
static void rotation(double r[3][3], const double axis[3], double angle)
{
    double c = cos(angle), s = sin(angle), v = 1.0 - c;
    double x = axis[0], y = axis[1], z = axis[2];
    r[0][0] = c + x * x * v;
    r[0][1] = x * y * v - z * s;
    r[0][2] = x * z * v + y * s;
    r[1][0] = y * x * v + z * s;
    r[1][1] = c + y * y * v;
    r[1][2] = y * z * v - x * s;
    r[2][0] = z * x * v - y * s;
    r[2][1] = z * y * v + x * s;
    r[2][2] = c + z * z * v;
}

static const double I3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const double Z3[3] = {0, 0, 0};

static void set_box(boxtoi_box *b, double x0, double y0, double z0, double x1,
                    double y1, double z1)
{
    b->lo[0] = x0;
    b->lo[1] = y0;
    b->lo[2] = z0;
    b->hi[0] = x1;
    b->hi[1] = y1;
    b->hi[2] = z1;
}

static void test_roots(void)
{
    double r[40];
    /* (s - 0.3)(s - 0.3 - 1e-5)(s - 0.8) */
    double a = 0.3, b = 0.3 + 1e-5, c = 0.8;
    double p[4] = {-a * b * c, a * b + a * c + b * c, -(a + b + c), 1.0};
    int n = ref_poly_roots(p, 3, 0.0, 1.0, r);
    ok(n == 3, "three roots, two of them 1e-5 apart (got %d)", n);
    if (n == 3) {
        is_double(r[0], a, 1e-12, "first close root");
        is_double(r[1], b, 1e-12, "second close root");
        is_double(r[2], c, 1e-12, "far root");
    } else {
        skip(3, "root count wrong");
    }
    /* (s - 0.5)^2: a double root */
    double q[3] = {0.25, -1.0, 1.0};
    n = ref_poly_roots(q, 2, 0.0, 1.0, r);
    ok(n == 1 && fabs(r[0] - 0.5) < 1e-12, "double root at 0.5 (n = %d)", n);
    /* s^2 + 1: none */
    double z[3] = {1.0, 0.0, 1.0};
    is_int(ref_poly_roots(z, 2, 0.0, 1.0, r), 0, "no real roots");
    /* (s - 0.25)(s - 0.5)(s - 0.75) scaled, degree 12 by multiplying
     * (s^2 + 1)^k factors keeps three roots */
    double w[13] = {0};
    double base[4] = {-0.25 * 0.5 * 0.75, 0.25 * 0.5 + 0.25 * 0.75 + 0.5 * 0.75,
                      -1.5, 1.0};
    for (int i = 0; i < 4; i++)
        w[i] = base[i];
    int deg = 3;
    for (int k = 0; k < 4; k++, deg += 2) {
        double t[13] = {0};
        for (int i = 0; i <= deg; i++) {
            t[i] += w[i];
            t[i + 2] += w[i];
        }
        memcpy(w, t, sizeof w);
    }
    n = ref_poly_roots(w, deg, 0.0, 1.0, r);
    ok(n == 3 && fabs(r[0] - 0.25) < 1e-12 && fabs(r[1] - 0.5) < 1e-12 &&
           fabs(r[2] - 0.75) < 1e-12,
       "degree %d: roots 0.25 0.5 0.75 (n = %d)", deg, n);
    /* roots outside [lo, hi] are not reported */
    n = ref_poly_roots(base, 3, 0.3, 0.7, r);
    ok(n == 1 && fabs(r[0] - 0.5) < 1e-12, "restricted interval (n = %d)", n);
}

/* A static unit cube; B a unit cube moving head-on along -x. */
static void test_head_on(void)
{
    boxtoi_query q;
    ref_answer ra;
    memset(&q, 0, sizeof q);
    set_box(&q.a, 0, 0, 0, 1, 1, 1);
    set_box(&q.b, 0, 0, 0, 1, 1, 1);
    double p0[3] = {3, 0.25, 0.3}, v[3] = {-4, 0, 0};
    make_motion(&q.motion_a, I3, Z3, Z3, Z3);
    make_motion(&q.motion_b, I3, p0, v, Z3);
    q.t0 = 0;
    q.t1 = 2;
    ref_solve(&q, 1e-9, &ra);
    ok(ra.valid && ra.hit && !ra.overlap_t0, "head-on: hit, apart at t0");
    is_double(ra.toi, 0.5, 1e-12, "head-on: faces meet at t = 0.5");
    is_double(ra.exit, 1.0, 1e-12, "head-on: B leaves through the far face at t = 1");
    is_double(ra.t_deep, 0.5, 1e-12, "head-on: penetration starts at toi");
    is_double(ra.sd_t0, -2.0, 1e-12, "head-on: distance 2 at t0 (sd = -2)");
    /* at t = 0.75 B covers A in x; the overlaps in y and z are 0.75, 0.7 */
    is_double(ref_signed_distance(&q, 0.75), 0.7, 1e-12,
              "head-on: depth 0.7 at t = 0.75 (least overlap, along z)");
    ok(!ra.inconsistent, "head-on: consistent timeline");

    /* the same on an interval [2.5, 3.5]: B reaches A at t = 3 */
    double p0s[3] = {3 + 4 * 2.5, 0.25, 0.3};
    make_motion(&q.motion_b, I3, p0s, v, Z3);
    q.t0 = 2.5;
    q.t1 = 3.5;
    ref_solve(&q, 1e-9, &ra);
    is_double(ra.toi, 3.0, 1e-12, "head-on on [2.5, 3.5]: toi = 3");
    ok(ra.exit_after_t1, "head-on on [2.5, 3.5]: contact lasts through t1");

    /* B passes above A at height 1 + 1e-3: a miss by 1e-3 */
    double p0m[3] = {3, 0.25, 1.001};
    make_motion(&q.motion_b, I3, p0m, v, Z3);
    q.t0 = 0;
    q.t1 = 2;
    ref_solve(&q, 1e-9, &ra);
    ok(ra.valid && !ra.hit && !ra.overlap_t0 && isinf(ra.t_deep),
       "passing 1e-3 above: miss");
    is_double(ref_max_signed_distance(&q, 0, 2), -1e-3, 1e-12,
              "passing 1e-3 above: closest approach 1e-3");

    /* overlapping at t0 */
    double p0o[3] = {0.5, 0.5, 0.5};
    make_motion(&q.motion_b, I3, p0o, v, Z3);
    ref_solve(&q, 1e-9, &ra);
    ok(ra.overlap_t0 && ra.toi == 0.0, "overlap at t0");
    is_double(ra.sd_t0, 0.5, 1e-12, "overlap at t0: depth 0.5");
}

/* B, a cube standing on a corner, falls corner-first onto A's face x = 1. */
static void test_corner_on_face(void)
{
    boxtoi_query q;
    ref_answer ra;
    double r[3][3];
    const double h = 0.5, s3 = sqrt(3.0);
    /* rotate (1, 1, 1)/sqrt 3 onto (1, 0, 0): the vertex (-h, -h, -h) then
     * points along -x at distance h sqrt 3 from the centre */
    double axis[3] = {0, 1 / sqrt(2.0), -1 / sqrt(2.0)};
    rotation(r, axis, acos(1 / s3));
    memset(&q, 0, sizeof q);
    set_box(&q.a, 0, 0, 0, 1, 1, 1);
    set_box(&q.b, -h, -h, -h, h, h, h);
    double c0[3] = {4, 0.5, 0.5}, v[3] = {-2, 0, 0};
    make_motion(&q.motion_a, I3, Z3, Z3, Z3);
    make_motion(&q.motion_b, r, c0, v, Z3);
    q.t0 = 0;
    q.t1 = 3;
    ref_solve(&q, 1e-9, &ra);
    ok(ra.valid && ra.hit, "corner on face: hit");
    is_double(ra.toi, (3 - h * s3) / 2, 1e-12, "corner on face: toi = (3 - sqrt(3)/2)/2");
    is_double(ra.exit, (4 + h * s3) / 2, 1e-12,
              "corner on face: exit when the far corner passes x = 0");
    double pt[3] = {1, 0.5, 0.5};
    double tc = (3 - h * s3) / 2;
    ok(ref_point_box_distance(&q.b, &q.motion_b, tc, pt) < 1e-12 &&
           ref_point_box_distance(&q.a, &q.motion_a, tc, pt) < 1e-12,
       "corner on face: (1, 0.5, 0.5) on both boxes at toi");
    is_double(ref_signed_distance(&q, tc - 0.1), -0.2, 1e-12,
              "corner on face: distance 0.2 at toi - 0.1");
    ok(!ra.inconsistent, "corner on face: consistent timeline");

    /* a brief clip: the corner's path in x is a parabola dipping 2.5e-11
     * below the face plane, touching for 1e-5 of the interval */
    const double delta = 2.5e-11, half = sqrt(delta);
    double p0[3] = {1 + h * s3 - delta + 0.25, 0.5, 0.5};
    double p1[3] = {-1, 0, 0}, p2[3] = {1, 0, 0};
    /* x(t) = 1 + h sqrt 3 - delta + (t - 0.5)^2 */
    make_motion(&q.motion_b, r, p0, p1, p2);
    q.t0 = 0;
    q.t1 = 1;
    ref_solve(&q, 1e-12, &ra);
    ok(ra.hit, "clip of 1e-5: hit");
    is_double(ra.toi, 0.5 - half, 1e-9, "clip of 1e-5: toi = 0.5 - 5e-6");
    is_double(ra.exit, 0.5 + half, 1e-9, "clip of 1e-5: exit = 0.5 + 5e-6");
    is_double(ref_signed_distance(&q, 0.5), delta, 1e-14,
              "clip of 1e-5: depth 2.5e-11 at t = 0.5");
    ok(!isinf(ra.t_deep), "clip of 1e-5: deeper than 1e-12");

    /* the same parabola 1e-9 above the face: a miss */
    p0[0] = 1 + h * s3 + 1e-9 + 0.25;
    make_motion(&q.motion_b, r, p0, p1, p2);
    ref_solve(&q, 1e-12, &ra);
    ok(!ra.hit && !ra.overlap_t0, "near miss by 1e-9: miss");
}

/* Two cubes standing on edges: A's top ridge along x, B's bottom ridge
 * along y; B falls and the ridges cross. */
static void test_edge_edge(void)
{
    boxtoi_query q;
    ref_answer ra;
    double ra_rot[3][3], rb_rot[3][3];
    const double h = 0.5, s2 = sqrt(2.0);
    double ax[3] = {1, 0, 0}, ay[3] = {0, 1, 0};
    rotation(ra_rot, ax, atan(1.0));
    rotation(rb_rot, ay, atan(1.0));
    memset(&q, 0, sizeof q);
    set_box(&q.a, -h, -h, -h, h, h, h);
    set_box(&q.b, -h, -h, -h, h, h, h);
    double c0[3] = {0.1, -0.05, 3}, v[3] = {0, 0, -2};
    make_motion(&q.motion_a, ra_rot, Z3, Z3, Z3);
    make_motion(&q.motion_b, rb_rot, c0, v, Z3);
    q.t0 = 0;
    q.t1 = 3;
    ref_solve(&q, 1e-9, &ra);
    ok(ra.valid && ra.hit, "edge on edge: hit");
    is_double(ra.toi, (3 - 2 * h * s2) / 2, 1e-12,
              "edge on edge: toi = (3 - sqrt 2)/2");
    is_double(ra.exit, (3 + 2 * h * s2) / 2, 1e-12,
              "edge on edge: exit = (3 + sqrt 2)/2");
    is_double(ref_signed_distance(&q, 0.5), -(2 - 2 * h * s2), 1e-12,
              "edge on edge: distance 2 - sqrt 2 at t = 0.5");
    double pt[3] = {0.1, 0, h * s2}; /* A's ridge at y = 0, B's at x = 0.1 */
    double tc = (3 - 2 * h * s2) / 2;
    ok(ref_point_box_distance(&q.a, &q.motion_a, tc, pt) < 1e-12 &&
           ref_point_box_distance(&q.b, &q.motion_b, tc, pt) < 1e-12,
       "edge on edge: the crossing point lies on both boxes at toi");
    ok(!ra.inconsistent, "edge on edge: consistent timeline");
}

/* A plate (zero height) falls flat onto a cube. */
static void test_plate(void)
{
    boxtoi_query q;
    ref_answer ra;
    memset(&q, 0, sizeof q);
    set_box(&q.a, 0, 0, 0, 1, 1, 1);
    set_box(&q.b, 0, 0, 0, 0.5, 0.5, 0);
    double p0[3] = {0.2, 0.3, 2}, v[3] = {0, 0, -1};
    make_motion(&q.motion_a, I3, Z3, Z3, Z3);
    make_motion(&q.motion_b, I3, p0, v, Z3);
    q.t0 = 0;
    q.t1 = 4;
    ref_solve(&q, 1e-9, &ra);
    ok(ra.hit, "plate: hit");
    is_double(ra.toi, 1.0, 1e-12, "plate: lands at t = 1");
    is_double(ra.exit, 2.0, 1e-12, "plate: leaves through the bottom at t = 2");
    is_double(ref_signed_distance(&q, 1.5), 0.5, 1e-12, "plate: depth 0.5 at t = 1.5");
}

/* The rotation about z by q(t) = (1, 0, 0, a + b t), no translation:
 * Rq = [qw^2 - qz^2, -2 qw qz, 0; 2 qw qz, qw^2 - qz^2, 0; 0, 0, w] with
 * w = qw^2 + qz^2, qw = 1. */
static void z_turn_motion(boxtoi_motion *m, double a, double b)
{
    const double qz[3] = {a, b, 0}, qz2[3] = {a * a, 2 * a * b, b * b};
    memset(m, 0, sizeof *m);
    m->degree = 2;
    for (int j = 0; j < 3; j++) {
        double qw2 = j == 0 ? 1.0 : 0.0;
        m->c[j][0][0] = qw2 - qz2[j];
        m->c[j][0][1] = -2 * qz[j];
        m->c[j][1][0] = 2 * qz[j];
        m->c[j][1][1] = qw2 - qz2[j];
        m->c[j][2][2] = qw2 + qz2[j];
        m->c[j][3][3] = qw2 + qz2[j];
    }
}

/*
 * A bar rotating about the z axis sweeps down onto a static cube.  The
 * rotation is rational: quaternion q(t) = (1, 0, 0, 1 - t), angle
 * 2 atan(1 - t), from pi/2 at t = 0 to 0 at t = 1, so the event
 * polynomials have degree above one.  The bar's leading face (its local
 * plane y = 0, through the z axis) meets the cube's edge at (2, 0.5) when
 * the angle is atan(0.5 / 2).
 */
static void test_rotation(void)
{
    boxtoi_query q;
    ref_answer ra;
    memset(&q, 0, sizeof q);
    set_box(&q.a, 2, -0.5, -0.5, 3, 0.5, 0.5);
    set_box(&q.b, 0, 0, -1, 4, 0.1, 1);
    make_motion(&q.motion_a, I3, Z3, Z3, Z3);
    z_turn_motion(&q.motion_b, 1.0, -1.0); /* qz = 1 - t */
    q.t0 = 0;
    q.t1 = 1;
    ref_solve(&q, 1e-9, &ra);
    /* 2 atan(1 - t) = atan(1/4)  =>  t = 1 - tan(atan(1/4) / 2) */
    double tc = 1 - tan(atan(0.25) / 2);
    ok(ra.hit, "rotating bar: hit");
    is_double(ra.toi, tc, 1e-12, "rotating bar: toi = 1 - tan(atan(1/4)/2)");
    ok(!ra.inconsistent, "rotating bar: consistent timeline");
}

/*
 * Nearly full turns: a bar spun by 4 atan(20), about 349 degrees, and a
 * slab spun as far the other way (qz = k (2 t - 1), k = 20 and -20), so that
 * in the slab's frame the bar turns by a = 4 atan(k (2 t - 1)); w is 401
 * times larger at the ends of the interval than in its middle, and the
 * event polynomials' coefficients dwarf their values there.  The bar (half
 * lengths 2 and 0.1) reaches out along the slab's normal by
 * R cos(a + pi + phi) near a = -pi (R = sqrt(4.01), phi = atan(0.05)); the
 * slab's face at d = R (1 - 1e-4) is touched from a = -pi - phi - acos(d / R)
 * to a = -pi - phi + acos(d / R).
 */
static void test_fast_turn(void)
{
    const double k = 20.0, R = sqrt(4.01), phi = atan(0.05), d = R * (1.0 - 1e-4);
    const double pi = acos(-1.0);
    boxtoi_query q;
    ref_answer ra;
    memset(&q, 0, sizeof q);
    set_box(&q.a, -2, -0.1, -0.5, 2, 0.1, 0.5);
    set_box(&q.b, d, -5, -5, d + 1, 5, 5);
    z_turn_motion(&q.motion_a, -k, 2 * k);
    z_turn_motion(&q.motion_b, k, -2 * k);
    q.t0 = 0;
    q.t1 = 1;
    ref_solve(&q, 1e-9, &ra);
    double c = acos(d / R);
    /* tan(a / 4) = k (2 t - 1) */
    double tc = (tan((-pi - phi - c) / 4) / k + 1) / 2;
    double te = (tan((-pi - phi + c) / 4) / k + 1) / 2;
    ok(ra.hit, "nearly full turns: hit");
    is_double(ra.toi, tc, 1e-12, "nearly full turns: the bar reaches the slab");
    is_double(ra.exit, te, 1e-12, "nearly full turns: and leaves it");
    ok(!ra.inconsistent, "nearly full turns: consistent timeline");
}

/*
 * Nearer a full turn: a bar reaching from the z axis to x = 2 (half height
 * 0.05) spun by qz = k (2 t - 1) with k = 1000, a = 2 atan(k (2 t - 1)),
 * 359.8 degrees in all, w a million times larger at the ends than in the
 * middle, against a static slab whose face is at d = R (1 - 1e-4)
 * (R = sqrt(4.0025), phi = atan(0.025)).  The corner (2, 0.05) reaches
 * x = R cos(a + phi): it touches the face from a = -phi - acos(d / R) to
 * a = -phi + acos(d / R); elsewhere the bar reaches at most 0.05 along x.
 */
static void test_fuller_turn(void)
{
    const double k = 1000.0, R = sqrt(4.0025), phi = atan(0.025), d = R * (1.0 - 1e-4);
    boxtoi_query q;
    ref_answer ra;
    memset(&q, 0, sizeof q);
    set_box(&q.a, 0, -0.05, -0.5, 2, 0.05, 0.5);
    set_box(&q.b, d, -5, -5, d + 1, 5, 5);
    z_turn_motion(&q.motion_a, -k, 2 * k);
    make_motion(&q.motion_b, I3, Z3, Z3, Z3);
    q.t0 = 0;
    q.t1 = 1;
    ref_solve(&q, 1e-9, &ra);
    double c = acos(d / R);
    /* tan(a / 2) = k (2 t - 1) */
    double tc = (tan((-phi - c) / 2) / k + 1) / 2;
    double te = (tan((-phi + c) / 2) / k + 1) / 2;
    ok(ra.hit, "359.8 degree turn: hit");
    is_double(ra.toi, tc, 1e-12, "359.8 degree turn: the bar reaches the slab");
    is_double(ra.exit, te, 1e-12, "359.8 degree turn: and leaves it");
    ok(!ra.inconsistent, "359.8 degree turn: consistent timeline");
}

/*
 * A recorded fast turn (the randomized test's case 14750 with seed 5): two
 * moving boxes turning by about 324 and 318 degrees, their w varying by
 * factors of 91 and 64 over [2.5, 3.5].  The first contact is an edge-edge event
 * whose polynomial root passes the feature check 6e-10 of the interval early,
 * where the boxes are still 2.7e-9 apart; refined on the geometry, the
 * reference's first contact is a time at which the boxes touch.
 */
static const double case_ma[5][4][4] = {
    {{-0x1.f14ccf4d81443p+8, 0x1.ee6070373e0c9p+9, 0x1.ab0295d9e9c99p+10, 0x1.d34e9dcb76427p+14},
     {0x1.7dd34cba83382p+8, 0x1.bc168b1f569d5p+10, -0x1.ca9073bc168e3p+9, 0x1.53741de6344cdp+15},
     {-0x1.e412fc3fb5be7p+10, 0x1.815f926fdac0fp+6, -0x1.35c3af4e6825fp+9, 0x1.b33a7766f3dfp+13},
     {0, 0, 0, 0x1.fcd192e2d6dd3p+10}},
    {{0x1.384379a5fe8bp+8, -0x1.33ac6ce47dad2p+9, -0x1.0f414e7412b6ep+10, -0x1.1199b4908e58fp+15},
     {-0x1.079b77645947fp+8, -0x1.19842fe86fc1ep+10, 0x1.1954b32092de7p+9, -0x1.c5977e6e45ce5p+15},
     {0x1.30d6ba998b07cp+10, -0x1.56e137d46541p+6, 0x1.8fca85f7a0e08p+8, -0x1.ea98c8946e982p+12},
     {0, 0, 0, -0x1.4173c2d4badcap+10}},
    {{-0x1.88d2b7b744a1p+5, 0x1.7eed35a4f583cp+6, 0x1.58b6b9cfc327fp+7, 0x1.e4f4c781eebd6p+13},
     {0x1.69582f3c932b4p+5, 0x1.64b853399097fp+7, -0x1.58cabbdd6e5d4p+6, 0x1.bf38c81c7d04p+14},
     {-0x1.7fd461094b7a1p+7, 0x1.17bf3d9727642p+4, -0x1.018b362c9112ap+6, -0x1.4605c25cc35bcp+9},
     {0, 0, 0, 0x1.965cb2821a05cp+7}},
    {{0, 0, 0, -0x1.826a2fc88218cp+11},
     {0, 0, 0, -0x1.824cf8f70a5f3p+12},
     {0, 0, 0, 0x1.f71d08e43cedbp+9},
     {0, 0, 0, 0}},
    {{0, 0, 0, 0x1.d42f6b700ca42p+7},
     {0, 0, 0, 0x1.edd0b00dfe5f7p+8},
     {0, 0, 0, -0x1.200ea67e54c2fp+7},
     {0, 0, 0, 0}},
};
static const double case_mb[5][4][4] = {
    {{0x1.a335c3b22a48dp+7, -0x1.c97ef93c05033p+5, -0x1.6221cdc8ffa44p+10, 0x1.7ea1a809e4c82p+15},
     {0x1.38d05c849ad1fp+7, -0x1.63902fdd86036p+10, 0x1.423f47f7ae9ddp+6, -0x1.52e4058a3dc3ap+14},
     {-0x1.6041c75491706p+10, -0x1.4cc39bf43aed5p+7, -0x1.938e659416babp+7, 0x1.4e139c06c349ap+13},
     {0, 0, 0, 0x1.6645fa5f427f4p+10}},
    {{-0x1.fef992b268b87p+6, 0x1.89243e3a487a2p+5, 0x1.bf71631d5a34p+9, -0x1.9f9649f23eaf7p+15},
     {-0x1.d0aad7059ccc4p+6, 0x1.bfca0963cc842p+9, -0x1.0796133652a82p+6, 0x1.c68e6a4ed0507p+14},
     {0x1.bc5fdf101fecep+9, 0x1.f0dfb5a87a54ap+6, 0x1.e1446d9f8f32ep+6, 0x1.34b364dfb6478p+10},
     {0, 0, 0, -0x1.c497e508d48f2p+9}},
    {{0x1.387ae8ddd7438p+4, -0x1.3b2b0dd66c468p+3, -0x1.1ab5097396513p+7, 0x1.4bf2972f3589cp+14},
     {0x1.51c25453121bcp+4, -0x1.19ca63e6c6ad4p+7, 0x1.977a91cb8e89ap+3, -0x1.d21bb6a3892b7p+13},
     {-0x1.183adfc006f69p+7, -0x1.699ae3d4bff5dp+4, -0x1.1c8bf4e591dd4p+4, -0x1.ce12bb3675e5ap+12},
     {0, 0, 0, 0x1.1e125de5cdb24p+7}},
    {{0, 0, 0, -0x1.cb04c223f8b14p+11},
     {0, 0, 0, 0x1.af26553cd13e9p+11},
     {0, 0, 0, 0x1.714aede06caf7p+11},
     {0, 0, 0, 0}},
    {{0, 0, 0, 0x1.ca61f344d1149p+7},
     {0, 0, 0, -0x1.2e46a83f587e1p+8},
     {0, 0, 0, -0x1.54de1ca8e7a6dp+8},
     {0, 0, 0, 0}},
};

/* A recorded query: boxes lo[k], hi[k], quartic motions ma and mb over [t0, t1]. */
static boxtoi_query recorded_query(const double lo[2][3], const double hi[2][3],
                                   const double ma[5][4][4], const double mb[5][4][4],
                                   double t0, double t1)
{
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    set_box(&q.a, lo[0][0], lo[0][1], lo[0][2], hi[0][0], hi[0][1], hi[0][2]);
    set_box(&q.b, lo[1][0], lo[1][1], lo[1][2], hi[1][0], hi[1][1], hi[1][2]);
    q.motion_a.degree = q.motion_b.degree = 4;
    memcpy(q.motion_a.c, ma, sizeof q.motion_a.c[0] * 5);
    memcpy(q.motion_b.c, mb, sizeof q.motion_b.c[0] * 5);
    q.t0 = t0;
    q.t1 = t1;
    return q;
}

static void test_recorded_turn(void)
{
    static const double lo[2][3] = {{-0x1.7bcbb94f9ab72p-2, -0x1.b0d3ccfc49e12p-2,
                                     -0x1.8e2aba0ef95eep-2},
                                    {-0x1.05d207f96a04fp-1, -0x1.ab2407efc578p-2,
                                     -0x1.17c91d1388324p-3}};
    static const double hi[2][3] = {{0x1.4dededb018ea5p-1, 0x1.b0d3ccfc49e12p-2,
                                     0x1.8e2aba0ef95eep-2},
                                    {0x1.05d207f96a04fp-1, 0x1.ab2407efc578p-2,
                                     0x1.2df8794046152p-2}};
    boxtoi_query q = recorded_query(lo, hi, case_ma, case_mb, 2.5, 3.5);
    ref_answer ra;
    ref_solve(&q, 1e-9 * ref_size(&q, q.t0), &ra);
    ok(ra.hit && !ra.inconsistent, "recorded turn: hit, consistent timeline");
    is_double(ref_signed_distance(&q, ra.toi), 0.0, 1e-12 * ra.size,
              "recorded turn: the boxes touch at the first contact");
    ok(ref_signed_distance(&q, ra.toi - 1e-9) < 0.0,
       "recorded turn: and are apart 1e-9 before it");
}

/*
 * A graze about 1e3 sizes from the origin (rigid quartic motions over
 * [2.5, 3.5]; test-random with every scene moved that far).  Its events
 * were once formed from positions near 1e3 and began 8e-7 of the interval
 * early, the boxes 1.2e-9 apart there, and the timeline contradicted
 * itself.  Evaluated in quadruple precision, the boxes touch at
 * 2.94063820893624 (separation 2.8e-14) and are 2.4e-10 apart at 2.940638.
 */
static const double far_graze_ma[5][4][4] = {
    {{0x1.aa69a5597d17dp+9, 0x1.fe991b958dd0bp+11, -0x1.6ca48aa2b08efp+5, -0x1.71c59f98403dfp+21},
     {0x1.d951f1c937204p+11, -0x1.827ef52cf7422p+9, 0x1.89a4fa611b4d0p+10, 0x1.4bc9561309d63p+21},
     {0x1.7f33b70cc468ap+10, -0x1.6b24666c4cea5p+8, -0x1.e30c5c59fa8b2p+11, -0x1.638bb7ddbd522p+19},
     {0, 0, 0, 0x1.04d1c5f95ec10p+12}},
    {{-0x1.146ba8b412370p+9, -0x1.5cf7f8d21c36ap+11, 0x1.3294816d68df0p+1, 0x1.e7cc5f1391a9ap+20},
     {-0x1.427236af870aep+11, 0x1.fdacce01c0943p+8, -0x1.101312afd1a00p+10, -0x1.cb8ec03f92052p+20},
     {-0x1.0ad91c9e18bdcp+10, 0x1.ab7199fe935b7p+7, 0x1.48b14d39b55c4p+11, 0x1.c384cc328f53bp+18},
     {0, 0, 0, -0x1.63b55085d6399p+11}},
    {{0x1.65203ba764ebap+6, 0x1.dcee0f1e4bbaep+8, 0x1.1b50fd1b64e40p+2, -0x1.1efa39aca07c2p+18},
     {0x1.b755be71d1af8p+8, -0x1.4ff567da2f4f2p+6, 0x1.7835bd9a0e13ep+7, 0x1.4be6088e1d59ap+18},
     {0x1.734dac9e37672p+7, -0x1.e9a41b1b694c4p+4, -0x1.bf44f2b80f9aep+8, -0x1.adc42ae56cb42p+15},
     {0, 0, 0, 0x1.e53c2398f9fecp+8}},
    {{0, 0, 0, -0x1.fb09cdcaa21abp+13},
     {0, 0, 0, -0x1.80cec3acef57bp+12},
     {0, 0, 0, -0x1.038585a5a5572p+13},
     {0, 0, 0, 0}},
    {{0, 0, 0, 0x1.64a8c858f2633p+10},
     {0, 0, 0, 0x1.dc32cbbf94b76p+8},
     {0, 0, 0, 0x1.7134d16b69d06p+9},
     {0, 0, 0, 0}},
};
static const double far_graze_mb[5][4][4] = {
    {{0x1.39bc608cb3c02p+13, -0x1.0d346e34a34bdp+13, 0x1.397bee0432ceap+14, -0x1.1dc5609cce7b8p+24},
     {0x1.628321c53d166p+13, -0x1.06a6b341a7a34p+14, -0x1.92f3500fbcfb9p+13, 0x1.daa4e971d6029p+23},
     {0x1.237f2b3c106edp+14, 0x1.d04d6c8da980dp+13, -0x1.717ba255efd18p+11, -0x1.1dfd87f3e12fep+22},
     {0, 0, 0, 0x1.777f1bb4d1dbbp+14}},
    {{-0x1.a8470267c2f26p+12, 0x1.72c8de0859559p+12, -0x1.abc5f66d4714cp+13, 0x1.91d98c3c4fb43p+23},
     {-0x1.e6904ccdc706ap+12, 0x1.64e307264c649p+13, 0x1.13548278b0357p+13, -0x1.46232febe18a9p+23},
     {-0x1.8db5c4c3a2b44p+13, -0x1.3d36417355e19p+13, 0x1.de0a791879ab2p+10, 0x1.8cd49adeb796fp+21},
     {0, 0, 0, -0x1.001a8f76a1d99p+14}},
    {{0x1.1ee00f824a992p+10, -0x1.fead7fe2e5436p+9, 0x1.23dac15f6df2ep+11, -0x1.3095a958064fbp+21},
     {0x1.4de8068f8b205p+10, -0x1.e4efe9a07c742p+10, -0x1.783c99765fb46p+10, 0x1.c784b60a33191p+20},
     {0x1.0f4d809017ca0p+11, 0x1.b16a8a759cb52p+10, -0x1.34518d7bb0faep+8, -0x1.175a6743a2cecp+19},
     {0, 0, 0, 0x1.5d5c56253cd2ap+11}},
    {{0, 0, 0, 0x1.3348be34d2d30p+16},
     {0, 0, 0, -0x1.611e3c120112ep+13},
     {0, 0, 0, -0x1.4b1ed71a60148p+9},
     {0, 0, 0, 0}},
    {{0, 0, 0, -0x1.5d8f8cd19694fp+12},
     {0, 0, 0, 0x1.6815753518553p+8},
     {0, 0, 0, 0x1.2d04e585117ffp+10},
     {0, 0, 0, 0}},
};

static void test_far_graze(void)
{
    static const double lo[2][3] = {{-0x1.1feba5c7038bbp-2, -0x1.2fe3c91f5d4c1p-1,
                                     -0x1.0c2e5a4c4bd10p-1},
                                    {-0x1.c88a0e8f70592p-2, -0x1.cbf2ca3141b76p-2,
                                     -0x1.44cd8231b5408p-2}};
    static const double hi[2][3] = {{0x1.1feba5c7038bbp-2, 0x1.2fe3c91f5d4c1p-1,
                                     0x1.0c2e5a4c4bd10p-1},
                                    {0x1.c88a0e8f70592p-2, 0x1.2dde6e1b4c407p-1,
                                     -0x1.0972b48a569a8p-6}};
    boxtoi_query q = recorded_query(lo, hi, far_graze_ma, far_graze_mb, 2.5, 3.5);
    ref_answer ra;
    ref_solve(&q, 1e-9 * ref_size(&q, q.t0), &ra);
    ok(ra.hit && !ra.inconsistent, "far graze: hit, consistent timeline");
    is_double(ra.toi, 2.94063820893624, 1e-8, "far graze: first contact at 2.94063820893624");
    is_double(ref_signed_distance(&q, ra.toi), 0.0, 1e-11 * ra.size,
              "far graze: the boxes touch at the first contact");
    ok(ref_signed_distance(&q, ra.toi - 1e-7) < -1e-11 * ra.size,
       "far graze: and are apart 1e-7 before it");
}

/*
 * A graze of quartic motions over [0, 1] (coefficients up to 380 for
 * positions near 20) that touches at one instant: in 50-digit arithmetic
 * the boxes' largest axis gap is -5.1e-14 at 0.48989125986 and 3.9e-10 and
 * 4.1e-10 (2.1e-10 and 2.2e-10 of their size) at the two events the
 * reference finds 1.6e-6 either side, a double root come apart by
 * rounding.  States in that stretch apart by 1.2e-10 of the size read as
 * a contradiction of its timeline until a stretch never deeper than
 * deep_tol counted as a touch (test-random, seed 344).
 */
static const double split_graze_ma[5][4][4] = {
    {{-0x1.2db3dd3eebb85p+1, 0x1.77c1ae7f42fe8p-3, -0x1.02240a1e9bef8p+4, 0x1.2290a95e52a9ep+5},
     {-0x1.16404d235d83cp+3, 0x1.b70c44d10ea37p+3, 0x1.6d2657e44974ap+0, 0x1.28f0af2e064e0p-4},
     {0x1.b2ec1b6dbf206p+3, 0x1.19e8a9f549754p+3, -0x1.e2ab53cbbdc8fp+0, 0x1.eac983611acfdp+2},
     {0, 0, 0, 0x1.04e5c67f35cb8p+4}},
    {{0x1.46020a6d36f38p+3, -0x1.57db43548b842p+3, 0x1.bc2b87a70bcc8p+5, -0x1.1cbdcfafb0091p+7},
     {0x1.297c273a702e7p+5, -0x1.4fec0fd934e51p+5, -0x1.f42b6a1fc9814p+3, 0x1.2ab5021a4b02ep+6},
     {-0x1.5218dbd7ccd2ap+5, -0x1.381496df133aap+5, 0x1.f5074a268d3c0p+0, -0x1.950bd645a1a08p+4},
     {0, 0, 0, -0x1.c439a07730433p+5}},
    {{-0x1.b582bc736043ap+3, 0x1.16fba3d61152bp+4, -0x1.7a0abe6507e85p+5, 0x1.725f7965be9bfp+7},
     {-0x1.2f7e6005d1ebap+5, 0x1.ca55f08ce2cf3p+4, 0x1.58bc7d9064641p+4, -0x1.2c3a974dd36a0p+8},
     {0x1.09136ae9e106bp+5, 0x1.3ff084ce6b59cp+5, 0x1.4adf5a568d3ccp+2, 0x1.4f0b7a27b8081p+3},
     {0, 0, 0, 0x1.a1897384f9836p+5}},
    {{0, 0, 0, -0x1.7766d40a2cb1ep+6},
     {0, 0, 0, 0x1.7cf3baab5101ep+8},
     {0, 0, 0, 0x1.2cd6023cdf89cp+5},
     {0, 0, 0, 0}},
    {{0, 0, 0, 0x1.3019e8a34071dp+5},
     {0, 0, 0, -0x1.049939a9ae3e8p+7},
     {0, 0, 0, -0x1.ef83721dd393dp+4},
     {0, 0, 0, 0}},
};
static const double split_graze_mb[5][4][4] = {
    {{0x1.cac8a12404c56p-2, 0x1.68ec04fb0ee69p+1, 0x1.4cc2955fb7d0cp+0, -0x1.4193d9a9cabfep+0},
     {0x1.a2e29f1ac00fdp+0, -0x1.549f97505f0b2p+0, 0x1.29428bf0e8779p+1, 0x1.482fcf5075450p+4},
     {0x1.51c2291275149p+1, 0x1.62a129a02e980p-2, -0x1.a9289c8f1afacp+0, -0x1.f345d15e41a77p+2},
     {0, 0, 0, 0x1.918aaf02ebc1cp+1}},
    {{0x1.afbeb578bde64p+0, -0x1.69c9ddefa134ap+2, -0x1.d771b4becdb36p+2, 0x1.500c62cefd3c6p+3},
     {-0x1.41296375891c9p+1, 0x1.5e4ed283c3a83p+2, -0x1.7079342d3f5cbp+2, -0x1.5a9b815e69d31p+6},
     {-0x1.03a10e7073b24p+3, -0x1.1bf4ffb6f66c9p+2, 0x1.17856a0f335ffp+0, 0x1.0806be3d05b44p+5},
     {0, 0, 0, -0x1.f91e7e5487108p+2}},
    {{-0x1.0a3723d475f16p+2, 0x1.54fbe578f0c42p+0, 0x1.755198e4a6170p+2, -0x1.85a16d43be83dp+4},
     {0x1.322fa431449d5p+1, -0x1.890f36f46f2a8p+2, 0x1.8dd9a6aa002e7p+1, 0x1.2008286cb3870p+7},
     {0x1.5efe47364b616p+2, 0x1.d831ab37fe023p+1, 0x1.88c42463ec7f0p+1, -0x1.5b8effbdc9d86p+5},
     {0, 0, 0, 0x1.d25fa870ace76p+2}},
    {{0, 0, 0, 0x1.882cebef31637p+4},
     {0, 0, 0, -0x1.981dcc8ce6829p+6},
     {0, 0, 0, 0x1.43a72c81c9161p+3},
     {0, 0, 0, 0}},
    {{0, 0, 0, -0x1.b8b51921fa8acp+2},
     {0, 0, 0, 0x1.3098c794a2403p+4},
     {0, 0, 0, 0x1.359bcc6265788p+4},
     {0, 0, 0, 0}},
};

static void test_split_graze(void)
{
    static const double lo[2][3] = {{-0x1.5e4b2ccb6670cp-3, -0x1.7f4fc88db8ff7p-1,
                                     -0x1.eedaefa71563ap-2},
                                    {-0x1.33c1ccc3b697ep+0, -0x1.23cabbc9e19eep-2,
                                     -0x1.0f8dcd9be33f8p-1}};
    static const double hi[2][3] = {{0x1.1ed70f386548dp-2, 0x1.7f4fc88db8ff7p-1,
                                     0x1.eedaefa71563ap-2},
                                    {0x1.517f40a44b518p-4, 0x1.23cabbc9e19eep-2,
                                     0x1.0f8dcd9be33f8p-1}};
    boxtoi_query q = recorded_query(lo, hi, split_graze_ma, split_graze_mb, 0.0, 1.0);
    ref_answer ra;
    double size = ref_size(&q, q.t0);
    ref_solve(&q, 1e-9 * size, &ra);
    ok(ra.hit && ra.nevents == 2 && !ra.inconsistent && isinf(ra.t_deep),
       "split graze: a touch, never 1e-9 of the size deep, the timeline consistent");
    double eighth = ra.events[0] + 0.125 * (ra.events[1] - ra.events[0]);
    ok(ref_signed_distance(&q, eighth) < -1e-10 * size,
       "split graze: apart by more than 1e-10 of the size an eighth into the stretch");
    ref_solve(&q, 0.0, &ra);
    ok(ra.hit && ra.inconsistent,
       "split graze: with no depth allowed, the same states contradict the timeline");
}

/* Motion coefficients in powers of an absolute time far from the interval
 * (heavy cancellation): the head-on case shifted to t ~ 1000. */
static void test_far_interval(void)
{
    boxtoi_query q;
    ref_answer ra;
    memset(&q, 0, sizeof q);
    set_box(&q.a, 0, 0, 0, 1, 1, 1);
    set_box(&q.b, 0, 0, 0, 1, 1, 1);
    make_motion(&q.motion_a, I3, Z3, Z3, Z3);
    /* x(t) = 1 + (t - 1000.5)^2 - 0.01 = 1 + t^2 - 2001 t + 1001000.25 - 0.01:
     * B's face x = x(t) reaches A's face x = 1 at t = 1000.5 -+ 0.1 */
    double p0[3] = {1 + 1001000.25 - 0.01, 0.25, 0.3}, p1[3] = {-2001, 0, 0},
           p2[3] = {1, 0, 0};
    make_motion(&q.motion_b, I3, p0, p1, p2);
    q.t0 = 1000;
    q.t1 = 1001;
    ref_solve(&q, 1e-9, &ra);
    ok(ra.hit, "far interval: hit");
    is_double(ra.toi, 1000.4, 1e-9, "far interval: toi = 1000.4");
    is_double(ra.exit, 1000.6, 1e-9, "far interval: exit = 1000.6");
    is_double(ref_signed_distance(&q, 1000.5), 0.01, 1e-9,
              "far interval: depth 0.01 at t = 1000.5");
}

/*
 * Two segments within th of parallel, side by side: A along x over [-2, 2];
 * B of half length 1.5 along b = (cos th, sin th / sqrt2, -sin th / sqrt2),
 * centred at (0.3, 0, 0) + d n with n = (0, 1, 1) / sqrt2, square to both.
 * The lines' closest points are (0.3, 0, 0) and B's centre, on both
 * segments, d apart.
 */
static void test_near_parallel_segments(void)
{
    static const double ths[] = {1e-3, 1e-5, 1e-7, 1e-9};
    static const double ds[] = {1e-6, 1e-9};
    const double is2 = sqrt(0.5);
    for (size_t i = 0; i < sizeof ths / sizeof ths[0]; i++)
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
            double th = ths[i], d = ds[k];
            double b[3] = {cos(th), sin(th) * is2, -sin(th) * is2}, n[3] = {0, is2, is2};
            double r[3][3] = {{b[0], n[0], b[1] * n[2] - b[2] * n[1]},
                              {b[1], n[1], b[2] * n[0] - b[0] * n[2]},
                              {b[2], n[2], b[0] * n[1] - b[1] * n[0]}};
            double id[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
            double c[3] = {0.3, d * n[1], d * n[2]};
            boxtoi_query q;
            memset(&q, 0, sizeof q);
            set_box(&q.a, -2, 0, 0, 2, 0, 0);
            set_box(&q.b, -1.5, 0, 0, 1.5, 0, 0);
            make_motion(&q.motion_a, id, Z3, Z3, Z3);
            make_motion(&q.motion_b, r, c, Z3, Z3);
            q.t1 = 1;
            is_double(ref_signed_distance(&q, 0.5), -d, 1e-14,
                      "segments %g rad from parallel, %g apart: distance", th, d);
        }
}

/*
 * A segment crossing a thin rod's edge within th of parallel: the rod x in
 * [-2, 2], y and z in [-e, e] (e = 1e-3) at rest; the segment of half
 * length 1/2 along b = (cos th, sin th / sqrt2, -sin th / sqrt2), centred
 * at (1.2, 0, 0) + (1 - 2t) n with n = (0, 1, 1) / sqrt2, square to both,
 * its other axes turned by 1/2 about b from n.  They meet edge on edge at
 * t = (1 - sqrt2 e) / 2.  The closest points of the edges' lines came from
 * |e|^2 |f|^2 - (e . f)^2, whose rounding moved them 1.6e-5 along the
 * edges at 4e-6 rad: the crossing was refused, and the first contact read
 * where the segment's end reached the rod's face, 1e-6 later.
 */
static void test_near_parallel_crossing(void)
{
    static const double ths[] = {1e-3, 1e-5, 4e-6, 1e-6, 1e-7, 2e-8};
    const double is2 = sqrt(0.5), e = 1e-3, want = (1.0 - 2.0 * is2 * e) / 2.0;
    for (size_t i = 0; i < sizeof ths / sizeof ths[0]; i++) {
        double th = ths[i];
        double b[3] = {cos(th), sin(th) * is2, -sin(th) * is2}, n[3] = {0, is2, is2}, c[3];
        c[0] = b[1] * n[2] - b[2] * n[1];
        c[1] = b[2] * n[0] - b[0] * n[2];
        c[2] = b[0] * n[1] - b[1] * n[0];
        double r[3][3], p0[3], p1[3];
        for (int k = 0; k < 3; k++) {
            r[k][0] = b[k];
            r[k][1] = cos(0.5) * n[k] + sin(0.5) * c[k];
            r[k][2] = -sin(0.5) * n[k] + cos(0.5) * c[k];
            p0[k] = (k == 0 ? 1.2 : 0.0) + n[k];
            p1[k] = -2.0 * n[k];
        }
        boxtoi_query q;
        memset(&q, 0, sizeof q);
        set_box(&q.a, -2, -e, -e, 2, e, e);
        set_box(&q.b, -0.5, 0, 0, 0.5, 0, 0);
        make_motion(&q.motion_a, I3, Z3, Z3, Z3);
        make_motion(&q.motion_b, r, p0, p1, Z3);
        q.t1 = 1;
        ref_answer ra;
        ref_solve(&q, 1e-9 * ref_size(&q, q.t0), &ra);
        ok(ra.valid && ra.hit && fabs(ra.toi - want) <= 1e-12,
           "segment crossing a rod's edge %g rad from parallel: first contact %.17g "
           "(%.17g)", th, ra.toi, want);
    }
}

/*
 * The separating-axis value of boxes of no extent comes from their frames:
 * two points 0.5 apart along a diagonal of A's frame, B turned 30 degrees
 * about z.  Every cross axis lies along z, -y, x or B's y or x, so the
 * value is minus the offset's largest component along A's and B's axes:
 * 0.394, along B's x.  Points have no edges to form axes from, and the
 * value read 0 (touching) however far apart they were.
 */
static void test_axes_of_points(void)
{
    const double is3 = sqrt(1.0 / 3.0), zaxis[3] = {0, 0, 1};
    double r[3][3], c[3] = {0.5 * is3, 0.5 * is3, 0.5 * is3}, best = 0.0;
    rotation(r, zaxis, M_PI / 6);
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    set_box(&q.a, 0, 0, 0, 0, 0, 0);
    set_box(&q.b, 0, 0, 0, 0, 0, 0);
    make_motion(&q.motion_a, I3, Z3, Z3, Z3);
    make_motion(&q.motion_b, r, c, Z3, Z3);
    q.t1 = 1;
    for (int k = 0; k < 3; k++)
        best = fmax(best, fmax(fabs(c[k]), fabs(r[0][k] * c[0] + r[1][k] * c[1] +
                                                r[2][k] * c[2])));
    is_double(ref_axis_value(&q, 0.5), -best, 1e-15,
              "two points 0.5 apart: the axis value is minus their largest "
              "separation along the frames' axes, %.6g", best);
}

/*
 * A fuzz find: B's w is 0.0039 at t = 0, 63 times less than a quarter
 * later, and the events found missed the boxes touching again at t = 0,
 * after parting at t = -0.0016: the stretch between that event and the
 * next was read as touching from its middle, and the contact said to last
 * through t1.  t = 0 starts one of the pieces the events are searched in
 * (w varies much), and a root at a piece's start was dropped as if it
 * were the query's t0.  The timeline has the boxes apart in between, an
 * event at 0, and is consistent.
 */
static void test_missed_event(void)
{
    static const double bc[6][16] = {
        {0.00390625, 0, 0, 0.00390625, 0, 0.00390625, 0, 0, 0, 0, 0.00390625,
         -1.52587890625e-05, 0, 0, 0, 0.00390625},
        {0.9921875, 0, 0.0625, 0.9921722412109375, 0, 0.9921875, -0.0234375,
         -1.52587890625e-05, -0.0625, 0.0234375, 0.9921875, -0.0038909912109375, 0, 0, 0,
         0.9921875},
        {62.7890625, 0.1484375, 8.9296875, 63.285186767578125, 0.2265625, 63.21875,
         -3.328125, -0.003875732421875, -8.9296875, 3.328125, 62.71875,
         -0.2510986328125, 0, 0, 0, 63.2890625},
        {-6.8828125, 0.828125, 126.125, 8.744964599609375, 10.75, 6.8828125,
         -44.3359375, -0.247222900390625, -125.890625, 44.9609375, -8.9921875,
         -0.2823486328125, 0, 0, 0, 8.9921875},
        {-55.19140625, 44.6484375, 1.7578125, 70.976593017578125, 44.6484375,
         54.99609375, 4.9609375, -0.035125732421875, 1.7578125, 4.9609375,
         -70.81640625, -0.3125152587890625, 0, 0, 0, 71.01171875},
        {0, 0, 0, -0.2773895263671875, 0, 0, 0, -0.2773895263671875, 0, 0, 0,
         -0.2773895263671875, 0, 0, 0, 0}};
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    set_box(&q.a, -2.0234375, -0.0625, 0, 1.9609375, 0, 0);
    set_box(&q.b, -0.34375, 0, -0.453125, 0.34375, 0, 0.453125);
    make_motion(&q.motion_a, I3, Z3, Z3, Z3);
    q.motion_b.degree = 5;
    for (int k = 0; k <= 5; k++)
        for (int i = 0; i < 16; i++)
            q.motion_b.c[k][i / 4][i % 4] = bc[k][i];
    q.t0 = -0.0625;
    q.t1 = 3.9375;
    ok(ref_signed_distance(&q, -0.0017) > 0 && ref_signed_distance(&q, -0.0008) < -1e-5 &&
           ref_signed_distance(&q, 0.0008) > 0,
       "missed event: touching, apart by more than 1e-5, touching again");
    ref_answer ra;
    ref_solve(&q, 1e-9 * ref_size(&q, q.t0), &ra);
    ok(ra.valid && ra.overlap_t0 && !ra.inconsistent && !ra.exit_after_t1 &&
           ra.exit > -0.0017 && ra.exit < -0.0008,
       "missed event: the contact from t0 ends before the gap, the timeline consistent "
       "(exit %.17g%s%s)", ra.exit, ra.exit_after_t1 ? ", after t1" : "",
       ra.inconsistent ? ", inconsistent" : "");
    int at0 = 0;
    for (int i = 0; i < ra.nevents; i++)
        if (fabs(ra.events[i]) <= 1e-12)
            at0 = 1;
    ok(at0, "missed event: the boxes touch again at t = 0, the start of a piece (%d events)",
       ra.nevents);
}

/*
 * A fuzz find: a segment through the origin, at rest, and a plate whose
 * side passes through the origin, turning and shrinking about it (a linear
 * motion with no translation): they touch all along, and the signed
 * distance is +-1e-16 by rounding.  The timeline's check at 15 points of
 * the interval read the state exactly and called it inconsistent (the
 * checks then judged nothing); like the check within stretches, it counts
 * only states clear of touching by 1e-10 of the size.
 */
static void test_touching_all_along(void)
{
    static const double ac[3][16] = {
        {0.00390625, 0, 0, 0, 0, 0.00390625, 0, 0, 0, 0, 0.00390625, 0, 0, 0, 0,
         0.00390625},
        {0, 0, 0.0078125, 0, 0, 0, 0.015625, 0, -0.0078125, -0.015625, 0, 0, 0, 0, 0, 0},
        {0.01171875, -0.015625, 0, 0, -0.015625, -0.01171875, 0, 0, 0, 0, -0.01953125, 0,
         0, 0, 0, 0.01953125}};
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    set_box(&q.a, -2.0234375, -0.0625, 0, 1.9609375, 0, 0);
    set_box(&q.b, 0, 0, -0.015625, 0, 0, 0.015625);
    q.motion_a.degree = 2;
    for (int k = 0; k <= 2; k++)
        for (int i = 0; i < 16; i++)
            q.motion_a.c[k][i / 4][i % 4] = ac[k][i];
    make_motion(&q.motion_b, I3, Z3, Z3, Z3);
    q.t0 = 0.0;
    q.t1 = 0.015625;
    double most = 0.0;
    int signs = 0;
    for (int i = 0; i <= 64; i++) {
        double sd = ref_signed_distance(&q, q.t1 * i / 64.0);
        most = fmax(most, fabs(sd));
        signs |= sd > 0.0 ? 1 : sd < 0.0 ? 2 : 0;
    }
    ok(most <= 1e-14 && signs == 3,
       "touching all along: the signed distance is rounding, of both signs (at most %.3g)",
       most);
    ref_answer ra;
    ref_solve(&q, 1e-9 * ref_size(&q, q.t0), &ra);
    ok(ra.valid && ra.overlap_t0 && !ra.inconsistent,
       "touching all along: touching at t0, the timeline consistent%s",
       ra.inconsistent ? " (inconsistent)" : "");
}

/*
 * The singularity proof the randomized test asks of a motion refused as
 * singular: a determinant changing sign on the interval is shown, one that
 * keeps its sign (a rotation written in powers of a t far from 0) or only
 * touches 0 is not.
 */
static void test_singular(void)
{
    boxtoi_motion m;
    make_motion(&m, I3, Z3, Z3, Z3);
    ok(!ref_singular(&m, 0, 1), "singular: the identity is not");
    m.degree = 1;
    m.c[1][2][2] = -2.0; /* det = 1 - 2 t */
    ok(ref_singular(&m, 0, 1), "singular: det 1 - 2t on [0, 1] is");
    ok(!ref_singular(&m, 0, 0.49), "singular: det 1 - 2t on [0, 0.49] is not");
    /* det = (t - 0.5)^2 only touches 0 */
    m.degree = 2;
    m.c[0][2][2] = 0.25;
    m.c[1][2][2] = -1.0;
    m.c[2][2][2] = 1.0;
    ok(!ref_singular(&m, 0, 1), "singular: det (t - 0.5)^2 is not shown");
    /* det = t - 1000.5 on [1000, 1001] */
    make_motion(&m, I3, Z3, Z3, Z3);
    m.degree = 1;
    m.c[0][2][2] = -1000.5;
    m.c[1][2][2] = 1.0;
    ok(ref_singular(&m, 1000, 1001), "singular: det t - 1000.5 on [1000, 1001] is");
    /*
     * Quaternion (1, 0, 0, u), u = t - 1000.5, written in powers of t: the
     * rotation about z with w = 1 + u^2, det = w^3 > 0, from coefficients
     * near 1e6.
     */
    memset(&m, 0, sizeof m);
    m.degree = 2;
    const double c = 1000.5;
    double one_plus[3] = {1.0 + c * c, -2.0 * c, 1.0}, one_minus[3] = {1.0 - c * c, 2.0 * c, -1.0},
           twice[3] = {-2.0 * c, 2.0, 0.0};
    for (int k = 0; k <= 2; k++) {
        m.c[k][0][0] = one_minus[k]; /* 1 - u^2 */
        m.c[k][1][1] = one_minus[k];
        m.c[k][0][1] = -twice[k]; /* -2u */
        m.c[k][1][0] = twice[k];
        m.c[k][2][2] = one_plus[k]; /* 1 + u^2 */
        m.c[k][3][3] = one_plus[k];
    }
    ok(!ref_singular(&m, 1000, 1001), "singular: a turn written far from t = 0 is not");
}

/*
 * The proof the randomized test asks of a motion refused for a w that
 * vanishes: a w changing sign on the interval is shown, one that keeps its
 * sign or only touches 0 is not, and so is the w of an octic motion over
 * [-4.72, -4.66] (test-random, seed 361) whose powers of t sum terms up to
 * 8e15 to 0.076 at t0 and -0.10 at t1 (exactly, from the doubles given),
 * while the other box's w of that query, from terms up to 4e10, stays near 1.
 */
static void test_w_vanishes(void)
{
    boxtoi_motion m;
    make_motion(&m, I3, Z3, Z3, Z3);
    ok(!ref_w_vanishes(&m, 0, 1), "w vanishes: not the identity's");
    m.degree = 1;
    m.c[1][3][3] = -2.0; /* w = 1 - 2 t */
    ok(ref_w_vanishes(&m, 0, 1), "w vanishes: 1 - 2t on [0, 1] does");
    ok(!ref_w_vanishes(&m, 0, 0.49), "w vanishes: 1 - 2t on [0, 0.49] does not");
    ok(!ref_singular(&m, 0, 1), "w vanishes: and the 3x3 part is not singular");
    m.degree = 2; /* w = (t - 0.5)^2 only touches 0 */
    m.c[0][3][3] = 0.25;
    m.c[1][3][3] = -1.0;
    m.c[2][3][3] = 1.0;
    ok(!ref_w_vanishes(&m, 0, 1), "w vanishes: (t - 0.5)^2 is not shown to");
    static const double wb[9] = {0x1.92286f8a8bdf2p+46, 0x1.577d92b160692p+47,
                                 0x1.00b55bdac6a7dp+47, 0x1.b6846bde78ed1p+45,
                                 0x1.d42dfe431e929p+43, 0x1.3fe709c36fbc1p+41,
                                 0x1.113b765b8ac69p+38, 0x1.0ab57e8f4856cp+34,
                                 0x1.c798c1aa877bcp+28};
    static const double wa[9] = {0x1.f384bb640d0efp+30, 0x1.4236339d21935p+31,
                                 0x1.5a7a1df6c6c9ap+30, 0x1.8d7e3255dda02p+28,
                                 0x1.0090d5234066fp+26, 0x1.615c0b7699b5cp+22,
                                 0x1.95a4352358026p+17, 0, 0};
    const double t0 = -0x1.2dea8c000f3ccp+2, t1 = -0x1.2a49ee6510b94p+2;
    boxtoi_motion ma, mb;
    memset(&ma, 0, sizeof ma);
    memset(&mb, 0, sizeof mb);
    ma.degree = mb.degree = 8;
    for (int k = 0; k <= 8; k++) {
        ma.c[k][3][3] = wa[k];
        mb.c[k][3][3] = wb[k];
    }
    ok(ref_w_vanishes(&mb, t0, t1), "w vanishes: the octic w summed from terms up to 8e15 does");
    ok(!ref_w_vanishes(&ma, t0, t1), "w vanishes: the other box's w does not");
}

int main(void)
{
    plan(0);
    test_roots();
    test_head_on();
    test_corner_on_face();
    test_edge_edge();
    test_plate();
    test_rotation();
    test_fast_turn();
    test_fuller_turn();
    test_recorded_turn();
    test_far_graze();
    test_split_graze();
    test_far_interval();
    test_near_parallel_segments();
    test_near_parallel_crossing();
    test_axes_of_points();
    test_missed_event();
    test_touching_all_along();
    test_singular();
    test_w_vanishes();
    return tap_failures() ? 1 : 0;
}
