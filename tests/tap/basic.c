/* TAP producer; see basic.h. */
#include "basic.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;
static int tap_planned = -1;
static int tap_lazy;

static void tap_finish(void)
{
    if (tap_lazy)
        printf("1..%d\n", tap_count);
    else if (tap_planned >= 0 && tap_planned != tap_count)
        printf("# planned %d tests but ran %d\n", tap_planned, tap_count);
    fflush(stdout);
}

void plan(int n)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (n > 0) {
        printf("1..%d\n", n);
        tap_planned = n;
    } else {
        tap_lazy = 1;
    }
    atexit(tap_finish);
}

void skip_all(const char *fmt, ...)
{
    va_list ap;
    printf("1..0 # SKIP ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    exit(0);
}

static void vreport(int success, const char *fmt, va_list ap)
{
    tap_count++;
    if (!success)
        tap_failed++;
    printf("%s %d - ", success ? "ok" : "not ok", tap_count);
    vprintf(fmt, ap);
    printf("\n");
}

int ok(int success, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(success, fmt, ap);
    va_end(ap);
    return success;
}

int is_int(long long got, long long want, const char *fmt, ...)
{
    va_list ap;
    int success = got == want;
    va_start(ap, fmt);
    vreport(success, fmt, ap);
    va_end(ap);
    if (!success)
        diag("     got: %lld\n#   wanted: %lld", got, want);
    return success;
}

int is_double(double got, double want, double tol, const char *fmt, ...)
{
    va_list ap;
    int success;
    if (isnan(want))
        success = isnan(got);
    else if (isinf(want))
        success = got == want;
    else
        success = !isnan(got) && fabs(got - want) <= tol;
    va_start(ap, fmt);
    vreport(success, fmt, ap);
    va_end(ap);
    if (!success)
        diag("     got: %.17g\n#   wanted: %.17g (tolerance %.3g, off by %.3g)",
             got, want, tol, fabs(got - want));
    return success;
}

int is_string(const char *got, const char *want, const char *fmt, ...)
{
    va_list ap;
    int success = (got == NULL || want == NULL) ? got == want
                                                : strcmp(got, want) == 0;
    va_start(ap, fmt);
    vreport(success, fmt, ap);
    va_end(ap);
    if (!success)
        diag("     got: '%s'\n#   wanted: '%s'", got ? got : "(null)",
             want ? want : "(null)");
    return success;
}

void skip(int n, const char *fmt, ...)
{
    va_list ap;
    for (int i = 0; i < n; i++) {
        tap_count++;
        printf("ok %d # SKIP ", tap_count);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

void diag(const char *fmt, ...)
{
    va_list ap;
    fflush(stderr);
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

void bail(const char *fmt, ...)
{
    va_list ap;
    printf("Bail out! ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    exit(255);
}

int tap_failures(void)
{
    return tap_failed;
}
