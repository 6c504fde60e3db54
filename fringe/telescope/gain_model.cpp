#include "fringe/telescope/gain_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fringe/core/error.h"
#include "fringe/io/hdf5/hdf5_file.h"

namespace fringe::telescope {
namespace {

std::string dims_text(const std::vector<std::size_t>& dims) {
  std::string s = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + ")";
}

void check_finite(const std::string& path, const char* dataset,
                  const std::vector<std::complex<double>>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i].real()) || !std::isfinite(v[i].imag()))
      throw Error(path + ": dataset '" + dataset + "': value " + std::to_string(i) +
                  " (row-major) is not finite; expected finite complex gains");
  }
}

}  // namespace

std::size_t GainModel::channel_of(double frequency_hz) const {
  std::size_t best = 0;
  double diff = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < freq_hz.size(); ++i) {
    const double d = std::fabs(freq_hz[i] - frequency_hz);
    if (d < diff) {  // strict: the first of equally close channels wins
      diff = d;
      best = i;
    }
  }
  return best;
}

std::size_t GainModel::time_of(int time_index) const {
  if (time_index < 0) return 0;
  return std::min<std::size_t>(static_cast<std::size_t>(time_index), num_times - 1);
}

std::complex<double> GainModel::gain(std::size_t time, std::size_t channel, std::size_t station,
                                     int pol) const {
  const std::size_t i = (time * num_channels + channel) * num_stations + station;
  return (pol == 1 && !y.empty()) ? y[i] : x[i];
}

GainModel load_gain_model(const std::filesystem::path& file, std::size_t num_stations) {
  const io::Hdf5File f(file.string());
  GainModel m;
  m.path = file.string();
  const std::string what =
      " OSKAR's gain model layout: \"freq (Hz)\" of C channel frequencies, \"gain_xpol\" and "
      "optional \"gain_ypol\", complex, of dimensions (times, C, stations)";
  for (const char* name : {"freq (Hz)", "gain_xpol"}) {
    if (!f.has_dataset(name))
      throw Error(m.path + ": dataset '" + name + "' is missing; expected" + what);
  }
  const io::Hdf5Real freqs = f.read_real("freq (Hz)");
  if (freqs.dims.size() > 1 || freqs.values.empty())
    throw Error(m.path +
                ": dataset 'freq (Hz)': expected a 1-D list of channel frequencies, found "
                "dimensions " +
                dims_text(freqs.dims));
  m.freq_hz = freqs.values;
  for (double v : m.freq_hz)
    if (!std::isfinite(v))
      throw Error(m.path + ": dataset 'freq (Hz)': expected finite frequencies in Hz");

  io::Hdf5Complex gx = f.read_complex("gain_xpol");
  if (gx.dims.size() != 3)
    throw Error(m.path +
                ": dataset 'gain_xpol': expected 3 dimensions (times, channels, "
                "stations), found " +
                dims_text(gx.dims));
  m.num_times = gx.dims[0];
  m.num_channels = gx.dims[1];
  m.num_stations = gx.dims[2];
  if (m.num_times == 0 || m.num_channels == 0)
    throw Error(m.path +
                ": dataset 'gain_xpol': expected at least one time and one channel, "
                "found dimensions " +
                dims_text(gx.dims));
  if (m.num_channels != m.freq_hz.size())
    throw Error(m.path + ": dataset 'gain_xpol' has " + std::to_string(m.num_channels) +
                " channels (its second dimension) but 'freq (Hz)' has " +
                std::to_string(m.freq_hz.size()) + " frequencies; expected the same number");
  if (m.num_stations < num_stations)
    throw Error(m.path + ": dataset 'gain_xpol' has gains for " + std::to_string(m.num_stations) +
                " stations (its third dimension) but the telescope model has " +
                std::to_string(num_stations) + " stations; expected at least that many");
  check_finite(m.path, "gain_xpol", gx.values);
  m.x = std::move(gx.values);
  if (f.has_dataset("gain_ypol")) {
    io::Hdf5Complex gy = f.read_complex("gain_ypol");
    if (gy.dims != gx.dims)
      throw Error(m.path + ": dataset 'gain_ypol' has dimensions " + dims_text(gy.dims) +
                  "; expected those of 'gain_xpol' " + dims_text(gx.dims));
    check_finite(m.path, "gain_ypol", gy.values);
    m.y = std::move(gy.values);
  }
  return m;
}

}  // namespace fringe::telescope
