#include "fringe/sky/sky_text_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/sky/text_parse.h"

namespace fringe::sky {

namespace {

constexpr double kArcsec = kDegToRad / 3600.0;
constexpr std::size_t kHeaderSearchBytes = 4096;       // OSKAR looks for "format" in 4 KiB
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";  // skipped at the start of a file

// Input ranges (docs/reliability/parsers.md): no number in a sky model may exceed 1e30 in
// magnitude (fluxes in Jy, frequencies in Hz, sizes in arcsec: 1e30 Jy is far beyond any
// source, and 1e308 only turns into Inf in products); RA within [-360, 360] deg; spectral
// index terms (logarithmic form) and curvature within [-100, 100], beyond which
// (nu/nu0)^alpha overflows for ordinary frequency ratios.
constexpr double kMaxValue = 1e30;
constexpr double kMaxRaDeg = 360.0;
constexpr double kMaxSpectralTerm = 100.0;

std::string format_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// Empty if every value of `values` is within kMaxValue, else why not.
std::string out_of_range(const std::vector<double>& values, const std::string& what) {
  for (double v : values)
    if (std::fabs(v) > kMaxValue)
      return what + " " + format_value(v) + " is out of range (|value| <= 1e30 expected)";
  return {};
}

// Empty if the spectral index terms and curvature are within kMaxSpectralTerm.
std::string spectral_out_of_range(const Source& s) {
  if (!s.linear_spectral_index)
    for (double a : s.spectral_index)
      if (std::fabs(a) > kMaxSpectralTerm)
        return "spectral index " + format_value(a) + " is outside [-100, 100]";
  if (std::fabs(s.curvature) > kMaxSpectralTerm)
    return "spectral curvature " + format_value(s.curvature) + " is outside [-100, 100]";
  return {};
}

struct Line {
  std::string text;
  std::size_t start = 0;  // byte offset of the line in the file
  long number = 0;        // 1-based
};

std::vector<Line> read_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error::in_file(path, 0, "cannot open sky model file for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error::in_file(path, 0, "error while reading sky model file");
  const std::string data = ss.str();
  std::vector<Line> lines;
  std::size_t pos = data.rfind(kUtf8Bom, 0) == 0 ? kUtf8Bom.size() : 0;
  long number = 0;
  while (pos < data.size()) {
    std::size_t end = data.find('\n', pos);
    if (end == std::string::npos) end = data.size();
    std::string text = data.substr(pos, end - pos);
    if (!text.empty() && text.back() == '\r') text.pop_back();
    lines.push_back({std::move(text), pos, ++number});
    pos = end + 1;
  }
  return lines;
}

// A malformed data line: warning (skipped) or error (strict).
void malformed(const std::string& path, long line, const std::string& why,
               const TextReadOptions& options) {
  if (options.strict) throw Error::in_file(path, line, "malformed sky model line: " + why);
  ErrorContext ctx;
  ctx.file = path;
  ctx.line = line;
  options.diagnostics.warn(format_error("skipped malformed sky model line: " + why, ctx));
}

enum class HeaderResult { None, Found, Malformed };

// Recognises "Format = cols", "# Format = cols", "# (cols) = format", "cols = format".
HeaderResult find_header(std::string_view line, std::string& columns) {
  std::string_view t = text::trim(line);
  if (!t.empty() && t.front() == '#') t = text::trim(t.substr(1));
  const std::string lower = text::to_lower(t);
  const std::size_t pos = lower.find("format");
  if (pos == std::string::npos) return HeaderResult::None;
  const bool at_start = pos == 0;
  const bool at_end = pos + 6 == lower.size();
  std::string_view cols;
  if (at_start) {
    std::string_view rest = text::trim(t.substr(6));
    if (rest.empty() || rest.front() != '=') return HeaderResult::Malformed;
    cols = rest.substr(1);
  } else if (at_end) {
    std::string_view before = text::trim(t.substr(0, pos));
    if (before.empty() || before.back() != '=') return HeaderResult::Malformed;
    cols = before.substr(0, before.size() - 1);
  } else {
    return HeaderResult::Malformed;
  }
  cols = text::trim(cols);
  if (!cols.empty() && (cols.front() == '(' || cols.front() == '[')) cols.remove_prefix(1);
  if (!cols.empty() && (cols.back() == ')' || cols.back() == ']')) cols.remove_suffix(1);
  columns = std::string(text::trim(cols));
  return HeaderResult::Found;
}

struct HeaderSearch {
  TextSkyFormat format = TextSkyFormat::FixedColumns;
  std::string columns;
  long header_line = 0;
};

HeaderSearch search_header(const std::string& path, const std::vector<Line>& lines) {
  HeaderSearch h;
  for (const Line& line : lines) {
    if (line.start > kHeaderSearchBytes) break;
    std::string cols;
    const HeaderResult r = find_header(line.text, cols);
    if (r == HeaderResult::Malformed)
      throw Error::in_file(path, line.number,
                           "the word 'format' appears but this is not a valid column header "
                           "(expected 'Format = a, b, ...' or '# (a, b, ...) = format'); "
                           "OSKAR rejects such files too: reword the comment");
    if (r == HeaderResult::Found) {
      if (cols.empty()) throw Error::in_file(path, line.number, "format header lists no columns");
      h.format = TextSkyFormat::NamedColumns;
      h.columns = cols;
      h.header_line = line.number;
      return h;
    }
  }
  return h;
}

// ---------------------------------------------------------------- fixed columns

std::vector<std::string_view> fixed_tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() &&
           (line[i] == ' ' || line[i] == ',' || line[i] == '\t' || line[i] == '\r'))
      ++i;
    if (i >= line.size()) break;
    if (line[i] == '#') break;  // comment token ends the line
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != ',' && line[j] != '\t' &&
           line[j] != '\r')
      ++j;
    tokens.push_back(line.substr(i, j - i));
    i = j;
  }
  return tokens;
}

