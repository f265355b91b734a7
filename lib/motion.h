/*
 * A box and its motion prepared for one interval (internal).
 *
 * The interval [t0, t1] is mapped to s in [0, 1]; every entry of the motion
 * is kept in scaled Bernstein form of the motion's degree d, with the sign
 * chosen so that w(s) > 0.  Column k of the 3x3 part, u[k], is the image of
 * local axis k (homogeneous: divide by w); p is the image of the box centre.
 */
#ifndef BOXTOI_MOTION_H
#define BOXTOI_MOTION_H

#include "boxtoi.h"
#include "linknames.h"

#define BXM_CAP (BOXTOI_MAX_DEGREE + 1)

typedef struct bx_moving {
    int d;                      /* degree in s */
    double u[3][3][BXM_CAP];    /* u[k][row]: column k of the 3x3 part */
    double p[3][BXM_CAP];       /* centre, homogeneous */
    double w[BXM_CAP];          /* w(s) > 0 on [0, 1] */
    int e;                      /* degree of u and w alone (<= d), by bx_trim */
    double flip;                /* -1 when M was negated to make w > 0, else 1 */
    double ue[3][3][BXM_CAP];   /* u at degree e (filled by bx_trim) */
    double we[BXM_CAP];         /* w at degree e (filled by bx_trim) */
    double half[3];             /* half extents (>= 0) */
    double size;                /* length of the box's local diagonal */
    int box_known;              /* 1: box_lo, box_hi hold bx_swept_aabb's bounds */
    double box_lo[3], box_hi[3];
    double box_coord;           /* the largest magnitude of those bounds */
    const boxtoi_motion *src;   /* the motion it was prepared from */
    double t0, t1;              /* and the interval */
    double qbound;              /* bx_check_det's quick_bound, or -1 */
    int w_even;                 /* 1: w's coefficients all positive, the largest at most
                                   BX_PIECE_RATIO / C(d, d / 2) times the least
                                   (solve.c's w_surely_even); 0: not known */
} bx_moving;

/** Fixed-s evaluation: world centre, generators g[k] = half[k] u[k] / w. */
typedef struct bx_pose {
    double c[3];
    double g[3][3];             /* g[k][row] */
    double axis[3][3];          /* axis[k] = u[k] / w (unscaled local axes) */
} bx_pose;

/**
 * Returned by bx_prepare, bx_prepare_partial and bx_prepare_pair (never to
 * users) for a motion given at a scale its numbers cannot be used at (w far
 * from 1 on the interval, or coefficients too large for the products while
 * within range of w): the caller prepares bx_rescale's copy instead, the
 * same map.
 */
#define BX_REASON_RESCALE ((boxtoi_reason)-1)

/**
 * When bx_prepare_partial of box and motion on [t0, t1] asks for rescaling,
 * scale the motion in place by the power of two that brings the largest
 * scaled Bernstein coefficient of its w on [t0, t1] into [1/2, 1) (exact)
 * and return 1; else return 0 and leave it.
 */
int bx_rescale(const boxtoi_box *box, boxtoi_motion *motion, double t0, double t1);

/*
 * The largest length of a box and its motion (its corners, the translation
 * column over w), when all of them lie below BX_TINY_LENGTH, where products
 * of two underflow (the solver and boxtoi_swept_aabb then scale them by a
 * power of two); -1 otherwise, and for input not valid.
 */
#define BX_TINY_LENGTH 0x1p-400
double bx_tiny_length(const boxtoi_box *box, const boxtoi_motion *m);

/* The box's corners and the motion's translation column times 2^e (exact
   for the tiny lengths above). */
void bx_scale_lengths(boxtoi_box *box, boxtoi_motion *m, int e);

/*
 * *reach: the largest magnitude of the box's world coordinates over [t0,
 * t1] (of its swept bounds, the lengths not scaled), 0 where the box is
 * refused; returns boxtoi_validate's reason (the interval not tested).
 */
boxtoi_reason bx_reach(const boxtoi_box *box, const boxtoi_motion *m, double t0, double t1,
                       double *reach);

/*
 * The exponent e by which tiny lengths are scaled (times 2^-e): the largest
 * length big (bx_tiny_length) near 1, unless the world coordinates, of
 * magnitude reach (bx_reach) before the scaling, would then exceed 2^101: a
 * 3x3 part far larger than w (up to 1e60 times w's largest coefficient, and
 * more where w is small within the interval) takes corners near 1 out of
 * range.  Then e is the least that keeps them within, but lengths are not
 * left below 2^-300 (where they would be tiny again).
 */
int bx_tiny_exponent(double big, double reach);

/*
 * A box's local scale (docs/method.md, Scale): where a motion's 3x3 part is
 * tiny against its w over [t0, t1] (every coefficient of t^k times T^k, T
 * the larger of |t0| and |t1|, below BX_LOCAL_SMALL times w's largest such
 * term; bx_locally_small says so), the query is solved with that box's
 * frame rescaled by bx_balance_frame: the 3x3 part's columns times 2^-k and
 * the corners times 2^k, 2^k near the ratio of the largest 3x3 term to
 * w's, the same world box exactly.  bx_balance_frame returns 1 when it
 * rescaled them, 0 (nothing changed) where the part is not tiny or the
 * rescaling would not be exact.
 */
#define BX_LOCAL_SMALL 0x1p-64
int bx_locally_small(const boxtoi_motion *m, double t0, double t1);
int bx_balance_frame(boxtoi_box *b, boxtoi_motion *m, double t0, double t1);

/**
 * Validate and prepare box and motion over [t0, t1] (t0 <= t1 finite).
 * Returns BOXTOI_REASON_NONE or why the input is unusable.
 */
