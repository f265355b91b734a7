/*
 * Stepping the world to the first contact.
 *
 * One call advances the world by h in at most max_substeps sub-steps:
 *   1. every boxtoi box gets the remaining time as its step (its swept AABB
 *      and its colliders then cover it);
 *   2. one pass over the pairs the space proposes finds the earliest
 *      first contact tau in (min_substep, remaining] of a pair that is not
 *      touching now and would get deeper than the resting margin by the end
 *      of the step, or closes faster than the margin per step where it
 *      meets (pairs touching now, or within min_substep of touching, are
 *      resting contacts, not impacts; pairs that would touch but stay
 *      shallower, closing slower, are left to ODE's next step; bounds on
 *      the motions spare the solver most pairs that cannot meet, see
 *      collide.c); each box's
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
 * taking the rest (ended where a pair met through them, when the check
 * below finds one, at most FALLBACK_SCALE * max_substeps times a call).
 * The sub-step taking the rest, and each speculative one, is then checked
 * against the paths the bodies actually took (see "verifying a sub-step"),
 * and so is any other one after which a body lies farther from its
 * prediction than the resting margin (for the pairs with such a body):
 * pairs that met there without being stopped get speculative contacts and
 * the sub-step is redone from its saved start, at most max_redos times, and
 * not again when only pairs that had those contacts already still meet.
 * With no impact the call is one dSpaceCollide with the user's callback and
 * one dWorldStep(world, h), plus the check's pass over the space, which
 * changes nothing: the same state as plain ODE.
 *
 * Between sub-steps the forces and torques the user accumulated on the
 * bodies are put back (ODE clears them after each step), so they act over
 * the whole step.  Only bodies reachable from the space's geoms (directly or
 * through joints) are restored.  During a sub-step of length s < h the
 * world's ERP, and the ERPs that the joints of those bodies keep for
 * themselves, are scaled by s/h (when scale_erp is set), so that the error
 * correction speed ERP * error / s stays what a full step would use.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The factor the ERPs of the sub-step whose contacts the near callback is
   making in this thread are scaled by (dBoxtoiERPScale); 1 outside one. */
static _Thread_local double erp_scale_ = 1.0;

dReal dBoxtoiERPScale(void)
{
    return (dReal)erp_scale_;
}

dBoxtoiStepParams dBoxtoiDefaultStepParams(void)
{
    dBoxtoiStepParams p;
    memset(&p, 0, sizeof p);
    p.max_substeps = 8;
    p.min_substep = -1; /* h * 1e-3 */
    p.quick = 0;
    p.scale_erp = 1;
    p.rest_depth = 0;
    p.max_redos = 4;
    return p;
}

/* The array v (elements of elem bytes, room for *cap) with room for twice as
   many, or for first when empty; NULL when out of memory (v and *cap are
   then unchanged). */
static void *grow_array(void *v, size_t *cap, size_t elem, size_t first)
{
    size_t nc = *cap ? 2 * *cap : first;
    void *nv = realloc(v, nc * elem);
    if (nv)
        *cap = nc;
    return nv;
}

/* ---- the set of bodies whose accumulators are restored -------------- */

typedef struct saved_body {
    dBodyID body;
    dReal force[3];
    dReal torque[3];
    /* state at the start of the current sub-step (save_states) */
    dReal pos[3], q[4], lvel[3], avel[3];
    int enabled;
    /* state at the end of the best try of a redone sub-step */
    dReal best_pos[3], best_q[4], best_lvel[3], best_avel[3];
    int best_enabled;
    /* damping changed for a short sub-step (short_substep), put back by
       end_short_substep */
    dReal lin_damp, ang_damp;
    /* idle counting paused for a sub-step (pause_counts), put back by
       resume_counts */
    int adis_samples; /* < 0: not changed */
    int counted;      /* ODE counted its idle step of this step */
    double counted_to; /* its idle time counted up to here in the step */
    int woken;        /* put to sleep by the try just undone, and woken */
    /* for the check of launches (set_budget): its kinetic energy and the
       speed of its fastest point at the first try of the step checked,
       whether it has had contact joints in a try since, and the bound of
       the work of its forces over the sub-steps since and over the try */
    double start_energy, start_speed;
    int touched;
    double work_done, try_work;
    /* the free-body prediction over the rest of the step, taken from the
       state the sub-step's search saw (predict_motions), where it puts the
       body at the end of the sub-step (predict_ends), and how far its
       geoms reach from its position (measure_bodies) */
    boxtoi_motion pred_motion;
    double pred_pos[3], pred_rot[3][3];
    int predicted;
    int strayed;     /* farther from it than the margin (strayed) */
    double reach;
} saved_body;

/* An ERP a joint keeps for itself (ODE copies the world's when the joint is
   made): scaled with the world's in short sub-steps. */
typedef struct joint_erp {
    dJointID joint;
    void (*set)(dJointID, int, dReal);
    int param;
    dReal value;     /* the joint's own, restored after each sub-step */
} joint_erp;

typedef struct body_set {
    size_t *slots;    /* open addressing: index in list + 1, 0 = empty */
    size_t cap;       /* power of two */
    size_t count;
    saved_body *list;
    size_t list_cap;
    int failed;       /* out of memory */
    int jointed;      /* some body has a joint other than a contact */
    int driven;       /* some boxtoi box has an explicit motion */
    joint_erp *erps;  /* the joints' own ERPs */
    size_t nerps, erps_cap;
    double min_side;  /* the shortest non-zero side of the bodies' boxes
                         (INFINITY: none), measure_bodies */
} body_set;

static size_t hash_ptr(const void *p, size_t cap)
{
    uint64_t x = (uintptr_t)p; /* 64-bit arithmetic whatever a pointer's width */
    x ^= x >> 17;
    x *= UINT64_C(0x9E3779B97F4A7C15);
    x ^= x >> 29;
    return (size_t)(x & (cap - 1));
}

static int set_grow(body_set *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 64;
    size_t *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return 0;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i]) {
            size_t j = hash_ptr(s->list[s->slots[i] - 1].body, ncap);
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
        if (s->list[s->slots[j] - 1].body == b)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    if (s->count == s->list_cap) {
        saved_body *nl = grow_array(s->list, &s->list_cap, sizeof *nl, 64);
        if (!nl) {
            s->failed = 1;
            return 0;
        }
        s->list = nl;
    }
    saved_body *e = &s->list[s->count++];
    s->slots[j] = s->count;
    const dReal *f = dBodyGetForce(b), *t = dBodyGetTorque(b);
    e->body = b;
    e->counted = e->woken = 0;
    e->counted_to = 0;
    for (int i = 0; i < 3; i++) {
        e->force[i] = f[i];
        e->torque[i] = t[i];
    }
    return 1;
}

/* The entry of b, or NULL. */
static const saved_body *set_find(const body_set *s, dBodyID b)
{
    if (!s->cap || s->failed)
        return NULL;
    size_t j = hash_ptr(b, s->cap);
    while (s->slots[j]) {
        const saved_body *e = &s->list[s->slots[j] - 1];
        if (e->body == b)
            return e;
        j = (j + 1) & (s->cap - 1);
    }
    return NULL;
}

static void set_free(body_set *s)
{
    free(s->slots);
    free(s->list);
    free(s->erps);
    memset(s, 0, sizeof *s);
}

static void collect_space(body_set *s, dSpaceID space);

/* A quadtree walked by colliding it with a probe box larger than any world. */
typedef struct quad_walk {
    body_set *s;
    dGeomID probe;
} quad_walk;

static void quad_found(void *data, dGeomID o1, dGeomID o2)
{
    quad_walk *w = data;
    dGeomID g = o1 == w->probe ? o2 : o1;
    dBodyID b;
    if (dGeomIsSpace(g))
        collect_space(w->s, (dSpaceID)g);
    else if ((b = dGeomGetBody(g)))
        set_add(w->s, b);
}

static void add_box_body(bt_data *d, void *ctx)
{
    body_set *s = ctx;
    dBodyID b = dGeomGetBody(d->geom);
    if (d->has_motion)
        s->driven = 1;
    if (b)
        set_add(s, b);
}

static void collect_space(body_set *s, dSpaceID space)
{
    if (dSpaceGetClass(space) == dQuadTreeSpaceClass) {
        /*
         * A quadtree cannot list its geoms, but colliding it with a box
         * 1e30 across (every category) proposes each enabled one.  (A
         * plane's infinite AABB misses those at the tree's edge.)  The
         * boxtoi boxes' bodies are added from their own list too, which
         * also holds disabled ones (and serves if the probe cannot be made).
         */
        quad_walk w = {s, dCreateBox(0, (dReal)1e30, (dReal)1e30, (dReal)1e30)};
        if (w.probe) {
            dGeomSetCategoryBits(w.probe, ~0ul);
            dGeomSetCollideBits(w.probe, ~0ul);
            dSpaceCollide2((dGeomID)space, w.probe, &w, quad_found);
            dGeomDestroy(w.probe);
        }
        bt_listed_boxes(space, add_box_body, s);
        return;
    }
    int n = dSpaceGetNumGeoms(space);
    for (int i = 0; i < n; i++) {
        dGeomID g = dSpaceGetGeom(space, i);
        if (dGeomIsSpace(g)) {
            collect_space(s, (dSpaceID)g);
            continue;
        }
        if (dGeomIsBoxtoiBox(g) && bt_get(g)->has_motion)
            s->driven = 1;
        dBodyID b = dGeomGetBody(g);
        if (b)
            set_add(s, b);
    }
}

