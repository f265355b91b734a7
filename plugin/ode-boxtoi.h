/*
 * ode-boxtoi: an ODE geometry class for boxes with exact continuous collision.
 *
 * A boxtoi box is an ODE geom that behaves like dBox (full side lengths,
 * centred on its position) and also knows how it will move over the coming
 * step.  Its collider finds, with the boxtoi solver, the first instant within
 * the step at which it touches another boxtoi box, an ODE dBox or a dPlane, so
 * a fast box no longer passes through a thin wall between two steps.
 *
 * Typical loop:
 *
 *     dBoxtoiInit();                        // once, after dInitODE2()
 *     dGeomID g = dCreateBoxtoiBox(space, 0.05, 0.05, 0.05);
 *     dGeomSetBody(g, body);
 *     ...
 *     dWorldStepToContact(world, space, h, near_callback, data, contacts, NULL);
 *
 * where near_callback is the usual ODE near callback (dCollide + contact
 * joints into the group `contacts`, which the step empties after each
 * sub-step).
 *
 * Motion over a step of size h, t in [0, h]:
 *  - body-driven (default when the geom has a body): predicted from the
 *    body's state exactly as dWorldStep moves a free body (see
 *    dBoxtoiPredict).  Exact to rounding with the body's gyroscopic mode off;
 *    with it on (ODE's default), and for bodies held by joints, the
 *    prediction is the free-body path and only approximates the real one.
 *  - explicit: dGeomBoxtoiBoxSetMotion, a 4x4 polynomial matrix in t.
 *  - static (no body, no explicit motion): stays where the geom is.
 *
 * Times are in seconds from the start of the current step (or sub-step).
 * All dReal values follow ODE's precision setting.
 */
#ifndef ODE_BOXTOI_H
#define ODE_BOXTOI_H

#include <ode/ode.h>
#include <boxtoi.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(ODE_BOXTOI_BUILDING) && defined(__GNUC__)
#define ODE_BOXTOI_API __attribute__((visibility("default")))
#else
#define ODE_BOXTOI_API
#endif

/**
 * Register the geom class with ODE (once per process; later calls return the
 * same class number).  Call after dInitODE2().  Returns the class number.
 */
ODE_BOXTOI_API int dBoxtoiInit(void);

/** The class number, or -1 before dBoxtoiInit(). */
ODE_BOXTOI_API int dBoxtoiGetClass(void);

/** Create a boxtoi box with full side lengths lx, ly, lz (like dCreateBox). */
ODE_BOXTOI_API dGeomID dCreateBoxtoiBox(dSpaceID space, dReal lx, dReal ly,
                                        dReal lz);

/** Non-zero when g is a boxtoi box. */
ODE_BOXTOI_API int dGeomIsBoxtoiBox(dGeomID g);

ODE_BOXTOI_API void dGeomBoxtoiBoxSetLengths(dGeomID g, dReal lx, dReal ly,
                                             dReal lz);
ODE_BOXTOI_API void dGeomBoxtoiBoxGetLengths(dGeomID g, dVector3 result);

/**
 * Set an explicit motion over the step [0, h]: motion maps the box's local
 * frame (centred box, corners -+lengths/2) to the world.  Replaces the
 * body-driven prediction until dGeomBoxtoiBoxClearMotion.  The geom's
 * position and rotation are not changed.  Returns BOXTOI_REASON_NONE, or why
 * the motion is unusable (then nothing changes).
 */
ODE_BOXTOI_API boxtoi_reason dGeomBoxtoiBoxSetMotion(dGeomID g,
                                                     const boxtoi_motion *motion,
                                                     dReal h);

/** Back to body-driven (or static) motion. */
ODE_BOXTOI_API void dGeomBoxtoiBoxClearMotion(dGeomID g);

/** The motion the geom will use for the coming step, and that step's size. */
ODE_BOXTOI_API void dGeomBoxtoiBoxGetMotion(dGeomID g, boxtoi_motion *motion,
                                            dReal *h);

