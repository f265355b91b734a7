/*
 * Univariate polynomials: power and Bernstein forms on [0, 1], products,
 * first crossing and root isolation by Bernstein subdivision.  See poly.h.
 */
#include "poly.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define CAP (BXP_MAX_DEGREE + 1)


double bxp_binomial(int n, int k)
{
    return bxp_binomial_table[n][k];
}

/* p(x) = c[0] + x (c[1] + x (...)). */
double bxp_power_eval(const double *c, int n, double x)
{
    double v = c[n];
    for (int i = n - 1; i >= 0; i--)
        v = v * x + c[i];
    return v;
}

/* The Taylor shift by t0 of c + c_lo (c_lo NULL: 0) into hi + lo. */
static void shift_dd(const double *c, const double *c_lo, int n, double t0, double *hi,
                     double *lo)
{
    for (int i = 0; i <= n; i++) {
        hi[i] = c[i];
        lo[i] = c_lo ? c_lo[i] : 0.0;
    }
    if (t0 != 0.0)
        for (int i = 0; i < n; i++)
            for (int j = n - 1; j >= i; j--)
                bxp_dd_mul_add(&hi[j], &lo[j], t0, hi[j + 1], lo[j + 1]);
}

/*
 * Taylor shift by t0 (repeated synthetic division) in double-double, so
 * that the cancellation of a far-off t0 does not eat the coefficients; then
 * scale s^i by h^i.
 */
void bxp_power_reparam(const double *c, int n, double t0, double t1,
                       double *out)
{
    double h = t1 - t0, hp = 1.0, hi[CAP], lo[CAP];
    shift_dd(c, NULL, n, t0, hi, lo);
    for (int i = 0; i <= n; i++) {
        out[i] = (hi[i] + lo[i]) * hp;
        hp *= h;
    }
}

/*
 * bxp_power_reparam of c + c_lo (c_lo NULL: zeros), then
 * bxp_power_to_sbern, with the shift, the scaling by h^i and the sums kept
 * in double-double and rounded once: the shifted coefficients can be far
 * larger than the Bernstein ones they sum to (degree 8 over [-1.3, 0.34]:
 * 4e6 against 6e4), and rounded first they would leave their own rounding
 * in them.  out may alias c.
 */
void bxp_power_reparam_sbern_dd(const double *c, const double *c_lo, int n, double t0,
                                double t1, double *out)
{
    double h = t1 - t0, ph = 1.0, pl = 0.0, hi[CAP], lo[CAP];
    shift_dd(c, c_lo, n, t0, hi, lo);
    for (int i = 0; i <= n; i++) {
        double sh = 0.0, sl = 0.0, nh = 0.0, nl = 0.0;
        bxp_dd_mul_add(&sh, &sl, ph, hi[i], lo[i]);
        bxp_dd_mul_add(&sh, &sl, pl, hi[i], 0.0);
        hi[i] = sh;
        lo[i] = sl;
        bxp_dd_mul_add(&nh, &nl, h, ph, pl);
        ph = nh;
        pl = nl;
    }
    for (int j = n; j >= 0; j--) {
        double ah = 0.0, al = 0.0;
        for (int i = 0; i <= j; i++)
            bxp_dd_mul_add(&ah, &al, bxp_binomial_table[n - i][j - i], hi[i], lo[i]);
        out[j] = ah + al;
    }
}

/*
 * s^i = s^i (s + (1-s))^(n-i): a_j = sum_{i<=j} c_i C(n-i, j-i).  Descending
 * j reads only c_0..c_j, so out may alias c.
 */
