/*
 * ode-boxtoi: an ODE geometry class for boxes with exact continuous collision.
 *
 * A boxtoi box is an ODE geom that behaves like dBox (full side lengths,
 * centred on its position) and also knows how it will move over the coming
 * step.  Its collider finds, with the boxtoi solver, the first instant within
 * the step at which it touches another boxtoi box, an ODE dBox or a dPlane, so
 * a fast box no longer passes through a thin wall between two steps.  With
 * any other class (sphere, capsule, cylinder, ray, convex, trimesh,
 * heightfield) it collides as a dBox at its current pose, through ODE's own
 * collider for that pair, with no search in time.  That collider runs on a
 * stand-in dBox of the box's size and pose, carrying the box's data
 * (dGeomGetData) and category and collide bits but no body: callbacks that
 * ODE's colliders call with the other geom, such as a trimesh's
 * (dGeomTriMeshSetCallback, dGeomTriMeshSetArrayCallback), receive the
 * stand-in.  The contacts name the boxtoi box.
 *
 * ODE's spaces propose a pair when the geoms' bounding boxes meet.  A boxtoi
 * box's bounding box covers its whole motion over the step (for a body's
 * motion: the box at its pose moved along the body's path and grown by as
 * far as the body's turn can carry its points, exact for a body that does
 * not turn; for an explicit motion, boxtoi_swept_aabb's); a dBox's is
 * ODE's, at its current pose.  So a fast body should be a boxtoi box: a fast
 * dBox is predicted over the step (see dBoxtoiPredict) only when its pair is
 * proposed, that is when it already reaches into a boxtoi box's bounds.
 *
 * Typical loop:
 *
 *     dBoxtoiInit();                        // after dInitODE2()
 *     dGeomID g = dCreateBoxtoiBox(space, 0.05, 0.05, 0.05);
 *     dGeomSetBody(g, body);
 *     ...
 *     dWorldStepToContact(world, space, h, near_callback, data, contacts,
 *                         NULL, NULL);   // default parameters, no statistics
 *
 * where near_callback is the usual ODE near callback (dCollide + contact
 * joints into the group `contacts`, which the step empties after each
 * sub-step).
 *
 * Motion over a step of size h, t in [0, h]:
 *  - body-driven (default when the geom has a body): predicted from the
 *    body's state exactly as dWorldStep moves a free body (see
 *    dBoxtoiPredict).  Exact to rounding with the body's finite rotation
 *    mode off, unless torque acts on it while its gyroscopic mode is on (the
 *    default) or a maximum angular speed is set, or the gyroscopic mode is
 *    on and a maximum angular speed may be reached within the step;
 *    otherwise, and for bodies held by joints (the prediction is the
 *    free-body path), it only approximates the real one within the step.
 *  - explicit: dGeomBoxtoiBoxSetMotion, a 4x4 polynomial matrix in t.
 *  - static (no body, no explicit motion): stays where the geom is.
 *
 * Times are in seconds from the start of the current step (or sub-step).
 * All dReal values follow ODE's precision setting.
 *
 * Sizes: the solver counts boxes within 1e-12 of the larger one's diagonal
 * as touching (boxtoi.h), so a box beside a wall 1e12 m long is touching
 * it 1 m away, and refuses numbers beyond about 1e60.  A pair so touching
 * is a resting contact, not an impact, and a refused pair gets no search in
 * time: both collide much as two dBoxes do, so a fast box can pass through
 * (a 2 cm box at 100 m/s went through a 1 cm wall 1e13 m long), and no
 * statistic says so.  Give walls and floors sizes near those of the scene
 * (or use dPlanes).
 *
 * Contacts: boxes touching now get exactly ODE's contact set (dBoxBox, and
 * ODE's box-plane collider run on a dBox of the same pose), on every
 * platform and build of ODE.  For dCollide(boxtoi, boxtoi) and
 * dCollide(boxtoi, dBox) it equals dCollide of two dBoxes; for
 * dCollide(dBox, boxtoi) ODE itself swaps the arguments of the class's
 * collider, so the set is dBoxBox's with the boxtoi box first, reversed.
 * Boxes that touch later in the step get contacts where and when they first
 * touch (position and normal at that instant, depth 0), and dBoxtoiCollide
 * or dGeomBoxtoiBoxGetLastTOI give that time.  A face landing on a face
 * gives the full manifold: dBoxBox's contacts on the boxes grown by 1e-6 of
 * their size at that instant, kept when dBoxBox's normal is within about 8
 * degrees of the solver's.  Otherwise (an edge landing exactly on an edge,
 * where both faces are tangent and dBoxBox may pick the other one; an
 * explicit motion that scales or shears the box, which has no ODE pose)
 * there is one contact, the solver's point and normal.  Against a plane
 * they are the vertices within 1e-6 of the box's longest side of the
 * nearest one (within a wider margin in the sub-step after an impact, see
 * dWorldStepToContact), nearest first, at most 4 and at most the number
 * asked for, with the plane's normal.  Normals follow ODE:
 * they point from o2 towards o1.  Depth 0 here and for the speculative
 * contacts below means, between two bodies (neither kinematic), the
 * world's contact surface layer plus 1e-12 of the smaller box's longest
 * side, so that ODE asks for a separating speed of ERP times that: at
 * exactly 0 past the layer, two bodies touching at rest relative to each
 * other and accelerated alike (a box placed exactly on another, both under
 * gravity) make the LCP of dWorldStep fail ("LCP internal error"), which
 * then drops every constraint of the step; two such boxes fell together,
 * touching, through the floor.  So a box that lands in an impact comes to
 * rest touching what it met, not sunk into it by the layer as under plain
 * ODE: a 10 cm box dropped at 10 m/s onto a plane or a box, with a layer of
 * 1 or 10 mm, rests 0 deep, under plain ODE as deep as the layer.
 *
 * Spaces: the stepper sees the pairs the space reports, as the near
 * callback does.  ODE 0.16.2's dHashSpace (Debian 12's) leaves out some
 * pairs whose bounding boxes overlap: about 2% of random overlapping
 * pairs of boxes 2 to 80 cm wide near the origin (tests/test-plugin.c
 * shows the count), with the usual levels or others.  A boxtoi box's
 * bounding box covers its path over the step, so a pair left out is an
 * impact missed, and the boxes pass through each other, or sink into each
 * other until the space reports the pair again, whose deep contacts then
 * throw them apart.  In the same check, dSimpleSpace, dSweepAndPruneSpace
 * and dQuadTreeSpace reported every such pair.
 *
 * Threads: as in ODE, each thread may use its own worlds and spaces (after
 * dAllocateODEDataForThread), including creating, stepping and destroying
 * boxtoi boxes concurrently with other threads; the plugin's per-step state
 * is per thread.  (ODE's default step threading implementation is shared
 * by all worlds: give each world its own, see
 * dWorldSetStepThreadingImplementation.)  Not thread-safe: using one world,
 * space or geom from two threads at once; dBoxtoiInit while another thread
 * uses ODE (call it, like dInitODE2, before the threads start); and, while
 * a space that is or contains a dQuadTreeSpace is stepped
 * (dWorldStepToContact) or predicted (dBoxtoiPredict), creating, destroying
 * or moving boxtoi boxes between spaces in another thread: a quadtree
 * cannot list its geoms, so its boxtoi boxes are found in one process-wide
 * list.
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
 * Register the geom class with ODE.  Call after dInitODE2(), and again after
 * each dInitODE2() that follows a dCloseODE() (which drops ODE's record of
 * the class).  Each call finds out whether ODE still has the class by
 * colliding two geoms of it, made for the purpose and destroyed, under a
 * lock that all threads share, and registers it when not (so before
 * dInitODE2() ODE stops the program, with an internal error from dCollide).
 * After such a new dInitODE2(), call it before registering any class of
 * your own: ODE numbers classes afresh, and a class of yours given the
 * plugin's old number would pass for the plugin's until then.
 * dCreateBoxtoiBox calls it for each box it creates, so a program that
 * creates its boxtoi boxes before any class of its own may leave it out;
 * calling it right after dInitODE2() fixes the class number early.
 * Returns the class number.
 */
