/*
 * Stepping the world to the first contact.
 *
 * One call advances the world by h in at most max_substeps sub-steps:
 *   1. every boxtoi box gets the remaining time as its step (its swept AABB
 *      and its colliders then cover it);
 *   2. an internal pass over the pairs the space proposes finds the earliest
 *      first contact tau in (min_substep, remaining] of a pair that is not
 *      touching now (pairs touching now, or within min_substep of touching,
 *      are resting contacts, not impacts);
 *   3. the user's near callback runs over the space (contact joints for the
 *      pairs touching now: within the step the colliders report contacts
 *      only up to min_substep ahead);
 *   4. the world steps by tau (or by all that remains when nothing meets),
 *      and the contact group is emptied.
 * With no impact the call is one dSpaceCollide with the user's callback and
 * one dWorldStep(world, h): the same state as plain ODE.
 *
 * Between sub-steps the forces and torques the user accumulated on the
 * bodies are put back (ODE clears them after each step), so they act over
 * the whole step.  Only bodies reachable from the space's geoms (directly or
 * through joints) are restored.  During a sub-step of length s < h the
 * world's ERP is scaled by s/h (when scale_erp is set), so that the error
 * correction speed ERP * depth / s stays what a full step would use.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

dBoxtoiStepParams dBoxtoiDefaultStepParams(void)
{
    dBoxtoiStepParams p;
    memset(&p, 0, sizeof p);
    p.max_substeps = 8;
    p.min_substep = -1; /* h * 1e-3 */
    p.quick = 0;
    p.scale_erp = 1;
    p.rest_depth = 0;
    return p;
}

/* ---- the set of bodies whose accumulators are restored -------------- */

typedef struct saved_body {
    dBodyID body;
    dReal force[3];
    dReal torque[3];
} saved_body;

typedef struct body_set {
    dBodyID *slots;   /* open addressing, NULL = empty */
    size_t cap;       /* power of two */
    size_t count;
    saved_body *list;
    size_t list_cap;
    int failed;       /* out of memory */
} body_set;

static size_t hash_ptr(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9E3779B97F4A7C15u;
    x ^= x >> 29;
    return (size_t)x & (cap - 1);
}

static int set_grow(body_set *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 64;
    dBodyID *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return 0;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i]) {
            size_t j = hash_ptr(s->slots[i], ncap);
            while (ns[j])
                j = (j + 1) & (ncap - 1);
            ns[j] = s->slots[i];
        }
    free(s->slots);
    s->slots = ns;
    s->cap = ncap;
    return 1;
}

/* Adds b; returns 1 when new. */
static int set_add(body_set *s, dBodyID b)
{
    if (s->failed)
        return 0;
    if ((s->count + 1) * 2 > s->cap && !set_grow(s)) {
        s->failed = 1;
        return 0;
    }
    size_t j = hash_ptr(b, s->cap);
    while (s->slots[j]) {
        if (s->slots[j] == b)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    if (s->count == s->list_cap) {
        size_t nc = s->list_cap ? s->list_cap * 2 : 64;
        saved_body *nl = realloc(s->list, nc * sizeof *nl);
        if (!nl) {
            s->failed = 1;
            return 0;
        }
        s->list = nl;
        s->list_cap = nc;
    }
    s->slots[j] = b;
    saved_body *e = &s->list[s->count++];
    const dReal *f = dBodyGetForce(b), *t = dBodyGetTorque(b);
    e->body = b;
    for (int i = 0; i < 3; i++) {
        e->force[i] = f[i];
        e->torque[i] = t[i];
    }
    return 1;
}

static void set_free(body_set *s)
{
    free(s->slots);
    free(s->list);
    memset(s, 0, sizeof *s);
}

static void collect_space(body_set *s, dSpaceID space)
{
    if (dSpaceGetClass(space) == dQuadTreeSpaceClass) {
        /* a quadtree cannot list its geoms: take the boxtoi boxes' bodies */
        for (bt_data *d = bt_first(); d; d = d->next) {
            dBodyID b;
            if (bt_in_space(d->geom, space) && (b = dGeomGetBody(d->geom)))
                set_add(s, b);
        }
        return;
    }
    int n = dSpaceGetNumGeoms(space);
    for (int i = 0; i < n; i++) {
        dGeomID g = dSpaceGetGeom(space, i);
        if (dGeomIsSpace(g)) {
            collect_space(s, (dSpaceID)g);
            continue;
        }
        dBodyID b = dGeomGetBody(g);
        if (b)
            set_add(s, b);
    }
}

static void collect_bodies(body_set *s, dSpaceID space)
{
    collect_space(s, space);
    /* bodies joined to those (the list grows while it is walked) */
    for (size_t k = 0; k < s->count && !s->failed; k++) {
        dBodyID b = s->list[k].body;
        int nj = dBodyGetNumJoints(b);
        for (int j = 0; j < nj; j++) {
            dJointID jt = dBodyGetJoint(b, j);
            for (int e = 0; e < 2; e++) {
                dBodyID o = dJointGetBody(jt, e);
                if (o && o != b)
                    set_add(s, o);
            }
        }
    }
}

static void restore_forces(const body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        const saved_body *e = &s->list[k];
        dBodySetForce(e->body, e->force[0], e->force[1], e->force[2]);
        dBodySetTorque(e->body, e->torque[0], e->torque[1], e->torque[2]);
    }
}