void bxp_power_to_sbern(const double *c, int n, double *out)
{
    /* Low degrees spelled out (same sums, same order). */
    if (n == 1) {
        double c0 = c[0];
        out[1] = c0 + c[1];
        out[0] = c0;
        return;
    }
    if (n == 2) {
        double c0 = c[0], c1 = c[1];
        out[2] = c0 + c1 + c[2];
        out[1] = c0 * 2.0 + c1;
        out[0] = c0;
        return;
    }
    if (n == 3) {
        double c0 = c[0], c1 = c[1], c2 = c[2];
        out[3] = c0 + c1 + c2 + c[3];
        out[2] = c0 * 3.0 + c1 * 2.0 + c2;
        out[1] = c0 * 3.0 + c1;
        out[0] = c0;
        return;
    }
    if (n == 4) {
        double c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
        out[4] = c0 + c1 + c2 + c3 + c[4];
        out[3] = c0 * 4.0 + c1 * 3.0 + c2 * 2.0 + c3;
        out[2] = c0 * 6.0 + c1 * 3.0 + c2;
        out[1] = c0 * 4.0 + c1;
        out[0] = c0;
        return;
    }
    for (int j = n; j >= 0; j--) {
        double a = 0.0;
        for (int i = 0; i <= j; i++)
            a += c[i] * bxp_binomial_table[n - i][j - i];
        out[j] = a;
    }
}

/*
 * Dividing by 1 changes nothing and dividing by a power of two is the same
 * as multiplying by its reciprocal: low degrees spelled out, and the ends
 * (C(n, 0) = C(n, n) = 1) copied, leave only the other divisions.
 */
void bxp_sbern_to_bern(const double *sb, int n, double *out)
{
    switch (n) {
    case 0:
        out[0] = sb[0];
        return;
    case 1:
        out[0] = sb[0];
        out[1] = sb[1];
        return;
    case 2:
        out[0] = sb[0];
        out[1] = sb[1] * 0.5;
        out[2] = sb[2];
        return;
    case 4:
        out[0] = sb[0];
        out[1] = sb[1] * 0.25;
        out[2] = sb[2] / 6.0;
        out[3] = sb[3] * 0.25;
        out[4] = sb[4];
        return;
    case 6:
        out[0] = sb[0];
        out[1] = sb[1] / 6.0;
        out[2] = sb[2] / 15.0;
        out[3] = sb[3] / 20.0;
        out[4] = sb[4] / 15.0;
        out[5] = sb[5] / 6.0;
        out[6] = sb[6];
        return;
    case 8:
        out[0] = sb[0];
        out[1] = sb[1] * 0.125;
        out[2] = sb[2] / 28.0;
        out[3] = sb[3] / 56.0;
        out[4] = sb[4] / 70.0;
        out[5] = sb[5] / 56.0;
        out[6] = sb[6] / 28.0;
        out[7] = sb[7] * 0.125;
        out[8] = sb[8];
        return;
    default:
        out[0] = sb[0];
        for (int i = 1; i < n; i++)
            out[i] = sb[i] / bxp_binomial_table[n][i];
        out[n] = sb[n];
    }
}

BXP_INLINE void
sbern_mul_impl(const double *a, int n, const double *b, int m, double *out)
{
    DEGREE_IN_RANGE(n);
    DEGREE_IN_RANGE(m);
    DEGREE_IN_RANGE(n + m);
    for (int k = 0; k <= n + m; k++)
        out[k] = 0.0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= m; j++)
            out[i + j] += a[i] * b[j];
}

void bxp_sbern_mul(const double *a, int n, const double *b, int m, double *out)
{
    if (n == 2 && m == 2)
        sbern_mul_impl(a, 2, b, 2, out);
    else if (n == 2 && m == 0)
        sbern_mul_impl(a, 2, b, 0, out);
    else if (n == 0 && m == 2)
        sbern_mul_impl(a, 0, b, 2, out);
    else
        sbern_mul_impl(a, n, b, m, out);
}

BXP_INLINE void
sbern_muladd_impl(double *out, double k, const double *a, int n,
                  const double *b, int m)
{
    DEGREE_IN_RANGE(n);
    DEGREE_IN_RANGE(m);
    for (int i = 0; i <= n; i++) {
        double ka = k * a[i], *restrict o = out + i;
        for (int j = 0; j <= m; j++)
            o[j] += ka * b[j];
    }
}

void bxp_sbern_muladd(double *out, double k, const double *a, int n,
                      const double *b, int m)
{
    if (n == 4 && m == 4)
        sbern_muladd_impl(out, k, a, 4, b, 4);
    else if (n == 2 && m == 2)
        sbern_muladd_impl(out, k, a, 2, b, 2);
    else if (n == 4 && m == 2)
        sbern_muladd_impl(out, k, a, 4, b, 2);
    else if (n == 2 && m == 4)
        sbern_muladd_impl(out, k, a, 2, b, 4);
    else
        sbern_muladd_impl(out, k, a, n, b, m);
}