/*
 * The ERPs a joint keeps for itself, by type: the ball, fixed, double-ball,
 * double-hinge and transmission joints' ERP, the stops' ERPs of the joints
 * with limits, and the hinge-2's suspension ERP (scaled with the sub-step,
 * the suspension keeps its spring constant ERP / (h CFM)).
 */
typedef dReal joint_get_fn(dJointID, int);
typedef void joint_set_fn(dJointID, int, dReal);
static const struct {
    int type;
    joint_get_fn *get;
    joint_set_fn *set;
    int nparams;
    int params[3];
} joint_erp_kinds[] = {
    {dJointTypeBall, dJointGetBallParam, dJointSetBallParam, 1, {dParamERP}},
    {dJointTypeFixed, dJointGetFixedParam, dJointSetFixedParam, 1, {dParamERP}},
    {dJointTypeDBall, dJointGetDBallParam, dJointSetDBallParam, 1, {dParamERP}},
    {dJointTypeDHinge, dJointGetDHingeParam, dJointSetDHingeParam, 1, {dParamERP}},
    {dJointTypeTransmission, dJointGetTransmissionParam, dJointSetTransmissionParam,
     1, {dParamERP}},
    {dJointTypeHinge, dJointGetHingeParam, dJointSetHingeParam, 1, {dParamStopERP}},
    {dJointTypeSlider, dJointGetSliderParam, dJointSetSliderParam, 1, {dParamStopERP}},
    {dJointTypeHinge2, dJointGetHinge2Param, dJointSetHinge2Param, 3,
     {dParamStopERP, dParamStopERP2, dParamSuspensionERP}},
    {dJointTypeUniversal, dJointGetUniversalParam, dJointSetUniversalParam, 2,
     {dParamStopERP, dParamStopERP2}},
    {dJointTypePR, dJointGetPRParam, dJointSetPRParam, 2, {dParamStopERP, dParamStopERP2}},
    {dJointTypePiston, dJointGetPistonParam, dJointSetPistonParam, 2,
     {dParamStopERP, dParamStopERP2}},
    {dJointTypePU, dJointGetPUParam, dJointSetPUParam, 3,
     {dParamStopERP, dParamStopERP2, dParamStopERP3}},
    {dJointTypeAMotor, dJointGetAMotorParam, dJointSetAMotorParam, 3,
     {dParamStopERP, dParamStopERP2, dParamStopERP3}},
    {dJointTypeLMotor, dJointGetLMotorParam, dJointSetLMotorParam, 3,
     {dParamStopERP, dParamStopERP2, dParamStopERP3}},
};

/* Note the own ERPs of joint jt, met from body b (each joint once: from its
   first body, or from its only one). */
static void note_joint(body_set *s, dJointID jt, dBodyID b)
{
    dBodyID b0 = dJointGetBody(jt, 0), b1 = dJointGetBody(jt, 1);
    if (!(b0 == b || (!b0 && b1 == b)))
        return;
    int type = (int)dJointGetType(jt);
    for (size_t k = 0; k < sizeof joint_erp_kinds / sizeof joint_erp_kinds[0]; k++) {
        if (joint_erp_kinds[k].type != type)
            continue;
        for (int i = 0; i < joint_erp_kinds[k].nparams; i++) {
            if (s->nerps == s->erps_cap) {
                joint_erp *ne = grow_array(s->erps, &s->erps_cap, sizeof *ne, 16);
                if (!ne)
                    return;
                s->erps = ne;
            }
            joint_erp *e = &s->erps[s->nerps++];
            e->joint = jt;
            e->set = joint_erp_kinds[k].set;
            e->param = joint_erp_kinds[k].params[i];
            e->value = joint_erp_kinds[k].get(jt, e->param);
        }
        return;
    }
}

/*
 * Scale the own ERPs of the joints on the set's bodies by f for one
 * sub-step: noted afresh just before it (the near callback may have made
 * or destroyed joints), and put back by restore_joint_erps just after it.
 */
static void scale_joint_erps(body_set *s, dReal f)
{
    s->nerps = 0;
    for (size_t k = 0; k < s->count; k++) {
        dBodyID b = s->list[k].body;
        int nj = dBodyGetNumJoints(b);
        for (int j = 0; j < nj; j++) {
            dJointID jt = dBodyGetJoint(b, j);
            if (dJointGetType(jt) != dJointTypeContact)
                note_joint(s, jt, b);
        }
    }
    for (size_t k = 0; k < s->nerps; k++) {
        const joint_erp *e = &s->erps[k];
        e->set(e->joint, e->param, e->value * f);
    }
}

static void restore_joint_erps(const body_set *s)
{
    for (size_t k = 0; k < s->nerps; k++) {
        const joint_erp *e = &s->erps[k];
        e->set(e->joint, e->param, e->value);
    }
}

/*
 * The length of a sub-step meant to end at tau into the rest rem of the
 * step, and whether it is the last (*last): where tau lies within 1e-9 of
 * the step (h) of the step's end, the sub-step takes the rest, so that no
 * sub-step of rounding's length follows.  ODE's dWorldStep can fail on a
 * step of 1e-14 s: a wall of boxes stacked exactly got an impact 1.5e-14 s
 * before the step's end, and the sub-step after it made ODE abort
 * ("assertion d[i] != 0 failed in dxLDLTRemove"), as plain ODE does when
 * its step is so split.  The pair then meets at most 1e-9 h before the
 * step's end, and touches when it ends.
 */
static double substep_length(double tau, double rem, double h, int *last)
{
    *last = !(tau < rem - 1e-9 * h);
    return *last ? rem : tau;
}

/*
 * ODE applies a body's damping once per step, whatever its length (the
 * velocity is scaled by 1 - scale).  A step taken as several sub-steps would
 * damp each body once per sub-step; so, for a sub-step of fraction f of the
 * step, the damping scale becomes 1 - (1 - scale)^f (over the sub-steps of a
 * step the factors multiply to the step's).
 */
static void short_substep(body_set *s, double f)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        dBodyID b = e->body;
        e->lin_damp = dBodyGetLinearDamping(b);
        e->ang_damp = dBodyGetAngularDamping(b);
        if (e->lin_damp > 0 && e->lin_damp < 1)
            dBodySetLinearDamping(b, (dReal)(1.0 - pow(1.0 - (double)e->lin_damp, f)));
        if (e->ang_damp > 0 && e->ang_damp < 1)
            dBodySetAngularDamping(b, (dReal)(1.0 - pow(1.0 - (double)e->ang_damp, f)));
    }
}

static void end_short_substep(const body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        const saved_body *e = &s->list[k];
        dBodySetLinearDamping(e->body, e->lin_damp);
        dBodySetAngularDamping(e->body, e->ang_damp);
    }
}

/*
 * ODE counts an idle step towards auto-disabling once per dWorldStep, at
 * its start, from the velocities the bodies start it with.  A step taken as
 * several sub-steps, or with a sub-step redone (from the same velocities),
 * would count each of them.  So a body auto-disabled by idle steps (idle
 * time 0, one velocity sample: ODE's defaults) is counted in the step's
 * last sub-step only, once, even where that sub-step is tried again.  One
 * with an idle time is counted in each sub-step by the sub-step's length,
 * but not in one that starts before the end of the time already counted
 * (a redo, or the shorter sub-step a redo made, and those after it up to
 * the undone try's end).  Elsewhere its counting is paused (no samples:
 * ODE's handler passes the body over and keeps its counts).  A body that
 * the try just undone put to sleep, woken one count from sleep, is counted
 * again.  One that averages over more than one sample counts every
 * sub-step and every try, as a pause would reset its averaging.  The
 * sub-step starts elapsed seconds into the step and lasts len.
 */
static void pause_counts(body_set *s, int last, double elapsed, double len)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        dBodyID b = e->body;
        int woken = e->woken;
        e->woken = 0;
        e->adis_samples = -1;
        if (!dBodyGetAutoDisableFlag(b) || !dBodyIsEnabled(b) ||
            dBodyGetAutoDisableAverageSamplesCount(b) != 1)
            continue;
        int timed = dBodyGetAutoDisableTime(b) > 0;
        int counts = timed ? woken || elapsed >= e->counted_to : last && !e->counted;
        if (counts) {
            e->counted = 1;
            if (timed)
                e->counted_to = elapsed + len;
            continue;
        }
        e->adis_samples = 1;
        dBodySetAutoDisableAverageSamplesCount(b, 0);
    }
}

static void resume_counts(const body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        const saved_body *e = &s->list[k];
        if (e->adis_samples >= 0)
            dBodySetAutoDisableAverageSamplesCount(e->body, (unsigned)e->adis_samples);
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
            if (dJointGetType(jt) != dJointTypeContact)
                s->jointed = 1;
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

static void get_state(dBodyID b, dReal pos[3], dReal q[4], dReal lvel[3],
                      dReal avel[3], int *enabled)
{
    const dReal *p = dBodyGetPosition(b);
    const dReal *qq = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b);
    const dReal *w = dBodyGetAngularVel(b);
    for (int i = 0; i < 3; i++) {
        pos[i] = p[i];
        lvel[i] = v[i];
        avel[i] = w[i];
    }
    for (int i = 0; i < 4; i++)
        q[i] = qq[i];
    *enabled = dBodyIsEnabled(b);
}

