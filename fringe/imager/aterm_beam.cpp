#include "fringe/imager/aterm_beam.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "fringe/astro/direction.h"
#include "fringe/astro/time.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/jones.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/station_jones.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::imager {

namespace {

// One A-term set: a (baseline start time, interval, channel group) the plan made.
struct SetKey {
  double baseline_t0;
  int interval;
  std::uint32_t chan_begin, num_channels;
  bool operator<(const SetKey& o) const {
    return std::tie(baseline_t0, interval, chan_begin, num_channels) <
           std::tie(o.baseline_t0, o.interval, o.chan_begin, o.num_channels);
  }
};

struct SetInfo {
  int index = 0;
  double t_min = 0, t_max = 0;
  double freq_hz = 0;
};

// tr(G_p G_q) / 2 with G = A^H A, A row-major [a b; c d]: the gain a Stokes I image of an
// unpolarised source gets from gridding with A_p^H X A_q (see the header).
template <typename T>
double beam_gain(const Complex<T>* ap, const Complex<T>* aq, bool scalar) {
  auto gram = [](const Complex<T>* a, Complex<double> g[4]) {
    const Complex<double> x[4] = {{double(a[0].re), double(a[0].im)},
                                  {double(a[1].re), double(a[1].im)},
                                  {double(a[2].re), double(a[2].im)},
                                  {double(a[3].re), double(a[3].im)}};
    // (A^H A)_ij = sum_k conj(A_ki) A_kj.
    g[0] = conj(x[0]) * x[0] + conj(x[2]) * x[2];
    g[1] = conj(x[0]) * x[1] + conj(x[2]) * x[3];
    g[2] = conj(x[1]) * x[0] + conj(x[3]) * x[2];
    g[3] = conj(x[1]) * x[1] + conj(x[3]) * x[3];
  };
  if (scalar) {
    const double p = double(ap[0].re) * ap[0].re + double(ap[0].im) * ap[0].im;
    const double q = double(aq[0].re) * aq[0].re + double(aq[0].im) * aq[0].im;
    return p * q;
  }
  Complex<double> gp[4], gq[4];
  gram(ap, gp);
  gram(aq, gq);
  // tr(Gp Gq) = sum_ij Gp_ij Gq_ji.
  const Complex<double> t = gp[0] * gq[0] + gp[1] * gq[2] + gp[2] * gq[1] + gp[3] * gq[3];
  return 0.5 * t.re;
}

// Catmull-Rom weights for the fractional offset t in [0, 1) (points -1, 0, 1, 2).
void cubic_weights(double t, double w[4]) {
  const double t2 = t * t, t3 = t2 * t;
  w[0] = 0.5 * (-t3 + 2 * t2 - t);
  w[1] = 0.5 * (3 * t3 - 5 * t2 + 2);
  w[2] = 0.5 * (-3 * t3 + 4 * t2 + t);
  w[3] = 0.5 * (t3 - t2);
}

// The telescope model of the A-terms: present, with every station the visibilities use.
template <typename T>
const telescope::TelescopeModel& checked_telescope(const ATermConfig& config,
                                                   const VisBuffer<T>& vis) {
  if (!config.telescope)
    throw Error(
        "imager: station-beam A-terms (ATermConfig.mode) need a telescope model "
        "(ATermConfig.telescope)");
  const telescope::TelescopeModel& tel = *config.telescope;
  const int nst = static_cast<int>(tel.num_stations());
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    if (vis.station1[r] >= nst || vis.station2[r] >= nst)
      throw Error("imager: the Measurement Set uses station " +
                  std::to_string(std::max(vis.station1[r], vis.station2[r])) +
                  " but the telescope model '" + tel.directory + "' has " + std::to_string(nst) +
                  " stations (station-beam A-terms, ATermConfig.mode, need the model the data "
                  "were observed with)");
  return tel;
}

// The A-term sets of the plan, numbered in order; each subgrid's aterm_index becomes the
// number of its set.
template <typename T>
std::map<SetKey, SetInfo> assign_sets(const VisBuffer<T>& vis, Plan& plan) {
  // Each baseline's first time: the origin of the plan's interval numbers.
  std::vector<double> t0(vis.num_rows);
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    t0[r] = (r == 0 || vis.baseline[r] != vis.baseline[r - 1]) ? vis.time_s[r] : t0[r - 1];
  std::map<SetKey, SetInfo> sets;
  std::vector<std::map<SetKey, SetInfo>::iterator> of_subgrid(plan.subgrids.size());
  for (std::size_t i = 0; i < plan.subgrids.size(); ++i) {
    const Subgrid& s = plan.subgrids[i];
    const SetKey key{t0[s.row_begin], s.aterm_index, s.chan_begin, s.num_channels};
    const double ta = vis.time_s[s.row_begin], tb = vis.time_s[s.row_begin + s.num_rows - 1];
    auto [it, fresh] = sets.try_emplace(key);
    if (fresh) {
      it->second.t_min = ta;
      it->second.t_max = tb;
      it->second.freq_hz =
          0.5 * (vis.freq_hz[s.chan_begin] + vis.freq_hz[s.chan_begin + s.num_channels - 1]);
    }
    it->second.t_min = std::min(it->second.t_min, ta);
    it->second.t_max = std::max(it->second.t_max, tb);
    of_subgrid[i] = it;
  }
  int next = 0;
  for (auto& [key, info] : sets) info.index = next++;
  for (std::size_t i = 0; i < plan.subgrids.size(); ++i)
    plan.subgrids[i].aterm_index = of_subgrid[i]->second.index;
  return sets;
}

// The subgrid pixels inside the unit circle ([y'][x'] index) and their directions.
struct SubgridDirections {
  std::vector<std::size_t> pix;
  std::vector<double> ra, dec;
};

SubgridDirections subgrid_directions(const GridGeometry& g, std::array<double, 2> image_centre) {
  SubgridDirections d;
  const int ns = g.subgrid_size;
  for (int y = 0; y < ns; ++y)
    for (int x = 0; x < ns; ++x) {
      double l, m, nm1;
      pixel_lmn<double>(x, y, ns, g.image_width_lm(), &l, &m, &nm1);
      if (l * l + m * m >= 1.0) continue;
      double r, dec;
      astro::lm_to_radec(l, m, image_centre[0], image_centre[1], r, dec);
      d.pix.push_back(std::size_t(y) * ns + x);
      d.ra.push_back(r);
      d.dec.push_back(dec);
    }
  return d;
}

// The station beams of every set on the directions into out.aterms.values (full: J = E R, else
// the scalar E on the diagonal); counts the stations below the horizon.
template <typename T>
void evaluate_sets(const ATermConfig& config, const telescope::TelescopeModel& tel,
                   const std::map<SetKey, SetInfo>& sets, const SubgridDirections& dirs,
                   std::array<double, 2> beam_centre, bool full, BeamATerms<T>& out) {
  ATerms<T>& a = out.aterms;
  const int nst = a.num_stations;
  const std::size_t np = a.pixels();
  std::optional<jones::ApertureArrayModel> aa;
  if (config.beam.station_type == jones::StationType::ApertureArray)
    aa.emplace(tel, config.beam.aperture_array);
  const std::vector<astro::Geodetic> sites = jones::station_sites(tel);
  jones::StationJonesInput in;
  in.stations = sites;  // (spans: the vectors outlive the evaluations)
  in.pointing = jones::default_pointing(false, beam_centre[0], beam_centre[1]);
  in.ra = dirs.ra;
  in.dec = dirs.dec;
  in.aperture_array = aa ? &*aa : nullptr;
  std::vector<Jones<double>> jf;
  std::vector<Complex<double>> js;
  const std::size_t nd = dirs.pix.size();
  auto c = [](Complex<double> z) { return Complex<T>{T(z.re), T(z.im)}; };
  for (const auto& [key, info] : sets) {
    // MS TIME is MJD(UTC) in seconds; like the simulator, UT1 is taken as UTC.
    in.gast_rad = astro::gast_rad(0.5 * (info.t_min + info.t_max) / kSecondsPerDay);
    in.freq_hz = info.freq_hz;
    if (full) {
      jf.resize(std::size_t(nst) * nd);
      out.stations_below_horizon +=
          jones::evaluate_station_jones_full<double>(config.beam, in, jf, nullptr);
    } else {
      js.resize(std::size_t(nst) * nd);
      out.stations_below_horizon +=
          jones::evaluate_station_jones_scalar<double>(config.beam, in, js, nullptr);
    }
    for (int p = 0; p < nst; ++p) {
      Complex<T>* dst = a.values.data() + (std::size_t(info.index) * nst + p) * np * 4;
      for (std::size_t k = 0; k < nd; ++k) {
        Complex<T>* e = dst + dirs.pix[k] * 4;
        if (full) {
          const Jones<double>& j = jf[std::size_t(p) * nd + k];
          e[0] = c(j.a);
          e[1] = c(j.b);
          e[2] = c(j.c);
          e[3] = c(j.d);
        } else {
          const Complex<double> z = js[std::size_t(p) * nd + k];
          e[0] = c(z);
          e[3] = c(z);
        }
      }
    }
  }
}

// The average beam on the subgrid pixels, weighted by each subgrid's imaging weight: the
// weights are summed per (set, station pair) first (many subgrids share one), then each
// pair's b_pq is added once.
template <typename T>
std::vector<double> average_lattice(const ATerms<T>& a, const Plan& plan, const VisBuffer<T>& vis,
                                    bool scalar) {
  std::map<std::tuple<int, int, int>, double> pair_weight;
  double wsum = 0;
  for (const Subgrid& s : plan.subgrids) {
    double w = 0;
    for (std::uint32_t r = 0; r < s.num_rows; ++r)
      for (std::uint32_t c = 0; c < s.num_channels; ++c) {
        const float x =
            vis.weight[(std::size_t(s.row_begin) + r) * vis.num_channels + s.chan_begin + c];
        w += x > 0 ? x : 0.0;
      }
    if (!(w > 0)) continue;
    wsum += w;
    pair_weight[{s.aterm_index, s.station1, s.station2}] += w;
  }
  const std::size_t np = a.pixels();
  std::vector<double> lattice(np, 0.0);
  for (const auto& [pair, w] : pair_weight) {
    const auto [set, p, q] = pair;
    const Complex<T>* ap = a.at(set, p);
    const Complex<T>* aq = a.at(set, q);
    for (std::size_t k = 0; k < np; ++k)
      lattice[k] += w * beam_gain(ap + 4 * k, aq + 4 * k, scalar);
  }
  if (wsum > 0)
    for (double& b : lattice) b /= wsum;
  return lattice;
}

}  // namespace