/* e passes of multiplying by s + (1 - s): out_k = a_k + a_(k-1). */
void bxp_sbern_elevate(const double *a, int n, int e, double *out)
{
    if (out != a)
        memmove(out, a, (size_t)(n + 1) * sizeof *out);
    for (int p = 0; p < e; p++, n++) {
        out[n + 1] = out[n];
        for (int k = n; k > 0; k--)
            out[k] += out[k - 1];
    }
}

/*
 * sum a_i s^i (1-s)^(n-i) = (1-s)^n sum a_i r^i with r = s / (1-s) when
 * |s| <= |1-s|, else s^n sum a_i u^(n-i) with u = (1-s) / s.
 */
double bxp_sbern_eval(const double *sb, int n, double s)
{
    double v, f = 1.0;
    if (fabs(s) <= fabs(1.0 - s)) {
        double r = s / (1.0 - s), one = 1.0 - s;
        v = sb[n];
        for (int i = n - 1; i >= 0; i--) {
            v = v * r + sb[i];
            f *= one;
        }
        return v * f;
    }
    double u = (1.0 - s) / s;
    v = sb[0];
    for (int i = 1; i <= n; i++) {
        v = v * u + sb[i];
        f *= s;
    }
    return v * f;
}

/* Same Horner scheme with the binomials folded in. */
BXP_INLINE double
bern_eval_impl(const double *b, int n, double s)
{
    DEGREE_IN_RANGE(n);
    const double *C = bxp_binomial_table[n];
    double v;
    if (s <= 0.5) {
        double r = s / (1.0 - s), f = 1.0 - s, fn = 1.0;
        v = b[n] * C[n];
        for (int i = n - 1; i >= 0; i--)
            v = v * r + b[i] * C[i];
        for (int i = 0; i < n; i++)
            fn *= f;
        return v * fn;
    }
    double u = (1.0 - s) / s, sn = 1.0;
    v = b[0] * C[0];
    for (int i = 1; i <= n; i++)
        v = v * u + b[i] * C[i];
    for (int i = 0; i < n; i++)
        sn *= s;
    return v * sn;
}

double bxp_bern_eval(const double *b, int n, double s)
{
    switch (n) {
    case 4:
        return bern_eval_impl(b, 4, s);
    case 6:
        return bern_eval_impl(b, 6, s);
    case 8:
        return bern_eval_impl(b, 8, s);
    default:
        return bern_eval_impl(b, n, s);
    }
}

/* de Casteljau split at t: left on [0, t], right on [t, 1]. */
BXP_INLINE void
bern_split_impl(const double *b, int n, double t, double *left, double *right)
{
    DEGREE_IN_RANGE(n);
    double w[CAP];
    memcpy(w, b, (size_t)(n + 1) * sizeof *w);
    left[0] = b[0];
    right[n] = b[n];
    for (int r = 1; r <= n; r++) {
        for (int i = 0; i <= n - r; i++)
            w[i] += t * (w[i + 1] - w[i]);
        left[r] = w[0];
        right[n - r] = w[n - r];
    }
}

static void bern_split(const double *b, int n, double t, double *left,
                       double *right)
{
    switch (n) {
    case 4:
        bern_split_impl(b, 4, t, left, right);
        return;
    case 6:
        bern_split_impl(b, 6, t, left, right);
        return;
    case 8:
        bern_split_impl(b, 8, t, left, right);
        return;
    default:
        bern_split_impl(b, n, t, left, right);
    }
}

/* bern_split of two polynomials at 0.5 at once, side by side (same results). */
BXP_INLINE void
bern_split2_impl(const double *b1, const double *b2, int n, double *left1,
                 double *right1, double *left2, double *right2)
{
    DEGREE_IN_RANGE(n);
    double w[CAP][2];
    for (int i = 0; i <= n; i++) {
        w[i][0] = b1[i];
        w[i][1] = b2[i];
    }
    left1[0] = b1[0];
    left2[0] = b2[0];
    right1[n] = b1[n];
    right2[n] = b2[n];
    for (int r = 1; r <= n; r++) {
        for (int i = 0; i <= n - r; i++) {
            w[i][0] += 0.5 * (w[i + 1][0] - w[i][0]);
            w[i][1] += 0.5 * (w[i + 1][1] - w[i][1]);
        }
        left1[r] = w[0][0];
        left2[r] = w[0][1];
        right1[n - r] = w[n - r][0];
        right2[n - r] = w[n - r][1];
    }
}

