#include "gui/plot_data.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <numbers>

#include "fringe/io/ms/ms_reader.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::gui {

StationLayout load_station_layout(const QString& directory) {
  StationLayout out;
  out.directory = directory;
  try {
    const auto tm = fringe::telescope::load_telescope_model(directory.toStdString(), nullptr);
    out.lon_deg = tm.centre.lon * 180.0 / std::numbers::pi;
    out.lat_deg = tm.centre.lat * 180.0 / std::numbers::pi;
    for (const auto& s : tm.stations) {
      out.measured_en.append(QPointF(s.measured_enu.x, s.measured_enu.y));
      out.true_en.append(QPointF(s.true_enu.x, s.true_enu.y));
      out.names.append(QString::fromStdString(s.name));
    }
    for (const auto& w : tm.warnings) out.warnings.append(QString::fromStdString(w));
  } catch (const std::exception& e) {
    out.error = QString::fromUtf8(e.what());
  }
  return out;
}

UvCoverage load_uv_coverage(const QString& ms_path, std::size_t max_rows) {
  UvCoverage out;
  out.path = ms_path;
  try {
    fringe::io::MsReader ms(ms_path.toStdString());
    out.num_rows = ms.num_rows();
    out.num_stations = ms.num_stations();
    out.num_channels = ms.num_channels();
    out.telescope = QString::fromStdString(ms.telescope_name());
    const auto freqs = ms.channel_frequencies_hz();
    if (!freqs.empty()) {
      out.freq_min_hz = *std::min_element(freqs.begin(), freqs.end());
      out.freq_max_hz = *std::max_element(freqs.begin(), freqs.end());
    }
    const auto uvw = ms.read_uvw();
    const auto a1 = ms.read_antenna1();
    const auto a2 = ms.read_antenna2();
    const std::size_t stride = std::max<std::size_t>(1, (out.num_rows + max_rows - 1) / max_rows);
    out.thinned = stride > 1;
    out.uv.reserve(2 * static_cast<qsizetype>(out.num_rows / stride + 1));
    for (std::size_t r = 0; r < out.num_rows; r += stride) {
      if (a1[r] == a2[r]) continue;  // autocorrelations sit at the origin
      out.uv.append(QPointF(uvw[r][0], uvw[r][1]));
      out.uv.append(QPointF(-uvw[r][0], -uvw[r][1]));
      ++out.rows_used;
    }
  } catch (const std::exception& e) {
    out.error = QString::fromUtf8(e.what());
  }
  return out;
}

}  // namespace fringe::gui
