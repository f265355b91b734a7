/*
 * fcl-peer: FCL's continuous collision (conservative advancement) on
 * boxtoi-bench's random cases.
 *
 * Each box becomes an fcl::Box (full side lengths) posed at its centre; the
 * motion is given to FCL as the two poses at t0 and t1 and FCL interpolates:
 * a pure translation (CCDM_TRANS) where the orientations are constant, else
 * a screw motion (CCDM_SCREW).  The timed call is fcl::continuousCollide()
 * with CCDC_CONSERVATIVE_ADVANCEMENT and the libccd GJK solver, FCL's
 * defaults otherwise.
 */
#include <fcl/narrowphase/continuous_collision.h>
#include <fcl/geometry/shape/box.h>

#include "peer.h"

namespace {

fcl::Transform3d pose(const PeerBox &b, int k)
{
    fcl::Matrix3d R;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R(i, j) = b.R[k][i][j];
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    tf.linear() = R;
    tf.translation() = fcl::Vector3d(b.c[k][0], b.c[k][1], b.c[k][2]);
    return tf;
}

struct FclCase {
    fcl::Boxd a, b;
    fcl::Transform3d a0, a1, b0, b1;
    FclCase(const PeerBox &pa, const PeerBox &pb)
        : a(2 * pa.half[0], 2 * pa.half[1], 2 * pa.half[2]),
          b(2 * pb.half[0], 2 * pb.half[1], 2 * pb.half[2]), a0(pose(pa, 0)),
          a1(pose(pa, 1)), b0(pose(pb, 0)), b1(pose(pb, 1))
    {
    }
};

class FclPeer {
public:
    const char *method() const { return "fcl-ca"; }

    const char *motion(bench_scenario s) const
    {
        return bench_scenario_translation_only(s) ? "translation" : "screw";
    }

    void prepare(const boxtoi_query *cases, size_t n, bench_scenario s)
    {
        cases_.clear();
        cases_.reserve(n);
        for (size_t i = 0; i < n; i++) {
            PeerBox pa, pb;
            peer_box(cases[i].a, cases[i].motion_a, cases[i].t0, cases[i].t1, &pa);
            peer_box(cases[i].b, cases[i].motion_b, cases[i].t0, cases[i].t1, &pb);
            cases_.emplace_back(pa, pb);
        }
        request_.ccd_motion_type =
            bench_scenario_translation_only(s) ? fcl::CCDM_TRANS : fcl::CCDM_SCREW;
        request_.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
        request_.gjk_solver_type = fcl::GST_LIBCCD;
    }

    bool solve(size_t i, double *toi)
    {
        const FclCase &c = cases_[i];
        fcl::ContinuousCollisionResultd result;
        fcl::continuousCollide(&c.a, c.a0, c.a1, &c.b, c.b0, c.b1, request_, result);
        *toi = result.time_of_contact;
        return result.is_collide;
    }

private:
    std::vector<FclCase, Eigen::aligned_allocator<FclCase>> cases_;
    fcl::ContinuousCollisionRequestd request_;
};

} // namespace

int main(int argc, char **argv)
{
    FclPeer peer;
    return peer_main(peer, argc, argv);
}
