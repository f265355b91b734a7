/*
 * Checks the report of examples/arm-sweep (read from standard input) with
 * its own forward kinematics (cos and sin of the joint angles, no
 * polynomial matrices) and its own box-box test (separating axes):
 *  - a reported hit at toi: the link and the obstacle are apart at every
 *    time in [0, toi - 1e-7] (a grid of 20,000 samples, refined wherever
 *    the separation is not larger than the most the link can move between
 *    samples), and they touch at toi within 1e-7;
 *  - the reported contact point lies in both boxes at toi, within 1e-6;
 *  - a reported miss: apart at every time in [0, 1], by the same check;
 *  - the first obstacle per link is the earliest of its hits.
 */
#include "tap/basic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXL 8
#define MAXO 16
#define SAMPLES 20000

typedef struct obb {
    double c[3];
    double ax[3][3]; /* unit axes */
    double h[3];     /* half sizes */
} obb;

static int nlinks, nobst;
static double len[MAXL], wid[MAXL], hei[MAXL], th0[MAXL], th1[MAXL];
static obb obst[MAXO];
static char oname[MAXO][64];

/* Joint angle j at t: tan(theta/2) moves linearly from tan(th0/2) to tan(th1/2). */
static double angle(int j, double t)
{
    double a = tan(th0[j] / 2), b = tan(th1[j] / 2) - a;
    return 2 * atan(a + b * t);
}

/* Largest |d theta_j / dt| over t in [0, 1]: 2 |b| / (1 + u^2) <= 2 |b|. */
static double angle_rate(int j)
{
    double a = tan(th0[j] / 2), b = tan(th1[j] / 2) - a;
    return 2 * fabs(b);
}

static obb link_at(int k, double t)
{
    double x = 0, y = 0, phi = 0;
    for (int j = 0; j < k; j++) {
        phi += angle(j, t);
        x += len[j] * cos(phi);
        y += len[j] * sin(phi);
    }
    phi += angle(k, t);
    obb b;
    double c = cos(phi), s = sin(phi);
    b.c[0] = x + len[k] / 2 * c;
    b.c[1] = y + len[k] / 2 * s;
    b.c[2] = 0;
    double ax[3][3] = {{c, s, 0}, {-s, c, 0}, {0, 0, 1}};
    memcpy(b.ax, ax, sizeof ax);
    b.h[0] = len[k] / 2;
    b.h[1] = wid[k] / 2;
    b.h[2] = hei[k] / 2;
    return b;
}

