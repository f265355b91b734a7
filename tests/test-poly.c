/*
 * Tests of the internal polynomial layer (lib/poly.h): binomials, Horner,
 * reparametrisation, the power -> scaled Bernstein -> Bernstein conversions,
 * products, degree elevation, restriction, and the two root searches
 * (bxp_bern_first, bxp_bern_roots).
 *
 * References are computed here independently: polynomials are built from
 * chosen roots by convolving linear factors in long double, values come from
 * direct sums of the basis functions, and expected roots are the chosen ones.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib-util.h"
#include "poly.h"
#include "tap/basic.h"

#define EPS 2.220446049250313e-16
#define NMAX BXP_MAX_DEGREE

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static double urand(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

/* Power form by Horner in long double. */
static long double ref_power(const double *c, int n, long double x)
{
    long double v = 0.0L;
    for (int i = n; i >= 0; i--)
        v = v * x + c[i];
    return v;
}

/* Scale of the power form's terms at x: sum |c_i| |x|^i. */
static double power_scale(const double *c, int n, double x)
{
    double v = 0.0;
    for (int i = n; i >= 0; i--)
        v = v * fabs(x) + fabs(c[i]);
    return v;
}

/* Direct sum of a scaled Bernstein form: sum sb_i s^i (1-s)^(n-i). */
static long double ref_sbern(const double *sb, int n, long double s)
{
    long double v = 0.0L;
    for (int i = 0; i <= n; i++)
        v += sb[i] * powl(s, i) * powl(1.0L - s, n - i);
    return v;
}

/* sum |sb_i| |s^i (1-s)^(n-i)|: the magnitude rounding errors scale with. */
static double sbern_scale(const double *sb, int n, double s)
{
    double v = 0.0;
    for (int i = 0; i <= n; i++)
        v += fabs(sb[i]) * fabs(pow(s, i) * pow(1.0 - s, n - i));
    return v;
}

/* Direct sum of a Bernstein form: sum b_i C(n,i) s^i (1-s)^(n-i). */
static long double ref_bern(const double *b, int n, long double s)
{
    long double v = 0.0L;
    for (int i = 0; i <= n; i++)
        v += b[i] * tu_binom(n, i) * powl(s, i) * powl(1.0L - s, n - i);
    return v;
}

static double bern_scale(const double *b, int n, double s)
{
    double v = 0.0;
    for (int i = 0; i <= n; i++)
        v += fabs(b[i]) * (double)tu_binom(n, i) * pow(s, i) * pow(1.0 - s, n - i);
    return v;
}

/*
 * Bernstein coefficients (degree n) of prod_j (s - r_j) * lead, built by
 * convolving the scaled Bernstein forms of the linear factors,
 * s - r = (1-r) s + (-r) (1-s), in long double, then dividing by C(n, i).
 */
static void bern_from_roots(const double *r, int n, double lead, double *out)
{
    long double sb[NMAX + 1] = {0};
    sb[0] = lead;
    for (int j = 0; j < n; j++) {
        long double nb[NMAX + 1] = {0};
        for (int i = 0; i <= j; i++) {
            nb[i] += sb[i] * (long double)(-r[j]);
            nb[i + 1] += sb[i] * (1.0L - (long double)r[j]);
        }
        memcpy(sb, nb, sizeof sb);
    }
    for (int i = 0; i <= n; i++)
        out[i] = (double)(sb[i] / tu_binom(n, i));
}

static void random_poly(double *c, int n)
{
    for (int i = 0; i <= n; i++)
        c[i] = urand(-1.0, 1.0);
}

static void test_binomial(void)
{
    int bad = 0;
    for (int n = 0; n <= NMAX; n++)
        for (int k = 0; k <= n; k++)
            if (bxp_binomial(n, k) != (double)tu_binom(n, k)) {
                if (bad++ < 3)
                    diag("C(%d,%d): got %.17g want %.17g", n, k,
                         bxp_binomial(n, k), (double)tu_binom(n, k));
            }
    ok(bad == 0, "binomial C(n,k) exact for n <= %d", NMAX);
    is_double(bxp_binomial(32, 16), 601080390.0, 0.0, "C(32,16)");
}

static void test_power_eval(void)
{
    double c[4] = {1.0, 2.0, 3.0, -1.0};
    is_double(bxp_power_eval(c, 3, 2.0), 1 + 4 + 12 - 8, 0.0, "Horner at 2");
    is_double(bxp_power_eval(c, 0, 5.0), 1.0, 0.0, "Horner degree 0");
    double worst = 0.0;
    for (int trial = 0; trial < 200; trial++) {
        double p[NMAX + 1];
        int n = trial % (NMAX + 1);
        random_poly(p, n);
        double x = urand(-2.0, 2.0);
        double err = fabs(bxp_power_eval(p, n, x) - (double)ref_power(p, n, x)) /
                     power_scale(p, n, x);
        if (err > worst)
            worst = err;
    }
    ok(worst < 64 * EPS, "Horner matches long double (rel err %.3g)", worst);
}

static void test_reparam(void)
{
    static const double iv[][2] = {
        {0.0, 1.0}, {2.5, 3.5}, {-1.0, 2.0}, {0.25, 0.3}, {1e3, 1e3 + 1.0}, {3.0, 3.0}};
    double worst = 0.0, worst_alias = 0.0;
    for (size_t k = 0; k < sizeof iv / sizeof iv[0]; k++)
        for (int n = 0; n <= 12; n++) {
            double c[NMAX + 1], q[NMAX + 1], qa[NMAX + 1];
            random_poly(c, n);
            double t0 = iv[k][0], t1 = iv[k][1];
            bxp_power_reparam(c, n, t0, t1, q);
            memcpy(qa, c, sizeof qa);
            bxp_power_reparam(qa, n, t0, t1, qa);
            for (int j = 0; j <= 20; j++) {
                double s = j / 20.0;
                long double t = t0 + (long double)s * (t1 - t0);
                double want = (double)ref_power(c, n, t);
                /* Rounding in the expansion scales with the terms' sizes at
                 * |t0| + |t1 - t0|. */
                double scale = power_scale(c, n, fabs(t0) + fabs(t1 - t0)) + 1e-300;
                double e1 = fabs(bxp_power_eval(q, n, s) - want) / scale;
                double e2 = fabs(bxp_power_eval(qa, n, s) - want) / scale;
                if (e1 > worst)
                    worst = e1;
                if (e2 > worst_alias)
                    worst_alias = e2;
            }
        }
    ok(worst < 1e-13, "reparam q(s) = p(t0 + s (t1 - t0)) (rel err %.3g)", worst);
    ok(worst_alias < 1e-13, "reparam in place (rel err %.3g)", worst_alias);

    /* Exact small case: p(t) = t^2 on [1, 3]: q(s) = (1 + 2s)^2 = 1 + 4s + 4s^2. */
    double c[3] = {0.0, 0.0, 1.0}, q[3];
    bxp_power_reparam(c, 2, 1.0, 3.0, q);
    ok(q[0] == 1.0 && q[1] == 4.0 && q[2] == 4.0,
       "reparam of t^2 on [1,3] is 1 + 4s + 4s^2 (got %.17g %.17g %.17g)", q[0],
       q[1], q[2]);
}