static void bern_split2(const double *b1, const double *b2, int n,
                        double *left1, double *right1, double *left2,
                        double *right2)
{
    switch (n) {
    case 4:
        bern_split2_impl(b1, b2, 4, left1, right1, left2, right2);
        return;
    case 6:
        bern_split2_impl(b1, b2, 6, left1, right1, left2, right2);
        return;
    case 8:
        bern_split2_impl(b1, b2, 8, left1, right1, left2, right2);
        return;
    default:
        bern_split2_impl(b1, b2, n, left1, right1, left2, right2);
    }
}

/*
 * In place: the left part [0, c] keeps b_0^(r) (level r of de Casteljau at
 * c) in slot r; then the right part [a / c, 1] of that keeps b_j^(n-j) in
 * slot j.
 */
BXP_INLINE void
restrict_impl(const double *b, int n, double a, double c, double *out)
{
    DEGREE_IN_RANGE(n);
    double w[CAP];
    for (int i = 0; i <= n; i++)
        w[i] = b[i];
    if (c < 1.0)
        for (int r = 1; r <= n; r++)
            for (int j = n; j >= r; j--)
                w[j] = w[j - 1] + c * (w[j] - w[j - 1]);
    if (a > 0.0 && c > 0.0) {
        double t = a / c;
        for (int r = 1; r <= n; r++)
            for (int j = 0; j <= n - r; j++)
                w[j] += t * (w[j + 1] - w[j]);
    }
    for (int i = 0; i <= n; i++)
        out[i] = w[i];
}

void bxp_bern_restrict(const double *b, int n, double a, double c, double *out)
{
    switch (n) {
    case 4:
        restrict_impl(b, 4, a, c, out);
        return;
    case 6:
        restrict_impl(b, 6, a, c, out);
        return;
    case 8:
        restrict_impl(b, 8, a, c, out);
        return;
    default:
        restrict_impl(b, n, a, c, out);
    }
}

BXP_INLINE void
restrict2_impl(const double *b1, const double *b2, int n, double a, double c,
               double *out1, double *out2)
{
    DEGREE_IN_RANGE(n);
    double w[CAP][2];
    for (int i = 0; i <= n; i++) {
        w[i][0] = b1[i];
        w[i][1] = b2[i];
    }
    if (c < 1.0)
        for (int r = 1; r <= n; r++)
            for (int j = n; j >= r; j--) {
                w[j][0] = w[j - 1][0] + c * (w[j][0] - w[j - 1][0]);
                w[j][1] = w[j - 1][1] + c * (w[j][1] - w[j - 1][1]);
            }
    if (a > 0.0 && c > 0.0) {
        double t = a / c;
        for (int r = 1; r <= n; r++)
            for (int j = 0; j <= n - r; j++) {
                w[j][0] += t * (w[j + 1][0] - w[j][0]);
                w[j][1] += t * (w[j + 1][1] - w[j][1]);
            }
    }
    for (int i = 0; i <= n; i++) {
        out1[i] = w[i][0];
        out2[i] = w[i][1];
    }
}

/* The two polynomials side by side, so that each step works on a pair. */
void bxp_bern_restrict2(const double *b1, const double *b2, int n, double a,
                        double c, double *out1, double *out2)
{
    switch (n) {
    case 4:
        restrict2_impl(b1, b2, 4, a, c, out1, out2);
        return;
    case 6:
        restrict2_impl(b1, b2, 6, a, c, out1, out2);
        return;
    case 8:
        restrict2_impl(b1, b2, 8, a, c, out1, out2);
        return;
    default:
        restrict2_impl(b1, b2, n, a, c, out1, out2);
    }
}

