// simulate_ms: a small interferometer simulation through fringe's public C++ API, written
// to a Measurement Set (examples/cpp/README.md, docs/cpp_api.md).
//
//   simulate_ms <telescope.tm> <output.ms>
//
// A sky of three point sources is built from plain arrays, the telescope model is loaded
// from the folder given, an observation of 4 time steps x 2 channels is filled in, and the
// simulator writes the Measurement Set. Station beams are isotropic, so any .tm folder works
// and the run takes well under a second. Exit status: 0 written, 1 the run failed, 2 bad
// arguments.
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "fringe/api/types.h"
#include "fringe/api/version.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/telescope/tm_loader.h"

namespace {

// Three point sources near the phase centre, as columns: RA, Dec [deg], Stokes I [Jy] at
// 1.4 GHz with spectral index -0.7.
fringe::api::Sky make_sky() {
  const std::vector<double> ra_deg{300.0, 300.1, 299.8};
  const std::vector<double> dec_deg{-30.0, -29.9, -30.2};
  const std::vector<double> flux_jy{2.0, 1.0, 0.5};
  fringe::api::Sky sky;
  for (std::size_t i = 0; i < ra_deg.size(); ++i) {
    fringe::sky::Source source;
    source.ra = ra_deg[i] * fringe::kDegToRad;  // the library works in radians
    source.dec = dec_deg[i] * fringe::kDegToRad;
    source.I = flux_jy[i];
    source.ref_freq = 1.4e9;  // Hz
    source.spectral_index = {-0.7};
    sky.push_back(source);
  }
  return sky;
}

// Tracking RA 300 deg, Dec -30 deg, close to the zenith of SKA-Mid at the start time
// (2000-01-01 12:00 UTC, MJD 51544.5): 4 dumps of 15 s, 2 channels of 1 MHz from 1.4 GHz.
fringe::api::Observation make_observation() {
  fringe::api::Observation obs;
  obs.phase_centre_ra = 300.0 * fringe::kDegToRad;
  obs.phase_centre_dec = -30.0 * fringe::kDegToRad;
  obs.start_frequency_hz = 1.4e9;
  obs.num_channels = 2;
  obs.frequency_inc_hz = 1.0e6;
  obs.start_mjd_utc = 51544.5;
  obs.length_sec = 60.0;
  obs.num_time_steps = 4;
  obs.start_time_text = "2000-01-01 12:00:00";
  return obs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <telescope.tm> <output.ms>\n", argv[0]);
    return 2;
  }
  const std::string telescope_dir = argv[1];
  const std::string ms_path = argv[2];
  try {
    std::printf("fringe %s (CUDA back end: %s)\n", fringe::api::version().c_str(),
                fringe::api::built_with_cuda() ? "yes" : "no");

    const fringe::api::Telescope telescope = fringe::telescope::load_telescope_model(telescope_dir);
    fringe::api::Sky sky = make_sky();

    fringe::sim::SimulationConfig config;
    config.observation = make_observation();
    config.telescope_directory = telescope_dir;
    config.beam.station_type = fringe::jones::StationType::Isotropic;
    config.precision = fringe::Precision::Double;
    config.ms_path = ms_path;  // refused if something is already there
    // config.devices: GPUs when the library has CUDA and a device is present, else the CPU.

    const std::size_t num_sources = sky.size();
    const fringe::sim::SimulationResult result =
        fringe::sim::simulate_interferometer(config, std::move(sky), telescope, {});

    std::printf("sky: %zu sources; telescope: %zu stations\n", num_sources,
                telescope.num_stations());
    std::printf("wrote %s: %zu rows (%d times x %zu baselines), %d channels, on %s\n",
                result.ms_path.c_str(), result.num_rows, config.observation.num_time_steps,
                telescope.num_stations() * (telescope.num_stations() - 1) / 2,
                config.observation.num_channels, result.gpus.empty() ? "the CPU" : "GPUs");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simulate_ms: %s\n", e.what());
    return 1;
  }
}
