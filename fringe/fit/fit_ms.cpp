// load_ms_observation (fit_ms.h): one read of each main-table column, then the
// cross-correlation rows are copied into ObservedData.
#include "fringe/fit/fit_ms.h"

#include <algorithm>
#include <cmath>

#include "fringe/astro/time.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/predict/predict_math.h"

namespace fringe::fit {

std::vector<double> time_smearing_for_rows(const std::vector<std::array<double, 3>>& station_ecef_m,
                                           const std::vector<int>& antenna1,
                                           const std::vector<int>& antenna2,
                                           const std::vector<double>& time_mjd_utc,
                                           PhaseCentre centre, double time_average_sec) {
  std::vector<double> out;
  out.reserve(3 * antenna1.size());
  for (std::size_t r = 0; r < antenna1.size(); ++r) {
    const auto& p = station_ecef_m.at(std::size_t(antenna1[r]));
    const auto& q = station_ecef_m.at(std::size_t(antenna2[r]));
    const double ha0 = astro::gast_rad(time_mjd_utc[r]) - centre.ra;
    const predict::TimeSmearingCoefficients c = predict::time_smearing_coefficients(
        p[0] - q[0], p[1] - q[1], ha0, centre.dec, time_average_sec, 1.0);
    out.insert(out.end(), {c.du, c.dv, c.dw});
  }
  return out;
}

MsObservation load_ms_observation(const std::string& ms_path, const std::string& column,
                                  double time_average_sec) {
  const io::MsReader ms(ms_path);
  for (const std::string& name : {column, std::string("WEIGHT"), std::string("FLAG"),
                                  std::string("UVW"), std::string("TIME")}) {
    if (!ms.has_column(name)) {
      throw Error(ms_path + ": the Measurement Set has no " + name +
                  " column: the likelihood needs " + column + ", WEIGHT, FLAG, UVW and TIME");
    }
  }
  const int pols = ms.num_pols();
  if (pols != 1 && pols != 4) {
    throw Error(ms_path + ": " + std::to_string(pols) +
                " correlation products per visibility: expected 4 (XX, XY, YX, YY) or 1");
  }
  const std::size_t rows = ms.num_rows(), chans = std::size_t(ms.num_channels());
  const std::vector<int> a1 = ms.read_antenna1(), a2 = ms.read_antenna2();
  const std::vector<double> time = ms.read_time();
  const std::vector<std::array<double, 3>> uvw = ms.read_uvw();
  const std::vector<Complex<float>> vis = ms.read_data(0, io::MsReader::kAllRows, column);
  const std::vector<std::uint8_t> flag = ms.read_flag();
  const std::vector<float> weight = ms.read_weight();
  if (vis.size() != rows * chans * pols || flag.size() != vis.size() ||
      weight.size() != rows * std::size_t(pols)) {
    throw Error(ms_path + ": the shapes of " + column + ", FLAG and WEIGHT do not match " +
                std::to_string(rows) + " rows x " + std::to_string(chans) + " channels x " +
                std::to_string(pols) + " products");
  }

  MsObservation out;
  out.ms_num_rows = rows;
  const auto centre = ms.phase_centre_rad();
  out.centre = {centre[0], centre[1]};
  out.times_mjd_utc = time;
  std::sort(out.times_mjd_utc.begin(), out.times_mjd_utc.end());
  out.times_mjd_utc.erase(std::unique(out.times_mjd_utc.begin(), out.times_mjd_utc.end()),
                          out.times_mjd_utc.end());

  ObservedData& d = out.data;
  d.num_pols = pols;
  d.num_channels = chans;
  d.num_stations = std::size_t(ms.num_stations());
  d.frequency_hz = ms.channel_frequencies_hz();
  const std::size_t per_row = chans * pols;
  for (std::size_t r = 0; r < rows; ++r) {
    if (a1[r] == a2[r]) continue;
    out.ms_rows.push_back(r);
    d.antenna1.push_back(a1[r]);
    d.antenna2.push_back(a2[r]);
    const auto it = std::lower_bound(out.times_mjd_utc.begin(), out.times_mjd_utc.end(), time[r]);
    d.time_index.push_back(int(it - out.times_mjd_utc.begin()));
    d.uvw.insert(d.uvw.end(), uvw[r].begin(), uvw[r].end());
    for (std::size_t i = 0; i < per_row; ++i) {
      const std::size_t k = r * per_row + i;
      const double w = weight[r * pols + i % pols];
      d.data.push_back({vis[k].re, vis[k].im});
      d.weight.push_back(flag[k] ? 0.0 : w);
    }
  }
  d.num_rows = d.antenna1.size();
  for (double& t : out.times_mjd_utc) t /= 86400.0;  // TIME is MJD(UTC) in seconds
  if (time_average_sec > 0.0) {
    std::vector<double> row_mjd;
    for (int t : d.time_index) row_mjd.push_back(out.times_mjd_utc[std::size_t(t)]);
    d.time_smearing = time_smearing_for_rows(ms.station_positions_ecef_m(), d.antenna1, d.antenna2,
                                             row_mjd, out.centre, time_average_sec);
  }
  if (d.num_rows == 0) {
    throw Error(ms_path + ": the Measurement Set has no cross-correlation rows to fit");
  }
  for (std::size_t i = 0; i < d.weight.size(); ++i) {
    if (!(d.weight[i] >= 0.0) || !std::isfinite(d.weight[i])) {
      throw Error(ms_path + ": WEIGHT of row " + std::to_string(i / per_row) + " = " +
                  std::to_string(d.weight[i]) + ": expected a finite weight >= 0");
    }
  }
  return out;
}

void write_ms_column(const std::string& ms_path, const MsObservation& layout,
                     const std::string& data_column, const std::string& column,
                     const std::vector<Complex<double>>& values, bool replace_existing,
                     bool keep_autos_from_data) {
  const ObservedData& d = layout.data;
  const std::size_t per_row = d.num_channels * std::size_t(d.num_pols);
  if (column == data_column || column == "DATA") {
    throw Error(ms_path + ": refusing to write into " + column +
                ", which holds the observed data; choose another column (MODEL_DATA, ...)");
  }
  if (values.size() != d.num_rows * per_row) {
    throw Error(ms_path + ": " + std::to_string(values.size()) +
                " values to write: expected one per kept row, channel and product (" +
                std::to_string(d.num_rows * per_row) + ")");
  }
  std::vector<Complex<float>> out(layout.ms_num_rows * per_row, Complex<float>{0.0f, 0.0f});
  {
    const io::MsReader ms(ms_path);
    if (ms.num_rows() != layout.ms_num_rows || std::size_t(ms.num_channels()) != d.num_channels ||
        ms.num_pols() != d.num_pols) {
      throw Error(ms_path + ": the Measurement Set changed shape since it was loaded");
    }
    if (ms.has_column(column) && !replace_existing) {
      throw Error(ms_path + ": column " + column +
                  " exists already; pass replace_existing to overwrite it");
    }
    if (keep_autos_from_data) out = ms.read_data(0, io::MsReader::kAllRows, data_column);
  }
  for (std::size_t r = 0; r < d.num_rows; ++r) {
    const std::size_t base = layout.ms_rows[r] * per_row;
    for (std::size_t i = 0; i < per_row; ++i) {
      const Complex<double>& v = values[r * per_row + i];
      out[base + i] = {float(v.re), float(v.im)};
    }
  }
  io::MsColumnWriter writer(ms_path, column);
  writer.write(0, layout.ms_num_rows, out);
  writer.flush();
}

}  // namespace fringe::fit
