/* Shared helpers for the solver's tests; see lib-util.h. */
#include "lib-util.h"

#include <float.h>
#include <math.h>
#include <string.h>

void tu_identity3(double m[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = i == j ? 1.0 : 0.0;
}

void tu_rot_x(double m[3][3], double a)
{
    double c = cos(a), s = sin(a);
    tu_identity3(m);
    m[1][1] = c;
    m[1][2] = -s;
    m[2][1] = s;
    m[2][2] = c;
}

void tu_rot_y(double m[3][3], double a)
{
    double c = cos(a), s = sin(a);
    tu_identity3(m);
    m[0][0] = c;
    m[0][2] = s;
    m[2][0] = -s;
    m[2][2] = c;
}

void tu_rot_z(double m[3][3], double a)
{
    double c = cos(a), s = sin(a);
    tu_identity3(m);
    m[0][0] = c;
    m[0][1] = -s;
    m[1][0] = s;
    m[1][1] = c;
}

void tu_mul3(const double a[3][3], const double b[3][3], double out[3][3])
{
    double r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(out, r, sizeof r);
}

void tu_mul3v(const double m[3][3], const double v[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; i++)
        r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    memcpy(out, r, sizeof r);
}

double tu_inverse3(const double m[3][3], double out[3][3])
{
    double c[3][3];
    /* Cofactor matrix, transposed as we go (adjugate). */
    c[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    c[0][1] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
    c[0][2] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
    c[1][0] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    c[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
    c[1][2] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
    c[2][0] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    c[2][1] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
    c[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    double det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
    if (det == 0.0)
        return 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[i][j] = c[i][j] / det;
    return det;
}

void tu_cross(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0]};
    memcpy(out, r, sizeof r);
}

double tu_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

double tu_norm(const double a[3])
{
    return sqrt(tu_dot(a, a));
}

void tu_motion_zero(boxtoi_motion *m, int degree)
{
    memset(m, 0, sizeof *m);
    m->degree = degree;
}

void tu_motion_scale(boxtoi_motion *m, double f)
{
    for (int k = 0; k <= m->degree; k++)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                m->c[k][r][c] *= f;
}

void tu_motion_rot_trans(boxtoi_motion *m, const double r[3][3],
                         const double p[][3], int pdeg)
{
    tu_motion_zero(m, pdeg);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m->c[0][i][j] = r[i][j];
    for (int k = 0; k <= pdeg; k++)
        for (int i = 0; i < 3; i++)
            m->c[k][i][3] = p[k][i];
    m->c[0][3][3] = 1.0;
}

void tu_motion_trans(boxtoi_motion *m, const double p[][3], int pdeg)
{
    double r[3][3];
    tu_identity3(r);
    tu_motion_rot_trans(m, r, p, pdeg);
}

void tu_eval(const boxtoi_motion *m, double t, double out[4][4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double v = 0.0;
            for (int k = m->degree; k >= 0; k--)
                v = v * t + m->c[k][i][j];
            out[i][j] = v;
        }
}

void tu_apply(const boxtoi_motion *m, double t, const double x[3],
              double out[3])
{
    double e[4][4];
    tu_eval(m, t, e);
    double w = e[3][3];
    for (int i = 0; i < 3; i++)
        out[i] = (e[i][0] * x[0] + e[i][1] * x[1] + e[i][2] * x[2] + e[i][3]) / w;
}

int tu_to_local_at(const double e[4][4], const double y[3], double out[3])
{
    double a[3][3], inv[3][3], r[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            a[i][j] = e[i][j];
    if (tu_inverse3(a, inv) == 0.0)
        return 0;
    for (int i = 0; i < 3; i++)
        r[i] = e[3][3] * y[i] - e[i][3];
    tu_mul3v(inv, r, out);
    return 1;
}

double tu_box_excess(const boxtoi_box *box, const double x[3])
{
    double e = 0.0;
    for (int i = 0; i < 3; i++) {
        if (box->lo[i] - x[i] > e)
            e = box->lo[i] - x[i];
        if (x[i] - box->hi[i] > e)
            e = x[i] - box->hi[i];
    }
    return e;
}

double tu_box_size(const boxtoi_box *box)
{
    double s = 0.0;
    for (int i = 0; i < 3; i++)
        if (box->hi[i] - box->lo[i] > s)
            s = box->hi[i] - box->lo[i];
    return s;
}

void tu_parallelepiped(const boxtoi_box *box, const boxtoi_motion *m,
                       double t, double centre[3], double g[3][3])
{
    double e[4][4];
    tu_eval(m, t, e);
    double w = e[3][3];
    double mid[3];
    for (int i = 0; i < 3; i++)
        mid[i] = 0.5 * (box->lo[i] + box->hi[i]);
    for (int i = 0; i < 3; i++)
        centre[i] = (e[i][0] * mid[0] + e[i][1] * mid[1] + e[i][2] * mid[2] + e[i][3]) / w;
    for (int k = 0; k < 3; k++) {
        double h = 0.5 * (box->hi[k] - box->lo[k]);
        for (int i = 0; i < 3; i++)
            g[k][i] = e[i][k] * h / w;
    }
}

/* Separation of the two parallelepipeds along axis n (any length, != 0). */
static double sep_along(const double n[3], const double ca[3],
                        const double ga[3][3], const double cb[3],
                        const double gb[3][3])
{
    double d[3] = {cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]};
    double s = fabs(tu_dot(n, d));
    for (int k = 0; k < 3; k++)
        s -= fabs(tu_dot(n, ga[k])) + fabs(tu_dot(n, gb[k]));
    return s / tu_norm(n);
}

double tu_sat_separation(const boxtoi_box *a, const boxtoi_motion *ma,
                         const boxtoi_box *b, const boxtoi_motion *mb,
                         double t)
{
    double ca[3], ga[3][3], cb[3], gb[3][3];
    tu_parallelepiped(a, ma, t, ca, ga);
    tu_parallelepiped(b, mb, t, cb, gb);
    /* Edge directions: the columns of the 3x3 parts (valid also for
     * zero-extent axes, whose half-edge vector is 0). */
    double ea[3][3], eb[3][3], e4[4][4];
    tu_eval(ma, t, e4);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            ea[k][i] = e4[i][k];
    tu_eval(mb, t, e4);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            eb[k][i] = e4[i][k];
    double best = -INFINITY;
    double n[3];
    for (int k = 0; k < 3; k++) {
        tu_cross(ea[(k + 1) % 3], ea[(k + 2) % 3], n);
        double s = sep_along(n, ca, ga, cb, gb);
        if (s > best)
            best = s;
        tu_cross(eb[(k + 1) % 3], eb[(k + 2) % 3], n);
        s = sep_along(n, ca, ga, cb, gb);
        if (s > best)
            best = s;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            tu_cross(ea[i], eb[j], n);
            double len = tu_norm(n);
            if (len < 1e-9 * tu_norm(ea[i]) * tu_norm(eb[j]))
                continue; /* parallel edges: covered by the face axes */
            double s = sep_along(n, ca, ga, cb, gb);
            if (s > best)
                best = s;
        }
    return best;
}

void tu_feature_name(const boxtoi_feature *f, char buf[16])
{
    static const char letters[3] = {'X', 'Y', 'Z'};
    int n = 0, count = 0;
    for (int i = 0; i < 3; i++)
        if (f->side[i] != 0)
            count++;
    for (int i = 0; i < 3; i++) {
        if (f->side[i] == 0)
            continue;
        if (count == 2 && n > 0)
            buf[n++] = '-';
        buf[n++] = letters[i];
        if (f->side[i] > 0)
            buf[n++] = '\'';
    }
    buf[n] = '\0';
}

boxtoi_feature tu_feature(int sx, int sy, int sz)
{
    boxtoi_feature f;
    f.side[0] = (signed char)sx;
    f.side[1] = (signed char)sy;
    f.side[2] = (signed char)sz;
    return f;
}

double tu_rand(unsigned long long *state, double lo, double hi)
{
    /* 64-bit linear congruential generator (Knuth's MMIX constants). */
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = (double)(*state >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

void tu_rand_unit_quaternion(unsigned long long *state, double q[4])
{
    double n = 0.0;
    for (int c = 0; c < 4; c++) {
        q[c] = tu_rand(state, -1, 1);
        n += q[c] * q[c];
    }
    for (int c = 0; c < 4; c++)
        q[c] /= sqrt(n);
}

void tu_quat_mul(const double a[4], const double b[4], double p[4])
{
    p[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    p[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    p[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    p[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void tu_quat_rotate(const double q[4], const double x[3], double out[3])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double w = q[0] / n, u[3] = {q[1] / n, q[2] / n, q[3] / n};
    /* x' = x + 2 w (u x x) + 2 u x (u x x) */
    double c1[3], c2[3];
    tu_cross(u, x, c1);
    tu_cross(u, c1, c2);
    for (int i = 0; i < 3; i++)
        out[i] = x[i] + 2.0 * w * c1[i] + 2.0 * c2[i];
}

long double tu_binom(int n, int k)
{
    long double r = 1.0L;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return roundl(r);
}

tu_poly tu_poly_const(double c)
{
    tu_poly p;
    memset(&p, 0, sizeof p);
    p.n = 0;
    p.a[0] = c;
    return p;
}

tu_poly tu_poly_mul(tu_poly x, tu_poly y)
{
    tu_poly r;
    memset(&r, 0, sizeof r);
    r.n = x.n + y.n;
    for (int i = 0; i <= x.n; i++)
        for (int j = 0; j <= y.n; j++)
            r.a[i + j] += x.a[i] * y.a[j];
    return r;
}

tu_poly tu_poly_add(tu_poly x, tu_poly y, double sy)
{
    tu_poly r;
    memset(&r, 0, sizeof r);
    r.n = x.n > y.n ? x.n : y.n;
    for (int k = 0; k <= r.n; k++)
        r.a[k] = (k <= x.n ? x.a[k] : 0.0) + sy * (k <= y.n ? y.a[k] : 0.0);
    return r;
}

/* The motion M(t) = E(t - tc) from entries E given in tau. */
void tu_motion_from_tau(boxtoi_motion *m, tu_poly e[4][4], double tc)
{
    int d = 0;
    memset(m, 0, sizeof *m);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (e[i][j].n > d)
                d = e[i][j].n;
    m->degree = d;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double b[BOXTOI_MAX_DEGREE + 1] = {0};
            for (int k = 0; k <= e[i][j].n; k++)
                b[k] = e[i][j].a[k];
            /* b(x) <- b(x - tc) */
            for (int s = 0; s < d; s++)
                for (int k = d - 1; k >= s; k--)
                    b[k] -= tc * b[k + 1];
            for (int k = 0; k <= d; k++)
                m->c[k][i][j] = b[k];
        }
}

/*
 * Rigid rational motion in tau: quaternion path q(tau) = sum q[k] tau^k
 * (k <= qdeg), position p(tau) = sum p[k] tau^k (k <= pdeg):
 * M = [Rq(tau), p(tau) |q|^2; 0 0 0 |q|^2].
 */
void tu_rigid_motion(boxtoi_motion *m, const double q[][4], int qdeg,
                     const double p[][3], int pdeg, double tc)
{
    tu_poly qc[4], e[4][4], pp[3], n2;
    for (int c = 0; c < 4; c++) {
        qc[c] = tu_poly_const(0.0);
        qc[c].n = qdeg;
        for (int k = 0; k <= qdeg; k++)
            qc[c].a[k] = q[k][c];
    }
    for (int c = 0; c < 3; c++) {
        pp[c] = tu_poly_const(0.0);
        pp[c].n = pdeg;
        for (int k = 0; k <= pdeg; k++)
            pp[c].a[k] = p[k][c];
    }
    tu_poly ww = tu_poly_mul(qc[0], qc[0]), xx = tu_poly_mul(qc[1], qc[1]);
    tu_poly yy = tu_poly_mul(qc[2], qc[2]), zz = tu_poly_mul(qc[3], qc[3]);
    tu_poly xy = tu_poly_mul(qc[1], qc[2]), xz = tu_poly_mul(qc[1], qc[3]);
    tu_poly yz = tu_poly_mul(qc[2], qc[3]), wx = tu_poly_mul(qc[0], qc[1]);
    tu_poly wy = tu_poly_mul(qc[0], qc[2]), wz = tu_poly_mul(qc[0], qc[3]);
    n2 = tu_poly_add(tu_poly_add(ww, xx, 1), tu_poly_add(yy, zz, 1), 1);
    e[0][0] = tu_poly_add(tu_poly_add(ww, xx, 1), tu_poly_add(yy, zz, 1), -1);
    e[0][1] = tu_poly_add(xy, wz, -1);
    e[0][1] = tu_poly_add(e[0][1], e[0][1], 1);
    e[0][2] = tu_poly_add(xz, wy, 1);
    e[0][2] = tu_poly_add(e[0][2], e[0][2], 1);
    e[1][0] = tu_poly_add(xy, wz, 1);
    e[1][0] = tu_poly_add(e[1][0], e[1][0], 1);
    e[1][1] = tu_poly_add(tu_poly_add(ww, xx, -1), tu_poly_add(yy, zz, -1), 1);
    e[1][2] = tu_poly_add(yz, wx, -1);
    e[1][2] = tu_poly_add(e[1][2], e[1][2], 1);
    e[2][0] = tu_poly_add(xz, wy, -1);
    e[2][0] = tu_poly_add(e[2][0], e[2][0], 1);
    e[2][1] = tu_poly_add(yz, wx, 1);
    e[2][1] = tu_poly_add(e[2][1], e[2][1], 1);
    e[2][2] = tu_poly_add(tu_poly_add(ww, xx, -1), tu_poly_add(yy, zz, -1), -1);
    for (int i = 0; i < 3; i++)
        e[i][3] = tu_poly_mul(pp[i], n2);
    e[3][0] = e[3][1] = e[3][2] = tu_poly_const(0.0);
    e[3][3] = n2;
    tu_motion_from_tau(m, e, tc);
}

boxtoi_box tu_box(double x0, double y0, double z0, double x1, double y1, double z1)
{
    boxtoi_box b = {{x0, y0, z0}, {x1, y1, z1}};
    return b;
}

boxtoi_query tu_query(boxtoi_box a, const boxtoi_motion *ma, boxtoi_box b,
                      const boxtoi_motion *mb, double t0, double t1)
{
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    q.a = a;
    q.b = b;
    q.motion_a = *ma;
    q.motion_b = *mb;
    q.t0 = t0;
    q.t1 = t1;
    return q;
}

boxtoi_query tu_swapped(const boxtoi_query *q)
{
    boxtoi_query s = *q;
    s.a = q->b;
    s.b = q->a;
    s.motion_a = q->motion_b;
    s.motion_b = q->motion_a;
    return s;
}

void tu_scale_lengths(boxtoi_query *q, int e)
{
    boxtoi_box *box[2] = {&q->a, &q->b};
    boxtoi_motion *m[2] = {&q->motion_a, &q->motion_b};
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 3; i++) {
            box[j]->lo[i] = ldexp(box[j]->lo[i], e);
            box[j]->hi[i] = ldexp(box[j]->hi[i], e);
        }
        for (int k = 0; k <= m[j]->degree; k++)
            for (int r = 0; r < 3; r++)
                m[j]->c[k][r][3] = ldexp(m[j]->c[k][r][3], e);
    }
}

void tu_scale_time(boxtoi_query *q, int e)
{
    boxtoi_motion *m[2] = {&q->motion_a, &q->motion_b};
    for (int j = 0; j < 2; j++)
        for (int k = 0; k <= m[j]->degree; k++)
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    m[j]->c[k][r][c] = ldexp(m[j]->c[k][r][c], -e * k);
    q->t0 = ldexp(q->t0, e);
    q->t1 = ldexp(q->t1, e);
}

boxtoi_kind tu_swapped_kind(boxtoi_kind kind)
{
    return kind == BOXTOI_VERTEX_FACE   ? BOXTOI_FACE_VERTEX
           : kind == BOXTOI_FACE_VERTEX ? BOXTOI_VERTEX_FACE
                                        : kind;
}

double tu_coord_rounding(const boxtoi_query *q)
{
    double lo[3], hi[3], far = 0.0;
    for (int j = 0; j < 2; j++)
        if (boxtoi_swept_aabb(j ? &q->b : &q->a, j ? &q->motion_b : &q->motion_a, q->t0,
                              q->t1, lo, hi) == BOXTOI_REASON_NONE)
            for (int i = 0; i < 3; i++)
                far = fmax(far, fmax(fabs(lo[i]), fabs(hi[i])));
    return 8 * DBL_EPSILON * far;
}

boxtoi_query tu_rod_crossing(double th, double b[3])
{
    const double e = 1e-3, is2 = sqrt(0.5), ps = 0.5;
    double n[3] = {0.0, is2, is2}, c[3];
    b[0] = cos(th);
    b[1] = sin(th) * is2;
    b[2] = -sin(th) * is2;
    tu_cross(b, n, c);
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    boxtoi_motion_identity(&q.motion_a);
    boxtoi_motion *mb = &q.motion_b;
    mb->degree = 1;
    mb->c[0][3][3] = 1.0;
    for (int r = 0; r < 3; r++) {
        mb->c[0][r][0] = b[r];
        mb->c[0][r][1] = cos(ps) * n[r] + sin(ps) * c[r];
        mb->c[0][r][2] = -sin(ps) * n[r] + cos(ps) * c[r];
        mb->c[0][r][3] = (r == 0 ? 1.2 : 0.0) + n[r];
        mb->c[1][r][3] = -2.0 * n[r];
    }
    q.a = (boxtoi_box){{-2, -e, -e}, {2, e, e}};
    q.b = (boxtoi_box){{-0.5, 0, 0}, {0.5, 0, 0}};
    q.t0 = 0.0;
    q.t1 = 1.0;
    return q;
}
