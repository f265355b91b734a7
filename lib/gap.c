/*
 * Bounds on the separation functions of two moving boxes over a piece
 * (gap.h has the formulas).
 */
#include "gap.h"
#include "poly.h"

#include <float.h>
#include <math.h>

#define PCAP (BXP_MAX_DEGREE + 1)

/* The larger of a and b (a when either is NaN), without a libm call. */
static inline double max2(double a, double b)
{
    return b > a ? b : a;
}

/*
 * Scaled Bernstein derivative out[0..n-1] of a[0..n] (nothing for n <= 0),
 * and the largest |out|.
 */
BXP_INLINE double
sbern_deriv(const double *a, int n, double *out)
{
    DEGREE_IN_RANGE(n + 1);
    double m = 0.0;
    for (int j = 0; j < n; j++) {
        out[j] = (j + 1) * a[j + 1] - (n - j) * a[j];
        m = max2(m, fabs(out[j]));
    }
    return m;
}

/*
 * Bounds over [0, 1] on |c'| and |c''| for the rational curve c = u / w
 * (three rows of u and w scaled Bernstein of degree n, w >= wmin > 0):
 * c' = N1 / w^2 with N1 = u' w - u w' (degree 2n - 1), and c'' = N2 / w^3
 * with N2 = T w - 2 w' N1, T = u'' w - u w'' (degree 2n - 2).  Each factor
 * is bounded by its largest Bernstein coefficient, plus the rounding of
 * forming it.  Adds the squares of the rows' bounds on |N1| and |N2| to *s1
 * and *s2.
 */
BXP_INLINE void
rational_bounds_impl(const double *const u[3], const double *w, int n,
                     double *s1, double *s2)
{
    DEGREE_IN_RANGE(n);
    DEGREE_IN_RANGE(2 * n);
    double dw[PCAP], d2w[PCAP], wm = 0.0, wb = 0.0, dwb = 0.0;
    double dwm = sbern_deriv(w, n, dw), d2wm = sbern_deriv(dw, n - 1, d2w);
    for (int j = 0; j < n; j++)
        dwb = max2(dwb, fabs(dw[j]) / bxp_binomial_table[n - 1][j]);
    for (int j = 0; j <= n; j++) {
        wm = max2(wm, fabs(w[j]));
        wb = max2(wb, w[j] / bxp_binomial_table[n][j]);
    }
    /* Rounding of the derivatives' coefficients: a few ulps of n w. */
    dwb += 4.0 * n * DBL_EPSILON * wm;
    for (int r = 0; r < 3; r++) {
        const double *p = u[r];
        double du[PCAP], d2u[PCAP], n1[2 * PCAP], t[2 * PCAP];
        double um = 0.0, dum = sbern_deriv(p, n, du), d2um = sbern_deriv(du, n - 1, d2u);
        for (int j = 0; j <= n; j++)
            um = max2(um, fabs(p[j]));
        for (int k = 0; k < 2 * n; k++)
            n1[k] = 0.0;
        for (int k = 0; k < 2 * n - 1; k++)
            t[k] = 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= n; j++)
                n1[i + j] += du[i] * w[j] - dw[i] * p[j];
        for (int i = 0; i < n - 1; i++)
            for (int j = 0; j <= n; j++)
                t[i + j] += d2u[i] * w[j] - d2w[i] * p[j];
        double b1 = 0.0, bt = 0.0;
        for (int k = 0; k < 2 * n; k++)
            b1 = max2(b1, fabs(n1[k]) / bxp_binomial_table[2 * n - 1][k]);
        for (int k = 0; k < 2 * n - 1; k++)
            bt = max2(bt, fabs(t[k]) / bxp_binomial_table[2 * n - 2][k]);
        /* Rounding, from the sizes of the terms summed (scaled units bound
         * the Bernstein ones). */
        b1 += 16.0 * (n + 1) * (n + 1) * DBL_EPSILON * (dum * wm + dwm * um);
        bt += 16.0 * (n + 1) * (n + 1) * DBL_EPSILON * (d2um * wm + d2wm * um);
        double b2 = bt * wb + 2.0 * dwb * b1;
        *s1 += b1 * b1;
        *s2 += b2 * b2;
    }
}

