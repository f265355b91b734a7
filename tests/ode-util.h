/*
 * Near-callback pieces shared by the plugin's tests and fuzz target.
 */
#ifndef BOXTOI_TEST_ODE_UTIL_H
#define BOXTOI_TEST_ODE_UTIL_H

#include <string.h>

#include <ode-boxtoi.h>
#include <ode/ode.h>

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

#endif
