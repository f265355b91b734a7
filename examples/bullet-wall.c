/*
 * bullet-wall: a 5 cm box fired at 300 m/s at a 1 cm wall, stepped at 60 Hz.
 *
 * Each of 100 shots (random start, height, direction, orientation and spin,
 * fixed seed) is simulated twice for 30 steps (0.5 s):
 *  - plain ODE: the bullet is a dBox; dSpaceCollide, dCollide in the near
 *    callback, contact joints, dWorldStep, dJointGroupEmpty;
 *  - boxtoi: the bullet is a boxtoi box and the world advances with
 *    dWorldStepToContact, which stops each step at the first contact.
 * The wall is a static dBox in both (or a static boxtoi box with
 * --boxtoi-wall).  A shot "tunnelled" when the bullet's centre ends beyond
 * the wall's far face.
 *
 * The contact error compares where the boxtoi bullet was when its first
 * contact joints were made with the exact first contact, computed here
 * independently of the plugin and of the solver: the bullet's path under
 * ODE's integrator is known in closed form step by step (velocity first,
 * v += h g, then p += h v, and q += (h/2) (0, w) q normalised, with w
 * constant), so within a step p(s) = p_k + s v_k + s^2 g and the first
 * contact with the wall's near face x = X is the first s at which the
 * leading point of the box along x, p_x(s) + sum_j |R_xj(s)| l/2, reaches X.
 * That root is found by bisection; the box must then lie within the wall's
 * extent in y and z (shots that would not are redrawn).  Gyroscopic mode is
 * switched off for the bullets: with it off the angular velocity of a free
 * body stays constant over a step, as this reference assumes (the plugin's
 * prediction follows the gyroscopic term too), so both are the exact path
 * dWorldStep follows.
 *
 * The reference is the path of ODE's integrator, not the continuous
 * ballistic curve p0 + v0 t + g t^2 / 2: ODE's semi-implicit Euler step
 * drifts from that curve by g h t / 2 (a few millimetres here), which is the
 * integrator's error, not the contact's.  That drift is printed too.
 *
 * Writes bullet-wall.csv (t, x, y, z, mode for the first shot) and
 * bullet-wall.gp into the current directory, and runs gnuplot on it to make
 * bullet-wall.png when gnuplot is installed.  The last line of output is
 *   plain ODE: tunnelled A/100; boxtoi: tunnelled B/100; max contact error E m
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode-boxtoi.h>

#include "demo-util.h"

#define STEP (1.0 / 60.0)      /* s */
#define STEPS 30               /* steps per shot: 0.5 s */
#define SHOTS 100
#define SEED UINT64_C(20240611)
#define GRAVITY (-9.81)        /* m/s^2, along z */

#define BULLET_SIDE 0.05       /* m */
#define BULLET_MASS 1.0        /* kg */
#define SPEED 300.0            /* m/s */
#define MAX_TILT (15.0 * M_PI / 180.0) /* start tilt, about a random axis */
#define MAX_SPIN 5.0                   /* rad/s per axis, constant */
#define MAX_AIM (2.0 * M_PI / 180.0)   /* elevation and azimuth */

#define WALL_NEAR 12.0         /* x of the wall's near face, m */
#define WALL_THICK 0.01        /* m */
#define WALL_HALF_Y 1.0        /* wall spans y in [-1, 1] */
#define WALL_HEIGHT 2.0        /* wall spans z in [0, 2] */

#define MAX_CONTACTS 4
#define MAX_ROWS 256

#define CSV_NAME "bullet-wall.csv"
#define GP_NAME "bullet-wall.gp"
#define PNG_NAME "bullet-wall.png"

enum mode { MODE_PLAIN, MODE_BOXTOI };
static const char *const mode_name[] = {"plain", "boxtoi"};

/** Initial state of one shot. */
typedef struct shot {
    double p0[3]; /* centre, m */
    double v0[3]; /* m/s */
    double q0[4]; /* orientation (w, x, y, z) */
    double w[3];  /* angular velocity, rad/s, constant */
} shot;

/** Exact first contact of a shot with the wall's near face. */
typedef struct reference {
    double t;       /* s from launch */
    double p[3];    /* bullet centre at t, on ODE's path */
    double ballistic[3]; /* p0 + v0 t + g t^2 / 2 at the same t */
    int step;       /* index of the step in which it happens */
    double start_p[3], start_v[3], start_q[4]; /* state at that step's start */
} reference;

