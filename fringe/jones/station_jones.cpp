#include "fringe/jones/station_jones.h"

#include <cmath>
#include <sstream>
#include <string>

#include "fringe/astro/horizontal_math.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/jones/station_jones_detail.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::jones {

namespace {

// The real type of an output element (Jones<T> or Complex<T>).
template <typename X>
struct RealOfT;
template <typename T>
struct RealOfT<Jones<T>> {
  using type = T;
};
template <typename T>
struct RealOfT<Complex<T>> {
  using type = T;
};
template <typename X>
using RealOf = typename RealOfT<X>::type;

// The FWHM at freq_hz, refused when it reaches 180 deg (sin(FWHM) would no longer grow with
// the width, and at 180 deg the Gaussian's sigma is zero).
// `field` names the config field; the value is shown in degrees, as the user gives it.
double scaled_fwhm(const char* field, double fwhm_rad, double ref_freq_hz, double freq_hz) {
  const double scaled = gaussian_fwhm_at(fwhm_rad, ref_freq_hz, freq_hz);
  if (!(scaled > 0.0 && scaled < kPi)) {
    std::ostringstream msg;
    msg.precision(10);
    msg << "the Gaussian beam FWHM scaled to " << freq_hz << " Hz is " << scaled * kRadToDeg
        << " deg; expected less than 180 deg (FWHM * ref_freq_hz / frequency)";
    std::ostringstream value;
    value.precision(17);
    value << fwhm_rad * kRadToDeg;
    throw Error::in_field(field, value.str(), msg.str());
  }
  return scaled;
}

// Isotropic, Gaussian and VLA beams for every station and source into out (double).
template <bool kFull, typename Out>
std::size_t evaluate_analytic(const StationBeamConfig& config, const StationJonesInput& in,
                              std::span<Out> out, Logger* logger) {
  std::vector<std::size_t> off;
  const std::vector<StationBeamParams<double>> params = station_params(config, in, off);
  detail::warn_beams_off(logger, off, in.gast_rad);
  const detail::SourceTerms terms = detail::source_terms(in);
  const bool fast = in.source_frame == DirectionFrame::RaDec && (in.parallactic || !kFull);
  const auto np = static_cast<std::ptrdiff_t>(params.size());
  const auto nsrc = static_cast<std::ptrdiff_t>(in.ra.size());
#pragma omp parallel for collapse(2) schedule(static)
  for (std::ptrdiff_t pp = 0; pp < np; ++pp) {
    for (std::ptrdiff_t ss = 0; ss < nsrc; ++ss) {
      const auto p = static_cast<std::size_t>(pp), s = static_cast<std::size_t>(ss);
      const StationBeamParams<double>& sp = params[p];
      Out& o = out[p * std::size_t(nsrc) + s];
      if (fast) {
        if constexpr (kFull) {
          o = jones_cast<RealOf<Out>>(
              station_jones_full(sp, in.ra[s], terms.sin_dec[s], terms.cos_dec[s]));
        } else {
          o = complex_cast<RealOf<Out>>(
              station_jones_scalar(sp, in.ra[s], terms.sin_dec[s], terms.cos_dec[s]));
        }
        continue;
      }
      // AzEl directions, or E without R.
      const detail::SourceAtStation d =
          detail::source_at_station(in, terms, s, sp.lst, sp.sin_lat, sp.cos_lat);
      double gx = 0.0, gy = 0.0;
      station_beam_feeds(sp, d.e, d.n, d.u, gx, gy);
      if constexpr (kFull) {
        o = jones_cast<RealOf<Out>>(jones_diagonal<double>({gx, 0.0}, {gy, 0.0}));
      } else {
        o = complex_cast<RealOf<Out>>(
            Complex<double>{sp.elliptical ? scalar_from_feeds(gx, gy) : gx, 0.0});
      }
    }
  }
  return off.size();
}

// Sets p.norm from the beam at the normalisation direction (same horizon rule as any source).
void normalise(const StationBeamConfig& config, const BeamPointing& pointing, double gast_rad,
               const astro::Geodetic& site, StationBeamParams<double>& p) {
  if (!config.normalise_at_phase_centre) return;
  const astro::Vec3 n = direction_enu(pointing.normalisation, gast_rad, site);
  double gx0 = 0.0, gy0 = 0.0;
  station_beam_feeds_raw(p, n.x, n.y, n.z, gx0, gy0);
  p.norm = p.elliptical ? normalisation_matrix(jones_diagonal<double>({gx0, 0.0}, {gy0, 0.0}))
                        : normalisation_scalar(Complex<double>{gx0, 0.0});
}

}  // namespace

