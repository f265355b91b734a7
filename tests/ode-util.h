/*
 * Near-callback pieces shared by the plugin's tests and fuzz target.
 */
#ifndef BOXTOI_TEST_ODE_UTIL_H
#define BOXTOI_TEST_ODE_UTIL_H

#include <math.h>
#include <string.h>

#include <ode-boxtoi.h>
#include <ode/ode.h>

/* A number drawn in [lo, hi) from the generator state *s. */
static inline double urand(unsigned long long *s, double lo, double hi)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = (double)(*s >> 11) / 9007199254740992.0;
    return lo + (hi - lo) * u;
}

/* Three numbers drawn in [lo, hi), in order: the arguments of a call, or
   the items of an initializer, are evaluated in no set order, so draws
   made there give other scenes under another compiler. */
static inline void urand3(unsigned long long *s, double lo, double hi, double v[3])
{
    for (int i = 0; i < 3; i++)
        v[i] = urand(s, lo, hi);
}

/* Energy of the n bodies: kinetic, linear and rotational, and potential
   under gravity g along -z. */
static inline double ode_bodies_energy(dBodyID *b, int n, double g)
{
    double e = 0;
    for (int i = 0; i < n; i++) {
        dMass m;
        dBodyGetMass(b[i], &m);
        const dReal *v = dBodyGetLinearVel(b[i]), *w = dBodyGetAngularVel(b[i]);
        dVector3 wb;
        dBodyVectorFromWorld(b[i], w[0], w[1], w[2], wb);
        double rot = 0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                rot += wb[r] * m.I[4 * r + c] * wb[c];
        e += 0.5 * (m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + rot)
             + m.mass * g * dBodyGetPosition(b[i])[2];
    }
    return e;
}

/*
 * Where o1 or o2 is a space, collide into it (and the two with each
 * other) with cb and return 1; 0 when both are geoms.
 */
static inline int ode_expand_spaces(void *data, dGeomID o1, dGeomID o2, dNearCallback *cb)
{
    if (!dGeomIsSpace(o1) && !dGeomIsSpace(o2))
        return 0;
    dSpaceCollide2(o1, o2, data, cb);
    if (dGeomIsSpace(o1))
        dSpaceCollide((dSpaceID)o1, data, cb);
    if (dGeomIsSpace(o2))
        dSpaceCollide((dSpaceID)o2, data, cb);
    return 1;
}

/*
 * At most four soft (CFM 1e-5), bouncing contacts between geoms o1 and o2,
 * with friction mu, in group, attached to their bodies.
 */
static inline int ode_soft_contacts(dWorldID world, dJointGroupID group, dGeomID o1,
                                    dGeomID o2, double mu, double bounce,
                                    double bounce_vel)
{
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    dContact c[4];
    memset(c, 0, sizeof c);
    int n = dCollide(o1, o2, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; i++) {
        c[i].surface.mode = dContactBounce | dContactSoftCFM;
        c[i].surface.soft_cfm = 1e-5;
        c[i].surface.mu = mu;
        c[i].surface.bounce = bounce;
        c[i].surface.bounce_vel = bounce_vel;
        dJointAttach(dJointCreateContact(world, group, &c[i]), b1, b2);
    }
    return n;
}

/*
 * The six walls (static boxes of thickness T; boxtoi boxes when boxtoi is
 * set) of a closed room [0, L]^3, in space.
 */
static inline void ode_room_walls(dSpaceID space, double L, double T, int boxtoi)
{
    const struct { double c[3], e[3]; } slab[6] = {
        {{L / 2, L / 2, -T / 2}, {L + 2 * T, L + 2 * T, T}},
        {{L / 2, L / 2, L + T / 2}, {L + 2 * T, L + 2 * T, T}},
        {{-T / 2, L / 2, L / 2}, {T, L + 2 * T, L}},
        {{L + T / 2, L / 2, L / 2}, {T, L + 2 * T, L}},
        {{L / 2, -T / 2, L / 2}, {L, T, L}},
        {{L / 2, L + T / 2, L / 2}, {L, T, L}},
    };
    for (int i = 0; i < 6; i++) {
        const double *e = slab[i].e;
        dGeomID g = boxtoi ? dCreateBoxtoiBox(space, e[0], e[1], e[2])
                           : dCreateBox(space, e[0], e[1], e[2]);
        dGeomSetPosition(g, slab[i].c[0], slab[i].c[1], slab[i].c[2]);
    }
}

