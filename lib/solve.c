/*
 * First contact of two moving boxes.
 *
 * At a fixed time the boxes overlap iff the origin lies in the zonotope
 * Z = A + (-B); its faces have the 15 directions of the separating-axis test
 * (3 face normals of A, 3 of B, 9 cross products of an axis of A with an
 * axis of B).  For an axis n the scaled separation
 *
 *   f_n = |n . D| - wB sum_k hA_k |n . uA_k| - wA sum_k hB_k |n . uB_k|,
 *   D = pB wA - pA wB,
 *
 * equals wA wB times the gap between the boxes' projections on n, and is a
 * polynomial in s wherever the signs inside the absolute values are fixed.
 * Every product n . u is, up to sign, det(uA) or det(uB) (fixed sign) or one
 * of the 18 products qAB[m][j] = nA_m . uB_j and qBA[m][i] = nB_m . uA_i,
 * with nA_m = uA_{m+1} x uA_{m+2} the face normals.  Their real roots cut the
 * interval into sections with fixed pairing of features (the origin
 * document's homogeneous sections).
 *
 * When both motions are rigid (U^T U = w^2 I for both 3x3 parts, so that
 * uA_{m+1} x uA_{m+2} = +-wA uA_m) the face normals are the axes themselves:
 * a face axis of A is taken as uA_m (f divided by wA > 0), its own term is
 * hA_m wB wA^2, and the 18 products collapse to the nine P[i][j] = uA_i . uB_j
 * (|qAB[m][j]| = wA |P[m][j]|, |qBA[m][i]| = wB |P[i][m]|), of lower degree.
 *
 * The 3x3 parts and w are used at their own degree (bx_trim), often lower
 * than the position's.
 *
 * First contact: starting at s = 0, while some axis separates, jump to the
 * first s at which that axis stops separating (the first root of its
 * piecewise polynomial); contact is the first s at which no axis separates.
 * The exit is the first s after contact at which some axis separates again.
 */
#include "gap.h"
#include "lanes.h"
#include "motion.h"
#include "poly.h"
#include "solve.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define PCAP (BXP_MAX_DEGREE + 1)
#define NAXES 15
#define MAX_ADVANCE 2000
/* The end of a contact is confirmed this far after it, then 10, 100... times (exit_first). */
#define EXIT_PROBE 1e-9
#define EXIT_PASSES 8

/* Rare paths kept out of line, so that their frames do not add to the usual one. */
#if defined(__GNUC__)
#define BX_NOINLINE __attribute__((noinline))
#else
#define BX_NOINLINE
#endif

/* Axis numbering: 0..2 faces of A, 3..5 faces of B, 6 + 3 i + j = uA_i x uB_j. */

/*
 * Products (index of q).  General motions: 3 m + j is qAB[m][j],
 * 9 + 3 m + i is qBA[m][i], Q_DETA and Q_DETB the determinants.  Rigid
 * motions: 3 i + j is P[i][j] = uA_i . uB_j, Q_WA2 is wA^2, Q_WB2 is wB^2.
 */
enum { Q_DETA = 18, Q_DETB = 19, NQ_GENERAL = 20 };
enum { Q_WA2 = 9, Q_WB2 = 10, NQ_RIGID = 11 };

/*
 * Cached products W q of general motions (slot 2 q + (W_A ? 1 : 0)), kept
 * only up to this slot size: above it they would take more stack than they
 * save time.  At 17 (general motions whose 3x3 part and positions are both
 * of degree 4) the 40 slots would take 5.4 KB, the largest share of the
 * deepest stack of motions up to degree 4, and save no time: building each
 * axis's polynomial from its factors there takes fewer instructions.
 */
#define NT_GENERAL 40
#define NT_MAX_STRIDE 16

/* Weight polynomial of a term. */
enum { W_B = 0, W_A = 1, W_AB = 2 };

/* A term -coef * W * |q| of an axis function. */
typedef struct term {
    int q;       /* index of the product, see above */
    int w;       /* W_B, W_A or W_AB */
    double coef; /* half extent (>= 0) */
} term;

/*
 * Polynomials are built when first needed and kept in one arena of slots,
 * each `stride` doubles (the highest axis degree + 1), laid out as: D (3),
 * uB_j x D (9), face normals of A and B (9 + 9, general motions only),
 * products q (nq, scaled Bernstein), their roots (nq), axis polynomials
 * x_n = n . D in Bernstein form (15), and for general motions of low degree
 * the products W q of the terms in Bernstein form (40).
 */
typedef struct solver {
    const bx_moving *A, *B;
    int dA, dB;       /* degrees of the 3x3 parts and w (bx_moving.e) */
    int dD;           /* degree of D */
    int rigid;        /* both motions rigid: see the top of the file */
    int stride;       /* doubles per slot */
    double tol;       /* separation (length) counted as touching */
    double face_bias; /* preference of face axes over edge axes (length) */
    double orient_bias; /* the centres' offset along a normal within it does not
                           orient the normal at the contact (describe_contact) */
    double *D, *V, *nA, *nB, *q, *qroots, *xb, *tb;
    unsigned have;    /* HAVE_D, HAVE_NA, HAVE_NB, HAVE_V << j */
    uint32_t qbuilt, xbuilt, noisebuilt, termsbuilt;
    uint32_t xsharp;  /* axes whose x was formed in double-double (sharp_x) */
    int want_general; /* rigid motions: an edge axis of nearly parallel edges
                         was met, solve as general motions (axis_noise) */
    uint64_t tbuilt;
    int qdeg[NQ_GENERAL];
    double qscale[NQ_GENERAL];
    double qown[NQ_GENERAL]; /* largest coefficient of each product */
    uint32_t qsharp;         /* general motions: products formed in double-double */
    signed char qzero[NQ_GENERAL], qcount[NQ_GENERAL];
    int xdeg[NAXES];
    double xscale[NAXES], xnoise[NAXES];
    signed char nterms[NAXES];
    term terms[NAXES][4];     /* axis_terms, listed once per axis */
    double wAB[2 * BOXTOI_MAX_DEGREE + 1]; /* wA wB, scaled Bernstein */
    double wscale[3];                       /* largest coefficient of each weight */
    int noise_axis;                         /* axis of noise_poly, or -1 */
    double noise_poly[PCAP];                /* axis_noise_poly of noise_axis */
    /* Largest absolute coefficient of each row: 3x3 parts, D, uB_j x D. */
    double umax[2][3][3], dmax[3], vmax[3][3];
    double spread[2]; /* motion_is_rigid's of A and B (rigid motions) */
} solver;

#define HAVE_D 1u
#define HAVE_NA 2u
#define HAVE_NB 4u
#define HAVE_V 8u

/*
 * Highest degree of an axis function (x_n = n . D, of degree deg(n) + dD;
 * every term has at most that degree) for 3x3 parts of degrees dA, dB.
 */
static int axis_degree_max(int rigid, int dA, int dB, int dD)
{
    if (rigid)
        return dA + dB + dD;
    int m = dA > dB ? dA : dB;
    return 2 * m + dD;
}

/* Does the solver keep the products W q (general motions, low degrees)? */
static int keeps_products(int rigid, int stride)
{
    return !rigid && stride <= NT_MAX_STRIDE;
}

/* Number of doubles of the arena for these degrees. */
static size_t arena_size(int rigid, int dA, int dB, int dD)
{
    int stride = axis_degree_max(rigid, dA, dB, dD) + 1;
    size_t slots = rigid ? 12 + 2 * NQ_RIGID + NAXES
                         : 12 + 18 + 2 * NQ_GENERAL + NAXES;
    if (keeps_products(rigid, stride))
        slots += NT_GENERAL;
    return slots * (size_t)stride;
}

/* Point the solver's slots into the arena (sized by arena_size). */
static void solver_arena(solver *S, double *arena)
{
    int st = S->stride, nq = S->rigid ? NQ_RIGID : NQ_GENERAL;
    double *p = arena;
    S->D = p;
    p += 3 * st;
    S->V = p;
    p += 9 * st;
    if (!S->rigid) {
        S->nA = p;
        S->nB = p + 9 * st;
        p += 18 * st;
    } else {
        S->nA = S->nB = NULL;
    }
    S->q = p;
    p += nq * st;
    S->qroots = p;
    p += nq * st;
    S->xb = p;
    p += NAXES * st;
    S->tb = keeps_products(S->rigid, st) ? p : NULL;
}

/* A vector of three polynomials, by rows. */
typedef struct pvec {
    const double *r[3];
    const double *mx; /* largest absolute coefficient of each row, or NULL */
} pvec;

/* The three rows of a prepared motion's column. */
static pvec pv9(const double (*rows)[BXM_CAP])
{
    return (pvec){{rows[0], rows[1], rows[2]}, NULL};
}

/* pv9 with the rows' largest absolute coefficients known (mx). */
static pvec pv9m(const double (*rows)[BXM_CAP], const double *mx)
{
    return (pvec){{rows[0], rows[1], rows[2]}, mx};
}

/*
 * The three rows first, first + stride, first + 2 stride of arena slots,
 * with their largest absolute coefficients mx (NULL: not known).
 */
static pvec pv_slots(const double *first, int stride, const double *mx)
{
    return (pvec){{first, first + stride, first + 2 * stride}, mx};
}

/*
 * The product kernels below are written once with the degrees as
 * parameters and expanded for the pairs of degrees that rigid motions of
 * degree 2 meet, where their loops unroll completely (DEGREE_IN_RANGE in
 * poly.h).  cross_row: one row r of out = a x b for vectors of SB
 * polynomials (degrees n, m).
 */
BXP_INLINE void
cross_row_impl(pvec a, int n, pvec b, int m, int r, double *o)
{
    DEGREE_IN_RANGE(n);
    DEGREE_IN_RANGE(m);
    const double *a1 = a.r[(r + 1) % 3], *a2 = a.r[(r + 2) % 3];
    const double *b1 = b.r[(r + 1) % 3], *b2 = b.r[(r + 2) % 3];
    for (int k = 0; k <= n + m; k++)
        o[k] = 0.0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= m; j++)
            o[i + j] += a1[i] * b2[j] - a2[i] * b1[j];
}

static void cross_row(pvec a, int n, pvec b, int m, int r, double *o)
{
    if (n == 2 && m == 4)
        cross_row_impl(a, 2, b, 4, r, o);
    else if (n == 2 && m == 2)
        cross_row_impl(a, 2, b, 2, r, o);
    else
        cross_row_impl(a, n, b, m, r, o);
}

/*
 * Dot product of two vectors of SB polynomials, out = sum_r a_r b_r, or with
 * absolute set sum_r |a_r| |b_r| coefficient by coefficient (a constant,
 * folded where it is expanded).
 */
BXP_INLINE void
dot_poly_impl(pvec a, int n, pvec b, int m, int absolute, double *out)
{
    DEGREE_IN_RANGE(n);
    DEGREE_IN_RANGE(m);
    const double *a0 = a.r[0], *a1 = a.r[1], *a2 = a.r[2];
    const double *b0 = b.r[0], *b1 = b.r[1], *b2 = b.r[2];
#define BX_MAYBE_ABS(x) (absolute ? fabs(x) : (x))
    for (int k = 0; k <= n + m; k++)
        out[k] = 0.0;
    for (int i = 0; i <= n; i++) {
        double x0 = BX_MAYBE_ABS(a0[i]), x1 = BX_MAYBE_ABS(a1[i]), x2 = BX_MAYBE_ABS(a2[i]);
        double *restrict o = out + i;
        for (int j = 0; j <= m; j++)
            o[j] += x0 * BX_MAYBE_ABS(b0[j]) + x1 * BX_MAYBE_ABS(b1[j]) +
                    x2 * BX_MAYBE_ABS(b2[j]);
    }
#undef BX_MAYBE_ABS
}

BXP_INLINE void dot_poly_any(pvec a, int n, pvec b, int m, int absolute, double *out)
{
    if (n == 2 && m == 2)
        dot_poly_impl(a, 2, b, 2, absolute, out);
    else if (n == 2 && m == 4)
        dot_poly_impl(a, 2, b, 4, absolute, out);
    else if (n == 2 && m == 6)
        dot_poly_impl(a, 2, b, 6, absolute, out);
    else
        dot_poly_impl(a, n, b, m, absolute, out);
}

/* The dot product, and the size of its terms. */
static double dot_poly(pvec a, int n, pvec b, int m, double *out)
{
    dot_poly_any(a, n, b, m, 0, out);
    double scale = 0.0;
    for (int r = 0; r < 3; r++)
        scale += (a.mx ? a.mx[r] : bxp_max_abs(a.r[r], n)) *
                 (b.mx ? b.mx[r] : bxp_max_abs(b.r[r], m));
    return scale;
}

/*
 * The six entries c[p] of U^T U - w^2 I (p = 3 k + l - k (k + 1) / 2 for
 * k <= l, each summed in the same order) for the 3x3 part u and w^2 = ww
 * at degree d.  Returns 1 when every coefficient is within lim.
 */
#ifdef BX_LANES
/* Three pairs of entries in two lanes, (0, 5), (1, 2) and (3, 4), each lane
   summed as the one-lane code below sums it. */
BXP_INLINE int
gram_within(const double (*u)[3][BXM_CAP], const double *ww, int d, double lim)
{
    DEGREE_IN_RANGE(2 * d);
    bx_v2 u02[3][BXM_CAP], u12[3][BXM_CAP], c05[2 * BXM_CAP], c12[2 * BXM_CAP],
        c34[2 * BXM_CAP];
    for (int r = 0; r < 3; r++)
        for (int i = 0; i <= d; i++) {
            u02[r][i] = (bx_v2){u[0][r][i], u[2][r][i]};
            u12[r][i] = (bx_v2){u[1][r][i], u[2][r][i]};
        }
    for (int i = 0; i <= 2 * d; i++) {
        c05[i] = (bx_v2){-ww[i], -ww[i]};
        c12[i] = (bx_v2){0.0, 0.0};
        c34[i] = (bx_v2){-ww[i], 0.0};
    }
    for (int i = 0; i <= d; i++)
        for (int j = 0; j <= d; j++) {
            c05[i + j] += u02[0][i] * u02[0][j] + u02[1][i] * u02[1][j] +
                          u02[2][i] * u02[2][j];
            c12[i + j] += u[0][0][i] * u12[0][j] + u[0][1][i] * u12[1][j] +
                          u[0][2][i] * u12[2][j];
            c34[i + j] += u[1][0][i] * u12[0][j] + u[1][1][i] * u12[1][j] +
                          u[1][2][i] * u12[2][j];
        }
    bx_v2 l = {lim, lim};
    int in = 3;
    for (int i = 0; i <= 2 * d; i++)
        in &= bx_bits(bx_vabs(c05[i]) <= l) & bx_bits(bx_vabs(c12[i]) <= l) &
              bx_bits(bx_vabs(c34[i]) <= l);
    return in == 3;
}
#else
/* (0, 0) first alone (an affine motion usually fails there), then the other
   five in one pass. */
BXP_INLINE int
gram_within(const double (*u)[3][BXM_CAP], const double *ww, int d, double lim)
{
    DEGREE_IN_RANGE(2 * d);
    double c[6][2 * BXM_CAP];
    for (int i = 0; i <= 2 * d; i++)
        c[0][i] = -ww[i];
    for (int i = 0; i <= d; i++)
        for (int j = 0; j <= d; j++)
            c[0][i + j] += u[0][0][i] * u[0][0][j] + u[0][1][i] * u[0][1][j] +
                           u[0][2][i] * u[0][2][j];
    for (int i = 0; i <= 2 * d; i++)
        if (!(fabs(c[0][i]) <= lim))
            return 0;
    for (int i = 0; i <= 2 * d; i++) {
        c[1][i] = c[2][i] = c[4][i] = 0.0;
        c[3][i] = c[5][i] = -ww[i];
    }
    for (int i = 0; i <= d; i++)
        for (int j = 0; j <= d; j++) {
            double a0 = u[0][0][i], a1 = u[0][1][i], a2 = u[0][2][i];
            double b0 = u[1][0][i], b1 = u[1][1][i], b2 = u[1][2][i];
            double e0 = u[2][0][i], e1 = u[2][1][i], e2 = u[2][2][i];
            double x0 = u[1][0][j], x1 = u[1][1][j], x2 = u[1][2][j];
            double y0 = u[2][0][j], y1 = u[2][1][j], y2 = u[2][2][j];
            c[1][i + j] += a0 * x0 + a1 * x1 + a2 * x2;
            c[2][i + j] += a0 * y0 + a1 * y1 + a2 * y2;
            c[3][i + j] += b0 * x0 + b1 * x1 + b2 * x2;
            c[4][i + j] += b0 * y0 + b1 * y1 + b2 * y2;
            c[5][i + j] += e0 * y0 + e1 * y1 + e2 * y2;
        }
    for (int p = 1; p < 6; p++)
        for (int i = 0; i <= 2 * d; i++)
            if (!(fabs(c[p][i]) <= lim))
                return 0;
    return 1;
}
#endif

/* The largest magnitudes of the coefficients of each entry of a motion's
   3x3 part, u[k][row], and of w, at the degree e of bx_trim. */
typedef struct entry_scales {
    double u[3][3], w;
} entry_scales;

BXP_INLINE void scales_at(const bx_moving *M, int d, entry_scales *sc)
{
    DEGREE_IN_RANGE(d);
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            sc->u[k][r] = bxp_max_abs(M->ue[k][r], d);
    sc->w = bxp_max_abs(M->we, d);
}

static void scales_of(const bx_moving *M, entry_scales *sc)
{
    switch (M->e) {
    case 0: scales_at(M, 0, sc); break;
    case 1: scales_at(M, 1, sc); break;
    case 2: scales_at(M, 2, sc); break;
    default: scales_at(M, M->e, sc); break;
    }
}

/*
 * Is the motion rigid up to its scale w: U^T U = w^2 I for the 3x3 part U,
 * coefficient by coefficient within rounding?  Then the face normals are
 * u_{m+1} x u_{m+2} = +-w u_m (the sign of det U), and |u_m| = w.  Sets
 * *nonsingular when this also proves det U != 0 on [0, 1]: each entry of
 * U^T U - w^2 I is below 2 lim there (the tested coefficients, plus their
 * rounding, bound it), so U^T U >= w^2 - 6 lim > 0 (Gershgorin) once the
 * least Bernstein coefficient of w, a lower bound of w, is large enough; it
 * is also required to be far from 0 relative to w, and, so that the
 * determinant test of bx_check_det would certainly pass, its cube above 32
 * times that test's margin: with w^2 > 8 lim, |det U| >= (w^2 - 6 lim)^(3/2)
 * >= w^3 / 8, more than twice the margin.  For a rigid motion, *spread gets
 * 6 lim / wmin^2 (infinite for wmin <= 0): |U x|^2 <= (w^2 + 6 lim) |x|^2,
 * so |U x| / w <= sqrt(1 + spread) |x| on [0, 1] (balls_apart).
 */
static int motion_is_rigid(const bx_moving *M, const entry_scales *sc, int *nonsingular,
                           double *spread)
{
    int d = M->e;
    double U = 0.0, W = sc->w, ww[2 * BXM_CAP];
    *nonsingular = 0;
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            U = sc->u[k][r] > U ? sc->u[k][r] : U;
    double lim = 64.0 * DBL_EPSILON * (d + 1) * (3.0 * U * U + W * W);
    bxp_sbern_mul(M->we, d, M->we, d, ww);
    int ok = d == 2 ? gram_within(M->ue, ww, 2, lim)
                    : d == 1 ? gram_within(M->ue, ww, 1, lim)
                             : gram_within(M->ue, ww, d, lim);
    if (!ok)
        return 0;
    double wmin = bx_gap_wmin(M->we, d);
    *spread = wmin > 0.0 ? 6.0 * lim / (wmin * wmin) : INFINITY;
    *nonsingular = wmin >= 1e-3 * W && wmin * wmin > 8.0 * lim &&
                   wmin * wmin * wmin > 32.0 * bx_det_margin_max(M);
    return 1;
}

/* D = pB wA - pA wB (scaled Bernstein, degree dD), built when first needed. */
static void need_D(solver *S)
{
    if (S->have & HAVE_D)
        return;
    const bx_moving *A = S->A, *B = S->B;
    int nb = B->d + S->dA, na = A->d + S->dB;
    for (int r = 0; r < 3; r++) {
        double *o = S->D + r * S->stride, t[PCAP];
        bxp_sbern_mul(B->p[r], B->d, A->we, S->dA, o);
        if (nb < S->dD)
            bxp_sbern_elevate(o, nb, S->dD - nb, o);
        bxp_sbern_mul(A->p[r], A->d, B->we, S->dB, t);
        if (na < S->dD)
            bxp_sbern_elevate(t, na, S->dD - na, t);
        for (int i = 0; i <= S->dD; i++)
            o[i] -= t[i];
        /* the size of the terms, not of their difference: where the boxes
           move together far from the origin, D is far smaller than its
           rounding */
        double terms = bxp_max_abs(B->p[r], B->d) * S->wscale[W_A] +
                       bxp_max_abs(A->p[r], A->d) * S->wscale[W_B], own = bxp_max_abs(o, S->dD);
        S->dmax[r] = own > terms ? own : terms;
    }
    S->have |= HAVE_D;
}

/* Face normals of A or B (general motions): nX + (3 m + row) stride. */
static const double *need_normals(solver *S, int of_b)
{
    unsigned flag = of_b ? HAVE_NB : HAVE_NA;
    double *n = of_b ? S->nB : S->nA;
    if (!(S->have & flag)) {
        const bx_moving *M = of_b ? S->B : S->A;
        for (int m = 0; m < 3; m++)
            for (int r = 0; r < 3; r++)
                cross_row(pv9(M->ue[(m + 1) % 3]), M->e, pv9(M->ue[(m + 2) % 3]),
                          M->e, r, n + (3 * m + r) * S->stride);
        S->have |= flag;
    }
    return n;
}

/*
 * out = (u x v) . w (scaled Bernstein, degrees nu, nv and nw), in
 * double-double (bxp_dd_mul_add) and rounded once: u x v, then its dot
 * product with w.  Returns the largest coefficient of u x v.  For two
 * nearly parallel edges the products that make their axis,
 * (uA_i x uB_j) . D and det(uA_i, uA_k, uB_j), are sums of terms of size 1
 * whose value has the size of the sine of the edges' angle: rounded term
 * by term they would leave an error of eps over that sine in the gap.
 */
static BX_NOINLINE double cross_dot_sharp(pvec u, int nu, pvec v, int nv, pvec w, int nw, double *out)
{
    double hi[3][PCAP], lo[3][PCAP], most = 0.0;
    int nn = nu + nv;
    for (int r = 0; r < 3; r++) {
        int r1 = (r + 1) % 3, r2 = (r + 2) % 3;
        for (int k = 0; k <= nn; k++) {
            double h = 0.0, l = 0.0;
            for (int i = k > nv ? k - nv : 0; i <= (k < nu ? k : nu); i++) {
                bxp_dd_mul_add(&h, &l, u.r[r1][i], v.r[r2][k - i], 0.0);
                bxp_dd_mul_add(&h, &l, -u.r[r2][i], v.r[r1][k - i], 0.0);
            }
            hi[r][k] = h;
            lo[r][k] = l;
            most = fmax(most, fabs(h));
        }
    }
    for (int k = 0; k <= nn + nw; k++) {
        double h = 0.0, l = 0.0;
        for (int r = 0; r < 3; r++)
            for (int i = k > nw ? k - nw : 0; i <= (k < nn ? k : nn); i++)
                bxp_dd_mul_add(&h, &l, w.r[r][k - i], hi[r][i], lo[r][i]);
        out[k] = h + l;
    }
    return most;
}