static void test_conversions(void)
{
    /* Exact small cases. */
    double one[3] = {1.0, 0.0, 0.0}, sb[NMAX + 1], b[NMAX + 1];
    bxp_power_to_sbern(one, 2, sb);
    ok(sb[0] == 1.0 && sb[1] == 2.0 && sb[2] == 1.0,
       "1 as degree 2 scaled Bernstein is [1 2 1] (got %.17g %.17g %.17g)", sb[0],
       sb[1], sb[2]);
    bxp_sbern_to_bern(sb, 2, b);
    ok(b[0] == 1.0 && b[1] == 1.0 && b[2] == 1.0, "... and Bernstein [1 1 1]");
    double lin[2] = {0.0, 1.0};
    bxp_power_to_sbern(lin, 1, sb);
    ok(sb[0] == 0.0 && sb[1] == 1.0, "s is scaled Bernstein [0 1]");
    /* s^2 at degree 3: s^2 (s + (1-s)) -> [0 0 1 1]; Bernstein [0 0 1/3 1]. */
    double sq[4] = {0.0, 0.0, 1.0, 0.0};
    bxp_power_to_sbern(sq, 3, sb);
    ok(sb[0] == 0.0 && sb[1] == 0.0 && fabs(sb[2] - 1.0) < 1e-15 &&
           fabs(sb[3] - 1.0) < 1e-15,
       "s^2 at degree 3 is scaled Bernstein [0 0 1 1]");
    bxp_sbern_to_bern(sb, 3, b);
    ok(fabs(b[2] - 1.0 / 3.0) < 1e-15 && fabs(b[3] - 1.0) < 1e-15,
       "... and Bernstein [0 0 1/3 1]");

    /* Random polynomials of every degree, many points. */
    double wsb = 0.0, wsb_direct = 0.0, wb = 0.0, wb_direct = 0.0, walias = 0.0;
    double wout = 0.0;
    for (int n = 0; n <= NMAX; n++)
        for (int trial = 0; trial < 4; trial++) {
            double c[NMAX + 1], s_b[NMAX + 1], bb[NMAX + 1], alias[NMAX + 1];
            random_poly(c, n);
            bxp_power_to_sbern(c, n, s_b);
            bxp_sbern_to_bern(s_b, n, bb);
            memcpy(alias, s_b, sizeof alias);
            bxp_sbern_to_bern(alias, n, alias);
            for (int i = 0; i <= n; i++) {
                double e = fabs(alias[i] - bb[i]);
                if (e > walias)
                    walias = e;
            }
            for (int j = 0; j <= 64; j++) {
                double s = j / 64.0;
                double want = (double)ref_power(c, n, s);
                double scale = power_scale(c, n, s) + sbern_scale(s_b, n, s);
                double e;
                e = fabs(bxp_sbern_eval(s_b, n, s) - want) / scale;
                if (e > wsb)
                    wsb = e;
                e = fabs((double)ref_sbern(s_b, n, s) - want) / scale;
                if (e > wsb_direct)
                    wsb_direct = e;
                e = fabs(bxp_bern_eval(bb, n, s) - want) / scale;
                if (e > wb)
                    wb = e;
                e = fabs((double)ref_bern(bb, n, s) - want) / scale;
                if (e > wb_direct)
                    wb_direct = e;
            }
            /* scaled Bernstein evaluation outside [0, 1] */
            static const double outside[] = {-0.5, 1.7, -2.0};
            for (int j = 0; j < 3; j++) {
                double s = outside[j];
                double want = (double)ref_sbern(s_b, n, s);
                double e = fabs(bxp_sbern_eval(s_b, n, s) - want) /
                           (sbern_scale(s_b, n, s) + 1e-300);
                if (e > wout)
                    wout = e;
            }
        }
    ok(wsb < 1e-13, "sbern_eval(power_to_sbern(p)) = p on [0,1] (rel err %.3g)", wsb);
    ok(wsb_direct < 1e-13,
       "power_to_sbern coefficients sum back to p directly (rel err %.3g)", wsb_direct);
    ok(wb < 1e-13, "bern_eval(sbern_to_bern(...)) = p on [0,1] (rel err %.3g)", wb);
    ok(wb_direct < 1e-13, "Bernstein coefficients sum back to p directly (rel err %.3g)",
       wb_direct);
    ok(walias == 0.0, "sbern_to_bern in place gives the same coefficients");
    ok(wout < 1e-12, "sbern_eval outside [0,1] matches the direct sum (rel err %.3g)",
       wout);
}