/* Sub-interval bisection depth limit: 2^-56 of the searched interval. */
#define MAX_DEPTH 56

struct first_search {
    int n;
    int want_positive;
    double noise; /* coefficients this small are zero to rounding */
    const double *orig; /* the polynomial on [0, 1], for polishing */
    const bxp_local_noise *local; /* a tighter level where known, or NULL */
};

/* Is the value on the side the search looks for? */
static int wanted(const struct first_search *fs, double v)
{
    return fs->want_positive ? v > 0.0 : v <= 0.0;
}

/*
 * p(s), p'(s) and p''(s) for p in Bernstein form on [0, 1] (degree n >= 1),
 * s in [0, 1]: the Horner scheme of bxp_bern_eval (same value) with the
 * first two derivatives carried along.  The derivatives use the reciprocal
 * of the scaling variable, so each call divides twice, both at its start.
 */
BXP_INLINE double
bern_eval_d_impl(const double *b, int n, double s, double *dp, double *ddp)
{
    DEGREE_IN_RANGE(n);
    const double *C = bxp_binomial_table[n];
    double v, dv = 0.0, ddv = 0.0, f = 1.0;
    if (s <= 0.5) {
        /* p = t^n V(r), r = s / t, dr/ds = 1 / t^2. */
        double t = 1.0 - s, r = s / t, it = 1.0 / t;
        v = b[n] * C[n];
        for (int i = n - 1; i >= 0; i--) {
            ddv = ddv * r + dv;
            dv = dv * r + v;
            v = v * r + b[i] * C[i];
        }
        for (int i = 0; i < n; i++)
            f *= t;
        /*
         * p' = t^(n-2) (V' - n t V),
         * p'' = t^(n-4) (V'' - 2 (n-1) t V' + n (n-1) t^2 V), V'' = 2 ddv.
         */
        double g = f * it * it;
        *dp = g * (dv - n * t * v);
        *ddp = g * it * it * (2.0 * ddv - 2.0 * (n - 1) * t * dv + n * (n - 1) * t * t * v);
        return v * f;
    }
    /* p = s^n U(u), u = (1 - s) / s, du/ds = -1 / s^2. */
    double u = (1.0 - s) / s, is = 1.0 / s;
    v = b[0] * C[0];
    for (int i = 1; i <= n; i++) {
        ddv = ddv * u + dv;
        dv = dv * u + v;
        v = v * u + b[i] * C[i];
    }
    for (int i = 0; i < n; i++)
        f *= s;
    /*
     * p' = s^(n-2) (n s U - U'),
     * p'' = s^(n-4) (U'' - 2 (n-1) s U' + n (n-1) s^2 U), U'' = 2 ddv.
     */
    double g = f * is * is;
    *dp = g * (n * s * v - dv);
    *ddp = g * is * is * (2.0 * ddv - 2.0 * (n - 1) * s * dv + n * (n - 1) * s * s * v);
    return v * f;
}

static double bern_eval_d(const double *b, int n, double s, double *dp, double *ddp)
{
    switch (n) {
    case 4:
        return bern_eval_d_impl(b, 4, s, dp, ddp);
    case 6:
        return bern_eval_d_impl(b, 6, s, dp, ddp);
    case 8:
        return bern_eval_d_impl(b, 8, s, dp, ddp);
    default:
        return bern_eval_d_impl(b, n, s, dp, ddp);
    }
}

/*
 * Where the single sign change of a Bernstein piece q (degree n, q[0] and
 * q[n] of opposite signs) crosses zero along its control polygon, in [0, 1]:
 * a good first guess of the root.
 */
static double polygon_crossing(const double *q, int n)
{
    for (int i = 0; i < n; i++)
        if ((q[i] > 0.0) != (q[i + 1] > 0.0) && q[i] != q[i + 1])
            return (i + q[i] / (q[i] - q[i + 1])) / n;
    return 0.5;
}

/*
 * Halley's method on p (Bernstein on [0, 1], degree n), safeguarded by the
 * bracket [lo, hi] where p(lo) is unwanted and p(hi) wanted (wanted: p > 0
 * when want_positive, else p <= 0), from the guess x.  Steps that leave the
 * bracket or do not halve the step before last bisect instead.  After a
 * step small enough that the next point is converged, p is evaluated on
 * both sides of it at once, which usually closes the bracket; otherwise,
 * once a step is below the rounding level, a probe just across the root
 * closes it.  Returns a point on the wanted side within a few ulps of the
 * crossing and sets *lo_out to the final unwanted end.
 */
