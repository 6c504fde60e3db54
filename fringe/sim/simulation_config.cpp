#include "fringe/sim/simulation_config.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "fringe/core/error.h"

namespace fringe::sim {
namespace {

// Numbers of a text file: separated by white space or commas; '#' starts a comment.
std::vector<double> read_numbers(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open the noise data file '" + path + "'");
  std::vector<double> values;
  std::string line;
  for (long n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(w, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != w.size()) throw Error::in_file(path, n, "expected a number, got '" + w + "'");
      values.push_back(v);
    }
  }
  if (values.empty()) throw Error("the noise data file '" + path + "' holds no values");
  return values;
}

}  // namespace

vis::NoiseTable noise_table(const NoiseConfig& noise, const ObservationConfig& observation,
                            const telescope::TelescopeModel& tel) {
  vis::NoiseTable t;
  switch (noise.freq) {
    case NoiseFreqSource::TelescopeModel:
      t.freq_hz = tel.noise_freq_hz;
      if (t.freq_hz.empty()) {
        throw Error::in_field(
            "NoiseConfig.freq", "Telescope model",
            "the telescope model '" + tel.directory + "' has no noise_frequencies.txt");
      }
      break;
    case NoiseFreqSource::ObservationSettings:
      for (int c = 0; c < observation.num_channels; ++c) {
        t.freq_hz.push_back(observation.channel_frequency_hz(c));
      }
      break;
    case NoiseFreqSource::DataFile:
      t.freq_hz = read_numbers(noise.freq_file);
      break;
    case NoiseFreqSource::Range:
      for (int i = 0; i < noise.freq_number; ++i) {
        t.freq_hz.push_back(noise.freq_start_hz + i * noise.freq_inc_hz);
      }
      break;
  }
  const std::size_t nf = t.freq_hz.size();
  const std::size_t ns = tel.num_stations();
  std::vector<double> common;
  switch (noise.rms) {
    case NoiseRmsSource::TelescopeModel:
      for (std::size_t s = 0; s < ns; ++s) {
        const std::vector<double>& r = tel.noise_rms_jy(s);
        if (r.size() != nf) {
          throw Error::in_field("NoiseConfig.rms", "Telescope model",
                                "station " + std::to_string(s) + " of '" + tel.directory +
                                    "' has " + std::to_string(r.size()) +
                                    " RMS value(s) (rms.txt), expected one per noise "
                                    "frequency (" +
                                    std::to_string(nf) + ")");
        }
        t.rms_jy.push_back(r);
      }
      break;
    case NoiseRmsSource::DataFile:
      common = read_numbers(noise.rms_file);
      if (common.size() != nf) {
        throw Error::in_field("NoiseConfig.rms_file", noise.rms_file,
                              "has " + std::to_string(common.size()) +
                                  " RMS value(s), expected one per noise frequency (" +
                                  std::to_string(nf) + ")");
      }
      break;
    case NoiseRmsSource::Range:
      for (std::size_t i = 0; i < nf; ++i) {
        const double x = nf > 1 ? double(i) / double(nf - 1) : 0.0;
        common.push_back(noise.rms_start_jy + x * (noise.rms_end_jy - noise.rms_start_jy));
      }
      break;
  }
  if (noise.rms != NoiseRmsSource::TelescopeModel) t.rms_jy.assign(ns, common);
  for (const auto& row : t.rms_jy) {
    for (double v : row) {
      if (!(v >= 0 && v <= kMaxNoiseRmsJy)) {
        throw Error::in_field("NoiseConfig.rms", std::to_string(v),
                              "expected noise RMS values in [0, 1e9] Jy");
      }
    }
  }
  t.validate(ns);
  return t;
}

int SimulationConfig::channels_per_block() const {
  const int n = observation.num_channels;
  return max_channels_per_block > 0 ? std::min(max_channels_per_block, n) : std::min(n, 8);
}

int SimulationConfig::times_per_block() const {
  return std::max(1, std::min(max_times_per_block, observation.num_time_steps));
}

}  // namespace fringe::sim
