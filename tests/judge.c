/*
 * One answer judged against the reference: the checks that tests/judge.h
 * lists.
 */
#include "judge.h"
#include "lib-util.h"
#include "tap/basic.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * The world directions of r's features in the poses ea and eb (A's and B's
 * motions at one time): the two edges', or the two edges of the face.
 */
static void feature_dirs(const boxtoi_result *r, const double ea[4][4],
                         const double eb[4][4], double u[2][3])
{
    if (r->kind == BOXTOI_EDGE_EDGE) {
        for (int b = 0; b < 2; b++) {
            const boxtoi_feature *f = b ? &r->feature_b : &r->feature_a;
            const double(*e)[4] = b ? eb : ea;
            int j = f->side[0] == 0 ? 0 : f->side[1] == 0 ? 1 : 2;
            for (int i = 0; i < 3; i++)
                u[b][i] = e[i][j];
        }
    } else {
        int of_b = r->kind == BOXTOI_VERTEX_FACE;
        const boxtoi_feature *f = of_b ? &r->feature_b : &r->feature_a;
        const double(*e)[4] = of_b ? eb : ea;
        int j = f->side[0] != 0 ? 0 : f->side[1] != 0 ? 1 : 2;
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < 3; i++)
                u[b][i] = e[i][(j + 1 + b) % 3];
    }
}

/*
 * The motion's matrix at t over |w(t)|: the pose, w's sign kept, so that a
 * motion written with a large common factor (a valid motion times 2^300)
 * does not overflow the products formed from its columns.
 */
static void scaled_motion_at(const boxtoi_motion *m, double t, double e[4][4])
{
    ref_motion_at(m, t, e);
    double w = fabs(e[3][3]);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            e[i][j] /= w;
}

/*
 * The contact normal that the features of r define at time t, from the
 * query's motions alone (evaluated by the reference): a face's normal is
 * the cross product of the world directions of its two edges, and two edges
 * give the cross product of their directions.  Unit length, sign not fixed;
 * 0 when it is not defined (parallel edges).
 */
static int feature_normal(const boxtoi_query *q, const boxtoi_result *r, double t,
                          double n[3])
{
    double ea[4][4], eb[4][4], u[2][3];
    scaled_motion_at(&q->motion_a, t, ea);
    scaled_motion_at(&q->motion_b, t, eb);
    feature_dirs(r, (const double(*)[4])ea, (const double(*)[4])eb, u);
    tu_cross(u[0], u[1], n);
    double len = tu_norm(n), scale = tu_norm(u[0]) * tu_norm(u[1]);
    if (!(len > 1e-6 * scale))
        return 0;
    for (int i = 0; i < 3; i++)
        n[i] /= len;
    return 1;
}

/* The local point of feature f of box b, its free coordinates at lo (u 0)
   or hi (u 1): the vertex, or one end of the edge. */
static void feature_point(const boxtoi_box *b, boxtoi_feature f, int u, double x[3])
{
    for (int i = 0; i < 3; i++)
        x[i] = f.side[i] < 0 ? b->lo[i] : f.side[i] > 0 ? b->hi[i] : u ? b->hi[i] : b->lo[i];
}

/*
 * The outward unit normal at t of the face f (side[j] != 0) of a box moving
 * by m: the cofactor column of the 3x3 part, e_{j+1} x e_{j+2}, which is
 * det times the inverse transpose's column j; signed by the face's side, the
 * determinant's sign and w's (the columns e are those of w times the pose, over
 * |w|: those of the pose times w's sign).
 */
static void face_outward(const boxtoi_motion *m, double t, boxtoi_feature f, double n[3])
{
    double e[4][4], c[3][3];
    scaled_motion_at(m, t, e);
    int j = f.side[0] != 0 ? 0 : f.side[1] != 0 ? 1 : 2;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            c[k][i] = e[i][(j + k) % 3];
    tu_cross(c[1], c[2], n);
    double det = tu_dot(c[0], n), len = tu_norm(n);
    double sign = f.side[j] * (det >= 0.0 ? 1.0 : -1.0) * (e[3][3] >= 0.0 ? 1.0 : -1.0);
    for (int i = 0; i < 3; i++)
        n[i] *= len > 0.0 ? sign / len : 0.0;
}

