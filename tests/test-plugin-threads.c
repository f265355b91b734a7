/*
 * Separate worlds in separate threads, as ODE allows them (each thread with
 * its own ODE data): two threads each step their own world and space with
 * dWorldStepToContact while creating and destroying boxtoi boxes of their
 * own.  Nothing may crash (with --enable-sanitizers: no use after free of
 * another thread's box), and each world must end bit for bit as the same
 * run alone on the main thread does, a run that makes contacts and keeps
 * its boxes inside the walls (planes, which ODE's own colliders hold at
 * any depth: a sanity check of the scene, not of the plugin's impacts,
 * which test-plugin-step covers).  Without the sanitizers a race shows
 * only by chance (a crash or a differing state).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <ode-boxtoi.h>

#include "ode-util.h"
#include "tap/basic.h"

#define H (1.0 / 60)
#define NBOX 12
#define STEPS 150
#define CHURN 40

typedef struct run {
    int seed;
    int per_thread;           /* allocate ODE's data for this thread */
    int space_kind;           /* 0 simple, 1 hash, 2 sweep and prune */
    double final[NBOX][7];    /* positions and quaternions at the end */
    int failed;               /* steps that failed, boxes not created */
    long made;                /* contact joints made */
    int outside;              /* boxes that end outside the walls */
    dWorldID world;
    dJointGroupID contacts;
} run;

static void near_cb(void *data, dGeomID o1, dGeomID o2)
{
    run *r = data;
    r->made += ode_soft_contacts(r->world, r->contacts, o1, o2, 0.5, 0.4, 0.1);
}

/* Fast boxes thrown at a floor and at each other in a box of walls; every
   step also creates and destroys boxtoi boxes in a space that is not
   stepped. */
static void *run_world(void *arg)
{
    run *r = arg;
    if (r->per_thread)
        dAllocateODEDataForThread(dAllocateMaskAll);
    unsigned long long s = (unsigned long long)r->seed * 7919u + 1;
    r->world = dWorldCreate();
    /* ODE's default step threading is one object shared by all worlds:
       each world gets its own */
    dThreadingImplementationID impl = dThreadingAllocateSelfThreadedImplementation();
    dWorldSetStepThreadingImplementation(r->world,
                                         dThreadingImplementationGetFunctions(impl),
                                         impl);
    dWorldSetGravity(r->world, 0, 0, -9.81);
    dSpaceID space = r->space_kind == 1 ? dHashSpaceCreate(0)
                     : r->space_kind == 2 ? dSweepAndPruneSpaceCreate(0, dSAP_AXES_XYZ)
                                          : dSimpleSpaceCreate(0);
    dSpaceID spare = dSimpleSpaceCreate(0);
    r->contacts = dJointGroupCreate(0);
    dCreatePlane(space, 0, 0, 1, 0);
    dCreatePlane(space, 1, 0, 0, -1);
    dCreatePlane(space, -1, 0, 0, -1);
    dCreatePlane(space, 0, 1, 0, -1);
    dCreatePlane(space, 0, -1, 0, -1);
    dBodyID b[NBOX];
    for (int i = 0; i < NBOX; i++) {
        b[i] = dBodyCreate(r->world);
        dMass m;
        dMassSetBox(&m, 500, 0.1, 0.1, 0.1);
        dBodySetMass(b[i], &m);
        dGeomID g = dCreateBoxtoiBox(space, 0.1, 0.1, 0.1);
        if (!g) {
            r->failed++;
            continue;
        }
        dGeomSetBody(g, b[i]);
        double x = urand(&s, -0.8, 0.8), y = urand(&s, -0.8, 0.8), z = urand(&s, 0.2, 2);
        dBodySetPosition(b[i], x, y, z);
        double vx = urand(&s, -30, 30), vy = urand(&s, -30, 30), vz = urand(&s, -30, 0);
        dBodySetLinearVel(b[i], vx, vy, vz);
        double w[3];
        urand3(&s, -10, 10, w);
        dBodySetAngularVel(b[i], w[0], w[1], w[2]);
    }
    for (int step = 0; step < STEPS; step++) {
        dGeomID churn[CHURN];
        for (int k = 0; k < CHURN; k++)
            churn[k] = dCreateBoxtoiBox(spare, 0.1, 0.1, 0.1);
        if (!dWorldStepToContact(r->world, space, H, near_cb, r, r->contacts,
                                 NULL, NULL))
            r->failed++;
        for (int k = 0; k < CHURN; k++)
            if (churn[k])
                dGeomDestroy(churn[k]);
    }
    for (int i = 0; i < NBOX; i++) {
        const dReal *p = dBodyGetPosition(b[i]), *q = dBodyGetQuaternion(b[i]);
        for (int k = 0; k < 3; k++)
            r->final[i][k] = p[k];
        for (int k = 0; k < 4; k++)
            r->final[i][3 + k] = q[k];
        /* the walls are the planes |x| = 1, |y| = 1, z = 0 */
        if (!(fabs(p[0]) < 1 && fabs(p[1]) < 1 && p[2] > 0 && p[2] < 1e3))
            r->outside++;
    }
    dJointGroupDestroy(r->contacts);
    dSpaceDestroy(spare);
    dSpaceDestroy(space);
    dWorldDestroy(r->world);
    dThreadingFreeImplementation(impl);
    if (r->per_thread)
        dCleanupODEAllDataForThread();
    return NULL;
}

