/*
 * Bounds on the separation functions of two rigidly moving boxes over a
 * short piece of the interval, from poses at its ends (internal).
 *
 * With a_i = uA_i / wA and b_j = uB_j / wB the boxes' axes at s (unit up to
 * rounding for rigid motions), Delta = pB / wB - pA / wA the offset of their
 * centres and P_ij = a_i . b_j, the gap functions of the 15 axes (numbered
 * as in solve.c: faces of A, faces of B, then 6 + 3 i + j for a_i x b_j) are
 *   face i of A:  G = |a_i . Delta| - hA_i - sum_k hB_k |P_ik|,
 *   face j of B:  G = |b_j . Delta| - hB_j - sum_k hA_k |P_kj|,
 *   edges i, j:   G = |(a_i x b_j) . Delta| - sum_{k != i} hA_k |P_mj|
 *                     - sum_{k != j} hB_k |P_im'|   (m = 3-i-k, m' = 3-j-k).
 * Each is a rigid solver's axis function divided by a positive weight, so
 * it has the same sign.  On a piece of length h, a smooth x with |x''| <= M
 * stays within M h^2 / 8 of its chord; so |x| stays below the chord of |x|
 * plus that, and -|y| below minus the chord of |y| plus that when y has one
 * sign at both ends (else below 0).  The second derivatives are bounded from
 * bounds on the derivatives of a, b and Delta over the piece.
 */
#ifndef BOXTOI_GAP_H
#define BOXTOI_GAP_H

#include "motion.h"

#define BX_GAP_AXES 15

/** Dot product of two 3-vectors. */
static inline double bx_dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** o = a x b for 3-vectors (o must not alias a or b). */
static inline void bx_cross3(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/** Bounds over a span on |a_k'|, |a_k''| (every k) and on |c'|, |c''| of the centre. */
typedef struct bx_speeds {
    double rot, rot2, vel, vel2;
} bx_speeds;

/**
 * Derivative bounds of two prepared boxes (bx_trim done) over [s0, s1]
 * within [0, 1], s0 < s1, derivatives taken in s.  Returns 0 when they
 * cannot be formed (a w not bounded away from 0 by its Bernstein
 * coefficients there).
 */
int bx_gap_speeds(const bx_moving *a, const bx_moving *b, double s0, double s1,
                  bx_speeds *sa, bx_speeds *sb);

/**
 * The bounds behind bx_gap_speeds for one rational curve c = u / w over
 * [0, 1] (three rows u[r] and w scaled Bernstein of degree n, w > 0).  Per
 * row, b1 is the largest |Bernstein coefficient| of N1 = u' w - u w', bt
 * that of T = u'' w - u w'', each with an allowance for the rounding of
 * forming them, and b2 = bt max(w) + 2 max|w'| b1 (maxima over Bernstein
 * coefficients) bounds N2 = T w - 2 w' N1.  Adds the squares of b1 to *s1
 * and of b2 to *s2; then |c'| <= sqrt(s1) / min(w)^2 and
 * |c''| <= sqrt(s2) / min(w)^3.
 */
void bx_gap_rational_bounds(const double *const u[3], const double *w, int n,
                            double *s1, double *s2);

/** The least Bernstein coefficient of w (scaled Bernstein, degree n): a lower bound. */
double bx_gap_wmin(const double *w, int n);

/** What the bounds need of one pair of poses. */
typedef struct bx_gap_sample {
    double x[BX_GAP_AXES]; /* a_i . Delta, b_j . Delta, (a_i x b_j) . Delta */
    double P[9];           /* P_ij at 3 i + j */
    double dlen, amax, bmax; /* |Delta|, max |a_i|, max |b_j| */
} bx_gap_sample;

void bx_gap_sample_of(const bx_pose *pa, const bx_pose *pb, bx_gap_sample *out);

/**
 * Upper bounds up[axis] of every G over a piece of length h (> 0) whose
 * ends were sampled as lo and hi, for half extents ha and hb and derivative
 * bounds sa and sb of the boxes over the piece.
 */
void bx_gap_piece_bounds(const double ha[3], const double hb[3],
                         const bx_speeds *sa, const bx_speeds *sb,
                         const bx_gap_sample *lo, const bx_gap_sample *hi,
                         double h, double up[BX_GAP_AXES]);

/**
 * The terms of every G, for callers that bound its pieces' sizes: the
 * constant (index into hA_0..2, hB_0..2, or 6 for none) and four terms
 * -h |P| as (index 3 i + j of P, index of h; 6 pads with a zero).
 */
extern const signed char bx_gap_const[BX_GAP_AXES];
extern const signed char bx_gap_terms[BX_GAP_AXES][4][2];

#endif
