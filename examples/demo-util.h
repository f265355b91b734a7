/*
 * Small helpers shared by the examples: a seeded random generator whose
 * output does not depend on the C library, a monotonic clock, quaternion
 * arithmetic in ODE's (w, x, y, z) order, and the check that standard output
 * was all written.  Everything is static: each example includes this header
 * once.
 */
#ifndef DEMO_UTIL_H
#define DEMO_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/** SplitMix64: a tiny generator, the same sequence on every platform. */
typedef struct demo_rng {
    uint64_t state;
} demo_rng;

static inline uint64_t demo_rng_next(demo_rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/** Uniform double in [lo, hi). */
static inline double demo_uniform(demo_rng *r, double lo, double hi)
{
    double u = (double)(demo_rng_next(r) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

/** A unit vector uniformly distributed on the sphere. */
static inline void demo_unit_vector(demo_rng *r, double out[3])
{
    double z = demo_uniform(r, -1.0, 1.0);
    double phi = demo_uniform(r, 0.0, 2.0 * M_PI);
    double s = sqrt(1.0 - z * z);
    out[0] = s * cos(phi);
    out[1] = s * sin(phi);
    out[2] = z;
}

/** Seconds on the monotonic clock. */
static inline double demo_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/** Unit quaternion (w, x, y, z) for a rotation by angle about unit axis. */
static inline void demo_quat_axis_angle(const double axis[3], double angle,
                                        double q[4])
{
    double s = sin(0.5 * angle);
    q[0] = cos(0.5 * angle);
    q[1] = axis[0] * s;
    q[2] = axis[1] * s;
    q[3] = axis[2] * s;
}

/** out = a * b (Hamilton product, (w, x, y, z) order). */
static inline void demo_quat_mul(const double a[4], const double b[4],
                                 double out[4])
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    out[0] = w;
    out[1] = x;
    out[2] = y;
    out[3] = z;
}

/** Scale q to unit length. */
static inline void demo_quat_normalize(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

/** Rotation matrix r[row][col] of the unit quaternion q. */
static inline void demo_quat_matrix(const double q[4], double r[3][3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    r[0][0] = 1 - 2 * (y * y + z * z);
    r[0][1] = 2 * (x * y - w * z);
    r[0][2] = 2 * (x * z + w * y);
    r[1][0] = 2 * (x * y + w * z);
    r[1][1] = 1 - 2 * (x * x + z * z);
    r[1][2] = 2 * (y * z - w * x);
    r[2][0] = 2 * (x * z - w * y);
    r[2][1] = 2 * (y * z + w * x);
    r[2][2] = 1 - 2 * (x * x + y * y);
}

/**
 * 0 when everything printed on standard output was written, else 1 after
 * saying "PROG: write error" on stderr (a full disk, a closed pipe): the
 * status an example then exits with.
 */
static inline int demo_output_failed(const char *prog)
{
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "%s: write error\n", prog);
        return 1;
    }
    return 0;
}

#endif /* DEMO_UTIL_H */
