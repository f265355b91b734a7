/*
 * Independent reference for the first contact of two moving boxes; see
 * ref.h for the formulation.  Self-contained: polynomials, root finding and
 * geometry are all local to this file.
 */
#include "ref.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>

/*
 * The geometry at one time (poses, containment, distances, depths, the
 * gaps that events are refined on) is computed in long double: for edges
 * nearly parallel, the directions of their common normals carry the
 * poses' rounding over the sine of their angle, which in double reaches
 * 1e-9 of the size for edges 1e-7 rad apart.
 */
typedef long double real;

#define MAXD BOXTOI_MAX_DEGREE
#define PMAX (4 * MAXD) /* highest event polynomial degree */

/* Tolerance on the in-feature parameters at an event (fraction of an edge). */
#define FEATURE_TOL 1e-9
/* Relative level below which a local extremum counts as a double root. */
#define TOUCH_REL 1e-12

/* ------------------------------------------------------------------ */
/* Polynomials in power form: a[0] + a[1] s + ... + a[n] s^n.           */

typedef struct poly {
    int n; /* degree; -1 for the zero polynomial */
    double a[PMAX + 1];
} poly;

static void p_zero(poly *p)
{
    p->n = -1;
}

static void p_trim(poly *p)
{
    while (p->n >= 0 && p->a[p->n] == 0.0)
        p->n--;
}

static void p_add(poly *r, const poly *x, const poly *y, double sy)
{
    poly t;
    int n = x->n > y->n ? x->n : y->n;
    for (int k = 0; k <= n; k++) {
        double v = 0.0;
        if (k <= x->n)
            v += x->a[k];
        if (k <= y->n)
            v += sy * y->a[k];
        t.a[k] = v;
    }
    t.n = n;
    p_trim(&t);
    *r = t;
}

static void p_mul(poly *r, const poly *x, const poly *y)
{
    poly t;
    if (x->n < 0 || y->n < 0) {
        p_zero(r);
        return;
    }
    t.n = x->n + y->n;
    for (int k = 0; k <= t.n; k++)
        t.a[k] = 0.0;
    for (int i = 0; i <= x->n; i++)
        for (int j = 0; j <= y->n; j++)
            t.a[i + j] += x->a[i] * y->a[j];
    p_trim(&t);
    *r = t;
}

static double p_maxabs(const poly *p)
{
    double m = 0.0;
    for (int k = 0; k <= p->n; k++)
        if (fabs(p->a[k]) > m)
            m = fabs(p->a[k]);
    return m;
}

static double horner(const double *a, int n, double x)
{
    double r = a[n];
    for (int k = n - 1; k >= 0; k--)
        r = r * x + a[k];
    return r;
}

/* sum |a_k| |x|^k, the coefficients stride apart. */
static double horner_abs(const double *a, int stride, int n, double x)
{
    double r = fabs(a[n * stride]), ax = fabs(x);
    for (int k = n - 1; k >= 0; k--)
        r = r * ax + fabs(a[k * stride]);
    return r;
}

/* Root of a polynomial in (x0, x1), where f0 and f1 have opposite signs:
 * Illinois false position with a bisection step every fourth iteration. */
static double bracket_root(const double *a, int n, double x0, double x1,
                           double f0, double f1)
{
    int side = 0;
    for (int it = 0; it < 400; it++) {
        double x;
        if (it % 4 == 3)
            x = 0.5 * (x0 + x1);
        else
            x = (x0 * f1 - x1 * f0) / (f1 - f0);
        if (!(x > x0 && x < x1))
            x = 0.5 * (x0 + x1);
        if (!(x > x0 && x < x1))
            break;
        if (x1 - x0 <= 1e-300)
            break;
        double f = horner(a, n, x);
        if (f == 0.0)
            return x;
        if ((f < 0.0) == (f0 < 0.0)) {
            x0 = x;
            f0 = f;
            if (side == -1)
                f1 *= 0.5;
            side = -1;
        } else {
            x1 = x;
            f1 = f;
            if (side == 1)
                f0 *= 0.5;
            side = 1;
        }
    }
    return 0.5 * (x0 + x1);
}

/*
 * All real roots in [lo, hi]: the roots of each derivative split the
 * interval into pieces where the one above is monotone, from the linear
 * derivative up to the polynomial itself.  At the last level, interior
 * extrema whose value is zero to rounding count as (double) roots.
 */
/*
 * Cheap exclusion: the Taylor expansion of p about the middle of [lo, hi]
 * bounds |p(s) - p(mid)| by sum |p^(k)(mid)| r^k / k!; when |p(mid)| is
 * larger there is no root in [lo, hi].
 */
static int no_root_taylor(const double *a, int n, double lo, double hi)
{
    double b[PMAX + 1] = {0}, c = 0.5 * (lo + hi), r = 0.5 * (hi - lo);
    for (int k = 0; k <= n; k++)
        b[k] = a[k];
    for (int i = 0; i < n; i++)
        for (int j = n - 1; j >= i; j--)
            b[j] += c * b[j + 1];
    double bound = 0.0, rk = 1.0, mag = fabs(b[0]);
    for (int k = 1; k <= n; k++) {
        rk *= r;
        bound += fabs(b[k]) * rk;
        mag += fabs(b[k]) * rk;
    }
    /* the shifted coefficients carry rounding errors of a few ulps of the
     * largest term: keep a margin */
    return fabs(b[0]) > bound + 1e-12 * mag;
}

static int poly_roots_isolate(const double *a0, int n0, double lo, double hi,
                              double *roots);

int ref_poly_roots(const double *a0, int n0, double lo, double hi,
                   double *roots)
{
    int n = n0;
    while (n > 0 && a0[n] == 0.0)
        n--;
    if (n <= 0 || n > PMAX || !(lo <= hi))
        return 0;
    if (no_root_taylor(a0, n, lo, hi))
        return 0;
    double mid = 0.5 * (lo + hi);
    int l = no_root_taylor(a0, n, lo, mid), r = no_root_taylor(a0, n, mid, hi);
    if (l && r && horner(a0, n, mid) != 0.0)
        return 0;
    if (l && horner(a0, n, mid) != 0.0)
        return poly_roots_isolate(a0, n, mid, hi, roots);
    if (r && horner(a0, n, mid) != 0.0)
        return poly_roots_isolate(a0, n, lo, mid, roots);
    return poly_roots_isolate(a0, n, lo, hi, roots);
}

static int poly_roots_isolate(const double *a0, int n0, double lo, double hi,
                              double *roots)
{
    static const int cap = PMAX;
    double d[PMAX + 1][PMAX + 1];
    double crit[PMAX + 2], found[PMAX + 2];
    double pts[PMAX + 4], vals[PMAX + 4];
    int n = n0, nc = 0;

    if (n > cap || !(lo <= hi))
        return 0;
    while (n > 0 && a0[n] == 0.0)
        n--;
    if (n <= 0)
        return 0;
    for (int j = 0; j <= n; j++)
        d[0][j] = a0[j];
    for (int k = 1; k < n; k++)
        for (int j = 0; j <= n - k; j++)
            d[k][j] = (j + 1) * d[k - 1][j + 1];

    for (int lev = n - 1; lev >= 0; lev--) {
        const double *p = d[lev];
        int m = n - lev, np = 0, nf = 0;
        pts[np++] = lo;
        for (int i = 0; i < nc; i++)
            if (crit[i] > pts[np - 1] && crit[i] < hi)
                pts[np++] = crit[i];
        if (hi > pts[np - 1])
            pts[np++] = hi;
        for (int i = 0; i < np; i++)
            vals[i] = horner(p, m, pts[i]);
        for (int i = 0; i < np; i++) {
            int interior = i > 0 && i < np - 1;
            if (vals[i] == 0.0) {
                if (lev == 0 || interior)
                    found[nf++] = pts[i];
                continue;
            }
            if (lev == 0 && interior) {
                /* an extremum that touches zero without crossing */
                int cross_l = vals[i - 1] != 0.0 && (vals[i - 1] < 0.0) != (vals[i] < 0.0);
                int cross_r = vals[i + 1] != 0.0 && (vals[i + 1] < 0.0) != (vals[i] < 0.0);
                if (!cross_l && !cross_r &&
                    fabs(vals[i]) <= TOUCH_REL * horner_abs(p, 1, m, pts[i]))
                    found[nf++] = pts[i];
            }
            if (i + 1 < np && vals[i + 1] != 0.0 &&
                (vals[i] < 0.0) != (vals[i + 1] < 0.0))
                found[nf++] = bracket_root(p, m, pts[i], pts[i + 1], vals[i],
                                           vals[i + 1]);
        }
        for (int i = 0; i < nf; i++)
            crit[i] = found[i];
        nc = nf;
    }
    for (int i = 0; i < nc; i++)
        roots[i] = crit[i];
    return nc;
}