bool parse_fixed_line(const std::vector<std::string_view>& tokens, Source& s, std::string& why) {
  std::vector<double> v;
  for (std::string_view t : tokens) {
    auto x = text::parse_number(t);
    if (!x) {
      why = "'" + std::string(t) + "' is not a number";
      return false;
    }
    v.push_back(*x);
  }
  const std::size_t n = v.size();
  if (n < 3) {
    why = "found " + std::to_string(n) + " values, need at least 3 (RA, Dec, I)";
    return false;
  }
  if (n == 10 || n > 12) {
    why =
        "found " + std::to_string(n) + " values; expected 3 to 9, 11 (legacy, no RM) or 12 columns";
    return false;
  }
  why = out_of_range(v, "value");
  if (!why.empty()) return false;
  if (std::fabs(v[0]) > kMaxRaDeg) {
    why = "RA " + format_value(v[0]) + " deg is outside [-360, 360]";
    return false;
  }
  if (std::fabs(v[1]) > 90.0) {
    why = "Dec " + std::to_string(v[1]) + " deg is outside [-90, 90]";
    return false;
  }
  v.resize(12, 0.0);
  // The legacy 11-column layout has no rotation measure: FWHM and angle move one column up.
  if (n == 11) v = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], 0.0, v[8], v[9], v[10]};
  if (v[9] < 0 || v[10] < 0) {
    why = "FWHM must not be negative";
    return false;
  }
  if (v[6] < 0) {
    why = "reference frequency must not be negative";
    return false;
  }
  double columns[12];
  std::copy(v.begin(), v.end(), columns);
  s = source_from_osm_columns(columns);
  why = spectral_out_of_range(s);
  return why.empty();
}

