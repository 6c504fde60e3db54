// SimInputs (the host-side unit inputs both back ends form) and the back-end factory, the one
// place that knows whether this build has the CUDA back end (sim_backend.h).
#include "fringe/sim/sim_backend.h"

#include <algorithm>

#include "fringe/astro/horizontal_math.h"
#include "fringe/astro/station_uvw.h"
#include "fringe/astro/time.h"

namespace fringe::sim {

template <typename T>
SimInputs<T>::SimInputs(const SimulationConfig& config_in, const std::vector<SimChunk>& chunks_in,
                        const SimStations& stations_in, const RunContext& context_in)
    : config(config_in), chunks(chunks_in), stations(stations_in), context(context_in) {
  pol = config.pol_mode == PolarisationMode::Full ? predict::Polarisation::Full
                                                  : predict::Polarisation::Scalar;
  npol = predict::num_pols(pol);
  nbl = predict::num_baselines(stations.count);
  drift_scan = config.observation.mode == astro::ObservationMode::DriftScan;
  pointing = jones::default_pointing(drift_scan, config.observation.phase_centre_ra,
                                     config.observation.phase_centre_dec);
}

template <typename T>
double SimInputs<T>::gast_of(const vis::VisBlock<T>& block, std::size_t t) const {
  return astro::gast_rad(config.observation.time_centre_mjd(block.start_time_index + int(t)));
}

template <typename T>
void SimInputs<T>::true_station_uvw(double gast, UnitScratch<T>& ws) const {
  const ObservationConfig& o = config.observation;
  ws.u.resize(stations.count);
  ws.v.resize(stations.count);
  ws.w.resize(stations.count);
  if (drift_scan) {
    // The phase centre is the zenith of the array centre: (u, v, w) = (East, North, Up).
    ws.u.assign(stations.true_e.begin(), stations.true_e.end());
    ws.v.assign(stations.true_n.begin(), stations.true_n.end());
    ws.w.assign(stations.true_u.begin(), stations.true_u.end());
    return;
  }
  astro::station_uvw(stations.true_x, stations.true_y, stations.true_z, o.phase_centre_ra,
                     o.phase_centre_dec, gast, ws.u, ws.v, ws.w);
}

template <typename T>
void SimInputs<T>::tec_geometry(double gast, std::span<const double> ra,
                                std::span<const double> dec, UnitScratch<T>& ws) const {
  jones::TecPointsInput in;
  in.frame = drift_scan ? jones::TecFrame::Horizon : jones::TecFrame::PhaseCentre;
  in.gast_rad = gast;
  in.ra0 = config.observation.phase_centre_ra;
  in.dec0 = config.observation.phase_centre_dec;
  in.lon = ra;
  in.lat = dec;
  jones::tec_geometry(stations.tec_stations, in, ws.tec_geometry);
}

template <typename T>
void SimInputs<T>::drift_directions(double gast, UnitScratch<T>& ws) const {
  const std::size_t ns = ws.ra.size();
  ws.l.resize(ns);
  ws.m.resize(ns);
  ws.n.resize(ns);
  const double lst = gast + stations.centre.lon;  // local sidereal time of the array centre
  for (std::size_t j = 0; j < ns; ++j) {
    astro::hadec_to_enu(lst - ws.ra[j], ws.dec[j], stations.centre.lat, ws.l[j], ws.m[j], ws.n[j]);
  }
}

template <typename T>
predict::PredictInput<T> SimInputs<T>::predict_input(const UnitScratch<T>& ws, double gast,
                                                     double freq) const {
  const ObservationConfig& o = config.observation;
  const bool full = pol == predict::Polarisation::Full;
  predict::PredictInput<T> in;
  in.polarisation = pol;
  in.frequency_hz = freq;
  in.channel_bandwidth_hz = config.channel_bandwidth_hz;
  auto& src = in.sources;
  src.count = ws.index.size();
  src.stokes_i = ws.si.data();
  if (full) {
    src.stokes_q = ws.sq.data();
    src.stokes_u = ws.su.data();
    src.stokes_v = ws.sv.data();
  }
  src.l = ws.l.data();
  src.m = ws.m.data();
  src.n = ws.n.data();
  src.gauss_a = ws.ga.data();
  src.gauss_b = ws.gb.data();
  src.gauss_c = ws.gc.data();
  in.stations.count = stations.count;
  in.stations.u = ws.u.data();
  in.stations.v = ws.v.data();
  in.stations.w = ws.w.data();
  if (full) {
    in.stations.jones = ws.jones.data();
  } else {
    in.stations.jones_scalar = ws.jones_scalar.data();
  }
  // Time smearing is about an RA/Dec phase centre: none in a drift scan (as OSKAR 2.13).
  if (config.time_average_sec > 0 && !drift_scan) {
    in.time_smearing.tau_s = config.time_average_sec;
    in.time_smearing.gast = gast;
    in.time_smearing.ra0 = o.phase_centre_ra;
    in.time_smearing.dec0 = o.phase_centre_dec;
    in.time_smearing.station_x = stations.true_x.data();
    in.time_smearing.station_y = stations.true_y.data();
  }
  in.uv_filter.min = config.uv_filter_min;
  in.uv_filter.max = config.uv_filter_max;
  in.uv_filter.in_wavelengths = config.uv_filter_in_wavelengths;
  return in;
}

template <typename T>
jones::StationJonesInput SimInputs<T>::jones_input(const UnitScratch<T>& ws, double gast,
                                                   double freq, int time_index) const {
  jones::StationJonesInput in;
  in.stations = stations.sites;
  in.pointing = pointing;
  in.gast_rad = gast;
  in.freq_hz = freq;
  in.ra = ws.ra;
  in.dec = ws.dec;
  in.aperture_array = stations.aperture_array ? &*stations.aperture_array : nullptr;
  in.pointing_overrides = stations.pointing ? &*stations.pointing : nullptr;
  in.time_index = time_index;
  return in;
}

template <typename T>
void SimInputs<T>::record_below(std::size_t below) {
  std::size_t prev = below_.load();
  while (below > prev && !below_.compare_exchange_weak(prev, below)) {
  }
}

template class SimInputs<float>;
template class SimInputs<double>;

template <typename T>
std::unique_ptr<SimBackend<T>> make_sim_backend(const std::vector<int>& gpus,
                                                SimInputs<T>& inputs) {
#ifdef FRINGE_HAVE_CUDA
  if (!gpus.empty()) return make_cuda_sim_backend<T>(gpus, inputs);
#endif
  (void)gpus;  // choose_gpus gives none without the CUDA back end
  return make_cpu_sim_backend<T>(resolve_num_threads(inputs.config), inputs);
}

template std::unique_ptr<SimBackend<float>> make_sim_backend(const std::vector<int>&,
                                                             SimInputs<float>&);
template std::unique_ptr<SimBackend<double>> make_sim_backend(const std::vector<int>&,
                                                              SimInputs<double>&);

std::size_t sim_chunk_sources(const SimulationConfig& config, std::size_t num_stations,
                              const std::vector<int>& gpus, Logger* logger) {
#ifdef FRINGE_HAVE_CUDA
  if (!gpus.empty()) return cuda_chunk_sources(config, num_stations, gpus, logger);
#endif
  (void)num_stations;
  (void)logger;
  return std::max<std::size_t>(1, config.max_sources_per_chunk);
}

}  // namespace fringe::sim
