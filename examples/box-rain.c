/*
 * box-rain: 200 fast boxes thrown around a closed room with thin walls.
 *
 * The room's interior is 4 m x 4 m x 3 m; floor, ceiling and the four walls
 * are static dBox geoms 1 cm thick.  200 boxes with sides of 5 to 20 cm start
 * on a grid inside the room, each with a random orientation, a random
 * direction at 30 to 100 m/s and a spin of up to 10 rad/s per axis, under
 * gravity.  The same scene (fixed seed) is simulated for 10 s at 60 Hz twice:
 *  - plain ODE: dBox geoms, dSpaceCollide + dCollide + contact joints,
 *    dWorldStep, dJointGroupEmpty;
 *  - boxtoi: boxtoi boxes stepped with dWorldStepToContact.
 * A box "escaped" when its centre was outside the room's interior at the end
 * of any step.  Gyroscopic mode is off for every box in both runs, so the
 * plugin's prediction of each step is the exact path dWorldStep follows.
 *
 * Prints the number of escaped boxes and the wall-clock time per step of
 * each run (CLOCK_MONOTONIC around the stepping calls only), and their ratio.
 * The two runs do not carry the same load: boxes that left the room cost
 * plain ODE almost nothing.  So the boxtoi run also keeps a plain ODE twin
 * of its world (same boxes as dBox geoms); before each step the twin's
 * bodies get the boxtoi world's states and one plain step of the twin is
 * timed.  That gives the plugin's overhead on an identical scene: the "same
 * states" ratio.  The twin never feeds back into the boxtoi world.
 * Options: --steps N (default 600), --boxes N (default 200, at most 200),
 * --substeps N (the plugin's max_substeps; default: the plugin's default),
 * --trace (one line per boxtoi step on stderr: its time, the plain twin's
 * time, contact joints of both, and the stepper's statistics; and a line
 * for each box as it escapes, in either run).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode-boxtoi.h>

#include "demo-util.h"

#define STEP (1.0 / 60.0)      /* s */
#define DEFAULT_STEPS 600      /* 10 s */
#define MAX_BOXES 200
#define SEED UINT64_C(31415926)
#define GRAVITY (-9.81)        /* m/s^2, along z */

#define ROOM_X 4.0             /* interior [0, 4] x [0, 4] x [0, 3], m */
#define ROOM_Y 4.0
#define ROOM_Z 3.0
#define WALL 0.01              /* wall thickness, m */

#define SIDE_MIN 0.05          /* box sides, m */
#define SIDE_MAX 0.20
#define SPEED_MIN 30.0         /* m/s */
#define SPEED_MAX 100.0
#define MAX_SPIN 10.0          /* rad/s per axis */
#define DENSITY 1000.0         /* kg/m^3 */

#define GRID_X 8               /* start grid: 8 x 5 x 5 = 200 cells */
#define GRID_Y 5
#define GRID_Z 5

#define MAX_CONTACTS 4

enum mode { MODE_PLAIN, MODE_BOXTOI };

/** Initial state of one box. */
typedef struct box_init {
    double side[3], p[3], q[4], v[3], w[3];
} box_init;

/** An ODE world holding the room and the boxes. */
typedef struct scene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    int nboxes;
    dBodyID body[MAX_BOXES];
    long joints;            /* contact joints made */
} scene;

/** One run: the scene it simulates, and for the boxtoi run a plain twin. */
typedef struct rain {
    enum mode mode;
    scene main;
    scene twin;             /* boxtoi run: a plain ODE copy, stepped from the
                               main scene's states each step, timed only */
    int has_twin;
    int escaped[MAX_BOXES];
} rain;

/* The usual ODE near callback. */
static void near_callback(void *data, dGeomID o1, dGeomID o2)
{
    scene *sc = data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    dContact c[MAX_CONTACTS];

    if (!b1 && !b2)
        return; /* two walls */
    memset(c, 0, sizeof c);
    int n = dCollide(o1, o2, MAX_CONTACTS, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; i++) {
        c[i].surface.mode = dContactBounce | dContactSoftCFM;
        c[i].surface.soft_cfm = 1e-5;
        c[i].surface.mu = 0.5;
        c[i].surface.bounce = 0.3;
        c[i].surface.bounce_vel = 0.5;
        dJointID j = dJointCreateContact(sc->world, sc->contacts, &c[i]);
        dJointAttach(j, b1, b2);
    }
    sc->joints += n > 0 ? n : 0;
}

