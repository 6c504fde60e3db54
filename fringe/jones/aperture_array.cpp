#include "fringe/jones/aperture_array.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/philox.h"
#include "fringe/core/simd_sincos.h"
#include "fringe/jones/aperture_array_sw_block.h"
#include "fringe/jones/jones_math.h"
#include "fringe/telescope/station_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::jones {
namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FRINGE_AA_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define FRINGE_AA_CLONES
#endif

constexpr std::size_t kBlock = 256;  // directions per block of the CPU loops

template <typename V>
bool all_equal(const std::vector<V>& v) {
  return std::all_of(v.begin(), v.end(), [&](const V& x) { return x == v.front(); });
}

bool subtree_has_time_errors(const std::vector<AaNode>& nodes, int i) {
  const AaNode& n = nodes[std::size_t(i)];
  if (n.has_time_errors) return true;
  return std::any_of(n.child.begin(), n.child.end(),
                     [&](int c) { return subtree_has_time_errors(nodes, c); });
}

// The fast paths take a node when every level above its antennas has identical tiles without
// time-variable errors; the antennas' level itself may mix types and feed angles (groups).
bool node_uniform(const std::vector<AaNode>& nodes, int i) {
  const AaNode& n = nodes[std::size_t(i)];
  if (n.is_leaf()) return true;
  if (!n.uniform_elements) return false;
  return node_uniform(nodes, n.child.front()) && !subtree_has_time_errors(nodes, n.child.front());
}

// The element type as the pattern sees it: the type when it has spherical-wave coefficients,
// else -1 (the functional pattern, whatever the type number).
int pattern_type(const AaNode& node, std::size_t k) {
  const int t = node.element_type[k];
  return t >= 0 && std::size_t(t) < node.patterns.size() && !node.patterns[std::size_t(t)].empty()
             ? t
             : -1;
}

// Copies antenna k of `src` to the end of `dst`.
void append_element(const AaFeed& src, std::size_t k, AaFeed& dst) {
  dst.x_true.push_back(src.x_true[k]);
  dst.y_true.push_back(src.y_true[k]);
  dst.z_true.push_back(src.z_true[k]);
  dst.x_meas.push_back(src.x_meas[k]);
  dst.y_meas.push_back(src.y_meas[k]);
  dst.z_meas.push_back(src.z_meas[k]);
  dst.apodisation.push_back(src.apodisation[k]);
  dst.gain.push_back(src.gain[k]);
  dst.phase.push_back(src.phase[k]);
  dst.cable_length_m.push_back(src.cable_length_m[k]);
  dst.sigma_gain.push_back(src.sigma_gain[k]);
  dst.sigma_phase.push_back(src.sigma_phase[k]);
  dst.alpha.push_back(src.alpha[k]);
}

// The groups of equal (pattern type, alpha_x, alpha_y) of a leaf node, in order of first
// appearance.
std::vector<AaGroup> make_groups(const AaNode& node) {
  std::vector<AaGroup> groups;
  for (std::size_t k = 0; k < node.size(); ++k) {
    const int type = pattern_type(node, k);
    const double ax = node.feeds[0].alpha[k], ay = node.feeds[1].alpha[k];
    auto it = std::find_if(groups.begin(), groups.end(), [&](const AaGroup& g) {
      return g.type == type && g.alpha_x == ax && g.alpha_y == ay;
    });
    if (it == groups.end()) {
      groups.push_back(AaGroup{type, ax, ay, {}, {}, true});
      it = groups.end() - 1;
    }
    it->index.push_back(k);
    for (std::size_t f = 0; f < 2; ++f) append_element(node.feeds[f], k, it->feeds[f]);
  }
  for (AaGroup& g : groups) {
    const AaFeed& x = g.feeds[0];
    const AaFeed& y = g.feeds[1];
    g.same_feed_positions = x.x_true == y.x_true && x.y_true == y.y_true && x.z_true == y.z_true;
  }
  return groups;
}

int first_leaf(const std::vector<AaNode>& nodes, int i) {
  while (!nodes[std::size_t(i)].is_leaf()) i = nodes[std::size_t(i)].child.front();
  return i;
}