/** One CSV row. */
typedef struct row {
    double t, p[3];
    const char *mode;
} row;

/** One simulation of one shot. */
typedef struct sim {
    enum mode mode;
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dGeomID wall;
    dGeomID bullet;
    dBodyID body;
    int touched;            /* the bullet has touched the wall */
    int touched_this_step;
    double touch_p[3];      /* bullet centre when it first touched */
    double touch_t;         /* time of that touch, s from launch */
    row *rows;              /* trajectory rows, or NULL when not recorded */
    int nrows;
} sim;

static void add_row(sim *s, double t, const dReal *p, const char *mode)
{
    if (!s->rows || s->nrows >= MAX_ROWS)
        return;
    row *r = &s->rows[s->nrows++];
    r->t = t;
    for (int i = 0; i < 3; i++)
        r->p[i] = p[i];
    r->mode = mode;
}

/* The usual ODE near callback, noting the bullet's first touch. */
static void near_callback(void *data, dGeomID o1, dGeomID o2)
{
    sim *s = data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    dContact c[MAX_CONTACTS];

    if (!b1 && !b2)
        return;
    memset(c, 0, sizeof c);
    dReal toi = 0;
    int n = s->mode == MODE_BOXTOI
        ? dBoxtoiCollide(o1, o2, MAX_CONTACTS, &c[0].geom, sizeof c[0], &toi)
        : dCollide(o1, o2, MAX_CONTACTS, &c[0].geom, sizeof c[0]);
    if (n <= 0)
        return;
    if (!s->touched) {
        /* Within dWorldStepToContact the colliders also report contacts up
           to min_substep ahead (h * 1e-3 by default): the joints made now
           stop the bullet where it is, so that counts as its stop too. */
        if (toi >= 0 && toi <= STEP * 1e-3) {
            const dReal *p = dBodyGetPosition(s->body);
            s->touched = 1;
            s->touched_this_step = 1;
            for (int i = 0; i < 3; i++)
                s->touch_p[i] = p[i];
        }
    }
    for (int i = 0; i < n; i++) {
        c[i].surface.mode = 0; /* no bounce: the bullet stops at the wall */
        c[i].surface.mu = 0.5;
        dJointID j = dJointCreateContact(s->world, s->contacts, &c[i]);
        dJointAttach(j, b1, b2);
    }
}

/* Leading x of the bullet (its largest x) with centre p, orientation q. */
static double leading_x(const double p[3], const double q[4])
{
    double r[3][3];
    demo_quat_matrix(q, r);
    double x = p[0];
    for (int j = 0; j < 3; j++)
        x += fabs(r[0][j]) * 0.5 * BULLET_SIDE;
    return x;
}

/* State s seconds into a step that starts at p, v, q (ODE's integrator). */
static void step_state(const double p[3], const double v[3], const double q[4],
                       const double w[3], double s, double po[3],
                       double vo[3], double qo[4])
{
    const double g[3] = {0, 0, GRAVITY};
    double wq[4] = {0, w[0], w[1], w[2]}, dq[4];
    for (int i = 0; i < 3; i++) {
        vo[i] = v[i] + s * g[i];
        po[i] = p[i] + s * vo[i];
    }
    demo_quat_mul(wq, q, dq);
    for (int i = 0; i < 4; i++)
        qo[i] = q[i] + 0.5 * s * dq[i];
    demo_quat_normalize(qo);
}

/*
 * Exact first contact of the shot with the wall's near face, on ODE's path.
 * Returns 1 and fills *ref when the whole bullet lies within the wall's
 * extent in y and z at that instant, 0 otherwise.
 */
