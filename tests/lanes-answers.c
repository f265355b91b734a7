/*
 * Prints the solver's full answers to a fixed set of queries, every number
 * in hexadecimal floating point, each after a line with what validation and
 * conversion made of the query.  Built twice: against
 * the library as configured, where lib/motion.c validates and converts the
 * usual pair of motions (t0 = 0, one degree up to 4) two at a time in vector
 * lanes, and against a copy of the library compiled with -DBX_NO_LANES,
 * which takes the one-box path for everything.  motion.c promises that both
 * give the same answers bit for bit, invalid input included (the same
 * reason, the same box); test-lanes.sh compares the two outputs.  Where
 * boxtoi_solve runs the library's copy built for AVX2 (lib/dispatch.c), each
 * answer is also asked of the baseline build (bx_solve), and a line is added
 * where the two differ, which the one-lane build never prints.
 *
 * Each line starts with its group: rigid and affine motions of degrees 0 to
 * 8 (pairs that meet about half the time), motions close to the edges of
 * what the lane path takes (w near zero, singular or nearly singular 3x3
 * parts, a negative w, signed zeros in the bottom row, numbers near the
 * range limit, motions written with a factor near it, rigid motions
 * stretched along one axis), and invalid input in either box or both.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boxtoi.h"
#include "lib-util.h"
#include "motion.h"
#include "solve.h"

/* FNV-1a over the bytes of n doubles. */
static unsigned long long mix(unsigned long long h, const double *x, int n)
{
    const unsigned char *b = (const unsigned char *)x;
    for (size_t k = 0; k < n * sizeof *x; k++)
        h = (h ^ b[k]) * 1099511628211ULL;
    return h;
}

/* Everything bx_prepare_pair fills that the solver reads, hashed. */
static unsigned long long prepared_hash(const bx_moving *m)
{
    unsigned long long h = 14695981039346656037ULL;
    double head[4] = {m->d, m->flip, m->size, m->box_known};
    h = mix(h, head, 4);
    h = mix(h, m->half, 3);
    h = mix(h, m->w, m->d + 1);
    for (int r = 0; r < 3; r++) {
        h = mix(h, m->p[r], m->d + 1);
        for (int k = 0; k < 3; k++)
            h = mix(h, m->u[k][r], m->d + 1);
    }
    if (m->box_known) {
        h = mix(h, m->box_lo, 3);
        h = mix(h, m->box_hi, 3);
        h = mix(h, &m->box_coord, 1);
    }
    return h;
}

/* An answer as printed: its fields, every number in hexadecimal. */
static void format_answer(char *out, size_t size, const boxtoi_result *r)
{
    int n = snprintf(out, size, " %d %d %d %d %d%d%d %d%d%d %d %d", r->state, r->reason,
                     r->which, r->kind, r->feature_a.side[0], r->feature_a.side[1],
                     r->feature_a.side[2], r->feature_b.side[0], r->feature_b.side[1],
                     r->feature_b.side[2], r->exit_after_t1, r->iterations);
    double x[9] = {r->toi, r->exit, r->depth, r->point[0], r->point[1], r->point[2],
                   r->normal[0], r->normal[1], r->normal[2]};
    for (int k = 0; k < 9 && n > 0 && (size_t)n < size; k++)
        n += isnan(x[k]) ? snprintf(out + n, size - n, " nan")
                         : snprintf(out + n, size - n, " %a", x[k]);
}

/*
 * The answer, and before it what the validation and conversion gave:
 * the reason and box, or both boxes as prepared (hashed), and the
 * determinant tests (bx_check_det2).  These can differ where no answer
 * shows it (a swept bound, a range test at its limit).
 */
