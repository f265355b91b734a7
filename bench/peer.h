/*
 * Shared driver of the peer benchmarks (other libraries' continuous
 * collision on the same random cases as boxtoi-bench).
 *
 * A peer class provides:
 *   const char *method() const            e.g. "fcl-ca"
 *   const char *motion(bench_scenario)    the peer's motion model for it
 *   void prepare(const boxtoi_query *cases, size_t n, bench_scenario s)
 *   bool solve(size_t i, double *toi)     contact in [t0, t1]? and when
 * Only solve() is timed.  Every case has t0 = 0, t1 = 1, so a peer's
 * fraction of the step is a time.
 *
 * The peers take rigid scenarios only: their shapes are boxes under rigid
 * poses.  Their motions interpolate between the poses at t0 and t1 (a
 * translation, a screw, or a linear-plus-constant-spin motion), which is the
 * boxes' true path only in the translation-only scenario; in the others the
 * peers answer a neighbouring question, and part of the disagreement with
 * boxtoi comes from that.
 */
#ifndef BENCH_PEER_H
#define BENCH_PEER_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "boxtoi.h"
#include "cases.h"

/* A box as a peer sees it: half extents, and its centre's pose at t0, t1. */
struct PeerBox {
    double half[3];
    double R[2][3][3]; /* rotation at t0 and t1 */
    double c[2][3];    /* world position of the box's centre at t0 and t1 */
};

static inline void peer_box(const boxtoi_box &b, const boxtoi_motion &m, double t0,
                            double t1, PeerBox *out)
{
    double lc[3];
    for (int i = 0; i < 3; i++) {
        out->half[i] = 0.5 * (b.hi[i] - b.lo[i]);
        lc[i] = 0.5 * (b.hi[i] + b.lo[i]);
    }
    const double ts[2] = {t0, t1};
    for (int k = 0; k < 2; k++) {
        double p[3];
        bench_pose_at(&m, ts[k], out->R[k], p);
        for (int i = 0; i < 3; i++) {
            out->c[k][i] = p[i];
            for (int j = 0; j < 3; j++)
                out->c[k][i] += out->R[k][i][j] * lc[j];
        }
    }
}

struct PeerStats {
    size_t n = 0, contacts = 0, hits = 0;
    size_t misses = 0, missed_overlaps = 0, extra = 0, late = 0, early = 0;
    double median = 0, mean = 0, toi_err_median = 0;
};

static void peer_usage(FILE *f, const char *prog)
{
    std::fprintf(f,
                 "usage: %s [options]\n"
                 "Time another library's continuous collision on boxtoi-bench's\n"
                 "random cases (rigid scenarios only) and compare its answers\n"
                 "with boxtoi_solve().\n%s"
                 "  -v, --verbose   list every case where the answers differ (stderr)\n"
                 "  -h, --help      this text\n",
                 prog, bench_options_help);
}

template <class Peer>
static void peer_run(Peer &peer, bench_scenario s, const bench_options &o, double overhead,
                     int verbose, PeerStats *st)
{
    size_t n = o.n;
    std::vector<boxtoi_query> cases(n);
    bench_make_cases(s, o.seed, n, cases.data());
    peer.prepare(cases.data(), n, s);

    std::vector<double> per(n, 1e300), err;
    std::vector<char> got(n);
    std::vector<double> toi(n);
    st->n = n;
    for (size_t i = 0; i < n; i++) {
        double t = NAN;
        got[i] = peer.solve(i, &t);
        toi[i] = t;
    }
    for (int p = 0; p < o.passes; p++)
        for (size_t i = 0; i < n; i++) {
            double t;
            double a = bench_now_ns();
            peer.solve(i, &t);
            double dt = std::fmax(bench_now_ns() - a - overhead, 0.0);
            if (dt < per[i])
                per[i] = dt;
        }
    st->mean = bench_mean(per.data(), n);
    st->median = bench_median(per.data(), n);

    /* Accuracy: boxtoi's answer is the reference. */
    const double tol = 1e-3; /* of the interval */
    for (size_t i = 0; i < n; i++) {
        boxtoi_result r = boxtoi_solve(&cases[i]);
        bool ref = r.state == BOXTOI_HIT || r.state == BOXTOI_OVERLAP;
        if (ref)
            st->contacts++;
        if (r.state == BOXTOI_HIT)
            st->hits++;
        if (verbose && (ref != bool(got[i]) || (ref && std::fabs(toi[i] - r.toi) > tol)))
            std::fprintf(stderr,
                         "%s %s case %zu: boxtoi %s toi %.9g exit %.9g (%s), peer %s toi %.9g\n",
                         peer.method(), bench_scenario_name(s), i,
                         boxtoi_state_name(r.state), r.toi,
                         r.exit_after_t1 ? cases[i].t1 : r.exit, boxtoi_kind_name(r.kind),
                         got[i] ? "contact" : "none", toi[i]);
        if (ref && !got[i]) {
            st->misses++;
            if (r.state == BOXTOI_OVERLAP)
                st->missed_overlaps++;
        } else if (!ref && got[i] && r.state == BOXTOI_MISS) {
            st->extra++;
        } else if (ref && got[i]) {
            double d = toi[i] - r.toi;
            err.push_back(std::fabs(d));
            if (d > tol)
                st->late++;
            else if (d < -tol)
                st->early++;
        }
    }
    st->toi_err_median = err.empty() ? NAN : bench_median(err.data(), err.size());
}