/* ------------------------------------------------------------------ */
/* Small vector helpers.                                                */

static real dot3(const real *a, const real *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(real *r, const real *a, const real *b)
{
    real t0 = a[1] * b[2] - a[2] * b[1];
    real t1 = a[2] * b[0] - a[0] * b[2];
    real t2 = a[0] * b[1] - a[1] * b[0];
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
}

static real norm3(const real *a)
{
    return sqrt(dot3(a, a));
}

/* ------------------------------------------------------------------ */
/* A box at one time: world corner o (local lo) and world edges g[j].   */

typedef struct pp {
    real o[3];
    real g[3][3];
} pp;

/*
 * Error-free transformations for evaluating motions accurately: motion
 * coefficients written in powers of an absolute time far from the interval
 * cancel heavily, and plain Horner would add noise far above 1e-9.
 */
static void two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bb = x - a;
    *s = x;
    *e = (a - (x - bb)) + (b - bb);
}

static void two_prod(double a, double b, double *p, double *e)
{
    double x = a * b;
    *p = x;
    *e = fma(a, b, -x);
}

/* Compensated Horner: as accurate as Horner in twice the precision; the
   sum and its correction, not yet added. */
static void horner_comp2(const double *a, int stride, int n, double x, double *hi,
                         double *lo)
{
    double s = a[n * stride], c = 0.0;
    for (int k = n - 1; k >= 0; k--) {
        double p, pe, se;
        two_prod(s, x, &p, &pe);
        two_sum(p, a[k * stride], &s, &se);
        c = c * x + (pe + se);
    }
    *hi = s;
    *lo = c;
}

static double horner_comp(const double *a, int stride, int n, double x)
{
    double s, c;
    horner_comp2(a, stride, n, x, &s, &c);
    return s + c;
}

void ref_motion_at(const boxtoi_motion *m, double t, double r[4][4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            r[i][j] = horner_comp(&m->c[0][i][j], 16, m->degree, t);
}

/*
 * Does value(m, t, &err) take both signs beyond err at 1025 evenly spaced
 * times of [t0, t1]?  Then, as value is continuous, it vanishes between.
 */
static int both_signs(const boxtoi_motion *m, double t0, double t1,
                      double (*value)(const boxtoi_motion *, double, double *))
{
    int pos = 0, neg = 0;
    for (int i = 0; i <= 1024 && !(pos && neg); i++) {
        double t = i == 1024 ? t1 : t0 + (t1 - t0) * (i / 1024.0), err;
        double v = value(m, t, &err);
        if (v > err)
            pos = 1;
        else if (v < -err)
            neg = 1;
    }
    return pos && neg;
}

/* Entry (a, b) of M(t), with a bound of its error: within eps of itself
   plus the compensated sum's eps^2 times its terms' magnitudes. */
static double entry_at(const boxtoi_motion *m, int a, int b, double t, double *err)
{
    const double eps = DBL_EPSILON;
    double v = horner_comp(&m->c[0][a][b], 16, m->degree, t);
    double mag = horner_abs(&m->c[0][a][b], 16, m->degree, t);
    *err = eps * fabs(v) + 4.0 * (m->degree + 1) * eps * eps * mag;
    return v;
}

/* det of the 3x3 part of M(t), with a bound of its error. */
static double det_at(const boxtoi_motion *m, double t, double *err_out)
{
    const double eps = DBL_EPSILON;
    double r[3][3], e[3][3];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            r[a][b] = entry_at(m, a, b, t, &e[a][b]);
    double det = 0.0, err = 0.0;
    for (int c = 0; c < 3; c++) {
        int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        double cof = r[1][c1] * r[2][c2] - r[1][c2] * r[2][c1];
        double cofmag = fabs(r[1][c1] * r[2][c2]) + fabs(r[1][c2] * r[2][c1]);
        double cofe = (fabs(r[1][c1]) + e[1][c1]) * e[2][c2] + e[1][c1] * fabs(r[2][c2]) +
                      (fabs(r[1][c2]) + e[1][c2]) * e[2][c1] + e[1][c2] * fabs(r[2][c1]);
        det += r[0][c] * cof;
        err += fabs(r[0][c]) * (cofe + 4.0 * eps * cofmag) + e[0][c] * (cofmag + cofe) +
               4.0 * eps * fabs(r[0][c] * cof);
    }
    *err_out = err;
    return det;
}

/* w(t), with a bound of its error. */
static double w_at(const boxtoi_motion *m, double t, double *err)
{
    return entry_at(m, 3, 3, t, err);
}

int ref_singular(const boxtoi_motion *m, double t0, double t1)
{
    return both_signs(m, t0, t1, det_at);
}

int ref_w_vanishes(const boxtoi_motion *m, double t0, double t1)
{
    return both_signs(m, t0, t1, w_at);
}

void ref_apply(const boxtoi_motion *m, double t, const double p[3],
               double out[3])
{
    double r[4][4];
    ref_motion_at(m, t, r);
    for (int i = 0; i < 3; i++)
        out[i] = (r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2] + r[i][3]) /
                 r[3][3];
}

/* M(t) in the precision of the geometry: the compensated sum kept whole. */
static void motion_at_real(const boxtoi_motion *m, double t, real r[4][4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double hi, lo;
            horner_comp2(&m->c[0][i][j], 16, m->degree, t, &hi, &lo);
            r[i][j] = (real)hi + lo;
        }
}

static void pp_at(const boxtoi_box *b, const boxtoi_motion *m, double t,
                  pp *out)
{
    real r[4][4];
    motion_at_real(m, t, r);
    real w = r[3][3];
    for (int i = 0; i < 3; i++) {
        out->o[i] = (r[i][0] * b->lo[0] + r[i][1] * b->lo[1] +
                     r[i][2] * b->lo[2] + r[i][3]) / w;
        for (int j = 0; j < 3; j++)
            out->g[j][i] = r[i][j] * ((real)b->hi[j] - b->lo[j]) / w;
    }
}

static void pp_vertex(const pp *b, int bits, real v[3])
{
    for (int i = 0; i < 3; i++) {
        v[i] = b->o[i];
        for (int j = 0; j < 3; j++)
            if (bits & (1 << j))
                v[i] += b->g[j][i];
    }
}

/* Edge e (0..11): along axis e / 4, offsets on the two other axes from the
 * low bits.  Start point p, vector d. */
static void pp_edge(const pp *b, int e, real p[3], real d[3])
{
    int i = e / 4, j = (i + 1) % 3, k = (i + 2) % 3;
    int bits = ((e & 1) ? 1 << j : 0) | ((e & 2) ? 1 << k : 0);
    pp_vertex(b, bits, p);
    for (int c = 0; c < 3; c++)
        d[c] = b->g[i][c];
}

/* Face f (0..5): normal axis f / 2, side f % 2.  Corner q, edges f1, f2. */
static void pp_face(const pp *b, int f, real q[3], real f1[3], real f2[3])
{
    int i = f / 2, j = (i + 1) % 3, k = (i + 2) % 3;
    pp_vertex(b, (f & 1) ? 1 << i : 0, q);
    for (int c = 0; c < 3; c++) {
        f1[c] = b->g[j][c];
        f2[c] = b->g[k][c];
    }
}

static real pp_diagonal(const pp *b)
{
    real best = 0.0;
    for (int s = 0; s < 4; s++) {
        real v[3];
        for (int c = 0; c < 3; c++)
            v[c] = b->g[0][c] + ((s & 1) ? -1 : 1) * b->g[1][c] +
                   ((s & 2) ? -1 : 1) * b->g[2][c];
        real l = norm3(v);
        if (l > best)
            best = l;
    }
    return best;
}

/* Solve [c0 c1 c2] x = r by Cramer's rule; 0 when (nearly) singular. */
static int solve3(const real *c0, const real *c1, const real *c2,
                  const real *r, real x[3])
{
    real t[3];
    cross3(t, c1, c2);
    real det = dot3(c0, t);
    real scale = norm3(c0) * norm3(c1) * norm3(c2);
    if (!(fabs(det) > 1e-13 * scale))
        return 0;
    x[0] = dot3(r, t) / det;
    cross3(t, r, c2);
    x[1] = dot3(c0, t) / det;
    cross3(t, c1, r);
    x[2] = dot3(c0, t) / det;
    return 1;
}

