/*
 * The names the solver's objects define for the linker (internal).
 *
 * The sources call their internal functions by short names (bx_ for boxes
 * and motions, bxp_ for polynomials); in the objects each carries the
 * library's prefix, so that a program linked with the static library, which
 * holds these names too, can use any name of its own that does not begin
 * with boxtoi_.  Every header that declares one of them includes this one
 * first; tests/test-library.sh finds any name defined without the prefix.
 */
#ifndef BOXTOI_LINKNAMES_H
#define BOXTOI_LINKNAMES_H

#ifdef BX_VARIANT_AVX2
/*
 * The copy of the solver compiled for AVX2 (lib/Makefile.am, dispatch.c):
 * its names, the public functions' included, carry boxtoi_avx2_ instead,
 * so that it links beside the baseline build.  This header is included
 * first in each of its files (-include), before boxtoi.h; without
 * BOXTOI_BUILDING, boxtoi.h leaves its public functions hidden.
 */
#define BX_LINKNAME(name) boxtoi_avx2_##name
#define boxtoi_default_query    boxtoi_avx2_default_query
#define boxtoi_feature_name     boxtoi_avx2_feature_name
#define boxtoi_kind_name        boxtoi_avx2_kind_name
#define boxtoi_motion_apply     boxtoi_avx2_motion_apply
#define boxtoi_motion_constant  boxtoi_avx2_motion_constant
#define boxtoi_motion_eval      boxtoi_avx2_motion_eval
#define boxtoi_motion_identity  boxtoi_avx2_motion_identity
#define boxtoi_motion_multiply  boxtoi_avx2_motion_multiply
#define boxtoi_motion_rigid     boxtoi_avx2_motion_rigid
#define boxtoi_overlap_at       boxtoi_avx2_overlap_at
#define boxtoi_reason_message   boxtoi_avx2_reason_message
#define boxtoi_solve            boxtoi_avx2_solve
#define boxtoi_solver_build     boxtoi_avx2_solver_build
#define boxtoi_state_name       boxtoi_avx2_state_name
#define boxtoi_swept_aabb       boxtoi_avx2_swept_aabb
#define boxtoi_validate         boxtoi_avx2_validate
#define boxtoi_version          boxtoi_avx2_version
#else
#define BX_LINKNAME(name) boxtoi_##name
#endif

/* the AVX2 build's entry point, as the baseline build calls it */
#define bx_solve_avx2           boxtoi_avx2_bx_solve

#define bx_balance_frame        BX_LINKNAME(bx_balance_frame)
#define bx_check_det            BX_LINKNAME(bx_check_det)
#define bx_check_det2           BX_LINKNAME(bx_check_det2)
#define bx_check_interval       BX_LINKNAME(bx_check_interval)
#define bx_det_margin_max       BX_LINKNAME(bx_det_margin_max)
#define bx_gap_const            BX_LINKNAME(bx_gap_const)
#define bx_gap_piece_bounds     BX_LINKNAME(bx_gap_piece_bounds)
#define bx_gap_rational_bounds  BX_LINKNAME(bx_gap_rational_bounds)
#define bx_gap_sample_of        BX_LINKNAME(bx_gap_sample_of)
#define bx_gap_speeds           BX_LINKNAME(bx_gap_speeds)
#define bx_gap_terms            BX_LINKNAME(bx_gap_terms)
#define bx_gap_wmin             BX_LINKNAME(bx_gap_wmin)
#define bx_lanes_built          BX_LINKNAME(bx_lanes_built)
#define bx_locally_small        BX_LINKNAME(bx_locally_small)
#define bx_piece_times          BX_LINKNAME(bx_piece_times)
#define bx_pose_at              BX_LINKNAME(bx_pose_at)
#define bx_prepare              BX_LINKNAME(bx_prepare)
#define bx_prepare_pair         BX_LINKNAME(bx_prepare_pair)
#define bx_prepare_partial      BX_LINKNAME(bx_prepare_partial)
#define bx_reach                BX_LINKNAME(bx_reach)
#define bx_rescale              BX_LINKNAME(bx_rescale)
#define bx_scale_lengths        BX_LINKNAME(bx_scale_lengths)
#define bx_solve                BX_LINKNAME(bx_solve)
#define bx_swept_aabb           BX_LINKNAME(bx_swept_aabb)
#define bx_swept_test           BX_LINKNAME(bx_swept_test)
#define bx_tiny_exponent        BX_LINKNAME(bx_tiny_exponent)
#define bx_tiny_length          BX_LINKNAME(bx_tiny_length)
#define bx_trim                 BX_LINKNAME(bx_trim)
#define bx_w_uneven             BX_LINKNAME(bx_w_uneven)
#define bx_world_size           BX_LINKNAME(bx_world_size)
#define bxp_bern_eval           BX_LINKNAME(bxp_bern_eval)
#define bxp_bern_first          BX_LINKNAME(bxp_bern_first)
#define bxp_bern_first_local    BX_LINKNAME(bxp_bern_first_local)
#define bxp_bern_first_tol      BX_LINKNAME(bxp_bern_first_tol)
#define bxp_bern_restrict       BX_LINKNAME(bxp_bern_restrict)
#define bxp_bern_restrict2      BX_LINKNAME(bxp_bern_restrict2)
#define bxp_bern_roots          BX_LINKNAME(bxp_bern_roots)
#define bxp_binomial            BX_LINKNAME(bxp_binomial)
#define bxp_power_eval          BX_LINKNAME(bxp_power_eval)
#define bxp_power_reparam       BX_LINKNAME(bxp_power_reparam)
#define bxp_power_reparam_sbern_dd BX_LINKNAME(bxp_power_reparam_sbern_dd)
#define bxp_power_to_sbern      BX_LINKNAME(bxp_power_to_sbern)
#define bxp_sbern_elevate       BX_LINKNAME(bxp_sbern_elevate)
#define bxp_sbern_eval          BX_LINKNAME(bxp_sbern_eval)
#define bxp_sbern_mul           BX_LINKNAME(bxp_sbern_mul)
#define bxp_sbern_muladd        BX_LINKNAME(bxp_sbern_muladd)
#define bxp_sbern_to_bern       BX_LINKNAME(bxp_sbern_to_bern)

#endif
