/*
 * The boxtoi geom class: registration, per-geom data, motions and the swept
 * bounding box.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Written by dBoxtoiInit only (under init_lock). */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int box_class = -1;
static int self_reversed = 0;

/* Every boxtoi box, newest first, of every world and thread: the boxes of
   a dQuadTreeSpace, which cannot list its geoms, are found here.  Linked,
   unlinked and walked under boxes_lock. */
static pthread_mutex_t boxes_lock = PTHREAD_MUTEX_INITIALIZER;
static bt_data *all_boxes = NULL;
static unsigned long box_serial = 0;

/* Is g inside space (directly or through sub-spaces)? */
static int bt_in_space(dGeomID g, dSpaceID space)
{
    for (dSpaceID s = dGeomGetSpace(g); s; s = dGeomGetSpace((dGeomID)s))
        if (s == space)
            return 1;
    return 0;
}

void bt_listed_boxes(dSpaceID space, void (*fn)(bt_data *d, void *ctx), void *ctx)
{
    pthread_mutex_lock(&boxes_lock);
    for (bt_data *d = all_boxes; d; d = d->next)
        if (bt_in_space(d->geom, space))
            fn(d, ctx);
    pthread_mutex_unlock(&boxes_lock);
}

int bt_self_reversed(void)
{
    return self_reversed;
}

/* The stepper's current epoch, per thread (each thread steps its own
   spaces); the epochs themselves are unique across threads. */
static _Thread_local unsigned cache_epoch_ = 0;

void bt_set_cache_epoch(unsigned epoch)
{
    cache_epoch_ = epoch;
}

void bt_cache_free(bt_data *d)
{
    free(d->cache);
    d->cache = NULL;
    d->cache_epoch = 0;
}

static void class_dtor(dGeomID g)
{
    bt_data *d = dGeomGetClassData(g);
    bt_cache_free(d);
    if (d->proxy)
        dGeomDestroy(d->proxy);
    d->proxy = NULL;
    pthread_mutex_lock(&boxes_lock);
    if (d->prev)
        d->prev->next = d->next;
    else if (all_boxes == d)
        all_boxes = d->next;
    if (d->next)
        d->next->prev = d->prev;
    d->prev = d->next = NULL;
    pthread_mutex_unlock(&boxes_lock);
}

int bt_class(void)
{
    return box_class;
}

int dBoxtoiGetClass(void)
{
    return box_class;
}

bt_data *bt_get(dGeomID g)
{
    if (!g || box_class < 0 || dGeomGetClass(g) != box_class)
        return NULL;
    return dGeomGetClassData(g);
}

int dGeomIsBoxtoiBox(dGeomID g)
{
    return bt_get(g) != NULL;
}

/* Binomial shift: m(t) <- m(t + s). */
void bt_motion_shift(boxtoi_motion *m, double s)
{
    if (s == 0)
        return;
    int d = m->degree;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            /* Horner-like repeated synthetic division */
            double a[BOXTOI_MAX_DEGREE + 1];
            for (int k = 0; k <= d; k++)
                a[k] = m->c[k][r][c];
            for (int i = 0; i < d; i++)
                for (int k = d - 1; k >= i; k--)
                    a[k] += s * a[k + 1];
            for (int k = 0; k <= d; k++)
                m->c[k][r][c] = a[k];
        }
}

static void centred_box(const dReal *side, boxtoi_box *b)
{
    for (int i = 0; i < 3; i++) {
        b->hi[i] = 0.5 * (double)side[i];
        b->lo[i] = -b->hi[i];
    }
}

/* Constant motion of the geom's current pose. */
void bt_pose_motion(dGeomID g, boxtoi_motion *m)
{
    const dReal *p = dGeomGetPosition(g);
    const dReal *R = dGeomGetRotation(g);
    double c[4][4] = {{0}};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            c[i][j] = R[i * 4 + j];
        c[i][3] = p[i];
    }
    c[3][3] = 1;
    boxtoi_motion_constant(m, c);
}

