/*
 * A small TAP producer for boxtoi's tests: a plan, numbered "ok"/"not ok"
 * lines, diagnostics on "#" lines (doubles printed with %.17g).
 */
#ifndef BOXTOI_TAP_BASIC_H
#define BOXTOI_TAP_BASIC_H

#if defined(__GNUC__)
#define TAP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TAP_NORETURN __attribute__((noreturn))
#else
#define TAP_PRINTF(f, a)
#define TAP_NORETURN
#endif

/* Announce n tests.  With n = 0 the plan is printed at exit ("done_testing"). */
void plan(int n);
/* Skip the whole program with a reason (prints "1..0 # SKIP reason"). */
void skip_all(const char *fmt, ...) TAP_PRINTF(1, 2) TAP_NORETURN;
/* Record one test; returns success so callers can add diagnostics. */
int ok(int success, const char *fmt, ...) TAP_PRINTF(2, 3);
/* Pass when got == want. */
int is_int(long long got, long long want, const char *fmt, ...) TAP_PRINTF(3, 4);
/* Pass when |got - want| <= tol (NaN equals NaN; infinities compare exactly). */
int is_double(double got, double want, double tol, const char *fmt, ...)
    TAP_PRINTF(4, 5);
/* Pass when both strings are equal (NULL equals NULL only). */
int is_string(const char *got, const char *want, const char *fmt, ...)
    TAP_PRINTF(3, 4);
/* Record n skipped tests. */
void skip(int n, const char *fmt, ...) TAP_PRINTF(2, 3);
/* Print a "# " diagnostic line to stdout. */
void diag(const char *fmt, ...) TAP_PRINTF(1, 2);
/* Abort the whole test program: "Bail out! reason", exit status 255. */
void bail(const char *fmt, ...) TAP_PRINTF(1, 2) TAP_NORETURN;
/* Number of failed tests so far. */
int tap_failures(void);

#endif
