/*
 * Colliders of the boxtoi class: against itself, against dBox and against
 * dPlane; every other class sees a dBox at the current pose.
 *
 * Every collider first looks at the current poses: boxes touching now get
 * ODE's own contact set (dBoxBox for box-box, ODE's box-plane collider on a
 * dBox standing in for the box for planes), time of impact 0.  Otherwise it
 * asks for the first contact within the step: boxtoi_solve for box-box, the
 * first root of the vertices' plane distances for box-plane.  Those
 * contacts lie where the boxes will touch at that time (position and normal
 * at that instant), with depth 0 (touch_depth: between two bodies, just
 * past the world's contact surface layer).
 *
 * Normal convention (ODE's): for dCollide(o1, o2) the normal points from o2
 * towards o1, so that moving o1 along the normal by depth separates the
 * geoms.  boxtoi_result.normal points from A to B, hence the sign flip.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

#define CONTACT(p, skip) ((dContactGeom *)(((char *)(p)) + (skip)))
#define NUMC_MASK 0xffff

/* Relative margin by which boxes are inflated to gather the contact
   manifold at a time of impact (the solver leaves them within 1e-9 of the
   boxes' size of touching). */
#define MANIFOLD_MARGIN 1e-6
/* Vertices this close to the plane (relative to the box size) at the time
   of impact are contacts too. */
#define PLANE_MARGIN 1e-6
/* The pair whose impact ended the stepper's last sub-step gathers its
   contacts with a margin of what it can close over the rest of the step,
   at most this share of the boxes' smallest side (touch_margin). */
#define IMPACT_MARGIN_MAX 0.05
/* Times of impact within this fraction of the interval read as 0. */
#define TOI_ZERO 1e-9
/* A pair first touching within this fraction of a sub-step's end is not
   checked as an escape (the next sub-step or step sees it touching). */
#define ESCAPE_END 1e-9

static _Thread_local double window_ = -1;
static _Thread_local double last_toi_ = -1;
static _Thread_local int probe_ = 0;
static _Thread_local dGeomID probe_first_ = NULL;

void bt_probe_arm(int on)
{
    probe_ = on;
    if (on)
        probe_first_ = NULL;
}

dGeomID bt_probe_first(void)
{
    return probe_first_;
}

static _Thread_local double spec_rel_ = -1, spec_abs_ = -1;

void bt_set_window(double window)
{
    window_ = window;
}

static _Thread_local double rest_rel_ = -1, rest_abs_ = -1, rest_step_ = 0;

void bt_set_rest_margin(double deep_rel, double deep_abs, double step)
{
    rest_rel_ = deep_rel;
    rest_abs_ = deep_abs;
    rest_step_ = step;
}

void bt_set_speculative(double deep_rel, double deep_abs)
{
    spec_rel_ = deep_rel;
    spec_abs_ = deep_abs;
}

double bt_last_toi(void)
{
    return last_toi_;
}

void bt_reset_last_toi(void)
{
    last_toi_ = -1;
}

static void note_toi(dGeomID o1, dGeomID o2, double toi)
{
    bt_data *d;
    last_toi_ = toi;
    if ((d = bt_get(o1)))
        d->last_toi = toi;
    if ((d = bt_get(o2)))
        d->last_toi = toi;
}

static void side_of(dGeomID g, dVector3 side);

/* Half the extent along the unit vector n of a box turned by R (ODE
   layout) with half sides half. */
static double half_extent(const dReal *R, const double half[3], const double n[3])
{
    double e = 0;
    for (int j = 0; j < 3; j++)
        e += fabs(n[0] * R[j] + n[1] * R[4 + j] + n[2] * R[8 + j]) * half[j];
    return e;
}

/*
 * The depth of the contacts made here for boxes that only touch (where a
 * pair will first touch, the manifold gathered with a margin, speculative
 * contacts): the world's contact surface layer, and 1e-12 of the smaller
 * box's longest side beyond it, rather than 0.  ODE's contact joint asks
 * for a separating speed of ERP times the depth beyond that layer: with
 * none, two bodies touching at rest relative to each other and accelerated
 * alike (a box placed exactly on another, both under gravity) give their
 * rows a right-hand side of exactly 0, on which the LCP of dWorldStep fails
 * ("LCP internal error, s <= 0") and drops every constraint of the step.
 * The two boxes then fell together at g, still touching, and so again each
 * step, through the floor.  The push asked for instead, ERP times 1e-12 of
 * the box's size a step, is far below the solver's tolerance.  With a
 * static geom or a kinematic body the moving body's own acceleration drives
 * the rows, and the depth stays 0.
 */
static dReal touch_depth(dGeomID o1, dGeomID o2)
{
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (!b1 || !b2 || dBodyIsKinematic(b1) || dBodyIsKinematic(b2))
        return 0;
    dReal layer = dWorldGetContactSurfaceLayer(dBodyGetWorld(b1));
    if (!(layer >= 0))
        layer = 0;
    dVector3 side;
    double size = INFINITY;
    for (int g = 0; g < 2; g++) {
        dGeomID o = g ? o2 : o1;
        if (!bt_get(o) && dGeomGetClass(o) != dBoxClass)
            continue;
        side_of(o, side);
        size = fmin(size, fmax(fmax(side[0], side[1]), side[2]));
    }
    dReal d = (dReal)(layer + 1e-12 * (isfinite(size) ? size : 0));
#ifdef dSINGLE
    return d > layer ? d : nextafterf(layer, INFINITY);
#else
    return d > layer ? d : nextafter(layer, INFINITY);
#endif
}

static void finish_contacts(dGeomID o1, dGeomID o2, dContactGeom *contact,
                            int skip, int n, const dReal normal[3],
                            int touch)
{
    dReal touching = touch ? touch_depth(o1, o2) : 0;
    for (int i = 0; i < n; i++) {
        dContactGeom *c = CONTACT(contact, i * skip);
        if (normal) {
            c->normal[0] = normal[0];
            c->normal[1] = normal[1];
            c->normal[2] = normal[2];
        }
        if (touch)
            c->depth = touching;
        c->g1 = o1;
        c->g2 = o2;
        c->side1 = -1;
        c->side2 = -1;
    }
}

/* Pose at time t: returns 1 when the motion is rigid there (R orthonormal),
   filling p and R (ODE layout). */
static int pose_at(const boxtoi_motion *m, double t, dVector3 p, dMatrix3 R)
{
    double M[4][4];
    boxtoi_motion_eval(m, t, M);
    double w = M[3][3];
    if (w == 0 || !isfinite(w))
        return 0;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            R[i * 4 + j] = (dReal)(M[i][j] / w);
        R[i * 4 + 3] = 0;
        p[i] = (dReal)(M[i][3] / w);
    }
    p[3] = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += (double)R[k * 4 + i] * (double)R[k * 4 + j];
            if (fabs(s - (i == j ? 1.0 : 0.0)) > 1e-6)
                return 0;
        }
    return 1;
}

static void side_of(dGeomID g, dVector3 side);

/* Vertex k (bits: x, y, z high) of a box at pose p, R with full sides. */
static void vertex_of(const dReal *p, const dReal *R, const dReal *side, int k,
                      double out[3])
{
    double l[3];
    for (int i = 0; i < 3; i++)
        l[i] = ((k >> i) & 1 ? 0.5 : -0.5) * (double)side[i];
    for (int i = 0; i < 3; i++)
        out[i] = (double)p[i] + (double)R[i * 4] * l[0]
                 + (double)R[i * 4 + 1] * l[1] + (double)R[i * 4 + 2] * l[2];
}

/*
 * Speculative contacts (the stepper's last sub-steps, when its budget is
 * spent): a pair that would meet, or get deeper, within the rest of the step
 * gets contacts at the current poses, all with the normal n of that future
 * contact (ODE's convention: from o2 towards o1) and touch_depth, so that ODE
 * forbids any approach along n at those points during the sub-step.
 *
 * The relative normal velocity of two rigid bodies, measured at a point p,
 * is an affine function of p that does not depend on p's component along n.
 * So when it is non-negative at the corners of a polygon, it is so at every
 * point whose projection along n falls inside.  One point only (the
 * first-contact feature) would let a spinning box pivot about it and pass;
 * the points here are the corners of a rectangle, in the plane normal to n,
 * that contains the projection of the smaller box (whose outline bounds
 * where the two can meet), placed at that box's extreme towards the other
 * geom: then no point of it may approach.  With room for three contacts only
 * a triangle containing that rectangle is used; with less, the box's
 * vertices nearest the other geom.  o2 a plane means o1's box.  The
 * contacts name o1 and o2 (g1, g2).  Returns the number of contacts
 * written (at most maxc and four).
 */
