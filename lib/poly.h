/*
 * Univariate polynomials for the solver (internal, not installed).
 *
 * Two bases are used on the unit parameter interval s in [0, 1]:
 *  - power form: p(s) = sum_i c[i] s^i;
 *  - Bernstein form: p(s) = sum_i b[i] C(n,i) s^i (1-s)^(n-i).
 * Products are formed in the scaled Bernstein basis s^i (1-s)^(n-i), where a
 * product is a plain convolution of coefficient arrays; sign tests and root
 * isolation use the Bernstein basis, whose coefficients bound the polynomial
 * on the interval (convex hull property).
 *
 * A degree-n polynomial has n + 1 coefficients; arrays passed in hold at
 * least that many.  No function allocates memory.
 */
#ifndef BOXTOI_POLY_H
#define BOXTOI_POLY_H

#include "ieee.h"
#include "linknames.h"

#include <math.h>

/* Each double operation rounded once, to double.  Evaluated in a wider format
   (the x87 unit of 32-bit x86: double_t is long double) it is rounded twice,
   and the error-free sums and products the solver forms carry errors; such a
   build missed contacts.  configure adds -msse2 -mfpmath=sse where needed. */
_Static_assert(sizeof(double_t) == sizeof(double),
               "the boxtoi solver needs double arithmetic evaluated in double: "
               "on 32-bit x86 build it with -msse2 -mfpmath=sse");

/** Highest polynomial degree the solver builds (4 x BOXTOI_MAX_DEGREE). */
#define BXP_MAX_DEGREE 32

/**
 * Hot kernels are written once with the degree as a parameter and expanded,
 * by a switch on the degree, for the degrees met most (rigid motions of
 * degree 2), where the compiler can unroll their loops completely (the
 * library is built with -fpeel-loops where the compiler has it): BXP_INLINE
 * kernels called with constant degrees.  The promise that n is in range
 * lets the compiler see that unrolled copies stay inside the arrays.
 */
#if defined(__GNUC__)
#define BXP_INLINE static inline __attribute__((always_inline))
#define DEGREE_IN_RANGE(n)                                                     \
    do {                                                                       \
        if ((n) < 0 || (n) > BXP_MAX_DEGREE)                                   \
            __builtin_unreachable();                                           \
    } while (0)
#else
#define BXP_INLINE static inline
#define DEGREE_IN_RANGE(n) ((void)0)
#endif

/** Double-double: s + e = a + b exactly (TwoSum). */
static inline void bxp_two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, z = x - a;
    *s = x;
    *e = (a - (x - z)) + (b - z);
}

/** (hi, lo) += t (bh + bl), in double-double (the product's error from fma). */
static inline void bxp_dd_mul_add(double *hi, double *lo, double t, double bh, double bl)
{
    double p = t * bh, pe = fma(t, bh, -p) + t * bl, s, e;
    bxp_two_sum(*hi, p, &s, &e);
    e += *lo + pe;
    bxp_two_sum(s, e, hi, lo);
}

/**
 * Pascal's triangle up to row BXP_MAX_DEGREE (exact in double).  Defined
 * here, not only in poly.c, so that every file indexing it with a constant
 * degree gets the numbers folded into constants.
 */