static void draw_scene(box_init *boxes, int n)
{
    demo_rng rng = {SEED};
    for (int i = 0; i < n; i++) {
        box_init *b = &boxes[i];
        int gx = i % GRID_X, gy = (i / GRID_X) % GRID_Y;
        int gz = i / (GRID_X * GRID_Y);
        double axis[3], dir[3];
        for (int k = 0; k < 3; k++)
            b->side[k] = demo_uniform(&rng, SIDE_MIN, SIDE_MAX);
        b->p[0] = (gx + 0.5) * ROOM_X / GRID_X;
        b->p[1] = (gy + 0.5) * ROOM_Y / GRID_Y;
        b->p[2] = (gz + 0.5) * ROOM_Z / GRID_Z;
        demo_unit_vector(&rng, axis);
        demo_quat_axis_angle(axis, demo_uniform(&rng, 0.0, M_PI), b->q);
        demo_unit_vector(&rng, dir);
        double speed = demo_uniform(&rng, SPEED_MIN, SPEED_MAX);
        for (int k = 0; k < 3; k++) {
            b->v[k] = speed * dir[k];
            b->w[k] = demo_uniform(&rng, -MAX_SPIN, MAX_SPIN);
        }
    }
}

/* A static slab of the room: centre c, full sizes s. */
static void add_slab(dSpaceID space, double cx, double cy, double cz,
                     double sx, double sy, double sz)
{
    dGeomID g = dCreateBox(space, sx, sy, sz);
    dGeomSetPosition(g, cx, cy, cz);
}

/* The six slabs of the room, static dBox geoms. */
static void add_room(dSpaceID space)
{
    const double X = ROOM_X, Y = ROOM_Y, Z = ROOM_Z, T = WALL;
    /* floor and ceiling cover the corners; the walls close the sides */
    add_slab(space, X / 2, Y / 2, -T / 2, X + 2 * T, Y + 2 * T, T);
    add_slab(space, X / 2, Y / 2, Z + T / 2, X + 2 * T, Y + 2 * T, T);
    add_slab(space, -T / 2, Y / 2, Z / 2, T, Y + 2 * T, Z);
    add_slab(space, X + T / 2, Y / 2, Z / 2, T, Y + 2 * T, Z);
    add_slab(space, X / 2, -T / 2, Z / 2, X, T, Z);
    add_slab(space, X / 2, Y + T / 2, Z / 2, X, T, Z);
}

static void scene_init(scene *sc, enum mode mode, const box_init *boxes,
                       int n)
{
    memset(sc, 0, sizeof *sc);
    sc->nboxes = n;
    sc->world = dWorldCreate();
    dWorldSetGravity(sc->world, 0, 0, GRAVITY);
    /* sweep and prune: ODE 0.16's hash space leaves out some pairs whose
       bounding boxes overlap (see ode-boxtoi.h) */
    sc->space = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XYZ);
    sc->contacts = dJointGroupCreate(0);
    add_room(sc->space);
    for (int i = 0; i < n; i++) {
        const box_init *b = &boxes[i];
        dMass m;
        dBodyID body = dBodyCreate(sc->world);
        dMassSetBox(&m, DENSITY, b->side[0], b->side[1], b->side[2]);
        dBodySetMass(body, &m);
        dBodySetGyroscopicMode(body, 0);
        dBodySetPosition(body, b->p[0], b->p[1], b->p[2]);
        dQuaternion q = {b->q[0], b->q[1], b->q[2], b->q[3]};
        dBodySetQuaternion(body, q);
        dBodySetLinearVel(body, b->v[0], b->v[1], b->v[2]);
        dBodySetAngularVel(body, b->w[0], b->w[1], b->w[2]);
        dGeomID g = mode == MODE_BOXTOI
            ? dCreateBoxtoiBox(sc->space, b->side[0], b->side[1], b->side[2])
            : dCreateBox(sc->space, b->side[0], b->side[1], b->side[2]);
        dGeomSetBody(g, body);
        sc->body[i] = body;
    }
}

static void scene_free(scene *sc)
{
    dJointGroupDestroy(sc->contacts);
    dSpaceDestroy(sc->space); /* and its geoms */
    dWorldDestroy(sc->world);
}

