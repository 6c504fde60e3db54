// station_jones.h: E and R per station and source on the CPU, checked against spherical
// geometry from ERFA (separations, hour angle -> az/el, parallactic angle) and the Gaussian
// beam formula (docs/conventions.md, "Station beams") written out here independently.
#include <erfa.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/jones/station_jones.h"

namespace fringe::jones {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;

StationBeamConfig gaussian(double fwhm_deg, double ref_freq_hz = 0.0, bool normalise = true) {
  StationBeamConfig c;
  c.station_type = StationType::Gaussian;
  c.normalise_at_phase_centre = normalise;
  c.gaussian.fwhm_rad = fwhm_deg * kDeg;
  c.gaussian.ref_freq_hz = ref_freq_hz;
  return c;
}

StationBeamConfig isotropic() {
  StationBeamConfig c;
  c.station_type = StationType::Isotropic;
  return c;
}

// The documented Gaussian beam, exp(-sin^2(d) / (2 sigma^2)), d from ERFA.
double expected_gaussian(double fwhm, double ra0, double dec0, double ra, double dec) {
  const double d = eraSeps(ra0, dec0, ra, dec);
  const double sigma = std::sin(fwhm) / (2.0 * std::sqrt(2.0 * std::log(2.0)));
  return std::exp(-std::sin(d) * std::sin(d) / (2.0 * sigma * sigma));
}

// A run's inputs kept alive together.
struct Case {
  std::vector<astro::Geodetic> stations;
  std::vector<double> ra, dec;
  BeamPointing pointing;
  double gast = 0.0;
  double freq = 100e6;
  StationJonesInput input() const { return {stations, pointing, gast, freq, ra, dec}; }
  std::size_t size() const { return stations.size() * ra.size(); }
};

// One station at (lon 0, lat -30 deg), phase centre (RA 0, Dec -10 deg) on the meridian
// (GAST = 0), sources along the meridian and off it.
Case meridian_case() {
  Case c;
  c.stations = {{0.0, -30.0 * kDeg, 0.0}};
  c.pointing = default_pointing(false, 0.0, -10.0 * kDeg);
  c.ra = {0.0, 0.0, 0.02, -0.05, 0.1};
  c.dec = {-10.0 * kDeg, -9.0 * kDeg, -10.5 * kDeg, -12.0 * kDeg, -4.0 * kDeg};
  return c;
}

// R from ERFA's parallactic angle at a station.
astro::Rotation2<double> erfa_rotation(const astro::Geodetic& st, double gast, double ra,
                                       double dec) {
  return astro::parallactic_rotation(eraHd2pa(gast + st.lon - ra, dec, st.lat));
}

TEST(StationJones, GaussianIsOneAtCentreAndHalfAtDocumentedRadius) {
  Case c = meridian_case();
  const double fwhm = 2.0 * kDeg;
  const double d_half = std::asin(std::sin(fwhm) / 2.0);  // sin(d) = sin(FWHM) / 2
  c.ra = {0.0, 0.0, 0.0};
  c.dec = {-10.0 * kDeg, -10.0 * kDeg + d_half, -10.0 * kDeg - d_half};
  std::vector<Complex<double>> e(c.size());
  evaluate_station_jones_scalar<double>(gaussian(2.0), c.input(), e);
  EXPECT_NEAR(e[0].re, 1.0, 1e-15);
  EXPECT_NEAR(e[1].re, 0.5, 1e-12);
  EXPECT_NEAR(e[2].re, 0.5, 1e-12);
  for (const auto& v : e) EXPECT_EQ(v.im, 0.0);
}

TEST(StationJones, GaussianMatchesFormulaWithErfaSeparation) {
  Case c = meridian_case();
  const double fwhm = 8.0 * kDeg;
  std::vector<Complex<double>> e(c.size());
  evaluate_station_jones_scalar<double>(gaussian(8.0), c.input(), e);
  for (std::size_t s = 0; s < c.ra.size(); ++s) {
    EXPECT_NEAR(e[s].re, expected_gaussian(fwhm, 0.0, -10.0 * kDeg, c.ra[s], c.dec[s]), 1e-12)
        << "source " << s;
  }
}

TEST(StationJones, FrequencyScaling) {
  Case c = meridian_case();
  const double fwhm = 3.0 * kDeg, f_ref = 150e6;
  std::vector<Complex<double>> e(c.size());
  for (const double f : {75e6, 150e6, 300e6}) {
    c.freq = f;
    evaluate_station_jones_scalar<double>(gaussian(3.0, f_ref), c.input(), e);
    for (std::size_t s = 0; s < c.ra.size(); ++s) {
      EXPECT_NEAR(e[s].re,
                  expected_gaussian(fwhm * f_ref / f, 0.0, -10.0 * kDeg, c.ra[s], c.dec[s]), 1e-12)
          << f << " Hz, source " << s;
    }
  }
  // ref_freq_hz = 0: the FWHM does not change with frequency.
  c.freq = 300e6;
  evaluate_station_jones_scalar<double>(gaussian(3.0, 0.0), c.input(), e);
  for (std::size_t s = 0; s < c.ra.size(); ++s) {
    EXPECT_NEAR(e[s].re, expected_gaussian(fwhm, 0.0, -10.0 * kDeg, c.ra[s], c.dec[s]), 1e-12);
  }
}

TEST(StationJones, FrequencyIndependenceFlagMatchesResults) {
  Case c = meridian_case();
  for (const StationBeamConfig& cfg : {isotropic(), gaussian(3.0, 0.0), gaussian(3.0, 150e6)}) {
    std::vector<Jones<double>> a(c.size()), b(c.size());
    c.freq = 100e6;
    evaluate_station_jones_full<double>(cfg, c.input(), a);
    c.freq = 170e6;
    evaluate_station_jones_full<double>(cfg, c.input(), b);
    EXPECT_EQ(a != b, depends_on_frequency(cfg)) << to_string(cfg.station_type);
  }
}

TEST(StationJones, NormalisationMakesPhaseCentreValueOne) {
  // Beam pointed 1.5 deg away from the phase centre, normalised at the phase centre.
  Case c = meridian_case();
  const double dec0 = -10.0 * kDeg, fwhm = 4.0 * kDeg;
  c.pointing.beam = BeamDirection::radec(0.0, dec0 - 1.5 * kDeg);
  c.pointing.normalisation = BeamDirection::radec(0.0, dec0);
  std::vector<Complex<double>> on(c.size()), off(c.size());
  evaluate_station_jones_scalar<double>(gaussian(4.0, 0.0, true), c.input(), on);
  evaluate_station_jones_scalar<double>(gaussian(4.0, 0.0, false), c.input(), off);
  // Source 0 is the phase centre.
  const double b0 = expected_gaussian(fwhm, 0.0, dec0 - 1.5 * kDeg, 0.0, dec0);
  EXPECT_NEAR(off[0].re, b0, 1e-12);
  EXPECT_LT(off[0].re, 0.9);
  EXPECT_NEAR(on[0].re, 1.0, 2e-16);
  for (std::size_t s = 0; s < c.ra.size(); ++s) EXPECT_NEAR(on[s].re, off[s].re / b0, 1e-14);

  // Elliptical, Full mode: the phase-centre amplitude sqrt(sum |J|^2 / 2) is 1 (R is unitary).
  StationBeamConfig ell = gaussian(4.0);
  ell.gaussian.elliptical = true;
  ell.gaussian.x = {5.0 * kDeg, 2.0 * kDeg, 20.0 * kDeg};
  ell.gaussian.y = {3.0 * kDeg, 1.0 * kDeg, -50.0 * kDeg};
  std::vector<Jones<double>> j(c.size());
  evaluate_station_jones_full<double>(ell, c.input(), j);
  EXPECT_NEAR(jones_norm2(j[0]) / 2.0, 1.0, 1e-14);
}

TEST(StationJones, IsotropicIsNotNormalised) {
  Case c = meridian_case();
  StationBeamConfig iso = isotropic();
  iso.normalise_at_phase_centre = true;
  std::vector<Complex<double>> e(c.size());
  evaluate_station_jones_scalar<double>(iso, c.input(), e);
  for (const auto& v : e) EXPECT_EQ(v, (Complex<double>{1.0, 0.0}));
}

TEST(StationJones, ZeroBelowHorizonForGaussianNotIsotropic) {
  // Drift scan: beam at the zenith of a station at latitude 0 (GAST 0, lon 0: LST 0).
  // FWHM 90 deg: without blanking a source 5 deg below the horizon would still give ~0.06.
  Case c;
  c.stations = {{0.0, 0.0, 0.0}};
  c.pointing = default_pointing(true, 0.0, 0.0);
  c.ra = {kPi / 2 + 5.0 * kDeg, kPi / 2 - 5.0 * kDeg, 0.0};  // el -5, +5, 90 deg
  c.dec = {0.0, 0.0, 0.0};
  for (std::size_t s = 0; s < c.ra.size(); ++s) {
    double az, el;
    eraHd2ae(c.gast + c.stations[0].lon - c.ra[s], c.dec[s], c.stations[0].lat, &az, &el);
    EXPECT_NEAR(el, (s == 0 ? -5.0 : s == 1 ? 5.0 : 90.0) * kDeg, 1e-12);
  }
  std::vector<Complex<double>> e(c.size());
  evaluate_station_jones_scalar<double>(gaussian(90.0), c.input(), e);
  EXPECT_EQ(e[0].re, 0.0);
  EXPECT_GT(e[1].re, 0.05);
  EXPECT_NEAR(e[2].re, 1.0, 1e-15);
  std::vector<Jones<double>> j(c.size());
  evaluate_station_jones_full<double>(gaussian(90.0), c.input(), j);
  EXPECT_EQ(j[0], jones_zero<double>());
  // Isotropic: 1 below the horizon too.
  evaluate_station_jones_scalar<double>(isotropic(), c.input(), e);
  EXPECT_EQ(e[0].re, 1.0);
}

TEST(StationJones, BeamBelowHorizonZeroesStationAndWarns) {
  // Phase centre at Dec +60 deg is never up at latitude -45 deg.
  Case c;
  c.stations = {{0.0, -45.0 * kDeg, 0.0}, {0.0, 45.0 * kDeg, 0.0}};
  c.pointing = default_pointing(false, 0.0, 60.0 * kDeg);
  c.ra = {0.0, 1.0};
  c.dec = {60.0 * kDeg, 10.0 * kDeg};
  std::ostringstream log_text;
  Logger logger(log_text);
  for (const StationBeamConfig& cfg : {gaussian(5.0), isotropic()}) {
    std::vector<Jones<double>> j(c.size());
    EXPECT_EQ(evaluate_station_jones_full<double>(cfg, c.input(), j, &logger), 1u);
    EXPECT_EQ(j[0], jones_zero<double>());
    EXPECT_EQ(j[1], jones_zero<double>());
    EXPECT_NE(j[2], jones_zero<double>());  // second station sees its beam direction
  }
  EXPECT_NE(log_text.str().find("below the horizon"), std::string::npos);
}

TEST(StationJones, RotationOnMeridianNorthOfZenithIsMinusIdentity) {
  // Station at latitude -30 deg; sources on the meridian (H = 0) north of the zenith
  // (Dec > latitude): psi = +-pi, R = -I; south of the zenith: psi = 0, R = I. ERFA agrees.
  Case c;
  c.stations = {{0.3, -30.0 * kDeg, 0.0}};
  c.gast = 1.0;
  const double lst = c.gast + c.stations[0].lon;
  c.ra = {lst, lst};
  c.dec = {-10.0 * kDeg, -50.0 * kDeg};  // north, south of the zenith
  c.pointing = default_pointing(false, lst, -30.0 * kDeg);
  EXPECT_NEAR(std::abs(eraHd2pa(0.0, c.dec[0], c.stations[0].lat)), kPi, 1e-15);
  EXPECT_NEAR(eraHd2pa(0.0, c.dec[1], c.stations[0].lat), 0.0, 1e-15);
  std::vector<Jones<double>> j(c.size());
  evaluate_station_jones_full<double>(isotropic(), c.input(), j);
  const Jones<double> minus_i = {{-1, 0}, {0, 0}, {0, 0}, {-1, 0}};
  const Jones<double> d0 = j[0] - minus_i, d1 = j[1] - jones_identity<double>();
  EXPECT_LT(jones_norm2(d0), 1e-28);
  EXPECT_LT(jones_norm2(d1), 1e-28);
}

TEST(StationJones, IsotropicFullIsPureRotationFromErfa) {
  Case c;
  // Two stations 95 deg apart in longitude; the phase centre is up at both (else their beams
  // would be zero, see BeamBelowHorizonZeroesStationAndWarns). Sources anywhere, some of them
  // below a station's horizon: isotropic stations still give R there.
  c.stations = {{116.7 * kDeg, -26.8 * kDeg, 300.0}, {21.4 * kDeg, -30.7 * kDeg, 1000.0}};
  c.gast = 2.2;
  c.pointing = default_pointing(false, c.gast + 1.205, -30.0 * kDeg);
  c.ra = {0.1, 1.0, 2.5, 4.0, 5.9};
  c.dec = {-80.0 * kDeg, -20.0 * kDeg, 0.0, 30.0 * kDeg, 70.0 * kDeg};
  std::vector<Jones<double>> j(c.size());
  evaluate_station_jones_full<double>(isotropic(), c.input(), j);
  for (std::size_t p = 0; p < c.stations.size(); ++p) {
    for (std::size_t s = 0; s < c.ra.size(); ++s) {
      const auto r = erfa_rotation(c.stations[p], c.gast, c.ra[s], c.dec[s]);
      const Jones<double>& v = j[p * c.ra.size() + s];
      EXPECT_NEAR(v.a.re, r.xx, 1e-13);
      EXPECT_NEAR(v.b.re, r.xy, 1e-13);
      EXPECT_NEAR(v.c.re, r.yx, 1e-13);
      EXPECT_NEAR(v.d.re, r.yy, 1e-13);
      EXPECT_EQ(v.a.im, 0.0);
      EXPECT_EQ(v.b.im, 0.0);
      EXPECT_EQ(v.c.im, 0.0);
      EXPECT_EQ(v.d.im, 0.0);
    }
  }
}

TEST(StationJones, FullIsBeamTimesRotationAndScalarIsItsDiagonal) {
  Case c;
  c.stations = {{20.0 * kDeg, -40.0 * kDeg, 0.0}, {21.0 * kDeg, -38.0 * kDeg, 0.0}};
  c.gast = 0.1;
  const double ra0 = 0.4, dec0 = -35.0 * kDeg;
  c.pointing = default_pointing(false, ra0, dec0);
  c.ra = {ra0, ra0 + 0.03, ra0 - 0.06, ra0 + 0.01};
  c.dec = {dec0, dec0 + 0.02, dec0 - 0.01, dec0 + 0.07};
  const double fwhm = 6.0 * kDeg;
  const StationBeamConfig cfg = gaussian(6.0, 0.0, false);
  std::vector<Jones<double>> j(c.size());
  std::vector<Complex<double>> e(c.size());
  evaluate_station_jones_full<double>(cfg, c.input(), j);
  evaluate_station_jones_scalar<double>(cfg, c.input(), e);
  for (std::size_t p = 0; p < c.stations.size(); ++p) {
    for (std::size_t s = 0; s < c.ra.size(); ++s) {
      const std::size_t i = p * c.ra.size() + s;
      // The beam of a station is centred on the phase centre as seen from that station: the
      // ERFA separation on the sky is the same at every station.
      const double g = expected_gaussian(fwhm, ra0, dec0, c.ra[s], c.dec[s]);
      const auto r = erfa_rotation(c.stations[p], c.gast, c.ra[s], c.dec[s]);
      const Jones<double> ref = jones_diagonal<double>({g, 0.0}, {g, 0.0}) * rotation_jones(r);
      EXPECT_LT(jones_norm2(j[i] - ref), 1e-26) << p << " " << s;
      EXPECT_NEAR(e[i].re, g, 1e-13);
      // Scalar equals the Full diagonal E: J R^T = diag(e, e).
      const Jones<double> jrt = j[i] * rotation_jones<double>({r.xx, r.yx, r.xy, r.yy});
      EXPECT_NEAR(jrt.a.re, e[i].re, 1e-13);
      EXPECT_NEAR(jrt.d.re, e[i].re, 1e-13);
      EXPECT_NEAR(jrt.b.re, 0.0, 1e-13);
      EXPECT_NEAR(jrt.c.re, 0.0, 1e-13);
    }
  }
}

TEST(StationJones, EllipticalFeedsAndScalarChoice) {
  // Station at latitude -30 deg, beam at the phase centre Dec -10 deg on the meridian: North
  // of the zenith (azimuth 0, elevation 70 deg). Along the meridian l = 0 and +m (increasing
  // elevation) points towards the zenith, i.e. towards decreasing Dec. X feed: major axis
  // along m (angle 0); Y feed: major axis along l (angle 90 deg). Along one axis of FWHM F a
  // source at tangent-plane radius r gives exp(-4 ln 2 r^2 / sin^2 F) = 0.5^((2 r / sin F)^2).
  Case c = meridian_case();
  StationBeamConfig cfg = gaussian(1.0, 0.0, false);
  cfg.gaussian.elliptical = true;
  const double maj = 4.0 * kDeg, mn = 2.0 * kDeg;
  cfg.gaussian.x = {maj, mn, 0.0};
  cfg.gaussian.y = {maj, mn, 90.0 * kDeg};
  const double dec0 = -10.0 * kDeg;
  const double d_maj = std::asin(std::sin(maj) / 2.0);  // radius sin(maj) / 2
  const double d_min = std::asin(std::sin(mn) / 2.0);   // radius sin(mn) / 2
  c.ra = {0.0, 0.0};
  c.dec = {dec0 + d_maj, dec0 - d_min};  // along -m, along +m
  std::vector<Jones<double>> j(c.size());
  std::vector<Complex<double>> e(c.size());
  evaluate_station_jones_full<double>(cfg, c.input(), j);
  evaluate_station_jones_scalar<double>(cfg, c.input(), e);
  auto along = [](double r, double fwhm) {
    return std::pow(0.5, std::pow(2.0 * r / std::sin(fwhm), 2.0));
  };
  const double expect_x[] = {0.5, along(std::sin(d_min), maj)};
  const double expect_y[] = {along(std::sin(d_maj), mn), 0.5};
  for (std::size_t s = 0; s < 2; ++s) {
    const auto r = erfa_rotation(c.stations[0], c.gast, c.ra[s], c.dec[s]);
    const Jones<double> jrt = j[s] * rotation_jones<double>({r.xx, r.yx, r.xy, r.yy});  // E
    const double gx = jrt.a.re, gy = jrt.d.re;
    EXPECT_NEAR(jrt.b.re, 0.0, 1e-13);
    EXPECT_NEAR(jrt.c.re, 0.0, 1e-13);
    EXPECT_NEAR(gx, expect_x[s], 1e-10) << "source " << s;
    EXPECT_NEAR(gy, expect_y[s], 1e-10) << "source " << s;
    EXPECT_NEAR(e[s].re, std::sqrt((gx * gx + gy * gy) / 2.0), 1e-13);  // documented choice
  }
}

TEST(StationJones, HorizonMaskTwoStations) {
  // Equator stations at longitude 0 and 60 deg, GAST 0. Dec 0 sources: up where |H| < 90 deg.
  const std::vector<astro::Geodetic> sites = {{0.0, 0.0, 0.0}, {60.0 * kDeg, 0.0, 0.0}};
  const std::vector<double> ra = {0.0, 130.0 * kDeg, 200.0 * kDeg, 330.0 * kDeg};
  const std::vector<double> dec = {0.0, 0.0, 0.0, 20.0 * kDeg};
  std::vector<std::uint8_t> mask(ra.size());
  horizon_mask(sites, 0.0, ra, dec, mask);
  for (std::size_t s = 0; s < ra.size(); ++s) {
    bool up = false;
    for (const auto& st : sites) {
      double az, el;
      eraHd2ae(st.lon - ra[s], dec[s], st.lat, &az, &el);
      up = up || el > 0.0;
    }
    EXPECT_EQ(mask[s] != 0, up) << "source " << s;
  }
  EXPECT_EQ(mask, (std::vector<std::uint8_t>{1, 1, 0, 1}));  // only B sees source 1
  EXPECT_EQ(above_horizon_indices(sites, 0.0, ra, dec), (std::vector<std::size_t>{0, 1, 3}));
  // Only station A: source 1 is now dropped.
  horizon_mask(std::span(sites).first(1), 0.0, ra, dec, mask);
  EXPECT_EQ(mask, (std::vector<std::uint8_t>{1, 0, 0, 1}));
}

TEST(StationJones, ThreadCountDoesNotChangeResults) {
  Case c;
  for (int p = 0; p < 7; ++p) c.stations.push_back({0.01 * p, -0.5 + 0.02 * p, 0.0});
  for (int s = 0; s < 301; ++s) {
    c.ra.push_back(0.5 + 0.003 * s);
    c.dec.push_back(-0.6 + 0.002 * s);
  }
  c.gast = 0.3;
  c.pointing = default_pointing(false, 0.8, -0.4);
  const StationBeamConfig cfg = gaussian(30.0, 100e6);
  std::vector<Jones<float>> a(c.size()), b(c.size());
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  evaluate_station_jones_full<float>(cfg, c.input(), a);
  omp_set_num_threads(3);
  evaluate_station_jones_full<float>(cfg, c.input(), b);
  omp_set_num_threads(saved);
  EXPECT_EQ(a, b);
  // Float is the double result rounded.
  std::vector<Jones<double>> d(c.size());
  evaluate_station_jones_full<double>(cfg, c.input(), d);
  for (std::size_t i = 0; i < d.size(); ++i) EXPECT_EQ(a[i], jones_cast<float>(d[i]));
}

TEST(StationJones, BadInputAndInvalidConfigs) {
  Case c = meridian_case();
  std::vector<Jones<double>> j(c.size());
  StationBeamConfig aa;  // default: Aperture array, which needs the prepared station model
  EXPECT_THROW(evaluate_station_jones_full<double>(aa, c.input(), j), Error);
  aa.aperture_array.element_pattern.dipole_length = 0.0;
  try {
    validate(aa);
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().field, "StationBeamConfig.aperture_array.element_pattern.dipole_length");
  }
  StationBeamConfig vla;
  vla.station_type = StationType::VlaPbcor;
  EXPECT_NO_THROW(validate(vla));
  try {
    validate(gaussian(0.0));
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().field, "StationBeamConfig.gaussian.fwhm_rad");
  }
  StationBeamConfig ell = gaussian(1.0);
  ell.gaussian.elliptical = true;  // x/y widths left at 0
  try {
    validate(ell);
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().field, "StationBeamConfig.gaussian.x.fwhm_major_rad");
  }
  EXPECT_THROW(validate(gaussian(1.0, -5.0)), Error);
  // FWHM scaled past 180 deg at a low frequency.
  c.freq = 1e6;
  EXPECT_THROW(evaluate_station_jones_full<double>(gaussian(10.0, 100e6), c.input(), j), Error);
  c.freq = 0.0;
  EXPECT_THROW(evaluate_station_jones_full<double>(isotropic(), c.input(), j), Error);
  c.freq = 100e6;
  std::vector<Jones<double>> too_small(c.size() - 1);
  EXPECT_THROW(evaluate_station_jones_full<double>(isotropic(), c.input(), too_small), Error);
  c.dec.pop_back();
  EXPECT_THROW(evaluate_station_jones_full<double>(isotropic(), c.input(), j), Error);
  std::vector<std::uint8_t> mask(3);
  EXPECT_THROW(horizon_mask(c.stations, 0.0, c.ra, c.ra, mask), Error);
}

