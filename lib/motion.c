/*
 * Motions: validation, preparation on an interval, evaluation, swept
 * bounding boxes, and the helpers that build motions.
 */
#include "lanes.h"
#include "motion.h"
#include "poly.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Coefficients beyond this magnitude could overflow in the products. */
#define RANGE_LIMIT 1e60

/*
 * A motion is the same map times any positive constant.  One whose w has
 * its largest scaled Bernstein coefficient W outside [W_LOW, W_HIGH] on the
 * interval is not prepared (BX_REASON_RESCALE) but scaled first by a power
 * of two that brings W into [1/2, 1) (bx_rescale): otherwise products of a
 * few w and 3x3 entries would underflow (from about 2^-250), or the motion
 * be refused as out of range.  So is one with W in range whose other
 * coefficients exceed RANGE_LIMIT but not RANGE_LIMIT W.  The range itself
 * is a limit on lengths, which do not change with the scale: every
 * coefficient (3x3 part and the path of the box's centre) at most
 * RANGE_LIMIT W.
 */
#define W_LOW 0x1p-96
#define W_HIGH RANGE_LIMIT

/*
 * The exponent e of that power of two (motion / 2^e), from the largest
 * magnitude of w's coefficients; 0 when w needs no rescaling (in range, or
 * zero: then it vanishes, which bx_prepare names).
 */
static int rescale_exponent(double wmax)
{
    int ex = 0;
    if (wmax > 0.0 && !(wmax >= W_LOW && wmax <= W_HIGH))
        frexp(wmax, &ex); /* not 0: wmax in [1/2, 1) is in range */
    return ex;
}

/*
 * The hot paths below are written once for any degree d and inlined into
 * one copy per low degree (the switch statements on the degree), where the
 * loops unroll and the binomials become constants.  Every copy performs
 * the floating-point operations of the general code it stands for, in the
 * same order, so its results are the same bit for bit.
 */
#if defined(__GNUC__)
#define BX_UNROLL _Pragma("GCC unroll 9")
#if defined(__clang__)
/* clang takes the hint too, and warns (an error under -Werror) where a build's
   instrumentation, such as UBSan's checks, keeps it from unrolling: the
   results are the same either way */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#else
#define BX_UNROLL
#endif

/* A rare path kept out of line, so that its frame does not add to the usual one. */
#if defined(__GNUC__)
#define BX_NOINLINE __attribute__((noinline))
#else
#define BX_NOINLINE
#endif


boxtoi_reason bx_check_interval(double t0, double t1)
{
    if (!isfinite(t0) || !isfinite(t1))
        return BOXTOI_REASON_INTERVAL_NOT_FINITE;
    if (t0 > t1)
        return BOXTOI_REASON_INTERVAL_REVERSED;
    return BOXTOI_REASON_NONE;
}

/* A box is usable: finite corners, lo <= hi, within range. */
static boxtoi_reason check_box(const boxtoi_box *box)
{
    /*
     * The usual box passes all three tests at once: |x| <= RANGE_LIMIT is
     * false for NaN and infinities.  Otherwise the tests below, in order,
     * name what is wrong.
     */
    int ok = 1;
    for (int i = 0; i < 3; i++)
        ok &= (fabs(box->lo[i]) <= RANGE_LIMIT) & (fabs(box->hi[i]) <= RANGE_LIMIT) &
              (box->lo[i] <= box->hi[i]);
    if (ok)
        return BOXTOI_REASON_NONE;
    for (int i = 0; i < 3; i++)
        if (!isfinite(box->lo[i]) || !isfinite(box->hi[i]))
            return BOXTOI_REASON_BOX_NOT_FINITE;
    for (int i = 0; i < 3; i++)
        if (box->lo[i] > box->hi[i])
            return BOXTOI_REASON_BOX_INVERTED;
    for (int i = 0; i < 3; i++)
        if (fabs(box->lo[i]) > RANGE_LIMIT || fabs(box->hi[i]) > RANGE_LIMIT)
            return BOXTOI_REASON_OUT_OF_RANGE;
    return BOXTOI_REASON_NONE;
}

/* A motion is usable: degree in range, finite, bottom row [0 0 0 w]. */
static boxtoi_reason check_motion(const boxtoi_motion *m)
{
    if (m->degree < 0 || m->degree > BOXTOI_MAX_DEGREE)
        return BOXTOI_REASON_DEGREE;
    /* x - x is 0 for a finite x and NaN otherwise: one test for all. */
    const double *c = &m->c[0][0][0];
    double z = 0.0;
    for (int i = 0; i < 16 * (m->degree + 1); i++)
        z += c[i] - c[i];
    if (z != 0.0)
        return BOXTOI_REASON_MOTION_NOT_FINITE;
    for (int k = 0; k <= m->degree; k++)
        for (int c = 0; c < 3; c++)
            if (m->c[k][3][c] != 0.0)
                return BOXTOI_REASON_BOTTOM_ROW;
    return BOXTOI_REASON_NONE;
}

/*
 * Sums of the conversion to Bernstein form whose terms, taken by magnitude,
 * exceed the largest result by more than this are formed again in
 * double-double (bxp_power_reparam_sbern_dd): a degree 8 motion whose
 * coefficients reach 5e3, over [-1.3, 0.34], has them reach 4e6 in s and
 * 6e4 in Bernstein form, and rounded in s first its pose was off by 9.4e-12
 * at positions below 100 (2.7e-14 converted whole).  Usual motions stay
 * below it and keep the conversion in doubles: the benchmark's quadratic
 * cases moved to [2.5, 3.5] took 22,600 more instructions a query all
 * converted whole, 3,900 more with this test.
 */
#define CANCEL 16.0

/*
 * W_CANCELS: w is tested coefficient by coefficient.  A position is P / w,
 * so where w is far below its terms somewhere on the interval, the
 * rounding its coefficients keep from those terms is a large part of w
 * there, and of the positions, however small against its largest
 * coefficient: w = t^2 over [-3, -3e-11] has the Bernstein coefficients
 * 9, 9e-11 and 9e-22, the last a sum of terms near 9; converted in doubles
 * it came out 1.8e-15, the box at t1 2000 times too small, and a point
 * inside it there, 6e18 deep, was missed.  Where one of w's coefficients is
 * below 1 / CANCEL of its terms' magnitudes, w is converted in
 * double-double (its terms then keep about 100 bits, enough for w to fall
 * 1e15 times below them and keep a few ulps).  From t0 = 0 the magnitudes
 * are sb0_cancels' sums, the same numbers on every path: w_sb0_exact for
 * one box (entries_sbern, prepare_t0, trim_t0), and for two at once
 * prepare_t0_2, which leaves a w that cancels to the path of one box.
 */

/*
 * Entry (r, c) of the motion (degree d <= its degree, the coefficients above
 * d being zero) as a power series in s on [t0, t1] with t0 != 0 (shifted to
 * t0 and scaled), then SB.
 */
static void entry_sbern(const boxtoi_motion *m, int d, int r, int c, double t0,
                        double t1, double *out)
{
    double mag[BXM_CAP], sum = 0.0, most = 0.0;
    int w_cancels = 0;
    for (int k = 0; k <= d; k++)
        out[k] = m->c[k][r][c];
    bxp_power_reparam(out, d, t0, t1, out);
    for (int k = 0; k <= d; k++)
        mag[k] = fabs(out[k]);
    bxp_power_to_sbern(out, d, out);
    bxp_power_to_sbern(mag, d, mag);
    for (int j = 0; j <= d; j++) {
        sum = fmax(sum, mag[j]);
        most = fmax(most, fabs(out[j]));
        w_cancels |= mag[j] > CANCEL * fabs(out[j]);
    }
    /* The sums cancel: their terms' rounding would stay in them (CANCEL);
       for w, in any one coefficient (W_CANCELS). */
    if (sum > CANCEL * most || (r == 3 && c == 3 && w_cancels)) {
        for (int k = 0; k <= d; k++)
            out[k] = m->c[k][r][c];
        bxp_power_reparam_sbern_dd(out, NULL, d, t0, t1, out);
    }
}

/*
 * hp[k] = h^k for every k < BXM_CAP, by the products entries_sbern forms
 * (those above the degree are not used).
 */
BXP_INLINE void powers_of(double h, double *hp)
{
    hp[0] = 1.0;
    BX_UNROLL
    for (int k = 1; k < BXM_CAP; k++)
        hp[k] = hp[k - 1] * h;
}

/*
 * Does an entry's coefficient in scaled Bernstein form from t0 = 0, out[j] =
 * sum_{i <= j} C(d - i, j - i) pw_i with pw_i = c_i h^i (entry_sb0), lie
 * below 1 / CANCEL of the same sum over |pw_i| (W_CANCELS)?  The sums are
 * formed alike wherever w is converted from t0 = 0.
 */
BXP_INLINE int sb0_cancels(const double *pw, const double *out, int d)
{
    int cancels = 0;
    double z0 = fabs(pw[0]);
    BX_UNROLL
    for (int j = 0; j <= d; j++) {
        double a = z0 * bxp_binomial_table[d][j];
        BX_UNROLL
        for (int i = 1; i <= j; i++)
            a += fabs(pw[i]) * bxp_binomial_table[d - i][j - i];
        cancels |= a > CANCEL * fabs(out[j]);
    }
    return cancels;
}

/* w (degree d) from t0 = 0 over [0, h] in double-double, rounded once. */
static BX_NOINLINE void w_sb0_dd(const boxtoi_motion *m, int d, double h, double *w)
{
    for (int k = 0; k <= d; k++)
        w[k] = m->c[k][3][3];
    bxp_power_reparam_sbern_dd(w, NULL, d, 0.0, h, w);
}

/*
 * w as entry_sb0 gave it (hp as there: NULL for h = 1), converted again in
 * double-double where its sums cancel (W_CANCELS): every conversion of w
 * from t0 = 0 in one box's path ends here.
 */
BXP_INLINE void w_sb0_exact(const boxtoi_motion *m, const double *hp, int d, double h,
                           double *w)
{
    double pw[BXM_CAP] = {0.0}; /* 0..d set below; GCC cannot tell d < BXM_CAP */
    BX_UNROLL
    for (int k = 0; k <= d; k++)
        pw[k] = hp ? m->c[k][3][3] * hp[k] : m->c[k][3][3];
    if (sb0_cancels(pw, w, d))
        w_sb0_dd(m, d, h, w);
}

/*
 * All 16 entries of the motion (degree d <= its degree) in scaled Bernstein
 * form on [t0, t1]: sb[i][4 r + c] is coefficient i of entry (r, c).  From
 * t0 != 0, entry by entry (entry_sbern); with t0 = 0 the shift is the
 * identity and only the scaling by h^i remains, done for all entries at once
 * with the sums of bxp_power_to_sbern.
 */
static void entries_sbern(const boxtoi_motion *m, int d, double t0, double t1,
                          double sb[][16])
{
    if (t0 != 0.0) {
        for (int e = 0; e < 16; e++) {
            double v[BXM_CAP];
            entry_sbern(m, d, e / 4, e % 4, t0, t1, v);
            for (int i = 0; i <= d; i++)
                sb[i][e] = v[i];
        }
        return;
    }
    double h = t1 - t0, hp = 1.0, pw[d + 1][16];
    for (int k = 0; k <= d; k++) {
        const double *ck = &m->c[k][0][0];
        for (int e = 0; e < 16; e++)
            pw[k][e] = ck[e] * hp;
        hp *= h;
    }
    /* s^i = s^i (s + (1 - s))^(d - i), as bxp_power_to_sbern. */
    for (int j = d; j >= 0; j--) {
        for (int e = 0; e < 16; e++)
            sb[j][e] = 0.0;
        for (int i = 0; i <= j; i++) {
            double b = bxp_binomial(d - i, j - i);
            for (int e = 0; e < 16; e++)
                sb[j][e] += pw[i][e] * b;
        }
    }
    double hps[BXM_CAP], w[BXM_CAP];
    powers_of(h, hps); /* the h^k above */
    for (int k = 0; k <= d; k++)
        w[k] = sb[k][15];
    w_sb0_exact(m, hps, d, h, w);
    for (int k = 0; k <= d; k++)
        sb[k][15] = w[k];
}

