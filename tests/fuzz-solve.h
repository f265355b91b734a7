/*
 * The fuzz target of boxtoi_solve(): one input (any bytes) read as a query,
 * solved, and the answer checked (tests/fuzz-solve.c).  Built two ways: as
 * a libFuzzer program (configure --enable-fuzzing, make fuzz) and into
 * test-fuzz-replay, which runs the inputs of tests/data/fuzz/solve.hex in
 * make check.
 */
#ifndef BOXTOI_TEST_FUZZ_SOLVE_H
#define BOXTOI_TEST_FUZZ_SOLVE_H

#include "boxtoi.h"

#include <stddef.h>
#include <stdint.h>

/* The input's kind: bit patterns read as they come, or a query built to make sense. */
enum { FUZZ_RAW = 0, FUZZ_BUILT = 1 };

/* The query an input reads as; returns FUZZ_RAW or FUZZ_BUILT. */
int fuzz_decode(const uint8_t *data, size_t size, boxtoi_query *q);

/*
 * Solve the input's query and check the answer.  Returns 0 when it passes,
 * 1 with what failed in why (and the query and answers as TAP diagnostics).
 */
int fuzz_solve_check(const uint8_t *data, size_t size, char *why, size_t n);

/*
 * Of the built queries that fuzz_solve_check found valid so far, how many
 * the reference judged, and how many it could not (its own answer invalid or
 * inconsistent), which pass unjudged.
 */
void fuzz_solve_judged(long *judged, long *unjudged);

#endif
