/*
 * Random first-contact cases for the benchmarks, and small helpers shared by
 * the benchmark programs (clock, statistics, options).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases.h"

static const struct {
    const char *name;
    const char *about;
    double target_ns;
    int rigid;
    int translation_only;
} scenarios[BENCH_SCENARIO_COUNT] = {
    {"linear", "constant orientations, linear translations (degree 1)", 0, 1, 1},
    {"quadratic", "rigid rational motions: quaternion linear in t, matrix degree 2",
     1000, 1, 0},
    {"static-quadratic", "B at rest, A rigid rational of degree 2", 500, 1, 0},
    {"quartic", "rigid: quaternion linear, position quadratic (degree 4)", 0, 1, 0},
    {"affine", "linear shear and scale with translation (degree 1)", 0, 0, 0},
    {"far-apart", "degree-2 rigid motions about 100 box sizes apart", 100, 1, 0},
};

const char *bench_scenario_name(bench_scenario s)
{
    return (unsigned) s < BENCH_SCENARIO_COUNT ? scenarios[s].name : "?";
}

int bench_scenario_parse(const char *name)
{
    for (int s = 0; s < BENCH_SCENARIO_COUNT; s++)
        if (strcmp(name, scenarios[s].name) == 0)
            return s;
    return -1;
}

const char *bench_scenario_about(bench_scenario s)
{
    return (unsigned) s < BENCH_SCENARIO_COUNT ? scenarios[s].about : "?";
}

double bench_scenario_target_ns(bench_scenario s)
{
    return (unsigned) s < BENCH_SCENARIO_COUNT ? scenarios[s].target_ns : 0;
}

int bench_scenario_rigid(bench_scenario s)
{
    return (unsigned) s < BENCH_SCENARIO_COUNT ? scenarios[s].rigid : 0;
}

int bench_scenario_translation_only(bench_scenario s)
{
    return (unsigned) s < BENCH_SCENARIO_COUNT ? scenarios[s].translation_only : 0;
}

/* ---- random numbers: splitmix64 seeding a xoshiro256** generator ---- */

typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed, uint64_t stream, uint64_t index)
{
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03u) ^ (index * 0x8CB92BA72F3D8DD7u);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [a, b). */
static double uniform(rng *r, double a, double b)
{
    return a + (b - a) * ((double) (rng_next(r) >> 11) * 0x1.0p-53);
}

/* Uniform in the ball of radius rad (rejection from the cube). */
static void in_ball(rng *r, double rad, double v[3])
{
    double n2;
    do {
        for (int i = 0; i < 3; i++)
            v[i] = uniform(r, -1, 1);
        n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    } while (n2 > 1 || n2 < 1e-6);
    for (int i = 0; i < 3; i++)
        v[i] *= rad;
}

static void unit_vector(rng *r, double v[3])
{
    in_ball(r, 1, v);
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++)
        v[i] /= n;
}

