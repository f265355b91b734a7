// A peer that calls no library: it reports a contact at the middle of the
// interval for every third case and none for the others.  It runs the
// peers' shared driver (peer.h: options, timing, the comparison with
// boxtoi_solve and the records) where neither FCL nor Bullet is installed;
// tests/test-bench.sh checks what it prints.
#include "peer.h"

namespace {
struct StandIn {
    const boxtoi_query *cases = nullptr;
    const char *method() const { return "stand-in"; }
    const char *motion(bench_scenario) const { return "none"; }
    void prepare(const boxtoi_query *c, size_t, bench_scenario) { cases = c; }
    bool solve(size_t i, double *t)
    {
        *t = 0.5 * (cases[i].t0 + cases[i].t1);
        return i % 3 == 0;
    }
};
} // namespace

int main(int argc, char **argv)
{
    StandIn peer;
    return peer_main(peer, argc, argv);
}