/* A product whose coefficients are below this share of the size of its
   terms cancels: its factors are nearly square (or, for an edge axis's
   products, its edges nearly parallel). */
#define SHARP_BELOW 0x1p-10

/*
 * The two vector factors of product q number idx, q = a . b (degrees na,
 * nb), as build_q multiplies them; 0 for wA^2 and wB^2 (rigid motions).
 */
static int q_factors(solver *S, int idx, pvec *a, int *na, pvec *b, int *nb)
{
    int dA = S->dA, dB = S->dB, st = S->stride;
    if (S->rigid) {
        if (idx >= 9)
            return 0;
        *a = pv9m(S->A->ue[idx / 3], S->umax[0][idx / 3]);
        *na = dA;
        *b = pv9m(S->B->ue[idx % 3], S->umax[1][idx % 3]);
        *nb = dB;
    } else if (idx < 9) {
        *a = pv_slots(need_normals(S, 0) + 3 * (idx / 3) * st, st, NULL);
        *na = 2 * dA;
        *b = pv9m(S->B->ue[idx % 3], S->umax[1][idx % 3]);
        *nb = dB;
    } else if (idx < 18) {
        *a = pv_slots(need_normals(S, 1) + 3 * ((idx - 9) / 3) * st, st, NULL);
        *na = 2 * dB;
        *b = pv9m(S->A->ue[(idx - 9) % 3], S->umax[0][(idx - 9) % 3]);
        *nb = dA;
    } else {
        int of_b = idx == Q_DETB;
        const bx_moving *M = of_b ? S->B : S->A;
        *a = pv_slots(need_normals(S, of_b), st, NULL);
        *na = 2 * M->e;
        *b = pv9m(M->ue[0], S->umax[of_b][0]);
        *nb = M->e;
    }
    return 1;
}

/* Build product q number idx (scaled Bernstein). */
static const double *build_q(solver *S, int idx)
{
    double *out = S->q + idx * S->stride;
    pvec a, b;
    int na, nb;
    if (q_factors(S, idx, &a, &na, &b, &nb)) {
        S->qdeg[idx] = na + nb;
        S->qscale[idx] = dot_poly(a, na, b, nb, out);
    } else {
        const bx_moving *M = idx == Q_WB2 ? S->B : S->A;
        double w = S->wscale[idx == Q_WB2 ? W_B : W_A];
        S->qdeg[idx] = 2 * M->e;
        bxp_sbern_mul(M->we, M->e, M->we, M->e, out);
        S->qscale[idx] = w * w;
    }
    S->qbuilt |= 1u << idx;
    S->qcount[idx] = -1;
    double own = bxp_max_abs(out, S->qdeg[idx]);
    S->qzero[idx] = own <= 64.0 * DBL_EPSILON * S->qscale[idx];
    if (!S->rigid && idx < 18 && own < SHARP_BELOW * S->qscale[idx]) {
        /* nA_m . uB_j = det(uA_m1, uA_m2, uB_j), formed again whole in
           double-double; and likewise nB_m . uA_i */
        const bx_moving *M = idx < 9 ? S->A : S->B, *N = idx < 9 ? S->B : S->A;
        int m = (idx % 9) / 3, k = idx % 3;
        cross_dot_sharp(pv9(M->ue[(m + 1) % 3]), M->e, pv9(M->ue[(m + 2) % 3]), M->e,
                        pv9(N->ue[k]), N->e, out);
        own = bxp_max_abs(out, S->qdeg[idx]);
        S->qscale[idx] = own + (S->qdeg[idx] + 1) * DBL_EPSILON * S->qscale[idx];
        S->qzero[idx] = own <= 64.0 * DBL_EPSILON * S->qscale[idx];
        S->qsharp |= 1u << idx;
    }
    S->qown[idx] = own;
    return out;
}

/* Product q number idx (scaled Bernstein), built when first needed. */
static inline const double *need_q(solver *S, int idx)
{
    if (S->qbuilt & (1u << idx))
        return S->q + idx * S->stride;
    return build_q(S, idx);
}

/*
 * Next root of a polynomial (Bernstein form b, degree n) strictly after a
 * and before stop, or stop.  All its roots on [0, 1] are listed into roots
 * once (*count < 0 before: sign changes polished to full precision,
 * tangential roots located), so axes sharing a polynomial reuse them.
 */
static double next_change(const double *b, int n, signed char *count,
                          double *roots, double a, double stop)
{
    if (*count < 0) {
        /* Coefficients clearly of one sign: no root (bxp_bern_roots agrees). */
        double noise = 8.0 * (n + 1) * DBL_EPSILON * bxp_max_abs(b, n);
        int pos = 1, neg = 1;
        for (int i = 0; i <= n; i++) {
            pos &= b[i] > noise;
            neg &= b[i] < -noise;
        }
        int c = pos || neg ? 0 : bxp_bern_roots(b, n, 0.0, 1.0, roots, n + 1);
        *count = (signed char)(c < 0 ? 0 : c);
    }
    double lo = a + 4.0 * DBL_EPSILON;
    for (int i = 0; i < *count; i++)
        if (roots[i] >= lo)
            return roots[i] < stop ? roots[i] : stop;
    return stop;
}

/* Next root of product q number idx after a, or stop (see next_change). */
static double q_next_change(solver *S, int idx, double a, double stop)
{
    const double *q = need_q(S, idx);
    int n = S->qdeg[idx];
    double *roots = S->qroots + idx * S->stride;
    if (S->qzero[idx])
        return stop;
    if (S->qcount[idx] < 0) {
        double b[PCAP];
        bxp_sbern_to_bern(q, n, b);
        return next_change(b, n, &S->qcount[idx], roots, a, stop);
    }
    return next_change(NULL, n, &S->qcount[idx], roots, a, stop);
}

/*
 * The two vector factors of x_axis = n . D = a . b (degrees na, nb), as
 * need_x multiplies them: for a cross axis (uA_i x uB_j) . D = uA_i . (uB_j x D),
 * with uB_j x D built here once and shared.
 */
static void x_factors(solver *S, int axis, pvec *a, int *na, pvec *b, int *nb)
{
    int st = S->stride, dA = S->dA, dB = S->dB, dD = S->dD;
    need_D(S);
    *b = pv_slots(S->D, st, S->dmax);
    *nb = dD;
    if (axis < 6 && S->rigid) {
        const bx_moving *M = axis < 3 ? S->A : S->B;
        *a = pv9m(M->ue[axis % 3], S->umax[axis >= 3][axis % 3]);
        *na = M->e;
    } else if (axis < 6) {
        int of_b = axis >= 3;
        *a = pv_slots(need_normals(S, of_b) + 3 * (axis % 3) * st, st, NULL);
        *na = 2 * (of_b ? dB : dA);
    } else {
        int i = (axis - 6) / 3, j = (axis - 6) % 3;
        double *v = S->V + 3 * j * st;
        if (!(S->have & (HAVE_V << j))) {
            for (int r = 0; r < 3; r++) {
                int r1 = (r + 1) % 3, r2 = (r + 2) % 3;
                cross_row(pv9(S->B->ue[j]), dB, *b, dD, r, v + r * st);
                /* as D's: the size of the products, not of their difference */
                double own = bxp_max_abs(v + r * st, dB + dD),
                       terms = S->umax[1][j][r1] * S->dmax[r2] + S->umax[1][j][r2] * S->dmax[r1];
                S->vmax[j][r] = own > terms ? own : terms;
            }
            S->have |= HAVE_V << j;
        }
        *a = pv9m(S->A->ue[i], S->umax[0][i]);
        *na = dA;
        *b = pv_slots(v, st, S->vmax[j]);
        *nb = dB + dD;
    }
}

static const term *axis_terms(solver *S, int axis, int *nt);

/*
 * General motions: are the edges of edge axis `axis` nearly parallel, the
 * products of its terms (b_j with A's other two directions, a_i with B's)
 * all cancelling and so formed again (build_q)?
 */
static int edges_nearly_parallel(solver *S, int axis)
{
    int nt;
    const term *t = axis_terms(S, axis, &nt);
    uint32_t all = 0;
    for (int k = 0; k < nt; k++) {
        need_q(S, t[k].q);
        all |= 1u << t[k].q;
    }
    return nt > 0 && (S->qsharp & all) == all;
}

/*
 * x of an edge axis of nearly parallel edges (general motions), formed
 * again as (uA_i x uB_j) . D in double-double.  Its size is what is left to
 * round: its own coefficients, and D's rounding (a few ulps of the size of
 * D's terms, dmax) times the size of uA_i x uB_j.
 */
static BX_NOINLINE void sharp_x(solver *S, int axis, double *out)
{
    int i = (axis - 6) / 3, j = (axis - 6) % 3;
    double nmax = cross_dot_sharp(pv9(S->A->ue[i]), S->dA, pv9(S->B->ue[j]), S->dB,
                                  pv_slots(S->D, S->stride, NULL), S->dD, out);
    S->xscale[axis] = bxp_max_abs(out, S->xdeg[axis]) +
                      nmax * (S->dmax[0] + S->dmax[1] + S->dmax[2]);
    S->xsharp |= 1u << axis;
}

/* x_n = n . D for the axis, in Bernstein form, built when first needed. */
static const double *need_x(solver *S, int axis)
{
    double *out = S->xb + axis * S->stride;
    if (S->xbuilt & (1u << axis))
        return out;
    pvec a, b;
    int na, nb;
    x_factors(S, axis, &a, &na, &b, &nb);
    S->xdeg[axis] = na + nb;
    S->xscale[axis] = dot_poly(a, na, b, nb, out);
    if (!S->rigid && axis >= 6 &&
        bxp_max_abs(out, S->xdeg[axis]) < SHARP_BELOW * S->xscale[axis] &&
        edges_nearly_parallel(S, axis))
        sharp_x(S, axis, out);
    bxp_sbern_to_bern(out, S->xdeg[axis], out);
    S->xbuilt |= 1u << axis;
    return out;
}

/* The terms of axis function f_axis (at most 4). */
static int list_terms(const solver *S, int axis, term *t)
{
    const double *hA = S->A->half, *hB = S->B->half;
    int n = 0;
    if (S->rigid) {
        if (axis < 3) {
            int i = axis;
            t[n++] = (term){Q_WA2, W_B, hA[i]};
            for (int k = 0; k < 3; k++)
                t[n++] = (term){3 * i + k, W_A, hB[k]};
        } else if (axis < 6) {
            int j = axis - 3;
            for (int k = 0; k < 3; k++)
                t[n++] = (term){3 * k + j, W_B, hA[k]};
            t[n++] = (term){Q_WB2, W_A, hB[j]};
        } else {
            int i = (axis - 6) / 3, j = (axis - 6) % 3;
            for (int k = 0; k < 3; k++)
                if (k != i)
                    t[n++] = (term){3 * (3 - i - k) + j, W_AB, hA[k]};
            for (int k = 0; k < 3; k++)
                if (k != j)
                    t[n++] = (term){3 * i + (3 - j - k), W_AB, hB[k]};
        }
    } else if (axis < 3) {
        int i = axis;
        t[n++] = (term){Q_DETA, W_B, hA[i]};
        for (int k = 0; k < 3; k++)
            t[n++] = (term){3 * i + k, W_A, hB[k]};
    } else if (axis < 6) {
        int j = axis - 3;
        for (int k = 0; k < 3; k++)
            t[n++] = (term){9 + 3 * j + k, W_B, hA[k]};
        t[n++] = (term){Q_DETB, W_A, hB[j]};
    } else {
        int i = (axis - 6) / 3, j = (axis - 6) % 3;
        for (int k = 0; k < 3; k++)
            if (k != i)
                t[n++] = (term){3 * (3 - i - k) + j, W_B, hA[k]};
        for (int k = 0; k < 3; k++)
            if (k != j)
                t[n++] = (term){9 + 3 * (3 - j - k) + i, W_A, hB[k]};
    }
    /* Drop flat directions (plates): they contribute nothing. */
    int m = 0;
    for (int k = 0; k < n; k++)
        if (t[k].coef > 0.0)
            t[m++] = t[k];
    return m;
}

/* The terms of axis function f_axis (nt of them), listed when first needed. */
static const term *axis_terms(solver *S, int axis, int *nt)
{
    if (!(S->termsbuilt & (1u << axis))) {
        S->nterms[axis] = (signed char)list_terms(S, axis, S->terms[axis]);
        S->termsbuilt |= 1u << axis;
    }
    *nt = S->nterms[axis];
    return S->terms[axis];
}

/* The weight polynomial of a term (scaled Bernstein) and its degree. */
static const double *weight(const solver *S, int w, int *deg)
{
    if (w == W_A) {
        *deg = S->dA;
        return S->A->we;
    }
    if (w == W_B) {
        *deg = S->dB;
        return S->B->we;
    }
    *deg = S->dA + S->dB;
    return S->wAB;
}

/* Rounding level of f_axis: a few ulps of the size of its terms. */
static double axis_noise(solver *S, int axis)
{
    if (S->noisebuilt & (1u << axis))
        return S->xnoise[axis];
    int nt;
    const term *t = axis_terms(S, axis, &nt);
    need_x(S, axis);
    double noise = S->xscale[axis], own = 0.0, size = 0.0;
    for (int k = 0; k < nt; k++) {
        need_q(S, t[k].q);
        noise += t[k].coef * S->wscale[t[k].w] * S->qscale[t[k].q];
        own += S->qown[t[k].q];
        size += S->qscale[t[k].q];
    }
    /*
     * Rigid motions: an edge axis whose products all cancel (below
     * SHARP_BELOW of their terms' size, together) pairs two nearly
     * parallel edges.  Its terms stand for det(uA_i, uA_k, uB_j) through A's
     * rigidity (uA_i x uA_k = wA uA_m), which holds to rounding only: an
     * error of eps against terms of the size of the edges' sine, and as
     * much in the gap over that sine.  The query is solved again as general
     * motions, whose terms are those determinants, formed in double-double.
     */
    if (S->rigid && axis >= 6 && own < SHARP_BELOW * size)
        S->want_general = 1;
    S->xnoise[axis] = noise * 16.0 * DBL_EPSILON;
    S->noisebuilt |= 1u << axis;
    return S->xnoise[axis];
}

/* f_axis at s, from its polynomials. */
static double axis_value(solver *S, int axis, double s)
{
    int nt;
    const term *t = axis_terms(S, axis, &nt);
    const double *xb = need_x(S, axis);
    double f = fabs(bxp_bern_eval(xb, S->xdeg[axis], s));
    for (int k = 0; k < nt; k++) {
        int dw;
        const double *w = weight(S, t[k].w, &dw);
        const double *q = need_q(S, t[k].q);
        f -= t[k].coef * bxp_sbern_eval(w, dw, s) *
             fabs(bxp_sbern_eval(q, S->qdeg[t[k].q], s));
    }
    return f;
}

/* out = sum_r |a_r| |b_r| coefficient by coefficient (scaled Bernstein). */
static void abs_dot(pvec a, int n, pvec b, int m, double *out)
{
    dot_poly_any(a, n, b, m, 1, out);
}

/* out = |a| |b| coefficient by coefficient (scaled Bernstein). */
static void abs_mul(const double *a, int n, const double *b, int m, double *out)
{
    for (int k = 0; k <= n + m; k++)
        out[k] = 0.0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= m; j++)
            out[i + j] += fabs(a[i]) * fabs(b[j]);
}

/*
 * Bounds of the terms of D's rows, |pB| |wA| + |pA| |wB| coefficient by
 * coefficient (scaled Bernstein, degree dD): the size of D's rounding at
 * each s, for axis_noise_poly.
 */
static void abs_D(const solver *S, double (*out)[PCAP])
{
    const bx_moving *A = S->A, *B = S->B;
    int nb = B->d + S->dA, na = A->d + S->dB;
    for (int r = 0; r < 3; r++) {
        double t[PCAP];
        abs_mul(B->p[r], B->d, A->we, S->dA, out[r]);
        if (nb < S->dD)
            bxp_sbern_elevate(out[r], nb, S->dD - nb, out[r]);
        abs_mul(A->p[r], A->d, B->we, S->dB, t);
        if (na < S->dD)
            bxp_sbern_elevate(t, na, S->dD - na, t);
        for (int i = 0; i <= S->dD; i++)
            out[r][i] += t[i];
    }
}

/*
 * The rounding level of f_axis near each s (Bernstein form on [0, 1], degree
 * of the axis): axis_noise with each product's largest coefficients replaced
 * by the polynomial of its factors' absolute coefficients, so that it bounds
 * the same sums at each s.  Where the motions' coefficients are much larger
 * than their values (a fast turn makes w large at the ends and small in
 * between) it is far below axis_noise away from the large ends.  Terms are
 * summed by weight, as in terms_bern.
 */
static void axis_noise_poly(solver *S, int axis, double *out)
{
    pvec a, b;
    int na, nb, nt, m = -1;
    x_factors(S, axis, &a, &na, &b, &nb);
    int n = na + nb;
    /*
     * The factors' absolute coefficients, with D's rounding for D: the size
     * of its terms |pB| |wA| + |pA| |wB|, not of their difference, which
     * boxes moving together far from the origin make far smaller; for a
     * cross axis's uB_j x D, the same through |uB_j|.
     */
    double dabs[3][PCAP], vabs[3][PCAP];
    abs_D(S, dabs);
    b = (pvec){{dabs[0], dabs[1], dabs[2]}, NULL};
    if (axis >= 6) {
        const double(*u)[BXM_CAP] = S->B->ue[(axis - 6) % 3];
        for (int r = 0; r < 3; r++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3;
            double t[PCAP];
            abs_mul(u[r1], S->dB, dabs[r2], S->dD, vabs[r]);
            abs_mul(u[r2], S->dB, dabs[r1], S->dD, t);
            for (int i = 0; i <= S->dB + S->dD; i++)
                vabs[r][i] += t[i];
        }
        b = (pvec){{vabs[0], vabs[1], vabs[2]}, NULL};
    }
    abs_dot(a, na, b, nb, out);
    const term *t = axis_terms(S, axis, &nt);
    double acc[3][PCAP], qm[PCAP], sum[PCAP];
    int qd[3] = {-1, -1, -1};
    for (int k = 0; k < nt; k++) {
        int g = t[k].w, d;
        if (q_factors(S, t[k].q, &a, &na, &b, &nb)) {
            abs_dot(a, na, b, nb, qm);
            d = na + nb;
        } else {
            const bx_moving *M = t[k].q == Q_WB2 ? S->B : S->A;
            abs_mul(M->we, M->e, M->we, M->e, qm);
            d = 2 * M->e;
        }
        if (qd[g] < 0) {
            qd[g] = d;
            for (int i = 0; i <= d; i++)
                acc[g][i] = 0.0;
        }
        for (int i = 0; i <= d; i++)
            acc[g][i] += t[k].coef * qm[i];
    }
    for (int g = 0; g < 3; g++) {
        if (qd[g] < 0)
            continue;
        double wq[PCAP], ww[PCAP];
        int dw;
        const double *w = weight(S, g, &dw);
        if (g == W_AB) { /* |wA| |wB|, not the computed product wA wB */
            abs_mul(S->A->we, S->dA, S->B->we, S->dB, ww);
            w = ww;
        }
        abs_mul(acc[g], qd[g], w, dw, wq);
        if (m < 0) {
            m = qd[g] + dw;
            for (int i = 0; i <= m; i++)
                sum[i] = 0.0;
        }
        for (int i = 0; i <= m; i++)
            sum[i] += wq[i];
    }
    if (m >= 0) {
        if (m < n)
            bxp_sbern_elevate(sum, m, n - m, sum);
        for (int i = 0; i <= n; i++)
            out[i] += sum[i];
    }
    bxp_sbern_to_bern(out, n, out);
    /* an axis formed in double-double (sharp_x) rounds by no more than its own
       level, which the sizes of its factors overstate */
    double most = S->xsharp & (1u << axis) ? axis_noise(S, axis) : INFINITY;
    for (int i = 0; i <= n; i++)
        out[i] = fmin(out[i] * (16.0 * DBL_EPSILON), most);
}

/* axis_noise_poly of an axis, kept for the last axis asked. */
static const double *need_noise_poly(solver *S, int axis)
{
    if (S->noise_axis != axis) {
        axis_noise_poly(S, axis, S->noise_poly);
        S->noise_axis = axis;
    }
    return S->noise_poly;
}

/* An axis whose search asks for its local rounding level. */
typedef struct local_noise {
    solver *S;
    int axis;
} local_noise;

/* The largest rounding level on [lo, hi] (bxp_local_noise). */
static double local_noise_at(void *ctx, double lo, double hi)
{
    const local_noise *ln = ctx;
    int n = ln->S->xdeg[ln->axis];
    double r[PCAP];
    bxp_bern_restrict(need_noise_poly(ln->S, ln->axis), n, lo, hi, r);
    return bxp_max_abs(r, n);
}

/*
 * The product W q of a term of a general motion in Bernstein form on
 * [0, 1], raised to the degree n of its axis, cached.
 */
static const double *term_bern(solver *S, const term *tk, int n)
{
    int slot = 2 * tk->q + (tk->w == W_A);
    double *out = S->tb + slot * S->stride;
    if (!(S->tbuilt & ((uint64_t)1 << slot))) {
        int dw;
        const double *w = weight(S, tk->w, &dw);
        const double *q = need_q(S, tk->q);
        int m = S->qdeg[tk->q] + dw;
        bxp_sbern_mul(q, S->qdeg[tk->q], w, dw, out);
        if (m < n)
            bxp_sbern_elevate(out, m, n - m, out);
        bxp_sbern_to_bern(out, n, out);
        S->tbuilt |= (uint64_t)1 << slot;
    }
    return out;
}

/*
 * Is the scaled Bernstein polynomial p (degree n) >= 0 at s in [0, 1], as
 * bxp_sbern_eval(p, n, s) >= 0.0 decides it?  That value is the Horner sum
 * below times a positive power of s or 1 - s, so the sum's sign decides,
 * except for a sum so small that the product could underflow.  r is
 * s / (1 - s) when rev is 0, else (1 - s) / s (bxp_sbern_eval's branches).
 */
BXP_INLINE double
sbern_horner(const double *p, int n, double r, int rev)
{
    DEGREE_IN_RANGE(n);
    double v;
    if (!rev) {
        v = p[n];
        for (int i = n - 1; i >= 0; i--)
            v = v * r + p[i];
    } else {
        v = p[0];
        for (int i = 1; i <= n; i++)
            v = v * r + p[i];
    }
    return v;
}

static int sbern_nonneg(const double *p, int n, double s, double r, int rev)
{
    double v = n == 4 ? sbern_horner(p, 4, r, rev) : sbern_horner(p, n, r, rev);
    if (v >= 0.0)
        return 1;
    if (v > -1e-250)
        return bxp_sbern_eval(p, n, s) >= 0.0;
    return 0;
}

/*
 * sum_k sigma_k coef_k W_k q_k in Bernstein form on [0, 1] (degree n, the
 * axis degree), with sigma_k the sign of q_k at s.  Terms are grouped by
 * weight, so each weight multiplies once; terms whose product is zero to
 * rounding contribute nothing.  General motions of low degree use the
 * cached products (few of their terms share a weight).
 *
 * With bound set (s unused), an upper bound of sum_k coef_k W_k |q_k| on
 * [0, 1] instead: each q_k (or cached W_k q_k) with its coefficients made
 * non-negative, which bounds |q_k| since the basis is non-negative and
 * every weight is positive (bx_prepare makes w so).
 */
