/*
 * Randomized differential test: boxtoi_solve() against the independent
 * reference in tests/ref on many generated queries (rigid rational motions
 * of degree 1, 2, 4 and 6 to 8, the highest from quaternion paths of degree
 * 3 and 4 as a chain of joints gives them; static against moving; affine
 * motions, also turned by a rational rotation, which makes w vary; plates,
 * near grazes and brief clips; fast turns, up to about 359.8 degrees within
 * the interval, alone and under grazes; boxes turned alike within 1e-9 to
 * 1e-2 rad, their edges and faces nearly parallel throughout, or turning
 * through parallel (within 1e-9 to 1e-2 rad, or exactly) as they meet, aimed
 * at edge-on-edge contacts; thin walls,
 * rods and sheets beside boxes up to 1e5 times larger or smaller; intervals
 * other than [0, 1]; length scales around 1e-3 and 1e3; one scene in ten
 * 1e2 to 1e5 sizes from the origin).
 *
 * Each answer is checked as tests/judge.h describes: the promise, not bit
 * equality.  Every case is also solved with time and with lengths scaled by
 * a power of two (the same answer bit for bit, scaled alike, and the same
 * from boxtoi_swept_aabb and boxtoi_overlap_at), and one case in 16 over
 * the two parts of its interval cut at a point inside it, and after a hit
 * from its time of contact, each part judged over its own interval, and one
 * case in 8 with A's motion, B's or both multiplied by a positive polynomial
 * of degree 1 or 2, judged against the reference's answer to that query (the
 * checks' time includes them).
 *
 * Environment: BOXTOI_SEED (the generator's seed), BOXTOI_RANDOM_CASES
 * (number of cases, default 24000), BOXTOI_RANDOM_CASE (run only the case
 * with this index and describe it), BOXTOI_RANDOM_KIND (run only the cases
 * of the kind of this name, as the results name it).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "boxtoi.h"
#include "judge.h"
#include "lib-util.h"
#include "ref/ref.h"
#include "tap/basic.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_SEED UINT64_C(0x5eed2b0c7013a11)
#define DEFAULT_CASES 24000
/* One case in SPLIT_EVERY is also solved over two parts of its interval. */
#define SPLIT_EVERY 16
/* One case in FACTOR_EVERY is also solved with its motions times a factor. */
#define FACTOR_EVERY 8

/* ------------------------------------------------------------------ */
/* Generator: splitmix64.                                               */

static uint64_t rng;

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double uni(void)
{
    return (double)(splitmix64(&rng) >> 11) * 0x1.0p-53;
}

static double urange(double a, double b)
{
    return a + (b - a) * uni();
}

static int chance(double p)
{
    return uni() < p;
}

static void unit_vec(double v[3])
{
    double n;
    do {
        for (int i = 0; i < 3; i++)
            v[i] = urange(-1, 1);
        n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (n > 1.0 || n < 1e-3);
    for (int i = 0; i < 3; i++)
        v[i] /= n;
}

static void rand_quat(double q[4], double len)
{
    double n;
    do {
        for (int i = 0; i < 4; i++)
            q[i] = urange(-1, 1);
        n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    } while (n > 1.0 || n < 1e-3);
    for (int i = 0; i < 4; i++)
        q[i] *= len / n;
}

/* Rotation matrix of a unit quaternion (w x y z). */
static void quat_matrix(const double q[4], double r[3][3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    r[0][0] = w * w + x * x - y * y - z * z;
    r[0][1] = 2 * (x * y - w * z);
    r[0][2] = 2 * (x * z + w * y);
    r[1][0] = 2 * (x * y + w * z);
    r[1][1] = w * w - x * x + y * y - z * z;
    r[1][2] = 2 * (y * z - w * x);
    r[2][0] = 2 * (x * z - w * y);
    r[2][1] = 2 * (y * z + w * x);
    r[2][2] = w * w - x * x - y * y + z * z;
}

/* Affine motion in tau: [A0 (I + K1 tau + K2 tau^2), p(tau); 0 0 0 1]. */
static void affine_motion(boxtoi_motion *m, const double a0[3][3],
                          const double k1[3][3], const double k2[3][3],
                          double p[][3], int pdeg, double tc)
{
    tu_poly e[4][4];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            e[i][j] = tu_poly_const(0.0);
            e[i][j].n = 2;
            for (int l = 0; l < 3; l++) {
                e[i][j].a[0] += a0[i][l] * (l == j ? 1.0 : 0.0);
                e[i][j].a[1] += a0[i][l] * k1[l][j];
                e[i][j].a[2] += a0[i][l] * k2[l][j];
            }
        }
        e[i][3] = tu_poly_const(0.0);
        e[i][3].n = pdeg;
        for (int k = 0; k <= pdeg; k++)
            e[i][3].a[k] = p[k][i];
        e[3][i] = tu_poly_const(0.0);
    }
    e[3][3] = tu_poly_const(1.0);
    tu_motion_from_tau(m, e, tc);
}

/* ------------------------------------------------------------------ */
/* Scenes.                                                              */

enum kind {
    K_LINEAR,
    K_STATIC,
    K_QUADRATIC,
    K_QUARTIC,
    K_AFFINE,
    K_PLATE,
    K_GRAZE,
    K_SEXTIC,
    K_OCTIC,
    K_SPUN_AFFINE,
    K_FAST_TURN,
    K_ALIGNED,
    K_THIN,
    K_TURNING,
    K_COUNT
};

static const char *const kind_name[K_COUNT] = {
    "linear", "static-vs-moving", "quadratic-rigid", "quartic-rigid",
    "affine", "plates", "graze", "sextic-rigid", "octic-rigid", "spun-affine",
    "fast-turn", "nearly-aligned", "thin-and-unequal", "turning-parallel"};

typedef struct body {
    double ext[3], off[3]; /* box extents, centre offset from local origin */
    int rot_kind;          /* quaternion degree: 0 constant ... 4 quartic */
    int pdeg;              /* position path degree */
    int affine;            /* 1: affine instead of rigid */
    double q[5][4];        /* quaternion path in tau */
    double vel[3], acc[3]; /* centre velocity, acceleration at tau = 0 */
    double k1[3][3], k2[3][3];
    int spin;              /* 1: then turned about its centre by sq */
    double sq[2][4];       /* linear quaternion path in tau */
} body;

typedef struct scene {
    int kind;
    double S, t0, t1, tc;
    double rho;         /* offset of B's centre at tc, in radius sums */
    double dir[3];      /* offset direction */
    double ca[3];       /* A's centre at tc */
    body a, b;
    int scaled;         /* 0: S = 1, 1: small, 2: large */
    int shifted;        /* interval other than [0, 1] */
    int far;            /* 1e2 to 1e5 sizes from the origin */
    /* turning-parallel: B's turn relative to A (turn_through) */
    double turn_s, turn_taup, turn_k[3], turn_c[4];
} scene;

static double body_radius(const body *b)
{
    return 0.5 * sqrt(b->ext[0] * b->ext[0] + b->ext[1] * b->ext[1] +
                      b->ext[2] * b->ext[2]);
}

