/*
 * arm-sweep: a planar robot arm of three box links sweeps from one pose to
 * another among box obstacles; when does each link first touch which
 * obstacle?
 *
 * The joints turn about z.  Joint j's angle runs from start[j] to end[j]
 * with tan(theta_j / 2) = a_j + b_j t linear in t, so the joint is the
 * rational rotation of degree 2
 *
 *     R_j(t) = [[1-u^2, -2u, 0], [2u, 1-u^2, 0], [0, 0, 1+u^2]] / (1+u^2),
 *     u = a_j + b_j t,
 *
 * the rotation of the quaternion (1, 0, 0, u).  Link k moves with
 * R_1 T(L_1) R_2 T(L_2) ... R_k, of degree 2k; the obstacles stand still.
 * Each (link, obstacle) pair is one boxtoi_solve query over t in [0, 1].
 *
 * Usage: arm-sweep [--report] [--svg FILE]
 *   prints, per link, the first obstacle it touches and when; writes the
 *   arm at the first contact as an SVG picture (default arm-sweep.svg).
 *   --report adds machine-readable lines (scene and every answer, numbers
 *   with 17 digits) for checking.
 */
#include <boxtoi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo-util.h"

#define NLINKS 3
#define NOBST 4

/* Link k: a box [0, length] x [-width/2, width/2] x [-height/2, height/2]
 * in its own frame, whose origin is joint k. */
static const double link_length[NLINKS] = {1.0, 0.8, 0.6};
static const double link_width = 0.12;
static const double link_height = 0.1;
/* Joint angles (radians) at t = 0 and t = 1. */
static const double angle_start[NLINKS] = {0.2, 0.3, 0.2};
static const double angle_end[NLINKS] = {1.5, -0.6, 1.0};

/* An obstacle: a box of half sizes `half` centred at `centre`, turned by
 * Rz(yaw) Rx(tilt). */
typedef struct obstacle {
    const char *name;
    double centre[3];
    double half[3];
    double yaw, tilt;
} obstacle;

static const obstacle obstacles[NOBST] = {
    {"pillar", {0.55, 1.75, 0}, {0.12, 0.12, 0.5}, 0.3, 0},
    {"crate", {1.45, 1.15, 0}, {0.15, 0.2, 0.3}, -0.4, 0.3},
    {"shelf", {1.0, 0.6, 0.4}, {0.5, 0.5, 0.04}, 0, 0},
    {"post", {-0.6, 0.9, 0}, {0.1, 0.1, 0.5}, 0.0, 0},
};

/* Motion of link k (0-based) over t in [0, 1]. */
static void link_motion(int k, boxtoi_motion *m)
{
    boxtoi_motion_identity(m);
    for (int j = 0; j <= k; j++) {
        double a = tan(angle_start[j] / 2);
        double b = tan(angle_end[j] / 2) - a;
        const double q[2][4] = {{1, 0, 0, a}, {0, 0, 0, b}};
        const double p[1][3] = {{0, 0, 0}};
        boxtoi_motion rot;
        if (boxtoi_motion_rigid(&rot, q, 1, p, 0) != BOXTOI_REASON_NONE ||
            boxtoi_motion_multiply(m, m, &rot) != BOXTOI_REASON_NONE) {
            fprintf(stderr, "arm-sweep: motion degree too high\n");
            exit(1);
        }
        if (j < k) {
            double tr[4][4] = {{1, 0, 0, link_length[j]},
                               {0, 1, 0, 0},
                               {0, 0, 1, 0},
                               {0, 0, 0, 1}};
            boxtoi_motion shift;
            boxtoi_motion_constant(&shift, tr);
            if (boxtoi_motion_multiply(m, m, &shift) != BOXTOI_REASON_NONE) {
                fprintf(stderr, "arm-sweep: motion degree too high\n");
                exit(1);
            }
        }
    }
}

static void link_box(int k, boxtoi_box *b)
{
    b->lo[0] = 0;
    b->hi[0] = link_length[k];
    b->lo[1] = -link_width / 2;
    b->hi[1] = link_width / 2;
    b->lo[2] = -link_height / 2;
    b->hi[2] = link_height / 2;
}

/* The obstacle's constant pose: quaternion of Rz(yaw) Rx(tilt). */
static void obstacle_motion(const obstacle *o, boxtoi_motion *m)
{
    double cz = cos(o->yaw / 2), sz = sin(o->yaw / 2);
    double cx = cos(o->tilt / 2), sx = sin(o->tilt / 2);
    /* (cz, 0, 0, sz) * (cx, sx, 0, 0) */
    const double q[1][4] = {{cz * cx, cz * sx, sz * sx, sz * cx}};
    const double p[1][3] = {{o->centre[0], o->centre[1], o->centre[2]}};
    boxtoi_motion_rigid(m, q, 0, p, 0);
}

static void obstacle_box(const obstacle *o, boxtoi_box *b)
{
    for (int i = 0; i < 3; i++) {
        b->lo[i] = -o->half[i];
        b->hi[i] = o->half[i];
    }
}

/* ------------------------------------------------------------------ */
/* The picture                                                         */