static void test_products(void)
{
    double wmul = 0.0, wmuladd = 0.0, welev = 0.0, wpow = 0.0;
    for (int trial = 0; trial < 60; trial++) {
        int n = trial % 17, m = (trial * 7) % 17;
        double pa[NMAX + 1], pb[NMAX + 1], sa[NMAX + 1], sbb[NMAX + 1];
        double prod[NMAX + 1], acc[NMAX + 1], acc0[NMAX + 1];
        double ppow[2 * NMAX + 1];
        random_poly(pa, n);
        random_poly(pb, m);
        bxp_power_to_sbern(pa, n, sa);
        bxp_power_to_sbern(pb, m, sbb);
        bxp_sbern_mul(sa, n, sbb, m, prod);
        /* the product in power form, by plain convolution */
        memset(ppow, 0, sizeof ppow);
        for (int i = 0; i <= n; i++)
            for (int j = 0; j <= m; j++)
                ppow[i + j] += pa[i] * pb[j];
        /* muladd onto a random starting polynomial of degree n + m */
        for (int i = 0; i <= n + m; i++)
            acc0[i] = urand(-1.0, 1.0);
        memcpy(acc, acc0, sizeof acc);
        double k = urand(-3.0, 3.0);
        bxp_sbern_muladd(acc, k, sa, n, sbb, m);
        int e = trial % 9;
        double elev[NMAX + 1 + 8];
        if (n + e <= NMAX)
            bxp_sbern_elevate(sa, n, e, elev);
        for (int j = 0; j <= 40; j++) {
            double s = j / 40.0;
            double va = (double)ref_power(pa, n, s), vb = (double)ref_power(pb, m, s);
            double scale = (power_scale(pa, n, s) + sbern_scale(sa, n, s)) *
                           (power_scale(pb, m, s) + sbern_scale(sbb, m, s));
            double got = (double)ref_sbern(prod, n + m, s);
            double err = fabs(got - va * vb) / scale;
            if (err > wmul)
                wmul = err;
            err = fabs(got - (double)ref_power(ppow, n + m, s)) / scale;
            if (err > wpow)
                wpow = err;
            double want = (double)ref_sbern(acc0, n + m, s) + k * va * vb;
            err = fabs((double)ref_sbern(acc, n + m, s) - want) /
                  (sbern_scale(acc0, n + m, s) + fabs(k) * scale);
            if (err > wmuladd)
                wmuladd = err;
            if (n + e <= NMAX) {
                err = fabs((double)ref_sbern(elev, n + e, s) - va) /
                      (power_scale(pa, n, s) + sbern_scale(sa, n, s));
                if (err > welev)
                    welev = err;
            }
        }
    }
    ok(wmul < 1e-13, "sbern_mul = product of the values (rel err %.3g)", wmul);
    ok(wpow < 1e-13, "sbern_mul = power-form product (rel err %.3g)", wpow);
    ok(wmuladd < 1e-13, "sbern_muladd adds k a b (rel err %.3g)", wmuladd);
    ok(welev < 1e-13, "sbern_elevate keeps the values (rel err %.3g)", welev);

    /* Exact: (1-s) * s = scaled Bernstein [1 0] * [0 1] = [0 1 0]. */
    double a[2] = {1.0, 0.0}, b[2] = {0.0, 1.0}, p[3];
    bxp_sbern_mul(a, 1, b, 1, p);
    ok(p[0] == 0.0 && p[1] == 1.0 && p[2] == 0.0, "(1-s) s is [0 1 0]");
    /* elevate [1] by 3: (s + 1 - s)^3 = [1 3 3 1] */
    double one[1] = {1.0}, el[4];
    bxp_sbern_elevate(one, 0, 3, el);
    ok(el[0] == 1.0 && el[1] == 3.0 && el[2] == 3.0 && el[3] == 1.0,
       "elevate 1 by 3 is [1 3 3 1]");
}

static void test_restrict(void)
{
    static const double iv[][2] = {
        {0.0, 1.0}, {0.2, 0.7}, {0.0, 0.5}, {0.5, 1.0}, {0.9, 1.0}, {0.3, 0.3 + 1e-6}};
    double worst = 0.0;
    for (size_t k = 0; k < sizeof iv / sizeof iv[0]; k++)
        for (int n = 0; n <= NMAX; n += 4) {
            double c[NMAX + 1], sb[NMAX + 1], b[NMAX + 1], r[NMAX + 1];
            random_poly(c, n);
            bxp_power_to_sbern(c, n, sb);
            bxp_sbern_to_bern(sb, n, b);
            double a = iv[k][0], cc = iv[k][1];
            bxp_bern_restrict(b, n, a, cc, r);
            for (int j = 0; j <= 20; j++) {
                double u = j / 20.0;
                double s = a + u * (cc - a);
                double want = (double)ref_bern(b, n, s);
                double err = fabs((double)ref_bern(r, n, u) - want) /
                             (bern_scale(b, n, s) + 1e-300);
                if (err > worst)
                    worst = err;
            }
        }
    ok(worst < 1e-12, "bern_restrict: r(u) = p(a + u (c - a)) (rel err %.3g)", worst);

    /* bxp_bern_restrict2: each output bit for bit bern_restrict's, also
       with the second written over its input */
    int differ = 0, pairs = 0;
    for (size_t k = 0; k < sizeof iv / sizeof iv[0]; k++)
        for (int n = 0; n <= NMAX; n++) {
            double c1[NMAX + 1], c2[NMAX + 1], b1[NMAX + 1], b2[NMAX + 1], sb[NMAX + 1];
            double r1[NMAX + 1], r2[NMAX + 1], o1[NMAX + 1], o2[NMAX + 1];
            random_poly(c1, n);
            random_poly(c2, n);
            bxp_power_to_sbern(c1, n, sb);
            bxp_sbern_to_bern(sb, n, b1);
            bxp_power_to_sbern(c2, n, sb);
            bxp_sbern_to_bern(sb, n, b2);
            double a = iv[k][0], cc = iv[k][1];
            bxp_bern_restrict(b1, n, a, cc, r1);
            bxp_bern_restrict(b2, n, a, cc, r2);
            bxp_bern_restrict2(b1, b2, n, a, cc, o1, o2);
            int bad = memcmp(o1, r1, (size_t)(n + 1) * sizeof *o1) != 0 ||
                      memcmp(o2, r2, (size_t)(n + 1) * sizeof *o2) != 0;
            bxp_bern_restrict2(b1, b2, n, a, cc, o1, b2);
            bad |= memcmp(o1, r1, (size_t)(n + 1) * sizeof *o1) != 0 ||
                   memcmp(b2, r2, (size_t)(n + 1) * sizeof *b2) != 0;
            if (bad && differ++ < 3)
                diag("bern_restrict2 differs: degree %d on [%g, %g]", n, a, cc);
            pairs++;
        }
    ok(differ == 0, "bern_restrict2: both restrictions those of bern_restrict bit for bit, "
       "the second also in place (%d of %d pairs differ)", differ, pairs);
}