int main(void)
{
    enum { ROUNDS = 3 };
    plan(0);
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    dBoxtoiInit();
    for (int kind = 0; kind < 3; kind++) {
        run ref[2], par[2];
        for (int t = 0; t < 2; t++) {
            memset(&ref[t], 0, sizeof ref[t]);
            ref[t].seed = 1 + t;
            ref[t].space_kind = kind;
            run_world(&ref[t]);
        }
        int differ = 0, failed = ref[0].failed + ref[1].failed, started = 1;
        ok(ref[0].made > 0 && ref[1].made > 0 && ref[0].outside == 0 && ref[1].outside == 0,
           "%s spaces: each world alone makes contacts (%ld, %ld) and its boxes stay "
           "inside its walls of planes (%d, %d outside)",
           kind == 1 ? "hash" : kind == 2 ? "sweep and prune" : "simple", ref[0].made,
           ref[1].made, ref[0].outside, ref[1].outside);
        for (int round = 0; round < ROUNDS && started; round++) {
            pthread_t th[2];
            for (int t = 0; t < 2; t++) {
                memset(&par[t], 0, sizeof par[t]);
                par[t].seed = 1 + t;
                par[t].space_kind = kind;
                par[t].per_thread = 1;
            }
            for (int t = 0; t < 2; t++)
                if (pthread_create(&th[t], NULL, run_world, &par[t]) != 0) {
                    started = 0;
                    if (t == 1)
                        pthread_join(th[0], NULL);
                    break;
                }
            if (!started)
                break;
            for (int t = 0; t < 2; t++) {
                pthread_join(th[t], NULL);
                failed += par[t].failed;
                differ += memcmp(par[t].final, ref[t].final, sizeof ref[t].final) != 0;
            }
        }
        const char *name = kind == 1 ? "hash" : kind == 2 ? "sweep and prune" : "simple";
        ok(started, "%s spaces: two threads started", name);
        is_int(failed, 0, "%s spaces: every box created, every step succeeded", name);
        is_int(differ, 0, "%s spaces: %d rounds of two worlds stepped at once "
               "in two threads, each creating and destroying %d boxtoi boxes "
               "per step: each ends as it does alone", name, ROUNDS, CHURN);
    }
    dCleanupODEAllDataForThread();
    dCloseODE();
    return tap_failures() ? 1 : 0;
}