static void terms_bern(solver *S, const term *t, int nt, double s, int bound,
                       int n, double *out)
{
    int rev = !bound && !(fabs(s) <= fabs(1.0 - s));
    double r = bound ? 0.0 : rev ? (1.0 - s) / s : s / (1.0 - s);
    if (S->tb) {
        /* General motions: few terms share a weight; cached products. */
        for (int i = 0; i <= n; i++)
            out[i] = 0.0;
        for (int k = 0; k < nt; k++) {
            const double *q = need_q(S, t[k].q);
            if (S->qzero[t[k].q])
                continue;
            const double *tb = term_bern(S, &t[k], n);
            if (bound) {
                for (int i = 0; i <= n; i++)
                    out[i] += t[k].coef * fabs(tb[i]);
                continue;
            }
            double c = sbern_nonneg(q, S->qdeg[t[k].q], s, r, rev) ? t[k].coef
                                                                    : -t[k].coef;
            for (int i = 0; i <= n; i++)
                out[i] += c * tb[i];
        }
        return;
    }
    double acc[3][PCAP];
    int qd[3] = {-1, -1, -1};
    for (int k = 0; k < nt; k++) {
        int g = t[k].w, iq = t[k].q;
        const double *q = need_q(S, iq);
        if (S->qzero[iq])
            continue;
        int d = S->qdeg[iq];
        double c = t[k].coef, v[PCAP];
        if (bound) {
            for (int i = 0; i <= d; i++)
                v[i] = fabs(q[i]);
            q = v;
        } else if (!sbern_nonneg(q, d, s, r, rev)) {
            c = -c;
        }
        if (qd[g] < 0) {
            qd[g] = d;
            for (int i = 0; i <= d; i++)
                acc[g][i] = c * q[i];
        } else {
            for (int i = 0; i <= d; i++)
                acc[g][i] += c * q[i];
        }
    }
    /* Every term of an axis has the same degree m <= n: elevate once. */
    int m = -1;
    for (int g = 0; g < 3; g++)
        if (qd[g] >= 0) {
            int dw;
            const double *w = weight(S, g, &dw);
            if (m < 0) {
                m = qd[g] + dw;
                for (int i = 0; i <= m; i++)
                    out[i] = 0.0;
            }
            bxp_sbern_muladd(out, 1.0, acc[g], qd[g], w, dw);
        }
    if (m < 0) {
        for (int i = 0; i <= n; i++)
            out[i] = 0.0;
        return;
    }
    if (m < n)
        bxp_sbern_elevate(out, m, n - m, out);
    bxp_sbern_to_bern(out, n, out);
}

/*
 * First s in [start, stop] at which f_axis > level (want_positive) or
 * f_axis <= level (!want_positive), the level being the constant level plus
 * the polynomial lp (Bernstein form, degree of the axis) when not NULL; a
 * piece within rounding of the level (noise, and its local level) counts as
 * reaching "<= level" but not "> level".  Returns 1 and *out, or 0 when
 * there is none.
 */
static int axis_first(solver *S, int axis, double start, double stop,
                      int want_positive, double level, const double *lp,
                      double noise, double *out)
{
    int nt;
    const term *t = axis_terms(S, axis, &nt);
    const double *xb = need_x(S, axis);
    int n = S->xdeg[axis];
    double a = start;
    local_noise ln = {S, axis};
    const bxp_local_noise local = {local_noise_at, &ln};
    for (int piece = 0; piece < 8 * (BXP_MAX_DEGREE + 1) && a <= stop; piece++) {
        double b = stop;
        for (int k = 0; k < nt; k++)
            b = q_next_change(S, t[k].q, a, b);
        double mid = 0.5 * (a + b), gb[PCAP], gm[PCAP];
        terms_bern(S, t, nt, mid, 0, n, gb);
        if (want_positive) {
            /*
             * |x| - sum > level iff x - sum > level or -x - sum > level:
             * the first point of either, so the roots of x need no listing.
             */
            double rp, rm;
            for (int i = 0; i <= n; i++) {
                double l = lp ? level + lp[i] : level;
                gm[i] = -xb[i] - gb[i] - l;
                gb[i] = xb[i] - gb[i] - l;
            }
            int fp = bxp_bern_first_local(gb, n, a, b, 1, noise, &local, &rp);
            int fm = bxp_bern_first_local(gm, n, a, fp ? rp : b, 1, noise, &local, &rm);
            if (fp || fm) {
                *out = fm && (!fp || rm < rp) ? rm : rp;
                return 1;
            }
        } else {
            /*
             * While the axis separates, n . D cannot change sign: its sign at
             * the start of the piece holds up to the first point sought.
             */
            double sx = bxp_bern_eval(xb, n, a) >= 0.0 ? 1.0 : -1.0;
            for (int i = 0; i <= n; i++)
                gb[i] = sx * xb[i] - gb[i] - (lp ? level + lp[i] : level);
            if (bxp_bern_first_local(gb, n, a, b, 0, noise, &local, out))
                return 1;
        }
        if (b >= stop)
            return 0;
        a = b;
    }
    return 0;
}

/*
 * Does f_axis stay <= level on all of [a, c]?  An upper bound from
 * Bernstein coefficients: with x_i those of n . D and T_ki those of W_k q_k,
 *   f <= sum_i (|x_i| - sum_k h_k sigma_k T_ki) B_i
 * for any signs sigma_k (|p| <= sum |p_i| B_i, and -|q| <= -sigma q), exact
 * where x and the q_k keep one sign; sigma_k is the sign of q_k at the
 * middle.  Returns 1 when the bound is <= level everywhere, 0 when it does
 * not decide.  With lp (Bernstein form, degree of the axis) the level is
 * level + lp(s).
 */
static int axis_below(solver *S, int axis, double a, double c, double level,
                      const double *lp)
{
    int nt;
    const term *t = axis_terms(S, axis, &nt);
    const double *xb = need_x(S, axis);
    int n = S->xdeg[axis];
    double xr[PCAP], sum[PCAP];
    terms_bern(S, t, nt, 0.5 * (a + c), 0, n, sum);
    if (lp)
        for (int i = 0; i <= n; i++)
            sum[i] += lp[i];
    /* The bound on all of [0, 1] already holds on [a, c]. */
    int whole = 1, pos = 1, neg = 1;
    for (int i = 0; i <= n; i++) {
        whole &= fabs(xb[i]) - sum[i] <= level;
        pos &= xb[i] > 0.0;
        neg &= xb[i] < 0.0;
    }
    if (whole)
        return 1;
    if (pos || neg) {
        /* x keeps its sign: |x| - sum is one polynomial, one restriction. */
        double sx = pos ? 1.0 : -1.0;
        for (int i = 0; i <= n; i++)
            sum[i] = sx * xb[i] - sum[i];
        bxp_bern_restrict(sum, n, a, c, sum);
        for (int i = 0; i <= n; i++)
            if (!(sum[i] <= level))
                return 0;
        return 1;
    }
    bxp_bern_restrict2(xb, sum, n, a, c, xr, sum);
    for (int i = 0; i <= n; i++)
        if (!(fabs(xr[i]) - sum[i] <= level))
            return 0;
    return 1;
}

/*
 * Does f_axis stay above level on all of [a, c]?  A lower bound that needs
 * no roots of the products: |x| >= sx x for either sign sx, and the terms
 * bounded above as in terms_bern, so
 *   f >= sx x - sum_k coef_k W_k Qbar_k,
 * one polynomial whose Bernstein coefficients on [a, c] bound it below.
 * Returns 1 when every one exceeds level.
 */
static int axis_above(solver *S, int axis, double a, double c, double level)
{
    int nt;
    const term *t = axis_terms(S, axis, &nt);
    const double *xb = need_x(S, axis);
    int n = S->xdeg[axis];
    double sum[PCAP];
    terms_bern(S, t, nt, 0.0, 1, n, sum);
    double sx = bxp_bern_eval(xb, n, a) >= 0.0 ? 1.0 : -1.0;
    for (int i = 0; i <= n; i++)
        sum[i] = sx * xb[i] - sum[i];
    if (a > 0.0 || c < 1.0)
        bxp_bern_restrict(sum, n, a, c, sum);
    for (int i = 0; i <= n; i++)
        if (!(sum[i] > level))
            return 0;
    return 1;
}

/*
 * The sign of f_axis at s beyond its rounding level (the axis's, then the
 * local one): 1, -1, or 0 when it is within rounding of 0.
 */
static int axis_sign(solver *S, int axis, double s, double noise)
{
    double f = axis_value(S, axis, s);
    if (!(fabs(f) > noise)) {
        double local = bxp_bern_eval(need_noise_poly(S, axis), S->xdeg[axis], s);
        if (!(fabs(f) > local))
            return 0;
    }
    return f > 0.0 ? 1 : -1;
}

/*
 * The first point after a at which f_axis rises above 0 (above lp, when
 * given) and the boxes part: axis_first, passing over the points at which
 * f_axis only reaches 0.  Where the two edges of an edge axis turn parallel
 * its direction vanishes, and with it every term of f_axis; where a corner
 * skims a face from inside, f_axis touches 0 from below.  At either,
 * rounding may read a little above 0 while the boxes still overlap.  So the
 * point found counts only when f_axis, looked at EXIT_PROBE, ten and a
 * hundred times that... after it, is first clearly above 0 (beyond its
 * rounding level, and the poses part the boxes along the axis by more than
 * the touching tolerance) or never clear of it up to stop; when it is first
 * clearly below 0, the search goes on from there.  The poses confirm what
 * the polynomial says: its rounding can exceed the level estimated for it,
 * and a segment lying in a box's face, touching it from inside at one
 * instant (the boxes 2 (t + 1)^2 deep along the axis), was read 2.3 times
 * that level above 0 just after and its contact ended there.  Returns 1
 * and *out, or 0 when there is none before stop.
 */
static int poses_apart(const solver *S, int axis, double s);
static int poses_part(const solver *S, double r, double stop, double *out);
static double poses_rise(const solver *S, int axis, double a, double r, double p);

/* axis_sign at a probe, a positive sign counting only where the poses part
   the boxes along the axis too (0 otherwise). */
static int probe_sign(solver *S, int axis, double p, double noise)
{
    int sign = axis_sign(S, axis, p, noise);
    return sign > 0 && !poses_apart(S, axis, p) ? 0 : sign;
}

static int exit_first(solver *S, int axis, double a, double stop, const double *lp,
                      double noise, double *out)
{
    for (int pass = 0; pass < EXIT_PASSES; pass++) {
        double r, p;
        if (!axis_first(S, axis, a, stop, 1, 0.0, lp, noise, &r))
            return 0;
        int sign = 0;
        p = r;
        for (double h = EXIT_PROBE; p < stop && !sign; h *= 10.0) {
            p = fmin(r + h, stop);
            sign = probe_sign(S, axis, p, noise);
        }
        if (sign == 0 && pass < EXIT_PASSES - 1) {
            /*
             * Never clear of its rounding up to stop: where the poses hold
             * the boxes together at r (every axis of theirs overlapping by
             * more than the touching tolerance), r is the axis's rounding,
             * not the end of the contact.  The poses decide up to stop: the
             * first point at which they part the boxes, by bisection from
             * stop, or none (two frames turning through alignment, an edge
             * axis between them within 12 times its rounding level of 0
             * and parallel at r, ended a contact 1e-8 of the interval
             * early, the boxes 1.5e-6 deep).
             */
            int parts = poses_part(S, r, stop, out);
            if (parts >= 0)
                return parts;
        }
        if (sign > 0 && p > r + EXIT_PROBE) {
            /*
             * Clear of its rounding only at a later probe: the axis may
             * rise anywhere up to there, and r is where the polynomial
             * crosses within its rounding, which can be far from that
             * where the axis's slope is small (edges turning through
             * parallel as the contact ends put an exit 4.8e-5 of the
             * interval early, the boxes 1.4e-6 deep, or 6.4e-5 late, 5e-7
             * apart).  Where its edges are nearly parallel, the poses
             * decide (poses_rise).
             */
            *out = poses_rise(S, axis, a, r, p);
            return 1;
        }
        if (sign >= 0 || pass == EXIT_PASSES - 1) {
            *out = r;
            return 1;
        }
        if (p >= stop)
            return 0;
        a = p;
    }
    return 0;
}

/*
 * Does the axis, above its rounding level all through (a, b), part the
 * boxes somewhere there: clearly above 0 and the poses apart along it by
 * more than the touching tolerance, looked at EXIT_PROBE, ten and a hundred
 * times that... after a, and halfway?  An axis still closing stays within
 * the tolerance up to b.
 */
static int parts_before(solver *S, int axis, double a, double b, double noise)
{
    for (double h = EXIT_PROBE;; h *= 10.0) {
        double p = a + h >= b ? 0.5 * (a + b) : a + h;
        if (p > a && probe_sign(S, axis, p, noise) > 0)
            return 1;
        if (a + h >= b)
            return 0;
    }
}

/*
 * When the contact that started at tau ends on this axis: the first s at
 * which f_axis > 0 after it has really gone below zero.  An axis touching at
 * tau (|f| within its rounding level N(s), axis_noise_poly) must first reach
 * -N; if it rises above +N before that, the contact was a graze and ends
 * where it rises (a rise after it has come down to +N, for one above +N at
 * tau and within the touching tolerance).  With bound set, axis_below is
 * tried first and may show there is none before stop without a search (the
 * answer is the same either way).  An axis within rounding of 0 at tau is
 * bounded from above before any search too: if it stays at or below 0 up to
 * stop, or below +N, it ends nothing there (the searches could only find it
 * back above 0 by rounding).
 */
static int axis_exit(solver *S, int axis, double tau, double stop, int bound,
                     double *out)
{
    double noise = axis_noise(S, axis), deep = 0.0, up, f;
    if (bound && axis_below(S, axis, tau, stop, -noise, NULL))
        return 0;
    /* Below minus the global level, or else the local one (built only then). */
    int n = S->xdeg[axis];
    f = axis_value(S, axis, tau);
    /* Within rounding of 0 at tau and never above 0 up to stop: no exit. */
    if (!(f < -noise) && axis_below(S, axis, tau, stop, 0.0, NULL))
        return 0;
    if (f < -noise || f < -bxp_bern_eval(need_noise_poly(S, axis), n, tau))
        return exit_first(S, axis, tau, stop, NULL, noise, out);
    const double *lp = need_noise_poly(S, axis); /* built just above */
    /*
     * Bounded by +N up to stop: it never rises above its rounding level, so
     * no graze ends there, and after sinking it can come back above 0 by
     * rounding at most, which does not end a contact either.
     */
    if (axis_below(S, axis, tau, stop, 0.0, lp))
        return 0;
    double lm[PCAP];
    for (int i = 0; i <= n; i++)
        lm[i] = -lp[i];
    /*
     * Where it first sinks to -N (usually just after tau), then whether it
     * rises to +N before that: only the short stretch to the sinking point
     * can hold a rise, and it is searched only when the upper bound there
     * does not already stay below +N.
     */
    int sinks = axis_first(S, axis, tau, stop, 0, 0.0, lm, noise, &deep);
    /*
     * Above +N at tau (touching within the touching tolerance, not within
     * rounding: still closing), a rise counts only once it has come down
     * to +N; if it never does, or the axis parts the boxes before it does
     * (it was opening, not closing), the contact is a graze that ends at
     * tau.
     */
    double from = tau;
    if (f > bxp_bern_eval(lp, n, tau) &&
        (!axis_first(S, axis, tau, sinks ? deep : stop, 0, 0.0, lp, noise, &from) ||
         parts_before(S, axis, tau, from, noise)))
        from = tau;
    int may_graze = !(sinks && axis_below(S, axis, from, deep, 0.0, lp));
    if (may_graze && exit_first(S, axis, from, sinks ? deep : stop, lp, noise, &up) &&
        (!sinks || up < deep)) {
        *out = up;
        return 1;
    }
    if (sinks)
        return exit_first(S, axis, deep, stop, NULL, noise, out);
    return 0;
}

/*
 * Do edge i of A and edge j of B stay within `sine` of parallel over the
 * whole interval?  The square of the sine of their angle is
 * |uA_i x uB_j|^2 / (|uA_i|^2 |uB_j|^2): bounded by the largest Bernstein
 * coefficient of the numerator over the least of each factor of the
 * denominator.
 */
static BX_NOINLINE int parallel_within(const solver *S, int i, int j, double sine)
{
    int dA = S->dA, dB = S->dB, n = dA + dB;
    double c[3][PCAP], n2[PCAP], a2[PCAP], b2[PCAP], la = INFINITY, lb = INFINITY;
    pvec a = pv9(S->A->ue[i]), b = pv9(S->B->ue[j]);
    for (int r = 0; r < 3; r++)
        cross_row(a, dA, b, dB, r, c[r]);
    pvec cv = {{c[0], c[1], c[2]}, NULL};
    dot_poly_any(cv, n, cv, n, 0, n2);
    dot_poly_any(a, dA, a, dA, 0, a2);
    dot_poly_any(b, dB, b, dB, 0, b2);
    bxp_sbern_to_bern(n2, 2 * n, n2);
    bxp_sbern_to_bern(a2, 2 * dA, a2);
    bxp_sbern_to_bern(b2, 2 * dB, b2);
    for (int k = 0; k <= 2 * dA; k++)
        la = fmin(la, a2[k]);
    for (int k = 0; k <= 2 * dB; k++)
        lb = fmin(lb, b2[k]);
    return la > 0.0 && lb > 0.0 && bxp_max_abs(n2, 2 * n) <= sine * sine * la * lb;
}

/*
 * Is this an edge axis a_i x b_j whose edges stay parallel over the whole
 * interval?  Then the products of b_j with A's other two directions (q
 * numbers 3 m + j, m != i, for rigid and general motions alike) vanish to
 * rounding, the axis function is zero but for rounding, and it separates
 * nowhere: its rounding must not be read as the end of a contact.  General
 * motions form those products in double-double (build_q), so that they keep
 * their digits however small; for them, edges within 1e-8 of parallel over
 * the whole interval (parallel_within) count.  The exit found without
 * their axis is late by at most what it would part the boxes by, 1e-8 of
 * the edges' length, well inside the exit's allowance.  The poses leave out
 * edges within 1e-9 of parallel (axis_separation), so that a contact can be
 * found with such an axis still a little above 0, by less than the touching
 * tolerance; its own function would then end the contact at once.
 */
static int axis_degenerate(solver *S, int axis)
{
    if (axis < 6)
        return 0;
    int i = (axis - 6) / 3, j = (axis - 6) % 3;
    for (int m = 0; m < 3; m++)
        if (m != i) {
            int q = 3 * m + j;
            need_q(S, q);
            if (S->rigid ? !S->qzero[q] : !(S->qsharp & (1u << q)))
                return 0;
        }
    return S->rigid || parallel_within(S, i, j, 1e-8);
}

/* Normalised separation along every axis at one pose. */
typedef struct sat {
    double d[NAXES];     /* gap along the axis (negative: overlap) */
    int valid[NAXES];    /* 0 for a degenerate (parallel edges) axis */
    bx_pose pa, pb;
} sat;

/* What every axis of one pose pair shares: centre offset, squared axis lengths. */
typedef struct pose_pair {
    double dc[3], la[3], lb[3];
} pose_pair;

/* Fill the shared quantities of the poses in st. */
static void pose_pair_of(const sat *st, pose_pair *pp)
{
    for (int r = 0; r < 3; r++) {
        pp->dc[r] = st->pb.c[r] - st->pa.c[r];
        pp->la[r] = bx_dot3(st->pa.axis[r], st->pa.axis[r]);
        pp->lb[r] = bx_dot3(st->pb.axis[r], st->pb.axis[r]);
    }
}

/* The sign of the first of v's z, y, x components beyond tol (0: none). */
static double first_sign(const double *v, double tol)
{
    for (int r = 2; r >= 0; r--)
        if (fabs(v[r]) > tol)
            return v[r] > 0.0 ? 1.0 : -1.0;
    return 0.0;
}

/*
 * Does the line of unit vector n come before that of m?  A line is read
 * with the sign that makes the first of its z, y, x components not about 0
 * positive, and lines compare by z, then y, then x, the larger first:
 * from the geometry alone, so that the same lines read from the other box
 * (the normals negated) come in the same order.
 */
static int line_first(const double *n, const double *m)
{
    const double eps = 1e-9;
    double sn = first_sign(n, eps), sm = first_sign(m, eps);
    for (int r = 2; r >= 0; r--)
        if (fabs(sn * n[r] - sm * m[r]) > eps)
            return sn * n[r] > sm * m[r];
    return 0;
}

/*
 * Where the centres' offset along a unit normal n is within tol of 0
 * (plates in one plane), it cannot orient n from A to B.  Then n is read
 * with the sign line_first gives its line, times the sign of the first of
 * the offset's z, y, x components beyond tol: swapping A and B negates the
 * offset, so the normal.  Centres within tol of each other leave n as it is.
 */
static void orient_by_offset(double *n, const double *dc, double tol)
{
    if (first_sign(n, 1e-9) * first_sign(dc, tol) < 0.0)
        for (int r = 0; r < 3; r++)
            n[r] = -n[r];
}

/*
 * A cross product n of axes whose squared lengths are r1 and r2, scaled by
 * a power of two (exactly) to components near 1, with r1 and r2 scaled to
 * match: the axes of a motion that shrinks a box by 1e81 give a cross
 * product whose square underflows, and a normal that is not of unit length.
 */
static BX_NOINLINE void scale_to_unit(double *n, double *r1, double *r2)
{
    double m = fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2])));
    int e;
    if (!(m > 0.0) || !isfinite(m))
        return;
    frexp(m, &e);
    for (int r = 0; r < 3; r++)
        n[r] = ldexp(n[r], -e);
    *r1 = ldexp(*r1, -e);
    *r2 = ldexp(*r2, -e);
}

static void cross3_accurate(const double *a, const double *b, double *o);

/*
 * Separation along one axis at the poses (sat.d), or -INFINITY when the
 * axis is degenerate (|n|^2 <= least |u|^2 |v|^2, parallel edges); when
 * n_out is given, also the unit axis oriented from A to B.  Face axes of
 * rigid boxes are the box axes themselves.
 */