template <typename T>
BeamATerms<T> station_beam_aterms(const ATermConfig& config, const GridGeometry& g,
                                  std::array<double, 2> beam_centre,
                                  std::array<double, 2> image_centre, const VisBuffer<T>& vis,
                                  Plan& plan, Logger* log) {
  const telescope::TelescopeModel& tel = checked_telescope(config, vis);
  const int nst = static_cast<int>(tel.num_stations());
  const std::map<SetKey, SetInfo> sets = assign_sets(vis, plan);
  const int num_sets = static_cast<int>(sets.size());

  BeamATerms<T> out;
  out.num_sets = num_sets;
  ATerms<T>& a = out.aterms;
  a.num_stations = nst;
  a.num_intervals = std::max(num_sets, 1);
  a.subgrid_size = g.subgrid_size;
  a.values.assign(std::size_t(a.num_intervals) * nst * a.pixels() * 4, Complex<T>{T(0), T(0)});

  const bool four = vis.num_pols == 4;
  const bool full = four && config.full_polarisation;
  evaluate_sets(config, tel, sets, subgrid_directions(g, image_centre), beam_centre, full, out);
  const int ns = g.subgrid_size;
  log_info(log, "imager: station-beam A-terms: " + std::to_string(num_sets) +
                    " set(s) (A-term intervals x channel groups) of " + std::to_string(nst) +
                    " stations on " + std::to_string(ns) + " x " + std::to_string(ns) +
                    " subgrid pixels" + (full ? " (E R, full Jones)" : " (scalar E)"));
  out.average_lattice = average_lattice(a, plan, vis, !four);
  return out;
}