TEST(StationJones, FloatParamsFromDoubleParams) {
  // What a float kernel would do: params built in double, cast, evaluated in float.
  StationBeamConfig cfg = gaussian(3.0, 120e6);
  const astro::Geodetic site{0.2, -0.5, 0.0};
  const BeamPointing pointing = default_pointing(false, 1.0, -0.45);
  const StationBeamParams<double> pd = make_station_beam_params(cfg, site, pointing, 0.9, 150e6);
  const StationBeamParams<float> pf = station_beam_params_cast<float>(pd);
  for (const double dd : {0.0, 0.01, -0.02}) {
    const double dec = -0.45 + dd, ra = 1.0 + 0.5 * dd;
    const Jones<double> jd = station_jones_full(pd, ra, std::sin(dec), std::cos(dec));
    const Jones<float> jf =
        station_jones_full(pf, float(ra), float(std::sin(dec)), float(std::cos(dec)));
    EXPECT_LT(jones_norm2(jones_cast<double>(jf) - jd), 1e-10) << dd;
  }
}

TEST(StationJones, DirectionEnu) {
  const astro::Geodetic site{0.4, -0.6, 0.0};
  const astro::Vec3 z = direction_enu(BeamDirection::zenith(), 1.3, site);
  EXPECT_NEAR(z.x, 0.0, 1e-16);
  EXPECT_NEAR(z.y, 0.0, 1e-16);
  EXPECT_NEAR(z.z, 1.0, 1e-16);
  // RA/Dec at the zenith: H = 0, Dec = latitude.
  const astro::Vec3 r = direction_enu(BeamDirection::radec(1.3 + 0.4, -0.6), 1.3, site);
  EXPECT_NEAR(r.z, 1.0, 1e-15);
}

}  // namespace
}  // namespace fringe::jones