static double axis_separation_below(const solver *S, const sat *st, const pose_pair *pp,
                                    int axis, double *n_out, double least)
{
    const bx_pose *pa = &st->pa, *pb = &st->pb;
    double n[3], r1, r2 = 1.0; /* ref2 = r1 r2: the squared lengths crossed */
    if (axis < 6 && S->rigid) {
        memcpy(n, axis < 3 ? pa->axis[axis] : pb->axis[axis - 3], sizeof n);
        r1 = axis < 3 ? pp->la[axis] : pp->lb[axis - 3];
    } else if (axis < 3) {
        int i1 = (axis + 1) % 3, i2 = (axis + 2) % 3;
        bx_cross3(pa->axis[i1], pa->axis[i2], n);
        r1 = pp->la[i1];
        r2 = pp->la[i2];
    } else if (axis < 6) {
        int j1 = (axis + 1) % 3, j2 = (axis + 2) % 3;
        bx_cross3(pb->axis[j1], pb->axis[j2], n);
        r1 = pp->lb[j1];
        r2 = pp->lb[j2];
    } else {
        int i = (axis - 6) / 3, j = (axis - 6) % 3;
        bx_cross3(pa->axis[i], pb->axis[j], n);
        r1 = pp->la[i];
        r2 = pp->lb[j];
        /* nearly parallel edges: each component rounded once, not formed
           from the difference of two rounded products */
        if (bx_dot3(n, n) < 1e-4 * (r1 * r2))
            cross3_accurate(pa->axis[i], pb->axis[j], n);
    }
    double len2 = bx_dot3(n, n);
    if (!(len2 > 0x1p-900 && len2 < 0x1p900) && !(axis < 6 && S->rigid)) {
        scale_to_unit(n, &r1, &r2);
        len2 = bx_dot3(n, n);
    }
    if (!(len2 > least * (r1 * r2)))
        return -INFINITY;
    double inv = 1.0 / sqrt(len2);
    if (bx_dot3(n, pp->dc) < 0.0)
        inv = -inv;
    for (int r = 0; r < 3; r++)
        n[r] *= inv;
    double sum = 0.0;
    for (int k = 0; k < 3; k++)
        sum += fabs(bx_dot3(n, pa->g[k])) + fabs(bx_dot3(n, pb->g[k]));
    double gap = bx_dot3(n, pp->dc) - sum;
    if (n_out) {
        memcpy(n_out, n, sizeof n);
        if (!(fabs(gap + sum) > S->tol))
            orient_by_offset(n_out, pp->dc, S->tol);
    }
    return gap;
}

/* axis_separation_below with the solver's degenerate axes: |n| <= 1e-9 |u| |v|. */
static double axis_separation(const solver *S, const sat *st,
                              const pose_pair *pp, int axis, double *n_out)
{
    return axis_separation_below(S, st, pp, axis, n_out, 1e-18);
}

/* The poses at s part the boxes along axis by more than the touching
   tolerance (exit_first). */
static BX_NOINLINE int poses_apart(const solver *S, int axis, double s)
{
    sat st;
    pose_pair pp;
    bx_pose_at(S->A, s, &st.pa);
    bx_pose_at(S->B, s, &st.pb);
    pose_pair_of(&st, &pp);
    return axis_separation(S, &st, &pp, axis, NULL) > S->tol;
}

/*
 * Rigid boxes (unit orthogonal axes a_i, b_j): every separation from the
 * nine R_ij = a_i . b_j and the centre offset in both frames, with no cross
 * products.  Nearly parallel edge pairs, where 1 - R_ij^2 loses its digits,
 * take the general formula.
 */
static void sat_rigid(const solver *S, sat *st)
{
    const bx_pose *pa = &st->pa, *pb = &st->pb;
    const double *hA = S->A->half, *hB = S->B->half;
    double R[3][3], AR[3][3], tA[3], tB[3], dc[3];
    for (int r = 0; r < 3; r++)
        dc[r] = pb->c[r] - pa->c[r];
    for (int i = 0; i < 3; i++) {
        tA[i] = bx_dot3(dc, pa->axis[i]);
        tB[i] = bx_dot3(dc, pb->axis[i]);
        for (int j = 0; j < 3; j++) {
            R[i][j] = bx_dot3(pa->axis[i], pb->axis[j]);
            AR[i][j] = fabs(R[i][j]);
        }
    }
    for (int i = 0; i < 3; i++) {
        st->valid[i] = st->valid[3 + i] = 1;
        st->d[i] = fabs(tA[i]) - hA[i] -
                   (hB[0] * AR[i][0] + hB[1] * AR[i][1] + hB[2] * AR[i][2]);
        st->d[3 + i] = fabs(tB[i]) - hB[i] -
                       (hA[0] * AR[0][i] + hA[1] * AR[1][i] + hA[2] * AR[2][i]);
    }
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3, axis = 6 + 3 * i + j;
            double len2 = (1.0 - AR[i][j]) * (1.0 + AR[i][j]);
            if (len2 < 1e-4) {
                pose_pair pp;
                pose_pair_of(st, &pp);
                st->d[axis] = axis_separation(S, st, &pp, axis, NULL);
                st->valid[axis] = st->d[axis] > -INFINITY;
                continue;
            }
            double t = tA[i2] * R[i1][j] - tA[i1] * R[i2][j];
            double rA = hA[i1] * AR[i2][j] + hA[i2] * AR[i1][j];
            double rB = hB[j1] * AR[i][j2] + hB[j2] * AR[i][j1];
            st->valid[axis] = 1;
            st->d[axis] = (fabs(t) - rA - rB) / sqrt(len2);
        }
    }
}

/* Poses and separations along every axis at s. */
static void sat_at(const solver *S, double s, sat *st)
{
    bx_pose_at(S->A, s, &st->pa);
    bx_pose_at(S->B, s, &st->pb);
    if (S->rigid) {
        sat_rigid(S, st);
        return;
    }
    pose_pair pp;
    pose_pair_of(st, &pp);
    for (int axis = 0; axis < NAXES; axis++) {
        st->d[axis] = axis_separation(S, st, &pp, axis, NULL);
        st->valid[axis] = st->d[axis] > -INFINITY;
    }
}

/*
 * Side (+1 or -1) of generator g at which a box's support along dir lies
 * (side_toward), or along -dir (side_away).  Where g is square to dir
 * within 1e-12 (a zero extent, or a face parallel to the contact), both
 * name the - side, so that A and B name such a side alike and swapping them
 * swaps names, whatever sign rounding gives the product.
 */
static signed char side_toward(const double *dir, const double *g)
{
    return bx_dot3(dir, g) > 1e-12 * sqrt(bx_dot3(g, g)) ? 1 : -1;
}

static signed char side_away(const double *dir, const double *g)
{
    return bx_dot3(dir, g) < -1e-12 * sqrt(bx_dot3(g, g)) ? 1 : -1;
}

/*
 * Coordinates of a world point along the box's local axes, about its centre
 * (the box is |coordinate k| <= half[k]).  The axes are never singular.
 */
static int to_local(const bx_pose *p, const double *x, double *out)
{
    double v[3], x12[3], x20[3], x01[3];
    for (int r = 0; r < 3; r++)
        v[r] = x[r] - p->c[r];
    bx_cross3(p->axis[1], p->axis[2], x12);
    bx_cross3(p->axis[2], p->axis[0], x20);
    bx_cross3(p->axis[0], p->axis[1], x01);
    double det = bx_dot3(p->axis[0], x12);
    if (det == 0.0 || !isfinite(det))
        return 0;
    out[0] = bx_dot3(v, x12) / det;
    out[1] = bx_dot3(v, x20) / det;
    out[2] = bx_dot3(v, x01) / det;
    /* a determinant within rounding of a subnormal overflows the quotients */
    return isfinite(out[0]) && isfinite(out[1]) && isfinite(out[2]);
}

/* v clamped to [-h, h]. */
static double clampd(double v, double h)
{
    return v > h ? h : v < -h ? -h : v;
}

/*
 * Clip a convex polygon (2D, corners in order) to the rectangle
 * |x| <= h[0], |y| <= h[1], into out (16 corners at most); poly is left as
 * it was.  Returns the number of corners, 0 when nothing is left.
 */
static int clip_rect(const double (*poly)[2], int n, const double h[2], double (*out)[2])
{
    double tmp[16][2];
    if (n > 16)
        n = 16;
    memcpy(out, poly, (size_t)n * sizeof *tmp);
    for (int edge = 0; edge < 4 && n > 0; edge++) {
        int axis = edge / 2, m = 0;
        double sgn = edge % 2 ? -1.0 : 1.0;
        for (int i = 0; i < n; i++) {
            const double *p = out[i], *q = out[(i + 1) % n];
            double dp = h[axis] - sgn * p[axis], dq = h[axis] - sgn * q[axis];
            if (dp >= 0.0 && m < 16) {
                tmp[m][0] = p[0];
                tmp[m][1] = p[1];
                m++;
            }
            if ((dp >= 0.0) != (dq >= 0.0) && m < 16) {
                double u = dp / (dp - dq);
                tmp[m][0] = p[0] + u * (q[0] - p[0]);
                tmp[m][1] = p[1] + u * (q[1] - p[1]);
                m++;
            }
        }
        n = m;
        memcpy(out, tmp, (size_t)n * sizeof *tmp);
    }
    return n;
}

/*
 * The two regions, a polygon (n corners in order; 2: a segment, 1: a
 * point) and the rectangle |x| <= h[0], |y| <= h[1], are apart or meet
 * only within rounding: the midpoint of their closest points, distances
 * measured with the coordinates scaled by len (the lengths of the units);
 * returns their distance.
 */
static double closest_to_rect(const double (*poly)[2], int n, const double h[2],
                              const double len[2], double *mid)
{
    double best = INFINITY;
    mid[0] = clampd(poly[0][0], h[0]);
    mid[1] = clampd(poly[0][1], h[1]);
    for (int k = 0; k < n; k++) {
        /* a corner of the polygon and its nearest point of the rectangle */
        double r0 = clampd(poly[k][0], h[0]), r1 = clampd(poly[k][1], h[1]);
        double e0 = (poly[k][0] - r0) * len[0], e1 = (poly[k][1] - r1) * len[1];
        double d = e0 * e0 + e1 * e1;
        if (d < best) {
            best = d;
            mid[0] = 0.5 * (poly[k][0] + r0);
            mid[1] = 0.5 * (poly[k][1] + r1);
        }
        if (n < 2 || (n == 2 && k == 1))
            continue;
        /* a corner of the rectangle and its nearest point of side k */
        const double *p = poly[k], *q = poly[(k + 1) % n];
        double s0 = (q[0] - p[0]) * len[0], s1 = (q[1] - p[1]) * len[1];
        double ss = s0 * s0 + s1 * s1;
        for (int c = 0; c < 4 && ss > 0.0; c++) {
            double c0 = (c & 1) ? h[0] : -h[0], c1 = (c & 2) ? h[1] : -h[1];
            double u = ((c0 - p[0]) * len[0] * s0 + (c1 - p[1]) * len[1] * s1) / ss;
            u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
            double x0 = p[0] + u * (q[0] - p[0]), x1 = p[1] + u * (q[1] - p[1]);
            double f0 = (x0 - c0) * len[0], f1 = (x1 - c1) * len[1];
            d = f0 * f0 + f1 * f1;
            if (d < best) {
                best = d;
                mid[0] = 0.5 * (x0 + c0);
                mid[1] = 0.5 * (x1 + c1);
            }
        }
    }
    return sqrt(best);
}

/*
 * The centre of a convex polygon (2D), its corners in order: the mean of
 * its proper corners (clipping repeats corners, and leaves points on sides,
 * where sides meet the rectangle's; either would pull the mean), which lies
 * inside it; for a polygon of no area within rounding (a segment, a point,
 * a sliver: narrower than 2 eps, eps the coordinates' own rounding, or
 * than 5e-10 of its extent), the centre of its corners' bounding box, so
 * that a point that rounding leaves on a segment does not move it.  Corners
 * within max(eps, 1e-9 of the extent) of the one before, or of the line
 * through their neighbours, are repeats and points on sides.  Either way
 * the same region read from the other box gives the same point.  Returns 0
 * for a polygon of no area.
 */
static int polygon_centre(const double (*poly)[2], int n, double eps, double *c)
{
    double lo[2] = {poly[0][0], poly[0][1]}, hi[2] = {lo[0], lo[1]};
    for (int k = 1; k < n; k++)
        for (int a = 0; a < 2; a++) {
            lo[a] = fmin(lo[a], poly[k][a]);
            hi[a] = fmax(hi[a], poly[k][a]);
        }
    c[0] = 0.5 * (lo[0] + hi[0]);
    c[1] = 0.5 * (lo[1] + hi[1]);
    double span = fmax(hi[0] - lo[0], hi[1] - lo[1]), area2 = 0.0;
    for (int k = 0; k < n; k++) {
        const double *p = poly[k], *q = poly[(k + 1) % n];
        area2 += (p[0] - c[0]) * (q[1] - c[1]) - (q[0] - c[0]) * (p[1] - c[1]);
    }
    /* twice the area against twice that of a strip of width 2 eps, or of
       width 5e-10 span */
    if (!(fabs(area2) > fmax(1e-9 * span * span, 4.0 * eps * span)))
        return 0;
    /* each corner once (the first of a run of repeats), and only where it
       lies off the line through the neighbouring distinct corners */
    double tol = fmax(1e-9 * span, eps), sx = 0.0, sy = 0.0;
    int m = 0;
    for (int k = 0; k < n; k++) {
        const double *p = poly[(k + n - 1) % n], *q = poly[k], *r = q;
        if (fabs(p[0] - q[0]) <= tol && fabs(p[1] - q[1]) <= tol)
            continue;
        for (int j = 1; j < n && fabs(r[0] - q[0]) <= tol && fabs(r[1] - q[1]) <= tol; j++)
            r = poly[(k + j) % n];
        double turn = (q[0] - p[0]) * (r[1] - q[1]) - (q[1] - p[1]) * (r[0] - q[0]);
        if (fabs(turn) > tol * hypot(r[0] - p[0], r[1] - p[1])) {
            sx += q[0];
            sy += q[1];
            m++;
        }
    }
    if (m > 0) {
        c[0] = sx / m;
        c[1] = sy / m;
    }
    return 1;
}

/*
 * A point of O on the plane "coordinate i of F = level", over F's face
 * rectangle: the section of O by the plane (the crossings of its 12 edges,
 * sorted by angle) clipped to the rectangle, averaged.  Returns 0 when the
 * clipped section is empty.
 */
static int section_point(const bx_pose *pf, const double *hf, int i,
                         double level, const bx_pose *po, const double *ho,
                         double eps, double *point)
{
    double vloc[8][3], pts[16][2], cx = 0.0, cy = 0.0;
    int a1 = (i + 1) % 3, a2 = (i + 2) % 3, np = 0;
    for (int v = 0; v < 8; v++) {
        double x[3];
        for (int r = 0; r < 3; r++)
            x[r] = po->c[r] + ((v & 1) ? 1 : -1) * po->axis[0][r] * ho[0] +
                   ((v & 2) ? 1 : -1) * po->axis[1][r] * ho[1] +
                   ((v & 4) ? 1 : -1) * po->axis[2][r] * ho[2];
        if (!to_local(pf, x, vloc[v]))
            return 0;
    }
    for (int v = 0; v < 8; v++)
        for (int bit = 1; bit < 8; bit <<= 1) {
            int u = v | bit;
            if (u == v)
                continue;
            double fv = vloc[v][i] - level, fu = vloc[u][i] - level;
            if ((fv > 0.0) == (fu > 0.0) && fv != 0.0 && fu != 0.0)
                continue;
            double t = fv == fu ? 0.0 : fv / (fv - fu);
            if (np < 16) {
                pts[np][0] = vloc[v][a1] + t * (vloc[u][a1] - vloc[v][a1]);
                pts[np][1] = vloc[v][a2] + t * (vloc[u][a2] - vloc[v][a2]);
                cx += pts[np][0];
                cy += pts[np][1];
                np++;
            }
        }
    if (np == 0)
        return 0;
    cx /= np;
    cy /= np;
    /* Order the crossings around their centre: a convex polygon. */
    double ang[16];
    for (int k = 0; k < np; k++)
        ang[k] = atan2(pts[k][1] - cy, pts[k][0] - cx);
    for (int k = 1; k < np; k++) {
        double a = ang[k], p0 = pts[k][0], p1 = pts[k][1];
        int j = k - 1;
        while (j >= 0 && ang[j] > a) {
            ang[j + 1] = ang[j];
            pts[j + 1][0] = pts[j][0];
            pts[j + 1][1] = pts[j][1];
            j--;
        }
        ang[j + 1] = a;
        pts[j + 1][0] = p0;
        pts[j + 1][1] = p1;
    }
    double h2[2] = {hf[a1], hf[a2]};
    double clipped[16][2];
    int nc = clip_rect((const double (*)[2])pts, np, h2, clipped);
    if (nc == 0)
        return 0;
    double coord[3], mid[2];
    polygon_centre((const double (*)[2])clipped, nc, eps, mid);
    coord[a1] = mid[0];
    coord[a2] = mid[1];
    coord[i] = level;
    for (int r = 0; r < 3; r++)
        point[r] = pf->c[r] + coord[0] * pf->axis[0][r] +
                   coord[1] * pf->axis[1][r] + coord[2] * pf->axis[2][r];
    return 1;
}

/*
 * Contact point for face i of box F (pose pf, half extents hf) touched by
 * box O (pose po, half extents ho) from direction dir (the outward normal of
 * F's face): the part of O's support feature in that direction (a vertex, or
 * an edge or face parallel to F's face, within flat: a length along dir)
 * that lies over the face, averaged.  oside (O's feature) gets, along the
 * parallel directions, the side of the vertex nearest the point.  Returns
 * how far the feature is from lying over the face (0 when it does).
 */