/*
 * Entry (r, c) of the motion, degree d, on [0, h] (t0 = 0) in scaled
 * Bernstein form: entries_sbern's t0 = 0 sums for one entry, coefficient j
 * being 0 + sum_{i <= j} (c_i h^i) C(d - i, j - i) added in increasing i.
 * hp = NULL stands for h = 1, where every h^i is 1 and c_i h^i is c_i.
 */
BXP_INLINE void entry_sb0(const boxtoi_motion *m, int r, int c,
                         const double *hp, int d, double *out)
{
    double pw[BXM_CAP];
    BX_UNROLL
    for (int k = 0; k <= d; k++)
        pw[k] = hp ? m->c[k][r][c] * hp[k] : m->c[k][r][c];
    /*
     * The first term of every sum, 0 + pw_0 C(d, j), is C(d, j) (0 + pw_0):
     * the same number (+0 when pw_0 is -0, C > 0), with one addition.
     */
    double z0 = 0.0 + pw[0];
    BX_UNROLL
    for (int j = 0; j <= d; j++) {
        double a = z0 * bxp_binomial_table[d][j];
        BX_UNROLL
        for (int i = 1; i <= j; i++)
            a += pw[i] * bxp_binomial_table[d - i][j - i];
        out[j] = a;
    }
}

/*
 * How far each coefficient of det(u) as det_exact and det_signed form it
 * (scaled Bernstein, degree 3d) may lie from that of the exact determinant
 * of the motion as given, on the interval.  Two roundings make up the
 * difference: each entry's conversion (within a few ulps of
 * entry_magnitude's bounds), and the products and sums of the determinant
 * itself; both are bounded by a multiple of eps times the determinant's
 * sums taken over those bounds.  Up to degree 8 no term passes through
 * more than about 140 roundings; DET_ROUNDING allows 256.
 */
#define DET_ROUNDING (256.0 * DBL_EPSILON)

/*
 * Below the rounding, a floor: a 3x3 part whose determinant is within 2^-900
 * (about 1e-271) of the cube of its entries' magnitude is singular far
 * beyond what the solver's products can resolve (it would divide by a
 * determinant of the pose near or below the smallest normal double).
 */
#define DET_FLOOR 0x1p-900

/* quick_bound from its c (see there). */
BXP_INLINE double quick_margin(double c, int d)
{
    double u = (d + 1) * c;
    return 6.0 * DET_ROUNDING * u * u * u;
}

/*
 * Every coefficient of sb[0..n] at least DBL_MIN in magnitude, all of one
 * sign: the Bernstein coefficients sb_i / C(n, i) (C(n, i) < 2^30 for
 * n <= BXP_MAX_DEGREE) then keep that sign and none rounds to zero, so the
 * polynomial has no zero on [0, 1].  lo, hi and sum are the least and
 * largest coefficient and their sum (NaN when one is NaN; lo and hi skip it).
 */
BXP_INLINE int signed_range(double lo, double hi, double sum)
{
    return sum == sum && (lo >= DBL_MIN || hi <= -DBL_MIN);
}

static int strictly_signed(const double *sb, int n)
{
    double lo = sb[0], hi = sb[0], sum = sb[0];
    for (int i = 1; i <= n; i++) {
        lo = sb[i] < lo ? sb[i] : lo;
        hi = sb[i] > hi ? sb[i] : hi;
        sum += sb[i];
    }
    return signed_range(lo, hi, sum);
}

/* Does the SB polynomial (degree n) reach zero on [0, 1]? */
static int vanishes(const double *sb, int n)
{
    double b[BXP_MAX_DEGREE + 1], s;
    int pos = 1, neg = 1;
    if (strictly_signed(sb, n))
        return 0; /* the test below would find all b[i] of one sign */
    bxp_sbern_to_bern(sb, n, b);
    for (int i = 0; i <= n; i++) {
        pos &= b[i] > 0.0;
        neg &= b[i] < 0.0;
    }
    if (pos || neg)
        return 0;
    if (b[0] < 0.0)
        for (int i = 0; i <= n; i++)
            b[i] = -b[i];
    return bxp_bern_first(b, n, 0.0, 1.0, 0, &s);
}

static void centre_entries_sbern(const boxtoi_motion *motion, int d, const double centre[3],
                                 const double centre_lo[3], double t0, double t1,
                                 double sb[][16]);

/*
 * bx_prepare_partial after check_box, for any input: the motion's tests in
 * order, then the conversion with the tests that need it.
 */
static boxtoi_reason prepare_general(const boxtoi_motion *motion,
                                     const double centre[3],
                                     const double *centre_lo, double t0,
                                     double t1, bx_moving *out)
{
    boxtoi_reason why;
    if ((why = check_motion(motion)))
        return why;
    int d = motion->degree;
    double scale = 0.0;
    double sb[d + 1][16];
    if (centre_lo)
        centre_entries_sbern(motion, d, centre, centre_lo, t0, t1, sb);
    else
        entries_sbern(motion, d, t0, t1, sb);
    for (int i = 0; i <= d; i++)
        out->w[i] = sb[i][15];
    scale = bxp_max_abs(out->w, d); /* finite: check_motion */
    double wmax = scale;
    if (rescale_exponent(wmax))
        return BX_REASON_RESCALE;
    if (vanishes(out->w, d))
        return BOXTOI_REASON_W_VANISHES;
    double flip = out->w[0] < 0.0 ? -1.0 : 1.0;
    out->flip = flip;
    if (flip < 0.0)
        for (int i = 0; i <= d; i++)
            out->w[i] = -out->w[i];
    for (int r = 0; r < 3; r++) {
        double *p = out->p[r];
        double *u0 = out->u[0][r], *u1 = out->u[1][r], *u2 = out->u[2][r];
        for (int i = 0; i <= d; i++) {
            const double *e = sb[i] + 4 * r;
            double a0 = flip * e[0], a1 = flip * e[1], a2 = flip * e[2];
            u0[i] = a0;
            u1[i] = a1;
            u2[i] = a2;
            p[i] = centre_lo ? flip * e[3]
                             : flip * e[3] + centre[0] * a0 + centre[1] * a1 + centre[2] * a2;
            double m0 = fabs(a0), m1 = fabs(a1), m2 = fabs(a2), m3 = fabs(p[i]);
            scale = m0 > scale ? m0 : scale;
            scale = m1 > scale ? m1 : scale;
            scale = m2 > scale ? m2 : scale;
            scale = m3 > scale ? m3 : scale;
        }
    }
    if (!(scale <= RANGE_LIMIT * wmax))
        return BOXTOI_REASON_OUT_OF_RANGE;
    if (!(scale <= RANGE_LIMIT))
        return BX_REASON_RESCALE; /* W > 1: its power of two brings all in range */
    return BOXTOI_REASON_NONE;
}

/*
 * prepare_general for the usual input, in one pass: t0 = 0, degree d in
 * range, and then (each checked here) a zero bottom row, w with scaled
 * Bernstein coefficients >= W_LOW, and every number finite and in range.
 * Returns 1 with out filled as prepare_general fills it, which then returns
 * BOXTOI_REASON_NONE; 0 when the input is not of that kind (out partly
 * written), for prepare_general to name what is wrong, in its order.
 * The swept bounds (bx_swept_aabb) are computed on the way and kept.
 *
 * Why the one pass proves each of prepare_general's tests:
 * - check_motion: the bottom row is tested directly (exact zeros are
 *   finite); a NaN or infinite coefficient of any other entry used here
 *   makes its converted coefficient non-finite (c_j h^j is NaN or infinite
 *   for any h^j >= 0, and it is added with weight 1 into coefficient j),
 *   hence also the sum of magnitudes below.
 * - the rescaling: every w_i >= W_LOW, and each is at most the sum of
 *   magnitudes tested against RANGE_LIMIT, which is W_HIGH.
 * - vanishes(w): strictly_signed, positive, so flip = 1 and multiplying by
 *   it changes nothing.
 * - the range: the magnitudes (all >= 0) added in any order give at least
 *   the largest of them, since rounding is monotonic; a NaN or an infinity
 *   makes the sum fail the test.  The sum is tested against RANGE_LIMIT
 *   and against RANGE_LIMIT times the largest w_i, as the largest
 *   magnitude is there.
 */
BXP_INLINE int prepare_t0(const boxtoi_motion *motion, const double centre[3],
                         double h, int unit, int d, bx_moving *out)
{
    double hbuf[BXM_CAP], *hp = unit ? NULL : hbuf; /* NULL: h = 1 */
    /*
     * Bottom row: x != 0 (or x NaN) exactly when the bits of x other than
     * the sign are not all zero; OR the bits of all entries, test once.
     */
    uint64_t bits = 0;
    BX_UNROLL
    for (int k = 0; k <= d; k++)
        for (int c = 0; c < 3; c++) {
            uint64_t b;
            memcpy(&b, &motion->c[k][3][c], sizeof b);
            bits |= b;
        }
    if (bits << 1)
        return 0;
    powers_of(h, hbuf);
    entry_sb0(motion, 3, 3, hp, d, out->w);
    w_sb0_exact(motion, hp, d, h, out->w);
    int pos = 1;
    BX_UNROLL
    for (int i = 0; i <= d; i++)
        pos &= out->w[i] >= W_LOW;
    if (!pos)
        return 0;
    out->flip = 1.0;
    double sum = 0.0, rw[BXM_CAP], coord = 0.0, wmax = 0.0;
    BX_UNROLL
    for (int i = 0; i <= d; i++) {
        sum += out->w[i];
        wmax = out->w[i] > wmax ? out->w[i] : wmax;
        rw[i] = 1.0 / out->w[i]; /* w_i >= W_LOW: finite */
    }
    BX_UNROLL
    for (int r = 0; r < 3; r++) {
        double *p = out->p[r], t[BXM_CAP];
        double *u0 = out->u[0][r], *u1 = out->u[1][r], *u2 = out->u[2][r];
        double vmin = INFINITY, vmax = -INFINITY;
        entry_sb0(motion, r, 0, hp, d, u0);
        entry_sb0(motion, r, 1, hp, d, u1);
        entry_sb0(motion, r, 2, hp, d, u2);
        entry_sb0(motion, r, 3, hp, d, t);
        BX_UNROLL
        for (int i = 0; i <= d; i++) {
            p[i] = t[i] + centre[0] * u0[i] + centre[1] * u1[i] + centre[2] * u2[i];
            sum += fabs(u0[i]) + fabs(u1[i]) + (fabs(u2[i]) + fabs(p[i]));
            /* bx_swept_aabb's bounds of this control point (all w_i > 0). */
            double e = 0.0;
            e += out->half[0] * fabs(u0[i]);
            e += out->half[1] * fabs(u1[i]);
            e += out->half[2] * fabs(u2[i]);
            double vh = (p[i] + e) * rw[i], vl = (p[i] - e) * rw[i];
            vmax = vh > vmax ? vh : vmax;
            vmin = vl < vmin ? vl : vmin;
        }
        out->box_lo[r] = vmin;
        out->box_hi[r] = vmax;
        vmin = fabs(vmin);
        vmax = fabs(vmax);
        coord = vmin > coord ? vmin : coord;
        coord = vmax > coord ? vmax : coord;
    }
    out->box_coord = coord;
    out->box_known = 1;
    return sum <= RANGE_LIMIT && sum <= RANGE_LIMIT * wmax;
}

static int prepare_t0_any(const boxtoi_motion *motion, const double centre[3],
                          double h, bx_moving *out)
{
    if (h == 1.0) {
        switch (out->d) {
        case 0: return prepare_t0(motion, centre, h, 1, 0, out);
        case 1: return prepare_t0(motion, centre, h, 1, 1, out);
        case 2: return prepare_t0(motion, centre, h, 1, 2, out);
        case 3: return prepare_t0(motion, centre, h, 1, 3, out);
        case 4: return prepare_t0(motion, centre, h, 1, 4, out);
        }
    }
    switch (out->d) {
    case 0: return prepare_t0(motion, centre, h, 0, 0, out);
    case 1: return prepare_t0(motion, centre, h, 0, 1, out);
    case 2: return prepare_t0(motion, centre, h, 0, 2, out);
    case 3: return prepare_t0(motion, centre, h, 0, 3, out);
    case 4: return prepare_t0(motion, centre, h, 0, 4, out);
    default: return 0; /* higher degrees: prepare_general */
    }
}

