// GPU tests (label gpu) of the aperture-array station beam (aperture_array_cuda.h): the CUDA
// back end against the CPU (aa_beam_enu, aa_beam_enu_scalar, evaluate_station_jones_full)
// element by element, for real SKA-Low AA1 stations (16 x 256 dipoles), MWA tiles and a
// two-level (tiled) model written to a temporary folder, with isotropic and dipole elements,
// Full (E and E R) and Scalar, double and float, sources above and below the horizon.
// Errors are measured against each station's beam scale norm * prod_levels sum_k |w_k| (the
// largest |AF| the station can produce; docs/gpu_station_beam.md). Every test skips without a
// CUDA GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "fringe/astro/time.h"
#include "fringe/core/array.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_cuda.h"
#include "fringe/jones/aperture_array_plans.h"
#include "fringe/jones/station_jones.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::jones {
namespace {

namespace fs = std::filesystem;
constexpr double kDeg = std::numbers::pi / 180.0;

#define SKIP_WITHOUT_GPU()                                     \
  do {                                                         \
    if (cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU"; \
  } while (0)

fs::path model_path(const char* name) {
  return fs::path(FRINGE_SOURCE_DIR) / "telescope-models" / name;
}

// A telescope, its aperture-array model and the CPU plans of every station at one time and
// frequency, with the observation's default pointing at (RA 60, Dec -30) deg.
struct Case {
  telescope::TelescopeModel tel;
  StationBeamConfig config;
  std::unique_ptr<ApertureArrayModel> model;
  std::vector<astro::Geodetic> sites;
  BeamPointing pointing = default_pointing(false, 60.0 * kDeg, -30.0 * kDeg);
  double gast = 0.0, freq = 0.0;
  std::vector<double> ra, dec;
  std::vector<AaStationPlan> plans;
};

// Sources: the phase centre, a 5 deg field around it, and directions spread over the whole
// sphere (about half of them below each station's horizon).
void add_sources(Case& c, std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  c.ra = {60.0 * kDeg};
  c.dec = {-30.0 * kDeg};
  for (std::size_t i = 1; i < n; ++i) {
    if (i % 2) {
      c.ra.push_back(60.0 * kDeg + 2.5 * kDeg * uni(rng));
      c.dec.push_back(-30.0 * kDeg + 2.5 * kDeg * uni(rng));
    } else {
      c.ra.push_back(std::numbers::pi * (1.0 + uni(rng)));
      c.dec.push_back(std::asin(uni(rng)));
    }
  }
}

Case make_case(telescope::TelescopeModel tel, const ApertureArrayConfig& aa, double freq_hz,
               std::size_t num_sources) {
  Case c;
  c.tel = std::move(tel);
  c.config.station_type = StationType::ApertureArray;
  c.config.aperture_array = aa;
  c.model = std::make_unique<ApertureArrayModel>(c.tel, aa);
  c.sites = station_sites(c.tel);
  c.gast = astro::gast_rad(astro::calendar_to_mjd(2000, 1, 1, 13, 30));
  c.freq = freq_hz;
  StationJonesInput in;
  in.stations = c.sites;
  in.pointing = c.pointing;
  in.gast_rad = c.gast;
  in.freq_hz = freq_hz;
  in.aperture_array = c.model.get();
  c.plans = aperture_array_plans(c.config, in);
  add_sources(c, num_sources, 7);
  return c;
}

Case make_case(const fs::path& dir, const ApertureArrayConfig& aa, double freq_hz,
               std::size_t num_sources) {
  return make_case(telescope::load_telescope_model(dir), aa, freq_hz, num_sources);
}

double weight_sum(const AaLevel& level) {
  double sum = 0.0;
  for (std::size_t k = 0; k < level.weight[0].size(); ++k)
    sum += std::max(abs(level.weight[0][k]), abs(level.weight[1][k]));
  return sum;
}

// Largest |AF| of a plan's station: norm * prod_levels sum_k max_f |w_kf| (a grouped plan's
// groups together count as one more level).
double beam_scale(const AaStationPlan& plan, double norm) {
  double s = norm;
  for (const AaLevel& level : plan.levels) s *= weight_sum(level);
  if (!plan.groups.empty()) {
    double sum = 0.0;
    for (const AaGroupPlan& g : plan.groups) sum += weight_sum(g.level);
    s *= sum;
  }
  return s;
}

// Phase budget of float: sum over levels of k0 max|r| max|s - b| / (2 pi), in turns.
double phase_turns(const Case& c, const AaStationPlan& plan) {
  double max_d = 0.0;
  for (std::size_t s = 0; s < c.ra.size(); ++s) {
    const double ha = plan.lst - c.ra[s];
    double e, n, u;
    source_enu(std::sin(ha), std::cos(ha), std::sin(c.dec[s]), std::cos(c.dec[s]), plan.sin_lat,
               plan.cos_lat, e, n, u);
    if (u < 0.0) continue;
    const double d = std::hypot(e - plan.beam_enu.x, n - plan.beam_enu.y, u - plan.beam_enu.z);
    max_d = std::max(max_d, d);
  }
  const auto radius = [](const AaLevel& level) {
    double r = 0.0;
    for (const AaFeed* f : level.feed)
      for (std::size_t k = 0; k < f->x_true.size(); ++k)
        r = std::max(r, std::hypot(f->x_true[k], f->y_true[k], f->z_true[k]));
    return r;
  };
  double r_groups = 0.0;
  for (const AaGroupPlan& g : plan.groups) r_groups = std::max(r_groups, radius(g.level));
  double turns = plan.k0 * r_groups * max_d / (2.0 * std::numbers::pi);
  for (const AaLevel& level : plan.levels)
    turns += plan.k0 * radius(level) * max_d / (2.0 * std::numbers::pi);
  return turns;
}

// Tolerance relative to the beam scale: double 1e-10 (docs/architecture.md, "Tests and
// benchmarks"); float the documented bound 2e-6 (2 L + turns) for L levels
// (docs/gpu_station_beam.md).
template <typename T>
double tolerance(const Case& c, const AaStationPlan& plan) {
  if constexpr (sizeof(T) == sizeof(double)) return 1e-10;
  const double levels = double(plan.levels.size() + (plan.groups.empty() ? 0 : 1));
  return 2e-6 * (2.0 * levels + phase_turns(c, plan));
}

// Host ENU directions of the sources at a plan's station.
void source_directions(const Case& c, const AaStationPlan& plan, std::vector<double>& e,
                       std::vector<double>& n, std::vector<double>& u) {
  const std::size_t ns = c.ra.size();
  e.resize(ns);
  n.resize(ns);
  u.resize(ns);
  for (std::size_t s = 0; s < ns; ++s) {
    const double ha = plan.lst - c.ra[s];
    source_enu(std::sin(ha), std::cos(ha), std::sin(c.dec[s]), std::cos(c.dec[s]), plan.sin_lat,
               plan.cos_lat, e[s], n[s], u[s]);
  }
}

struct ErrorStats {
  double worst = 0.0;  // max over stations of (max abs error / beam scale) / tolerance
  double max_rel = 0.0;
  std::size_t below = 0, below_nonzero = 0;
};

double diff(Complex<float> a, Complex<double> b) { return abs(complex_cast<double>(a) - b); }
double diff(Complex<double> a, Complex<double> b) { return abs(a - b); }

template <typename T>
double jones_diff(const Jones<T>& a, const Jones<double>& b) {
  return std::max({diff(a.a, b.a), diff(a.b, b.b), diff(a.c, b.c), diff(a.d, b.d)});
}
template <typename T>
bool is_zero(const Jones<T>& a) {
  return a.a.re == 0 && a.a.im == 0 && a.b.re == 0 && a.b.im == 0 && a.c.re == 0 && a.c.im == 0 &&
         a.d.re == 0 && a.d.im == 0;
}

// Full mode: E (parallactic false) against aa_beam_enu, or E R against
// evaluate_station_jones_full<double>.
template <typename T>
ErrorStats check_full(const Case& c, bool parallactic) {
  const std::size_t np = c.plans.size(), ns = c.ra.size();
  std::vector<Jones<T>> gpu(np * ns);
  aa_station_jones_cuda<T>(c.plans, c.ra, c.dec, parallactic, gpu);
  std::vector<Jones<double>> cpu(np * ns);
  if (parallactic) {
    StationJonesInput in;
    in.stations = c.sites;
    in.pointing = c.pointing;
    in.gast_rad = c.gast;
    in.freq_hz = c.freq;
    in.ra = c.ra;
    in.dec = c.dec;
    in.aperture_array = c.model.get();
    evaluate_station_jones_full<double>(c.config, in, cpu);
  } else {
    std::vector<double> e, n, u;
    for (std::size_t p = 0; p < np; ++p) {
      source_directions(c, c.plans[p], e, n, u);
      aa_beam_enu(*c.model, c.plans[p], e, n, u, std::span(cpu).subspan(p * ns, ns));
    }
  }
  ErrorStats st;
  std::vector<double> e, n, u;
  for (std::size_t p = 0; p < np; ++p) {
    const double scale = beam_scale(c.plans[p], c.plans[p].norm);
    const double tol = tolerance<T>(c, c.plans[p]);
    source_directions(c, c.plans[p], e, n, u);
    double worst = 0.0;
    for (std::size_t s = 0; s < ns; ++s) {
      const std::size_t i = p * ns + s;
      worst = std::max(worst, jones_diff(gpu[i], cpu[i]) / scale);
      if (u[s] < 0.0) {
        ++st.below;
        if (!is_zero(gpu[i])) ++st.below_nonzero;
      }
    }
    st.max_rel = std::max(st.max_rel, worst);
    st.worst = std::max(st.worst, worst / tol);
  }
  return st;
}

template <typename T>
ErrorStats check_scalar(const Case& c) {
  const std::size_t np = c.plans.size(), ns = c.ra.size();
  std::vector<Complex<T>> gpu(np * ns);
  aa_station_scalar_cuda<T>(c.plans, c.ra, c.dec, gpu);
  ErrorStats st;
  std::vector<double> e, n, u;
  std::vector<Complex<double>> cpu(ns);
  for (std::size_t p = 0; p < np; ++p) {
    source_directions(c, c.plans[p], e, n, u);
    aa_beam_enu_scalar(*c.model, c.plans[p], e, n, u, cpu);
    const double scale = beam_scale(c.plans[p], c.plans[p].norm_scalar);
    const double tol = tolerance<T>(c, c.plans[p]);
    double worst = 0.0;
    for (std::size_t s = 0; s < ns; ++s) {
      const Complex<T> g = gpu[p * ns + s];
      worst = std::max(worst, diff(g, cpu[s]) / scale);
      if (u[s] < 0.0) {
        ++st.below;
        if (g.re != 0 || g.im != 0) ++st.below_nonzero;
      }
    }
    st.max_rel = std::max(st.max_rel, worst);
    st.worst = std::max(st.worst, worst / tol);
  }
  return st;
}

void expect_ok(const ErrorStats& st, const char* what) {
  std::cout << "[ stats    ] " << what << ": max error / beam scale = " << st.max_rel << " ("
            << st.worst << " of the tolerance), " << st.below
            << " station-sources below the horizon\n";
  EXPECT_LE(st.worst, 1.0) << what;
  EXPECT_GT(st.below, 0u) << what << ": the test needs sources below the horizon";
  EXPECT_EQ(st.below_nonzero, 0u) << what << ": sources below the horizon must give 0";
}

ApertureArrayConfig dipole_config() {
  ApertureArrayConfig aa;
  aa.element_pattern.functional_type = ElementFunctionalType::Dipole;
  aa.element_pattern.enable_numerical = false;
  return aa;
}

ApertureArrayConfig isotropic_config() {
  ApertureArrayConfig aa = dipole_config();
  aa.element_pattern.functional_type = ElementFunctionalType::Isotropic;
  return aa;
}

TEST(ApertureArrayGpu, Aa1DipoleFullDouble) {
  SKIP_WITHOUT_GPU();
  const Case c = make_case(model_path("ska-low-aa1.tm"), dipole_config(), 150e6, 1501);
  expect_ok(check_full<double>(c, false), "AA1 dipole E double");
  expect_ok(check_full<double>(c, true), "AA1 dipole E R double");
}

TEST(ApertureArrayGpu, Aa1DipoleFullFloat) {
  SKIP_WITHOUT_GPU();
  const Case c = make_case(model_path("ska-low-aa1.tm"), dipole_config(), 150e6, 1501);
  expect_ok(check_full<float>(c, false), "AA1 dipole E float");
  expect_ok(check_full<float>(c, true), "AA1 dipole E R float");
}

TEST(ApertureArrayGpu, Aa1DipoleScalarWithTaper) {
  SKIP_WITHOUT_GPU();
  ApertureArrayConfig aa = dipole_config();
  aa.element_pattern.taper = ElementTaper::Cosine;
  aa.element_pattern.taper_cosine_power = 1.5;
  aa.element_pattern.normalise = true;
  const Case c = make_case(model_path("ska-low-aa1.tm"), aa, 110e6, 1001);
  expect_ok(check_scalar<double>(c), "AA1 dipole scalar double");
  expect_ok(check_scalar<float>(c), "AA1 dipole scalar float");
}

TEST(ApertureArrayGpu, Aa1IsotropicFullAndScalar) {
  SKIP_WITHOUT_GPU();
  ApertureArrayConfig aa = isotropic_config();
  aa.element_pattern.taper = ElementTaper::Gaussian;
  aa.element_pattern.taper_gaussian_fwhm_rad = 60.0 * kDeg;
  aa.array_pattern.normalise = true;
  const Case c = make_case(model_path("ska-low-aa1.tm"), aa, 200e6, 777);
  expect_ok(check_full<double>(c, true), "AA1 isotropic E R double");
  expect_ok(check_full<float>(c, true), "AA1 isotropic E R float");
  expect_ok(check_scalar<double>(c), "AA1 isotropic scalar double");
  expect_ok(check_scalar<float>(c), "AA1 isotropic scalar float");
}

// X and Y weights that differ (as with per-feed gains or apodisation): the GPU then keeps two
// accumulations for one sincos (equal weights share one).
TEST(ApertureArrayGpu, Aa1DistinctFeedWeights) {
  SKIP_WITHOUT_GPU();
  Case c = make_case(model_path("ska-low-aa1.tm"), dipole_config(), 120e6, 801);
  for (AaStationPlan& plan : c.plans) {
    std::vector<Complex<double>>& wy = plan.levels.at(0).weight[1];
    for (std::size_t k = 0; k < wy.size(); ++k)
      wy[k] = wy[k] * Complex<double>{0.9 * std::cos(0.01 * double(k)), std::sin(0.01 * double(k))};
  }
  expect_ok(check_full<double>(c, false), "AA1 distinct feed weights E double");
  expect_ok(check_full<float>(c, false), "AA1 distinct feed weights E float");
}

TEST(ApertureArrayGpu, MwaTilesSwappedFeeds) {
  SKIP_WITHOUT_GPU();
  ApertureArrayConfig aa = dipole_config();
  aa.element_pattern.swap_xy = true;
  const Case c = make_case(model_path("mwa-phase1.tm"), aa, 180e6, 600);
  expect_ok(check_full<double>(c, true), "MWA dipole E R double");
  expect_ok(check_full<float>(c, true), "MWA dipole E R float");
}

// A two-level model: 3 stations sharing one station of 6 tiles; each tile 4 x 4 dipoles with
// Y positions of their own (layout_y.txt) and heights, so the GPU takes its two-sincos and 3-D
// paths.
fs::path write_tiled_model() {
  const fs::path dir = fs::temp_directory_path() / ("fringe_aa_gpu_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "station" / "tile");
  std::ofstream(dir / "position.txt") << "116.67081523611111 -26.703319405555554 0\n";
  std::ofstream(dir / "layout.txt") << "0 0\n120.5 -40.25\n-300 210\n";
  std::ofstream(dir / "station" / "layout.txt")
      << "0 0 0\n5.1 0.3 0.1\n-4.9 0.2 0\n0.4 5 -0.1\n0.1 -5.2 0.05\n6 6 0\n";
  std::ofstream tx(dir / "station" / "tile" / "layout.txt");
  std::ofstream ty(dir / "station" / "tile" / "layout_y.txt");
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      const double x = 1.1 * (i - 1.5), y = 1.1 * (j - 1.5), z = 0.02 * (i - j);
      tx << x << ' ' << y << ' ' << z << '\n';
      ty << x + 0.01 << ' ' << y - 0.02 << ' ' << z << '\n';
    }
  }
  return dir;
}

TEST(ApertureArrayGpu, TwoLevelTiles) {
  SKIP_WITHOUT_GPU();
  const fs::path dir = write_tiled_model();
  Case c = make_case(dir, dipole_config(), 160e6, 900);
  fs::remove_all(dir);
  if (!c.plans.front().uniform || c.plans.front().levels.size() != 2)
    GTEST_SKIP() << "the CPU plan does not describe the tiled model as two uniform levels";
  EXPECT_FALSE(c.plans.front().levels.back().same_positions);
  expect_ok(check_full<double>(c, false), "tiles E double");
  expect_ok(check_full<double>(c, true), "tiles E R double");
  expect_ok(check_full<float>(c, true), "tiles E R float");
  expect_ok(check_scalar<double>(c), "tiles scalar double");
  expect_ok(check_scalar<float>(c), "tiles scalar float");
}

// Jones<T> as Jones<double>.
template <typename T>
Jones<double> to_double(const Jones<T>& j) {
  return {complex_cast<double>(j.a), complex_cast<double>(j.b), complex_cast<double>(j.c),
          complex_cast<double>(j.d)};
}

// The device-pointer API: every sources-per-thread variant gives the same values (each source
// is computed alone, in the same order), also for a chunk that does not fill the last block; a
// station with its beam off gives zeros.
template <typename T>
void check_variants(const Case& c, double tol) {
  const std::size_t np = c.plans.size(), ns = c.ra.size();
  std::vector<double> sd(ns), cd(ns);
  for (std::size_t s = 0; s < ns; ++s) {
    sd[s] = std::sin(c.dec[s]);
    cd[s] = std::cos(c.dec[s]);
  }
  const auto gpu = MemoryLocation::gpu(0);
  const auto d_ra = Array<double>::from_host(c.ra, gpu);
  const auto d_sd = Array<double>::from_host(sd, gpu);
  const auto d_cd = Array<double>::from_host(cd, gpu);
  const AaDeviceSources src{d_ra.data(), d_sd.data(), d_cd.data(), ns};
  AaBeamCuda<T> beam(0);
  beam.set_plans(c.plans);
  ASSERT_EQ(beam.num_stations(), np);
  std::vector<std::vector<Jones<T>>> results;
  for (int per_thread : {1, 2, 4}) {
    beam.set_sources_per_thread(per_thread);
    Array<Jones<T>> out(np * ns, gpu);
    beam.evaluate_full(src, true, out.data());
    beam.synchronize();
    results.push_back(out.to_vector());
  }
  for (std::size_t i = 0; i < np * ns; ++i) {
    const Jones<double> ref = to_double(results[0][i]);
    ASSERT_LE(jones_diff(results[1][i], ref), tol) << i;
    ASSERT_LE(jones_diff(results[2][i], ref), tol) << i;
  }
  for (std::size_t s = 0; s < ns; ++s) EXPECT_TRUE(is_zero(results[0][3 * ns + s])) << s;
  EXPECT_THROW(beam.set_sources_per_thread(3), Error);
}

TEST(ApertureArrayGpu, DeviceApiVariantsAndBeamOff) {
  SKIP_WITHOUT_GPU();
  Case c = make_case(model_path("ska-low-aa1.tm"), dipole_config(), 150e6, 1001);
  c.plans[3].beam_off = true;
  check_variants<double>(c, 1e-15);
  check_variants<float>(c, 1e-6);
}

TEST(ApertureArrayGpu, NonUniformPlanIsRefused) {
  SKIP_WITHOUT_GPU();
  Case c = make_case(model_path("ska-low-aa1.tm"), dipole_config(), 150e6, 3);
  c.plans[5].uniform = false;
  AaBeamCuda<float> beam(0);
  try {
    beam.set_plans(c.plans);
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("station 5 is not uniform"), std::string::npos)
        << e.what();
  }
  std::vector<Jones<double>> out(c.plans.size() * c.ra.size());
  EXPECT_THROW(aa_station_jones_cuda<double>(c.plans, c.ra, c.dec, true, out), Error);
}

// Spherical-wave element patterns (issue 19) on the GPU against the CPU, element by element:
// the uniform stations (0 and 2) of tests/data/oskar-reference/spherical_wave_aa/sw.tm
// (station 1 mixes element types: GroupedStations below), at two frequencies that pick different
// files, with and without element normalisation, double and float (the same tolerances as the
// functional patterns; the sum has 15 terms per feed).
TEST(ApertureArrayGpu, SphericalWaveElements) {
  SKIP_WITHOUT_GPU();
  const fs::path dir = fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "oskar-reference" /
                       "spherical_wave_aa" / "sw.tm";
  for (const bool normalise : {false, true}) {
    for (const double freq : {105e6, 112e6}) {
      ApertureArrayConfig aa;
      aa.element_pattern.enable_numerical = true;
      aa.element_pattern.normalise = normalise;
      Case c = make_case(dir, aa, freq, 801);
      std::erase_if(c.plans,
                    [](const AaStationPlan& p) { return !p.uniform || !p.groups.empty(); });
      ASSERT_EQ(c.plans.size(), 2u);
      for (const auto& p : c.plans) ASSERT_NE(p.element.sw, nullptr);
      expect_ok(check_full<double>(c, false), "spherical wave E double");
      expect_ok(check_full<float>(c, false), "spherical wave E float");
    }
  }
}

// FEKO-convention patterns (text files and *FEKO*.h5) on the GPU against the CPU, element by
// element: the uniform stations of tests/data/oskar-reference/spherical_wave_feko/ (the HDF5
// model has orders 1..4 with the Y feed padded), two frequencies, with and without
// normalisation and max_order, double and float.
TEST(ApertureArrayGpu, SphericalWaveFekoElements) {
  SKIP_WITHOUT_GPU();
  const fs::path base =
      fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "oskar-reference" / "spherical_wave_feko";
  for (const char* model : {"feko_txt.tm", "feko_h5.tm"}) {
    for (const bool normalise : {false, true}) {
      for (const double freq : {105e6, 112e6}) {
        ApertureArrayConfig aa;
        aa.element_pattern.enable_numerical = true;
        aa.element_pattern.normalise = normalise;
        aa.element_pattern.max_order = normalise ? 3 : 0;
        Case c = make_case(base / model, aa, freq, 803);
        std::erase_if(c.plans, [](const AaStationPlan& p) {
          return !p.uniform || !p.element.sw || !p.element.sw_feko;
        });
        ASSERT_GE(c.plans.size(), 2u) << model;
        expect_ok(check_full<double>(c, false), "FEKO spherical wave E double");
        expect_ok(check_full<float>(c, false), "FEKO spherical wave E float");
      }
    }
  }
}

// Grouped stations (antennas mixing element types or feed angles, aperture_array.h) on the GPU
// against the CPU's grouped path, element by element (the CPU's grouped path equals its
// recursive reference: test_aperture_array_groups.cpp). (a) Every station of sw.tm (station 1
// mixes spherical-wave types 0 and 1; 0 and 2 are uniform, so one evaluator holds both kinds)
// at two frequencies, with and without element normalisation; (b) SKA-Low AA1 dipoles whose
// feed angles fall into four groups, with time-variable errors, Full and Scalar; (c) a
// station of identical tiles whose antennas mix feed angles.
TEST(ApertureArrayGpu, GroupedStations) {
  SKIP_WITHOUT_GPU();
  const fs::path dir = fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "oskar-reference" /
                       "spherical_wave_aa" / "sw.tm";
  for (const bool normalise : {false, true}) {
    for (const double freq : {105e6, 112e6}) {
      ApertureArrayConfig aa;
      aa.element_pattern.enable_numerical = true;
      aa.element_pattern.normalise = normalise;
      const Case c = make_case(dir, aa, freq, 801);
      ASSERT_EQ(c.plans.size(), 3u);
      ASSERT_EQ(c.plans[1].groups.size(), 2u);
      EXPECT_TRUE(c.plans[0].groups.empty());
      expect_ok(check_full<double>(c, false), "grouped spherical wave E double");
      expect_ok(check_full<double>(c, true), "grouped spherical wave E R double");
      expect_ok(check_full<float>(c, false), "grouped spherical wave E float");
      expect_ok(check_scalar<double>(c), "grouped spherical wave scalar double");
    }
  }
  telescope::TelescopeModel tel = telescope::load_telescope_model(model_path("ska-low-aa1.tm"));
  for (auto& sm : tel.station_models) {
    for (auto& f : sm.feeds) {
      for (std::size_t k = 0; k < f.feed_angle.size(); ++k) {
        f.feed_angle[k].alpha += double(k % 4) * 22.5 * kDeg;
        f.gain_phase[k].gain_error = 0.02;
        f.gain_phase[k].phase_error = 0.01;
      }
    }
  }
  ApertureArrayConfig aa = dipole_config();
  aa.element_pattern.taper = ElementTaper::Cosine;
  aa.element_pattern.taper_cosine_power = 1.5;
  const Case c = make_case(std::move(tel), aa, 150e6, 1001);
  for (const auto& p : c.plans) ASSERT_EQ(p.groups.size(), 4u);
  expect_ok(check_full<double>(c, true), "AA1 grouped feed angles E R double");
  expect_ok(check_full<float>(c, true), "AA1 grouped feed angles E R float");
  expect_ok(check_scalar<double>(c), "AA1 grouped feed angles scalar double");
  expect_ok(check_scalar<float>(c), "AA1 grouped feed angles scalar float");

  // (c) The two-level model of TwoLevelTiles with the tile's antennas alternating between feed
  // angles 0 and 30 deg: station level x two groups, Y positions of their own.
  const fs::path tiled = write_tiled_model();
  telescope::TelescopeModel tt = telescope::load_telescope_model(tiled);
  fs::remove_all(tiled);
  for (auto& sm : tt.station_models)
    for (auto& tile : sm.tiles)
      for (auto& f : tile.feeds)
        for (std::size_t k = 1; k < f.feed_angle.size(); k += 2) f.feed_angle[k].alpha = 30 * kDeg;
  const Case ct = make_case(std::move(tt), dipole_config(), 160e6, 900);
  for (const auto& p : ct.plans) {
    ASSERT_EQ(p.levels.size(), 1u);
    ASSERT_EQ(p.groups.size(), 2u);
  }
  expect_ok(check_full<double>(ct, true), "grouped tiles E R double");
  expect_ok(check_full<float>(ct, true), "grouped tiles E R float");
  expect_ok(check_scalar<double>(ct), "grouped tiles scalar double");
}

}  // namespace
}  // namespace fringe::jones