bool same_direction(const astro::Vec3& a, const astro::Vec3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

// The permitted direction nearest to b (largest dot product), or b itself when none.
astro::Vec3 snap(const std::vector<astro::Vec3>& permitted, const astro::Vec3& b) {
  if (permitted.empty()) return b;
  const astro::Vec3* best = &permitted.front();
  double best_dot = -2.0;
  for (const auto& p : permitted) {
    const double d = p.x * b.x + p.y * b.y + p.z * b.z;
    if (d > best_dot) {
      best_dot = d;
      best = &p;
    }
  }
  return *best;
}

// Which node instance the time-variable errors are drawn for: the station, the tile of the
// station (0 for the station level, tile index + 1 below it) and the time step; also the
// frequency, which picks the channel of a per-element gain table.
struct InstanceKey {
  std::uint64_t seed = 1;
  std::uint32_t station = 0;
  std::uint32_t tile = 0;
  std::uint32_t time = 0;
  double freq_hz = 0.0;  // Hz; selects the channel of a per-element gain table
};

// Beamforming weights of one feed of a node for beam direction b (aperture_array_math.h), at
// time step key.time and frequency key.freq_hz (the node's gain table, if any).
void feed_weights(const AaNode& node, int f, double k0, const astro::Vec3& b,
                  const InstanceKey& key, bool divide_by_n, std::vector<Complex<double>>& w) {
  const AaFeed& d = node.feeds[std::size_t(f)];
  const std::size_t n = node.size();
  w.resize(n);
  const double scale = divide_by_n && n > 0 ? 1.0 / double(n) : 1.0;
  // OSKAR's per-element gain model: the table's entry for this time (clamped to its last) and
  // the channel nearest freq_hz multiplies the weight (gain_model.h, docs/station_beams.md).
  const telescope::GainModel* table = node.gains.get();
  const std::size_t t_row = table ? table->time_of(int(key.time)) : 0;
  const std::size_t c_row = table ? table->channel_of(key.freq_hz) : 0;
  const int table_pol = f == 0 ? 0 : node.gains_pol_y;
  for (std::size_t k = 0; k < n; ++k) {
    double g = d.gain[k], ph = d.phase[k];
    if (d.sigma_gain[k] > 0.0 || d.sigma_phase[k] > 0.0) {
      // Standard normals for (time, station, tile, element); X uses [0, 1], Y [2, 3].
      const std::array<double, 4> z =
          philox_normals(key.seed, key.time, key.station, key.tile, std::uint32_t(k));
      const std::size_t first = f == 0 ? 0 : 2;
      g += d.sigma_gain[k] * z[first];
      ph += d.sigma_phase[k] * z[first + 1];
    }
    Complex<double> w0 = d.apodisation[k] * Complex<double>{g * std::cos(ph), g * std::sin(ph)};
    if (table) {
      const std::complex<double> gk = table->gain(t_row, c_row, k, table_pol);
      w0 = w0 * Complex<double>{gk.real(), gk.imag()};
    }
    w[k] = aa_weight(w0, k0, d.x_meas[k], d.y_meas[k], d.z_meas[k], b.x, b.y, b.z,
                     d.cable_length_m[k]) *
           scale;
  }
}

// Response of a node: polarised rows, or a scalar.
struct Rows {
  Complex<double> xt, xp, yt, yp;
};

// Sum of w_k exp(i k0 r_k . s) over one feed's elements into separate re/im arrays for the
// directions [0, m) of a block, vectorised over directions (simd_sincos; libm for an element
// whose phase could exceed its range). Compiled for AVX-512, AVX2 and baseline x86-64, the
// best picked at load time (as in predict_cpu.cpp).
FRINGE_AA_CLONES
void array_factor(const AaFeed& feed, const std::vector<Complex<double>>& w, double k0,
                  const double* __restrict e, const double* __restrict n,
                  const double* __restrict u, std::size_t m, double* __restrict re,
                  double* __restrict im) {
  std::fill(re, re + m, 0.0);
  std::fill(im, im + m, 0.0);
  for (std::size_t k = 0; k < w.size(); ++k) {
    const double x = k0 * feed.x_true[k], y = k0 * feed.y_true[k], z = k0 * feed.z_true[k];
    const double wr = w[k].re, wi = w[k].im;
    if (std::sqrt(x * x + y * y + z * z) > kSimdSincosMaxArg) {
      for (std::size_t j = 0; j < m; ++j) {
        const double ph = x * e[j] + y * n[j] + z * u[j];
        const double c = std::cos(ph), s = std::sin(ph);
        re[j] += wr * c - wi * s;
        im[j] += wr * s + wi * c;
      }
      continue;
    }
#pragma omp simd
    for (std::size_t j = 0; j < m; ++j) {
      const double ph = x * e[j] + y * n[j] + z * u[j];
      double s, c;
      simd_sincos(ph, s, c);
      re[j] += wr * c - wi * s;
      im[j] += wr * s + wi * c;
    }
  }
}

// Per-plan evaluation context of the general (recursive) path.
struct General {
  const ApertureArrayModel& model;
  const AaStationPlan& plan;
  bool enable;
  bool divide_by_n;
};

// Response of node i (instance key, beam direction b) to one direction, general path.
template <bool kScalar>
void general_response(const General& g, int i, const InstanceKey& key, const astro::Vec3& b,
                      double e, double n, double u, Rows& rows, Complex<double>& scalar) {
  const auto& nodes = g.model.nodes();
  const AaNode& node = nodes[std::size_t(i)];
  const double k0 = g.plan.k0;
  rows = {};
  scalar = {};
  std::vector<Complex<double>> wx, wy;
  if (g.enable) {
    feed_weights(node, 0, k0, b, key, g.divide_by_n, wx);
    feed_weights(node, 1, k0, b, key, g.divide_by_n, wy);
  }
  const std::size_t count = g.enable ? node.size() : std::min<std::size_t>(node.size(), 1);
  for (std::size_t k = 0; k < count; ++k) {
    Complex<double> px{1.0, 0.0}, py{1.0, 0.0};
    if (g.enable) {
      const AaFeed& fx = node.feeds[0];
      const AaFeed& fy = node.feeds[1];
      const double phx = k0 * (fx.x_true[k] * e + fx.y_true[k] * n + fx.z_true[k] * u);
      const double phy = k0 * (fy.x_true[k] * e + fy.y_true[k] * n + fy.z_true[k] * u);
      px = wx[k] * Complex<double>{std::cos(phx), std::sin(phx)};
      py = wy[k] * Complex<double>{std::cos(phy), std::sin(phy)};
    }
    Rows r;
    Complex<double> sc;
    if (node.is_leaf()) {
      ElementParams<double> ep = g.plan.element;
      ep.alpha_x = node.feeds[0].alpha[k];
      ep.alpha_y = node.feeds[1].alpha[k];
      if constexpr (kScalar) {
        sc = {aa_element_scalar(ep, e, n, u), 0.0};
      } else {
        // Mixed element types or feed angles: the pattern of this element's type and angles.
        g.model.set_numerical(ep, i, node.element_type[k], g.plan.freq_hz);
        const Jones<double> el = aa_element_jones(ep, e, n, u);
        r = {el.a, el.b, el.c, el.d};
      }
    } else {
      InstanceKey child_key = key;
      astro::Vec3 child_b = b;
      if (key.tile == 0) {  // the children of a station are its tiles
        child_key.tile = std::uint32_t(k + 1);
        if (!g.plan.tile_enu.empty()) child_b = g.plan.tile_enu[k];
      }
      general_response<kScalar>(g, node.child[k], child_key, child_b, e, n, u, r, sc);
    }
    if constexpr (kScalar) {
      scalar += px * sc;
    } else {
      rows.xt += px * r.xt;
      rows.xp += px * r.xp;
      rows.yt += py * r.yt;
      rows.yp += py * r.yp;
    }
  }
}

InstanceKey root_key(const ApertureArrayModel& model, const AaStationPlan& plan) {
  return {model.config().array_pattern.time_variable_seed, std::uint32_t(plan.station), 0,
          std::uint32_t(plan.time_index), plan.freq_hz};
}

// Unnormalised beam for one direction through whichever path the plan takes.
void beam_one(const ApertureArrayModel& model, const AaStationPlan& plan, double e, double n,
              double u, Jones<double>& jones, Complex<double>& scalar);

template <bool kScalar>
void evaluate_general(const ApertureArrayModel& model, const AaStationPlan& plan,
                      std::span<const double> e, std::span<const double> n,
                      std::span<const double> u, Jones<double>* out_j, Complex<double>* out_s) {
  const auto& ap = model.config().array_pattern;
  const General g{model, plan, ap.enable, ap.normalise};
  const InstanceKey key = root_key(model, plan);
  const int root = model.station_node(plan.station);
  const auto count = static_cast<std::ptrdiff_t>(e.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t jj = 0; jj < count; ++jj) {
    const auto j = static_cast<std::size_t>(jj);
    Rows r{};
    Complex<double> s{};
    if (!plan.beam_off && u[j] >= 0.0) {
      general_response<kScalar>(g, root, key, plan.beam_enu, e[j], n[j], u[j], r, s);
    }
    if constexpr (kScalar) {
      out_s[j] = s * plan.norm_scalar;
    } else {
      out_j[j] = Jones<double>{r.xt, r.xp, r.yt, r.yp} * plan.norm;
    }
  }
}

// Array factors of one level (or group) for the directions [0, m) of a block: X into
// (ax_re, ax_im) and, unless kScalar, Y into (ay_re, ay_im).
template <bool kScalar>
void level_array_factors(const AaLevel& level, double k0, const double* pe, const double* pn,
                         const double* pu, std::size_t m, double* ax_re, double* ax_im,
                         double* ay_re, double* ay_im) {
  array_factor(*level.feed[0], level.weight[0], k0, pe, pn, pu, m, ax_re, ax_im);
  if (kScalar) return;
  if (level.same_positions && level.weight[1].size() == level.weight[0].size()) {
    // One phase per element serves both feeds: AF_y from the same sums only when the weights
    // are equal too; otherwise its own pass.
    if (std::equal(level.weight[0].begin(), level.weight[0].end(), level.weight[1].begin())) {
      std::copy_n(ax_re, m, ay_re);
      std::copy_n(ax_im, m, ay_im);
    } else {
      array_factor(*level.feed[0], level.weight[1], k0, pe, pn, pu, m, ay_re, ay_im);
    }
  } else {
    array_factor(*level.feed[1], level.weight[1], k0, pe, pn, pu, m, ay_re, ay_im);
  }
}

// Per-thread buffers of one block of directions.
struct BlockBuffers {
  std::vector<double> afx_re, afx_im, afy_re, afy_im;  // product of the levels' factors
  std::vector<double> ax_re, ax_im, ay_re, ay_im;      // one level's (or group's) factors
  std::vector<Jones<double>> sum_j;                    // grouped: sum_g E_g AF_g (Full)
  std::vector<Complex<double>> sum_s;                  // grouped: the same (Scalar)
  std::vector<Jones<double>> elem;                     // element patterns of the block
  SwBlockScratch sw;                                   // spherical waves, vectorised
  BlockBuffers()
      : afx_re(kBlock),
        afx_im(kBlock),
        afy_re(kBlock),
        afy_im(kBlock),
        ax_re(kBlock),
        ax_im(kBlock),
        ay_re(kBlock),
        ay_im(kBlock),
        sum_j(kBlock),
        sum_s(kBlock),
        elem(kBlock) {}
};

// Grouped evaluation of a block: sum over groups of E_g(s) AF_g(s), the element pattern once
// per (group, direction) (aperture_array.h). Directions below the horizon are left 0.
template <bool kScalar>
void sum_groups(const AaStationPlan& plan, const double* pe, const double* pn, const double* pu,
                std::size_t m, BlockBuffers& b) {
  std::fill_n(b.sum_j.begin(), m, jones_zero<double>());
  std::fill_n(b.sum_s.begin(), m, Complex<double>{0.0, 0.0});
  for (const AaGroupPlan& g : plan.groups) {
    level_array_factors<kScalar>(g.level, plan.k0, pe, pn, pu, m, b.ax_re.data(), b.ax_im.data(),
                                 b.ay_re.data(), b.ay_im.data());
    const bool block = !kScalar && aa_sw_block_applies(g.element);
    if (block) aa_sw_block(g.element, pe, pn, pu, m, b.sw, b.elem.data());
    for (std::size_t j = 0; j < m; ++j) {
      if (pu[j] < 0.0) continue;
      const Complex<double> ax{b.ax_re[j], b.ax_im[j]};
      if constexpr (kScalar) {
        b.sum_s[j] += ax * aa_element_scalar(g.element, pe[j], pn[j], pu[j]);
      } else {
        const Jones<double> el =
            block ? b.elem[j] : aa_element_jones(g.element, pe[j], pn[j], pu[j]);
        b.sum_j[j] += aa_jones(el, ax, Complex<double>{b.ay_re[j], b.ay_im[j]});
      }
    }
  }
}

template <bool kScalar>
void evaluate_uniform(const AaStationPlan& plan, std::span<const double> e,
                      std::span<const double> n, std::span<const double> u, Jones<double>* out_j,
                      Complex<double>* out_s) {
  const std::size_t count = e.size();
  const std::size_t nblocks = (count + kBlock - 1) / kBlock;
  const bool grouped = !plan.groups.empty();
#pragma omp parallel
  {
    BlockBuffers b;
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t bb = 0; bb < std::ptrdiff_t(nblocks); ++bb) {
      const std::size_t j0 = std::size_t(bb) * kBlock;
      const std::size_t m = std::min(kBlock, count - j0);
      const double* pe = e.data() + j0;
      const double* pn = n.data() + j0;
      const double* pu = u.data() + j0;
      std::fill_n(b.afx_re.begin(), m, 1.0);
      std::fill_n(b.afx_im.begin(), m, 0.0);
      std::fill_n(b.afy_re.begin(), m, 1.0);
      std::fill_n(b.afy_im.begin(), m, 0.0);
      for (const AaLevel& level : plan.levels) {
        level_array_factors<kScalar>(level, plan.k0, pe, pn, pu, m, b.ax_re.data(), b.ax_im.data(),
                                     b.ay_re.data(), b.ay_im.data());
        for (std::size_t j = 0; j < m; ++j) {
          const Complex<double> x =
              Complex<double>{b.afx_re[j], b.afx_im[j]} * Complex<double>{b.ax_re[j], b.ax_im[j]};
          b.afx_re[j] = x.re;
          b.afx_im[j] = x.im;
          if (!kScalar) {
            const Complex<double> y =
                Complex<double>{b.afy_re[j], b.afy_im[j]} * Complex<double>{b.ay_re[j], b.ay_im[j]};
            b.afy_re[j] = y.re;
            b.afy_im[j] = y.im;
          }
        }
      }
      if (grouped) sum_groups<kScalar>(plan, pe, pn, pu, m, b);
      const bool block = !kScalar && !grouped && aa_sw_block_applies(plan.element);
      if (block) aa_sw_block(plan.element, pe, pn, pu, m, b.sw, b.elem.data());
      for (std::size_t j = 0; j < m; ++j) {
        const std::size_t o = j0 + j;
        const bool zero = plan.beam_off || pu[j] < 0.0;
        const Complex<double> fx{b.afx_re[j], b.afx_im[j]};
        if constexpr (kScalar) {
          if (zero) {
            out_s[o] = {0.0, 0.0};
          } else if (grouped) {
            out_s[o] = fx * b.sum_s[j] * plan.norm_scalar;
          } else {
            out_s[o] =
                fx * (aa_element_scalar(plan.element, pe[j], pn[j], pu[j]) * plan.norm_scalar);
          }
        } else {
          const Complex<double> fy{b.afy_re[j], b.afy_im[j]};
          if (zero) {
            out_j[o] = jones_zero<double>();
          } else if (grouped) {
            const Jones<double>& g = b.sum_j[j];
            out_j[o] = Jones<double>{fx * g.a, fx * g.b, fy * g.c, fy * g.d} * plan.norm;
          } else {
            const Jones<double> el =
                block ? b.elem[j] : aa_element_jones(plan.element, pe[j], pn[j], pu[j]);
            out_j[o] = aa_jones(el, fx, fy) * plan.norm;
          }
        }
      }
    }
  }
}

