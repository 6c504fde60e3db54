// Station Jones of aperture-array stations (station_jones.h): per station, the plan of the
// time and frequency (aperture_array.h), the beam E for every source's ENU direction at that
// station, then the station's own parallactic rotation (J = E R in Full mode).
// telescope/allow_station_beam_duplication: E is evaluated once per station model, at the
// first listed station of that model, and used for every station of the model (OSKAR's
// one beam per station type); R stays per station.
#include <cmath>
#include <map>
#include <string>
#include <type_traits>

#include "fringe/core/error.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_plans.h"
#include "fringe/jones/jones_math.h"
#include "fringe/jones/station_jones_detail.h"

namespace fringe::jones::detail {
namespace {

// The station's beam and tile directions at this time (pointing file overrides applied).
AaPointing aa_pointing(const StationJonesInput& in, std::size_t p) {
  AaPointing ap;
  const astro::Geodetic& site = in.stations[p];
  ap.station_enu = direction_enu(station_pointing(in, p).beam, in.gast_rad, site);
  const std::size_t id = station_id(in, p);
  if (in.pointing_overrides && id < in.pointing_overrides->tile.size()) {
    const auto& tiles = in.pointing_overrides->tile[id];
    for (const auto& t : tiles) {
      ap.tile_enu.push_back(t ? direction_enu(*t, in.gast_rad, site) : ap.station_enu);
    }
  }
  return ap;
}

}  // namespace
}  // namespace fringe::jones::detail

namespace fringe::jones {

AaStationPlan aperture_array_plan(const StationBeamConfig& config, const StationJonesInput& in,
                                  std::size_t p) {
  if (!in.aperture_array) {
    throw Error("station Jones: aperture-array stations need the prepared telescope model");
  }
  const ApertureArrayModel& model = *in.aperture_array;
  const std::size_t id = detail::station_id(in, p);
  if (id >= model.num_stations()) {
    throw Error("station Jones: station " + std::to_string(id) +
                " is not in the aperture-array model of " + std::to_string(model.num_stations()) +
                " stations");
  }
  const astro::Geodetic& site = in.stations[p];
  const astro::Vec3 norm_enu = direction_enu(in.pointing.normalisation, in.gast_rad, site);
  return make_aa_plan(model, id, site, detail::aa_pointing(in, p), norm_enu,
                      config.normalise_at_phase_centre, in.gast_rad, in.freq_hz, in.time_index);
}

std::vector<AaStationPlan> aperture_array_plans(const StationBeamConfig& config,
                                                const StationJonesInput& in) {
  std::vector<AaStationPlan> plans(in.stations.size());
#pragma omp parallel for schedule(dynamic, 4)
  for (std::ptrdiff_t pp = 0; pp < std::ptrdiff_t(plans.size()); ++pp) {
    plans[std::size_t(pp)] = aperture_array_plan(config, in, std::size_t(pp));
  }
  return plans;
}

}  // namespace fringe::jones

