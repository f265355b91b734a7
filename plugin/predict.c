/*
 * Motion of a free body over one step, as ODE's dWorldStep moves it.
 *
 * ODE 0.16 integrates a body without joints in this order (step.cpp,
 * util.cpp dxStepBody):
 *   facc += m g                       (when the body's gravity mode is on)
 *   tacc += gyroscopic torque          (when its gyroscopic mode is on)
 *   v1 = v0 + h facc / m
 *   w1 = w0 + h Iw^-1 tacc             (Iw = R I R^T at the step's start)
 *   w1 is capped to the maximum angular speed, when one is set
 *   p(h) = p0 + h v1
 *   q(h) = normalize(q0 + (h/2) (0, w1) * q0)
 * With a = facc / m and alpha = Iw^-1 tacc this is, for every h,
 *   p(h) = p0 + v0 h + a h^2
 *   q(h) ~ q0 + h D(w0) + h^2 D(alpha),  D(w) = (1/2) (0, w) * q0,
 * a polynomial quaternion path of degree 2 (1 without torque), which
 * boxtoi_motion_rigid turns into an exact rational motion of degree <= 6.
 * With the gyroscopic mode on and no other torque, the gyroscopic torque
 * depends on the step length, and the quaternion ODE reaches after a step
 * of any length t is that of a cubic (gyro_exact): a motion of degree <= 8.
 *
 * What is exact and what is not:
 *  - no joints, no angular speed cap, and the gyroscopic mode off or no
 *    torque acting (ODE's default mode, for a body no torque is applied
 *    to): the motion is the integrator's path for every step length in
 *    [0, h] (to rounding), so a sub-step of any length lands on it;
 *  - gyroscopic mode on with a torque: ODE's implicit gyroscopic torque is
 *    computed here for the full step h and held constant, so the motion
 *    is exact at t = h and an approximation for shorter steps (the error
 *    is second order in the angular velocity and vanishes for spheres and
 *    for rotation about a principal axis).  A point's error grows with its
 *    distance from the body's centre of mass (a geom offset);
 *  - angular speed cap: applied as ODE does at t = h (exact when there is no
 *    torque, approximate inside the step otherwise; with the gyroscopic
 *    mode on, a cap the angular speed may reach within the step makes the
 *    motion the approximation above);
 *  - finite rotation mode: treated as the default infinitesimal update
 *    (approximate);
 *  - joints and contacts: their constraint forces are unknown before the
 *    step; the free-body path is used (approximate);
 *  - disabled bodies do not move; kinematic bodies move with constant
 *    velocities.
 * Damping is applied by ODE to the velocities after the positions have been
 * updated, so it does not change the current step's path.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "internal.h"

/* out = (0, w) * q, quaternions (w, x, y, z), times 1/2. */
static void half_wq(const double w[3], const double q[4], double out[4])
{
    out[0] = 0.5 * (-w[0] * q[1] - w[1] * q[2] - w[2] * q[3]);
    out[1] = 0.5 * (w[0] * q[0] + w[1] * q[3] - w[2] * q[2]);
    out[2] = 0.5 * (-w[0] * q[3] + w[1] * q[0] + w[2] * q[1]);
    out[3] = 0.5 * (w[0] * q[2] - w[1] * q[1] + w[2] * q[0]);
}

