/*
 * boxtoi: exact first contact of two moving boxes.
 *
 * A box is given in its local frame by two corners lo and hi (lo <= hi per
 * axis; a zero extent gives a plate, a segment or a point).  Its motion is a
 * 4x4 matrix M(t) whose entries are polynomials in t.  M(t) maps homogeneous
 * local points [x y z 1]^T to [P(t); w(t)]; the world point is P / w.  The
 * bottom row of M(t) must be [0 0 0 w(t)] with w(t) != 0 on the interval, and
 * the upper-left 3x3 part must be non-singular on the interval.  Rigid
 * rational motions (a polynomial quaternion path) and affine motions (scale,
 * shear: the box becomes a parallelepiped) both fit.
 *
 * boxtoi_solve() finds the first t in [t0, t1] at which the two closed solids
 * share a point, when that first contact ends, which features touch, where,
 * and along which normal.  The answer comes from the real roots of
 * polynomials built from the motion coefficients: no time sampling and no
 * conservative advancement.
 *
 * Promise: the reported time is never later than the true first contact by
 * more than 1e-9 of the interval length; no contact deeper than 1e-9 of the
 * boxes' size (the larger diagonal, in the world's lengths where a motion
 * scales a box down) is missed, however brief; at the reported time the
 * boxes are within that distance of touching, or of a time within 1e-9 of
 * the interval (where the motions' coefficients are far larger than the
 * positions they give, rounding leaves the time a little early, and fast
 * boxes are apart by that much time times their closing speed).  Far
 * beyond that, positions are only as exact as eps times the coefficients'
 * magnitude (those of M(t0 + (t1 - t0) s) in Bernstein form; for a
 * motion whose w varies so much that it is solved in pieces, those of each
 * piece), and the time as exact as the boxes take to move that far, early
 * or late: a box on the path 1e18 (t - 1/2)^6 is placed to within about 100
 * units near t = 1/2, where it hardly moves, and its contact came 4e-4 of
 * the interval late; keep coefficients within a few orders of magnitude of
 * the positions (a local frame, an interval around the motion).  Positions
 * are P / w, so where w itself falls far below its coefficients on a piece
 * (a w with a near-double root: no piece is shorter than 2^-12 of the
 * interval), they carry that ratio too: w = t^2 - 0.532 t + 0.0707, whose
 * least is 1.3e-13, puts the unit cube's half side at 3.9e12 over
 * [0, 0.745], its faces only to within tens of units (a point 28 deep at
 * the least was missed, another 18 away hit); keep such a w's interval
 * short around its least.
 * Distances are only as exact as the coordinates they come from: boxes
 * that no axis of the separating-axis test parts by more than 1e-12 of
 * their size (the larger box's diagonal) plus 8 DBL_EPSILON times the
 * largest coordinate of their swept bounds (about 1e-8 at 5e6 from the
 * origin) count as touching (their distance can be a few times that: two
 * points apart along a diagonal, 1.7 times), so far from the origin both
 * distances above grow by about that much; work in a local frame to keep
 * them small.  Times are doubles: the time found (within the promise
 * above, which allows it a few ulps after the exact one) is rounded toward
 * t0.  Where t0 is far from 0
 * against the interval (t0 = 1e6 with a 1/60 step), their spacing exceeds
 * 1e-9 of the interval, and the boxes at the time reported can be apart by
 * that spacing times their closing speed (and a contact less than that
 * spacing after t0 is reported at t0 itself); the exit is rounded alike,
 * and the boxes there can still be that deep; the depth, point and normal
 * are those of the time before its rounding.  Use times near 0 where that
 * matters.  Grazing contacts (the boxes touch without penetrating) lie
 * inside that tolerance and may be reported either way.  Swapping A and B
 * gives exactly the mirrored answer: the same times, point and depth, bit
 * for bit, the kind and features exchanged and the normal negated (but
 * where A and B are the same box on the same motion, the query is its own
 * swap, and the answer stays as it is).  The
 * pair is solved in one order whichever box is A (an order of their
 * corners' and motions' bits), so rounding cannot decide a name, a time or
 * a point differently in the other order; bad input is still reported as
 * given, A's reason first.  Scaling time or lengths by a power of two (the
 * coefficients, corners and interval alike; neither query refused as out of
 * range, no number subnormal) gives the same answer bit for bit, its times or
 * its point and depth scaled alike (and the same from boxtoi_overlap_at and
 * boxtoi_swept_aabb, its bounds scaled alike), except where the numbers the
 * solver forms leave the range of normal doubles (lengths scaled by 2^-30
 * moved the last digits of an exit 4e-98 after t0).  Where the contact allows
 * several answers (parallel faces meeting flat, parallel edges meeting, flat
 * boxes in one plane, plates in one plane or points at one place already
 * touching at t0) the choice comes from the geometry, so that nearby queries
 * name alike: the face chosen from the geometry alone, the axis the approach
 * came along, between edges or corners closing at equal speeds the one chosen
 * from the geometry alone.  Where the contact's place is ill-conditioned
 * (edges crossing at a small angle phi, or a box whose edges meet the face
 * it touches at phi: nearly parallel faces) the point can lie anywhere
 * along those edges or that face within the coordinates' rounding over
 * sin phi.  A motion whose w varies much over the interval (a rigid motion
 * turning nearly a full turn) is solved piece by piece, prepared over each;
 * the promise is tested for rigid motions turning up to about 359.8 degrees
 * within the interval.  Nearer a full turn the motion may be refused as
 * singular within rounding: give it a shorter interval.
 *
 * All functions are reentrant: no global mutable state, no heap allocation,
 * nothing printed.  Units are the caller's: lengths in whatever unit the
 * corners and the motion use, times in the unit of t.
 */