/* bxp_bern_first expecting a point near want (tol), or none (want NaN). */
static void check_first(const char *name, const double *b, int n, double a, double c,
                        int pos, double want, double tol)
{
    double s = -1.0;
    int found = bxp_bern_first(b, n, a, c, pos, &s);
    if (isnan(want)) {
        if (!ok(found == 0, "first %s: %s on [%g,%g]: none", pos ? ">0" : "<=0", name,
                a, c))
            diag("found s = %.17g", s);
        return;
    }
    if (!ok(found == 1 && fabs(s - want) <= tol, "first %s: %s on [%g,%g]: %.17g",
            pos ? ">0" : "<=0", name, a, c, want))
        diag("found %d s = %.17g want %.17g (err %.3g, tol %.3g)", found, s, want,
             fabs(s - want), tol);
}

static void test_first(void)
{
    double b[NMAX + 1];
    double r2[2] = {0.3, 0.6};
    bern_from_roots(r2, 2, 1.0, b);
    check_first("(s-.3)(s-.6)", b, 2, 0.0, 1.0, 1, 0.0, 0.0);
    check_first("(s-.3)(s-.6)", b, 2, 0.0, 1.0, 0, 0.3, 1e-13);
    check_first("(s-.3)(s-.6)", b, 2, 0.35, 1.0, 1, 0.6, 1e-13);
    check_first("(s-.3)(s-.6)", b, 2, 0.35, 1.0, 0, 0.35, 0.0);
    check_first("(s-.3)(s-.6)", b, 2, 0.35, 0.55, 1, NAN, 0.0);
    check_first("(s-.3)(s-.6)", b, 2, 0.7, 1.0, 0, NAN, 0.0);
    check_first("(s-.3)(s-.6)", b, 2, 0.1, 0.2, 0, NAN, 0.0);
    check_first("(s-.3)(s-.6)", b, 2, 0.1, 0.3, 0, 0.3, 1e-13);

    double lin[2];
    double r1 = 0.3;
    bern_from_roots(&r1, 1, 1.0, lin);
    check_first("s-.3", lin, 1, 0.0, 1.0, 0, 0.0, 0.0);
    check_first("s-.3", lin, 1, 0.0, 1.0, 1, 0.3, 1e-15);
    bern_from_roots(&r1, 1, -1.0, lin);
    check_first(".3-s", lin, 1, 0.0, 1.0, 1, 0.0, 0.0);
    check_first(".3-s", lin, 1, 0.0, 1.0, 0, 0.3, 1e-15);

    /* tangential: (s - 0.5)^2 touches 0 at 0.5 only */
    double rr[2] = {0.5, 0.5};
    bern_from_roots(rr, 2, 1.0, b);
    check_first("(s-.5)^2", b, 2, 0.0, 1.0, 0, 0.5, 1e-7);
    check_first("(s-.5)^2", b, 2, 0.0, 1.0, 1, 0.0, 0.0);
    /* (s - 0.4)^2 + 1e-3 stays positive */
    double rq[2] = {0.4, 0.4};
    bern_from_roots(rq, 2, 1.0, b);
    for (int i = 0; i <= 2; i++)
        b[i] += 1e-3;
    check_first("(s-.4)^2+1e-3", b, 2, 0.0, 1.0, 0, NAN, 0.0);

    /* a root at the end of the range */
    double re[3] = {0.25, 0.5, 1.0};
    bern_from_roots(re, 3, 1.0, b);
    /* sign: - on [0,.25), + on (.25,.5), - on (.5,1), 0 at 1 */
    check_first("(s-.25)(s-.5)(s-1)", b, 3, 0.6, 1.0, 1, NAN, 0.0);
    check_first("(s-.25)(s-.5)(s-1)", b, 3, 0.3, 0.45, 0, NAN, 0.0);
    check_first("(s-.25)(s-.5)(s-1)", b, 3, 0.3, 1.0, 0, 0.5, 1e-13);

    /* degree 32, roots spread over [0,1]: first <= 0 after a point where
     * p > 0 is the next root */
    double roots[NMAX];
    for (int j = 0; j < NMAX; j++)
        roots[j] = (j + 0.5) / NMAX;
    double b32[NMAX + 1];
    bern_from_roots(roots, NMAX, 1.0, b32);
    /* p > 0 on (r_{2k-1}, r_{2k}) counted from 0 (even number of roots right
     * of s): between roots[1] and roots[2] p > 0 since 30 roots lie right. */
    check_first("32 roots", b32, NMAX, 0.5 * (roots[1] + roots[2]), 1.0, 0, roots[2], 1e-9);
    check_first("32 roots", b32, NMAX, 0.5 * (roots[2] + roots[3]), 1.0, 1, roots[3], 1e-9);
    check_first("32 roots", b32, NMAX, 0.0, 1.0, 0, roots[0], 1e-9);

    /*
     * A root near 1.8e-4 where the computed polynomial (a first coefficient
     * of 1e-3 against later ones up to 4.7) keeps one sign over a band of
     * thousands of ulps: the polish must cross that band, not creep through
     * it and give up at the far end.  (An axis function of two boxes that
     * meet just after t0.)  The reference root is bisected in long double.
     */
    static const double band[11] = {
        0x1.4e9b1bd6366p-10, -0x1.6fc4ae42c968dp-1, -0x1.618ec8e1dddc9p+0,
        -0x1.fc97516e1c84cp+0, -0x1.4480e929ba638p+1, -0x1.83788d2c07fbcp+1,
        -0x1.bb50380acfddfp+1, -0x1.ec2fc36d6cb56p+1, -0x1.0b23f71ac9ec8p+2,
        -0x1.1ce913f7c65d5p+2, -0x1.2b88fc1acbb46p+2};
    long double lo = 0.0L, hi = 1e-3L;
    for (int it = 0; it < 200; it++) {
        long double mid = 0.5L * (lo + hi);
        if (ref_bern(band, 10, mid) > 0.0L)
            lo = mid;
        else
            hi = mid;
    }
    check_first("rounding band", band, 10, 0.0, 1.0, 0, (double)lo, 1e-15);
    double sb = -1.0;
    int fb = bxp_bern_first_tol(band, 10, 0.0, 1.0, 0, 0x1.58d6a73e701d7p-40, &sb);
    if (!ok(fb == 1 && fabs(sb - (double)lo) <= 1e-15,
            "first <=0 with the solver's noise: rounding band: %.17g", (double)lo))
        diag("found %d s = %.17g", fb, sb);
}

