/*
 * Fuzz target of boxtoi_solve().
 *
 * The first byte chooses how the rest reads (bits 0-1), and bit 7 sets
 * BOXTOI_SKIP_EXIT on raw inputs.  Bytes past the end read as 0.
 *  - raw (bits 0-1 = 0): the degrees as signed bytes, then every number of
 *    the query as the 8 bytes of a double (corners, the coefficients of
 *    each motion up to its degree, clamped to 0..8, all of them or, with
 *    bit 0 of a mask byte, only those whose own flag byte is odd, t0, t1):
 *    NaN, infinities, huge and subnormal numbers, singular and vanishing
 *    motions.  The answer must be one of hit, miss, overlap and invalid
 *    (with a reason), consistent in itself, the same when solved again,
 *    invalid in both orders or neither, and otherwise the mirror of the
 *    other order's bit for bit (judge.h, mirrors_exactly);
 *  - built (otherwise): small dyadic numbers, so that faces, edges and
 *    instants line up exactly: per box, centre and half extent on each
 *    axis (zero extent allowed); per motion, at rest, rigid (a quaternion
 *    path of degree 0 to 2 and a position path of degree 0 to 4, by
 *    boxtoi_motion_rigid) or affine (a 3x4 part of degree 0 to 2 near the
 *    identity); the interval; then a power of 2 from 2^-512 to 2^508 that
 *    multiplies each motion (the same motion, 2^0 past the input's end).
 *    Besides the above, the answer is judged against the reference
 *    (tests/judge.h) in both orders, and boxtoi_overlap_at and
 *    boxtoi_swept_aabb at a few times against the reference's geometry
 *    (at_times_bad).
 */
#include "fuzz-bytes.h"
#include "fuzz-solve.h"
#include "judge.h"
#include "lib-util.h"
#include "ref/ref.h"
#include "tap/basic.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int i16(fuzz_bytes *r)
{
    unsigned lo = fuzz_u8(r);
    return (int)(int16_t)(lo | fuzz_u8(r) << 8);
}

static double f64(fuzz_bytes *r)
{
    uint64_t v = 0;
    double d;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)fuzz_u8(r) << (8 * i);
    memcpy(&d, &v, sizeof d);
    return d;
}

static void built_box(fuzz_bytes *r, boxtoi_box *b)
{
    for (int i = 0; i < 3; i++) {
        double c = fuzz_i8(r) / 32.0, h = fuzz_u8(r) / 128.0;
        b->lo[i] = c - h;
        b->hi[i] = c + h;
    }
}

static void built_motion(fuzz_bytes *r, boxtoi_motion *m)
{
    unsigned kind = fuzz_u8(r) % 4;
    if (kind == 0) {
        boxtoi_motion_identity(m);
    } else if (kind < 3) {
        int qd = fuzz_u8(r) % 3, pd = fuzz_u8(r) % 5;
        double q[3][4], p[5][3];
        for (int k = 0; k <= qd; k++)
            for (int i = 0; i < 4; i++)
                q[k][i] = fuzz_i8(r) / 16.0;
        for (int k = 0; k <= pd; k++)
            for (int i = 0; i < 3; i++)
                p[k][i] = i16(r) / 256.0;
        boxtoi_motion_rigid(m, q, qd, p, pd); /* degree at most 8 */
    } else {
        memset(m, 0, sizeof *m);
        m->degree = fuzz_u8(r) % 3;
        for (int k = 0; k <= m->degree; k++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 4; j++)
                    m->c[k][i][j] = (k == 0 && i == j) + fuzz_i8(r) / (j == 3 ? 8.0 : 64.0);
        m->c[0][3][3] = 1.0;
    }
}

int fuzz_decode(const uint8_t *data, size_t size, boxtoi_query *qp)
{
    fuzz_bytes r = {data, size};
    boxtoi_query q = boxtoi_default_query();
    unsigned mode = fuzz_u8(&r);
    if (mode & 3) {
        built_box(&r, &q.a);
        built_box(&r, &q.b);
        built_motion(&r, &q.motion_a);
        built_motion(&r, &q.motion_b);
        q.t0 = fuzz_i8(&r) / 16.0;
        q.t1 = q.t0 + (1 + fuzz_u8(&r)) / 64.0;
        for (int b = 0; b < 2; b++)
            tu_motion_scale(b ? &q.motion_b : &q.motion_a, ldexp(1.0, 4 * fuzz_i8(&r)));
        *qp = q;
        return FUZZ_BUILT;
    }
    q.flags = mode & 0x80 ? BOXTOI_SKIP_EXIT : 0;
    q.motion_a.degree = fuzz_i8(&r);
    q.motion_b.degree = fuzz_i8(&r);
    for (int i = 0; i < 3; i++) {
        q.a.lo[i] = f64(&r);
        q.a.hi[i] = f64(&r);
        q.b.lo[i] = f64(&r);
        q.b.hi[i] = f64(&r);
    }
    for (int b = 0; b < 2; b++) {
        boxtoi_motion *m = b ? &q.motion_b : &q.motion_a;
        int d = m->degree < 0 ? 0 : m->degree > BOXTOI_MAX_DEGREE ? BOXTOI_MAX_DEGREE : m->degree;
        unsigned sparse = fuzz_u8(&r) & 1;
        memset(m->c, 0, sizeof m->c);
        for (int k = 0; k <= d; k++)
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    if (!sparse || (fuzz_u8(&r) & 1))
                        m->c[k][i][j] = f64(&r);
    }
    q.t0 = f64(&r);
    q.t1 = f64(&r);
    *qp = q;
    return FUZZ_RAW;
}

