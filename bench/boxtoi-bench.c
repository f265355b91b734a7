/*
 * boxtoi-bench: time boxtoi_solve() over random cases of several scenarios.
 *
 * For every scenario N cases are drawn up front from a fixed seed (cases.c).
 * Each case is then solved in batches of R back-to-back calls timed with
 * CLOCK_MONOTONIC; the batch time, less the clock's own cost, divided by R is
 * that case's time, and the least of P passes is kept (it drops interrupts
 * and other tenants' bursts).  The reported median and mean are over cases.
 * A second figure, "stream", solves all N cases once each in order and
 * divides: no case repeats back to back, so caches and branch predictors see
 * a realistic mix.
 *
 * Output: a table, or with --json one object per scenario and line:
 *   {"method":"boxtoi","scenario":S,"n":N,"ns_median":X,"ns_mean":Y}
 * --percentiles adds, per scenario, the percentiles of the per-case times of
 * its hits and of its misses (a line under the row, or in JSON one record per
 * outcome with "kind":"percentiles"): with about half the cases hitting, the
 * overall median sits where the slowest misses meet the cheapest hits.
 * --skip-exit times the queries with BOXTOI_SKIP_EXIT, as the ODE plugin asks
 * them (and as the peers answer: none of them gives an exit time); its JSON
 * records carry "method":"boxtoi-skip-exit", and the table has no targets,
 * which are set for the whole query.
 * --emit S writes scenario S's cases as JSON Lines queries for tools/boxtoi.
 */
#define _POSIX_C_SOURCE 200809L

#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxtoi.h"
#include "cases.h"

static volatile int sink;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: boxtoi-bench [options]\n"
            "Time boxtoi_solve() over random first-contact cases.\n"
            "%s"
            "  --reps R        back-to-back calls per timed batch (default 16)\n"
            "  --emit S        print scenario S's cases as JSON Lines queries for\n"
            "                  the boxtoi tool (-n of them) and exit\n"
            "  --digits D      significant digits of emitted numbers (default 9)\n"
            "  --percentiles   also the 5, 25, 50, 75 and 95th percentiles of the\n"
            "                  times of the hits and of the misses\n"
            "  --skip-exit     solve with BOXTOI_SKIP_EXIT (no exit time), as the ODE\n"
            "                  plugin does; no targets shown\n"
            "  -h, --help      this text\n",
            bench_options_help);
}

/* Percentiles reported by --percentiles, in percent. */
static const int pct_at[] = {5, 25, 50, 75, 95};
#define NPCT (sizeof pct_at / sizeof pct_at[0])

typedef struct stats {
    size_t n;
    size_t hit, miss, overlap, other;
    size_t exits; /* answers with an exit time (or exit_after_t1) */
    double median, mean, stream;
    double median_hit, median_miss; /* over the cases of that outcome */
    double pct_hit[NPCT], pct_miss[NPCT]; /* nearest rank, over that outcome */
} stats;

/* Nearest-rank percentiles of the sorted v[0..n-1] (NaN when n is 0). */
static void percentiles(const double *v, size_t n, double *out)
{
    for (size_t k = 0; k < NPCT; k++) {
        size_t rank = (size_t) ((pct_at[k] * n + 99) / 100); /* ceil(p n), 1-based */
        out[k] = n ? v[rank > 0 ? rank - 1 : 0] : NAN;
    }
}

/*
 * Median and percentiles (pct) of the times per[i] of the cases whose state
 * is want, gathered into sub (room for n).
 */
static double outcome_times(const boxtoi_state *state, const double *per, size_t n,
                            boxtoi_state want, double *sub, double *pct)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (state[i] == want)
            sub[k++] = per[i];
    double median = bench_median(sub, k); /* sorts sub */
    percentiles(sub, k, pct);
    return median;
}