static int exact_contact(const shot *sh, reference *ref)
{
    double p[3], v[3], q[4];
    memcpy(p, sh->p0, sizeof p);
    memcpy(v, sh->v0, sizeof v);
    memcpy(q, sh->q0, sizeof q);
    for (int k = 0; k < STEPS; k++) {
        double pe[3], ve[3], qe[4];
        step_state(p, v, q, sh->w, STEP, pe, ve, qe);
        if (leading_x(pe, qe) >= WALL_NEAR) {
            double lo = 0, hi = STEP, pm[3], vm[3], qm[4];
            for (int it = 0; it < 200 && hi - lo > 0; it++) {
                double mid = 0.5 * (lo + hi);
                if (mid <= lo || mid >= hi)
                    break;
                step_state(p, v, q, sh->w, mid, pm, vm, qm);
                if (leading_x(pm, qm) >= WALL_NEAR)
                    hi = mid;
                else
                    lo = mid;
            }
            step_state(p, v, q, sh->w, hi, pm, vm, qm);
            ref->t = k * STEP + hi;
            ref->step = k;
            memcpy(ref->start_p, p, sizeof p);
            memcpy(ref->start_v, v, sizeof v);
            memcpy(ref->start_q, q, sizeof q);
            memcpy(ref->p, pm, sizeof pm);
            for (int i = 0; i < 3; i++)
                ref->ballistic[i] = sh->p0[i] + sh->v0[i] * ref->t
                    + (i == 2 ? 0.5 * GRAVITY * ref->t * ref->t : 0.0);
            /* every corner within the wall's face */
            double r[3][3];
            demo_quat_matrix(qm, r);
            for (int c = 0; c < 8; c++) {
                double y = pm[1], z = pm[2];
                for (int j = 0; j < 3; j++) {
                    double h = ((c >> j) & 1 ? 0.5 : -0.5) * BULLET_SIDE;
                    y += r[1][j] * h;
                    z += r[2][j] * h;
                }
                if (fabs(y) > WALL_HALF_Y || z < 0 || z > WALL_HEIGHT)
                    return 0;
            }
            return 1;
        }
        memcpy(p, pe, sizeof p);
        memcpy(v, ve, sizeof v);
        memcpy(q, qe, sizeof q);
    }
    return 0;
}

/*
 * The solver alone on the step of first contact: the bullet's motion over
 * that step as a rational rigid motion (quaternion linear in s, position
 * quadratic), the wall fixed.  Returns the time of contact from launch, or
 * NaN when the solver reports no hit.
 */
static double solver_contact(const shot *sh, const reference *ref)
{
    boxtoi_query qy = boxtoi_default_query();
    double qs[2][4], ps[3][3];
    double wq[4] = {0, sh->w[0], sh->w[1], sh->w[2]}, dq[4];
    demo_quat_mul(wq, ref->start_q, dq);
    for (int i = 0; i < 4; i++) {
        qs[0][i] = ref->start_q[i];
        qs[1][i] = 0.5 * dq[i];
    }
    for (int i = 0; i < 3; i++) {
        ps[0][i] = ref->start_p[i];
        ps[1][i] = ref->start_v[i];
        ps[2][i] = i == 2 ? GRAVITY : 0.0;
        qy.a.lo[i] = -0.5 * BULLET_SIDE;
        qy.a.hi[i] = 0.5 * BULLET_SIDE;
    }
    if (boxtoi_motion_rigid(&qy.motion_a, (const double (*)[4])qs, 1,
                            (const double (*)[3])ps, 2) != BOXTOI_REASON_NONE)
        return NAN;
    const double wlo[3] = {WALL_NEAR, -WALL_HALF_Y, 0};
    const double whi[3] = {WALL_NEAR + WALL_THICK, WALL_HALF_Y, WALL_HEIGHT};
    memcpy(qy.b.lo, wlo, sizeof wlo);
    memcpy(qy.b.hi, whi, sizeof whi);
    boxtoi_motion_identity(&qy.motion_b);
    qy.t0 = 0;
    qy.t1 = STEP;
    boxtoi_result r = boxtoi_solve(&qy);
    if (r.state != BOXTOI_HIT)
        return NAN;
    return ref->step * STEP + r.toi;
}

static void draw_shot(demo_rng *rng, shot *sh)
{
    double axis[3];
    double el = demo_uniform(rng, -MAX_AIM, MAX_AIM);
    double az = demo_uniform(rng, -MAX_AIM, MAX_AIM);
    sh->p0[0] = demo_uniform(rng, 0.0, 5.0);
    sh->p0[1] = demo_uniform(rng, -0.4, 0.4);
    sh->p0[2] = demo_uniform(rng, 0.6, 1.4);
    sh->v0[0] = SPEED * cos(el) * cos(az);
    sh->v0[1] = SPEED * cos(el) * sin(az);
    sh->v0[2] = SPEED * sin(el);
    demo_unit_vector(rng, axis);
    demo_quat_axis_angle(axis, demo_uniform(rng, 0.0, MAX_TILT), sh->q0);
    for (int i = 0; i < 3; i++)
        sh->w[i] = demo_uniform(rng, -MAX_SPIN, MAX_SPIN);
}