#ifndef BOXTOI_H
#define BOXTOI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(BOXTOI_BUILDING) && defined(__GNUC__)
#define BOXTOI_API __attribute__((visibility("default")))
#else
#define BOXTOI_API
#endif

/** Highest polynomial degree accepted for one motion's entries. */
#define BOXTOI_MAX_DEGREE 8

/** A box in its local frame: the corners lo (X, Y, Z) and hi (X', Y', Z'). */
typedef struct boxtoi_box {
    double lo[3]; /**< local minimum corner */
    double hi[3]; /**< local maximum corner, hi[i] >= lo[i] */
} boxtoi_box;

/**
 * A motion M(t) = c[0] + c[1] t + ... + c[degree] t^degree.
 * c[k][row][col] is the coefficient of t^k in entry (row, col) of M, acting
 * on column vectors [x y z 1]^T.  Coefficients above `degree` are ignored.
 * Row 3 must be [0 0 0 w(t)] for every power of t.
 */
typedef struct boxtoi_motion {
    int degree;                                /**< 0 .. BOXTOI_MAX_DEGREE */
    double c[BOXTOI_MAX_DEGREE + 1][4][4];     /**< c[k][row][col] */
} boxtoi_motion;

/** One first-contact question: two boxes, their motions and an interval. */
typedef struct boxtoi_query {
    boxtoi_box a;            /**< box A, local frame */
    boxtoi_box b;            /**< box B, local frame */
    boxtoi_motion motion_a;  /**< motion of A */
    boxtoi_motion motion_b;  /**< motion of B */
    double t0;               /**< interval start */
    double t1;               /**< interval end, t1 >= t0 */
    unsigned flags;          /**< 0, or BOXTOI_SKIP_EXIT; any other bit is
                                  BOXTOI_REASON_FLAGS */
} boxtoi_query;

/**
 * Query flag: do not compute the exit time (boxtoi_result.exit is NaN and
 * exit_after_t1 is 0); saves work for callers that only need the first
 * contact, such as a physics step.  The first contact is searched the same
 * way, but the exit's search can find rigid motions' edges nearly parallel
 * and have the query solved again as general motions, so the two answers
 * can differ within the promise above (a graze at t1 reported or not, the
 * last digits of a time or a normal).
 */
#define BOXTOI_SKIP_EXIT 1u

/** Outcome of a query.  The zero value means "not answered". */
typedef enum boxtoi_state {
    BOXTOI_UNKNOWN = 0, /**< not answered (a zeroed result) */
    BOXTOI_HIT,         /**< separated at t0, first contact at toi in [t0, t1]
                             (t0 itself only for a contact less than the
                             spacing of doubles after t0: times are rounded
                             toward t0) */
    BOXTOI_MISS,        /**< no contact anywhere in [t0, t1] */
    BOXTOI_OVERLAP,     /**< touching or overlapping at t0 already; toi = t0 */
    BOXTOI_INVALID,     /**< bad input; see boxtoi_result.reason */
    BOXTOI_FAILED       /**< a bounded loop gave up; should not happen */
} boxtoi_state;