static int spec_points(dGeomID o1, dGeomID o2, const dReal n[3], int maxc,
                       dContactGeom *contact, int skip)
{
    dVector3 side1, side2;
    side_of(o1, side1);
    int second = 0;
    if (dGeomGetClass(o2) != dPlaneClass) {
        side_of(o2, side2);
        double m1 = fmax(fmax(side1[0], side1[1]), side1[2]);
        double m2 = fmax(fmax(side2[0], side2[1]), side2[2]);
        second = m2 < m1;
    }
    /* a static geom needs no lever arms: the points go on the moving box */
    if (!dGeomGetBody(o1) != !dGeomGetBody(o2))
        second = dGeomGetBody(o2) != 0;
    dGeomID g = second ? o2 : o1;
    const dReal *side = second ? side2 : side1;
    const dReal *p = dGeomGetPosition(g), *R = dGeomGetRotation(g);
    double nn[3] = {n[0], n[1], n[2]};
    double sgn = second ? -1 : 1; /* towards the other geom is -sgn n */
    /* in-plane axes: the box axis most normal to n, projected; then n x u */
    int best = 0;
    double bestd = 2;
    for (int i = 0; i < 3; i++) {
        double d = fabs(R[i] * nn[0] + R[4 + i] * nn[1] + R[8 + i] * nn[2]);
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    double u[3] = {R[best], R[4 + best], R[8 + best]};
    double un = u[0] * nn[0] + u[1] * nn[1] + u[2] * nn[2];
    for (int k = 0; k < 3; k++)
        u[k] -= un * nn[k];
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (!(ul > 0))
        return 0;
    for (int k = 0; k < 3; k++)
        u[k] /= ul;
    double w[3] = {nn[1] * u[2] - nn[2] * u[1], nn[2] * u[0] - nn[0] * u[2],
                   nn[0] * u[1] - nn[1] * u[0]};
    double v[8][3], key[8];
    double umin = INFINITY, umax = -INFINITY, wmin = INFINITY, wmax = -INFINITY;
    double hmin = INFINITY;
    int idx[8];
    for (int k = 0; k < 8; k++) {
        vertex_of(p, R, side, k, v[k]);
        double du = v[k][0] * u[0] + v[k][1] * u[1] + v[k][2] * u[2];
        double dw = v[k][0] * w[0] + v[k][1] * w[1] + v[k][2] * w[2];
        double dn = sgn * (v[k][0] * nn[0] + v[k][1] * nn[1] + v[k][2] * nn[2]);
        umin = fmin(umin, du);
        umax = fmax(umax, du);
        wmin = fmin(wmin, dw);
        wmax = fmax(wmax, dw);
        hmin = fmin(hmin, dn);
        key[k] = dn;
        idx[k] = k;
    }
    if (maxc > 4)
        maxc = 4;
    double pts[4][2];
    int m = 0;
    if (maxc >= 4) {
        double c[4][2] = {{umin, wmin}, {umax, wmin}, {umax, wmax}, {umin, wmax}};
        memcpy(pts, c, sizeof c);
        m = 4;
    } else if (maxc == 3) {
        double c[3][2] = {{umin, wmin}, {2 * umax - umin, wmin},
                          {umin, 2 * wmax - wmin}};
        memcpy(pts, c, sizeof c);
        m = 3;
    }
    if (m > 0) {
        for (int i = 0; i < m; i++) {
            dContactGeom *c = CONTACT(contact, i * skip);
            for (int k = 0; k < 3; k++)
                c->pos[k] = (dReal)(pts[i][0] * u[k] + pts[i][1] * w[k]
                                    + sgn * hmin * nn[k]);
        }
    } else {
        for (int i = 1; i < 8; i++)
            for (int j = i; j > 0 && key[idx[j]] < key[idx[j - 1]]; j--) {
                int t = idx[j];
                idx[j] = idx[j - 1];
                idx[j - 1] = t;
            }
        for (m = 0; m < maxc; m++) {
            dContactGeom *c = CONTACT(contact, m * skip);
            for (int k = 0; k < 3; k++)
                c->pos[k] = (dReal)v[idx[m]][k];
        }
    }
    finish_contacts(o1, o2, contact, skip, m, n, 1);
    return m;
}

/*
 * A speculative contact for two moving boxes still apart: x1 and x2 are the
 * points of o1 and o2, at the current poses, that meet first.  The contacts
 * above share one normal and sit at the smaller box; ODE applies each
 * contact's impulse to both bodies at its position, so the other box gets
 * lever arms from where it is not: far from it, an impulse that should
 * stop it spins it instead (two boxes 1.1 m apart, closing at 90 m/s, came
 * out spinning at 130 and 200 rad/s, their velocities nearly unchanged).
 * Along the line through
 * x1 and x2 both lever arms are right, since moving a contact's position
 * along its normal changes no torque.  So the contact lies between them,
 * with normal (x1 - x2) / |x1 - x2| and touch_depth: the two points that would
 * meet may not approach.  Returns 0 when the points are too close for a
 * direction (the contacts above then serve, their lever arms being nearly
 * right), else 1.
 */
#define ROPE_MIN 0.5 /* points apart by more than this times the smaller
                        box's smallest side get a rope contact */
static double min_length(const double side[3]);
static int spec_rope(dGeomID o1, dGeomID o2, const double x1[3],
                     const double x2[3], dContactGeom *c)
{
    if (!dGeomGetBody(o1) || !dGeomGetBody(o2))
        return 0;
    dVector3 s1, s2;
    side_of(o1, s1);
    side_of(o2, s2);
    double side1[3] = {s1[0], s1[1], s1[2]}, side2[3] = {s2[0], s2[1], s2[2]};
    double size = fmin(min_length(side1), min_length(side2));
    double d[3] = {x1[0] - x2[0], x1[1] - x2[1], x1[2] - x2[2]};
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > ROPE_MIN * size))
        return 0;
    for (int k = 0; k < 3; k++) {
        c->pos[k] = (dReal)(0.5 * (x1[k] + x2[k]));
        c->normal[k] = (dReal)(d[k] / len);
    }
    finish_contacts(o1, o2, c, 0, 1, NULL, 1);
    return 1;
}

/* Where the point of a rigidly moving box found at x at time t is at time
   0; 0 when the motion is not rigid there. */
static int point_back(const boxtoi_motion *m, double t, const double x[3],
                      double out[3])
{
    dVector3 p0, pt;
    dMatrix3 R0, Rt;
    if (!pose_at(m, 0, p0, R0) || !pose_at(m, t, pt, Rt))
        return 0;
    double l[3];
    for (int j = 0; j < 3; j++)
        l[j] = (double)Rt[j] * (x[0] - (double)pt[0])
               + (double)Rt[4 + j] * (x[1] - (double)pt[1])
               + (double)Rt[8 + j] * (x[2] - (double)pt[2]);
    for (int i = 0; i < 3; i++)
        out[i] = (double)p0[i] + (double)R0[i * 4] * l[0]
                 + (double)R0[i * 4 + 1] * l[1] + (double)R0[i * 4 + 2] * l[2];
    return 1;
}

static double max_side(const boxtoi_box *b)
{
    double m = 0;
    for (int i = 0; i < 3; i++)
        if (b->hi[i] - b->lo[i] > m)
            m = b->hi[i] - b->lo[i];
    return m;
}

/* Interval shared by two motions: the shorter of the known ones; a moving
   body without a known step gives 0 (only "now" can be answered). */
static double pair_interval(const bt_moving *a, const bt_moving *b)
{
    double h = a->valid < b->valid ? a->valid : b->valid;
    return isfinite(h) ? h : 0;
}

/* Motions of a box-box pair.  o1 is a boxtoi box; o2 a boxtoi box or dBox,
   whose body (if any) is predicted over the boxtoi box's step: the time its
   motion holds, or for a static box the step it was armed with. */
static void pair_motions(dGeomID o1, dGeomID o2, bt_moving *a, bt_moving *b)
{
    bt_moving_boxtoi(o1, a);
    if (bt_get(o2)) {
        bt_moving_boxtoi(o2, b);
    } else {
        double h = isfinite(a->valid) ? a->valid : bt_get(o1)->h;
        bt_moving_dbox(o2, h, b);
    }
}

static void side_of(dGeomID g, dVector3 side)
{
    bt_data *d = bt_get(g);
    if (d) {
        side[0] = d->side[0];
        side[1] = d->side[1];
        side[2] = d->side[2];
    } else {
        dGeomBoxGetLengths(g, side);
    }
}

/* Solve the first contact of a box-box pair over [t0, tmax]. */
static boxtoi_result solve_pair_from(const bt_moving *a, const bt_moving *b,
                                     double t0, double tmax)
{
    boxtoi_query q;
    memset(&q, 0, sizeof q);
    q.flags = BOXTOI_SKIP_EXIT; /* the plugin never needs the exit time */
    q.a = a->box;
    q.b = b->box;
    q.motion_a = a->motion;
    q.motion_b = b->motion;
    q.t0 = t0;
    q.t1 = tmax;
    return boxtoi_solve(&q);
}

/* Solve the first contact of a box-box pair over [0, tmax]. */
static boxtoi_result solve_pair(const bt_moving *a, const bt_moving *b,
                                double tmax)
{
    return solve_pair_from(a, b, 0, tmax);
}

static double effective_window(double interval)
{
    if (window_ >= 0 && window_ < interval)
        return window_;
    return interval;
}

static double min_side(const boxtoi_box *b);

/* The resting margin: max(deep_rel side, deep_abs), and where deep_rel is
   set (the automatic margin) at most cap when that is not 0, so that a box
   smaller than the automatic 2 |g| h^2 (a millimetre box) does not sink
   more than its own size into what it rests on before that counts as an
   impact. */
static double margin_for(double side, double cap, double deep_rel, double deep_abs)
{
    double m = fmax(deep_rel * side, deep_abs);
    return deep_rel > 0 && cap > 0 ? fmin(m, cap) : m;
}

/* The resting margin of a box pair: of the smaller box's smallest side
   (sides of length 0 not counted), at most the smallest side of either. */
static double pair_margin(const bt_moving *a, const bt_moving *b, double deep_rel,
                          double deep_abs)
{
    double sa = min_side(&a->box), sb = min_side(&b->box);
    return margin_for(fmin(sa, sb), sa > 0 && sb > 0 ? fmin(sa, sb) : fmax(sa, sb),
                      deep_rel, deep_abs);
}

/* The resting margin of a box against a plane. */
static double plane_margin(const bt_moving *a, double deep_rel, double deep_abs)
{
    double side = min_side(&a->box);
    return margin_for(side, side, deep_rel, deep_abs);
}

/* The face axis along which a pair meets at a lip (box_lip): local axis k
   of box g (0: a, 1: b), the two boxes' overlap along it, the face of box
   g in it (1: its face towards +k, 0: towards -k), and how much further
   than the margin the pair may sink along it (solve_lip). */
typedef struct lip_axis {
    int g, k, hi;
    double overlap, more;
} lip_axis;
static int box_lip(dGeomID o1, dGeomID o2, const bt_moving *a, const bt_moving *b,
                   const boxtoi_result *r, double margin, double step, double tmax,
                   lip_axis *lip);
static boxtoi_result solve_lip(const bt_moving *a, const bt_moving *b, const lip_axis *lip,
                               double margin, double t0, double tmax);
static int box_closing_fast(const bt_moving *a, const bt_moving *b, const boxtoi_result *r,
                            double margin, double step, double tmax);
static double shrink_for(double depth);
static void shrink(boxtoi_box *b, double delta);
static int spheres_apart(const bt_moving *a, const bt_moving *b, double T);
static int shrunk_apart(const bt_moving *a, const bt_moving *b, double delta,
                        double depth, double T);

/* The first contact over [t0, tmax] of the pair with each box shrunk by delta. */
static boxtoi_result solve_shrunk(const bt_moving *a, const bt_moving *b,
                                  double delta, double t0, double tmax)
{
    bt_moving sa = *a, sb = *b;
    shrink(&sa.box, delta);
    shrink(&sb.box, delta);
    return solve_pair_from(&sa, &sb, t0, tmax);
}

/*
 * Speculative contacts of a touching pair (the stepper's last sub-step,
 * when its budget is spent): where the pair will first be deeper than the
 * margin within the window (a box tumbling into a wall), as contacts with
 * touch_depth, so that ODE stops that approach too.
 */
static int speculative_box_box(dGeomID o1, dGeomID o2, double depth_now,
                               int maxc, dContactGeom *have, int nhave,
                               int skip)
{
    bt_moving a, b;
    pair_motions(o1, o2, &a, &b);
    if (!a.moving && !b.moving)
        return 0;
    double tmax = effective_window(pair_interval(&a, &b));
    if (!(tmax > 0))
        return 0;
    double delta = shrink_for(depth_now + pair_margin(&a, &b, spec_rel_, spec_abs_));
    if (shrunk_apart(&a, &b, delta, depth_now, tmax))
        return 0;
    boxtoi_result r = solve_shrunk(&a, &b, delta, 0, tmax);
    if (r.state != BOXTOI_HIT)
        return 0;
    dReal nn[3] = {(dReal)-r.normal[0], (dReal)-r.normal[1], (dReal)-r.normal[2]};
    return spec_points(o1, o2, nn, maxc, CONTACT(have, nhave * skip), skip);
}