/* A uniformly random unit quaternion (w x y z). */
static void unit_quaternion(rng *r, double q[4])
{
    double n2;
    do {
        for (int i = 0; i < 4; i++)
            q[i] = uniform(r, -1, 1);
        n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    } while (n2 > 1 || n2 < 1e-6);
    double n = sqrt(n2);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

/* ---- polynomials in t, coefficient k of t^k ---- */

#define NC (BOXTOI_MAX_DEGREE + 1)

typedef struct poly {
    int deg;
    double c[NC];
} poly;

static poly poly_const(double a)
{
    poly p;
    memset(&p, 0, sizeof p);
    p.c[0] = a;
    return p;
}

static poly poly_mul(poly a, poly b)
{
    poly p;
    memset(&p, 0, sizeof p);
    p.deg = a.deg + b.deg;
    for (int i = 0; i <= a.deg; i++)
        for (int j = 0; j <= b.deg; j++)
            p.c[i + j] += a.c[i] * b.c[j];
    return p;
}

static poly poly_add(poly a, poly b, double sb)
{
    poly p;
    memset(&p, 0, sizeof p);
    p.deg = a.deg > b.deg ? a.deg : b.deg;
    for (int k = 0; k <= p.deg; k++)
        p.c[k] = a.c[k] + sb * b.c[k];
    return p;
}

static poly poly_scale(poly a, double s)
{
    for (int k = 0; k <= a.deg; k++)
        a.c[k] *= s;
    return a;
}

static double poly_eval(const poly *p, double t)
{
    double v = 0;
    for (int k = p->deg; k >= 0; k--)
        v = v * t + p->c[k];
    return v;
}

/* ---- motions ---- */

static void motion_zero(boxtoi_motion *m)
{
    memset(m, 0, sizeof *m);
}

static void motion_set(boxtoi_motion *m, int row, int col, poly p)
{
    if (p.deg > m->degree)
        m->degree = p.deg;
    for (int k = 0; k <= p.deg; k++)
        m->c[k][row][col] = p.c[k];
}

/*
 * Rigid rational motion from the quaternion path q(t) = q[0] + q[1] t (qdeg 0
 * or 1) and a translation column T(t) given directly (T = p(t) |q(t)|^2 for
 * the position path p).  Upper-left part: the unnormalised rotation matrix
 * Rq(t) = |q|^2 R(q); bottom-right entry |q|^2.
 */
static void motion_rigid(boxtoi_motion *m, const double q[2][4], int qdeg,
                         const poly T[3])
{
    poly c[4];
    for (int i = 0; i < 4; i++) {
        c[i] = poly_const(q[0][i]);
        if (qdeg >= 1) {
            c[i].deg = 1;
            c[i].c[1] = q[1][i];
        }
    }
    poly ww = poly_mul(c[0], c[0]), xx = poly_mul(c[1], c[1]);
    poly yy = poly_mul(c[2], c[2]), zz = poly_mul(c[3], c[3]);
    poly wx = poly_mul(c[0], c[1]), wy = poly_mul(c[0], c[2]), wz = poly_mul(c[0], c[3]);
    poly xy = poly_mul(c[1], c[2]), xz = poly_mul(c[1], c[3]), yz = poly_mul(c[2], c[3]);

    motion_zero(m);
    motion_set(m, 0, 0, poly_add(poly_add(ww, xx, 1), poly_add(yy, zz, 1), -1));
    motion_set(m, 1, 1, poly_add(poly_add(ww, yy, 1), poly_add(xx, zz, 1), -1));
    motion_set(m, 2, 2, poly_add(poly_add(ww, zz, 1), poly_add(xx, yy, 1), -1));
    motion_set(m, 0, 1, poly_scale(poly_add(xy, wz, -1), 2));
    motion_set(m, 1, 0, poly_scale(poly_add(xy, wz, 1), 2));
    motion_set(m, 0, 2, poly_scale(poly_add(xz, wy, 1), 2));
    motion_set(m, 2, 0, poly_scale(poly_add(xz, wy, -1), 2));
    motion_set(m, 1, 2, poly_scale(poly_add(yz, wx, -1), 2));
    motion_set(m, 2, 1, poly_scale(poly_add(yz, wx, 1), 2));
    for (int i = 0; i < 3; i++)
        motion_set(m, i, 3, T[i]);
    motion_set(m, 3, 3, poly_add(poly_add(ww, xx, 1), poly_add(yy, zz, 1), 1));
}

/* |q(t)|^2 for q(t) = q[0] + q[1] t as a polynomial. */
static poly quat_norm2(const double q[2][4], int qdeg)
{
    poly n = poly_const(0);
    for (int i = 0; i < 4; i++) {
        poly c = poly_const(q[0][i]);
        if (qdeg >= 1) {
            c.deg = 1;
            c.c[1] = q[1][i];
        }
        n = poly_add(n, poly_mul(c, c), 1);
    }
    return n;
}

/*
 * A quaternion path q0 + q1 t with |q0| = 1 and |q1| up to spin, kept well
 * away from zero on [0, 1] (min |q(t)|^2 >= 0.05).
 */
static void random_quaternion_path(rng *r, double spin, double q[2][4])
{
    for (;;) {
        unit_quaternion(r, q[0]);
        double d[4], n2 = 0;
        for (int i = 0; i < 4; i++) {
            d[i] = uniform(r, -1, 1);
            n2 += d[i] * d[i];
        }
        if (n2 < 1e-6)
            continue;
        double len = uniform(r, 0, spin) / sqrt(n2);
        for (int i = 0; i < 4; i++)
            q[1][i] = d[i] * len;
        poly w = quat_norm2(q, 1);
        double lo = w.c[0] < w.c[0] + w.c[1] + w.c[2] ? w.c[0] : w.c[0] + w.c[1] + w.c[2];
        if (w.c[2] > 0) {
            double ts = -w.c[1] / (2 * w.c[2]);
            if (ts > 0 && ts < 1 && poly_eval(&w, ts) < lo)
                lo = poly_eval(&w, ts);
        }
        if (lo >= 0.05)
            return;
    }
}

static void random_box(rng *r, boxtoi_box *b)
{
    for (int i = 0; i < 3; i++) {
        double h = uniform(r, 0.25, 1.0);
        double c = uniform(r, -0.25, 0.25);
        b->lo[i] = c - h;
        b->hi[i] = c + h;
    }
}

/* Rotation matrix of a unit quaternion. */
static void quat_matrix(const double q[4], double R[3][3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0][0] = w * w + x * x - y * y - z * z;
    R[1][1] = w * w - x * x + y * y - z * z;
    R[2][2] = w * w - x * x - y * y + z * z;
    R[0][1] = 2 * (x * y - w * z);
    R[1][0] = 2 * (x * y + w * z);
    R[0][2] = 2 * (x * z + w * y);
    R[2][0] = 2 * (x * z - w * y);
    R[1][2] = 2 * (y * z - w * x);
    R[2][1] = 2 * (y * z + w * x);
}

/* Linear position column P0 + (P1 - P0) t. */
static void linear_column(const double P0[3], const double P1[3], poly T[3])
{
    for (int i = 0; i < 3; i++) {
        T[i] = poly_const(P0[i]);
        T[i].deg = 1;
        T[i].c[1] = P1[i] - P0[i];
    }
}

/*
 * Translation column of degree 2 for a quaternion path with w = |q|^2 of
 * degree 2: T = P0 w + (P1 - P0) s with s = w(0) t + (w(1) - w(0)) t^2, so the
 * position T / w runs along the segment from P0 (t = 0) to P1 (t = 1) at a
 * rational, non-uniform pace.
 */
static void rational_column(const poly *w, const double P0[3], const double P1[3],
                            poly T[3])
{
    double w0 = w->c[0], w1 = poly_eval(w, 1);
    poly s = poly_const(0);
    s.deg = 2;
    s.c[1] = w0;
    s.c[2] = w1 - w0;
    for (int i = 0; i < 3; i++)
        T[i] = poly_add(poly_scale(*w, P0[i]), s, P1[i] - P0[i]);
}

/*
 * Paths of two boxes that pass the meeting point (the origin) at about the
 * same time tm, each with a random miss offset: roughly half of them touch.
 */
static void meeting_paths(rng *r, double travel_lo, double travel_hi,
                          double miss, double PA0[3], double PA1[3],
                          double PB0[3], double PB1[3], double meetB[3])
{
    double tm = uniform(r, 0.25, 0.75);
    double dA[3], dB[3], offA[3], offB[3], jitter[3];
    unit_vector(r, dA);
    /* B comes from the other side, within about 60 degrees of head-on. */
    in_ball(r, 0.8, jitter);
    double n = 0;
    for (int i = 0; i < 3; i++) {
        dB[i] = -dA[i] + jitter[i];
        n += dB[i] * dB[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 3; i++)
        dB[i] /= n;
    in_ball(r, miss, offA);
    in_ball(r, miss, offB);
    double LA = uniform(r, travel_lo, travel_hi), LB = uniform(r, travel_lo, travel_hi);
    for (int i = 0; i < 3; i++) {
        PA0[i] = offA[i] - dA[i] * LA * tm;
        PA1[i] = PA0[i] + dA[i] * LA;
        PB0[i] = offB[i] - dB[i] * LB * tm;
        PB1[i] = PB0[i] + dB[i] * LB;
        meetB[i] = offB[i];
    }
}

/* Radius of the random miss offsets: about half the cases touch. */
#define MISS 2.2

static void make_case(bench_scenario s, rng *r, boxtoi_query *q)
{
    memset(q, 0, sizeof *q);
    q->t0 = 0;
    q->t1 = 1;
    random_box(r, &q->a);
    random_box(r, &q->b);

    double PA0[3], PA1[3], PB0[3], PB1[3], meetB[3];
    double qa[2][4], qb[2][4];
    poly T[3];

    switch (s) {
    case BENCH_LINEAR:
        meeting_paths(r, 6, 10, MISS, PA0, PA1, PB0, PB1, meetB);
        unit_quaternion(r, qa[0]);
        unit_quaternion(r, qb[0]);
        linear_column(PA0, PA1, T);
        motion_rigid(&q->motion_a, (const double(*)[4]) qa, 0, T);
        linear_column(PB0, PB1, T);
        motion_rigid(&q->motion_b, (const double(*)[4]) qb, 0, T);
        break;

    case BENCH_QUADRATIC:
    case BENCH_FAR_APART: {
        if (s == BENCH_QUADRATIC) {
            meeting_paths(r, 6, 10, MISS, PA0, PA1, PB0, PB1, meetB);
        } else {
            /* Slow motions, B about 150 units (100 box sizes) away. */
            double away[3], u[3];
            unit_vector(r, away);
            in_ball(r, 2, PA0);
            in_ball(r, 0.5, u);
            for (int i = 0; i < 3; i++) {
                PA1[i] = PA0[i] + u[i];
                PB0[i] = PA0[i] + 150 * away[i];
            }
            in_ball(r, 0.5, u);
            for (int i = 0; i < 3; i++)
                PB1[i] = PB0[i] + u[i];
        }
        random_quaternion_path(r, 1.0, qa);
        random_quaternion_path(r, 1.0, qb);
        poly wa = quat_norm2((const double(*)[4]) qa, 1);
        poly wb = quat_norm2((const double(*)[4]) qb, 1);
        rational_column(&wa, PA0, PA1, T);
        motion_rigid(&q->motion_a, (const double(*)[4]) qa, 1, T);
        rational_column(&wb, PB0, PB1, T);
        motion_rigid(&q->motion_b, (const double(*)[4]) qb, 1, T);
        break;
    }

    case BENCH_STATIC_QUADRATIC: {
        /* A passes the origin at about tm; B rests near the origin. */
        meeting_paths(r, 6, 10, MISS, PA0, PA1, PB0, PB1, meetB);
        random_quaternion_path(r, 1.0, qa);
        poly wa = quat_norm2((const double(*)[4]) qa, 1);
        rational_column(&wa, PA0, PA1, T);
        motion_rigid(&q->motion_a, (const double(*)[4]) qa, 1, T);
        /* B rests where its path would have been at the meeting time. */
        unit_quaternion(r, qb[0]);
        for (int i = 0; i < 3; i++)
            T[i] = poly_const(meetB[i]);
        motion_rigid(&q->motion_b, (const double(*)[4]) qb, 0, T);
        break;
    }

    case BENCH_QUARTIC: {
        /* Position P0 + (P1 - P0 - K) t + K t^2 (a parabola through P0 and P1). */
        meeting_paths(r, 6, 10, MISS, PA0, PA1, PB0, PB1, meetB);
        double *P0[2] = {PA0, PB0}, *P1[2] = {PA1, PB1};
        double (*qq[2])[4] = {qa, qb};
        boxtoi_motion *mm[2] = {&q->motion_a, &q->motion_b};
        for (int b = 0; b < 2; b++) {
            double K[3];
            in_ball(r, 1.5, K);
            random_quaternion_path(r, 1.0, qq[b]);
            poly w = quat_norm2((const double(*)[4]) qq[b], 1);
            for (int i = 0; i < 3; i++) {
                poly p = poly_const(P0[b][i]);
                p.deg = 2;
                p.c[1] = P1[b][i] - P0[b][i] - K[i];
                p.c[2] = K[i];
                T[i] = poly_mul(p, w);
            }
            motion_rigid(mm[b], (const double(*)[4]) qq[b], 1, T);
        }
        break;
    }

    case BENCH_AFFINE: {
        /*
         * L(t) = R (I + t S) with |S_ij| <= 0.3: diagonally dominant, hence
         * non-singular, on [0, 1].
         */
        meeting_paths(r, 6, 10, MISS, PA0, PA1, PB0, PB1, meetB);
        double *P0[2] = {PA0, PB0}, *P1[2] = {PA1, PB1};
        boxtoi_motion *mm[2] = {&q->motion_a, &q->motion_b};
        for (int b = 0; b < 2; b++) {
            double qu[4], R[3][3], S[3][3];
            unit_quaternion(r, qu);
            quat_matrix(qu, R);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    S[i][j] = uniform(r, -0.3, 0.3);
            boxtoi_motion *m = mm[b];
            motion_zero(m);
            m->degree = 1;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    double rs = 0;
                    for (int k = 0; k < 3; k++)
                        rs += R[i][k] * S[k][j];
                    m->c[0][i][j] = R[i][j];
                    m->c[1][i][j] = rs;
                }
                m->c[0][i][3] = P0[b][i];
                m->c[1][i][3] = P1[b][i] - P0[b][i];
            }
            m->c[0][3][3] = 1;
        }
        break;
    }

    default:
        break;
    }
}

