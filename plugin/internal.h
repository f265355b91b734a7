/*
 * Private declarations shared by the plugin's sources.
 */
#ifndef ODE_BOXTOI_INTERNAL_H
#define ODE_BOXTOI_INTERNAL_H

#include "../lib/ieee.h"

#include "ode-boxtoi.h"

/* The names these objects define for the linker carry ODE's internal
   prefix and the plugin's name (dxBoxtoi_), so that a program linked with
   the static library can use the short names (tests/test-library.sh finds
   any other). */
#define bt_apply_offset       dxBoxtoi_apply_offset
#define bt_arm                dxBoxtoi_arm
#define bt_cache_free         dxBoxtoi_cache_free
#define bt_class              dxBoxtoi_class
#define bt_disarm             dxBoxtoi_disarm
#define bt_get                dxBoxtoi_get
#define bt_get_collider       dxBoxtoi_get_collider
#define bt_last_toi           dxBoxtoi_last_toi
#define bt_listed_boxes       dxBoxtoi_listed_boxes
#define bt_min_eigen_sym3     dxBoxtoi_min_eigen_sym3
#define bt_motion_shift       dxBoxtoi_motion_shift
#define bt_moving_boxtoi      dxBoxtoi_moving_boxtoi
#define bt_moving_dbox        dxBoxtoi_moving_dbox
#define bt_pair_escape        dxBoxtoi_pair_escape
#define bt_pair_toi           dxBoxtoi_pair_toi
#define bt_path_motion        dxBoxtoi_path_motion
#define bt_pose_motion        dxBoxtoi_pose_motion
#define bt_predict_body       dxBoxtoi_predict_body
#define bt_predict_body_terms dxBoxtoi_predict_body_terms
#define bt_probe_arm          dxBoxtoi_probe_arm
#define bt_probe_first        dxBoxtoi_probe_first
#define bt_reset_last_toi     dxBoxtoi_reset_last_toi
#define bt_self_reversed      dxBoxtoi_self_reversed
#define bt_set_cache_epoch    dxBoxtoi_set_cache_epoch
#define bt_set_path_hook      dxBoxtoi_set_path_hook
#define bt_set_rest_margin    dxBoxtoi_set_rest_margin
#define bt_set_speculative    dxBoxtoi_set_speculative
#define bt_set_window         dxBoxtoi_set_window
#define bt_slack              dxBoxtoi_slack
#define bt_step_apart         dxBoxtoi_step_apart
#define bt_step_ended         dxBoxtoi_step_ended
#define bt_step_forced        dxBoxtoi_step_forced
#define bt_step_note          dxBoxtoi_step_note

/** Per-geom data of the boxtoi class (ODE allocates and zeroes it). */
typedef struct bt_data {
    dReal side[3];          /* full side lengths */
    double h;               /* length of the coming step, s; 0 = not known */
    int has_motion;         /* an explicit motion is set */
    boxtoi_motion motion;   /* explicit motion over [0, motion_h] */
    double motion_h;        /* its step length */
    double motion_shift;    /* time already consumed by sub-steps */
    double last_toi;        /* see dGeomBoxtoiBoxGetLastTOI */
    dGeomID geom;           /* the geom owning this data */
    unsigned cache_epoch;   /* cache below is valid when this equals the
                               stepper's current epoch (non-zero) */
    struct bt_moving *cache; /* the geom's motion, computed once per sub-step */
    struct bt_data *prev, *next; /* list of all boxtoi boxes (locked:
                                    bt_listed_boxes) */
    unsigned long serial;   /* creation order: newer boxes have larger ones */
    dGeomID proxy;          /* a dBox standing in for it in ODE's colliders
                               (made when first needed, destroyed with it) */
} bt_data;

/** The motion of one geom as the colliders see it. */
typedef struct bt_moving {
    boxtoi_box box;         /* centred box, -side/2 .. side/2 */
    boxtoi_motion motion;   /* local frame to world, t in seconds */
    double valid;           /* the motion holds on [0, valid]; INFINITY when the
                               geom is static (any interval) */
    int moving;             /* 0: constant motion */
    /* A bound on the motion over [0, valid] (bounded != 0): the geom's
       points stay within rho of the origin o(t) = o0 + v t + a t^2 of the
       frame they turn about, and turn by at most wn t + alphan t^2
       radians; so a point moves by at most |v| t + |a| t^2 plus rho times
       that angle.  0 for explicit motions. */
    int bounded;
    double o0[3], v[3], a[3];
    double wn, alphan, rho;
} bt_moving;