static double face_contact_point(const bx_pose *pf, const double *hf, int i,
                               const bx_pose *po, const double *ho,
                               const double *dir, double tol, double flat,
                               double tol_level, double *point,
                               signed char *oside)
{
    double corner[3], free_g[2][3];
    int nfree = 0, isfree[3] = {0, 0, 0};
    memcpy(corner, po->c, sizeof corner);
    for (int k = 0; k < 3; k++) {
        double gk = bx_dot3(dir, po->g[k]);
        if (fabs(gk) <= flat && ho[k] > 0.0 && nfree < 2) {
            memcpy(free_g[nfree++], po->g[k], sizeof free_g[0]);
            isfree[k] = 1;
            continue;
        }
        double sd = bx_dot3(dir, po->axis[k]) > 0.0 ? -1.0 : 1.0;
        for (int r = 0; r < 3; r++)
            corner[r] += sd * po->g[k][r];
    }
    double pts[4][3], poly[16][2], height[4], loc[3];
    int np = 0;
    static const int sq[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    int nv = nfree == 0 ? 1 : nfree == 1 ? 2 : 4;
    for (int v = 0; v < nv; v++) {
        for (int r = 0; r < 3; r++) {
            pts[np][r] = corner[r];
            if (nfree == 1)
                pts[np][r] += (v ? 1.0 : -1.0) * free_g[0][r];
            else if (nfree == 2)
                pts[np][r] += sq[v][0] * free_g[0][r] + sq[v][1] * free_g[1][r];
        }
        np++;
    }
    int a1 = (i + 1) % 3, a2 = (i + 2) % 3;
    double h2[2] = {hf[a1], hf[a2]}, level = 0.0, u = 0.0, v2 = 0.0;
    for (int k = 0; k < np; k++) {
        if (!to_local(pf, pts[k], loc)) {
            memcpy(point, corner, sizeof corner);
            return 0.0;
        }
        poly[k][0] = loc[a1];
        poly[k][1] = loc[a2];
        height[k] = loc[i];
        level += loc[i];
    }
    level /= np;
    /* the rectangle grown by a few touching tolerances (below), and that
       margin, which bounds the rounding of the coordinates */
    double len[2] = {sqrt(bx_dot3(pf->axis[a1], pf->axis[a1])),
                     sqrt(bx_dot3(pf->axis[a2], pf->axis[a2]))}, grown[2], eps = 0.0;
    for (int a = 0; a < 2; a++) {
        grown[a] = h2[a] + (len[a] > 0.0 ? 4.0 * tol / len[a] : 0.0);
        eps = fmax(eps, grown[a] - h2[a]);
    }
    /*
     * Overlapping: take the section of O half way between its deepest point
     * and F's face (inside F's extent), which lies in both boxes.  (O's
     * feature above the face, tilted within flat of it, is no overlap.)
     */
    double out = bx_dot3(dir, pf->axis[i]) >= 0.0 ? 1.0 : -1.0, face = hf[i] * out;
    double apart = 0.0;
    if (out * (face - level) > tol_level &&
        section_point(pf, hf, i, clampd(0.5 * (level + face), hf[i]), po, ho, eps,
                      point))
        goto name_vertex;
    level = clampd(level, hf[i]);
    /*
     * Where the regions meet in a segment or a point (a corner on a side, a
     * side along a side), rounding leaves them apart, or crossing by a
     * sliver that a side nearly along the rectangle's cuts anywhere along
     * it.  So a side of the segment's or polygon's within a few touching
     * tolerances of the rectangle's side does not cut: the polygon is then
     * clipped to the rectangle grown by that much; regions still apart give
     * the midpoint of their closest points.
     */
    double mid[2];
    if (np == 2) {
        /* A segment: keep the part inside the rectangle, by parameter. */
        double t0 = 0.0, t1 = 1.0;
        for (int ax = 0; ax < 2; ax++) {
            double p0 = poly[0][ax], d = poly[1][ax] - poly[0][ax];
            if (d == 0.0 || (fabs(p0) <= grown[ax] && fabs(poly[1][ax]) <= grown[ax] &&
                             fabs(d) <= grown[ax] - h2[ax]))
                continue;
            double ta = (-h2[ax] - p0) / d, tb = (h2[ax] - p0) / d;
            t0 = fmax(t0, fmin(ta, tb));
            t1 = fmin(t1, fmax(ta, tb));
        }
        double tm = 0.5 * (t0 + t1);
        mid[0] = poly[0][0] + tm * (poly[1][0] - poly[0][0]);
        mid[1] = poly[0][1] + tm * (poly[1][1] - poly[0][1]);
        if (!(t0 <= t1))
            apart = closest_to_rect((const double (*)[2])poly, np, h2, len, mid);
    } else if (np == 4) {
        double clipped[16][2];
        int nc = clip_rect((const double (*)[2])poly, np, h2, clipped);
        if (nc == 0 || !polygon_centre((const double (*)[2])clipped, nc, eps, mid)) {
            nc = clip_rect((const double (*)[2])poly, np, grown, clipped);
            if (nc > 0)
                polygon_centre((const double (*)[2])clipped, nc, eps, mid);
            else
                apart = closest_to_rect((const double (*)[2])poly, np, h2, len, mid);
        }
    } else {
        mid[0] = poly[0][0];
        mid[1] = poly[0][1];
        apart = hypot((mid[0] - clampd(mid[0], h2[0])) * len[0],
                      (mid[1] - clampd(mid[1], h2[1])) * len[1]);
    }
    u = mid[0];
    v2 = mid[1];
    double coord[3];
    coord[a1] = clampd(u, h2[0]);
    coord[a2] = clampd(v2, h2[1]);
    /*
     * O's feature, tilted within flat, rises from the face: the point is
     * half way between the face and the feature above it.
     */
    coord[i] = level;
    if (np > 1 && flat > tol) {
        double du = coord[a1] - poly[0][0], dv = coord[a2] - poly[0][1], over = height[0];
        double x1 = poly[1][0] - poly[0][0], y1 = poly[1][1] - poly[0][1];
        if (np == 2) {
            double ll = x1 * x1 + y1 * y1;
            if (ll > 0.0)
                over += fmax(0.0, fmin(1.0, (du * x1 + dv * y1) / ll)) * (height[1] - height[0]);
        } else {
            double x2 = poly[3][0] - poly[0][0], y2 = poly[3][1] - poly[0][1];
            double det = x1 * y2 - y1 * x2;
            if (det != 0.0)
                over += ((du * y2 - dv * x2) / det) * (height[1] - height[0]) +
                        ((x1 * dv - y1 * du) / det) * (height[3] - height[0]);
        }
        if (fabs(over - face) <= 2.0 * tol_level)
            coord[i] = 0.5 * (face + over);
    }
    /*
     * A vertex is met half way: the midpoint of it and the nearest point of
     * F's box, which is the vertex itself where it lies within.  Boxes that
     * touch within the tolerance along each axis can be apart by more along
     * a diagonal; the midpoint keeps the point that close to both.
     */
    if (np == 1) {
        coord[a1] = 0.5 * (coord[a1] + poly[0][0]);
        coord[a2] = 0.5 * (coord[a2] + poly[0][1]);
        coord[i] = 0.5 * (coord[i] + height[0]);
    }
    for (int r = 0; r < 3; r++)
        point[r] = pf->c[r] + coord[0] * pf->axis[0][r] +
                   coord[1] * pf->axis[1][r] + coord[2] * pf->axis[2][r];
name_vertex:;
    /*
     * Name the vertex of O's feature nearest the point; the one on the +
     * side where the point lies half way (within 1e-9 of the extent, or a
     * few touching tolerances), so that rounding does not pick the name.
     */
    double ol[3];
    if (nfree > 0 && to_local(po, point, ol))
        for (int k = 0; k < 3; k++)
            if (isfree[k]) {
                double lk = sqrt(bx_dot3(po->axis[k], po->axis[k]));
                double half_way = 1e-9 * ho[k] + (lk > 0.0 ? 4.0 * tol / lk : 0.0);
                oside[k] = ol[k] >= -half_way ? 1 : -1;
            }
    return apart;
}

/* a b - c d with one rounding, near enough (Kahan's difference of products). */
static double diff_of_products(double a, double b, double c, double d)
{
    double cd = c * d;
    return fma(a, b, -cd) - fma(c, d, -cd);
}

/* o = a x b, each component rounded about once however parallel a and b are. */
static void cross3_accurate(const double *a, const double *b, double *o)
{
    o[0] = diff_of_products(a[1], b[2], a[2], b[1]);
    o[1] = diff_of_products(a[2], b[0], a[0], b[2]);
    o[2] = diff_of_products(a[0], b[1], a[1], b[0]);
}

/*
 * Closest points of two segments p + a u, q + b v (a, b in [-1, 1]): their
 * midpoint, and (the return value) their distance (a segment of length 0,
 * the edge of a box flat across it, is its point).  The lines' closest
 * points are a = ((u x v) x v) . (p - q) / |u x v|^2 and likewise b, with
 * u x v formed accurately: the usual (u.v)(v.(p-q)) - |v|^2 u.(p-q) over
 * |u|^2 |v|^2 - (u.v)^2 loses all its digits for edges within 1e-8 of
 * parallel, and puts the point anywhere along them.  Segments within 1e-9
 * of parallel, whose lines stay that close over their length, meet at the
 * middle of the stretch of the first that the second spans (or its end
 * nearest the second), which does not depend on which segment is first.
 * Edges longer than 2^64 or shorter than 2^-64 (in a coordinate) are first
 * scaled, with p - q, by a power of two that brings them near 1 (exact), so
 * that the products of their lengths neither underflow for tiny boxes nor
 * overflow for huge ones.
 */
static double edge_contact_point(const double *p, const double *u, const double *q,
                                 const double *v, double *point)
{
    double len = 0.0, f = 1.0, su[3], sv[3], w0[3];
    for (int r = 0; r < 3; r++) {
        double m = fabs(u[r]) > fabs(v[r]) ? fabs(u[r]) : fabs(v[r]);
        len = m > len ? m : len;
    }
    if (len > 0.0 && !(len >= 0x1p-64 && len <= 0x1p64)) {
        int ex = 0;
        frexp(len, &ex);
        f = ldexp(1.0, ex < -1000 ? 1000 : -ex); /* finite */
    }
    for (int r = 0; r < 3; r++) {
        su[r] = f * u[r];
        sv[r] = f * v[r];
        w0[r] = f * (p[r] - q[r]);
    }
    double a = bx_dot3(su, su), b = bx_dot3(su, sv), c = bx_dot3(sv, sv);
    double d = bx_dot3(su, w0), e = bx_dot3(sv, w0);
    double sa = 0.0, sb = 0.0, gap[3];
    if (a > 0.0 && c > 0.0) {
        double n[3], nv[3];
        cross3_accurate(su, sv, n);
        double den = bx_dot3(n, n);
        if (den > 1e-18 * a * c) {
            bx_cross3(n, sv, nv);
            sa = bx_dot3(nv, w0) / den;
        } else {
            /* the second spans [m - r, m + r] of the first's parameter */
            double m = -d / a, r = fabs(b) / a;
            double lo = fmax(-1.0, m - r), hi = fmin(1.0, m + r);
            sa = lo <= hi ? 0.5 * (lo + hi) : m > 0.0 ? 1.0 : -1.0;
        }
        sa = fmax(-1.0, fmin(1.0, sa));
        sb = fmax(-1.0, fmin(1.0, (b * sa + e) / c));
        sa = fmax(-1.0, fmin(1.0, (b * sb - d) / a));
    } else if (c > 0.0) {
        /* an edge of length 0 (a box flat across it): its point against
           the other edge */
        sb = fmax(-1.0, fmin(1.0, e / c));
    } else if (a > 0.0) {
        sa = fmax(-1.0, fmin(1.0, -d / a));
    }
    for (int r = 0; r < 3; r++) {
        point[r] = 0.5 * (p[r] + sa * u[r] + q[r] + sb * v[r]);
        gap[r] = w0[r] + sa * su[r] - sb * sv[r];
    }
    return sqrt(bx_dot3(gap, gap)) / f;
}

/* Is a point (given in box P's axis coordinates) inside P, within tol? */
static int inside_local(const double *loc, const double *h, const double *tol)
{
    for (int k = 0; k < 3; k++)
        if (fabs(loc[k]) > h[k] + tol[k])
            return 0;
    return 1;
}

/*
 * The vertices of A n B found so far, each once: those within four
 * touching tolerances of one another (along every world axis) are one.  A
 * vertex of the polytope can be found several times: a corner of one box
 * lying on an edge of the other is also that edge's crossing with a face,
 * and an edge crossing an edge crosses two faces there.  The polytope has
 * at most 20 vertices (12 faces); past the slots, points are summed as
 * they come.
 */
#define OVERLAP_SLOTS 32
typedef struct vertex_set {
    double p[OVERLAP_SLOTS][3], sum[3], near;
    int n, extra;
} vertex_set;

static void vertex_add(vertex_set *vs, const double *x)
{
    for (int i = 0; i < vs->n; i++)
        if (fabs(vs->p[i][0] - x[0]) <= vs->near && fabs(vs->p[i][1] - x[1]) <= vs->near &&
            fabs(vs->p[i][2] - x[2]) <= vs->near)
            return;
    if (vs->n < OVERLAP_SLOTS)
        memcpy(vs->p[vs->n++], x, sizeof vs->p[0]);
    else
        vs->extra++;
    for (int r = 0; r < 3; r++)
        vs->sum[r] += x[r];
}

/*
 * A point of A and B when they overlap: the average of the vertices of the
 * polytope A n B (vertices of one box inside the other, and crossings of an
 * edge of one with a face of the other), each once, a convex combination
 * of points of both.  Returns 0 when none is found (the boxes only touch).
 */
static BX_NOINLINE int overlap_point(const bx_pose *pose[2], const double *half[2],
                                     double len_tol, double *point)
{
    double tol[2][3];
    vertex_set vs;
    vs.n = vs.extra = 0;
    vs.sum[0] = vs.sum[1] = vs.sum[2] = 0.0;
    vs.near = 4.0 * len_tol;
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 3; k++) {
            double n = sqrt(bx_dot3(pose[b]->axis[k], pose[b]->axis[k]));
            tol[b][k] = n > 0.0 ? len_tol / n : 0.0;
        }
    for (int p = 0; p < 2; p++) {
        const bx_pose *P = pose[p], *O = pose[1 - p];
        const double *hp = half[p], *ho = half[1 - p];
        for (int v = 0; v < 8; v++) {
            /* Vertex v of P, and P's edges from it (increasing coordinate). */
            double x[3], loc[3];
            int side[3] = {(v & 1) ? 1 : -1, (v & 2) ? 1 : -1, (v & 4) ? 1 : -1};
            for (int r = 0; r < 3; r++)
                x[r] = P->c[r] + side[0] * hp[0] * P->axis[0][r] +
                       side[1] * hp[1] * P->axis[1][r] +
                       side[2] * hp[2] * P->axis[2][r];
            if (!to_local(O, x, loc))
                return 0;
            if (inside_local(loc, ho, tol[1 - p]))
                vertex_add(&vs, x);
            for (int e = 0; e < 3; e++) {
                if (side[e] > 0 || hp[e] == 0.0)
                    continue;
                double y[3], ly[3];
                for (int r = 0; r < 3; r++)
                    y[r] = x[r] + 2.0 * hp[e] * P->axis[e][r];
                if (!to_local(O, y, ly))
                    return 0;
                /* Crossings of the segment loc..ly with O's six face planes. */
                for (int f = 0; f < 6; f++) {
                    int k = f / 2;
                    double plane = (f % 2 ? 1.0 : -1.0) * ho[k];
                    double da = loc[k] - plane, db = ly[k] - plane;
                    /* inside the edge only: an end on the plane is a
                       vertex, counted above where it lies in O */
                    if (!((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)))
                        continue;
                    double t = da / (da - db), c[3];
                    for (int r = 0; r < 3; r++)
                        c[r] = loc[r] + t * (ly[r] - loc[r]);
                    c[k] = plane;
                    if (!inside_local(c, ho, tol[1 - p]))
                        continue;
                    double z[3];
                    for (int r = 0; r < 3; r++)
                        z[r] = x[r] + t * (y[r] - x[r]);
                    vertex_add(&vs, z);
                }
            }
        }
    }
    if (vs.n == 0)
        return 0;
    for (int r = 0; r < 3; r++)
        point[r] = vs.sum[r] / (vs.n + vs.extra);
    return 1;
}

/* A length along the normal of face i, in that face's coordinate units. */
static double local_tol(const bx_pose *p, int i, double len)
{
    double n[3];
    bx_cross3(p->axis[(i + 1) % 3], p->axis[(i + 2) % 3], n);
    double det = bx_dot3(p->axis[i], n);
    return det == 0.0 ? len : len * sqrt(bx_dot3(n, n)) / fabs(det);
}

/*
 * Kind, features and point of a contact on face axis `axis` (0..2 of A,
 * 3..5 of B) along the unit normal N (from A to B); the other box's edges
 * within flat (a length along N) of parallel to the face lie on it.
 */
static double face_contact(const solver *S, const sat *st, int axis, const double *N,
                           double flat, boxtoi_result *res)
{
    const bx_pose *pa = &st->pa, *pb = &st->pb;
    for (int k = 0; k < 3; k++) {
        res->feature_a.side[k] = side_toward(N, pa->axis[k]);
        res->feature_b.side[k] = side_away(N, pb->axis[k]);
    }
    /* Face box F (the one whose face axis this is) and the other box O. */
    int of_b = axis >= 3, i = of_b ? axis - 3 : axis;
    const bx_pose *pf = of_b ? pb : pa, *po = of_b ? pa : pb;
    const double *hf = of_b ? S->B->half : S->A->half;
    const double *ho = of_b ? S->A->half : S->B->half;
    boxtoi_feature *ff = of_b ? &res->feature_b : &res->feature_a;
    boxtoi_feature *fo = of_b ? &res->feature_a : &res->feature_b;
    double dir[3]; /* outward normal of F's face */
    for (int r = 0; r < 3; r++)
        dir[r] = of_b ? -N[r] : N[r];
    res->kind = of_b ? BOXTOI_VERTEX_FACE : BOXTOI_FACE_VERTEX;
    for (int k = 0; k < 3; k++)
        if (k != i)
            ff->side[k] = 0;
    /*
     * O's feature beyond the face's sides (a corner, where O is tilted
     * within the face preference, which named the face): O's edges as near
     * parallel to the face lie on it too.
     */
    signed char oside[3];
    memcpy(oside, fo->side, sizeof oside);
    double apart = face_contact_point(pf, hf, i, po, ho, dir, S->tol, flat,
                                      local_tol(pf, i, fmax(S->tol, flat)), res->point,
                                      fo->side);
    if (apart > 4.0 * S->tol && flat < S->face_bias) {
        memcpy(fo->side, oside, sizeof oside);
        apart = face_contact_point(pf, hf, i, po, ho, dir, S->tol, S->face_bias,
                                   local_tol(pf, i, S->face_bias), res->point, fo->side);
    }
    return apart;
}

/*
 * Kind, features and point of a contact on edge axis `axis` along N.
 * Returns the distance between the edges' closest points.
 */
static double edge_contact(const sat *st, int axis, const double *N, boxtoi_result *res)
{
    const bx_pose *pa = &st->pa, *pb = &st->pb;
    int i = (axis - 6) / 3, j = (axis - 6) % 3;
    double p[3], q[3];
    res->kind = BOXTOI_EDGE_EDGE;
    for (int k = 0; k < 3; k++) {
        res->feature_a.side[k] = k == i ? 0 : side_toward(N, pa->axis[k]);
        res->feature_b.side[k] = k == j ? 0 : side_away(N, pb->axis[k]);
    }
    for (int r = 0; r < 3; r++) {
        p[r] = pa->c[r];
        q[r] = pb->c[r];
        for (int k = 0; k < 3; k++) {
            p[r] += res->feature_a.side[k] * pa->g[k][r];
            q[r] += res->feature_b.side[k] * pb->g[k][r];
        }
    }
    return edge_contact_point(p, pa->g[i], q, pb->g[j], res->point);
}

/*
 * Does the vertex of box O named by side lie over face i of box F: within
 * tol (a length) of the face's rectangle, along the face's two directions?
 */
static int vertex_over_face(const bx_pose *pf, const double *hf, int i,
                            const bx_pose *po, const signed char *side, double tol)
{
    double x[3], loc[3];
    for (int r = 0; r < 3; r++)
        x[r] = po->c[r] + side[0] * po->g[0][r] + side[1] * po->g[1][r] +
               side[2] * po->g[2][r];
    if (!to_local(pf, x, loc))
        return 0;
    for (int k = 0; k < 3; k++) {
        if (k == i)
            continue;
        double n = sqrt(bx_dot3(pf->axis[k], pf->axis[k]));
        if (!(fabs(loc[k]) <= hf[k] + (n > 0.0 ? tol / n : 0.0)))
            return 0;
    }
    return 1;
}

/* The largest separation over the valid axes of st (-INFINITY if none). */
static double most_separation(const sat *st)
{
    double m = -INFINITY;
    for (int k = 0; k < NAXES; k++)
        if (st->valid[k] && st->d[k] > m)
            m = st->d[k];
    return m;
}

/*
 * Parallel faces in contact (the best face axis and a face axis of the
 * other box within the face preference of it, along the same line)
 * read either way: A's face under a vertex of B, or a vertex of A on B's
 * face.  The choice depends on the geometry only, so that swapping A and B
 * swaps the answer: the face that the other box's support feature meets
 * (faces tilted within the preference can meet a single edge beyond the
 * other face's side); when both or neither do, the face over which the
 * other box's named vertex lies (a small box on a large one: the large
 * box's face); when both or neither
 * do, the face whose outward normal points up, the first of z, y, x along
 * which the normal is not about 0 deciding.  Returns -1 when there is no
 * such tie; else the face axis named, with its contact in res (kind,
 * features, point) and its normal in N.
 */
static int flat_face_contact(const solver *S, const sat *st, const pose_pair *pp,
                             int best, double *N, boxtoi_result *res)
{
    int first = best < 3 ? 3 : 0, other = -1;
    double NO[3];
    /* within the preference of the best face, and of the axis that
       separates most (an edge pair along a line near theirs) */
    double most = fmax(st->d[best], most_separation(st));
    for (int k = first; k < first + 3 && other < 0; k++)
        if (st->valid[k] && st->d[k] >= st->d[best] - S->face_bias &&
            st->d[k] >= most - S->face_bias) {
            axis_separation(S, st, pp, k, NO);
            if (fabs(bx_dot3(NO, N)) >= 1.0 - 1e-12)
                other = k;
        }
    if (other < 0)
        return -1;
    int ia = best < 3 ? best : other, ib = best < 3 ? other : best;
    const double *NA = best < 3 ? N : NO, *NB = best < 3 ? NO : N;
    boxtoi_result cb, tight[2] = {*res, *res};
    int meets_a = face_contact(S, st, ia, NA, S->face_bias, res) <= 4.0 * S->tol;
    int meets_b = face_contact(S, st, ib, NB, S->face_bias, &cb) <= 4.0 * S->tol;
    int over_a = vertex_over_face(&st->pa, S->A->half, ia, &st->pb, res->feature_b.side,
                                  S->face_bias);
    int over_b = vertex_over_face(&st->pb, S->B->half, ib - 3, &st->pa,
                                  cb.feature_a.side, S->face_bias);
    /* Neither flat reading meets the other box: the readings within the
       touching tolerance (the overlap's section, for faces tilted past that
       tolerance into each other) decide, and name the contact. */
    if (!meets_a && !meets_b) {
        meets_a = face_contact(S, st, ia, NA, S->tol, &tight[0]) <= 4.0 * S->tol;
        meets_b = face_contact(S, st, ib, NB, S->tol, &tight[1]) <= 4.0 * S->tol;
        if (meets_a)
            *res = tight[0];
        if (meets_b)
            cb = tight[1];
    }
    int use_b = over_b;
    if (meets_a != meets_b) {
        use_b = meets_b;
    } else if (over_a == over_b) {
        /* A's face looks along NA, B's along -NB. */
        use_b = 0;
        for (int r = 2; r >= 0; r--)
            if (fabs(NA[r] + NB[r]) > 2e-6) {
                use_b = NA[r] + NB[r] < 0.0;
                break;
            }
    }
    int chosen = use_b ? ib : ia;
    if (use_b) {
        res->kind = cb.kind;
        res->feature_a = cb.feature_a;
        res->feature_b = cb.feature_b;
        memcpy(res->point, cb.point, sizeof res->point);
    }
    if (chosen != best)
        memcpy(N, NO, sizeof NO);
    return chosen;
}

/* Step from the contact to the pose that breaks ties (s units). */
#define TIE_STEP 1e-6

/* How well an axis names the contact: its separation, faces preferred. */
static double axis_score(const solver *S, const sat *st, int axis)
{
    return st->d[axis] + (axis < 6 ? S->face_bias : 0.0);
}

/* Does the centres' offset dc fail to orient the unit normal N? */
static int offset_undecided(const solver *S, const double *N, const double *dc)
{
    return !(fabs(bx_dot3(N, dc)) > S->orient_bias);
}

/* The poses at s that break ties (ref), computed the first time asked. */
static const sat *tie_poses(const solver *S, double s, sat *ref, int *have)
{
    if (!*have) {
        sat_at(S, s, ref);
        *have = 1;
    }
    return ref;
}

/* The centres' offset (B's less A's) of the poses in st. */
static void centre_offset(const sat *st, double *dc)
{
    for (int r = 0; r < 3; r++)
        dc[r] = st->pb.c[r] - st->pa.c[r];
}

/*
 * The centres' offset (pp->dc) that orients the normal of an axis among tied
 * ones: the offset at s_ref when before is set or the offset at the contact
 * does not orient that axis, else the one at the contact.
 */
static void tie_offset(const solver *S, const sat *st, pose_pair *pp, int axis, int before,
                       double s_ref, sat *ref, int *have_ref)
{
    if (!before) {
        double N[3];
        axis_separation(S, st, pp, axis, N);
        if (!offset_undecided(S, N, pp->dc))
            return;
    }
    centre_offset(tie_poses(S, s_ref, ref, have_ref), pp->dc);
}

/*
 * Unit normal of an axis among tied ones, oriented as describe_contact names
 * it: by the centres' offset at s_ref when the contact is reached from
 * before (before), or where the offset at the contact does not orient it;
 * otherwise by that offset.  The features a probe of a tied axis reads lie
 * on the side the normal gives, so a probe oriented otherwise than the
 * answer would test other features than those named.
 */
static void tie_separation(const solver *S, const sat *st, const pose_pair *pp, int axis,
                           int before, double s_ref, sat *ref, int *have_ref, double *N)
{
    pose_pair pr = *pp;
    tie_offset(S, st, &pr, axis, before, s_ref, ref, have_ref);
    axis_separation(S, st, &pr, axis, N);
}

/*
 * Fill kind, features, point, normal and depth from the pose at contact
 * (st, at s = tau).  The axis named is the most separating one, face axes
 * preferred by the face bias.  Several axes can be level there, when the
 * contact is degenerate: parallel edges meeting, flat boxes in one plane.
 * Then the choice comes from a pose just before tau (just after, for boxes
 * touching at the start of the query; a piece after the first, arrived,
 * looks before its start), where the one separating most is the one the
 * approach came along; and the normal's orientation, which at tau is only
 * decided by the boxes' thickness along it (none for a plate's own plane),
 * comes from there too.  Both depend on the geometry only, so swapping A
 * and B swaps the answer.
 */