/*
 * Enable b, which the try being undone put to sleep, one idle count from
 * sleep.  The try counted the body once from the saved state and that count
 * put it to sleep, so at that state it was one count from sleep (its last
 * idle step, or idle time within the sub-step's length left).  dBodyEnable
 * alone would start the count afresh: the body then slept up to idle_steps
 * steps later than under dWorldStep, or never where every step was redone.
 */
static void wake_counted(dBodyID b)
{
    int steps = dBodyGetAutoDisableSteps(b);
    dReal time = dBodyGetAutoDisableTime(b);
    dBodySetAutoDisableSteps(b, 1);
    dBodySetAutoDisableTime(b, 0);
    dBodyEnable(b);
    dBodySetAutoDisableSteps(b, steps);
    dBodySetAutoDisableTime(b, time);
}

/* Only body states change: joints keep their anchors relative to the
   bodies.  (ODE normalises a quaternion it is given, so a restored one may
   differ from the saved one in the last bit.)  A body to be enabled that
   is disabled now is woken one count from sleep where undone is set (the
   state saved before the try that disabled it; returns 1 then), afresh
   otherwise. */
static int set_state(dBodyID b, const dReal pos[3], const dReal q[4],
                     const dReal lvel[3], const dReal avel[3], int enabled, int undone)
{
    const dReal *qb = dBodyGetQuaternion(b);
    dBodySetPosition(b, pos[0], pos[1], pos[2]);
    if (qb[0] != q[0] || qb[1] != q[1] || qb[2] != q[2] || qb[3] != q[3]) {
        dQuaternion qq = {q[0], q[1], q[2], q[3]};
        dBodySetQuaternion(b, qq);
    }
    dBodySetLinearVel(b, lvel[0], lvel[1], lvel[2]);
    dBodySetAngularVel(b, avel[0], avel[1], avel[2]);
    if (enabled && !dBodyIsEnabled(b) && undone) {
        wake_counted(b);
        return 1;
    }
    if (enabled && !dBodyIsEnabled(b))
        dBodyEnable(b);
    else if (!enabled && dBodyIsEnabled(b))
        dBodyDisable(b);
    return 0;
}

/* Save every body's state before a sub-step that may be redone. */
static void save_states(body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        get_state(e->body, e->pos, e->q, e->lvel, e->avel, &e->enabled);
    }
}

/* Put the bodies back where save_states found them. */
static void restore_states(body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        if (set_state(e->body, e->pos, e->q, e->lvel, e->avel, e->enabled, 1)) {
            e->woken = 1;
            e->counted = 0;
        }
    }
}

/* Keep the states a try ended in, as the best so far. */
static void save_best(body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        get_state(e->body, e->best_pos, e->best_q, e->best_lvel, e->best_avel,
                  &e->best_enabled);
    }
}

/* Go back to the end of the best try (with the accumulators cleared, as
   ODE leaves them after a step). */
static void restore_best(const body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        const saved_body *e = &s->list[k];
        set_state(e->body, e->best_pos, e->best_q, e->best_lvel, e->best_avel,
                  e->best_enabled, 0);
        dBodySetForce(e->body, 0, 0, 0);
        dBodySetTorque(e->body, 0, 0, 0);
    }
}

/* ---- tries after which the bodies had far more energy ------------------ */

/*
 * A try that leaves the bodies with more than LAUNCH times the kinetic
 * energy they can have at its end is taken again with the other solver:
 * their energy at the start of the step (the call), plus the work that
 * gravity and their forces can have done since, plus what pushing geoms
 * apart and kinematic bodies can give in the try (set_budget).  Only the
 * bodies that have had contact joints in the step count, their energies
 * and their forces' work: the others keep their energy but for that work,
 * and a heavy one's energy, or the work of gravity on it, would hide a
 * light body's launch (rooms of eight fast boxes beside a body of 1000 kg
 * outside, with a thousand times their energy: 4 of 300 more than
 * doubled their energy, test_room_energy).
 * dWorldStep's LCP can fail ("LCP internal error") and go on with the
 * impulses it had: in a room of plane walls a box at rest left at
 * 340 km/s, the room's energy times 1e6, and ODE's next step stopped the
 * program (dNormalize4).  With many speculative contacts and a bounce it
 * can also give far more than they ask for, with no message: a room of
 * eight boxes at up to 100 m/s, bounce 0.91, gained 6, 45 and 2,400 times
 * its energy in three redos of one sub-step, where dWorldQuickStep lost a
 * half.  Checked against its own start, each try of another room stayed
 * within the limit while the room gained 4 times its energy over the 13
 * sub-steps of one step.  Impacts with a bounce of 1 gain at most about
 * 40 % (dWorldStepToContact).
 */
#define LAUNCH 2.0

/*
 * A try after which a body moves faster than LAUNCH_SPEED times the speed
 * of the fastest point of the bodies that have had contacts in the step,
 * at its start (its first try checked), or of a kinematic body, plus the
 * speeds that pushing apart and the forces can add since, is taken again
 * likewise.  A hit with a bounce of at most 1 changes
 * a body's velocity by at most twice the speed at which the points that
 * meet close (the impulse J along the normal n changes it by |J| / m, and
 * |J| <= 2 v / (n . K n), K the pair's inverse mass matrix at the point,
 * with n . K n >= 1 / m), so a body leaves at most at five times that
 * speed; eight leave room for several hits in a try.  The energy alone
 * misses a light body launched among heavy ones: a 3 cm box at rest was
 * launched to 2,400 m/s by an LCP failure, the room's energy within twice
 * its own (tests/data/fuzz/plugin.hex).
 */
#define LAUNCH_SPEED 8.0

/* The kinetic energy of b, linear and rotational (mass m). */
static double body_energy(dBodyID b, const dMass *m)
{
    const dReal *v = dBodyGetLinearVel(b);
    const dReal *w = dBodyGetAngularVel(b);
    dVector3 wb;
    dBodyVectorFromWorld(b, w[0], w[1], w[2], wb);
    double lin = (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2];
    double rot = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            rot += (double)wb[i] * (double)m->I[4 * i + j] * (double)wb[j];
    return 0.5 * ((double)m->mass * lin + rot);
}

static double norm3(const dReal *v)
{
    return sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
}

/* What set_budget finds for a try's budget. */
typedef struct energy_budget {
    double energy; /* the bound of the touched bodies' kinetic energy */
    double speed;  /* the bound of a touched body's speed */
} energy_budget;

/*
 * The bounds of a try of length len from here, elapsed seconds into the
 * step, over the bodies that ODE's dynamics move (kinematic ones left
 * out) that have had contacts in the step (touched, note_touched): the
 * others keep their energy but for the work of their forces, and a heavy
 * one's would hide a light body's launch.
 * b->energy: their kinetic energy at the start (keep_start_energies), plus
 * a bound of the work of gravity (gmag) and of each one's forces and
 * torques (those put back for the sub-step) since, each at most its size
 * times the distance or angle that the speed and the acceleration cover
 * over a try, |v| len + |a| len^2 (the angular acceleration from the least
 * principal moment), plus what else the try can give:
 *  - pushing overlapping geoms apart: their mass at the speed of an
 *    ERP of 1 (scaled with the sub-step where scaled) on a depth of four
 *    resting margins (deep_abs, or deep_rel of the largest reach), within
 *    the world's limit of that speed.  The stepper keeps boxes within
 *    that margin of each other; pairs it does not see deeper than that
 *    (other classes of geoms, contacts with ERPs of their own) can make a
 *    try count as a launch, which is then only taken again;
 *  - a kinematic body, in an elastic hit: eight times their mass times
 *    the square of the fastest speed V of a point of one (a body at v
 *    leaves at up to |v| + 2 V, and (|v| + 2 V)^2 / 2 <= v^2 + 4 V^2, the
 *    v^2 within LAUNCH).
 * b->speed (LAUNCH_SPEED): the speed of the fastest point of one of them
 * at the start or of a kinematic body now, plus the speed of that push,
 * plus what the largest acceleration of one of them covers since the
 * start.  The start is the step's: the first try of a call is checked
 * whenever any is (what decides it holds for the whole call).
 */
static void set_budget(body_set *s, dWorldID world, double gmag, double len, int scaled,
                       double h, double deep_rel, double deep_abs, double elapsed,
                       energy_budget *b)
{
    double energy = 0, mass = 0, reach = 0, kinematic = 0, fastest = 0, accel = 0;
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        dBodyID body = e->body;
        double speed = norm3(dBodyGetLinearVel(body)), spin = norm3(dBodyGetAngularVel(body));
        e->try_work = 0;
        if (dBodyIsKinematic(body)) {
            kinematic = fmax(kinematic, speed + spin * e->reach);
            continue;
        }
        dMass m;
        dBodyGetMass(body, &m);
        double f = norm3(e->force), tq = norm3(e->torque);
        double acc = (dBodyGetGravityMode(body) ? gmag : 0) + f / (double)m.mass;
        double work = (double)m.mass * acc * (speed * len + acc * len * len);
        if (tq > 0) {
            double I[3][3];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    I[i][j] = (double)m.I[4 * i + j];
            double least = bt_min_eigen_sym3(I);
            work += tq * (spin * len + (least > 0 ? tq / least : INFINITY) * len * len);
        }
        e->try_work = work;
        if (!e->touched)
            continue;
        energy += e->start_energy + e->work_done + work;
        fastest = fmax(fastest, e->start_speed);
        accel = fmax(accel, acc);
        mass += (double)m.mass;
        reach = fmax(reach, e->reach);
    }
    double vc = fmin(4 * fmax(deep_abs, deep_rel * reach) / (scaled ? h : len),
                     (double)dWorldGetContactMaxCorrectingVel(world));
    b->energy = energy + 0.5 * mass * vc * vc + 8 * mass * kinematic * kinematic;
    b->speed = fmax(fastest, kinematic) + vc + accel * (elapsed + len);
}

