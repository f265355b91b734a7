/*
 * bullet-peer: Bullet's btContinuousConvexCollision (conservative
 * advancement over GJK) on boxtoi-bench's random cases.
 *
 * Each box becomes a btBoxShape posed at its centre, with collision margin 0
 * so that it is the exact box (Bullet's default margin rounds edges and
 * corners).  Bullet derives a constant linear and angular velocity from the
 * poses at t0 and t1 and advances along that motion.  The timed call is
 * calcTimeOfImpact(); the simplex and penetration solvers are reused.
 */
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <memory>

#include "peer.h"

namespace {

btTransform pose(const PeerBox &b, int k)
{
    btMatrix3x3 R(btScalar(b.R[k][0][0]), btScalar(b.R[k][0][1]), btScalar(b.R[k][0][2]),
                  btScalar(b.R[k][1][0]), btScalar(b.R[k][1][1]), btScalar(b.R[k][1][2]),
                  btScalar(b.R[k][2][0]), btScalar(b.R[k][2][1]), btScalar(b.R[k][2][2]));
    return btTransform(R, btVector3(btScalar(b.c[k][0]), btScalar(b.c[k][1]),
                                    btScalar(b.c[k][2])));
}

struct BulletCase {
    std::unique_ptr<btBoxShape> a, b;
    btTransform a0, a1, b0, b1;
};

std::unique_ptr<btBoxShape> make_box(const PeerBox &p)
{
    std::unique_ptr<btBoxShape> box(new btBoxShape(
        btVector3(btScalar(p.half[0]), btScalar(p.half[1]), btScalar(p.half[2]))));
    box->setMargin(0);
    return box;
}

class BulletPeer {
public:
    const char *method() const { return "bullet-ca"; }

    const char *motion(bench_scenario s) const
    {
        return bench_scenario_translation_only(s) ? "translation" : "lin+spin";
    }

    void prepare(const boxtoi_query *cases, size_t n, bench_scenario)
    {
        cases_.clear();
        cases_.resize(n);
        for (size_t i = 0; i < n; i++) {
            PeerBox pa, pb;
            peer_box(cases[i].a, cases[i].motion_a, cases[i].t0, cases[i].t1, &pa);
            peer_box(cases[i].b, cases[i].motion_b, cases[i].t0, cases[i].t1, &pb);
            BulletCase &c = cases_[i];
            c.a = make_box(pa);
            c.b = make_box(pb);
            c.a0 = pose(pa, 0);
            c.a1 = pose(pa, 1);
            c.b0 = pose(pb, 0);
            c.b1 = pose(pb, 1);
        }
    }

    bool solve(size_t i, double *toi)
    {
        BulletCase &c = cases_[i];
        btContinuousConvexCollision cc(c.a.get(), c.b.get(), &simplex_, &depth_);
        btConvexCast::CastResult result;
        bool hit = cc.calcTimeOfImpact(c.a0, c.a1, c.b0, c.b1, result);
        *toi = hit ? double(result.m_fraction) : NAN;
        return hit;
    }

private:
    std::vector<BulletCase> cases_;
    btVoronoiSimplexSolver simplex_;
    btGjkEpaPenetrationDepthSolver depth_;
};

} // namespace

int main(int argc, char **argv)
{
    BulletPeer peer;
    return peer_main(peer, argc, argv);
}
