// SkyModel: a list of sources as a structure of arrays (double precision), plus the
// per-source variable-length fields of the named-column sky format (docs/conventions.md, "Sky model
// files"). Units inside: radians (RA, Dec, FWHM, position angle, polarisation angle), Jy (Stokes),
// Hz (frequencies, line widths), rad/m^2 (rotation measure), m (reference wavelength).
//
// Scalar columns hold the first (or only) value of each field; a source that carries several
// Stokes values at several reference frequencies (the "multi-I" spectrum) keeps all of them in
// the Ragged `chan_*` fields (empty for ordinary sources). Spectral-index terms are a Ragged
// list per source (alpha0, alpha1, ...), log-polynomial unless the LinearSpectralIndex flag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fringe::sky {

// Per-source variable-length lists (compressed rows): values of source s are
// values[offset[s] .. offset[s+1]).
struct Ragged {
  std::vector<std::size_t> offset{0};
  std::vector<double> values;

  std::size_t num_rows() const { return offset.size() - 1; }
  std::size_t count(std::size_t s) const { return offset[s + 1] - offset[s]; }
  std::span<const double> row(std::size_t s) const { return {values.data() + offset[s], count(s)}; }
  std::span<double> row(std::size_t s) { return {values.data() + offset[s], count(s)}; }
  void push_back(std::span<const double> row_values);
  void append(const Ragged& other);
  void clear();
};

// Bits of SkyModel::flags.
enum SourceFlag : std::uint32_t {
  kLinearSpectralIndex = 1u << 0,  // spectral_index is linear (LogarithmicSI = false)
  kHasCurvature = 1u << 1,         // curvature column given (Callingham et al. 2017 eq. 2)
  kHasRotationMeasure = 1u << 2,   // rotation_measure given: Q, U follow chi = chi0 + RM lambda^2
};

// One source with every field, for building and inspecting a SkyModel (not for hot loops).
struct Source {
  double ra = 0.0, dec = 0.0;                 // rad
  double I = 0.0, Q = 0.0, U = 0.0, V = 0.0;  // Jy at ref_freq
  double ref_freq = 0.0;                      // Hz; 0 = flat spectrum
  std::vector<double> spectral_index;         // alpha0, alpha1, ... (empty = 0)
  bool linear_spectral_index = false;
  bool has_curvature = false;
  double curvature = 0.0;  // q in exp(q ln^2(nu/nu0))
  bool has_rotation_measure = false;
  double rotation_measure = 0.0;              // rad/m^2
  double fwhm_major = 0.0, fwhm_minor = 0.0;  // rad
  double position_angle = 0.0;                // rad, East of North
  double freq_inc = 0.0;                      // Hz; multi-I values at ref_freq + k*inc
  double ref_wavelength = 0.0;                // m; 0 = c / ref_freq
  // Multi-valued spectrum: all values (size > 1) or empty.
  std::vector<double> chan_i, chan_q, chan_u, chan_v, chan_ref_freq;
  std::vector<double> line_width;    // Hz (Gaussian line sigma); empty = none
  std::vector<double> pol_fraction;  // empty = none
  std::vector<double> pol_angle;     // rad; empty = none
};

// A source from the 12 columns of OSKAR's fixed sky-model format: RA, Dec (deg), I, Q, U, V (Jy),
// reference frequency (Hz), spectral index, rotation measure (rad/m^2), FWHM major and minor
// (arcsec), position angle (deg), in SI units and radians; the values are not checked (the
// .osm reader and api::append_sources check them, each with its own messages).
Source source_from_osm_columns(const double (&v)[12]);

class SkyModel {
 public:
  // Scalar columns (one value per source).
  std::vector<double> ra, dec;                 // rad
  std::vector<double> I, Q, U, V;              // Jy
  std::vector<double> ref_freq;                // Hz
  std::vector<double> curvature;               // valid where kHasCurvature
  std::vector<double> rotation_measure;        // rad/m^2, valid where kHasRotationMeasure
  std::vector<double> fwhm_major, fwhm_minor;  // rad
  std::vector<double> position_angle;          // rad East of North
  std::vector<double> freq_inc;                // Hz (0 = none)
  std::vector<double> ref_wavelength;          // m (0 = none)
  std::vector<std::uint32_t> flags;            // SourceFlag bits
  // Variable-length columns.
  Ragged spectral_index;
  Ragged chan_i, chan_q, chan_u, chan_v, chan_ref_freq;
  Ragged line_width, pol_fraction, pol_angle;

  std::size_t size() const { return ra.size(); }
  bool empty() const { return ra.empty(); }

  void push_back(const Source& s);
  Source source(std::size_t i) const;
  void append(const SkyModel& other);
  void clear();
  void reserve(std::size_t n);

  // Sources i with keep[i] != 0, in order. keep.size() must equal size().
  SkyModel select(std::span<const std::uint8_t> keep) const;
  // Sources [first, first + count) (clamped to size()).
  SkyModel slice(std::size_t first, std::size_t count) const;

  bool is_gaussian(std::size_t i) const { return fwhm_major[i] > 0.0 && fwhm_minor[i] > 0.0; }
  std::size_t num_gaussian() const;

  // Throws fringe::Error if column lengths disagree (a programming error guard).
  void check_consistent() const;
};

// Split into consecutive chunks of at most max_sources each (max_sources >= 1).
std::vector<SkyModel> split_into_chunks(const SkyModel& sky, std::size_t max_sources);
// Number of chunks split_into_chunks would produce.
std::size_t num_chunks(std::size_t num_sources, std::size_t max_sources);

}  // namespace fringe::sky