static void make_body(body *b, double S, double L, int rot_kind, int pdeg,
                      int plate)
{
    memset(b, 0, sizeof *b);
    for (int i = 0; i < 3; i++) {
        b->ext[i] = S * urange(0.3, 1.5);
        b->off[i] = chance(0.5) ? 0.0 : b->ext[i] * urange(-0.6, 0.6);
    }
    if (plate)
        b->ext[(int)(uni() * 3) % 3] = 0.0;
    b->rot_kind = rot_kind;
    b->pdeg = pdeg;
    rand_quat(b->q[0], 1.0);
    /* the quaternion path stays at least 0.3 from zero over the interval */
    if (rot_kind >= 1)
        rand_quat(b->q[1], urange(0.0, 0.7) / L);
    if (rot_kind == 2) {
        double s = uni();
        double h1 = urange(0.0, 0.7) * s, h2 = urange(0.0, 0.7) * (1 - s);
        rand_quat(b->q[1], h1 / L);
        rand_quat(b->q[2], h2 / (L * L));
    } else if (rot_kind > 2) {
        /* shares of at most 0.7 for the coefficients of tau, tau^2, ... */
        double h = urange(0.0, 0.7), share[4], sum = 0.0, Lk = 1.0;
        for (int k = 0; k < rot_kind; k++)
            sum += share[k] = uni();
        for (int k = 1; k <= rot_kind; k++) {
            Lk *= L;
            rand_quat(b->q[k], h * share[k - 1] / sum / Lk);
        }
    }
}

/*
 * B turned as A is, then by th about a random axis of its own (th from
 * 1e-9 to 1e-2 rad, log-uniform): every edge of B stays within th of
 * parallel to an edge of A, every face within th of a face of A, throughout.
 * B's quaternion path is A's times that constant turn.
 */
static void align_with(body *b, const body *a)
{
    double ax[3], th = pow(10.0, urange(-9.0, -2.0)), r[4];
    unit_vec(ax);
    r[0] = cos(0.5 * th);
    for (int i = 0; i < 3; i++)
        r[i + 1] = sin(0.5 * th) * ax[i];
    b->rot_kind = a->rot_kind;
    for (int k = 0; k <= a->rot_kind; k++)
        tu_quat_mul(a->q[k], r, b->q[k]);
}

/*
 * B turned as A is, then by the rational turn of the quaternion
 * (1, s (tau - taup) k) about the unit axis k, then by the constant
 * quaternion c: where c is a small turn, every edge of B passes within its
 * angle of parallel to an edge of A at tau = taup (exactly parallel for
 * c = 1), turning there at 2 s rad per unit time.  B's quaternion path is
 * A's times those two, one degree higher.
 */
static void turn_through(body *b, const body *a, double s, double taup, const double k[3],
                         const double c[4])
{
    double r[2][4] = {{1.0, -s * taup * k[0], -s * taup * k[1], -s * taup * k[2]},
                      {0.0, s * k[0], s * k[1], s * k[2]}};
    b->rot_kind = a->rot_kind + 1;
    memset(b->q, 0, sizeof b->q);
    for (int i = 0; i <= a->rot_kind; i++)
        for (int j = 0; j < 2; j++) {
            double ar[4], arc[4];
            tu_quat_mul(a->q[i], r[j], ar);
            tu_quat_mul(ar, c, arc);
            for (int l = 0; l < 4; l++)
                b->q[i + j][l] += arc[l];
        }
}

/*
 * A turn of up to 4 atan(k / 2), most of it near tau = 0: q1 perpendicular
 * to q0 and k / L long, so that |q|^2 = 1 + |q1|^2 tau^2 grows up to about
 * k^2 / 4 times from its least value (w, and with it the motion's
 * coefficients, far larger at the ends than in between).  Half the turns
 * have k in [1, 25], up to about 340 degrees (w up to 600 times its least);
 * the other half k from 25 to 2000, log-uniform, up to 359.8 degrees (w up
 * to 1e6 times its least), where the whole interval's determinant test
 * fails and its pieces' pass.
 */
static void fast_turn(body *b, double L)
{
    double d = 0.0, n = 0.0;
    rand_quat(b->q[1], 1.0);
    for (int i = 0; i < 4; i++)
        d += b->q[1][i] * b->q[0][i];
    for (int i = 0; i < 4; i++) {
        b->q[1][i] -= d * b->q[0][i];
        n += b->q[1][i] * b->q[1][i];
    }
    n = sqrt(n);
    double k = chance(0.5) ? urange(1.0, 25.0) : exp(urange(log(25.0), log(2000.0)));
    double len = n > 1e-6 ? k / (L * n) : 0.0;
    for (int i = 0; i < 4; i++)
        b->q[1][i] *= len;
}

/* Build body b's motion so that its box centre is at c at tau = 0. */
static void body_motion(const body *b, boxtoi_box *box, boxtoi_motion *m,
                        const double c[3], double tc)
{
    for (int i = 0; i < 3; i++) {
        box->lo[i] = b->off[i] - 0.5 * b->ext[i];
        box->hi[i] = b->off[i] + 0.5 * b->ext[i];
    }
    double r[3][3];
    quat_matrix(b->q[0], r);
    double p[3][3];
    memset(p, 0, sizeof p);
    for (int i = 0; i < 3; i++) {
        p[0][i] = c[i];
        for (int j = 0; j < 3; j++)
            p[0][i] -= r[i][j] * b->off[j];
        p[1][i] = b->vel[i];
        p[2][i] = b->acc[i];
    }
    if (b->affine) {
        affine_motion(m, r, b->k1, b->k2, p, b->pdeg, tc);
        if (b->spin) {
            /* turned about c: [Rq, c |q|^2; 0 |q|^2] [I, -c; 0, 1] m */
            boxtoi_motion turn, back;
            double pc[1][3] = {{c[0], c[1], c[2]}};
            tu_rigid_motion(&turn, (const double(*)[4])b->sq, 1,
                            (const double(*)[3])pc, 0, tc);
            tu_motion_zero(&back, 0);
            for (int i = 0; i < 4; i++)
                back.c[0][i][i] = 1.0;
            for (int i = 0; i < 3; i++)
                back.c[0][i][3] = -c[i];
            /* the solver and the reference both see the product */
            if (boxtoi_motion_multiply(&turn, &turn, &back) ||
                boxtoi_motion_multiply(m, &turn, m))
                bail("turning an affine motion failed");
        }
    } else {
        tu_rigid_motion(m, (const double(*)[4])b->q, b->rot_kind,
                        (const double(*)[3])p, b->pdeg, tc);
    }
}

static void scene_query(const scene *sc, boxtoi_query *q)
{
    double cb[3];
    double rs = body_radius(&sc->a) + body_radius(&sc->b);
    memset(q, 0, sizeof *q);
    for (int i = 0; i < 3; i++)
        cb[i] = sc->ca[i] + sc->rho * rs * sc->dir[i];
    body_motion(&sc->a, &q->a, &q->motion_a, sc->ca, sc->tc);
    body_motion(&sc->b, &q->b, &q->motion_b, cb, sc->tc);
    q->t0 = sc->t0;
    q->t1 = sc->t1;
}

static void small_matrix(double k[3][3], double norm)
{
    double f = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            k[i][j] = urange(-1, 1);
            f += k[i][j] * k[i][j];
        }
    f = sqrt(f);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            k[i][j] *= norm / f;
}

/*
 * Turning-parallel scenes.  In A's frame, along one of its axes m, lies an
 * edge of the box that A's and B's extents add up to (the sum of the two
 * boxes were B turned exactly as A is); B's centre at tc is placed on it,
 * a fraction of a size off it along a direction k in the edge's normal
 * cone, and B comes at it from outside along k (with a drift along m).
 * Where B turns about k, as in two of three scenes, the edges along m turn
 * in planes normal to k, which is their common normal: the first contact
 * is mostly those edges crossing, at a point of them that stays put as
 * their angle goes to zero.  Otherwise B turns about a random axis and the
 * edges mostly meet near an end.  The small constant turn c is about k, or
 * one time in three about a random axis.  slow (at most 1) scales the
 * distance off the edge with the speed.  Sets B's quaternion path, vdir and
 * sc->dir; returns rho.
 */