SkyModel read_fixed(const std::string& path, const std::vector<Line>& lines,
                    const TextReadOptions& options) {
  SkyModel sky;
  for (const Line& line : lines) {
    const auto tokens = fixed_tokens(line.text);
    if (tokens.empty()) continue;  // blank or comment
    Source s;
    std::string why;
    if (!parse_fixed_line(tokens, s, why)) {
      malformed(path, line.number, why, options);
      continue;
    }
    sky.push_back(s);
  }
  return sky;
}

// ---------------------------------------------------------------- named columns

enum class Col {
  Custom,
  RaRad,
  DecRad,
  RaDeg,
  DecDeg,
  I,
  Q,
  U,
  V,
  RefFreq,
  FreqInc,
  SpecCurv,
  SpecIdx,
  RM,
  LogSI,
  PolFrac,
  PolAng,
  RefWave,
  LineWidth,
  Major,
  Minor,
  SemiMajor,
  SemiMinor,
  PA,
  Name,       // a source name (Name, component_id, source_id): read and ignored
  SourceType  // LOFAR/makesourcedb "Type": POINT or GAUSSIAN (the size columns decide)
};

// Columns giving one value per source: a second such column replaces the first's value.
// (Stokes, reference frequency, spectral index, polarisation and line-width columns append
// to a vector instead.)
const char* single_valued_quantity(Col c) {
  switch (c) {
    case Col::RaRad:
    case Col::RaDeg:
      return "RA";
    case Col::DecRad:
    case Col::DecDeg:
      return "Dec";
    case Col::FreqInc:
      return "frequency increment";
    case Col::SpecCurv:
      return "spectral curvature";
    case Col::RM:
      return "rotation measure";
    case Col::LogSI:
      return "spectral index form";
    case Col::RefWave:
      return "reference wavelength";
    case Col::Major:
    case Col::SemiMajor:
      return "major axis";
    case Col::Minor:
    case Col::SemiMinor:
      return "minor axis";
    case Col::PA:
      return "position angle";
    case Col::SourceType:
      return "source type";
    default:
      return nullptr;
  }
}

Col column_type(std::string_view name) {
  using text::iequals;
  using text::istarts_with;
  auto any = [&](std::initializer_list<std::string_view> prefixes) {
    for (auto p : prefixes)
      if (istarts_with(name, p)) return true;
    return false;
  };
  if (any({"RaD", "ra_deg"})) return Col::RaDeg;
  if (any({"DecD", "dec_deg"})) return Col::DecDeg;
  if (any({"RA"})) return Col::RaRad;
  if (any({"DE"})) return Col::DecRad;
  if (iequals(name, "I") || any({"I_", "StokesI", "stokes_i", "int_flux", "Fint"})) return Col::I;
  if (iequals(name, "Q") || any({"Q_", "StokesQ", "stokes_q"})) return Col::Q;
  if (iequals(name, "U") || any({"U_", "StokesU", "stokes_u"})) return Col::U;
  if (iequals(name, "V") || any({"V_", "StokesV", "stokes_v"})) return Col::V;
  if (any({"ReferenceFreq", "RefFreq", "reference_freq", "ref_freq"})) return Col::RefFreq;
  if (any({"FrequencyInc", "FreqInc", "frequency_inc", "freq_inc"})) return Col::FreqInc;
  if (any({"SpectralCurv", "spectral_curv", "spec_curv"})) return Col::SpecCurv;
  if (any({"Sp", "alpha"})) return Col::SpecIdx;
  if (any({"Rot", "RM"})) return Col::RM;
  if (iequals(name, "LogarithmicSI") || iequals(name, "log_spec_idx")) return Col::LogSI;
  if (iequals(name, "POLF") ||
      any({"PolarizedFrac", "PolarisedFrac", "polarized_frac", "polarised_frac", "pol_frac"}))
    return Col::PolFrac;
  if (iequals(name, "POLA") || any({"PolarizationAng", "PolarisationAng", "polarization_ang",
                                    "polarisation_ang", "pol_ang"}))
    return Col::PolAng;
  if (any({"ReferenceWave", "RefWave", "reference_wave", "ref_wave"})) return Col::RefWave;
  if (any({"LineWidth", "line_width"})) return Col::LineWidth;
  if (any({"Maj"})) return Col::Major;
  if (any({"Min"})) return Col::Minor;
  if (any({"SemiMaj", "semi_maj", "a"})) return Col::SemiMajor;
  if (any({"SemiMin", "semi_min", "b"})) return Col::SemiMinor;
  if (any({"Ori", "PositionAng", "position_ang", "pos_ang", "pa"})) return Col::PA;
  // Source names (LOFAR's Name; the SKA catalogue's component_id and source_id).
  if (iequals(name, "Name") || iequals(name, "component_id") || iequals(name, "source_id"))
    return Col::Name;
  if (iequals(name, "Type")) return Col::SourceType;
  return Col::Custom;
}