/* Inverse of a 3x3 matrix; returns 0 when singular. */
static int invert3(const double a[3][3], double out[3][3])
{
    double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    double c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    double c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    double det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    if (det == 0 || !isfinite(det))
        return 0;
    double r = 1.0 / det;
    out[0][0] = c00 * r;
    out[1][0] = c01 * r;
    out[2][0] = c02 * r;
    out[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * r;
    out[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * r;
    out[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * r;
    out[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * r;
    out[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * r;
    out[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * r;
    return 1;
}

static void mul33(const double a[3][3], const double b[3][3], double out[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(out, t, sizeof t);
}

static void mul3v(const double a[3][3], const double v[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = a[i][0] * v[0] + a[i][1] * v[1] + a[i][2] * v[2];
    memcpy(out, t, sizeof t);
}

/* R X R^T */
static void rotate_tensor(const double R[3][3], const double X[3][3],
                          double out[3][3])
{
    double Rt[3][3], t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Rt[i][j] = R[j][i];
    mul33(X, Rt, t);
    mul33(R, t, out);
}

/*
 * ODE's implicit gyroscopic torque for a step of length h (Lacoursiere's
 * stabilised form): with I the world inertia and L = I w,
 * tau = (I (I + h [-L]x)^-1 - 1) L / h, where [-L]x v = v x L.
 */
static void gyro_torque(const double I[3][3], const double w[3], double h,
                        double tau[3])
{
    double L[3], M[3][3], Minv[3][3], K[3][3];
    tau[0] = tau[1] = tau[2] = 0;
    if (!(h > 0))
        return;
    mul3v(I, w, L);
    /* cross matrix of -L, scaled by h, plus I */
    M[0][0] = I[0][0];
    M[0][1] = I[0][1] + h * L[2];
    M[0][2] = I[0][2] - h * L[1];
    M[1][0] = I[1][0] - h * L[2];
    M[1][1] = I[1][1];
    M[1][2] = I[1][2] + h * L[0];
    M[2][0] = I[2][0] + h * L[1];
    M[2][1] = I[2][1] - h * L[0];
    M[2][2] = I[2][2];
    if (!invert3(M, Minv))
        return;
    mul33(I, Minv, K);
    for (int i = 0; i < 3; i++)
        K[i][i] -= 1;
    double Lh[3] = {L[0] / h, L[1] / h, L[2] / h};
    mul3v(K, Lh, tau);
}

static double norm3(const double x[3])
{
    return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

double bt_min_eigen_sym3(const double A[3][3])
{
    double p1 = A[0][1] * A[0][1] + A[0][2] * A[0][2] + A[1][2] * A[1][2];
    double q = (A[0][0] + A[1][1] + A[2][2]) / 3;
    if (p1 == 0)
        return fmin(A[0][0], fmin(A[1][1], A[2][2]));
    double p2 = (A[0][0] - q) * (A[0][0] - q) + (A[1][1] - q) * (A[1][1] - q)
                + (A[2][2] - q) * (A[2][2] - q) + 2 * p1;
    double p = sqrt(p2 / 6);
    double B[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            B[i][j] = (A[i][j] - (i == j ? q : 0)) / p;
    double detB = B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1])
                  - B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0])
                  + B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0]);
    double r = detB / 2;
    double phi = r <= -1 ? M_PI / 3 : r >= 1 ? 0 : acos(r) / 3;
    return q + 2 * p * cos(phi + 2 * M_PI / 3);
}

/*
 * The gyroscopic step in closed form for every step length t.  ODE's
 * velocity after a step of t with no torque but the gyroscopic one is
 * w1(t) = w0 + t Iw^-1 tau(t) = (Iw + t [-L]x)^-1 L, L = Iw w0 (see
 * gyro_torque), = adj(M(t)) L / det(M(t)) with M(t) = Iw + t [-L]x, whose
 * adjugate is quadratic in t and whose determinant, det(Iw) + t^2 L.Iw L,
 * is positive.  The quaternion ODE reaches, normalize(q0 + (t/2) (0, w1(t))
 * q0), is therefore that of the cubic det(M(t)) q0 + (t/2) (0, adj(M(t)) L)
 * q0 (divided by det(Iw) here): qc[0..3].  And |w1(t)| never exceeds
 * sqrt(w0.Iw w0 / lambda_min(Iw)) (Iw w1 + t w1 x L = L, dotted with w1:
 * w1.Iw w1 = w1.Iw w0, so |w1|_Iw <= |w0|_Iw), returned in *wbound.
 *
 * The torque of the whole step h held constant (gyro_torque) gives the
 * velocity wh(t) = w0 - t M(h)^-1 g, g = w0 x L, against w1(t) = w0 -
 * t M(t)^-1 g: they differ by t (h - t) M(t)^-1 [-L]x M(h)^-1 g, at most
 * t (h - t) |L| |g| / lambda_min^2 (|M^-1 v| <= |v| / lambda_min, the
 * skew part adding nothing to v.M v), and the two rotations by t times
 * that, at most (4/27) h^3 |L| |g| / lambda_min^2.  That is all but 0 for
 * a body spinning slowly or about a principal axis, and for a cube, whose
 * inertia is isotropic: where it is below GYRO_HELD_TOL the degree-6
 * motion of the held torque is as exact, and this returns 0 too.
 * Returns 0 when Iw is not positive definite (then nothing is written).
 */
#define GYRO_HELD_TOL 1e-13
static int gyro_exact(const double Iw[3][3], const double w0[3], double h,
                      const double q0[4], double qc[4][4], double *wbound)
{
    double L[3];
    mul3v(Iw, w0, L);
    /* lambda_min taken low by the closed form's rounding: a few
       DBL_EPSILON times the largest eigenvalue, and where lambda_min is
       nearly repeated about sqrt(DBL_EPSILON) times the spread, which for
       an inertia (no principal moment above the sum of the other two) is
       far below 1e-6 of lambda_min itself */
    double lmin = bt_min_eigen_sym3(Iw);
    lmin = lmin * (1 - 1e-6) - 64 * DBL_EPSILON * (Iw[0][0] + Iw[1][1] + Iw[2][2]);
    if (!(lmin > 0) || !isfinite(lmin))
        return 0;
    double g[3] = {w0[1] * L[2] - w0[2] * L[1], w0[2] * L[0] - w0[0] * L[2],
                   w0[0] * L[1] - w0[1] * L[0]};
    double nL = norm3(L), nw = norm3(w0);
    /* g less its rounding (and L's, Iw's: a cube's Iw is only isotropic
       to rounding once turned into the world) */
    double ng = norm3(g) - 16 * DBL_EPSILON * nw * nL;
    double held = 4.0 / 27.0 * h * h * h * nL * fmax(ng, 0.0) / (lmin * lmin);
    if (!(held > GYRO_HELD_TOL))
        return 0;
    /* M(t) = A + t K, K = [-L]x: K v = v x L */
    double K[3][3] = {{0, L[2], -L[1]}, {-L[2], 0, L[0]}, {L[1], -L[0], 0}};
    /* signed cofactors C[i][j] = c0 + c1 t + c2 t^2 */
    double C[3][3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            double a1 = Iw[i1][j1], b1 = K[i1][j1], a2 = Iw[i2][j2], b2 = K[i2][j2];
            double a3 = Iw[i1][j2], b3 = K[i1][j2], a4 = Iw[i2][j1], b4 = K[i2][j1];
            C[i][j][0] = a1 * a2 - a3 * a4;
            C[i][j][1] = a1 * b2 + b1 * a2 - (a3 * b4 + b3 * a4);
            C[i][j][2] = b1 * b2 - b3 * b4;
        }
    double d0 = Iw[0][0] * C[0][0][0] + Iw[0][1] * C[0][1][0] + Iw[0][2] * C[0][2][0];
    double LIL = L[0] * L[0] * Iw[0][0] + L[1] * L[1] * Iw[1][1] + L[2] * L[2] * Iw[2][2]
                 + 2 * (L[0] * L[1] * Iw[0][1] + L[0] * L[2] * Iw[0][2] + L[1] * L[2] * Iw[1][2]);
    if (!(d0 > 0) || !isfinite(d0) || !isfinite(LIL))
        return 0;
    /* adj(M(t)) L, adj = C^T, over det(Iw) */
    double aL[3][3];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            aL[k][j] = (C[0][j][k] * L[0] + C[1][j][k] * L[1] + C[2][j][k] * L[2]) / d0;
    double dd[4] = {1, 0, LIL / d0, 0};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++)
            qc[k][i] = dd[k] * q0[i];
    for (int k = 1; k < 4; k++) {
        double hq[4];
        half_wq(aL[k - 1], q0, hq);
        for (int i = 0; i < 4; i++)
            qc[k][i] += hq[i];
    }
    double e = w0[0] * L[0] + w0[1] * L[1] + w0[2] * L[2];
    *wbound = sqrt(fmax(e, 0) / lmin) * (1 + 1e-9);
    return isfinite(*wbound);
}

static void pose_rigid(const dReal *pos, const dReal *q, boxtoi_motion *m)
{
    double qq[1][4] = {{q[0], q[1], q[2], q[3]}};
    double pp[1][3] = {{pos[0], pos[1], pos[2]}};
    boxtoi_motion_rigid(m, qq, 0, pp, 0);
}

/*
 * The rigid motion of quaternion path qc[0] + qc[1] t + ... + qc[3] t^3
 * and position pos + v t + a t^2, each of the degree its last nonzero
 * coefficient gives (at most 3 and 2: a motion of degree <= 8, within
 * boxtoi_motion_rigid's range; were it refused, the pose q0r at pos).
 * Returns the motion's degree.
 */
static int rigid_paths(boxtoi_motion *m, const double qc[4][4], const dReal *pos,
                       const double v[3], const double a[3], const dReal *q0r)
{
    double pc[3][3];
    int qdeg = 0, pdeg = 0;
    for (int k = 1; k < 4; k++)
        for (int i = 0; i < 4; i++)
            if (qc[k][i] != 0)
                qdeg = k;
    for (int i = 0; i < 3; i++) {
        pc[0][i] = pos[i];
        pc[1][i] = v[i];
        pc[2][i] = a[i];
        if (a[i] != 0)
            pdeg = 2;
        else if (v[i] != 0 && pdeg < 1)
            pdeg = 1;
    }
    if (boxtoi_motion_rigid(m, qc, qdeg, (const double(*)[3])pc, pdeg) != BOXTOI_REASON_NONE)
        pose_rigid(pos, q0r, m);
    return m->degree;
}

int bt_predict_body(dWorldID world, dBodyID body, double h, boxtoi_motion *m)
{
    return bt_predict_body_terms(world, body, h, m, NULL);
}

int bt_predict_body_terms(dWorldID world, dBodyID body, double h,
                          boxtoi_motion *m, bt_body_terms *terms)
{
    const dReal *pos = dBodyGetPosition(body);
    const dReal *q0r = dBodyGetQuaternion(body);
    if (terms)
        memset(terms, 0, sizeof *terms);
    if (!dBodyIsEnabled(body)) {
        pose_rigid(pos, q0r, m);
        return m->degree;
    }
    if (!world)
        world = dBodyGetWorld(body);

    const dReal *vr = dBodyGetLinearVel(body);
    const dReal *wr = dBodyGetAngularVel(body);
    const dReal *Rr = dBodyGetRotation(body);
    double q0[4] = {q0r[0], q0r[1], q0r[2], q0r[3]};
    double v0[3] = {vr[0], vr[1], vr[2]};
    double w0[3] = {wr[0], wr[1], wr[2]};
    double R[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = Rr[i * 4 + j];

    double a[3] = {0, 0, 0}, alpha[3] = {0, 0, 0};
    int exact_gyro = 0;
    double gq[4][4], gbound = 0;
    if (!dBodyIsKinematic(body)) {
        dMass mass;
        dBodyGetMass(body, &mass);
        double mm = mass.mass;
        const dReal *F = dBodyGetForce(body);
        const dReal *T = dBodyGetTorque(body);
        double f[3] = {F[0], F[1], F[2]};
        double tau[3] = {T[0], T[1], T[2]};
        if (dBodyGetGravityMode(body)) {
            dVector3 g;
            dWorldGetGravity(world, g);
            for (int i = 0; i < 3; i++)
                f[i] += mm * g[i];
        }
        double invm = 1.0 / mm;
        for (int i = 0; i < 3; i++)
            a[i] = f[i] * invm;

        double Ib[3][3], Ibinv[3][3], Iw[3][3], Iwinv[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                Ib[i][j] = mass.I[i * 4 + j];
        if (!invert3(Ib, Ibinv)) {
            /* ODE falls back to the identity for a bad inertia */
            memset(Ibinv, 0, sizeof Ibinv);
            Ibinv[0][0] = Ibinv[1][1] = Ibinv[2][2] = 1;
        }
        rotate_tensor(R, Ibinv, Iwinv);
        if (dBodyGetGyroscopicMode(body) && mm > 0) {
            double g[3];
            rotate_tensor(R, Ib, Iw);
            /* no torque but the gyroscopic one: the closed form, exact for
               every step length (unless the angular speed cap may act, or
               the torque held constant is as exact) */
            if (h > 0 && tau[0] == 0 && tau[1] == 0 && tau[2] == 0
                && gyro_exact(Iw, w0, h, q0, gq, &gbound)
                && !(gbound > dBodyGetMaxAngularSpeed(body)))
                exact_gyro = 1;
            else {
                gyro_torque(Iw, w0, h, g);
                for (int i = 0; i < 3; i++)
                    tau[i] += g[i];
            }
        }
        mul3v(Iwinv, tau, alpha);
    }

    if (exact_gyro) {
        if (terms) {
            memcpy(terms->v, v0, sizeof v0);
            memcpy(terms->a, a, sizeof a);
            terms->wn = gbound;
            terms->alphan = 0;
        }
        return rigid_paths(m, (const double(*)[4])gq, pos, v0, a, q0r);
    }
    double maxw = dBodyGetMaxAngularSpeed(body);
    if (isfinite(maxw)) {
        double w1[3], n2 = 0;
        for (int i = 0; i < 3; i++) {
            w1[i] = w0[i] + h * alpha[i];
            n2 += w1[i] * w1[i];
        }
        if (n2 > maxw * maxw) {
            double c = maxw / sqrt(n2);
            for (int i = 0; i < 3; i++) {
                w0[i] *= c;
                alpha[i] *= c;
            }
        }
    }

    if (terms) {
        memcpy(terms->v, v0, sizeof v0);
        memcpy(terms->a, a, sizeof a);
        terms->wn = norm3(w0);
        terms->alphan = norm3(alpha);
    }

    double qc[4][4] = {{0}};
    memcpy(qc[0], q0, sizeof q0);
    half_wq(w0, q0, qc[1]);
    half_wq(alpha, q0, qc[2]);
    return rigid_paths(m, (const double(*)[4])qc, pos, v0, a, q0r);
}

void bt_path_motion(const bt_body_path *path, boxtoi_motion *m,
                    bt_body_terms *terms)
{
    double qc[2][4], pc[2][3];
    int qdeg = 0, pdeg = 0;
    double qn = 0, dqn = 0;
    for (int i = 0; i < 4; i++) {
        qc[0][i] = path->q0[i];
        qc[1][i] = path->dq[i];
        if (path->dq[i] != 0)
            qdeg = 1;
        qn += path->q0[i] * path->q0[i];
        dqn += path->dq[i] * path->dq[i];
    }
    for (int i = 0; i < 3; i++) {
        pc[0][i] = path->p0[i];
        pc[1][i] = path->dp[i];
        if (path->dp[i] != 0)
            pdeg = 1;
    }
    if (terms) {
        memset(terms, 0, sizeof *terms);
        memcpy(terms->v, path->dp, sizeof terms->v);
        /* q0 + t dq with dq = (1/2) (0, w) q0 turns by 2 atan(|w| t / 2),
           at most |w| t, and |w| = 2 |dq| / |q0| */
        terms->wn = qn > 0 ? 2 * sqrt(dqn / qn) * (1 + 1e-12) : 0;
    }
    if (boxtoi_motion_rigid(m, (const double(*)[4])qc, qdeg,
                            (const double(*)[3])pc, pdeg)
        != BOXTOI_REASON_NONE) {
        dReal pos[3] = {(dReal)pc[0][0], (dReal)pc[0][1], (dReal)pc[0][2]};
        dReal q[4] = {(dReal)qc[0][0], (dReal)qc[0][1], (dReal)qc[0][2],
                      (dReal)qc[0][3]};
        pose_rigid(pos, q, m); /* cannot happen: degree <= 2 */
    }
}

void bt_apply_offset(dGeomID g, boxtoi_motion *m)
{
    const dReal *op = dGeomGetOffsetPosition(g);
    const dReal *oR = dGeomGetOffsetRotation(g);
    int identity = 1;
    for (int i = 0; i < 3 && identity; i++) {
        if (op[i] != 0)
            identity = 0;
        for (int j = 0; j < 3; j++)
            if (oR[i * 4 + j] != (i == j ? 1 : 0))
                identity = 0;
    }
    if (identity)
        return;
    double c[4][4] = {{0}};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            c[i][j] = oR[i * 4 + j];
        c[i][3] = op[i];
    }
    c[3][3] = 1;
    boxtoi_motion off;
    boxtoi_motion_constant(&off, c);
    boxtoi_motion_multiply(m, m, &off);
}

int dBoxtoiPredictBody(dWorldID world, dBodyID body, dReal h,
                       boxtoi_motion *motion)
{
    if (!body || !motion)
        return -1;
    return bt_predict_body(world, body, h, motion);
}