ODE_BOXTOI_API int dBoxtoiInit(void);

/** The class number, or -1 before dBoxtoiInit(). */
ODE_BOXTOI_API int dBoxtoiGetClass(void);

/**
 * Create a boxtoi box with full side lengths lx, ly, lz (like dCreateBox).
 * Returns NULL, creating nothing, when a length is negative, NaN or
 * infinite (ODE's dCreateBox asserts on negative and NaN lengths and
 * accepts infinite ones).  A length may be 0 (a flat panel, a rod).  Two
 * boxes of no thickness meeting flat in one plane have no inside to tell
 * their sides apart: at an impact the contacts' normal takes the side they
 * approach from, but once they rest on each other nothing keeps a steady
 * push (gravity) from moving one through the other (plain ODE's dBoxBox
 * has no sound contact for them either); give a body's box some thickness
 * where it is to rest on a panel.  Attach it to a body directly (with a
 * geom offset if needed): inside a dGeomTransform (deprecated in ODE) it
 * has no body of its own and is treated as a box at rest at its current
 * pose.
 */
ODE_BOXTOI_API dGeomID dCreateBoxtoiBox(dSpaceID space, dReal lx, dReal ly,
                                        dReal lz);

/** Non-zero when g is a boxtoi box. */
ODE_BOXTOI_API int dGeomIsBoxtoiBox(dGeomID g);

/**
 * Set the full side lengths.  Returns 1, or 0 when g is not a boxtoi box or
 * a length is negative, NaN or infinite (then nothing changes).
 */
ODE_BOXTOI_API int dGeomBoxtoiBoxSetLengths(dGeomID g, dReal lx, dReal ly,
                                            dReal lz);

/** The full side lengths; zeros when g is not a boxtoi box. */
ODE_BOXTOI_API void dGeomBoxtoiBoxGetLengths(dGeomID g, dVector3 result);

/**
 * Set an explicit motion over the step [0, h]: motion maps the box's local
 * frame (centred box, corners -+lengths/2) to the world.  Replaces the
 * body-driven prediction until dGeomBoxtoiBoxClearMotion.  The geom's
 * position and rotation are not changed, and they still place the box for
 * the contacts of boxes touching now and for pairs with any class other
 * than boxes and planes (spheres, trimeshes...), which the motion does not
 * reach: keep the pose at the motion's start, M(0).  Impacts are searched
 * for within [0, h] only: a motion whose h is shorter than the step
 * collides with nothing after h (give a constant motion the step's size,
 * or more).  t = 0 is the start of the next
 * dWorldStepToContact call (or of the dCollide calls after dBoxtoiPredict);
 * within one dWorldStepToContact call, each sub-step uses the motion from
 * the time already stepped, so the path stays one curve.  Returns
 * BOXTOI_REASON_NONE; BOXTOI_REASON_NULL when g is NULL or not a boxtoi box
 * or motion is NULL; or why the motion is unusable (then nothing changes).
 */
ODE_BOXTOI_API boxtoi_reason dGeomBoxtoiBoxSetMotion(dGeomID g,
                                                     const boxtoi_motion *motion,
                                                     dReal h);

/** Back to body-driven (or static) motion; nothing when g is not a boxtoi box. */
ODE_BOXTOI_API void dGeomBoxtoiBoxClearMotion(dGeomID g);

/**
 * The motion the geom will use for the coming step, and that step's size:
 * as dBoxtoiPredict or dWorldStepToContact armed it (a body-driven box after
 * dWorldStepToContact returns: its pose, and 0; an explicit motion: its own,
 * from its start).  The identity and 0 when g is not a boxtoi box.  Either
 * pointer may be NULL.
 */
ODE_BOXTOI_API void dGeomBoxtoiBoxGetMotion(dGeomID g, boxtoi_motion *motion,
                                            dReal *h);

/**
 * Give every boxtoi box in the space (recursing into sub-spaces) the step
 * size h of the coming step, and mark those whose bounds depend on it (an
 * enabled body or an explicit motion) moved, so the space recomputes their
 * swept AABBs.  The body-driven motion itself is computed from the body's
 * state (position, velocities, accumulated force and torque, gravity) each
 * time the AABB or a collider needs it, so it follows changes made after
 * this call (ODE recomputes an AABB only for a geom marked moved: after
 * setting a body's velocity or force, call this again before the next
 * dSpaceCollide, or the space may propose pairs from the old AABB); dBox
 * geoms attached to bodies are predicted the same way by the
 * collider of their pair with a boxtoi box, over that box's step (h for a
 * static one).  Also resets every box's last time of impact to -1.  Call before
 * dSpaceCollide when stepping with plain dWorldStep (the colliders then
 * report future contacts of the step, depth 0, which act as speculative
 * contacts); dWorldStepToContact calls it itself.  world is not used (each
 * body's own world is).  A negative, NaN or infinite h counts as 0, which
 * turns the prediction off: body-driven boxes then collide at their current
 * poses, with no search in time (an explicit motion keeps its own h).  So
 * does a body whose predicted motion would not be finite (a NaN velocity,
 * an infinite force, 1e300 m/s): its boxes collide at their poses.
 *
 * With plain dWorldStep such a contact holds for the whole step: a body
 * approaching at speed v stops where it is, up to v*h short of the surface,
 * and a bounce set by the near callback applies from there (a box dropped
 * onto the floor may stay a little above it, and at rest stay there: a
 * 20 cm box released 2 mm above a plane was still 2 mm above it after 20 s
 * with world CFM 1e-9, and took about 20 s to come down at the default
 * 1e-5).  dWorldStepToContact steps to the contact instead.
 */