void beam_one(const ApertureArrayModel& model, const AaStationPlan& plan, double e, double n,
              double u, Jones<double>& jones, Complex<double>& scalar) {
  AaStationPlan p = plan;  // unnormalised
  p.norm = p.norm_scalar = 1.0;
  p.beam_off = false;
  const double de[1] = {e}, dn[1] = {n}, du[1] = {u};
  if (p.uniform) {
    evaluate_uniform<false>(p, de, dn, du, &jones, nullptr);
    evaluate_uniform<true>(p, de, dn, du, nullptr, &scalar);
  } else {
    evaluate_general<false>(model, p, de, dn, du, &jones, nullptr);
    evaluate_general<true>(model, p, de, dn, du, nullptr, &scalar);
  }
}

void check_spans(std::size_t e, std::size_t n, std::size_t u, std::size_t out) {
  if (e != n || e != u || e != out) {
    throw Error("aperture-array beam: " + std::to_string(e) + " E, " + std::to_string(n) + " N, " +
                std::to_string(u) + " U components and " + std::to_string(out) +
                " outputs; expected one of each per direction");
  }
}

}  // namespace

ApertureArrayModel::ApertureArrayModel(const telescope::TelescopeModel& model,
                                       const ApertureArrayConfig& config)
    : config_(config) {
  std::vector<int> model_node;
  model_node.reserve(model.station_models.size());
  telescope::PatternFileMap root_files;  // OSKAR: files in a folder apply to all below it
  if (config.element_pattern.enable_numerical)
    telescope::add_spherical_wave_files(model.directory, root_files);
  for (const auto& m : model.station_models) model_node.push_back(add_node(m, root_files));
  station_node_.reserve(model.num_stations());
  for (const auto& st : model.stations) {
    station_node_.push_back(model_node.at(std::size_t(st.model_index)));
  }
  for (int node : station_node_) uniform_.push_back(node_uniform(nodes_, node) ? 1 : 0);
}

