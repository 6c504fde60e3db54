// fringe/api/likelihood.h on Measurement Sets written by the simulator (api::Interferometer):
// the true sky fits the noise-free data to the float32 storage of DATA, station beams from
// the telescope make a beam-attenuated simulation fit, the gradient vanishes at the truth, and
// bad parameter vectors and options are refused with messages naming them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "fringe/api/interferometer.h"
#include "fringe/api/likelihood.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/telescope/tm_loader.h"

namespace {

namespace fs = std::filesystem;
namespace api = fringe::api;
constexpr double kDeg = std::numbers::pi / 180.0;

std::string out_path(const std::string& name) {
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "api_likelihood_test";
  fs::create_directories(dir);
  fs::remove_all(dir / name);
  return (dir / name).string();
}
std::string tm() { return std::string(FRINGE_SOURCE_DIR) + "/telescope-models/vla-a.tm"; }

// Three point sources within 0.1 deg of the phase centre (RA 200, Dec 30 deg), polarised,
// with spectral indices (one flat spectrum).
api::Sky sky() {
  api::Sky s;
  const double pos[3][2] = {{200.05, 30.02}, {199.9, 29.95}, {200.02, 30.08}};
  const double stokes[3][4] = {{2.0, 0.1, -0.2, 0.05}, {1.0, 0, 0, 0}, {1.5, -0.1, 0.05, 0}};
  for (int k = 0; k < 3; ++k) {
    fringe::sky::Source src;
    src.ra = pos[k][0] * kDeg;
    src.dec = pos[k][1] * kDeg;
    src.I = stokes[k][0];
    src.Q = stokes[k][1];
    src.U = stokes[k][2];
    src.V = stokes[k][3];
    if (k != 1) {
      src.ref_freq = 1.4e9;
      src.spectral_index = {-0.7 + 0.3 * k};
    }
    s.push_back(src);
  }
  return s;
}

api::Telescope telescope() { return fringe::telescope::load_telescope_model(tm(), nullptr); }

fringe::jones::StationBeamConfig gaussian_beam() {
  fringe::jones::StationBeamConfig b;
  b.station_type = fringe::jones::StationType::Gaussian;
  b.gaussian.fwhm_rad = 0.3 * kDeg;  // sources at 0.05-0.1 deg: attenuated by 5-40 %
  return b;
}

std::string simulate(const std::string& name, const fringe::jones::StationBeamConfig& beam,
                     double channel_bandwidth_hz = 0.0, double time_average_sec = 0.0) {
  api::Interferometer sim;
  sim.set_sky_model(sky());
  sim.set_telescope_model(telescope());
  api::Observation o;
  o.phase_centre_ra = 200 * kDeg;
  o.phase_centre_dec = 30 * kDeg;
  o.start_frequency_hz = 1.4e9;
  o.num_channels = 3;
  o.frequency_inc_hz = 20e6;
  o.start_mjd_utc = 60384.35;
  o.length_sec = 600;
  o.num_time_steps = 4;
  sim.set_observation(o);
  sim.config().beam = beam;
  sim.config().channel_bandwidth_hz = channel_bandwidth_hz;
  sim.config().time_average_sec = time_average_sec;
  sim.config().ms_path = out_path(name);
  return sim.run().ms_path;
}

api::LikelihoodOptions options(std::vector<std::string> free) {
  api::LikelihoodOptions opt;
  opt.free_parameters = std::move(free);
  return opt;
}

TEST(ApiLikelihood, TrueSkyFitsSimulatedData) {
  fringe::jones::StationBeamConfig iso;
  iso.station_type = fringe::jones::StationType::Isotropic;
  const std::string ms = simulate("iso.ms", iso);
  // Full-mode simulations rotate by the parallactic angle (J = R) even for isotropic
  // stations, so the polarised sky needs the telescope's J.
  api::LikelihoodOptions opt = options({"I", "Q", "U", "V", "spectral_index", "ra", "dec"});
  opt.station_beams = true;
  opt.beam = iso;
  const api::Telescope tel = telescope();
  api::Likelihood like(ms, sky(), opt, &tel);
  EXPECT_EQ(like.num_parameters(), 21u);
  EXPECT_EQ(like.num_rows(), 4u * 351);
  EXPECT_EQ(like.num_pols(), 4);
  const std::vector<double> x0 = like.initial_parameters();
  std::vector<double> grad0(x0.size());
  const double chi_true = like.chi2_and_grad(x0, grad0);
  std::vector<double> x1 = x0;
  x1[0] *= 1.01;  // I of source 0 by 1 %
  std::vector<double> grad1(x1.size());
  const double chi_off = like.chi2_and_grad(x1, grad1);
  // DATA is float32: the truth leaves ~6e-8 |V| per value, 1 % of I leaves 0.02 Jy.
  EXPECT_LT(chi_true, 1e-8 * chi_off) << chi_true << " " << chi_off;
  EXPECT_GT(chi_off, 0.0);
  double g0 = 0, g1 = 0;
  for (std::size_t i = 0; i < x0.size(); ++i) {
    g0 = std::max(g0, std::abs(grad0[i]));
    g1 = std::max(g1, std::abs(grad1[i]));
  }
  EXPECT_LT(g0, 1e-4 * g1);
  // Without the telescope's J the polarised sky does not fit.
  api::Likelihood plain(ms, sky(), options({"I"}));
  EXPECT_GT(plain.chi2(std::vector<double>{2.0, 1.0, 1.5}), 1e3 * chi_true);
}

TEST(ApiLikelihood, StationBeamsFromTheTelescope) {
  const std::string ms = simulate("gauss.ms", gaussian_beam());
  api::LikelihoodOptions opt = options({"I"});
  opt.station_beams = true;
  opt.beam = gaussian_beam();
  const api::Telescope tel = telescope();
  api::Likelihood with(ms, sky(), opt, &tel);
  api::LikelihoodOptions plain_opt = options({"I"});
  api::Likelihood without(ms, sky(), plain_opt);
  const std::vector<double> x = with.initial_parameters();
  const double c_with = with.chi2(x), c_without = without.chi2(x);
  EXPECT_LT(c_with, 1e-8 * c_without) << c_with << " " << c_without;
  // The model is the data (to float32) with beams.
  const auto res = with.residual(x);
  const auto mod = with.model(x);
  double rmax = 0, mmax = 0;
  for (std::size_t i = 0; i < res.size(); ++i) {
    rmax = std::max(rmax, std::abs(res[i]));
    mmax = std::max(mmax, std::abs(mod[i]));
  }
  EXPECT_LT(rmax, 1e-6 * mmax);
  // Written into the MS: MODEL_DATA equals the returned model on cross rows and is 0 on the
  // rest; RESIDUAL_DATA equals DATA - model; an existing column is refused.
  with.write_model(x);
  with.write_residual(x);
  const fringe::io::MsReader reader(ms);
  const auto a1 = reader.read_antenna1(), a2 = reader.read_antenna2();
  const auto data = reader.read_data(), mcol = reader.read_data(0, reader.num_rows(), "MODEL_DATA");
  const auto rcol = reader.read_data(0, reader.num_rows(), "RESIDUAL_DATA");
  const std::size_t per = 3 * 4;
  std::size_t kept = 0;
  for (std::size_t r = 0; r < reader.num_rows(); ++r) {
    for (std::size_t i = 0; i < per; ++i) {
      const std::size_t k = r * per + i;
      if (a1[r] == a2[r]) {
        EXPECT_EQ(mcol[k].re, 0.0f);
        EXPECT_EQ(rcol[k].re, data[k].re);
        continue;
      }
      const auto m = mod[kept * per + i];
      EXPECT_EQ(mcol[k].re, float(m.real()));
      EXPECT_NEAR(rcol[k].im, data[k].im - m.imag(), 1e-6 * mmax);
    }
    kept += a1[r] != a2[r];
  }
  EXPECT_EQ(kept, with.num_rows());
  EXPECT_THROW(with.write_model(x), fringe::Error);  // MODEL_DATA exists now
  with.write_model(x, "MODEL_DATA", /*replace_existing=*/true);
  EXPECT_THROW(with.write_model(x, "DATA", true), fringe::Error);
}

// The simulator's bandwidth smearing (10 MHz channels at 1.4 GHz: a few per cent on the
// longest VLA-A baselines 0.1 deg out) is fitted when the same bandwidth is given.
TEST(ApiLikelihood, BandwidthSmearingAsTheSimulator) {
  fringe::jones::StationBeamConfig iso;
  iso.station_type = fringe::jones::StationType::Isotropic;
  const std::string ms = simulate("smeared.ms", iso, 10e6);
  const api::Telescope tel = telescope();
  api::LikelihoodOptions opt = options({"I", "ra"});
  opt.station_beams = true;  // the parallactic rotation of the polarised sources
  opt.beam = iso;
  api::Likelihood plain(ms, sky(), opt, &tel);
  opt.channel_bandwidth_hz = 10e6;
  api::Likelihood smeared(ms, sky(), opt, &tel);
  const std::vector<double> x = smeared.initial_parameters();
  const double c_smeared = smeared.chi2(x), c_plain = plain.chi2(x);
  EXPECT_LT(c_smeared, 1e-6 * c_plain) << c_smeared << " " << c_plain;
  // The gradient vanishes at the truth, not 1 arcsec away.
  std::vector<double> g0(x.size()), g1(x.size());
  smeared.chi2_and_grad(x, g0);
  std::vector<double> x1 = x;
  x1[1] += 5e-6;  // ra of source 0
  smeared.chi2_and_grad(x1, g1);
  EXPECT_LT(std::abs(g0[1]), 1e-3 * std::abs(g1[1]));
}

// The simulator's time smearing (150 s dumps: a few per cent on the longest VLA-A baselines
// 0.1 deg out) is fitted when the same averaging time is given.
TEST(ApiLikelihood, TimeSmearingAsTheSimulator) {
  fringe::jones::StationBeamConfig iso;
  iso.station_type = fringe::jones::StationType::Isotropic;
  const std::string ms = simulate("time_smeared.ms", iso, 0.0, 150.0);
  const api::Telescope tel = telescope();
  api::LikelihoodOptions opt = options({"I", "ra", "dec"});
  opt.station_beams = true;
  opt.beam = iso;
  api::Likelihood plain(ms, sky(), opt, &tel);
  opt.time_average_sec = 150.0;
  api::Likelihood smeared(ms, sky(), opt, &tel);
  const std::vector<double> x = smeared.initial_parameters();
  const double c_smeared = smeared.chi2(x), c_plain = plain.chi2(x);
  EXPECT_LT(c_smeared, 1e-6 * c_plain) << c_smeared << " " << c_plain;
}

// With some sources fixed (and no free gains) their model is computed once and taken from the
// data: chi2, gradient, model and residual equal those of a likelihood that sums every source
// each time (the free sources' entries of it), with station Jones sliced to the free sources.
TEST(ApiLikelihood, FixedSourcesGiveTheSameNumbers) {
  fringe::jones::StationBeamConfig iso;
  iso.station_type = fringe::jones::StationType::Isotropic;
  const std::string ms = simulate("fixed.ms", iso);
  const api::Telescope tel = telescope();
  api::LikelihoodOptions opt = options({"I", "Q", "ra", "dec", "spectral_index"});
  opt.station_beams = true;
  opt.beam = iso;
  api::Likelihood all(ms, sky(), opt, &tel);
  opt.free_sources = {2, 0};
  api::Likelihood some(ms, sky(), opt, &tel);
  ASSERT_EQ(some.num_parameters(), 10u);
  EXPECT_EQ(some.parameter_names()[0], "I[2]");
  EXPECT_EQ(some.num_sources(), 3u);
  // Parameter k of `some` is parameter map[k] of `all` (5 per source, sources 2 then 0).
  std::vector<std::size_t> map;
  for (std::size_t src : {2, 0}) {
    for (std::size_t k = 0; k < 5; ++k) map.push_back(5 * src + k);
  }
  std::vector<double> xa = all.initial_parameters();
  xa[10] *= 1.1;   // I of source 2
  xa[13] += 2e-6;  // dec of source 2
  xa[2] -= 3e-6;   // ra of source 0
  std::vector<double> xs;
  for (std::size_t k : map) xs.push_back(xa[k]);
  std::vector<double> ga(xa.size()), gs(xs.size());
  const double ca = all.chi2_and_grad(xa, ga), cs = some.chi2_and_grad(xs, gs);
  EXPECT_NEAR(cs, ca, 1e-9 * ca);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    EXPECT_NEAR(gs[k], ga[map[k]], 1e-8 * (std::abs(ga[map[k]]) + 1e-3 * std::abs(ga[10])))
        << some.parameter_names()[k];
  }
  const auto ma = all.model(xa), msome = some.model(xs);
  const auto ra = all.residual(xa), rs = some.residual(xs);
  ASSERT_EQ(ma.size(), msome.size());
  for (std::size_t i = 0; i < ma.size(); ++i) {
    EXPECT_NEAR(std::abs(msome[i] - ma[i]), 0.0, 1e-12 * (1 + std::abs(ma[i])));
    EXPECT_NEAR(std::abs(rs[i] - ra[i]), 0.0, 1e-12 * (1 + std::abs(ma[i])));
  }
}