/* A local rounding level for bxp_bern_first_local: a constant, and the calls. */
struct fixed_level {
    double level;
    int calls;
};

static double fixed_level_at(void *ctx, double lo, double hi)
{
    struct fixed_level *f = ctx;
    (void)lo;
    (void)hi;
    f->calls++;
    return f->level;
}

/*
 * Polynomials small against the global rounding level but well above their
 * local one (1e-9 (0.5 - s) and 1e-9 (s - 0.5) with noise 1e-6, local level
 * 1e-20): with the global level alone the whole piece counts as zero, so
 * "<= 0" is found at the start and "> 0" nowhere; with the local level both
 * are found at the root.  The local level is only asked about pieces within
 * the global one.
 */
static void test_first_local(void)
{
    double down[2] = {0.5e-9, -0.5e-9}, up[2] = {-0.5e-9, 0.5e-9}, s = -1.0;
    struct fixed_level tight = {1e-20, 0}, never = {1e-20, 0};
    const bxp_local_noise lt = {fixed_level_at, &tight}, ln = {fixed_level_at, &never};

    int f = bxp_bern_first_tol(down, 1, 0.0, 1.0, 0, 1e-6, &s);
    ok(f == 1 && s == 0.0, "first <= 0 within the global level: at the start (%d, %g)", f, s);
    f = bxp_bern_first_tol(up, 1, 0.0, 1.0, 1, 1e-6, &s);
    ok(f == 0, "first > 0 within the global level: none (%d)", f);

    s = -1.0;
    f = bxp_bern_first_local(down, 1, 0.0, 1.0, 0, 1e-6, &lt, &s);
    ok(f == 1 && fabs(s - 0.5) <= 1e-15 && tight.calls > 0,
       "first <= 0 with a local level: the root (%d, %.17g, %d calls)", f, s, tight.calls);
    s = -1.0;
    f = bxp_bern_first_local(up, 1, 0.0, 1.0, 1, 1e-6, &lt, &s);
    ok(f == 1 && fabs(s - 0.5) <= 1e-15, "first > 0 with a local level: the root (%d, %.17g)",
       f, s);

    /* Far above the global level the local one is never asked. */
    down[0] = 0.5e-3;
    down[1] = -0.5e-3;
    s = -1.0;
    f = bxp_bern_first_local(down, 1, 0.0, 1.0, 0, 1e-6, &ln, &s);
    ok(f == 1 && fabs(s - 0.5) <= 1e-15 && never.calls == 0,
       "a polynomial above the global level: the root, local level not asked (%d calls)",
       never.calls);
}

/*
 * Full precision of bxp_bern_first: random polynomials of degree 2 to 12
 * with simple, well separated roots (some outside [0, 1]), searched from 0
 * for the side p(0) is not on.  The reference is the first crossing of the
 * double coefficients' polynomial, bisected in long double, and the answer
 * must lie within 4 ulps of it plus the band, of width about the rounding
 * of p over |p'|, where the computed p has no reliable sign.
 */
static void test_first_precision(void)
{
    int bad = 0, trials = 600;
    double worst = 0.0;
    for (int k = 0; k < trials; k++) {
        int n = 2 + k % 11;
        double r[NMAX], b[NMAX + 1];
        /* Roots 0.06 apart at least, from -0.4 on; the first >= 0.05 is the answer. */
        double x = urand(-0.4, 0.3);
        for (int j = 0; j < n; j++) {
            r[j] = x;
            x += urand(0.06, 0.5);
        }
        double want = NAN;
        for (int j = 0; j < n && isnan(want); j++)
            if (r[j] >= 0.05 && r[j] <= 0.95)
                want = r[j];
        if (isnan(want))
            continue;
        for (int j = 0; j < n; j++)
            if (r[j] > -0.05 && r[j] < 0.05)
                r[j] = -0.05; /* keep p(0) clear of 0 */
        bern_from_roots(r, n, urand(0.5, 2.0) * (k & 1 ? -1.0 : 1.0), b);
        int pos = !(ref_bern(b, n, 0.0L) > 0.0L);
        long double lo = want - 0.03, hi = want + 0.03;
        for (int it = 0; it < 120; it++) {
            long double mid = 0.5L * (lo + hi);
            long double v = ref_bern(b, n, mid);
            if (pos ? v > 0.0L : v <= 0.0L)
                hi = mid;
            else
                lo = mid;
        }
        double ref = (double)hi, h = 1e-6;
        double slope = (double)fabsl((ref_bern(b, n, ref + h) - ref_bern(b, n, ref - h)) / (2 * h));
        double band = 4.0 * (n + 1) * EPS * bern_scale(b, n, ref) / slope;
        double tol = 4.0 * EPS * fabs(ref) + band, s = -1.0;
        int found = bxp_bern_first(b, n, 0.0, 1.0, pos, &s);
        double err = found ? fabs(s - ref) / tol : INFINITY;
        worst = err > worst ? err : worst;
        if (err > 1.0 && bad++ < 3)
            diag("degree %d, first %s: found %d s = %.17g, reference %.17g (tol %.3g)", n,
                 pos ? "> 0" : "<= 0", found, s, ref, tol);
    }
    ok(bad == 0, "first crossing polished to a few ulps: %d random polynomials (worst %.2f of tol)",
       trials, worst);
}

/*
 * Runs bxp_bern_roots on [a, c] and checks the answer against the chosen
 * roots want[0..nwant-1] (ascending), root k within tol[k].  Strict: exactly
 * nwant roots, sorted, root k near want[k].  Loose (for multiple roots with
 * rounded coefficients, which may split into close real roots): sorted, at
 * most n roots, each near some chosen root, each chosen root found.
 * Partial (loose = 2, for ill-conditioned data): sorted, inside [a, c], at
 * most n roots, and each chosen root whose tolerance is below 1e-6 found.
 */