bool depends_on_frequency(const StationBeamConfig& config) {
  switch (config.station_type) {
    case StationType::Isotropic:
      return false;
    case StationType::Gaussian:
      return config.gaussian.ref_freq_hz > 0.0;
    case StationType::ApertureArray:
    case StationType::VlaPbcor:
      return true;
  }
  return true;
}

BeamPointing default_pointing(bool drift_scan, double ra0_rad, double dec0_rad) {
  const BeamDirection d =
      drift_scan ? BeamDirection::zenith() : BeamDirection::radec(ra0_rad, dec0_rad);
  return {d, d};
}

astro::Vec3 direction_enu(const BeamDirection& direction, double gast_rad,
                          const astro::Geodetic& site) {
  astro::Vec3 v;
  if (direction.frame == DirectionFrame::AzEl) {
    const double ce = std::cos(direction.lat_rad);
    v.x = ce * std::sin(direction.lon_rad);
    v.y = ce * std::cos(direction.lon_rad);
    v.z = std::sin(direction.lat_rad);
  } else {
    astro::hadec_to_enu(gast_rad + site.lon - direction.lon_rad, direction.lat_rad, site.lat, v.x,
                        v.y, v.z);
  }
  return v;
}

std::vector<astro::Geodetic> station_sites(const telescope::TelescopeModel& model) {
  std::vector<astro::Geodetic> sites;
  sites.reserve(model.stations.size());
  for (const auto& s : model.stations) sites.push_back(s.geodetic);
  return sites;
}

StationBeamParams<double> make_station_beam_params(const StationBeamConfig& config,
                                                   const astro::Geodetic& site,
                                                   const BeamPointing& pointing, double gast_rad,
                                                   double freq_hz) {
  StationBeamParams<double> p;
  p.lst = gast_rad + site.lon;
  p.sin_lat = std::sin(site.lat);
  p.cos_lat = std::cos(site.lat);
  const astro::Vec3 b = direction_enu(pointing.beam, gast_rad, site);
  p.beam_off = below_horizon(b.z);
  if (config.station_type == StationType::VlaPbcor) {
    p.kind = BeamKind::VlaPbcor;
    p.plane = beam_tangent_plane(b.x, b.y, b.z);
    p.vla_freq_ghz = freq_hz * 1e-9;
    int best = 0;
    for (int i = 1; i < kVlaBands; ++i) {
      if (std::abs(kVlaBandGhz[i] - p.vla_freq_ghz) < std::abs(kVlaBandGhz[best] - p.vla_freq_ghz))
        best = i;
    }
    p.vla_p1 = kVlaP1[best];
    p.vla_p2 = kVlaP2[best];
    p.vla_p3 = kVlaP3[best];
    normalise(config, pointing, gast_rad, site, p);
    return p;
  }
  if (config.station_type != StationType::Gaussian) return p;  // Isotropic (validated)

  p.kind = BeamKind::Gaussian;
  p.plane = beam_tangent_plane(b.x, b.y, b.z);
  const GaussianBeamConfig& g = config.gaussian;
  if (!g.elliptical) {
    p.x = gaussian_circular(
        scaled_fwhm("StationBeamConfig.gaussian.fwhm_rad", g.fwhm_rad, g.ref_freq_hz, freq_hz));
    p.y = p.x;
  } else {
    p.elliptical = true;
    p.x = gaussian_elliptical(scaled_fwhm("StationBeamConfig.gaussian.x.fwhm_major_rad",
                                          g.x.fwhm_major_rad, g.ref_freq_hz, freq_hz),
                              scaled_fwhm("StationBeamConfig.gaussian.x.fwhm_minor_rad",
                                          g.x.fwhm_minor_rad, g.ref_freq_hz, freq_hz),
                              g.x.angle_rad);
    p.y = gaussian_elliptical(scaled_fwhm("StationBeamConfig.gaussian.y.fwhm_major_rad",
                                          g.y.fwhm_major_rad, g.ref_freq_hz, freq_hz),
                              scaled_fwhm("StationBeamConfig.gaussian.y.fwhm_minor_rad",
                                          g.y.fwhm_minor_rad, g.ref_freq_hz, freq_hz),
                              g.y.angle_rad);
  }
  normalise(config, pointing, gast_rad, site, p);
  return p;
}

