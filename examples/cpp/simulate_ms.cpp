// simulate_ms: a small interferometer simulation through fringe's public C++ API, written
// to a Measurement Set (examples/cpp/README.md, docs/cpp_api.md).
//
//   simulate_ms <telescope.tm> <output.ms>
//
// A sky of three point sources is built from plain arrays, the telescope model is loaded
// from the folder given, an observation of 4 time steps x 2 channels is made from values in
// degrees, Hz and MJD, and fringe::api::Interferometer writes the Measurement Set while a
// callback sees each visibility block. Station beams are isotropic, so any .tm folder works
// and the run takes well under a second. Exit status: 0 written, 1 the run failed, 2 bad
// arguments.
#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "fringe/api/interferometer.h"
#include "fringe/api/observation.h"
#include "fringe/api/sky.h"
#include "fringe/api/telescope.h"
#include "fringe/api/types.h"
#include "fringe/api/version.h"

namespace {

// Three point sources near the phase centre, as columns in OSKAR's units: RA, Dec [deg],
// Stokes I [Jy] at 1.4 GHz, spectral index -0.7.
fringe::api::Sky make_sky() {
  const std::vector<double> ra_deg{300.0, 300.1, 299.8};
  const std::vector<double> dec_deg{-30.0, -29.9, -30.2};
  const std::vector<double> flux_jy{2.0, 1.0, 0.5};
  const std::vector<double> ref_freq_hz(ra_deg.size(), 1.4e9);
  const std::vector<double> spectral_index(ra_deg.size(), -0.7);
  fringe::api::SkyColumns columns;  // columns left empty are zeros (Q, U, V, sizes, ...)
  columns.ra_deg = ra_deg;
  columns.dec_deg = dec_deg;
  columns.I = flux_jy;
  columns.ref_freq_hz = ref_freq_hz;
  columns.spectral_index = spectral_index;
  fringe::api::Sky sky;
  fringe::api::append_sources(sky, columns);
  return sky;
}

// Tracking RA 300 deg, Dec -30 deg, close to the zenith of SKA-Mid at the start time
// (2000-01-01 12:00 UTC, MJD 51544.5): 4 dumps of 15 s, 2 channels of 1 MHz from 1.4 GHz.
fringe::api::Observation make_observation() {
  return fringe::api::make_observation({.phase_centre_ra_deg = 300.0,
                                        .phase_centre_dec_deg = -30.0,
                                        .start_frequency_hz = 1.4e9,
                                        .num_channels = 2,
                                        .frequency_inc_hz = 1.0e6,
                                        .start_mjd_utc = 51544.5,
                                        .length_sec = 60.0,
                                        .num_time_steps = 4});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <telescope.tm> <output.ms>\n", argv[0]);
    return 2;
  }
  try {
    std::printf("fringe %s (CUDA back end: %s)\n", fringe::api::version().c_str(),
                fringe::api::built_with_cuda() ? "yes" : "no");

    fringe::api::Interferometer sim;
    sim.set_sky_model(make_sky());
    sim.set_telescope_model(fringe::api::load_telescope(argv[1]));
    sim.set_observation(make_observation());
    std::printf("sky: %zu sources\ntelescope: %s\nobservation: %s\n", sim.sky_model().size(),
                fringe::api::describe_telescope(sim.telescope_model()).c_str(),
                fringe::api::describe_observation(sim.observation()).c_str());

    fringe::api::SimulationConfig& config = sim.config();
    config.beam.station_type = fringe::jones::StationType::Isotropic;
    config.precision = fringe::Precision::Double;
    config.devices.use_gpus = true;  // the CPU when the library or the machine has no GPU
    config.ms_path = argv[2];        // an existing file or folder there is refused

    // Each block as the Measurement Set holds it: vis[time][channel][row][pol].
    double max_amplitude = 0.0;
    const auto on_block = [&](fringe::api::BlockView& block) {
      for (const std::complex<float>& v : block.vis) {
        max_amplitude = std::max(max_amplitude, static_cast<double>(std::abs(v)));
      }
      std::printf("block %zu/%zu: %d times x %d channels x %zu baselines\n", block.block_index + 1,
                  block.num_blocks, block.num_times, block.num_channels, block.num_rows);
    };
    const fringe::api::SimulationResult result = sim.run(on_block);

    std::printf("wrote %s: %zu rows, largest amplitude %.4f Jy, on %s\n", result.ms_path.c_str(),
                result.num_rows, max_amplitude, result.gpus.empty() ? "the CPU" : "GPUs");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simulate_ms: %s\n", e.what());
    return 1;
  }
}