static void describe_contact(const solver *S, const sat *st, double tau, int arrived,
                             boxtoi_result *res)
{
    double N[3] = {0.0, 0.0, 0.0};
    pose_pair pp;
    pose_pair_of(st, &pp);
    /*
     * A face preferred to an edge axis that separates as much (within the
     * touching tolerance), where the other box's feature lies beyond the
     * face's sides (boxes tilted within the preference, meeting at an edge
     * of the face), does not touch: the edges do.  Such faces are barred.
     * The feature is read within the preference (an overlap no deeper is
     * touching): the section of a thinner one, whose edges nearly lie in
     * the face, moves with rounding across the face's sides.
     */
    uint32_t barred = 0, probed = 0;
    int best, have_ref = 0;
    double best_score;
    sat ref;
    double s_ref = tau > 0.0 ? fmax(0.0, tau - TIE_STEP)
                             : arrived ? -TIE_STEP : fmin(1.0, tau + TIE_STEP);
    int before = tau > 0.0 || arrived;
    for (;;) {
        best = -1;
        best_score = -INFINITY;
        for (int axis = 0; axis < NAXES; axis++) {
            if (!st->valid[axis] || (barred & (1u << axis)))
                continue;
            double score = axis_score(S, st, axis);
            if (score > best_score) {
                best_score = score;
                best = axis;
            }
        }
        if (best < 0)
            best = 0;
        if (best >= 6)
            break;
        /* every face level with the best is probed, not only the best,
           so that which faces are barred does not depend on the order */
        uint32_t was = barred;
        for (int f = 0; f < 6; f++) {
            if (!st->valid[f] || ((barred | probed) & (1u << f)) ||
                !(axis_score(S, st, f) >= best_score - S->face_bias))
                continue;
            int edge_more = 0;
            for (int axis = 6; axis < NAXES; axis++)
                if (st->valid[axis] && st->d[axis] >= st->d[f] - S->tol)
                    edge_more = 1;
            if (!edge_more)
                continue;
            boxtoi_result probe = *res;
            probed |= 1u << f;
            tie_separation(S, st, &pp, f, before, s_ref, &ref, &have_ref, N);
            if (face_contact(S, st, f, N, S->face_bias, &probe) > 4.0 * S->tol)
                barred |= 1u << f;
        }
        if (barred == was)
            break;
    }
    /* the axes within the face bias of the best (and the touching tolerance,
       so that an edge axis as separated as a face is level with it in both
       orders, not by rounding); not a face the boxes cross by more than
       the face bias beyond the least penetration (0 at a first contact;
       every face of an overlap is crossed), which an edge axis best by
       less than that would otherwise bring in (its preference and the bias
       added: edges turning parallel as they met had a face named that the
       boxes crossed by 2e-9 of their size) */
    uint32_t level = 0;
    double floor_d = fmin(0.0, most_separation(st)) - S->face_bias - S->tol;
    for (int axis = 0; axis < NAXES; axis++)
        if (st->valid[axis] && !(barred & (1u << axis)) &&
            axis_score(S, st, axis) >= best_score - S->face_bias - S->tol &&
            !(axis < 6 && st->d[axis] < floor_d))
            level |= 1u << axis;
    /* a tie (or a face probed for a tied edge) orients as tie_separation */
    int was_tied = probed != 0 || (level & (level - 1)) != 0;
    /*
     * An edge pair level with a face along the same line (edges lying in
     * parallel faces that meet flat) says no more than the face, whose
     * support is the contact; it leaves the tie, or a tilt that brings the
     * faces together would name edges that need not meet.
     */
    if ((level & (level - 1)) != 0 && (level & 0x3fu) != 0) {
        double NF[6][3];
        for (int f = 0; f < 6; f++)
            if (level & (1u << f))
                axis_separation(S, st, &pp, f, NF[f]);
        for (int axis = 6; axis < NAXES; axis++) {
            if (!(level & (1u << axis)))
                continue;
            double NE[3];
            uint32_t along = 0;
            int covered = 0;
            axis_separation(S, st, &pp, axis, NE);
            for (int f = 0; f < 6; f++)
                if ((level & (1u << f)) && fabs(bx_dot3(NE, NF[f])) >= 1.0 - 1e-12) {
                    along |= 1u << f;
                    covered |= axis_score(S, st, f) >= axis_score(S, st, axis) - S->tol;
                }
            /* where the edges separate more than the faces' preference
               covers, their line is the faces' tilted, and names the
               contact: the faces leave instead */
            if (covered)
                level &= ~(1u << axis);
            else
                level &= ~along;
        }
    }
    /*
     * Tied edge pairs whose edges do not meet (lines that nearly coincide,
     * level with each other by that alone) leave the tie, when an axis of
     * it that does meet separates as much.
     */
    if ((level & (level - 1)) != 0 && (level & ~0x3fu) != 0) {
        uint32_t apart = 0;
        double meets = -INFINITY;
        for (int axis = 0; axis < NAXES; axis++) {
            if (!(level & (1u << axis)))
                continue;
            if (axis >= 6) {
                boxtoi_result probe = *res;
                double NE[3];
                tie_separation(S, st, &pp, axis, before, s_ref, &ref, &have_ref, NE);
                if (edge_contact(st, axis, NE, &probe) > 4.0 * S->tol) {
                    apart |= 1u << axis;
                    continue;
                }
            }
            meets = fmax(meets, st->d[axis]);
        }
        for (int axis = 6; axis < NAXES; axis++)
            if ((apart & (1u << axis)) && st->d[axis] <= meets + S->tol)
                level &= ~(1u << axis);
        if (!(level & (1u << best)))
            for (int axis = 0, first = 1; axis < NAXES; axis++)
                if ((level & (1u << axis)) &&
                    (first || axis_score(S, st, axis) > axis_score(S, st, best))) {
                    best = axis;
                    first = 0;
                }
    }
    int tied = (level & (level - 1)) != 0;
    axis_separation(S, st, &pp, best, N);
    int undecided = offset_undecided(S, N, pp.dc);
    if (tied || was_tied || undecided) {
        if (tied) {
            tie_poses(S, s_ref, &ref, &have_ref);
            double ref_best = -INFINITY, NB[3] = {0.0, 0.0, 0.0};
            for (int axis = 0; axis < NAXES; axis++)
                if ((level & (1u << axis)) && ref.valid[axis])
                    ref_best = fmax(ref_best, axis_score(S, &ref, axis));
            /*
             * axes that separate alike there too (equal closing speeds):
             * of those the centres' offset orients (here or there), if
             * any, the one along the line that comes first
             */
            uint32_t alike = 0, oriented = 0;
            double dr[3];
            centre_offset(&ref, dr);
            for (int axis = 0; axis < NAXES; axis++) {
                if (!(level & (1u << axis)) || !ref.valid[axis] ||
                    !(axis_score(S, &ref, axis) >= ref_best - S->tol))
                    continue;
                double NC[3];
                alike |= 1u << axis;
                axis_separation(S, st, &pp, axis, NC);
                if (!offset_undecided(S, NC, pp.dc) || !offset_undecided(S, NC, dr))
                    oriented |= 1u << axis;
            }
            if (oriented)
                alike = oriented;
            for (int axis = 0, first = 1; axis < NAXES; axis++) {
                if (!(alike & (1u << axis)))
                    continue;
                double NC[3];
                axis_separation(S, st, &pp, axis, NC);
                if (first || line_first(NC, NB)) {
                    best = axis;
                    memcpy(NB, NC, sizeof NB);
                    first = 0;
                }
            }
        }
        /* the axis the tie named may be one the offset does not orient */
        tie_offset(S, st, &pp, best, before || undecided, s_ref, &ref, &have_ref);
        axis_separation(S, st, &pp, best, N);
    }
    const bx_pose *pa = &st->pa, *pb = &st->pb;
    if (best < 6) {
        int flat = flat_face_contact(S, st, &pp, best, N, res);
        if (flat >= 0)
            best = flat;
        else
            face_contact(S, st, best, N, S->tol, res);
    } else {
        edge_contact(st, best, N, res);
    }
    memcpy(res->normal, N, sizeof res->normal);
    res->depth = -st->d[best];
    /*
     * Overlapping boxes: a point inside both.  Not for depths within the
     * face preference, where the contact's own point is within that of
     * both, and a sliver's vertices, some in by rounding, would move it.
     */
    const bx_pose *poses[2] = {pa, pb};
    const double *halves[2] = {S->A->half, S->B->half};
    if (res->depth > S->face_bias)
        overlap_point(poses, halves, S->tol, res->point);
}

/*
 * World centre of a prepared box at s (s in [0, 1]): p / w, whose common
 * factor (1 - s)^d or s^d of the scaled Bernstein sums cancels.
 */
BXP_INLINE void centre_at_impl(const bx_moving *m, int d, double s, double *c)
{
    DEGREE_IN_RANGE(d);
    int rev = s > 0.5;
    double r = rev ? (1.0 - s) / s : s / (1.0 - s), v[4];
    const double *poly[4] = {m->p[0], m->p[1], m->p[2], m->w};
    for (int k = 0; k < 4; k++) {
        const double *a = poly[k];
        double x = rev ? a[0] : a[d];
        for (int i = 1; i <= d; i++)
            x = x * r + (rev ? a[i] : a[d - i]);
        v[k] = x;
    }
    for (int k = 0; k < 3; k++)
        c[k] = v[k] / v[3];
}

static void centre_at(const bx_moving *m, double s, double *c)
{
    if (m->d == 2)
        centre_at_impl(m, 2, s, c);
    else
        centre_at_impl(m, m->d, s, c);
}

/*
 * Among the valid axes, not marked stuck, that separate the boxes by more
 * than the tolerance, the one whose separation is estimated to last longest
 * from the centres' relative velocity v at the poses (rotation ignored):
 * an axis whose gap grows first, then the longest gap / closing speed, ties
 * by the larger gap.  Only a guess of which run ends last, to save steps.
 * 1 and *axis, or 0 (and *axis = -1) when no axis separates; *lasts is
 * the chosen run's estimated length in s (INFINITY when its gap grows).
 */
static int separating_longest(const solver *S, const sat *st, const double *v,
                              unsigned stuck, int *axis, double *lasts)
{
    int best = -1;
    double best_t = -1.0, best_d = 0.0, dc[3];
    for (int r = 0; r < 3; r++)
        dc[r] = st->pb.c[r] - st->pa.c[r];
    for (int a = 0; a < NAXES; a++) {
        if (!st->valid[a] || (stuck & (1u << a)) || !(st->d[a] > S->tol))
            continue;
        double n[3];
        if (a < 6) {
            const double(*ax)[3] = a < 3 ? st->pa.axis : st->pb.axis;
            int m = a % 3;
            if (S->rigid)
                memcpy(n, ax[m], sizeof n);
            else
                bx_cross3(ax[(m + 1) % 3], ax[(m + 2) % 3], n);
        } else {
            bx_cross3(st->pa.axis[(a - 6) / 3], st->pb.axis[(a - 6) % 3], n);
        }
        double rate = bx_dot3(n, v) * (bx_dot3(n, dc) >= 0.0 ? 1.0 : -1.0) / sqrt(bx_dot3(n, n));
        double t = rate >= 0.0 ? INFINITY : st->d[a] / -rate;
        if (t > best_t || (t == best_t && st->d[a] > best_d)) {
            best_t = t;
            best_d = st->d[a];
            best = a;
        }
    }
    *axis = best;
    *lasts = best_t;
    return best >= 0;
}

/*
 * Exit without searching every axis (rigid motions).  Each axis function
 * f_n is the gap function G of gap.h times a positive weight (wA^2 wB for a
 * face of A, wA wB^2 for a face of B, wA^2 wB^2 for an edge pair).  An axis
 * whose G is bounded below -margin on every piece of a span keeps f_n below
 * minus its rounding level there, so axis_exit could find no exit on it
 * before the span's end: it is skipped, and no answer changes.
 *
 * The margin: face_bias plus 16 touching tolerances, plus four times the
 * rounding level of f_n (axis_noise's 16 eps, here times bounds on the
 * sizes it is made of, so that no polynomial is built) divided by the least
 * weight (from the least Bernstein coefficients of wA and wB).
 */
static void certify_margins(solver *S, double *margin)
{
    const double *hA = S->A->half, *hB = S->B->half;
    double h6[7] = {hA[0], hA[1], hA[2], hB[0], hB[1], hB[2], 0.0};
    double wa = bx_gap_wmin(S->A->we, S->dA), wb = bx_gap_wmin(S->B->we, S->dB);
    double wsA = S->wscale[W_A], wsB = S->wscale[W_B], qs[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            qs[3 * i + j] = S->umax[0][i][0] * S->umax[1][j][0] +
                            S->umax[0][i][1] * S->umax[1][j][1] +
                            S->umax[0][i][2] * S->umax[1][j][2];
    double base = S->face_bias + 16.0 * S->tol;
    int vc = (S->dB < S->dD ? S->dB : S->dD) + 1;
    for (int axis = 0; axis < NAXES; axis++) {
        double x = 0.0, t = 0.0, scale, tw;
        if (axis < 6) {
            int of_b = axis >= 3, m = axis % 3;
            for (int r = 0; r < 3; r++)
                x += S->umax[of_b][m][r] * S->dmax[r];
            t = h6[axis] * (of_b ? wsA * wsB * wsB : wsB * wsA * wsA);
            tw = of_b ? wsB : wsA;
            scale = of_b ? wa * wb * wb : wa * wa * wb;
        } else {
            int i = (axis - 6) / 3, j = (axis - 6) % 3;
            for (int r = 0; r < 3; r++)
                x += S->umax[0][i][r] * vc *
                     (S->umax[1][j][(r + 1) % 3] * S->dmax[(r + 2) % 3] +
                      S->umax[1][j][(r + 2) % 3] * S->dmax[(r + 1) % 3]);
            tw = wsA * wsB;
            scale = wa * wa * wb * wb;
        }
        for (int k = 0; k < 4; k++)
            t += h6[bx_gap_terms[axis][k][1]] * tw * qs[bx_gap_terms[axis][k][0]];
        margin[axis] = base + 64.0 * DBL_EPSILON * (x + t) / scale;
    }
}

#define CERT_PIECES 3

/*
 * Axes (bit mask) proved not to separate anywhere on [s0, s1], from the
 * poses at s0 and CERT_PIECES more samples.
 */
static uint32_t certify_inside(solver *S, const bx_pose *pa0, const bx_pose *pb0,
                               double s0, double s1)
{
    bx_speeds A, B;
    if (!bx_gap_speeds(S->A, S->B, s0, s1, &A, &B))
        return 0;
    need_D(S);
    double margin[NAXES], up[NAXES];
    certify_margins(S, margin);
    bx_gap_sample g[2];
    bx_pose pa, pb;
    bx_gap_sample_of(pa0, pb0, &g[0]);
    uint32_t bad = 0;
    double h = (s1 - s0) / CERT_PIECES;
    for (int piece = 0; piece < CERT_PIECES; piece++) {
        const bx_gap_sample *lo = &g[piece & 1];
        bx_gap_sample *hi = &g[!(piece & 1)];
        double s = piece + 1 == CERT_PIECES ? s1 : s0 + (piece + 1) * h;
        bx_pose_at(S->A, s, &pa);
        bx_pose_at(S->B, s, &pb);
        bx_gap_sample_of(&pa, &pb, hi);
        bx_gap_piece_bounds(S->A->half, S->B->half, &A, &B, lo, hi,
                            s - (s0 + piece * h), up);
        for (int axis = 0; axis < NAXES; axis++)
            if (!(up[axis] <= -margin[axis]))
                bad |= 1u << axis;
        if (bad == (1u << NAXES) - 1)
            return 0;
    }
    return ~bad & ((1u << NAXES) - 1);
}

/* The answer for invalid input: reason and which part (0 query, 1 A, 2 B). */
static boxtoi_result invalid(boxtoi_reason why, int which)
{
    boxtoi_result r;
    memset(&r, 0, sizeof r);
    r.state = BOXTOI_INVALID;
    r.reason = why;
    r.which = which;
    r.toi = r.exit = NAN;
    return r;
}

/*
 * A query whose motions asked for rescaling is answered from a copy *q with
 * both rescaled over [t0, t1] (bx_rescale); 0 when neither changed.  The
 * copies then do not ask again (the same test); if they did, the answer
 * would be OUT_OF_RANGE, not a loop.
 */
static int rescaled_query(const boxtoi_query *query, double t0, double t1,
                          boxtoi_query *q)
{
    *q = *query;
    int a = bx_rescale(&q->a, &q->motion_a, t0, t1);
    int b = bx_rescale(&q->b, &q->motion_b, t0, t1);
    return a || b;
}

/* The largest separation over the valid axes at s, from the poses. */
static double separation_at(const solver *S, double s, sat *st)
{
    sat_at(S, s, st);
    return most_separation(st);
}

/* The poses' separation at s along axis, or their largest where axis < 0. */
static double pose_separation(const solver *S, double s, int axis)
{
    sat st;
    double most = separation_at(S, s, &st);
    return axis < 0 ? most : st.d[axis];
}

/*
 * The end of [lo, hi] at which the poses' separation along axis (their
 * largest where axis < 0) crosses level, by bisection: hi holds
 * (separation above level when above is set, else at most level), lo does
 * not; returns the last hi.
 */
static double separation_crossing(const solver *S, double lo, double hi, double level,
                                  int above, int axis)
{
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi))
            break;
        double sep = pose_separation(S, mid, axis);
        if (above ? sep > level : sep <= level)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/*
 * For exit_first, where an axis's function stays within its rounding from
 * r to stop: -1 when r stands, the poses there parting the boxes by more
 * than the touching tolerance, or within it of that and parting them at
 * stop; 0 when they do not part them at stop; else (the poses at r holding
 * the boxes together) where they first part them by more than it in
 * (r, stop], by bisection from stop (1 and *out).
 */
static BX_NOINLINE int poses_part(const solver *S, double r, double stop, double *out)
{
    sat st;
    double at_r = separation_at(S, r, &st);
    if (at_r > S->tol)
        return -1;
    if (!(separation_at(S, stop, &st) > S->tol))
        return 0;
    if (!(at_r < -S->tol))
        return -1;
    *out = separation_crossing(S, r, stop, S->tol, 1, -1);
    return 1;
}

/* Edge axes whose edges' squared sine is below this (1e-2 rad from
   parallel) at a root of theirs may have it far off (near_parallel). */
#define SPREAD_SINE2 1e-4

/* Are the edges of edge axis `axis` within SPREAD_SINE2 of parallel in the
   poses pa and pb? */
static int near_parallel(const bx_pose *pa, const bx_pose *pb, int axis)
{
    if (axis < 6)
        return 0;
    const double *a = pa->axis[(axis - 6) / 3], *b = pb->axis[(axis - 6) % 3];
    double ab = bx_dot3(a, b); /* |a x b|^2 = |a|^2 |b|^2 - (a . b)^2 */
    return ab * ab > (1.0 - SPREAD_SINE2) * bx_dot3(a, a) * bx_dot3(b, b);
}

/*
 * For exit_first, where an axis's function searched from a rises clear of
 * its rounding only at p, well after its root r: where the axis's edges
 * are nearly parallel at r, its slope is as small as their sine and r
 * may be far off.  Then the first point at which the poses part the boxes
 * by more than the touching tolerance, by bisection, in (r, p] when they
 * do not at r, else in (a, r] when they do not at a; else r (a flat rise,
 * the exit's own, is exact at r).
 */
static BX_NOINLINE double poses_rise(const solver *S, int axis, double a, double r, double p)
{
    sat st;
    if (axis < 6)
        return r;
    double at_r = separation_at(S, r, &st);
    if (!near_parallel(&st.pa, &st.pb, axis))
        return r;
    if (!(at_r > S->tol))
        return separation_crossing(S, r, p, S->tol, 1, -1);
    if (a < r && !(separation_at(S, a, &st) > S->tol))
        return separation_crossing(S, a, r, S->tol, 1, -1);
    return r;
}

/*
 * For contact_exit: the exit e found, or the first point in (tau, e] at
 * which the poses part the boxes by more than the touching tolerance, by
 * bisection, when they part them by more than face_bias at e (at the end
 * when e is past it).
 */
static BX_NOINLINE double exit_by_poses(const solver *S, double tau, double e)
{
    sat st;
    double end = fmin(e, 1.0);
    if (!(end > tau) || !(separation_at(S, end, &st) > S->face_bias))
        return e;
    return separation_crossing(S, tau, end, S->tol, 1, -1);
}

/* A root that rounding may move by more than this (of the interval) is
   checked against the poses. */
#define SPREAD_MAX 1e-10

/*
 * How far rounding may move a root r of an axis's function: its local
 * rounding level over its slope there (a central difference).
 */
static BX_NOINLINE double root_spread(solver *S, int axis, double r)
{
    double lo = fmax(0.0, r - 1e-6), hi = fmin(1.0, r + 1e-6);
    double slope = fabs(axis_value(S, axis, hi) - axis_value(S, axis, lo)) / (hi - lo);
    double level = bxp_bern_eval(need_noise_poly(S, axis), S->xdeg[axis], r);
    return slope > 0.0 ? level / slope : INFINITY;
}

/*
 * Is the point tau, reached at a root of axis `touching`, possibly late?
 * It is when the poses there hold the boxes deeper than the promise's
 * distance: the axis separated them up to tau, so that they can at most
 * have come down to touching.  And it may be, at a root of an edge axis
 * whose edges' squared sine there is below SPREAD_SINE2, which rounding
 * can move by more than SPREAD_MAX: the function is the gap times the
 * sine of the edges' angle, and its slope as small.  (Edges turning
 * through parallel as the boxes meet put such a root 6.6e-7 of the
 * interval late, the boxes 8.8e-9 deep there.)  That holds whether or not
 * another axis parts the boxes at tau: where the edges turn parallel just
 * after the gap closes, the function's two roots, of the gap and of the
 * sine, lie within its rounding of each other, and the search can give
 * the second (a clip 1.6e-9 of the size deep, 1.4e-7 of the interval
 * before it, was passed over).
 */
static int arrived_late(solver *S, const sat *st, int touching, double tau)
{
    double most = most_separation(st);
    if (most < -S->face_bias)
        return 1;
    if (!near_parallel(&st->pa, &st->pb, touching))
        return 0;
    return root_spread(S, touching, tau) > SPREAD_MAX;
}

/*
 * An axis stuck at tau: its function is within its rounding level of 0
 * there, so its roots say nothing more, yet the poses show it parting the
 * boxes (by `apart`).  That happens where the function is far smaller than
 * its terms: an edge pair turning parallel as the boxes meet (the function
 * is the gap times the sine of their angle), far from the origin, or edges
 * turning through parallel there.  The band in which the function stays
 * within twice its local rounding level at tau ends where it leaves that,
 * on either side (b); inside, the separations of the poses, exact to the
 * coordinates' rounding, decide, by bisection from b, or from where the
 * largest is least (golden section) when the boxes are apart at b: the
 * first time it falls to the touching tolerance where it does, else to
 * face_bias.  Returns the time to go on from (the boxes touching there, or
 * within face_bias, or the band's end where they stay apart by more
 * across it; 2 when the band reaches past the interval), or -1 when the
 * band is empty.  Boxes within face_bias at tau, where a contact keeps
 * the promise, go on to a point where they touch, or to the band's end
 * where they stay apart across it; else -1 (the band reaches past the
 * interval).  The poses are looked at, not bounded, so the loop asks only
 * when no other axis's roots carry it past tau.
 */
static BX_NOINLINE double stuck_band(solver *S, int axis, double tau, double noise,
                                     double apart)
{
    local_noise ln = {S, axis};
    double b = 1.0, r, level = 2.0 * local_noise_at(&ln, tau, tau);
    double lim = apart > S->face_bias ? S->face_bias : S->tol;
    int ends = 0;
    if (axis_first(S, axis, tau, 1.0, 1, level, NULL, noise, &r)) {
        b = r;
        ends = 1;
    }
    if (axis_first(S, axis, tau, b, 0, -level, NULL, noise, &r) && r < b) {
        b = r;
        ends = 1;
    }
    if (!(b > tau))
        return -1.0;
    double lo = tau, hi = b;
    if (!(pose_separation(S, b, axis) <= lim)) {
        const double g = 0.5 * (sqrt(5.0) - 1.0);
        double a = tau, c = b, x1 = c - g * (c - a), x2 = a + g * (c - a);
        double f1 = pose_separation(S, x1, axis), f2 = pose_separation(S, x2, axis);
        for (int it = 0; it < 100 && f1 > lim && f2 > lim && a < x1 && x2 < c; it++) {
            if (f1 < f2) {
                c = x2;
                x2 = x1;
                f2 = f1;
                x1 = c - g * (c - a);
                f1 = pose_separation(S, x1, axis);
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + g * (c - a);
                f2 = pose_separation(S, x2, axis);
            }
        }
        if (f1 <= lim)
            hi = x1;
        else if (f2 <= lim)
            hi = x2;
        else
            return ends ? b : apart > S->face_bias ? 2.0 : -1.0;
    }
    return separation_crossing(S, lo, hi, pose_separation(S, hi, axis) <= S->tol ? S->tol : lim,
                               0, axis);
}

/* How solve_query takes its interval (flags). */
#define SOLVE_SPLIT 1u   /* may cut it into pieces (solve_pieces) */
#define SOLVE_ARRIVED 2u /* a piece after the first: a contact at its start
                            is an arrival, described from before it */
#define SOLVE_SWAP 4u    /* the query's A and B are solved as B and A */
#define SOLVE_CANON 8u   /* solve in the order part_order gives (boxtoi_solve) */
#define SOLVE_GENERAL 16u /* rigid motions solved as general ones (want_general) */
#define SOLVE_LOCAL 32u   /* the boxes' local scales are not to be balanced (solve_local) */
#define SOLVE_DET_SHOWN 64u /* a piece of a query whose determinant tests passed over
                               its whole interval: not tested again */