template <class Peer>
static int peer_main(Peer &peer, int argc, char **argv)
{
    bench_options o;
    bench_options_default(&o);
    int verbose = 0;
    const char *prog = bench_program_name(argv[0]);
    for (int i = 1; i < argc;) {
        int used = bench_option(&o, argc, argv, i);
        if (used < 0)
            return 2;
        if (used > 0) {
            i += used;
            continue;
        }
        if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
            peer_usage(stdout, prog);
            return bench_output_failed(prog);
        }
        if (!std::strcmp(argv[i], "-v") || !std::strcmp(argv[i], "--verbose")) {
            verbose = 1;
            i++;
            continue;
        }
        std::fprintf(stderr, "%s: unknown option or missing argument '%s'\n", prog, argv[i]);
        peer_usage(stderr, prog);
        return 2;
    }
    bench_options_finish(&o);

    double overhead = bench_clock_overhead_ns();
    if (!o.json) {
        std::printf("%s: %zu random cases per scenario, seed %llu; boxtoi is the reference\n"
                    "per-case time = least of %d passes of one call, less the clock's "
                    "%.0f ns\n",
                    peer.method(), o.n, (unsigned long long) o.seed, o.passes, overhead);
        std::printf("%-17s %6s %-12s %10s %10s %8s %7s %6s %6s %6s %11s\n", "scenario", "n",
                    "motion", "median ns", "mean ns", "contacts", "misses", "extra",
                    "late", "early", "|dtoi| med");
    }
    for (int si = 0; si < BENCH_SCENARIO_COUNT; si++) {
        bench_scenario s = (bench_scenario) si;
        if (!o.selected[si])
            continue;
        if (!bench_scenario_rigid(s)) {
            if (!o.json)
                std::printf("%-17s %6s %-12s (shear and scale: not a rigid box, skipped)\n",
                            bench_scenario_name(s), "-", "-");
            continue;
        }
        PeerStats st;
        peer_run(peer, s, o, overhead, verbose, &st);
        /* the median difference of the contact times, over the contacts both
           found: none when there are none (null, or "-" in the table) */
        char err[32];
        if (std::isnan(st.toi_err_median))
            std::strcpy(err, o.json ? "null" : "-");
        else if (o.json)
            std::snprintf(err, sizeof err, "%.3g", st.toi_err_median);
        else
            std::snprintf(err, sizeof err, "%.2g", st.toi_err_median);
        if (o.json) {
            std::printf("{\"method\":\"%s\",\"scenario\":\"%s\",\"n\":%zu,"
                        "\"ns_median\":%.1f,\"ns_mean\":%.1f}\n",
                        peer.method(), bench_scenario_name(s), st.n, st.median, st.mean);
            std::printf("{\"method\":\"%s\",\"kind\":\"accuracy\",\"scenario\":\"%s\","
                        "\"n\":%zu,\"motion\":\"%s\",\"contacts\":%zu,\"misses\":%zu,"
                        "\"missed_overlaps\":%zu,\"extra\":%zu,\"late\":%zu,"
                        "\"early\":%zu,\"toi_err_median\":%s}\n",
                        peer.method(), bench_scenario_name(s), st.n, peer.motion(s),
                        st.contacts, st.misses, st.missed_overlaps, st.extra, st.late,
                        st.early, err);
        } else {
            std::printf("%-17s %6zu %-12s %10.1f %10.1f %8zu %7zu %6zu %6zu %6zu %11s\n",
                        bench_scenario_name(s), st.n, peer.motion(s), st.median, st.mean,
                        st.contacts, st.misses, st.extra, st.late, st.early, err);
        }
        std::fflush(stdout);
    }
    if (!o.json)
        std::printf("contacts: boxtoi's hits and overlaps; misses: of those, the peer "
                    "found none;\nextra: the peer reports a contact boxtoi does not; "
                    "late/early: the peer's time differs by more than 1e-3.\n");
    return bench_output_failed(prog);
}

#endif /* BENCH_PEER_H */