static void print_result(const char *group, int i, const boxtoi_query *q)
{
    bx_moving a, b;
    int which = 0;
    boxtoi_reason why = bx_check_interval(q->t0, q->t1);
    if (!why)
        why = bx_prepare_pair(&q->a, &q->motion_a, &q->b, &q->motion_b, q->t0, q->t1,
                              &a, &b, &which);
    if (why)
        printf("%s %d prepared: %d %d\n", group, i, why, which);
    else
        printf("%s %d prepared: %016llx %016llx %d\n", group, i, prepared_hash(&a),
               prepared_hash(&b), bx_check_det2(&a, &b));

    boxtoi_result r = boxtoi_solve(q);
    char got[512], built[512];
    format_answer(got, sizeof got, &r);
    printf("%s %d answer:%s\n", group, i, got);
    /* boxtoi_solve ran the AVX2 build (lib/dispatch.c): the baseline build's
       answer must be the same (a line the one-lane build never prints) */
    if (strcmp(boxtoi_solver_build(), "avx2") == 0) {
        boxtoi_result base = bx_solve(q);
        format_answer(built, sizeof built, &base);
        if (strcmp(got, built) != 0)
            printf("%s %d baseline build's answer:%s\n", group, i, built);
    }
}

static void random_box(unsigned long long *st, boxtoi_box *b)
{
    for (int i = 0; i < 3; i++) {
        double c = tu_rand(st, -0.2, 0.2), h = tu_rand(st, 0.05, 0.6);
        b->lo[i] = c - h;
        b->hi[i] = c + h;
    }
}

/*
 * A rigid rational motion of degree d (quaternion path of degree d / 2,
 * position of the rest), coming towards the other box from side.
 */
static void rigid_motion(unsigned long long *st, boxtoi_motion *m, int d, double side)
{
    double q[5][4], p[9][3] = {{0.0}}; /* rows 0..pdeg are set; GCC -flto cannot tell */
    int qdeg = d / 2, pdeg = d - 2 * qdeg;
    if (d >= 2 && tu_rand(st, 0, 1) < 0.3) {
        qdeg = d / 4; /* more of the degree in the position path */
        pdeg = d - 2 * qdeg;
    }
    tu_rand_unit_quaternion(st, q[0]);
    for (int k = 1; k <= qdeg; k++)
        for (int c = 0; c < 4; c++)
            q[k][c] = tu_rand(st, -0.4, 0.4) / qdeg;
    for (int k = 0; k <= pdeg; k++)
        for (int i = 0; i < 3; i++)
            p[k][i] = tu_rand(st, -0.5, 0.5) / (k + 1);
    p[0][0] += 1.2 * side;
    if (pdeg >= 1)
        p[1][0] -= 2.4 * side;
    tu_rigid_motion(m, (const double(*)[4])q, qdeg, (const double(*)[3])p, pdeg, 0.5);
}

/* An affine motion of degree d: a shear and scale about the identity. */
static void affine_motion(unsigned long long *st, boxtoi_motion *m, int d, double side,
                          double spread)
{
    tu_motion_zero(m, d);
    for (int i = 0; i < 3; i++) {
        m->c[0][i][i] = 1.0;
        for (int j = 0; j < 3; j++)
            for (int k = 0; k <= d; k++)
                m->c[k][i][j] += tu_rand(st, -spread, spread) / (k + 1);
        m->c[0][i][3] = tu_rand(st, -0.3, 0.3);
        for (int k = 1; k <= d; k++)
            m->c[k][i][3] = tu_rand(st, -0.6, 0.6) / k;
    }
    m->c[0][0][3] += 1.2 * side;
    if (d >= 1)
        m->c[1][0][3] -= 2.4 * side;
    m->c[0][3][3] = 1.0;
    for (int k = 1; k <= d; k++)
        m->c[k][3][3] = tu_rand(st, -0.2, 0.2) / k;
}

