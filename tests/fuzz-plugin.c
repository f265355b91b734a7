/*
 * Fuzz target of the ODE plugin's stepper, dWorldStepToContact.
 *
 * An input (bytes past its end read as 0) is a room [0, L]^3 (L = 1.5 m)
 * closed by six static walls 1 cm thick, with 1 to 8 boxtoi boxes in it:
 *  - byte 0, bits 0-1: the space (simple, sweep-and-prune, quadtree, or a
 *    simple space holding two simple sub-spaces, the walls' and the
 *    boxes'); bit 2: dWorldQuickStep; bit 3: the walls are static boxtoi
 *    boxes (else dBoxes); bit 4: the gyroscopic term on (the predictions
 *    then only approximate the paths); bit 5: gravity; bit 6: the check of
 *    the actual paths off (max_redos 0); bit 7: the boxes damped (0.05 a
 *    step) and put to sleep by ODE after 2 idle steps (below 1 m/s and
 *    1 rad/s);
 *  - byte 1: the number of boxes (1 + b % 8) and of steps of 1/60 s
 *    (2 + (b / 8) % 11);
 *  - byte 2: max_substeps (1 + b % 8); byte 3: the bounce (b / 255); byte
 *    4: the friction coefficient (b / 255);
 *  - per box, 14 bytes: its sides (3 to 20 cm), its orientation (a
 *    quaternion of signed bytes, normalised; all 0 is the identity), its
 *    speed (up to 100 m/s) and direction (signed bytes; all 0 is +x), its
 *    angular velocity (signed bytes, up to 80 rad/s each).  Box k starts at
 *    the centre of cell k of a 4 x 4 x 4 grid over the room, where it
 *    touches nothing;
 *  - the byte after the boxes, bit 0: the walls are six dPlanes through
 *    the room's faces instead (byte 0's bit 3 then has no effect); bit 1: a
 *    body of 1000 kg (a boxtoi box of 1 m that collides with nothing)
 *    flies away from the room far outside it, with a thousand times the
 *    boxes' kinetic energy (plus that of their mass at 1 m/s), so that the
 *    stepper's set of bodies holds far more energy than the boxes.
 * The room is stepped twice from scratch, each time from the same seed of
 * ODE's random generator.  Every step must succeed with sane statistics,
 * every body's state must stay finite, both runs must end in the same state
 * (enabled flags included) bit for bit (no state kept from one world to the next, nothing read
 * uninitialised), and, with the check of the actual paths on,
 * no box may leave the room (its centre beyond a wall's inner face) unless
 * a step reported unverified pairs, nor may the boxes' energy (kinetic,
 * and potential above the floor) exceed ENERGY_GAIN times what they
 * started with (plus that of their mass at 1 m/s), nor a box move faster
 * than SPEED_GAIN times the fastest point of a box at the start (plus
 * 1 m/s).  Contacts that dBoxtoiCollide gives a
 * pair 1 cm or more apart (beyond any resting margin) stand for a later
 * contact: their time must lie in (0, 1/60].
 */
#include "fuzz-bytes.h"
#include "fuzz-plugin.h"
#include "ode-util.h"
#include "tap/basic.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <ode-boxtoi.h>

#define ROOM 1.5
#define WALL 0.01
#define STEP (1.0 / 60)
#define MAX_BOXES 8
#define MAX_STEPS 12
/* Bounces near 1 add some energy in each step (dWorldStepToContact); 4
   times over the kept rooms at most.  A launch (an LCP failure) adds far
   more. */
#define ENERGY_GAIN 64.0
/* Hits move a box at most a few times as fast as the fastest point at the
   start (4 times over the kept rooms); a launch of a light box, which the
   energy can miss, far faster. */
#define SPEED_GAIN 16.0
/* The body outside the room (bit 1 of the byte after the boxes): its mass,
   and its kinetic energy over the boxes' (plus that of their mass at 1 m/s) */
#define HEAVY_MASS 1000.0
#define HEAVY_ENERGY 1000.0

typedef struct room_spec {
    int space, quick, boxtoi_walls, gyroscopic, gravity, redos, sleep, planes, heavy;
    int boxes, steps, max_substeps;
    double bounce, mu;
    double side[MAX_BOXES][3], q[MAX_BOXES][4], v[MAX_BOXES][3], w[MAX_BOXES][3];
} room_spec;