namespace fringe::jones::detail {
namespace {

template <bool kFull, typename T>
std::size_t evaluate(const StationBeamConfig& config, const StationJonesInput& in,
                     std::span<std::conditional_t<kFull, Jones<T>, Complex<T>>> out,
                     Logger* logger) {
  if (!in.aperture_array) {
    throw Error("station Jones: aperture-array stations need the prepared telescope model");
  }
  const ApertureArrayModel& model = *in.aperture_array;
  const std::size_t np = in.stations.size(), ns = in.ra.size();
  for (std::size_t p = 0; p < np; ++p) {
    if (station_id(in, p) >= model.num_stations()) {
      throw Error("station Jones: station " + std::to_string(station_id(in, p)) +
                  " is not in the aperture-array model of " + std::to_string(model.num_stations()) +
                  " stations");
    }
  }
  const SourceTerms terms = source_terms(in);
  std::vector<double> e(ns), n(ns), u(ns);
  std::vector<Jones<double>> beam_j(kFull ? ns : 0);
  std::vector<Complex<double>> beam_s(kFull ? 0 : ns);
  std::map<int, std::size_t> evaluated;  // root node -> entry whose beam is in beam_*
  std::vector<std::size_t> off;
  std::size_t current = np;  // the entry whose beam beam_* holds

  for (std::size_t p = 0; p < np; ++p) {
    const std::size_t id = station_id(in, p);
    // The entry whose beam station p uses.
    std::size_t rep = p;
    if (config.allow_station_beam_duplication) {
      rep = evaluated.try_emplace(model.station_node(id), p).first->second;
    }
    const astro::Geodetic& site = in.stations[p];
    const double lst = in.gast_rad + site.lon;
    const double sin_lat = std::sin(site.lat), cos_lat = std::cos(site.lat);
    if (rep != current) {
      const astro::Geodetic& rsite = in.stations[rep];
      const double rlst = in.gast_rad + rsite.lon;
      const double rsl = std::sin(rsite.lat), rcl = std::cos(rsite.lat);
      for (std::size_t s = 0; s < ns; ++s) {
        const SourceAtStation d = source_at_station(in, terms, s, rlst, rsl, rcl);
        e[s] = d.e;
        n[s] = d.n;
        u[s] = d.u;
      }
      const AaStationPlan plan = aperture_array_plan(config, in, rep);
      if (plan.beam_off) off.push_back(rep);
      if constexpr (kFull) {
        aa_beam_enu(model, plan, e, n, u, beam_j);
      } else {
        aa_beam_enu_scalar(model, plan, e, n, u, beam_s);
      }
      current = rep;
    }
    auto* o = out.data() + p * ns;
    if constexpr (kFull) {
      const bool rotate = in.parallactic && in.source_frame == DirectionFrame::RaDec;
#pragma omp parallel for schedule(static)
      for (std::ptrdiff_t ss = 0; ss < std::ptrdiff_t(ns); ++ss) {
        const auto s = std::size_t(ss);
        Jones<double> j = beam_j[s];
        if (rotate) {
          const double ha = lst - in.ra[s];
          j = jones_times_rotation(
              j, parallactic_rotation_from_terms(std::sin(ha), std::cos(ha), terms.sin_dec[s],
                                                 terms.cos_dec[s], sin_lat, cos_lat));
        }
        o[s] = jones_cast<T>(j);
      }
    } else {
      for (std::size_t s = 0; s < ns; ++s) o[s] = complex_cast<T>(beam_s[s]);
    }
  }
  warn_beams_off(logger, off, in.gast_rad);
  return off.size();
}

}  // namespace

template <typename T>
std::size_t evaluate_aperture_array_full(const StationBeamConfig& config,
                                         const StationJonesInput& in, std::span<Jones<T>> out,
                                         Logger* logger) {
  return evaluate<true, T>(config, in, out, logger);
}

template <typename T>
std::size_t evaluate_aperture_array_scalar(const StationBeamConfig& config,
                                           const StationJonesInput& in, std::span<Complex<T>> out,
                                           Logger* logger) {
  return evaluate<false, T>(config, in, out, logger);
}

template std::size_t evaluate_aperture_array_full<float>(const StationBeamConfig&,
                                                         const StationJonesInput&,
                                                         std::span<Jones<float>>, Logger*);
template std::size_t evaluate_aperture_array_full<double>(const StationBeamConfig&,
                                                          const StationJonesInput&,
                                                          std::span<Jones<double>>, Logger*);
template std::size_t evaluate_aperture_array_scalar<float>(const StationBeamConfig&,
                                                           const StationJonesInput&,
                                                           std::span<Complex<float>>, Logger*);
template std::size_t evaluate_aperture_array_scalar<double>(const StationBeamConfig&,
                                                            const StationJonesInput&,
                                                            std::span<Complex<double>>, Logger*);

}  // namespace fringe::jones::detail