#define SVG_SCALE 180.0
#define SVG_X0 170.0
#define SVG_Y0 470.0

static double sx(double x) { return SVG_X0 + SVG_SCALE * x; }
static double sy(double y) { return SVG_Y0 - SVG_SCALE * y; }

/* The 8 world corners of a box under a motion at t. */
static void corners(const boxtoi_box *b, const boxtoi_motion *m, double t,
                    double out[8][3])
{
    for (int c = 0; c < 8; c++) {
        double p[3] = {(c & 1) ? b->hi[0] : b->lo[0], (c & 2) ? b->hi[1] : b->lo[1],
                       (c & 4) ? b->hi[2] : b->lo[2]};
        boxtoi_motion_apply(m, t, p, out[c]);
    }
}

/* Top view of a box: its 12 edges projected on the x-y plane. */
static void svg_box(FILE *f, const boxtoi_box *b, const boxtoi_motion *m,
                    double t, const char *style)
{
    double c[8][3];
    corners(b, m, t, c);
    fprintf(f, "<path style=\"%s\" d=\"", style);
    for (int i = 0; i < 8; i++)
        for (int axis = 1; axis < 8; axis <<= 1)
            if (!(i & axis))
                fprintf(f, "M%.2f %.2f L%.2f %.2f ", sx(c[i][0]), sy(c[i][1]),
                        sx(c[i | axis][0]), sy(c[i | axis][1]));
    fprintf(f, "\"/>\n");
}

/* A link as a filled rectangle (its top face). */
static void svg_link(FILE *f, const boxtoi_box *b, const boxtoi_motion *m,
                     double t, const char *style)
{
    double c[8][3];
    corners(b, m, t, c);
    static const int order[4] = {4, 5, 7, 6};
    fprintf(f, "<polygon style=\"%s\" points=\"", style);
    for (int i = 0; i < 4; i++)
        fprintf(f, "%.2f,%.2f ", sx(c[order[i]][0]), sy(c[order[i]][1]));
    fprintf(f, "\"/>\n");
}

static int write_svg(const char *path, const boxtoi_motion lm[NLINKS],
                     const boxtoi_motion om[NOBST], double t,
                     const boxtoi_result *first, int first_link,
                     int first_obst)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" "
               "height=\"560\" viewBox=\"0 0 640 560\">\n"
               "<rect width=\"640\" height=\"560\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"10\" y=\"20\" font-family=\"sans-serif\" "
               "font-size=\"14\">arm-sweep, top view: start (light), end "
               "(dashed), first contact (solid)</text>\n");
    for (int j = 0; j < NOBST; j++) {
        boxtoi_box b;
        obstacle_box(&obstacles[j], &b);
        svg_box(f, &b, &om[j], 0,
                j == first_obst ? "fill:none;stroke:#b03030;stroke-width:1.5"
                                : "fill:none;stroke:#404040;stroke-width:1");
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-family=\"sans-serif\" "
                   "font-size=\"12\">%s</text>\n",
                sx(obstacles[j].centre[0] + obstacles[j].half[0] + 0.05),
                sy(obstacles[j].centre[1]), obstacles[j].name);
    }
    for (int k = 0; k < NLINKS; k++) {
        boxtoi_box b;
        link_box(k, &b);
        svg_link(f, &b, &lm[k], 0, "fill:#d0d8f0;stroke:#8090c0");
        svg_link(f, &b, &lm[k], 1,
                 "fill:none;stroke:#8090c0;stroke-dasharray:4,3");
    }
    for (int k = 0; k < NLINKS; k++) {
        boxtoi_box b;
        link_box(k, &b);
        svg_link(f, &b, &lm[k], t,
                 k == first_link ? "fill:#3050c0;fill-opacity:0.8;stroke:#102060"
                                 : "fill:#6080d0;fill-opacity:0.6;stroke:#102060");
    }
    if (first != NULL) {
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"#e02020\"/>\n",
                sx(first->point[0]), sy(first->point[1]));
        fprintf(f, "<text x=\"10\" y=\"40\" font-family=\"sans-serif\" "
                   "font-size=\"13\">link %d touches %s at t = %.6f (%s)</text>\n",
                first_link + 1, obstacles[first_obst].name, t,
                boxtoi_kind_name(first->kind));
    }
    fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"black\"/>\n",
            sx(0), sy(0));
    fprintf(f, "</svg>\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f, "usage: arm-sweep [--report] [--svg FILE]\n"
               "  --report    also print the scene and every answer (17 digits)\n"
               "  --svg FILE  write the arm at its first contact to FILE "
               "(default arm-sweep.svg;\n"
               "              a name that begins with - as ./-name)\n");
}