static double aim_at_edge(scene *sc, double vdir[3], double rs, double slow)
{
    double q0[4], n = 0.0, r[3][3], h[3], kl[3], dl[3], vl[3], d[3], dn = 0.0, vn = 0.0;
    for (int i = 0; i < 4; i++)
        n += sc->a.q[0][i] * sc->a.q[0][i];
    for (int i = 0; i < 4; i++)
        q0[i] = sc->a.q[0][i] / sqrt(n);
    quat_matrix(q0, r);
    int m = (int)(uni() * 3) % 3, i = (m + 1) % 3, j = (m + 2) % 3;
    double si = chance(0.5) ? 1.0 : -1.0, sj = chance(0.5) ? 1.0 : -1.0;
    double off = urange(-0.05, 0.05) * slow;
    kl[i] = si * urange(0.2, 1.0);
    kl[j] = sj * urange(0.2, 1.0);
    kl[m] = 0.0;
    n = sqrt(kl[i] * kl[i] + kl[j] * kl[j]);
    kl[i] /= n;
    kl[j] /= n;
    for (int c = 0; c < 3; c++)
        h[c] = 0.5 * (sc->a.ext[c] + sc->b.ext[c]);
    double hn = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    dl[i] = si * h[i] + off * hn * kl[i];
    dl[j] = sj * h[j] + off * hn * kl[j];
    dl[m] = urange(-0.9, 0.9) * h[m];
    vl[i] = kl[i];
    vl[j] = kl[j];
    vl[m] = urange(-0.3, 0.3);
    for (int c = 0; c < 3; c++) {
        d[c] = vdir[c] = 0.0;
        for (int l = 0; l < 3; l++) {
            d[c] += r[c][l] * dl[l];
            vdir[c] += r[c][l] * vl[l];
        }
        dn += d[c] * d[c];
        vn += vdir[c] * vdir[c];
    }
    dn = sqrt(dn);
    vn = sqrt(vn);
    for (int c = 0; c < 3; c++) {
        sc->dir[c] = d[c] / dn;
        vdir[c] /= vn;
    }
    if (chance(2.0 / 3.0))
        memcpy(sc->turn_k, kl, sizeof kl);
    else
        unit_vec(sc->turn_k);
    sc->turn_c[0] = 1.0;
    sc->turn_c[1] = sc->turn_c[2] = sc->turn_c[3] = 0.0;
    if (chance(0.8)) {
        double ax[3], th = pow(10.0, urange(-9.0, -2.0));
        if (chance(2.0 / 3.0))
            memcpy(ax, kl, sizeof kl);
        else
            unit_vec(ax);
        sc->turn_c[0] = cos(0.5 * th);
        for (int c = 0; c < 3; c++)
            sc->turn_c[c + 1] = sin(0.5 * th) * ax[c];
    }
    turn_through(&sc->b, &sc->a, sc->turn_s, 0.0, sc->turn_k, sc->turn_c);
    return dn / rs;
}

static void make_scene(scene *sc, int kind)
{
    memset(sc, 0, sizeof *sc);
    sc->kind = kind;
    double u = uni();
    sc->S = 1.0;
    if (u < 0.15) {
        sc->S = 1e-3 * urange(0.5, 2);
        sc->scaled = 1;
    } else if (u < 0.3) {
        sc->S = 1e3 * urange(0.5, 2);
        sc->scaled = 2;
    }
    u = uni();
    if (u < 0.55) {
        sc->t0 = 0.0;
        sc->t1 = 1.0;
    } else if (u < 0.7) {
        sc->t0 = 2.5;
        sc->t1 = 3.5;
        sc->shifted = 1;
    } else {
        sc->t0 = urange(-5, 5);
        sc->t1 = sc->t0 + (chance(0.5) ? urange(0.05, 1) : urange(1, 4));
        sc->shifted = 1;
    }
    double L = sc->t1 - sc->t0, S = sc->S;
    u = uni();
    if (u < 0.85)
        sc->tc = urange(sc->t0, sc->t1);
    else if (u < 0.92)
        sc->tc = sc->t1 + urange(0, 0.3) * L;
    else
        sc->tc = sc->t0 - urange(0, 0.3) * L;

    /* grazes are built on the first six kinds and on fast turns */
    static const int graze_base[7] = {K_LINEAR, K_STATIC, K_QUADRATIC, K_QUARTIC,
                                      K_AFFINE, K_PLATE, K_FAST_TURN};
    int kb = kind == K_GRAZE ? graze_base[(int)(uni() * 7) % 7] : kind;
    switch (kb) {
    case K_LINEAR:
        make_body(&sc->a, S, L, 0, 1, 0);
        make_body(&sc->b, S, L, 0, 1, 0);
        if (chance(0.25)) { /* axis-aligned boxes: parallel faces and edges */
            double id[4] = {1, 0, 0, 0};
            memcpy(sc->a.q[0], id, sizeof id);
            memcpy(sc->b.q[0], id, sizeof id);
        }
        break;
    case K_STATIC:
        make_body(&sc->a, S, L, 0, 0, chance(0.1));
        make_body(&sc->b, S, L, chance(0.7) ? 1 : 0, chance(0.5) ? 2 : 1, 0);
        break;
    case K_QUADRATIC:
        make_body(&sc->a, S, L, 1, 2, 0);
        make_body(&sc->b, S, L, 1, 2, 0);
        break;
    case K_QUARTIC:
        make_body(&sc->a, S, L, 2, chance(0.3) ? 0 : 1, 0);
        make_body(&sc->b, S, L, 2, 1, 0);
        break;
    case K_AFFINE:
    case K_SPUN_AFFINE:
        make_body(&sc->a, S, L, 0, chance(0.5) ? 1 : 2, 0);
        make_body(&sc->b, S, L, 0, chance(0.5) ? 1 : 2, 0);
        for (int i = 0; i < 2; i++) {
            body *b = i ? &sc->b : &sc->a;
            double s = uni();
            /* |K1| L + |K2| L^2 <= 0.6 keeps I + K1 tau + K2 tau^2
             * non-singular for |tau| <= L */
            b->affine = 1;
            if (kind == K_SPUN_AFFINE && chance(0.8)) {
                /* |sq1| 1.3 L <= 0.46 |sq0|: w = |sq|^2 stays positive */
                double l0 = urange(0.5, 2.0);
                b->spin = 1;
                rand_quat(b->sq[0], l0);
                rand_quat(b->sq[1], urange(0.0, 0.35) * l0 / L);
            }
            small_matrix(b->k1, 0.6 * s / L);
            if (chance(0.5))
                small_matrix(b->k2, 0.6 * (1 - s) / (L * L));
        }
        break;
    case K_SEXTIC: /* rotation of degree 6, motion of degree 6 or 7 */
        make_body(&sc->a, S, L, 3, 1, 0);
        make_body(&sc->b, S, L, 3, chance(0.3) ? 0 : 1, 0);
        break;
    case K_OCTIC: /* degree 8: quartic quaternion, or cubic with a parabola */
        make_body(&sc->a, S, L, 3, 2, 0);
        make_body(&sc->b, S, L, chance(0.5) ? 4 : 3, chance(0.5) ? 0 : 2, 0);
        if (sc->b.rot_kind == 4)
            sc->b.pdeg = 0;
        break;
    case K_FAST_TURN:
        make_body(&sc->a, S, L, 1, 2, 0);
        make_body(&sc->b, S, L, 1, chance(0.3) ? 0 : 2, 0);
        fast_turn(&sc->a, L);
        if (chance(0.7))
            fast_turn(&sc->b, L);
        break;
    case K_ALIGNED:
        make_body(&sc->a, S, L, chance(0.6) ? 1 : 0, chance(0.5) ? 2 : 1, chance(0.2));
        make_body(&sc->b, S, L, 0, chance(0.5) ? 2 : 1, chance(0.2));
        align_with(&sc->b, &sc->a);
        break;
    case K_THIN:
        /*
         * As in a physics scene: a fast box against a thin wall, a rod or a
         * sheet, the two of very different sizes.  Each box is scaled by
         * 10^-2.5 to 10^2.5, and none, one or two of its extents are
         * thinned, each by a factor of 1e-6 to 1.
         */
        make_body(&sc->a, S, L, chance(0.7) ? 1 : 0, chance(0.3) ? 0 : 2, 0);
        make_body(&sc->b, S, L, chance(0.7) ? 1 : 0, 2, 0);
        for (int i = 0; i < 2; i++) {
            body *b = i ? &sc->b : &sc->a;
            double g = pow(10.0, urange(-2.5, 2.5));
            for (int k = 0; k < 3; k++) {
                b->ext[k] *= g;
                b->off[k] *= g;
            }
            int thinned = (int)(uni() * 3) % 3, first = (int)(uni() * 3) % 3;
            for (int k = 0; k < thinned; k++)
                b->ext[(first + k) % 3] *= pow(10.0, urange(-6.0, 0.0));
        }
        break;
    case K_TURNING: /* B's turn: aim_at_edge */
        make_body(&sc->a, S, L, chance(0.5) ? 1 : 0, chance(0.5) ? 2 : 1, 0);
        make_body(&sc->b, S, L, 0, chance(0.5) ? 2 : 1, 0);
        /* 2 s from 2e-4 to 6 rad per unit of the interval, log-uniform */
        sc->turn_s = exp(urange(log(1e-4), log(3.0))) / L;
        break;
    default: /* K_PLATE */
        make_body(&sc->a, S, L, 1, 2, chance(0.7));
        make_body(&sc->b, S, L, 1, 2, 1);
        break;
    }

    /* relative approach: B comes from along vdir and crosses A's path */
    double rs = body_radius(&sc->a) + body_radius(&sc->b);
    double va[3], vdir[3];
    unit_vec(va);
    unit_vec(vdir);
    double sa = urange(0, 3) * rs / L, srel = urange(1.5, 8) * rs / L;
    /* turning-parallel scenes: half of them slow, down to 1e-4 sizes per
       interval, the aim and the accelerations scaled alike */
    double slow = 1.0;
    if (kind == K_TURNING && chance(0.5)) {
        srel = pow(10.0, urange(-4.0, 0.0)) * rs / L;
        slow = srel * L / (1.5 * rs);
    }
    unit_vec(sc->dir);
    double rho = kind == K_TURNING ? aim_at_edge(sc, vdir, rs, slow) : urange(0.0, 1.1);
    /* half the turning-parallel scenes keep the aim: no accelerations */
    int steady = kind == K_TURNING && chance(0.5);
    for (int i = 0; i < 3; i++) {
        sc->ca[i] = S * urange(-2, 2);
        if (sc->a.pdeg >= 1)
            sc->a.vel[i] = sa * va[i];
        if (sc->b.pdeg >= 1)
            sc->b.vel[i] = sc->a.vel[i] - srel * vdir[i];
        if (sc->a.pdeg >= 2 && !steady)
            sc->a.acc[i] = urange(-2, 2) * slow * rs / (L * L);
        if (sc->b.pdeg >= 2 && !steady)
            sc->b.acc[i] = urange(-2, 2) * slow * rs / (L * L);
    }
    if (sc->b.pdeg == 0 && sc->a.pdeg >= 1)
        for (int i = 0; i < 3; i++)
            sc->a.vel[i] = srel * vdir[i];
    sc->rho = rho;
    /* one scene in ten far from the origin, as in a large world: 1e2 to
       1e5 sizes (of the larger box, for boxes scaled apart from S) */
    if (chance(0.1)) {
        double size = kind != K_THIN ? S
                                     : 2.0 * fmax(body_radius(&sc->a), body_radius(&sc->b));
        double away[3], r = size * pow(10.0, urange(2.0, 5.0));
        unit_vec(away);
        for (int i = 0; i < 3; i++)
            sc->ca[i] += r * away[i];
        sc->far = 1;
    }
}


