/*
 * Tests of the gap bounds (lib/gap.h) that let the solver skip the exit
 * search of axes that provably keep the boxes overlapping.
 *
 * Every bound is checked against values computed here independently, in
 * long double, from the motion's power-form coefficients (not from the
 * library's Bernstein forms): derivatives of the axes and centre by central
 * differences, and the gap functions G of every axis, written out term by
 * term with explicit cross products, at many points inside each piece.
 * Motions: rigid rational ones (quaternion paths of degree 1 and 2, so
 * matrices of degree 2 and 4), fast spins about a shared centre (where the
 * products a_i . b_j turn over and bend most), pure translations, a box
 * at rest, and two boxes spinning against each other about one axis (where
 * the bound's term for the two turning together is needed in full), also
 * with one rising past the other (its term for turning while closing).
 * The bounds must also be tight: on every axis, some random piece leaves
 * less than 1e-5 of the size between bound and function (a bound loose by
 * a fixed amount, as with a box's extent added rather than taken off,
 * would leave at least that).
 *
 * The parts the derivative bounds are made of are also checked on their
 * own, where the check above has slack: the bounds of one rational curve
 * against the same quantities multiplied out in power form, and the bounds
 * over a span against those of the motion re-parameterised on it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gap.h"
#include "lib-util.h"
#include "motion.h"
#include "tap/basic.h"

static unsigned long long rng_state = 0x243f6a8885a308d3ULL;

static double urand(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

/* Axes a_k (columns / w) and centre of the box at t, in long double. */
static void pose_ld(const boxtoi_motion *m, const boxtoi_box *b, long double t,
                    long double axis[3][3], long double c[3])
{
    long double e[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            long double v = 0.0L;
            for (int k = m->degree; k >= 0; k--)
                v = v * t + m->c[k][i][j];
            e[i][j] = v;
        }
    for (int r = 0; r < 3; r++) {
        long double v = e[r][3];
        for (int k = 0; k < 3; k++) {
            axis[k][r] = e[r][k] / e[3][3];
            v += e[r][k] * (0.5L * ((long double)b->lo[k] + b->hi[k]));
        }
        c[r] = v / e[3][3];
    }
}