std::vector<double> average_beam_image(const std::vector<double>& lattice, const GridGeometry& g) {
  const int ns = g.subgrid_size, n = g.image_size;
  if (lattice.size() != std::size_t(ns) * ns)
    throw Error("imager: average beam of " + std::to_string(lattice.size()) +
                " values for a subgrid of " + std::to_string(ns) + " x " + std::to_string(ns));
  // Image pixel x sits at subgrid pixel x' = Ns/2 + (x - n/2) Ns / g: both have l = -(x - n/2)
  // cell = -(x' - Ns/2) L / Ns with L = g cell (geometry.h).
  auto at = [&](int x, int y) {
    x = std::clamp(x, 0, ns - 1);
    y = std::clamp(y, 0, ns - 1);
    return lattice[std::size_t(y) * ns + x];
  };
  std::vector<double> out(std::size_t(n) * n);
  const double scale = double(ns) / g.grid_size;
  for (int y = 0; y < n; ++y) {
    const double fy = 0.5 * ns + (y - 0.5 * n) * scale;
    const int iy = static_cast<int>(std::floor(fy));
    double wy[4];
    cubic_weights(fy - iy, wy);
    for (int x = 0; x < n; ++x) {
      const double fx = 0.5 * ns + (x - 0.5 * n) * scale;
      const int ix = static_cast<int>(std::floor(fx));
      double wx[4];
      cubic_weights(fx - ix, wx);
      double v = 0;
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) v += wy[j] * wx[i] * at(ix - 1 + i, iy - 1 + j);
      out[std::size_t(y) * n + x] = v;
    }
  }
  return out;
}

template BeamATerms<float> station_beam_aterms<float>(const ATermConfig&, const GridGeometry&,
                                                      std::array<double, 2>, std::array<double, 2>,
                                                      const VisBuffer<float>&, Plan&, Logger*);
template BeamATerms<double> station_beam_aterms<double>(const ATermConfig&, const GridGeometry&,
                                                        std::array<double, 2>,
                                                        std::array<double, 2>,
                                                        const VisBuffer<double>&, Plan&, Logger*);

}  // namespace fringe::imager