std::vector<StationBeamParams<double>> station_params(const StationBeamConfig& config,
                                                      const StationJonesInput& in,
                                                      std::vector<std::size_t>& off) {
  std::vector<StationBeamParams<double>> params;
  params.reserve(in.stations.size());
  for (std::size_t p = 0; p < in.stations.size(); ++p) {
    params.push_back(make_station_beam_params(
        config, in.stations[p], detail::station_pointing(in, p), in.gast_rad, in.freq_hz));
    if (params.back().beam_off) off.push_back(p);
  }
  return params;
}

template <typename T>
std::size_t evaluate_station_jones_full(const StationBeamConfig& config,
                                        const StationJonesInput& input, std::span<Jones<T>> out,
                                        Logger* logger) {
  validate(config);
  detail::check_input(input, out.size(), true);
  return config.station_type == StationType::ApertureArray
             ? detail::evaluate_aperture_array_full<T>(config, input, out, logger)
             : evaluate_analytic<true>(config, input, out, logger);
}

template <typename T>
std::size_t evaluate_station_jones_scalar(const StationBeamConfig& config,
                                          const StationJonesInput& input, std::span<Complex<T>> out,
                                          Logger* logger) {
  validate(config);
  detail::check_input(input, out.size(), false);
  return config.station_type == StationType::ApertureArray
             ? detail::evaluate_aperture_array_scalar<T>(config, input, out, logger)
             : evaluate_analytic<false>(config, input, out, logger);
}

template std::size_t evaluate_station_jones_full<float>(const StationBeamConfig&,
                                                        const StationJonesInput&,
                                                        std::span<Jones<float>>, Logger*);
template std::size_t evaluate_station_jones_full<double>(const StationBeamConfig&,
                                                         const StationJonesInput&,
                                                         std::span<Jones<double>>, Logger*);
template std::size_t evaluate_station_jones_scalar<float>(const StationBeamConfig&,
                                                          const StationJonesInput&,
                                                          std::span<Complex<float>>, Logger*);
template std::size_t evaluate_station_jones_scalar<double>(const StationBeamConfig&,
                                                           const StationJonesInput&,
                                                           std::span<Complex<double>>, Logger*);

void horizon_mask(std::span<const astro::Geodetic> sites, double gast_rad,
                  std::span<const double> ra, std::span<const double> dec,
                  std::span<std::uint8_t> mask) {
  if (ra.size() != dec.size() || mask.size() != ra.size()) {
    throw Error("horizon mask: " + std::to_string(ra.size()) + " RAs, " +
                std::to_string(dec.size()) + " declinations and " + std::to_string(mask.size()) +
                " mask values; expected one of each per source");
  }
  std::vector<double> sin_lat(sites.size()), cos_lat(sites.size()), lst(sites.size());
  for (std::size_t i = 0; i < sites.size(); ++i) {
    sin_lat[i] = std::sin(sites[i].lat);
    cos_lat[i] = std::cos(sites[i].lat);
    lst[i] = gast_rad + sites[i].lon;
  }
  const auto n = static_cast<std::ptrdiff_t>(ra.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    const auto s = static_cast<std::size_t>(k);
    const double sd = std::sin(dec[s]), cd = std::cos(dec[s]);
    std::uint8_t up = 0;
    for (std::size_t i = 0; i < sites.size() && !up; ++i) {
      // Up component of the source direction (astro::hadec_to_enu).
      const double u = sin_lat[i] * sd + cos_lat[i] * cd * std::cos(lst[i] - ra[s]);
      up = u > 0.0 ? 1 : 0;
    }
    mask[s] = up;
  }
}

std::vector<std::size_t> above_horizon_indices(std::span<const astro::Geodetic> sites,
                                               double gast_rad, std::span<const double> ra,
                                               std::span<const double> dec) {
  std::vector<std::uint8_t> mask(ra.size());
  horizon_mask(sites, gast_rad, ra, dec, mask);
  std::vector<std::size_t> kept;
  for (std::size_t s = 0; s < mask.size(); ++s) {
    if (mask[s]) kept.push_back(s);
  }
  return kept;
}

}  // namespace fringe::jones
