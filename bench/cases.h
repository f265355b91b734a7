/*
 * Random first-contact cases for the benchmarks.
 *
 * Every benchmark program (boxtoi-bench and the optional peers) draws the
 * same cases from the same seed, so their timings and answers can be
 * compared case by case.  Cases are built here from quaternion and position
 * paths with code of its own (not the library's motion helpers), so the
 * generator does not depend on the code being timed.
 */
#ifndef BENCH_CASES_H
#define BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "boxtoi.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The benchmark scenarios, in table order. */
typedef enum bench_scenario {
    BENCH_LINEAR = 0,        /* both translate linearly, constant orientation */
    BENCH_QUADRATIC,         /* both rigid rational motions of degree 2 */
    BENCH_STATIC_QUADRATIC,  /* B at rest, A rigid rational of degree 2 */
    BENCH_QUARTIC,           /* both rigid: quaternion linear, position quadratic */
    BENCH_AFFINE,            /* both linear affine (shear, scale) motions */
    BENCH_FAR_APART,         /* degree-2 rigid motions ~100 box sizes apart */
    BENCH_SCENARIO_COUNT
} bench_scenario;

/** Name used on the command line and in the output ("static-quadratic"). */
const char *bench_scenario_name(bench_scenario s);

/** Scenario with that name, or -1. */
int bench_scenario_parse(const char *name);

/** One line describing how the scenario's motions are built. */
const char *bench_scenario_about(bench_scenario s);

/** Median-time target in nanoseconds, or 0 when the scenario has none. */
double bench_scenario_target_ns(bench_scenario s);

/** 1 when every motion of the scenario is rigid (a peer can take it). */
int bench_scenario_rigid(bench_scenario s);

/** 1 when the scenario's orientations are constant over the interval. */
int bench_scenario_translation_only(bench_scenario s);

/**
 * Fill out[0..n-1] with the scenario's cases for that seed.  Case i depends
 * only on (scenario, seed, i).  Every case uses the interval [0, 1].
 */
void bench_make_cases(bench_scenario s, uint64_t seed, size_t n,
                      boxtoi_query *out);

/** Case i alone (the same as bench_make_cases' out[i]). */
void bench_make_case(bench_scenario s, uint64_t seed, size_t i, boxtoi_query *out);

/**
 * Pose of a rigid motion at t: the world point of local x is R x + p.
 * R and p are M(t)'s upper parts divided by w(t).
 */
void bench_pose_at(const boxtoi_motion *m, double t, double R[3][3],
                   double p[3]);

/** Monotonic clock in nanoseconds. */
double bench_now_ns(void);

/** Cost of one pair of clock readings in nanoseconds (median of many). */
double bench_clock_overhead_ns(void);

/** Median of v[0..n-1] (sorts v). */
double bench_median(double *v, size_t n);

/** Mean of v[0..n-1]. */
double bench_mean(const double *v, size_t n);

/** The options shared by all benchmark programs. */
typedef struct bench_options {
    int json;                            /* --json: JSON Lines instead of a table */
    size_t n;                            /* -n N: cases per scenario */
    uint64_t seed;                       /* --seed S */
    int selected[BENCH_SCENARIO_COUNT];  /* --scenario S (repeatable, or a comma list) */
    int any_selected;
    int passes;                          /* --passes P: timed passes, least kept */
} bench_options;

/** The most timed passes --passes takes. */
#define BENCH_MAX_PASSES 1000000

void bench_options_default(bench_options *o);

/**
 * Try argv[i] as one of the shared options.  Returns the number of arguments
 * used (1 or 2), 0 when argv[i] is not a shared option, or -1 after printing
 * an error to stderr.
 */
int bench_option(bench_options *o, int argc, char **argv, int i);

/**
 * Parse s as a whole number from 0 to max: digits only (no sign, no
 * spaces), as the shared options take them.  Returns 0, or -1 when s is
 * not one.
 */
int bench_parse_u64(const char *s, uint64_t max, uint64_t *out);

/** The program's name as its messages begin: argv0 without its directory. */
const char *bench_program_name(const char *argv0);

/**
 * 0 when everything printed on standard output was written, else 1 after
 * saying "PROG: write error" on stderr: the status the program then exits
 * with.
 */
int bench_output_failed(const char *prog);

/** After parsing: select every scenario when none was named. */
void bench_options_finish(bench_options *o);

/** Help text for the shared options. */
extern const char bench_options_help[];

/** Default number of cases per scenario. */
#define BENCH_DEFAULT_N 2000
/** Default seed. */
#define BENCH_DEFAULT_SEED 20261122u

#ifdef __cplusplus
}
#endif

#endif /* BENCH_CASES_H */