/* Distance from p to the segment from a to b. */
static double segment_distance(const double p[3], const double a[3], const double b[3])
{
    double ab[3], ap[3], d[3];
    for (int i = 0; i < 3; i++) {
        ab[i] = b[i] - a[i];
        ap[i] = p[i] - a[i];
    }
    double l2 = tu_dot(ab, ab), u = l2 > 0.0 ? tu_dot(ap, ab) / l2 : 0.0;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    for (int i = 0; i < 3; i++)
        d[i] = ap[i] - u * ab[i];
    return tu_norm(d);
}

/*
 * Where the features named at a hit are, at toi, checked against the
 * reported contact (point and normal), beyond the normal's direction that
 * feature_normal gives (which does not say which of two opposite faces, or
 * which of four parallel edges, is named): a face must face the other box
 * (its outward normal along the contact normal for A's face, against it for
 * B's), a vertex must lie in the contact plane, and each edge of an
 * edge-edge contact must pass through the contact point, all within tol.
 * 0 when they do; else 1, with why filled in.
 */
static int features_placed(const boxtoi_query *q, const boxtoi_result *res, double tol,
                           char *why, size_t cap)
{
    const boxtoi_box *box[2] = {&q->a, &q->b};
    const boxtoi_motion *m[2] = {&q->motion_a, &q->motion_b};
    const boxtoi_feature *f[2] = {&res->feature_a, &res->feature_b};
    double t = res->toi;
    char name[2][16];
    boxtoi_feature_name(*f[0], name[0], sizeof name[0]);
    boxtoi_feature_name(*f[1], name[1], sizeof name[1]);
    if (res->kind == BOXTOI_EDGE_EDGE) {
        for (int b = 0; b < 2; b++) {
            double x0[3], x1[3], w0[3], w1[3];
            feature_point(box[b], *f[b], 0, x0);
            feature_point(box[b], *f[b], 1, x1);
            ref_apply(m[b], t, x0, w0);
            ref_apply(m[b], t, x1, w1);
            double d = segment_distance(res->point, w0, w1);
            if (!(d <= tol)) {
                snprintf(why, cap, "edge %s of %c is %.3g from the contact point (allowed %.3g)",
                         name[b], "AB"[b], d, tol);
                return 1;
            }
        }
        return 0;
    }
    int face = res->kind == BOXTOI_VERTEX_FACE; /* the box whose face is named */
    double out[3], x[3], w[3], pw[3];
    face_outward(m[face], t, *f[face], out);
    double along = tu_dot(out, res->normal) * (face ? -1.0 : 1.0);
    if (!(along > 0.5)) {
        snprintf(why, cap, "face %s of %c faces away from the other box (outward normal "
                 "%.3g along the contact normal)", name[face], "AB"[face], along);
        return 1;
    }
    feature_point(box[1 - face], *f[1 - face], 0, x);
    ref_apply(m[1 - face], t, x, w);
    for (int i = 0; i < 3; i++)
        pw[i] = w[i] - res->point[i];
    double d = fabs(tu_dot(pw, res->normal));
    if (!(d <= tol)) {
        snprintf(why, cap, "vertex %s of %c is %.3g from the contact plane (allowed %.3g)",
                 name[1 - face], "AB"[1 - face], d, tol);
        return 1;
    }
    return 0;
}

/*
 * How far the boxes' projections on the unit direction n overlap at t, B's
 * side ahead: the supports of A along n and of B along -n past the
 * centres' offset, sum_k h_k |n . u_k| over both boxes (u_k the columns of
 * the 3x3 part over w) minus n . (cB - cA).
 */
static double overlap_along(const boxtoi_query *q, double t, const double n[3])
{
    const boxtoi_box *box[2] = {&q->a, &q->b};
    const boxtoi_motion *m[2] = {&q->motion_a, &q->motion_b};
    double v = 0.0, c[2][3];
    for (int j = 0; j < 2; j++) {
        double r[4][4], lc[3];
        ref_motion_at(m[j], t, r);
        for (int i = 0; i < 3; i++)
            lc[i] = 0.5 * (box[j]->lo[i] + box[j]->hi[i]);
        ref_apply(m[j], t, lc, c[j]);
        for (int k = 0; k < 3; k++) {
            double u = (n[0] * r[0][k] + n[1] * r[1][k] + n[2] * r[2][k]) / r[3][3];
            v += 0.5 * (box[j]->hi[k] - box[j]->lo[k]) * fabs(u);
        }
    }
    return v - (n[0] * (c[1][0] - c[0][0]) + n[1] * (c[1][1] - c[0][1]) +
                n[2] * (c[1][2] - c[0][2]));
}