static void check_roots(const char *name, const double *b, int n, double a, double c,
                        const double *want, int nwant, const double *tol, int loose)
{
    double got[NMAX + 8];
    for (int i = 0; i < NMAX + 8; i++)
        got[i] = NAN;
    int m = bxp_bern_roots(b, n, a, c, got, NMAX + 8);
    int good = loose ? (m <= n && (loose == 2 || m >= nwant)) : m == nwant;
    for (int i = 1; good && i < m; i++)
        if (!(got[i] > got[i - 1]))
            good = 0;
    for (int i = 0; good && i < m; i++)
        if (!(got[i] >= a && got[i] <= c))
            good = 0;
    double worst = 0.0;
    if (good && !loose) {
        for (int i = 0; i < m; i++) {
            double e = fabs(got[i] - want[i]);
            if (!(e <= tol[i]))
                good = 0;
            if (e > worst || isnan(e))
                worst = e;
        }
    } else if (good) {
        for (int i = 0; i < m; i++) {
            int near = 0;
            for (int k = 0; k < nwant; k++)
                if (fabs(got[i] - want[k]) <= tol[k])
                    near = 1;
            if (!near && loose == 1)
                good = 0;
        }
        for (int k = 0; k < nwant; k++) {
            if (loose == 2 && !(tol[k] < 1e-6))
                continue;
            double best = INFINITY;
            for (int i = 0; i < m; i++)
                if (fabs(got[i] - want[k]) < best)
                    best = fabs(got[i] - want[k]);
            if (!(best <= tol[k]))
                good = 0;
            if (best > worst)
                worst = best;
        }
    }
    if (!ok(good, "roots of %s on [%g,%g]: %d found", name, a, c, nwant)) {
        diag("found %d roots (want %d%s)", m, nwant, loose ? ", loose" : "");
        for (int i = 0; i < m && i < NMAX + 8; i++)
            diag("  got[%d] = %.17g", i, got[i]);
        for (int i = 0; i < nwant; i++)
            diag("  want[%d] = %.17g tol %.3g", i, want[i], tol[i]);
    } else if (nwant > 0) {
        diag("  largest error %.3g", worst);
    }
}

static void fill(double *t, int n, double v)
{
    for (int i = 0; i < n; i++)
        t[i] = v;
}

/*
 * Achievable accuracy for the simple root r_k of lead * prod (s - r_j):
 * the Bernstein condition number sum |b_i| B_i(r) / |p'(r)| times a few
 * (n + 1) eps, with a small floor.
 */
static double root_tol(const double *b, int n, const double *r, int nr, int k,
                       double lead)
{
    double d = fabs(lead);
    for (int j = 0; j < nr; j++)
        if (j != k)
            d *= fabs(r[k] - r[j]);
    double cond = bern_scale(b, n, r[k]) / d;
    double t = 8.0 * (n + 1) * EPS * cond;
    return t > 1e-14 ? t : 1e-14;
}