// Trailing number of a Stokes I column name ("Fint084" -> 84), or nullopt.
std::optional<double> numeric_suffix(std::string_view name) {
  std::size_t k = name.size();
  while (k > 0 && (std::isdigit(static_cast<unsigned char>(name[k - 1])) || name[k - 1] == '.'))
    --k;
  if (k == name.size() || k == 0) return std::nullopt;
  return text::parse_number(name.substr(k));
}

struct Column {
  Col type = Col::Custom;
  std::string name;
  std::string default_value;
  std::optional<double> suffix;
};

// A questionable header or row that OSKAR accepts silently: a warning naming the file and
// line, or an error with `strict`.
void questionable(const std::string& path, long line, const std::string& why,
                  const TextReadOptions& options) {
  if (options.strict) throw Error::in_file(path, line, why);
  ErrorContext ctx;
  ctx.file = path;
  ctx.line = line;
  options.diagnostics.warn(format_error(why, ctx));
}

// Unknown column names are ignored (as OSKAR does) but said; so are duplicates. Linear in the
// number of columns (a header line may be megabytes long), and at most kColumnWarnings
// warnings, then a count.
void check_column_names(const std::string& path, long line, const std::vector<Column>& cols,
                        const TextReadOptions& options) {
  constexpr std::size_t kColumnWarnings = 10;
  std::size_t count = 0;
  auto say = [&](const std::string& why) {
    if (++count <= kColumnWarnings) questionable(path, line, why, options);
  };
  std::map<std::string, std::size_t> first_of_name;      // lower-case name -> column index
  std::map<std::string_view, std::size_t> first_giving;  // single-valued quantity -> index
  for (std::size_t c = 0; c < cols.size(); ++c) {
    const std::string number = "column " + std::to_string(c + 1);
    if (cols[c].name.empty()) {
      say(number + " of the format header has no name; it is ignored");
      continue;
    }
    if (cols[c].type == Col::Custom) {
      say(number + " '" + cols[c].name +
          "' is not a known sky model column name; it is ignored (known: RA, Dec, I, Q, U, V, "
          "ReferenceFrequency, SpectralIndex, MajorAxis, ... : docs/reliability/parsers.md)");
    }
    const char* q = single_valued_quantity(cols[c].type);
    const auto [named, new_name] = first_of_name.try_emplace(text::to_lower(cols[c].name), c);
    if (!new_name) {
      say("column name '" + cols[c].name + "' appears twice (columns " +
          std::to_string(named->second + 1) + " and " + std::to_string(c + 1) + ")" +
          (q ? "; the last one is used" : "; their values are joined"));
      continue;
    }
    if (!q) continue;
    const auto [given, new_quantity] = first_giving.try_emplace(q, c);
    if (!new_quantity) {
      say("columns '" + cols[given->second].name + "' and '" + cols[c].name + "' both give the " +
          q + " (columns " + std::to_string(given->second + 1) + " and " + std::to_string(c + 1) +
          "); the last one is used");
    }
  }
  if (count > kColumnWarnings) {
    options.diagnostics.warn(path + ":" + std::to_string(line) + ": " + std::to_string(count) +
                             " warnings in all about the columns of the format header");
  }
}