/*
 * The rounding of the coordinates that boxtoi.h allows, which is all there
 * is between boxes of no size (points): 8 DBL_EPSILON times the largest
 * coordinate of the boxes' swept bounds (tu_coord_rounding, from the
 * public boxtoi_swept_aabb, which boxtoi.h names; test-api holds them to
 * the sampled corners), or of the corners at t0 where those are larger or there
 * are no bounds.  A point that ends the interval 1000 from the origin is
 * resolved to 1.8e-12 all along, not to the rounding of where it starts.
 */
static double coord_tol(const boxtoi_query *q)
{
    const boxtoi_box *box[2] = {&q->a, &q->b};
    const boxtoi_motion *m[2] = {&q->motion_a, &q->motion_b};
    double far = 0.0;
    for (int j = 0; j < 2; j++)
        for (int c = 0; c < 8; c++) {
            double p[3], w[3];
            for (int i = 0; i < 3; i++)
                p[i] = c >> i & 1 ? box[j]->hi[i] : box[j]->lo[i];
            ref_apply(m[j], q->t0, p, w);
            for (int i = 0; i < 3; i++)
                far = fmax(far, fabs(w[i]));
        }
    return fmax(tu_coord_rounding(q), 8 * DBL_EPSILON * far);
}

/*
 * Are the boxes at t apart by at most gap along every axis of the
 * separating-axis test (the reference's own), beyond the rounding of the
 * poses tolc?  boxtoi.h counts boxes that no axis parts by more than the
 * coordinates' rounding as touching: along a diagonal, or between edges the
 * axes do not meet square on, their distance may be a few times that, which
 * matters only for boxes far smaller than their distance from the origin
 * (points).  The solver decides that on its own evaluation of the poses,
 * whose rounding is of the size of that tolerance, and the reference on
 * another: two points passing each other slowly 21 from the origin were
 * called touching where each axis parted them by 4.5e-14, 1.2 times the
 * tolerance of 3.75e-14.
 */
static int within_axes(const boxtoi_query *q, double t, double gap, double tolc)
{
    return -ref_axis_value(q, t) <= gap + tolc;
}

/*
 * The distance allowed at t: tolx, plus what the boxes' signed distance
 * changes by over the time tolerance tolt (1e-9 of the interval), from its
 * rate over 1e-7 of the interval on either side, the larger: where the
 * distance has a kink at the contact (two points passing through each
 * other), the two sides' rates cancel in a difference across it.
 */
static double slack_at(const boxtoi_query *q, double t, double tolx,
                       double tolt)
{
    double L = q->t1 - q->t0, h = 1e-7 * (L > 0 ? L : 1.0);
    double ta = t - h < q->t0 ? q->t0 : t - h, tb = t + h > q->t1 ? q->t1 : t + h;
    if (!(tb > ta))
        return tolx;
    double sd = ref_signed_distance(q, t), rate = 0.0;
    if (t > ta)
        rate = fabs(sd - ref_signed_distance(q, ta)) / (t - ta);
    if (tb > t)
        rate = fmax(rate, fabs(ref_signed_distance(q, tb) - sd) / (tb - t));
    return tolx + rate * tolt;
}

/* B's centre less A's at t, along n. */
static double centres_along(const boxtoi_query *q, double t, const double n[3])
{
    double la[3], lb[3], ca[3], cb[3], dc[3];
    for (int i = 0; i < 3; i++) {
        la[i] = 0.5 * (q->a.lo[i] + q->a.hi[i]);
        lb[i] = 0.5 * (q->b.lo[i] + q->b.hi[i]);
    }
    ref_apply(&q->motion_a, t, la, ca);
    ref_apply(&q->motion_b, t, lb, cb);
    for (int i = 0; i < 3; i++)
        dc[i] = cb[i] - ca[i];
    return tu_dot(n, dc);
}