static void interval(unsigned long long *st, boxtoi_query *q)
{
    double u = tu_rand(st, 0, 1);
    q->t0 = 0.0;
    q->t1 = u < 0.5 ? 1.0 : u < 0.8 ? tu_rand(st, 0.3, 3.0) : 0.0;
    if (q->t1 == 0.0) { /* the general path in both builds, for reference */
        q->t0 = tu_rand(st, -1.0, 1.0);
        q->t1 = q->t0 + 1.0;
    }
    q->flags = tu_rand(st, 0, 1) < 0.2 ? BOXTOI_SKIP_EXIT : 0;
}

/* A query of two random boxes, A on the left moving right, B the other way. */
static void random_pair(unsigned long long *st, boxtoi_query *q, int da, int db,
                        int affine)
{
    memset(q, 0, sizeof *q);
    random_box(st, &q->a);
    random_box(st, &q->b);
    if (affine) {
        affine_motion(st, &q->motion_a, da, -1.0, 0.3);
        affine_motion(st, &q->motion_b, db, 1.0, 0.3);
    } else {
        rigid_motion(st, &q->motion_a, da, -1.0);
        rigid_motion(st, &q->motion_b, db, 1.0);
    }
}

/* Random pairs: rigid or affine, mostly one degree for both boxes. */
static void group_motions(const char *group, int affine, int count, unsigned long long *st)
{
    for (int i = 0; i < count; i++) {
        boxtoi_query q;
        int da = i % 9, db = tu_rand(st, 0, 1) < 0.8 ? da : (int)tu_rand(st, 0, 9);
        if (i % 9 > 4 && tu_rand(st, 0, 1) < 0.6) /* weight the lane degrees 0..4 */
            da = db = (int)tu_rand(st, 0, 5);
        random_pair(st, &q, da, db, affine);
        interval(st, &q);
        print_result(group, i, &q);
    }
}

/*
 * Motions near the edges of what the lane path takes: it hands anything
 * unusual back to the one-box path, which must then give what it gives
 * alone.
 */
static void group_edges(int count, unsigned long long *st)
{
    for (int i = 0; i < count; i++) {
        boxtoi_query q;
        int d = (int)tu_rand(st, 0, 5);
        random_pair(st, &q, d, d, i % 10 != 7);
        q.t0 = 0.0;
        q.t1 = tu_rand(st, 0, 1) < 0.5 ? 1.0 : 2.0;
        boxtoi_motion *m = tu_rand(st, 0, 1) < 0.5 ? &q.motion_a : &q.motion_b;
        int k = d > 0 ? (int)tu_rand(st, 0, d + 1) : 0;
        switch (i % 10) {
        case 0: /* w small or crossing zero somewhere */
            m->c[0][3][3] = tu_rand(st, -0.1, 0.1);
            if (d >= 1)
                m->c[1][3][3] = tu_rand(st, -0.3, 0.3);
            break;
        case 1: /* w negative throughout: the whole matrix is negated */
            for (int j = 0; j <= d; j++)
                for (int r = 0; r < 4; r++)
                    for (int c = 0; c < 4; c++)
                        m->c[j][r][c] = -m->c[j][r][c];
            break;
        case 2: { /* column 2 a multiple of column 0 (singular), or nearly */
            double f = tu_rand(st, 0.5, 2.0), e = tu_rand(st, 0, 1) < 0.5 ? 0.0 : 1e-9;
            for (int j = 0; j <= d; j++)
                for (int r = 0; r < 3; r++)
                    m->c[j][r][2] = m->c[j][r][0] * f + e * tu_rand(st, -1, 1);
            break;
        }
        case 3: { /* signed zeros, and values, in the bottom row */
            int c = (int)tu_rand(st, 0, 3); /* drawn before the value, by every compiler */
            m->c[k][3][c] = tu_rand(st, 0, 1) < 0.7 ? -0.0 : 1e-300;
            break;
        }
        case 4: { /* numbers near the range limit */
            int r = (int)tu_rand(st, 0, 3);
            m->c[k][r][3] = tu_rand(st, 0, 1) < 0.5 ? 1e150 : 1e160;
            break;
        }
        case 5: /* a box near the range limit, or flat */
            if (tu_rand(st, 0, 1) < 0.5)
                q.a.hi[0] = q.a.lo[0];
            else
                q.b.hi[1] = q.b.lo[1] + 1e150;
            break;
        case 6: /* w of the lowest representable sizes */
            for (int j = 0; j <= d; j++)
                m->c[j][3][3] *= 1e-300;
            break;
        case 7: { /* rigid but for a stretch along one local axis: one entry of
                     U^T U - w^2 I off zero, the others zero */
            int col = (i / 10) % 3;
            double f = tu_rand(st, 0.6, 1.6);
            for (int j = 0; j <= d; j++)
                for (int r = 0; r < 3; r++)
                    m->c[j][r][col] *= f;
            break;
        }
        case 8: { /* the whole motion times up to 1e60 (the same map): the sum of
                     the coefficients' magnitudes, w's with them, about the range
                     limit */
            double f = pow(10.0, tu_rand(st, 58.0, 60.0));
            for (int j = 0; j <= d; j++)
                for (int r = 0; r < 4; r++)
                    for (int c = 0; c < 4; c++)
                        m->c[j][r][c] *= f;
            break;
        }
        default: /* w a zero polynomial but for one power */
            for (int j = 0; j <= d; j++)
                m->c[j][3][3] = j == k ? 1.0 : 0.0;
            break;
        }
        print_result("edges", i, &q);
    }
}