/*
 * d, half, size and the centre of the box, for any path; centre_lo gets
 * what the centre's rounding left out (the centre is exact in double-double
 * as centre + centre_lo).  Returns 1 for a box far from its frame's origin:
 * a coordinate of its centre above FAR_CENTRE times its largest half
 * extent.  Its centre's path, t + U centre, is then formed from the caller's
 * coefficients in double-double (prepare_general), since in doubles it
 * would cancel to the box's own scale with the rounding of the far
 * centre's: eps |centre| |U|, beyond the promise's 1e-9 of the size once
 * the centre is a few million sizes away (a unit cube with corners at
 * 1e10, turned 30 degrees and brought back to the origin, was placed 2e-6
 * off, and a contact 1.6e-7 deep was missed).  Nearer, that rounding stays
 * below 1e-13 of the size (times |U| / w).
 */
#define FAR_CENTRE 1024.0
static int box_setup(const boxtoi_box *box, int d, bx_moving *out,
                     double centre[3], double centre_lo[3])
{
    double cmax = 0.0, hmax = 0.0;
    out->d = d;
    for (int i = 0; i < 3; i++) {
        double s, e;
        bxp_two_sum(box->lo[i], box->hi[i], &s, &e);
        centre[i] = 0.5 * s;
        centre_lo[i] = 0.5 * e;
        out->half[i] = 0.5 * (box->hi[i] - box->lo[i]);
        cmax = fmax(cmax, fabs(centre[i]));
        hmax = fmax(hmax, out->half[i]);
    }
    out->size = sqrt(4.0 * (out->half[0] * out->half[0] +
                            out->half[1] * out->half[1] +
                            out->half[2] * out->half[2]));
    return cmax > FAR_CENTRE * hmax;
}

/*
 * The scaled Bernstein coefficients of the motion's entries (entries_sbern)
 * with column 3 replaced by the path of the box's centre, t + U centre,
 * each power coefficient formed in double-double from the caller's
 * coefficients and the centre (centre + centre_lo), and from t0 != 0 kept
 * in double-double through the shift to t0 and the conversion
 * (bxp_power_reparam_sbern_dd), so that it is rounded once, in Bernstein
 * form.  Rounded in t, before the shift, coefficients
 * that cancel to the box's scale at t0 would keep their own rounding: a
 * translation of degree 4 over [1000, 1000.5], whose coefficients near
 * 1e13 give positions near 1, put a far box 7.8e-4 off.
 */
static BX_NOINLINE void centre_entries_sbern(const boxtoi_motion *motion, int d,
                                             const double centre[3],
                                             const double centre_lo[3], double t0,
                                             double t1, double sb[][16])
{
    boxtoi_motion m = *motion;
    double path[3][BXM_CAP], path_lo[3][BXM_CAP];
    for (int k = 0; k <= d; k++)
        for (int r = 0; r < 3; r++) {
            double hi = motion->c[k][r][3], lo = 0.0;
            for (int j = 0; j < 3; j++)
                bxp_dd_mul_add(&hi, &lo, motion->c[k][r][j], centre[j], centre_lo[j]);
            m.c[k][r][3] = path[r][k] = hi; /* hi + lo rounded (bxp_dd_mul_add) */
            path_lo[r][k] = lo;
        }
    entries_sbern(&m, d, t0, t1, sb);
    if (t0 == 0.0)
        return;
    for (int r = 0; r < 3; r++) {
        double v[BXM_CAP];
        bxp_power_reparam_sbern_dd(path[r], path_lo[r], d, t0, t1, v);
        for (int i = 0; i <= d; i++)
            sb[i][4 * r + 3] = v[i];
    }
}

double bx_world_size(const bx_moving *m)
{
    double least = m->size;
    for (int end = 0; end < 2; end++) {
        int i = end ? m->d : 0;
        double sum = 0.0, w = m->w[i];
        for (int k = 0; k < 3; k++) {
            double len2 = m->u[k][0][i] * m->u[k][0][i] + m->u[k][1][i] * m->u[k][1][i] +
                          m->u[k][2][i] * m->u[k][2][i];
            sum += 4.0 * m->half[k] * m->half[k] * len2;
        }
        /* (a square root only for a diagonal shrunk to less than half) */
        if (sum < 0.25 * m->size * m->size * w * w) {
            double diag = sqrt(sum) / w;
            least = diag < least ? diag : least;
        }
    }
    return least;
}

boxtoi_reason bx_prepare_partial(const boxtoi_box *box,
                                 const boxtoi_motion *motion, double t0,
                                 double t1, bx_moving *out)
{
    boxtoi_reason why;
    if (!box || !motion || !out)
        return BOXTOI_REASON_NULL;
    if ((why = check_box(box)))
        return why;
    int d = motion->degree;
    double centre[3], centre_lo[3];
    out->box_known = 0;
    out->src = motion;
    out->t0 = t0;
    out->t1 = t1;
    out->qbound = -1.0;
    out->w_even = 0;
    int far = box_setup(box, d, out, centre, centre_lo);
    if (!far && t0 == 0.0 && d >= 0 && d <= 4 &&
        prepare_t0_any(motion, centre, t1 - t0, out))
        return BOXTOI_REASON_NONE;
    return prepare_general(motion, centre, far ? centre_lo : NULL, t0, t1, out);
}

/*
 * The motion times the power of two that brings the largest magnitude of w
 * (its scaled Bernstein coefficients on the interval, as preparing it
 * converted them before asking for rescaling) into [1/2, 1); 0 when it is
 * there already, or when that would take a coefficient past the largest
 * double (a subnormal w: the motion is left as it is, out of range).
 */
static int rescale_by_w(boxtoi_motion *motion, const double *w)
{
    int d = motion->degree, ex;
    frexp(bxp_max_abs(w, d), &ex);
    if (!ex)
        return 0;
    double c[BXM_CAP][4][4], z = 0.0;
    for (int k = 0; k <= d; k++)
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < 4; j++) {
                c[k][r][j] = ldexp(motion->c[k][r][j], -ex);
                z += c[k][r][j] - c[k][r][j];
            }
    if (z != 0.0)
        return 0;
    memcpy(motion->c, c, (size_t)(d + 1) * sizeof c[0]);
    return 1;
}

int bx_rescale(const boxtoi_box *box, boxtoi_motion *motion, double t0, double t1)
{
    bx_moving m;
    return bx_prepare_partial(box, motion, t0, t1, &m) == BX_REASON_RESCALE &&
           rescale_by_w(motion, m.w);
}

/*
 * bx_prepare_partial, and for a motion that asks for rescaling
 * (BX_REASON_RESCALE) bx_prepare_partial of its copy rescaled as bx_rescale
 * rescales it (from the w that first preparation converted), kept in *copy
 * (which may be motion itself).  A copy that asks again (which the power
 * of two rules out: its W is in [1/2, 1), every coefficient within
 * RANGE_LIMIT W) is refused.
 */
static boxtoi_reason prepare_partial_rescaling(const boxtoi_box *box,
                                               const boxtoi_motion *motion, double t0,
                                               double t1, boxtoi_motion *copy,
                                               bx_moving *out)
{
    boxtoi_reason why = bx_prepare_partial(box, motion, t0, t1, out);
    if (why != BX_REASON_RESCALE)
        return why;
    if (copy != motion)
        *copy = *motion;
    /* out->w: w as converted before it asked */
    why = rescale_by_w(copy, out->w) ? bx_prepare_partial(box, copy, t0, t1, out) : why;
    return why == BX_REASON_RESCALE ? BOXTOI_REASON_OUT_OF_RANGE : why;
}

#ifdef BX_LANES
/* entry_sb0 of entry (r, c) of ma (lane 0) and mb (lane 1). */
BXP_INLINE void entry2_sb0(const boxtoi_motion *ma, const boxtoi_motion *mb,
                          int r, int c, const double *hp, int d, bx_v2 *out)
{
    bx_v2 pw[BXM_CAP];
    BX_UNROLL
    for (int k = 0; k <= d; k++) {
        bx_v2 v = {ma->c[k][r][c], mb->c[k][r][c]};
        pw[k] = hp ? v * hp[k] : v;
    }
    bx_v2 z0 = 0.0 + pw[0]; /* as in entry_sb0 */
    BX_UNROLL
    for (int j = 0; j <= d; j++) {
        bx_v2 a = z0 * bxp_binomial_table[d][j];
        BX_UNROLL
        for (int i = 1; i <= j; i++)
            a += pw[i] * bxp_binomial_table[d - i][j - i];
        out[j] = a;
    }
}

/*
 * Control point i of row r in bx_swept_aabb, both lanes: p, u0..u2 the
 * scaled Bernstein coefficients, rw = 1 / w_i; widens [vmin, vmax] by that
 * point's bounds.  half[0] is given as h0z = 0 + half[0]: bx_swept_aabb's
 * first term 0 + half[0] |u0| is h0z |u0| (half[0] is +-0 or positive, so
 * both are +0 when half[0] is a zero, else equal).
 */
BXP_INLINE void swept_point2(bx_v2 p, bx_v2 u0, bx_v2 u1, bx_v2 u2,
                            bx_v2 h0z, const bx_v2 half[3], bx_v2 rw,
                            bx_v2 *vmin, bx_v2 *vmax)
{
    bx_v2 e = h0z * bx_vabs(u0);
    e += half[1] * bx_vabs(u1);
    e += half[2] * bx_vabs(u2);
    bx_v2 vh = (p + e) * rw, vl = (p - e) * rw;
    *vmax = bx_vmax(vh, *vmax);
    *vmin = bx_vmin(vl, *vmin);
}

/*
 * prepare_t0 of two motions of the same degree at once, ma into a in
 * lane 0 and mb into b in lane 1.  Returns 1 when both are of the usual
 * kind (then a and b hold what prepare_t0 would put there), else 0.
 */
