/*
 * An independent reference for the first contact of two moving boxes, used
 * to check boxtoi_solve() in the tests.
 *
 * Formulation (classical feature events, deliberately different from the
 * solver's): two closed parallelepipeds first touch at t0 when they already
 * share a point there, otherwise at the earliest time a boundary feature of
 * one meets a boundary feature of the other:
 *   - a vertex of A crosses the plane of a face of B inside that face,
 *   - a vertex of B crosses the plane of a face of A inside that face,
 *   - an edge of A meets an edge of B (det[eA, eB, pB - pA] = 0 with both
 *     intersection parameters in [0, 1]).
 * With the denominators w(t) cleared every event is a polynomial in t; its
 * real roots come from recursive isolation through the roots of the
 * derivatives (power form on the interval mapped to [0, 1]), so roots that
 * lie very close together are separated.  Where w varies much over the
 * interval (a fast turn) the events are sought on pieces of it on which w
 * varies little, the motion re-expanded over each.  A root is moved to the
 * zero of the event's gap evaluated from the poses when it lands near its
 * features but off them, and so are the earliest events, which decide the
 * first contact, and every edge-edge event.  Edges within 1e-4 rad of
 * parallel, whose event polynomials lose roots to rounding (the slope is
 * as small as the sine of their angle), also have their gaps searched from
 * the poses around the roots where they are that parallel, and their
 * events must have the lines meet to 1e-10 of the size.  Between two
 * consecutive valid events the overlap state cannot change, which gives a
 * full timeline of contact over the interval.
 *
 * Geometry at a fixed time (overlap, distance, penetration depth) is
 * computed directly, in long double (edges nearly parallel carry the
 * poses' rounding over the sine of their angle into the directions of
 * their common normals): a vertex of one box inside the other or an edge of one
 * crossing a face of the other means overlap; the distance between apart
 * boxes is the least vertex-face or edge-edge distance; the penetration depth
 * is the least distance from the origin to a face of the Minkowski
 * difference.
 *
 * This code only reads the data structures of boxtoi.h; it calls no
 * function of the library.
 */
#ifndef BOXTOI_TEST_REF_H
#define BOXTOI_TEST_REF_H

#include "boxtoi.h"

#define REF_MAX_EVENTS 1024

typedef struct ref_answer {
    int valid;           /* 0 when the query could not be handled */
    double size;         /* largest world diagonal of the two boxes at t0 */
    int overlap_t0;      /* the closed boxes share a point at t0 */
    double sd_t0;        /* signed distance at t0 (> 0: penetration depth) */
    int hit;             /* apart at t0, touching somewhere in (t0, t1] */
    double toi;          /* first touch: t0 when overlap_t0, NaN for none */
    double t_deep;       /* start of the first stretch of overlap that gets
                            deeper than the deep tolerance; INFINITY if none */
    double t_deep_end;   /* end of that stretch */
    double exit;         /* end of the contact that starts at toi; NaN when
                            there is no contact or it lasts through t1 */
    int exit_after_t1;   /* the contact starting at toi lasts through t1 */
    int inconsistent;    /* the timeline contradicts itself (reference bug) */
    int nevents;         /* valid event times in (t0, t1], sorted */
    double events[REF_MAX_EVENTS];
    int nroots;          /* event polynomial roots examined (statistics) */
} ref_answer;

/* Largest world diagonal of the two boxes at time t. */
double ref_size(const boxtoi_query *q, double t);

/*
 * Solve a query.  deep_tol is the penetration depth above which a stretch of
 * overlap counts as deep (for t_deep); a stretch of overlap never deeper is
 * a touch, and states in it apart by at most deep_tol leave the timeline
 * consistent.  Returns 1, or 0 when the query is outside what the reference
 * handles (then out->valid = 0).  Each motion is first multiplied by the power
 * of 2 that brings its largest coefficient near 1 (the same motion, exactly),
 * so that the event polynomials' products stay in range at any scale.
 */
int ref_solve(const boxtoi_query *q, double deep_tol, ref_answer *out);

/* Do the closed boxes share a point at time t?  Direct test, no tolerance. */
int ref_overlap(const boxtoi_query *q, double t);

/*
 * Signed distance at time t: the penetration depth (>= 0) when the boxes
 * overlap, minus their distance when they are apart.
 */
double ref_signed_distance(const boxtoi_query *q, double t);

/* Largest signed distance over [ta, tb] (sampled, then refined). */
double ref_max_signed_distance(const boxtoi_query *q, double ta, double tb);

/* Smallest signed distance over [ta, tb] (sampled, then refined). */
double ref_min_signed_distance(const boxtoi_query *q, double ta, double tb);

/* Largest signed distance over [ta, tb] from samples + 1 samples refined
 * by golden-section search; its time goes to *at (may be NULL). */
double ref_max_signed_distance_at(const boxtoi_query *q, double ta, double tb,
                                  int samples, double *at);

/*
 * Penetration depth at time t (0 when apart or touching) and the unit
 * direction n along which moving B by that depth separates the boxes (the
 * face normal of the Minkowski difference nearest to the origin).
 */
double ref_penetration(const boxtoi_query *q, double t, double n[3]);

/*
 * The least of (support of A + support of B - centre distance) over the
 * 15 axes of the separating-axis test at time t, taken from the boxes'
 * frames (the columns of the motions' 3x3 parts), so that boxes of no
 * extent (points, segments) have theirs: the penetration depth when the
 * boxes overlap, minus the largest separation along those axes when apart
 * (that is the distance when the closest features are a vertex and a face
 * or two edges).  Cheap; used to construct grazes.
 */
double ref_axis_value(const boxtoi_query *q, double t);

/* Largest ref_axis_value over [ta, tb], like ref_max_signed_distance_at. */
double ref_max_axis_value_at(const boxtoi_query *q, double ta, double tb,
                             int samples, double *at);

/* Distance from world point p to the box at time t (0 inside). */
double ref_point_box_distance(const boxtoi_box *box, const boxtoi_motion *m,
                              double t, const double p[3]);

/* M(t), each entry by compensated Horner (accurate where powers of a t far
 * from 0 cancel). */
void ref_motion_at(const boxtoi_motion *m, double t, double r[4][4]);

/*
 * 1 when the 3x3 part of M(t) is shown singular on [t0, t1]: its
 * determinant, at 1025 evenly spaced times, takes both signs beyond a bound
 * of its rounding.  0 says nothing (a determinant that only touches 0, or
 * changes sign between samples, is not found).
 */
int ref_singular(const boxtoi_motion *m, double t0, double t1);

/* 1 when w(t) of M(t) is shown to vanish on [t0, t1], in the same way: it
 * takes both signs beyond a bound of its rounding at those 1025 times. */
int ref_w_vanishes(const boxtoi_motion *m, double t0, double t1);

/* World position of local point p at time t (own evaluation of M(t)). */
void ref_apply(const boxtoi_motion *m, double t, const double p[3],
               double out[3]);

/*
 * Real roots of a[0] + a[1] s + ... + a[n] s^n in [lo, hi], sorted,
 * including double roots where the polynomial touches zero to rounding.
 * Returns the count (at most n), written to roots.  Exposed for testing.
 */
int ref_poly_roots(const double *a, int n, double lo, double hi,
                   double *roots);

#endif