static void sim_init(sim *s, enum mode mode, int boxtoi_wall, const shot *sh,
                     row *rows)
{
    dMass m;
    memset(s, 0, sizeof *s);
    s->mode = mode;
    s->rows = rows;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, GRAVITY);
    s->space = dSimpleSpaceCreate(0);
    s->contacts = dJointGroupCreate(0);

    if (mode == MODE_BOXTOI && boxtoi_wall)
        s->wall = dCreateBoxtoiBox(s->space, WALL_THICK, 2 * WALL_HALF_Y,
                                   WALL_HEIGHT);
    else
        s->wall = dCreateBox(s->space, WALL_THICK, 2 * WALL_HALF_Y,
                             WALL_HEIGHT);
    dGeomSetPosition(s->wall, WALL_NEAR + 0.5 * WALL_THICK, 0,
                     0.5 * WALL_HEIGHT);

    s->body = dBodyCreate(s->world);
    dMassSetBoxTotal(&m, BULLET_MASS, BULLET_SIDE, BULLET_SIDE, BULLET_SIDE);
    dBodySetMass(s->body, &m);
    dBodySetGyroscopicMode(s->body, 0);
    dBodySetPosition(s->body, sh->p0[0], sh->p0[1], sh->p0[2]);
    dQuaternion q = {sh->q0[0], sh->q0[1], sh->q0[2], sh->q0[3]};
    dBodySetQuaternion(s->body, q);
    dBodySetLinearVel(s->body, sh->v0[0], sh->v0[1], sh->v0[2]);
    dBodySetAngularVel(s->body, sh->w[0], sh->w[1], sh->w[2]);
    if (mode == MODE_BOXTOI)
        s->bullet = dCreateBoxtoiBox(s->space, BULLET_SIDE, BULLET_SIDE,
                                     BULLET_SIDE);
    else
        s->bullet = dCreateBox(s->space, BULLET_SIDE, BULLET_SIDE, BULLET_SIDE);
    dGeomSetBody(s->bullet, s->body);
}

static void sim_free(sim *s)
{
    dJointGroupDestroy(s->contacts);
    dSpaceDestroy(s->space); /* destroys the geoms too */
    dWorldDestroy(s->world);
}

/* Run one shot; returns 1 when the bullet ended beyond the wall. */
static int sim_run(sim *s, int *substeps, int *impacts, int *ran_out)
{
    double t = 0;
    add_row(s, t, dBodyGetPosition(s->body), mode_name[s->mode]);
    for (int k = 0; k < STEPS; k++) {
        s->touched_this_step = 0;
        if (s->mode == MODE_PLAIN) {
            dSpaceCollide(s->space, s, near_callback);
            if (s->touched_this_step)
                s->touch_t = t;
            dWorldStep(s->world, STEP);
            dJointGroupEmpty(s->contacts);
        } else {
            dBoxtoiStepStats st;
            memset(&st, 0, sizeof st);
            if (!dWorldStepToContact(s->world, s->space, STEP, near_callback,
                                     s, s->contacts, NULL, &st))
                fprintf(stderr, "bullet-wall: dWorldStepToContact failed\n");
            *substeps += st.substeps;
            *impacts += st.impacts;
            *ran_out += st.speculative != 0;
            if (s->touched_this_step) {
                s->touch_t = t + (st.first_toi >= 0 ? st.first_toi : 0);
                add_row(s, s->touch_t, (const dReal[3]){s->touch_p[0],
                        s->touch_p[1], s->touch_p[2]}, mode_name[s->mode]);
            }
        }
        t += STEP;
        add_row(s, t, dBodyGetPosition(s->body), mode_name[s->mode]);
    }
    return dBodyGetPosition(s->body)[0] > WALL_NEAR + WALL_THICK;
}