int ApertureArrayModel::add_node(const telescope::StationModel& m,
                                 telescope::PatternFileMap files) {
  AaNode node;
  if (config_.element_pattern.enable_numerical) {
    telescope::add_spherical_wave_files(m.directory, files);
    if (!m.is_hierarchical() && !files.empty())
      node.patterns =
          telescope::load_spherical_wave_patterns(files, config_.element_pattern.max_order);
  }
  const std::size_t n = m.num_elements();
  for (std::size_t f = 0; f < 2; ++f) {
    const telescope::FeedData& src = m.feeds[f];
    AaFeed& d = node.feeds[f];
    for (std::size_t k = 0; k < n; ++k) {
      d.x_true.push_back(src.true_enu[k].x);
      d.y_true.push_back(src.true_enu[k].y);
      d.z_true.push_back(src.true_enu[k].z);
      d.x_meas.push_back(src.measured_enu[k].x);
      d.y_meas.push_back(src.measured_enu[k].y);
      d.z_meas.push_back(src.measured_enu[k].z);
      d.apodisation.push_back({src.apodisation[k].real(), src.apodisation[k].imag()});
      d.gain.push_back(src.gain_phase[k].gain);
      d.phase.push_back(src.gain_phase[k].phase);
      d.sigma_gain.push_back(src.gain_phase[k].gain_error);
      d.sigma_phase.push_back(src.gain_phase[k].phase_error);
      d.cable_length_m.push_back(src.cable_length_error[k]);
      d.alpha.push_back(src.feed_angle[k].alpha);
      if (src.gain_phase[k].gain_error > 0.0 || src.gain_phase[k].phase_error > 0.0) {
        node.has_time_errors = true;
      }
    }
    d.x_true.shrink_to_fit();
  }
  node.element_type = m.element_types;
  node.element_type.resize(n, 0);
  node.gains = m.element_gains;
  node.gains_pol_y = m.y_feed_files ? 1 : 0;
  for (const auto& pb : m.permitted_beams) {
    const double ce = std::cos(pb.elevation);
    node.permitted_enu.push_back(
        {ce * std::sin(pb.azimuth), ce * std::cos(pb.azimuth), std::sin(pb.elevation)});
  }
  if (m.is_hierarchical()) {
    std::vector<int> tile_nodes;
    for (const auto& t : m.tiles) tile_nodes.push_back(add_node(t, files));
    for (std::size_t k = 0; k < n; ++k)
      node.child.push_back(tile_nodes.at(std::size_t(m.tile_index[k])));
  }
  const AaFeed& x = node.feeds[0];
  const AaFeed& y = node.feeds[1];
  node.same_feed_positions = x.x_true == y.x_true && x.y_true == y.y_true && x.z_true == y.z_true;
  if (node.is_leaf()) {
    std::vector<int> types(n);
    for (std::size_t k = 0; k < n; ++k) types[k] = pattern_type(node, k);
    node.uniform_elements = all_equal(x.alpha) && all_equal(y.alpha) && all_equal(types);
    if (!node.uniform_elements) node.groups = make_groups(node);
  } else {
    // Feed angles and types of tiles are not used (the antennas below carry them).
    node.uniform_elements = all_equal(node.child);
  }
  nodes_.push_back(std::move(node));
  return int(nodes_.size()) - 1;
}

