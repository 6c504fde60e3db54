#include "fringe/sky/sky_model.h"

#include <algorithm>
#include <array>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::sky {

void Ragged::push_back(std::span<const double> row_values) {
  values.insert(values.end(), row_values.begin(), row_values.end());
  offset.push_back(values.size());
}

void Ragged::append(const Ragged& other) {
  const std::size_t base = values.size();
  values.insert(values.end(), other.values.begin(), other.values.end());
  for (std::size_t r = 1; r < other.offset.size(); ++r) offset.push_back(base + other.offset[r]);
}

void Ragged::clear() {
  offset.assign(1, 0);
  values.clear();
}

namespace {

using Column = std::vector<double> SkyModel::*;
using RaggedColumn = Ragged SkyModel::*;

constexpr std::array<Column, 14> kColumns = {&SkyModel::ra,
                                             &SkyModel::dec,
                                             &SkyModel::I,
                                             &SkyModel::Q,
                                             &SkyModel::U,
                                             &SkyModel::V,
                                             &SkyModel::ref_freq,
                                             &SkyModel::curvature,
                                             &SkyModel::rotation_measure,
                                             &SkyModel::fwhm_major,
                                             &SkyModel::fwhm_minor,
                                             &SkyModel::position_angle,
                                             &SkyModel::freq_inc,
                                             &SkyModel::ref_wavelength};

constexpr std::array<RaggedColumn, 9> kRagged = {
    &SkyModel::spectral_index, &SkyModel::chan_i,       &SkyModel::chan_q,
    &SkyModel::chan_u,         &SkyModel::chan_v,       &SkyModel::chan_ref_freq,
    &SkyModel::line_width,     &SkyModel::pol_fraction, &SkyModel::pol_angle};

template <typename F>
void for_each_column(F&& f) {
  for (Column c : kColumns) f(c);
}

std::vector<double> to_vector(std::span<const double> s) { return {s.begin(), s.end()}; }

}  // namespace

Source source_from_osm_columns(const double (&v)[12]) {
  constexpr double kArcsecToRad = kDegToRad / 3600.0;
  Source s;
  s.ra = v[0] * kDegToRad;
  s.dec = v[1] * kDegToRad;
  s.I = v[2];
  s.Q = v[3];
  s.U = v[4];
  s.V = v[5];
  s.ref_freq = v[6];
  s.spectral_index = {v[7]};
  s.has_rotation_measure = v[8] != 0.0;
  s.rotation_measure = v[8];
  s.fwhm_major = v[9] * kArcsecToRad;
  s.fwhm_minor = v[10] * kArcsecToRad;
  s.position_angle = v[11] * kDegToRad;
  return s;
}

void SkyModel::push_back(const Source& s) {
  ra.push_back(s.ra);
  dec.push_back(s.dec);
  I.push_back(s.I);
  Q.push_back(s.Q);
  U.push_back(s.U);
  V.push_back(s.V);
  ref_freq.push_back(s.ref_freq);
  curvature.push_back(s.has_curvature ? s.curvature : 0.0);
  rotation_measure.push_back(s.has_rotation_measure ? s.rotation_measure : 0.0);
  fwhm_major.push_back(s.fwhm_major);
  fwhm_minor.push_back(s.fwhm_minor);
  position_angle.push_back(s.position_angle);
  freq_inc.push_back(s.freq_inc);
  ref_wavelength.push_back(s.ref_wavelength);
  std::uint32_t f = 0;
  if (s.linear_spectral_index) f |= kLinearSpectralIndex;
  if (s.has_curvature) f |= kHasCurvature;
  if (s.has_rotation_measure) f |= kHasRotationMeasure;
  flags.push_back(f);
  spectral_index.push_back(s.spectral_index);
  chan_i.push_back(s.chan_i);
  chan_q.push_back(s.chan_q);
  chan_u.push_back(s.chan_u);
  chan_v.push_back(s.chan_v);
  chan_ref_freq.push_back(s.chan_ref_freq);
  line_width.push_back(s.line_width);
  pol_fraction.push_back(s.pol_fraction);
  pol_angle.push_back(s.pol_angle);
}