ODE_BOXTOI_API void dBoxtoiPredict(dWorldID world, dSpaceID space, dReal h);

/**
 * Motion of a free body over a step of size h, as dWorldStep integrates it
 * (velocities first from force, torque, gravity, then position and
 * quaternion), for the body's frame, over t in [0, h].  A NULL world means
 * the body's own.  The matrix is homogeneous, as every boxtoi_motion: its
 * bottom row is [0 0 0 w(t)] with w not 1 for a turning body, so a point's
 * world position is the top three rows' product divided by w(t)
 * (boxtoi_motion_apply does both; see boxtoi.h).  Returns the degree
 * used, or -1 when body or motion is NULL.
 */
ODE_BOXTOI_API int dBoxtoiPredictBody(dWorldID world, dBodyID body, dReal h,
                                      boxtoi_motion *motion);

/**
 * dCollide with the time of impact: like dCollide(o1, o2, flags, contact,
 * skip), and when toi is not NULL it receives the time within the step at
 * which the returned contacts happen (0 for geoms already touching, -1 when
 * there is no contact; for the speculative contacts of dWorldStepToContact,
 * which lie at the current poses, the predicted time of the first contact
 * they stand for, and in a redone sub-step, for a pair apart now, the time
 * the pair met in the try undone).  Inside dWorldStepToContact times count
 * from the start of the sub-step.  Works for any pair dCollide handles.
 */
ODE_BOXTOI_API int dBoxtoiCollide(dGeomID o1, dGeomID o2, int flags,
                                  dContactGeom *contact, int skip, dReal *toi);

/**
 * Time of impact of the last contact the collider produced for this geom
 * (seconds into the step, or into the sub-step inside dWorldStepToContact,
 * whose stats->first_toi gives the step's first impact; 0 when touching at
 * the start), or -1 when none or when g is not a boxtoi box.
 */
ODE_BOXTOI_API dReal dGeomBoxtoiBoxGetLastTOI(dGeomID g);

/** Settings of dWorldStepToContact; start from dBoxtoiDefaultStepParams(). */
typedef struct dBoxtoiStepParams {
    int max_substeps;   /**< sub-steps per call, at least 1 (less counts as
                             1; default 8),
                             not counting those that end where a sensor is
                             entered; beyond them a call may take up to 4
                             short speculative ones, once they run out with
                             impacts still ahead, up to max_redos short
                             ones that replace a sub-step taking the rest
                             whose redos ran out (up to 8 times max_redos
                             while the last of them left no pair meeting),
                             and up to 8 times max_substeps that end a
                             speculative sub-step where a pair met through
                             its speculative contacts (see
                             dWorldStepToContact);
                             the last one always takes all the time that
                             is left */
    dReal min_substep;  /**< seconds; <= 0 or NaN means h * 1e-3 (the default).
                             A pair within this time of touching counts as
                             touching now (a resting contact, not an impact),
                             so impacts closer together are merged and
                             every sub-step but the last of a call (which
                             takes what is left of h) is at least this
                             long; an impact within 1e-9 h of the end of h
                             ends no sub-step (the last one takes it), so
                             that none of rounding's length follows it:
                             ODE's LCP can fail on a step of 1e-14 s and
                             abort the process.  h or more (infinity too)
                             is refused: dWorldStepToContact then returns
                             0 and does nothing */
    int quick;          /**< 1: dWorldQuickStep, 0: dWorldStep (default 0);
                             with 1, a checked sub-step whose retry with
                             speculative contacts still lets a pair through
                             is taken once more with dWorldStep (see
                             dWorldStepToContact) */
    int scale_erp;      /**< 1 (default): during a sub-step of length s < h the
                             world's ERP is scaled by s / h, so that contact
                             and joint error correction (ERP * error / s)
                             keeps the speed of a full step; so are the ERPs
                             that joints keep for themselves (ODE copies the
                             world's when a joint is made): the ERP of ball,
                             fixed, double-ball, double-hinge and
                             transmission joints, the stops' ERPs (not a
                             plane-2D joint's: ODE cannot read them back,
                             so they act h / s times a full step's speed),
                             the hinge-2's suspension ERP (its spring constant
                             ERP / (h CFM) is kept), for the joints of bodies
                             reached from the space's geoms (directly or
                             through joints), noted just before each sub-step.
                             A contact whose surface sets dContactSoftERP
                             keeps its soft_erp, which ODE applies to the
                             sub-step (soft_erp * depth / s, h / s times a
                             full step's speed: a box resting on such
                             contacts is thrown up when an impact elsewhere
                             splits the step); multiply it by
                             dBoxtoiERPScale() in the near callback to keep
                             a full step's speed.  0: unchanged */
    dReal rest_depth;   /**< metres; a pair touching at a sub-step's start is a
                             resting contact, and becomes a new impact (a
                             sub-step ends there) only when it would get
                             deeper than it was then by more than this
                             during the sub-step, e.g. a box rotating into
                             a thin wall after hitting it (for a plane: a
                             vertex gets that deep; for two boxes: each
                             shrunk by half of depth + rest_depth, they
                             meet, which takes a penetration depth, the
                             least overlap along the 15 separating axes,
                             between 1 and sqrt(2) times depth +
                             rest_depth).
                             <= 0 or NaN (the default: 0) means automatic:
                             max(2 |gravity| h^2, 2% of the smaller box's
                             smallest side; sides of length 0, as of a flat
                             panel, not counted), so that a box resting on a
                             static support, which the free-body prediction
                             lets fall by |gravity| h^2, is not an impact;
                             but at most that smallest side, so that a box
                             smaller than 2 |gravity| h^2 (a millimetre box
                             at 60 Hz) cannot sink out of sight into what it
                             lies on (such a box resting takes two or three
                             sub-steps a step).
                             A pair apart at a sub-step's start is an impact
                             only when it would get deeper than this by the
                             end of the step (for two boxes: each shrunk by
                             half of it, they still meet, which takes a
                             depth between rest_depth and sqrt(2) rest_depth;
                             for a plane: a vertex gets that deep), or when
                             it closes faster than this per step where it
                             first touches (its speed along the contact
                             normal, times h, exceeds it: a fast box meeting
                             a wall just before the step ends); a slower
                             approach, such as a box settling onto another
                             or onto the ground, is left to ODE's contacts
                             of the next step, as plain ODE does.
                             For two boxes each is shrunk on every face by
                             at most a quarter of that side's length, so
                             depths beyond those two quarters together count
                             whatever rest_depth says: a box thinner than
                             about 2 |gravity| h^2 (5 mm at 60 Hz) resting
                             on a box as thin is an impact every step (one
                             more sub-step; with quick, whose iterations
                             leave such stacks jittering, more: ten 30 x
                             20 cm plates resting on each other, 20
                             iterations, took 3.5 world steps a step at
                             10 mm, 6 at 5 mm, 1.1 at 20 mm, and about 1 at
                             100 iterations), and a large rest_depth does not
                             stop impacts of thin boxes, as it does against
                             a plane */
    int max_redos;      /**< times one sub-step may be redone after the
                             check of the paths the bodies actually took
                             (see dWorldStepToContact; default 4); 0 (or
                             less) turns the check off */
} dBoxtoiStepParams;