static double newton_polish(const double *b, int n, double lo, double hi,
                            double x, int want_positive, double *lo_out)
{
    double dx_old = hi - lo, dx = dx_old, probe = 0.0;
    int probe_side = -1, pair = 0, was_halley = 0;
    for (int it = 0; it < 200; it++) {
        double mag = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
        double tiny = 2.0 * DBL_EPSILON * mag;
        if (hi - lo <= 2.0 * tiny || hi - lo <= DBL_MIN)
            break;
        if (!(x > lo && x < hi)) {
            x = 0.5 * (lo + hi);
            pair = 0;
        }
        double d, dd, fx;
        if (pair) {
            /*
             * The points one or two ulps either side of x (close enough to
             * end the search when they straddle the root), evaluated
             * together; the lower one only moves an end of the bracket,
             * and the method goes on from the upper one unless the lower
             * one is already wanted.
             */
            double del = DBL_EPSILON * fabs(x) + DBL_MIN;
            double xa = x - del, xb = x + del, da, dda;
            double fa = bern_eval_d(b, n, xa, &da, &dda);
            fx = bern_eval_d(b, n, xb, &d, &dd);
            pair = 0;
            if (xa > lo) {
                if (want_positive ? fa > 0.0 : fa <= 0.0) {
                    x = xa;
                    fx = fa;
                    d = da;
                    dd = dda;
                } else {
                    lo = xa;
                    x = xb;
                }
            } else {
                x = xb;
            }
            if (!(x < hi))
                continue; /* xb beyond the bracket: nothing more to learn */
        } else {
            fx = bern_eval_d(b, n, x, &d, &dd);
        }
        int w = want_positive ? fx > 0.0 : fx <= 0.0;
        if (fx == 0.0 && !want_positive) {
            lo = hi = x;
            break;
        }
        if (w)
            hi = x;
        else
            lo = x;
        /*
         * Halley's step 2 p p' / (2 p'^2 - p p''), Newton's where the
         * curvature term would more than halve the denominator.
         */
        double den = 2.0 * d * d, corr = fx * dd;
        int halley = d != 0.0 && fabs(corr) <= 0.5 * den;
        double step = d == 0.0 ? 0.0 : halley ? 2.0 * fx * d / (den - corr) : fx / d;
        if (!(den <= DBL_MAX) && isfinite(d)) {
            /* d^2 overflows (coefficients near 1e154 and above): the same
               step from the ratios, fx / d (1 - fx dd / (2 d^2)) */
            double newton = fx / d, k = 0.5 * newton * (dd / d);
            halley = fabs(k) <= 0.5;
            step = halley ? newton / (1.0 - k) : newton;
        }
        double xn = x - step;
        dx_old = dx;
        dx = step;
        if (d != 0.0 && fabs(step) <= tiny) {
            /*
             * Converged: probe across, toward the end that has not moved.
             * Rounding can keep the computed p on one side over a band of
             * many ulps around the root, so a probe that lands on the same
             * side as the last one goes twice as far.
             */
            double least = 2.0 * DBL_EPSILON * fabs(x) + DBL_MIN;
            probe = probe_side == w ? 2.0 * probe : 2.0 * fabs(step);
            probe = probe > least ? probe : least;
            probe_side = w;
            xn = w ? x - probe : x + probe;
        } else {
            probe_side = -1;
            if (d == 0.0 || !(xn > lo && xn < hi) || fabs(2.0 * step) > fabs(dx_old)) {
                xn = 0.5 * (lo + hi);
                dx = hi - lo;
                halley = 0; /* the next step has no last step to go by */
            } else if (halley) {
                /*
                 * Cubic convergence: the error after this step is about
                 * K step^3, K estimated from the last two steps when both
                 * were Halley's.
                 */
                double a = fabs(step), p = fabs(dx_old);
                pair = a <= 1e-7 * mag || (was_halley && a * a * a * a <= 0.25 * tiny * p * p * p);
            }
            was_halley = halley;
        }
        x = xn;
    }
    *lo_out = lo;
    return hi;
}