BXP_INLINE int prepare_t0_2(const boxtoi_box *ba, const boxtoi_motion *ma,
                           const boxtoi_box *bb, const boxtoi_motion *mb,
                           double h, int unit, int d, bx_moving *a,
                           bx_moving *b)
{
    /* check_box of both (its usual case), then box_setup of both. */
    bx_v2 lo[3], hi[3], centre[3], half[3];
    int ok = 3;
    BX_UNROLL
    for (int i = 0; i < 3; i++) {
        lo[i] = (bx_v2){ba->lo[i], bb->lo[i]};
        hi[i] = (bx_v2){ba->hi[i], bb->hi[i]};
        ok &= bx_bits(bx_vabs(lo[i]) <= RANGE_LIMIT) &
              bx_bits(bx_vabs(hi[i]) <= RANGE_LIMIT) & bx_bits(lo[i] <= hi[i]);
    }
    if (ok != 3)
        return 0;
    bx_v2 cmax = {0.0, 0.0}, hmax = {0.0, 0.0};
    BX_UNROLL
    for (int i = 0; i < 3; i++) {
        centre[i] = 0.5 * (lo[i] + hi[i]);
        half[i] = 0.5 * (hi[i] - lo[i]);
        a->half[i] = half[i][0];
        b->half[i] = half[i][1];
        cmax = bx_vmax(bx_vabs(centre[i]), cmax);
        hmax = bx_vmax(half[i], hmax);
    }
    /* box_setup's far boxes: prepare_general */
    if (bx_bits(cmax > FAR_CENTRE * hmax))
        return 0;
    bx_v2 size = bx_vsqrt(4.0 * (half[0] * half[0] + half[1] * half[1] +
                                 half[2] * half[2]));
    a->d = b->d = d;
    a->size = size[0];
    b->size = size[1];
    double hp[BXM_CAP];
    uint64_t bits = 0;
    BX_UNROLL
    for (int k = 0; k <= d; k++)
        for (int c = 0; c < 3; c++) {
            uint64_t ba, bb;
            memcpy(&ba, &ma->c[k][3][c], sizeof ba);
            memcpy(&bb, &mb->c[k][3][c], sizeof bb);
            bits |= ba | bb;
        }
    if (bits << 1)
        return 0;
    powers_of(h, hp);
    bx_v2 w[BXM_CAP], u0[BXM_CAP], u1[BXM_CAP], u2[BXM_CAP], t[BXM_CAP];
    entry2_sb0(ma, mb, 3, 3, unit ? NULL : hp, d, w);
    /*
     * sb0_cancels of both (W_CANCELS: a w that cancels is left to the path of
     * one box, bx_prepare_partial, which converts it again).  With no sign bit
     * among w's coefficients of t^1 and up, every term is its own
     * magnitude and the sums are w's, which then cancel nowhere.
     */
    uint64_t neg = 0;
    BX_UNROLL
    for (int k = 1; k <= d; k++) {
        uint64_t ba, bb;
        memcpy(&ba, &ma->c[k][3][3], sizeof ba);
        memcpy(&bb, &mb->c[k][3][3], sizeof bb);
        neg |= ba | bb;
    }
    if (neg >> 63) {
        bx_v2 pw[BXM_CAP];
        int cancels = 0;
        BX_UNROLL
        for (int k = 0; k <= d; k++) {
            bx_v2 v = {ma->c[k][3][3], mb->c[k][3][3]};
            pw[k] = bx_vabs(unit ? v : v * hp[k]);
        }
        BX_UNROLL
        for (int j = 0; j <= d; j++) {
            bx_v2 a = pw[0] * bxp_binomial_table[d][j];
            BX_UNROLL
            for (int i = 1; i <= j; i++)
                a += pw[i] * bxp_binomial_table[d - i][j - i];
            cancels |= bx_bits(a > CANCEL * bx_vabs(w[j]));
        }
        if (cancels)
            return 0;
    }
    int pos = 3;
    BX_UNROLL
    for (int i = 0; i <= d; i++)
        pos &= bx_bits(w[i] >= W_LOW);
    if (pos != 3)
        return 0;
    a->flip = b->flip = 1.0;
    bx_v2 sum = {0.0, 0.0}, rw[BXM_CAP], wmax = {0.0, 0.0}, wmin = w[0];
    BX_UNROLL
    for (int i = 0; i <= d; i++) {
        a->w[i] = w[i][0];
        b->w[i] = w[i][1];
        sum += w[i];
        wmax = bx_vmax(w[i], wmax); /* w_i > 0: max(w_i, wmax) */
        wmin = bx_vmin(w[i], wmin);
        rw[i] = 1.0 / w[i]; /* w_i >= W_LOW: finite */
    }
    int even = bx_bits(wmax * bxp_binomial_table[d][d / 2] <= BX_PIECE_RATIO * wmin);
    a->w_even = even & 1;
    b->w_even = even >> 1;
    bx_v2 cx = centre[0], cy = centre[1], cz = centre[2], coord = {0.0, 0.0};
    bx_v2 most = {0.0, 0.0};
    bx_v2 h0z = 0.0 + half[0];
    BX_UNROLL
    for (int r = 0; r < 3; r++) {
        entry2_sb0(ma, mb, r, 0, unit ? NULL : hp, d, u0);
        entry2_sb0(ma, mb, r, 1, unit ? NULL : hp, d, u1);
        entry2_sb0(ma, mb, r, 2, unit ? NULL : hp, d, u2);
        entry2_sb0(ma, mb, r, 3, unit ? NULL : hp, d, t);
        bx_v2 vmin = {INFINITY, INFINITY}, vmax = {-INFINITY, -INFINITY};
        BX_UNROLL
        for (int i = 0; i <= d; i++) {
            bx_v2 pi = t[i] + cx * u0[i] + cy * u1[i] + cz * u2[i];
            a->u[0][r][i] = u0[i][0];
            b->u[0][r][i] = u0[i][1];
            a->u[1][r][i] = u1[i][0];
            b->u[1][r][i] = u1[i][1];
            a->u[2][r][i] = u2[i][0];
            b->u[2][r][i] = u2[i][1];
            a->p[r][i] = pi[0];
            b->p[r][i] = pi[1];
            bx_v2 a0 = bx_vabs(u0[i]), a1 = bx_vabs(u1[i]), a2 = bx_vabs(u2[i]);
            sum += a0 + a1 + (a2 + bx_vabs(pi));
            most = bx_vmax(bx_vmax(a0, a1), bx_vmax(a2, most));
            swept_point2(pi, u0[i], u1[i], u2[i], h0z, half, rw[i], &vmin, &vmax);
        }
        a->box_lo[r] = vmin[0];
        b->box_lo[r] = vmin[1];
        a->box_hi[r] = vmax[0];
        b->box_hi[r] = vmax[1];
        coord = bx_vmax(bx_vabs(vmin), coord);
        coord = bx_vmax(bx_vabs(vmax), coord);
    }
    a->box_coord = coord[0];
    b->box_coord = coord[1];
    /* quick_bound, its c from the converted coefficients (see there) */
    bx_v2 c = most * (bxp_binomial_table[d + 1][(d + 1) / 2] * (1.0 + 0x1p-40));
    a->qbound = quick_margin(c[0], d);
    b->qbound = quick_margin(c[1], d);
    a->box_known = b->box_known = 1;
    return (bx_bits(sum <= RANGE_LIMIT) & bx_bits(sum <= RANGE_LIMIT * wmax)) == 3;
}

static int prepare_t0_2_any(const boxtoi_box *ba, const boxtoi_motion *ma,
                            const boxtoi_box *bb, const boxtoi_motion *mb,
                            double h, bx_moving *a, bx_moving *b)
{
    int unit = h == 1.0;
#define BX_CASE(d)                                                      \
    case d:                                                             \
        return unit ? prepare_t0_2(ba, ma, bb, mb, h, 1, d, a, b)       \
                    : prepare_t0_2(ba, ma, bb, mb, h, 0, d, a, b)
    switch (ma->degree) {
    BX_CASE(0);
    BX_CASE(1);
    BX_CASE(2);
    BX_CASE(3);
    BX_CASE(4);
    default: return 0;
    }
#undef BX_CASE
}
#endif

int bx_lanes_built(void)
{
#ifdef BX_LANES
    return 1;
#else
    return 0;
#endif
}

boxtoi_reason bx_prepare_pair(const boxtoi_box *box_a,
                              const boxtoi_motion *motion_a,
                              const boxtoi_box *box_b,
                              const boxtoi_motion *motion_b, double t0,
                              double t1, bx_moving *a, bx_moving *b,
                              int *which)
{
    boxtoi_reason why;
#ifdef BX_LANES
    if (box_a && motion_a && box_b && motion_b && t0 == 0.0 &&
        motion_a->degree == motion_b->degree &&
        prepare_t0_2_any(box_a, motion_a, box_b, motion_b, t1 - t0, a, b)) {
        a->src = motion_a;
        b->src = motion_b;
        a->t0 = b->t0 = t0;
        a->t1 = b->t1 = t1;
        return BOXTOI_REASON_NONE;
    }
#endif
    if ((why = bx_prepare_partial(box_a, motion_a, t0, t1, a))) {
        *which = 1;
        return why;
    }
    if ((why = bx_prepare_partial(box_b, motion_b, t0, t1, b))) {
        /* A's remaining tests, its determinant (a tiny 3x3 part's with the
           frame rescaled) and then its swept bounds, as boxtoi_validate
           makes them, come before any reason of B. */
        boxtoi_reason why_a = boxtoi_validate(box_a, motion_a, t0, t1);
        *which = why_a ? 1 : 2;
        return why_a ? why_a : why;
    }
    return BOXTOI_REASON_NONE;
}

/*
 * det(u) = u0 . (u1 x u2) in scaled Bernstein form, degree 3d, that
 * vanishes() tests: the cross product by convolution, then the dot product.
 */
static void det_exact(const bx_moving *m, double *det)
{
    int d = m->d, n3 = 3 * d;
    double cr[3][2 * BXM_CAP];
    const double(*u0)[BXM_CAP] = m->u[0], (*u1)[BXM_CAP] = m->u[1],
                 (*u2)[BXM_CAP] = m->u[2];
    for (int k = 0; k <= 2 * d; k++)
        cr[0][k] = cr[1][k] = cr[2][k] = 0.0;
    for (int i = 0; i <= d; i++)
        for (int j = 0; j <= d; j++) {
            cr[0][i + j] += u1[1][i] * u2[2][j] - u1[2][i] * u2[1][j];
            cr[1][i + j] += u1[2][i] * u2[0][j] - u1[0][i] * u2[2][j];
            cr[2][i + j] += u1[0][i] * u2[1][j] - u1[1][i] * u2[0][j];
        }
    for (int k = 0; k <= n3; k++)
        det[k] = 0.0;
    for (int i = 0; i <= d; i++)
        for (int j = 0; j <= 2 * d; j++)
            det[i + j] += u0[0][i] * cr[0][j] + u0[1][i] * cr[1][j] +
                          u0[2][i] * cr[2][j];
}

/*
 * Does det_exact's polynomial keep one sign with a margin (bx_check_det's):
 * every coefficient less its margin at least DBL_MIN, or every one plus its
 * margin at most -DBL_MIN?  The same sums, each coefficient gathered in one
 * accumulator in the same order (increasing i), but started at its first
 * term instead of at +0: a sum can then differ from det_exact's only by
 * being -0 where that one is +0, which changes neither comparison.  When
 * the answer is 1, the exact determinant has one sign throughout (see
 * bx_check_det); when it is 0 the caller asks det_exact.
 */
BXP_INLINE int det_signed(const bx_moving *m, int d, const double *margin)
{
    const double(*u0)[BXM_CAP] = m->u[0], (*u1)[BXM_CAP] = m->u[1],
                 (*u2)[BXM_CAP] = m->u[2];
#define BX_CROSS(x, y, i, j) (u1[x][i] * u2[y][j] - u1[y][i] * u2[x][j])
#define BX_DOT(i, j) (u0[0][i] * cr[0][j] + u0[1][i] * cr[1][j] + u0[2][i] * cr[2][j])
    double cr[3][2 * BXM_CAP];
    BX_UNROLL
    for (int k = 0; k <= 2 * d; k++) {
        int first = k > d ? k - d : 0, last = k < d ? k : d;
        double c0 = BX_CROSS(1, 2, first, k - first);
        double c1 = BX_CROSS(2, 0, first, k - first);
        double c2 = BX_CROSS(0, 1, first, k - first);
        BX_UNROLL
        for (int i = first + 1; i <= last; i++) {
            c0 += BX_CROSS(1, 2, i, k - i);
            c1 += BX_CROSS(2, 0, i, k - i);
            c2 += BX_CROSS(0, 1, i, k - i);
        }
        cr[0][k] = c0;
        cr[1][k] = c1;
        cr[2][k] = c2;
    }
    double lo = INFINITY, hi = -INFINITY, sum = 0.0;
    BX_UNROLL
    for (int k = 0; k <= 3 * d; k++) {
        int first = k > 2 * d ? k - 2 * d : 0, last = k < d ? k : d;
        double a = BX_DOT(first, k - first);
        BX_UNROLL
        for (int i = first + 1; i <= last; i++)
            a += BX_DOT(i, k - i);
        double below = a - margin[k], above = a + margin[k];
        lo = below < lo ? below : lo;
        hi = above > hi ? above : hi;
        sum += a;
    }
#undef BX_DOT
#undef BX_CROSS
    return signed_range(lo, hi, sum);
}

#ifdef BX_LANES
/*
 * det_signed of a and b (same degree d, t0 = 0) at once, a in lane 0, b in
 * lane 1, with the margins from their quick_bound, as bx_check_det forms
 * them.
 */
BXP_INLINE void det_signed2(const bx_moving *a, const bx_moving *b, int d,
                           bx_v2 bound, int sure[2])
{
#define BX_AB(field) ((bx_v2){a->field, b->field})
#define BX_CROSS(x, y, i, j)                                                  \
    (BX_AB(u[1][x][i]) * BX_AB(u[2][y][j]) - BX_AB(u[1][y][i]) * BX_AB(u[2][x][j]))
#define BX_DOT(i, j)                                                          \
    (BX_AB(u[0][0][i]) * cr[0][j] + BX_AB(u[0][1][i]) * cr[1][j] +             \
     BX_AB(u[0][2][i]) * cr[2][j])
    bx_v2 cr[3][2 * BXM_CAP];
    BX_UNROLL
    for (int k = 0; k <= 2 * d; k++) {
        int first = k > d ? k - d : 0, last = k < d ? k : d;
        bx_v2 c0 = BX_CROSS(1, 2, first, k - first);
        bx_v2 c1 = BX_CROSS(2, 0, first, k - first);
        bx_v2 c2 = BX_CROSS(0, 1, first, k - first);
        BX_UNROLL
        for (int i = first + 1; i <= last; i++) {
            c0 += BX_CROSS(1, 2, i, k - i);
            c1 += BX_CROSS(2, 0, i, k - i);
            c2 += BX_CROSS(0, 1, i, k - i);
        }
        cr[0][k] = c0;
        cr[1][k] = c1;
        cr[2][k] = c2;
    }
    bx_v2 lo = {INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY}, sum = {0.0, 0.0};
    BX_UNROLL
    for (int k = 0; k <= 3 * d; k++) {
        int first = k > 2 * d ? k - 2 * d : 0, last = k < d ? k : d;
        bx_v2 v = BX_DOT(first, k - first);
        BX_UNROLL
        for (int i = first + 1; i <= last; i++)
            v += BX_DOT(i, k - i);
        bx_v2 margin = bound * bxp_binomial_table[3 * d][k]; /* bx_check_det's */
        lo = bx_vmin(v - margin, lo);
        hi = bx_vmax(v + margin, hi);
        sum += v;
    }
#undef BX_DOT
#undef BX_CROSS
#undef BX_AB
    sure[0] = signed_range(lo[0], hi[0], sum[0]);
    sure[1] = signed_range(lo[1], hi[1], sum[1]);
}
#endif

