/*
 * Stepping the world to the first contact.
 *
 * One call advances the world by h in at most max_substeps sub-steps:
 *   1. every boxtoi box gets the remaining time as its step (its swept AABB
 *      and its colliders then cover it);
 *   2. one pass over the pairs the space proposes finds the earliest
 *      first contact tau in (min_substep, remaining] of a pair that is not
 *      touching now and would get deeper than the resting margin by the end
 *      of the step (pairs touching now, or within min_substep of touching,
 *      are resting contacts, not impacts; pairs that would touch but stay
 *      shallower are left to ODE's next step; bounds on the motions spare
 *      the solver most pairs that cannot meet, see collide.c); each box's
 *      motion is computed once per sub-step (cached), and the pairs are
 *      kept;
 *   3. the user's near callback runs over those pairs (contact joints for
 *      the pairs touching now: within the step the colliders report
 *      contacts only up to min_substep ahead, and answer at once for pairs
 *      the pass found apart);
 *   4. the world steps by tau (or by all that remains when nothing meets),
 *      and the contact group is emptied.
 * When max_substeps is spent with impacts still ahead, the colliders give
 * speculative contacts (see collide.c): first in up to SPEC_PASSES short
 * sub-steps of min_substep, each predicted afresh, then in one sub-step
 * taking the rest.
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

/* ---- the pair pass --------------------------------------------------- */

/*
 * One broadphase pass per sub-step.  Every pair the space proposes is kept,
 * in the space's order, for the user's near callback (so the callback sees
 * exactly the pairs dSpaceCollide would give it, without a second pass);
 * the pairs of geoms inside sub-spaces are found too, for the analysis only.
 * Each candidate pair is analysed once (bt_pair_toi) and indexed, so that
 * the colliders, called from the user's callback, answer at once for pairs
 * known not to touch within their window.
 */
typedef struct pair_rec {
    dGeomID o1, o2;
    int user;        /* give this pair to the near callback */
    int kind;        /* bt_pair_toi's answer; -1: not a candidate */
    int first;       /* kind 2 is the first contact of a pair apart now */
    double toi;
} pair_rec;

typedef struct pair_pass {
    bt_toi_params q;
    pair_rec *v;
    size_t n, cap;
    size_t *slots;   /* open addressing: index + 1, 0 = empty */
    size_t scap;
    int failed;      /* out of memory: no index (colliders work alone) */
    double tau;      /* earliest impact found, or INFINITY */
    int resolve;     /* some touching pair approaches fast */
    double window;   /* the colliders' window while the index is active */
} pair_pass;

static _Thread_local const pair_pass *active_ = NULL;

static size_t hash_pair(dGeomID a, dGeomID b, size_t cap)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (x > y) {
        uintptr_t t = x;
        x = y;
        y = t;
    }
    uintptr_t h = x * (uintptr_t)0x9E3779B97F4A7C15u ^ (y + (y >> 7));
    h ^= h >> 29;
    h *= (uintptr_t)0xBF58476D1CE4E5B9u;
    h ^= h >> 32;
    return (size_t)h & (cap - 1);
}

static int same_pair(const pair_rec *r, dGeomID a, dGeomID b)
{
    return (r->o1 == a && r->o2 == b) || (r->o1 == b && r->o2 == a);
}

static void pass_push(pair_pass *pp, dGeomID o1, dGeomID o2, int user,
                      int kind, int first, double toi)
{
    if (pp->failed)
        return;
    if (pp->n == pp->cap) {
        size_t nc = pp->cap ? pp->cap * 2 : 256;
        pair_rec *nv = realloc(pp->v, nc * sizeof *nv);
        if (!nv) {
            pp->failed = 1;
            return;
        }
        pp->v = nv;
        pp->cap = nc;
    }
    pair_rec *r = &pp->v[pp->n++];
    r->o1 = o1;
    r->o2 = o2;
    r->user = user;
    r->kind = kind;
    r->first = first;
    r->toi = toi;
}

/* Index the analysed pairs. */
static void pass_index(pair_pass *pp)
{
    if (pp->failed)
        return;
    size_t need = 16;
    while (need < 2 * pp->n)
        need *= 2;
    if (need > pp->scap) {
        size_t *ns = realloc(pp->slots, need * sizeof *ns);
        if (!ns) {
            pp->failed = 1;
            return;
        }
        pp->slots = ns;
        pp->scap = need;
    }
    memset(pp->slots, 0, pp->scap * sizeof *pp->slots);
    for (size_t i = 0; i < pp->n; i++) {
        const pair_rec *r = &pp->v[i];
        if (r->kind < 0)
            continue;
        size_t j = hash_pair(r->o1, r->o2, pp->scap);
        while (pp->slots[j])
            j = (j + 1) & (pp->scap - 1);
        pp->slots[j] = i + 1;
    }
}

int bt_step_apart(dGeomID o1, dGeomID o2)
{
    const pair_pass *pp = active_;
    if (!pp || pp->failed || !pp->scap)
        return 0;
    size_t j = hash_pair(o1, o2, pp->scap);
    while (pp->slots[j]) {
        const pair_rec *r = &pp->v[pp->slots[j] - 1];
        if (same_pair(r, o1, o2))
            return r->kind == 0
                   || (r->kind == 2 && r->first && r->toi > pp->window);
        j = (j + 1) & (pp->scap - 1);
    }
    return 0;
}

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

static void analyse(pair_pass *pp, dGeomID o1, dGeomID o2, int user)
{
    if (!pair_is_candidate(o1, o2)) {
        if (user)
            pass_push(pp, o1, o2, 1, -1, 0, 0);
        return;
    }
    double toi = -1;
    int first = 0;
    int k = bt_pair_toi(o1, o2, &pp->q, &toi, &first);
    if (k == 2 && toi < pp->tau)
        pp->tau = toi;
    if (k == 3)
        pp->resolve = 1;
    pass_push(pp, o1, o2, user, k, first, toi);
}