static int in01(real x)
{
    return x >= 0.0 && x <= 1.0;
}

/* Closed box contains the point (non-degenerate boxes only). */
static int pp_contains(const pp *b, const real p[3])
{
    real r[3], x[3];
    for (int c = 0; c < 3; c++)
        r[c] = p[c] - b->o[c];
    if (!solve3(b->g[0], b->g[1], b->g[2], r, x))
        return 0;
    return in01(x[0]) && in01(x[1]) && in01(x[2]);
}

/* Does an edge of a cross a face of b (transversally)? */
static int edges_cross_faces(const pp *a, const pp *b)
{
    for (int e = 0; e < 12; e++) {
        real p[3], d[3], md[3];
        pp_edge(a, e, p, d);
        for (int c = 0; c < 3; c++)
            md[c] = d[c];
        for (int f = 0; f < 6; f++) {
            real q[3], f1[3], f2[3], n1[3], n2[3], r[3], x[3];
            pp_face(b, f, q, f1, f2);
            for (int c = 0; c < 3; c++) {
                n1[c] = -f1[c];
                n2[c] = -f2[c];
                r[c] = q[c] - p[c];
            }
            if (solve3(md, n1, n2, r, x) && in01(x[0]) && in01(x[1]) &&
                in01(x[2]))
                return 1;
        }
    }
    return 0;
}

static int pp_overlap(const pp *a, const pp *b)
{
    real v[3];
    for (int s = 0; s < 8; s++) {
        pp_vertex(a, s, v);
        if (pp_contains(b, v))
            return 1;
        pp_vertex(b, s, v);
        if (pp_contains(a, v))
            return 1;
    }
    return edges_cross_faces(a, b) || edges_cross_faces(b, a);
}

static real point_segment(const real p[3], const real a[3],
                            const real d[3])
{
    real r[3], u = 0.0, dd = dot3(d, d);
    for (int c = 0; c < 3; c++)
        r[c] = p[c] - a[c];
    if (dd > 0.0) {
        u = dot3(r, d) / dd;
        u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    }
    for (int c = 0; c < 3; c++)
        r[c] -= u * d[c];
    return norm3(r);
}

static real point_parallelogram(const real p[3], const real q[3],
                                  const real f1[3], const real f2[3])
{
    real r[3];
    for (int c = 0; c < 3; c++)
        r[c] = p[c] - q[c];
    real g11 = dot3(f1, f1), g12 = dot3(f1, f2), g22 = dot3(f2, f2);
    real det = g11 * g22 - g12 * g12;
    if (det > 1e-24 * g11 * g22 && det > 0.0) {
        real b1 = dot3(f1, r), b2 = dot3(f2, r);
        real al = (b1 * g22 - b2 * g12) / det;
        real be = (g11 * b2 - g12 * b1) / det;
        if (in01(al) && in01(be)) {
            for (int c = 0; c < 3; c++)
                r[c] -= al * f1[c] + be * f2[c];
            return norm3(r);
        }
    }
    real q2[3], q3[3];
    for (int c = 0; c < 3; c++) {
        q2[c] = q[c] + f1[c];
        q3[c] = q[c] + f2[c];
    }
    real best = point_segment(p, q, f1);
    real t = point_segment(p, q, f2);
    if (t < best)
        best = t;
    t = point_segment(p, q2, f2);
    if (t < best)
        best = t;
    t = point_segment(p, q3, f1);
    if (t < best)
        best = t;
    return best;
}

/* Distance from p + u e to the segment q + v f (v in [0, 1]). */
static real along_to_segment(const real p[3], const real e[3], real u,
                               const real q[3], const real f[3])
{
    real x[3];
    for (int c = 0; c < 3; c++)
        x[c] = p[c] + u * e[c];
    return point_segment(x, q, f);
}

/*
 * Distance between the segments p + u e and q + v f (u, v in [0, 1]): the
 * least of the lines' closest points, when they lie on both segments, and
 * the ends' distances to the other segment.  Within about 1e-3 rad of
 * parallel the lines' closest points come from differences of nearly equal
 * products and may land anywhere along the segments, so there the distance
 * is minimised over u instead: the distance from p + u e to the other
 * segment is convex in u, and a golden-section search closes in on its
 * least value.
 */
static real segment_segment(const real p[3], const real e[3],
                              const real q[3], const real f[3])
{
    real r[3];
    for (int c = 0; c < 3; c++)
        r[c] = q[c] - p[c];
    real ee = dot3(e, e), ef = dot3(e, f), ff = dot3(f, f);
    real det = ee * ff - ef * ef, least = INFINITY;
    if (ee > 0.0 && ff > 0.0 && !(det > 1e-6 * ee * ff)) {
        const real g = 0.6180339887498949; /* (sqrt 5 - 1) / 2 */
        real lo = 0.0, hi = 1.0, u1 = hi - g, u2 = lo + g;
        real d1 = along_to_segment(p, e, u1, q, f), d2 = along_to_segment(p, e, u2, q, f);
        for (int i = 0; i < 80; i++) {
            if (d1 <= d2) {
                hi = u2;
                u2 = u1;
                d2 = d1;
                u1 = hi - g * (hi - lo);
                d1 = along_to_segment(p, e, u1, q, f);
            } else {
                lo = u1;
                u1 = u2;
                d1 = d2;
                u2 = lo + g * (hi - lo);
                d2 = along_to_segment(p, e, u2, q, f);
            }
        }
        least = d1 < d2 ? d1 : d2;
    } else if (det > 0.0) {
        real b1 = dot3(e, r), b2 = -dot3(f, r);
        /* [ee -ef; -ef ff] [u v] = [b1 b2] */
        real u = (b1 * ff + ef * b2) / det;
        real v = (ee * b2 + ef * b1) / det;
        if (in01(u) && in01(v)) {
            real d[3];
            for (int c = 0; c < 3; c++)
                d[c] = p[c] + u * e[c] - q[c] - v * f[c];
            return norm3(d);
        }
    }
    real p2[3], q2[3];
    for (int c = 0; c < 3; c++) {
        p2[c] = p[c] + e[c];
        q2[c] = q[c] + f[c];
    }
    real best = point_segment(p, q, f), t;
    if (least < best)
        best = least;
    t = point_segment(p2, q, f);
    if (t < best)
        best = t;
    t = point_segment(q, p, e);
    if (t < best)
        best = t;
    t = point_segment(q2, p, e);
    if (t < best)
        best = t;
    return best;
}

/* Distance between two boxes that do not overlap: the least vertex-face or
 * edge-edge distance.  Pairs whose bounding spheres are farther apart than
 * the best distance so far are skipped. */
static real pp_distance(const pp *a, const pp *b)
{
    real best = INFINITY;
    const pp *box[2] = {a, b};
    for (int side = 0; side < 2; side++) {
        const pp *x = box[side], *y = box[1 - side];
        for (int f = 0; f < 6; f++) {
            real q[3], f1[3], f2[3], fc[3], d1[3], d2[3];
            pp_face(y, f, q, f1, f2);
            for (int c = 0; c < 3; c++) {
                fc[c] = q[c] + 0.5 * (f1[c] + f2[c]);
                d1[c] = f1[c] + f2[c];
                d2[c] = f1[c] - f2[c];
            }
            real rad = 0.5 * fmax(norm3(d1), norm3(d2));
            for (int s = 0; s < 8; s++) {
                real v[3], r[3];
                pp_vertex(x, s, v);
                for (int c = 0; c < 3; c++)
                    r[c] = v[c] - fc[c];
                if (norm3(r) - rad >= best)
                    continue;
                real t = point_parallelogram(v, q, f1, f2);
                if (t < best)
                    best = t;
            }
        }
    }
    for (int ea = 0; ea < 12; ea++) {
        real p[3], e[3], ma[3];
        pp_edge(a, ea, p, e);
        for (int c = 0; c < 3; c++)
            ma[c] = p[c] + 0.5 * e[c];
        real ra = 0.5 * norm3(e);
        for (int eb = 0; eb < 12; eb++) {
            real q[3], f[3], r[3];
            pp_edge(b, eb, q, f);
            for (int c = 0; c < 3; c++)
                r[c] = q[c] + 0.5 * f[c] - ma[c];
            if (norm3(r) - ra - 0.5 * norm3(f) >= best)
                continue;
            real t = segment_segment(p, e, q, f);
            if (t < best)
                best = t;
        }
    }
    return best;
}