/* Invalid input in A, in B or in both (the reason and box must agree). */
static void group_invalid(int count, unsigned long long *st)
{
    for (int i = 0; i < count; i++) {
        boxtoi_query q;
        int d = (int)tu_rand(st, 0, 5);
        random_pair(st, &q, d, d, 0);
        q.t0 = 0.0;
        q.t1 = 1.0;
        for (int which = 1; which <= 2; which++) {
            if (!(((i / 8) % 3 + 1) & which)) /* A, B, both, in turn */
                continue;
            boxtoi_box *b = which == 1 ? &q.a : &q.b;
            boxtoi_motion *m = which == 1 ? &q.motion_a : &q.motion_b;
            int k = (int)tu_rand(st, 0, d + 1);
            switch ((i + which) % 8) {
            case 0: b->lo[(int)tu_rand(st, 0, 3)] = NAN; break;
            case 1: b->hi[2] = b->lo[2] - 0.1; break;
            case 2: {
                int r = (int)tu_rand(st, 0, 3);
                m->c[k][r][(int)tu_rand(st, 0, 4)] = INFINITY;
                break;
            }
            case 3: m->c[k][3][(int)tu_rand(st, 0, 3)] = 0.25; break;
            case 4: /* w crosses zero (or is zero) */
                for (int j = 0; j <= d; j++)
                    m->c[j][3][3] = d == 0 ? 0.0 : j == 0 ? -0.5 : j == 1 ? 1.0 : 0.0;
                break;
            case 5: /* a singular 3x3 part throughout */
                for (int j = 0; j <= d; j++)
                    for (int r = 0; r < 3; r++)
                        m->c[j][r][1] = 2.0 * m->c[j][r][0];
                break;
            case 6:
                if (tu_rand(st, 0, 1) < 0.5)
                    b->hi[0] = INFINITY;
                else
                    m->degree = tu_rand(st, 0, 1) < 0.5 ? -1 : BOXTOI_MAX_DEGREE + 1;
                break;
            default: m->c[k][0][0] = NAN; break;
            }
        }
        print_result("invalid", i, &q);
    }
}

int main(void)
{
    unsigned long long st = 20261122;
    printf("lanes %d\n", bx_lanes_built()); /* as the library was built */
    fprintf(stderr, "boxtoi_solve runs the %s build\n", boxtoi_solver_build());
    group_motions("rigid", 0, 3000, &st);
    group_motions("affine", 1, 1500, &st);
    group_edges(1600, &st);
    group_invalid(400, &st);
    return 0;
}
