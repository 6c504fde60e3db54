// Writes a small Measurement Set of one unpolarised point source for the external tests
// (python-casacore and WSClean read it; tests/external/*.py drive this program).
//
// Usage: fringe_write_test_ms out=PATH stations=FILE [key=value ...]
//   stations: text file, one station per line "x y z" (absolute ITRF/ECEF, m)
//   centre=x,y,z (array centre ECEF, default: first station), ra_deg, dec_deg (phase centre),
//   l, m (source direction cosines), flux_jy, start_mjd, dt (s), average (s), nt,
//   f0 (Hz), df (Hz), nc, pol=full|scalar, autos=0|1, cross=0|1, casa=0|1, force=0|1,
//   precision=float|double, block_times (times per append_block, default all).
//
// Station (u, v, w) follow docs/conventions.md, "Coordinates and (u, v, w)" (ECEF offsets from the
// centre, hour angle H0 = GMST - RA with the GMST polynomial of "Time"; UTC used as UT1; the
// equation of the equinoxes is left out: it only moves the sky by a fraction of a second of time,
// which the checks tolerate). Baseline UVW = uvw_p - uvw_q, V_pq = flux exp(+2 pi i (u l + v m + w
// (n - 1)) / lambda) (docs/conventions.md, "Phase sign and the measurement equation"); autos =
// flux. Full mode: XX = YY = V.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/vis_block.h"

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kC = 299792458.0;

// OSKAR's GMST in radians (docs/conventions.md, "Time"): 2 pi frac(MJD) + (24110.54841 +
// 8640184.812866 T + 0.093104 T^2 - 6.2e-6 T^3) 2 pi / 86400, T = (MJD - 51544.5) / 36525.
double gmst_rad(double mjd) {
  const double t = (mjd - 51544.5) / 36525.0;
  const double frac = mjd - std::floor(mjd);
  const double s = 24110.54841 + t * (8640184.812866 + t * (0.093104 - t * 6.2e-6));
  return std::fmod(2.0 * kPi * frac + s * 2.0 * kPi / 86400.0, 2.0 * kPi);
}

std::vector<double> split_numbers(const std::string& text) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::stod(item));
  return out;
}