/* The full side lengths of g, a dBox or a boxtoi box. */
static inline void ode_box_lengths(dGeomID g, dVector3 len)
{
    if (dGeomIsBoxtoiBox(g))
        dGeomBoxtoiBoxGetLengths(g, len);
    else
        dGeomBoxGetLengths(g, len);
}

/*
 * Are g1 and g2 (boxes, dBox or boxtoi, or a box and a plane) further apart
 * than d at their current poses?  For a plane, every corner lies more than
 * d above it; for two boxes, the boxes grown by d / 2 on every side (which
 * hold every point within d / 2 of them) have a separating axis among the
 * 15 of two boxes (cross products of nearly parallel edges left out, which
 * can only call a pair apart less often).  Its own test, not ODE's box
 * collider (dBoxBox returned no contacts for boxes 1 cm into each other).
 */
static inline int ode_apart_by(dGeomID g1, dGeomID g2, double d)
{
    if (dGeomGetClass(g1) == dPlaneClass || dGeomGetClass(g2) == dPlaneClass) {
        dGeomID box = dGeomGetClass(g1) == dPlaneClass ? g2 : g1;
        dGeomID plane = box == g1 ? g2 : g1;
        dVector4 pl;
        dVector3 len;
        dGeomPlaneGetParams(plane, pl);
        ode_box_lengths(box, len);
        for (int v = 0; v < 8; v++) {
            dVector3 w;
            dGeomGetRelPointPos(box, (v & 1 ? 0.5 : -0.5) * len[0],
                                (v & 2 ? 0.5 : -0.5) * len[1], (v & 4 ? 0.5 : -0.5) * len[2], w);
            if (!(pl[0] * w[0] + pl[1] * w[1] + pl[2] * w[2] - pl[3] > d))
                return 0;
        }
        return 1;
    }
    double ax[2][3][3], h[2][3], dc[3];
    dGeomID g[2] = {g1, g2};
    for (int k = 0; k < 2; k++) {
        dVector3 len;
        ode_box_lengths(g[k], len);
        const dReal *R = dGeomGetRotation(g[k]);
        for (int i = 0; i < 3; i++) {
            h[k][i] = 0.5 * (len[i] + d);
            for (int r = 0; r < 3; r++)
                ax[k][i][r] = R[4 * r + i]; /* column i of the rotation */
        }
    }
    for (int r = 0; r < 3; r++)
        dc[r] = dGeomGetPosition(g2)[r] - dGeomGetPosition(g1)[r];
    for (int a = 0; a < 15; a++) {
        double L[3];
        if (a < 6) {
            memcpy(L, ax[a / 3][a % 3], sizeof L);
        } else {
            const double *u = ax[0][(a - 6) / 3], *v = ax[1][(a - 6) % 3];
            L[0] = u[1] * v[2] - u[2] * v[1];
            L[1] = u[2] * v[0] - u[0] * v[2];
            L[2] = u[0] * v[1] - u[1] * v[0];
            if (L[0] * L[0] + L[1] * L[1] + L[2] * L[2] < 1e-12)
                continue;
        }
        double reach = 0.0;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 3; i++)
                reach += h[k][i] * fabs(L[0] * ax[k][i][0] + L[1] * ax[k][i][1] +
                                        L[2] * ax[k][i][2]);
        if (fabs(L[0] * dc[0] + L[1] * dc[1] + L[2] * dc[2]) > reach)
            return 1;
    }
    return 0;
}

#endif