std::vector<Column> parse_columns(const std::string& path, long line, const std::string& header) {
  // Remove whitespace around '=' (outside quotes) so "name = 'x'" stays one field.
  std::string h;
  char quote = 0;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const char c = header[i];
    if (quote) {
      if (c == quote) quote = 0;
      h.push_back(c);
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '=') {
      while (!h.empty() && std::isspace(static_cast<unsigned char>(h.back()))) h.pop_back();
      h.push_back('=');
      while (i + 1 < header.size() && std::isspace(static_cast<unsigned char>(header[i + 1]))) ++i;
      continue;
    }
    h.push_back(c);
  }
  std::vector<Column> cols;
  for (const std::string& field : text::split_fields(h)) {
    Column col;
    const auto eq = field.find('=');
    col.name = std::string(text::trim(std::string_view(field).substr(0, eq)));
    if (eq != std::string::npos) {
      std::string_view d = text::trim(std::string_view(field).substr(eq + 1));
      if (d.size() >= 2 && (d.front() == '"' || d.front() == '\'') && d.back() == d.front())
        d = d.substr(1, d.size() - 2);
      col.default_value = std::string(d);
    }
    col.type = col.name.empty() ? Col::Custom : column_type(col.name);
    if (col.type == Col::I) col.suffix = numeric_suffix(col.name);
    cols.push_back(std::move(col));
  }
  bool have_ra = false, have_dec = false;
  for (const Column& c : cols) {
    have_ra = have_ra || c.type == Col::RaRad || c.type == Col::RaDeg;
    have_dec = have_dec || c.type == Col::DecRad || c.type == Col::DecDeg;
  }
  if (!have_ra || !have_dec)
    throw Error::in_file(path, line, "format header has no RA or no Dec column: '" + header + "'");
  return cols;
}

struct RowValues {
  std::vector<double> i, q, u, v, ref_freq, spix, pol_frac, pol_ang, line_width;
  std::vector<double> i_suffix_freq;
  bool i_all_suffixed = true;
};