/* Keep each body's kinetic energy and the speed of its fastest point now
   as those at the start, none of them touched yet, no work done. */
static void keep_start_energies(body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        dMass m;
        dBodyGetMass(e->body, &m);
        e->start_energy = dBodyIsKinematic(e->body) ? 0 : body_energy(e->body, &m);
        e->start_speed = norm3(dBodyGetLinearVel(e->body))
                         + norm3(dBodyGetAngularVel(e->body)) * e->reach;
        e->touched = 0;
        e->work_done = e->try_work = 0;
    }
}

/* Mark the bodies that have contact joints now as touched. */
static void note_touched(body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        int nj = dBodyGetNumJoints(e->body);
        for (int j = 0; j < nj && !e->touched; j++)
            if (dJointGetType(dBodyGetJoint(e->body, j)) == dJointTypeContact)
                e->touched = 1;
    }
}

/* The kinetic energy of the touched bodies that ODE's dynamics move. */
static double touched_energy(const body_set *s)
{
    double energy = 0;
    for (size_t k = 0; k < s->count; k++) {
        const saved_body *e = &s->list[k];
        if (!e->touched || dBodyIsKinematic(e->body))
            continue;
        dMass m;
        dBodyGetMass(e->body, &m);
        energy += body_energy(e->body, &m);
    }
    return energy;
}

/* Are the states of all the bodies finite? */
static int states_finite(const body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        dBodyID b = s->list[k].body;
        const dReal *v[4] = {dBodyGetPosition(b), dBodyGetQuaternion(b), dBodyGetLinearVel(b),
                             dBodyGetAngularVel(b)};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < (i == 1 ? 4 : 3); j++)
                if (!isfinite((double)v[i][j]))
                    return 0;
    }
    return 1;
}

/* The linear speed of the fastest touched body that ODE's dynamics move. */
static double touched_speed(const body_set *s)
{
    double fastest = 0;
    for (size_t k = 0; k < s->count; k++) {
        const saved_body *e = &s->list[k];
        if (e->touched && !dBodyIsKinematic(e->body))
            fastest = fmax(fastest, norm3(dBodyGetLinearVel(e->body)));
    }
    return fastest;
}

/* The tries' work bounds of a sub-step taken, added to the bodies' work. */
static void add_work(body_set *s)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        e->work_done += e->try_work;
        e->try_work = 0;
    }
}

/* ---- sub-steps whose bodies strayed from their predictions -------------- */

/*
 * Each body's reach (the farthest its geoms get from its position: a box's
 * offset plus its half diagonal, another geom's offset plus the half
 * diagonal of its bounding box) and the shortest non-zero side of the
 * bodies' boxes, for strayed.
 */
static void measure_bodies(body_set *s)
{
    s->min_side = INFINITY;
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        e->reach = 0;
        e->predicted = e->strayed = 0;
        for (dGeomID g = dBodyGetFirstGeom(e->body); g; g = dBodyGetNextGeom(g)) {
            dVector3 len = {0, 0, 0, 0};
            int box = 1;
            if (dGeomIsBoxtoiBox(g)) {
                dGeomBoxtoiBoxGetLengths(g, len);
            } else if (dGeomGetClass(g) == dBoxClass) {
                dGeomBoxGetLengths(g, len);
            } else {
                dReal aabb[6];
                dGeomGetAABB(g, aabb);
                for (int i = 0; i < 3; i++)
                    len[i] = aabb[2 * i + 1] - aabb[2 * i];
                box = 0;
            }
            const dReal *off = dGeomGetOffsetPosition(g);
            double half = 0.5 * sqrt((double)len[0] * len[0] + (double)len[1] * len[1]
                                     + (double)len[2] * len[2]);
            double r = half + sqrt((double)off[0] * off[0] + (double)off[1] * off[1]
                                   + (double)off[2] * off[2]);
            if (isfinite(r) && r > e->reach)
                e->reach = r;
            for (int i = 0; box && i < 3; i++)
                if (len[i] > 0 && len[i] < s->min_side)
                    s->min_side = len[i];
        }
    }
}

/* Pose of a body motion at t: position and rotation (P / w, U / w). */
static void motion_pose(const boxtoi_motion *m, double t, double pos[3], double rot[3][3])
{
    double e[4][4];
    boxtoi_motion_eval(m, t, e);
    for (int i = 0; i < 3; i++) {
        pos[i] = e[i][3] / e[3][3];
        for (int j = 0; j < 3; j++)
            rot[i][j] = e[i][j] / e[3][3];
    }
}

/* Each body's free-body prediction over rem, from its state now: the one
   the sub-step's search used, taken before the near callback, which may
   change velocities the search did not see (a jump pad). */
static void predict_motions(dWorldID world, body_set *s, double rem)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        e->predicted = bt_predict_body(world, e->body, rem, &e->pred_motion) >= 0;
    }
}

/* Where those predictions put the bodies after sub. */
static void predict_ends(body_set *s, double sub)
{
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        if (e->predicted)
            motion_pose(&e->pred_motion, sub, e->pred_pos, e->pred_rot);
    }
}

/*
 * Did some body end the sub-step farther than depth from where its
 * prediction put it (a point of its geoms moved by at most the position's
 * difference plus its reach times the rotations' difference)?  Contacts
 * that were touching at the sub-step's start, as resting ones, can change
 * velocities a lot (two boxes spinning fast into each other, a bounce),
 * and the sub-step's end came from the predicted paths, not these.
 */
static int strayed(body_set *s, double depth)
{
    int any = 0;
    for (size_t k = 0; k < s->count; k++) {
        saved_body *e = &s->list[k];
        e->strayed = 1;
        if (!e->predicted) {
            any = 1;
            continue;
        }
        const dReal *p = dBodyGetPosition(e->body), *R = dBodyGetRotation(e->body);
        double dp = 0, dr = 0;
        for (int i = 0; i < 3; i++) {
            double d = (double)p[i] - e->pred_pos[i];
            dp += d * d;
            for (int j = 0; j < 3; j++) {
                d = (double)R[i * 4 + j] - e->pred_rot[i][j];
                dr += d * d;
            }
        }
        e->strayed = !(sqrt(dp) + e->reach * sqrt(dr) <= depth);
        any |= e->strayed;
    }
    return any;
}

/*
 * How far a body may end a sub-step from its prediction before the sub-step
 * is checked (strayed): the resting margin, but never more than a quarter
 * of the bodies' shortest side.  The automatic margin, 2 |g| h^2 (5.4 mm at
 * 60 Hz), is larger than a small box: a 1 mm box turned by a vertex impact
 * crossed a 1 mm wall within one short sub-step, 1.4 mm off its prediction,
 * and the sub-step went unchecked.
 */
static double stray_limit(double deep_rel, double deep_abs, double min_side)
{
    return fmin(fmax(deep_abs, deep_rel * min_side), 0.25 * min_side);
}

/* Did the body of g (none: a static geom) stray (strayed)? */
static int geom_strayed(const body_set *s, dGeomID g)
{
    dBodyID b = dGeomGetBody(g);
    const saved_body *e = b ? set_find(s, b) : NULL;
    return e && e->strayed;
}

/* The actual path of a body over the sub-step just taken, from its saved
   start and its current pose (ODE moved it by p1 = p0 + s v1 and
   q1 = normalize(q0 + (s/2) (0, w1) q0)). */
typedef struct path_ctx {
    const body_set *bodies;
    double s;
} path_ctx;

static int actual_path(void *ctx, dBodyID b, bt_body_path *path)
{
    const path_ctx *pc = ctx;
    const saved_body *e = set_find(pc->bodies, b);
    if (!e || !(pc->s > 0))
        return 0;
    const dReal *p1 = dBodyGetPosition(b);
    const dReal *q1 = dBodyGetQuaternion(b);
    for (int i = 0; i < 3; i++) {
        path->p0[i] = e->pos[i];
        path->dp[i] = p1[i] == e->pos[i] ? 0
                      : ((double)p1[i] - (double)e->pos[i]) / pc->s;
    }
    int same = 1;
    double c = 0;
    for (int i = 0; i < 4; i++) {
        path->q0[i] = e->q[i];
        if (q1[i] != e->q[i])
            same = 0;
        c += (double)q1[i] * (double)e->q[i];
    }
    /* q1 = (q0 + s dq) / |q0 + s dq|, and dq is normal to q0, so
       q0 . q1 = |q0|^2 / |q0 + s dq| = 1 / |q0 + s dq| for a unit q0 */
    for (int i = 0; i < 4; i++)
        path->dq[i] = same || !(c > 0) ? 0
                      : ((double)q1[i] / c - (double)e->q[i]) / pc->s;
    return 1;
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
    int called;      /* a collider ran for it during the near callback */
    int ncontacts;   /* and gave this many contacts */
    int joints;      /* joints on its bodies when the near callback was given
                        it (inside a sub-space: when a collider ran for it) */
    int joined;      /* and the callback attached joints to them since */
} pair_rec;