/* First wanted point of the piece q (Bernstein on [lo, hi]). */
static int first_rec(const struct first_search *fs, const double *q, double lo,
                     double hi, int depth, double *s)
{
    int n = fs->n, any = 0, changes = 0;
    if (wanted(fs, q[0])) {
        *s = lo;
        return 1;
    }
    for (int i = 0; i <= n; i++) {
        int w = wanted(fs, q[i]);
        any |= w;
        if (i > 0 && w != wanted(fs, q[i - 1]))
            changes++;
    }
    /*
     * A piece that is zero to rounding counts as reaching "p <= 0" (a
     * tangential touch) but never as "p > 0".
     */
    double mq = bxp_max_abs(q, n);
    if (mq <= fs->noise && (!fs->local || mq <= fs->local->at(fs->local->ctx, lo, hi))) {
        if (fs->want_positive)
            return 0;
        *s = lo;
        return 1;
    }
    if (!any)
        return 0; /* stays on the unwanted side */
    if (changes == 1) {
        /* p(lo) from the original polynomial (the piece carries rounding). */
        double lo_end;
        if (wanted(fs, bxp_bern_eval(fs->orig, n, lo))) {
            *s = lo;
            return 1;
        }
        *s = newton_polish(fs->orig, n, lo, hi,
                           lo + polygon_crossing(q, n) * (hi - lo),
                           fs->want_positive, &lo_end);
        return 1;
    }
    if (depth >= MAX_DEPTH) {
        *s = lo;
        return 1;
    }
    double left[n + 1], right[n + 1], mid = 0.5 * (lo + hi);
    bern_split(q, n, 0.5, left, right);
    left[n] = right[0] = bxp_bern_eval(fs->orig, n, mid);
    if (first_rec(fs, left, lo, mid, depth + 1, s))
        return 1;
    return first_rec(fs, right, mid, hi, depth + 1, s);
}

int bxp_bern_first_local(const double *b, int n, double a, double c,
                         int want_positive, double noise,
                         const bxp_local_noise *local, double *s)
{
    struct first_search fs = {n, want_positive, noise, b, local};
    double q[CAP];
    if (!(a <= c))
        return 0;
    bxp_bern_restrict(b, n, a, c, q);
    return first_rec(&fs, q, a, c, 0, s);
}

int bxp_bern_first_tol(const double *b, int n, double a, double c,
                       int want_positive, double noise, double *s)
{
    return bxp_bern_first_local(b, n, a, c, want_positive, noise, NULL, s);
}

int bxp_bern_first(const double *b, int n, double a, double c,
                   int want_positive, double *s)
{
    double noise = 64.0 * DBL_EPSILON * bxp_max_abs(b, n);
    return bxp_bern_first_tol(b, n, a, c, want_positive, noise, s);
}

/*
 * Root isolation.  Each piece carries, beside its coefficients q, the
 * coefficients aq of the same restriction applied to |b|: they bound the
 * rounding error of q locally (de Casteljau has non-negative weights), so a
 * piece counts as "zero to rounding" only when |q| is within a few ulps of
 * aq, however small the polynomial is there.
 */
struct root_search {
    double *roots;
    int max, count;
    double cluster_lo, cluster_hi; /* pending run of "zero to rounding" leaves */
    int have_cluster;
    int budget;                    /* pieces left to examine */
};

/* Append a root (ignored unless after the last one); counts past max. */
static void push_root(struct root_search *rs, double r)
{
    if (rs->count > 0 && r <= rs->roots[rs->count - 1])
        return;
    if (rs->count < rs->max)
        rs->roots[rs->count] = r;
    rs->count++;
}

/* Report the pending run of zero-to-rounding pieces as one root, its middle. */
static void flush_cluster(struct root_search *rs)
{
    if (rs->have_cluster) {
        push_root(rs, 0.5 * (rs->cluster_lo + rs->cluster_hi));
        rs->have_cluster = 0;
    }
}