/* The answer is INVALID (SINGULAR) for a box whose 3x3 part the reference
   shows singular on the interval, or INVALID (W_VANISHES) for one whose w
   it shows vanishing there. */
static int given_refused(const boxtoi_query *q, const boxtoi_result *r)
{
    if (r->state != BOXTOI_INVALID || (r->which != 1 && r->which != 2))
        return 0;
    const boxtoi_motion *m = r->which == 1 ? &q->motion_a : &q->motion_b;
    return (r->reason == BOXTOI_REASON_SINGULAR && ref_singular(m, q->t0, q->t1)) ||
           (r->reason == BOXTOI_REASON_W_VANISHES && ref_w_vanishes(m, q->t0, q->t1));
}

/*
 * q with time or lengths scaled by 2^e: time, t' = 2^e t (the coefficient
 * of t^k times 2^-ek, the interval times 2^e), or lengths (the corners and
 * the translation column times 2^e).  Every number changes by a power of
 * two only, so the solver's answer must be the same bit for bit, its times
 * (time) or its point and depth (lengths) scaled alike.
 */
static boxtoi_query scaled_query(const boxtoi_query *q, int time, int e)
{
    boxtoi_query s = *q;
    if (time)
        tu_scale_time(&s, e);
    else
        tu_scale_lengths(&s, e);
    return s;
}