static double dist3(const double a[3], const double b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static int write_csv(const row *rows, int n)
{
    FILE *f = fopen(CSV_NAME, "w");
    if (!f) {
        perror("bullet-wall: " CSV_NAME);
        return 0;
    }
    fprintf(f, "t,x,y,z,mode\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%.9g,%.9g,%.9g,%.9g,%s\n", rows[i].t, rows[i].p[0],
                rows[i].p[1], rows[i].p[2], rows[i].mode);
    return fclose(f) == 0;
}

static int write_gp(void)
{
    FILE *f = fopen(GP_NAME, "w");
    if (!f) {
        perror("bullet-wall: " GP_NAME);
        return 0;
    }
    fprintf(f,
        "# Plot of " CSV_NAME " (written by bullet-wall): gnuplot " GP_NAME "\n"
        "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
        "    set terminal pngcairo size 1200,520 font \",11\"\n"
        "} else {\n"
        "    set terminal png size 1200,520\n"
        "}\n"
        "set output \"" PNG_NAME "\"\n"
        "set datafile separator \",\"\n"
        "set key top left box opaque\n"
        "set grid\n"
        "set multiplot layout 1,2 title \"A 5 cm box at 300 m/s towards a 1 cm wall, 60 steps/s (first shot)\"\n"
        "set title \"distance travelled\"\n"
        "set xlabel \"t (s)\"\n"
        "set ylabel \"x (m)\"\n"
        "set xrange [0:0.2]\n"
        "set yrange [0:30]\n"
        "set arrow 1 from graph 0, first %g to graph 1, first %g nohead lw 5 lc rgb \"gray50\" back\n"
        "set label 1 \"wall (1 cm, drawn thicker)\" at graph 0.55, first %g offset 0,1\n"
        "plot \"" CSV_NAME "\" skip 1 using 1:(strcol(5) eq \"plain\" ? $2 : NaN) with linespoints pt 7 ps 0.8 lc rgb \"#d62728\" title \"plain ODE (dBox)\", \\\n"
        "     \"\" skip 1 using 1:(strcol(5) eq \"boxtoi\" ? $2 : NaN) with linespoints pt 5 ps 0.8 lc rgb \"#1f77b4\" title \"boxtoi box, dWorldStepToContact\", \\\n"
        "     \"\" skip 1 using 1:(strcol(5) eq \"exact\" ? $2 : NaN) with points pt 6 ps 2.5 lw 2 lc rgb \"black\" title \"exact first contact\"\n"
        "unset arrow 1\n"
        "unset label 1\n"
        "set title \"side view near the wall (the whole wall's height)\"\n"
        "set xlabel \"x (m)\"\n"
        "set ylabel \"z (m)\"\n"
        "set xrange [%g:%g]\n"
        "set yrange [0:%g]\n"
        "set key bottom left\n"
        "set arrow 2 from first %g, first 0 to first %g, first %g nohead lw 5 lc rgb \"gray50\" back\n"
        "plot \"" CSV_NAME "\" skip 1 using 2:(strcol(5) eq \"plain\" ? $4 : NaN) with linespoints pt 7 ps 0.8 lc rgb \"#d62728\" title \"plain ODE (dBox)\", \\\n"
        "     \"\" skip 1 using 2:(strcol(5) eq \"boxtoi\" ? $4 : NaN) with linespoints pt 5 ps 0.8 lc rgb \"#1f77b4\" title \"boxtoi box\", \\\n"
        "     \"\" skip 1 using 2:(strcol(5) eq \"exact\" ? $4 : NaN) with points pt 6 ps 2.5 lw 2 lc rgb \"black\" title \"exact first contact\"\n"
        "unset multiplot\n",
        WALL_NEAR + 0.5 * WALL_THICK, WALL_NEAR + 0.5 * WALL_THICK, WALL_NEAR,
        WALL_NEAR - 8.0, WALL_NEAR + 8.0, WALL_HEIGHT,
        WALL_NEAR + 0.5 * WALL_THICK, WALL_NEAR + 0.5 * WALL_THICK,
        WALL_HEIGHT);
    return fclose(f) == 0;
}

/* 1 when gnuplot is there and fails; 0 when it made the picture or is not
   installed. */
static int run_gnuplot(void)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "bullet-wall: gnuplot not found, " PNG_NAME
                " not made (plot " CSV_NAME " with " GP_NAME ")\n");
        return 0;
    }
    if (system("gnuplot " GP_NAME) != 0) {
        fprintf(stderr, "bullet-wall: gnuplot failed, " PNG_NAME " not made\n");
        return 1;
    }
    printf("wrote " PNG_NAME "\n");
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: bullet-wall [--boxtoi-wall]\n"
               "  --boxtoi-wall  in the boxtoi runs, make the wall a static "
               "boxtoi box too\n");
}