/** Why a query is invalid.  BOXTOI_REASON_NONE for valid input. */
typedef enum boxtoi_reason {
    BOXTOI_REASON_NONE = 0,
    BOXTOI_REASON_NULL,            /**< a required pointer is NULL */
    BOXTOI_REASON_BOX_NOT_FINITE,  /**< a box corner is NaN or infinite */
    BOXTOI_REASON_BOX_INVERTED,    /**< lo > hi on some axis */
    BOXTOI_REASON_MOTION_NOT_FINITE, /**< a motion coefficient is NaN or infinite */
    BOXTOI_REASON_DEGREE,          /**< degree < 0 or > BOXTOI_MAX_DEGREE */
    BOXTOI_REASON_BOTTOM_ROW,      /**< bottom row is not [0 0 0 w(t)] */
    BOXTOI_REASON_W_VANISHES,      /**< w(t) = 0 somewhere in [t0, t1] */
    BOXTOI_REASON_SINGULAR,        /**< the 3x3 part is singular somewhere in [t0, t1]
                                        (its determinant within rounding of zero) */
    BOXTOI_REASON_INTERVAL_NOT_FINITE, /**< t0 or t1 is NaN or infinite */
    BOXTOI_REASON_INTERVAL_REVERSED,   /**< t0 > t1 */
    BOXTOI_REASON_OUT_OF_RANGE,    /**< numbers so large that the polynomials would overflow:
                                        lengths beyond about 1e60 (corners; the
                                        motion's 3x3 part and translation, over w);
                                        a motion times any positive constant is the
                                        same motion, in range or not.  Also a swept
                                        box that cannot be bounded: bounds beyond
                                        1e60 (w near 0 against the positions), or
                                        w's Bernstein coefficients not all positive
                                        after 24 halvings of the interval; and a
                                        motion that still needs rescaling once
                                        scaled by the power of two that brings its
                                        w near 1 (which that power rules out); and
                                        an interval whose length t1 - t0 overflows,
                                        for a motion of degree 1 or more */
    BOXTOI_REASON_FLAGS            /**< the query's flags have a bit that no BOXTOI_ flag
                                        names (reserved for later ones) */
} boxtoi_reason;

/** Which pair of features touches at first contact. */
typedef enum boxtoi_kind {
    BOXTOI_KIND_NONE = 0,   /**< no contact reported */
    BOXTOI_VERTEX_FACE,     /**< a vertex of A on a face of B */
    BOXTOI_FACE_VERTEX,     /**< a face of A under a vertex of B */
    BOXTOI_EDGE_EDGE        /**< an edge of A on an edge of B */
} boxtoi_kind;

/**
 * A feature of a box in the origin document's notation.  side[i] is -1 when
 * the feature lies in the local plane lo[i] (X, Y, Z), +1 in the plane hi[i]
 * (X', Y', Z'), 0 when the feature extends along axis i.  A vertex has three
 * non-zero sides ("X'YZ"), an edge two ("X-Z'", the edge shared by faces X
 * and Z', running along Y), a face one ("Y'").
 */
typedef struct boxtoi_feature {
    signed char side[3];
} boxtoi_feature;

/** Answer to a query, returned by value. */
typedef struct boxtoi_result {
    boxtoi_state state;
    boxtoi_reason reason;      /**< for BOXTOI_INVALID: what is wrong */
    int which;                 /**< for BOXTOI_INVALID: 0 = query/interval, 1 = A, 2 = B */
    double toi;                /**< first contact time; t0 for OVERLAP; NaN otherwise */
    double exit;               /**< end of the first contact (the first t > toi at which
                                    the boxes are apart again; toi or just after it
                                    for a graze); NaN for MISS, and when
                                    exit_after_t1 is set */
    int exit_after_t1;         /**< 1 when the first contact lasts through t1 */
    boxtoi_kind kind;          /**< features in contact at toi (faces meeting
                                    flat: a face, and a vertex standing for the
                                    other box's face or edge lying in it, which
                                    need not itself lie over the face, as for
                                    bars crossing; docs/method.md) */
    boxtoi_feature feature_a;  /**< feature of A (vertex, edge or face) */
    boxtoi_feature feature_b;  /**< feature of B */
    double point[3];           /**< a world point common to both boxes at toi (to
                                    within the touching tolerance above); but
                                    where one box's frame is so thin (its 3x3
                                    part near the floor of
                                    BOXTOI_REASON_SINGULAR) that the other box's
                                    far corners have no coordinates in it, the
                                    middle of the other box's touching edge or
                                    face, which may lie off the thin box */
    double normal[3];          /**< unit world normal at toi, pointing from A to B */
    double depth;              /**< penetration along normal at toi (<= 0 means apart by
                                    that much); about 0 for HIT; for OVERLAP >= 0, or
                                    just below 0 for boxes within the touching
                                    tolerance (see the promise above) */
    int iterations;            /**< work counter: advancing steps taken, at least 1
                                    for HIT and OVERLAP (the step that finds the
                                    contact), 0 for INVALID */
} boxtoi_result;