/* A pair given speculative contacts when a sub-step is redone. */
typedef struct forced_pair {
    dGeomID o1, o2;
    dReal normal[3]; /* from o2 towards o1 */
    double x1[3], x2[3]; /* the points of o1 and o2 that met, at the
                            sub-step's start */
    double toi;      /* when they met in the try undone, into the sub-step */
    int has_points;
    int called, ncontacts;
} forced_pair;

/*
 * Pairs the near callback was given, or whose space it was given, and made
 * no contact joints for: sensors, or pairs it filters out.  They stay out
 * of the impact search and of the check for the rest of the step, so that
 * a box moving through a trigger volume does not spend sub-steps on it.  A
 * pair is known to be ignored once the callback has had it: when it did
 * not collide it, or collided it, got contacts and attached none.
 */
typedef struct pair_set {
    dGeomID (*v)[2];
    size_t n, cap;
    size_t *slots;   /* open addressing: index + 1, 0 = empty */
    size_t scap;
} pair_set;

typedef struct pair_pass {
    bt_toi_params q;
    pair_rec *v;
    size_t n, cap;
    size_t *slots;   /* open addressing: index + 1, 0 = empty */
    size_t scap;
    int failed;      /* out of memory: no index (colliders work alone) */
    double tau;      /* earliest impact found, or INFINITY */
    dGeomID tau_o1, tau_o2; /* the pair it is of */
    dGeomID ended_o1, ended_o2; /* the pair whose impact ended the
                                   sub-step before, or NULL */
    int resolve;     /* some touching pair approaches fast */
    double window;   /* the colliders' window while the index is active */
    forced_pair *forced; /* pairs given speculative contacts in a redo */
    size_t nforced, forced_cap;
    pair_set ignored;
    size_t *noted;   /* pairs inside sub-spaces collided during the current
                        call of the near callback (indices) */
    size_t nnoted, noted_cap;
} pair_pass;

static _Thread_local pair_pass *active_ = NULL;

static size_t hash_pair(dGeomID a, dGeomID b, size_t cap)
{
    /* 64-bit arithmetic whatever the width of a pointer. */
    uint64_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (x > y) {
        uint64_t t = x;
        x = y;
        y = t;
    }
    uint64_t h = x * UINT64_C(0x9E3779B97F4A7C15) ^ (y + (y >> 7));
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    return (size_t)(h & (cap - 1));
}

/* The pairs (a0, a1) and (b0, b1) are the same, in either order. */
static int same_geoms(dGeomID a0, dGeomID a1, dGeomID b0, dGeomID b1)
{
    return (a0 == b0 && a1 == b1) || (a0 == b1 && a1 == b0);
}

static int same_pair(const pair_rec *r, dGeomID a, dGeomID b)
{
    return same_geoms(r->o1, r->o2, a, b);
}

static int set_has(const pair_set *s, dGeomID a, dGeomID b)
{
    if (!s->scap)
        return 0;
    size_t j = hash_pair(a, b, s->scap);
    while (s->slots[j]) {
        dGeomID *e = s->v[s->slots[j] - 1];
        if (same_geoms(e[0], e[1], a, b))
            return 1;
        j = (j + 1) & (s->scap - 1);
    }
    return 0;
}

/* Adds the pair (out of memory: it is simply not remembered). */
static void set_put(pair_set *s, dGeomID a, dGeomID b)
{
    if (set_has(s, a, b))
        return;
    if (s->n == s->cap) {
        dGeomID (*nv)[2] = grow_array(s->v, &s->cap, sizeof *nv, 16);
        if (!nv)
            return;
        s->v = nv;
    }
    if (2 * (s->n + 1) > s->scap) {
        size_t nc = s->scap ? s->scap * 2 : 32;
        size_t *ns = calloc(nc, sizeof *ns);
        if (!ns)
            return;
        free(s->slots);
        s->slots = ns;
        s->scap = nc;
        for (size_t i = 0; i < s->n; i++) {
            size_t j = hash_pair(s->v[i][0], s->v[i][1], nc);
            while (ns[j])
                j = (j + 1) & (nc - 1);
            ns[j] = i + 1;
        }
    }
    s->v[s->n][0] = a;
    s->v[s->n][1] = b;
    size_t j = hash_pair(a, b, s->scap);
    while (s->slots[j])
        j = (j + 1) & (s->scap - 1);
    s->slots[j] = ++s->n;
}