int main(int argc, char **argv)
{
    int boxtoi_wall = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--boxtoi-wall") == 0)
            boxtoi_wall = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return demo_output_failed("bullet-wall");
        } else {
            fprintf(stderr, "bullet-wall: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }

    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    dBoxtoiInit();

    demo_rng rng = {SEED};
    static row rows[2 * MAX_ROWS + 1];
    int nrows = 0;
    int tunnelled[2] = {0, 0}, touched[2] = {0, 0};
    double max_err[2] = {0, 0}, max_dt[2] = {0, 0}, max_drift = 0;
    double max_solver_dt = 0;
    int solver_misses = 0;
    int substeps = 0, impacts = 0, redrawn = 0, untouched = 0;
    int touched_through = 0, ran_out = 0;

    printf("bullet-wall: %d shots of a %g cm box at %g m/s towards a %g cm "
           "wall %g m away, %d steps of 1/%g s each\n",
           SHOTS, 100 * BULLET_SIDE, SPEED, 100 * WALL_THICK, WALL_NEAR,
           STEPS, 1.0 / STEP);
    if (boxtoi_wall)
        printf("the wall is a static boxtoi box in the boxtoi runs\n");

    for (int i = 0; i < SHOTS; i++) {
        shot sh;
        reference ref;
        draw_shot(&rng, &sh);
        while (!exact_contact(&sh, &ref)) {
            draw_shot(&rng, &sh);
            redrawn++;
        }
        if (dist3(ref.p, ref.ballistic) > max_drift)
            max_drift = dist3(ref.p, ref.ballistic);
        double ts = solver_contact(&sh, &ref);
        if (isnan(ts))
            solver_misses++;
        else if (fabs(ts - ref.t) > max_solver_dt)
            max_solver_dt = fabs(ts - ref.t);

        for (int m = MODE_PLAIN; m <= MODE_BOXTOI; m++) {
            sim s;
            sim_init(&s, (enum mode)m, boxtoi_wall, &sh,
                     i == 0 ? rows + nrows : NULL);
            int through = sim_run(&s, &substeps, &impacts, &ran_out);
            tunnelled[m] += through;
            if (s.touched) {
                double e = dist3(s.touch_p, ref.p);
                double dt = fabs(s.touch_t - ref.t);
                touched[m]++;
                if (e > max_err[m])
                    max_err[m] = e;
                if (dt > max_dt[m])
                    max_dt[m] = dt;
            }
            if (m == MODE_BOXTOI && s.touched && through)
                touched_through++;
            if (m == MODE_BOXTOI && !s.touched && ++untouched <= 5)
                printf("shot %d: the boxtoi bullet never touched the wall "
                       "(exact contact at t = %.9f s)\n", i, ref.t);
            if (i == 0)
                nrows += s.nrows;
            sim_free(&s);
        }
        if (i == 0) {
            rows[nrows].t = ref.t;
            memcpy(rows[nrows].p, ref.p, sizeof ref.p);
            rows[nrows].mode = "exact";
            nrows++;
        }
    }
    if (redrawn)
        printf("(%d shots that would have missed the wall's face were drawn "
               "again)\n", redrawn);

    for (int m = MODE_PLAIN; m <= MODE_BOXTOI; m++) {
        printf("%-10s tunnelled %3d/%d, touched the wall in %3d shots",
               m == MODE_PLAIN ? "plain ODE:" : "boxtoi:", tunnelled[m], SHOTS,
               touched[m]);
        if (touched[m])
            printf(", worst contact %.3g m and %.3g s from the exact one",
                   max_err[m], max_dt[m]);
        printf("\n");
    }
    printf("boxtoi: %d sub-steps, %d impacts stepped to over %d steps\n",
           substeps, impacts, SHOTS * STEPS);
    if (ran_out)
        printf("boxtoi: the sub-steps ran out with impacts still ahead in %d "
               "steps\n", ran_out);
    if (touched_through)
        printf("boxtoi: in %d shots the bullet touched the wall, then went "
               "through it\n", touched_through);
    printf("boxtoi_solve alone on the step of contact: %d misses, worst "
           "|toi - exact| %.3g s\n", solver_misses, max_solver_dt);
    printf("(ODE's integrator vs the continuous ballistic curve at first "
           "contact: up to %.3g m)\n", max_drift);

    int written = write_csv(rows, nrows) && write_gp(), plotted = 1;
    if (written) {
        printf("wrote " CSV_NAME " and " GP_NAME "\n");
        fflush(stdout);
        plotted = !run_gnuplot();
    }

    dCloseODE();
    printf("plain ODE: tunnelled %d/%d; boxtoi: tunnelled %d/%d; "
           "max contact error %.3g m\n",
           tunnelled[MODE_PLAIN], SHOTS, tunnelled[MODE_BOXTOI], SHOTS,
           touched[MODE_BOXTOI] ? max_err[MODE_BOXTOI] : NAN);
    if (demo_output_failed("bullet-wall"))
        return 1;
    return written && plotted ? 0 : 1;
}