/* Free-body prediction terms (see bt_predict_body). */
typedef struct bt_body_terms {
    double v[3], a[3];      /* linear velocity and acceleration */
    double wn, alphan;      /* |angular velocity|, |angular acceleration| */
} bt_body_terms;

/* A body's actual path over a sub-step already taken: position
   p0 + t dp, unnormalised quaternion q0 + t dq, t in [0, sub-step]. */
typedef struct bt_body_path {
    double p0[3], dp[3];
    double q0[4], dq[4];
} bt_body_path;
/* While set (non-NULL), body-driven motions come from this lookup instead
   of the prediction, for the bodies it knows (it returns 1 for them). */
typedef int bt_path_fn(void *ctx, dBodyID body, bt_body_path *path);

/* geom.c */
int bt_class(void);
void bt_set_path_hook(bt_path_fn *fn, void *ctx);
bt_data *bt_get(dGeomID g);
void bt_pose_motion(dGeomID g, boxtoi_motion *m);
/* Motion of a boxtoi box over [0, data->h] (or its explicit motion). */
void bt_moving_boxtoi(dGeomID g, bt_moving *mv);
/* Motion of a dBox: static, or predicted from its body over [0, h]. */
void bt_moving_dbox(dGeomID g, double h, bt_moving *mv);
/* Arm every boxtoi box of the space (recursively) for a (sub-)step of h
   seconds that starts shift seconds into the step of an explicit motion,
   and mark moved those whose bounds this changes (explicit motions, enabled
   bodies); reset_toi clears the last time of impact. */
void bt_arm(dSpaceID space, double h, int reset_toi, double shift);
/* At the end of a step: every boxtoi box of the space set to a step of 0
   (current poses, no search in time; explicit motions keep theirs, from
   their start) without being marked moved.  After one dWorldStep, which
   marked the geoms of the bodies it moved (the only boxes whose bounds this
   changes), mark is 0; after sub-steps and collide passes it is 1: the
   geoms ODE's step marks (those of enabled bodies), and the boxes with
   explicit motions, are then marked again in an order that leaves each
   space's list as the step left it. */
void bt_disarm(dSpaceID space, int mark);

/* Call fn(d, ctx) for each boxtoi box inside space (directly or through
   sub-spaces), found in the list of all of them, of every thread (for a
   quadtree, which cannot list its geoms); the list is locked meanwhile, as
   other threads create and destroy boxes, so fn must not create or destroy
   one. */
void bt_listed_boxes(dSpaceID space, void (*fn)(bt_data *d, void *ctx), void *ctx);
/* Non-zero when ODE calls the boxtoi-boxtoi collider with its arguments
   reversed (and flips the contacts afterwards). */
int bt_self_reversed(void);

/* predict.c */
/* Smallest eigenvalue of a symmetric 3x3 matrix (closed form, to a few
   DBL_EPSILON times the largest); NaN when the matrix is not finite. */
double bt_min_eigen_sym3(const double A[3][3]);
int bt_predict_body(dWorldID world, dBodyID body, double h, boxtoi_motion *m);
/* The same, also giving the prediction's terms (terms may be NULL). */
int bt_predict_body_terms(dWorldID world, dBodyID body, double h,
                          boxtoi_motion *m, bt_body_terms *terms);
/* Motion of a body's actual path (see bt_body_path); terms as above with
   no acceleration. */
void bt_path_motion(const bt_body_path *path, boxtoi_motion *m,
                    bt_body_terms *terms);
/* Compose a body motion with the geom's offset from its body (if any). */
void bt_apply_offset(dGeomID g, boxtoi_motion *m);

/* collide.c */
dColliderFn *bt_get_collider(int num);

/* The rounding allowance of the quick tests from motion bounds, for
   quantities adding up to x. */
double bt_slack(double x);
/* Probe of the argument order ODE uses for boxtoi-boxtoi pairs: while
   armed (on this thread), the collider records its first argument and
   returns 0. */
void bt_probe_arm(int on);
dGeomID bt_probe_first(void);
/* Contact window of the colliders: < 0 reports contacts anywhere in the
   step; >= 0 only those within that time (set by the stepper). */