// `source_type` receives the Type column's value when it is neither POINT nor GAUSSIAN.
bool parse_named_row(const std::vector<Column>& cols, const std::vector<std::string>& fields,
                     Source& s, std::string& why, std::string& source_type) {
  source_type.clear();
  if (fields.size() != cols.size()) {
    why = "found " + std::to_string(fields.size()) + " fields for " + std::to_string(cols.size()) +
          " columns";
    return false;
  }
  s = Source{};
  RowValues r;
  bool have_ra = false, have_dec = false, have_ref_col = false;
  for (std::size_t c = 0; c < cols.size(); ++c) {
    const Column& col = cols[c];
    if (col.type == Col::Custom) continue;
    std::string_view value = text::trim(fields[c]);
    if (value.empty()) value = col.default_value;
    if (col.type == Col::RefFreq) have_ref_col = true;
    if (value.empty()) {
      if (col.type == Col::I) r.i_all_suffixed = false;
      continue;  // absent: field default of the sky model
    }
    auto bad = [&](const char* what) {
      why = "column " + std::to_string(c + 1) + " ('" + col.name + "'): '" + std::string(value) +
            "' is not " + what;
      return false;
    };
    auto scalar = [&](double& out) {
      auto x = text::parse_number(value);
      if (!x) return bad("a number");
      if (std::fabs(*x) > kMaxValue) return bad("within [-1e30, 1e30]");
      out = *x;
      return true;
    };
    auto list = [&](std::vector<double>& out) {
      auto x = text::parse_vector(value);
      if (!x) return bad("a number or a [vector] of numbers");
      if (!out_of_range(*x, "").empty()) return bad("within [-1e30, 1e30]");
      out.insert(out.end(), x->begin(), x->end());
      return true;
    };
    switch (col.type) {
      case Col::RaRad:
      case Col::RaDeg: {
        auto x = text::parse_ra(value, col.type == Col::RaDeg);
        if (!x || std::fabs(*x) > kMaxRaDeg * kDegToRad * (1 + 1e-15))
          return bad("a valid RA (within [-360, 360] deg or [-2 pi, 2 pi] rad)");
        s.ra = *x;
        have_ra = true;
        break;
      }
      case Col::DecRad:
      case Col::DecDeg: {
        auto x = text::parse_dec(value, col.type == Col::DecDeg);
        if (!x) return bad("a valid Dec (|Dec| <= 90 deg)");
        s.dec = *x;
        have_dec = true;
        break;
      }
      case Col::I: {
        const std::size_t before = r.i.size();
        if (!list(r.i)) return false;
        if (col.suffix && r.i.size() == before + 1)
          r.i_suffix_freq.push_back(*col.suffix * 1e6);  // suffix is in MHz
        else
          r.i_all_suffixed = false;
        break;
      }
      case Col::Q:
        if (!list(r.q)) return false;
        break;
      case Col::U:
        if (!list(r.u)) return false;
        break;
      case Col::V:
        if (!list(r.v)) return false;
        break;
      case Col::RefFreq:
        if (!list(r.ref_freq)) return false;
        break;
      case Col::SpecIdx:
        if (!list(r.spix)) return false;
        break;
      case Col::PolFrac:
        if (!list(r.pol_frac)) return false;
        break;
      case Col::PolAng:
        if (!list(r.pol_ang)) return false;
        break;
      case Col::LineWidth:
        if (!list(r.line_width)) return false;
        break;
      case Col::FreqInc:
        if (!scalar(s.freq_inc)) return false;
        break;
      case Col::RefWave:
        if (!scalar(s.ref_wavelength)) return false;
        break;
      case Col::SpecCurv:
        if (!scalar(s.curvature)) return false;
        s.has_curvature = true;
        break;
      case Col::RM:
        if (!scalar(s.rotation_measure)) return false;
        s.has_rotation_measure = true;
        break;
      case Col::LogSI: {
        const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(value[0])));
        s.linear_spectral_index = ch == 'f' || ch == 'n' || ch == '0';
        break;
      }
      case Col::Major:
      case Col::Minor:
      case Col::SemiMajor:
      case Col::SemiMinor: {
        double x = 0;
        if (!scalar(x)) return false;
        if (x < 0) return bad("a non-negative size");
        const double fwhm =
            x * kArcsec * ((col.type == Col::SemiMajor || col.type == Col::SemiMinor) ? 2 : 1);
        (col.type == Col::Major || col.type == Col::SemiMajor ? s.fwhm_major : s.fwhm_minor) = fwhm;
        break;
      }
      case Col::PA: {
        double x = 0;
        if (!scalar(x)) return false;
        s.position_angle = x * kDegToRad;
        break;
      }
      case Col::SourceType:
        if (!text::iequals(value, "POINT") && !text::iequals(value, "GAUSSIAN"))
          source_type = std::string(value);
        break;
      case Col::Name:
      case Col::Custom:
        break;
    }
  }
  if (!have_ra || !have_dec) {
    why = "RA and Dec are required";
    return false;
  }
  // Numeric suffixes on the I column names give the reference frequencies (one per I value).
  if (!have_ref_col && !r.i.empty() && r.i_all_suffixed && r.i_suffix_freq.size() == r.i.size())
    r.ref_freq = r.i_suffix_freq;
  auto first_or_zero = [](const std::vector<double>& x) { return x.empty() ? 0.0 : x.front(); };
  auto multi = [](const std::vector<double>& x) {
    return x.size() > 1 ? x : std::vector<double>{};
  };
  s.I = first_or_zero(r.i);
  s.Q = first_or_zero(r.q);
  s.U = first_or_zero(r.u);
  s.V = first_or_zero(r.v);
  s.ref_freq = first_or_zero(r.ref_freq);
  s.chan_i = multi(r.i);
  s.chan_q = multi(r.q);
  s.chan_u = multi(r.u);
  s.chan_v = multi(r.v);
  s.chan_ref_freq = multi(r.ref_freq);
  s.spectral_index = r.spix;
  s.line_width = r.line_width;
  s.pol_fraction = r.pol_frac;
  for (double a : r.pol_ang) s.pol_angle.push_back(a * kDegToRad);
  const std::size_t ni = r.i.size();
  if (ni > 1 && !(r.ref_freq.size() == ni || (r.ref_freq.size() == 1 && s.freq_inc != 0.0))) {
    why = std::to_string(ni) + " Stokes I values need " + std::to_string(ni) +
          " reference frequencies, or one and a FrequencyIncrement";
    return false;
  }
  for (double w : r.line_width)
    if (!(w > 0)) {
      why = "line widths must be positive";
      return false;
    }
  if (s.ref_freq < 0) {
    why = "reference frequency must not be negative";
    return false;
  }
  why = spectral_out_of_range(s);
  return why.empty();
}