TEST(ApiLikelihood, GainsAndBatches) {
  fringe::jones::StationBeamConfig iso;
  iso.station_type = fringe::jones::StationType::Isotropic;
  const std::string ms = simulate("gains.ms", iso);
  api::LikelihoodOptions opt = options({"I"});
  opt.gain_stations = {0, 5};
  api::Likelihood like(ms, sky(), opt);
  const auto names = like.parameter_names();
  ASSERT_EQ(names.size(), 3u + 8u);
  EXPECT_EQ(names[0], "I[0]");
  EXPECT_EQ(names[3], "gain_x_re[0]");
  EXPECT_EQ(names[10], "gain_y_im[5]");
  const std::vector<double> x0 = like.initial_parameters();
  EXPECT_EQ(x0[3], 1.0);
  EXPECT_EQ(x0[4], 0.0);
  std::vector<double> batch;
  for (int k = 0; k < 4; ++k) {
    std::vector<double> x = x0;
    x[3 + k] += 0.01 * k;
    batch.insert(batch.end(), x.begin(), x.end());
  }
  std::vector<double> grads(batch.size());
  const auto chi = like.chi2_and_grad_batch(batch, grads);
  ASSERT_EQ(chi.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    std::vector<double> g(x0.size());
    const std::span<const double> xk(batch.data() + k * x0.size(), x0.size());
    EXPECT_EQ(chi[k], like.chi2_and_grad(xk, g));
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_EQ(grads[k * x0.size() + i], g[i]);
  }
  EXPECT_EQ(like.chi2_batch(batch), chi);
}