/* Bound of a geom that stays where it is: a sphere about its centre. */
static void static_bound(dGeomID g, const boxtoi_box *box, bt_moving *mv)
{
    const dReal *p = dGeomGetPosition(g);
    double r2 = 0;
    for (int i = 0; i < 3; i++) {
        double e = fmax(fabs(box->lo[i]), fabs(box->hi[i]));
        r2 += e * e;
        mv->o0[i] = p[i];
        mv->v[i] = 0;
        mv->a[i] = 0;
    }
    mv->wn = 0;
    mv->alphan = 0;
    mv->rho = sqrt(r2);
    mv->bounded = 1;
}

static _Thread_local bt_path_fn *path_fn_ = NULL;
static _Thread_local void *path_ctx_ = NULL;

void bt_set_path_hook(bt_path_fn *fn, void *ctx)
{
    path_fn_ = fn;
    path_ctx_ = ctx;
}

/* Every coefficient of m finite. */
static int motion_finite(const boxtoi_motion *m)
{
    for (int k = 0; k <= m->degree; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                if (!isfinite(m->c[k][i][j]))
                    return 0;
    return 1;
}

static void body_motion(dGeomID g, dBodyID b, double h, bt_moving *mv)
{
    bt_body_path path;
    int actual = path_fn_ && h > 0 && path_fn_(path_ctx_, b, &path);
    if (!actual && !dBodyIsEnabled(b)) {
        bt_pose_motion(g, &mv->motion);
        mv->valid = INFINITY;
        mv->moving = 0;
        static_bound(g, &mv->box, mv);
        return;
    }
    if (!(h > 0)) {
        bt_pose_motion(g, &mv->motion);
        mv->valid = 0;
        mv->moving = 0;
        static_bound(g, &mv->box, mv);
        return;
    }
    bt_body_terms terms;
    if (actual)
        bt_path_motion(&path, &mv->motion, &terms);
    else
        bt_predict_body_terms(dBodyGetWorld(b), b, h, &mv->motion, &terms);
    bt_apply_offset(g, &mv->motion);
    if (!motion_finite(&mv->motion)) {
        /* a body with a position, orientation, velocity or force out of
           range (an infinite coordinate): no prediction, the pose alone,
           as with no step (plain ODE's own checks then apply) */
        bt_pose_motion(g, &mv->motion);
        mv->valid = 0;
        mv->moving = 0;
        static_bound(g, &mv->box, mv);
        return;
    }
    mv->valid = h;
    mv->moving = 1;
    /* the geom's points lie within |offset| + the box's radius of the
       body's origin, about which the body turns */
    const dReal *bp = dBodyGetPosition(b);
    const dReal *op = dGeomGetOffsetPosition(g);
    double r2 = 0, o2 = 0;
    for (int i = 0; i < 3; i++) {
        double e = fmax(fabs(mv->box.lo[i]), fabs(mv->box.hi[i]));
        r2 += e * e;
        o2 += (double)op[i] * op[i];
        mv->o0[i] = actual ? path.p0[i] : bp[i];
        mv->v[i] = terms.v[i];
        mv->a[i] = terms.a[i];
    }
    mv->wn = terms.wn;
    mv->alphan = terms.alphan;
    mv->rho = sqrt(r2) + sqrt(o2);
    mv->bounded = 1;
}

static void moving_boxtoi(dGeomID g, bt_data *d, bt_moving *mv);

void bt_moving_boxtoi(dGeomID g, bt_moving *mv)
{
    bt_data *d = dGeomGetClassData(g);
    if (cache_epoch_ == 0) {
        moving_boxtoi(g, d, mv);
        return;
    }
    if (d->cache_epoch == cache_epoch_ && d->cache) {
        *mv = *d->cache;
        return;
    }
    moving_boxtoi(g, d, mv);
    if (!d->cache)
        d->cache = malloc(sizeof *d->cache);
    if (d->cache) {
        *d->cache = *mv;
        d->cache_epoch = cache_epoch_;
    }
}

static void moving_boxtoi(dGeomID g, bt_data *d, bt_moving *mv)
{
    centred_box(d->side, &mv->box);
    mv->bounded = 0;
    if (d->has_motion) {
        mv->motion = d->motion;
        bt_motion_shift(&mv->motion, d->motion_shift);
        mv->valid = d->motion_h - d->motion_shift;
        if (mv->valid < 0)
            mv->valid = 0;
        mv->moving = 1;
        return;
    }
    dBodyID b = dGeomGetBody(g);
    if (b) {
        body_motion(g, b, d->h, mv);
        return;
    }
    bt_pose_motion(g, &mv->motion);
    mv->valid = INFINITY;
    mv->moving = 0;
    static_bound(g, &mv->box, mv);
}

void bt_moving_dbox(dGeomID g, double h, bt_moving *mv)
{
    dVector3 side;
    dGeomBoxGetLengths(g, side);
    centred_box(side, &mv->box);
    dBodyID b = dGeomGetBody(g);
    if (b) {
        body_motion(g, b, h, mv);
        return;
    }
    bt_pose_motion(g, &mv->motion);
    mv->valid = INFINITY;
    mv->moving = 0;
    static_bound(g, &mv->box, mv);
}

/* AABB of the box at its current pose, as ODE computes it for dBox. */
static void pose_aabb(dGeomID g, const dReal *side, dReal aabb[6])
{
    const dReal *p = dGeomGetPosition(g);
    const dReal *R = dGeomGetRotation(g);
    for (int i = 0; i < 3; i++) {
        dReal e = (dReal)0.5 * (dFabs(side[0] * R[i * 4 + 0])
                                + dFabs(side[1] * R[i * 4 + 1])
                                + dFabs(side[2] * R[i * 4 + 2]));
        aabb[2 * i] = p[i] - e;
        aabb[2 * i + 1] = p[i] + e;
    }
}

/*
 * The swept box of a body's motion from its bound (bt_moving.bounded) over
 * [0, T]: the origin it turns about moves by f(t) = v t + a t^2, whose
 * range on [0, T] is exact per axis, and the box turns by at most theta =
 * wn T + alphan T^2, which moves none of its points by more than rho theta
 * from where the translation alone takes them (|R - I| <= theta for a
 * turn by theta), nor farther than rho from the origin.  So each axis is
 * covered by the box at t = 0 (from the motion itself) moved by f and
 * grown by rho theta, and by the origin's path grown by rho; the tighter
 * of the two is kept, widened by the quick tests' slack.  0 where the
 * motion's weight at 0 is not positive and finite.
 */
static int bounded_aabb(const bt_moving *mv, double T, double lo[3], double hi[3])
{
    const double(*c0)[4] = mv->motion.c[0];
    double w0 = c0[3][3];
    if (!(w0 > 0 && w0 < INFINITY))
        return 0;
    double theta = mv->wn * T + mv->alphan * T * T;
    for (int i = 0; i < 3; i++) {
        double fa = mv->v[i] * T + mv->a[i] * T * T, fmin_ = fmin(0, fa), fmax_ = fmax(0, fa);
        if (mv->a[i] != 0) {
            double tv = -mv->v[i] / (2 * mv->a[i]);
            if (tv > 0 && tv < T) {
                double fv = mv->v[i] * tv + mv->a[i] * tv * tv;
                fmin_ = fmin(fmin_, fv);
                fmax_ = fmax(fmax_, fv);
            }
        }
        double e = 0;
        for (int j = 0; j < 3; j++)
            e += 0.5 * (mv->box.hi[j] - mv->box.lo[j]) * fabs(c0[i][j]);
        e /= w0;
        double p = c0[i][3] / w0, turn = mv->rho * theta;
        double l = fmax(p - e - turn, mv->o0[i] - mv->rho) + fmin_;
        double h = fmin(p + e + turn, mv->o0[i] + mv->rho) + fmax_;
        double sl = bt_slack(fabs(p) + fabs(mv->o0[i]) + e + mv->rho + fmax_ - fmin_);
        lo[i] = l - sl;
        hi[i] = h + sl;
        if (!(lo[i] <= hi[i]))
            return 0;
    }
    return 1;
}

static void class_aabb(dGeomID g, dReal aabb[6])
{
    bt_data *d = dGeomGetClassData(g);
    bt_moving mv;
    pose_aabb(g, d->side, aabb);
    bt_moving_boxtoi(g, &mv);
    if (!mv.moving || !(mv.valid > 0) || !isfinite(mv.valid))
        return;
    double lo[3], hi[3];
    if (!(mv.bounded && bounded_aabb(&mv, mv.valid, lo, hi))
        && boxtoi_swept_aabb(&mv.box, &mv.motion, 0, mv.valid, lo, hi)
               != BOXTOI_REASON_NONE)
        return;
    /* The swept box contains the pose; keep the union to be safe. */
    for (int i = 0; i < 3; i++) {
        if ((dReal)lo[i] < aabb[2 * i])
            aabb[2 * i] = (dReal)lo[i];
        if ((dReal)hi[i] > aabb[2 * i + 1])
            aabb[2 * i + 1] = (dReal)hi[i];
    }
}

/*
 * Collide two geoms a, b of the class with the probe armed (the collider
 * then only records its first argument): 1 when ODE called it as (a, b),
 * 2 as (b, a), 0 when it did not call it at all, i.e. the class has no
 * collider in ODE's table (as after dCloseODE and a new dInitODE2, which
 * clear the table).
 */
static int probe_order(void)
{
    dGeomID a = dCreateGeom(box_class), b = dCreateGeom(box_class);
    dContactGeom cg;
    bt_probe_arm(1);
    dCollide(a, b, 1, &cg, (int)sizeof cg);
    bt_probe_arm(0);
    dGeomID first = bt_probe_first();
    dGeomDestroy(a);
    dGeomDestroy(b);
    return first == a ? 1 : first == b ? 2 : 0;
}

int dBoxtoiInit(void)
{
    pthread_mutex_lock(&init_lock);
    /* registered, and ODE not re-initialised since */
    if (box_class < 0 || !probe_order()) {
        dGeomClass c;
        memset(&c, 0, sizeof c);
        c.bytes = (int)sizeof(bt_data);
        c.collider = bt_get_collider;
        c.aabb = class_aabb;
        c.aabb_test = NULL;
        c.dtor = class_dtor;
        box_class = dCreateGeomClass(&c);

        /* ODE keeps one collider entry for a class against itself, and its
           reverse flag ends up set: dCollide(a, b) calls the collider as
           (b, a) and flips the contacts.  Find out once, so the collider
           can give dCollide(a, b) exactly the contacts of two dBoxes. */
        self_reversed = probe_order() == 2;
    }
    int c = box_class;
    pthread_mutex_unlock(&init_lock);
    return c;
}

/* A side length the class accepts: finite and not negative (not NaN). */
static int good_length(dReal x)
{
    return x >= 0 && x < dInfinity;
}

dGeomID dCreateBoxtoiBox(dSpaceID space, dReal lx, dReal ly, dReal lz)
{
    if (!good_length(lx) || !good_length(ly) || !good_length(lz))
        return NULL;
    dBoxtoiInit();
    dGeomID g = dCreateGeom(box_class);
    bt_data *d = dGeomGetClassData(g);
    d->side[0] = lx;
    d->side[1] = ly;
    d->side[2] = lz;
    d->h = 0;
    d->has_motion = 0;
    d->last_toi = -1;
    d->geom = g;
    d->cache = NULL;
    d->cache_epoch = 0;
    d->proxy = NULL;
    pthread_mutex_lock(&boxes_lock);
    d->serial = ++box_serial;
    d->prev = NULL;
    d->next = all_boxes;
    if (all_boxes)
        all_boxes->prev = d;
    all_boxes = d;
    pthread_mutex_unlock(&boxes_lock);
    if (space)
        dSpaceAdd(space, g);
    return g;
}

int dGeomBoxtoiBoxSetLengths(dGeomID g, dReal lx, dReal ly, dReal lz)
{
    bt_data *d = bt_get(g);
    if (!d || !good_length(lx) || !good_length(ly) || !good_length(lz))
        return 0;
    d->side[0] = lx;
    d->side[1] = ly;
    d->side[2] = lz;
    d->cache_epoch = 0;
    dGeomMoved(g);
    return 1;
}

void dGeomBoxtoiBoxGetLengths(dGeomID g, dVector3 result)
{
    bt_data *d = bt_get(g);
    for (int i = 0; i < 3; i++)
        result[i] = d ? d->side[i] : 0;
}

boxtoi_reason dGeomBoxtoiBoxSetMotion(dGeomID g, const boxtoi_motion *motion,
                                      dReal h)
{
    bt_data *d = bt_get(g);
    if (!d || !motion)
        return BOXTOI_REASON_NULL;
    double hh = h;
    if (!isfinite(hh))
        return BOXTOI_REASON_INTERVAL_NOT_FINITE;
    if (hh < 0)
        return BOXTOI_REASON_INTERVAL_REVERSED;
    boxtoi_box box;
    centred_box(d->side, &box);
    boxtoi_reason r = boxtoi_validate(&box, motion, 0, hh);
    if (r != BOXTOI_REASON_NONE)
        return r;
    d->motion = *motion;
    d->motion_h = hh;
    d->motion_shift = 0;
    d->has_motion = 1;
    d->cache_epoch = 0;
    dGeomMoved(g);
    return BOXTOI_REASON_NONE;
}

void dGeomBoxtoiBoxClearMotion(dGeomID g)
{
    bt_data *d = bt_get(g);
    if (!d)
        return;
    d->has_motion = 0;
    d->cache_epoch = 0;
    dGeomMoved(g);
}

void dGeomBoxtoiBoxGetMotion(dGeomID g, boxtoi_motion *motion, dReal *h)
{
    bt_data *d = bt_get(g);
    if (!d) {
        if (motion)
            boxtoi_motion_identity(motion);
        if (h)
            *h = 0;
        return;
    }
    bt_moving mv;
    bt_moving_boxtoi(g, &mv);
    if (motion)
        *motion = mv.motion;
    if (h)
        *h = (dReal)(isfinite(mv.valid) ? mv.valid : d->h);
}

dReal dGeomBoxtoiBoxGetLastTOI(dGeomID g)
{
    bt_data *d = bt_get(g);
    return d ? (dReal)d->last_toi : -1;
}


/* The boxtoi boxes of a space, gathered before any is marked moved (which
   reorders the space's list of geoms). */
typedef struct box_set {
    bt_data **v;
    size_t n, cap;
    int failed;
    bt_data *small[64];
} box_set;

static void set_push(bt_data *d, void *ctx)
{
    box_set *s = ctx;
    if (s->failed)
        return;
    if (s->n == s->cap) {
        size_t cap = 2 * s->cap;
        bt_data **v = malloc(cap * sizeof *v);
        if (!v) {
            s->failed = 1;
            return;
        }
        memcpy(v, s->v, s->n * sizeof *v);
        if (s->v != s->small)
            free(s->v);
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = d;
}

/* Walk the space itself, so that only this thread's geoms are read; a
   quadtree cannot list its geoms, so its boxes come from the list of all. */
static void gather_boxes(box_set *s, dSpaceID space)
{
    if (dSpaceGetClass(space) == dQuadTreeSpaceClass) {
        bt_listed_boxes(space, set_push, s);
        return;
    }
    int n = dSpaceGetNumGeoms(space);
    for (int i = 0; i < n; i++) {
        dGeomID g = dSpaceGetGeom(space, i);
        bt_data *d;
        if (!g)
            continue;
        if (dGeomIsSpace(g))
            gather_boxes(s, (dSpaceID)g);
        else if ((d = bt_get(g)))
            set_push(d, s);
    }
}

/* Newest box first, the order of the list of all. */
static int newer_first(const void *a, const void *b)
{
    unsigned long x = (*(bt_data *const *)a)->serial;
    unsigned long y = (*(bt_data *const *)b)->serial;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* What bt_arm sets on each box. */
typedef struct arming {
    double h, shift;
    int reset_toi;
} arming;

/* Whether a box's bounds depend on how it is armed: an explicit motion,
   or a body that moves.  Those of a box without a body, or on a disabled
   one, are its pose's, which ODE marks moved itself when it changes. */
static int armed_bounds(const bt_data *d)
{
    dBodyID b = dGeomGetBody(d->geom);
    return d->has_motion || (b && dBodyIsEnabled(b));
}

static void set_arming(bt_data *d, const arming *a)
{
    d->h = a->h;
    d->motion_shift = a->shift;
    d->cache_epoch = 0;
    if (a->reset_toi)
        d->last_toi = -1;
}

/* Marking a geom moved puts it at the front of its space's list, unless it
   is marked already, and the near callback then meets pairs in another
   order: only boxes whose bounds change are marked. */
static void arm_one(bt_data *d, void *ctx)
{
    set_arming(d, ctx);
    if (armed_bounds(d))
        dGeomMoved(d->geom);
}

static void arm_quietly(bt_data *d, void *ctx)
{
    set_arming(d, ctx);
}

static void mark_armed(bt_data *d, void *ctx)
{
    (void)ctx;
    if (armed_bounds(d))
        dGeomMoved(d->geom);
}

/* fn(d, ctx) for every boxtoi box of the space, newest first. */
static void each_box(dSpaceID space, void (*fn)(bt_data *d, void *ctx), void *ctx)
{
    box_set s;
    s.v = s.small;
    s.n = 0;
    s.cap = sizeof s.small / sizeof s.small[0];
    s.failed = 0;
    gather_boxes(&s, space);
    if (s.failed) {
        /* out of memory: the list of all, as for a quadtree */
        bt_listed_boxes(space, fn, ctx);
    } else {
        qsort(s.v, s.n, sizeof *s.v, newer_first);
        for (size_t i = 0; i < s.n; i++)
            fn(s.v[i], ctx);
    }
    if (s.v != s.small)
        free(s.v);
}

void bt_arm(dSpaceID space, double h, int reset_toi, double shift)
{
    if (!space || box_class < 0)
        return;
    if (!(h >= 0) || !isfinite(h))
        h = 0;
    arming a = {h, shift, reset_toi};
    each_box(space, arm_one, &a);
}

/*
 * Mark moved, from the end of each space's list to its front, the geoms of
 * enabled bodies and the boxes with explicit motions.  A marked geom goes
 * to the front of its list unless it is marked already, and the marked
 * ones lead the list (ODE cleans a space from its front), so when those
 * geoms lead it to begin with, the list keeps its order.  A quadtree
 * cannot list its geoms: its boxes are marked as bt_arm marks them.
 * Returns 0 when out of memory, a space it could not list left unmarked
 * (the caller then marks the boxes as bt_arm does).
 */
static int mark_stepped(dSpaceID space)
{
    if (dSpaceGetClass(space) == dQuadTreeSpaceClass) {
        bt_listed_boxes(space, mark_armed, NULL);
        return 1;
    }
    int n = dSpaceGetNumGeoms(space);
    if (n <= 0)
        return 1;
    dGeomID *list = malloc((size_t)n * sizeof *list);
    if (!list)
        return 0;
    for (int i = 0; i < n; i++)
        list[i] = dSpaceGetGeom(space, i);
    int ok = 1;
    for (int i = n - 1; i >= 0; i--) {
        dGeomID g = list[i];
        bt_data *d;
        if (!g)
            continue;
        if (dGeomIsSpace(g)) {
            ok &= mark_stepped((dSpaceID)g);
            continue;
        }
        dBodyID b;
        if ((d = bt_get(g)) ? armed_bounds(d) : (b = dGeomGetBody(g)) && dBodyIsEnabled(b))
            dGeomMoved(g);
    }
    free(list);
    return ok;
}

void bt_disarm(dSpaceID space, int mark)
{
    if (!space || box_class < 0)
        return;
    arming a = {0.0, 0.0, 0};
    each_box(space, arm_quietly, &a);
    if (mark && !mark_stepped(space))
        each_box(space, mark_armed, NULL);
}

void dBoxtoiPredict(dWorldID world, dSpaceID space, dReal h)
{
    (void)world;
    bt_arm(space, h, 1, 0.0);
}
