// SimulationConfig: every setting the interferometer pipeline (sim/interferometer.h) needs,
// typed and in SI units, filled in one place from the `simulator/...`, `observation/...`,
// `sky/...` (flux filter, horizon clip, failed Gaussians), `telescope/...` (station beam) and
// `interferometer/...` keys of settings/sim_interferometer.xml. Radians, Hz, seconds, metres.
// Settings that fringe cannot run yet raise fringe::Error::in_setting(... "not supported yet").
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fringe/core/device.h"
#include "fringe/core/precision.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/corruption_config.h"
#include "fringe/sim/observation_config.h"
#include "fringe/sky/sky_config.h"
#include "fringe/telescope/element_errors.h"
#include "fringe/telescope/telescope_model.h"
#include "fringe/vis/noise.h"

namespace fringe::sim {

enum class PolarisationMode { Full, Scalar };

// interferometer/noise/... (docs/settings.md; docs/conventions.md, "System noise").
enum class NoiseFreqSource { TelescopeModel, ObservationSettings, DataFile, Range };
enum class NoiseRmsSource { TelescopeModel, DataFile, Range };

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
// station except with the telescope model. Throws fringe::Error naming the setting or file
// when a list is missing, empty, of the wrong length or has negative RMS.
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

  // sky/... used while simulating (the sky loading itself is sim/models.h)
  sky::CommonFluxFilterConfig common_flux_filter;
  bool apply_horizon_clip = true;
  bool zero_failed_gaussians = false;

  // telescope/...
  std::string telescope_directory;
  PolarisationMode pol_mode = PolarisationMode::Full;
  jones::StationBeamConfig beam;
  telescope::ElementErrorConfig element_errors;  // aperture_array/array_pattern/element/*
  std::string pointing_file;                     // resolved observation/pointing_file ("" = none)

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
  GainCorruptionConfig corruption;        // interferometer/gain_corruption/...
  std::string telescope_name = "fringe";  // interferometer/telescope_name (MS OBSERVATION)
  std::string ms_path;                    // resolved interferometer/ms_filename ("" = none)
  bool force_polarised_ms = false;
  double ms_dish_diameter_m = 1.0;

  // Effective block sizes.
  int channels_per_block() const;
  int times_per_block() const;
};

// Reads and checks every key above. Throws fringe::Error::in_setting for unsupported values
// (Aperture array and VLA (PBCOR) stations, Drift scan mode) and
// invalid ones (beam widths, no ms_filename).
SimulationConfig simulation_config(const settings::Settings& s);

// The typed beam settings (telescope/station_type, normalise_beams_at_phase_centre,
// allow_station_beam_duplication, gaussian_beam/..., aperture_array/array_pattern/{enable,
// normalise}, aperture_array/element_pattern/...), validated (jones::validate) with errors
// naming the settings key.
jones::StationBeamConfig station_beam_config(const settings::Settings& s);

// The element error overrides telescope/aperture_array/array_pattern/element/* (degrees ->
// radians; seeds: 'time' = wall clock), for telescope::apply_element_errors.
telescope::ElementErrorConfig element_error_config(const settings::Settings& s);

// Aperture-array stations with element_pattern/enable_numerical = true whose telescope model
// holds numerical element pattern files (spherical-wave text files, HARP or FEKO data): those
// are not supported yet, so instead of silently using the functional pattern this throws
// fringe::Error::in_setting naming the key and the first such file.
void check_numerical_patterns(const jones::StationBeamConfig& beam,
                              const telescope::TelescopeModel& tel);

}  // namespace fringe::sim