SkyModel read_named(const std::string& path, const std::vector<Line>& lines,
                    const HeaderSearch& header, const TextReadOptions& options) {
  const std::vector<Column> cols = parse_columns(path, header.header_line, header.columns);
  check_column_names(path, header.header_line, cols, options);
  SkyModel sky;
  // Unsupported source types: the first few rows are named, then a count (a catalogue of
  // shapelets would otherwise print one warning per source).
  constexpr std::size_t kTypeWarnings = 5;
  std::size_t unknown_types = 0;
  for (const Line& line : lines) {
    if (line.number <= header.header_line) continue;  // rows start after the header
    const std::string_view t = text::trim(line.text);
    if (t.empty() || t.front() == '#') continue;
    Source s;
    std::string why, source_type;
    if (!parse_named_row(cols, text::split_fields(t), s, why, source_type)) {
      malformed(path, line.number, why, options);
      continue;
    }
    if (!source_type.empty() && ++unknown_types <= kTypeWarnings) {
      questionable(path, line.number,
                   "source type '" + source_type +
                       "' is not supported (POINT or GAUSSIAN); the source is read as a " +
                       (s.fwhm_major > 0 || s.fwhm_minor > 0 ? "Gaussian" : "point source") +
                       " from its size columns",
                   options);
    }
    sky.push_back(s);
  }
  if (unknown_types > kTypeWarnings) {
    options.diagnostics.warn(path + ": " + std::to_string(unknown_types) +
                             " sources in all have an unsupported source type (read as point "
                             "sources or Gaussians from their size columns)");
  }
  return sky;
}

}  // namespace

TextSkyFormat detect_text_sky_format(const std::string& path) {
  return search_header(path, read_lines(path)).format;
}

SkyModel read_sky_fixed_columns(const std::string& path, const TextReadOptions& options) {
  return read_fixed(path, read_lines(path), options);
}

SkyModel read_sky_named_columns(const std::string& path, const TextReadOptions& options) {
  const auto lines = read_lines(path);
  const HeaderSearch h = search_header(path, lines);
  if (h.format != TextSkyFormat::NamedColumns)
    throw Error::in_file(path, 0,
                         "no 'Format = ...' header in the first 4 KiB of this named-column "
                         "sky model");
  return read_named(path, lines, h, options);
}

SkyModel read_sky_text(const std::string& path, const TextReadOptions& options) {
  const auto lines = read_lines(path);
  const HeaderSearch h = search_header(path, lines);
  if (h.format == TextSkyFormat::NamedColumns) return read_named(path, lines, h, options);
  return read_fixed(path, lines, options);
}

}  // namespace fringe::sky