#define SOLVE_TIE_SWAP 128u /* with SOLVE_CANON: parts that part_order finds the same are
                               solved swapped too (tie_order) */

/* The query's boxes and motions in the order solved (mode's SOLVE_SWAP). */
static void solved_parts(const boxtoi_query *query, unsigned mode, const boxtoi_box **a,
                         const boxtoi_motion **ma, const boxtoi_box **b,
                         const boxtoi_motion **mb)
{
    int sw = (mode & SOLVE_SWAP) != 0;
    *a = sw ? &query->b : &query->a;
    *b = sw ? &query->a : &query->b;
    *ma = sw ? &query->motion_b : &query->motion_a;
    *mb = sw ? &query->motion_a : &query->motion_b;
}

/* Exchange A and B of *q in place (no copy of a motion on the stack). */
static void swap_parts(boxtoi_query *q)
{
    boxtoi_box box = q->a;
    q->a = q->b;
    q->b = box;
    int d = q->motion_a.degree;
    q->motion_a.degree = q->motion_b.degree;
    q->motion_b.degree = d;
    double *x = &q->motion_a.c[0][0][0], *y = &q->motion_b.c[0][0][0];
    for (size_t i = 0; i < sizeof q->motion_a.c / sizeof *x; i++) {
        double v = x[i];
        x[i] = y[i];
        y[i] = v;
    }
}

/*
 * Exit: the first s after the contact at tau at which some axis separates
 * (above 1 when the contact lasts through the interval's end).  st holds
 * the poses at tau, and is reused for the probes; touching is the axis
 * that arrived at tau.
 */
static double contact_exit(solver *S, sat *st, double tau, int touching)
{
    double exit_s = 2.0;
    int order[NAXES];
    /*
     * Axes most separated at the first of two probes (a quarter, then half
     * of the way from tau to the end) at which some axis separates, first:
     * the exit is likely theirs, and an early exit shortens the search for
     * every other axis (most are then dismissed by axis_below).  The order
     * only affects the work, and the exit time in its last ulps (a root is
     * polished within a different bracket).
     */
    bx_pose pa0 = st->pa, pb0 = st->pb;
    sat *end = st;
    static const double probe[2] = {0.25, 0.5};
    double probe_s = tau;
    for (int f = 0; f < 2; f++) {
        int separates = 0;
        probe_s = tau + probe[f] * (1.0 - tau);
        sat_at(S, probe_s, end);
        for (int k = 0; k < NAXES; k++)
            separates |= end->valid[k] && end->d[k] > 0.0;
        if (separates)
            break;
    }
    for (int k = 0; k < NAXES; k++) {
        int j = k;
        order[k] = k;
        while (j > 0 && end->d[order[j - 1]] < end->d[order[j]]) {
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
            j--;
        }
    }
    uint32_t inside = 0;
    int unsure = 0;
    for (int k = 0; k < NAXES; k++) {
        double r;
        int axis = order[k];
        if ((inside & (1u << axis)) || axis_degenerate(S, axis))
            continue;
        /*
         * The bound cannot dismiss an axis seen apart at the probe (before
         * the stop) or the one touching at tau: not tried.
         */
        double stop = fmin(exit_s, 1.0);
        int bound = axis != touching &&
                    !(end->valid[axis] && end->d[axis] > 0.0 && probe_s <= stop);
        if (axis_exit(S, axis, tau, stop, bound, &r)) {
            if (r < exit_s)
                exit_s = r;
        } else if (!unsure) {
            unsure = near_parallel(&pa0, &pb0, axis) || near_parallel(&end->pa, &end->pb, axis);
        }
        if (S->want_general)
            return exit_s; /* the query is solved again (solve_query) */
        /*
         * Once the first axis in the order has been searched, the axes that
         * provably stay overlapping until its exit (or the end, without one)
         * need no search (rigid motions).
         */
        if (k == 0 && S->rigid)
            inside = certify_inside(S, &pa0, &pb0, tau, fmin(exit_s, 1.0));
    }
    /*
     * An edge axis nearly parallel at tau or at the probe that ends nothing
     * may have hidden its exit in its rounding: its function is the gap
     * times the sine of the edges' angle, and it can stay within its
     * rounding level while the boxes part along it (edges turning through
     * parallel as they parted, 1000 from the origin, gave the exit of two
     * face axes instead, 1.5e-5 of the interval late, the boxes 1.2e-6
     * apart there).  Poses that part the boxes by more than face_bias at
     * the exit found (or at the end) put it at the first point they part
     * them, by bisection from tau.
     */
    if (unsure)
        exit_s = exit_by_poses(S, tau, exit_s);
    return exit_s;
}

static boxtoi_result solve_query(const boxtoi_query *query, unsigned mode);

static BX_NOINLINE boxtoi_result solve_local(const boxtoi_query *query, unsigned mode);

static unsigned tie_order(const boxtoi_query *query, unsigned mode);

/*
 * boxtoi_validate's reason for box a and then box b over [t0, t1], *which
 * the box refused (1 or 2).  A query that asked for rescaling is checked so
 * before it is rescaled (a tiny frame rescaled can bring corners out of
 * range into it; motions scaled by w's power of two can pass the tests
 * that the boxes as given fail), and a query refused gets these reasons
 * (refused_as_validated: the scalings can bring a box's other faults into
 * view first).
 */
static boxtoi_reason validate_pair(const boxtoi_box *a, const boxtoi_motion *ma,
                                   const boxtoi_box *b, const boxtoi_motion *mb, double t0,
                                   double t1, int *which)
{
    boxtoi_reason why = boxtoi_validate(a, ma, t0, t1);
    *which = why ? 1 : 2;
    return why ? why : boxtoi_validate(b, mb, t0, t1);
}

/* solve_query of a query whose motions asked for rescaling. */
static BX_NOINLINE boxtoi_result solve_rescaled(const boxtoi_query *query, int which,
                                                unsigned mode)
{
    const boxtoi_box *ba, *bb;
    const boxtoi_motion *ma, *mb;
    boxtoi_reason why;
    boxtoi_query q;
    boxtoi_result r;
    int bad;
    solved_parts(query, mode, &ba, &ma, &bb, &mb);
    /* the frames and motions rescaled can pass the tests that the boxes as
       given fail: refused as given */
    if ((why = validate_pair(ba, ma, bb, mb, query->t0, query->t1, &bad)))
        return invalid(why, bad);
    mode = tie_order(query, mode);
    /* frames whose 3x3 part is tiny against w are rescaled first (the
       scaling by w would take that part below the doubles) */
    if (!(mode & SOLVE_LOCAL) && (bx_locally_small(ma, query->t0, query->t1) ||
                                  bx_locally_small(mb, query->t0, query->t1)))
        return solve_local(query, mode);
    if (!rescaled_query(query, query->t0, query->t1, &q)) {
        r = invalid(BOXTOI_REASON_OUT_OF_RANGE, which);
    } else {
        if (mode & SOLVE_SWAP)
            swap_parts(&q);
        r = solve_query(&q, mode & ~SOLVE_SWAP);
    }
    return r;
}

/* Is either motion's w too uneven over the interval for one piece
 * (BX_PIECE_RATIO)?  Then the query is solved in pieces. */
static int needs_pieces(const bx_moving *A, const bx_moving *B)
{
    return bx_w_uneven(A->we, A->e) || bx_w_uneven(B->we, B->e);
}

/*
 * Time in [t0, t1] of s in the interval [ta, tb] (s in [0, 1]).  The ends
 * are exact: tb - ta overflows for an interval longer than the largest
 * double, which two motions of degree 0 may have (only s = 0 or past 1 then).
 */
static double piece_time(double ta, double tb, double s)
{
    return s >= 1.0 ? tb : s <= 0.0 ? ta : ta + (tb - ta) * s;
}

/*
 * piece_time rounded toward ta, for the time of contact and its exit: where
 * the spacing of doubles near ta is coarse against the interval (ta far
 * from 0), the nearest double could lie after the contact, or after its
 * end (where the boxes are apart).  t - ta is exact where that
 * spacing matters (t and ta within a factor of 2 of each other); elsewhere
 * the test can only step back by one ulp more.
 */
static double contact_time(double ta, double tb, double s)
{
    double t = piece_time(ta, tb, s);
    return s < 1.0 && t - ta > (tb - ta) * s ? nextafter(t, -INFINITY) : t;
}

/*
 * The query answered piece by piece (bx_piece_times), each piece prepared
 * from the caller's motions over its own times, as a query over that
 * interval: the first piece with a contact gives it; when that contact
 * lasts to the piece's end, the next pieces say how long it goes on.  A
 * piece that touches at its start after one that did not is a contact at
 * that start.  Should any piece not be answered, the whole interval is
 * solved in one piece instead.
 */
static BX_NOINLINE boxtoi_result solve_pieces(const boxtoi_query *query, unsigned mode,
                                              const bx_moving *A, const bx_moving *B)
{
    double t[BX_MAX_PIECES + 1];
    int n = bx_piece_times(A->we, A->e, B->we, B->e, query->t0, query->t1, t);
    int iterations = 0, k;
    const boxtoi_box *ba, *bb;
    const boxtoi_motion *ma, *mb;
    solved_parts(query, mode, &ba, &ma, &bb, &mb);
    /* the query in the order solved, over piece k: [t[k], t[k + 1]] */
    boxtoi_query q = *query;
    q.a = *ba;
    q.b = *bb;
    q.motion_a = *ma;
    q.motion_b = *mb;
    boxtoi_result res, r;
    for (k = 0; k < n; k++) {
        q.t0 = t[k];
        q.t1 = t[k + 1];
        res = solve_query(&q, SOLVE_DET_SHOWN | (k > 0 ? SOLVE_ARRIVED : 0));
        iterations += res.iterations;
        if (res.state != BOXTOI_MISS)
            break;
    }
    if (k == n) {
        res.iterations = iterations;
        return res; /* a miss */
    }
    if (res.state != BOXTOI_HIT && res.state != BOXTOI_OVERLAP)
        return solve_query(query, mode & SOLVE_SWAP);
    if (k > 0)
        res.state = BOXTOI_HIT; /* toi: t[k] or later */
    if (!(query->flags & BOXTOI_SKIP_EXIT)) {
        /* a contact lasting to the piece's end goes on while the next starts in it */
        for (int j = k + 1; j < n && res.exit_after_t1; j++) {
            q.t0 = t[j];
            q.t1 = t[j + 1];
            r = solve_query(&q, SOLVE_DET_SHOWN);
            iterations += r.iterations;
            if (r.state == BOXTOI_OVERLAP && r.exit_after_t1)
                continue;
            if (r.state != BOXTOI_OVERLAP && r.state != BOXTOI_HIT && r.state != BOXTOI_MISS)
                return solve_query(query, mode & SOLVE_SWAP);
            res.exit_after_t1 = 0;
            res.exit = r.state == BOXTOI_OVERLAP ? r.exit : t[j];
        }
    }
    res.iterations = iterations;
    return res;
}

/*
 * Which of a box and its motion comes first in the order the pair is
 * solved in: -1, 0 (the same) or 1, from their bits (the corners, the
 * degree, the coefficients up to it), a total order that swapping the two
 * reverses.
 */
static int part_order(const boxtoi_box *ba, const boxtoi_motion *ma, const boxtoi_box *bb,
                      const boxtoi_motion *mb)
{
    /* the corners as 64-bit words: usually the first settles it */
    for (int k = 0; k < 6; k++) {
        uint64_t x, y;
        memcpy(&x, k < 3 ? &ba->lo[k] : &ba->hi[k - 3], sizeof x);
        memcpy(&y, k < 3 ? &bb->lo[k] : &bb->hi[k - 3], sizeof y);
        if (x != y)
            return x < y ? -1 : 1;
    }
    int c;
    if (ma->degree != mb->degree)
        return ma->degree < mb->degree ? -1 : 1;
    if (ma->degree < 0 || ma->degree > BOXTOI_MAX_DEGREE)
        return 0; /* invalid either way */
    c = memcmp(ma->c, mb->c, (size_t)(ma->degree + 1) * sizeof ma->c[0]);
    return c < 0 ? -1 : c > 0;
}

/*
 * mode for a query to be made from this one part by part (its motions
 * rescaled, its frames balanced): two parts that differ can come out the
 * same bits (one motion written at two scales), which part_order cannot
 * order, and the query with A and B swapped would then be solved in the
 * same order, not mirrored.  Where the parts as they are differ,
 * SOLVE_TIE_SWAP records whether they are ordered B before A, and
 * solve_near swaps such a tie as it would have swapped them.
 */
static unsigned tie_order(const boxtoi_query *query, unsigned mode)
{
    if (!(mode & SOLVE_CANON))
        return mode;
    const boxtoi_box *ba, *bb;
    const boxtoi_motion *ma, *mb;
    solved_parts(query, mode, &ba, &ma, &bb, &mb);
    int order = part_order(ba, ma, bb, mb);
    return order > 0 ? mode | SOLVE_TIE_SWAP : order < 0 ? mode & ~SOLVE_TIE_SWAP : mode;
}

/* *r made the answer for the query with A and B swapped. */
static void mirror(boxtoi_result *r)
{
    boxtoi_feature f = r->feature_a;
    r->feature_a = r->feature_b;
    r->feature_b = f;
    if (r->kind == BOXTOI_VERTEX_FACE)
        r->kind = BOXTOI_FACE_VERTEX;
    else if (r->kind == BOXTOI_FACE_VERTEX)
        r->kind = BOXTOI_VERTEX_FACE;
    for (int k = 0; k < 3; k++)
        r->normal[k] = -r->normal[k];
}

/*
 * The power of two 2^-e that brings the query's lengths near 1 when all of
 * them (the boxes' corners, the translation columns relative to w) lie
 * below 2^-400, where products of two underflow (boxes 2e-162 long were
 * found apart while they overlapped); 0 otherwise, and for input not
 * valid (NaN fails the tests; the solver refuses it in the usual way).
 * Where it is not 0, why[] holds each box's boxtoi_validate reason over the
 * interval (bx_reach).
 */
static int tiny_exponent(const boxtoi_query *q, boxtoi_reason why[2])
{
    double a = bx_tiny_length(&q->a, &q->motion_a), b;
    if (!(a >= 0.0) || !((b = bx_tiny_length(&q->b, &q->motion_b)) >= 0.0))
        return 0;
    if (!(a > 0.0 || b > 0.0))
        return 0;
    double ra, rb;
    why[0] = bx_reach(&q->a, &q->motion_a, q->t0, q->t1, &ra);
    why[1] = bx_reach(&q->b, &q->motion_b, q->t0, q->t1, &rb);
    return bx_tiny_exponent(fmax(a, b), fmax(ra, rb));
}

/*
 * boxtoi_solve for a query whose lengths all lie below 2^-400 (e from
 * tiny_exponent): solved with them scaled by 2^-e, its point and depth
 * scaled back.  Out of line, so that the usual query's calls do not carry
 * the scaled copy on their stack.
 */
static BX_NOINLINE boxtoi_result solve_tiny(const boxtoi_query *query, int e, unsigned mode)
{
    boxtoi_query q = *query;
    bx_scale_lengths(&q.a, &q.motion_a, -e);
    bx_scale_lengths(&q.b, &q.motion_b, -e);
    boxtoi_result res = solve_query(&q, mode);
    if (res.state == BOXTOI_HIT || res.state == BOXTOI_OVERLAP) {
        for (int i = 0; i < 3; i++)
            res.point[i] = ldexp(res.point[i], e);
        res.depth = ldexp(res.depth, e);
    }
    return res;
}

/*
 * boxtoi_solve of a query whose lengths all lie below 2^-400: scaled near 1,
 * a 3x3 part that boxtoi_validate refuses (a determinant below the doubles
 * whose frame cannot be rescaled, the box's world lengths below the normal
 * doubles) can come back into range; the query is refused as each box is
 * (why[], from tiny_exponent).  Reasons of the query itself (flags,
 * interval) come first, as in solve_query.
 */
static BX_NOINLINE boxtoi_result solve_tiny_query(const boxtoi_query *query, int e,
                                                  const boxtoi_reason why[2])
{
    boxtoi_result r = solve_tiny(query, e, SOLVE_SPLIT | SOLVE_CANON);
    if (r.state == BOXTOI_INVALID && r.which == 0)
        return r;
    if (why[0] || why[1])
        return why[0] ? invalid(why[0], 1) : invalid(why[1], 2);
    return r;
}

/*
 * A refusal of a box (which 1 or 2) by boxtoi_solve over [t0, t1] or
 * boxtoi_overlap_at (t0 = t1 = t), given boxtoi_validate's reason, the
 * first refused box's, where it refuses one: the rescaled frames and
 * motions that the solver tries can meet another fault first (a 3x3 part
 * found singular where a coefficient times t^2 is beyond the doubles), or
 * the same fault in the other box.  Where it accepts both, the refusal
 * stays: scales too far apart for one frame (boxtoi_validate's comment).
 */
static BX_NOINLINE void refused_as_validated(const boxtoi_query *query, double t0, double t1,
                                             boxtoi_reason *reason, int *which)
{
    int bad;
    boxtoi_reason why = validate_pair(&query->a, &query->motion_a, &query->b,
                                      &query->motion_b, t0, t1, &bad);
    if (why) {
        *reason = why;
        *which = bad;
    }
}

boxtoi_result bx_solve(const boxtoi_query *query)
{
    int e;
    boxtoi_reason why[2];
    boxtoi_result r;
    if (!query || !(fabs(query->a.hi[0]) < BX_TINY_LENGTH) || !(e = tiny_exponent(query, why)))
        r = solve_query(query, SOLVE_SPLIT | SOLVE_CANON);
    else
        r = solve_tiny_query(query, e, why);
    if (r.state == BOXTOI_INVALID && r.which)
        refused_as_validated(query, query->t0, query->t1, &r.reason, &r.which);
    return r;
}

#ifndef BX_DISPATCH /* else dispatch.c defines it */
BOXTOI_API boxtoi_result boxtoi_solve(const boxtoi_query *query)
{
    return bx_solve(query);
}
#endif

/*
 * How far from 0 is the polynomial with scaled Bernstein coefficients g
 * (degree n) proved above err?  Its Bernstein coefficients on halves,
 * quarters... of [0, 1] (de Casteljau, at most BALL_DEPTH halvings, each
 * halving's rounding, a few ulps of the largest coefficient, added to err)
 * are tested from the left: returns the left end of the first piece not
 * shown above (its end value not above, or no halvings left), 1 when none.
 */
#define BALL_DEPTH 4
BXP_INLINE double bern_above_n(const double *g, int n, double err)
{
    DEGREE_IN_RANGE(n);
    double stack[BALL_DEPTH + 1][PCAP], big = 0.0, at[BALL_DEPTH + 1];
    int depth[BALL_DEPTH + 1], top = 0;
    for (int k = 0; k <= n; k++) {
        stack[0][k] = g[k] / bxp_binomial_table[n][k];
        big = fabs(stack[0][k]) > big ? fabs(stack[0][k]) : big;
    }
    err += 4.0 * (n + 1) * BALL_DEPTH * DBL_EPSILON * big;
    depth[0] = 0;
    at[0] = 0.0;
    while (top >= 0) {
        double *b = stack[top];
        int lvl = depth[top], k;
        if (!(b[0] > err))
            return at[top];
        for (k = 1; k <= n && b[k] > err; k++)
            ;
        if (k > n) {
            top--;
            continue;
        }
        if (lvl >= BALL_DEPTH)
            return at[top];
        /* halve: the left half goes on top; b becomes the right half, each
           b[n - i] left as it is from round i on */
        double *left = stack[top + 1];
        for (int i = 0; i <= n; i++) {
            left[i] = b[0];
            for (int j = 0; j < n - i; j++)
                b[j] = 0.5 * (b[j] + b[j + 1]);
        }
        depth[top] = depth[top + 1] = lvl + 1;
        at[top + 1] = at[top];
        at[top] += ldexp(1.0, -(lvl + 1));
        top++;
    }
    return 1.0;
}

/* bern_above_n at the degrees of the usual rigid motions unrolled. */
static BX_NOINLINE double bern_above(const double *g, int n, double err)
{
    switch (n) {
    case 4: return bern_above_n(g, 4, err);
    case 8: return bern_above_n(g, 8, err);
    case 12: return bern_above_n(g, 12, err);
    default: return bern_above_n(g, n, err);
    }
}

/*
 * A ball about each box's centre through its corners, for rigid motions:
 * |u_k| = w within the rigidity test's rounding, so the radius is |half|
 * sqrt(1 + spread) <= |half| (1 + spread), spread from motion_is_rigid.
 * Returns -1 where w comes so near 0 that spread exceeds 1e-6.
 */
static double ball_radius(const bx_moving *M, double spread)
{
    if (!(spread <= 1e-6))
        return -1.0;
    const double *h = M->half;
    return sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) * (1.0 + spread);
}

/*
 * How far from 0 are the balls through the boxes' corners proved apart
 * (rigid motions; bern_above's answer, 1 for all of [0, 1], 0 for no part)?
 * Where they are, so are the boxes: all of [0, 1] is a miss with no axis
 * searched, and otherwise no contact comes before that point.  With D =
 * pB wA - pA wB and W = wA wB (both positive), the centres are |D| / W
 * apart, and g = |D|^2 - R^2 W^2 > 0 with R the sum of the radii says so.
 * R takes 1e-9 of itself more, and twice the face preference (1e-9 of the
 * size beyond the touching tolerance), so that the boxes are apart there by
 * more than the solver's touching tolerance: a miss settled here is the
 * answer the axes would give.
 *
 * g's scaled Bernstein coefficients of degree 2 dD are formed from D's and
 * W's, and all of them must exceed a bound of the rounding times the
 * binomial (a constant in that basis): D's coefficients are within E_r =
 * 16 (dD + 1) eps dmax_r of the exact products of the converted motions
 * (dmax_r bounds both their terms and |D_r(s)|, the scaled basis summing to
 * at most 1), which moves |D|^2 by at most 2 sum_r E_r dmax_r; each of g's
 * coefficients is a sum of 4 (dD + 1) products at most, whose rounding,
 * summed over the basis, is below 8 (dD + 2)^2 eps times big = sum_r dmax_r^2
 * + R^2 Wmax^2 (the products' sums over the basis are those of D's and W's
 * coefficients, each below dmax_r and Wmax).  W's own rounding is relative,
 * far inside R's 1e-9.
 */
static BX_NOINLINE double balls_apart(solver *S)
{
    double ra = ball_radius(S->A, S->spread[0]), rb = ball_radius(S->B, S->spread[1]);
    if (!(ra >= 0.0) || !(rb >= 0.0))
        return 0.0;
    double R = (ra + rb) * (1.0 + 1e-9) + 2.0 * S->face_bias;
    int n = S->dD, m = S->dA + S->dB, n2 = 2 * n;
    double we[PCAP], g[PCAP];
    need_D(S);
    if (m < n)
        bxp_sbern_elevate(S->wAB, m, n - m, we);
    else
        memcpy(we, S->wAB, (size_t)(n + 1) * sizeof *we);
    double wmax = bxp_max_abs(we, n), R2 = R * R;
    const double *d0 = S->D, *d1 = d0 + S->stride, *d2 = d1 + S->stride;
    /* g_k = sum over i + j = k of the products, each pair i < j twice */
    for (int k = 0; k <= n2; k++)
        g[k] = 0.0;
    for (int i = 0; i <= n; i++) {
        g[2 * i] += d0[i] * d0[i] + d1[i] * d1[i] + d2[i] * d2[i] - R2 * we[i] * we[i];
        for (int j = i + 1; j <= n; j++)
            g[i + j] += 2.0 * (d0[i] * d0[j] + d1[i] * d1[j] + d2[i] * d2[j] -
                               R2 * we[i] * we[j]);
    }
    double err = 0.0, big = R2 * wmax * wmax;
    for (int r = 0; r < 3; r++) {
        double e = 16.0 * (n + 1) * DBL_EPSILON * S->dmax[r];
        err += 2.0 * e * S->dmax[r];
        big += S->dmax[r] * S->dmax[r];
    }
    err += 8.0 * (n + 2) * (n + 2) * DBL_EPSILON * big;
    return bern_above(g, n2, err);
}