static void pass_push(pair_pass *pp, dGeomID o1, dGeomID o2, int user,
                      int kind, int first, double toi)
{
    if (pp->failed)
        return;
    if (pp->n == pp->cap) {
        pair_rec *nv = grow_array(pp->v, &pp->cap, sizeof *nv, 256);
        if (!nv) {
            pp->failed = 1;
            return;
        }
        pp->v = nv;
    }
    pair_rec *r = &pp->v[pp->n++];
    r->o1 = o1;
    r->o2 = o2;
    r->user = user;
    r->kind = kind;
    r->first = first;
    r->toi = toi;
    r->called = 0;
    r->ncontacts = 0;
    r->joints = 0;
    r->joined = 0;
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

/* Joints attached to the bodies of a pair's geoms. */
static int pair_joints(const pair_rec *r)
{
    dBodyID b1 = dGeomGetBody(r->o1), b2 = dGeomGetBody(r->o2);
    return (b1 ? dBodyGetNumJoints(b1) : 0) + (b2 ? dBodyGetNumJoints(b2) : 0);
}

static pair_rec *pass_find(const pair_pass *pp, dGeomID o1, dGeomID o2)
{
    if (!pp || pp->failed || !pp->scap)
        return NULL;
    size_t j = hash_pair(o1, o2, pp->scap);
    while (pp->slots[j]) {
        pair_rec *r = &pp->v[pp->slots[j] - 1];
        if (same_pair(r, o1, o2))
            return r;
        j = (j + 1) & (pp->scap - 1);
    }
    return NULL;
}

static forced_pair *forced_find(const pair_pass *pp, dGeomID o1, dGeomID o2)
{
    for (size_t i = 0; pp && i < pp->nforced; i++) {
        forced_pair *f = &pp->forced[i];
        if (same_geoms(f->o1, f->o2, o1, o2))
            return f;
    }
    return NULL;
}

int bt_step_forced(dGeomID o1, dGeomID o2, dReal normal[3], double x1[3],
                   double x2[3], double *toi)
{
    const forced_pair *f = forced_find(active_, o1, o2);
    if (!f)
        return 0;
    if (toi)
        *toi = f->toi;
    int same = f->o1 == o1;
    dReal sg = same ? 1 : -1;
    for (int i = 0; i < 3; i++)
        normal[i] = sg * f->normal[i];
    if (!x1 || !x2 || !f->has_points)
        return 1;
    for (int i = 0; i < 3; i++) {
        x1[i] = same ? f->x1[i] : f->x2[i];
        x2[i] = same ? f->x2[i] : f->x1[i];
    }
    return 2;
}

void bt_step_note(dGeomID o1, dGeomID o2, int n)
{
    pair_pass *pp = active_;
    if (!pp)
        return;
    forced_pair *f = forced_find(pp, o1, o2);
    if (f) {
        f->called = 1;
        f->ncontacts += n > 0 ? n : 0;
        return;
    }
    pair_rec *r = pass_find(pp, o1, o2);
    if (!r)
        return;
    if (!r->user && !r->called) {
        /* inside a sub-space: its joints are counted again when the call
           of the near callback that reached it returns */
        r->joints = pair_joints(r);
        if (pp->nnoted == pp->noted_cap) {
            size_t *nn = grow_array(pp->noted, &pp->noted_cap, sizeof *nn, 16);
            if (nn)
                pp->noted = nn;
        }
        if (pp->nnoted < pp->noted_cap)
            pp->noted[pp->nnoted++] = (size_t)(r - pp->v);
        else
            r->joined = 1; /* cannot tell: not ignored */
    }
    r->called = 1;
    r->ncontacts += n > 0 ? n : 0;
}

/* After a call of the near callback: did it attach joints to the bodies of
   the sub-space pairs it collided? */
static void settle_noted(pair_pass *pp)
{
    for (size_t k = 0; k < pp->nnoted; k++) {
        pair_rec *r = &pp->v[pp->noted[k]];
        if (pair_joints(r) != r->joints)
            r->joined = 1;
    }
    pp->nnoted = 0;
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

int bt_step_ended(dGeomID o1, dGeomID o2)
{
    const pair_pass *pp = active_;
    if (!pp || !pp->ended_o1)
        return 0;
    return same_geoms(pp->ended_o1, pp->ended_o2, o1, o2);
}

/* A pair the stepper looks after: a boxtoi box in it, on different bodies
   not joined otherwise, and a dynamic body in it (ODE moves a kinematic
   body, and a body-less geom, through whatever it meets: contact joints
   between them change nothing, so there is no impact to step to; a
   disabled body counts, as a contact wakes it). */
static int pair_is_candidate(dGeomID o1, dGeomID o2)
{
    int boxtoi1 = dGeomIsBoxtoiBox(o1), boxtoi2 = dGeomIsBoxtoiBox(o2);
    if (!boxtoi1 && !boxtoi2)
        return 0;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (b1 && b1 == b2)
        return 0;
    if (!(b1 && !dBodyIsKinematic(b1)) && !(b2 && !dBodyIsKinematic(b2)))
        return 0;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return 0;
    return 1;
}

/* Whether the near callback can be seen to ignore the pair: a pair with
   something ahead (kind 1 to 3: a box or plane partner, touching or
   meeting within the step) that it did not collide, or collided and got
   contacts for without attaching a joint to the pair's bodies (a sensor).
   Forced pairs are noted in the forced list, not here; a pair inside a
   sub-space met from several pairs of the space is judged by its indexed
   copy, the one the colliders note. */
static int callback_ignored(const pair_pass *pp, const pair_rec *r)
{
    if (r->kind < 1 || forced_find(pp, r->o1, r->o2))
        return 0;
    if (!r->user && pass_find(pp, r->o1, r->o2) != r)
        return 0;
    return !r->called || (r->ncontacts > 0 && !r->joined);
}

static void analyse(pair_pass *pp, dGeomID o1, dGeomID o2, int user)
{
    if (!pair_is_candidate(o1, o2) || set_has(&pp->ignored, o1, o2)) {
        if (user)
            pass_push(pp, o1, o2, 1, -1, 0, 0);
        return;
    }
    double toi = -1;
    int first = 0;
    int k = bt_pair_toi(o1, o2, &pp->q, &toi, &first);
    if (k == 2 && toi < pp->tau) {
        pp->tau = toi;
        pp->tau_o1 = o1;
        pp->tau_o2 = o2;
    }
    if (k == 3)
        pp->resolve = 1;
    pass_push(pp, o1, o2, user, k, first, toi);
}

/* When o1 or o2 is a space: collide their contents with cb instead, 1. */
static int into_spaces(void *data, dGeomID o1, dGeomID o2, dNearCallback *cb)
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

/* Pairs inside sub-spaces: analysed, not given to the user (the user's
   callback recurses into the spaces itself). */
static void inner_callback(void *data, dGeomID o1, dGeomID o2)
{
    if (into_spaces(data, o1, o2, inner_callback))
        return;
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

/* ---- verifying a sub-step --------------------------------------------- */

/*
 * After a sub-step, the boxes are armed with the paths the bodies actually
 * took (their saved start poses and the velocities ODE moved them with,
 * recovered from the end poses), and the space is collided once more: a
 * pair whose actual paths meet and get deeper than the margin within the
 * sub-step (deeper than at the start by the margin, for a pair touching
 * then) passed through or into something, e.g. a box deflected during the
 * sub-step towards a wall it was not heading for.  Such pairs are added to
 * the forced list, and the sub-step is redone.
 */
/* The pair that met first in a verified sub-step. */
typedef struct met_pair {
    double t;         /* when it met, into the sub-step; INFINITY: none */
    dGeomID o1, o2;
    double n[3];      /* the normal, from o2 towards o1 */
    double x[2][3];   /* where the points that met were at the start (NAN
                         where not known) */
} met_pair;

typedef struct verify_pass {
    pair_pass *pp;
    bt_toi_params q;
    int bad;         /* pairs that met without being stopped */
    int add;         /* add them to the forced list */
    int fresh;       /* of those, pairs not on the forced list before */
    const body_set *strays; /* when set, only pairs with a body that strayed */
    met_pair first;  /* the earliest of them to meet */
} verify_pass;

static void forced_push(pair_pass *pp, dGeomID o1, dGeomID o2,
                        const double n[3], const double x1[3],
                        const double x2[3], double toi)
{
    if (pp->nforced == pp->forced_cap) {
        forced_pair *nf = grow_array(pp->forced, &pp->forced_cap, sizeof *nf, 16);
        if (!nf)
            return;
        pp->forced = nf;
    }
    forced_pair *f = &pp->forced[pp->nforced++];
    f->o1 = o1;
    f->o2 = o2;
    f->has_points = isfinite(x1[0]) && isfinite(x2[0]);
    f->toi = toi;
    for (int i = 0; i < 3; i++) {
        f->normal[i] = (dReal)n[i];
        f->x1[i] = x1[i];
        f->x2[i] = x2[i];
    }
    f->called = 0;
    f->ncontacts = 0;
}

static void verify_pair(verify_pass *vp, dGeomID o1, dGeomID o2)
{
    if (!pair_is_candidate(o1, o2) || set_has(&vp->pp->ignored, o1, o2))
        return;
    /* the other bodies went where the sub-step's search saw them go */
    if (vp->strays && !geom_strayed(vp->strays, o1) && !geom_strayed(vp->strays, o2))
        return;
    const pair_rec *r = pass_find(vp->pp, o1, o2);
    /* a forced pair is checked too: its speculative contacts may not have
       stopped it (a box spinning fast, far from the other) */
    int forced = forced_find(vp->pp, o1, o2) != NULL;
    /* a pair the near callback was given but did not collide is the
       callback's choice */
    if (!forced && r && !r->called)
        return;
    dGeomID g1, g2;
    double n[3], toi, x1[3], x2[3];
    if (!bt_pair_escape(o1, o2, &vp->q, &g1, &g2, n, &toi, x1, x2))
        return;
    vp->bad++;
    if (toi < vp->first.t) {
        vp->first.t = toi;
        vp->first.o1 = g1;
        vp->first.o2 = g2;
        memcpy(vp->first.n, n, sizeof n);
        memcpy(vp->first.x[0], x1, sizeof x1);
        memcpy(vp->first.x[1], x2, sizeof x2);
    }
    if (vp->add && !forced) {
        forced_push(vp->pp, g1, g2, n, x1, x2, toi);
        vp->fresh++;
    }
}

static void verify_callback(void *data, dGeomID o1, dGeomID o2)
{
    if (into_spaces(data, o1, o2, verify_callback))
        return;
    verify_pair(data, o1, o2);
}

/* The velocity of geom g's body at the point x (world, where it was at the
   start of the sub-step): at the start (saved state) when start is set,
   else as ODE left it at the end; zero for a geom without a body. */
static void point_velocity(const body_set *bodies, dGeomID g, const double x[3],
                           int start, double v[3])
{
    dBodyID b = dGeomGetBody(g);
    const saved_body *e = b ? set_find(bodies, b) : NULL;
    v[0] = v[1] = v[2] = 0;
    if (!e)
        return;
    const dReal *lv = start ? e->lvel : dBodyGetLinearVel(b);
    const dReal *av = start ? e->avel : dBodyGetAngularVel(b);
    double r[3] = {0, 0, 0};
    if (isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]))
        for (int i = 0; i < 3; i++)
            r[i] = x[i] - (double)e->pos[i];
    v[0] = (double)lv[0] + (double)av[1] * r[2] - (double)av[2] * r[1];
    v[1] = (double)lv[1] + (double)av[2] * r[0] - (double)av[0] * r[2];
    v[2] = (double)lv[2] + (double)av[0] * r[1] - (double)av[1] * r[0];
}

/* How fast the pair that met closes along its normal, at the start of the
   sub-step (start set) or with the velocities it ended with. */
static double closing_speed(const body_set *bodies, const met_pair *m, int start)
{
    double v1[3], v2[3], c = 0;
    point_velocity(bodies, m->o1, m->x[0], start, v1);
    point_velocity(bodies, m->o2, m->x[1], start, v2);
    for (int i = 0; i < 3; i++)
        c += (v2[i] - v1[i]) * m->n[i];
    return c;
}

/* A cut sub-step (below): the pair it ended at, when it began, its length
   and how fast the pair closed at its start. */
typedef struct cut_rec {
    int set;
    dGeomID o1, o2;
    double at, len, c0;
} cut_rec;

/*
 * The length of sub-step, from the same start, that ends where the pair
 * that met within the sub-step of length s just taken touches, given that
 * the sub-step before was cut short for the same pair (*prev) and ended
 * short of it.  The paths the bodies took run at the velocities ODE gave
 * them at the end, closing at c1 along the normal: the gap was c1 met.  A
 * shorter sub-step ends with other velocities.  Where the pair is pulled
 * together by a force (a motor with a force limit), the closing speed grows
 * with the sub-step's length, from c0 at the start to c1 at s, so the
 * sub-step of length x closes (c0 + (c1 - c0) x / s) x, which equals the
 * gap at the x returned.  That is taken only where the cut sub-step showed
 * the same growth, from prev->c0 to c0 over its length, to within a factor
 * of two: a motor that reaches its speed at once (then met is the answer),
 * a spinning box or a bounce would not.  met otherwise.
 */
static double cut_length(const body_set *bodies, const met_pair *m, double s,
                         const cut_rec *prev)
{
    double c0 = closing_speed(bodies, m, 1), c1 = closing_speed(bodies, m, 0);
    if (!(c0 > 0) || !(c1 > c0) || !(m->t > 0) || !(m->t < s) || !(prev->len > 0))
        return m->t;
    double k = (c1 - c0) / s, before = (c0 - prev->c0) / prev->len;
    if (!(before > 0.5 * k && before < 2 * k))
        return m->t;
    double g = c1 * m->t;
    /* the positive root of k x^2 + c0 x - g (k, c0, g > 0), without
       cancellation */
    double x = 2 * g / (c0 + sqrt(c0 * c0 + 4 * k * g));
    return x > 0 && x < s ? x : m->t;
}

/* ---- the step --------------------------------------------------------- */

/* Short speculative sub-steps taken, at most, once max_substeps is spent
   with impacts still ahead, before the catch-all takes the rest. */
#define SPEC_PASSES 4

/*
 * How many times max_substeps a call may end speculative sub-steps where a
 * pair met through its contacts, and how many times max_redos it may split
 * a sub-step taking the rest whose redos ran out.  A box far off its
 * body's centre, spun at hundreds of rad/s by its hits on a wall, grinds
 * along it in cycles of a split, a speculative sub-step cut two or three
 * times and a sub-step of about half a millisecond: with max_substeps and
 * max_redos alone it spent both a third of the way through the step, then
 * took the rest in one sub-step, through the wall.  The splits past
 * max_redos are taken only while the last split was stopped (no pair left
 * meeting after it): a pair that overlaps throughout (a box inside a box
 * that grows) would otherwise spend them all in every step, to no avail.
 */
#define FALLBACK_SCALE 8

/* Epochs are unique across threads (each thread sets its own current one). */
static _Atomic unsigned epoch_counter_ = 0;

static unsigned next_epoch(void);

/* Check the sub-step of length s just taken, elapsed seconds into the
   step; returns the number of pairs that met without being stopped (added
   to the forced list when add is set; *fresh receives how many of them
   were not on it before, and *met the earliest of them to meet).  With
   strays set, only the pairs with a body that strayed from its prediction
   are checked. */
static int verify_substep(dSpaceID space, pair_pass *pp, const body_set *bodies,
                          double s, double elapsed, double deep_rel,
                          double deep_abs, int add, int strays, int *fresh,
                          met_pair *met)
{
    path_ctx pc = {bodies, s};
    verify_pass vp;
    memset(&vp, 0, sizeof vp);
    vp.pp = pp;
    vp.q.tmax = s;
    vp.q.window = 0;
    vp.q.deep_rel = deep_rel;
    vp.q.deep_abs = deep_abs;
    vp.q.step = pp->q.step;
    vp.add = add;
    vp.strays = strays ? bodies : NULL;
    vp.first.t = INFINITY;
    bt_set_path_hook(actual_path, &pc);
    bt_arm(space, s, 0, elapsed);
    bt_set_cache_epoch(next_epoch());
    dSpaceCollide(space, &vp, verify_callback);
    bt_set_cache_epoch(0);
    bt_set_path_hook(NULL, NULL);
    *fresh = vp.fresh;
    *met = vp.first;
    return vp.bad;
}

static unsigned next_epoch(void)
{
    unsigned e;
    while ((e = ++epoch_counter_) == 0)
        ;
    return e;
}

/*
 * The earliest impact and the need to resolve, again, over the analysed
 * pairs the near callback has not been seen to ignore: once it has ignored
 * some (a sensor just entered), the sub-step need not end where they said.
 */
static void pass_rescan(pair_pass *pp)
{
    pp->tau = INFINITY;
    pp->resolve = 0;
    for (size_t i = 0; i < pp->n; i++) {
        const pair_rec *r = &pp->v[i];
        if (r->kind < 2 || set_has(&pp->ignored, r->o1, r->o2))
            continue;
        if (r->kind == 3)
            pp->resolve = 1;
        else if (r->toi < pp->tau) {
            pp->tau = r->toi;
            pp->tau_o1 = r->o1;
            pp->tau_o2 = r->o2;
        }
    }
}

/* Back to the start of the sub-step, to take it again: every body's state
   and accumulated forces as they were, the boxes armed anew for the rest
   of the step. */
static void substep_again(dSpaceID space, body_set *bodies, dReal rem,
                          double elapsed)
{
    restore_states(bodies);
    restore_forces(bodies);
    bt_arm(space, rem, 0, elapsed);
    bt_set_cache_epoch(next_epoch());
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
    dBoxtoiStepStats st;
    memset(&st, 0, sizeof st);
    st.first_toi = -1;
    int max_redos = p.max_redos < 0 ? 0 : p.max_redos;
    /* the speculative cuts and splits a call may take (FALLBACK_SCALE) */
    int max_spec_cuts = max_sub > INT_MAX / FALLBACK_SCALE ? INT_MAX : FALLBACK_SCALE * max_sub;
    int max_splits = max_redos > INT_MAX / FALLBACK_SCALE ? INT_MAX : FALLBACK_SCALE * max_redos;
    body_set bodies;
    memset(&bodies, 0, sizeof bodies);
    pair_pass pp;
    memset(&pp, 0, sizeof pp);
    int saved = 0, ok = 1;
    /* what dWorldStep would stop the program for, and a min_substep of the
       whole step or more (every approach would count as touching now, and
       stop where it is), refused before anything is done (stats: no
       sub-step) */
    if (!world || !(h > 0) || !isfinite(h) || !(min_sub < hh)) {
        if (stats)
            *stats = st;
        return 0;
    }
    dVector3 grav;
    dWorldGetGravity(world, grav);
    double gmag = sqrt((double)grav[0] * grav[0] + (double)grav[1] * grav[1]
                       + (double)grav[2] * grav[2]);
    double deep_rel = p.rest_depth > 0 ? 0 : 0.02;
    double deep_abs = p.rest_depth > 0 ? (double)p.rest_depth : 2 * gmag * hh * hh;
    double elapsed = 0;
    int spec_passes = 0;
    /* splits of a sub-step taking the rest (FALLBACK_SCALE), and whether
       the last one left no pair meeting */
    int splits = 0, split_ok = 0;
    /* sub-steps ended early where the paths taken met something: of
       checked sub-steps (at most max_redos), and of speculative ones whose
       contacts did not stop a pair (at most FALLBACK_SCALE * max_substeps) */
    int cuts = 0, spec_cuts = 0;
    cut_rec last_cut = {0, NULL, NULL, 0, 0, 0};
    /* sub-steps counted against max_substeps: one that ended where a pair
       met that the near callback then ignored (a sensor entered) is not */
    int spent = 0;
    dGeomID ended_o1 = NULL, ended_o2 = NULL;
    /* whether a sub-step was checked for launches yet (the bodies' kinetic
       energies and speeds then kept, keep_start_energies) */
    int started = 0;

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
        pp.q.step = hh;
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
        int speculative = spent + 1 >= max_sub
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
        int last;
        dReal s = (dReal)substep_length(tau, (double)rem, hh, &last);

        /* the final sub-step and the speculative ones are checked
           afterwards against the paths the bodies actually took; so is
           every other one when joints hold the bodies, since the
           predictions follow free bodies (a wheel dragged by its car may
           reach a wall before the impact that ends the sub-step) */
        int check = max_redos > 0 && space && near_callback && contacts;
        int verify = check && (last || speculative);
        if ((!last || check) && !saved) {
            if (space)
                collect_bodies(&bodies, space);
            measure_bodies(&bodies);
            saved = 1;
        }
        if (check && bodies.jointed)
            verify = 1;
        if (bodies.failed)
            verify = check = 0;
        /* a sub-step not checked anyway is checked when a body strays from
           its prediction by more than the resting margin */
        int watch = check && !verify;
        if (verify || watch)
            save_states(&bodies);
        /* from the states the search saw, before any near callback (a
           redo starts from them again) */
        if (watch)
            predict_motions(world, &bodies, (double)rem);
        pp.nforced = 0;
        int best_bad = -1, best_redo = -1, was_last = last, exact = 0, retake = 0;
        /* this sub-step is a split; the pairs it left meeting */
        int split = 0, left = 0;
        for (int redo = 0;; redo++) {
            size_t ignored_before = pp.ignored.n;
            if (space && near_callback) {
                erp_scale_ = p.scale_erp && s != h ? (double)s / (double)h : 1.0;
                pp.window = speculative ? (double)rem : min_sub;
                pp.ended_o1 = ended_o1;
                pp.ended_o2 = ended_o2;
                pass_index(&pp);
                bt_set_window(pp.window);
                bt_set_rest_margin(deep_rel, deep_abs, hh);
                if (speculative)
                    bt_set_speculative(deep_rel, deep_abs);
                if (pp.failed) {
                    active_ = NULL;
                    dSpaceCollide(space, data, near_callback);
                } else {
                    active_ = &pp;
                    for (size_t i = 0; i < pp.n; i++) {
                        pp.v[i].called = 0;
                        pp.v[i].ncontacts = 0;
                        pp.v[i].joined = 0;
                    }
                    pp.nnoted = 0;
                    for (size_t i = 0; i < pp.nforced; i++) {
                        pp.forced[i].called = 0;
                        pp.forced[i].ncontacts = 0;
                    }
                    for (size_t i = 0; i < pp.n; i++) {
                        pair_rec *r = &pp.v[i];
                        if (!r->user)
                            continue;
                        if (r->kind >= 1)
                            r->joints = pair_joints(r);
                        near_callback(data, r->o1, r->o2);
                        if (r->kind >= 1 && pair_joints(r) != r->joints)
                            r->joined = 1;
                        settle_noted(&pp);
                        if (callback_ignored(&pp, r))
                            set_put(&pp.ignored, r->o1, r->o2);
                    }
                    for (size_t i = 0; i < pp.n; i++)
                        if (!pp.v[i].user && callback_ignored(&pp, &pp.v[i]))
                            set_put(&pp.ignored, pp.v[i].o1, pp.v[i].o2);
                    /* forced pairs the callback was not given above */
                    for (size_t i = 0; i < pp.nforced; i++)
                        if (!pp.forced[i].called) {
                            near_callback(data, pp.forced[i].o1,
                                          pp.forced[i].o2);
                            settle_noted(&pp);
                        }
                }
                if (redo == 0 && pp.ignored.n > ignored_before) {
                    /* the sub-step before ended where a sensor was entered */
                    if (ended_o1 && spent > 0
                        && set_has(&pp.ignored, ended_o1, ended_o2))
                        spent--;
                    /* and this one need not end where ignored pairs said */
                    if (!last && !speculative && (double)rem > min_sub) {
                        pass_rescan(&pp);
                        resolving = pp.resolve && min_sub < pp.tau;
                        tau = resolving ? min_sub : pp.tau;
                        s = (dReal)substep_length(tau, (double)rem, hh, &last);
                        was_last = last;
                        if (check && last && !verify && !bodies.failed) {
                            verify = 1;
                            save_states(&bodies);
                        }
                    }
                }
                active_ = NULL;
                erp_scale_ = 1.0;
                bt_set_window(-1);
                bt_set_rest_margin(-1, -1, 0);
                bt_set_speculative(-1, -1);
            }
            bt_set_cache_epoch(0);
            if (speculative)
                st.speculative = 1;
            int scaled = p.scale_erp && s != h;
            /* the world's own, as the near callback may have set it */
            dReal erp = scaled ? dWorldGetERP(world) : 0;
            if (scaled) {
                dWorldSetERP(world, erp * s / h);
                scale_joint_erps(&bodies, s / h);
            }
            int shortened = s != h && saved;
            if (shortened)
                short_substep(&bodies, (double)(s / h));
            if (saved)
                pause_counts(&bodies, last, elapsed, (double)s);
            if (watch && !verify)
                predict_ends(&bodies, (double)s);
            /* the try's energy budget, for tries that can be taken again
               (states saved) without joints (whose motors give energy) or
               explicit motions (which push bodies at speeds of their own) */
            double budget = -1, speed_bound = 0;
            if ((verify || watch) && !bodies.jointed && !bodies.driven && !retake) {
                if (!started) {
                    started = 1;
                    keep_start_energies(&bodies);
                }
                note_touched(&bodies);
                energy_budget eb;
                set_budget(&bodies, world, gmag, (double)s, scaled, (double)h, deep_rel,
                           deep_abs, elapsed, &eb);
                budget = eb.energy;
                speed_bound = eb.speed;
            }
            ok = (p.quick && !exact) != retake ? dWorldQuickStep(world, s) : dWorldStep(world, s);
            if (shortened)
                end_short_substep(&bodies);
            if (saved)
                resume_counts(&bodies);
            if (scaled) {
                dWorldSetERP(world, erp);
                restore_joint_erps(&bodies);
            }
            if (contacts)
                dJointGroupEmpty(contacts);
            if (ok && budget >= 0
                && (!(touched_energy(&bodies) <= LAUNCH * budget)
                    || !(touched_speed(&bodies) <= LAUNCH_SPEED * speed_bound)
                    || !states_finite(&bodies))) {
                /* the same try again, with the other solver, kept as it
                   ends (not counted as a redo); so is one that left a
                   state that is not finite */
                substep_again(space, &bodies, rem, elapsed);
                st.retakes++;
                retake = 1;
                redo--;
                continue;
            }
            retake = 0;
            int strays = ok && watch && !verify
                         && strayed(&bodies, stray_limit(deep_rel, deep_abs, bodies.min_side));
            if (strays)
                verify = 1;
            if (!ok || !verify || pp.failed)
                break;
            int more = redo < max_redos && last == was_last, fresh = 0;
            size_t nforced = pp.nforced;
            met_pair met;
            int bad = verify_substep(space, &pp, &bodies, (double)s, elapsed,
                                     deep_rel, deep_abs, more, strays, &fresh,
                                     &met);
            if (bad == 0)
                break;
            /* The paths the bodies took met something, first met seconds
               into the sub-step, that the predictions did not see coming
               (a body driven by a joint's motor, predicted at rest).  Where
               that is more than min_substep in, the sub-step is taken again
               to end there, at that impact, with no speculative contacts for
               these pairs: those would hold the bodies where they are for
               the whole sub-step, and a body driven from rest towards
               something within its reach in a step would never move.  The
               shorter try is verified in turn, with its own redos.  Where
               the sub-step just before was such a cut for the same pair,
               which fell short (a motor with a force limit gains less speed
               in a shorter sub-step), the cut is placed by how the pair's
               speed grew (cut_length). */
            double cut = met.t;
            if (!speculative && last_cut.set
                && same_geoms(met.o1, met.o2, last_cut.o1, last_cut.o2)
                && fabs(elapsed - (last_cut.at + last_cut.len)) <= 1e-9 * (double)h)
                cut = cut_length(&bodies, &met, (double)s, &last_cut);
            int cut_last = 0;
            substep_length(cut, (double)rem, hh, &cut_last);
            /*
             * A speculative sub-step whose pairs met through the contacts
             * they had already (after dWorldStep's exact try, with quick):
             * those contacts hold the velocities at the start, and a body
             * that turns far in the rest of the step swings past them (a
             * box 0.3 m off the centre of a body spun at 78 rad/s by its
             * hits on a 1 cm wall, at 30 m/s, went through it).  The
             * sub-step then ends where the paths taken first meet, as
             * above, at most FALLBACK_SCALE * max_substeps times in a call,
             * and only more than min_substep before the sub-step's end: a
             * try cut there meets at its own end again (its contacts, for a
             * shorter sub-step, give other velocities), and cutting it once
             * more would spend the cuts without moving on.
             */
            int spec_cut = speculative && fresh == 0 && !(more && p.quick && !exact)
                           && spec_cuts < max_spec_cuts
                           && cut < (double)s - min_sub;
            if ((spec_cut || (!speculative && cuts < max_redos)) && cut > min_sub
                && cut < (double)s && !cut_last) {
                last_cut.set = 1;
                last_cut.o1 = met.o1;
                last_cut.o2 = met.o2;
                last_cut.at = elapsed;
                last_cut.len = cut;
                last_cut.c0 = closing_speed(&bodies, &met, 1);
                pp.nforced = nforced;
                substep_again(space, &bodies, rem, elapsed);
                if (spec_cut)
                    spec_cuts++;
                else
                    cuts++;
                st.redos++;
                last = was_last = 0;
                resolving = 0;
                tau = cut;
                s = (dReal)cut;
                pp.tau_o1 = met.o1;
                pp.tau_o2 = met.o2;
                best_bad = best_redo = -1;
                redo = -1;
                continue;
            }
            /* only pairs whose speculative contacts were there already:
               the same try again would end the same way, unless QuickStep's
               iterations left those contacts unenforced (a body of two
               boxes at 68 m/s, with 20 iterations, went on through a 1 mm
               wall past them): then it is taken again, once, with
               dWorldStep's exact solution */
            if (fresh == 0) {
                if (more && p.quick && !exact)
                    exact = 1;
                else
                    more = 0;
            }
            if (!more && last && (double)rem > 2 * min_sub
                && (splits < max_redos
                    || (split_ok && splits < max_splits))) {
                /* out of redos on a sub-step taking the rest: take a short
                   one instead, with all those contacts, and predict again */
                substep_again(space, &bodies, rem, elapsed);
                splits++;
                split = 1;
                last = 0;
                resolving = 1;
                s = (dReal)min_sub;
                st.redos++;
                continue;
            }
            if (!more) {
                /* out of redos: keep the try that left the fewest pairs
                   meeting without contacts (the earliest of equals) */
                if (last == was_last && best_bad >= 0 && best_bad <= bad) {
                    if (best_redo != redo)
                        restore_best(&bodies);
                    bad = best_bad;
                }
                st.unverified += bad;
                left = bad;
                break;
            }
            if (best_bad < 0 || bad < best_bad) {
                best_bad = bad;
                best_redo = redo;
                save_best(&bodies);
            }
            /* redo the sub-step from its start, with speculative contacts for
               the pairs that met (and for those of the earlier tries) */
            substep_again(space, &bodies, rem, elapsed);
            st.redos++;
        }
        if (split)
            split_ok = ok && left == 0;
        st.substeps++;
        spent++;
        ended_o1 = ended_o2 = NULL;
        if (!ok || last)
            break;
        if (!resolving && !speculative) {
            ended_o1 = pp.tau_o1;
            ended_o2 = pp.tau_o2;
        }
        if (resolving) {
            st.resolutions++;
        } else {
            st.impacts++;
            if (st.first_toi < 0)
                st.first_toi = (dReal)(elapsed + tau);
        }
        elapsed += (double)s;
        add_work(&bodies);
        restore_forces(&bodies);
    }
    /* after the step the boxes collide at their poses, as dBoxes do (no
       contacts of the step to come), until dBoxtoiPredict or the next step
       arms them again */
    bt_disarm(space, st.substeps > 1 || saved);
    set_free(&bodies);
    free(pp.v);
    free(pp.slots);
    free(pp.forced);
    free(pp.ignored.v);
    free(pp.ignored.slots);
    free(pp.noted);
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