static void run_scenario(bench_scenario s, const bench_options *o, unsigned flags, int reps,
                         double overhead, stats *st)
{
    int passes = o->passes;
    size_t n = o->n;
    boxtoi_query *cases = malloc(n * sizeof *cases);
    double *per = malloc(n * sizeof *per);
    double *sub = malloc(n * sizeof *sub);
    boxtoi_state *state = malloc(n * sizeof *state);
    if (!cases || !per || !sub || !state) {
        fprintf(stderr, "boxtoi-bench: out of memory for %zu cases\n", n);
        exit(1);
    }
    bench_make_cases(s, o->seed, n, cases);
    for (size_t i = 0; i < n; i++)
        cases[i].flags = flags;

    memset(st, 0, sizeof *st);
    st->n = n;
    /* Untimed first pass: answers, and warm-up. */
    for (size_t i = 0; i < n; i++) {
        boxtoi_result r = boxtoi_solve(&cases[i]);
        state[i] = r.state;
        st->exits += !isnan(r.exit) || r.exit_after_t1;
        switch (r.state) {
        case BOXTOI_HIT: st->hit++; break;
        case BOXTOI_MISS: st->miss++; break;
        case BOXTOI_OVERLAP: st->overlap++; break;
        default:
            if (st->other++ < 3)
                fprintf(stderr,
                        "boxtoi-bench: %s case %zu: state %s (%s)\n",
                        bench_scenario_name(s), i, boxtoi_state_name(r.state),
                        boxtoi_reason_message(r.reason));
            break;
        }
    }

    for (size_t i = 0; i < n; i++)
        per[i] = 1e300;
    for (int p = 0; p < passes; p++) {
        for (size_t i = 0; i < n; i++) {
            const boxtoi_query *q = &cases[i];
            int acc = 0;
            double t = bench_now_ns();
            for (int k = 0; k < reps; k++)
                acc += boxtoi_solve(q).state;
            double dt = bench_now_ns() - t - overhead;
            sink += acc;
            double each = dt / reps;
            if (each < per[i])
                per[i] = each;
        }
    }

    double stream = 1e300;
    for (int p = 0; p < passes; p++) {
        int acc = 0;
        double t = bench_now_ns();
        for (size_t i = 0; i < n; i++)
            acc += boxtoi_solve(&cases[i]).state;
        double each = (bench_now_ns() - t) / (double) n;
        sink += acc;
        if (each < stream)
            stream = each;
    }

    st->median_hit = outcome_times(state, per, n, BOXTOI_HIT, sub, st->pct_hit);
    st->median_miss = outcome_times(state, per, n, BOXTOI_MISS, sub, st->pct_miss);
    st->mean = bench_mean(per, n);
    st->median = bench_median(per, n);
    st->stream = stream;
    free(state);
    free(sub);
    free(per);
    free(cases);
}

static void print_header(void)
{
    printf("%-17s %6s %6s %6s %10s %10s %10s %10s %10s %7s %7s\n", "scenario", "n",
           "hit%", "ovl%", "median ns", "mean ns", "hits med", "misses med", "stream ns",
           "target", "ratio");
}

/* The method's name in the JSON records. */
static const char *method_name(unsigned flags)
{
    return flags & BOXTOI_SKIP_EXIT ? "boxtoi-skip-exit" : "boxtoi";
}

static void print_row(bench_scenario s, const stats *st, unsigned flags)
{
    /* the targets are for queries with their exit time */
    double target = flags & BOXTOI_SKIP_EXIT ? 0.0 : bench_scenario_target_ns(s);
    char tbuf[32], rbuf[32];
    if (target > 0) {
        snprintf(tbuf, sizeof tbuf, "%.0f", target);
        snprintf(rbuf, sizeof rbuf, "%.2f%s", st->median / target,
                 st->median <= target ? "" : "!");
    } else {
        strcpy(tbuf, "-");
        strcpy(rbuf, "-");
    }
    char hbuf[32], mbuf[32];
    snprintf(hbuf, sizeof hbuf, "%.1f", st->median_hit);
    snprintf(mbuf, sizeof mbuf, "%.1f", st->median_miss);
    printf("%-17s %6zu %6.1f %6.1f %10.1f %10.1f %10s %10s %10.1f %7s %7s\n",
           bench_scenario_name(s), st->n, 100.0 * (double) st->hit / (double) st->n,
           100.0 * (double) st->overlap / (double) st->n, st->median, st->mean,
           st->hit ? hbuf : "-", st->miss ? mbuf : "-", st->stream, tbuf, rbuf);
}

