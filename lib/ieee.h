/*
 * The arithmetic every part of boxtoi needs, refused at compile time where
 * the options given would drop it; included by the private header of each
 * (the solver's lib/poly.h, the plugin's plugin/internal.h, the command's
 * tools/query.h).
 */
#ifndef BOXTOI_IEEE_H
#define BOXTOI_IEEE_H

/* NaN and infinite inputs are refused, and the solver's bounds assume IEEE 754
   rounding, operations in the order written and signed zeros: options that
   drop any of these would turn answers silently wrong.  GCC names them in
   its macros (-funsafe-math-optimizations and its parts, -fassociative-math,
   -freciprocal-math and -fno-signed-zeros, too); clang names only
   -ffast-math and -ffinite-math-only, and configure refuses the others by
   name. */
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__) \
    || defined(__ASSOCIATIVE_MATH__) || defined(__RECIPROCAL_MATH__) \
    || defined(__NO_SIGNED_ZEROS__)
#error "boxtoi needs IEEE 754 arithmetic: build it without -ffast-math, -Ofast, -ffinite-math-only, -funsafe-math-optimizations or its parts (-fassociative-math, -freciprocal-math, -fno-signed-zeros)"
#endif

#endif