/* A signed byte over 128: [-1, 1). */
static double s8(fuzz_bytes *r)
{
    return fuzz_i8(r) / 128.0;
}

/* A unit vector from three signed bytes, or `fallback` when all are 0. */
static void unit3(fuzz_bytes *r, double *out, const double *fallback)
{
    double n = 0.0;
    for (int k = 0; k < 3; k++) {
        out[k] = s8(r);
        n += out[k] * out[k];
    }
    for (int k = 0; k < 3; k++)
        out[k] = n > 0.0 ? out[k] / sqrt(n) : fallback[k];
}

static void decode(const uint8_t *data, size_t size, room_spec *s)
{
    static const double x_axis[3] = {1.0, 0.0, 0.0};
    fuzz_bytes r = {data, size};
    unsigned flags = fuzz_u8(&r), counts = fuzz_u8(&r);
    memset(s, 0, sizeof *s);
    s->space = flags & 3;
    s->quick = (flags >> 2) & 1;
    s->boxtoi_walls = (flags >> 3) & 1;
    s->gyroscopic = (flags >> 4) & 1;
    s->gravity = (flags >> 5) & 1;
    s->redos = (flags >> 6) & 1 ? 0 : 4;
    s->sleep = (flags >> 7) & 1;
    s->boxes = 1 + (int)(counts % MAX_BOXES);
    s->steps = 2 + (int)((counts / 8) % (MAX_STEPS - 1));
    s->max_substeps = 1 + (int)(fuzz_u8(&r) % 8);
    s->bounce = fuzz_u8(&r) / 255.0;
    s->mu = fuzz_u8(&r) / 255.0;
    for (int i = 0; i < s->boxes; i++) {
        for (int k = 0; k < 3; k++)
            s->side[i][k] = 0.03 + 0.17 * fuzz_u8(&r) / 255.0;
        double n = 0.0;
        for (int k = 0; k < 4; k++) {
            s->q[i][k] = s8(&r);
            n += s->q[i][k] * s->q[i][k];
        }
        for (int k = 0; k < 4; k++)
            s->q[i][k] = n > 0.0 ? s->q[i][k] / sqrt(n) : k == 0;
        double speed = 100.0 * fuzz_u8(&r) / 255.0;
        unit3(&r, s->v[i], x_axis);
        for (int k = 0; k < 3; k++) {
            s->v[i][k] *= speed;
            s->w[i][k] = 80.0 * s8(&r);
        }
    }
    unsigned last = fuzz_u8(&r);
    s->planes = last & 1;
    s->heavy = (last >> 1) & 1;
}

typedef struct room {
    dWorldID world;
    dSpaceID space, walls, bodies;
    dJointGroupID contacts;
    dBodyID body[MAX_BOXES];
    double bounce, mu;
    double bad_toi; /* a time of contact out of (0, STEP] for a pair apart (NaN: none) */
} room;

/* Soft, bouncing contacts between every pair with a body, at most four. */
static void room_cb(void *data, dGeomID o1, dGeomID o2)
{
    room *rm = data;
    if (ode_expand_spaces(data, o1, o2, room_cb))
        return;
    if (!dGeomGetBody(o1) && !dGeomGetBody(o2))
        return;
    dContactGeom cg[4];
    dReal toi;
    if (dBoxtoiCollide(o1, o2, 4, cg, sizeof cg[0], &toi) > 0 && !(toi > 0 && toi <= STEP) &&
        ode_apart_by(o1, o2, 0.01))
        rm->bad_toi = toi;
    ode_soft_contacts(rm->world, rm->contacts, o1, o2, rm->mu, rm->bounce, 0.5);
}

/* The total mass of the room's n boxes. */
static double boxes_mass(const room *rm, int n)
{
    double mass = 0.0;
    for (int i = 0; i < n; i++) {
        dMass m;
        dBodyGetMass(rm->body[i], &m);
        mass += m.mass;
    }
    return mass;
}