ODE_BOXTOI_API dBoxtoiStepParams dBoxtoiDefaultStepParams(void);

/**
 * Called from the near callback of dWorldStepToContact: the factor s / h by
 * which the step scales the world's and the joints' ERPs for the sub-step
 * (of length s, of a step h) whose contacts the callback is making, when
 * scale_erp is on; 1 when it is off, for a sub-step taking the whole step,
 * and outside the callback (in plain dSpaceCollide, or in another thread).
 * A contact with dContactSoftERP keeps the soft_erp it is given, so a
 * callback that sets one keeps a full step's correction speed with
 *
 *     c.surface.soft_erp = 0.2 * dBoxtoiERPScale();
 *
 * The factor is that of the sub-step as planned when the callback runs: one
 * that the step then lengthens or shortens because the callback ignored a
 * pair that was to end it (a sensor) keeps the contacts made for it.
 */
ODE_BOXTOI_API dReal dBoxtoiERPScale(void);

/** Statistics of the last dWorldStepToContact call. */
typedef struct dBoxtoiStepStats {
    int substeps;       /**< sub-steps taken */
    int impacts;        /**< new impacts stepped to, sensors entered
                             included (see dWorldStepToContact), and the
                             speculative sub-steps ended where a pair met
                             through its contacts (so not 0 with
                             max_substeps 1); and a
                             pair touching at a sub-step's start that would
                             get deeper than rest_depth later than
                             min_substep into it: the sub-step after a hit,
                             whose contacts ODE has not yet applied, is one
                             when the pair's approach takes longer than
                             min_substep to cover the margin (a 5 cm box
                             hitting a wall at 0.5 to 6 m/s, no gravity,
                             counted 2 impacts; at 20 to 100 m/s, 1 and a
                             resolution; 3 sub-steps either way) */
    dReal first_toi;    /**< time of the first of them in the step, or -1 */
    int resolutions;    /**< short sub-steps (min_substep) taken to let ODE
                             resolve contacts: of a pair still approaching
                             (deeper than rest_depth within min_substep),
                             speculative ones once max_substeps is spent,
                             and those of a sub-step taking the rest whose
                             redos ran out */
    int speculative;    /**< 1 when the sub-steps ran out with impacts still
                             ahead and the last sub-steps used speculative
                             contacts */
    int redos;          /**< sub-steps redone because the bodies' actual
                             paths met where no contact was (not counted in
                             substeps) */
    int unverified;     /**< pairs whose actual paths still met, without
                             contacts or through their speculative ones,
                             when the redos of a sub-step were spent (the
                             step went on with them) */
    int retakes;        /**< tries of a sub-step taken again with the other
                             solver because the bodies ended them with far
                             more kinetic energy than they could gain, or
                             one of them far faster (an LCP failure; see
                             dWorldStepToContact) */
} dBoxtoiStepStats;