static double motion_reach(const bt_moving *a, const bt_moving *b, double T);

/*
 * Margin by which the contacts of two geoms touching now are gathered
 * (motions a and b; b NULL and side2 NULL for a plane): MANIFOLD_MARGIN of
 * the longest side, or for the pair whose impact ended the stepper's last
 * sub-step, as far as their points can close over the rest of the step
 * (motion_reach), but at most IMPACT_MARGIN_MAX of the smallest side.  A
 * face that comes down on a face with a small tilt then stops as a whole,
 * as in a simultaneous impact, instead of on the corner that met first:
 * that corner's impulse would spin the box and the next corners' impacts
 * launch it.
 */
static double touch_margin(dGeomID o1, dGeomID o2, const dReal *side1,
                           const dReal *side2, const bt_moving *a,
                           const bt_moving *b)
{
    double size = 0, least = min_length(side1);
    for (int i = 0; i < 3; i++)
        size = fmax(size, fmax(side1[i], side2 ? side2[i] : 0));
    double e = MANIFOLD_MARGIN * size;
    if (!bt_step_ended(o1, o2))
        return e;
    if (side2 && min_length(side2) > 0 && min_length(side2) < least)
        least = min_length(side2);
    double cap = IMPACT_MARGIN_MAX * least;
    double T = b ? pair_interval(a, b) : (isfinite(a->valid) ? a->valid : 0);
    double m = a->bounded && (!b || b->bounded) && T > 0 ? fmin(motion_reach(a, b, T), cap)
                                                         : cap;
    return m > e ? m : e;
}

/*
 * The full contact manifold of two boxes that touch (to rounding) at the
 * poses given: dBoxBox keeps only the points at depth >= 0, so a face that
 * meets a face with a tilt of rounding size would give the points of one
 * edge, about which the box would then pivot.  Both boxes are inflated by
 * e (touch_margin); the contacts (touch_depth) are kept when their normal
 * agrees with ref (dBoxBox's sense, from o1 to o2), or, with either set,
 * lies along it, then taking ref's sense.  Returns their count, or 0.
 */
static int touching_manifold(dGeomID o1, dGeomID o2, const dReal *p1,
                             const dReal *R1, const dReal *side1,
                             const dReal *p2, const dReal *R2,
                             const dReal *side2, double e,
                             const double ref[3], int either, int flags,
                             dContactGeom *contact, int skip)
{
    dVector3 s1, s2, normal;
    dReal depth;
    int code;
    for (int i = 0; i < 3; i++) {
        s1[i] = side1[i] + (dReal)e;
        s2[i] = side2[i] + (dReal)e;
    }
    int m = dBoxBox(p1, R1, s1, p2, R2, s2, normal, &depth, &code, flags,
                    contact, skip);
    double dot = normal[0] * ref[0] + normal[1] * ref[1] + normal[2] * ref[2];
    /* either: dBoxBox's sense is a guess there (flat_sense); ref's holds */
    if (either && dot < -0.99) {
        dot = -dot;
        for (int i = 0; i < 3; i++)
            normal[i] = -normal[i];
    }
    if (m <= 0 || !(dot > 0.99))
        return 0;
    dReal nn[3] = {-normal[0], -normal[1], -normal[2]};
    finish_contacts(o1, o2, contact, skip, m, nn, 1);
    return m;
}

static int point_velocity(const bt_moving *m, const double x[3], double t, double tmax,
                          double v[3]);

/*
 * Two boxes of no thickness along dBoxBox's normal (o1 to o2), in one plane
 * (plates meeting flat): their centres lie in that plane, so the normal's
 * sense is a guess, and ODE pushing them apart along the wrong one sends
 * one through the other.  The impact's sense is the one they approach
 * along: the normal is turned to it, from the two motions' velocities at
 * the contact point x.  Returns 1 for such boxes (the sense then decided
 * here), else 0, the normal as it was.
 */
static int flat_sense(dGeomID o1, dGeomID o2, const dReal *side1, const dReal *side2,
                      const bt_moving *a, const bt_moving *b, const dReal *x,
                      dReal *normal)
{
    const dReal *R[2] = {dGeomGetRotation(o1), dGeomGetRotation(o2)};
    const dReal *side[2] = {side1, side2};
    double size = 0;
    for (int k = 0; k < 3; k++)
        size = fmax(size, fmax(side1[k], side2[k]));
    double n[3] = {normal[0], normal[1], normal[2]};
    for (int g = 0; g < 2; g++) {
        /* the whole thickness along the normal */
        double full[3] = {side[g][0], side[g][1], side[g][2]};
        if (!(half_extent(R[g], full, n) <= 1e-12 * size))
            return 0;
    }
    const dReal *p1 = dGeomGetPosition(o1), *p2 = dGeomGetPosition(o2);
    double off = 0;
    for (int i = 0; i < 3; i++)
        off += (p2[i] - p1[i]) * normal[i];
    if (!(fabs(off) <= 1e-12 * size))
        return 0;
    double T = pair_interval(a, b), xp[3] = {x[0], x[1], x[2]}, v1[3], v2[3];
    if (!(T > 0) || !point_velocity(a, xp, 0, T, v1) || !point_velocity(b, xp, 0, T, v2))
        return 1;
    double closing = 0;
    for (int i = 0; i < 3; i++)
        closing += (v2[i] - v1[i]) * normal[i];
    if (closing > 0)
        for (int i = 0; i < 3; i++)
            normal[i] = -normal[i];
    return 1;
}

/* box-box: o1 boxtoi, o2 boxtoi or dBox */
static int box_box(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact,
                   int skip)
{
    dVector3 side1, side2, normal;
    dReal depth;
    int code;
    /* a sub-step being redone: speculative contacts for this pair */
    dReal forced[3];
    double fx[2][3], ftoi;
    int force = bt_step_forced(o1, o2, forced, fx[0], fx[1], &ftoi);
    /* pairs the stepper found apart are not touching now either */
    if (!force && bt_step_apart(o1, o2))
        return 0;
    side_of(o1, side1);
    side_of(o2, side2);
    int n = dBoxBox(dGeomGetPosition(o1), dGeomGetRotation(o1), side1,
                    dGeomGetPosition(o2), dGeomGetRotation(o2), side2,
                    normal, &depth, &code, flags, contact, skip);
    if (n > 0 && !force && bt_step_ended(o1, o2)) {
        /* the impact that ended the sub-step before: the boxes touch to
           rounding, and a face on a face needs all of its points */
        bt_moving a, b;
        pair_motions(o1, o2, &a, &b);
        int either = flat_sense(o1, o2, side1, side2, &a, &b, contact->pos, normal);
        double ref[3] = {normal[0], normal[1], normal[2]};
        double e = touch_margin(o1, o2, side1, side2, &a, &b);
        int m = touching_manifold(o1, o2, dGeomGetPosition(o1), dGeomGetRotation(o1),
                                  side1, dGeomGetPosition(o2), dGeomGetRotation(o2),
                                  side2, e, ref, either, flags, contact, skip);
        if (m > 0)
            n = m;
    }
    if (n > 0) {
        dReal nn[3] = {-normal[0], -normal[1], -normal[2]};
        finish_contacts(o1, o2, contact, skip, n, nn, 0);
        note_toi(o1, o2, 0);
        int maxc = flags & NUMC_MASK;
        if (force) {
            /* the contacts of now, and the forced ones when there is room
               for three or four more */
            int keep = maxc - n >= 3 ? n : 0;
            return keep + spec_points(o1, o2, forced, maxc - keep,
                                      CONTACT(contact, keep * skip), skip);
        }
        if (spec_rel_ >= 0 && maxc >= 3) {
            /* speculative contacts need room for three or four; the
               contacts of now give way when there is less */
            int keep = maxc - n >= 3 ? n : 0;
            int m = speculative_box_box(o1, o2, depth > 0 ? depth : 0,
                                        maxc - keep, contact, keep, skip);
            if (m > 0)
                n = keep + m;
        }
        return n;
    }
    if (force) {
        /* apart now: the contacts stand for the meeting of the try undone */
        int m;
        if (force == 2 && (flags & NUMC_MASK) >= 1 && spec_rope(o1, o2, fx[0], fx[1], contact))
            m = 1;
        else
            m = spec_points(o1, o2, forced, flags & NUMC_MASK, contact, skip);
        if (m > 0)
            note_toi(o1, o2, ftoi);
        return m;
    }

    bt_moving a, b;
    pair_motions(o1, o2, &a, &b);
    if (!a.moving && !b.moving)
        return 0;
    double tmax = effective_window(pair_interval(&a, &b));
    if (!(tmax > 0) || spheres_apart(&a, &b, tmax))
        return 0;
    boxtoi_result r = solve_pair(&a, &b, tmax);
    if (r.state != BOXTOI_HIT && r.state != BOXTOI_OVERLAP)
        return 0;
    /* a first contact at a lip is not an impact for the stepper
       (bt_pair_toi): ODE's contacts find the pair once it touches; nor
       is a lip touching now within the solver's tolerance only, which
       dBoxBox finds apart, where it closes faster than the margin per
       step (a box whose front came to rest on a seam to rounding; not a
       box resting on tiles, over the edge of some of them) */
    if (rest_rel_ >= 0) {
        double margin = pair_margin(&a, &b, rest_rel_, rest_abs_);
        lip_axis lip;
        if (box_lip(o1, o2, &a, &b, &r, margin, rest_step_, tmax, &lip)
            && (r.state == BOXTOI_HIT
                || box_closing_fast(&a, &b, &r, margin, rest_step_, tmax))) {
            if (spec_rel_ < 0)
                return 0;
            /* speculative contacts: where the pair gets deeper than the
               margin beyond the lip, its impact for the stepper (a fast box
               falling onto a plate just past its rim) */
            boxtoi_result rs = solve_lip(&a, &b, &lip, margin, r.toi, tmax);
            if (rs.state != BOXTOI_HIT)
                return 0;
            r = rs;
        }
    }
    double toi = r.state == BOXTOI_HIT ? r.toi : 0;
    if (toi <= TOI_ZERO * tmax)
        toi = 0;
    if (toi == 0) {
        /* plates in one plane now (one stepped onto the other to
           rounding, which dBoxBox finds apart): the solver's sense comes
           from their centres' offset, rounding too; they approach along
           the impact's sense (flat_sense) */
        dReal n3[3] = {(dReal)r.normal[0], (dReal)r.normal[1], (dReal)r.normal[2]};
        dReal x3[3] = {(dReal)r.point[0], (dReal)r.point[1], (dReal)r.point[2]};
        if (flat_sense(o1, o2, side1, side2, &a, &b, x3, n3))
            for (int i = 0; i < 3; i++)
                r.normal[i] = n3[i];
    }
    if (spec_rel_ >= 0) {
        dReal nn[3] = {(dReal)-r.normal[0], (dReal)-r.normal[1],
                       (dReal)-r.normal[2]};
        double x1[3], x2[3];
        int m = 0;
        if (r.state == BOXTOI_HIT && (flags & NUMC_MASK) >= 1
            && point_back(&a.motion, r.toi, r.point, x1)
            && point_back(&b.motion, r.toi, r.point, x2))
            m = spec_rope(o1, o2, x1, x2, contact);
        if (m == 0)
            m = spec_points(o1, o2, nn, flags & NUMC_MASK, contact, skip);
        if (m > 0)
            note_toi(o1, o2, toi);
        return m;
    }

    /* Try the full manifold at the time of impact; keep it when it agrees
       with the solver. */
    dVector3 p1, p2;
    dMatrix3 R1, R2;
    if (pose_at(&a.motion, r.toi, p1, R1) && pose_at(&b.motion, r.toi, p2, R2)) {
        int m = touching_manifold(o1, o2, p1, R1, side1, p2, R2, side2,
                                  touch_margin(o1, o2, side1, side2, &a, &b), r.normal,
                                  0, flags, contact, skip);
        if (m > 0) {
            note_toi(o1, o2, toi);
            return m;
        }
    }
    dContactGeom *c = contact;
    for (int i = 0; i < 3; i++) {
        c->pos[i] = (dReal)r.point[i];
        c->normal[i] = (dReal)-r.normal[i];
    }
    finish_contacts(o1, o2, contact, skip, 1, NULL, 1);
    note_toi(o1, o2, toi);
    return 1;
}

