/*
 * first-contact: a few first-contact questions answered by the solver.
 *
 * Each case moves box A (a unit cube) and box B and prints what boxtoi_solve
 * finds: hit, miss, overlap or invalid (with the reason), the first contact
 * time, the exit time, the features in contact, the contact point and the
 * normal (from A to B).
 */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <boxtoi.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo-util.h"

/* Translation x(t) = x0 + v t (linear motion). */
static void linear(boxtoi_motion *m, const double x0[3], const double v[3])
{
    boxtoi_motion_identity(m);
    m->degree = 1;
    for (int r = 0; r < 3; r++) {
        m->c[0][r][3] = x0[r];
        m->c[1][r][3] = v[r];
    }
}

/* Rotation about z by 2 atan(k t) with centre path x0 + v t: quaternion
 * (1, 0, 0, k t), a rational rigid motion of degree 3. */
static void spinning(boxtoi_motion *m, double k, const double x0[3],
                     const double v[3])
{
    const double q[2][4] = {{1, 0, 0, 0}, {0, 0, 0, k}};
    const double p[2][3] = {{x0[0], x0[1], x0[2]}, {v[0], v[1], v[2]}};
    boxtoi_motion_rigid(m, q, 1, p, 1);
}

/* A constant rotation about axis (unit) by angle, placed at x. */
static void placed(boxtoi_motion *m, const double axis[3], double angle,
                   const double x[3])
{
    double s = sin(angle / 2), c = cos(angle / 2);
    const double q[1][4] = {{c, s * axis[0], s * axis[1], s * axis[2]}};
    const double p[1][3] = {{x[0], x[1], x[2]}};
    boxtoi_motion_rigid(m, q, 0, p, 0);
}

/* v as printed with 6 decimals: a rounding residue (-1e-17) shows as 0,
   not -0.000000. */
static double six(double v)
{
    return fabs(v) < 5e-7 ? 0.0 : v;
}

static void show(const char *title, const boxtoi_query *q)
{
    boxtoi_result r = boxtoi_solve(q);
    char fa[BOXTOI_FEATURE_NAME_MAX], fb[BOXTOI_FEATURE_NAME_MAX];
    printf("%s\n  %s", title, boxtoi_state_name(r.state));
    if (r.state == BOXTOI_INVALID) {
        printf(": %s\n", boxtoi_reason_message(r.reason));
        return;
    }
    if (r.state == BOXTOI_HIT || r.state == BOXTOI_OVERLAP) {
        printf(" at t = %.9f", r.toi);
        if (r.exit_after_t1)
            printf(", still in contact at t1");
        else
            printf(", contact ends at t = %.9f", r.exit);
        printf("\n  %s: A %s, B %s\n", boxtoi_kind_name(r.kind),
               boxtoi_feature_name(r.feature_a, fa, sizeof fa),
               boxtoi_feature_name(r.feature_b, fb, sizeof fb));
        printf("  point (%.6f, %.6f, %.6f), normal (%.6f, %.6f, %.6f)\n",
               six(r.point[0]), six(r.point[1]), six(r.point[2]), six(r.normal[0]),
               six(r.normal[1]), six(r.normal[2]));
    } else {
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
        if (!help)
            fprintf(stderr, "first-contact: no arguments expected\n");
        fprintf(help ? stdout : stderr, "usage: first-contact\n"
                "  prints the answers to six first-contact queries\n");
        return help ? demo_output_failed("first-contact") : 2;
    }
    boxtoi_query q = boxtoi_default_query();
    const double zero[3] = {0, 0, 0};
    const double x_axis[3] = {1, 0, 0}, y_axis[3] = {0, 1, 0};

    printf("boxtoi %s: first contact of two moving boxes\n\n", boxtoi_version());

    /* 1. A corner of B (tilted so one vertex leads) comes down on A's top. */
    {
        const double x0[3] = {0.1, 0.2, 3.0}, v[3] = {0, 0, -4.0};
        const double tilt[3] = {0.5773502691896258, 0.5773502691896258, 0.5773502691896258};
        boxtoi_motion turn, move;
        placed(&turn, tilt, 0.9, zero);
        linear(&move, x0, v);
        boxtoi_motion_multiply(&q.motion_b, &move, &turn);
        show("1. a tilted box falls on a cube (linear motion)", &q);
    }

    /* 2. Edge on edge: B turned 45 degrees about x, A about y, B sweeps down. */
    {
        boxtoi_motion turn, move;
        const double x0[3] = {0, 0, 2.5}, v[3] = {0.3, 0, -3.0};
        placed(&q.motion_a, y_axis, M_PI / 4, zero);
        placed(&turn, x_axis, M_PI / 4, zero);
        linear(&move, x0, v);
        boxtoi_motion_multiply(&q.motion_b, &move, &turn);
        show("2. two edges cross (linear motion)", &q);
        boxtoi_motion_identity(&q.motion_a);
    }

    /* 3. A spinning box sweeps over a cube, its centre 1.1 above the
       cube's: a face, turning down, meets the cube's top edge. */
    {
        const double x0[3] = {-3.0, 1.1, 0}, v[3] = {6.0, 0, 0};
        spinning(&q.motion_b, 1.5, x0, v);
        show("3. a spinning box sweeps over a cube (rational rotation, degree 3)", &q);
    }

    /* 4. The same sweep 2.5 above: no contact. */
    {
        const double x0[3] = {-3.0, 2.5, 0}, v[3] = {6.0, 0, 0};
        spinning(&q.motion_b, 1.5, x0, v);
        show("4. the same sweep 2.5 above the cube", &q);
    }

    /* 5. Already overlapping at t0. */
    {
        const double x0[3] = {0.5, 0.5, 0.5}, v[3] = {1, 0, 0};
        linear(&q.motion_b, x0, v);
        show("5. overlapping at the start", &q);
    }

    /* 6. Invalid input: the interval is reversed. */
    q.t0 = 1.0;
    q.t1 = 0.0;
    show("6. a reversed interval", &q);
    return demo_output_failed("first-contact");
}
