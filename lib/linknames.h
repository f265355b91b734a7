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

#define bx_balance_frame        boxtoi_bx_balance_frame
#define bx_check_det            boxtoi_bx_check_det
#define bx_check_det2           boxtoi_bx_check_det2
#define bx_check_interval       boxtoi_bx_check_interval
#define bx_det_margin_max       boxtoi_bx_det_margin_max
#define bx_gap_const            boxtoi_bx_gap_const
#define bx_gap_piece_bounds     boxtoi_bx_gap_piece_bounds
#define bx_gap_rational_bounds  boxtoi_bx_gap_rational_bounds
#define bx_gap_sample_of        boxtoi_bx_gap_sample_of
#define bx_gap_speeds           boxtoi_bx_gap_speeds
#define bx_gap_terms            boxtoi_bx_gap_terms
#define bx_gap_wmin             boxtoi_bx_gap_wmin
#define bx_lanes_built          boxtoi_bx_lanes_built
#define bx_locally_small        boxtoi_bx_locally_small
#define bx_piece_times          boxtoi_bx_piece_times
#define bx_pose_at              boxtoi_bx_pose_at
#define bx_prepare              boxtoi_bx_prepare
#define bx_prepare_pair         boxtoi_bx_prepare_pair
#define bx_prepare_partial      boxtoi_bx_prepare_partial
#define bx_rescale              boxtoi_bx_rescale
#define bx_scale_lengths        boxtoi_bx_scale_lengths
#define bx_swept_aabb           boxtoi_bx_swept_aabb
#define bx_swept_test           boxtoi_bx_swept_test
#define bx_tiny_length          boxtoi_bx_tiny_length
#define bx_trim                 boxtoi_bx_trim
#define bx_w_uneven             boxtoi_bx_w_uneven
#define bx_world_size           boxtoi_bx_world_size
#define bxp_bern_eval           boxtoi_bxp_bern_eval
#define bxp_bern_first          boxtoi_bxp_bern_first
#define bxp_bern_first_local    boxtoi_bxp_bern_first_local
#define bxp_bern_first_tol      boxtoi_bxp_bern_first_tol
#define bxp_bern_restrict       boxtoi_bxp_bern_restrict
#define bxp_bern_restrict2      boxtoi_bxp_bern_restrict2
#define bxp_bern_roots          boxtoi_bxp_bern_roots
#define bxp_binomial            boxtoi_bxp_binomial
#define bxp_power_eval          boxtoi_bxp_power_eval
#define bxp_power_reparam       boxtoi_bxp_power_reparam
#define bxp_power_reparam_sbern_dd boxtoi_bxp_power_reparam_sbern_dd
#define bxp_power_to_sbern      boxtoi_bxp_power_to_sbern
#define bxp_sbern_elevate       boxtoi_bxp_sbern_elevate
#define bxp_sbern_eval          boxtoi_bxp_sbern_eval
#define bxp_sbern_mul           boxtoi_bxp_sbern_mul
#define bxp_sbern_muladd        boxtoi_bxp_sbern_muladd
#define bxp_sbern_to_bern       boxtoi_bxp_sbern_to_bern

#endif
