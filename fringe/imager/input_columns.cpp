#include "fringe/imager/input_columns.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/vis/baseline.h"

namespace fringe::imager {

bool is_vis_file(const std::string& path) {
  if (path.size() < 4) return false;
  std::string tail = path.substr(path.size() - 4);
  std::transform(tail.begin(), tail.end(), tail.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  return tail == ".vis";
}

InputColumns read_ms_metadata(const io::MsReader& ms, const std::string& column, bool read_data) {
  if (read_data && !ms.has_column(column))
    throw Error::in_file(ms.path(), 0, "the Measurement Set has no column " + column);
  InputColumns in;
  in.freqs_hz = ms.channel_frequencies_hz();
  in.widths_hz = ms.channel_widths_hz();
  in.phase_centre_rad = ms.phase_centre_rad();
  in.corr_types = ms.corr_types();
  in.num_pols = ms.num_pols();
  in.num_channels = ms.num_channels();
  return in;
}

void read_ms_rows(const io::MsReader& ms, const std::string& column, bool read_data,
                  std::size_t start, std::size_t count, InputColumns& in) {
  ms.read_time(start, count, in.time);
  ms.read_antenna1(start, count, in.antenna1);
  ms.read_antenna2(start, count, in.antenna2);
  ms.read_uvw(start, count, in.uvw);
  if (read_data)
    ms.read_data(start, count, column, in.data);
  else
    in.data.clear();
  ms.read_flag(start, count, in.flag);
  ms.read_weight(start, count, in.weight);
}

std::unique_ptr<io::MsReader> open_input_ms(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw Error::in_file(path, 0, "the Measurement Set does not exist");
  return std::make_unique<io::MsReader>(path);
}

InputColumns read_ms_columns(const std::string& path, const std::string& column, bool read_data) {
  const std::unique_ptr<io::MsReader> ms = open_input_ms(path);
  InputColumns in = read_ms_metadata(*ms, column, read_data);
  read_ms_rows(*ms, column, read_data, 0, io::MsReader::kAllRows, in);
  return in;
}

namespace {

// Puts the cross-correlations of one block into their rows (row = time x baselines +
// baseline, p < q) and cells; the rows' TIME, antennas and UVW are set by every block of that
// time (the same values).
template <typename T>
void put_block(const vis::VisBlock<T>& b, bool read_data, InputColumns& in) {
  const int npol = b.num_pols();
  const std::size_t nb = b.num_baselines();
  const std::size_t nchan = std::size_t(in.num_channels);
  for (int t = 0; t < b.num_times(); ++t) {
    for (std::size_t k = 0; k < nb; ++k) {
      const std::size_t row = std::size_t(b.start_time_index + t) * nb + k;
      const auto [p, q] = vis::baseline_stations(std::size_t(b.num_stations()), k);
      in.time[row] = b.time_mjd_utc_sec(t);
      in.antenna1[row] = int(p);
      in.antenna2[row] = int(q);
      in.uvw[row] = b.uvw(t, k);
      if (!read_data) continue;
      for (int c = 0; c < b.num_channels(); ++c) {
        const std::size_t chan = std::size_t(b.start_channel_index + c);
        for (int pol = 0; pol < npol; ++pol) {
          const Complex<T> v = b.cross(t, c, k, pol);
          in.data[(row * nchan + chan) * std::size_t(npol) + std::size_t(pol)] = {float(v.re),
                                                                                  float(v.im)};
        }
      }
    }
  }
}

template <typename T>
InputColumns read_vis_typed(const io::VisFileReader& file, const std::string& path,
                            bool read_data) {
  const io::VisFileHeader& h = file.header();
  if (!h.write_crosscorrelations)
    throw Error::in_file(path, 0, "the .vis file has no cross-correlations to image");
  InputColumns in;
  in.vis_file = true;
  in.num_pols = h.num_pols();
  in.num_channels = h.num_channels_total;
  for (int c = 0; c < h.num_channels_total; ++c) {
    in.freqs_hz.push_back(h.freq_start_hz + c * h.freq_inc_hz);
    in.widths_hz.push_back(h.channel_bandwidth_hz);
  }
  in.phase_centre_rad = {h.phase_centre_deg[0] * kDegToRad, h.phase_centre_deg[1] * kDegToRad};
  for (int pol = 0; pol < in.num_pols; ++pol) in.corr_types.push_back(9 + pol);
  const std::size_t rows = std::size_t(h.num_times_total) * h.num_baselines();
  const std::size_t cells = rows * std::size_t(in.num_channels) * std::size_t(in.num_pols);
  in.time.assign(rows, 0.0);
  in.antenna1.assign(rows, 0);
  in.antenna2.assign(rows, 0);
  in.uvw.assign(rows, {0.0, 0.0, 0.0});
  if (read_data) in.data.assign(cells, {0.0f, 0.0f});
  in.flag.assign(cells, 0);
  in.weight.assign(rows * std::size_t(in.num_pols), 1.0f);
  for (int k = 0; k < file.num_blocks(); ++k) put_block(file.read_block<T>(k), read_data, in);
  return in;
}

}  // namespace

std::array<double, 2> input_phase_centre_rad(const std::string& path) {
  if (!is_vis_file(path)) return io::MsReader(path).phase_centre_rad();
  const auto deg =
      io::VisFileReader(path).header().phase_centre_deg;  // a copy: the reader is a temporary
  return {deg[0] * kDegToRad, deg[1] * kDegToRad};
}

InputColumns read_vis_columns(const std::string& path, const std::string& column, bool read_data) {
  if (!std::filesystem::exists(path))
    throw Error::in_file(path, 0, "the OSKAR .vis file does not exist");
  if (read_data && column != "DATA")
    throw Error::in_file(path, 0, "an OSKAR .vis file holds one data column (DATA), not " + column);
  const io::VisFileReader file(path);
  return file.header().precision == Precision::Double
             ? read_vis_typed<double>(file, path, read_data)
             : read_vis_typed<float>(file, path, read_data);
}

}  // namespace fringe::imager