/*
 * rational_bounds_impl for degree 2, from the 2x2 minors of each row with w.
 * u' w - u w' and u'' w - u w'' are bilinear and antisymmetric in (u, w),
 * so both are combinations of m_ij = u_i w_j - u_j w_i (scaled Bernstein
 * coefficients):
 *   N1 = -m01, -m01 - 2 m02, -m12 - 2 m02, -m12   (degree 3),
 *   T  = 2 (m01 - m02), 2 (m01 - m12), 2 (m02 - m12)   (degree 2).
 * Each minor is within 6 eps um wm of its exact value (um, wm the largest
 * |coefficients|) and each combination adds at most 4 such errors and its
 * own rounding, so 64 eps um wm covers the rounding of every Bernstein
 * coefficient formed here.
 */
static void rational_bounds2(const double *const u[3], const double *w,
                             double *s1, double *s2)
{
    double dw0 = w[1] - 2.0 * w[0], dw1 = 2.0 * w[2] - w[1];
    double wm = max2(max2(fabs(w[0]), fabs(w[1])), fabs(w[2]));
    double wb = max2(max2(w[0], 0.5 * w[1]), w[2]);
    double dwb = max2(fabs(dw0), fabs(dw1)) + 8.0 * DBL_EPSILON * wm;
    for (int r = 0; r < 3; r++) {
        const double *p = u[r];
        double m01 = p[0] * w[1] - p[1] * w[0];
        double m02 = p[0] * w[2] - p[2] * w[0];
        double m12 = p[1] * w[2] - p[2] * w[1];
        double um = max2(max2(fabs(p[0]), fabs(p[1])), fabs(p[2]));
        double round = 64.0 * DBL_EPSILON * um * wm;
        double b1 = max2(max2(fabs(m01), fabs(m12)),
                         max2(fabs(m01 + 2.0 * m02), fabs(m12 + 2.0 * m02)) / 3.0);
        double bt = max2(max2(2.0 * fabs(m01 - m02), 2.0 * fabs(m02 - m12)),
                         fabs(m01 - m12));
        b1 += round;
        bt += round;
        double b2 = bt * wb + 2.0 * dwb * b1;
        *s1 += b1 * b1;
        *s2 += b2 * b2;
    }
}

void bx_gap_rational_bounds(const double *const u[3], const double *w, int n,
                            double *s1, double *s2)
{
    switch (n) {
    case 0:
        return;
    case 2:
        rational_bounds2(u, w, s1, s2);
        return;
    case 4:
        rational_bounds_impl(u, w, 4, s1, s2);
        return;
    default:
        rational_bounds_impl(u, w, n, s1, s2);
    }
}

/* Least Bernstein coefficient of w (scaled Bernstein, degree n): w >= it. */
double bx_gap_wmin(const double *w, int n)
{
    double m = INFINITY;
    for (int i = 0; i <= n; i++) {
        double b = w[i] / bxp_binomial_table[n][i];
        m = b < m ? b : m;
    }
    return m;
}

/*
 * Restriction of scaled Bernstein polynomials of degree n from [0, 1] to
 * [a, c] (scaled Bernstein on it) as a matrix: out_k = sum_i m[k][i] p_i.
 * Only a motion's own polynomials are restricted: n <= BOXTOI_MAX_DEGREE.
 */
typedef struct restriction {
    int n;
    double m[BXM_CAP][BXM_CAP];
} restriction;

static void restriction_init(restriction *R, int n, double a, double c)
{
    double e[BXM_CAP], col[BXM_CAP];
    DEGREE_IN_RANGE(n);
    R->n = n;
    if (n == 2) {
        /* Closed form: the ends are p(a) and p(c), the middle twice the
         * blossom at (a, c). */
        double a1 = 1.0 - a, c1 = 1.0 - c;
        double m[3][3] = {{a1 * a1, a * a1, a * a},
                          {2.0 * a1 * c1, a * c1 + c * a1, 2.0 * a * c},
                          {c1 * c1, c * c1, c * c}};
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 3; i++)
                R->m[k][i] = m[k][i];
        return;
    }
    for (int i = 0; i <= n; i++) {
        for (int k = 0; k <= n; k++)
            e[k] = k == i ? 1.0 / bxp_binomial_table[n][i] : 0.0;
        bxp_bern_restrict(e, n, a, c, col);
        for (int k = 0; k <= n; k++)
            R->m[k][i] = col[k] * bxp_binomial_table[n][k];
    }
}

BXP_INLINE void
restrict_apply_impl(const restriction *R, int n, const double *p, double *out)
{
    DEGREE_IN_RANGE(n);
    for (int k = 0; k <= n; k++) {
        double v = 0.0;
        for (int i = 0; i <= n; i++)
            v += R->m[k][i] * p[i];
        out[k] = v;
    }
}