/**
 * Predict, for a step of size h, the motion of every body-driven boxtoi box
 * in the space (recursing into sub-spaces).  dBox geoms attached to bodies
 * need no call: the collider predicts them from their body when needed.
 * Marks the geoms moved so the space recomputes their swept AABBs.  Call before dSpaceCollide when stepping with plain
 * dWorldStep; dWorldStepToContact calls it itself.
 */
ODE_BOXTOI_API void dBoxtoiPredict(dWorldID world, dSpaceID space, dReal h);

/**
 * Motion of a free body over a step of size h, as dWorldStep integrates it
 * (velocities first from force, torque, gravity, then position and
 * quaternion), for the body's frame.  Returns the degree used.
 */
ODE_BOXTOI_API int dBoxtoiPredictBody(dWorldID world, dBodyID body, dReal h,
                                      boxtoi_motion *motion);

/**
 * dCollide with the time of impact: like dCollide(o1, o2, flags, contact,
 * skip), and when toi is not NULL it receives the time within the step at
 * which the returned contacts happen (0 for geoms already touching, -1 when
 * there is no contact).  Works for any pair dCollide handles.
 */
ODE_BOXTOI_API int dBoxtoiCollide(dGeomID o1, dGeomID o2, int flags,
                                  dContactGeom *contact, int skip, dReal *toi);

/**
 * Time of impact of the last contact the collider produced for this geom
 * (seconds into the step; 0 when touching at the start), or -1 when none.
 */
ODE_BOXTOI_API dReal dGeomBoxtoiBoxGetLastTOI(dGeomID g);

/** Settings of dWorldStepToContact; start from dBoxtoiDefaultStepParams(). */
typedef struct dBoxtoiStepParams {
    int max_substeps;   /**< sub-steps per call, at least 1 (default 8) */
    dReal min_substep;  /**< shortest sub-step in seconds, (default h * 1e-3):
                             impacts closer together are merged */
    int quick;          /**< 1: dWorldQuickStep, 0: dWorldStep (default 0) */
} dBoxtoiStepParams;

ODE_BOXTOI_API dBoxtoiStepParams dBoxtoiDefaultStepParams(void);

/** Statistics of the last dWorldStepToContact call. */
typedef struct dBoxtoiStepStats {
    int substeps;       /**< sub-steps taken */
    int impacts;        /**< new impacts stepped to */
    dReal first_toi;    /**< time of the first impact in the step, or -1 */
} dBoxtoiStepStats;

/**
 * Advance the world by h, stopping at each first contact: predict motions,
 * find the earliest first contact time tau in (0, remaining] among the pairs
 * the space proposes, step the world by tau, let near_callback (ODE's usual
 * callback, given data) create contact joints in `contacts` for pairs now
 * touching, and go on with the rest of the step.  Pairs already touching are
 * contacts, not impacts.  When nothing meets this is dWorldStep(world, h)
 * after one dSpaceCollide.  contacts may be NULL when the callback manages
 * its own group (it is then never emptied by the step).  params may be NULL
 * for defaults; stats may be NULL.  Returns 1 on success, 0 when ODE's step
 * failed.
 */
ODE_BOXTOI_API int dWorldStepToContact(dWorldID world, dSpaceID space, dReal h,
                                       dNearCallback *near_callback, void *data,
                                       dJointGroupID contacts,
                                       const dBoxtoiStepParams *params,
                                       dBoxtoiStepStats *stats);

/** dWorldStepToContact using dWorldQuickStep for each sub-step. */
ODE_BOXTOI_API int dWorldQuickStepToContact(dWorldID world, dSpaceID space,
                                            dReal h, dNearCallback *near_callback,
                                            void *data, dJointGroupID contacts,
                                            const dBoxtoiStepParams *params,
                                            dBoxtoiStepStats *stats);

#ifdef __cplusplus
}
#endif

#endif /* ODE_BOXTOI_H */
