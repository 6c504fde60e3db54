#include "fringe/app/noise_settings.h"

#include <string>

#include "fringe/app/settings_to_config.h"
#include "fringe/core/error.h"

namespace fringe::app {

using settings::Settings;

sim::NoiseConfig noise_config(const Settings& s) {
  const std::string k = "interferometer/noise/";
  sim::NoiseConfig n;
  n.enable = s.get_bool(k + "enable");
  if (!n.enable) return n;
  n.seed = positive_seed(s, k + "seed");
  const std::string f = s.get_option(k + "freq");
  if (f == "Telescope model") {
    n.freq = sim::NoiseFreqSource::TelescopeModel;
  } else if (f == "Observation settings") {
    n.freq = sim::NoiseFreqSource::ObservationSettings;
  } else if (f == "Data file") {
    n.freq = sim::NoiseFreqSource::DataFile;
    if (s.get(k + "freq/file").empty()) {
      throw Error::in_setting(k + "freq/file", "", "expected a file of noise frequencies");
    }
    n.freq_file = s.get_path(k + "freq/file");
  } else if (f == "Range") {
    n.freq = sim::NoiseFreqSource::Range;
    n.freq_number = s.get_int(k + "freq/number");
    if (n.freq_number < 1) {
      throw Error::in_setting(k + "freq/number", s.get(k + "freq/number"),
                              "expected at least 1 noise frequency");
    }
    n.freq_start_hz = s.get_double(k + "freq/start");
    n.freq_inc_hz = s.get_double(k + "freq/inc");
  } else {
    throw Error::in_setting(k + "freq", f, "expected a noise frequency option of the schema");
  }
  const std::string r = s.get_option(k + "rms");
  if (r == "Telescope model") {
    n.rms = sim::NoiseRmsSource::TelescopeModel;
  } else if (r == "Data file") {
    n.rms = sim::NoiseRmsSource::DataFile;
    if (s.get(k + "rms/file").empty()) {
      throw Error::in_setting(k + "rms/file", "", "expected a file of noise RMS values");
    }
    n.rms_file = s.get_path(k + "rms/file");
  } else if (r == "Range") {
    n.rms = sim::NoiseRmsSource::Range;
    n.rms_start_jy = s.get_double(k + "rms/start");
    n.rms_end_jy = s.get_double(k + "rms/end");
    for (const char* e : {"rms/start", "rms/end"}) {
      const double v = s.get_double(k + e);
      if (!(v >= 0 && v <= sim::kMaxNoiseRmsJy)) {
        throw Error::in_setting(k + e, s.get(k + e),
                                "expected an RMS in [0, 1e9] Jy (larger noise overflows the "
                                "Measurement Set's single-precision DATA)");
      }
    }
  } else {
    throw Error::in_setting(k + "rms", r, "expected a noise RMS option of the schema");
  }
  return n;
}

}  // namespace fringe::app