/* ---- the impact pass ------------------------------------------------- */

typedef struct impact_pass {
    bt_toi_params q;
    double tau;      /* earliest impact found, or INFINITY */
    int resolve;     /* some touching pair approaches fast */
} impact_pass;

static int pair_is_candidate(dGeomID o1, dGeomID o2)
{
    int boxtoi1 = dGeomIsBoxtoiBox(o1), boxtoi2 = dGeomIsBoxtoiBox(o2);
    if (!boxtoi1 && !boxtoi2)
        return 0;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (b1 && b1 == b2)
        return 0;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return 0;
    return 1;
}

static void impact_callback(void *data, dGeomID o1, dGeomID o2)
{
    impact_pass *ip = data;
    if (dGeomIsSpace(o1) || dGeomIsSpace(o2)) {
        dSpaceCollide2(o1, o2, data, impact_callback);
        if (dGeomIsSpace(o1))
            dSpaceCollide((dSpaceID)o1, data, impact_callback);
        if (dGeomIsSpace(o2))
            dSpaceCollide((dSpaceID)o2, data, impact_callback);
        return;
    }
    if (!pair_is_candidate(o1, o2))
        return;
    double toi = -1;
    int k = bt_pair_toi(o1, o2, &ip->q, &toi);
    if (k == 2 && toi < ip->tau)
        ip->tau = toi;
    if (k == 3)
        ip->resolve = 1;
}

/* ---- the step --------------------------------------------------------- */