/**
 * Advance the world by h, stopping at each first contact: predict motions,
 * find the earliest first contact time tau in (min_substep, remaining]
 * among the pairs the space proposes, step the world by tau, let
 * near_callback (ODE's usual callback, given data) create contact joints in
 * `contacts` for pairs now touching, and go on with the rest of the step.
 * When nothing meets this is dWorldStep(world, h) after one dSpaceCollide:
 * the same state as plain ODE.  In a simple or a hash space the near
 * callback meets the pairs in plain ODE's order, as long as the space is
 * collided only through these calls (a dSpaceCollide of the application's
 * own between two steps can change the order of the next one); it may also
 * meet pairs that are only near, since a box's bounds cover its motion over
 * the step, and boxes about to touch (within min_substep) get contacts
 * where ODE's box collider gives none yet.
 *
 * Details:
 *  - a pair is looked after only when one of its geoms has a dynamic body
 *    (enabled or not: a contact wakes a disabled body).  ODE moves a
 *    kinematic body, and a geom without a body, through whatever it meets,
 *    and contact joints between those change nothing: such pairs are
 *    neither stepped to nor checked, and the near callback gets them as
 *    without the plugin;
 *  - an impact is a first contact of a pair apart now that would get
 *    deeper than rest_depth by the end of the step, or that closes faster
 *    than rest_depth per step where it first touches (its speed along the
 *    contact normal there, times h); the sub-step ends at the first
 *    contact itself (not at that depth).  A pair that would touch but
 *    neither get that deep nor close that fast (a box settling onto the
 *    ground) is not stepped to: ODE sees its contact in the next step, as
 *    without the plugin (it penetrates by less than rest_depth meanwhile);
 *  - two boxes that first meet at a lip, overlapping there along a face axis
 *    of either box (at more than 45 degrees from the contact's normal) by at
 *    most half of either box's extent along it, that overlap not growing both
 *    faster than the margin per step and faster than a quarter of their
 *    closing speed along the normal, and either at most the resting margin
 *    deep, or at most twice that where one of them, moving, rests on supports
 *    (each a plane it touches at the sub-step's start, or a box it touches
 *    then along the lip's axis, within 45 degrees, not on a side, with its
 *    lowest point then over that box, whose face towards the lip, within 45
 *    degrees of its axis, lies under the box's centre, no more than twice the
 *    margin above its lowest point) whose faces are all at most the margin
 *    below the other's at the contact point, are not an impact for closing
 *    fast: a box sliding over the seam between two tiles meets the next
 *    tile's side face as deep below its top as it sank into the first (and
 *    deeper where it rocks), and stopping there would trip it.  A box falling
 *    fast onto a plate just past its rim, moving over it, is no lip; nor is a
 *    curb rising more than the margin above the floor the box slides on (a
 *    rail beside the box, touching its side, is no support), nor a door's
 *    lower edge hanging into its path (the floor is on the box's other side).
 *    Such a pair is an impact only where it gets deeper than the margin, and
 *    along the lip's axis deeper than that by, where one rests on supports,
 *    the larger of the greatest step up from them and the lip's first depth
 *    less three quarters of the margin (a box then sinks into the tile ahead
 *    by the margin more than into the one it left; the sub-step ends there,
 *    and speculative contacts are put there too).  The colliders give it no
 *    contacts before dBoxBox finds it touching (nor, closing faster than the
 *    margin per step, while only the solver, within its tolerance, does: a
 *    box whose front comes to rest on the seam to rounding); ODE's contacts
 *    push the box up over the lip, as without the plugin.  So a step no
 *    higher than the margin (5 mm at 60 Hz, automatically) is ridden over,
 *    not stopped against, even by a box sunk into the tile it leaves and
 *    rocking on it (a fast box may cross it within one step, with no contact
 *    at all).  The supports are looked for with dSpaceCollide2 in the
 *    outermost space holding the box, so they must share a space tree with
 *    it; geoms that the space's category and collide bits keep from the box
 *    do not count, but geoms the near callback makes no contact joints for
 *    do: a box sunk into a sensor pad lying on the floor rides over an edge
 *    up to the margin above the pad's top, so keep sensors from boxes with
 *    those bits;
 *  - within the step the colliders report only contacts that exist now (or
 *    within min_substep, with time of impact reading 0 when it is within
 *    1e-9 times min_substep);
 *  - pairs already touching are resting contacts, not impacts; they become
 *    a new impact only when they would get deeper than they are by more
 *    than rest_depth (a box tumbling into a wall after a vertex hit).  That
 *    is found on copies of the two boxes shrunk on every face, each by at
 *    most a quarter of that side's length, so it holds only while the
 *    pair is less deep than those two quarters together (half the thin
 *    box's thickness, against a large box).  A pair deeper than that at a
 *    sub-step's start (a thin plate far into a thin wall) is not searched
 *    for getting deeper; when its boxes can move by more than rest_depth
 *    relative to each other, a check of the sub-step (below) counts it as
 *    getting through, so the sub-step is redone with contacts that push the
 *    two apart along dBoxBox's normal at the start, and stats->unverified
 *    counts it when that does not part them;
 *  - in the sub-step after an impact, the pair that met gathers its
 *    contacts with a margin: as far as its two bodies can close over the
 *    rest of the step (relative speed, plus each spin times the body's
 *    reach), at most 5% of the smaller box's smallest side.  Two boxes are
 *    grown by it for dBoxBox (the contacts get depth 0); a box on a plane
 *    gets every vertex within it, at its own depth less the margin.  So a
 *    face that comes down almost flat stops as a whole, as in one
 *    simultaneous impact, instead of on the corner that met first, whose
 *    impulse would spin the box before the next corners' impacts launch it;
 *  - a touching pair that still approaches fast gets a short sub-step
 *    (min_substep) so that ODE resolves its contact before the rest of the
 *    step is predicted;
 *  - when max_substeps runs out with impacts ahead, every pair that would
 *    meet (or get deeper than rest_depth) within the rest of the step gets
 *    speculative contacts: depth 0, the normal of that future contact, at
 *    the current poses, on the corners of a rectangle containing the
 *    smaller box's outline seen along the normal (the moving box's, when
 *    the other geom has no body; a triangle when the callback asks for
 *    three contacts; the nearest vertices when fewer), so that no point of
 *    it may approach: approaches stop early (bounce applies, as the
 *    callback set it) rather than pass.  Two moving boxes whose points that
 *    would meet are further apart now than half the smaller box's smallest
 *    side get one contact instead, halfway between those two points, with
 *    the normal along the line through them: ODE applies a contact's
 *    impulse to both bodies at its position, and only there are both lever
 *    arms right (at one box, an impulse meant to stop the far box would
 *    spin it instead).  Those contacts
 *    first get up to 4 short sub-steps of min_substep each, with a new
 *    prediction after each, so that a box deflected by one is caught by
 *    the next; then the rest is taken in one sub-step, with speculative
 *    contacts again when impacts are still ahead.  Those contacts hold
 *    the velocities at the sub-step's start, and a body that turns far
 *    over the rest of the step swings past them: a 10 cm box 0.3 m off
 *    the centre of its body, spun at 70 rad/s by hits on a 1 cm wall at
 *    30 m/s, went through it.  So where the check below finds a pair that
 *    met through the speculative contacts it had, more than min_substep
 *    into the sub-step and more than min_substep before its end, that
 *    sub-step is taken again to end where the pair met (at most 8 times
 *    max_substeps a call; stats->redos counts the try undone, and
 *    the shorter sub-step is checked in turn, with redos of its own), and
 *    the step goes on from there.  That box now stays in front of the
 *    wall at 30 to 100 m/s.  Among 200 random bodies of that kind (boxes
 *    of 2 to 20 cm, 0 to 0.5 m off their bodies' centres, 5 to 100 m/s,
 *    spinning at up to 30 rad/s about each axis, against walls 1 to 50 mm
 *    thick, and 400 m wide) 4 to 9 still got through, where 46 to 59 did
 *    before (four draws), with about a fifth more sub-steps: boxes of 2
 *    to 5 cm, 0.3 to 0.5 m off the centre, whose grinding along the wall,
 *    spun at hundreds of rad/s, spent the sub-steps and redos a third of
 *    the way through a step, the rest of which then took them through.
 *    So these cuts, and the short sub-steps that replace a sub-step
 *    taking the rest whose redos ran out (below; those past max_redos
 *    while they stop the pairs), may go on to 8 times max_substeps and
 *    max_redos a call: of 1000 such bodies 4 got through, where 33 did
 *    with max_substeps and max_redos as the limits (with
 *    dWorldQuickStepToContact alike), and of 500 of two other draws 1
 *    and 0, where 12 and 9 did.  The work of the costliest call grows:
 *    among those 1000 bodies, the most sub-steps and redos in one call
 *    went from 49 to 152 (62 to 183 with quick), and the tries per call
 *    over all their steps from 1.22 to 1.23 (1.24 to 1.25).  With
 *    max_substeps 16 and max_redos 8 none of the 1000 got through (the
 *    costliest call 211 tries, 1.29 a call).
 *    stats->substeps counts these sub-steps too; stats->speculative
 *    reports that it happened;
 *  - speculative contacts need room: a near callback that asks dCollide for
 *    fewer than three contacts per pair gives them one or two points, about
 *    which a spinning box can pivot and pass (eight boxes at up to 100 m/s
 *    in a room of 1 cm walls all got out with one contact per pair, none
 *    with three); stats->unverified counts such pairs.  Ask for four or
 *    more;
 *  - ODE gives each contact the bounce of the approach speed at its own
 *    position, and the corners of a speculative rectangle lie outside the
 *    box, where a spinning box's rigid motion approaches faster than any
 *    of its points: with bounce near 1, a redone or speculative sub-step
 *    can add energy (a 10 cm box at 100 m/s bouncing off a wall with
 *    bounce 1 left with 41 % more; eight such boxes in a room gained far
 *    more and some got out).  Bounce 0.9 or less added none in those
 *    scenes.  The speculative sub-steps ended where a pair met through
 *    its contacts (above) keep more bodies inside, meeting again: in rooms
 *    of eight bodies (2 m, 1 m walls, no gravity, mu 0.5, 60 m/s, half of
 *    the boxes up to 0.4 m off their bodies' centres), 24 of 160 runs of
 *    2 s gained more than 10 % of their energy with bounce 1 (13 before
 *    those cuts), and 13 with bounce 0.95 (8 before); with max_substeps
 *    16, 8 with bounce 1; with 64, 1 with either, and with max_redos 0
 *    too, none (measured before the retakes below, which stop sudden
 *    gains only).  Where energy must be kept with a bounce near 1, give
 *    max_substeps room (and set max_redos to 0);
 *  - dWorldStep solves all the contacts of a body together, and with many
 *    on one body its LCP can fail (ODE's "LCP internal error") and launch
 *    the body, with or without the plugin: a box resting on or sliding
 *    over a grid of tiles much smaller than itself, each pair giving up to
 *    eight contacts.  In 300 random such scenes (tiles 2 cm to 1 m, boxes
 *    1 to 30 cm, 2 to 10 m/s, no friction, bounce 0) one box was thrown
 *    5 m up in a redone sub-step, where the redo's contacts joined some
 *    hundred others (before the retakes below); plain ODE, in the same
 *    scenes, raised the box's mean speed by half at 5 m/s and doubled it
 *    at 2 m/s.  With friction
 *    (mu > 0 without dContactApprox1) the message also comes with few
 *    contacts: one small box resting on three or four corners on a floor,
 *    or in a corner of the room, in every kind of space; from the same
 *    state, plain ODE's dBox contacts and dWorldStep give the same message
 *    (the same pivot), and whether a step meets it hangs on the last bits
 *    of the state, the order of the contacts and the sub-step's length, so
 *    the plugin meets it in other steps than plain ODE does (about as
 *    often, in rooms of 5 mm to 3 cm boxes).  With mu 0 or
 *    dContactApprox1 those scenes gave none.  A failure can also end the
 *    program: in one fuzzed room (plane walls, gravity, 3 and 20 cm boxes
 *    at 100 m/s, mu 0.16, bounce 0.992, max_substeps 3) the LCP failed in
 *    a sub-step where one box had contacts with two others and several
 *    walls, and launched a box at rest at 340 km/s (the room's energy
 *    times 3e6); ODE's next step stopped the program (the assertion in
 *    dNormalize4).  With many speculative contacts and a bounce,
 *    dWorldStep can also give far more than they ask for without a
 *    message (a room of eight boxes at up to 100 m/s, bounce 0.91, gained
 *    6, 45 and 2,400 times its energy in three redos of one sub-step).
 *    So a try of a sub-step that can be taken again (the check of the
 *    paths on: max_redos > 0, contacts not NULL), of bodies with no joint
 *    other than contacts (motors give energy) and with no boxtoi box in
 *    the space on an explicit motion (it pushes bodies at speeds of its
 *    own), is taken again with the other solver (dWorldQuickStep after
 *    dWorldStep, dWorldStep after dWorldQuickStep) when the bodies that
 *    have had contacts in the step (the others keep their energy, but for
 *    the work of their forces, and a heavy one's would hide a light one's
 *    launch) have at its end more than twice the kinetic energy they can
 *    have: their energy at the start of the step, plus the work that
 *    gravity and their forces and torques can have done since (each at
 *    most its size times the distance or angle that the speed and the
 *    acceleration cover), plus the energy of their mass at the speed that
 *    pushing geoms apart can give (an ERP of 1, scaled with scale_erp, on
 *    depths of four resting margins, within the world's
 *    dWorldSetContactMaxCorrectingVel), plus eight times their mass times
 *    the square of the speed of a kinematic body's fastest point (what an
 *    elastic hit can give), or when one of them then moves faster than
 *    eight times the speed of the fastest point of one of them at the
 *    start of the step, or of a kinematic body, plus the speeds that
 *    pushing apart and the largest acceleration by gravity and their
 *    forces can add since (a hit with a bounce of at most 1 changes a
 *    body's velocity by at most twice the speed at which the points that
 *    meet close: at most five times that speed; the energy misses a light
 *    body launched among heavier ones: a 3 cm box at rest in a room of
 *    eight boxes was launched to 2,400 m/s by an LCP failure, the room's
 *    energy within twice its own, a fuzzed room kept in
 *    tests/data/fuzz/plugin.hex).
 *    The retake is kept as it ends
 *    (a redo of the near callback's pairs, not counted in stats->redos;
 *    stats->retakes counts it).  In that room of eight boxes
 *    dWorldQuickStep lost energy where dWorldStep gained it, and the
 *    fuzzed room above now runs to its end.  In 1.5 m rooms of eight 3
 *    to 20 cm boxes at 30 to 100 m/s and up to 80 rad/s, no gravity,
 *    bounce 0.5 to 1, 40 steps with max_substeps 1 to 8
 *    (tests/test-plugin-step.c), 2 of 300 more than doubled their energy
 *    without the retakes (299 times at most), none with them (about 200
 *    of them in all).  The same rooms beside a body of 1000 kg flying
 *    away outside, which touches nothing, with a thousand times the boxes'
 *    energy: while the check counted every body, 4 of 300 more than
 *    doubled their energy (3.55 times); now that body changes nothing
 *    (the same retakes and energies as without it).
 *    What the check leaves: energy gained a little in
 *    each step (bounces near 1, above: the same rooms with eight 10 cm
 *    boxes at 60 m/s and a bounce of 1 gained more than 10 % in 12 of
 *    300, and 1 of them more than doubled it, 2.2 times, with 587
 *    retakes); a body launched a few times faster at a time, within
 *    those bounds; and a retake that gains as much, which is kept all
 *    the same.  Contacts deeper than the
 *    resting margin that the stepper does not see (other classes of geoms)
 *    or with ERPs of their own, and those with a surface velocity
 *    (dContactMotion1), can give energy the check does not count: such a
 *    try is taken again, the same way, with the other solver;
 *  - the sub-step that takes the rest of the step, and every speculative
 *    one (every sub-step, when a body reached from the space has a joint
 *    other than a contact: predictions ignore joint forces, and a wheel
 *    dragged by its car may reach a wall before the impact that ends the
 *    sub-step), is checked afterwards (max_redos > 0, contacts not NULL);
 *    so is any other sub-step at whose end a point of a body's geoms may
 *    lie farther from where its free-body prediction put it (the one the
 *    sub-step was searched with, from the states before the near callback)
 *    than the resting margin (rest_depth, or its automatic value for the smallest
 *    box; at most a quarter of the bodies' shortest box side, since the
 *    automatic 2 |g| h^2 is 5.4 mm at 60 Hz: a millimetre box spun by an
 *    impact can cross a thin wall in the short sub-step after it; the point
 *    is off by at most the distance of the positions plus
 *    the geoms' reach times the difference of the rotations), for the
 *    pairs with such a body: contacts that were resting at the sub-step's start
 *    can still change velocities much (small boxes spinning at thousands of
 *    rad/s bouncing off each other), a prediction may only approximate the
 *    turn (the gyroscopic term on while a torque acts), and the sub-step's
 *    end came from the predictions.  Each
 *    body's actual path over it is known then (ODE moved it by
 *    p0 + t v1 and normalize(q0 + (t/2) (0, w1) q0), recovered from the
 *    saved start pose and the end pose, so it holds with the gyroscopic
 *    mode on and with damping too; with finite rotation mode it is an
 *    approximation), the boxes are armed with those paths and the space
 *    is collided again.  A pair with a boxtoi box (against a boxtoi box, a
 *    dBox or a plane) whose actual paths meet within the sub-step and get
 *    deeper than the resting margin (for a pair touching at the sub-step's
 *    start: deeper than it was by the margin) passed through or into
 *    something: a box deflected during the sub-step by a contact, heading
 *    for a wall it was not predicted to reach.  Then every body reached
 *    from the space is put back to its state at the sub-step's start
 *    (position, quaternion, velocities, enabled flag, and the accumulated
 *    forces and torques; joints are not touched), the contact group is
 *    emptied, and the sub-step is redone.  Where the first of those pairs
 *    met more than min_substep into a sub-step that was not speculative,
 *    the redo ends there, as at an impact (stats->impacts), with no
 *    speculative contacts for them: a body driven by a joint's motor from
 *    rest, which its free-body prediction sees at rest, moves up to what it
 *    meets instead of being held where it is (at most max_redos times per
 *    call; the shorter sub-step is checked in turn, with redos of its
 *    own).  A motor with a force limit gains less speed in the shorter
 *    sub-step, which then ends short of the meeting; where the sub-step
 *    after it meets the same pair with the closing speed growing at the
 *    same rate (to within a factor of two), the redo ends where that rate
 *    brings the pair together; where the motor reaches its speed within
 *    that redo, it ends past the meeting, by less than the resting margin
 *    (which the check accepts; up to 0.8 mm for a 10 cm box), and ODE's
 *    contacts push the pair apart in the steps after.  A body within
 *    min_substep of its meeting (at the speed the motor gives it over the
 *    sub-step) is held there, as a pair touching within min_substep is,
 *    and costs a redo in every step.  Otherwise the near callback gets
 *    the same pairs again, plus those pairs, whose colliders now give
 *    (after their contacts of now, when there is room) speculative
 *    contacts with the normal of that actual first contact, as above.  The
 *    pairs found accumulate over the redos, and are checked again after
 *    each.  With quick set (dWorldQuickStepToContact), a try whose pairs
 *    found are only ones that had those contacts already is taken again
 *    once with dWorldStep, if redos are left: QuickStep's iterations (20
 *    by default) can leave them unenforced, and a body of two boxes at
 *    68 m/s went on through a 1 mm wall past its speculative contacts.
 *    That try costs what dWorldStep costs, which grows with the cube of
 *    the constraints of each island of bodies, where QuickStep's grows
 *    in proportion to them.  It starts from the state that QuickStep's
 *    earlier sub-steps left, and does not help where a joint's motor is
 *    far stronger than QuickStep's contacts can hold: a 1 m arm of
 *    1.25 kg hinged at one end and driven at 10 to 300 rad/s with a force
 *    limit of 1e6 N m into a 5 mm wall went round through it at 20 to 100
 *    iterations, and at 30 to 300 rad/s with 200 (at 1 kN m it stopped
 *    at 10, 100 and 300 rad/s, and at 30 rad/s with 50, 100 and 200
 *    iterations).  dWorldStepToContact
 *    stopped it below 100 rad/s; at 100 and 300 rad/s with 1e6 N m,
 *    ODE's own hinge comes apart by more than a metre (1.4 m) and the
 *    arm gets through there too.
 *    After
 *    max_redos redos of a sub-step that takes the rest, or as soon as the
 *    pairs found are only ones that had those contacts already (another
 *    try would end the same way), that sub-step becomes a short one
 *    (min_substep) with all those contacts and the step goes on with fresh
 *    predictions (max_redos times per call, and up to 8 times max_redos
 *    while the last of those short sub-steps left no pair meeting: a pair
 *    overlapping throughout, such as a box inside one that grows, would
 *    spend them in every step); otherwise the try
 *    that left the fewest such pairs is kept and stats->unverified counts
 *    them.  Pairs
 *    that the callback was given but did not collide are its choice and
 *    not checked; pairs overlapping at the sub-step's start are checked
 *    only for getting deeper.  stats->redos counts the redos.  When
 *    nothing meets, the check changes nothing (the state stays that of
 *    plain ODE); its cost is one more pass of the space per checked
 *    sub-step.  A restored quaternion is normalised again by ODE, so a
 *    redone sub-step starts from a pose that may differ in the last bit;
 *  - the space is collided once per sub-step (and once more to check
 *    one, with the colliders not called): the near callback receives
 *    the pairs of that pass, in its order, and the colliders answer at once
 *    for pairs already known not to touch within the sub-step's window;
 *  - each sub-step, and each redone try of one, is a dWorldStep (or
 *    dWorldQuickStep) of its own: a body's moved callback
 *    (dBodySetMovedCallback) is called after each of them
 *    (stats->substeps + stats->redos times for a body moving throughout,
 *    while the sub-step's scaled ERPs and damping, below, are in effect),
 *    and a joint's feedback (dJointSetFeedback) holds the forces of the
 *    last, over its length (a steady load reads as under dWorldStep).  The
 *    contact joints made for a sub-step hold its forces only: summed over
 *    all the contacts the callback made in a step, a box resting on the
 *    floor while impacts elsewhere split the step into three weighs three
 *    times its weight.  Weight each contact's force by dBoxtoiERPScale()
 *    read in the callback that made it (with scale_erp on, the default:
 *    its sub-step's share of h), and count only the contacts of the last
 *    call for a sub-step that is redone;
 *  - the forces and torques accumulated on the bodies of the space's geoms
 *    (and of bodies joined to them) are put back before each sub-step, so
 *    they act over the whole step; other bodies get theirs in the first
 *    sub-step only;
 *  - those other bodies (no geom in the space or its sub-spaces, no chain
 *    of joints to a body that has one) are not put back when a sub-step is
 *    redone either, so they advance once more with each redo
 *    (stats->redos): ODE offers no way to list a world's bodies.  Give
 *    every moving body a geom in the space or a joint to one that has one,
 *    or set max_redos to 0.  A dQuadTreeSpace cannot list its geoms either:
 *    there its boxtoi boxes count, and the geoms that can collide (enabled,
 *    with a category or collide bit), not a disabled dBox or sphere, whose
 *    body (with no other way in) then gets its forces in the first sub-step
 *    only;
 *  - damping and auto-disabling keep their meaning per step (for the
 *    bodies reached from the space): ODE applies a body's damping once per
 *    dWorldStep, so in a sub-step of length s its damping scales become
 *    1 - (1 - scale)^(s/h) (the step's damping over the whole step), put
 *    back after it; and ODE counts each dWorldStep as one idle step, at
 *    its start, from the velocities the body starts it with, so a body
 *    auto-disabled by idle steps (idle time 0, one velocity sample, ODE's
 *    defaults) is counted once per step, in the first try of its last
 *    sub-step, and not again when a sub-step is redone (from the same
 *    velocities); a body that the undone try put to sleep is woken for the
 *    redo one idle count from sleep (ODE's dBodyEnable would start its
 *    count afresh), so that it falls asleep in the step it does under
 *    dWorldStep.  A body with an idle time is counted in every sub-step,
 *    each by its own length, but not in one that starts before the end of
 *    the time an undone try counted; one averaging several samples counts
 *    every sub-step and every try as a step;
 *  - pairs whose bodies are connected by a joint other than a contact are
 *    not searched for impacts (the usual near callback skips them);
 *  - a pair with a boxtoi box (against a boxtoi box, a dBox or a plane),
 *    touching or meeting within the step, that the near callback did not
 *    collide (or, inside a sub-space, did not reach), or collided, got
 *    contacts for and attached no joint to the pair's bodies for (a
 *    sensor), is the callback's choice: for the rest of the step it is
 *    neither searched for impacts nor checked, so a box flying through a
 *    trigger volume does not spend sub-steps on it.  A sensor the callback
 *    collides is known only once it touches, so entering it ends a
 *    sub-step; that sub-step is not counted against max_substeps, and the
 *    next one, once the callback has had the sensor, goes on to the next
 *    impact.  A pair the callback ignores only at times (a one-way
 *    platform) stays ignored until the step ends;
 *  - the space may hold sub-spaces: the pairs inside them are searched for
 *    impacts and checked like the others, while the near callback gets,
 *    as from dSpaceCollide, the pairs involving a space and expands them
 *    itself (dSpaceCollide2, then dSpaceCollide on each space);
 *  - the near callback must not destroy a geom, nor remove one from the
 *    space (ODE forbids both inside dSpaceCollide; here the space is not
 *    locked, but the step keeps the pairs of the pass and uses their geoms
 *    after the callback: a destroyed geom is read after it is freed), nor
 *    destroy a body (the step keeps the bodies reached from the space
 *    across the callback); do it after dWorldStepToContact returns;
 *  - the near callback runs inside the step, whose state the colliders of
 *    its thread read: a dCollide there answers for the sub-step's window
 *    (min_substep), pairs of another world or space included, and it must
 *    not call dWorldStepToContact itself, which would break the step that
 *    called it;
 *  - a redone sub-step calls the near callback again, after the bodies
 *    were put back: a change it makes to a body (a jump pad setting a
 *    velocity) is undone by a redo and must be made each time it is
 *    called.  Such a change is not in the prediction the sub-step was
 *    searched with, and a body it sends far from that prediction gets its
 *    sub-step checked, as above;
 *  - threads: see the top of this file.
 * contacts may be NULL when the callback manages its own group (it is then
 * never emptied by the step, so that contact joints the callback made in
 * one sub-step act in the later ones too, at the points they were made at,
 * and no sub-step is checked or redone).  params
 * may be NULL for defaults; stats may be NULL.  After it returns, the boxes
 * collide at their poses, as dBoxes do (no contacts of the step to come),
 * and their bounds are their poses', until dBoxtoiPredict or the next step;
 * a box with an explicit motion keeps it, from its start.  space NULL:
 * nothing is searched or collided, and the step is one dWorldStep;
 * near_callback NULL: the impacts are still stepped to, sub-step by
 * sub-step, but no contacts are made.  Returns 1 on
 * success, 0 when ODE's step failed, or, doing nothing (stats: no sub-step,
 * first_toi -1), when world is NULL or h is not positive and finite (which
 * dWorldStep would stop the program for), or when params set a min_substep
 * of h or more.
 */
ODE_BOXTOI_API int dWorldStepToContact(dWorldID world, dSpaceID space, dReal h,
                                       dNearCallback *near_callback, void *data,
                                       dJointGroupID contacts,
                                       const dBoxtoiStepParams *params,
                                       dBoxtoiStepStats *stats);

/** dWorldStepToContact using dWorldQuickStep for each sub-step (and
    dWorldStep for a redo that QuickStep's contacts did not stop). */
ODE_BOXTOI_API int dWorldQuickStepToContact(dWorldID world, dSpaceID space,
                                            dReal h, dNearCallback *near_callback,
                                            void *data, dJointGroupID contacts,
                                            const dBoxtoiStepParams *params,
                                            dBoxtoiStepStats *stats);

#ifdef __cplusplus
}
#endif

#endif /* ODE_BOXTOI_H */