/* Penetration depth of overlapping boxes: least distance from the origin to
 * a face plane of the Minkowski difference (normals: face normals of each
 * box and cross products of their edges). */
static real pp_depth_axis(const pp *a, const pp *b, real axis[3])
{
    real ca[3], cb[3], dc[3], best = INFINITY;
    for (int c = 0; c < 3; c++) {
        ca[c] = a->o[c] + 0.5 * (a->g[0][c] + a->g[1][c] + a->g[2][c]);
        cb[c] = b->o[c] + 0.5 * (b->g[0][c] + b->g[1][c] + b->g[2][c]);
        dc[c] = cb[c] - ca[c];
    }
    for (int ax = 0; ax < 15; ax++) {
        const real *u, *v;
        if (ax < 3) {
            u = a->g[(ax + 1) % 3];
            v = a->g[(ax + 2) % 3];
        } else if (ax < 6) {
            u = b->g[(ax + 1) % 3];
            v = b->g[(ax + 2) % 3];
        } else {
            u = a->g[(ax - 6) / 3];
            v = b->g[(ax - 6) % 3];
        }
        real n[3];
        cross3(n, u, v);
        real nn = dot3(n, n);
        if (!(nn > 1e-20 * dot3(u, u) * dot3(v, v)) || nn == 0.0)
            continue;
        real l = sqrt(nn);
        for (int c = 0; c < 3; c++)
            n[c] /= l;
        real r = 0.0;
        for (int j = 0; j < 3; j++)
            r += 0.5 * (fabs(dot3(n, a->g[j])) + fabs(dot3(n, b->g[j])));
        real nd = dot3(n, dc);
        real val = r - fabs(nd);
        if (val < best) {
            best = val;
            if (axis)
                for (int c = 0; c < 3; c++)
                    axis[c] = nd < 0.0 ? -n[c] : n[c];
        }
    }
    if (!(best < INFINITY))
        best = 0.0;
    return best;
}

static real pp_depth(const pp *a, const pp *b)
{
    real d = pp_depth_axis(a, b, NULL);
    return d > 0.0 ? d : 0.0;
}

static real pp_signed_distance(const pp *a, const pp *b)
{
    if (pp_overlap(a, b))
        return pp_depth(a, b);
    return -pp_distance(a, b);
}

double ref_size(const boxtoi_query *q, double t)
{
    pp a, b;
    pp_at(&q->a, &q->motion_a, t, &a);
    pp_at(&q->b, &q->motion_b, t, &b);
    real da = pp_diagonal(&a), db = pp_diagonal(&b);
    return da > db ? da : db;
}

int ref_overlap(const boxtoi_query *q, double t)
{
    pp a, b;
    pp_at(&q->a, &q->motion_a, t, &a);
    pp_at(&q->b, &q->motion_b, t, &b);
    return pp_overlap(&a, &b);
}

double ref_signed_distance(const boxtoi_query *q, double t)
{
    pp a, b;
    pp_at(&q->a, &q->motion_a, t, &a);
    pp_at(&q->b, &q->motion_b, t, &b);
    return pp_signed_distance(&a, &b);
}

double ref_point_box_distance(const boxtoi_box *box, const boxtoi_motion *m,
                              double t, const double pd[3])
{
    pp b;
    real p[3] = {pd[0], pd[1], pd[2]};
    pp_at(box, m, t, &b);
    if (pp_contains(&b, p))
        return 0.0;
    real best = INFINITY;
    for (int f = 0; f < 6; f++) {
        real q[3], f1[3], f2[3];
        pp_face(&b, f, q, f1, f2);
        real d = point_parallelogram(p, q, f1, f2);
        if (d < best)
            best = d;
    }
    return best;
}

/* Extreme of the signed distance over [ta, tb]: sign = +1 for the maximum,
 * -1 for the minimum.  n + 1 samples, then golden-section search around the
 * best sample; the time of the extreme goes to *at when at is not NULL. */
typedef double (*sd_fn)(const boxtoi_query *q, double t);

static double extreme_sd_fn(const boxtoi_query *q, double ta, double tb, int sign,
                            int n, double *at, sd_fn fn)
{
    double best = -INFINITY, bt = ta;
    if (n < 2)
        n = 2;
    if (!(tb > ta)) {
        if (at)
            *at = ta;
        return fn(q, ta);
    }
    for (int i = 0; i <= n; i++) {
        double t = i == n ? tb : ta + (tb - ta) * i / n;
        double v = sign * fn(q, t);
        if (v > best) {
            best = v;
            bt = t;
        }
    }
    double h = (tb - ta) / n;
    double lo = bt - h < ta ? ta : bt - h, hi = bt + h > tb ? tb : bt + h;
    const double gr = 0.6180339887498949;
    double x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo);
    double f1 = sign * fn(q, x1);
    double f2 = sign * fn(q, x2);
    for (int it = 0; it < 80 && hi - lo > 1e-12 * (tb - ta) + 1e-16 * fabs(lo);
         it++) {
        if (f1 > f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - gr * (hi - lo);
            f1 = sign * fn(q, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + gr * (hi - lo);
            f2 = sign * fn(q, x2);
        }
    }
    if (f1 > best) {
        best = f1;
        bt = x1;
    }
    if (f2 > best) {
        best = f2;
        bt = x2;
    }
    if (at)
        *at = bt;
    return sign * best;
}

static double extreme_sd(const boxtoi_query *q, double ta, double tb, int sign,
                         int n, double *at)
{
    return extreme_sd_fn(q, ta, tb, sign, n, at, ref_signed_distance);
}

double ref_max_signed_distance(const boxtoi_query *q, double ta, double tb)
{
    return extreme_sd(q, ta, tb, 1, 16, NULL);
}

double ref_min_signed_distance(const boxtoi_query *q, double ta, double tb)
{
    return extreme_sd(q, ta, tb, -1, 16, NULL);
}

double ref_max_signed_distance_at(const boxtoi_query *q, double ta, double tb,
                                  int samples, double *at)
{
    return extreme_sd(q, ta, tb, 1, samples, at);
}

double ref_penetration(const boxtoi_query *q, double t, double n[3])
{
    pp a, b;
    pp_at(&q->a, &q->motion_a, t, &a);
    pp_at(&q->b, &q->motion_b, t, &b);
    real axis[3], d = pp_depth_axis(&a, &b, n ? axis : NULL);
    if (n)
        for (int c = 0; c < 3; c++)
            n[c] = axis[c];
    return d > 0.0 ? d : 0.0;
}

/*
 * The directions of a box's edges at t: the columns of the motion's 3x3
 * part over w, whatever the box's extents (a point has them too).
 */
static void frame_at(const boxtoi_motion *m, double t, real u[3][3])
{
    real r[4][4];
    motion_at_real(m, t, r);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            u[j][i] = r[i][j] / r[3][3];
}

double ref_axis_value(const boxtoi_query *q, double t)
{
    pp a, b;
    real ua[3][3], ub[3][3], ca[3], cb[3], dc[3], best = INFINITY;
    pp_at(&q->a, &q->motion_a, t, &a);
    pp_at(&q->b, &q->motion_b, t, &b);
    frame_at(&q->motion_a, t, ua);
    frame_at(&q->motion_b, t, ub);
    for (int c = 0; c < 3; c++) {
        ca[c] = a.o[c] + 0.5 * (a.g[0][c] + a.g[1][c] + a.g[2][c]);
        cb[c] = b.o[c] + 0.5 * (b.g[0][c] + b.g[1][c] + b.g[2][c]);
        dc[c] = cb[c] - ca[c];
    }
    for (int ax = 0; ax < 15; ax++) {
        const real *u, *v;
        if (ax < 3) {
            u = ua[(ax + 1) % 3];
            v = ua[(ax + 2) % 3];
        } else if (ax < 6) {
            u = ub[(ax + 1) % 3];
            v = ub[(ax + 2) % 3];
        } else {
            u = ua[(ax - 6) / 3];
            v = ub[(ax - 6) % 3];
        }
        real n[3];
        cross3(n, u, v);
        real nn = dot3(n, n);
        if (!(nn > 1e-20 * dot3(u, u) * dot3(v, v)) || nn == 0.0)
            continue;
        real l = sqrt(nn), r = 0.0;
        for (int c = 0; c < 3; c++)
            n[c] /= l;
        for (int j = 0; j < 3; j++)
            r += 0.5 * (fabs(dot3(n, a.g[j])) + fabs(dot3(n, b.g[j])));
        best = fmin(best, r - fabs(dot3(n, dc)));
    }
    return best < INFINITY ? best : 0.0;
}