/* A zero-to-rounding piece [lo, hi]: extend the pending run or start one. */
static void add_leaf(struct root_search *rs, double lo, double hi)
{
    if (rs->have_cluster && lo <= rs->cluster_hi) {
        rs->cluster_hi = hi;
        return;
    }
    flush_cluster(rs);
    rs->cluster_lo = lo;
    rs->cluster_hi = hi;
    rs->have_cluster = 1;
}

/* -1, 0 or 1. */
static int sign_of(double v)
{
    return (v > 0.0) - (v < 0.0);
}

/* The single sign change of q (Bernstein, degree n, q[0] q[n] of opposite
   signs) in local coordinates, polished to a few ulps, mapped to [lo, hi]. */
static double polish_local(const double *q, int n, double lo, double hi)
{
    double a;
    double b = newton_polish(q, n, 0.0, 1.0, polygon_crossing(q, n), q[n] > 0.0, &a);
    double u = 0.5 * (a + b);
    return lo + u * (hi - lo);
}

/*
 * Roots of the piece q (Bernstein on [lo, hi], aq the same restriction of
 * |b| bounding its rounding), in increasing order, by subdivision.
 */
static void roots_rec(struct root_search *rs, const double *q, const double *aq,
                      int n, double lo, double hi, int depth)
{
    int changes = 0, prev = 0, pos = 0, neg = 0, clear = 1;
    double noise = 8.0 * (n + 1) * DBL_EPSILON * bxp_max_abs(aq, n);
    if (--rs->budget < 0 || bxp_max_abs(q, n) <= noise || depth >= MAX_DEPTH) {
        add_leaf(rs, lo, hi); /* zero to rounding (a multiple root) */
        return;
    }
    for (int i = 0; i <= n; i++) {
        int sg = fabs(q[i]) <= noise ? 0 : sign_of(q[i]);
        clear &= sg != 0;
        pos |= sg > 0;
        neg |= sg < 0;
        if (sg != 0) {
            if (prev != 0 && sg != prev)
                changes++;
            prev = sg;
        }
    }
    if (!(pos && neg) && clear)
        return; /* every coefficient clearly of one sign: no root */
    if (changes == 1 && fabs(q[0]) > noise && fabs(q[n]) > noise &&
        sign_of(q[0]) != sign_of(q[n])) {
        flush_cluster(rs);
        push_root(rs, polish_local(q, n, lo, hi));
        return;
    }
    double l[n + 1], r[n + 1], al[n + 1], ar[n + 1], mid = 0.5 * (lo + hi);
    bern_split2(q, aq, n, l, r, al, ar);
    roots_rec(rs, l, al, n, lo, mid, depth + 1);
    roots_rec(rs, r, ar, n, mid, hi, depth + 1);
}

int bxp_bern_roots(const double *b, int n, double a, double c, double *roots,
                   int max)
{
    double q[CAP], aq[CAP], ab[CAP];
    struct root_search rs = {roots, max, 0, 0.0, 0.0, 0, 20000};
    if (bxp_max_abs(b, n) == 0.0)
        return -1;
    if (!(a <= c))
        return 0;
    for (int i = 0; i <= n; i++)
        ab[i] = fabs(b[i]);
    bxp_bern_restrict2(b, ab, n, a, c, q, aq);
    /*
     * Exact zeros at the ends are roots: divide them out (u or 1 - u, with
     * the Bernstein identities), so the rest sees no root there.
     */
    int lo_root = 0, hi_root = 0;
    while (n > 0 && q[0] == 0.0) {
        for (int j = 0; j < n; j++) {
            q[j] = q[j + 1] / (j + 1);
            aq[j] = aq[j + 1] / (j + 1);
        }
        n--;
        lo_root = 1;
    }
    while (n > 0 && q[n] == 0.0) {
        for (int j = 0; j < n; j++) {
            q[j] = q[j] / (n - j);
            aq[j] = aq[j] / (n - j);
        }
        n--;
        hi_root = 1;
    }
    if (lo_root)
        push_root(&rs, a);
    if (n > 0 && c > a)
        roots_rec(&rs, q, aq, n, a, c, 0);
    flush_cluster(&rs);
    if (hi_root && c > a)
        push_root(&rs, c);
    return rs.count < max ? rs.count : max;
}