std::vector<std::size_t> ApertureArrayModel::general_stations() const {
  std::vector<std::size_t> out;
  for (std::size_t p = 0; p < uniform_.size(); ++p)
    if (!uniform_[p]) out.push_back(p);
  return out;
}

std::string ApertureArrayModel::general_stations_note() const {
  const std::vector<std::size_t> general = general_stations();
  if (general.empty()) return {};
  return std::to_string(general.size()) + " of " + std::to_string(num_stations()) +
         " aperture-array stations (first: station " + std::to_string(general.front()) +
         ") have distinct tiles or tiles with time-variable errors; the GPU back end evaluates "
         "uniform and grouped stations only, so these beams are evaluated on the CPU (the "
         "recursive path) and uploaded (docs/station_beams.md)";
}

ElementParams<double> ApertureArrayModel::element_params(std::size_t station,
                                                         double freq_hz) const {
  const ElementPatternConfig& c = config_.element_pattern;
  ElementParams<double> p;
  p.kind = c.functional_type == ElementFunctionalType::Dipole ? ElementKind::Dipole
                                                              : ElementKind::Isotropic;
  const double length_wavelengths =
      c.dipole_length_in_wavelengths ? c.dipole_length : c.dipole_length * freq_hz / kSpeedOfLight;
  p.kl = kPi * length_wavelengths;
  p.cos_kl = std::cos(p.kl);
  p.dipole_norm = c.normalise && p.kind == ElementKind::Dipole && 1.0 - p.cos_kl > 0.0
                      ? 1.0 / (1.0 - p.cos_kl)
                      : 1.0;
  switch (c.taper) {
    case ElementTaper::None:
      p.taper = TaperKind::None;
      break;
    case ElementTaper::Cosine:
      p.taper = TaperKind::Cosine;
      p.taper_param = c.taper_cosine_power;
      break;
    case ElementTaper::Gaussian:
      p.taper = TaperKind::Gaussian;
      p.taper_param =
          4.0 * std::numbers::ln2 / (c.taper_gaussian_fwhm_rad * c.taper_gaussian_fwhm_rad);
      break;
  }
  p.swap_xy = c.swap_xy;
  const int leaf_index = first_leaf(nodes_, station_node_.at(station));
  const AaNode& leaf = nodes_[std::size_t(leaf_index)];
  if (leaf.size() > 0) {
    p.alpha_x = leaf.feeds[0].alpha.front();
    p.alpha_y = leaf.feeds[1].alpha.front();
    set_numerical(p, leaf_index, leaf.element_type.front(), freq_hz);
  }
  return p;
}