/* Is the answer consistent in itself?  0, or 1 with why. */
static int self_consistent(const boxtoi_query *q, const boxtoi_result *r, char *why,
                           size_t n)
{
    switch (r->state) {
    case BOXTOI_INVALID:
        if (r->reason == BOXTOI_REASON_NONE) {
            snprintf(why, n, "invalid without a reason");
            return 1;
        }
        return 0;
    case BOXTOI_MISS:
        if (!isnan(r->toi) || !isnan(r->exit) || r->kind != BOXTOI_KIND_NONE) {
            snprintf(why, n, "miss with toi %.17g, exit %.17g, kind %s", r->toi, r->exit,
                     boxtoi_kind_name(r->kind));
            return 1;
        }
        return 0;
    case BOXTOI_OVERLAP:
        if (r->toi != q->t0) {
            snprintf(why, n, "overlap with toi %.17g, not t0", r->toi);
            return 1;
        }
        break;
    case BOXTOI_HIT:
        if (!(r->toi > q->t0 && r->toi <= q->t1)) {
            snprintf(why, n, "hit at %.17g, outside (t0, t1]", r->toi);
            return 1;
        }
        break;
    default:
        snprintf(why, n, "state %s", boxtoi_state_name(r->state));
        return 1;
    }
    double len = sqrt(r->normal[0] * r->normal[0] + r->normal[1] * r->normal[1] +
                      r->normal[2] * r->normal[2]);
    if (!(fabs(len - 1.0) <= 1e-9) || r->kind == BOXTOI_KIND_NONE ||
        !isfinite(r->point[0] + r->point[1] + r->point[2])) {
        snprintf(why, n, "contact: kind %s, normal of length %.17g, point (%g, %g, %g)",
                 boxtoi_kind_name(r->kind), len, r->point[0], r->point[1], r->point[2]);
        return 1;
    }
    if (q->flags & BOXTOI_SKIP_EXIT ? !isnan(r->exit) || r->exit_after_t1
        : r->exit_after_t1 ? !isnan(r->exit) : !(r->exit >= r->toi && r->exit <= q->t1)) {
        snprintf(why, n, "exit %.17g%s, toi %.17g", r->exit,
                 r->exit_after_t1 ? " (after t1)" : "", r->toi);
        return 1;
    }
    return 0;
}

static int judged_bad(const boxtoi_query *q, const check *ck)
{
    return ck->verdict == V_DISAGREE || ck->geom_bad || ck->point_bad ||
           (ck->exit_bad && !(q->flags & BOXTOI_SKIP_EXIT));
}

static int failed(const boxtoi_query *q, const boxtoi_result *r, const boxtoi_result *w,
                  const ref_answer *ra)
{
    print_query(q);
    if (ra) {
        print_answers(r, ra);
        print_answers(w, ra);
    }
    return 1;
}

/*
 * boxtoi_overlap_at and boxtoi_swept_aabb at a few times of a valid query's
 * interval (its ends, a third and a half of the way, toi and exit), against
 * the reference's geometry: overlap_at must say what the reference's signed
 * distance says wherever that is clear of 0 by 1e-9 of the size plus 64 eps
 * of the coordinates, and each box's swept box must hold its corners, as
 * the reference places them, to 16 eps of the magnitudes they are made of.
 */