template <typename T>
void write_all(const fringe::vis::VisMeta& meta, const std::string& out, double l, double m,
               double flux, int block_times) {
  using fringe::Complex;
  const int ns = static_cast<int>(meta.num_stations());
  const double n_minus_1 = std::sqrt(1.0 - l * l - m * m) - 1.0;
  fringe::io::MsWriter writer(out, meta);
  for (int t0 = 0; t0 < meta.num_times; t0 += block_times) {
    const int nt = std::min(block_times, meta.num_times - t0);
    fringe::vis::VisBlock<T> block(nt, meta.num_channels, ns, meta.pol_mode,
                                   meta.write_crosscorrelations, meta.write_autocorrelations);
    block.set_axes(meta, t0, 0);
    const int np = block.num_pols();
    for (int t = 0; t < nt; ++t) {
      const double mjd = block.time_mjd_utc_sec(t) / 86400.0;
      const double h0 = gmst_rad(mjd) - meta.phase_centre_ra_rad;
      const double sd = std::sin(meta.phase_centre_dec_rad),
                   cd = std::cos(meta.phase_centre_dec_rad);
      const double sh = std::sin(h0), ch = std::cos(h0);
      std::vector<std::array<double, 3>> suvw(ns);
      for (int s = 0; s < ns; ++s) {
        const double x = meta.station_ecef_m[s][0] - meta.array_centre_ecef_m[0];
        const double y = meta.station_ecef_m[s][1] - meta.array_centre_ecef_m[1];
        const double z = meta.station_ecef_m[s][2] - meta.array_centre_ecef_m[2];
        suvw[s] = {x * sh + y * ch, -sd * ch * x + sd * sh * y + cd * z,
                   cd * ch * x - cd * sh * y + sd * z};
      }
      for (int p = 0; p < ns; ++p) {
        for (int q = p + 1; q < ns && block.has_cross(); ++q) {
          const std::size_t b = fringe::vis::baseline_index(ns, p, q);
          const std::array<double, 3> uvw = {suvw[p][0] - suvw[q][0], suvw[p][1] - suvw[q][1],
                                             suvw[p][2] - suvw[q][2]};
          block.uvw(t, b) = uvw;
          for (int c = 0; c < meta.num_channels; ++c) {
            const double phase = 2.0 * kPi * block.frequency_hz(c) / kC *
                                 (uvw[0] * l + uvw[1] * m + uvw[2] * n_minus_1);
            const Complex<T> v = {T(flux * std::cos(phase)), T(flux * std::sin(phase))};
            block.cross(t, c, b, 0) = v;
            if (np == 4) block.cross(t, c, b, 3) = v;
          }
        }
        if (block.has_autos()) {
          for (int c = 0; c < meta.num_channels; ++c) {
            block.autos(t, c, p, 0) = {T(flux), T(0)};
            if (np == 4) block.autos(t, c, p, 3) = {T(flux), T(0)};
          }
        }
      }
    }
    writer.append_block(block);
  }
  writer.finish();
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> a = {
      {"ra_deg", "200"}, {"dec_deg", "30"},        {"l", "0"},          {"m", "0"},
      {"flux_jy", "1"},  {"start_mjd", "51544.5"}, {"dt", "60"},        {"average", "0"},
      {"nt", "3"},       {"f0", "1.4e9"},          {"df", "1e6"},       {"nc", "2"},
      {"pol", "full"},   {"autos", "0"},           {"cross", "1"},      {"casa", "1"},
      {"force", "0"},    {"precision", "double"},  {"block_times", "0"}};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "error: argument '%s' is not key=value\n", arg.c_str());
      return 2;
    }
    a[arg.substr(0, eq)] = arg.substr(eq + 1);
  }
  try {
    if (!a.count("out") || !a.count("stations")) {
      throw fringe::Error("out=PATH and stations=FILE are required");
    }
    fringe::vis::VisMeta meta;
    meta.telescope_name = "fringe external test";
    std::ifstream in(a["stations"]);
    if (!in) throw fringe::Error("cannot open " + a["stations"]);
    double x, y, z;
    while (in >> x >> y >> z) {
      meta.station_names.push_back("station" + std::to_string(meta.station_names.size()));
      meta.station_ecef_m.push_back({x, y, z});
    }
    if (meta.station_ecef_m.empty()) throw fringe::Error("no stations in " + a["stations"]);
    meta.array_centre_ecef_m = meta.station_ecef_m[0];
    if (a.count("centre")) {
      const auto c = split_numbers(a["centre"]);
      if (c.size() != 3) throw fringe::Error("centre needs x,y,z");
      meta.array_centre_ecef_m = {c[0], c[1], c[2]};
    }
    meta.phase_centre_ra_rad = std::stod(a["ra_deg"]) * kPi / 180.0;
    meta.phase_centre_dec_rad = std::stod(a["dec_deg"]) * kPi / 180.0;
    meta.num_times = std::stoi(a["nt"]);
    meta.start_time_mjd_utc = std::stod(a["start_mjd"]);
    meta.time_inc_sec = std::stod(a["dt"]);
    meta.time_average_sec = std::stod(a["average"]);
    meta.num_channels = std::stoi(a["nc"]);
    meta.start_frequency_hz = std::stod(a["f0"]);
    meta.frequency_inc_hz = std::stod(a["df"]);
    meta.channel_bandwidth_hz = meta.frequency_inc_hz;
    meta.pol_mode =
        a["pol"] == "scalar" ? fringe::vis::PolMode::Scalar : fringe::vis::PolMode::Full;
    meta.write_autocorrelations = a["autos"] == "1";
    meta.write_crosscorrelations = a["cross"] == "1";
    meta.casa_phase_convention = a["casa"] == "1";
    meta.force_polarised = a["force"] == "1";
    meta.settings_lines = {"[interferometer]", "ms_filename=" + a["out"]};
    int block_times = std::stoi(a["block_times"]);
    if (block_times <= 0) block_times = meta.num_times;
    const double l = std::stod(a["l"]), m = std::stod(a["m"]), flux = std::stod(a["flux_jy"]);
    if (a["precision"] == "float") {
      write_all<float>(meta, a["out"], l, m, flux, block_times);
    } else {
      write_all<double>(meta, a["out"], l, m, flux, block_times);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