static int collide_box_box(dGeomID o1, dGeomID o2, int flags,
                           dContactGeom *contact, int skip)
{
    if (probe_) {
        probe_first_ = o1;
        return 0;
    }
    if (!bt_self_reversed() || !bt_get(o2)) {
        int n = box_box(o1, o2, flags, contact, skip);
        bt_step_note(o1, o2, n);
        return n;
    }
    /* ODE swapped the caller's order and will flip the contacts back:
       compute them in the caller's order, then pre-flip. */
    int n = box_box(o2, o1, flags, contact, skip);
    for (int i = 0; i < n; i++) {
        dContactGeom *c = CONTACT(contact, i * skip);
        for (int k = 0; k < 3; k++)
            c->normal[k] = -c->normal[k];
        c->g1 = o1;
        c->g2 = o2;
    }
    bt_step_note(o1, o2, n);
    return n;
}

/* ---- ODE's own colliders on a stand-in ---------------------------------- */

/*
 * ODE's collider for a dBox of o1's lengths at pose (p, R), moved by shift
 * (NULL: not moved), against o2: o1's own stand-in dBox (bt_data.proxy)
 * takes that pose and o1's data and category and collide bits, and the
 * contacts name o1, at their positions less the shift.  Using ODE's own
 * code, rather than the same rule written here, gives ODE's contacts to the
 * last bit on every platform: compiled
 * elsewhere, with other options (multiply-adds fused on arm64, the x87
 * unit on i386), the same arithmetic rounds differently.
 */
static int proxy_collide(dGeomID o1, const dReal *p, const dReal *R,
                         const dReal *shift, dGeomID o2, int flags,
                         dContactGeom *contact, int skip)
{
    bt_data *d = bt_get(o1);
    if (!d)
        return 0;
    if (!d->proxy && !(d->proxy = dCreateBox(0, d->side[0], d->side[1], d->side[2])))
        return 0;
    dGeomID proxy = d->proxy;
    dGeomBoxSetLengths(proxy, d->side[0], d->side[1], d->side[2]);
    if (shift)
        dGeomSetPosition(proxy, p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]);
    else
        dGeomSetPosition(proxy, p[0], p[1], p[2]);
    dGeomSetRotation(proxy, R);
    /* what callbacks given the other geom read of it (a trimesh's
       per-triangle callback filtering by the geom's data, say): o1's */
    dGeomSetData(proxy, dGeomGetData(o1));
    dGeomSetCategoryBits(proxy, dGeomGetCategoryBits(o1));
    dGeomSetCollideBits(proxy, dGeomGetCollideBits(o1));
    dReal aabb[6];
    dGeomGetAABB(proxy, aabb); /* some colliders read the bounds */
    int n = dCollide(proxy, o2, flags, contact, skip);
    for (int i = 0; i < n; i++) {
        dContactGeom *c = CONTACT(contact, i * skip);
        if (c->g1 == proxy)
            c->g1 = o1;
        if (c->g2 == proxy)
            c->g2 = o1;
        if (shift)
            for (int k = 0; k < 3; k++)
                c->pos[k] -= shift[k];
    }
    return n;
}

/* ---- box - plane ------------------------------------------------------ */

/*
 * Contacts of the boxtoi box o1 at pose (p, R) with the half-space of the
 * plane o2 raised by lift (n.x <= d + lift): ODE's box-plane collider on a
 * stand-in moved by -lift n, so the depths are below the raised plane and
 * the positions those of o1's vertices.  Boxes whose deepest vertex is
 * above the raised plane by far more than the rounding of that distance
 * are apart without a stand-in (ODE's collider finds them apart too).
 */
static int box_plane_now(dGeomID o1, const dReal *p, const dReal *R,
                         dGeomID o2, dReal lift, int flags,
                         dContactGeom *contact, int skip)
{
    const dReal *side = bt_get(o1)->side;
    dVector4 plane;
    dGeomPlaneGetParams(o2, plane);
    double n[3] = {plane[0], plane[1], plane[2]};
    double half[3] = {0.5 * side[0], 0.5 * side[1], 0.5 * side[2]};
    double reach = half_extent(R, half, n), size = fabs(plane[3]) + fabs(lift);
    for (int i = 0; i < 3; i++)
        size += fabs(p[i]) + side[i];
    double depth = plane[3] + lift + reach
                   - (plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2]);
    if (depth < -1e-12 * size)
        return 0;
    if (lift == 0)
        return proxy_collide(o1, p, R, NULL, o2, flags, contact, skip);
    dReal shift[3] = {-lift * plane[0], -lift * plane[1], -lift * plane[2]};
    return proxy_collide(o1, p, R, shift, o2, flags, contact, skip);
}

/*
 * Bernstein coefficients on [0, T] of sum_k c[k] t^k (degree n):
 * b[i] = sum_{k <= i} C(i, k) / C(n, k) c[k] T^k.  The ratios are
 * constants, each the double nearest the quotient (factorials are exact in
 * doubles up to 8!).
 */
_Static_assert(BOXTOI_MAX_DEGREE == 8, "bern_ratio: degrees 0 to BOXTOI_MAX_DEGREE");
#define FACT(n) ((n) <= 1 ? 1.0 : (n) == 2 ? 2.0 : (n) == 3 ? 6.0 : (n) == 4 ? 24.0 \
                 : (n) == 5 ? 120.0 : (n) == 6 ? 720.0 : (n) == 7 ? 5040.0 : 40320.0)
#define BINOM(n, k) (FACT(n) / (FACT(k) * FACT((n) - (k))))
#define RATIO(n, i, k) ((k) <= (i) && (i) <= (n) ? BINOM(i, k) / BINOM(n, k) : 0.0)
#define RATIO_ROW(n, i) {RATIO(n, i, 0), RATIO(n, i, 1), RATIO(n, i, 2), RATIO(n, i, 3), \
                         RATIO(n, i, 4), RATIO(n, i, 5), RATIO(n, i, 6), RATIO(n, i, 7), \
                         RATIO(n, i, 8)}
#define RATIO_DEG(n) {RATIO_ROW(n, 0), RATIO_ROW(n, 1), RATIO_ROW(n, 2), RATIO_ROW(n, 3), \
                      RATIO_ROW(n, 4), RATIO_ROW(n, 5), RATIO_ROW(n, 6), RATIO_ROW(n, 7), \
                      RATIO_ROW(n, 8)}
static const double bern_ratio[BOXTOI_MAX_DEGREE + 1][BOXTOI_MAX_DEGREE + 1]
                              [BOXTOI_MAX_DEGREE + 1] = {
    RATIO_DEG(0), RATIO_DEG(1), RATIO_DEG(2), RATIO_DEG(3), RATIO_DEG(4),
    RATIO_DEG(5), RATIO_DEG(6), RATIO_DEG(7), RATIO_DEG(8)};
#undef RATIO_DEG
#undef RATIO_ROW
#undef RATIO
#undef BINOM
#undef FACT

static inline __attribute__((always_inline)) void
to_bernstein(const double *c, int n, double T, double *b)
{
    double a[BOXTOI_MAX_DEGREE + 1];
    double tk = 1;
#pragma GCC unroll 9
    for (int k = 0; k <= n; k++) {
        a[k] = c[k] * tk;
        tk *= T;
    }
    const double(*ratio)[BOXTOI_MAX_DEGREE + 1] = bern_ratio[n];
#pragma GCC unroll 9
    for (int i = 0; i <= n; i++) {
        double s = 0;
#pragma GCC unroll 9
        for (int k = 0; k <= i; k++)
            s += ratio[i][k] * a[k];
        b[i] = s;
    }
}

/* The five polynomials of plane_first_contact, each converted as above;
   inlined with the degree constant for every degree, so that the small
   loops unroll (the same operations in the same order). */
static void to_bernstein5(const double P[5][BOXTOI_MAX_DEGREE + 1], int n, double T,
                          double B[5][BOXTOI_MAX_DEGREE + 1])
{
    switch (n) {
#define DEGREE_CASE(N) \
    case N: \
        for (int j = 0; j < 5; j++) \
            to_bernstein(P[j], N, T, B[j]); \
        break
    DEGREE_CASE(0); DEGREE_CASE(1); DEGREE_CASE(2); DEGREE_CASE(3); DEGREE_CASE(4);
    DEGREE_CASE(5); DEGREE_CASE(6); DEGREE_CASE(7); DEGREE_CASE(8);
#undef DEGREE_CASE
    }
}

/*
 * First t in [lo, hi] (of the whole [0, T]) where the polynomial with
 * Bernstein coefficients b on [lo, hi] is <= 0, or -1.  Leftmost-first
 * subdivision; an interval is dropped when all its coefficients are
 * positive; stops at width `tol` and answers the interval's left end
 * (never later than the root).
 */
static double first_root_bern(const double *b, int n, double lo, double hi,
                              double tol, int depth)
{
    double mn = b[0];
    for (int i = 1; i <= n; i++)
        if (b[i] < mn)
            mn = b[i];
    if (mn > 0)
        return -1;
    if (b[0] <= 0)
        return lo;
    if (hi - lo <= tol || depth >= 64)
        return b[n] <= 0 ? lo : -1;
    double left[BOXTOI_MAX_DEGREE + 1], right[BOXTOI_MAX_DEGREE + 1];
    double w[BOXTOI_MAX_DEGREE + 1];
    memcpy(w, b, sizeof(double) * (size_t)(n + 1));
    for (int r = 0; r <= n; r++) {
        left[r] = w[0];
        right[n - r] = w[n - r];
        for (int i = 0; i < n - r; i++)
            w[i] = 0.5 * (w[i] + w[i + 1]);
    }
    double mid = 0.5 * (lo + hi);
    double t = first_root_bern(left, n, lo, mid, tol, depth + 1);
    if (t >= 0)
        return t;
    return first_root_bern(right, n, mid, hi, tol, depth + 1);
}