/*
 * Bounds of the magnitudes of entry (r, c)'s converted coefficients and of
 * their rounding, in scaled Bernstein form: the conversion of the entry's
 * coefficients in s taken by magnitude.  From t0 = 0 those are c_k h^k;
 * otherwise they come from bxp_power_reparam (entries_sbern keeps them in
 * double-double through the conversion where its sums cancel), whose
 * double-double sums are within DD_ROUNDING of the same sums over
 * magnitudes (the shift by |t0| of the |c_k|), added.  Every coefficient
 * entries_sbern or entry_sb0 gives is within a few ulps of out[j] of the
 * exact one.
 */
#define DD_ROUNDING (256.0 * DBL_EPSILON * DBL_EPSILON)

static void entry_magnitude(const bx_moving *m, int r, int c, double *out)
{
    int d = m->d;
    double h = m->t1 - m->t0, hp = 1.0;
    if (m->t0 != 0.0) {
        double a = fabs(m->t0), shift[BXM_CAP];
        for (int k = 0; k <= d; k++) {
            out[k] = m->src->c[k][r][c];
            shift[k] = fabs(out[k]);
        }
        for (int i = 0; i < d; i++) /* bxp_power_reparam's shift, all terms >= 0 */
            for (int j = d - 1; j >= i; j--)
                shift[j] += a * shift[j + 1];
        bxp_power_reparam(out, d, m->t0, m->t1, out);
        for (int k = 0; k <= d; k++) {
            out[k] = fabs(out[k]) + DD_ROUNDING * shift[k] * hp;
            hp *= h;
        }
    } else {
        for (int k = 0; k <= d; k++) {
            out[k] = fabs(m->src->c[k][r][c]) * hp;
            hp *= h;
        }
    }
    bxp_power_to_sbern(out, d, out);
}

/*
 * On intervals from t0 = 0, a margin larger than det_margin_exact's and
 * quicker to form: with c at least the largest |c_k| h^k of the nine
 * entries, every magnitude coefficient j is at most c C(d + 1, j) <=
 * (d + 1) c C(d, j) (entry_magnitude's sums, without the shift), and the
 * determinant's sums over such bounds are at most 6 ((d + 1) c)^3 C(3d, k)
 * (Vandermonde's identity).  quick_bound is that factor of C(3d, k); it is
 * enough for det_signed to settle the usual motion.  quick_bound_raw takes
 * c as the largest |c_k| h^k itself (rounding keeps the order, so the
 * largest |c_k| times h^k is the largest of the products).
 *
 * The paired conversion forms quick_bound (m->qbound, else -1) from a c
 * taken from the converted coefficients it has at hand, S their largest
 * magnitude, as follows.  With x_k the products c_k h^k and sigma_j = sum_i
 * C(d - i, j - i) x_i the exact scaled Bernstein coefficients of those, x_k
 * = sum_j (-1)^(k - j) C(d - j, k - j) sigma_j, so |x_k| <= C(d + 1, k) max
 * |sigma_j| (the binomials add up to C(d + 1, k)).  Each converted
 * coefficient is within gamma_(d+1) C(d + 1, j) c of sigma_j (d + 1
 * roundings over the same sums), so with K the largest C(d + 1, k), c <= K
 * S / (1 - gamma_(d+1) K^2), and K^2 gamma_5 < 6e-14 up to degree 4: K S (1
 * + 2^-40), rounded once, is a c.  (Underflow in the conversion can spoil
 * that only where c is so small that the determinant's coefficients
 * underflow too, and the test fails anyway.) Since S <= K c (1 + gamma),
 * this c is at most about K^2 times the least one, so the margin is at most
 * K^6 (729 at degree 2) times larger: still far below the determinant of a
 * usual motion, and what it cannot settle goes to det_margin_exact.
 */
static double quick_bound_raw(const bx_moving *m)
{
    int d = m->d;
    double c = 0.0, hp = 1.0, h = m->t1 - m->t0;
    for (int k = 0; k <= d; k++) {
        const double(*ck)[4] = m->src->c[k];
        double v = 0.0;
        for (int r = 0; r < 3; r++)
            for (int col = 0; col < 3; col++) {
                double x = fabs(ck[r][col]);
                v = x > v ? x : v;
            }
        v *= hp;
        c = v > c ? v : c;
        hp *= h;
    }
    return quick_margin(c, d);
}

BXP_INLINE double quick_bound(const bx_moving *m)
{
    return m->qbound >= 0.0 ? m->qbound : quick_bound_raw(m);
}

/* The margin from the magnitude sums themselves (any interval). */
static void det_margin_exact(const bx_moving *m, double *margin)
{
    int d = m->d;
    double g[3][3][BXM_CAP], cr[3][2 * BXM_CAP];
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            entry_magnitude(m, r, k, g[k][r]);
    for (int k = 0; k <= 2 * d; k++)
        cr[0][k] = cr[1][k] = cr[2][k] = 0.0;
    for (int i = 0; i <= d; i++)
        for (int j = 0; j <= d; j++)
            for (int x = 0; x < 3; x++) {
                int y = (x + 1) % 3, z = (x + 2) % 3;
                cr[x][i + j] += g[1][y][i] * g[2][z][j] + g[1][z][i] * g[2][y][j];
            }
    for (int k = 0; k <= 3 * d; k++)
        margin[k] = 0.0;
    for (int i = 0; i <= d; i++)
        for (int j = 0; j <= 2 * d; j++)
            margin[i + j] += g[0][0][i] * cr[0][j] + g[0][1][i] * cr[1][j] +
                             g[0][2][i] * cr[2][j];
    /* The floor: a determinant within DET_FLOOR of the cube of the entries'
     * magnitude, or within DBL_MIN, counts as zero (so none below the
     * normal doubles, which det_signed requires too, is accepted). */
    double big = 0.0;
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            for (int j = 0; j <= d; j++) {
                double v = g[k][r][j] / bxp_binomial_table[d][j];
                big = v > big ? v : big;
            }
    double floor_ = fmax(DBL_MIN, DET_FLOOR * big * big * big);
    for (int k = 0; k <= 3 * d; k++)
        margin[k] = margin[k] * DET_ROUNDING + floor_ * bxp_binomial_table[3 * d][k];
}

double bx_det_margin_max(const bx_moving *m)
{
    if (m->t0 == 0.0)
        return quick_bound(m); /* margin_k = bound C(n, k): bound at every s */
    double margin[3 * BXM_CAP], most = 0.0;
    int n = 3 * m->d;
    det_margin_exact(m, margin);
    /* margin(s) = sum_k margin_k s^k (1 - s)^(n - k) <= max_k margin_k / C(n, k) */
    for (int k = 0; k <= n; k++) {
        double v = margin[k] / bxp_binomial_table[n][k];
        most = v > most ? v : most;
    }
    return most;
}

/*
 * Nonsingular when det(u) keeps one sign on [0, 1] with its margin: the
 * coefficients less their margins are a polynomial below the exact
 * determinant and those plus their margins one above it (the basis is
 * non-negative), so the lower one positive throughout, or the upper one
 * negative throughout, proves the exact determinant non-zero.  det_signed
 * tries the coefficients first, from t0 = 0 with quick_bound's larger
 * margins; otherwise the polynomials of det_margin_exact are searched for
 * a zero.
 */
static boxtoi_reason det_whole(const bx_moving *m)
{
    double det[3 * BXM_CAP], margin[3 * BXM_CAP];
    double lower[3 * BXM_CAP], upper[3 * BXM_CAP];
    int d = m->d, sure;
    int exact = m->t0 != 0.0 || d > 4; /* margin: det_margin_exact's */
    if (exact) {
        det_margin_exact(m, margin);
    } else {
        double bound = quick_bound(m);
        for (int k = 0; k <= 3 * d; k++)
            margin[k] = bound * bxp_binomial_table[3 * d][k];
    }
    switch (d) {
    case 0: sure = det_signed(m, 0, margin); break;
    case 1: sure = det_signed(m, 1, margin); break;
    case 2: sure = det_signed(m, 2, margin); break;
    case 3: sure = det_signed(m, 3, margin); break;
    case 4: sure = det_signed(m, 4, margin); break;
    default: sure = 0; break; /* higher degrees: det_exact */
    }
    if (sure)
        return BOXTOI_REASON_NONE;
    if (!exact)
        det_margin_exact(m, margin);
    det_exact(m, det);
    for (int k = 0; k <= 3 * d; k++) {
        lower[k] = det[k] - margin[k];
        upper[k] = det[k] + margin[k];
    }
    if (lower[0] > 0.0 && !vanishes(lower, 3 * d))
        return BOXTOI_REASON_NONE;
    if (upper[0] < 0.0 && !vanishes(upper, 3 * d))
        return BOXTOI_REASON_NONE;
    return BOXTOI_REASON_SINGULAR;
}

/* Bernstein coefficients b (degree n) not all positive, or beyond the ratio? */
static int uneven(const double *b, int n)
{
    double lo = b[0], hi = b[0];
    for (int i = 1; i <= n; i++) {
        lo = b[i] < lo ? b[i] : lo;
        hi = b[i] > hi ? b[i] : hi;
    }
    return !(lo > 0.0 && hi <= BX_PIECE_RATIO * lo);
}

int bx_w_uneven(const double *w, int n)
{
    double b[BXM_CAP];
    bxp_sbern_to_bern(w, n, b);
    return uneven(b, n);
}

/* uneven of Bernstein coefficients b (degree n) restricted to [a, c]. */
static int uneven_on(const double *b, int n, double a, double c)
{
    double r[BXM_CAP];
    bxp_bern_restrict(b, n, a, c, r);
    return uneven(r, n);
}

int bx_piece_times(const double *wa, int na, const double *wb, int nb, double t0,
                   double t1, double *t)
{
    double ba[BXM_CAP], bb[BXM_CAP], stack[BX_MAX_PIECES + 1];
    int n = 0, top = 0;
    bxp_sbern_to_bern(wa, na, ba);
    if (wb)
        bxp_sbern_to_bern(wb, nb, bb);
    t[0] = 0.0;
    stack[top++] = 1.0; /* right ends still to reach, the nearest last */
    while (top > 0) {
        double a = t[n], c = stack[top - 1];
        int split = (uneven_on(ba, na, a, c) || (wb && uneven_on(bb, nb, a, c))) &&
                    c - a > BX_MIN_PIECE && n + top < BX_MAX_PIECES;
        if (split) {
            stack[top++] = 0.5 * (a + c);
        } else {
            t[++n] = c;
            top--;
        }
    }
    /* from s to time, the ends t0 and t1 exactly */
    for (int i = 0; i <= n; i++)
        t[i] = i == 0 ? t0 : i == n ? t1 : t0 + (t1 - t0) * t[i];
    return n;
}

/*
 * det_whole's test piece by piece (bx_piece_times of w alone), the motion
 * prepared afresh over each piece's times: 1 when every piece passes.  A
 * rotation's det u is w^3, so a turn near a full one, whose w spans orders
 * of magnitude, is within the whole interval's rounding of zero where w is
 * least, and well clear of each piece's.
 */
static int det_pieces(const bx_moving *m)
{
    double t[BX_MAX_PIECES + 1];
    boxtoi_box box;
    boxtoi_motion copy; /* the motion rescaled, where a piece asks */
    bx_moving pm;
    for (int i = 0; i < 3; i++) {
        box.lo[i] = -m->half[i];
        box.hi[i] = m->half[i];
    }
    int n = bx_piece_times(m->w, m->d, NULL, 0, m->t0, m->t1, t);
    for (int k = 0; k < n; k++) {
        if (prepare_partial_rescaling(&box, m->src, t[k], t[k + 1], &copy, &pm) ||
            det_whole(&pm))
            return 0;
    }
    return 1;
}