static void room_build(const room_spec *s, room *rm)
{
    memset(rm, 0, sizeof *rm);
    rm->world = dWorldCreate();
    dWorldSetGravity(rm->world, 0, 0, s->gravity ? -9.81 : 0.0);
    rm->contacts = dJointGroupCreate(0);
    rm->bounce = s->bounce;
    rm->mu = s->mu;
    rm->bad_toi = NAN;
    if (s->space == 1) {
        rm->space = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XYZ);
    } else if (s->space == 2) {
        dVector3 centre = {ROOM / 2, ROOM / 2, ROOM / 2, 0}, extents = {4, 4, 4, 0};
        rm->space = dQuadTreeSpaceCreate(0, centre, extents, 4);
    } else {
        rm->space = dSimpleSpaceCreate(0);
    }
    rm->walls = rm->bodies = rm->space;
    if (s->space == 3) {
        rm->walls = dSimpleSpaceCreate(rm->space);
        rm->bodies = dSimpleSpaceCreate(rm->space);
    }
    if (s->planes) {
        for (int k = 0; k < 3; k++) {
            double n[3] = {0, 0, 0};
            n[k] = 1;
            dCreatePlane(rm->walls, n[0], n[1], n[2], 0);
            dCreatePlane(rm->walls, -n[0], -n[1], -n[2], -ROOM);
        }
    } else {
        ode_room_walls(rm->walls, ROOM, WALL, s->boxtoi_walls);
    }
    for (int i = 0; i < s->boxes; i++) {
        const double *side = s->side[i], cell = ROOM / 4;
        dBodyID b = dBodyCreate(rm->world);
        dMass m;
        dMassSetBox(&m, 500, side[0], side[1], side[2]);
        dBodySetMass(b, &m);
        dBodySetGyroscopicMode(b, s->gyroscopic);
        dGeomSetBody(dCreateBoxtoiBox(rm->bodies, side[0], side[1], side[2]), b);
        dBodySetPosition(b, cell * (i % 4 + 0.5), cell * (i / 4 % 4 + 0.5),
                         cell * (i / 16 + 0.5));
        dQuaternion q = {s->q[i][0], s->q[i][1], s->q[i][2], s->q[i][3]};
        dBodySetQuaternion(b, q);
        dBodySetLinearVel(b, s->v[i][0], s->v[i][1], s->v[i][2]);
        dBodySetAngularVel(b, s->w[i][0], s->w[i][1], s->w[i][2]);
        if (s->sleep) {
            dBodySetDamping(b, 0.05, 0.05);
            dBodySetAutoDisableFlag(b, 1);
            dBodySetAutoDisableSteps(b, 2);
            dBodySetAutoDisableTime(b, 0);
            dBodySetAutoDisableLinearThreshold(b, 1);
            dBodySetAutoDisableAngularThreshold(b, 1);
            dBodyEnable(b); /* the idle count starts from those */
        }
        rm->body[i] = b;
    }
    if (s->heavy) {
        double energy = ode_bodies_energy(rm->body, s->boxes, 0) + 0.5 * boxes_mass(rm, s->boxes);
        dBodyID b = dBodyCreate(rm->world);
        dMass m;
        dMassSetBox(&m, 1, 1, 1, 1);
        dMassAdjust(&m, HEAVY_MASS);
        dBodySetMass(b, &m);
        /* it collides with nothing: outside the room it would lie deep in
           the plane walls' half-spaces */
        dGeomID g = dCreateBoxtoiBox(rm->bodies, 1, 1, 1);
        dGeomSetCategoryBits(g, 0);
        dGeomSetCollideBits(g, 0);
        dGeomSetBody(g, b);
        dBodySetPosition(b, -50, ROOM / 2, ROOM / 2);
        dBodySetLinearVel(b, -sqrt(2 * HEAVY_ENERGY * energy / HEAVY_MASS), 0, 0);
    }
}

static void room_free(room *rm)
{
    dJointGroupDestroy(rm->contacts);
    dSpaceDestroy(rm->space); /* and its sub-spaces and geoms (cleanup mode) */
    dWorldDestroy(rm->world);
}

/* A body's state: position, quaternion, linear and angular velocity, and
   whether it is enabled (1 or 0). */