static void print_percentiles(bench_scenario s, const stats *st, int json, unsigned flags)
{
    for (int h = 0; h < 2; h++) {
        size_t count = h ? st->miss : st->hit;
        const double *v = h ? st->pct_miss : st->pct_hit;
        if (!count)
            continue;
        if (json) {
            printf("{\"method\":\"%s\",\"kind\":\"percentiles\",\"scenario\":\"%s\","
                   "\"outcome\":\"%s\",\"n\":%zu",
                   method_name(flags), bench_scenario_name(s), h ? "miss" : "hit", count);
            for (size_t k = 0; k < NPCT; k++)
                printf(",\"ns_p%d\":%.1f", pct_at[k], v[k]);
            printf("}\n");
        } else {
            printf("  %-7s %6zu   ", h ? "misses" : "hits", count);
            for (size_t k = 0; k < NPCT; k++)
                printf("  p%-2d %8.1f", pct_at[k], v[k]);
            printf("\n");
        }
    }
}

/* ---- --emit: JSON Lines queries for the command-line tool ---- */

static void emit_number(double v, int digits)
{
    if (v == 0)
        v = 0; /* no "-0" */
    printf("%.*g", digits, v);
}

static void emit_box(const boxtoi_box *b, const boxtoi_motion *m, int digits)
{
    printf("{\"min\":[");
    for (int i = 0; i < 3; i++) {
        if (i)
            putchar(',');
        emit_number(b->lo[i], digits);
    }
    printf("],\"max\":[");
    for (int i = 0; i < 3; i++) {
        if (i)
            putchar(',');
        emit_number(b->hi[i], digits);
    }
    printf("],\"motion\":[");
    for (int k = 0; k <= m->degree; k++) {
        if (k)
            putchar(',');
        putchar('[');
        for (int i = 0; i < 4; i++) {
            if (i)
                putchar(',');
            putchar('[');
            for (int j = 0; j < 4; j++) {
                if (j)
                    putchar(',');
                emit_number(m->c[k][i][j], digits);
            }
            putchar(']');
        }
        putchar(']');
    }
    printf("]}");
}

static int emit(bench_scenario s, const bench_options *o, int digits)
{
    for (size_t i = 0; i < o->n; i++) {
        boxtoi_query q;
        bench_make_case(s, o->seed, i, &q);
        printf("{\"id\":%zu,\"a\":", i);
        emit_box(&q.a, &q.motion_a, digits);
        printf(",\"b\":");
        emit_box(&q.b, &q.motion_b, digits);
        printf(",\"t0\":");
        emit_number(q.t0, digits);
        printf(",\"t1\":");
        emit_number(q.t1, digits);
        printf("}\n");
    }
    return bench_output_failed("boxtoi-bench");
}