void judge(const boxtoi_query *q, const boxtoi_result *res, const ref_answer *ra,
           check *ck)
{
    double L = q->t1 - q->t0;
    double tolc = coord_tol(q), tolx = REL_TOL * ra->size + tolc, tolt = REL_TOL * L;
    memset(ck, 0, sizeof *ck);
    ck->verdict = V_AGREE;

    if (!ra->valid) {
        ck->verdict = V_DISAGREE;
        snprintf(ck->why, sizeof ck->why, "the reference could not take the query");
        return;
    }

    if (res->state != BOXTOI_HIT && res->state != BOXTOI_MISS &&
        res->state != BOXTOI_OVERLAP) {
        ck->bad_state = 1;
        ck->verdict = V_DISAGREE;
        snprintf(ck->why, sizeof ck->why, "state %s (reason %d)",
                 boxtoi_state_name(res->state), (int)res->reason);
        return;
    }
    if (res->state == BOXTOI_OVERLAP) {
        if (ra->sd_t0 < -tolx && !within_axes(q, q->t0, tolc, tolc)) {
            ck->verdict = V_DISAGREE;
            snprintf(ck->why, sizeof ck->why,
                     "solver: overlap at t0; reference: apart by %.17g (tol %.3g)",
                     -ra->sd_t0, tolx);
            return;
        }
        if (!ra->overlap_t0)
            ck->verdict = V_GRAZE;
        if (res->toi != q->t0) {
            ck->verdict = V_DISAGREE;
            snprintf(ck->why, sizeof ck->why, "overlap with toi %.17g != t0",
                     res->toi);
            return;
        }
    } else if (ra->sd_t0 > tolx) {
        ck->verdict = V_DISAGREE;
        snprintf(ck->why, sizeof ck->why,
                 "solver: %s; reference: overlapping at t0 by depth %.17g",
                 boxtoi_state_name(res->state), ra->sd_t0);
        return;
    } else if (res->state == BOXTOI_MISS) {
        if (!isinf(ra->t_deep)) {
            ck->verdict = V_DISAGREE;
            snprintf(ck->why, sizeof ck->why,
                     "solver: miss; reference: first contact %.17g, contact "
                     "deeper than %.3g from %.17g (depth %.17g there)",
                     ra->toi, tolx, ra->t_deep,
                     ref_max_signed_distance(q, ra->t_deep, ra->t_deep_end));
            return;
        }
        if (ra->hit || ra->overlap_t0)
            ck->verdict = V_GRAZE;
    } else { /* HIT */
        double toi = res->toi;
        if (!(toi >= q->t0 && toi <= q->t1)) {
            ck->verdict = V_DISAGREE;
            snprintf(ck->why, sizeof ck->why, "hit at %.17g outside [t0, t1]", toi);
            return;
        }
        double sd = ref_signed_distance(q, toi);
        double slack = slack_at(q, toi, tolx, tolt);
        if (fabs(sd) > slack &&
            !(sd < 0.0 && within_axes(q, toi, slack_at(q, toi, tolc, tolt), tolc))) {
            ck->verdict = V_DISAGREE;
            snprintf(ck->why, sizeof ck->why,
                     "solver: hit at %.17g where the boxes are %s %.17g "
                     "(allowed %.3g); reference first contact %.17g",
                     toi, sd > 0 ? "overlapping by" : "apart by", fabs(sd),
                     slack, ra->toi);
            return;
        }
        if (ra->t_deep < toi - tolt) {
            double te = toi < ra->t_deep_end ? toi : ra->t_deep_end;
            double md = ref_max_signed_distance(q, ra->t_deep, te);
            if (md > tolx) {
                ck->verdict = V_DISAGREE;
                snprintf(ck->why, sizeof ck->why,
                         "solver: hit at %.17g, late; reference first contact "
                         "%.17g, depth %.17g reached before the solver's time",
                         toi, ra->toi, md);
                return;
            }
        }
        if (!(ra->hit && fabs(toi - ra->toi) <= tolt))
            ck->verdict = V_GRAZE;
        else
            ck->dt = fabs(toi - ra->toi) / (L > 0 ? L : 1.0);
    }

    /* check 4: the reported contact */
    if (res->state == BOXTOI_HIT || res->state == BOXTOI_OVERLAP) {
        double slack = res->state == BOXTOI_HIT
                           ? slack_at(q, res->toi, tolx, tolt)
                           : tolx;
        double da = ref_point_box_distance(&q->a, &q->motion_a, res->toi, res->point);
        double db = ref_point_box_distance(&q->b, &q->motion_b, res->toi, res->point);
        double nn = sqrt(res->normal[0] * res->normal[0] +
                         res->normal[1] * res->normal[1] +
                         res->normal[2] * res->normal[2]);
        if (!(da <= slack && db <= slack)) {
            if (res->state == BOXTOI_HIT)
                ck->geom_bad = 1;
            else
                ck->point_bad = 1;
            snprintf(ck->geom_why, sizeof ck->geom_why,
                     "contact point (%.17g, %.17g, %.17g) is %.17g from A and "
                     "%.17g from B (allowed %.3g)",
                     res->point[0], res->point[1], res->point[2], da, db, slack);
        } else if (res->state == BOXTOI_HIT && !(fabs(res->depth) <= slack)) {
            ck->geom_bad = 1;
            snprintf(ck->geom_why, sizeof ck->geom_why,
                     "depth %.17g at a hit (allowed %.3g)", res->depth, slack);
        } else if (!(fabs(nn - 1.0) <= 1e-9)) {
            ck->geom_bad = 1;
            snprintf(ck->geom_why, sizeof ck->geom_why,
                     "normal (%.17g, %.17g, %.17g) has length %.17g",
                     res->normal[0], res->normal[1], res->normal[2], nn);
        } else if (res->state == BOXTOI_HIT) {
            /* along the features' normal, from A's centre towards B's */
            double nf[3], off = 0.0;
            int defined = feature_normal(q, res, res->toi, nf);
            double along = centres_along(q, res->toi, res->normal);
            /* or 1e-6 of the interval before, where a tie takes its
               orientation (docs/method.md): plates turned alike meet with
               their centres' offset along the normal about 0, either sign */
            double tb = fmax(q->t0, res->toi - 1e-6 * L);
            if (!(along >= -tolx) && tb < res->toi)
                along = fmax(along, centres_along(q, tb, res->normal));
            if (defined) {
                double sign = tu_dot(nf, res->normal) >= 0.0 ? 1.0 : -1.0;
                for (int i = 0; i < 3; i++)
                    off = fmax(off, fabs(sign * nf[i] - res->normal[i]));
            }
            if (!(off <= REL_TOL) || !(along >= -tolx)) {
                ck->geom_bad = 1;
                snprintf(ck->geom_why, sizeof ck->geom_why,
                         "normal (%.17g, %.17g, %.17g) is %.3g off the features' "
                         "normal, %.17g along the centres' offset",
                         res->normal[0], res->normal[1], res->normal[2], off, along);
            } else if (features_placed(q, res, FEATURE_SLACK * slack, ck->geom_why,
                                       sizeof ck->geom_why)) {
                ck->geom_bad = 1;
            }
        }
    }

    /*
     * check 4 at an overlap: the depth is the penetration depth (the
     * reference's, from the faces of the Minkowski difference), and the
     * normal a direction of it from A to B: the overlap of the two boxes'
     * projections on it, B's side ahead, is that depth (any other
     * direction, or the normal negated, overlaps more).
     */
    if (res->state == BOXTOI_OVERLAP && !ck->point_bad) {
        double nref[3];
        double pd = ref_penetration(q, q->t0, nref);
        double along = overlap_along(q, q->t0, res->normal);
        if (!(fabs(res->depth - pd) <= tolx) || !(along <= pd + tolx)) {
            ck->point_bad = 1;
            snprintf(ck->geom_why, sizeof ck->geom_why,
                     "overlap depth %.17g, reference penetration %.17g; overlap along "
                     "the normal (%.17g, %.17g, %.17g) %.17g", res->depth, pd,
                     res->normal[0], res->normal[1], res->normal[2], along);
        }
    }

    /* exit, when both agree on the first contact */
    /* (only for a contact that gets deep: the end of a graze is ill-defined) */
    if (ck->verdict == V_AGREE && res->state != BOXTOI_MISS && !ra->inconsistent &&
        ra->t_deep == ra->toi) {
        double es = res->exit_after_t1 ? q->t1 : res->exit;
        double er = ra->exit_after_t1 ? q->t1 : ra->exit;
        ck->exit_checked = 1;
        if (!isfinite(es)) {
            ck->exit_bad = 1;
            snprintf(ck->exit_why, sizeof ck->exit_why, "exit %.17g", res->exit);
        } else if (fabs(es - er) > tolt) {
            /* between the two exits the contact must be shallow (solver
             * early) or the gap tiny (solver late) */
            double lo = es < er ? es : er, hi = es < er ? er : es;
            double v = es < er ? ref_max_signed_distance(q, lo, hi)
                               : -ref_min_signed_distance(q, lo, hi);
            if (v > tolx)
                ck->exit_strict = 1;
            if (v > EXIT_SCALE * tolx) {
                ck->exit_bad = 1;
                snprintf(ck->exit_why, sizeof ck->exit_why,
                         "exit: solver %.17g%s, reference %.17g%s; %s %.17g in between",
                         res->exit, res->exit_after_t1 ? " (after t1)" : "",
                         ra->exit, ra->exit_after_t1 ? " (after t1)" : "",
                         es < er ? "depth" : "gap", v);
            }
        }
    } else if (ck->verdict != V_DISAGREE && res->state != BOXTOI_MISS &&
               !(q->flags & BOXTOI_SKIP_EXIT)) {
        /*
         * The end of a graze, or of a contact that deepens only later, is
         * not compared with the reference's; but the contact must hold up
         * to it: nowhere between the first contact and the exit do the
         * boxes part by more than the exit's allowance, which takes what
         * their distance changes by in the time tolerance at either end,
         * as check 4 does.
         */
        double es = res->exit_after_t1 ? q->t1 : res->exit;
        ck->exit_held = 1;
        if (!(es >= res->toi && es <= q->t1)) {
            ck->exit_bad = 1;
            snprintf(ck->exit_why, sizeof ck->exit_why,
                     "exit %.17g outside [toi %.17g, t1]", res->exit, res->toi);
        } else {
            double v = -ref_min_signed_distance(q, res->toi, es);
            double slack_es = slack_at(q, es, tolx, tolt);
            double allow = EXIT_SCALE * fmax(slack_at(q, res->toi, tolx, tolt), slack_es);
            if (v > allow) {
                ck->exit_bad = 1;
                snprintf(ck->exit_why, sizeof ck->exit_why,
                         "exit: solver %.17g%s, of a contact from %.17g that is not "
                         "compared; the boxes part by %.17g in between",
                         res->exit, res->exit_after_t1 ? " (after t1)" : "",
                         res->toi, v);
            } else if (!res->exit_after_t1 && !ra->inconsistent) {
                /*
                 * Nor does it end early: the reference's overlap state
                 * cannot change between its events, so from the exit to
                 * its next event after it the boxes must not overlap by
                 * more than the allowance (a contact that goes on, or
                 * deepens, past the exit).
                 */
                double next = q->t1;
                for (int k = 0; k < ra->nevents; k++)
                    if (ra->events[k] > es) {
                        next = ra->events[k];
                        break;
                    }
                double d = ref_max_signed_distance(q, es, next);
                allow = EXIT_SCALE * fmax(slack_es, slack_at(q, next, tolx, tolt));
                if (d > allow) {
                    ck->exit_bad = 1;
                    snprintf(ck->exit_why, sizeof ck->exit_why,
                             "exit: solver %.17g, of a contact from %.17g that is not "
                             "compared; the boxes overlap by %.17g after it, before "
                             "the reference's next event %.17g",
                             res->exit, res->toi, d, next);
                }
            }
        }
    }
}