#define STATE 14
static void body_state(dBodyID b, double *out)
{
    memcpy(out, dBodyGetPosition(b), 3 * sizeof *out);
    memcpy(out + 3, dBodyGetQuaternion(b), 4 * sizeof *out);
    memcpy(out + 7, dBodyGetLinearVel(b), 3 * sizeof *out);
    memcpy(out + 10, dBodyGetAngularVel(b), 3 * sizeof *out);
    out[13] = dBodyIsEnabled(b);
}

/* What one run did, and how it ended. */
typedef struct run_result {
    int kind;  /* FUZZ_ROOM_* */
    int unverified_at; /* first step reporting unverified pairs, or -1 */
    double state[MAX_BOXES][STATE];
} run_result;

/* ODE's notes on its LCP solver ("LCP internal error, s <= 0"), which boxes
   piled at these speeds draw from it, are not this target's to print. */
static void quiet(int num, const char *msg, va_list ap)
{
    (void)num;
    (void)msg;
    (void)ap;
}

static void ode_once(void)
{
    static int done;
    if (!done) {
        dInitODE2(0);
        dBoxtoiInit();
        dSetMessageHandler(quiet);
        done = 1;
    }
}

/*
 * Step the room, checking each step; 0, or 1 with why.  *res gets what the
 * run did and its final state.
 */