double ref_max_axis_value_at(const boxtoi_query *q, double ta, double tb,
                             int samples, double *at)
{
    return extreme_sd_fn(q, ta, tb, 1, samples, at, ref_axis_value);
}

/* ------------------------------------------------------------------ */
/* Event polynomials.                                                   */

/* A box's motion on [t0, t1] mapped to s in [0, 1]: homogeneous corner
 * O (local lo, less the common point p0), edge vectors G[j] (times w) and
 * w, as polynomials in s. */
typedef struct sbox {
    poly O[3];
    poly G[3][3]; /* G[j][component] */
    poly w;
} sbox;

static void shift_entry(const boxtoi_motion *m, int row, int col, double t0,
                        double len, poly *out)
{
    int d = m->degree;
    double bh[MAXD + 1], bl[MAXD + 1];
    for (int k = 0; k <= d; k++) {
        bh[k] = m->c[k][row][col];
        bl[k] = 0.0;
    }
    /* Taylor shift b(x) <- b(x + t0) in double-double arithmetic */
    for (int i = 0; i < d; i++)
        for (int j = d - 1; j >= i; j--) {
            double p, pe, sh, se;
            two_prod(t0, bh[j + 1], &p, &pe);
            pe += t0 * bl[j + 1];
            two_sum(bh[j], p, &sh, &se);
            se += bl[j] + pe;
            two_sum(sh, se, &bh[j], &bl[j]);
        }
    double sc = 1.0;
    for (int k = 0; k <= d; k++) {
        out->a[k] = (bh[k] + bl[k]) * sc;
        sc *= len;
    }
    out->n = d;
    p_trim(out);
}

