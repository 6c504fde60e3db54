// Station-beam A-terms for Image-Domain Gridding (image/idg/aterms = Station beams): the
// per-station Jones matrices of fringe/jones evaluated on the subgrid pixels, and the average
// beam the image is divided by. docs/imager.md, "A-terms".
//
// One A-term set per (A-term interval, channel group) of the plan: the plan's aterm_index
// (an interval counted from each baseline's first time) is renumbered here to index those
// sets. For each set:
// - time: the middle of the first and last time of the rows of its subgrids (MS TIME, UTC;
//   GAST from it as in the simulator, UT1 = UTC);
// - frequency: the middle of the channel group;
// - directions: subgrid pixel (x', y') of the Ns x Ns subgrid spans the padded image field
//   L = grid_size x cell: (l, m) = pixel_lmn(x', y', Ns, L) about the beam's phase centre
//   (RA, Dec) by the SIN projection; pixels beyond l^2 + m^2 = 1 get A = 0;
// - Jones: four products with telescope/pol_mode Full: J = E R (jones::evaluate_station_jones
//   _full, the simulator's convention); otherwise the scalar beam E (evaluate_station_jones
//   _scalar) on the diagonal (one product: its J00 is what the gridder uses).
// Beam pointing: tracking, at the Measurement Set's phase centre (the simulator's default).
//
// Normalisation. Gridding applies A_p^H X A_q; for an unpolarised source of flux S whose
// visibilities are V_pq = J_p S J_q^H, the Stokes I image peak is sum_k w_k b_pq S / sum_k w_k
// with b_pq = tr(G_p G_q) / 2, G = A^H A (= |a_p|^2 |a_q|^2 for scalar A-terms). The average
// beam B = sum_subgrids W_s b_pq / sum_subgrids W_s (W_s: the summed imaging weight of the
// subgrid's visibilities) is accumulated on the subgrid pixels and interpolated to the image
// pixels (Catmull-Rom bicubic); image / B has the true flux.
#pragma once

#include <array>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/imager/aterms.h"
#include "fringe/imager/geometry.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

template <typename T>
struct BeamATerms {
  ATerms<T> aterms;                        // [set][station][y'][x'][4]
  std::vector<double> average_lattice;     // B on the subgrid pixels [y'][x'] (Ns x Ns)
  int num_sets = 0;                        // (interval, channel group) pairs
  std::size_t stations_below_horizon = 0;  // summed over sets (their beams are 0)
};

// Evaluates the station-beam A-terms of `plan` (whose aterm_index values are renumbered to
// the sets) for the visibilities `vis` (num_pols 1 or 4; weights used for B). beam_centre_rad:
// the observation's phase centre (RA, Dec), where the beams point; image_centre_rad: the
// image's phase centre (the same unless re-phased). Throws fringe::Error when the telescope
// model is missing or has fewer stations than the Measurement Set uses, or when the beam
// cannot be evaluated (e.g. a Gaussian beam wider than 180 deg at a frequency).
template <typename T>
BeamATerms<T> station_beam_aterms(const ATermConfig& config, const GridGeometry& geometry,
                                  std::array<double, 2> beam_centre_rad,
                                  std::array<double, 2> image_centre_rad, const VisBuffer<T>& vis,
                                  Plan& plan, Logger* log = nullptr);

// The average beam B interpolated from the Ns x Ns subgrid pixels to the image pixels
// [y][x] (n x n, n = geometry.image_size), Catmull-Rom bicubic (edges clamped).
std::vector<double> average_beam_image(const std::vector<double>& lattice,
                                       const GridGeometry& geometry);

}  // namespace fringe::imager