/* Bound on the speed of any point of link k. */
static double link_speed(int k)
{
    double reach = 0, rate = 0;
    for (int j = 0; j <= k; j++) {
        reach += len[j];
        rate += angle_rate(j);
    }
    reach += wid[k] + hei[k];
    return rate * reach;
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/*
 * Largest separation over the 15 separating axes (normalised): positive
 * means apart, and then it is a lower bound on the distance; near zero
 * means touching.
 */
static double separation(const obb *a, const obb *b)
{
    double d[3] = {b->c[0] - a->c[0], b->c[1] - a->c[1], b->c[2] - a->c[2]};
    double best = -INFINITY;
    double axes[15][3];
    int n = 0;
    for (int i = 0; i < 3; i++) {
        memcpy(axes[n++], a->ax[i], sizeof axes[0]);
        memcpy(axes[n++], b->ax[i], sizeof axes[0]);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const double *u = a->ax[i], *v = b->ax[j];
            double w[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                           u[0] * v[1] - u[1] * v[0]};
            double l = sqrt(dot(w, w));
            if (l < 1e-9)
                continue;
            for (int m = 0; m < 3; m++)
                axes[n][m] = w[m] / l;
            n++;
        }
    for (int i = 0; i < n; i++) {
        double r = 0;
        for (int m = 0; m < 3; m++)
            r += a->h[m] * fabs(dot(axes[i], a->ax[m])) +
                 b->h[m] * fabs(dot(axes[i], b->ax[m]));
        double s = fabs(dot(axes[i], d)) - r;
        if (s > best)
            best = s;
    }
    return best;
}

/* Distance of point p outside the box (0 inside). */
static double outside(const obb *b, const double p[3])
{
    double d[3] = {p[0] - b->c[0], p[1] - b->c[1], p[2] - b->c[2]}, s = 0;
    for (int m = 0; m < 3; m++) {
        double e = fabs(dot(d, b->ax[m])) - b->h[m];
        if (e > 0)
            s += e * e;
    }
    return sqrt(s);
}

/*
 * Are link k and obstacle j apart at every t in [ta, tb]?  Apart at ta by
 * more than the link can move before tb settles the interval; otherwise
 * halve it.  Returns 1 when proved apart, 0 when they touch at a sample,
 * -1 when the proof needs intervals below 1e-13.
 */
static int apart_on(int k, int j, double ta, double tb, double speed, int depth,
                    double *where)
{
    obb l = link_at(k, ta);
    double sep = separation(&l, &obst[j]);
    if (sep <= 0) {
        *where = ta;
        return 0;
    }
    if (sep > speed * (tb - ta))
        return 1;
    if (tb - ta < 1e-13 || depth > 60) {
        *where = ta;
        return -1;
    }
    double tm = 0.5 * (ta + tb);
    int r = apart_on(k, j, ta, tm, speed, depth + 1, where);
    if (r != 1)
        return r;
    return apart_on(k, j, tm, tb, speed, depth + 1, where);
}

static int apart_during(int k, int j, double t_end, double *where)
{
    double speed = link_speed(k);
    for (int i = 0; i < SAMPLES; i++) {
        double ta = t_end * i / SAMPLES, tb = t_end * (i + 1) / SAMPLES;
        int r = apart_on(k, j, ta, tb, speed, 0, where);
        if (r != 1)
            return r;
    }
    obb l = link_at(k, t_end);
    if (separation(&l, &obst[j]) <= 0) {
        *where = t_end;
        return 0;
    }
    return 1;
}

int main(void)
{
    char line[4096];
    double first_seen[MAXL];
    int first_obst[MAXL], reported_first[MAXL];
    double reported_t[MAXL];
    int npairs = 0, nhits = 0, nmiss = 0;

    plan(0);
    for (int k = 0; k < MAXL; k++) {
        first_seen[k] = INFINITY;
        first_obst[k] = -1;
        reported_first[k] = -2;
        reported_t[k] = NAN;
    }
    while (fgets(line, sizeof line, stdin)) {
        int k, j, n;
        double a, b, c, d, e, f, g, h;
        char name[64], state[16], kind[16], fa[16], fb[16];
        if (sscanf(line, "link %d length %lf width %lf height %lf start %lf end %lf", &k,
                   &a, &b, &c, &d, &e) == 6) {
            if (k < 1 || k > MAXL || k != nlinks + 1)
                bail("bad link line: %s", line);
            len[k - 1] = a;
            wid[k - 1] = b;
            hei[k - 1] = c;
            th0[k - 1] = d;
            th1[k - 1] = e;
            nlinks = k;
        } else if (sscanf(line,
                          "obstacle %d %63s centre %lf %lf %lf half %lf %lf %lf yaw "
                          "%lf tilt %lf",
                          &j, name, &a, &b, &c, &d, &e, &f, &g, &h) == 10) {
            if (j != nobst || j >= MAXO)
                bail("bad obstacle line: %s", line);
            obb *o = &obst[j];
            o->c[0] = a;
            o->c[1] = b;
            o->c[2] = c;
            o->h[0] = d;
            o->h[1] = e;
            o->h[2] = f;
            /* columns of Rz(yaw) Rx(tilt) */
            double cy = cos(g), sy = sin(g), ct = cos(h), st = sin(h);
            double ax[3][3] = {{cy, sy, 0}, {-sy * ct, cy * ct, st}, {sy * st, -cy * st, ct}};
            memcpy(o->ax, ax, sizeof ax);
            snprintf(oname[j], sizeof oname[j], "%s", name);
            nobst = j + 1;
        } else if (sscanf(line, "pair %d %d miss", &k, &j) == 2 &&
                   strstr(line, "miss")) {
            if (k < 1 || k > nlinks || j < 0 || j >= nobst)
                bail("bad pair line: %s", line);
            npairs++;
            nmiss++;
            double where = 0;
            int r = apart_during(k - 1, j, 1.0, &where);
            ok(r == 1, "link %d and the %s stay apart for t in [0, 1]%s", k, oname[j],
               r == 0 ? " (they touch)" : r < 0 ? " (unproved)" : "");
            if (r != 1)
                diag("at t = %.17g", where);
        } else if (sscanf(line,
                          "pair %d %d %15s toi %lf kind %15s a %15s b %15s point %lf %lf "
                          "%lf normal %lf %lf %lf%n",
                          &k, &j, state, &a, kind, fa, fb, &b, &c, &d, &e, &f, &g,
                          &n) == 13) {
            if (k < 1 || k > nlinks || j < 0 || j >= nobst)
                bail("bad pair line: %s", line);
            npairs++;
            nhits++;
            double toi = a;
            const double point[3] = {b, c, d};
            if (strcmp(state, "overlap") == 0) {
                obb l = link_at(k - 1, 0);
                ok(toi == 0 && separation(&l, &obst[j]) <= 1e-7,
                   "link %d and the %s overlap at t0", k, oname[j]);
            } else {
                is_string(state, "hit", "link %d, %s: state", k, oname[j]);
                double where = 0;
                int r = apart_during(k - 1, j, toi - 1e-9, &where);
                ok(r == 1, "link %d and the %s apart for t in [0, toi - 1e-9]%s", k,
                   oname[j], r == 0 ? " (they touch earlier)" : r < 0 ? " (unproved)" : "");
                if (r != 1)
                    diag("toi %.17g, trouble at t = %.17g", toi, where);
                obb l = link_at(k - 1, toi);
                double sep = separation(&l, &obst[j]);
                ok(fabs(sep) <= 1e-9, "link %d touches the %s at toi = %.17g "
                   "(separation %.3g)", k, oname[j], toi, sep);
                double da = outside(&l, point), db = outside(&obst[j], point);
                ok(da <= 1e-9 && db <= 1e-9,
                   "link %d, %s: contact point in both boxes (off by %.3g, %.3g)", k,
                   oname[j], da, db);
                double nl = sqrt(e * e + f * f + g * g);
                is_double(nl, 1, 1e-9, "link %d, %s: unit normal", k, oname[j]);
                /* along the normal, from the link to the obstacle, the two
                   boxes' projections just meet: the gap between the link's
                   furthest and the obstacle's nearest point is 0 */
                const double nv[3] = {e / nl, f / nl, g / nl};
                double gap = dot(nv, obst[j].c) - dot(nv, l.c);
                for (int m = 0; m < 3; m++)
                    gap -= l.h[m] * fabs(dot(nv, l.ax[m])) +
                           obst[j].h[m] * fabs(dot(nv, obst[j].ax[m]));
                ok(fabs(gap) <= 1e-9, "link %d, %s: the normal points from the link to "
                   "the obstacle, square to the contact (gap along it %.3g)", k, oname[j],
                   gap);
            }
            if (toi < first_seen[k - 1]) {
                first_seen[k - 1] = toi;
                first_obst[k - 1] = j;
            }
        } else if (sscanf(line, "first %d %d %lf", &k, &j, &a) == 3) {
            if (k < 1 || k > MAXL)
                bail("bad first line: %s", line);
            reported_first[k - 1] = j;
            reported_t[k - 1] = a;
        } else if (sscanf(line, "first %d none", &k) == 1 && strstr(line, "none")) {
            if (k < 1 || k > MAXL)
                bail("bad first line: %s", line);
            reported_first[k - 1] = -1;
        }
    }
    if (nlinks == 0 || nobst == 0)
        bail("no scene in the report (run arm-sweep --report)");
    is_int(npairs, nlinks * nobst, "every link-obstacle pair answered");
    ok(nhits > 0 && nmiss > 0, "the scene has hits (%d) and misses (%d)", nhits, nmiss);
    for (int k = 0; k < nlinks; k++) {
        is_int(reported_first[k], first_obst[k], "link %d: first obstacle", k + 1);
        if (first_obst[k] >= 0)
            is_double(reported_t[k], first_seen[k], 0, "link %d: first contact time",
                      k + 1);
    }
    return tap_failures() ? 1 : 0;
}