void bench_make_case(bench_scenario s, uint64_t seed, size_t i, boxtoi_query *out)
{
    rng r;
    rng_seed(&r, seed, (uint64_t) s + 1, (uint64_t) i);
    make_case(s, &r, out);
}

void bench_make_cases(bench_scenario s, uint64_t seed, size_t n, boxtoi_query *out)
{
    for (size_t i = 0; i < n; i++)
        bench_make_case(s, seed, i, &out[i]);
}

void bench_pose_at(const boxtoi_motion *m, double t, double R[3][3], double p[3])
{
    double e[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double v = 0;
            for (int k = m->degree; k >= 0; k--)
                v = v * t + m->c[k][i][j];
            e[i][j] = v;
        }
    double w = e[3][3];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            R[i][j] = e[i][j] / w;
        p[i] = e[i][3] / w;
    }
}

/* ---- timing, statistics ---- */

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

double bench_clock_overhead_ns(void)
{
    enum { K = 2001 };
    double v[K];
    for (int i = 0; i < K; i++) {
        double a = bench_now_ns();
        double b = bench_now_ns();
        v[i] = b - a;
    }
    return bench_median(v, K);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double bench_mean(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return n ? s / (double) n : NAN;
}

/* ---- options ---- */

const char bench_options_help[] =
    "  --json          print one JSON object per line instead of a table\n"
    "  -n N            random cases per scenario (default 2000)\n"
    "  --seed S        seed of the random cases (default 20261122)\n"
    "  --scenario S    run only scenario S (repeatable, or a comma list):\n"
    "                  linear, quadratic, static-quadratic, quartic, affine,\n"
    "                  far-apart\n"
    "  --passes P      timed passes over the cases, least kept (default 3)\n";

void bench_options_default(bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->n = BENCH_DEFAULT_N;
    o->seed = BENCH_DEFAULT_SEED;
    o->passes = 3;
}

int bench_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

static int select_scenarios(bench_options *o, const char *prog, const char *list)
{
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        char name[32];
        int s = -1;
        if (len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            s = bench_scenario_parse(name);
        }
        if (s < 0) {
            fprintf(stderr, "%s: --scenario: unknown scenario '%.*s'\n", prog, (int) len, p);
            return -1;
        }
        o->selected[s] = 1;
        o->any_selected = 1;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

const char *bench_program_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    return slash ? slash + 1 : argv0;
}

int bench_output_failed(const char *prog)
{
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "%s: write error\n", prog);
        return 1;
    }
    return 0;
}