Source SkyModel::source(std::size_t i) const {
  Source s;
  s.ra = ra[i];
  s.dec = dec[i];
  s.I = I[i];
  s.Q = Q[i];
  s.U = U[i];
  s.V = V[i];
  s.ref_freq = ref_freq[i];
  s.linear_spectral_index = flags[i] & kLinearSpectralIndex;
  s.has_curvature = flags[i] & kHasCurvature;
  s.curvature = curvature[i];
  s.has_rotation_measure = flags[i] & kHasRotationMeasure;
  s.rotation_measure = rotation_measure[i];
  s.fwhm_major = fwhm_major[i];
  s.fwhm_minor = fwhm_minor[i];
  s.position_angle = position_angle[i];
  s.freq_inc = freq_inc[i];
  s.ref_wavelength = ref_wavelength[i];
  s.spectral_index = to_vector(spectral_index.row(i));
  s.chan_i = to_vector(chan_i.row(i));
  s.chan_q = to_vector(chan_q.row(i));
  s.chan_u = to_vector(chan_u.row(i));
  s.chan_v = to_vector(chan_v.row(i));
  s.chan_ref_freq = to_vector(chan_ref_freq.row(i));
  s.line_width = to_vector(line_width.row(i));
  s.pol_fraction = to_vector(pol_fraction.row(i));
  s.pol_angle = to_vector(pol_angle.row(i));
  return s;
}

void SkyModel::append(const SkyModel& other) {
  for_each_column(
      [&](Column c) { (this->*c).insert((this->*c).end(), (other.*c).begin(), (other.*c).end()); });
  flags.insert(flags.end(), other.flags.begin(), other.flags.end());
  for (RaggedColumn r : kRagged) (this->*r).append(other.*r);
}

void SkyModel::clear() {
  for_each_column([&](Column c) { (this->*c).clear(); });
  flags.clear();
  for (RaggedColumn r : kRagged) (this->*r).clear();
}

void SkyModel::reserve(std::size_t n) {
  for_each_column([&](Column c) { (this->*c).reserve(n); });
  flags.reserve(n);
  for (RaggedColumn r : kRagged) (this->*r).offset.reserve(n + 1);
}

SkyModel SkyModel::select(std::span<const std::uint8_t> keep) const {
  if (keep.size() != size())
    throw Error("SkyModel::select: mask has " + std::to_string(keep.size()) + " entries for " +
                std::to_string(size()) + " sources");
  SkyModel out;
  const auto n_keep = static_cast<std::size_t>(
      std::count_if(keep.begin(), keep.end(), [](std::uint8_t k) { return k != 0; }));
  out.reserve(n_keep);
  for (std::size_t i = 0; i < size(); ++i) {
    if (!keep[i]) continue;
    for_each_column([&](Column c) { (out.*c).push_back((this->*c)[i]); });
    out.flags.push_back(flags[i]);
    for (RaggedColumn r : kRagged) (out.*r).push_back((this->*r).row(i));
  }
  return out;
}

SkyModel SkyModel::slice(std::size_t first, std::size_t count) const {
  SkyModel out;
  if (first >= size()) return out;
  const std::size_t last = std::min(size(), first + count);
  out.reserve(last - first);
  for_each_column([&](Column c) {
    (out.*c).assign((this->*c).begin() + static_cast<std::ptrdiff_t>(first),
                    (this->*c).begin() + static_cast<std::ptrdiff_t>(last));
  });
  out.flags.assign(flags.begin() + static_cast<std::ptrdiff_t>(first),
                   flags.begin() + static_cast<std::ptrdiff_t>(last));
  for (RaggedColumn r : kRagged)
    for (std::size_t i = first; i < last; ++i) (out.*r).push_back((this->*r).row(i));
  return out;
}

std::size_t SkyModel::num_gaussian() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < size(); ++i) n += is_gaussian(i) ? 1 : 0;
  return n;
}

void SkyModel::check_consistent() const {
  const std::size_t n = size();
  bool ok = flags.size() == n;
  for_each_column([&](Column c) { ok = ok && (this->*c).size() == n; });
  for (RaggedColumn r : kRagged)
    ok = ok && (this->*r).num_rows() == n && (this->*r).offset.back() == (this->*r).values.size();
  if (!ok) throw Error("SkyModel: column lengths are inconsistent (internal error)");
}

std::size_t num_chunks(std::size_t num_sources, std::size_t max_sources) {
  if (max_sources == 0) throw Error("sky chunk size must be at least 1");
  return (num_sources + max_sources - 1) / max_sources;
}

std::vector<SkyModel> split_into_chunks(const SkyModel& sky, std::size_t max_sources) {
  const std::size_t n = num_chunks(sky.size(), max_sources);
  std::vector<SkyModel> chunks;
  chunks.reserve(n);
  for (std::size_t k = 0; k < n; ++k) chunks.push_back(sky.slice(k * max_sources, max_sources));
  return chunks;
}

}  // namespace fringe::sky
