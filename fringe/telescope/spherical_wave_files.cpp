#include "fringe/telescope/spherical_wave_files.h"

#include <cmath>
#include <cstdlib>
#include <system_error>

#include "fringe/core/error.h"
#include "fringe/telescope/spherical_wave_feko_h5.h"
#include "fringe/telescope/text_table.h"

namespace fringe::telescope {
namespace fs = std::filesystem;
namespace {

bool has(const std::string& s, const char* lower, const char* upper) {
  return s.find(lower) != std::string::npos || s.find(upper) != std::string::npos;
}

// Element type and frequency (Hz) from a leaf name: the first '_'-separated word that starts
// with an integer is the type, the word after it the frequency in MHz (0 when absent).
void type_and_freq(const std::string& leaf, int& type, double& freq_hz) {
  type = 0;
  freq_hz = 0.0;
  std::vector<std::string> words;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= leaf.size(); ++i) {
    if (i == leaf.size() || leaf[i] == '_') {
      words.push_back(leaf.substr(start, i - start));
      start = i + 1;
    }
  }
  for (std::size_t w = 0; w < words.size(); ++w) {
    const char* p = words[w].c_str();
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p) continue;
    type = int(v);
    if (w + 1 < words.size()) freq_hz = 1e6 * std::strtod(words[w + 1].c_str(), nullptr);
    return;
  }
}

// OSKAR's order of preference at one frequency: plain, FEKO, Galileo.
int rank(const SphericalWaveCoeffs& c) { return c.feko ? 1 : c.galileo ? 2 : 0; }

bool same_freq(double a, double b) { return std::fabs(a - b) <= b * 2.220446049250313e-16; }

// Which text convention a leaf name holds: 0 plain, 1 FEKO, 2 Galileo (OSKAR's tests, in this
// order).
int text_kind(const std::string& leaf) {
  if (leaf.find("_feko") != std::string::npos) return 1;
  if (leaf.find("_galileo") != std::string::npos) return 2;
  return 0;
}

constexpr const char* kNameRule =
    "expected element_pattern_spherical_wave_[x|y]_[te|tm]_[re|im]_<element type>_<frequency "
    "in MHz>.txt";

}  // namespace

const SphericalWaveCoeffs* ElementTypePattern::nearest(double freq_hz) const {
  // OSKAR keeps one list of frequencies per element type (in load order) and picks the first
  // nearest; at that frequency the conventions in order of preference.
  const SphericalWaveCoeffs* best = nullptr;
  double best_diff = 0.0;
  for (const auto& c : by_freq) {
    const double d = std::fabs(c.freq_hz - freq_hz);
    if (!best || d < best_diff) {
      best = &c;
      best_diff = d;
    }
  }
  if (!best) return nullptr;
  const double f = best->freq_hz;
  for (const auto& c : by_freq)
    if (same_freq(c.freq_hz, f) && rank(c) < rank(*best)) best = &c;
  return best;
}

bool is_spherical_wave_file(const std::string& leaf) {
  const auto ends_txt = leaf.size() >= 3 && leaf.compare(leaf.size() - 3, 3, "txt") == 0;
  if (leaf.rfind("element_pattern", 0) != 0 || !ends_txt) return false;
  return leaf.find("_feko") != std::string::npos || leaf.find("_galileo") != std::string::npos ||
         leaf.find("_wave") != std::string::npos;
}

bool is_feko_h5_file(const std::string& leaf) {
  return leaf.size() > 3 && leaf.compare(leaf.size() - 3, 3, ".h5") == 0 &&
         leaf.find("FEKO") != std::string::npos;
}

void add_spherical_wave_files(const fs::path& dir, PatternFileMap& map) {
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::error_code ec2;
    if (!entry.is_regular_file(ec2)) continue;
    const std::string leaf = entry.path().filename().string();
    if (is_spherical_wave_file(leaf) || is_feko_h5_file(leaf)) map[leaf] = entry.path().string();
  }
  if (ec) throw Error::in_file(dir.string(), 0, "cannot list the folder: " + ec.message());
}