boxtoi_reason bx_check_det(const bx_moving *m)
{
    if (!det_whole(m))
        return BOXTOI_REASON_NONE;
    if (bx_w_uneven(m->w, m->d) && det_pieces(m))
        return BOXTOI_REASON_NONE;
    return BOXTOI_REASON_SINGULAR;
}

int bx_check_det2(const bx_moving *a, const bx_moving *b)
{
#ifdef BX_LANES
    int sure[2];
    if (a && b && a->d == b->d && a->d <= 4 && a->t0 == 0.0 && b->t0 == 0.0) {
        int d = a->d;
        bx_v2 bound = {quick_bound(a), quick_bound(b)};
        switch (d) {
        case 0: det_signed2(a, b, 0, bound, sure); break;
        case 1: det_signed2(a, b, 1, bound, sure); break;
        case 2: det_signed2(a, b, 2, bound, sure); break;
        case 3: det_signed2(a, b, 3, bound, sure); break;
        default: det_signed2(a, b, 4, bound, sure); break;
        }
        if (sure[0] && sure[1])
            return 0;
    }
#endif
    if (a && bx_check_det(a))
        return 1;
    return b && bx_check_det(b) ? 2 : 0;
}

boxtoi_reason bx_prepare(const boxtoi_box *box, const boxtoi_motion *motion,
                         double t0, double t1, bx_moving *out)
{
    boxtoi_reason why = bx_prepare_partial(box, motion, t0, t1, out);
    return why ? why : bx_check_det(out);
}

/* Degree of the 3x3 part and w together: the last power with a non-zero one. */
static int shape_degree(const boxtoi_motion *motion, int d)
{
    for (int k = d; k > 0; k--) {
        if (motion->c[k][3][3] != 0.0)
            return k;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                if (motion->c[k][r][c] != 0.0)
                    return k;
    }
    return 0;
}

/* bx_trim's conversion at degree e for t0 = 0 (entry_sb0 and w_sb0_exact,
   then the flip). */
BXP_INLINE void trim_t0(const boxtoi_motion *motion, double h, int e,
                       bx_moving *m)
{
    double hp[BXM_CAP], v[BXM_CAP];
    powers_of(h, hp);
    entry_sb0(motion, 3, 3, hp, e, v);
    w_sb0_exact(motion, hp, e, h, v);
    BX_UNROLL
    for (int i = 0; i <= e; i++)
        m->we[i] = v[i] * m->flip;
    BX_UNROLL
    for (int k = 0; k < 3; k++)
        BX_UNROLL
        for (int r = 0; r < 3; r++) {
            entry_sb0(motion, r, k, hp, e, v);
            BX_UNROLL
            for (int i = 0; i <= e; i++)
                m->ue[k][r][i] = v[i] * m->flip;
        }
}

/* ue = u and we = w, degree e (a few moves, no calls, at low degrees). */
BXP_INLINE void copy_shape(bx_moving *m, int e)
{
    BX_UNROLL
    for (int i = 0; i <= e; i++) {
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 3; r++)
                m->ue[k][r][i] = m->u[k][r][i];
        m->we[i] = m->w[i];
    }
}

void bx_trim(const boxtoi_motion *motion, double t0, double t1, bx_moving *m)
{
    int e = shape_degree(motion, m->d);
    m->e = e;
    if (e == m->d) {
        switch (e) {
        case 0: copy_shape(m, 0); break;
        case 1: copy_shape(m, 1); break;
        case 2: copy_shape(m, 2); break;
        case 3: copy_shape(m, 3); break;
        case 4: copy_shape(m, 4); break;
        default:
            for (int k = 0; k < 3; k++)
                for (int r = 0; r < 3; r++)
                    memcpy(m->ue[k][r], m->u[k][r], (size_t)(e + 1) * sizeof(double));
            memcpy(m->we, m->w, (size_t)(e + 1) * sizeof(double));
        }
        return;
    }
    if (t0 == 0.0) {
        double h = t1 - t0;
        switch (e) {
        case 0: trim_t0(motion, h, 0, m); return;
        case 1: trim_t0(motion, h, 1, m); return;
        case 2: trim_t0(motion, h, 2, m); return;
        case 3: trim_t0(motion, h, 3, m); return;
        }
    }
    double sb[e + 1][16];
    entries_sbern(motion, e, t0, t1, sb);
    for (int i = 0; i <= e; i++) {
        m->we[i] = sb[i][15] * m->flip;
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 3; r++)
                m->ue[k][r][i] = sb[i][4 * r + k] * m->flip;
    }
}

/*
 * Evaluate many SB polynomials of degree d at one s, sharing the powers;
 * written once with the degree as a parameter and expanded for the low
 * degrees, where the loops unroll.
 */
BXP_INLINE void pose_at_impl(const bx_moving *m, int d, double s, bx_pose *pose)
{
    DEGREE_IN_RANGE(d);
    int rev = fabs(s) > fabs(1.0 - s);
    double r = rev ? (1.0 - s) / s : s / (1.0 - s), f = 1.0;
    for (int i = 0; i < d; i++)
        f *= rev ? s : 1.0 - s;
#define BX_EVAL(a, out)                                     \
    do {                                                    \
        const double *c_ = (a);                             \
        double v_;                                          \
        if (rev) {                                          \
            v_ = c_[0];                                     \
            for (int i_ = 1; i_ <= d; i_++)                 \
                v_ = v_ * r + c_[i_];                       \
        } else {                                            \
            v_ = c_[d];                                     \
            for (int i_ = d - 1; i_ >= 0; i_--)             \
                v_ = v_ * r + c_[i_];                       \
        }                                                   \
        (out) = v_ * f;                                     \
    } while (0)
    double w, iw;
    BX_EVAL(m->w, w);
    iw = 1.0 / w;
    for (int row = 0; row < 3; row++) {
        double v;
        BX_EVAL(m->p[row], v);
        pose->c[row] = v * iw;
        for (int k = 0; k < 3; k++) {
            BX_EVAL(m->u[k][row], v);
            pose->axis[k][row] = v * iw;
            pose->g[k][row] = pose->axis[k][row] * m->half[k];
        }
    }
#undef BX_EVAL
}

void bx_pose_at(const bx_moving *m, double s, bx_pose *pose)
{
    switch (m->d) {
    case 0:
        pose_at_impl(m, 0, s, pose);
        return;
    case 1:
        pose_at_impl(m, 1, s, pose);
        return;
    case 2:
        pose_at_impl(m, 2, s, pose);
        return;
    case 4:
        pose_at_impl(m, 4, s, pose);
        return;
    default:
        pose_at_impl(m, m->d, s, pose);
    }
}

/* The Bernstein coefficients of p, u[k] (pu) and w on each half of a piece:
   a[h][j], j = 0..3 for pu[j], 4 for w; those of the piece scaled by
   C(n, i) when scaled is set, those of the halves never. */
static void halve_pieces(int n, const double (*pu)[n + 1], const double *w, int scaled,
                         double (*a)[5][n + 1])
{
    for (int j = 0; j < 5; j++) {
        const double *src = j < 4 ? pu[j] : w;
        double plain[n + 1];
        if (scaled) {
            for (int i = 0; i <= n; i++)
                plain[i] = src[i] / bxp_binomial_table[n][i];
            src = plain;
        }
        bxp_bern_restrict(src, n, 0.0, 0.5, a[0][j]);
        bxp_bern_restrict(src, n, 0.5, 1.0, a[1][j]);
    }
}

/*
 * Weights this uneven on a piece (the least below UNEVEN times the largest)
 * put the hull of its control points far past the curve: the control point
 * of a small w_i lies far out (a rigid motion whose quaternion is
 * interpolated linearly between ends half a turn apart has a middle w_i of
 * 0; a turn of 359.8 degrees, a w of 7.6e-7 of its ends at mid-interval).
 * Such a piece is halved, at most UNEVEN_DEPTH times, since the weights of
 * its halves come closer together.
 */
#define UNEVEN 0.25
#define UNEVEN_DEPTH 12

/* The least and the largest of the weights w (divided by C(n, i) first
   when scaled is set), the least NaN where one is: positive where every
   weight is, uneven where least < UNEVEN most. */
static void weight_range(const double *w, int n, int scaled, double *least, double *most)
{
    double lo = INFINITY, hi = 0.0;
    for (int i = 0; i <= n; i++) {
        double v = scaled ? w[i] / bxp_binomial_table[n][i] : w[i];
        lo = v < lo || isnan(v) ? v : lo;
        hi = v > hi ? v : hi;
    }
    *least = lo;
    *most = hi;
}

/*
 * Range over a piece of s of one world coordinate of the box: p, u[k] and
 * w that coordinate's centre, axes and weight (Bernstein coefficients on
 * the piece, p and u[k] of row r).  Once every w_i is positive, the hull of
 * (p_i +- sum_k half_k |u_k,i|) times 1 / w_i (convex hull property of the
 * rational curve, each vertex within half_k |u_k| of the centre); subdivide
 * until then, the magnitudes taken on the pieces, so the bounds tighten as
 * they shrink.  A piece of uneven weights with a hull in range is halved
 * too, and the halves' bounds, inside its hull, taken where they are
 * tighter (the pieces are then only for tightness: whether the range is
 * within RANGE_LIMIT is decided by the first hull, as without them).
 */
static int rational_range(int n, const double (*pu)[n + 1], const double *w,
                          const double half[3], int scaled, int depth, double *vmin,
                          double *vmax)
{
    double wlo, whi;
    weight_range(w, n, scaled, &wlo, &whi);
    double a[2][5][n + 1];
    if (wlo > 0.0) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i <= n; i++) {
            double e = 0.0;
            for (int k = 0; k < 3; k++)
                e += half[k] * fabs(pu[k + 1][i]);
            double rw = 1.0 / w[i], h = (pu[0][i] + e) * rw, l = (pu[0][i] - e) * rw;
            /* beyond the lengths the solver takes (or overflowing, or NaN
               where 1 / w_i overflows): a w that comes within 1e-60 of 0
               relative to the positions */
            if (!(fabs(h) <= RANGE_LIMIT && fabs(l) <= RANGE_LIMIT))
                return 0;
            hi = h > hi ? h : hi;
            lo = l < lo ? l : lo;
        }
        if (depth < UNEVEN_DEPTH && wlo < UNEVEN * whi) {
            double pl = INFINITY, ph = -INFINITY;
            halve_pieces(n, pu, w, scaled, a);
            if (rational_range(n, a[0], a[0][4], half, 0, depth + 1, &pl, &ph) &&
                rational_range(n, a[1], a[1][4], half, 0, depth + 1, &pl, &ph)) {
                lo = pl > lo ? pl : lo;
                hi = ph < hi ? ph : hi;
            }
        }
        *vmax = hi > *vmax ? hi : *vmax;
        *vmin = lo < *vmin ? lo : *vmin;
        return 1;
    }
    if (depth >= 24)
        return 0;
    halve_pieces(n, pu, w, scaled, a);
    return rational_range(n, a[0], a[0][4], half, 0, depth + 1, vmin, vmax) &&
           rational_range(n, a[1], a[1][4], half, 0, depth + 1, vmin, vmax);
}

/*
 * bx_swept_aabb.  While every w_i is positive, rational_range takes its
 * hull straight from the scaled Bernstein coefficients (the point and w_i
 * carry the same C(d, i)): fewer roundings than dividing both by C(d, i)
 * first.  Otherwise it subdivides the Bernstein coefficients (the scaled
 * ones divided by C(d, i)).  The preparations of t0 = 0 compute the same
 * numbers on the way (box_known).
 */