static const double bxp_binomial_table[BXP_MAX_DEGREE + 1][BXP_MAX_DEGREE + 1] = {
    {1.0},
    {1.0, 1.0},
    {1.0, 2.0, 1.0},
    {1.0, 3.0, 3.0, 1.0},
    {1.0, 4.0, 6.0, 4.0, 1.0},
    {1.0, 5.0, 10.0, 10.0, 5.0, 1.0},
    {1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0},
    {1.0, 7.0, 21.0, 35.0, 35.0, 21.0, 7.0, 1.0},
    {1.0, 8.0, 28.0, 56.0, 70.0, 56.0, 28.0, 8.0, 1.0},
    {1.0, 9.0, 36.0, 84.0, 126.0, 126.0, 84.0, 36.0, 9.0, 1.0},
    {1.0, 10.0, 45.0, 120.0, 210.0, 252.0, 210.0, 120.0, 45.0, 10.0, 1.0},
    {1.0, 11.0, 55.0, 165.0, 330.0, 462.0, 462.0, 330.0, 165.0, 55.0, 11.0, 1.0},
    {1.0, 12.0, 66.0, 220.0, 495.0, 792.0, 924.0, 792.0, 495.0, 220.0, 66.0, 12.0, 1.0},
    {1.0, 13.0, 78.0, 286.0, 715.0, 1287.0, 1716.0, 1716.0, 1287.0, 715.0, 286.0, 78.0, 13.0, 1.0},
    {1.0, 14.0, 91.0, 364.0, 1001.0, 2002.0, 3003.0, 3432.0, 3003.0, 2002.0, 1001.0, 364.0, 91.0, 14.0, 1.0},
    {1.0, 15.0, 105.0, 455.0, 1365.0, 3003.0, 5005.0, 6435.0, 6435.0, 5005.0, 3003.0, 1365.0, 455.0, 105.0, 15.0, 1.0},
    {1.0, 16.0, 120.0, 560.0, 1820.0, 4368.0, 8008.0, 11440.0, 12870.0, 11440.0, 8008.0, 4368.0, 1820.0, 560.0, 120.0, 16.0, 1.0},
    {1.0, 17.0, 136.0, 680.0, 2380.0, 6188.0, 12376.0, 19448.0, 24310.0, 24310.0, 19448.0, 12376.0, 6188.0, 2380.0, 680.0, 136.0, 17.0, 1.0},
    {1.0, 18.0, 153.0, 816.0, 3060.0, 8568.0, 18564.0, 31824.0, 43758.0, 48620.0, 43758.0, 31824.0, 18564.0, 8568.0, 3060.0, 816.0, 153.0, 18.0, 1.0},
    {1.0, 19.0, 171.0, 969.0, 3876.0, 11628.0, 27132.0, 50388.0, 75582.0, 92378.0, 92378.0, 75582.0, 50388.0, 27132.0, 11628.0, 3876.0, 969.0, 171.0, 19.0, 1.0},
    {1.0, 20.0, 190.0, 1140.0, 4845.0, 15504.0, 38760.0, 77520.0, 125970.0, 167960.0, 184756.0, 167960.0, 125970.0, 77520.0, 38760.0, 15504.0, 4845.0, 1140.0, 190.0, 20.0, 1.0},
    {1.0, 21.0, 210.0, 1330.0, 5985.0, 20349.0, 54264.0, 116280.0, 203490.0, 293930.0, 352716.0, 352716.0, 293930.0, 203490.0, 116280.0, 54264.0, 20349.0, 5985.0, 1330.0, 210.0, 21.0, 1.0},
    {1.0, 22.0, 231.0, 1540.0, 7315.0, 26334.0, 74613.0, 170544.0, 319770.0, 497420.0, 646646.0, 705432.0, 646646.0, 497420.0, 319770.0, 170544.0, 74613.0, 26334.0, 7315.0, 1540.0, 231.0, 22.0, 1.0},
    {1.0, 23.0, 253.0, 1771.0, 8855.0, 33649.0, 100947.0, 245157.0, 490314.0, 817190.0, 1144066.0, 1352078.0, 1352078.0, 1144066.0, 817190.0, 490314.0, 245157.0, 100947.0, 33649.0, 8855.0, 1771.0, 253.0, 23.0, 1.0},
    {1.0, 24.0, 276.0, 2024.0, 10626.0, 42504.0, 134596.0, 346104.0, 735471.0, 1307504.0, 1961256.0, 2496144.0, 2704156.0, 2496144.0, 1961256.0, 1307504.0, 735471.0, 346104.0, 134596.0, 42504.0, 10626.0, 2024.0, 276.0, 24.0, 1.0},
    {1.0, 25.0, 300.0, 2300.0, 12650.0, 53130.0, 177100.0, 480700.0, 1081575.0, 2042975.0, 3268760.0, 4457400.0, 5200300.0, 5200300.0, 4457400.0, 3268760.0, 2042975.0, 1081575.0, 480700.0, 177100.0, 53130.0, 12650.0, 2300.0, 300.0, 25.0, 1.0},
    {1.0, 26.0, 325.0, 2600.0, 14950.0, 65780.0, 230230.0, 657800.0, 1562275.0, 3124550.0, 5311735.0, 7726160.0, 9657700.0, 10400600.0, 9657700.0, 7726160.0, 5311735.0, 3124550.0, 1562275.0, 657800.0, 230230.0, 65780.0, 14950.0, 2600.0, 325.0, 26.0, 1.0},
    {1.0, 27.0, 351.0, 2925.0, 17550.0, 80730.0, 296010.0, 888030.0, 2220075.0, 4686825.0, 8436285.0, 13037895.0, 17383860.0, 20058300.0, 20058300.0, 17383860.0, 13037895.0, 8436285.0, 4686825.0, 2220075.0, 888030.0, 296010.0, 80730.0, 17550.0, 2925.0, 351.0, 27.0, 1.0},
    {1.0, 28.0, 378.0, 3276.0, 20475.0, 98280.0, 376740.0, 1184040.0, 3108105.0, 6906900.0, 13123110.0, 21474180.0, 30421755.0, 37442160.0, 40116600.0, 37442160.0, 30421755.0, 21474180.0, 13123110.0, 6906900.0, 3108105.0, 1184040.0, 376740.0, 98280.0, 20475.0, 3276.0, 378.0, 28.0, 1.0},
    {1.0, 29.0, 406.0, 3654.0, 23751.0, 118755.0, 475020.0, 1560780.0, 4292145.0, 10015005.0, 20030010.0, 34597290.0, 51895935.0, 67863915.0, 77558760.0, 77558760.0, 67863915.0, 51895935.0, 34597290.0, 20030010.0, 10015005.0, 4292145.0, 1560780.0, 475020.0, 118755.0, 23751.0, 3654.0, 406.0, 29.0, 1.0},
    {1.0, 30.0, 435.0, 4060.0, 27405.0, 142506.0, 593775.0, 2035800.0, 5852925.0, 14307150.0, 30045015.0, 54627300.0, 86493225.0, 119759850.0, 145422675.0, 155117520.0, 145422675.0, 119759850.0, 86493225.0, 54627300.0, 30045015.0, 14307150.0, 5852925.0, 2035800.0, 593775.0, 142506.0, 27405.0, 4060.0, 435.0, 30.0, 1.0},
    {1.0, 31.0, 465.0, 4495.0, 31465.0, 169911.0, 736281.0, 2629575.0, 7888725.0, 20160075.0, 44352165.0, 84672315.0, 141120525.0, 206253075.0, 265182525.0, 300540195.0, 300540195.0, 265182525.0, 206253075.0, 141120525.0, 84672315.0, 44352165.0, 20160075.0, 7888725.0, 2629575.0, 736281.0, 169911.0, 31465.0, 4495.0, 465.0, 31.0, 1.0},
    {1.0, 32.0, 496.0, 4960.0, 35960.0, 201376.0, 906192.0, 3365856.0, 10518300.0, 28048800.0, 64512240.0, 129024480.0, 225792840.0, 347373600.0, 471435600.0, 565722720.0, 601080390.0, 565722720.0, 471435600.0, 347373600.0, 225792840.0, 129024480.0, 64512240.0, 28048800.0, 10518300.0, 3365856.0, 906192.0, 201376.0, 35960.0, 4960.0, 496.0, 32.0, 1.0},
};

