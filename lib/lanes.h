/*
 * Two doubles side by side (internal), for the paths that work on two
 * independent numbers at once.
 */
#ifndef BOXTOI_LANES_H
#define BOXTOI_LANES_H

#include "poly.h"

#include <stdint.h>
#if defined(__GNUC__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__) && !defined(BX_NO_LANES)
/*
 * Two lanes side by side (a GCC and Clang vector extension), used to work
 * on the two boxes of a query at once, or on two entries of one matrix:
 * every operation is the IEEE operation on each lane, the same as on one
 * double.  Other compilers (or -DBX_NO_LANES) take the one-lane paths, with
 * the same results.
 */
#define BX_LANES 1
typedef double bx_v2 __attribute__((vector_size(2 * sizeof(double))));
typedef long long bx_m2 __attribute__((vector_size(2 * sizeof(double))));
/*
 * x < y ? x : y and x > y ? x : y, lane by lane: exactly what the SSE2
 * instructions minpd and maxpd compute (y when the lanes compare false,
 * NaN and equal zeros included).
 */
#ifdef __SSE2__
BXP_INLINE bx_v2 bx_vmin(bx_v2 x, bx_v2 y)
{
    return (bx_v2)_mm_min_pd((__m128d)x, (__m128d)y);
}
BXP_INLINE bx_v2 bx_vmax(bx_v2 x, bx_v2 y)
{
    return (bx_v2)_mm_max_pd((__m128d)x, (__m128d)y);
}
#else
BXP_INLINE bx_v2 bx_vmin(bx_v2 x, bx_v2 y)
{
    bx_m2 m = x < y;
    return (bx_v2)(((bx_m2)x & m) | ((bx_m2)y & ~m));
}
BXP_INLINE bx_v2 bx_vmax(bx_v2 x, bx_v2 y)
{
    bx_m2 m = x > y;
    return (bx_v2)(((bx_m2)x & m) | ((bx_m2)y & ~m));
}
#endif
/* A comparison's result as bits: 1 for lane 0 true, 2 for lane 1. */
BXP_INLINE int bx_bits(bx_m2 m)
{
#ifdef __SSE2__
    return _mm_movemask_pd((__m128d)m);
#else
    return (m[0] ? 1 : 0) | (m[1] ? 2 : 0);
#endif
}
/* Square roots, lane by lane (of numbers >= 0, as sqrt gives them). */
BXP_INLINE bx_v2 bx_vsqrt(bx_v2 x)
{
#ifdef __SSE2__
    return (bx_v2)_mm_sqrt_pd((__m128d)x);
#else
    return (bx_v2){sqrt(x[0]), sqrt(x[1])};
#endif
}
/* fabs, lane by lane: clear the sign bits. */
BXP_INLINE bx_v2 bx_vabs(bx_v2 x)
{
    return (bx_v2)((bx_m2)x & (bx_m2){INT64_MAX, INT64_MAX});
}
#endif

#endif