boxtoi_reason bx_prepare(const boxtoi_box *box, const boxtoi_motion *motion,
                         double t0, double t1, bx_moving *out);

/**
 * bx_prepare without its last test, that det(u) does not vanish on [0, 1]
 * (bx_check_det): every other reason, in the same order.
 */
boxtoi_reason bx_prepare_partial(const boxtoi_box *box,
                                 const boxtoi_motion *motion, double t0,
                                 double t1, bx_moving *out);

/**
 * The two boxes of a query: bx_prepare_partial of A, then of B, and when
 * B's fails, A's determinant test (bx_check_det), which comes first.
 * Returns the first reason met and sets *which to its box (1 or 2), or
 * BOXTOI_REASON_NONE with a and b prepared as bx_prepare_partial does.
 */
boxtoi_reason bx_prepare_pair(const boxtoi_box *box_a,
                              const boxtoi_motion *motion_a,
                              const boxtoi_box *box_b,
                              const boxtoi_motion *motion_b, double t0,
                              double t1, bx_moving *a, bx_moving *b,
                              int *which);

/**
 * The last test of bx_prepare: BOXTOI_REASON_SINGULAR when det(u) vanishes,
 * or comes within its rounding of zero, somewhere on [0, 1].  When it does
 * and w is uneven (bx_w_uneven), each of bx_piece_times' pieces of w is
 * tested again, the source prepared afresh over the piece's times, and the
 * motion passes when all of them do.  Reads the motion m was prepared from
 * (m->src), which must still be there.
 */
boxtoi_reason bx_check_det(const bx_moving *m);

/*
 * Pieces for a motion that turns nearly a full turn.  A rational rotation
 * whose quaternion path passes close to zero has w = |q|^2 small in between
 * and large at the ends, and so coefficients far larger than its values
 * there: products of them carry rounding far above the boxes' own scale
 * where the values are small, enough to move a contact by more than the
 * promise allows, and det u = w^3 comes within its rounding of zero.  Such
 * an interval is cut into pieces on each of which w varies by at most
 * BX_PIECE_RATIO (its Bernstein coefficients do), each prepared from the
 * caller's coefficients over its own times: the solver solves them in order,
 * and bx_check_det tests them when the whole interval's determinant is
 * within rounding of zero.  A turn by a from q0 along a linear quaternion
 * path makes w grow by 1 / cos^2(a / 2): 64 is a turn of 165 degrees, which
 * an ODE step of 1/60 s gives only a body spinning at more than 900 rad/s.
 */
#define BX_PIECE_RATIO 64.0
#define BX_MAX_PIECES 32
#define BX_MIN_PIECE 0x1p-12

/**
 * Is w (scaled Bernstein, degree n, on [0, 1]) uneven: a Bernstein
 * coefficient not positive, or the largest above BX_PIECE_RATIO times the
 * least?
 */
int bx_w_uneven(const double *w, int n);

/**
 * The pieces of [t0, t1]: halves of s in [0, 1], then halves of those, for
 * as long as a piece's wa or wb (scaled Bernstein in s, degrees na and nb;
 * wb may be NULL) is uneven there, none shorter than BX_MIN_PIECE, at most
 * BX_MAX_PIECES.  Returns the number of pieces n, their ends in t in
 * t[0..n] (t[0] = t0, t[n] = t1), in order.
 */
int bx_piece_times(const double *wa, int na, const double *wb, int nb, double t0,
                   double t1, double *t);

/**
 * An upper bound, over s in [0, 1], of the margin bx_check_det allows the
 * determinant: its test passes when |det u| exceeds twice this on all of
 * [0, 1].
 */
double bx_det_margin_max(const bx_moving *m);

/**
 * bx_check_det of a, then of b (NULL: that test is not needed): 1 or 2 for
 * the first that fails, else 0.
 */
int bx_check_det2(const bx_moving *a, const bx_moving *b);

/**
 * Set e and fill ue and we: the 3x3 part and w in scaled Bernstein form of
 * their own degree e (often lower than d when only the position moves
 * faster), for the motion and interval given to bx_prepare (same sign flip).
 */
void bx_trim(const boxtoi_motion *motion, double t0, double t1, bx_moving *m);

/**
 * The size the solver's tolerances are measured in: the length of the
 * box's local diagonal, or the world length of that diagonal's image
 * where the motion shrinks it to less than half (the least at the ends of
 * the interval, |sum_k 2 half[k] u[k] / w| taken as sqrt(sum_k (2 half[k]
 * |u[k]| / w)^2)).  A box given in millimetres with a motion that scales to
 * metres is measured in metres.
 */
double bx_world_size(const bx_moving *m);

/** Pose at s in [0, 1]. */
void bx_pose_at(const bx_moving *m, double s, bx_pose *pose);

/**
 * Conservative world AABB of the prepared box over s in [0, 1]; 0 when it
 * cannot be formed or a bound exceeds 1e60 in magnitude (RANGE_LIMIT, the
 * lengths the solver takes; overflowing where w comes near 0).
 */
int bx_swept_aabb(const bx_moving *m, double lo[3], double hi[3]);

/* 1 when this library was built with the two-lane paths (lanes.h), else 0. */
int bx_lanes_built(void);

/**
 * The swept-box test of a query: the world AABBs of a and b over [0, 1]
 * (bx_swept_aabb), the tolerance tol = 1e-12 size + 8 eps coord (coord:
 * the largest magnitude of their bounds), and whether they are apart by
 * more than tol along some axis.  Returns 0 when an AABB could not be
 * formed (tol and apart untouched), else 1.
 */
int bx_swept_test(const bx_moving *a, const bx_moving *b, double size,
                  double *tol, int *apart);

/** Check the interval: finite and ordered. */
boxtoi_reason bx_check_interval(double t0, double t1);

#endif