/** Binomial coefficient C(n, k) for 0 <= k <= n <= BXP_MAX_DEGREE. */
double bxp_binomial(int n, int k);

/** Largest absolute coefficient of a[0..n] (0 when n < 0). */
static inline double bxp_max_abs(const double *a, int n)
{
    double v = 0.0;
    for (int i = 0; i <= n; i++) {
        double x = fabs(a[i]);
        v = x > v ? x : v;
    }
    return v;
}

/** Horner evaluation of the power form c[0..n] at x. */
double bxp_power_eval(const double *c, int n, double x);

/**
 * Coefficients in s of q(s) = p(t0 + s (t1 - t0)), for p given in power form
 * in t.  out may alias c.
 */
void bxp_power_reparam(const double *c, int n, double t0, double t1,
                       double *out);

/**
 * bxp_power_reparam of c + c_lo, coefficients given in double-double (c_lo
 * NULL: zeros), then bxp_power_to_sbern, all in double-double, rounded once.
 */
void bxp_power_reparam_sbern_dd(const double *c, const double *c_lo, int n, double t0,
                                double t1, double *out);

/**
 * Power form on [0, 1] to scaled Bernstein form (coefficient of
 * s^i (1-s)^(n-i)).  out may alias c.
 */
void bxp_power_to_sbern(const double *c, int n, double *out);

