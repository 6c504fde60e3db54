// OSKAR's spherical-wave element pattern coefficient files (docs/station_beams.md,
// "Numerical element patterns"): text files (plain, Galileo and FEKO conventions) and FEKO
// HDF5 files (spherical_wave_feko_h5.h). A text file is named
//   element_pattern_spherical_wave_[x|y]_[te|tm]_[re|im]_<element type>_<frequency MHz>.txt
// and holds one line per order l = 1, 2, ...: the first 2l + 1 numbers of line l are the
// coefficients of m = -l .. l (further numbers, e.g. padding zeros, are ignored). Files
// without x/y fill both feeds; files in a folder apply to the stations below it and a file of
// the same name in a deeper folder replaces it (OSKAR's inheritance). The loader reads the
// files of one leaf station (or tile) model; jones/ evaluates them. Files named *_feko* (text)
// or *FEKO*.h5 hold coefficients in OSKAR's FEKO convention (jones/spherical_wave_feko_math.h).
#pragma once

#include <complex>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace fringe::telescope {

// Coefficients of one element type at one frequency. coeff holds 4 complex values per mode
// index j = l*l + l - 1 + m (l = 1..l_max, m = -l..l): [X TE, X TM, Y TE, Y TM]; a part with
// no file is 0.
struct SphericalWaveCoeffs {
  double freq_hz = 0.0;
  int l_max = 0;
  bool common_phi = false;  // x/y-labelled files: both feeds use the X azimuth (OSKAR's rule)
  bool galileo = false;     // *_galileo* files: OSKAR's Galileo convention
  bool feko = false;        // *_feko* text or *FEKO*.h5 files: OSKAR's FEKO convention
  std::vector<std::complex<double>> coeff;
  std::vector<std::string> files;  // the files that gave them
};

// All frequencies of one element type, in the order their first file was met.
struct ElementTypePattern {
  std::vector<SphericalWaveCoeffs> by_freq;
  bool empty() const { return by_freq.empty(); }
  // The frequency nearest freq_hz (the first of equally near ones in load order; at one
  // frequency plain coefficients before FEKO ones before Galileo ones, as OSKAR); nullptr
  // when empty.
  const SphericalWaveCoeffs* nearest(double freq_hz) const;
};

// Leaf name -> path of the spherical-wave files visible in a folder (inherited).
using PatternFileMap = std::map<std::string, std::string>;

// True for a leaf name fringe loads as spherical-wave coefficient text (element_pattern*,
// ending in txt, containing "_feko", "_galileo" or "_wave"). Galileo and FEKO files follow
// the same naming and layout rules; their sums use OSKAR's conventions for them.
bool is_spherical_wave_file(const std::string& leaf);

// True for a FEKO HDF5 coefficient file: a leaf name containing "FEKO" and ending in ".h5".
bool is_feko_h5_file(const std::string& leaf);

// Adds (replacing same names) the spherical-wave files (text and FEKO HDF5) of `dir` to `map`.
void add_spherical_wave_files(const std::filesystem::path& dir, PatternFileMap& map);

// Loads every file of `map`; index = element type. In OSKAR's order: plain text files, then
// FEKO text files, Galileo text files and FEKO HDF5 files (each in name order). max_order > 0
// keeps only the first max_order lines (orders) of each file. Throws fringe::Error naming the
// file (and line or dataset) for a name that does not say which part it holds, a short or
// non-numeric line, files of one type and frequency with different numbers of orders, or a
// malformed HDF5 file (spherical_wave_feko_h5.h).
std::vector<ElementTypePattern> load_spherical_wave_patterns(const PatternFileMap& map,
                                                             int max_order);

}  // namespace fringe::telescope