void ApertureArrayModel::set_numerical(ElementParams<double>& p, int node, int type,
                                       double freq_hz) const {
  p.sw = nullptr;
  const auto& patterns = nodes_[std::size_t(node)].patterns;
  if (type < 0 || std::size_t(type) >= patterns.size()) return;
  const telescope::SphericalWaveCoeffs* c = patterns[std::size_t(type)].nearest(freq_hz);
  if (!c) return;
  static_assert(sizeof(std::complex<double>) == sizeof(Complex<double>));
  p.sw = reinterpret_cast<const Complex<double>*>(c->coeff.data());
  p.sw_l_max = c->l_max;
  p.sw_common_phi = c->common_phi;
  p.sw_galileo = c->galileo;
  p.sw_feko = c->feko;
  p.sw_norm = 1.0;
  if (config_.element_pattern.normalise) {
    // OSKAR divides by the root-mean-square of the four components at the zenith (theta held
    // at its minimum, phi = 0), the square root of half the power of both feeds.
    ElementParams<double> z = p;
    z.taper = TaperKind::None;
    z.swap_xy = false;
    const Jones<double> j = aa_element_jones(z, 0.0, 0.0, 1.0);
    const double power = abs2(j.a) + abs2(j.b) + abs2(j.c) + abs2(j.d);
    if (power > 0.0) p.sw_norm = 1.0 / std::sqrt(0.5 * power);
  }
}

