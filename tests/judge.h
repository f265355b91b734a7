/*
 * One answer of boxtoi_solve() judged against the independent reference
 * (tests/ref), as the randomized test and the fuzz target use it.
 *
 * The solver's promise is checked, not bit equality:
 *   1. overlap at t0 agrees unless the boxes touch there within 1e-9 size;
 *   2. a reported time is not later than the reference's first contact by
 *      more than 1e-9 of the interval unless the contact in between stays
 *      within 1e-9 size of penetration (a graze);
 *   3. a miss is only allowed when the reference finds no contact deeper
 *      than 1e-9 size;
 *   4. at the reported time the boxes are within 1e-9 size of touching (or
 *      of what their distance changes by in 1e-9 of the interval, at its
 *      rate there), the contact point lies on both boxes within that
 *      distance, and the
 *      normal is a unit vector, within 1e-9 of the normal of the features
 *      named (computed here from the motions), pointing from A's centre
 *      towards B's there or 1e-6 of the interval before (where a tie takes
 *      its orientation); the features named are where the contact is: a
 *      face named faces the other box, a vertex lies in the contact plane
 *      and each edge of an edge-edge contact passes through the contact
 *      point, within FEATURE_SLACK times that distance;
 *      for an overlap at t0, the point lies in both boxes, the
 *      depth is the reference's penetration depth and the normal one of its
 *      directions, from A to B;
 *   5. with A and B swapped the answer passes the same checks, and it is
 *      the mirror image bit for bit (mirrors_exactly): the library solves
 *      the pair in one order whichever box is A.
 * "1e-9 size" is 1e-9 of the larger box's diagonal plus the rounding of
 * coordinates that boxtoi.h allows, 8 DBL_EPSILON times the largest
 * coordinate of the boxes' swept bounds (all there is for boxes of no
 * size); boxes that no axis parts by more than twice that (the solver's
 * and the reference's evaluations of the poses each rounding by about as
 * much) touch.
 * The end of the first contact (exit) is compared as a secondary check
 * where the contact gets deep at once; elsewhere (a graze, a contact that
 * deepens only later) the boxes must not part before it, nor overlap after
 * it up to the reference's next event (its overlap state cannot change in
 * between).
 */
#ifndef BOXTOI_TEST_JUDGE_H
#define BOXTOI_TEST_JUDGE_H

#include "boxtoi.h"
#include "ref/ref.h"

#include <stddef.h>

#define REL_TOL 1e-9
/* How much farther than the contact itself (check 4's distance) the named
 * vertex and edges may lie from the contact plane and point: a vertex is
 * named for an edge or face lying flat on a face to within the solver's
 * rounding, which tilts it by up to about that much over the box's size. */
#define FEATURE_SLACK 8.0
/* The header promises 1e-9 for the first contact only; the end of the
 * contact is held to a bound EXIT_SCALE times looser (gap or depth between
 * the two exits: 1e-7 of the size, 100 times the coordinates' rounding),
 * and the count beyond the first contact's bound is reported in a
 * diagnostic. */
#define EXIT_REL_TOL 1e-7
#define EXIT_SCALE (EXIT_REL_TOL / REL_TOL)

enum verdict { V_AGREE, V_GRAZE, V_DISAGREE };

typedef struct check {
    int verdict;
    int geom_bad;   /* the reported contact fails check 4 (HIT) */
    int point_bad;  /* the contact of an OVERLAP fails check 4 */
    int exit_checked, exit_bad, exit_strict;
    int exit_held;  /* a contact whose exit is not compared (a graze, or
                       one that deepens only later): held up to the exit */
    double dt;      /* |toi - reference toi| / L for agreeing hits */
    int bad_state;  /* FAILED, UNKNOWN or INVALID */
    char why[256];
    char geom_why[256];
    char exit_why[256];
} check;

/* Checks 1 to 4 and the exit, of the answer res to q; ra is the reference's. */
void judge(const boxtoi_query *q, const boxtoi_result *res, const ref_answer *ra,
           check *ck);

/*
 * Is w, the answer with A and B swapped, r's mirror bit for bit (boxtoi.h:
 * the pair is solved in one order whichever box is A): the same state,
 * times, point and depth, the kind and features exchanged, the normal
 * negated?  Where A and B are the same box on the same motion (the same
 * query either way), w must be r itself.  Answers refused as invalid are
 * not compared (each order reports its own A's reason).  Returns 0 with
 * the first difference in why.
 */
int mirrors_exactly(const boxtoi_query *q, const boxtoi_result *r, const boxtoi_result *w,
                    char *why, size_t n);

/* The query, and the two answers, as TAP diagnostics. */
void print_query(const boxtoi_query *q);
void print_answers(const boxtoi_result *res, const ref_answer *ra);

#endif