int main(int argc, char **argv)
{
    bench_options o;
    bench_options_default(&o);
    int reps = 16, digits = 9, emit_s = -1, show_pct = 0;
    const char *timing_only = NULL, *digits_given = NULL; /* options named */
    unsigned flags = 0;

    for (int i = 1; i < argc;) {
        const char *a = argv[i];
        int used = bench_option(&o, argc, argv, i);
        if (used < 0)
            return 2;
        if (used > 0) {
            if (strcmp(a, "--passes") == 0)
                timing_only = a;
            i += used;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return bench_output_failed("boxtoi-bench");
        }
        if (strcmp(a, "--percentiles") == 0) {
            show_pct = 1;
            timing_only = a;
            i++;
            continue;
        }
        if (strcmp(a, "--skip-exit") == 0) {
            flags = BOXTOI_SKIP_EXIT;
            i++;
            continue;
        }
        if (strcmp(a, "--reps") == 0 || strcmp(a, "--digits") == 0 ||
            strcmp(a, "--emit") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "boxtoi-bench: %s needs an argument\n", a);
                return 2;
            }
            const char *v = argv[i + 1];
            if (strcmp(a, "--emit") == 0) {
                if (emit_s >= 0) {
                    fprintf(stderr, "boxtoi-bench: --emit given twice (one scenario at a "
                                    "time)\n");
                    return 2;
                }
                emit_s = bench_scenario_parse(v);
                if (emit_s < 0) {
                    fprintf(stderr, "boxtoi-bench: --emit: unknown scenario '%s'\n", v);
                    return 2;
                }
            } else {
                uint64_t x;
                int hi = strcmp(a, "--digits") == 0 ? 17 : 1000000;
                if (bench_parse_u64(v, (uint64_t) hi, &x) || x == 0) {
                    fprintf(stderr, "boxtoi-bench: %s: expected an integer from 1 to %d, "
                                    "got '%s'\n", a, hi, v);
                    return 2;
                }
                if (strcmp(a, "--reps") == 0) {
                    reps = (int) x;
                    timing_only = a;
                } else {
                    digits = (int) x;
                    digits_given = a;
                }
            }
            i += 2;
            continue;
        }
        fprintf(stderr, "boxtoi-bench: unknown option '%s'\n", a);
        usage(stderr);
        return 2;
    }
    if (emit_s >= 0 && flags) {
        fprintf(stderr, "boxtoi-bench: --skip-exit does not apply to --emit (the tool's "
                        "queries have no such field)\n");
        return 2;
    }
    /* --emit prints one scenario's queries: the timing's options, and a
       choice of scenarios, would be silently dropped */
    if (emit_s >= 0 && (timing_only || o.json || o.any_selected)) {
        fprintf(stderr, "boxtoi-bench: %s does not apply to --emit\n",
                timing_only ? timing_only : o.json ? "--json" : "--scenario");
        return 2;
    }
    if (emit_s < 0 && digits_given) {
        fprintf(stderr, "boxtoi-bench: --digits applies to --emit only\n");
        return 2;
    }
    bench_options_finish(&o);
    if (emit_s >= 0)
        return emit((bench_scenario) emit_s, &o, digits);

    double overhead = bench_clock_overhead_ns();
    if (!o.json) {
        printf("boxtoi %s: boxtoi_solve()%s over %zu random cases per scenario, seed %llu\n",
               boxtoi_version(), flags & BOXTOI_SKIP_EXIT ? " with BOXTOI_SKIP_EXIT" : "",
               o.n, (unsigned long long) o.seed);
        printf("per-case time = least of %d passes of %d back-to-back calls, less the "
               "clock's %.0f ns;\nstream = every case once, in order\n"
               "solver: its %s build (boxtoi_solver_build)\n",
               o.passes, reps, overhead, boxtoi_solver_build());
        print_header();
    }
    int bad = 0, exits = 0;
    for (int s = 0; s < BENCH_SCENARIO_COUNT; s++) {
        if (!o.selected[s])
            continue;
        stats st;
        run_scenario((bench_scenario) s, &o, flags, reps, overhead, &st);
        if (st.other)
            bad = 1;
        /* the flag reached the solver: no exit times */
        if ((flags & BOXTOI_SKIP_EXIT) && st.exits) {
            fprintf(stderr, "boxtoi-bench: %s: %zu answers with an exit time under "
                            "BOXTOI_SKIP_EXIT\n", bench_scenario_name((bench_scenario) s),
                    st.exits);
            exits = 1;
        }
        if (o.json)
            printf("{\"method\":\"%s\",\"scenario\":\"%s\",\"n\":%zu,"
                   "\"ns_median\":%.1f,\"ns_mean\":%.1f}\n",
                   method_name(flags), bench_scenario_name((bench_scenario) s), st.n,
                   st.median, st.mean);
        else
            print_row((bench_scenario) s, &st, flags);
        if (show_pct)
            print_percentiles((bench_scenario) s, &st, o.json, flags);
        fflush(stdout);
    }
    if (bad)
        fprintf(stderr, "boxtoi-bench: some cases were not answered (see above)\n");
    if (bench_output_failed("boxtoi-bench"))
        return 1;
    return bad || exits;
}