/* Are A and B the same box on the same motion, to the bit (up to the degree)? */
static int same_parts(const boxtoi_query *q)
{
    const boxtoi_motion *a = &q->motion_a, *b = &q->motion_b;
    return memcmp(&q->a, &q->b, sizeof q->a) == 0 && a->degree == b->degree &&
           (a->degree < 0 || a->degree > BOXTOI_MAX_DEGREE ||
            memcmp(a->c, b->c, (size_t)(a->degree + 1) * sizeof a->c[0]) == 0);
}

int mirrors_exactly(const boxtoi_query *q, const boxtoi_result *r, const boxtoi_result *w,
                    char *why, size_t n)
{
    if (r->state == BOXTOI_INVALID && w->state == BOXTOI_INVALID)
        return 1;
    boxtoi_result m = *w;
    if (!same_parts(q)) {
        m.kind = tu_swapped_kind(w->kind);
        m.feature_a = w->feature_b;
        m.feature_b = w->feature_a;
        for (int k = 0; k < 3; k++)
            m.normal[k] = -w->normal[k];
    }
    int same = m.state == r->state && m.kind == r->kind &&
               memcmp(&m.feature_a, &r->feature_a, sizeof m.feature_a) == 0 &&
               memcmp(&m.feature_b, &r->feature_b, sizeof m.feature_b) == 0 &&
               m.exit_after_t1 == r->exit_after_t1;
    const double *x[4] = {&m.toi, &m.exit, &m.depth, m.point}, *y[4] = {&r->toi, &r->exit,
                                                                         &r->depth, r->point};
    for (int i = 0; i < 4; i++)
        same &= memcmp(x[i], y[i], (i == 3 ? 3 : 1) * sizeof(double)) == 0;
    /* a contact's normal negated bit for bit (a -0 stays apart from +0);
       other states have none, (0, 0, 0) in both orders */
    if (r->state == BOXTOI_HIT || r->state == BOXTOI_OVERLAP)
        same &= memcmp(m.normal, r->normal, sizeof m.normal) == 0;
    else
        for (int k = 0; k < 3; k++)
            same &= m.normal[k] == r->normal[k];
    if (!same) {
        char fa[BOXTOI_FEATURE_NAME_MAX], fb[BOXTOI_FEATURE_NAME_MAX];
        char ga[BOXTOI_FEATURE_NAME_MAX], gb[BOXTOI_FEATURE_NAME_MAX];
        snprintf(why, n, "not bit for bit: %s toi %a exit %a %s %s/%s point (%a, %a, %a) "
                 "normal (%a, %a, %a); swapped %s toi %a exit %a %s %s/%s point (%a, %a, %a) "
                 "normal (%a, %a, %a)",
                 boxtoi_state_name(r->state), r->toi, r->exit, boxtoi_kind_name(r->kind),
                 boxtoi_feature_name(r->feature_a, fa, sizeof fa),
                 boxtoi_feature_name(r->feature_b, fb, sizeof fb), r->point[0], r->point[1],
                 r->point[2], r->normal[0], r->normal[1], r->normal[2],
                 boxtoi_state_name(w->state), w->toi, w->exit, boxtoi_kind_name(w->kind),
                 boxtoi_feature_name(w->feature_a, ga, sizeof ga),
                 boxtoi_feature_name(w->feature_b, gb, sizeof gb), w->point[0], w->point[1],
                 w->point[2], w->normal[0], w->normal[1], w->normal[2]);
        return 0;
    }
    return 1;
}