int bench_option(bench_options *o, int argc, char **argv, int i)
{
    const char *a = argv[i], *prog = bench_program_name(argv[0]);
    if (strcmp(a, "--json") == 0) {
        o->json = 1;
        return 1;
    }
    int takes = strcmp(a, "-n") == 0 || strcmp(a, "--seed") == 0 ||
                strcmp(a, "--scenario") == 0 || strcmp(a, "--passes") == 0;
    if (!takes)
        return 0;
    if (i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs an argument\n", prog, a);
        return -1;
    }
    const char *v = argv[i + 1];
    uint64_t x;
    if (strcmp(a, "-n") == 0) {
        if (bench_parse_u64(v, 10000000, &x) || x == 0) {
            fprintf(stderr, "%s: -n: expected a count from 1 to 10000000, got '%s'\n", prog, v);
            return -1;
        }
        o->n = (size_t) x;
    } else if (strcmp(a, "--passes") == 0) {
        if (bench_parse_u64(v, BENCH_MAX_PASSES, &x) || x == 0) {
            fprintf(stderr, "%s: --passes: expected a count from 1 to %d, got '%s'\n", prog,
                    BENCH_MAX_PASSES, v);
            return -1;
        }
        o->passes = (int) x;
    } else if (strcmp(a, "--seed") == 0) {
        if (bench_parse_u64(v, UINT64_MAX, &x)) {
            fprintf(stderr, "%s: --seed: expected a non-negative integer, got '%s'\n", prog,
                    v);
            return -1;
        }
        o->seed = x;
    } else if (select_scenarios(o, prog, v)) {
        return -1;
    }
    return 2;
}

void bench_options_finish(bench_options *o)
{
    if (!o->any_selected)
        for (int s = 0; s < BENCH_SCENARIO_COUNT; s++)
            o->selected[s] = 1;
}
