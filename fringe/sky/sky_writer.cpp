#include "fringe/sky/sky_writer.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"

namespace fringe::sky {

namespace {

constexpr double kRad2Arcsec = kRadToDeg * 3600.0;

std::string num(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

// Writes `content` (which starts with kSkyTextSignature) to path through a temporary file
// that is committed when complete (output_guard.h): only an earlier sky model written by
// fringe may be replaced; the temporary is removed on failure and on SIGINT/SIGTERM.
void write_atomically(const std::string& path, const std::string& content) {
  const OutputTarget target = sky_text_target("", path);
  check_output(target);  // no key: an error names the file
  TemporaryOutput temp(target);
  {
    std::ofstream out(temp.path(), std::ios::binary | std::ios::trunc);
    if (!out) throw Error::in_file(path, 0, "cannot open sky output file for writing");
    out << content;
    out.close();
    if (!out) {
      temp.discard();
      throw Error::in_file(path, 0, "error while writing sky output file (disk full?)");
    }
  }
  temp.commit();
}

std::string vector_text(std::span<const double> v, double scale, bool quoted, std::size_t pad) {
  std::string s = quoted ? "\"[" : "[";
  const std::size_t n = std::max(v.size(), pad);
  for (std::size_t k = 0; k < n; ++k) {
    if (k) s += ",";
    if (k < v.size()) s += num(v[k] * scale);
  }
  s += quoted ? "]\"" : "]";
  return s;
}

}  // namespace

OutputTarget sky_text_target(const std::string& key, const std::string& path) {
  OutputTarget t;
  t.key = key;
  t.path = path;
  t.kind = OutputKind::Text;
  t.text_signature = kSkyTextSignature;
  return t;
}

void write_sky_fixed_columns(const SkyModel& sky, const std::string& path,
                             const Diagnostics& diagnostics) {
  std::ostringstream out;
  out << kSkyTextSignature << " (fixed columns)\n";
  out << "# Number of sources: " << sky.size() << "\n";
  out << "# RA (deg), Dec (deg), I, Q, U, V (Jy), Ref. freq. (Hz), Spectral index, "
         "RM (rad/m^2), FWHM major (arcsec), FWHM minor (arcsec), Position angle (deg)\n";
  std::size_t lossy = 0;
  for (std::size_t i = 0; i < sky.size(); ++i) {
    const bool loses = sky.spectral_index.count(i) > 1 ||
                       (sky.flags[i] & (kHasCurvature | kLinearSpectralIndex)) ||
                       sky.chan_i.count(i) > 1 || sky.line_width.count(i) > 0 ||
                       sky.pol_fraction.count(i) > 0 || sky.pol_angle.count(i) > 0 ||
                       sky.ref_wavelength[i] != 0.0;
    lossy += loses ? 1 : 0;
    const double spix = sky.spectral_index.count(i) ? sky.spectral_index.row(i)[0] : 0.0;
    const double rm = (sky.flags[i] & kHasRotationMeasure) ? sky.rotation_measure[i] : 0.0;
    out << num(sky.ra[i] * kRadToDeg) << ' ' << num(sky.dec[i] * kRadToDeg) << ' ' << num(sky.I[i])
        << ' ' << num(sky.Q[i]) << ' ' << num(sky.U[i]) << ' ' << num(sky.V[i]) << ' '
        << num(sky.ref_freq[i]) << ' ' << num(spix) << ' ' << num(rm) << ' '
        << num(sky.fwhm_major[i] * kRad2Arcsec) << ' ' << num(sky.fwhm_minor[i] * kRad2Arcsec)
        << ' ' << num(sky.position_angle[i] * kRadToDeg) << '\n';
  }
  if (lossy)
    diagnostics.warn(path + ": " + std::to_string(lossy) +
                     " sources have spectral or polarisation fields that the fixed-column "
                     "format cannot hold; use named columns to keep them");
  write_atomically(path, out.str());
}

void write_sky_named_columns(const SkyModel& sky, const std::string& path,
                             const TextOutputConfig& config_in) {
  TextOutputConfig c = config_in;
  if (c.use_ska_convention) {
    c.use_degrees = true;
    c.write_quoted_vectors = true;
    c.write_type = false;
  }
  const bool ska = c.use_ska_convention;
  const std::size_t n = sky.size();
  auto any = [&](const std::function<bool(std::size_t)>& pred) {
    for (std::size_t i = 0; i < n; ++i)
      if (pred(i)) return true;
    return false;
  };
  struct Column {
    std::string name;
    std::function<std::string(std::size_t)> value;
  };
  std::vector<Column> cols;
  auto scalar_or_vector = [&](const Ragged& multi, const std::vector<double>& scalar,
                              double scale) {
    return [&multi, &scalar, scale, q = c.write_quoted_vectors](std::size_t i) {
      return multi.count(i) > 1 ? vector_text(multi.row(i), scale, q, 0) : num(scalar[i] * scale);
    };
  };
  auto ragged = [&](const Ragged& r, double scale, std::size_t pad) {
    return [&r, scale, pad, q = c.write_quoted_vectors](std::size_t i) -> std::string {
      if (r.count(i) == 0 && pad == 0) return "";
      if (r.count(i) == 1 && pad <= 1) return num(r.row(i)[0] * scale);
      return vector_text(r.row(i), scale, q, pad);
    };
  };
  const double ang = c.use_degrees ? kRadToDeg : 1.0;
  cols.push_back({ska ? "ra_deg" : (c.use_degrees ? "RaD" : "Ra"),
                  [&](std::size_t i) { return num(sky.ra[i] * ang); }});
  cols.push_back({ska ? "dec_deg" : (c.use_degrees ? "DecD" : "Dec"),
                  [&](std::size_t i) { return num(sky.dec[i] * ang); }});
  cols.push_back({ska ? "i_pol_jy" : "I", scalar_or_vector(sky.chan_i, sky.I, 1.0)});
  const char* qname[3] = {"Q", "U", "V"};
  const char* qska[3] = {"q_pol_jy", "u_pol_jy", "v_pol_jy"};
  const Ragged* qr[3] = {&sky.chan_q, &sky.chan_u, &sky.chan_v};
  const std::vector<double>* qs[3] = {&sky.Q, &sky.U, &sky.V};
  for (int k = 0; k < 3; ++k)
    if (any([&](std::size_t i) { return (*qs[k])[i] != 0.0 || qr[k]->count(i) > 1; }))
      cols.push_back({ska ? qska[k] : qname[k], scalar_or_vector(*qr[k], *qs[k], 1.0)});
  if (any([&](std::size_t i) { return sky.ref_freq[i] != 0.0; }))
    cols.push_back({ska ? "ref_freq_hz" : "ReferenceFrequency",
                    scalar_or_vector(sky.chan_ref_freq, sky.ref_freq, 1.0)});
  if (any([&](std::size_t i) { return sky.freq_inc[i] != 0.0; }))
    cols.push_back({ska ? "freq_inc_hz" : "FrequencyIncrement",
                    [&](std::size_t i) { return num(sky.freq_inc[i]); }});
  if (any([&](std::size_t i) { return sky.spectral_index.count(i) > 0; }))
    cols.push_back(
        {ska ? "spec_idx" : "SpectralIndex", ragged(sky.spectral_index, 1.0, ska ? 5 : 0)});
  if (any([&](std::size_t i) { return (sky.flags[i] & kLinearSpectralIndex) != 0; }))
    cols.push_back({ska ? "log_spec_idx" : "LogarithmicSI", [&](std::size_t i) -> std::string {
                      return (sky.flags[i] & kLinearSpectralIndex) ? "false" : "true";
                    }});
  if (any([&](std::size_t i) { return (sky.flags[i] & kHasCurvature) != 0; }))
    cols.push_back({ska ? "spec_curv" : "SpectralCurvature", [&](std::size_t i) -> std::string {
                      return (sky.flags[i] & kHasCurvature) ? num(sky.curvature[i]) : "";
                    }});
  if (any([&](std::size_t i) { return (sky.flags[i] & kHasRotationMeasure) != 0; }))
    cols.push_back({ska ? "rm_rad_m2" : "RotationMeasure", [&](std::size_t i) -> std::string {
                      return (sky.flags[i] & kHasRotationMeasure) ? num(sky.rotation_measure[i])
                                                                  : "";
                    }});
  if (any([&](std::size_t i) { return sky.pol_fraction.count(i) > 0; }))
    cols.push_back({ska ? "pol_frac" : "PolarizedFraction", ragged(sky.pol_fraction, 1.0, 0)});
  if (any([&](std::size_t i) { return sky.pol_angle.count(i) > 0; }))
    cols.push_back(
        {ska ? "pol_ang_deg" : "PolarizationAngle", ragged(sky.pol_angle, kRadToDeg, 0)});
  if (any([&](std::size_t i) { return sky.ref_wavelength[i] != 0.0; }))
    cols.push_back({ska ? "ref_wave_m" : "ReferenceWavelength", [&](std::size_t i) -> std::string {
                      return sky.ref_wavelength[i] != 0.0 ? num(sky.ref_wavelength[i]) : "";
                    }});
  if (any([&](std::size_t i) { return sky.line_width.count(i) > 0; }))
    cols.push_back({ska ? "line_width_hz" : "LineWidth", ragged(sky.line_width, 1.0, 0)});
  if (any([&](std::size_t i) { return sky.is_gaussian(i); })) {
    const double f = ska ? 0.5 * kRad2Arcsec : kRad2Arcsec;  // SKA: semi-axes
    cols.push_back({ska ? "a_arcsec" : "MajorAxis", [&, f](std::size_t i) -> std::string {
                      return sky.is_gaussian(i) ? num(sky.fwhm_major[i] * f) : "";
                    }});
    cols.push_back({ska ? "b_arcsec" : "MinorAxis", [&, f](std::size_t i) -> std::string {
                      return sky.is_gaussian(i) ? num(sky.fwhm_minor[i] * f) : "";
                    }});
    cols.push_back({ska ? "pa_deg" : "Orientation", [&](std::size_t i) -> std::string {
                      return sky.is_gaussian(i) ? num(sky.position_angle[i] * kRadToDeg) : "";
                    }});
  }

  std::ostringstream out;
  out << kSkyTextSignature << " (named columns)\n";
  std::string header;
  if (c.write_name) header += ska ? "component_id,source_id," : "Name,";
  if (c.write_type) header += "Type,";
  for (std::size_t k = 0; k < cols.size(); ++k) header += (k ? "," : "") + cols[k].name;
  if (c.write_format_wrapper) {
    out << "#(" << header << ") = format\n";
    out << "# NUMBER_OF_COMPONENTS=" << n << "\n";
  } else {
    out << header << "\n";
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (c.write_name) {
      if (ska)
        out << "\"c" << i + 1 << "\",\"s" << i + 1 << "\",";
      else
        out << "\"s" << i + 1 << "\",";
    }
    if (c.write_type) out << (sky.is_gaussian(i) ? "GAUSSIAN," : "POINT,");
    for (std::size_t k = 0; k < cols.size(); ++k) out << (k ? "," : "") << cols[k].value(i);
    out << '\n';
  }
  write_atomically(path, out.str());
}

void write_sky_text(const SkyModel& sky, const TextOutputConfig& config,
                    const Diagnostics& diagnostics) {
  if (config.file.empty()) return;
  if (config.use_named_columns)
    write_sky_named_columns(sky, config.file, config);
  else
    write_sky_fixed_columns(sky, config.file, diagnostics);
}

}  // namespace fringe::sky