static int at_times_bad(const boxtoi_query *q, const boxtoi_result *r, char *why, size_t n)
{
    double lo[2][3], hi[2][3], span = q->t1 - q->t0;
    double times[6] = {q->t0, q->t1, q->t0 + span / 3.0, q->t0 + span / 2.0, r->toi, r->exit};
    for (int b = 0; b < 2; b++) {
        boxtoi_reason why_s = boxtoi_swept_aabb(b ? &q->b : &q->a,
                                                b ? &q->motion_b : &q->motion_a, q->t0, q->t1,
                                                lo[b], hi[b]);
        if (why_s) {
            snprintf(why, n, "swept box of %c: %s", b ? 'B' : 'A',
                     boxtoi_reason_message(why_s));
            return 1;
        }
    }
    for (int k = 0; k < 6; k++) {
        double s = times[k];
        if (!(s >= q->t0 && s <= q->t1))
            continue;
        double coord = 0.0;
        for (int b = 0; b < 2; b++) {
            const boxtoi_box *box = b ? &q->b : &q->a;
            double m[4][4];
            ref_motion_at(b ? &q->motion_b : &q->motion_a, s, m);
            for (int v = 0; v < 8; v++) {
                double x[3] = {v & 1 ? box->hi[0] : box->lo[0], v & 2 ? box->hi[1] : box->lo[1],
                               v & 4 ? box->hi[2] : box->lo[2]};
                for (int i = 0; i < 3; i++) {
                    double y = (m[i][0] * x[0] + m[i][1] * x[1] + m[i][2] * x[2] + m[i][3]) /
                               m[3][3];
                    double mag = (fabs(m[i][0] * x[0]) + fabs(m[i][1] * x[1]) +
                                  fabs(m[i][2] * x[2]) + fabs(m[i][3])) /
                                 fabs(m[3][3]);
                    double e = 16.0 * DBL_EPSILON * mag;
                    coord = fmax(coord, fabs(y));
                    if (!(y >= lo[b][i] - e && y <= hi[b][i] + e)) {
                        snprintf(why, n,
                                 "swept box of %c: corner %d at t = %.17g has coordinate %d "
                                 "%.17g outside [%.17g, %.17g]",
                                 b ? 'B' : 'A', v, s, i, y, lo[b][i], hi[b][i]);
                        return 1;
                    }
                }
            }
        }
        double d = ref_signed_distance(q, s);
        if (!(fabs(d) > 1e-9 * ref_size(q, s) + 64.0 * DBL_EPSILON * coord))
            continue;
        int at = boxtoi_overlap_at(q, s, NULL);
        if (at != (d > 0.0)) {
            snprintf(why, n, "overlap_at(%.17g) says %d, the reference's signed distance %.17g",
                     s, at, d);
            return 1;
        }
    }
    return 0;
}

static long judged_count, unjudged_count;

void fuzz_solve_judged(long *judged, long *unjudged)
{
    *judged = judged_count;
    *unjudged = unjudged_count;
}

int fuzz_solve_check(const uint8_t *data, size_t size, char *why, size_t n)
{
    boxtoi_query q;
    int kind = fuzz_decode(data, size, &q);
    boxtoi_result r = boxtoi_solve(&q), again = boxtoi_solve(&q);
    boxtoi_query sq = tu_swapped(&q);
    boxtoi_result w = boxtoi_solve(&sq);
    if (self_consistent(&q, &r, why, n))
        return failed(&q, &r, &w, NULL);
    if (self_consistent(&sq, &w, why, n)) {
        size_t len = strlen(why);
        snprintf(why + len, n - len, " (A and B swapped)");
        return failed(&q, &r, &w, NULL);
    }
    if (again.state != r.state || again.reason != r.reason ||
        (r.state == BOXTOI_HIT && again.toi != r.toi)) {
        snprintf(why, n, "solved twice: %s, then %s", boxtoi_state_name(r.state),
                 boxtoi_state_name(again.state));
        return failed(&q, &r, &w, NULL);
    }
    if ((r.state == BOXTOI_INVALID) != (w.state == BOXTOI_INVALID)) {
        snprintf(why, n, "%s, with A and B swapped %s", boxtoi_state_name(r.state),
                 boxtoi_state_name(w.state));
        return failed(&q, &r, &w, NULL);
    }
    if (!mirrors_exactly(&q, &r, &w, why, n))
        return failed(&q, &r, &w, NULL);
    if (kind == FUZZ_RAW || r.state == BOXTOI_INVALID)
        return 0;
    if (at_times_bad(&q, &r, why, n))
        return failed(&q, &r, &w, NULL);

    static ref_answer ra;
    ref_solve(&q, REL_TOL * ref_size(&q, q.t0), &ra);
    if (!ra.valid || ra.inconsistent) {
        unjudged_count++;
        return 0; /* nothing to judge against */
    }
    judged_count++;
    check ck, cks;
    judge(&q, &r, &ra, &ck);
    judge(&sq, &w, &ra, &cks);
    for (int s = 0; s < 2; s++) {
        const check *c = s ? &cks : &ck;
        if (judged_bad(s ? &sq : &q, c)) {
            snprintf(why, n, "%s%s", s ? "A and B swapped: " : "",
                     c->verdict == V_DISAGREE ? c->why
                     : c->geom_bad || c->point_bad ? c->geom_why : c->exit_why);
            return failed(&q, &r, &w, &ra);
        }
    }
    return 0;
}