static void restrict_apply(const restriction *R, const double *p, double *out)
{
    if (R->n == 2)
        restrict_apply_impl(R, 2, p, out);
    else
        restrict_apply_impl(R, R->n, p, out);
}

/* The restriction of degree n among those built (at most four), built when first needed. */
static const restriction *restriction_of(restriction *R, int *nr, int n, double a, double c)
{
    for (int i = 0; i < *nr; i++)
        if (R[i].n == n)
            return &R[i];
    restriction_init(&R[*nr], n, a, c);
    return &R[(*nr)++];
}

/* bx_gap_speeds of one box, with the restrictions to the span shared. */
static int speeds_of(const bx_moving *M, double s0, double s1, restriction *R,
                     int *nr, bx_speeds *o)
{
    double ue[3][3][BXM_CAP], we[BXM_CAP], p[3][BXM_CAP], w[BXM_CAP], h = s1 - s0;
    int e = M->e, d = M->d;
    const restriction *Re = restriction_of(R, nr, e, s0, s1);
    const restriction *Rd = restriction_of(R, nr, d, s0, s1);
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            restrict_apply(Re, M->ue[k][r], ue[k][r]);
    for (int r = 0; r < 3; r++)
        restrict_apply(Rd, M->p[r], p[r]);
    restrict_apply(Re, M->we, we);
    restrict_apply(Rd, M->w, w);
    double we_min = bx_gap_wmin(we, e), w_min = bx_gap_wmin(w, d);
    if (!(we_min > 0.0) || !(w_min > 0.0) || !(h > 0.0))
        return 0;
    double r1 = 0.0, r2 = 0.0, v1 = 0.0, v2 = 0.0;
    for (int k = 0; k < 3; k++) {
        const double *u[3] = {ue[k][0], ue[k][1], ue[k][2]};
        double a1 = 0.0, a2 = 0.0;
        bx_gap_rational_bounds(u, we, e, &a1, &a2);
        r1 = max2(r1, a1);
        r2 = max2(r2, a2);
    }
    const double *pp[3] = {p[0], p[1], p[2]};
    bx_gap_rational_bounds(pp, w, d, &v1, &v2);
    /* A little over 1: the rounding of the square roots and quotients. */
    o->rot = 1.001 * sqrt(r1) / (we_min * we_min) / h;
    o->rot2 = 1.001 * sqrt(r2) / (we_min * we_min * we_min) / (h * h);
    o->vel = 1.001 * sqrt(v1) / (w_min * w_min) / h;
    o->vel2 = 1.001 * sqrt(v2) / (w_min * w_min * w_min) / (h * h);
    return isfinite(o->rot + o->rot2 + o->vel + o->vel2);
}

int bx_gap_speeds(const bx_moving *a, const bx_moving *b, double s0, double s1,
                  bx_speeds *sa, bx_speeds *sb)
{
    restriction R[4];
    int nr = 0;
    return speeds_of(a, s0, s1, R, &nr, sa) && speeds_of(b, s0, s1, R, &nr, sb);
}

/*
 * The terms of every G: its constant (index into the six half extents
 * hA_0..2, hB_0..2, or 6 for none) and up to four -h |P_ij| (P index 3 i + j
 * and half-extent index; 6 pads with a zero half extent).
 */
const signed char bx_gap_const[BX_GAP_AXES] = {0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6};
const signed char bx_gap_terms[BX_GAP_AXES][4][2] = {
    {{0, 3}, {1, 4}, {2, 5}, {0, 6}},   /* face 0 of A: P_0k hB_k */
    {{3, 3}, {4, 4}, {5, 5}, {0, 6}},
    {{6, 3}, {7, 4}, {8, 5}, {0, 6}},
    {{0, 0}, {3, 1}, {6, 2}, {0, 6}},   /* face 0 of B: P_k0 hA_k */
    {{1, 0}, {4, 1}, {7, 2}, {0, 6}},
    {{2, 0}, {5, 1}, {8, 2}, {0, 6}},
    /* edges i, j: P_mj hA_k (k != i, m = 3-i-k), P_im' hB_k (k != j, m' = 3-j-k) */
    {{6, 1}, {3, 2}, {2, 4}, {1, 5}},   /* 0, 0 */
    {{7, 1}, {4, 2}, {2, 3}, {0, 5}},   /* 0, 1 */
    {{8, 1}, {5, 2}, {1, 3}, {0, 4}},   /* 0, 2 */
    {{6, 0}, {0, 2}, {5, 4}, {4, 5}},   /* 1, 0 */
    {{7, 0}, {1, 2}, {5, 3}, {3, 5}},   /* 1, 1 */
    {{8, 0}, {2, 2}, {4, 3}, {3, 4}},   /* 1, 2 */
    {{3, 0}, {0, 1}, {8, 4}, {7, 5}},   /* 2, 0 */
    {{4, 0}, {1, 1}, {8, 3}, {6, 5}},   /* 2, 1 */
    {{5, 0}, {2, 1}, {7, 3}, {6, 4}},   /* 2, 2 */
};