/*
 * Is w (scaled Bernstein, degree n) surely not uneven (bx_w_uneven), from
 * its scaled coefficients alone: all positive, the largest within
 * BX_PIECE_RATIO / C(n, n / 2) of the least (the Bernstein coefficients,
 * each divided by its C(n, i), then lie within BX_PIECE_RATIO)?
 */
BXP_INLINE int w_surely_even(const double *w, int n)
{
    double lo = w[0], hi = w[0];
    for (int i = 1; i <= n; i++) {
        lo = w[i] < lo ? w[i] : lo;
        hi = w[i] > hi ? w[i] : hi;
    }
    return lo > 0.0 && hi * bxp_binomial_table[n][n / 2] <= BX_PIECE_RATIO * lo;
}

/* w_surely_even of a prepared motion, known from its preparation or not */
BXP_INLINE int moving_w_even(const bx_moving *m)
{
    return m->w_even || w_surely_even(m->w, m->d);
}

/*
 * A box's local scale: where the 3x3 part of a motion is tiny against its
 * w (all of its coefficients below BX_LOCAL_SMALL times w's largest), the
 * world's lengths are products of the corners and those entries, and the
 * solver's products of a few of them underflow while each is a normal
 * double (corners 2^-200 under a 3x3 part 2^-300 came out overlapping at
 * t0, a box's size apart; a general motion scaled by 2^-179 missed a
 * clip).  Such a query is solved with that box's frame rescaled
 * (solve_local): the 3x3 part's columns times 2^-k and the corners times
 * 2^k, the same world boxes, exactly.
 */
static int locally_small(const entry_scales *sc)
{
    double u = 0.0;
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            u = sc->u[k][r] > u ? sc->u[k][r] : u;
    return u < BX_LOCAL_SMALL * sc->w;
}

/* solve_query of a query whose boxes' local scales are unbalanced
   (locally_small): their frames rescaled, then, when its lengths have
   become tiny, as boxtoi_solve solves such a query (solve_tiny). */
static BX_NOINLINE boxtoi_result solve_local(const boxtoi_query *query, unsigned mode)
{
    boxtoi_query q = *query;
    mode = tie_order(query, mode) | SOLVE_LOCAL;
    bx_balance_frame(&q.a, &q.motion_a, q.t0, q.t1);
    bx_balance_frame(&q.b, &q.motion_b, q.t0, q.t1);
    boxtoi_reason why[2]; /* not used: both callers have accepted the boxes */
    int e = tiny_exponent(&q, why);
    return e ? solve_tiny(&q, e, mode) : solve_query(&q, mode);
}

static BX_NOINLINE int solve_near(const boxtoi_query *query, unsigned mode, bx_moving *A,
                                  bx_moving *B, double size, double tol, boxtoi_result *res);

/* *res = r, and 0 (solve_once's answers that are formed elsewhere) */
static int answer(boxtoi_result *res, boxtoi_result r)
{
    *res = r;
    return 0;
}

/*
 * solve_once's answer for a singular 3x3 part (bx_check_det2's 1 or 2).
 */
static int singular_answer(const boxtoi_query *query, unsigned mode, int singular,
                           boxtoi_result *res)
{
    /* a 3x3 part singular only through its scale (a determinant below the
       smallest normal double): solved with the frames rescaled */
    if (!(mode & SOLVE_LOCAL) &&
        (bx_locally_small(&query->motion_a, query->t0, query->t1) ||
         bx_locally_small(&query->motion_b, query->t0, query->t1)))
        return 2;
    return answer(res, invalid(BOXTOI_REASON_SINGULAR, singular));
}

/*
 * boxtoi_solve into *res, cutting the interval into pieces when mode has
 * SOLVE_SPLIT and the motions need it (solve_pieces), once.  Returns 0, or
 * when *res means nothing: 2 when a box's frame must be rescaled
 * (solve_local), 1 when rigid motions met two nearly parallel edges
 * (want_general).
 */
static BX_NOINLINE int solve_once(const boxtoi_query *query, unsigned mode,
                                  boxtoi_result *res)
{
    bx_moving A, B;
    boxtoi_reason why;
    if (!query)
        return answer(res, invalid(BOXTOI_REASON_NULL, 0));
    if (query->flags & ~BOXTOI_SKIP_EXIT)
        return answer(res, invalid(BOXTOI_REASON_FLAGS, 0));
    if ((why = bx_check_interval(query->t0, query->t1)))
        return answer(res, invalid(why, 0));
    /*
     * Validation completes before any answer, reasons in the order of
     * bx_prepare (A fully, then B); only the determinant tests wait, since a
     * rigid motion usually proves its own (motion_is_rigid).
     */
    int which;
    const boxtoi_box *ba, *bb;
    const boxtoi_motion *ma, *mb;
    solved_parts(query, mode, &ba, &ma, &bb, &mb);
    if ((why = bx_prepare_pair(ba, ma, bb, mb, query->t0, query->t1, &A, &B, &which)))
        return answer(res, why == BX_REASON_RESCALE ? solve_rescaled(query, which, mode)
                                                    : invalid(why, which));

    memset(res, 0, sizeof *res);
    res->toi = res->exit = NAN;

    /* Far apart over the whole interval: the swept boxes do not meet. */
    double size = A.size > B.size ? A.size : B.size, tol = 0.0; /* neither NaN */
    int apart = 0;
    int swept = bx_swept_test(&A, &B, size, &tol, &apart);
    if (swept && !apart) {
        /* Apart within the local sizes' tolerance is apart within the
         * world's, never larger; near, the tolerance is the world's. */
        double wa = bx_world_size(&A), wb = bx_world_size(&B);
        double world = wa > wb ? wa : wb;
        if (world < size) {
            size = world;
            swept = bx_swept_test(&A, &B, size, &tol, &apart);
        }
    }
    /* w uneven over the interval: positions far smaller than the
       coefficients near its least, whose rounding the swept test's
       tolerance does not take (solved in pieces, or refused) */
    if (swept && apart && !(moving_w_even(&A) && moving_w_even(&B)) &&
        (bx_w_uneven(A.w, A.d) || bx_w_uneven(B.w, B.d)))
        apart = 0;
    if (swept && !apart)
        return solve_near(query, mode, &A, &B, size, tol, res);
    /* apart, or out of range */
    int singular = mode & SOLVE_DET_SHOWN ? 0 : bx_check_det2(&A, &B);
    double l[3], u[3];
    /* A's swept bounds come after A's determinant and before B's: either
       motion's bounds may have failed the swept test */
    int a_out = !swept && singular != 1 && !bx_swept_aabb(&A, l, u);
    if (singular && !a_out)
        return singular_answer(query, mode, singular, res);
    if (!swept)
        return answer(res, invalid(BOXTOI_REASON_OUT_OF_RANGE, a_out ? 1 : 2));
    res->state = BOXTOI_MISS;
    return 0;
}

/*
 * solve_once for boxes near each other (their swept boxes meet), prepared
 * as A and B (bx_prepare_pair), with the size and touching tolerance of the
 * swept test; *res is cleared (state unknown, times NaN), to be filled.
 */
static BX_NOINLINE int solve_near(const boxtoi_query *query, unsigned mode, bx_moving *A,
                                  bx_moving *B, double size, double tol, boxtoi_result *res)
{
    int rigid_a, rigid_b = 0, det_a = 0, det_b = 0;
    entry_scales scale_a, scale_b;
    double spread_a = INFINITY, spread_b = INFINITY;
    bx_trim(A->src, query->t0, query->t1, A);
    bx_trim(B->src, query->t0, query->t1, B);
    scales_of(A, &scale_a);
    scales_of(B, &scale_b);
    if (!(mode & SOLVE_LOCAL) && (locally_small(&scale_a) || locally_small(&scale_b)))
        return 2;
    rigid_a = motion_is_rigid(A, &scale_a, &det_a, &spread_a);
    rigid_b = rigid_a && motion_is_rigid(B, &scale_b, &det_b, &spread_b);
    int singular = mode & SOLVE_DET_SHOWN ? 0 : bx_check_det2(det_a ? NULL : A, det_b ? NULL : B);
    if (singular)
        return singular_answer(query, mode, singular, res);
    /*
     * Near: the pair is solved in one order whichever box is A, so that
     * swapping them mirrors the answer exactly, even where rounding would
     * decide a time, a name or a point differently in the other order.
     * The boxes are prepared alike in either place (each in its own lane,
     * or one after the other), and everything up to here is symmetric or
     * refuses the query in the order given (A's reasons first).
     */
    const boxtoi_box *ba, *bb;
    const boxtoi_motion *ma, *mb;
    solved_parts(query, mode, &ba, &ma, &bb, &mb);
    bx_moving *pa = A, *pb = B;
    int swapped = 0;
    int order = mode & SOLVE_CANON ? part_order(ba, ma, bb, mb) : -1;
    if (order > 0 || (order == 0 && (mode & SOLVE_TIE_SWAP))) {
        pa = B;
        pb = A;
        swapped = 1;
        mode ^= SOLVE_SWAP;
    }
    mode &= ~SOLVE_CANON;
    if ((mode & SOLVE_SPLIT) && needs_pieces(pa, pb)) {
        *res = solve_pieces(query, mode, pa, pb);
        if (swapped && res->state == BOXTOI_INVALID)
            return answer(res, solve_query(query, mode ^ SOLVE_SWAP)); /* as given */
        if (swapped)
            mirror(res);
        return 0;
    }

    solver S;
    S.A = pa;
    S.B = pb;
    S.dA = pa->e;
    S.dB = pb->e;
    S.dD = pa->d + pb->e > pb->d + pa->e ? pa->d + pb->e : pb->d + pa->e;
    S.tol = tol;
    /* 1e-9 of the size beyond the coordinates' rounding (tol's other part,
       1e-12 of the size, is inside it): the promise's distance */
    S.face_bias = 0.999e-9 * size + tol;
    S.orient_bias = S.face_bias;
    S.rigid = rigid_a && rigid_b && !(mode & SOLVE_GENERAL);
    S.stride = axis_degree_max(S.rigid, S.dA, S.dB, S.dD) + 1;
    S.have = 0;
    S.qbuilt = S.xbuilt = S.noisebuilt = S.termsbuilt = S.xsharp = S.qsharp = 0;
    S.want_general = 0;
    S.tbuilt = 0;
    S.noise_axis = -1;
    const entry_scales *sa = swapped ? &scale_b : &scale_a, *sb = swapped ? &scale_a : &scale_b;
    memcpy(S.umax[0], sa->u, sizeof S.umax[0]);
    memcpy(S.umax[1], sb->u, sizeof S.umax[1]);
    S.wscale[W_A] = sa->w;
    S.wscale[W_B] = sb->w;
    S.wscale[W_AB] = S.wscale[W_A] * S.wscale[W_B];
    S.spread[0] = swapped ? spread_b : spread_a;
    S.spread[1] = swapped ? spread_a : spread_b;
    if (S.rigid)
        bxp_sbern_mul(pa->we, pa->e, pb->we, pb->e, S.wAB);
    /* Polynomial slots sized by the degrees (a few KB for low degrees). */
    double arena[arena_size(S.rigid, S.dA, S.dB, S.dD)];
    solver_arena(&S, arena);
    /* rigid motions: no contact before `ball`, none at all when it is 1 */
    double ball = S.rigid ? balls_apart(&S) : 0.0;
    if (ball >= 1.0) {
        res->state = BOXTOI_MISS;
        return 0;
    }

    sat st;
    double tau = ball, from = ball; /* from: the point before tau */
    int iter, touching = -1; /* the axis whose run ended at tau */
    for (iter = 0; iter < MAX_ADVANCE; iter++) {
        unsigned stuck = 0;
        int axis;
        sat_at(&S, tau, &st);
        if (iter > 0 && touching >= 0 && arrived_late(&S, &st, touching, tau)) {
            /*
             * The root that led here is late, or may be by more than the
             * promise: the poses, exact to the coordinates' rounding,
             * decide.  The axis stops separating the boxes where its
             * separation in the poses falls to the touching tolerance, by
             * bisection from `from`, where its search started with it
             * above.  Where another axis still parts them there by more
             * than that and none does at tau, the contact is where their
             * largest separation falls to it in between; else the other
             * axes are looked at there, as at any point reached.  A
             * bisection that ends where the edges are too near parallel
             * for the axis to be read (their sine below 1e-9) found no
             * crossing of it: then the contact is where the largest
             * separation falls to the touching tolerance from `from`, if
             * the boxes touch at tau, else tau stands.
             */
            double late = tau, most_late = most_separation(&st);
            double r = separation_crossing(&S, from, late, S.tol, 0, touching);
            sat_at(&S, r, &st);
            if (st.valid[touching]) {
                tau = r;
                touching = -1;
                if (most_separation(&st) > S.tol && most_late <= S.tol) {
                    tau = separation_crossing(&S, tau, late, S.tol, 0, -1);
                    sat_at(&S, tau, &st);
                    break;
                }
                continue;
            }
            if (most_late <= S.tol) {
                tau = separation_crossing(&S, from, late, S.tol, 0, -1);
                sat_at(&S, tau, &st);
                touching = -1;
                break;
            }
            sat_at(&S, tau, &st);
        }
        double next = -1.0;
        double v[3], ca[3], cb[3], hs = tau + 1e-3 <= 1.0 ? 1e-3 : -1e-3;
        centre_at(pa, tau + hs, ca);
        centre_at(pb, tau + hs, cb);
        for (int r = 0; r < 3; r++)
            v[r] = ((cb[r] - ca[r]) - (st.pb.c[r] - st.pa.c[r])) / hs;
        double lasts;
        int banded[NAXES], nbanded = 0; /* axes stuck at tau, in order tried */
        while (separating_longest(&S, &st, v, stuck, &axis, &lasts)) {
            double r;
            double noise = axis_noise(&S, axis);
            if (S.want_general)
                return 1;
            /*
             * An axis expected to outlast the interval is first tried with
             * a bound that needs no roots; when it holds, no search.
             */
            if (lasts > 1.0 - tau && axis_above(&S, axis, tau, 1.0, noise)) {
                next = 2.0;
                break;
            }
            if (!axis_first(&S, axis, tau, 1.0, 0, 0.0, NULL, noise, &r)) {
                next = 2.0; /* separates through the end */
                break;
            }
            if (r > tau) {
                next = r;
                touching = axis;
                break;
            }
            stuck |= 1u << axis; /* rounding: its roots give no progress */
            banded[nbanded++] = axis;
        }
        /*
         * Only where no other axis's roots show the boxes apart beyond tau
         * do the poses in a stuck axis's band decide (stuck_band): they
         * are looked at, not bounded, and an edge axis whose edges turn
         * through parallel in the band can fall to 0 more than once there.
         */
        for (int k = 0; next < 0.0 && k < nbanded; k++) {
            double r;
            axis = banded[k];
            if ((r = stuck_band(&S, axis, tau, axis_noise(&S, axis), st.d[axis])) > tau) {
                next = r;
                touching = axis;
            }
        }
        if (next < 0.0)
            break; /* no axis separates: contact at tau */
        if (next > 1.0) {
            res->state = BOXTOI_MISS;
            res->iterations = iter + 1;
            return 0;
        }
        from = tau;
        tau = next;
    }
    res->iterations = iter + 1;
    if (iter >= MAX_ADVANCE) {
        res->state = BOXTOI_FAILED;
        return 0;
    }
    res->state = tau == 0.0 ? BOXTOI_OVERLAP : BOXTOI_HIT;
    res->toi = contact_time(query->t0, query->t1, tau);
    /*
     * Boxes overlapping at t0: the normal is a direction of their depth,
     * so an offset beyond the touching tolerance orients it (the other way
     * the overlap is deeper by twice that offset: plates nearly in one
     * plane, touching at t0, with their centres 1.2e-9 of their size apart
     * across it, got a normal along which they overlapped by 2.6e-9 for a
     * depth of 1.7e-10).
     */
    if (tau == 0.0 && !(mode & SOLVE_ARRIVED))
        S.orient_bias = S.tol;
    describe_contact(&S, &st, tau, (mode & SOLVE_ARRIVED) != 0, res);

    if (!(query->flags & BOXTOI_SKIP_EXIT)) {
        double exit_s = contact_exit(&S, &st, tau, touching);
        if (S.want_general)
            return 1;
        if (exit_s > 1.0)
            res->exit_after_t1 = 1;
        else
            res->exit = contact_time(query->t0, query->t1, exit_s);
    }
    if (swapped)
        mirror(res);
    return 0;
}

/*
 * solve_once, and again as general motions when rigid motions met two
 * nearly parallel edges: the first frame is gone before the second starts.
 */
static boxtoi_result solve_query(const boxtoi_query *query, unsigned mode)
{
    boxtoi_result res;
    int again = solve_once(query, mode, &res);
    if (again == 2)
        res = solve_local(query, mode);
    else if (again)
        solve_once(query, mode | SOLVE_GENERAL, &res);
    return res;
}

/*
 * boxtoi_overlap_at of the query with the boxes' frames rescaled where a 3x3
 * part is tiny (bx_balance_frame), once boxtoi_validate accepts both at t (a
 * frame so rescaled can bring corners beyond the range into it): -1 with
 * its reason where it does not, OVERLAP_UNCHANGED where no frame changed.
 */
#define OVERLAP_UNCHANGED (-2)
static int overlap_at(const boxtoi_query *query, double t, boxtoi_reason *reason);

static int overlap_balanced(const boxtoi_query *query, double t, boxtoi_reason *reason)
{
    boxtoi_query q = *query;
    int bad;
    boxtoi_reason why = validate_pair(&q.a, &q.motion_a, &q.b, &q.motion_b, t, t, &bad);
    if (why) {
        if (reason)
            *reason = why;
        return -1;
    }
    int changed = bx_balance_frame(&q.a, &q.motion_a, t, t);
    changed |= bx_balance_frame(&q.b, &q.motion_b, t, t);
    return changed ? overlap_at(&q, t, reason) : OVERLAP_UNCHANGED;
}

/* boxtoi_overlap_at of a query whose motions asked for rescaling. */
static BX_NOINLINE int overlap_rescaled(const boxtoi_query *query, double t,
                                        boxtoi_reason *reason)
{
    boxtoi_query q;
    /* frames with a tiny 3x3 part rescaled first, as solve_rescaled does */
    if (bx_locally_small(&query->motion_a, t, t) || bx_locally_small(&query->motion_b, t, t)) {
        int r = overlap_balanced(query, t, reason);
        if (r != OVERLAP_UNCHANGED)
            return r;
    } else {
        /* the motions scaled by w's power of two can pass the tests that
           the boxes as given fail (a determinant within rounding of 0 at
           a t near 1e194): refused as given */
        int bad;
        boxtoi_reason why = validate_pair(&query->a, &query->motion_a, &query->b,
                                          &query->motion_b, t, t, &bad);
        if (why) {
            if (reason)
                *reason = why;
            return -1;
        }
    }
    if (!rescaled_query(query, t, t, &q)) {
        if (reason)
            *reason = BOXTOI_REASON_OUT_OF_RANGE;
        return -1;
    }
    return overlap_at(&q, t, reason);
}

/* boxtoi_overlap_at of a query refused as singular: again with the boxes'
   frames rescaled where a 3x3 part is tiny (see locally_small), else the
   refusal. */
static BX_NOINLINE int overlap_local(const boxtoi_query *query, double t,
                                     boxtoi_reason *reason)
{
    int r = overlap_balanced(query, t, reason);
    if (r != OVERLAP_UNCHANGED)
        return r;
    if (reason)
        *reason = BOXTOI_REASON_SINGULAR;
    return -1;
}

/*
 * A box and motion prepared at t, and its pose's bounds tested against the
 * range as boxtoi_validate tests its swept bounds (world coordinates beyond
 * 1e60 are out of range at any scale of the motion).
 */
static boxtoi_reason overlap_prepare(const boxtoi_box *box, const boxtoi_motion *motion,
                                     double t, bx_moving *m)
{
    double lo[3], hi[3];
    boxtoi_reason why = bx_prepare(box, motion, t, t, m);
    return why ? why : bx_swept_aabb(m, lo, hi) ? BOXTOI_REASON_NONE
                                                 : BOXTOI_REASON_OUT_OF_RANGE;
}

/* boxtoi_overlap_at, its refusals' reasons not yet boxtoi_validate's
   (refused_as_validated) */
static int overlap_at(const boxtoi_query *query, double t, boxtoi_reason *reason)
{
    bx_moving A, B;
    boxtoi_reason why = BOXTOI_REASON_NONE;
    if (!query)
        why = BOXTOI_REASON_NULL;
    else if (!isfinite(t))
        why = BOXTOI_REASON_INTERVAL_NOT_FINITE;
    else if (!(why = overlap_prepare(&query->a, &query->motion_a, t, &A)))
        why = overlap_prepare(&query->b, &query->motion_b, t, &B);
    if (why == BX_REASON_RESCALE)
        return overlap_rescaled(query, t, reason);
    if (why == BOXTOI_REASON_SINGULAR)
        return overlap_local(query, t, reason);
    if (reason)
        *reason = why;
    if (why)
        return -1;
    solver S;
    memset(&S, 0, sizeof S);
    S.A = &A;
    S.B = &B;
    sat st;
    sat_at(&S, 0.0, &st);
    for (int a = 0; a < NAXES; a++)
        if (st.valid[a] && st.d[a] > 0.0)
            return 0;
    /*
     * Edges within 1e-9 of parallel, whose axes the solver leaves to the
     * others: their cross product, each component rounded once, is as
     * accurate as any axis, and where every other axis overlaps they may
     * still part the boxes, by up to the edges' length times that sine.
     * Only edges exactly parallel at the poses give no axis.
     */
    pose_pair pp;
    pose_pair_of(&st, &pp);
    for (int a = 6; a < NAXES; a++)
        if (!st.valid[a] && axis_separation_below(&S, &st, &pp, a, NULL, 0.0) > 0.0)
            return 0;
    return 1;
}

BOXTOI_API int boxtoi_overlap_at(const boxtoi_query *query, double t,
                                 boxtoi_reason *reason)
{
    boxtoi_reason why = BOXTOI_REASON_NONE;
    int r = overlap_at(query, t, &why), which = 0;
    if (r < 0 && query && isfinite(t))
        refused_as_validated(query, t, t, &why, &which);
    if (reason)
        *reason = why;
    return r;
}

BOXTOI_API boxtoi_query boxtoi_default_query(void)
{
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    for (int i = 0; i < 3; i++) {
        q.a.lo[i] = q.b.lo[i] = -0.5;
        q.a.hi[i] = q.b.hi[i] = 0.5;
    }
    boxtoi_motion_identity(&q.motion_a);
    boxtoi_motion_identity(&q.motion_b);
    q.t0 = 0.0;
    q.t1 = 1.0;
    return q;
}