static int step_to_contact(dWorldID world, dSpaceID space, dReal h,
                           dNearCallback *near_callback, void *data,
                           dJointGroupID contacts,
                           const dBoxtoiStepParams *params,
                           dBoxtoiStepStats *stats, int quick)
{
    dBoxtoiStepParams p = params ? *params : dBoxtoiDefaultStepParams();
    if (quick)
        p.quick = 1;
    int max_sub = p.max_substeps < 1 ? 1 : p.max_substeps;
    double hh = h;
    double min_sub = p.min_substep > 0 ? (double)p.min_substep : hh * 1e-3;
    dBoxtoiStepStats st = {0, 0, -1, 0, 0};
    body_set bodies;
    memset(&bodies, 0, sizeof bodies);
    int saved = 0, ok = 1;
    dReal erp = dWorldGetERP(world);
    dVector3 grav;
    dWorldGetGravity(world, grav);
    double gmag = sqrt((double)grav[0] * grav[0] + (double)grav[1] * grav[1]
                       + (double)grav[2] * grav[2]);
    double deep_rel = p.rest_depth > 0 ? 0 : 0.02;
    double deep_abs = p.rest_depth > 0 ? (double)p.rest_depth : 2 * gmag * hh * hh;
    double elapsed = 0;

    for (;;) {
        dReal rem = (dReal)(hh - elapsed);
        if (st.substeps == 0)
            rem = h;
        bt_arm(space, rem, 1);

        impact_pass ip;
        ip.q.tmax = rem;
        ip.q.window = min_sub;
        ip.q.deep_rel = deep_rel;
        ip.q.deep_abs = deep_abs;
        ip.tau = INFINITY;
        ip.resolve = 0;
        if (space && (double)rem > min_sub)
            dSpaceCollide(space, &ip, impact_callback);
        /* Out of sub-steps with impacts still ahead: the last sub-step takes
           all that remains, with speculative contacts (every pair that
           would meet, or get deeper than the margin, within it gets contact
           joints where that happens, depth 0), so ODE stops those approaches
           instead of letting them pass. */
        int speculative = st.substeps + 1 >= max_sub
                          && (ip.tau < (double)rem || ip.resolve);
        if (speculative) {
            ip.tau = INFINITY;
            ip.resolve = 0;
        }
        /* A pair touching and approaching fast: its contact joints change
           the velocities, so the rest of the step cannot be predicted yet.
           Take a short sub-step to let ODE resolve it, then look again. */
        int resolving = 0;
        if (ip.resolve && min_sub < ip.tau) {
            ip.tau = min_sub;
            resolving = 1;
        }
        int last = !(ip.tau < (double)rem);
        dReal s = last ? rem : (dReal)ip.tau;

        if (!last && !saved) {
            if (space)
            collect_bodies(&bodies, space);
            saved = 1;
        }
        if (space && near_callback) {
            bt_set_window(speculative ? (double)rem : min_sub);
            if (speculative)
                bt_set_speculative(deep_rel, deep_abs);
            dSpaceCollide(space, data, near_callback);
            bt_set_window(-1);
            bt_set_speculative(-1, -1);
        }
        if (speculative)
            st.speculative = 1;
        int scaled = p.scale_erp && s != h;
        if (scaled)
            dWorldSetERP(world, erp * s / h);
        ok = p.quick ? dWorldQuickStep(world, s) : dWorldStep(world, s);
        if (scaled)
            dWorldSetERP(world, erp);
        if (contacts)
            dJointGroupEmpty(contacts);
        st.substeps++;
        if (!ok || last)
            break;
        if (resolving) {
            st.resolutions++;
        } else {
            st.impacts++;
            if (st.first_toi < 0)
                st.first_toi = (dReal)(elapsed + ip.tau);
        }
        elapsed += (double)s;
        restore_forces(&bodies);
    }
    if (st.substeps > 1)
        bt_arm(space, h, 0);
    set_free(&bodies);
    if (stats)
        *stats = st;
    return ok ? 1 : 0;
}

int dWorldStepToContact(dWorldID world, dSpaceID space, dReal h,
                        dNearCallback *near_callback, void *data,
                        dJointGroupID contacts, const dBoxtoiStepParams *params,
                        dBoxtoiStepStats *stats)
{
    return step_to_contact(world, space, h, near_callback, data, contacts,
                           params, stats, 0);
}

int dWorldQuickStepToContact(dWorldID world, dSpaceID space, dReal h,
                             dNearCallback *near_callback, void *data,
                             dJointGroupID contacts,
                             const dBoxtoiStepParams *params,
                             dBoxtoiStepStats *stats)
{
    return step_to_contact(world, space, h, near_callback, data, contacts,
                           params, stats, 1);
}

int dBoxtoiCollide(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact,
                   int skip, dReal *toi)
{
    bt_reset_last_toi();
    int n = dCollide(o1, o2, flags, contact, skip);
    if (toi) {
        double t = bt_last_toi();
        if (n <= 0)
            t = -1;
        else if (t < 0)
            t = 0;
        *toi = (dReal)t;
    }
    return n;
}