void bx_gap_sample_of(const bx_pose *pa, const bx_pose *pb, bx_gap_sample *o)
{
    double dc[3];
    for (int r = 0; r < 3; r++)
        dc[r] = pb->c[r] - pa->c[r];
    o->dlen = sqrt(bx_dot3(dc, dc));
    double la = 0.0, lb = 0.0;
    for (int i = 0; i < 3; i++) {
        la = max2(la, bx_dot3(pa->axis[i], pa->axis[i]));
        lb = max2(lb, bx_dot3(pb->axis[i], pb->axis[i]));
        o->x[i] = bx_dot3(pa->axis[i], dc);
        o->x[3 + i] = bx_dot3(pb->axis[i], dc);
        for (int j = 0; j < 3; j++)
            o->P[3 * i + j] = bx_dot3(pa->axis[i], pb->axis[j]);
    }
    o->amax = sqrt(la);
    o->bmax = sqrt(lb);
    for (int j = 0; j < 3; j++) {
        double v[3];
        bx_cross3(pb->axis[j], dc, v); /* (a x b) . D = a . (b x D) */
        for (int i = 0; i < 3; i++)
            o->x[6 + 3 * i + j] = bx_dot3(pa->axis[i], v);
    }
}

void bx_gap_piece_bounds(const double ha[3], const double hb[3],
                         const bx_speeds *A, const bx_speeds *B,
                         const bx_gap_sample *lo, const bx_gap_sample *hi,
                         double h, double up[BX_GAP_AXES])
{
    double h6[7] = {ha[0], ha[1], ha[2], hb[0], hb[1], hb[2], 0.0};
    double vel = A->vel + B->vel, vel2 = A->vel2 + B->vel2, e = 0.125 * h * h;
    /* |Delta|, |a_i|, |b_j| over the piece (Lipschitz from the ends). */
    double Dm = max2(lo->dlen, hi->dlen) + 0.5 * vel * h;
    double Am = max2(lo->amax, hi->amax) + 0.5 * A->rot * h;
    double Bm = max2(lo->bmax, hi->bmax) + 0.5 * B->rot * h;
    /* Second-derivative bounds of a . b, then a . Delta, b . Delta, (a x b) . Delta. */
    double MP = A->rot2 * Bm + 2.0 * A->rot * B->rot + Am * B->rot2;
    double Mx[3] = {A->rot2 * Dm + 2.0 * A->rot * vel + Am * vel2,
                    B->rot2 * Dm + 2.0 * B->rot * vel + Bm * vel2,
                    Dm * MP + Am * Bm * vel2 + 2.0 * vel * (A->rot * Bm + Am * B->rot)};
    /* -|P| on the piece: below -chord + MP e when P keeps its sign, else 0. */
    double y0[9], y1[9], ye[9];
    for (int k = 0; k < 9; k++) {
        double p0 = lo->P[k], p1 = hi->P[k];
        int keep = (p0 > 0.0 && p1 > 0.0) || (p0 < 0.0 && p1 < 0.0);
        y0[k] = keep ? fabs(p0) : 0.0;
        y1[k] = keep ? fabs(p1) : 0.0;
        ye[k] = keep ? MP * e : 0.0;
    }
    for (int axis = 0; axis < BX_GAP_AXES; axis++) {
        double c = h6[bx_gap_const[axis]];
        double c0 = fabs(lo->x[axis]) - c, c1 = fabs(hi->x[axis]) - c;
        double err = Mx[axis < 3 ? 0 : axis < 6 ? 1 : 2] * e;
        for (int k = 0; k < 4; k++) {
            int q = bx_gap_terms[axis][k][0];
            double hk = h6[bx_gap_terms[axis][k][1]];
            c0 -= hk * y0[q];
            c1 -= hk * y1[q];
            err += hk * ye[q];
        }
        /* The chord's larger end (NaN when either end is). */
        up[axis] = (c0 >= c1 ? c0 : c1) + (c0 - c0) + err;
    }
}