static long double dot_ld(const long double *a, const long double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The gap functions of the 15 axes at t, written out from gap.h's formulas. */
static void gaps_ld(const boxtoi_box *ba, const boxtoi_motion *ma,
                    const boxtoi_box *bb, const boxtoi_motion *mb, long double t,
                    long double G[15])
{
    long double a[3][3], b[3][3], ca[3], cb[3], D[3], P[3][3], hA[3], hB[3];
    pose_ld(ma, ba, t, a, ca);
    pose_ld(mb, bb, t, b, cb);
    for (int r = 0; r < 3; r++) {
        D[r] = cb[r] - ca[r];
        hA[r] = 0.5L * ((long double)ba->hi[r] - ba->lo[r]);
        hB[r] = 0.5L * ((long double)bb->hi[r] - bb->lo[r]);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            P[i][j] = fabsl(dot_ld(a[i], b[j]));
    for (int i = 0; i < 3; i++) {
        G[i] = fabsl(dot_ld(a[i], D)) - hA[i];
        G[3 + i] = fabsl(dot_ld(b[i], D)) - hB[i];
        for (int k = 0; k < 3; k++) {
            G[i] -= hB[k] * P[i][k];
            G[3 + i] -= hA[k] * P[k][i];
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            long double n[3] = {a[i][1] * b[j][2] - a[i][2] * b[j][1],
                                a[i][2] * b[j][0] - a[i][0] * b[j][2],
                                a[i][0] * b[j][1] - a[i][1] * b[j][0]};
            long double g = fabsl(dot_ld(n, D));
            for (int k = 0; k < 3; k++) {
                if (k != i)
                    g -= hA[k] * P[3 - i - k][j];
                if (k != j)
                    g -= hB[k] * P[i][3 - j - k];
            }
            G[6 + 3 * i + j] = g;
        }
}

/* A query's two boxes and motions, with a name for the diagnostics. */
typedef struct gcase {
    const char *kind;
    boxtoi_box a, b;
    boxtoi_motion ma, mb;
} gcase;

static void random_box(boxtoi_box *b)
{
    for (int i = 0; i < 3; i++) {
        double h = urand(0.1, 1.0), c = urand(-0.3, 0.3);
        b->lo[i] = c - h;
        b->hi[i] = c + h;
    }
}

static void random_quaternion_path(double q[3][4], int qdeg, double spin)
{
    for (int k = 0; k <= qdeg; k++)
        for (int i = 0; i < 4; i++)
            q[k][i] = k == 0 ? urand(-1, 1) : urand(-spin, spin);
    /* Keep |q|^2 clear of zero on [0, 1]. */
    double n = sqrt(q[0][0] * q[0][0] + q[0][1] * q[0][1] + q[0][2] * q[0][2] +
                    q[0][3] * q[0][3]);
    for (int i = 0; i < 4; i++)
        q[0][i] = q[0][i] / n * (1.0 + 2.0 * spin * qdeg);
}

/* Case number k of the kind chosen by k % 5. */
static void make_case(int k, gcase *g)
{
    double qa[3][4], qb[3][4], pa[3][3], pb[3][3];
    memset(g, 0, sizeof *g);
    random_box(&g->a);
    random_box(&g->b);
    for (int d = 0; d < 3; d++)
        for (int i = 0; i < 3; i++) {
            pa[d][i] = urand(-3, 3) / (d + 1);
            pb[d][i] = urand(-3, 3) / (d + 1);
        }
    switch (k % 5) {
    case 0: /* rigid, quaternions linear, positions linear: degree 3 */
        g->kind = "rigid quadratic rotation";
        random_quaternion_path(qa, 1, 1.0);
        random_quaternion_path(qb, 1, 1.0);
        tu_rigid_motion(&g->ma, (const double(*)[4])qa, 1, (const double(*)[3])pa, 1, 0.0);
        tu_rigid_motion(&g->mb, (const double(*)[4])qb, 1, (const double(*)[3])pb, 1, 0.0);
        break;
    case 1: /* quaternions quadratic, positions quadratic: degree 6 */
        g->kind = "rigid quartic rotation";
        random_quaternion_path(qa, 2, 0.7);
        random_quaternion_path(qb, 2, 0.7);
        tu_rigid_motion(&g->ma, (const double(*)[4])qa, 2, (const double(*)[3])pa, 2, 0.0);
        tu_rigid_motion(&g->mb, (const double(*)[4])qb, 2, (const double(*)[3])pb, 2, 0.0);
        break;
    case 2: /* fast spins about one shared, fixed centre */
        g->kind = "spins about a shared centre";
        random_quaternion_path(qa, 1, 3.0);
        random_quaternion_path(qb, 1, 0.5);
        for (int i = 0; i < 3; i++)
            pa[0][i] = pb[0][i] = 0.0;
        for (int i = 0; i < 3; i++) {
            g->a.lo[i] = -(g->a.hi[i] = urand(0.2, 1.0));
            g->b.lo[i] = -(g->b.hi[i] = urand(0.2, 1.0));
        }
        tu_rigid_motion(&g->ma, (const double(*)[4])qa, 1, (const double(*)[3])pa, 0, 0.0);
        tu_rigid_motion(&g->mb, (const double(*)[4])qb, 1, (const double(*)[3])pb, 0, 0.0);
        break;
    case 3: /* A spins past B at rest */
        g->kind = "spin past a box at rest";
        random_quaternion_path(qa, 1, 2.0);
        random_quaternion_path(qb, 0, 0.0);
        tu_rigid_motion(&g->ma, (const double(*)[4])qa, 1, (const double(*)[3])pa, 2, 0.0);
        tu_rigid_motion(&g->mb, (const double(*)[4])qb, 0, (const double(*)[3])pb, 0, 0.0);
        break;
    default: /* translations only */
        g->kind = "translations";
        random_quaternion_path(qa, 0, 0.0);
        random_quaternion_path(qb, 0, 0.0);
        tu_rigid_motion(&g->ma, (const double(*)[4])qa, 0, (const double(*)[3])pa, 2, 0.0);
        tu_rigid_motion(&g->mb, (const double(*)[4])qb, 0, (const double(*)[3])pb, 1, 0.0);
        break;
    }
}

/* The library's prepared box on [t0, t1] (validated and trimmed), or 0. */
static int prepare(const boxtoi_box *b, const boxtoi_motion *m, double t0,
                   double t1, bx_moving *out)
{
    if (bx_prepare(b, m, t0, t1, out) != BOXTOI_REASON_NONE)
        return 0;
    bx_trim(m, t0, t1, out);
    return 1;
}

/*
 * One box's bounds sp from bx_gap_speeds over [s0, s1] against central
 * differences (long double) at points inside: first derivatives with step
 * 1e-6, second with 1e-4.  Returns 1 when they hold; *worst tracks the
 * largest ratio difference / bound seen.
 */
static int check_speeds(const gcase *g, const bx_speeds *spp, const boxtoi_box *b,
                        const boxtoi_motion *m, double s0, double s1,
                        double *worst)
{
    bx_speeds sp = *spp;
    int bad = 0;
    for (int i = 0; i <= 40; i++) {
        long double s = s0 + (s1 - s0) * (0.02L + 0.96L * i / 40.0L);
        long double h1 = 1e-6L, h2 = 1e-4L;
        if (s - h2 < s0 || s + h2 > s1)
            continue;
        long double ax[5][3][3], c[5][3];
        long double at[5] = {s - h2, s - h1, s, s + h1, s + h2};
        for (int k = 0; k < 5; k++)
            pose_ld(m, b, at[k], ax[k], c[k]);
        /* Axes and centre: first and second differences, their lengths. */
        for (int v = 0; v < 4; v++) {
            long double d1 = 0.0L, d2 = 0.0L;
            for (int r = 0; r < 3; r++) {
                long double f[5];
                for (int k = 0; k < 5; k++)
                    f[k] = v < 3 ? ax[k][v][r] : c[k][r];
                long double x1 = (f[3] - f[1]) / (2.0L * h1);
                long double x2 = (f[4] - 2.0L * f[2] + f[0]) / (h2 * h2);
                d1 += x1 * x1;
                d2 += x2 * x2;
            }
            double b1 = v < 3 ? sp.rot : sp.vel, b2 = v < 3 ? sp.rot2 : sp.vel2;
            double r1 = (double)sqrtl(d1) / (b1 * (1.0 + 1e-6) + 1e-9);
            double r2 = (double)sqrtl(d2) / (b2 * (1.0 + 1e-4) + 1e-6);
            if (r1 > *worst)
                *worst = r1;
            if (r2 > *worst)
                *worst = r2;
            if (r1 > 1.0 || r2 > 1.0) {
                if (!bad)
                    diag("%s: span [%.17g, %.17g], s %.17g, %s: |d1| %.17g vs %.17g, "
                         "|d2| %.17g vs %.17g", g->kind, s0, s1, (double)s,
                         v < 3 ? "axis" : "centre", (double)sqrtl(d1), b1,
                         (double)sqrtl(d2), b2);
                bad = 1;
            }
        }
    }
    return !bad;
}

/*
 * Power-form coefficients (long double) of the scaled Bernstein polynomial
 * b of degree n: sum_i b_i s^i (1 - s)^(n - i), expanded.
 */
static void power_of_sbern(const double *b, int n, long double *out)
{
    for (int k = 0; k <= n; k++)
        out[k] = 0.0L;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n - i; j++)
            out[i + j] += (j % 2 ? -1.0L : 1.0L) * (long double)b[i] * tu_binom(n - i, j);
}

/* Largest |Bernstein coefficient| of degree m of the power-form p (degree <= m). */
static long double bern_max(const long double *p, int m)
{
    long double best = 0.0L;
    for (int k = 0; k <= m; k++) {
        long double c = 0.0L;
        for (int j = 0; j <= k; j++)
            c += p[j] * tu_binom(k, j) / tu_binom(m, j);
        if (fabsl(c) > best)
            best = fabsl(c);
    }
    return best;
}

/* p' of the power-form p (degree n), into out[0..n - 1] (nothing when n <= 0). */
static void power_deriv(const long double *p, int n, long double *out)
{
    for (int k = 0; k < n; k++)
        out[k] = (k + 1) * p[k + 1];
}

/*
 * What bx_gap_rational_bounds adds, computed here in power form and long
 * double: N1 = u' w - u w' and T = u'' w - u w'' multiplied out, then their
 * Bernstein coefficients of degree 2n - 1 and 2n - 2.
 */
static void rational_ref(const double *const u[3], const double *w, int n,
                         long double *s1, long double *s2)
{
    long double pw[9], dw[9] = {0}, d2w[9] = {0}, wb = 0.0L;
    power_of_sbern(w, n, pw);
    power_deriv(pw, n, dw);
    power_deriv(dw, n - 1, d2w);
    for (int i = 0; i <= n; i++)
        if (w[i] / tu_binom(n, i) > wb)
            wb = w[i] / tu_binom(n, i);
    long double dwb = n > 0 ? bern_max(dw, n - 1) : 0.0L;
    *s1 = *s2 = 0.0L;
    for (int r = 0; r < 3; r++) {
        long double pu[9], du[9] = {0}, d2u[9] = {0}, n1[17] = {0}, t[17] = {0};
        power_of_sbern(u[r], n, pu);
        power_deriv(pu, n, du);
        power_deriv(du, n - 1, d2u);
        for (int i = 0; i <= n; i++)
            for (int j = 0; j <= n; j++) {
                n1[i + j] += du[i] * pw[j] - pu[i] * dw[j];
                t[i + j] += d2u[i] * pw[j] - pu[i] * d2w[j];
            }
        long double b1 = bern_max(n1, 2 * n - 1), bt = bern_max(t, 2 * n - 2);
        long double b2 = bt * wb + 2.0L * dwb * b1;
        *s1 += b1 * b1;
        *s2 += b2 * b2;
    }
}

/*
 * bx_gap_rational_bounds against rational_ref on random curves of degree
 * 1 to 4, some with u nearly proportional to w (so that N1 nearly
 * cancels): never below it (the bound holds), and above it by no more than
 * an allowance for rounding.  Returns the number of bad calls; *worst is
 * the largest excess as a fraction of the allowance.
 */
static int check_rational(double *worst)
{
    int bad = 0;
    for (int trial = 0; trial < 4000; trial++) {
        int n = 1 + trial % 4;
        double w[5], rows[3][5];
        const double *u[3] = {rows[0], rows[1], rows[2]};
        for (int i = 0; i <= n; i++)
            w[i] = urand(0.5, 2.0) * tu_binom(n, i);
        for (int r = 0; r < 3; r++) {
            double k = urand(-2.0, 2.0);
            for (int i = 0; i <= n; i++)
                rows[r][i] = trial % 3 == 2 ? k * w[i] + urand(-1e-6, 1e-6)
                                             : urand(-1.0, 1.0) * tu_binom(n, i);
        }
        double s1 = 0.0, s2 = 0.0, um = 0.0, wm = 0.0;
        long double r1, r2;
        bx_gap_rational_bounds(u, w, n, &s1, &s2);
        rational_ref(u, w, n, &r1, &r2);
        for (int i = 0; i <= n; i++) {
            wm = fmax(wm, w[i]);
            for (int r = 0; r < 3; r++)
                um = fmax(um, fabs(rows[r][i]));
        }
        /* Compared as square roots (bounds on |N1| and |N2|), with an
         * allowance far above rounding and far below the size of any
         * coefficient: 1e-11 of the sizes the bounds are made of. */
        double size1 = 4.0 * n * um * wm, size2 = size1 * 4.0 * n * wm;
        double x1 = sqrt(s1), x2 = sqrt(s2);
        double y1 = (double)sqrtl(r1), y2 = (double)sqrtl(r2);
        double e = fmax((x1 - y1) / (1e-11 * size1), (x2 - y2) / (1e-11 * size2));
        if (e > *worst)
            *worst = e;
        if (!(x1 >= y1 * (1.0 - 1e-14) && x2 >= y2 * (1.0 - 1e-14) && e <= 1.0)) {
            if (!bad)
                diag("degree %d: bounds %.17g %.17g, reference %.17g %.17g", n, x1, x2,
                     y1, y2);
            bad++;
        }
    }
    return bad;
}

/*
 * bx_gap_speeds over [s0, s1] of motions prepared on [0, 1] against those
 * over [0, 1] of the same motions prepared on [s0, s1] (library's power-form
 * re-parameterisation instead of its Bernstein restriction): the same
 * bounds, the second in units of the longer parameter (rot, vel times h,
 * rot2, vel2 times h^2).  Returns 1 when they agree to 1e-6 (the second
 * derivatives of short spans lose digits to cancellation, about 1e-9 for
 * the shortest).
 */
static int check_restriction(const gcase *g, const bx_moving *A, const bx_moving *B,
                             double s0, double s1)
{
    bx_moving As, Bs;
    bx_speeds sa, sb, ta, tb;
    double h = s1 - s0;
    if (!prepare(&g->a, &g->ma, s0, s1, &As) || !prepare(&g->b, &g->mb, s0, s1, &Bs))
        return 0;
    if (!bx_gap_speeds(A, B, s0, s1, &sa, &sb) || !bx_gap_speeds(&As, &Bs, 0.0, 1.0, &ta, &tb))
        return 0;
    double x[8] = {sa.rot * h, sa.rot2 * h * h, sa.vel * h, sa.vel2 * h * h,
                   sb.rot * h, sb.rot2 * h * h, sb.vel * h, sb.vel2 * h * h};
    double y[8] = {ta.rot, ta.rot2, ta.vel, ta.vel2, tb.rot, tb.rot2, tb.vel, tb.vel2};
    for (int k = 0; k < 8; k++)
        if (!(fabs(x[k] - y[k]) <= 1e-6 * fabs(y[k]) + 1e-12)) {
            diag("%s: span [%.17g, %.17g], bound %d: %.17g restricted, %.17g "
                 "re-parameterised", g->kind, s0, s1, k, x[k], y[k]);
            return 0;
        }
    return 1;
}

/*
 * bx_gap_piece_bounds over [s0, s1] against the gap functions at 64 points
 * inside.  Tracks the smallest slack (bound - value) relative to the
 * piece's size of things, to show the bound is tested where it is tight.
 */
static double axis_least[BX_GAP_AXES]; /* least slack of each axis, random cases */

static int check_piece(const gcase *g, const bx_moving *A, const bx_moving *B,
                       double s0, double s1, double *tightest, int per_axis)
{
    bx_speeds sa, sb;
    if (!bx_gap_speeds(A, B, s0, s1, &sa, &sb)) {
        diag("%s: no derivative bounds over [%.17g, %.17g]", g->kind, s0, s1);
        return 0;
    }
    bx_pose pa, pb;
    bx_gap_sample lo, hi;
    bx_pose_at(A, s0, &pa);
    bx_pose_at(B, s0, &pb);
    bx_gap_sample_of(&pa, &pb, &lo);
    bx_pose_at(A, s1, &pa);
    bx_pose_at(B, s1, &pb);
    bx_gap_sample_of(&pa, &pb, &hi);
    double up[BX_GAP_AXES];
    bx_gap_piece_bounds(A->half, B->half, &sa, &sb, &lo, &hi, s1 - s0, up);
    double scale = 1.0 + lo.dlen;
    int bad = 0;
    for (int i = 0; i <= 64; i++) {
        long double G[15], s = s0 + (s1 - s0) * (long double)i / 64.0L;
        gaps_ld(&g->a, &g->ma, &g->b, &g->mb, s, G);
        for (int axis = 0; axis < 15; axis++) {
            double slack = (up[axis] - (double)G[axis]) / scale;
            if (slack < *tightest)
                *tightest = slack;
            if (per_axis && slack < axis_least[axis])
                axis_least[axis] = slack;
            if (!(slack >= -1e-12)) {
                if (!bad)
                    diag("%s: piece [%.17g, %.17g], axis %d at %.17g: G %.17g above "
                         "its bound %.17g",
                         g->kind, s0, s1, axis, (double)s, (double)G[axis], up[axis]);
                bad = 1;
            }
        }
    }
    return !bad;
}

/*
 * A and B spin about z in opposite senses, B's centre at height D above
 * A's: q_A = (1, 0, 0, k tau), q_B = (1, 0, 0, -k tau) times a quarter
 * turn, tau = t - 1/2.  Their first axes stay in the xy plane, so the
 * axis across those edges is z, and its gap is (D - hA_2 - hB_2) times
 * the sine of the angle between the edges, cos(4 atan(k tau)): a peak at
 * t = 1/2, where each box turns at its highest rate, 2k, and evenly.  The
 * second derivative there, -16 k^2 (D - hA_2 - hB_2), is a quarter each
 * from the boxes' own turning and a half from the two turning against
 * each other (the product of their rates in the bound).  On pieces
 * centred on the peak the chord through the ends falls short of it by
 * about that times h^2 / 8.
 */
/*
 * The piece [s0, s1] of check_counter_spin's boxes spinning against each
 * other at rate k, B's centre on the path pb (degree pdeg, in tau = t -
 * 1/2): do the bounds hold?
 */
static int spin_piece(const char *kind, double k, const double pb[][3], int pdeg, double s0,
                      double s1, double *tightest)
{
    const double c = sqrt(0.5);
    double qa[2][4] = {{1, 0, 0, 0}, {0, 0, 0, k}};
    double qb[2][4] = {{c, 0, 0, c}, {c * k, 0, 0, -c * k}};
    double pa[1][3] = {{0, 0, 0}};
    gcase g;
    bx_moving A, B;
    memset(&g, 0, sizeof g);
    g.kind = kind;
    g.a = tu_box(-0.5, -0.4, -0.3, 0.5, 0.4, 0.3);
    g.b = tu_box(-0.6, -0.2, -0.5, 0.6, 0.2, 0.5);
    tu_rigid_motion(&g.ma, (const double(*)[4])qa, 1, (const double(*)[3])pa, 0, 0.5);
    tu_rigid_motion(&g.mb, (const double(*)[4])qb, 1, pb, pdeg, 0.5);
    if (!prepare(&g.a, &g.ma, 0.0, 1.0, &A) || !prepare(&g.b, &g.mb, 0.0, 1.0, &B))
        bail("%s: motion rejected", kind);
    return check_piece(&g, &A, &B, s0, s1, tightest, 0);
}

static int check_counter_spin(double *tightest)
{
    static const double ks[] = {0.5, 1.0, 2.0}, widths[] = {0.05, 0.2, 0.5};
    const double pb[1][3] = {{0, 0, 3.0}}; /* D = 3 */
    int bad = 0;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        for (size_t j = 0; j < sizeof widths / sizeof widths[0]; j++) {
            double h = widths[j];
            if (!spin_piece("counter-spins", ks[i], pb, 0, 0.5 - h / 2, 0.5 + h / 2, tightest))
                bad++;
        }
    return bad;
}

/*
 * The boxes of check_counter_spin, spinning against each other at k = 1/2,
 * with B rising through A's height at speed v: Delta_z = v (t - tp), B
 * level with A at tp.  On an edge axis across the boxes' edges the
 * function is (a x b) . Delta, whose second derivative holds 2 (a x b)' .
 * Delta': the closing speed times the rate at which a x b turns, bounded
 * by vel (|a'| |b| + |a| |b'|).  With the two boxes turning alike that term
 * is as large as both rates together, and where Delta is small (a piece a
 * length or two from tp, v = 100 and 1000) it is most of the bend: those
 * pieces leave it slack of 1 to 5 hundredths of the size.
 */
static int check_spin_passing(double *tightest)
{
    /* the piece's centre, and tp as pieces' lengths from it */
    static const double at[][2] = {{0.4, -1.0}, {0.6, 1.0}, {0.3, -2.0}, {0.7, 2.0}};
    static const double vs[] = {100.0, 1000.0};
    const double h = 0.1;
    int bad = 0;
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {
            double v = vs[i], tm = at[j][0], tp = tm + at[j][1] * h;
            const double pb[2][3] = {{0, 0, v * (0.5 - tp)}, {0, 0, v}};
            if (!spin_piece("spins-passing", 0.5, pb, 1, tm - h / 2, tm + h / 2, tightest))
                bad++;
        }
    return bad;
}

int main(void)
{
    enum { CASES = 400, SPANS = 6 };
    plan(5 + 5 + 1 + 2 + 2);

    for (int a = 0; a < BX_GAP_AXES; a++)
        axis_least[a] = INFINITY;
    int speeds_bad[5] = {0}, piece_bad[5] = {0}, restrict_bad = 0;
    double worst[5] = {0}, tightest[5] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY};
    const char *kinds[5] = {0};
    for (int k = 0; k < CASES; k++) {
        gcase g;
        bx_moving A, B;
        make_case(k, &g);
        kinds[k % 5] = g.kind;
        if (!prepare(&g.a, &g.ma, 0.0, 1.0, &A) || !prepare(&g.b, &g.mb, 0.0, 1.0, &B))
            bail("case %d (%s): motion rejected", k, g.kind);
        for (int j = 0; j < SPANS; j++) {
            /* Spans from 1e-3 to the whole interval; pieces as the solver cuts them. */
            double len = pow(10.0, urand(-3.0, 0.0)), s0 = urand(0.0, 1.0 - len);
            double s1 = s0 + len;
            bx_speeds sa, sb;
            if (!bx_gap_speeds(&A, &B, s0, s1, &sa, &sb)) {
                diag("%s: no derivative bounds over [%.17g, %.17g]", g.kind, s0, s1);
                speeds_bad[k % 5]++;
            } else if (!check_speeds(&g, &sa, &g.a, &g.ma, s0, s1, &worst[k % 5]) ||
                       !check_speeds(&g, &sb, &g.b, &g.mb, s0, s1, &worst[k % 5])) {
                speeds_bad[k % 5]++;
            }
            if (!check_piece(&g, &A, &B, s0, s0 + len / 3.0, &tightest[k % 5], 1))
                piece_bad[k % 5]++;
            if (j == 0 && !check_restriction(&g, &A, &B, s0, s1))
                restrict_bad++;
        }
    }
    for (int v = 0; v < 5; v++)
        ok(speeds_bad[v] == 0, "derivative bounds hold (%s): %d bad spans, worst "
           "difference / bound %.3g", kinds[v], speeds_bad[v], worst[v]);
    for (int v = 0; v < 5; v++)
        ok(piece_bad[v] == 0 && tightest[v] < 0.05,
           "piece bounds hold (%s): %d bad pieces, least slack %.3g of the size",
           kinds[v], piece_bad[v], tightest[v]);
    double loosest = 0.0;
    int loosest_axis = 0;
    for (int a = 0; a < BX_GAP_AXES; a++)
        if (axis_least[a] > loosest) {
            loosest = axis_least[a];
            loosest_axis = a;
        }
    ok(loosest < 1e-5, "piece bounds are tight on every axis: each axis's least slack over "
       "the random pieces is below 1e-5 of the size (largest %.3g, axis %d)", loosest,
       loosest_axis);
    ok(restrict_bad == 0, "bounds over a span are those of the motion re-parameterised "
       "on it: %d bad of %d", restrict_bad, CASES);
    double worst_rational = 0.0;
    int rational_bad = check_rational(&worst_rational);
    ok(rational_bad == 0, "curve bounds match an independent power-form computation: %d bad, "
       "largest excess %.3g of the allowance", rational_bad, worst_rational);
    double spin_least = INFINITY;
    int spin_bad = check_counter_spin(&spin_least);
    ok(spin_bad == 0 && spin_least < 0.01,
       "piece bounds hold (boxes spinning against each other): %d bad of 9 pieces centred "
       "on a peak, least slack %.3g of the size", spin_bad, spin_least);
    double pass_least = INFINITY;
    int pass_bad = check_spin_passing(&pass_least);
    ok(pass_bad == 0 && pass_least < 0.05,
       "piece bounds hold (boxes spinning against each other, one rising past the other): "
       "%d bad of 8 pieces, least slack %.3g of the size", pass_bad, pass_least);
    return tap_failures() != 0;
}