int bx_swept_aabb(const bx_moving *m, double lo[3], double hi[3])
{
    int d = m->d, pos = 1;
    double wlo, whi;
    weight_range(m->w, d, 1, &wlo, &whi);
    /* the preparation's bounds are the first hull: taken unless the
       weights are uneven, whose pieces tighten it */
    if (m->box_known && !(wlo < UNEVEN * whi && m->box_coord <= RANGE_LIMIT)) {
        for (int r = 0; r < 3; r++) {
            lo[r] = m->box_lo[r];
            hi[r] = m->box_hi[r];
        }
        return m->box_coord <= RANGE_LIMIT;
    }
    double b[d + 1], w[d + 1];
    for (int i = 0; i <= d; i++)
        pos &= m->w[i] > 0.0;
    for (int i = 0; i <= d; i++) {
        b[i] = pos ? 1.0 : bxp_binomial_table[d][i]; /* x / 1 is x */
        w[i] = m->w[i] / b[i];
    }
    for (int r = 0; r < 3; r++) {
        double pu[4][d + 1];
        for (int i = 0; i <= d; i++) {
            pu[0][i] = m->p[r][i] / b[i];
            for (int k = 0; k < 3; k++)
                pu[k + 1][i] = m->u[k][r][i] / b[i];
        }
        lo[r] = INFINITY;
        hi[r] = -INFINITY;
        if (!rational_range(d, pu, w, m->half, pos, 0, &lo[r], &hi[r]))
            return 0;
    }
    return 1;
}

int bx_swept_test(const bx_moving *a, const bx_moving *b, double size,
                  double *tol, int *apart)
{
    double lo[2][3], hi[2][3], coord = 0.0;
    const double *la = a->box_lo, *ha = a->box_hi, *lb = b->box_lo,
                 *hb = b->box_hi;
    /*
     * coord: the largest magnitude of the bounds, none of them NaN (finite
     * numerators over positive w), so any order of taking maxima gives it.
     */
    if (a->box_known && b->box_known) {
        coord = a->box_coord > b->box_coord ? a->box_coord : b->box_coord;
        if (!(coord <= RANGE_LIMIT))
            return 0; /* as bx_swept_aabb */
    } else {
        if (!bx_swept_aabb(a, lo[0], hi[0]) || !bx_swept_aabb(b, lo[1], hi[1]))
            return 0;
        la = lo[0];
        ha = hi[0];
        lb = lo[1];
        hb = hi[1];
        for (int m = 0; m < 2; m++)
            for (int r = 0; r < 3; r++) {
                double l = fabs(lo[m][r]), h = fabs(hi[m][r]);
                coord = l > coord ? l : coord;
                coord = h > coord ? h : coord;
            }
    }
    *tol = 1e-12 * size + 8.0 * DBL_EPSILON * coord;
    int ap = 0;
    for (int r = 0; r < 3; r++)
        ap |= (la[r] > hb[r] + *tol) | (lb[r] > ha[r] + *tol);
    *apart = ap;
    return 1;
}

/* bx_prepare, through prepare_partial_rescaling: *copy may hold the motion. */
static boxtoi_reason prepare_rescaling(const boxtoi_box *box,
                                       const boxtoi_motion *motion, double t0,
                                       double t1, boxtoi_motion *copy, bx_moving *out)
{
    boxtoi_reason why = prepare_partial_rescaling(box, motion, t0, t1, copy, out);
    return why ? why : bx_check_det(out);
}

double bx_tiny_length(const boxtoi_box *box, const boxtoi_motion *m)
{
    double big = 0.0, w = 0.0, t = 0.0;
    if (!box || !m)
        return -1.0; /* the preparation names what is missing */
    for (int i = 0; i < 3; i++) {
        if (!(fabs(box->lo[i]) < BX_TINY_LENGTH && fabs(box->hi[i]) < BX_TINY_LENGTH))
            return -1.0;
        big = fmax(big, fmax(fabs(box->lo[i]), fabs(box->hi[i])));
    }
    if (m->degree < 0 || m->degree > BOXTOI_MAX_DEGREE)
        return -1.0;
    for (int k = 0; k <= m->degree; k++) {
        w = fmax(w, fabs(m->c[k][3][3]));
        for (int r = 0; r < 3; r++)
            t = fmax(t, fabs(m->c[k][r][3]));
    }
    /* t / w, not t against BX_TINY_LENGTH w, which underflows for a motion
       given at a tiny scale */
    if (!(w > 0.0) || !(t / w < BX_TINY_LENGTH))
        return -1.0;
    return fmax(big, t / w);
}

void bx_scale_lengths(boxtoi_box *box, boxtoi_motion *m, int e)
{
    for (int i = 0; i < 3; i++) {
        box->lo[i] = ldexp(box->lo[i], e);
        box->hi[i] = ldexp(box->hi[i], e);
    }
    for (int k = 0; k <= m->degree; k++)
        for (int r = 0; r < 3; r++)
            m->c[k][r][3] = ldexp(m->c[k][r][3], e);
}

/* A coefficient of t^k times T^k, T the power of two 2^et of the
   interval's reach (none, at et INT_MIN, for T = 0): exact, the same when
   time is scaled by a power of two; infinite only for a motion whose values
   are far out of range. */
static double local_term(double c, int k, int et)
{
    return k == 0 ? fabs(c) : et == INT_MIN ? 0.0 : ldexp(fabs(c), k * et);
}

/* The exponent k of 2^k near the largest 3x3 term of m over w's largest,
   when that is below BX_LOCAL_SMALL; 0 otherwise.  The terms are the
   coefficients times T^k (local_term), T the larger of |t0| and |t1| to a
   power of two, the powers that reach the interval: a w far larger only
   where its higher powers grow outside the interval (1e-100 + t^2 over
   [0, 1e-60]) does not make the 3x3 part tiny. */
static int local_exponent(const boxtoi_motion *m, double t0, double t1)
{
    double u = 0.0, w = 0.0, tt = fmax(fabs(t0), fabs(t1));
    int et = tt > 0.0 ? ilogb(tt) : INT_MIN;
    if (m->degree < 0 || m->degree > BOXTOI_MAX_DEGREE || !isfinite(tt))
        return 0;
    for (int k = 0; k <= m->degree; k++) {
        w = fmax(w, local_term(m->c[k][3][3], k, et));
        for (int r = 0; r < 3; r++)
            for (int j = 0; j < 3; j++)
                u = fmax(u, local_term(m->c[k][r][j], k, et));
    }
    if (!(u > 0.0) || !(u < BX_LOCAL_SMALL * w) || !isfinite(w))
        return 0;
    return ilogb(u) - ilogb(w);
}

int bx_locally_small(const boxtoi_motion *m, double t0, double t1)
{
    return local_exponent(m, t0, t1) != 0;
}

int bx_balance_frame(boxtoi_box *b, boxtoi_motion *m, double t0, double t1)
{
    int k = local_exponent(m, t0, t1);
    if (!k)
        return 0;
    boxtoi_box nb;
    double c[BXM_CAP][3][3];
    for (int i = 0; i < 3; i++) {
        nb.lo[i] = ldexp(b->lo[i], k);
        nb.hi[i] = ldexp(b->hi[i], k);
        if (ldexp(nb.lo[i], -k) != b->lo[i] || ldexp(nb.hi[i], -k) != b->hi[i])
            return 0;
    }
    for (int d = 0; d <= m->degree; d++)
        for (int r = 0; r < 3; r++)
            for (int j = 0; j < 3; j++) {
                c[d][r][j] = ldexp(m->c[d][r][j], -k);
                if (!isfinite(c[d][r][j]) || ldexp(c[d][r][j], k) != m->c[d][r][j])
                    return 0;
            }
    for (int d = 0; d <= m->degree; d++)
        for (int r = 0; r < 3; r++)
            for (int j = 0; j < 3; j++)
                m->c[d][r][j] = c[d][r][j];
    *b = nb;
    return 1;
}

static BX_NOINLINE boxtoi_reason swept_local(const boxtoi_box *box,
                                             const boxtoi_motion *motion, double t0,
                                             double t1, double lo[3], double hi[3]);

BOXTOI_API boxtoi_reason boxtoi_validate(const boxtoi_box *box,
                                         const boxtoi_motion *motion,
                                         double t0, double t1)
{
    bx_moving m;
    boxtoi_motion copy;
    double lo[3], hi[3];
    boxtoi_reason why = bx_check_interval(t0, t1);
    if (why)
        return why;
    why = prepare_rescaling(box, motion, t0, t1, &copy, &m);
    if (why == BOXTOI_REASON_SINGULAR) /* checked again with the frame rescaled */
        return swept_local(box, motion, t0, t1, lo, hi);
    if (why)
        return why;
    /* the solver, boxtoi_swept_aabb and boxtoi_overlap_at bound it too */
    return bx_swept_aabb(&m, lo, hi) ? BOXTOI_REASON_NONE : BOXTOI_REASON_OUT_OF_RANGE;
}

/*
 * A lower bound of w on the interval from its Bernstein coefficients b
 * (degree n): the least of them, once all are positive, the interval halved
 * until they are (at most 24 times, as rational_range); 0 where that fails.
 * Positive but uneven coefficients are halved as rational_range halves
 * them, the least of the halves' bounds taken where it is larger.
 */
static double w_lower_bound(const double *b, int n, int depth)
{
    double least, most;
    weight_range(b, n, 0, &least, &most);
    if (least > 0.0 && !(depth < UNEVEN_DEPTH && least < UNEVEN * most))
        return least;
    if (depth >= 24)
        return 0.0;
    double half[2][n + 1];
    bxp_bern_restrict(b, n, 0.0, 0.5, half[0]);
    bxp_bern_restrict(b, n, 0.5, 1.0, half[1]);
    double l0 = w_lower_bound(half[0], n, depth + 1), l1 = w_lower_bound(half[1], n, depth + 1);
    double l = l0 < l1 ? l0 : l1;
    /* uneven but positive: the least of the halves, or this piece's if
       rounding made that larger */
    return least > l ? least : l;
}

/* A bound of entry (r, c)'s magnitude on the interval: the largest of
   entry_magnitude's Bernstein coefficients. */
static double entry_bound(const bx_moving *m, int r, int c)
{
    double e[BXM_CAP], most = 0.0;
    entry_magnitude(m, r, c, e);
    for (int i = 0; i <= m->d; i++)
        most = fmax(most, e[i] / bxp_binomial_table[m->d][i]);
    return most;
}

/*
 * How far the swept bounds of m (lo, hi), computed in doubles, can lie
 * inside the exact ones, per axis.  Every control point comes from the
 * motion's coefficients by a shift to the interval and a change of basis,
 * each within a few ulps of the magnitudes it is made of (entry_bound of
 * each entry, E_rc), and a corner's coordinate x = P / w moves by at most
 * (dP + |x| dw) / w, w taken from below.  The halvings of rational_range
 * add their own roundings: a factor of 4 (d + 26) DBL_EPSILON covers both,
 * and 8 DBL_EPSILON |x| the final division.  A margin past the range of
 * doubles is infinite: the bounds then say nothing, but stay true.
 */
static void swept_margin(const bx_moving *m, const boxtoi_box *box, const double lo[3],
                         const double hi[3], double margin[3])
{
    int d = m->d;
    double b[BXM_CAP] = {0.0}; /* 0..d set below; GCC -flto cannot tell d >= 0 */
    for (int i = 0; i <= d; i++)
        b[i] = m->w[i] / bxp_binomial_table[d][i];
    double wlow = w_lower_bound(b, d, 0), ew = entry_bound(m, 3, 3);
    for (int r = 0; r < 3; r++) {
        double x = fmax(fabs(lo[r]), fabs(hi[r]));
        double e = entry_bound(m, r, 3) + x * ew;
        for (int c = 0; c < 3; c++)
            e += fmax(fabs(box->lo[c]), fabs(box->hi[c])) * entry_bound(m, r, c);
        margin[r] = 4.0 * (d + 26) * DBL_EPSILON * e / wlow + 8.0 * DBL_EPSILON * x;
        if (!(margin[r] < INFINITY))
            margin[r] = INFINITY;
    }
}

int bx_tiny_exponent(double big, double reach)
{
    int e;
    frexp(big, &e);
    if (reach > 0.0 && reach < INFINITY) {
        int r = ilogb(reach) - 100;
        if (r > e)
            e = r < e + 300 ? r : e + 300;
    }
    return e;
}

/* boxtoi_swept_aabb of a box whose lengths are all tiny (bx_tiny_length
   gave big): of the box and motion with them scaled near 1 by a power of
   two (bx_tiny_exponent), its bounds scaled back. */