namespace {

// One coefficient text file into `types`.
void load_text_file(const std::string& leaf, const std::string& path, int max_order,
                    std::vector<ElementTypePattern>& types) {
  int type = 0;
  double freq_hz = 0.0;
  type_and_freq(leaf, type, freq_hz);
  const int kind = text_kind(leaf);
  const bool galileo = kind == 2, feko = kind == 1;
  if (type < 0 || type > 100000)
    throw Error::in_file(path, 0,
                         "element type " + std::to_string(type) + " in the name: " + kNameRule);
  const bool x = has(leaf, "_x_", "_X_"), y = has(leaf, "_y_", "_Y_");
  const bool te = has(leaf, "_te", "_TE"), tm = has(leaf, "_tm", "_TM");
  int part = -1;  // 0 real, 1 imaginary
  if (has(leaf, "_re", "_RE")) part = 0;
  if (has(leaf, "_im", "_IM")) part = 1;
  if (part < 0 || te == tm || (x && y))
    throw Error::in_file(path, 0,
                         "the file name does not say which coefficients it holds (X or Y, TE "
                         "or TM, real or imaginary part): " +
                             std::string(kNameRule));
  // Slots of the 4 per mode: [X TE, X TM, Y TE, Y TM].
  const int mode = te ? 0 : 1;
  std::vector<int> slots;
  if (!y) slots.push_back(mode);
  if (!x) slots.push_back(2 + mode);

  // Order l is line l (data lines only): at least 2l + 1 numbers, the first 2l + 1 used.
  std::vector<double> values;
  int l_max = 0;
  for (const TextRow& row : read_text_rows(path)) {
    if (max_order > 0 && l_max >= max_order) break;
    const int l = l_max + 1;
    const std::size_t need = std::size_t(2 * l + 1);
    if (row.fields.size() < need)
      throw Error::in_file(path, row.line,
                           "order l = " + std::to_string(l) + " needs at least " +
                               std::to_string(need) + " numbers (m = -l .. l), found " +
                               std::to_string(row.fields.size()));
    for (std::size_t c = 0; c < need; ++c)
      values.push_back(parse_number(path, row.line, c + 1, row.fields[c]));
    l_max = l;
  }
  if (l_max == 0)
    throw Error::in_file(path, 0, "no coefficient lines (expected one line per order l)");

  if (std::size_t(type) >= types.size()) types.resize(std::size_t(type) + 1);
  auto& freqs = types[std::size_t(type)].by_freq;
  SphericalWaveCoeffs* c = nullptr;
  for (auto& f : freqs)
    if (f.galileo == galileo && f.feko == feko && same_freq(f.freq_hz, freq_hz)) c = &f;
  if (!c) {
    freqs.push_back({});
    c = &freqs.back();
    c->freq_hz = freq_hz;
    c->galileo = galileo;
    c->feko = feko;
    c->l_max = l_max;
    c->coeff.assign(4 * values.size(), {0.0, 0.0});
  } else if (c->l_max != l_max) {
    throw Error::in_file(path, 0,
                         "has " + std::to_string(l_max) + " orders but " + c->files.front() +
                             " (same element type and frequency) has " + std::to_string(c->l_max) +
                             "; expected the same number of lines");
  }
  c->common_phi = x || y;
  c->files.push_back(path);
  for (std::size_t j = 0; j < values.size(); ++j) {
    for (int s : slots) {
      auto& v = c->coeff[4 * j + std::size_t(s)];
      if (part == 0)
        v.real(values[j]);
      else
        v.imag(values[j]);
    }
  }
}

}  // namespace

std::vector<ElementTypePattern> load_spherical_wave_patterns(const PatternFileMap& map,
                                                             int max_order) {
  std::vector<ElementTypePattern> types;
  for (int kind = 0; kind < 3; ++kind)
    for (const auto& [leaf, path] : map)
      if (is_spherical_wave_file(leaf) && text_kind(leaf) == kind)
        load_text_file(leaf, path, max_order, types);
  for (const auto& [leaf, path] : map)
    if (is_feko_h5_file(leaf)) load_feko_h5(path, max_order, types);
  return types;
}

}  // namespace fringe::telescope