static void rain_init(rain *r, enum mode mode, const box_init *boxes, int n)
{
    memset(r, 0, sizeof *r);
    r->mode = mode;
    scene_init(&r->main, mode, boxes, n);
    if (mode == MODE_BOXTOI) {
        scene_init(&r->twin, MODE_PLAIN, boxes, n);
        r->has_twin = 1;
    }
}

static void rain_free(rain *r)
{
    scene_free(&r->main);
    if (r->has_twin)
        scene_free(&r->twin);
}

/* Give every body of dst the state of its counterpart in src. */
static void copy_states(scene *dst, const scene *src)
{
    for (int i = 0; i < src->nboxes; i++) {
        dBodyID s = src->body[i], d = dst->body[i];
        const dReal *p = dBodyGetPosition(s), *v = dBodyGetLinearVel(s);
        const dReal *w = dBodyGetAngularVel(s);
        dBodySetPosition(d, p[0], p[1], p[2]);
        dBodySetQuaternion(d, dBodyGetQuaternion(s));
        dBodySetLinearVel(d, v[0], v[1], v[2]);
        dBodySetAngularVel(d, w[0], w[1], w[2]);
    }
}

/* One plain ODE step. */
static void plain_step(scene *sc)
{
    dSpaceCollide(sc->space, sc, near_callback);
    dWorldStep(sc->world, STEP);
    dJointGroupEmpty(sc->contacts);
}

static int outside(const dReal *p)
{
    return p[0] < 0 || p[0] > ROOM_X || p[1] < 0 || p[1] > ROOM_Y
        || p[2] < 0 || p[2] > ROOM_Z;
}

/*
 * Run the scene; returns the number of escaped boxes, *per_step in s.  In
 * the boxtoi run *same_state receives the cost of a plain step from the same
 * states (0 in the plain run).
 */
static int rain_run(rain *r, int steps, const dBoxtoiStepParams *params,
                    double *per_step, double *same_state, long *substeps,
                    long *impacts, long *ran_out, FILE *trace)
{
    double spent = 0, spent_plain = 0;
    int escaped = 0;
    for (int k = 0; k < steps; k++) {
        double plain_dt = 0;
        long twin_joints = r->twin.joints, joints = r->main.joints;
        dBoxtoiStepStats st;
        memset(&st, 0, sizeof st);
        if (r->has_twin) {
            copy_states(&r->twin, &r->main);
            double t0 = demo_now();
            plain_step(&r->twin);
            plain_dt = demo_now() - t0;
            spent_plain += plain_dt;
        }
        double t0 = demo_now();
        if (r->mode == MODE_PLAIN) {
            plain_step(&r->main);
        } else {
            if (!dWorldStepToContact(r->main.world, r->main.space, STEP,
                                     near_callback, &r->main,
                                     r->main.contacts, params, &st))
                fprintf(stderr, "box-rain: dWorldStepToContact failed at "
                        "step %d\n", k);
            *substeps += st.substeps;
            *impacts += st.impacts;
            *ran_out += st.speculative != 0;
        }
        double dt = demo_now() - t0;
        spent += dt;
        if (trace && r->mode == MODE_BOXTOI)
            fprintf(trace, "step %d: %.3f ms, plain %.3f ms, joints %ld "
                    "(plain %ld), sub-steps %d, impacts %d, resolutions %d, "
                    "speculative %d, redos %d, unverified %d, retakes %d\n", k, 1e3 * dt,
                    1e3 * plain_dt, r->main.joints - joints,
                    r->twin.joints - twin_joints, st.substeps, st.impacts,
                    st.resolutions, st.speculative, st.redos, st.unverified, st.retakes);
        for (int i = 0; i < r->main.nboxes; i++)
            if (!r->escaped[i]
                && outside(dBodyGetPosition(r->main.body[i]))) {
                r->escaped[i] = 1;
                escaped++;
                if (trace) {
                    const dReal *p = dBodyGetPosition(r->main.body[i]);
                    const dReal *v = dBodyGetLinearVel(r->main.body[i]);
                    fprintf(trace, "%s: box %d escaped at step %d: "
                            "position %.6g %.6g %.6g, velocity %.6g %.6g "
                            "%.6g\n", r->mode == MODE_PLAIN ? "plain"
                            : "boxtoi", i, k, p[0], p[1], p[2], v[0], v[1],
                            v[2]);
                }
            }
    }
    *per_step = steps > 0 ? spent / steps : 0;
    *same_state = steps > 0 ? spent_plain / steps : 0;
    return escaped;
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s ? s : "", &end, 10);
    /* digits only: strtol alone would take " 3" and "+3" */
    if (!s || *s < '0' || *s > '9' || *end != '\0' || errno || v < lo || v > hi) {
        fprintf(stderr, "box-rain: %s needs an integer in [%d, %d]\n", opt,
                lo, hi);
        return 0;
    }
    *out = (int)v;
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: box-rain [--steps N] [--boxes N] [--substeps N] "
            "[--trace]\n");
}