int main(int argc, char **argv)
{
    int report = 0;
    const char *svg = "arm-sweep.svg";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--report") == 0) {
            report = 1;
        } else if (strcmp(argv[i], "--svg") == 0) {
            /* a name that begins with - is an option forgotten, or - for
               standard output, which the answers use: ./-name for such a file */
            if (i + 1 >= argc || argv[i + 1][0] == '-') {
                if (i + 1 >= argc)
                    fprintf(stderr, "arm-sweep: --svg needs a file name\n");
                else
                    fprintf(stderr, "arm-sweep: --svg needs a file name (got '%s'; ./-name "
                                    "for a name beginning with -)\n", argv[i + 1]);
                usage(stderr);
                return 2;
            }
            svg = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return demo_output_failed("arm-sweep");
        } else {
            fprintf(stderr, "arm-sweep: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }

    boxtoi_motion lm[NLINKS], om[NOBST];
    for (int k = 0; k < NLINKS; k++)
        link_motion(k, &lm[k]);
    for (int j = 0; j < NOBST; j++)
        obstacle_motion(&obstacles[j], &om[j]);

    if (report) {
        for (int k = 0; k < NLINKS; k++)
            printf("link %d length %.17g width %.17g height %.17g start %.17g "
                   "end %.17g\n",
                   k + 1, link_length[k], link_width, link_height,
                   angle_start[k], angle_end[k]);
        for (int j = 0; j < NOBST; j++) {
            const obstacle *o = &obstacles[j];
            printf("obstacle %d %s centre %.17g %.17g %.17g half %.17g %.17g "
                   "%.17g yaw %.17g tilt %.17g\n",
                   j, o->name, o->centre[0], o->centre[1], o->centre[2],
                   o->half[0], o->half[1], o->half[2], o->yaw, o->tilt);
        }
    }

    printf("A three-link arm sweeps for t in [0, 1] (link k moves with degree "
           "%d, %d, %d):\n",
           lm[0].degree, lm[1].degree, lm[2].degree);
    double first_t = INFINITY;
    int first_link = -1, first_obst = -1;
    boxtoi_result first_r;
    memset(&first_r, 0, sizeof first_r);
    int status = 0;

    for (int k = 0; k < NLINKS; k++) {
        double best = INFINITY;
        int best_j = -1;
        boxtoi_result best_r;
        memset(&best_r, 0, sizeof best_r);
        for (int j = 0; j < NOBST; j++) {
            boxtoi_query q = boxtoi_default_query();
            link_box(k, &q.a);
            obstacle_box(&obstacles[j], &q.b);
            q.motion_a = lm[k];
            q.motion_b = om[j];
            q.t0 = 0;
            q.t1 = 1;
            boxtoi_result r = boxtoi_solve(&q);
            if (r.state != BOXTOI_HIT && r.state != BOXTOI_MISS &&
                r.state != BOXTOI_OVERLAP) {
                fprintf(stderr, "arm-sweep: link %d, %s: solver answered %s\n",
                        k + 1, obstacles[j].name, boxtoi_state_name(r.state));
                status = 1;
                continue;
            }
            if (report) {
                char fa[BOXTOI_FEATURE_NAME_MAX], fb[BOXTOI_FEATURE_NAME_MAX];
                if (r.state == BOXTOI_MISS)
                    printf("pair %d %d miss\n", k + 1, j);
                else
                    printf("pair %d %d %s toi %.17g kind %s a %s b %s point "
                           "%.17g %.17g %.17g normal %.17g %.17g %.17g\n",
                           k + 1, j, boxtoi_state_name(r.state), r.toi,
                           boxtoi_kind_name(r.kind),
                           boxtoi_feature_name(r.feature_a, fa, sizeof fa),
                           boxtoi_feature_name(r.feature_b, fb, sizeof fb),
                           r.point[0], r.point[1], r.point[2], r.normal[0],
                           r.normal[1], r.normal[2]);
            }
            if (r.state != BOXTOI_MISS && r.toi < best) {
                best = r.toi;
                best_j = j;
                best_r = r;
            }
        }
        if (best_j < 0) {
            printf("  link %d: touches nothing\n", k + 1);
            if (report)
                printf("first %d none\n", k + 1);
            continue;
        }
        char fa[BOXTOI_FEATURE_NAME_MAX], fb[BOXTOI_FEATURE_NAME_MAX];
        printf("  link %d: first touches the %s at t = %.9f (%s, link %s on "
               "%s; at (%.4f, %.4f, %.4f))\n",
               k + 1, obstacles[best_j].name, best,
               boxtoi_kind_name(best_r.kind),
               boxtoi_feature_name(best_r.feature_a, fa, sizeof fa),
               boxtoi_feature_name(best_r.feature_b, fb, sizeof fb),
               best_r.point[0], best_r.point[1], best_r.point[2]);
        if (report)
            printf("first %d %d %.17g\n", k + 1, best_j, best);
        if (best < first_t) {
            first_t = best;
            first_link = k;
            first_obst = best_j;
            first_r = best_r;
        }
    }

    double t = first_link >= 0 ? first_t : 1;
    if (write_svg(svg, lm, om, t, first_link >= 0 ? &first_r : NULL,
                  first_link, first_obst) != 0) {
        fprintf(stderr, "arm-sweep: cannot write %s\n", svg);
        return 1;
    }
    printf("Picture of the arm at t = %.6f written to %s\n", t, svg);
    if (demo_output_failed("arm-sweep"))
        return 1;
    return status;
}
