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

/** Highest polynomial degree the solver builds (4 x BOXTOI_MAX_DEGREE). */
#define BXP_MAX_DEGREE 32

/**
 * Hot kernels are written once with the degree as a parameter and expanded,
 * by a switch on the degree, for the degrees met most (rigid motions of
 * degree 2), where the compiler can unroll their loops completely (the
 * library is built with -fpeel-loops where the compiler has it).  The
 * promise that n is in range lets the compiler see that unrolled copies
 * stay inside the arrays.
 */
#define DEGREE_IN_RANGE(n)                                                     \
    do {                                                                       \
        if ((n) < 0 || (n) > BXP_MAX_DEGREE)                                   \
            __builtin_unreachable();                                           \
    } while (0)

/** Binomial coefficient C(n, k) for 0 <= k <= n <= BXP_MAX_DEGREE. */
double bxp_binomial(int n, int k);

/** Horner evaluation of the power form c[0..n] at x. */
double bxp_power_eval(const double *c, int n, double x);

/**
 * Coefficients in s of q(s) = p(t0 + s (t1 - t0)), for p given in power form
 * in t.  out may alias c.
 */
void bxp_power_reparam(const double *c, int n, double t0, double t1,
                       double *out);

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
 * Real roots of p (Bernstein form on [0, 1]) in [a, c], sorted, each
 * reported once: sign changes polished to full precision, and tangential
 * roots (p touches 0 without changing sign) located to about sqrt(eps).
 * Writes at most max roots and returns how many were found (<= n), or -1
 * when p is identically zero (to rounding).
 */
int bxp_bern_roots(const double *b, int n, double a, double c, double *roots,
                   int max);

#endif /* BOXTOI_POLY_H */