static void sbox_build(const boxtoi_box *box, const boxtoi_motion *m, double t0,
                       double len, const double p0[3], sbox *s)
{
    poly e[4][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            shift_entry(m, i, j, t0, len, &e[i][j]);
    shift_entry(m, 3, 3, t0, len, &s->w);
    for (int i = 0; i < 3; i++) {
        poly acc = e[i][3];
        for (int j = 0; j < 3; j++) {
            p_add(&acc, &acc, &e[i][j], box->lo[j]);
            poly z;
            p_zero(&z);
            p_add(&s->G[j][i], &z, &e[i][j], box->hi[j] - box->lo[j]);
        }
        p_add(&acc, &acc, &s->w, -p0[i]);
        s->O[i] = acc;
    }
}

static void pv_cross(poly r[3], const poly *a, const poly *b)
{
    poly t1, t2;
    for (int c = 0; c < 3; c++) {
        int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        p_mul(&t1, &a[c1], &b[c2]);
        p_mul(&t2, &a[c2], &b[c1]);
        p_add(&r[c], &t1, &t2, -1.0);
    }
}

static void pv_dot(poly *r, const poly *a, const poly *b)
{
    poly t;
    p_zero(r);
    for (int c = 0; c < 3; c++) {
        p_mul(&t, &a[c], &b[c]);
        p_add(r, r, &t, 1.0);
    }
}

static double pv_maxabs(const poly *a)
{
    double m = 0.0;
    for (int c = 0; c < 3; c++) {
        double v = p_maxabs(&a[c]);
        if (v > m)
            m = v;
    }
    return m;
}

/* One gap: a vertex-face pair (kind 0: x_is_a, vbits, axis, side) or an
 * edge pair (kind 1: the two edges). */
typedef struct gap_of {
    int kind, arg[4];
} gap_of;

/* The piece being searched (ref_pieces): its times, and the same in s. */
typedef struct piece {
    double pt0, plen, pa, pw;
} piece;

/* An event: its time in s, and the gap and piece it was found on. */
typedef struct event {
    double s;
    gap_of g;
    piece at;
} event;

typedef struct ctx {
    const boxtoi_query *q;
    double len, size;
    piece pc;
    int nevents, overflow, nroots;
    event ev[REF_MAX_EVENTS];
} ctx;

static void add_event(ctx *cx, const gap_of *g, double s)
{
    if (cx->nevents >= REF_MAX_EVENTS) {
        cx->overflow = 1;
        return;
    }
    event *e = &cx->ev[cx->nevents++];
    e->s = cx->pc.pa + cx->pc.pw * s;
    e->g = *g;
    e->at = cx->pc;
}

/* The two boxes' poses at s of the current piece. */
static void piece_poses(const ctx *cx, double s, pp *a, pp *b)
{
    double t = cx->pc.pt0 + cx->pc.plen * s;
    pp_at(&cx->q->a, &cx->q->motion_a, t, a);
    pp_at(&cx->q->b, &cx->q->motion_b, t, b);
}

/* Is n = e x f, for edges e and f, that of edges within 1e-4 rad of parallel? */
static int sine_below_1e4(const real *n, const real *e, const real *f)
{
    return dot3(n, n) < 1e-8 * dot3(e, e) * dot3(f, f);
}

static int tol_in01(double x, double tol)
{
    return x >= -tol && x <= 1.0 + tol;
}

/*
 * What a check finds at a root: no event; an event (the point within the
 * features, to FEATURE_TOL, and on both, to off_tol of the size); or a point
 * near the features (to NEAR_TOL) but off them by more than that, which a
 * more accurate root may make an event.
 */
enum { CHECK_NO, CHECK_EVENT, CHECK_NEAR };
#define NEAR_TOL 1e-4

static int check_code(const ctx *cx, double x, double y, double off, double off_tol)
{
    if (!tol_in01(x, NEAR_TOL) || !tol_in01(y, NEAR_TOL))
        return CHECK_NO;
    if (tol_in01(x, FEATURE_TOL) && tol_in01(y, FEATURE_TOL) && off <= off_tol * cx->size)
        return CHECK_EVENT;
    return CHECK_NEAR;
}

/* Vertex vbits of box X (a = 1: A) on face (axis, side) of the other box. */
static int check_vertex_face(const ctx *cx, double s, int x_is_a, int vbits,
                             int axis, int side)
{
    pp a, b;
    piece_poses(cx, s, &a, &b);
    const pp *X = x_is_a ? &a : &b, *Y = x_is_a ? &b : &a;
    real v[3], qq[3], f1[3], f2[3], r[3];
    pp_vertex(X, vbits, v);
    pp_face(Y, 2 * axis + side, qq, f1, f2);
    for (int c = 0; c < 3; c++)
        r[c] = v[c] - qq[c];
    real g11 = dot3(f1, f1), g12 = dot3(f1, f2), g22 = dot3(f2, f2);
    real det = g11 * g22 - g12 * g12;
    if (!(det > 1e-20 * g11 * g22) || det <= 0.0)
        return CHECK_NO;
    real b1 = dot3(f1, r), b2 = dot3(f2, r);
    real al = (b1 * g22 - b2 * g12) / det;
    real be = (g11 * b2 - g12 * b1) / det;
    for (int c = 0; c < 3; c++)
        r[c] -= al * f1[c] + be * f2[c];
    return check_code(cx, al, be, norm3(r), 1e-6);
}

static int check_edge_edge(const ctx *cx, double s, int ea, int eb, int refined)
{
    pp a, b;
    piece_poses(cx, s, &a, &b);
    real p[3], e[3], qq[3], f[3], r[3];
    pp_edge(&a, ea, p, e);
    pp_edge(&b, eb, qq, f);
    for (int c = 0; c < 3; c++)
        r[c] = qq[c] - p[c];
    /*
     * The closest points of the lines p + u e and qq + v f, from the
     * normal n = e x f: u = ((r x f) . n) / |n|^2, v = ((r x e) . n) / |n|^2.
     * |n|^2 = |e|^2 |f|^2 - (e . f)^2 formed as that difference keeps
     * none of its digits for edges 1e-8 apart, and its rounding moves the
     * points along nearly parallel edges (4e-6 rad apart: 1.6e-5 along,
     * the crossing refused); n's components lose only what sin(angle) does.
     */
    real n[3], rf[3], re[3];
    cross3(n, e, f);
    real det = dot3(n, n);
    if (!(det > 1e-20 * dot3(e, e) * dot3(f, f)))
        return CHECK_NO;
    cross3(rf, r, f);
    cross3(re, r, e);
    real u = dot3(rf, n) / det;
    real v = dot3(re, n) / det;
    real d[3];
    for (int c = 0; c < 3; c++)
        d[c] = p[c] + u * e[c] - qq[c] - v * f[c];
    /* a refined root of edges within 1e-4 rad of parallel: the lines must
       meet (see add_roots) */
    int strict = refined && sine_below_1e4(n, e, f);
    return check_code(cx, u, v, norm3(d), strict ? 1e-10 : 1e-6);
}

/*
 * Event roots refined on the geometry.  An event polynomial's coefficients
 * carry rounding errors of the size of its largest terms; a fast turn makes
 * those far larger than its values near a root (w is large at the ends of
 * the interval and small in between), which can move the root by more than
 * the event check accepts.  The same event is the zero of a gap evaluated
 * straight from the poses (compensated motion evaluation): the distance of
 * the vertex from the face's plane, or of the two edges' lines along their
 * common normal, each times the length of that (unnormalised) normal.
 */
static double vertex_face_gap(const ctx *cx, double s, int x_is_a, int vbits,
                              int axis, int side)
{
    pp a, b;
    real v[3], qq[3], f1[3], f2[3], n[3];
    piece_poses(cx, s, &a, &b);
    pp_vertex(x_is_a ? &a : &b, vbits, v);
    pp_face(x_is_a ? &b : &a, 2 * axis + side, qq, f1, f2);
    cross3(n, f1, f2);
    for (int c = 0; c < 3; c++)
        v[c] -= qq[c];
    return dot3(n, v);
}

static real edge_edge_gap_of(const pp *a, const pp *b, int ea, int eb)
{
    real p[3], e[3], qq[3], f[3], m[3];
    pp_edge(a, ea, p, e);
    pp_edge(b, eb, qq, f);
    cross3(m, e, f);
    for (int c = 0; c < 3; c++)
        qq[c] -= p[c];
    return dot3(m, qq);
}

static double edge_edge_gap(const ctx *cx, double s, int ea, int eb)
{
    pp a, b;
    piece_poses(cx, s, &a, &b);
    return edge_edge_gap_of(&a, &b, ea, eb);
}

static double gap_at(const ctx *cx, const gap_of *g, double s)
{
    return g->kind == 0
               ? vertex_face_gap(cx, s, g->arg[0], g->arg[1], g->arg[2], g->arg[3])
               : edge_edge_gap(cx, s, g->arg[0], g->arg[1]);
}

/* The zero of gap g in [lo, hi], at whose ends it has opposite signs flo
   and fhi, by bisection. */
static double bisect_gap(const ctx *cx, const gap_of *g, double lo, double hi, double flo)
{
    for (int it = 0; it < 80; it++) {
        double mid = 0.5 * (lo + hi), f;
        if (!(mid > lo && mid < hi))
            break;
        f = gap_at(cx, g, mid);
        if (f == 0.0)
            return mid;
        if ((f < 0.0) == (flo < 0.0))
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/*
 * The root s of an event polynomial, moved to the nearest zero of its gap:
 * in [s - h, s] or [s, s + h], the first of half widths 1e-12 to hmax (ten
 * times apart) at whose ends the gap has opposite signs, by bisection (the
 * nearer of the two where both have); s itself when there is none (a
 * double root: a graze).  Each side looked at alone, a zero just after s is
 * found where another just before would cancel its sign change in the
 * bracket of both (edges turning through parallel, the gap of their lines
 * changing sign there too).
 */
static double refine_root(const ctx *cx, const gap_of *g, double s, double hmax)
{
    double fs = gap_at(cx, g, s);
    if (fs == 0.0)
        return s;
    for (double h = 1e-12; h <= hmax; h *= 10.0) {
        double lo = s - h > 0.0 ? s - h : 0.0, hi = s + h < 1.0 ? s + h : 1.0;
        double flo = gap_at(cx, g, lo), fhi = gap_at(cx, g, hi);
        if (flo == 0.0)
            return lo;
        if (fhi == 0.0)
            return hi;
        int left = (flo < 0.0) != (fs < 0.0), right = (fhi < 0.0) != (fs < 0.0);
        if (!left && !right)
            continue;
        double rl = left ? bisect_gap(cx, g, lo, s, flo) : s;
        double rr = right ? bisect_gap(cx, g, s, hi, fs) : s;
        if (!left || !right)
            return left ? rl : rr;
        return s - rl <= rr - s ? rl : rr;
    }
    return s;
}

/* Are edges ea of A and eb of B within 1e-4 rad of parallel at s? */
static int edges_near_parallel(const ctx *cx, double s, int ea, int eb)
{
    pp a, b;
    piece_poses(cx, s, &a, &b);
    real p[3], e[3], qq[3], f[3], n[3];
    pp_edge(&a, ea, p, e);
    pp_edge(&b, eb, qq, f);
    cross3(n, e, f);
    return sine_below_1e4(n, e, f);
}

/* The event check of a gap's features at s (check_vertex_face,
   check_edge_edge), of a root refined on its gap or not. */
static int check_at(const ctx *cx, const gap_of *g, double s, int refined)
{
    return g->kind == 0
               ? check_vertex_face(cx, s, g->arg[0], g->arg[1], g->arg[2], g->arg[3])
               : check_edge_edge(cx, s, g->arg[0], g->arg[1], refined);
}

/*
 * Zeros of the gaps of the 16 edge pairs along A's axis i and B's axis l
 * near s, their edges nearly parallel there, that the gaps' polynomials
 * may have lost to rounding (the zeros of a gap and of the sine of the
 * edges' angle, where they turn through parallel, lie within the
 * polynomial's rounding of each other: a contact of edges 7.6e-7 rad
 * apart, 1.7e-7 of the interval from their parallel instant, had no root):
 * sign changes of the gaps from the poses at 16 steps across [s - h, s + h],
 * for h from 1e-8 to 1e-4 ten times apart (two zeros d apart, d above
 * 1.25e-9, fall in different steps of the first h at least d), each
 * bisected; those that check as events are added.
 */
static void search_near(ctx *cx, int i, int l, double s)
{
    for (double h = 1e-8; h <= 1e-4; h *= 10.0) {
        double lo = s - h > 0.0 ? s - h : 0.0, hi = s + h < 1.0 ? s + h : 1.0, x0 = lo;
        real f0[16];
        for (int k = 0; k <= 16; k++) {
            double x1 = k == 16 ? hi : lo + (hi - lo) * (k / 16.0);
            pp a, b;
            piece_poses(cx, x1, &a, &b);
            for (int c = 0; c < 16; c++) {
                gap_of g = {1, {4 * i + c / 4, 4 * l + c % 4, 0, 0}};
                real f1 = edge_edge_gap_of(&a, &b, g.arg[0], g.arg[1]);
                if (k > 0 && (f1 == 0.0 || (f0[c] != 0.0 && (f0[c] < 0.0) != (f1 < 0.0)))) {
                    double z = f1 == 0.0 ? x1 : bisect_gap(cx, &g, x0, x1, (double)f0[c]);
                    if ((z > 0.0 || cx->pc.pa > 0.0) && check_at(cx, &g, z, 1) == CHECK_EVENT)
                        add_event(cx, &g, z);
                }
                f0[c] = f1;
            }
            x0 = x1;
        }
    }
}

/* Times around which an edge pair's gaps are searched (search_near), at
   least 1e-6 of the piece apart. */
#define REF_MAX_ANCHORS 16
typedef struct anchors {
    int n;
    double s[REF_MAX_ANCHORS];
} anchors;

static void add_anchor(anchors *a, double s)
{
    for (int i = 0; i < a->n; i++)
        if (fabs(a->s[i] - s) < 1e-6)
            return;
    if (a->n < REF_MAX_ANCHORS)
        a->s[a->n++] = s;
}

/*
 * The roots of gap g's event polynomial that are events, refined where near,
 * and every edge-edge event: for edges nearly parallel the polynomial's
 * root can be far off (its slope is as small as the sine of their angle),
 * yet the point check accepts it (edges 1e-8 rad apart gave a root 3e-7 of
 * the interval early, the boxes 4.5e-9 of their size apart there), or
 * refuse it as off the edges where a refined root is on them.  Such
 * edges, within 1e-4 rad of parallel, are refined whatever the check
 * finds, and must then have their lines meet, to
 * 1e-10 of the size: a root left where the lines come near without
 * meeting (no sign change of the gap to refine it on) is no event (edges
 * 7.8e-9 rad apart had one 1.6e-9 of the size apart, 1.8e-7 of the
 * interval before they met).
 */
static void add_roots(ctx *cx, const gap_of *g, const double *roots, int nr,
                      anchors *near)
{
    for (int r = 0; r < nr; r++) {
        double e = roots[r];
        int c = check_at(cx, g, e, 0);
        int parallel = g->kind == 1 && edges_near_parallel(cx, e, g->arg[0], g->arg[1]);
        if (parallel)
            add_anchor(near, e);
        if (c == CHECK_NEAR || (g->kind == 1 && (c == CHECK_EVENT || parallel))) {
            e = refine_root(cx, g, e, 1e-4);
            c = check_at(cx, g, e, 1);
        }
        /* the query's t0 is no event (the state there is read directly);
           a later piece's start is */
        if ((e > 0.0 || cx->pc.pa > 0.0) && c == CHECK_EVENT)
            add_event(cx, g, e);
    }
}

static void vertex_face_events(ctx *cx, const sbox *X, const sbox *Y, int x_is_a)
{
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        poly n[3], nOX, nGX[3], nOY, nGY, right[2];
        pv_cross(n, Y->G[j], Y->G[k]);
        if (!(pv_maxabs(n) > 1e-14 * pv_maxabs(Y->G[j]) * pv_maxabs(Y->G[k])))
            continue; /* a face of zero area: its events are edge events */
        pv_dot(&nOX, n, X->O);
        for (int l = 0; l < 3; l++)
            pv_dot(&nGX[l], n, X->G[l]);
        pv_dot(&nOY, n, Y->O);
        pv_dot(&nGY, n, Y->G[i]);
        p_mul(&right[0], &nOY, &X->w);
        p_add(&right[1], &nOY, &nGY, 1.0);
        p_mul(&right[1], &right[1], &X->w);
        for (int vb = 0; vb < 8; vb++) {
            poly left = nOX, f;
            int skip = 0;
            for (int l = 0; l < 3; l++)
                if (vb & (1 << l)) {
                    if (X->G[l][0].n < 0 && X->G[l][1].n < 0 && X->G[l][2].n < 0)
                        skip = 1; /* same vertex as without this bit */
                    p_add(&left, &left, &nGX[l], 1.0);
                }
            if (skip)
                continue;
            p_mul(&left, &left, &Y->w);
            for (int side = 0; side < 2; side++) {
                double roots[PMAX + 2];
                p_add(&f, &left, &right[side], -1.0);
                if (f.n < 1)
                    continue;
                int nr = ref_poly_roots(f.a, f.n, 0.0, 1.0, roots);
                cx->nroots += nr;
                gap_of g = {0, {x_is_a, vb, i, side}};
                add_roots(cx, &g, roots, nr, NULL);
            }
        }
    }
}

static void edge_edge_events(ctx *cx, const sbox *A, const sbox *B)
{
    for (int i = 0; i < 3; i++)
        for (int l = 0; l < 3; l++) {
            poly m[3], mOA, mGA[3], mOB, mGB[3], left[4], right[4];
            anchors near = {0, {0.0}};
            pv_cross(m, A->G[i], B->G[l]);
            if (!(pv_maxabs(m) > 1e-14 * pv_maxabs(A->G[i]) * pv_maxabs(B->G[l])))
                continue; /* parallel (or empty) edges */
            pv_dot(&mOA, m, A->O);
            pv_dot(&mOB, m, B->O);
            for (int c = 0; c < 3; c++) {
                pv_dot(&mGA[c], m, A->G[c]);
                pv_dot(&mGB[c], m, B->G[c]);
            }
            int ja = (i + 1) % 3, ka = (i + 2) % 3;
            int jb = (l + 1) % 3, kb = (l + 2) % 3;
            for (int e = 0; e < 4; e++) {
                poly t = mOA;
                if (e & 1)
                    p_add(&t, &t, &mGA[ja], 1.0);
                if (e & 2)
                    p_add(&t, &t, &mGA[ka], 1.0);
                p_mul(&left[e], &t, &B->w);
                t = mOB;
                if (e & 1)
                    p_add(&t, &t, &mGB[jb], 1.0);
                if (e & 2)
                    p_add(&t, &t, &mGB[kb], 1.0);
                p_mul(&right[e], &t, &A->w);
            }
            for (int ea = 0; ea < 4; ea++)
                for (int eb = 0; eb < 4; eb++) {
                    double roots[PMAX + 2];
                    poly f;
                    p_add(&f, &right[eb], &left[ea], -1.0);
                    if (f.n < 1)
                        continue;
                    int nr = ref_poly_roots(f.a, f.n, 0.0, 1.0, roots);
                    cx->nroots += nr;
                    gap_of g = {1, {4 * i + ea, 4 * l + eb, 0, 0}};
                    add_roots(cx, &g, roots, nr, &near);
                }
            /* each of the pair's gaps where any of them found its edges
               nearly parallel: one may have lost its roots there */
            for (int k = 0; k < near.n; k++)
                search_near(cx, i, l, near.s[k]);
        }
}

static int cmp_event(const void *x, const void *y)
{
    double a = ((const event *)x)->s, b = ((const event *)y)->s;
    return (a > b) - (a < b);
}

/*
 * The events that decide the first contact, moved to the zeros of their
 * gaps.  add_roots refines only the roots its check finds near an event; on
 * a fast turn a root that passes the check can still be 1e-9 of the
 * interval off.  Every event within REF_FIRST_SPAN of the first is moved to
 * its gap's zero within REF_FIRST_SPAN.
 */
#define REF_FIRST_SPAN 1e-8

static void refine_first(ctx *cx)
{
    double first = INFINITY;
    for (int i = 0; i < cx->nevents; i++)
        first = fmin(first, cx->ev[i].s);
    for (int i = 0; i < cx->nevents; i++) {
        event *e = &cx->ev[i];
        if (e->s > first + REF_FIRST_SPAN)
            continue;
        cx->pc = e->at;
        double s = refine_root(cx, &e->g, (e->s - e->at.pa) / e->at.pw, REF_FIRST_SPAN);
        e->s = e->at.pa + e->at.pw * s;
    }
}

static int motion_ok(const boxtoi_motion *m)
{
    if (m->degree < 0 || m->degree > MAXD)
        return 0;
    for (int k = 0; k <= m->degree; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                if (!isfinite(m->c[k][i][j]))
                    return 0;
    return 1;
}

/*
 * The pieces to search for events in.  A motion whose w varies much over
 * the interval (a fast turn) has event polynomials whose coefficients, in
 * powers of the interval's own parameter, dwarf their values where w is
 * small; re-expanded over a piece on which w varies little (sbox_build
 * shifts in double-double) they do not.  A stretch [a, c] of s is kept
 * whole when neither motion's |w|, sampled at REF_W_SAMPLES + 1 points of
 * it, varies by more than a factor of 16; otherwise its halves are taken
 * in turn, down to REF_MIN_PIECE, at most REF_MAX_PIECES in all.  The
 * pieces' ends go to end[0..n] (n returned), in order.
 */
#define REF_W_SAMPLES 16
#define REF_MAX_PIECES 256
#define REF_MIN_PIECE 0x1p-20

static int w_even(const boxtoi_query *q, double a, double c)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {0.0, 0.0}, m[4][4];
    for (int i = 0; i <= REF_W_SAMPLES; i++) {
        double t = q->t0 + (q->t1 - q->t0) * (a + (c - a) * i / REF_W_SAMPLES);
        for (int x = 0; x < 2; x++) {
            ref_motion_at(x ? &q->motion_b : &q->motion_a, t, m);
            lo[x] = fmin(lo[x], fabs(m[3][3]));
            hi[x] = fmax(hi[x], fabs(m[3][3]));
        }
    }
    return hi[0] <= 16.0 * lo[0] && hi[1] <= 16.0 * lo[1];
}

/* [a, c] in pieces, *n of them before it and at least `after` after it. */
static void pieces_of(const boxtoi_query *q, double a, double c, int after, double *end,
                      int *n)
{
    if (*n + after + 2 <= REF_MAX_PIECES && c - a > REF_MIN_PIECE && !w_even(q, a, c)) {
        pieces_of(q, a, 0.5 * (a + c), after + 1, end, n);
        pieces_of(q, 0.5 * (a + c), c, after, end, n);
    } else {
        end[++*n] = c;
    }
}

static int ref_pieces(const boxtoi_query *q, double *end)
{
    int n = 0;
    end[0] = 0.0;
    pieces_of(q, 0.0, 1.0, 0, end, &n);
    return n;
}

/*
 * Does the state at s (of the interval) contradict status, the timeline's
 * for its stretch [sa, sb]?  Only a state clear of touching by 1e-10 of the
 * size counts: a graze's stretch touches at 0, and boxes touching all along
 * are apart or overlapping by rounding.  Nor does a state apart by at most
 * deep_tol in a stretch read as overlapping that never gets deeper than
 * deep_tol: the stretch is a touch within that depth, and the two events of
 * a tangency (a double root) come apart by the rounding of their
 * polynomials (a graze of quartic motions, coefficients up to 380 for
 * positions near 20, touching at one instant, had its events 1.6e-6 of the
 * interval either side of it, where the boxes are 2.1e-10 and 2.2e-10 of
 * their size apart).
 */
static int contradicts(const boxtoi_query *q, const ctx *cx, double s, int status,
                       double sa, double sb, double deep_tol)
{
    double sd = ref_signed_distance(q, q->t0 + cx->len * s);
    if (!(fabs(sd) > 1e-10 * cx->size) || (sd > 0.0) == (status != 0))
        return 0;
    return !(status && -sd <= deep_tol &&
             ref_max_signed_distance(q, q->t0 + cx->len * sa, q->t0 + cx->len * sb) <=
                 deep_tol);
}

/*
 * m times the power of 2 that brings its largest coefficient into [1, 2):
 * the same motion (a homogeneous matrix scaled as a whole), exactly, but for
 * coefficients below 2^-1022 of the largest.  Products of four coefficients
 * in the event polynomials then stay in range however large or small the
 * motion's scale.
 */
static void motion_normalized(boxtoi_motion *m)
{
    double big = 0.0;
    for (int k = 0; k <= m->degree; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                big = fmax(big, fabs(m->c[k][i][j]));
    if (big == 0.0)
        return;
    int e = ilogb(big);
    for (int k = 0; k <= m->degree; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                m->c[k][i][j] = ldexp(m->c[k][i][j], -e);
}

int ref_solve(const boxtoi_query *q_in, double deep_tol, ref_answer *out)
{
    static ctx cx0;
    ctx *cx = malloc(sizeof *cx);
    sbox *A = malloc(sizeof *A), *B = malloc(sizeof *B);
    int status[REF_MAX_EVENTS + 1];
    double bound[REF_MAX_EVENTS + 2], end[REF_MAX_PIECES + 1];

    memset(out, 0, sizeof *out);
    out->toi = out->exit = NAN;
    out->t_deep = out->t_deep_end = INFINITY;
    if (!cx || !A || !B || !motion_ok(&q_in->motion_a) || !motion_ok(&q_in->motion_b) ||
        !isfinite(q_in->t0) || !isfinite(q_in->t1) || !(q_in->t0 <= q_in->t1)) {
        free(cx);
        free(A);
        free(B);
        return 0;
    }
    boxtoi_query qn = *q_in;
    const boxtoi_query *q = &qn;
    motion_normalized(&qn.motion_a);
    motion_normalized(&qn.motion_b);
    *cx = cx0;
    cx->q = q;
    cx->len = q->t1 - q->t0;
    cx->size = ref_size(q, q->t0);
    out->size = cx->size;

    /*
     * The events of each piece are found with both boxes moved by -p0, A's
     * centre in the middle of the piece, once shifted to the piece, where
     * the coefficients are of the size of the positions: products of
     * positions far from the origin would otherwise cancel to events off by
     * far more than the coordinates' rounding (a graze 1e3 sizes out began
     * 8e-7 of the interval early, the boxes still 7e-10 of their size apart
     * there).  A point far from where the boxes are on the piece brings
     * rounding of its own: A's centre at t0, 150 from a fast pair's contact
     * at t = 0 where w is 1/128 and 223 at t0, put it 2.5e-9 early.
     */
    double lc[3], p0[3];
    for (int i = 0; i < 3; i++)
        lc[i] = 0.5 * (q->a.lo[i] + q->a.hi[i]);
    int npieces = cx->len > 0.0 ? ref_pieces(q, end) : 0;
    for (int k = 0; k < npieces; k++) {
        piece *pc = &cx->pc;
        pc->pa = end[k];
        pc->pw = end[k + 1] - end[k];
        pc->pt0 = k == 0 ? q->t0 : q->t0 + cx->len * end[k];
        pc->plen = (k + 1 == npieces ? q->t1 : q->t0 + cx->len * end[k + 1]) - pc->pt0;
        ref_apply(&q->motion_a, pc->pt0 + 0.5 * pc->plen, lc, p0);
        sbox_build(&q->a, &q->motion_a, pc->pt0, pc->plen, p0, A);
        sbox_build(&q->b, &q->motion_b, pc->pt0, pc->plen, p0, B);
        vertex_face_events(cx, A, B, 1);
        vertex_face_events(cx, B, A, 0);
        edge_edge_events(cx, A, B);
    }
    out->nroots = cx->nroots;
    if (cx->overflow)
        out->inconsistent = 1;

    /* the first ones refined, sorted, merged event times */
    refine_first(cx);
    qsort(cx->ev, cx->nevents, sizeof cx->ev[0], cmp_event);
    int m = 0;
    for (int i = 0; i < cx->nevents; i++)
        if (m == 0 || cx->ev[i].s - cx->ev[m - 1].s > 1e-14)
            cx->ev[m++] = cx->ev[i];
    out->nevents = m;
    for (int i = 0; i < m; i++)
        out->events[i] = q->t0 + cx->len * cx->ev[i].s;

    /* overlap state on each stretch between events */
    bound[0] = 0.0;
    for (int i = 0; i < m; i++)
        bound[i + 1] = cx->ev[i].s;
    bound[m + 1] = 1.0;
    for (int k = 0; k <= m; k++) {
        double mid = 0.5 * (bound[k] + bound[k + 1]);
        status[k] = ref_overlap(q, q->t0 + cx->len * mid);
    }

    out->sd_t0 = ref_signed_distance(q, q->t0);
    out->overlap_t0 = out->sd_t0 >= -1e-13 * cx->size;
    if (out->overlap_t0) {
        out->toi = q->t0;
    } else if (m > 0) {
        out->hit = 1;
        out->toi = out->events[0];
    }
    if (!out->overlap_t0 && status[0] && cx->len > 0.0)
        out->inconsistent = 1;

    /*
     * The state at sample times must match the timeline: at 15 points of
     * the interval, and at 4 of each stretch between events (an event
     * missed where w is nearly 0 left a stretch half apart, half touching,
     * read from its middle alone), each state clear of touching
     * (contradicts).
     */
    for (int k = 0; k <= m && cx->len > 0.0; k++)
        for (int j = 1; j < 8; j += 2) {
            double s = bound[k] + (bound[k + 1] - bound[k]) * (j / 8.0);
            if (!(s > bound[k] && s < bound[k + 1]))
                continue;
            if (contradicts(q, cx, s, status[k], bound[k], bound[k + 1], deep_tol))
                out->inconsistent = 1;
        }
    for (int g = 1; g < 16 && cx->len > 0.0; g++) {
        double s = g / 16.0;
        int k = 0, near = 0;
        while (k < m && bound[k + 1] < s)
            k++;
        for (int i = 1; i <= m; i++)
            if (fabs(bound[i] - s) < 1e-9)
                near = 1;
        if (!near && contradicts(q, cx, s, status[k], bound[k], bound[k + 1], deep_tol))
            out->inconsistent = 1;
    }

    for (int k = 0; k <= m; k++) {
        if (!status[k])
            continue;
        double ta = q->t0 + cx->len * bound[k], tb = q->t0 + cx->len * bound[k + 1];
        double mid = 0.5 * (ta + tb);
        if (ref_signed_distance(q, mid) > deep_tol ||
            ref_max_signed_distance(q, ta, tb) > deep_tol) {
            out->t_deep = k == 0 ? q->t0 : ta;
            out->t_deep_end = tb;
            break;
        }
    }
    if (out->overlap_t0 && out->sd_t0 > deep_tol && out->t_deep != q->t0) {
        out->t_deep = q->t0;
        out->t_deep_end = m > 0 ? out->events[0] : q->t1;
    }

    if (out->overlap_t0 || out->hit) {
        int k = out->overlap_t0 ? 0 : 1;
        while (k <= m && status[k])
            k++;
        if (k > m) {
            out->exit_after_t1 = 1;
        } else {
            out->exit = q->t0 + cx->len * bound[k];
        }
    }
    out->valid = 1;
    free(cx);
    free(A);
    free(B);
    return 1;
}
