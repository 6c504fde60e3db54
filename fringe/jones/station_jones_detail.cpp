#include "fringe/jones/station_jones_detail.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/jones/jones_math.h"

namespace fringe::jones::detail {

void check_input(const StationJonesInput& in, std::size_t out_size, bool full) {
  if (in.ra.size() != in.dec.size()) {
    throw Error("station Jones: " + std::to_string(in.ra.size()) + " source RAs but " +
                std::to_string(in.dec.size()) + " declinations; expected one of each per source");
  }
  if (!(in.freq_hz > 0.0) || !std::isfinite(in.freq_hz)) {
    throw Error("station Jones: frequency " + std::to_string(in.freq_hz) +
                " Hz; expected a finite frequency > 0");
  }
  if (!std::isfinite(in.gast_rad)) {
    throw Error("station Jones: GAST is not finite");
  }
  const std::size_t need = in.stations.size() * in.ra.size();
  if (out_size != need) {
    throw Error("station Jones: output holds " + std::to_string(out_size) +
                " values; expected stations x sources = " + std::to_string(need));
  }
  if (!in.station_ids.empty() && in.station_ids.size() != in.stations.size()) {
    throw Error("station Jones: " + std::to_string(in.station_ids.size()) + " station ids for " +
                std::to_string(in.stations.size()) + " stations; expected one per station");
  }
  if (full && in.parallactic && in.source_frame == DirectionFrame::AzEl) {
    throw Error(
        "station Jones: directions in the Az/El frame cannot take the parallactic rotation; "
        "evaluate E alone (parallactic = false)");
  }
}

BeamPointing station_pointing(const StationJonesInput& in, std::size_t p) {
  BeamPointing bp = in.pointing;
  if (in.pointing_overrides) {
    const std::size_t id = station_id(in, p);
    const auto& st = in.pointing_overrides->station;
    if (id < st.size() && st[id]) bp.beam = *st[id];
  }
  return bp;
}

SourceTerms source_terms(const StationJonesInput& in) {
  SourceTerms t;
  if (in.source_frame != DirectionFrame::RaDec) return t;
  t.sin_dec.resize(in.dec.size());
  t.cos_dec.resize(in.dec.size());
  for (std::size_t s = 0; s < in.dec.size(); ++s) {
    t.sin_dec[s] = std::sin(in.dec[s]);
    t.cos_dec[s] = std::cos(in.dec[s]);
  }
  return t;
}

SourceAtStation source_at_station(const StationJonesInput& in, const SourceTerms& t, std::size_t s,
                                  double lst, double sin_lat, double cos_lat) {
  SourceAtStation d{};
  if (in.source_frame == DirectionFrame::AzEl) {
    const double ce = std::cos(in.dec[s]);
    d.e = ce * std::sin(in.ra[s]);
    d.n = ce * std::cos(in.ra[s]);
    d.u = std::sin(in.dec[s]);
    return d;
  }
  const double ha = lst - in.ra[s];
  d.sin_ha = std::sin(ha);
  d.cos_ha = std::cos(ha);
  source_enu(d.sin_ha, d.cos_ha, t.sin_dec[s], t.cos_dec[s], sin_lat, cos_lat, d.e, d.n, d.u);
  return d;
}

void warn_beams_off(Logger* logger, const std::vector<std::size_t>& off, double gast_rad) {
  if (off.empty() || !logger) return;
  std::ostringstream msg;
  msg << "beam direction below the horizon of " << off.size() << " station"
      << (off.size() == 1 ? "" : "s") << " (";
  const std::size_t shown = std::min<std::size_t>(off.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) msg << (i ? ", " : "") << off[i];
  if (shown < off.size()) msg << ", ...";
  msg << ") at GAST " << gast_rad << " rad: their station beams are zero";
  logger->warning(msg.str());
}

}  // namespace fringe::jones::detail
