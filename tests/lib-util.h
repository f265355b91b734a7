/*
 * Shared helpers for the solver's tests: building motions by filling the
 * coefficient matrices directly, evaluating them without the library, small
 * 3x3 linear algebra, and an independent separating-axis overlap test.
 * Nothing here calls into the library, so the helpers can serve as a
 * reference for it, except tu_coord_rounding: boxtoi.h defines the
 * rounding it allows through the swept bounds that boxtoi_swept_aabb
 * returns (test-api holds those to the boxes' sampled corners).
 */
#ifndef BOXTOI_TESTS_LIB_UTIL_H
#define BOXTOI_TESTS_LIB_UTIL_H

#include "boxtoi.h"

#define TU_PI 3.14159265358979323846

/* 3x3 helpers (row-major, m[row][col]). */
void tu_identity3(double m[3][3]);
void tu_rot_x(double m[3][3], double angle);
void tu_rot_y(double m[3][3], double angle);
void tu_rot_z(double m[3][3], double angle);
void tu_mul3(const double a[3][3], const double b[3][3], double out[3][3]);
void tu_mul3v(const double m[3][3], const double v[3], double out[3]);
/* Inverse of m; returns the determinant (out untouched when it is 0). */
double tu_inverse3(const double m[3][3], double out[3][3]);
void tu_cross(const double a[3], const double b[3], double out[3]);
double tu_dot(const double a[3], const double b[3]);
double tu_norm(const double a[3]);

/* All coefficients zero, the given degree. */
void tu_motion_zero(boxtoi_motion *m, int degree);
/* Every coefficient times f (f > 0: the same motion). */
void tu_motion_scale(boxtoi_motion *m, double f);
/*
 * M(t) = [R p(t); 0 0 0 1] with p(t) = sum_k p[k] t^k, k = 0..pdeg; the
 * motion's degree is pdeg.
 */
void tu_motion_rot_trans(boxtoi_motion *m, const double r[3][3],
                         const double p[][3], int pdeg);
/* Pure translation p(t) (identity rotation). */
void tu_motion_trans(boxtoi_motion *m, const double p[][3], int pdeg);

/* M(t) at t by Horner's rule on the coefficients (no library call). */
void tu_eval(const boxtoi_motion *m, double t, double out[4][4]);
/* World point of local x at t: P / w. */
void tu_apply(const boxtoi_motion *m, double t, const double x[3],
              double out[3]);
/*
 * Local coordinates of world point y under the evaluated motion e = M(t)
 * (the inverse of tu_apply).  Returns 0 when the 3x3 part is singular.
 */
int tu_to_local_at(const double e[4][4], const double y[3], double out[3]);
/* How far local point x lies outside box (0 inside), max over axes. */
double tu_box_excess(const boxtoi_box *box, const double x[3]);
/* Largest extent of the box in its local frame. */
double tu_box_size(const boxtoi_box *box);

/*
 * The box at t as a parallelepiped: centre and three half-edge vectors
 * g[k] (world).
 */
void tu_parallelepiped(const boxtoi_box *box, const boxtoi_motion *m,
                       double t, double centre[3], double g[3][3]);
/*
 * Separating-axis test of two parallelepipeds over the 15 candidate axes
 * (face normals of each and cross products of edge directions).  Returns the
 * largest separation along a unit axis: > 0 apart, < 0 overlapping (then its
 * magnitude bounds the overlap along every tested axis).
 */
double tu_sat_separation(const boxtoi_box *a, const boxtoi_motion *ma,
                         const boxtoi_box *b, const boxtoi_motion *mb,
                         double t);

/*
 * The rounding of coordinates that boxtoi.h allows: 8 DBL_EPSILON times the
 * largest coordinate of the boxes' swept bounds over [t0, t1]
 * (boxtoi_swept_aabb); 0 where neither box has bounds.
 */
double tu_coord_rounding(const boxtoi_query *q);

/*
 * A segment crossing a thin rod's edge within th of parallel: the rod x in
 * [-2, 2], y and z in [-1e-3, 1e-3], at rest; the segment of half length
 * 1/2 along b = (cos th, sin th / sqrt2, -sin th / sqrt2), its other axes
 * turned by 1/2 about b from n = (0, 1, 1) / sqrt2 and b x n (so that
 * neither box has a face along n), centred at (1.2, 0, 0) + (1 - 2t) n, over
 * [0, 1].  Edge on edge at (1.2, e, e), t = (1 - sqrt2 e) / 2, normal n.
 * Sets b.
 */
boxtoi_query tu_rod_crossing(double th, double b[3]);

/*
 * The feature's name written from its definition: letters X Y Z with a
 * prime for the hi side; vertex "X'YZ", edge "X-Z'", face "Y'".
 */
void tu_feature_name(const boxtoi_feature *f, char buf[16]);
boxtoi_feature tu_feature(int sx, int sy, int sz);

/* Polynomials in power form (tau = t - tc), for building motions. */
typedef struct tu_poly {
    int n;
    double a[BOXTOI_MAX_DEGREE + 1];
} tu_poly;

tu_poly tu_poly_const(double c);
tu_poly tu_poly_mul(tu_poly x, tu_poly y);
/* x + sy y */
tu_poly tu_poly_add(tu_poly x, tu_poly y, double sy);
/* The motion M(t) = E(t - tc) from entries E given in tau. */
void tu_motion_from_tau(boxtoi_motion *m, tu_poly e[4][4], double tc);
/*
 * Rigid rational motion in tau: quaternion path q(tau) = sum q[k] tau^k
 * (k <= qdeg), position p(tau) = sum p[k] tau^k (k <= pdeg):
 * M = [Rq(tau), p(tau) |q|^2; 0 0 0 |q|^2], Rq the unnormalised rotation
 * matrix of q.
 */
void tu_rigid_motion(boxtoi_motion *m, const double q[][4], int qdeg,
                     const double p[][3], int pdeg, double tc);

/* The box with corners (x0, y0, z0) and (x1, y1, z1). */
boxtoi_box tu_box(double x0, double y0, double z0, double x1, double y1, double z1);

/* The query of boxes a and b on motions ma and mb over [t0, t1], no flags. */
boxtoi_query tu_query(boxtoi_box a, const boxtoi_motion *ma, boxtoi_box b,
                      const boxtoi_motion *mb, double t0, double t1);

/* The query with A and B exchanged (boxes and motions). */
boxtoi_query tu_swapped(const boxtoi_query *q);
/* Box corners and the translation column times 2^e: lengths times 2^e. */
void tu_scale_lengths(boxtoi_query *q, int e);
/* Time times 2^e: the coefficient of t^k times 2^-ek, the interval times 2^e. */
void tu_scale_time(boxtoi_query *q, int e);
/* The kind an answer has with A and B exchanged: vertex-face <-> face-vertex. */
boxtoi_kind tu_swapped_kind(boxtoi_kind kind);

/* Deterministic pseudo-random numbers in [lo, hi). */
double tu_rand(unsigned long long *state, double lo, double hi);
/* A unit quaternion from four such numbers in [-1, 1), normalised. */
void tu_rand_unit_quaternion(unsigned long long *state, double q[4]);
/* p = a b (quaternions w x y z). */
void tu_quat_mul(const double a[4], const double b[4], double p[4]);
/* R(q) x for q not necessarily unit: rotated by the normalised quaternion. */
void tu_quat_rotate(const double q[4], const double x[3], double out[3]);

/* The binomial coefficient C(n, k), 0 <= k <= n, in long double (exact here). */
long double tu_binom(int n, int k);

#endif