AaStationPlan make_aa_plan(const ApertureArrayModel& model, std::size_t station,
                           const astro::Geodetic& site, const AaPointing& pointing,
                           const astro::Vec3& normalisation_enu, bool normalise, double gast_rad,
                           double freq_hz, int time_index) {
  if (station >= model.num_stations()) {
    throw Error("aperture-array beam: station " + std::to_string(station) + " of " +
                std::to_string(model.num_stations()));
  }
  const auto& nodes = model.nodes();
  const int root = model.station_node(station);
  AaStationPlan plan;
  plan.station = station;
  plan.time_index = time_index;
  plan.lst = gast_rad + site.lon;
  plan.sin_lat = std::sin(site.lat);
  plan.cos_lat = std::cos(site.lat);
  plan.k0 = kTwoPi * freq_hz / kSpeedOfLight;
  plan.freq_hz = freq_hz;
  plan.element = model.element_params(station, freq_hz);
  plan.beam_enu = snap(nodes[std::size_t(root)].permitted_enu, pointing.station_enu);
  plan.beam_off = plan.beam_enu.z < 0.0;
  bool tiles_follow = true;
  for (const auto& t : pointing.tile_enu)
    tiles_follow = tiles_follow && same_direction(t, pointing.station_enu);
  if (!tiles_follow) plan.tile_enu = pointing.tile_enu;
  plan.uniform = model.is_uniform(station) && tiles_follow;

  const ArrayPatternConfig& ap = model.config().array_pattern;
  if (plan.uniform && ap.enable) {
    const InstanceKey key = root_key(model, plan);
    for (int i = root;; i = nodes[std::size_t(i)].child.front()) {
      const AaNode& node = nodes[std::size_t(i)];
      if (node.is_leaf() && !node.groups.empty()) {
        // Grouped: the antennas' weights split by group, each with its element pattern.
        std::vector<Complex<double>> wx, wy;
        feed_weights(node, 0, plan.k0, plan.beam_enu, key, ap.normalise, wx);
        feed_weights(node, 1, plan.k0, plan.beam_enu, key, ap.normalise, wy);
        for (const AaGroup& g : node.groups) {
          AaGroupPlan gp;
          gp.element = plan.element;
          gp.element.alpha_x = g.alpha_x;
          gp.element.alpha_y = g.alpha_y;
          model.set_numerical(gp.element, i, g.type, freq_hz);
          gp.level.feed[0] = &g.feeds[0];
          gp.level.feed[1] = &g.feeds[1];
          gp.level.same_positions = g.same_feed_positions;
          for (std::size_t k : g.index) {
            gp.level.weight[0].push_back(wx[k]);
            gp.level.weight[1].push_back(wy[k]);
          }
          plan.groups.push_back(std::move(gp));
        }
        break;
      }
      AaLevel level;
      level.feed[0] = &node.feeds[0];
      level.feed[1] = &node.feeds[1];
      level.same_positions = node.same_feed_positions;
      feed_weights(node, 0, plan.k0, plan.beam_enu, key, ap.normalise, level.weight[0]);
      feed_weights(node, 1, plan.k0, plan.beam_enu, key, ap.normalise, level.weight[1]);
      plan.levels.push_back(std::move(level));
      if (node.is_leaf()) break;
    }
  }
  if (normalise && !plan.beam_off) {
    Jones<double> j0{};
    Complex<double> s0{};
    const astro::Vec3& d = normalisation_enu;
    if (d.z >= 0.0) beam_one(model, plan, d.x, d.y, d.z, j0, s0);
    plan.norm = normalisation_matrix(j0);
    plan.norm_scalar = normalisation_scalar(s0);
  }
  return plan;
}

void aa_beam_enu(const ApertureArrayModel& model, const AaStationPlan& plan,
                 std::span<const double> e, std::span<const double> n, std::span<const double> u,
                 std::span<Jones<double>> out) {
  check_spans(e.size(), n.size(), u.size(), out.size());
  if (plan.uniform) {
    evaluate_uniform<false>(plan, e, n, u, out.data(), nullptr);
  } else {
    evaluate_general<false>(model, plan, e, n, u, out.data(), nullptr);
  }
}

void aa_beam_enu_scalar(const ApertureArrayModel& model, const AaStationPlan& plan,
                        std::span<const double> e, std::span<const double> n,
                        std::span<const double> u, std::span<Complex<double>> out) {
  check_spans(e.size(), n.size(), u.size(), out.size());
  if (plan.uniform) {
    evaluate_uniform<true>(plan, e, n, u, nullptr, out.data());
  } else {
    evaluate_general<true>(model, plan, e, n, u, nullptr, out.data());
  }
}

}  // namespace fringe::jones