/* Local corner k (bits: x, y, z high) of a box. */
static void corner_of(const boxtoi_box *box, int k, double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = (k >> i) & 1 ? box->hi[i] : box->lo[i];
}

/*
 * First time in (0, tmax] at which a vertex of the moving box reaches the
 * plane, or -1.  A local point x's signed distance to the plane times w is
 * P0(t) x0 + P1(t) x1 + P2(t) x2 + P3(t) - d w(t), P_j the plane's normal
 * times column j of the motion (w's sign taken out): those five
 * polynomials are converted to Bernstein form once, and each vertex's
 * coefficients are their combination.
 */
static double plane_first_contact(const bt_moving *a, const dReal plane[4],
                                  double tmax)
{
    const boxtoi_motion *m = &a->motion;
    int n = m->degree;
    double sign = m->c[0][3][3] < 0 ? -1 : 1;
    double P[5][BOXTOI_MAX_DEGREE + 1], B[5][BOXTOI_MAX_DEGREE + 1];
    for (int k = 0; k <= n; k++) {
        for (int j = 0; j < 4; j++)
            P[j][k] = sign * ((double)plane[0] * m->c[k][0][j] + (double)plane[1] * m->c[k][1][j]
                              + (double)plane[2] * m->c[k][2][j]);
        P[4][k] = -sign * (double)plane[3] * m->c[k][3][3];
    }
    to_bernstein5((const double(*)[BOXTOI_MAX_DEGREE + 1])P, n, tmax, B);
    /* No vertex gets there when, for every k, the least over the corners
       of each term of the sum below, summed in the same order, is
       positive: rounded sums grow with their terms, so that bounds every
       corner's own coefficient from below. */
    int apart = 1;
    for (int k = 0; k <= n && apart; k++) {
        double s = fmin(B[0][k] * a->box.lo[0], B[0][k] * a->box.hi[0])
                   + fmin(B[1][k] * a->box.lo[1], B[1][k] * a->box.hi[1])
                   + fmin(B[2][k] * a->box.lo[2], B[2][k] * a->box.hi[2]) + B[3][k]
                   + B[4][k];
        apart = s > 0;
    }
    if (apart)
        return -1;
    double best = -1;
    double tol = tmax * 1e-12;
    for (int v = 0; v < 8; v++) {
        double x[3], bern[BOXTOI_MAX_DEGREE + 1];
        corner_of(&a->box, v, x);
        for (int k = 0; k <= n; k++)
            bern[k] = B[0][k] * x[0] + B[1][k] * x[1] + B[2][k] * x[2] + B[3][k] + B[4][k];
        double t = first_root_bern(bern, n, 0, tmax, tol, 0);
        if (t >= 0 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

/* Velocity at time t of the local point l under motion m: a central
   difference over 1e-6 of tmax (one-sided at 0). */
static void local_point_velocity(const bt_moving *m, const double l[3], double t,
                                 double tmax, double v[3])
{
    double dt = 1e-6 * tmax, lo = t - dt > 0 ? t - dt : t, hi = t + dt;
    double xa[3], xb[3];
    boxtoi_motion_apply(&m->motion, lo, l, xa);
    boxtoi_motion_apply(&m->motion, hi, l, xb);
    for (int k = 0; k < 3; k++)
        v[k] = (xb[k] - xa[k]) / (hi - lo);
}

/* Velocity at time t of the material point of m at world position x; 0 for
   a constant motion.  Returns 0 when the motion is not rigid there. */
static int point_velocity(const bt_moving *m, const double x[3], double t, double tmax,
                          double v[3])
{
    v[0] = v[1] = v[2] = 0;
    if (!m->moving)
        return 1;
    dVector3 p;
    dMatrix3 R;
    if (!pose_at(&m->motion, t, p, R))
        return 0;
    double l[3];
    for (int j = 0; j < 3; j++)
        l[j] = (double)R[j] * (x[0] - (double)p[0]) + (double)R[4 + j] * (x[1] - (double)p[1])
               + (double)R[8 + j] * (x[2] - (double)p[2]);
    local_point_velocity(m, l, t, tmax, v);
    return 1;
}

/* A pair first touching at r.toi (apart now) closes there faster than the
   margin per step: its depth would pass the margin within one step. */
static int box_closing_fast(const bt_moving *a, const bt_moving *b, const boxtoi_result *r,
                            double margin, double step, double tmax)
{
    double va[3], vb[3];
    if (!(step > 0) || !point_velocity(a, r->point, r->toi, tmax, va)
        || !point_velocity(b, r->point, r->toi, tmax, vb))
        return 0;
    double closing = (va[0] - vb[0]) * r->normal[0] + (va[1] - vb[1]) * r->normal[1]
                     + (va[2] - vb[2]) * r->normal[2];
    return closing * step > margin;
}

#define LIP_GROWTH 0.25
#define LIP_DEPTH 2.0
#define LIP_AHEAD 0.25
#define SUPPORT_SLACK 0.1

/*
 * A box's supports, for box_lip: a box sliding over tiles sinks into the
 * one it rests on and rocks on it, so the next tile's side meets it further
 * below its top than the step between the two (7 mm for a step of 0.2 mm,
 * against a margin of 5.4 mm).  What tells that seam from a real edge (a
 * curb, a plate's rim, a door's lower edge) is not in the pair: it is the
 * height of the edge over the face the box rests on.  lip_support holds
 * one question: the pair meets at point at time toi, box x is the one that
 * may rest on something, y the one it meets, up points from y's side of x
 * to x along the lip's axis, and lambda_y is how far along up from point
 * y's face towards up lies (its top, for a tile).  rise gets the greatest
 * step from a support's face up to y's: the step from the lowest of the
 * faces the box rests on (a box across two plates, its lowest point on the
 * lower one, steps up from that).
 */
typedef struct lip_support {
    dGeomID x, y;
    const double *half;       /* x's half sides */
    dVector3 px0, pxt;        /* x's pose at the sub-step's start and at toi */
    dMatrix3 Rx0, Rxt;
    double up[3], point[3];
    double toi, tmax, margin, lambda_y;
    double rise; /* the greatest step up from a support found, else -INFINITY */
} lip_support;

/* The distance along up from x0 to the plane f . p = d in *lambda (f a
   unit normal with f . up >= cos 45 degrees): 1, or 0 when they are
   further from parallel. */
static int plane_along(const double f[3], double d, const double up[3], const double x0[3],
                       double *lambda)
{
    double fu = f[0] * up[0] + f[1] * up[1] + f[2] * up[2];
    if (!(fu >= M_SQRT1_2))
        return 0;
    *lambda = (d - (f[0] * x0[0] + f[1] * x0[1] + f[2] * x0[2])) / fu;
    return 1;
}

/* The face of a box at pose (p, R) with half sides half whose outward
   normal is nearest up: its normal f and plane offset d (f . x = d). */
static void face_towards(const dReal *p, const dReal *R, const double half[3],
                         const double up[3], double f[3], double *d)
{
    int best = 0;
    double bc = 0;
    for (int j = 0; j < 3; j++) {
        double c = R[j] * up[0] + R[4 + j] * up[1] + R[8 + j] * up[2];
        if (fabs(c) > fabs(bc)) {
            bc = c;
            best = j;
        }
    }
    double s = bc < 0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; i++)
        f[i] = s * R[4 * i + best];
    *d = f[0] * p[0] + f[1] * p[1] + f[2] * p[2] + half[best];
}

/* Lowest point along f of a box at pose (p, R) with half sides half: min
   over its corners of f . corner; its centre's f . c in *centre. */
static void box_low(const dReal *p, const dReal *R, const double half[3], const double f[3],
                    double *low, double *centre)
{
    double c = f[0] * p[0] + f[1] * p[1] + f[2] * p[2];
    *low = c - half_extent(R, half, f);
    *centre = c;
}

/* Is s a support of q->x for the lip: touching x now (a box: along up,
   within 45 degrees, and x's lowest point then no deeper below its face
   than the deepest contact, with SUPPORT_SLACK margins to spare), its face
   towards up within 45 degrees of it, x's centre above that face at toi
   and x no deeper below it than LIP_DEPTH margins?  Then the step from
   that face up to y's at the point raises q->rise to it. */
static void try_support(lip_support *q, dGeomID s)
{
    if (s == q->x || s == q->y)
        return;
    int cls = dGeomGetClass(s);
    if (cls != dBoxClass && cls != bt_class() && cls != dPlaneClass)
        return;
    double f[3], d, low, centre, lambda;
    if (cls == dPlaneClass) {
        dVector4 pl;
        dGeomPlaneGetParams(s, pl);
        f[0] = pl[0];
        f[1] = pl[1];
        f[2] = pl[2];
        d = pl[3];
        /* touching now (to a rounding's width) */
        box_low(q->px0, q->Rx0, q->half, f, &low, &centre);
        if (!(low <= d + 1e-9 * q->margin))
            return;
    } else {
        dVector3 side1, side2, normal;
        dReal depth;
        int code;
        dContactGeom c[8];
        side_of(q->x, side1);
        side_of(s, side2);
        /* touching now, and under x: touched along the lip's axis (within
           45 degrees), not on a side, as a rail or plate beside it is */
        int nc = dBoxBox(q->px0, q->Rx0, side1, dGeomGetPosition(s), dGeomGetRotation(s),
                         side2, normal, &depth, &code, 8, c, (int)sizeof c[0]);
        if (nc <= 0
            || !(fabs(normal[0] * q->up[0] + normal[1] * q->up[1] + normal[2] * q->up[2])
                 >= M_SQRT1_2))
            return;
        /* and x's lowest point then over it: no deeper below its face than
           the deepest of those contacts (a box resting tilted, one edge on
           a low rail and the other on the floor, rests on the floor) */
        double deepest = 0;
        for (int i = 0; i < nc; i++)
            deepest = fmax(deepest, (double)c[i].depth);
        double f0[3], d0, half2[3] = {0.5 * side2[0], 0.5 * side2[1], 0.5 * side2[2]};
        face_towards(dGeomGetPosition(s), dGeomGetRotation(s), half2, q->up, f0, &d0);
        box_low(q->px0, q->Rx0, q->half, f0, &low, &centre);
        if (!(d0 - low <= deepest + SUPPORT_SLACK * q->margin))
            return;
        bt_moving ms;
        if (bt_get(s))
            bt_moving_boxtoi(s, &ms);
        else
            bt_moving_dbox(s, q->tmax, &ms);
        dVector3 ps;
        dMatrix3 Rs;
        double t = q->toi <= ms.valid ? q->toi : 0;
        if (!pose_at(&ms.motion, t, ps, Rs))
            return;
        face_towards(ps, Rs, ms.box.hi, q->up, f, &d);
    }
    if (!plane_along(f, d, q->up, q->point, &lambda))
        return;
    box_low(q->pxt, q->Rxt, q->half, f, &low, &centre);
    double rise = q->lambda_y - lambda;
    if (centre > d && d - low <= LIP_DEPTH * q->margin && rise > q->rise)
        q->rise = rise;
}

static void support_found(void *data, dGeomID o1, dGeomID o2)
{
    lip_support *q = data;
    dGeomID s = o1 == q->x ? o2 : o1;
    if (dGeomIsSpace(s))
        dSpaceCollide2(q->x, s, data, support_found);
    else
        try_support(q, s);
}

/* Does box x rest on supports whose faces towards q->up are all at most the
   margin below y's (box_lip)?  The geoms touching x are found in the
   outermost space holding it; q->rise gets the greatest such step. */
static int lip_supported(lip_support *q)
{
    dSpaceID top = dGeomGetSpace(q->x);
    q->rise = -INFINITY;
    if (!top)
        return 0;
    while (dGeomGetSpace((dGeomID)top))
        top = dGeomGetSpace((dGeomID)top);
    dSpaceCollide2(q->x, (dGeomID)top, q, support_found);
    return q->rise > -INFINITY && q->rise <= q->margin;
}

/* box_lip's test of a lip: one of the pair, moving, rests on supports
   (lip_supported) whose faces are at most the margin below the other's
   face at the contact point; *rise gets the greatest of those steps. */
static int lip_rests(dGeomID o1, dGeomID o2, const bt_moving *const m[2], dVector3 p[2],
                     dMatrix3 R[2], const double n[3], const double hi[2],
                     const boxtoi_result *r, double margin, double tmax, double *rise)
{
    dGeomID geom[2] = {o1, o2};
    for (int x = 0; x < 2; x++) {
        int y = !x;
        if (!m[x]->moving)
            continue;
        lip_support q;
        double s = hi[y] < hi[x] ? 1.0 : -1.0, f[3], d;
        if (!pose_at(&m[x]->motion, 0, q.px0, q.Rx0))
            continue;
        memcpy(q.pxt, p[x], sizeof q.pxt);
        memcpy(q.Rxt, R[x], sizeof q.Rxt);
        q.x = geom[x];
        q.y = geom[y];
        q.half = m[x]->box.hi;
        for (int i = 0; i < 3; i++) {
            q.up[i] = s * n[i];
            q.point[i] = r->point[i];
        }
        q.toi = r->toi;
        q.tmax = tmax;
        q.margin = margin;
        face_towards(p[y], R[y], m[y]->box.hi, q.up, f, &d);
        if (plane_along(f, d, q.up, q.point, &q.lambda_y) && lip_supported(&q)) {
            *rise = q.rise;
            return 1;
        }
    }
    return 0;
}

/*
 * Does the pair first touching at r->toi meet at a lip?  Along a face axis
 * of either box, at more than 45 degrees from the contact's normal, the two
 * boxes then overlap by at most half of either box's extent there, and by
 * at most the margin, or at most LIP_DEPTH margins where one of them rests
 * on a support whose face is at most the margin below the other's there
 * (lip_rests): a box sliding on a tile meets the next tile, flush with the
 * first or a step of less than the margin up, at the seam, its bottom as
 * deep in the next tile's top as it sank into the first (and as far again
 * where it rocks, its front pitched down by a degree or two), and its front
 * face on the next tile's side.  That contact's normal is the side's (the
 * first contact is exact), and stopping there trips the box; plain ODE
 * lets it slide over, pushing it up by the small depth.  Nor must that
 * overlap grow there (the boxes' relative speed at the contact point along
 * the axis) both faster than the margin per step and faster than
 * LIP_GROWTH times their closing speed along the normal: a box falling
 * fast onto a plate just past its rim, moving over it, meets it there too,
 * and that is an impact (stopped at the rim's side, it would fall
 * through).  *lip gets the axis, the overlap and how much more the pair
 * may sink along the axis (solve_lip).  Rigid motions only (0 otherwise).
 */
static int box_lip(dGeomID o1, dGeomID o2, const bt_moving *a, const bt_moving *b,
                   const boxtoi_result *r, double margin, double step, double tmax,
                   lip_axis *lip)
{
    dVector3 p[2];
    dMatrix3 R[2];
    const bt_moving *m[2] = {a, b};
    for (int g = 0; g < 2; g++)
        if (!pose_at(&m[g]->motion, r->toi, p[g], R[g]))
            return 0;
    double va[3], vb[3];
    if (!point_velocity(a, r->point, r->toi, tmax, va)
        || !point_velocity(b, r->point, r->toi, tmax, vb))
        return 0;
    double close = fabs((va[0] - vb[0]) * r->normal[0] + (va[1] - vb[1]) * r->normal[1]
                        + (va[2] - vb[2]) * r->normal[2]);
    for (int g = 0; g < 2; g++)
        for (int k = 0; k < 3; k++) {
            double n[3] = {R[g][k], R[g][4 + k], R[g][8 + k]};
            if (!(fabs(n[0] * r->normal[0] + n[1] * r->normal[1] + n[2] * r->normal[2])
                  < M_SQRT1_2))
                continue;
            double lo[2], hi[2], least = LIP_DEPTH * margin;
            for (int h = 0; h < 2; h++) {
                double c = n[0] * p[h][0] + n[1] * p[h][1] + n[2] * p[h][2];
                double e = half_extent(R[h], m[h]->box.hi, n);
                lo[h] = c - e;
                hi[h] = c + e;
                least = fmin(least, e);
            }
            double overlap = fmin(hi[0], hi[1]) - fmax(lo[0], lo[1]);
            double grow = (va[0] - vb[0]) * n[0] + (va[1] - vb[1]) * n[1]
                          + (va[2] - vb[2]) * n[2];
            if (!(overlap <= least
                  && !(fabs(grow) * step > margin && fabs(grow) > LIP_GROWTH * close)))
                continue;
            double rise;
            int rests = lip_rests(o1, o2, m, p, R, n, hi, r, margin, tmax, &rise);
            if (overlap <= margin || rests) {
                lip->g = g;
                lip->k = k;
                lip->hi = hi[g] < hi[!g];
                lip->overlap = fmax(overlap, 0.0);
                lip->more = rests ? fmax(fmax(rise, 0.0), overlap - (1 - LIP_AHEAD) * margin)
                                  : 0.0;
                return 1;
            }
        }
    return 0;
}

/*
 * The first contact over [t0, tmax] of a pair meeting at a lip, with each
 * box shrunk as for the margin (shrink_for) and the face of the lip moved
 * in further by lip->more: where the pair gets deeper than the margin, and
 * along the lip's axis deeper by lip->more than that.  For a box resting on
 * a support (lip_rests) that is the larger of the step from the support's
 * face up to the lip's and the lip's own depth less 1 - LIP_AHEAD margins:
 * a box riding over a seam goes on until it sinks into the tile ahead by
 * the margin more than into the one it left, or its lip grows by LIP_AHEAD
 * margins, and dBoxBox finds its depth along the lip's axis the least, as
 * plain ODE does.  That face moves in by at most three quarters of the
 * box's side, all shrinking counted, beyond the quarter that shrink allows
 * a face: a 2 cm tile met by a box 9 mm below its top.
 */
static boxtoi_result solve_lip(const bt_moving *a, const bt_moving *b, const lip_axis *lip,
                               double margin, double t0, double tmax)
{
    bt_moving s[2] = {*a, *b};
    double delta = shrink_for(margin);
    for (int g = 0; g < 2; g++)
        shrink(&s[g].box, delta);
    const boxtoi_box *o = lip->g ? &b->box : &a->box;
    boxtoi_box *x = &s[lip->g].box;
    int k = lip->k;
    double side = o->hi[k] - o->lo[k], done = (x->lo[k] - o->lo[k]) + (o->hi[k] - x->hi[k]);
    double more = fmin(lip->more, 0.75 * side - done);
    if (more > 0) {
        if (lip->hi)
            x->hi[k] -= more;
        else
            x->lo[k] += more;
    }
    return solve_pair_from(&s[0], &s[1], t0, tmax);
}

/* Likewise for a box first touching a plane at t: the vertex nearest the
   plane there approaches it faster than the margin per step. */
static int plane_closing_fast(const bt_moving *a, const dReal plane[4], double t,
                              double margin, double step, double tmax)
{
    if (!(step > 0))
        return 0;
    double best = INFINITY, l[3], v[3];
    int nearest = 0;
    for (int k = 0; k < 8; k++) {
        double x[3];
        corner_of(&a->box, k, l);
        boxtoi_motion_apply(&a->motion, t, l, x);
        double d = plane[0] * x[0] + plane[1] * x[1] + plane[2] * x[2] - plane[3];
        if (d < best) {
            best = d;
            nearest = k;
        }
    }
    corner_of(&a->box, nearest, l);
    local_point_velocity(a, l, t, tmax, v);
    double closing = -(plane[0] * v[0] + plane[1] * v[1] + plane[2] * v[2]);
    return closing * step > margin;
}

/* Contacts at the time of impact toi: the vertices within tol of the
   nearest one, nearest first, at most maxc (and 4). */
static int plane_contacts_at(const bt_moving *a, const dReal plane[4],
                             double toi, double tol, int flags,
                             dContactGeom *contact, int skip)
{
    double M[4][4];
    boxtoi_motion_eval(&a->motion, toi, M);
    int maxc = flags & NUMC_MASK;
    if (maxc > 4)
        maxc = 4;
    double dist[8], pos[8][3];
    int idx[8], n = 0;
    double dmin = INFINITY;
    for (int v = 0; v < 8; v++) {
        double x[3], P[3];
        corner_of(&a->box, v, x);
        for (int i = 0; i < 3; i++)
            P[i] = (M[i][0] * x[0] + M[i][1] * x[1] + M[i][2] * x[2] + M[i][3])
                   / M[3][3];
        dist[v] = plane[0] * P[0] + plane[1] * P[1] + plane[2] * P[2] - plane[3];
        memcpy(pos[v], P, sizeof P);
        if (dist[v] < dmin)
            dmin = dist[v];
    }
    for (int v = 0; v < 8; v++)
        if (dist[v] <= dmin + tol)
            idx[n++] = v;
    /* nearest first (insertion sort) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && dist[idx[j]] < dist[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    if (n > maxc)
        n = maxc;
    for (int i = 0; i < n; i++) {
        dContactGeom *c = CONTACT(contact, i * skip);
        for (int k = 0; k < 3; k++) {
            c->pos[k] = (dReal)pos[idx[i]][k];
            c->normal[k] = plane[k];
        }
    }
    return n;
}

static int box_plane(dGeomID o1, dGeomID o2, int flags,
                     dContactGeom *contact, int skip);

/* box-plane: o1 boxtoi, o2 dPlane */
static int collide_box_plane(dGeomID o1, dGeomID o2, int flags,
                             dContactGeom *contact, int skip)
{
    int n = box_plane(o1, o2, flags, contact, skip);
    bt_step_note(o1, o2, n);
    return n;
}

static int box_plane(dGeomID o1, dGeomID o2, int flags,
                     dContactGeom *contact, int skip)
{
    bt_data *d = dGeomGetClassData(o1);
    dVector4 plane;
    dGeomPlaneGetParams(o2, plane);
    dReal forced[3];
    double ftoi;
    int force = bt_step_forced(o1, o2, forced, NULL, NULL, &ftoi);
    int n = box_plane_now(o1, dGeomGetPosition(o1), dGeomGetRotation(o1), o2, 0,
                          flags, contact, skip);
    if (n > 0 && !force && bt_step_ended(o1, o2)) {
        /* the impact that ended the sub-step before: every vertex within
           the margin, at its own depth less the margin */
        bt_moving a;
        bt_moving_boxtoi(o1, &a);
        double e = touch_margin(o1, o2, d->side, NULL, &a, NULL);
        n = box_plane_now(o1, dGeomGetPosition(o1), dGeomGetRotation(o1), o2,
                          (dReal)e, flags, contact, skip);
        for (int i = 0; i < n; i++) {
            dContactGeom *c = CONTACT(contact, i * skip);
            c->depth = c->depth > (dReal)e ? c->depth - (dReal)e : 0;
        }
    }
    if (force) {
        /* a sub-step being redone: speculative contacts for this pair
           (after the contacts of now when there is room) */
        int maxc = flags & NUMC_MASK;
        if (n > 0) {
            finish_contacts(o1, o2, contact, skip, n, plane, 0);
            note_toi(o1, o2, 0);
        }
        int keep = n > 0 && maxc - n >= 3 ? n : 0;
        int m = spec_points(o1, o2, forced, maxc - keep, CONTACT(contact, keep * skip), skip);
        if (m > 0 && n <= 0)
            note_toi(o1, o2, ftoi); /* apart now: the meeting of the try undone */
        return keep + m;
    }
    if (n > 0) {
        finish_contacts(o1, o2, contact, skip, n, plane, 0);
        note_toi(o1, o2, 0);
        int maxc = flags & NUMC_MASK;
        if (spec_rel_ >= 0 && maxc >= 3) {
            /* speculative: the vertex that will first be deeper than the
               margin within the window */
            bt_moving a;
            bt_moving_boxtoi(o1, &a);
            double tmax = effective_window(isfinite(a.valid) ? a.valid : 0);
            if (a.moving && tmax > 0) {
                dVector4 deep = {plane[0], plane[1], plane[2], plane[3]};
                deep[3] -= (dReal)(contact->depth
                                   + plane_margin(&a, spec_rel_, spec_abs_));
                double t = plane_first_contact(&a, deep, tmax);
                if (t > 0) {
                    int keep = maxc - n >= 3 ? n : 0;
                    n = keep + spec_points(o1, o2, plane, maxc - keep,
                                           CONTACT(contact, keep * skip), skip);
                }
            }
        }
        return n;
    }
    if (bt_step_apart(o1, o2))
        return 0; /* the stepper already knows: no contact within the window */
    bt_moving a;
    bt_moving_boxtoi(o1, &a);
    if (!a.moving)
        return 0;
    double tmax = effective_window(isfinite(a.valid) ? a.valid : 0);
    if (!(tmax > 0))
        return 0;
    double toi = plane_first_contact(&a, plane, tmax);
    if (toi < 0)
        return 0;
    if (spec_rel_ >= 0) {
        n = spec_points(o1, o2, plane, flags & NUMC_MASK, contact, skip);
        if (n > 0)
            note_toi(o1, o2, toi <= TOI_ZERO * tmax ? 0 : toi);
        return n;
    }
    double tol = fmax(PLANE_MARGIN * max_side(&a.box),
                      touch_margin(o1, o2, d->side, NULL, &a, NULL));
    n = plane_contacts_at(&a, plane, toi, tol, flags, contact, skip);
    if (n <= 0)
        return 0;
    finish_contacts(o1, o2, contact, skip, n, NULL, 1);
    note_toi(o1, o2, toi <= TOI_ZERO * tmax ? 0 : toi);
    return n;
}

/* ---- any other class ------------------------------------------------- */

/*
 * Every other class (sphere, capsule, cylinder, ray, convex, trimesh,
 * heightfield): the box at its current pose, as a dBox, with ODE's own
 * collider for that pair; no search in time.  A dBox made for the call
 * stands in for the boxtoi box, and the contacts name the boxtoi box.
 */
static int collide_box_other(dGeomID o1, dGeomID o2, int flags,
                             dContactGeom *contact, int skip)
{
    int n = proxy_collide(o1, dGeomGetPosition(o1), dGeomGetRotation(o1), NULL,
                          o2, flags, contact, skip);
    if (n > 0)
        note_toi(o1, o2, 0);
    return n;
}

dColliderFn *bt_get_collider(int num)
{
    if (num == bt_class() || num == dBoxClass)
        return collide_box_box;
    if (num == dPlaneClass)
        return collide_box_plane;
    return collide_box_other;
}

/* ---- the stepper's question -------------------------------------------- */

/* Touching at the current poses?  *depth_now receives the penetration. */
static int touching_now(dGeomID o1, dGeomID o2, double *depth_now)
{
    dContactGeom c[4];
    *depth_now = 0;
    if (dGeomGetClass(o2) == dPlaneClass) {
        int n = box_plane_now(o1, dGeomGetPosition(o1), dGeomGetRotation(o1),
                              o2, 0, 1, c, (int)sizeof c[0]);
        if (n > 0)
            *depth_now = c[0].depth;
        return n > 0;
    }
    dVector3 side1, side2, normal;
    dReal depth;
    int code;
    /* pairs the stepper found apart are not touching now either */
    if (bt_step_apart(o1, o2))
        return 0;
    side_of(o1, side1);
    side_of(o2, side2);
    int n = dBoxBox(dGeomGetPosition(o1), dGeomGetRotation(o1), side1,
                    dGeomGetPosition(o2), dGeomGetRotation(o2), side2, normal,
                    &depth, &code, 1, c, (int)sizeof c[0]);
    if (n > 0 && depth > 0)
        *depth_now = depth;
    return n > 0;
}

/* The box's smallest side of non-zero length (a flat panel's thickness does
   not count: a margin from it would be 0); 0 for a point. */
static double min_side(const boxtoi_box *b)
{
    double side[3];
    for (int i = 0; i < 3; i++)
        side[i] = b->hi[i] - b->lo[i];
    return min_length(side);
}

/* The smallest of three sides of non-zero length (0 when none). */
static double min_length(const double side[3])
{
    double m = INFINITY;
    for (int i = 0; i < 3; i++)
        if (side[i] > 0 && side[i] < m)
            m = side[i];
    return isfinite(m) ? m : 0;
}

/*
 * How much to shrink each box of a pair so that the shrunk boxes meet only
 * once the full ones overlap by about depth.  Shrinking a box by e lowers
 * its extent along a unit axis n by e times the sum of |n . its axes|,
 * which is at least 1, and at most: 1 on the box's own face axes, sqrt 2
 * on the cross axes (n is square to one of the box's axes), sqrt 3 on the
 * other box's face axes.  So on every axis the two shrunk boxes overlap
 * by at least 2 e and at most 2 sqrt 2 e less than the full ones (1 +
 * sqrt 3 < 2 sqrt 2), and when the shrunk boxes first meet, the full
 * boxes' least overlap lies between 2 e and 2 sqrt 2 e: between depth and
 * sqrt 2 depth for e = depth / 2.
 */
static double shrink_for(double depth)
{
    return 0.5 * depth;
}

/* Shrink a box by delta on every face, keeping at least half of each
   extent. */
static void shrink(boxtoi_box *b, double delta)
{
    for (int i = 0; i < 3; i++) {
        double e = fmin(delta, 0.25 * (b->hi[i] - b->lo[i]));
        b->lo[i] += e;
        b->hi[i] -= e;
    }
}

/*
 * Quick tests from the motions' bounds (bt_moving.bounded), which spare the
 * solver most pairs of a pile at rest.  Both hold for rigid motions only,
 * and rounding is covered by a small slack.
 *
 * Translating everything by one common path changes no contact, so the
 * relative translation (va - vb) t + (aa - ab) t^2 is what counts; a box
 * turning by at most angle theta about a point within rho of all its points
 * moves them by at most rho theta more.
 */
double bt_slack(double x)
{
    return 1e-9 * x + 1e-15;
}

static double trans_bound(const bt_moving *a, const bt_moving *b, double T)
{
    double dv[3], da[3];
    for (int i = 0; i < 3; i++) {
        dv[i] = a->v[i] - (b ? b->v[i] : 0);
        da[i] = a->a[i] - (b ? b->a[i] : 0);
    }
    return sqrt(dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2]) * T
           + sqrt(da[0] * da[0] + da[1] * da[1] + da[2] * da[2]) * T * T;
}

/* How far the points of two bounded motions (b NULL: a fixed frame) can
   move relative to each other over [0, T]. */
static double motion_reach(const bt_moving *a, const bt_moving *b, double T)
{
    double D = trans_bound(a, b, T) + a->rho * (a->wn * T + a->alphan * T * T);
    if (b)
        D += b->rho * (b->wn * T + b->alphan * T * T);
    return D;
}

/* Never within reach over [0, T]: their bounding spheres (radius rho about
   the turning points) stay apart. */
static int spheres_apart(const bt_moving *a, const bt_moving *b, double T)
{
    if (!a->bounded || !b->bounded)
        return 0;
    double d2 = 0;
    for (int i = 0; i < 3; i++) {
        double d = a->o0[i] - b->o0[i];
        d2 += d * d;
    }
    double gap = sqrt(d2) - a->rho - b->rho;
    double D = trans_bound(a, b, T);
    return gap > D + bt_slack(gap + D + a->rho + b->rho);
}

/* Smallest amount by which shrink(box, delta) moves a face. */
static double shrink_amount(const boxtoi_box *b, double delta)
{
    double e = delta;
    for (int i = 0; i < 3; i++)
        e = fmin(e, 0.25 * (b->hi[i] - b->lo[i]));
    return e > 0 ? e : 0;
}

/*
 * Can the two boxes, each shrunk by delta, not meet within [0, T]?  They
 * penetrate by at most depth now.  A box whose points move by at most D
 * stays inside the box grown by D, so its copy shrunk by e stays inside
 * the copy shrunk by e - D; two boxes shrunk by ea and eb share a point
 * only when the full ones penetrate by at least ea + eb.  Hence, with Da +
 * Db bounding both boxes' motions, the shrunk boxes stay apart when
 * Da + Db < ea + eb - depth.  (depth from dBoxBox is the overlap along one
 * of the 15 axes, never less than the penetration depth.)
 */
static int shrunk_apart(const bt_moving *a, const bt_moving *b, double delta,
                        double depth, double T)
{
    if (!a->bounded || !b->bounded)
        return 0;
    double D = motion_reach(a, b, T);
    double room = shrink_amount(&a->box, delta) + shrink_amount(&b->box, delta)
                  - depth;
    return D + bt_slack(D + room + delta) < room;
}

/*
 * Put the boxtoi box of a pair first; returns the other geom's class, or -1
 * when the pair has no boxtoi box or the other is not a boxtoi box, a dBox
 * or a dPlane.
 */
static int order_pair(dGeomID *o1, dGeomID *o2)
{
    if (!bt_get(*o1)) {
        dGeomID t = *o1;
        *o1 = *o2;
        *o2 = t;
    }
    if (!bt_get(*o1))
        return -1;
    int c2 = dGeomGetClass(*o2);
    if (c2 != bt_class() && c2 != dBoxClass && c2 != dPlaneClass)
        return -1;
    return c2;
}

int bt_pair_toi(dGeomID o1, dGeomID o2, const bt_toi_params *p, double *toi,
                int *first)
{
    if (first)
        *first = 0;
    int c2 = order_pair(&o1, &o2);
    if (c2 < 0)
        return 0;
    if (c2 != dPlaneClass) {
        /* bounding spheres that never meet are not touching now either:
           spare the test of the current poses */
        bt_moving a, b;
        pair_motions(o1, o2, &a, &b);
        if (a.moving || b.moving) {
            double T = fmin(p->tmax, pair_interval(&a, &b));
            if (T > 0 && spheres_apart(&a, &b, T))
                return 0;
        }
    }
    double depth_now;
    int now = touching_now(o1, o2, &depth_now);
    double t;
    if (c2 == dPlaneClass) {
        bt_moving a;
        bt_moving_boxtoi(o1, &a);
        if (!a.moving)
            return now;
        double T = fmin(p->tmax, isfinite(a.valid) ? a.valid : 0);
        if (!(T > 0))
            return now;
        dVector4 plane;
        dGeomPlaneGetParams(o2, plane);
        if (!now) {
            t = plane_first_contact(&a, plane, T);
            if (t < 0)
                return 0;
            if (t > p->window) {
                /* an impact only when the box would get deeper than the
                   margin by the end of the interval, or closes faster
                   than the margin per step: a box settling onto the plane
                   is left to ODE's contacts of the next step */
                double margin = plane_margin(&a, p->deep_rel, p->deep_abs);
                dVector4 deep = {plane[0], plane[1], plane[2], plane[3]};
                deep[3] -= (dReal)margin;
                if (!plane_closing_fast(&a, plane, t, margin, p->step, T)
                    && plane_first_contact(&a, deep, T) < 0)
                    return 0;
                *toi = t;
                if (first)
                    *first = 1;
                return 2;
            }
        }
        /* touching (or about to): a new impact only when it gets deeper
           than the margin */
        double delta = plane_margin(&a, p->deep_rel, p->deep_abs);
        plane[3] -= (dReal)(depth_now + delta);
        t = plane_first_contact(&a, plane, T);
    } else {
        bt_moving a, b;
        pair_motions(o1, o2, &a, &b);
        if (!a.moving && !b.moving)
            return now;
        double T = fmin(p->tmax, pair_interval(&a, &b));
        if (!(T > 0))
            return now;
        double margin = pair_margin(&a, &b, p->deep_rel, p->deep_abs);
        boxtoi_result r;
        if (!now) {
            if (spheres_apart(&a, &b, T))
                return 0;
            /* cannot get deeper than the margin: not an impact; a
               contact within the window is the collider's to find */
            if (shrunk_apart(&a, &b, shrink_for(margin), 0, T))
                return 1;
            r = solve_pair(&a, &b, T);
            if (r.state != BOXTOI_HIT && r.state != BOXTOI_OVERLAP)
                return 0;
            if (r.state == BOXTOI_HIT && r.toi > p->window) {
                /* an impact only when the boxes would get deeper than the
                   margin by the end of the interval, or close faster than
                   the margin per step where they do not meet at a lip
                   (box_lip): two boxes settling onto each other, and a box
                   sliding over a seam, are left to ODE's contacts of the
                   next step; a lip that gets that deep is an impact
                   where it does */
                lip_axis la;
                int lip = box_lip(o1, o2, &a, &b, &r, margin, p->step, T, &la);
                if (lip || !box_closing_fast(&a, &b, &r, margin, p->step, T)) {
                    boxtoi_result rs = lip ? solve_lip(&a, &b, &la, margin, r.toi, T)
                                           : solve_shrunk(&a, &b, shrink_for(margin), r.toi, T);
                    if (rs.state != BOXTOI_HIT && rs.state != BOXTOI_OVERLAP)
                        return 0;
                    /* at a lip, where the pair gets that deep: over the
                       seam, its contact is then on the next tile's top */
                    if (lip && rs.state == BOXTOI_HIT)
                        r.toi = rs.toi;
                }
                *toi = r.toi;
                if (first)
                    *first = 1;
                return 2;
            }
        }
        /* deeper than now by the margin */
        double delta = shrink_for(depth_now + margin);
        if (shrunk_apart(&a, &b, delta, depth_now, T))
            return 1;
        r = solve_shrunk(&a, &b, delta, 0, T);
        t = r.state == BOXTOI_HIT ? r.toi : -1;
    }
    if (t < 0)
        return 1;
    *toi = t;
    return t > p->window ? 2 : 3;
}

int bt_pair_escape(dGeomID o1, dGeomID o2, const bt_toi_params *p,
                   dGeomID *g1, dGeomID *g2, double normal[3], double *toi,
                   double x1[3], double x2[3])
{
    x1[0] = x2[0] = NAN;
    int c2 = order_pair(&o1, &o2);
    if (c2 < 0)
        return 0;
    *g1 = o1;
    *g2 = o2;
    if (c2 == dPlaneClass) {
        bt_moving a;
        bt_moving_boxtoi(o1, &a);
        if (!a.moving)
            return 0;
        double T = fmin(p->tmax, isfinite(a.valid) ? a.valid : 0);
        if (!(T > 0))
            return 0;
        dVector4 plane;
        dGeomPlaneGetParams(o2, plane);
        double margin = plane_margin(&a, p->deep_rel, p->deep_abs);
        dVector3 p0;
        dMatrix3 R0;
        dContactGeom c0;
        int now = pose_at(&a.motion, 0, p0, R0)
                  && box_plane_now(o1, p0, R0, o2, 0, 1, &c0, (int)sizeof c0) > 0;
        dVector4 deep = {plane[0], plane[1], plane[2], plane[3]};
        double t;
        if (now) {
            /* touching at the start: deeper than then by the margin */
            deep[3] -= (dReal)(c0.depth + margin);
            t = plane_first_contact(&a, deep, T);
            if (t < 0 || !(t < T * (1 - ESCAPE_END)))
                return 0;
        } else {
            t = plane_first_contact(&a, plane, T);
            if (t < 0 || !(t < T * (1 - ESCAPE_END)))
                return 0;
            deep[3] -= (dReal)margin;
            if (plane_first_contact(&a, deep, T) < 0)
                return 0;
        }
        for (int i = 0; i < 3; i++)
            normal[i] = plane[i];
        *toi = t;
        return 1;
    }
    bt_moving a, b;
    pair_motions(o1, o2, &a, &b);
    if (!a.moving && !b.moving)
        return 0;
    double T = fmin(p->tmax, pair_interval(&a, &b));
    if (!(T > 0) || spheres_apart(&a, &b, T))
        return 0;
    double margin = pair_margin(&a, &b, p->deep_rel, p->deep_abs);
    double half = shrink_for(margin);
    /* d0: the depth at the start where the boxes touch then, else -1;
       nrm: the normal of that touch, from o1 towards o2 (dBoxBox's) */
    dVector3 p0a, p0b, side1, side2, nrm;
    dMatrix3 R0a, R0b;
    dReal depth0;
    int code;
    dContactGeom c0;
    double d0 = -1;
    side_of(o1, side1);
    side_of(o2, side2);
    if (pose_at(&a.motion, 0, p0a, R0a) && pose_at(&b.motion, 0, p0b, R0b)
        && dBoxBox(p0a, R0a, side1, p0b, R0b, side2, nrm, &depth0, &code, 1,
                   &c0, (int)sizeof c0) > 0)
        d0 = depth0 > 0 ? depth0 : 0;
    boxtoi_result r;
    if (d0 < 0) {
        if (shrunk_apart(&a, &b, half, 0, T))
            return 0;
        r = solve_pair(&a, &b, T);
        /* touching within the solver's tolerance, not dBoxBox's (a box
           leaving a wall it bounced off, which may then pass through it;
           plates of no thickness; motions that are not rigid, which
           dBoxBox does not take): the solver's normal, A's to B's */
        if (r.state == BOXTOI_OVERLAP) {
            d0 = 0;
            for (int i = 0; i < 3; i++)
                nrm[i] = (dReal)r.normal[i];
        }
    }
    if (d0 >= 0) {
        /* touching at the start: deeper than then by the margin */
        double delta = shrink_for(d0 + margin);
        if (shrunk_apart(&a, &b, delta, d0, T))
            return 0;
        r = solve_shrunk(&a, &b, delta, 0, T);
        if (r.state == BOXTOI_OVERLAP) {
            /* Deeper than the shrunk copies can tell (each keeps half of
               each side: a thin plate far into a thin wall).  Unless the
               two cannot move by the margin relative to each other, say
               so, pushing them apart along dBoxBox's normal of now: a
               plate that deep may otherwise pass through unseen. */
            if (a.bounded && b.bounded && motion_reach(&a, &b, T) <= margin)
                return 0;
            for (int i = 0; i < 3; i++)
                normal[i] = -nrm[i];
            *toi = 0;
            return 1;
        }
        if (r.state != BOXTOI_HIT || !(r.toi < T * (1 - ESCAPE_END)))
            return 0;
        for (int i = 0; i < 3; i++)
            normal[i] = -r.normal[i];
        *toi = r.toi;
        return 1;
    }
    /* a first contact at the very end is the next sub-step's to see */
    if (r.state != BOXTOI_HIT || !(r.toi < T * (1 - ESCAPE_END)))
        return 0;
    lip_axis la;
    int lip = box_lip(o1, o2, &a, &b, &r, margin, p->step, T, &la);
    boxtoi_result rs = lip ? solve_lip(&a, &b, &la, margin, r.toi, T)
                           : solve_shrunk(&a, &b, half, r.toi, T);
    if (rs.state != BOXTOI_HIT && rs.state != BOXTOI_OVERLAP)
        return 0;
    /* a lip (box_lip): where the pair gets deeper than the margin beyond
       the lip, as in bt_pair_toi; its own first contact is not an escape */
    if (lip) {
        if (rs.state != BOXTOI_HIT || !(rs.toi < T * (1 - ESCAPE_END)))
            return 0;
        r = rs;
    }
    for (int i = 0; i < 3; i++)
        normal[i] = -r.normal[i];
    *toi = r.toi;
    if (!point_back(&a.motion, r.toi, r.point, x1)
        || !point_back(&b.motion, r.toi, r.point, x2))
        x1[0] = x2[0] = NAN;
    return 1;
}
