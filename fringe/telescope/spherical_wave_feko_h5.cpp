#include "fringe/telescope/spherical_wave_feko_h5.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/hdf5/hdf5_file.h"

namespace fringe::telescope {
namespace {

constexpr const char* kLayout =
    "expected 2 rows (amplitudes; phases in degrees) of 2 ((L + 1)^2 - 1) numbers, TE and TM "
    "interleaved per mode, for an order L >= 1";

bool same_freq(double a, double b) { return std::fabs(a - b) <= b * 2.220446049250313e-16; }

// Parses a dataset name as OSKAR does: from its first 'X' or 'Y', <X|Y><integer>_<number>.
bool parse_name(const std::string& name, int& antenna, double& freq_hz) {
  const std::size_t start = name.find_first_of("XY");
  if (start == std::string::npos) return false;
  const char* p = name.c_str() + start + 1;
  char* end = nullptr;
  const long a = std::strtol(p, &end, 10);
  if (end == p || *end != '_') return false;
  p = end + 1;
  const double f = std::strtod(p, &end);
  if (end == p) return false;
  antenna = int(std::clamp(a, -1L, 1000000L));
  freq_hz = f;
  return true;
}

std::string dataset_name(char pol, int antenna, double freq_hz) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%c%d_%.0f", pol, antenna, freq_hz);
  return buf;
}

// One feed's (TE, TM) coefficients of a dataset, and its order.
struct Feed {
  int l_max = 0;
  std::vector<std::complex<double>> te, tm;  // per mode index
};

Feed read_feed(const io::Hdf5File& f, const std::string& name) {
  if (!f.has_dataset(name))
    throw Error::in_file(f.path(), 0,
                         "dataset '" + name +
                             "' is missing: expected X<antenna>_<Hz> and Y<antenna>_<Hz> for "
                             "every antenna 1..N and every frequency the file names");
  const io::Hdf5Real d = f.read_real(name);
  auto bad = [&](const std::string& what) {
    return Error::in_file(f.path(), 0, "dataset '" + name + "': " + what + "; " + kLayout);
  };
  if (d.dims.size() != 2 || d.dims[0] != 2)
    throw bad("has " + std::to_string(d.dims.size()) + " dimension(s)" +
              (d.dims.size() == 2 ? " and " + std::to_string(d.dims[0]) + " rows" : ""));
  const std::size_t len = d.dims[1];
  const std::size_t modes = len / 2;
  const int l_max = int(std::lround(std::sqrt(double(modes) + 1.0) - 1.0));
  if (len % 2 || l_max < 1 || std::size_t((l_max + 1) * (l_max + 1) - 1) != modes)
    throw bad(std::to_string(len) + " numbers per row");
  Feed out;
  out.l_max = l_max;
  for (std::size_t j = 0; j < modes; ++j) {
    const double a_te = d.values[2 * j], a_tm = d.values[2 * j + 1];
    const double p_te = d.values[len + 2 * j] * kDegToRad,
                 p_tm = d.values[len + 2 * j + 1] * kDegToRad;
    if (!std::isfinite(a_te) || !std::isfinite(a_tm) || !std::isfinite(p_te) ||
        !std::isfinite(p_tm))
      throw bad("non-finite value at mode index " + std::to_string(j));
    out.te.push_back(std::polar(a_te, p_te));
    out.tm.push_back(std::polar(a_tm, p_tm));
  }
  return out;
}

}  // namespace

void load_feko_h5(const std::string& path, int max_order, std::vector<ElementTypePattern>& types) {
  const io::Hdf5File f(path);
  // Antennas and frequencies named by the datasets (frequencies ascending, as OSKAR).
  int num_antennas = 0;
  std::vector<double> freqs;
  for (const std::string& name : f.datasets("/")) {
    int antenna = 0;
    double freq_hz = 0.0;
    if (!parse_name(name, antenna, freq_hz)) continue;
    if (antenna < 1)
      throw Error::in_file(path, 0,
                           "dataset '" + name + "': antenna numbers start at 1 (X1_<Hz>, ...)");
    if (!(freq_hz > 0.0) || !std::isfinite(freq_hz))
      throw Error::in_file(path, 0, "dataset '" + name + "': expected a frequency in Hz > 0");
    num_antennas = std::max(num_antennas, antenna);
    if (std::none_of(freqs.begin(), freqs.end(), [&](double g) { return same_freq(g, freq_hz); }))
      freqs.push_back(freq_hz);
  }
  if (num_antennas == 0)
    throw Error::in_file(path, 0,
                         "no coefficient datasets: expected datasets named X<antenna>_<Hz> and "
                         "Y<antenna>_<Hz> (antenna 1, 2, ...; frequency in Hz)");
  std::sort(freqs.begin(), freqs.end());
  if (types.size() < std::size_t(num_antennas)) types.resize(std::size_t(num_antennas));
  for (int a = 1; a <= num_antennas; ++a) {
    for (double freq_hz : freqs) {
      const std::string nx = dataset_name('X', a, freq_hz), ny = dataset_name('Y', a, freq_hz);
      const Feed x = read_feed(f, nx), y = read_feed(f, ny);
      int l_max = std::max(x.l_max, y.l_max);
      if (max_order > 0) l_max = std::min(l_max, max_order);
      SphericalWaveCoeffs c;
      c.freq_hz = freq_hz;
      c.l_max = l_max;
      c.common_phi = true;  // OSKAR: FEKO HDF5 patterns of both feeds share the X azimuth
      c.feko = true;
      c.files = {path + " (" + nx + ", " + ny + ")"};
      const std::size_t modes = std::size_t((l_max + 1) * (l_max + 1) - 1);
      c.coeff.assign(4 * modes, {0.0, 0.0});
      for (std::size_t j = 0; j < modes; ++j) {
        if (j < x.te.size()) {
          c.coeff[4 * j + 0] = x.te[j];
          c.coeff[4 * j + 1] = x.tm[j];
        }
        if (j < y.te.size()) {
          c.coeff[4 * j + 2] = y.te[j];
          c.coeff[4 * j + 3] = y.tm[j];
        }
      }
      auto& by_freq = types[std::size_t(a - 1)].by_freq;
      auto it = std::find_if(by_freq.begin(), by_freq.end(), [&](const SphericalWaveCoeffs& e) {
        return e.feko && same_freq(e.freq_hz, freq_hz);
      });
      if (it != by_freq.end())
        *it = std::move(c);
      else
        by_freq.push_back(std::move(c));
    }
  }
}

}  // namespace fringe::telescope