int main(int argc, char **argv)
{
    int steps = DEFAULT_STEPS, nboxes = MAX_BOXES, max_substeps = 0;
    int trace = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--steps") == 0) {
            if (!parse_int(a, v, 0, 1000000, &steps))
                return 2;
            i++;
        } else if (strcmp(a, "--boxes") == 0) {
            if (!parse_int(a, v, 1, MAX_BOXES, &nboxes))
                return 2;
            i++;
        } else if (strcmp(a, "--substeps") == 0) {
            if (!parse_int(a, v, 1, 100000, &max_substeps))
                return 2;
            i++;
        } else if (strcmp(a, "--trace") == 0) {
            trace = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return demo_output_failed("box-rain");
        } else {
            fprintf(stderr, "box-rain: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }

    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    dBoxtoiInit();

    dBoxtoiStepParams params = dBoxtoiDefaultStepParams();
    if (max_substeps > 0)
        params.max_substeps = max_substeps;

    static box_init boxes[MAX_BOXES];
    draw_scene(boxes, nboxes);

    printf("box-rain: %d boxes of %g-%g cm at %g-%g m/s in a closed "
           "%g x %g x %g m room with %g cm walls, %g s at %g steps/s\n",
           nboxes, 100 * SIDE_MIN, 100 * SIDE_MAX, SPEED_MIN, SPEED_MAX,
           ROOM_X, ROOM_Y, ROOM_Z, 100 * WALL, steps * STEP, 1.0 / STEP);
    fflush(stdout);

    double cost[2], same_state[2];
    int escaped[2];
    long substeps = 0, impacts = 0, ran_out = 0;
    for (int m = MODE_PLAIN; m <= MODE_BOXTOI; m++) {
        rain r;
        rain_init(&r, (enum mode)m, boxes, nboxes);
        escaped[m] = rain_run(&r, steps, &params, &cost[m], &same_state[m],
                              &substeps, &impacts, &ran_out,
                              trace ? stderr : NULL);
        if (m == MODE_PLAIN)
            printf("plain ODE: %3d/%d boxes escaped, %.3f ms per step "
                   "(%.1f contact joints per step)\n",
                   escaped[m], nboxes, 1e3 * cost[m],
                   steps ? (double)r.main.joints / steps : 0.0);
        else
            printf("boxtoi:    %3d/%d boxes escaped, %.3f ms per step "
                   "(%.1f contact joints, %.2f sub-steps and %.2f impacts "
                   "per step, max_substeps %d)\n",
                   escaped[m], nboxes, 1e3 * cost[m],
                   steps ? (double)r.main.joints / steps : 0.0,
                   steps ? (double)substeps / steps : 0.0,
                   steps ? (double)impacts / steps : 0.0,
                   params.max_substeps);
        if (m == MODE_BOXTOI && ran_out)
            printf("boxtoi:    the sub-steps ran out with impacts still ahead "
                   "in %ld of %d steps (see --substeps)\n", ran_out, steps);
        rain_free(&r);
        fflush(stdout);
    }
    dCloseODE();
    printf("plain ODE step from the boxtoi run's states: %.3f ms\n",
           1e3 * same_state[MODE_BOXTOI]);
    if (cost[MODE_PLAIN] > 0 && same_state[MODE_BOXTOI] > 0)
        printf("cost per step, boxtoi / plain ODE: %.2f (same states: %.2f)\n",
               cost[MODE_BOXTOI] / cost[MODE_PLAIN],
               cost[MODE_BOXTOI] / same_state[MODE_BOXTOI]);
    return demo_output_failed("box-rain");
}