void bt_set_window(double window);
/* The stepper's resting margin, max(deep_rel * smallest side, deep_abs),
   and its whole step (s), for the colliders within a sub-step: a pair
   first meeting at a lip within the window gets no contacts (deep_rel < 0:
   no stepper, no rule). */
void bt_set_rest_margin(double deep_rel, double deep_abs, double step);
/* Speculative mode (deep_rel >= 0): touching pairs also report contacts
   where they will first be deeper than max(deep_rel * smallest side,
   deep_abs) within the window.  deep_rel < 0 turns it off. */
void bt_set_speculative(double deep_rel, double deep_abs);
/* What the stepper asks of a pair. */
typedef struct bt_toi_params {
    double tmax;      /* look ahead this far (s) */
    double window;    /* contacts closer in time than this are "now" */
    double deep_rel;  /* a pair touching now is a new impact only when it */
    double deep_abs;  /* gets deeper than max(deep_rel * smallest side,
                         deep_abs) */
    double step;      /* the whole step (s): a pair apart now that meets
                         closing faster than the margin per step is an
                         impact however shallow it gets by tmax; 0: no such
                         rule */
} bt_toi_params;
/* First contact of a proposed pair, for the stepper.  Returns
   0: no contact;
   1: resting: touching now (or within the window) and not getting deeper
      than the margin within the window;
   2: new impact at *toi > window (a first contact, or a touching pair
      getting deeper than the margin);
   3: touching and approaching fast (deeper than the margin within the
      window, at *toi): ODE must resolve the contact before the rest of
      the step can be predicted. */
int bt_pair_toi(dGeomID o1, dGeomID o2, const bt_toi_params *p, double *toi,
                int *first);
/* Verification of a sub-step already taken, with the boxes armed for it
   and the bodies' actual paths set (bt_set_path_hook): did the pair meet
   within [0, p->tmax] and get deeper than the margin (as for an impact of
   bt_pair_toi; pairs overlapping at the start are not reported)?  Returns
   1 and sets *g1, *g2 (the pair, a boxtoi box first), normal (at the
   first contact, pointing from *g2 towards *g1), and x1, x2: where the
   points of *g1 and *g2 that met were at the start (NaN when *g2 is a plane
   or a motion is not rigid); else 0. */
int bt_pair_escape(dGeomID o1, dGeomID o2, const bt_toi_params *p,
                   dGeomID *g1, dGeomID *g2, double normal[3], double *toi,
                   double x1[3], double x2[3]);
/* (*first, when first is not NULL, is set to 1 when the answer is 2 for a
   pair apart now and until *toi, else 0.) */
/* Last TOI reported by a collider on this thread (-1 for none). */
double bt_last_toi(void);
void bt_reset_last_toi(void);

/* Motion cache: while the stepper holds the bodies' states still (from
   bt_arm until the world steps) it sets a non-zero epoch (for this thread;
   epochs are unique across threads), and each boxtoi box's motion is
   computed once per epoch; 0 turns caching off. */
void bt_set_cache_epoch(unsigned epoch);
/* Free the geom's cached motion (class destructor). */
void bt_cache_free(bt_data *d);

/* step.c: non-zero when the stepper's analysis of the current sub-step
   found that o1 and o2 do not touch within the colliders' window, so a
   collider can answer 0 at once.  0 outside the stepper. */
int bt_step_apart(dGeomID o1, dGeomID o2);
/* step.c: non-zero when o1 and o2 are the pair whose impact ended the
   stepper's sub-step before the current one (they touch now, to the
   solver's tolerance).  0 outside the stepper. */
int bt_step_ended(dGeomID o1, dGeomID o2);
/* step.c: when the stepper redoes a sub-step, the pairs whose speculative
   contacts it forces: returns 1 and the normal (from o2 towards o1) for
   such a pair, 2 when x1 and x2 (unless NULL) also received the points of
   o1 and o2 that met, at the sub-step's start; *toi (unless NULL) receives
   when they met in the try undone, in seconds into the sub-step.  0
   outside the stepper. */
int bt_step_forced(dGeomID o1, dGeomID o2, dReal normal[3], double x1[3],
                   double x2[3], double *toi);
/* step.c: the colliders report how many contacts they gave a pair while
   the stepper runs the near callback. */
void bt_step_note(dGeomID o1, dGeomID o2, int n);

/* Small helpers (geom.c). */
void bt_motion_shift(boxtoi_motion *m, double s);

#endif