static void test_roots(void)
{
    double b[NMAX + 1], tol[NMAX + 1];

    /* simple roots */
    double r3[3] = {0.3, 0.45, 0.7};
    bern_from_roots(r3, 3, 1.0, b);
    fill(tol, 3, 1e-14);
    check_roots("(s-.3)(s-.45)(s-.7)", b, 3, 0.0, 1.0, r3, 3, tol, 0);
    bern_from_roots(r3, 3, -2.5, b);
    check_roots("-2.5 (s-.3)(s-.45)(s-.7)", b, 3, 0.0, 1.0, r3, 3, tol, 0);
    check_roots("(s-.3)(s-.45)(s-.7)", b, 3, 0.4, 1.0, r3 + 1, 2, tol, 0);
    check_roots("(s-.3)(s-.45)(s-.7)", b, 3, 0.31, 0.44, r3, 0, tol, 0);

    /* no roots: all roots outside, or complex */
    double ro[3] = {-0.5, 1.5, 2.0};
    bern_from_roots(ro, 3, 1.0, b);
    check_roots("roots outside [0,1]", b, 3, 0.0, 1.0, ro, 0, tol, 0);
    double rc[2] = {0.5, 0.5};
    bern_from_roots(rc, 2, 1.0, b);
    for (int i = 0; i <= 2; i++)
        b[i] += 0.01;
    check_roots("(s-.5)^2+.01", b, 2, 0.0, 1.0, rc, 0, tol, 0);
    fill(b, 5, 1.0);
    check_roots("constant 1 (degree 4)", b, 4, 0.0, 1.0, rc, 0, tol, 0);

    /* double roots: located to ~1e-7.  (s - 1/2)^2 has exact Bernstein
     * coefficients [1/4 -1/4 1/4], so its double root must come back once. */
    double b2[3] = {0.25, -0.25, 0.25};
    double half = 0.5;
    tol[0] = 1e-7;
    check_roots("(s-.5)^2 (exact)", b2, 2, 0.0, 1.0, &half, 1, tol, 0);
    /* (s - 1/2)^3 = 1/8 [-1 1 -1 1] exactly: triple root, ~1e-5 */
    double b3[4] = {-0.125, 0.125, -0.125, 0.125};
    tol[0] = 1e-5;
    check_roots("(s-.5)^3 (exact)", b3, 3, 0.0, 1.0, &half, 1, tol, 0);
    /* With rounded coefficients a multiple root may split into close real
     * roots or touch only within rounding: every found root must be near a
     * chosen one and every chosen one found. */
    double rd[3] = {0.25, 0.5, 0.5};
    bern_from_roots(rd, 3, 1.0, b);
    double wd[2] = {0.25, 0.5};
    tol[0] = 1e-14;
    tol[1] = 1e-7;
    check_roots("(s-.25)(s-.5)^2", b, 3, 0.0, 1.0, wd, 2, tol, 1);
    double rd2[4] = {0.3, 0.3, 0.7, 0.85};
    bern_from_roots(rd2, 4, 1.0, b);
    double wd2[3] = {0.3, 0.7, 0.85};
    tol[0] = 1e-7;
    tol[1] = tol[2] = 1e-13;
    check_roots("(s-.3)^2(s-.7)(s-.85)", b, 4, 0.0, 1.0, wd2, 3, tol, 1);
    /* two double roots and nothing else: p >= 0 touching twice */
    double rdd[4] = {0.2, 0.2, 0.65, 0.65};
    bern_from_roots(rdd, 4, 1.0, b);
    double wdd[2] = {0.2, 0.65};
    tol[0] = tol[1] = 1e-7;
    check_roots("(s-.2)^2(s-.65)^2", b, 4, 0.0, 1.0, wdd, 2, tol, 1);

    /* triple roots: ~1e-5 */
    double rt[4] = {0.4, 0.4, 0.4, 0.8};
    bern_from_roots(rt, 4, 1.0, b);
    double wt[2] = {0.4, 0.8};
    tol[0] = 1e-5;
    tol[1] = 1e-13;
    check_roots("(s-.4)^3(s-.8)", b, 4, 0.0, 1.0, wt, 2, tol, 1);
    double rt2[3] = {0.15, 0.15, 0.15};
    bern_from_roots(rt2, 3, 1.0, b);
    tol[0] = 1e-5;
    check_roots("(s-.15)^3", b, 3, 0.0, 1.0, rt2, 1, tol, 1);

    /* clustered simple roots 1e-7 apart: both found, separated (the dip
     * between them, 1.25e-15, is far above the rounding of the data) */
    double rcl[3] = {0.1, 0.6, 0.6 + 1e-7};
    bern_from_roots(rcl, 3, 1.0, b);
    for (int k = 0; k < 3; k++)
        tol[k] = root_tol(b, 3, rcl, 3, k, 1.0);
    check_roots("(s-.1)(s-.6)(s-.6-1e-7)", b, 3, 0.0, 1.0, rcl, 3, tol, 0);
    double rcl2[4] = {0.02, 0.02 + 1e-7, 0.5, 0.97};
    bern_from_roots(rcl2, 4, 1.0, b);
    for (int k = 0; k < 4; k++)
        tol[k] = root_tol(b, 4, rcl2, 4, k, 1.0);
    check_roots("(s-.02)(s-.02-1e-7)(s-.5)(s-.97)", b, 4, 0.0, 1.0, rcl2, 4, tol, 0);

    /* roots at the ends 0 and 1 (exact zero end coefficients) */
    double re[4] = {0.0, 0.5, 0.75, 1.0};
    bern_from_roots(re, 4, 1.0, b);
    fill(tol, 4, 1e-14);
    check_roots("s(s-.5)(s-.75)(s-1)", b, 4, 0.0, 1.0, re, 4, tol, 0);
    double re2[3] = {0.0, 0.0, 1.0};
    bern_from_roots(re2, 3, 1.0, b);
    double we2[2] = {0.0, 1.0};
    tol[0] = 1e-7;
    tol[1] = 1e-14;
    check_roots("s^2(s-1)", b, 3, 0.0, 1.0, we2, 2, tol, 0);
    /* roots exactly at the ends of a restricted [a, c]: (s-1/4)(s-3/4) has
     * exact Bernstein coefficients [3/16 -5/16 3/16] and evaluates to
     * exactly 0 at 1/4 and 3/4 */
    double bq[3] = {0.1875, -0.3125, 0.1875};
    double rq[2] = {0.25, 0.75};
    fill(tol, 2, 1e-15);
    check_roots("(s-.25)(s-.75) (exact)", bq, 2, 0.25, 0.75, rq, 2, tol, 0);
    check_roots("(s-.25)(s-.75) (exact)", bq, 2, 0.0, 0.25, rq, 1, tol, 0);
    check_roots("(s-.25)(s-.75) (exact)", bq, 2, 0.75, 1.0, rq + 1, 1, tol, 0);
    check_roots("(s-.25)(s-.75) (exact)", bq, 2, 0.3, 0.7, rq, 0, tol, 0);
    double ra[4] = {0.1, 0.25, 0.5, 0.75};
    bern_from_roots(ra, 4, 1.0, b);
    fill(tol, 4, 1e-14);
    check_roots("(s-.1)(s-.25)(s-.5)(s-.75)", b, 4, 0.2, 0.6, ra + 1, 2, tol, 0);
    check_roots("(s-.1)(s-.25)(s-.5)(s-.75)", b, 4, 0.0, 0.2, ra, 1, tol, 0);
    check_roots("(s-.1)(s-.25)(s-.5)(s-.75)", b, 4, 0.26, 0.49, ra, 0, tol, 0);

    /* degree 32: 32 linear factors with roots spread evenly over [0,1].  In
     * double precision the middle roots of such a product are not determined
     * by the coefficients (their conditioned tolerance exceeds the root
     * spacing), so only the well-conditioned ones (tolerance < 1e-6, near
     * the ends) are required; nothing found may be outside [0,1]. */
    double r32[NMAX];
    double wtol = 0.0;
    for (int j = 0; j < NMAX; j++)
        r32[j] = (j + 0.5) / NMAX;
    bern_from_roots(r32, NMAX, 1.0, b);
    for (int j = 0; j < NMAX; j++) {
        tol[j] = root_tol(b, NMAX, r32, NMAX, j, 1.0);
        if (tol[j] > wtol)
            wtol = tol[j];
    }
    diag("degree 32 evenly spread: largest conditioned tolerance %.3g", wtol);
    check_roots("32 evenly spread roots (well-conditioned ones)", b, NMAX, 0.0, 1.0,
                r32, NMAX, tol, 2);

    /* degree 32, roots spread over [0,1] with the density of Chebyshev
     * points and a deterministic jitter: well conditioned, all required */
    for (int j = 0; j < NMAX; j++) {
        double u = (j + urand(0.25, 0.75)) / NMAX;
        r32[j] = 0.5 * (1.0 - cos(3.14159265358979323846 * u));
    }
    bern_from_roots(r32, NMAX, 1.0, b);
    wtol = 0.0;
    for (int j = 0; j < NMAX; j++) {
        tol[j] = root_tol(b, NMAX, r32, NMAX, j, 1.0);
        if (tol[j] > wtol)
            wtol = tol[j];
    }
    diag("degree 32 jittered: largest conditioned tolerance %.3g", wtol);
    check_roots("32 jittered roots", b, NMAX, 0.0, 1.0, r32, NMAX, tol, 0);
    /* ... and restricted to the middle of the range */
    check_roots("32 jittered roots", b, NMAX, 0.5 * (r32[9] + r32[10]),
                0.5 * (r32[20] + r32[21]), r32 + 10, 11, tol + 10, 0);

    /* Chebyshev T_32(2s - 1): roots s_k = (1 + cos((2k-1) pi / 64)) / 2,
     * leading coefficient 2^31 * 2^32 in s; listed ascending. */
    double rch[NMAX];
    for (int k = 1; k <= NMAX; k++)
        rch[NMAX - k] = 0.5 * (1.0 + cos((2 * k - 1) * 3.14159265358979323846 / 64.0));
    bern_from_roots(rch, NMAX, ldexp(1.0, 63), b);
    /* independent check of the construction: T_32(2s-1) = cos(32 acos(2s-1)) */
    double cw = 0.0;
    for (int j = 0; j <= 50; j++) {
        double s = j / 50.0;
        double e = fabs((double)ref_bern(b, NMAX, s) - cos(32.0 * acos(2.0 * s - 1.0)));
        if (e > cw)
            cw = e;
    }
    ok(cw < 1e-6, "Chebyshev construction matches cos(32 acos(2s-1)) (err %.3g)", cw);
    wtol = 0.0;
    for (int j = 0; j < NMAX; j++) {
        tol[j] = root_tol(b, NMAX, rch, NMAX, j, ldexp(1.0, 63));
        if (tol[j] > wtol)
            wtol = tol[j];
    }
    diag("Chebyshev degree 32: largest conditioned tolerance %.3g", wtol);
    check_roots("Chebyshev T_32(2s-1)", b, NMAX, 0.0, 1.0, rch, NMAX, tol, 0);

    /* degree 32 with few real roots: (s-.3)(s-.8) times 15 positive quadratics */
    {
        long double sb[NMAX + 1] = {0};
        double q[NMAX + 1];
        const double H = 0.2;
        /* build in power form in long double then convert by the reference
         * (direct) route: evaluate at Chebyshev-free points is unnecessary;
         * use factors in scaled Bernstein form instead */
        sb[0] = 1.0L;
        int deg = 0;
        double rr[2] = {0.3, 0.8};
        for (int j = 0; j < 2; j++) {
            long double nb[NMAX + 1] = {0};
            for (int i = 0; i <= deg; i++) {
                nb[i] += sb[i] * (long double)(-rr[j]);
                nb[i + 1] += sb[i] * (1.0L - (long double)rr[j]);
            }
            memcpy(sb, nb, sizeof sb);
            deg++;
        }
        for (int j = 0; j < 15; j++) {
            /* (s - m)^2 + h^2 = m^2 (1-s)^2 + 2 m (m-1)... written as
             * scaled Bernstein: A (1-s)^2 + B s(1-s) + C s^2 with
             * A = m^2 + h^2, C = (1-m)^2 + h^2, B = 2 (m^2 + h^2) - 2 m
             * (since s(1-s) coefficient: from (s-m)^2 + h^2 = s^2 - 2ms +
             * m^2 + h^2 with s = s, 1 = (1-s)+s, s^2 - 2 m s + (m^2+h^2)
             * ((1-s) + s)^2). */
            long double m = (j + 0.5L) / 15.0L, h = H;
            long double A = m * m + h * h;
            long double C = (1.0L - m) * (1.0L - m) + h * h;
            long double B = 2.0L * A - 2.0L * m;
            long double nb[NMAX + 1] = {0};
            for (int i = 0; i <= deg; i++) {
                nb[i] += sb[i] * A;
                nb[i + 1] += sb[i] * B;
                nb[i + 2] += sb[i] * C;
            }
            memcpy(sb, nb, sizeof sb);
            deg += 2;
        }
        for (int i = 0; i <= NMAX; i++)
            q[i] = (double)(sb[i] / tu_binom(NMAX, i));
        /* check the quadratic factor construction at one point */
        double s = 0.37, want = (0.37 - 0.3) * (0.37 - 0.8);
        for (int j = 0; j < 15; j++) {
            double m = (j + 0.5) / 15.0;
            want *= (s - m) * (s - m) + H * H;
        }
        ok(fabs((double)ref_bern(q, NMAX, s) - want) <= 1e-13 * bern_scale(q, NMAX, s),
           "degree 32 with complex pairs: construction check");
        /* conditioned tolerance: p'(r) = (r - other real root) * prod of the
         * quadratic factors at r */
        for (int k = 0; k < 2; k++) {
            double d = fabs(rr[k] - rr[1 - k]);
            for (int j = 0; j < 15; j++) {
                double m = (j + 0.5) / 15.0;
                d *= (rr[k] - m) * (rr[k] - m) + H * H;
            }
            tol[k] = 8.0 * (NMAX + 1) * EPS * bern_scale(q, NMAX, rr[k]) / d;
            if (tol[k] < 1e-14)
                tol[k] = 1e-14;
        }
        diag("degree 32 with complex pairs: tolerances %.3g %.3g", tol[0], tol[1]);
        check_roots("degree 32, 2 real roots", q, NMAX, 0.0, 1.0, rr, 2, tol, 0);
    }

    /* identically zero */
    fill(b, 9, 0.0);
    double out[8];
    is_int(bxp_bern_roots(b, 8, 0.0, 1.0, out, 8), -1, "zero polynomial: -1");
    is_int(bxp_bern_roots(b, 0, 0.0, 1.0, out, 8), -1, "zero constant: -1");

    /* max limits what is written */
    bern_from_roots(r3, 3, 1.0, b);
    double lim[4] = {-7.0, -7.0, -7.0, -7.0};
    int m = bxp_bern_roots(b, 3, 0.0, 1.0, lim, 2);
    ok(m >= 2 && lim[2] == -7.0 && lim[3] == -7.0 && fabs(lim[0] - 0.3) < 1e-14 &&
           fabs(lim[1] - 0.45) < 1e-14,
       "max = 2 writes the two first roots only (returned %d)", m);
}

int main(void)
{
    plan(0);
    test_binomial();
    test_power_eval();
    test_reparam();
    test_conversions();
    test_products();
    test_restrict();
    test_first();
    test_first_local();
    test_first_precision();
    test_roots();
    return tap_failures() ? 1 : 0;
}