/* Pairs inside sub-spaces: analysed, not given to the user (the user's
   callback recurses into the spaces itself). */
static void inner_callback(void *data, dGeomID o1, dGeomID o2)
{
    if (dGeomIsSpace(o1) || dGeomIsSpace(o2)) {
        dSpaceCollide2(o1, o2, data, inner_callback);
        if (dGeomIsSpace(o1))
            dSpaceCollide((dSpaceID)o1, data, inner_callback);
        if (dGeomIsSpace(o2))
            dSpaceCollide((dSpaceID)o2, data, inner_callback);
        return;
    }
    analyse(data, o1, o2, 0);
}

static void pass_callback(void *data, dGeomID o1, dGeomID o2)
{
    pair_pass *pp = data;
    if (dGeomIsSpace(o1) || dGeomIsSpace(o2)) {
        pass_push(pp, o1, o2, 1, -1, 0, 0);
        inner_callback(data, o1, o2);
        return;
    }
    analyse(pp, o1, o2, 1);
}

/* ---- the step --------------------------------------------------------- */

/* Short speculative sub-steps taken, at most, once max_substeps is spent
   with impacts still ahead, before the catch-all takes the rest. */
#define SPEC_PASSES 4

static unsigned epoch_counter_ = 0;

static unsigned next_epoch(void)
{
    if (++epoch_counter_ == 0)
        epoch_counter_ = 1;
    return epoch_counter_;
}

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
    pair_pass pp;
    memset(&pp, 0, sizeof pp);
    int saved = 0, ok = 1;
    dReal erp = dWorldGetERP(world);
    dVector3 grav;
    dWorldGetGravity(world, grav);
    double gmag = sqrt((double)grav[0] * grav[0] + (double)grav[1] * grav[1]
                       + (double)grav[2] * grav[2]);
    double deep_rel = p.rest_depth > 0 ? 0 : 0.02;
    double deep_abs = p.rest_depth > 0 ? (double)p.rest_depth : 2 * gmag * hh * hh;
    double elapsed = 0;
    int spec_passes = 0;

    for (;;) {
        dReal rem = (dReal)(hh - elapsed);
        if (st.substeps == 0)
            rem = h;
        bt_arm(space, rem, 1, elapsed);
        bt_set_cache_epoch(next_epoch());

        pp.q.tmax = rem;
        pp.q.window = min_sub;
        pp.q.deep_rel = deep_rel;
        pp.q.deep_abs = deep_abs;
        pp.tau = INFINITY;
        pp.resolve = 0;
        pp.n = 0;
        pp.failed = 0;
        /* the broadphase runs even when rem is tiny: the user's callback
           needs its pairs */
        if (space)
            dSpaceCollide(space, &pp, pass_callback);
        if (!((double)rem > min_sub)) {
            pp.tau = INFINITY;
            pp.resolve = 0;
        }
        /* Out of sub-steps with impacts still ahead: the last sub-step takes
           all that remains, with speculative contacts (every pair that
           would meet, or get deeper than the margin, within it gets depth-0
           contacts at the current poses with the normal of that future
           contact, on up to four vertices), so ODE stops those approaches
           instead of letting them pass. */
        int speculative = st.substeps + 1 >= max_sub
                          && (pp.tau < (double)rem || pp.resolve);
        /* Speculative contacts change velocities, and a box deflected by
           one may then head for a wall that was out of its reach before.
           So the speculative sub-step is first a short one (min_substep:
           ODE settles the velocities, the bodies hardly move), after which
           everything is predicted again; only after SPEC_PASSES of those,
           or when no impact is ahead any more, does one take the rest. */
        int spec_short = 0;
        if (speculative) {
            pp.tau = INFINITY;
            pp.resolve = 0;
            if (spec_passes < SPEC_PASSES && (double)rem > 2 * min_sub) {
                spec_short = 1;
                spec_passes++;
            }
        }
        /* A pair touching and approaching fast: its contact joints change
           the velocities, so the rest of the step cannot be predicted yet.
           Take a short sub-step to let ODE resolve it, then look again. */
        int resolving = 0;
        double tau = pp.tau;
        if ((pp.resolve || spec_short) && min_sub < tau) {
            tau = min_sub;
            resolving = 1;
        }
        int last = !(tau < (double)rem);
        dReal s = last ? rem : (dReal)tau;

        if (!last && !saved) {
            if (space)
                collect_bodies(&bodies, space);
            saved = 1;
        }
        if (space && near_callback) {
            pp.window = speculative ? (double)rem : min_sub;
            pass_index(&pp);
            bt_set_window(pp.window);
            if (speculative)
                bt_set_speculative(deep_rel, deep_abs);
            if (pp.failed) {
                active_ = NULL;
                dSpaceCollide(space, data, near_callback);
            } else {
                active_ = &pp;
                for (size_t i = 0; i < pp.n; i++)
                    if (pp.v[i].user)
                        near_callback(data, pp.v[i].o1, pp.v[i].o2);
            }
            active_ = NULL;
            bt_set_window(-1);
            bt_set_speculative(-1, -1);
        }
        bt_set_cache_epoch(0);
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
                st.first_toi = (dReal)(elapsed + tau);
        }
        elapsed += (double)s;
        restore_forces(&bodies);
    }
    if (st.substeps > 1)
        bt_arm(space, h, 0, 0.0);
    set_free(&bodies);
    free(pp.v);
    free(pp.slots);
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