/** A query with two unit cubes [-0.5, 0.5]^3, identity motions (both at the
    origin, overlapping) and the interval [0, 1]. */
BOXTOI_API boxtoi_query boxtoi_default_query(void);

/** Solve a first-contact query.  Never crashes on bad input: INVALID. */
BOXTOI_API boxtoi_result boxtoi_solve(const boxtoi_query *query);

/**
 * Do box A and box B share a point at time t?  Returns 1 (touching or
 * overlapping), 0 (apart), or -1 with *reason set when the input is invalid
 * at t, as boxtoi_validate over [t, t] finds it, the first refused box's
 * reason (reason may be NULL).  Only query->a, b, motion_a, motion_b are
 * read.
 * The test is exact at the poses (to rounding): unlike boxtoi_solve, it has
 * no touching tolerance, so boxes apart by less than it, as they may be at
 * a time of impact reported by boxtoi_solve, give 0.
 */
BOXTOI_API int boxtoi_overlap_at(const boxtoi_query *query, double t,
                                 boxtoi_reason *reason);

/**
 * World-frame axis-aligned box containing the moving box for every t in
 * [t0, t1] (conservative: from the motion's rational Bernstein control
 * points, usually within a few percent of the tightest; where w varies much
 * over the interval, as in a rigid motion turning most of a turn, whose
 * control points then lie far out, the interval is halved where its w is
 * uneven, up to 12 times, and the tighter bounds of the pieces taken: on
 * random rigid motions of degree 2 to 8 turning up to many turns, within 4x
 * of the sampled extent, against up to thousands of times (7,000 seen)
 * without the halving, at up to about 8 times the cost of an even motion),
 * widened by a bound of its rounding: about 1e-13 of the coordinates for
 * the usual motion, more where the motion's coefficients are much larger
 * than the positions they give.
 * Returns BOXTOI_REASON_NONE and fills lo and hi, or the reason the input is
 * invalid (lo, hi untouched).
 */
BOXTOI_API boxtoi_reason boxtoi_swept_aabb(const boxtoi_box *box,
                                           const boxtoi_motion *motion,
                                           double t0, double t1,
                                           double lo[3], double hi[3]);

/**
 * Check one box and its motion over [t0, t1]; BOXTOI_REASON_NONE when
 * usable.  boxtoi_solve, boxtoi_swept_aabb and boxtoi_overlap_at (over
 * [t, t]) refuse a box exactly when this does, with its reason (the first
 * refused box's).  boxtoi_solve can also refuse as
 * BOXTOI_REASON_OUT_OF_RANGE, with which = 1 or 2, a pair of boxes accepted
 * here one by one whose scales lie so far apart (a box 1e-171 long against
 * one of 1) that no one frame holds both (docs/method.md, Input).
 */
BOXTOI_API boxtoi_reason boxtoi_validate(const boxtoi_box *box,
                                         const boxtoi_motion *motion,
                                         double t0, double t1);

/** M(t) at one t, entry m[row][col]; NaN entries when the motion's degree
    is not within 0 to BOXTOI_MAX_DEGREE, or motion is NULL (m NULL: nothing
    is done). */
BOXTOI_API void boxtoi_motion_eval(const boxtoi_motion *motion, double t,
                                   double m[4][4]);

/** World position of local point p at time t (P / w); NaN for a degree as
    above, or a NULL motion or p (out NULL: nothing is done). */
BOXTOI_API void boxtoi_motion_apply(const boxtoi_motion *motion, double t,
                                    const double p[3], double out[3]);

/** The constant motion M(t) = m; m NULL gives a motion of degree -1, which
    every function refuses (BOXTOI_REASON_DEGREE); motion NULL: nothing is
    done. */
BOXTOI_API void boxtoi_motion_constant(boxtoi_motion *motion,
                                       const double m[4][4]);

/** The constant identity motion (motion NULL: nothing is done). */
BOXTOI_API void boxtoi_motion_identity(boxtoi_motion *motion);