static int run_room(const room_spec *s, run_result *res, char *why, size_t n)
{
    room rm;
    ode_once();
    dRandSetSeed(1); /* ODE's own generator: dWorldQuickStep shuffles with it */
    room_build(s, &rm);
    dBoxtoiStepParams p = dBoxtoiDefaultStepParams();
    p.max_substeps = s->max_substeps;
    p.max_redos = s->redos;
    res->kind = FUZZ_ROOM_QUIET;
    res->unverified_at = -1;
    int bad = 0;
    /* the boxes' energy (kinetic, and potential above the floor), and a
       limit far above what bounces of 1 add over the steps */
    double g = s->gravity ? 9.81 : 0.0, mass = boxes_mass(&rm, s->boxes);
    double most = ENERGY_GAIN * (ode_bodies_energy(rm.body, s->boxes, g) + 0.5 * mass);
    /* the fastest point of a box: its speed and its spin times its half
       diagonal */
    double fastest = 0.0;
    for (int i = 0; i < s->boxes; i++) {
        const double *d = s->side[i], *v = s->v[i], *w = s->w[i];
        double half = 0.5 * sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        fastest = fmax(fastest, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
                                    + half * sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
    }
    double speed_limit = SPEED_GAIN * (fastest + 1.0);
    for (int step = 0; step < s->steps && !bad; step++) {
        dBoxtoiStepStats st;
        int ok = s->quick ? dWorldQuickStepToContact(rm.world, rm.space, STEP, room_cb, &rm,
                                                     rm.contacts, &p, &st)
                          : dWorldStepToContact(rm.world, rm.space, STEP, room_cb, &rm,
                                                rm.contacts, &p, &st);
        if (!ok) {
            snprintf(why, n, "step %d failed", step);
            bad = 1;
            break;
        }
        if (!isnan(rm.bad_toi)) {
            snprintf(why, n, "step %d: contacts for a pair 1 cm apart at time %.17g", step,
                     rm.bad_toi);
            bad = 1;
            break;
        }
        if (st.substeps < 1 || st.impacts < 0 || st.resolutions < 0 || st.redos < 0 ||
            st.unverified < 0 || (st.speculative != 0 && st.speculative != 1) ||
            !(st.first_toi == -1.0 || (st.first_toi >= 0.0 && st.first_toi <= STEP)) ||
            (st.impacts > 0) != (st.first_toi >= 0.0)) {
            snprintf(why, n, "step %d: statistics substeps %d impacts %d first_toi %.17g "
                     "resolutions %d speculative %d redos %d unverified %d", step,
                     st.substeps, st.impacts, st.first_toi, st.resolutions,
                     st.speculative, st.redos, st.unverified);
            bad = 1;
            break;
        }
        int kind = st.redos > 0 ? FUZZ_ROOM_REDONE
                   : st.speculative ? FUZZ_ROOM_SPECULATIVE
                   : st.impacts > 0 ? FUZZ_ROOM_IMPACTS
                                    : FUZZ_ROOM_QUIET;
        res->kind = kind > res->kind ? kind : res->kind;
        if (st.unverified > 0 && res->unverified_at < 0)
            res->unverified_at = step;
        double e = ode_bodies_energy(rm.body, s->boxes, g);
        if (s->redos > 0 && !(e <= most)) {
            snprintf(why, n, "step %d: the boxes' energy %.17g is above %g times what they "
                     "started with", step, e, ENERGY_GAIN);
            bad = 1;
            break;
        }
        for (int i = 0; i < s->boxes && !bad; i++) {
            double x[STATE];
            body_state(rm.body[i], x);
            for (int k = 0; k < STATE; k++)
                if (!isfinite(x[k])) {
                    snprintf(why, n, "step %d: box %d's state is not finite", step, i);
                    bad = 1;
                    break;
                }
            double speed = sqrt(x[7] * x[7] + x[8] * x[8] + x[9] * x[9]);
            if (!bad && s->redos > 0 && !(speed <= speed_limit)) {
                snprintf(why, n, "step %d: box %d moves at %.17g m/s, above %g times the "
                         "fastest point at the start", step, i, speed, SPEED_GAIN);
                bad = 1;
                break;
            }
            int out = 0;
            for (int k = 0; k < 3; k++)
                out |= x[k] < 0.0 || x[k] > ROOM;
            if (!bad && out && s->redos > 0 && res->unverified_at < 0) {
                snprintf(why, n, "step %d: box %d left the room, at (%.17g, %.17g, %.17g), "
                         "with no unverified pair reported", step, i, x[0], x[1], x[2]);
                bad = 1;
            }
        }
    }
    for (int i = 0; i < s->boxes; i++)
        body_state(rm.body[i], res->state[i]);
    room_free(&rm);
    return bad;
}

static void print_room(const room_spec *s)
{
    static const char *spaces[4] = {"simple", "sweep-and-prune", "quadtree", "nested"};
    diag("  room: %s space%s%s%s%s%s%s%s, %d boxes, %d steps, max_substeps %d, bounce %.17g, "
         "mu %.17g", spaces[s->space], s->quick ? ", quick step" : "",
         s->planes ? ", plane walls" : s->boxtoi_walls ? ", boxtoi walls" : "",
         s->gyroscopic ? ", gyroscopic" : "",
         s->gravity ? ", gravity" : "", s->redos ? "" : ", no check",
         s->sleep ? ", damped, sleeping" : "", s->heavy ? ", a heavy body outside" : "",
         s->boxes, s->steps,
         s->max_substeps, s->bounce, s->mu);
    for (int i = 0; i < s->boxes; i++)
        diag("  box %d: sides (%.17g %.17g %.17g) q (%.17g %.17g %.17g %.17g) "
             "v (%.17g %.17g %.17g) w (%.17g %.17g %.17g)", i, s->side[i][0],
             s->side[i][1], s->side[i][2], s->q[i][0], s->q[i][1], s->q[i][2], s->q[i][3],
             s->v[i][0], s->v[i][1], s->v[i][2], s->w[i][0], s->w[i][1], s->w[i][2]);
}

int fuzz_plugin_check(const uint8_t *data, size_t size, char *why, size_t n)
{
    room_spec s;
    static run_result first, second;
    decode(data, size, &s);
    int bad = run_room(&s, &first, why, n);
    if (!bad && run_room(&s, &second, why, n)) {
        size_t len = strlen(why);
        snprintf(why + len, n - len, " (second run)");
        bad = 1;
    }
    /* the boxes of this room only: the rest hold what earlier rooms left */
    size_t used = (size_t)s.boxes * sizeof first.state[0];
    if (!bad && memcmp(first.state, second.state, used) != 0) {
        snprintf(why, n, "two runs of the same room end in different states");
        bad = 1;
    }
    if (bad)
        print_room(&s);
    return bad;
}

int fuzz_plugin_kind(const uint8_t *data, size_t size)
{
    room_spec s;
    static run_result res;
    char why[256];
    decode(data, size, &s);
    run_room(&s, &res, why, sizeof why);
    return res.kind;
}