static int same_bits(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

/*
 * Do boxtoi_swept_aabb (of both boxes) and boxtoi_overlap_at (at t0, the
 * middle, t1 and the time of a hit) give for xq, q scaled as scaled_query
 * says, what they give for q, the bounds scaled alike (lengths)?  0 with
 * the first difference in why.
 */
static int others_scale_exactly(const boxtoi_query *q, const boxtoi_query *xq,
                                const boxtoi_result *res, int time, int e, char *why,
                                size_t n)
{
    double ft = time ? ldexp(1.0, e) : 1.0, fx = time ? 1.0 : ldexp(1.0, e);
    for (int j = 0; j < 2; j++) {
        double lo[3], hi[3], xlo[3], xhi[3];
        boxtoi_reason r = j ? boxtoi_swept_aabb(&q->b, &q->motion_b, q->t0, q->t1, lo, hi)
                            : boxtoi_swept_aabb(&q->a, &q->motion_a, q->t0, q->t1, lo, hi);
        boxtoi_reason xr =
            j ? boxtoi_swept_aabb(&xq->b, &xq->motion_b, xq->t0, xq->t1, xlo, xhi)
              : boxtoi_swept_aabb(&xq->a, &xq->motion_a, xq->t0, xq->t1, xlo, xhi);
        int same = r == xr;
        for (int i = 0; i < 3 && same && !r; i++)
            same = same_bits(xlo[i], lo[i] * fx) && same_bits(xhi[i], hi[i] * fx);
        if (!same) {
            snprintf(why, n, "%s scaled by 2^%d: swept bounds of box %c differ",
                     time ? "time" : "lengths", e, j ? 'B' : 'A');
            return 0;
        }
    }
    double at[4] = {q->t0, q->t0 + 0.5 * (q->t1 - q->t0), q->t1, res->toi};
    for (int k = 0; k < (res->state == BOXTOI_HIT ? 4 : 3); k++) {
        boxtoi_reason r, xr;
        int o = boxtoi_overlap_at(q, at[k], &r), xo = boxtoi_overlap_at(xq, at[k] * ft, &xr);
        if (o != xo || (o < 0 && r != xr)) {
            snprintf(why, n, "%s scaled by 2^%d: boxtoi_overlap_at(%.17g) %d, scaled %d",
                     time ? "time" : "lengths", e, at[k], o, xo);
            return 0;
        }
    }
    return 1;
}

/* Is w the answer r scaled as scaled_query says?  0 with the first
   difference in why. */
static int scales_exactly(const boxtoi_result *r, const boxtoi_result *w, int time, int e,
                          char *why, size_t n)
{
    double ft = time ? ldexp(1.0, e) : 1.0, fx = time ? 1.0 : ldexp(1.0, e);
    const char *what = NULL;
    if (w->state != r->state || w->reason != r->reason || w->which != r->which)
        what = "state";
    else if (!same_bits(w->toi, r->toi * ft))
        what = "toi";
    else if (!same_bits(w->exit, r->exit * ft) || w->exit_after_t1 != r->exit_after_t1)
        what = "exit";
    else if (w->kind != r->kind || memcmp(&w->feature_a, &r->feature_a, sizeof w->feature_a) ||
             memcmp(&w->feature_b, &r->feature_b, sizeof w->feature_b))
        what = "features";
    else if (!same_bits(w->depth, r->depth * fx))
        what = "depth";
    for (int i = 0; i < 3 && !what; i++)
        if (!same_bits(w->point[i], r->point[i] * fx))
            what = "point";
        else if (!same_bits(w->normal[i], r->normal[i]))
            what = "normal";
    if (what)
        snprintf(why, n, "%s scaled by 2^%d: %s differs (toi %.17g, scaled back %.17g)",
                 time ? "time" : "lengths", e, what, r->toi, w->toi / ft);
    return what == NULL;
}

typedef struct stats {
    int cases, hit, miss, overlap, agree, graze, disagree, geom_bad;
    int point_bad, exit_checked, exit_bad, exit_strict, exit_held;
    int bad_state, inconsistent;
    double max_dt;
} stats;

static void count(stats *s, const ref_answer *ra, const check *ck)
{
    s->cases++;
    if (ra->overlap_t0)
        s->overlap++;
    else if (ra->hit)
        s->hit++;
    else
        s->miss++;
    if (ck->verdict == V_AGREE)
        s->agree++;
    else if (ck->verdict == V_GRAZE)
        s->graze++;
    else
        s->disagree++;
    s->geom_bad += ck->geom_bad;
    s->point_bad += ck->point_bad;
    s->exit_strict += ck->exit_strict;
    if (ck->dt > s->max_dt)
        s->max_dt = ck->dt;
    s->exit_checked += ck->exit_checked;
    s->exit_held += ck->exit_held;
    s->exit_bad += ck->exit_bad;
    s->bad_state += ck->bad_state;
    s->inconsistent += ra->inconsistent;
}

/*
 * m times the positive polynomial f(t) = f[0] + f[1] t + ... + f[nf] t^nf,
 * every entry: the same map (P / w is unchanged), of degree m->degree + nf.
 */
static void times_factor(boxtoi_motion *m, const double *f, int nf)
{
    boxtoi_motion out;
    memset(&out, 0, sizeof out);
    out.degree = m->degree + nf;
    for (int i = 0; i <= m->degree; i++)
        for (int j = 0; j <= nf; j++)
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    out.c[i + j][r][c] += m->c[i][r][c] * f[j];
    *m = out;
}

/*
 * A factor for times_factor, positive on [t0, t1], whose terms do not cancel
 * there (each term's sign is fixed on the interval), so that its
 * coefficients are no larger than its values: a + c t^2, or a + b t + c t^2
 * and a + b t on an interval of t >= 0 (on one reaching below 0, degree 1 is
 * the constant a with a zero coefficient of t: a motion declared of a degree
 * above its own).  Its values vary up to a few hundred-fold over the
 * interval, so that some queries are solved in pieces (w uneven); one in
 * four has a scale from 2^-900 to 2^900 (the reference brings each motion
 * back to a scale near 1 first).  Returns its degree.
 */
static int random_factor(double t0, double t1, double *f)
{
    double big = fmax(fabs(t0), fabs(t1));
    if (big == 0.0)
        big = 1.0;
    int deg = chance(0.3) ? 1 : 2;
    double span = chance(0.3) ? urange(50.0, 200.0) : urange(0.0, 3.0);
    f[0] = exp2(chance(0.25) ? urange(-900.0, 900.0) : urange(-4.0, 4.0));
    f[1] = t0 >= 0.0 && (deg == 1 || chance(0.5)) ? f[0] * urange(0.0, span) / big : 0.0;
    f[2] = deg == 2 ? f[0] * urange(0.0, span) / (big * big) : 0.0;
    return deg;
}

/* The largest over the least value of a random_factor on [t0, t1]. */
static double factor_spread(const double *f, int nf, double t0, double t1)
{
    double lo = INFINITY, hi = 0.0;
    double at[3] = {t0, t1, t0 < 0.0 && t1 > 0.0 ? 0.0 : t0};
    for (int k = 0; k < 3; k++) {
        double v = 0.0;
        for (int j = nf; j >= 0; j--)
            v = v * at[k] + f[j];
        lo = fmin(lo, v);
        hi = fmax(hi, v);
    }
    return hi / lo;
}

/* B's motion moved by the constant world vector lam * n. */
static void shift_b(boxtoi_query *q, const boxtoi_motion *base, const double n[3],
                    double lam)
{
    q->motion_b = *base;
    for (int k = 0; k <= base->degree; k++)
        for (int i = 0; i < 3; i++)
            q->motion_b.c[k][i][3] += lam * n[i] * base->c[k][3][3];
}

/*
 * Graze construction: from a hit, move B along the penetration direction at
 * the deepest moment until the deepest penetration over the contact equals a
 * target: a little positive (a brief clip that must be found), zero (a
 * graze) or a little negative (a near miss).  The reference then decides
 * what the case really is.
 */
static void make_graze(scene *sc, boxtoi_query *q, ref_answer *ra)
{
    scene_query(sc, q);
    ref_solve(q, 0.0, ra);
    if (!ra->hit) {
        sc->rho *= 0.3;
        scene_query(sc, q);
        ref_solve(q, 0.0, ra);
        if (!ra->hit)
            return;
    }
    double size = ra->size, L = q->t1 - q->t0;
    double ta = ra->toi, tb = ra->exit_after_t1 ? q->t1 : ra->exit, tm, n[3];
    double d0 = ref_max_axis_value_at(q, ta, tb, 16, &tm);
    if (!(d0 > 0.0) || ref_penetration(q, tm, n) <= 0.0)
        return;
    double u = uni(), target;
    if (u < 0.4)
        target = size * pow(10.0, urange(-8.5, -5));
    else if (u < 0.7)
        target = size * urange(-1e-13, 1e-13);
    else
        target = -size * pow(10.0, urange(-12, -7));
    if (target >= d0)
        return;
    boxtoi_motion base = q->motion_b;
    double h = 0.5 * (tb - ta) + 1e-6 * L;
    double wa = tm - h < q->t0 ? q->t0 : tm - h, wb = tm + h > q->t1 ? q->t1 : tm + h;
    double lo = 0.0, glo = d0 - target, hi = d0 - target + 1e-9 * size, ghi = 0.0;
    for (int k = 0; k < 8; k++, hi *= 2) {
        shift_b(q, &base, n, hi);
        ghi = ref_max_axis_value_at(q, wa, wb, 6, NULL) - target;
        if (ghi < 0.0)
            break;
    }
    if (!(ghi < 0.0))
        return;
    double lam = hi;
    int side = 0;
    for (int it = 0; it < 40; it++) {
        lam = (lo * ghi - hi * glo) / (ghi - glo);
        if (!(lam > lo && lam < hi))
            lam = 0.5 * (lo + hi);
        shift_b(q, &base, n, lam);
        double g = ref_max_axis_value_at(q, wa, wb, 6, NULL) - target;
        if (fabs(g) <= 1e-3 * fabs(target) + 1e-14 * size)
            break;
        if (g > 0.0) {
            lo = lam;
            glo = g;
            if (side == 1)
                ghi *= 0.5;
            side = 1;
        } else {
            hi = lam;
            ghi = g;
            if (side == -1)
                glo *= 0.5;
            side = -1;
        }
    }
    shift_b(q, &base, n, lam);
}

/*
 * Turning-parallel construction: the turn passes B's edges through parallel
 * to A's where the reference puts the first contact (or its end, one case
 * in four) with the edges parallel at tc, or within 1e-8 to 1e-2 of the
 * interval of it (the contact moves a little as the turn does).
 */
static void make_turning(scene *sc, boxtoi_query *q, ref_answer *ra)
{
    double L = sc->t1 - sc->t0;
    int at_exit = chance(0.25);
    double delta = chance(0.3) ? 0.0
                               : (chance(0.5) ? L : -L) * pow(10.0, urange(-8.0, -2.0));
    scene_query(sc, q);
    ref_solve(q, 0.0, ra);
    if (!ra->hit)
        return;
    double tp = at_exit && !ra->exit_after_t1 ? ra->exit : ra->toi;
    sc->turn_taup = tp + delta - sc->tc;
    turn_through(&sc->b, &sc->a, sc->turn_s, sc->turn_taup, sc->turn_k, sc->turn_c);
    scene_query(sc, q);
}

/* The angle of B's turn relative to A at time t (turn_through): the edges
   of B are within it of parallel to A's. */
static double turn_angle(const scene *sc, double t)
{
    double tau = t - sc->tc, r[4], rc[4];
    r[0] = 1.0;
    for (int i = 0; i < 3; i++)
        r[i + 1] = sc->turn_s * (tau - sc->turn_taup) * sc->turn_k[i];
    tu_quat_mul(r, sc->turn_c, rc);
    return 2.0 * atan2(sqrt(rc[1] * rc[1] + rc[2] * rc[2] + rc[3] * rc[3]), fabs(rc[0]));
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int env_int(const char *name, long def)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return (int)def;
    char *end;
    long v = strtol(s, &end, 0);
    if (*end || v < 0 || v > 100000000)
        bail("bad %s=%s", name, s);
    return (int)v;
}

int main(void)
{
    uint64_t seed = DEFAULT_SEED;
    const char *s = getenv("BOXTOI_SEED");
    if (s && *s) {
        char *end;
        seed = strtoull(s, &end, 0);
        if (*end)
            bail("bad BOXTOI_SEED=%s", s);
    }
    int ncases = env_int("BOXTOI_RANDOM_CASES", DEFAULT_CASES);
    int only = env_int("BOXTOI_RANDOM_CASE", -1);
    int only_kind = -1;
    const char *kn = getenv("BOXTOI_RANDOM_KIND");
    if (kn && *kn) {
        for (int k = 0; k < K_COUNT; k++)
            if (!strcmp(kn, kind_name[k]))
                only_kind = k;
        if (only_kind < 0)
            bail("bad BOXTOI_RANDOM_KIND=%s", kn);
    }
    stats st[K_COUNT], all, scaled[3], shifted, far, split, factored;
    int factor_shown = 0, factor_unsure = 0, uneven = 0;
    int split_cases = 0, split_shown = 0, split_unsure = 0;
    int scale_checked = 0, scale_bad[2] = {0, 0}, scale_shown = 0, scale_others_bad = 0;
    struct {
        int bad, checked, mirror_bad, shown;
    } swapped = {0, 0, 0, 0};
    /* diagnostics: disagreements, contact at a hit, point at an overlap,
     * exit; the first few in full, then one line each */
    static const int full_quota[4] = {5, 3, 2, 2}, short_quota[4] = {20, 10, 5, 5};
    int shown_full[4] = {0}, shown_short[4] = {0};

    plan(0);
    memset(st, 0, sizeof st);
    memset(&all, 0, sizeof all);
    memset(scaled, 0, sizeof scaled);
    memset(&shifted, 0, sizeof shifted);
    memset(&split, 0, sizeof split);
    memset(&factored, 0, sizeof factored);
    memset(&far, 0, sizeof far);
    diag("seed %#" PRIx64 " (set BOXTOI_SEED to change), %d cases "
         "(BOXTOI_RANDOM_CASES)", seed, ncases);

    static ref_answer ra;
    int refused_given = 0;
    int graze_shallow = 0, graze_clip = 0;
    /* turning-parallel hits: edge on edge, and of those within 1e-3 and
       1e-6 rad of parallel at the contact; exits within 1e-3 rad */
    int turn_hits = 0, turn_ee = 0, turn_ee3 = 0, turn_ee6 = 0, turn_exit3 = 0;
    double time_graze = 0, time_ref = 0, time_solver = 0, time_judge = 0;
    for (int i = 0; i < ncases; i++) {
        if (only >= 0 && i != only)
            continue;
        uint64_t cs = seed ^ (UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(i + 1));
        rng = splitmix64(&cs);
        int kind = i % K_COUNT;
        if (only_kind >= 0 && kind != only_kind)
            continue;
        scene sc;
        boxtoi_query q;
        make_scene(&sc, kind);
        double c0 = now();
        if (kind == K_GRAZE)
            make_graze(&sc, &q, &ra);
        else if (kind == K_TURNING)
            make_turning(&sc, &q, &ra);
        else
            scene_query(&sc, &q);
        double c1 = now();
        ref_solve(&q, REL_TOL * ref_size(&q, q.t0), &ra);
        double c2 = now();
        boxtoi_result res = boxtoi_solve(&q);
        double c3 = now();
        /*
         * A motion of high degree over a short interval far from t = 0 has
         * power coefficients so large that the doubles given no longer
         * describe a rotation (an octic one over [4.59, 4.65] sums terms up
         * to 8e15 to a w near 1), and its 3x3 part as given can turn
         * singular, or its w (one over [-4.72, -4.66] sums terms up to 8e15
         * to a w that falls from 0.076 to -0.10) vanish.  INVALID (SINGULAR
         * or W_VANISHES) is then the answer, in either order, where the
         * reference shows that box's part singular or its w vanishing; the
         * case checks nothing else.
         */
        if (given_refused(&q, &res)) {
            boxtoi_query sq = tu_swapped(&q);
            boxtoi_result sres = boxtoi_solve(&sq);
            if (given_refused(&sq, &sres)) {
                if (refused_given++ < 3 || only >= 0)
                    diag("case %d (%s): box %c's motion %s as given", i, kind_name[kind],
                         res.which == 1 ? 'A' : 'B',
                         res.reason == BOXTOI_REASON_SINGULAR ? "is singular"
                                                              : "has a w that vanishes");
                continue;
            }
        }
        check ck;
        judge(&q, &res, &ra, &ck);
        /*
         * A and B swapped: the same checks against the same reference
         * (which does not depend on the order), and the mirror image of
         * the answer where both agree with the reference on a contact that
         * gets deeper than 1e-9 size (a graze's features are not unique).
         */
        boxtoi_query sq = tu_swapped(&q);
        boxtoi_result sres = boxtoi_solve(&sq);
        check cks;
        judge(&sq, &sres, &ra, &cks);
        int swap_bad = cks.verdict == V_DISAGREE || cks.geom_bad || cks.point_bad;
        char mirror_why[1024] = "";
        swapped.checked++;
        int mirror_bad = !mirrors_exactly(&q, &res, &sres, mirror_why, sizeof mirror_why);
        swapped.bad += swap_bad;
        swapped.mirror_bad += mirror_bad;
        if ((swap_bad || mirror_bad) && swapped.shown++ < 5)
            diag("case %d (%s) with A and B swapped: %s%s%s", i, kind_name[kind],
                 swap_bad ? (cks.verdict == V_DISAGREE ? cks.why : cks.geom_why) : "",
                 swap_bad && mirror_bad ? "; " : "", mirror_why);
        /*
         * One case in FACTOR_EVERY again with A's motion, B's or both
         * multiplied by a positive polynomial: the same maps but for the
         * rounding of the products, of higher degree, with a w that can vary
         * enough to be solved in pieces.  Judged against the reference's
         * answer to that query: rounding moves the positions of an
         * ill-conditioned motion (w far below its coefficients) by more than
         * a graze's depth.
         */
        if (uni() * FACTOR_EVERY < 1.0) {
            boxtoi_query fq = q;
            int which = (int)(uni() * 3.0) % 3, changed = 0;
            for (int b = 0; b < 2; b++) {
                boxtoi_motion *m = b == 0 ? &fq.motion_a : &fq.motion_b;
                double f[3];
                int nf = random_factor(fq.t0, fq.t1, f);
                if ((which == b || which == 2) && m->degree + nf <= BOXTOI_MAX_DEGREE) {
                    times_factor(m, f, nf);
                    changed = 1;
                    uneven += factor_spread(f, nf, fq.t0, fq.t1) > 64.0;
                }
            }
            if (changed) {
                static ref_answer rf;
                ref_solve(&fq, REL_TOL * ref_size(&fq, fq.t0), &rf);
                boxtoi_result fres = boxtoi_solve(&fq);
                check fck;
                judge(&fq, &fres, &rf, &fck);
                /* the reference's timeline contradicting itself (its event
                   polynomials are of twice the degree and more): not judged,
                   counted */
                if (rf.inconsistent)
                    factor_unsure++;
                else
                    count(&factored, &rf, &fck);
                if ((!rf.inconsistent && (fck.verdict == V_DISAGREE || fck.geom_bad ||
                                          fck.point_bad || fck.exit_bad || fck.bad_state)) &&
                    (factor_shown++ < 5 || only >= 0)) {
                    diag("case %d (%s) with its motions times a factor: %s%s%s%s", i,
                         kind_name[kind], fck.verdict == V_DISAGREE ? fck.why : "",
                         fck.geom_bad || fck.point_bad ? fck.geom_why : "",
                         fck.exit_bad ? fck.exit_why : "",
                         fck.bad_state ? boxtoi_state_name(fres.state) : "");
                    print_query(&fq);
                    print_answers(&fres, &rf);
                }
            }
        }
        /*
         * Time, then lengths, scaled by a power of two from 2^-30 to 2^30:
         * the same answer, bit for bit, scaled alike (no threshold of the
         * solver is an absolute time or length).
         */
        scale_checked++;
        for (int time = 1; time >= 0; time--) {
            int e = (int)(uni() * 60.0) - 30;
            e += e >= 0; /* not 0 */
            boxtoi_query xq = scaled_query(&q, time, e);
            boxtoi_result xres = boxtoi_solve(&xq);
            char why[256];
            if (!scales_exactly(&res, &xres, time, e, why, sizeof why)) {
                scale_bad[time]++;
                if (scale_shown++ < 5 || only >= 0)
                    diag("case %d (%s): %s", i, kind_name[kind], why);
            }
            if (!others_scale_exactly(&q, &xq, &res, time, e, why, sizeof why)) {
                scale_others_bad++;
                if (scale_shown++ < 5 || only >= 0)
                    diag("case %d (%s): %s", i, kind_name[kind], why);
            }
        }
        /*
         * The same motions over [t0, tm] and [tm, t1], tm inside the
         * interval, and for a hit over [toi, t1]: parts that begin or end
         * inside a contact, or begin where it does, as a simulation that
         * stepped to a first contact goes on from it, each judged against
         * the reference over its own interval.
         */
        if (uni() * SPLIT_EVERY < 1.0) {
            double tm = q.t0 + urange(0.05, 0.95) * (q.t1 - q.t0);
            split_cases++;
            int from_toi = res.state == BOXTOI_HIT && res.toi > q.t0 && res.toi < q.t1;
            for (int part = 0; part < 2 + from_toi; part++) {
                static ref_answer rp;
                boxtoi_query pq = q;
                if (part == 0)
                    pq.t1 = tm;
                else
                    pq.t0 = part == 1 ? tm : res.toi;
                ref_solve(&pq, REL_TOL * ref_size(&pq, pq.t0), &rp);
                /* from toi, the boxes touching at the start within the
                   tolerance, the reference's own timeline can contradict
                   itself there: such a part is not judged (counted) */
                if (part == 2 && rp.inconsistent) {
                    split_unsure++;
                    continue;
                }
                boxtoi_result pres = boxtoi_solve(&pq);
                check pck;
                judge(&pq, &pres, &rp, &pck);
                count(&split, &rp, &pck);
                if ((pck.verdict == V_DISAGREE || pck.geom_bad || pck.point_bad ||
                     pck.exit_bad || rp.inconsistent) &&
                    (split_shown++ < 5 || only >= 0)) {
                    diag("case %d (%s) over [%.17g, %.17g] of [%.17g, %.17g]: %s%s%s%s", i,
                         kind_name[kind], pq.t0, pq.t1, q.t0, q.t1,
                         pck.verdict == V_DISAGREE ? pck.why : "",
                         pck.geom_bad || pck.point_bad ? pck.geom_why : "",
                         pck.exit_bad ? pck.exit_why : "",
                         rp.inconsistent ? " reference timeline inconsistent" : "");
                    print_query(&pq);
                    print_answers(&pres, &rp);
                }
            }
        }
        double c4 = now();
        if (kind == K_GRAZE && ra.hit) {
            double dur = (ra.exit_after_t1 ? q.t1 : ra.exit) - ra.toi;
            if (isinf(ra.t_deep))
                graze_shallow++;
            else if (dur < 1e-3 * (q.t1 - q.t0))
                graze_clip++;
        }
        if (kind == K_TURNING && res.state == BOXTOI_HIT) {
            turn_hits++;
            if (res.kind == BOXTOI_EDGE_EDGE) {
                double th = turn_angle(&sc, res.toi);
                turn_ee++;
                turn_ee3 += th < 1e-3;
                turn_ee6 += th < 1e-6;
            }
            turn_exit3 += !res.exit_after_t1 && turn_angle(&sc, res.exit) < 1e-3;
        }
        time_graze += c1 - c0;
        time_ref += c2 - c1;
        time_solver += c3 - c2;
        time_judge += c4 - c3;
        count(&st[kind], &ra, &ck);
        count(&all, &ra, &ck);
        count(&scaled[sc.scaled], &ra, &ck);
        if (sc.shifted)
            count(&shifted, &ra, &ck);
        if (sc.far)
            count(&far, &ra, &ck);
        int cat = ck.verdict == V_DISAGREE || ra.inconsistent ? 0
                  : ck.geom_bad ? 1 : ck.point_bad ? 2 : ck.exit_bad ? 3 : -1;
        if (only >= 0 || (cat >= 0 && shown_full[cat] < full_quota[cat])) {
            if (cat >= 0)
                shown_full[cat]++;
            diag("case %d (%s, seed %#" PRIx64 "): %s%s%s%s%s", i, kind_name[kind],
                 seed, ck.verdict == V_DISAGREE ? ck.why : "",
                 ck.geom_bad || ck.point_bad ? ck.geom_why : "",
                 ck.exit_bad ? ck.exit_why : "",
                 ra.inconsistent ? " reference timeline inconsistent" : "",
                 cat < 0 ? "ok" : "");
            print_query(&q);
            print_answers(&res, &ra);
        } else if (cat >= 0 && shown_short[cat] < short_quota[cat]) {
            shown_short[cat]++;
            diag("case %d (%s, solver %s): %s%s%s%s", i, kind_name[kind],
                 boxtoi_state_name(res.state),
                 ck.verdict == V_DISAGREE ? ck.why : "",
                 ck.geom_bad || ck.point_bad ? ck.geom_why : "",
                 ck.exit_bad ? ck.exit_why : "",
                 ra.inconsistent ? " reference timeline inconsistent" : "");
        }
    }

    diag("graze cases: %d touch without getting deeper than 1e-9 size, %d are "
         "clips deeper than that lasting under 1e-3 of the interval",
         graze_shallow, graze_clip);
    if (turn_hits)
        diag("turning-parallel: %d hits, %d edge on edge (%d of them within 1e-3 rad "
             "of parallel, %d within 1e-6), %d exits within 1e-3 rad", turn_hits, turn_ee,
             turn_ee3, turn_ee6, turn_exit3);
    diag("time: solver %.2f s, reference %.2f s, checks %.2f s, graze "
         "construction %.2f s", time_solver, time_ref, time_judge, time_graze);
    for (int k = 0; k < K_COUNT; k++) {
        const stats *p = &st[k];
        if (p->cases == 0)
            continue;
        ok(p->disagree == 0,
           "%s: %d cases (reference: %d hit, %d miss, %d overlap at t0), "
           "%d agree, %d graze, %d disagreements",
           kind_name[k], p->cases, p->hit, p->miss, p->overlap, p->agree,
           p->graze, p->disagree);
        ok(p->geom_bad == 0, "%s: at hits the boxes touch, the point is on "
           "both, the normal is the features' unit normal and the features are "
           "where the contact is, %d bad", kind_name[k], p->geom_bad);
        ok(p->point_bad == 0, "%s: at overlaps the point lies in both boxes, the "
           "depth is the penetration depth and the normal its direction from A to B, "
           "%d of %d bad", kind_name[k], p->point_bad, p->overlap);
        ok(p->exit_bad == 0, "%s: exit within %g size, %d of %d compared differ "
           "(%d beyond %g size), and %d other contacts hold up to it and end there",
           kind_name[k], EXIT_REL_TOL, p->exit_bad, p->exit_checked, p->exit_strict,
           REL_TOL, p->exit_held);
        diag("%s: largest |toi - reference| / (t1 - t0) among agreeing hits "
             "%.3g", kind_name[k], p->max_dt);
    }
    const char *sname[3] = {"unit scale", "scale ~1e-3", "scale ~1e3"};
    for (int k = 0; k < 3; k++)
        if (scaled[k].cases)
            ok(scaled[k].disagree == 0, "%s: %d cases, %d disagreements", sname[k],
               scaled[k].cases, scaled[k].disagree);
    if (shifted.cases)
        ok(shifted.disagree == 0, "intervals other than [0, 1]: %d cases, %d "
           "disagreements", shifted.cases, shifted.disagree);
    if (far.cases)
        ok(far.disagree == 0, "1e2 to 1e5 sizes from the origin: %d cases, %d "
           "disagreements", far.cases, far.disagree);
    /* the checks above that a group without cases leaves out: a full run has
       them all */
    if (only < 0 && only_kind < 0 && ncases >= 20000) {
        int missing = 0;
        for (int k = 0; k < K_COUNT; k++)
            missing += st[k].cases == 0;
        for (int k = 0; k < 3; k++)
            missing += scaled[k].cases == 0;
        missing += (shifted.cases == 0) + (far.cases == 0) + (split_cases == 0) +
                   (factored.cases == 0);
        is_int(missing, 0, "every kind, scale, shifted and far interval, cut interval "
               "and factored motion has cases");
    }
    ok(scale_bad[1] == 0, "time scaled by 2^-30 to 2^30: the same answer, times scaled, bit "
       "for bit, %d of %d differ", scale_bad[1], scale_checked);
    ok(scale_bad[0] == 0, "lengths scaled by 2^-30 to 2^30: the same answer, point and depth "
       "scaled, bit for bit, %d of %d differ", scale_bad[0], scale_checked);
    ok(scale_others_bad == 0, "time or lengths scaled alike: boxtoi_swept_aabb and "
       "boxtoi_overlap_at give the same, bit for bit, bounds scaled, %d of %d differ",
       scale_others_bad, 2 * scale_checked);
    if (split_cases)
        ok(split.disagree == 0 && split.geom_bad == 0 && split.point_bad == 0 &&
               split.exit_bad == 0 && split.inconsistent == 0,
           "intervals cut inside: %d cases over [t0, tm] and [tm, t1], and [toi, t1] after "
           "a hit (reference: %d hit, %d miss, %d overlap at the part's start; %d from toi "
           "not judged, the reference's timeline inconsistent), %d disagreements, %d bad "
           "contacts, %d bad exits", split_cases, split.hit, split.miss, split.overlap,
           split_unsure,
           split.disagree, split.geom_bad + split.point_bad, split.exit_bad);
    if (factored.cases) {
        diag("motions times a positive polynomial: %d factors vary more than 64-fold "
             "over the interval", uneven);
        ok(factored.disagree == 0 && factored.geom_bad == 0 && factored.point_bad == 0 &&
               factored.exit_bad == 0 && factored.bad_state == 0,
           "motions times a positive polynomial: %d cases (reference: %d hit, %d miss, %d "
           "overlap at t0; %d more not judged, the reference's timeline inconsistent), %d "
           "disagreements, %d bad contacts, %d bad exits, %d failed or invalid",
           factored.cases, factored.hit, factored.miss, factored.overlap, factor_unsure,
           factored.disagree, factored.geom_bad + factored.point_bad, factored.exit_bad,
           factored.bad_state);
    }
    ok(swapped.bad == 0, "A and B swapped: the answers pass the same checks, %d bad",
       swapped.bad);
    ok(swapped.mirror_bad == 0, "A and B swapped: the same time, exit and point, "
       "features exchanged, normal negated, bit for bit, %d of %d differ",
       swapped.mirror_bad, swapped.checked);
    ok(all.bad_state == 0, "no failed, unknown or invalid answers (%d; %d more "
       "invalid where the reference shows a motion singular, or its w vanishing, as given)",
       all.bad_state, refused_given);
    ok(all.inconsistent == 0, "reference timeline consistent (%d inconsistent)",
       all.inconsistent);
    ok(all.cases + refused_given > 0, "some cases were checked (%d, and %d refused as given)",
       all.cases, refused_given);
    if (only < 0 && only_kind < 0) {
        double frac = (double)all.hit / (all.cases ? all.cases : 1);
        ok(frac > 0.3 && frac < 0.7, "generator: %.1f%% of cases hit, %d overlap at t0",
           100 * frac, all.overlap);
        /* the issue asks for at least 20,000; fewer, asked for, is a skip */
        if (ncases < 20000 && getenv("BOXTOI_RANDOM_CASES"))
            skip(1, "%d cases, fewer than 20,000 (BOXTOI_RANDOM_CASES)", ncases);
        else
            ok(ncases >= 20000, "%d cases, at least 20,000", ncases);
    }
    return tap_failures() ? 1 : 0;
}
