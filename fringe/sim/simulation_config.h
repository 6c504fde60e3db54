// SimulationConfig: everything the interferometer pipeline (sim/interferometer.h) needs, typed
// and in SI units: radians, Hz, seconds, metres. The app layer fills it from the settings of
// sim_interferometer (app/simulation_settings.h); this module reads no settings. Errors of
// the pipeline name fields as "Struct.member" (e.g. NoiseConfig.rms).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fringe/astro/observation.h"
#include "fringe/core/device.h"
#include "fringe/core/precision.h"
#include "fringe/jones/polarisation_mode.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/jones/tec_screen.h"
#include "fringe/sim/corruption_config.h"
#include "fringe/sky/sky_config.h"
#include "fringe/telescope/element_errors.h"
#include "fringe/telescope/telescope_model.h"
#include "fringe/vis/noise.h"

namespace fringe::sim {

using astro::ObservationConfig;
using astro::ObservationMode;
using jones::PolarisationMode;

// interferometer/noise/... (docs/settings.md; docs/conventions.md, "System noise").
enum class NoiseFreqSource { TelescopeModel, ObservationSettings, DataFile, Range };
enum class NoiseRmsSource { TelescopeModel, DataFile, Range };

// The largest noise RMS (docs/reliability/sim.md): 1e9 Jy per visibility, far above any
// real system noise, and far below what overflows complex float DATA (3.4e38).
inline constexpr double kMaxNoiseRmsJy = 1e9;

struct NoiseConfig {
  bool enable = false;
  std::uint64_t seed = 1;  // noise/seed; the word "time": seconds of the wall clock at reading
  NoiseFreqSource freq = NoiseFreqSource::TelescopeModel;
  std::string freq_file;  // noise/freq/file (resolved path)
  int freq_number = 0;    // noise/freq/number
  double freq_start_hz = 0.0, freq_inc_hz = 0.0;
  NoiseRmsSource rms = NoiseRmsSource::TelescopeModel;
  std::string rms_file;                         // noise/rms/file (resolved path)
  double rms_start_jy = 0.0, rms_end_jy = 0.0;  // Range: linear over the noise frequencies
};

// The noise RMS table of every station of tel (vis/noise.h): frequencies from the telescope
// model (noise_frequencies.txt), the observation's channel centres, a data file or a Range;
// RMS from the model (rms.txt, per station), a data file or a Range (start..end linear over
// the frequency list; start alone when there is one frequency); the same RMS for every
// station except with the telescope model. Throws fringe::Error naming the field
// (NoiseConfig.freq, rms, rms_file) or the file when a list is missing, empty, of the wrong
// length or has RMS values outside [0, kMaxNoiseRmsJy].
vis::NoiseTable noise_table(const NoiseConfig& noise, const ObservationConfig& observation,
                            const telescope::TelescopeModel& tel);

struct SimulationConfig {
  // simulator/...
  Precision precision = Precision::Double;
  // The GPUs to use (the CPU runs it when no usable GPU exists); devices.num_devices is also
  // the number of CPU threads of a CPU run (0: every core), as OSKAR's "compute devices".
  DeviceRequest devices{.use_gpus = true, .cuda_device_ids = {}, .num_devices = 0};
  std::size_t max_sources_per_chunk = 16384;

  ObservationConfig observation;

  // sky/... used while simulating (the sky loading itself is app/models.h)
  sky::CommonFluxFilterConfig common_flux_filter;
  bool apply_horizon_clip = true;
  bool zero_failed_gaussians = false;

  // telescope/...
  std::string telescope_directory;
  PolarisationMode pol_mode = PolarisationMode::Full;
  jones::StationBeamConfig beam;
  telescope::ElementErrorConfig element_errors;  // aperture_array/array_pattern/element/*
  std::string pointing_file;                     // resolved observation/pointing_file ("" = none)
  jones::IonosphereConfig ionosphere;  // telescope/ionosphere_screen_type, external_tec_screen/...

  // interferometer/...
  double channel_bandwidth_hz = 0.0;  // bandwidth smearing (0: off)
  double time_average_sec = 0.0;      // time smearing (0: off)
  int max_times_per_block = 8;
  int max_channels_per_block = 0;  // 0 = auto: min(num_channels, 8)
  bool write_cross = true;
  bool write_autos = false;
  bool casa_phase_convention = true;
  double uv_filter_min = 0.0;
  double uv_filter_max = std::numeric_limits<double>::infinity();
  bool uv_filter_in_wavelengths = true;
  NoiseConfig noise;
  GainCorruptionConfig corruption;  // interferometer/gain_corruption/...
  // interferometer/telescope_name (MS OBSERVATION); the default is OSKAR 2.13's own value.
  std::string telescope_name = "OSKAR 2.13.0-dev";
  std::string ms_path;   // resolved interferometer/ms_filename ("" = none)
  std::string vis_path;  // resolved interferometer/oskar_vis_filename ("" = none)
  bool force_polarised_ms = false;
  double ms_dish_diameter_m = 1.0;

  // Effective block sizes.
  int channels_per_block() const;
  int times_per_block() const;
};

}  // namespace fringe::sim