static void print_motion(const char *name, const boxtoi_motion *m)
{
    diag("  %s: degree %d", name, m->degree);
    for (int k = 0; k <= m->degree; k++) {
        char buf[16 * 26 + 64];
        int len = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                len += snprintf(buf + len, sizeof buf - len, "%s%.17g",
                                i + j ? ", " : "", m->c[k][i][j]);
        diag("    c[%d] (row-major) = {%s}", k, buf);
    }
}

void print_query(const boxtoi_query *q)
{
    diag("  box a: lo (%.17g, %.17g, %.17g) hi (%.17g, %.17g, %.17g)",
         q->a.lo[0], q->a.lo[1], q->a.lo[2], q->a.hi[0], q->a.hi[1], q->a.hi[2]);
    diag("  box b: lo (%.17g, %.17g, %.17g) hi (%.17g, %.17g, %.17g)",
         q->b.lo[0], q->b.lo[1], q->b.lo[2], q->b.hi[0], q->b.hi[1], q->b.hi[2]);
    diag("  interval [%.17g, %.17g]", q->t0, q->t1);
    print_motion("motion_a", &q->motion_a);
    print_motion("motion_b", &q->motion_b);
}

void print_answers(const boxtoi_result *res, const ref_answer *ra)
{
    char fa[BOXTOI_FEATURE_NAME_MAX], fb[BOXTOI_FEATURE_NAME_MAX];
    diag("  solver: %s toi %.17g exit %.17g%s kind %s %s/%s depth %.17g "
         "iterations %d",
         boxtoi_state_name(res->state), res->toi, res->exit,
         res->exit_after_t1 ? " (after t1)" : "", boxtoi_kind_name(res->kind),
         boxtoi_feature_name(res->feature_a, fa, sizeof fa),
         boxtoi_feature_name(res->feature_b, fb, sizeof fb), res->depth,
         res->iterations);
    diag("  reference: %s toi %.17g exit %.17g%s deep from %.17g; sd(t0) "
         "%.17g size %.17g, %d events%s",
         ra->overlap_t0 ? "overlap" : ra->hit ? "hit" : "miss", ra->toi,
         ra->exit, ra->exit_after_t1 ? " (after t1)" : "", ra->t_deep,
         ra->sd_t0, ra->size, ra->nevents,
         ra->inconsistent ? " (INCONSISTENT)" : "");
    for (int i = 0; i < ra->nevents && i < 8; i++)
        diag("    event %.17g", ra->events[i]);
}