/**
 * A rigid rational motion from a polynomial quaternion path and a polynomial
 * position path: q(t) = sum_k q[k] t^k (k = 0..qdeg, components w x y z,
 * need not be unit) and p(t) = sum_k p[k] t^k (k = 0..pdeg).  The result maps
 * local x to R(q(t)) x + p(t) as
 * M = [Rq(t)  p(t)|q(t)|^2; 0 0 0 |q(t)|^2] with Rq the unnormalised rotation
 * matrix, exactly but for the rounding of its coefficients, sums of
 * products of those of q and p, each to double precision.  That rounding is
 * relative to the coefficients, not to the values over the interval: a
 * path written in a time far from its own (a degree-2 quaternion path over
 * 0.01 s given in t from 0 while queried over [100, 100.01], coefficients
 * near 1e8) loses as many digits, and its |q|^2, 0.770 at least there, came
 * out as 1.075, the motion refused as singular.  Give paths in a local time
 * (t - t0, queried from 0).  pdeg < 0 means no translation (p is not read
 * and may be NULL).
 * Degree 2 qdeg + max(pdeg, 0).  Returns BOXTOI_REASON_NULL when motion or q
 * is NULL, or p is NULL with pdeg >= 0; BOXTOI_REASON_DEGREE when qdeg < 0 or
 * the degree exceeds BOXTOI_MAX_DEGREE (motion untouched either way);
 * BOXTOI_REASON_NONE otherwise.
 */
BOXTOI_API boxtoi_reason boxtoi_motion_rigid(boxtoi_motion *motion,
                                             const double q[][4], int qdeg,
                                             const double p[][3], int pdeg);

/**
 * out = a * b (apply b first, then a).  Degrees add.  Returns
 * BOXTOI_REASON_NULL when out, a or b is NULL; BOXTOI_REASON_DEGREE when a
 * degree is negative or the sum exceeds BOXTOI_MAX_DEGREE (out untouched
 * either way); BOXTOI_REASON_NONE otherwise.  out may alias a or b.
 */
BOXTOI_API boxtoi_reason boxtoi_motion_multiply(boxtoi_motion *out,
                                                const boxtoi_motion *a,
                                                const boxtoi_motion *b);

/** "hit", "miss", "overlap", "invalid", "failed" or "unknown". */
BOXTOI_API const char *boxtoi_state_name(boxtoi_state state);

/** "vertex-face", "face-vertex", "edge-edge" or "none". */
BOXTOI_API const char *boxtoi_kind_name(boxtoi_kind kind);

/** A sentence describing an invalid-input reason. */
BOXTOI_API const char *boxtoi_reason_message(boxtoi_reason reason);

/**
 * Write the feature's name ("X'YZ", "X-Z'", "Y'"; "" for a feature with
 * every side 0) into buf of size bytes, NUL-terminated, and return buf.  A
 * side is read by its sign.  A name needs at most BOXTOI_FEATURE_NAME_MAX
 * bytes with its NUL; a smaller size gets the name cut to size - 1 bytes.
 * With buf NULL or size 0 nothing is written (returns buf).
 */
#define BOXTOI_FEATURE_NAME_MAX 8
BOXTOI_API char *boxtoi_feature_name(boxtoi_feature feature, char *buf,
                                     size_t size);

/*
 * This header's version, which is the library's (the package version in
 * configure.ac; test-api checks that they agree).  BOXTOI_VERSION is
 * MAJOR * 10000 + MINOR * 100 + PATCH (MINOR and PATCH stay below 100), for
 * comparisons in #if.
 */
#define BOXTOI_VERSION_MAJOR 0
#define BOXTOI_VERSION_MINOR 1
#define BOXTOI_VERSION_PATCH 0
#define BOXTOI_VERSION \
    (BOXTOI_VERSION_MAJOR * 10000 + BOXTOI_VERSION_MINOR * 100 + BOXTOI_VERSION_PATCH)

/**
 * Library version, "MAJOR.MINOR.PATCH": that of the library loaded, which
 * a program compares with the BOXTOI_VERSION_* of the header it was built
 * with.
 */
BOXTOI_API const char *boxtoi_version(void);

/**
 * Which build of the solver boxtoi_solve runs in this process: "avx2", the
 * copy compiled for AVX2 that the library holds on x86-64 with GCC or clang
 * and the GNU C library, picked when the library is loaded where the
 * processor has AVX2; else "baseline".  Both give the same answers bit for
 * bit; the AVX2 one takes a few per cent less time.  For logs and timings.
 */
BOXTOI_API const char *boxtoi_solver_build(void);

#ifdef __cplusplus
}
#endif

#endif /* BOXTOI_H */