static BX_NOINLINE boxtoi_reason swept_tiny(const boxtoi_box *box,
                                            const boxtoi_motion *motion, double t0,
                                            double t1, double big, double reach,
                                            double lo[3], double hi[3])
{
    int e = bx_tiny_exponent(big, reach);
    boxtoi_box b = *box;
    boxtoi_motion m = *motion;
    bx_scale_lengths(&b, &m, -e);
    boxtoi_reason why = boxtoi_swept_aabb(&b, &m, t0, t1, lo, hi);
    if (!why)
        for (int i = 0; i < 3; i++) {
            lo[i] = ldexp(lo[i], e);
            hi[i] = ldexp(hi[i], e);
        }
    return why;
}

/* The swept bounds of the prepared m (of box), widened by their rounding
   margin; m's motion (m->src) is read. */
static boxtoi_reason swept_bounds(const bx_moving *m, const boxtoi_box *box, double lo[3],
                                  double hi[3])
{
    double l[3], h[3], margin[3];
    if (!bx_swept_aabb(m, l, h))
        return BOXTOI_REASON_OUT_OF_RANGE;
    swept_margin(m, box, l, h, margin);
    for (int i = 0; i < 3; i++) {
        lo[i] = l[i] - margin[i];
        hi[i] = h[i] + margin[i];
    }
    return BOXTOI_REASON_NONE;
}

/* boxtoi_swept_aabb (and boxtoi_validate's reason) of a box and motion
   refused as singular, taken again with the frame rescaled where the 3x3
   part is tiny (bx_balance_frame), as the solver and boxtoi_overlap_at
   solve them: the same world box. */
static BX_NOINLINE boxtoi_reason swept_local(const boxtoi_box *box,
                                             const boxtoi_motion *motion, double t0,
                                             double t1, double lo[3], double hi[3])
{
    boxtoi_box b = *box;
    boxtoi_motion mm = *motion, copy;
    bx_moving m;
    if (!bx_balance_frame(&b, &mm, t0, t1))
        return BOXTOI_REASON_SINGULAR;
    boxtoi_reason why = prepare_rescaling(&b, &mm, t0, t1, &copy, &m);
    return why ? why : swept_bounds(&m, &b, lo, hi);
}

BX_NOINLINE boxtoi_reason bx_reach(const boxtoi_box *box, const boxtoi_motion *m, double t0,
                                   double t1, double *reach)
{
    double lo[3], hi[3];
    bx_moving mv;
    boxtoi_motion copy;
    /* boxtoi_swept_aabb's bounds without the scaling of tiny lengths, and
       boxtoi_validate's reason: the same tests in the same order */
    boxtoi_reason why = prepare_rescaling(box, m, t0, t1, &copy, &mv);
    if (why == BOXTOI_REASON_SINGULAR)
        why = swept_local(box, m, t0, t1, lo, hi);
    else if (!why)
        why = swept_bounds(&mv, box, lo, hi);
    *reach = 0.0;
    if (!why)
        for (int i = 0; i < 3; i++)
            *reach = fmax(*reach, fmax(fabs(lo[i]), fabs(hi[i])));
    return why;
}

BOXTOI_API boxtoi_reason boxtoi_swept_aabb(const boxtoi_box *box,
                                           const boxtoi_motion *motion,
                                           double t0, double t1,
                                           double lo[3], double hi[3])
{
    bx_moving m;
    boxtoi_motion copy;
    boxtoi_reason why = bx_check_interval(t0, t1);
    if (why)
        return why;
    if (!lo || !hi)
        return BOXTOI_REASON_NULL;
    /* the lengths scaled near 1 can take a 3x3 part that boxtoi_validate
       refuses (world lengths below the doubles) back into range: refused
       as there (bx_reach gives its reason).  Where no power of two brings
       both the lengths and the world coordinates into range (tiny corners
       under a huge 3x3 part), the bounds are those of the box as given,
       which boxtoi_validate accepted: they hold, and their margin, a part
       of the coordinates, dwarfs the rounding of the tiny lengths. */
    double tiny = bx_tiny_length(box, motion), reach;
    if (tiny > 0.0) {
        if ((why = bx_reach(box, motion, t0, t1, &reach)))
            return why;
        if (!swept_tiny(box, motion, t0, t1, tiny, reach, lo, hi))
            return BOXTOI_REASON_NONE;
    }
    why = prepare_rescaling(box, motion, t0, t1, &copy, &m);
    if (why == BOXTOI_REASON_SINGULAR)
        return swept_local(box, motion, t0, t1, lo, hi);
    return why ? why : swept_bounds(&m, box, lo, hi);
}

BOXTOI_API void boxtoi_motion_eval(const boxtoi_motion *motion, double t,
                                   double m[4][4])
{
    if (!m)
        return;
    /* a degree out of range (or no motion) has no coefficients to read:
       NaN entries */
    int bad = !motion || motion->degree < 0 || motion->degree > BOXTOI_MAX_DEGREE;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            double v = bad ? NAN : 0.0;
            for (int k = bad ? -1 : motion->degree; k >= 0; k--)
                v = v * t + motion->c[k][r][c];
            m[r][c] = v;
        }
}

BOXTOI_API void boxtoi_motion_apply(const boxtoi_motion *motion, double t,
                                    const double p[3], double out[3])
{
    if (!out)
        return;
    double m[4][4];
    boxtoi_motion_eval(motion, t, m);
    for (int r = 0; r < 3; r++)
        out[r] = p ? (m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3]) / m[3][3]
                   : NAN;
}

BOXTOI_API void boxtoi_motion_constant(boxtoi_motion *motion,
                                       const double m[4][4])
{
    if (!motion)
        return;
    memset(motion, 0, sizeof *motion);
    if (m)
        memcpy(motion->c[0], m, sizeof motion->c[0]);
    else
        motion->degree = -1; /* refused by every function that takes it */
}

BOXTOI_API void boxtoi_motion_identity(boxtoi_motion *motion)
{
    if (!motion)
        return;
    memset(motion, 0, sizeof *motion);
    for (int i = 0; i < 4; i++)
        motion->c[0][i][i] = 1.0;
}

/* Power-series product of two scalar polynomials, out += k a b; the
   coefficients of out lie `os` doubles apart, those of b `bs`. */
BXP_INLINE void series_mul_add(double *out, int os, double k, const double *a, int n,
                               const double *b, int m, int bs)
{
#pragma GCC unroll 9
    for (int i = 0; i <= n; i++)
#pragma GCC unroll 9
        for (int j = 0; j <= m; j++)
            out[(i + j) * os] += k * a[i] * b[j * bs];
}

/*
 * The coefficients e[k][row][col] of the rigid motion of quaternion
 * components c (w x y z, as series of degree n) and position p (degree
 * pdeg, none when negative), e zero up to the motion's degree on entry.
 * Inlined with n and pdeg constant for the degrees met most, so that the
 * small loops unroll: the same operations in the same order as the
 * general instance.
 */
BXP_INLINE void rigid_entries(double e[BXM_CAP][4][4], const double c[4][BXM_CAP],
                              int n, const double p[][3], int pdeg)
{
    const double *W = c[0], *X = c[1], *Y = c[2], *Z = c[3];
    /* an entry's series: its coefficients lie a 4x4 matrix apart */
#define ENTRY(r, col) (&e[0][r][col])
#define SMA(r, col, k, a, b) series_mul_add(ENTRY(r, col), 16, k, a, n, b, n, 1)
    /* Unnormalised rotation matrix of q (entries quadratic in q). */
    SMA(0, 0, 1, W, W); SMA(0, 0, 1, X, X); SMA(0, 0, -1, Y, Y); SMA(0, 0, -1, Z, Z);
    SMA(1, 1, 1, W, W); SMA(1, 1, -1, X, X); SMA(1, 1, 1, Y, Y); SMA(1, 1, -1, Z, Z);
    SMA(2, 2, 1, W, W); SMA(2, 2, -1, X, X); SMA(2, 2, -1, Y, Y); SMA(2, 2, 1, Z, Z);
    SMA(0, 1, 2, X, Y); SMA(0, 1, -2, W, Z);
    SMA(1, 0, 2, X, Y); SMA(1, 0, 2, W, Z);
    SMA(0, 2, 2, X, Z); SMA(0, 2, 2, W, Y);
    SMA(2, 0, 2, X, Z); SMA(2, 0, -2, W, Y);
    SMA(1, 2, 2, Y, Z); SMA(1, 2, -2, W, X);
    SMA(2, 1, 2, Y, Z); SMA(2, 1, 2, W, X);
    for (int j = 0; j < 4; j++)
        SMA(3, 3, 1, c[j], c[j]);
#undef SMA
    /* Translation column p(t) |q(t)|^2. */
    for (int r = 0; r < 3 && pdeg >= 0; r++) {
        double pr[BXM_CAP];
        for (int k = 0; k <= pdeg; k++)
            pr[k] = p[k][r];
        series_mul_add(ENTRY(r, 3), 16, 1, pr, pdeg, ENTRY(3, 3), 2 * n, 16);
    }
#undef ENTRY
}

static void rigid_entries_any(double e[BXM_CAP][4][4], const double c[4][BXM_CAP],
                              int n, const double p[][3], int pdeg)
{
    rigid_entries(e, c, n, p, pdeg);
}

BOXTOI_API boxtoi_reason boxtoi_motion_rigid(boxtoi_motion *motion,
                                             const double q[][4], int qdeg,
                                             const double p[][3], int pdeg)
{
    if (!motion || !q || (pdeg >= 0 && !p))
        return BOXTOI_REASON_NULL;
    /* each degree alone first: their sum could overflow */
    if (qdeg < 0 || qdeg > BOXTOI_MAX_DEGREE / 2 || pdeg > BOXTOI_MAX_DEGREE
        || 2 * qdeg + (pdeg > 0 ? pdeg : 0) > BOXTOI_MAX_DEGREE)
        return BOXTOI_REASON_DEGREE;
    double c[4][BXM_CAP]; /* quaternion components w x y z as series */
    for (int j = 0; j < 4; j++)
        for (int k = 0; k <= qdeg; k++)
            c[j][k] = q[k][j];
    int n = qdeg, deg = 2 * n + (pdeg > 0 ? pdeg : 0);
    double e[BXM_CAP][4][4]; /* the motion's coefficients up to degree deg */
    memset(e, 0, (size_t)(deg + 1) * sizeof e[0]);
#define RIGID_CASE(N, P) \
    case 3 * (N) + (P): \
        rigid_entries(e, (const double(*)[BXM_CAP])c, N, p, P); \
        break
    switch (n <= 2 && pdeg >= 0 && pdeg <= 2 ? 3 * n + pdeg : -1) {
    RIGID_CASE(0, 0); RIGID_CASE(0, 1); RIGID_CASE(0, 2);
    RIGID_CASE(1, 0); RIGID_CASE(1, 1); RIGID_CASE(1, 2);
    RIGID_CASE(2, 0); RIGID_CASE(2, 1); RIGID_CASE(2, 2);
    default:
        rigid_entries_any(e, (const double(*)[BXM_CAP])c, n, p, pdeg);
    }
#undef RIGID_CASE
    /* q and p are read: the motion may now be written, even over them */
    motion->degree = deg;
    memcpy(motion->c, e, (size_t)(deg + 1) * sizeof e[0]);
    if (deg < BOXTOI_MAX_DEGREE)
        memset(motion->c[deg + 1], 0, (size_t)(BOXTOI_MAX_DEGREE - deg) * sizeof e[0]);
    return BOXTOI_REASON_NONE;
}

BOXTOI_API boxtoi_reason boxtoi_motion_multiply(boxtoi_motion *out,
                                                const boxtoi_motion *a,
                                                const boxtoi_motion *b)
{
    if (!out || !a || !b)
        return BOXTOI_REASON_NULL;
    if (a->degree < 0 || b->degree < 0 || a->degree > BOXTOI_MAX_DEGREE
        || b->degree > BOXTOI_MAX_DEGREE || a->degree + b->degree > BOXTOI_MAX_DEGREE)
        return BOXTOI_REASON_DEGREE;
    boxtoi_motion r;
    memset(&r, 0, sizeof r);
    r.degree = a->degree + b->degree;
    for (int i = 0; i <= a->degree; i++)
        for (int j = 0; j <= b->degree; j++)
            for (int row = 0; row < 4; row++)
                for (int col = 0; col < 4; col++) {
                    double v = 0.0;
                    for (int k = 0; k < 4; k++)
                        v += a->c[i][row][k] * b->c[j][k][col];
                    r.c[i + j][row][col] += v;
                }
    *out = r;
    return BOXTOI_REASON_NONE;
}