/** Scaled Bernstein to Bernstein form: divide by C(n, i).  out may alias in. */
void bxp_sbern_to_bern(const double *sb, int n, double *out);

/** Product in scaled Bernstein form: out[0..n+m] = a[0..n] * b[0..m]. */
void bxp_sbern_mul(const double *a, int n, const double *b, int m, double *out);

/**
 * out += k * a * b in scaled Bernstein form (out has degree n + m; it must
 * not overlap a or b).
 */
void bxp_sbern_muladd(double *out, double k, const double *a, int n,
                      const double *b, int m);

/** Degree elevation in scaled Bernstein form: multiply by (s + (1-s))^e. */
void bxp_sbern_elevate(const double *a, int n, int e, double *out);

/** Evaluate a scaled Bernstein polynomial at s (any real s). */
double bxp_sbern_eval(const double *sb, int n, double s);

/** Evaluate a Bernstein polynomial at s in [0, 1] (de Casteljau). */
double bxp_bern_eval(const double *b, int n, double s);

/**
 * Restrict a Bernstein polynomial on [0, 1] to [a, c] within it: out holds
 * the Bernstein coefficients of p(a + u (c - a)), u in [0, 1].
 */
void bxp_bern_restrict(const double *b, int n, double a, double c, double *out);

/** bxp_bern_restrict of two polynomials of degree n at once (same results). */
void bxp_bern_restrict2(const double *b1, const double *b2, int n, double a,
                        double c, double *out1, double *out2);

/**
 * The least s in [a, c] at which p(s) > 0 (want_positive = 1) or p(s) <= 0
 * (want_positive = 0), for p in Bernstein form on [0, 1], to within about
 * 1e-15 of the interval.  Tangential touches (even-multiplicity roots) count
 * when they reach the wanted side within rounding.  Returns 1 and sets *s when
 * there is such a point, 0 when p stays on the other side over all of [a, c].
 * Work is bounded: subdivision depth at most 60.
 */
int bxp_bern_first(const double *b, int n, double a, double c,
                   int want_positive, double *s);

/**
 * bxp_bern_first with an explicit rounding level: coefficients of a piece no
 * larger than noise in magnitude count as zero (a touch).
 */
int bxp_bern_first_tol(const double *b, int n, double a, double c,
                       int want_positive, double noise, double *s);

/**
 * A rounding level that depends on where the polynomial is looked at:
 * at(ctx, lo, hi) bounds the rounding error of its values on [lo, hi].
 */
typedef struct bxp_local_noise {
    double (*at)(void *ctx, double lo, double hi);
    void *ctx;
} bxp_local_noise;

/**
 * bxp_bern_first_tol where a piece [lo, hi] counts as zero only when its
 * coefficients are within both noise and local->at(ctx, lo, hi) (asked only
 * of pieces within noise).  local may be NULL.
 */
int bxp_bern_first_local(const double *b, int n, double a, double c,
                         int want_positive, double noise,
                         const bxp_local_noise *local, double *s);

/**
 * Real roots of p (Bernstein form on [0, 1]) in [a, c], sorted, each
 * reported once: sign changes polished to full precision, and tangential
 * roots (p touches 0 without changing sign) located to about sqrt(eps).
 * Writes at most max roots and returns how many were found (<= n), or -1
 * when p is identically zero (to rounding).
 */
int bxp_bern_roots(const double *b, int n, double a, double c, double *roots,
                   int max);

#endif /* BOXTOI_POLY_H */