TEST(ApiLikelihood, BadInputNamesWhatIsWrong) {
  fringe::jones::StationBeamConfig iso;
  iso.station_type = fringe::jones::StationType::Isotropic;
  const std::string ms = simulate("bad.ms", iso);
  api::Likelihood like(ms, sky(), options({"I", "ra"}));
  auto message = [&](auto&& f) {
    try {
      f();
    } catch (const fringe::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string len = message([&] { like.chi2(std::vector<double>(5, 1.0)); });
  EXPECT_NE(len.find("expected a multiple of the 6 free parameters"), std::string::npos) << len;
  EXPECT_NE(len.find("has 5 values"), std::string::npos) << len;
  // A whole multiple is a batch, not one vector: refused by chi2().
  EXPECT_NE(message([&] { like.chi2(std::vector<double>(12, 1.0)); }).find("has 12 values"),
            std::string::npos);
  std::vector<double> x = like.initial_parameters();
  x[3] = std::nan("");
  const std::string nan = message([&] { like.chi2(x); });
  EXPECT_NE(nan.find("ra[1]"), std::string::npos) << nan;
  EXPECT_NE(message([&] { api::Likelihood(ms, sky(), options({"flux"})); }).find("flux"),
            std::string::npos);
  api::LikelihoodOptions opt = options({"I"});
  opt.free_sources = {7};
  EXPECT_NE(message([&] { api::Likelihood(ms, sky(), opt); }).find("free source 7"),
            std::string::npos);
  opt = options({"I"});
  opt.station_beams = true;
  EXPECT_NE(message([&] { api::Likelihood(ms, sky(), opt); }).find("no telescope"),
            std::string::npos);
  opt = options({"I"});
  opt.data_column = "MODEL_DATA";
  EXPECT_NE(message([&] { api::Likelihood(ms, sky(), opt); }).find("MODEL_DATA"),
            std::string::npos);
}

}  // namespace
