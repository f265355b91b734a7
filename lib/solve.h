/*
 * The solver's entry point as built (internal).
 *
 * bx_solve is boxtoi_solve of this build of the sources.  Where the library
 * also holds a copy compiled for AVX2 (dispatch.c), boxtoi_solve is the one
 * of the two that the processor can run, picked when the library is loaded;
 * else it is bx_solve itself.
 */
#ifndef BOXTOI_SOLVE_H
#define BOXTOI_SOLVE_H

#include "linknames.h"
#include "boxtoi.h"

boxtoi_result bx_solve(const boxtoi_query *query);

#endif
