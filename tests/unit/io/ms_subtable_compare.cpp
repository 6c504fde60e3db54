#include "ms_subtable_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace fringe::io::compare {

namespace {

const TableColumnCells* find_column(const Table& t, const std::string& name) {
  for (const auto& c : t)
    if (c.name == name) return &c;
  return nullptr;
}

std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string cell_text(const TableCell& c) {
  if (!c.defined) return "(undefined)";
  std::string out;
  if (!c.shape.empty()) {
    out += "shape [";
    for (std::size_t k = 0; k < c.shape.size(); ++k)
      out += (k ? "," : "") + std::to_string(c.shape[k]);
    out += "] ";
  }
  for (std::size_t k = 0; k < c.strings.size() && k < 4; ++k) out += "'" + c.strings[k] + "' ";
  for (std::size_t k = 0; k < c.numbers.size() && k < 4; ++k) {
    char v[32];
    std::snprintf(v, sizeof v, "%.17g ", c.numbers[k]);
    out += v;
  }
  if (c.numbers.size() > 4 || c.strings.size() > 4) out += "...";
  return out;
}

// The largest |a - b| of two numeric cells, or a text saying why they cannot be compared
// (returned through why; the difference is then infinite).
double cell_difference(const TableCell& a, const TableCell& b, bool trim, std::string& why) {
  if (a.defined != b.defined) {
    why = "defined in one MS only";
    return INFINITY;
  }
  if (a.shape != b.shape) {
    why = "shapes differ";
    return INFINITY;
  }
  if (a.strings.size() != b.strings.size() || a.numbers.size() != b.numbers.size()) {
    why = "sizes differ";
    return INFINITY;
  }
  for (std::size_t k = 0; k < a.strings.size(); ++k) {
    const bool same =
        trim ? trimmed(a.strings[k]) == trimmed(b.strings[k]) : a.strings[k] == b.strings[k];
    if (!same) {
      why = "strings differ";
      return INFINITY;
    }
  }
  double d = 0.0;
  for (std::size_t k = 0; k < a.numbers.size(); ++k) {
    const double x = a.numbers[k], y = b.numbers[k];
    if (x == y) continue;  // also equal infinities
    d = std::max(d, std::isnan(x) || std::isnan(y) ? INFINITY : std::fabs(x - y));
  }
  return d;
}

const std::string kCreatedPrefix = "Measurement Set created at ";

// "Measurement Set created at YYYY-MM-DD, hh:mm:ss (ZONE)".
bool is_creation_message(const std::string& m) {
  if (m.rfind(kCreatedPrefix, 0) != 0) return false;
  const std::string rest = m.substr(kCreatedPrefix.size());
  const std::string pattern = "dddd-dd-dd, dd:dd:dd (";
  if (rest.size() < pattern.size() + 2 || rest.back() != ')') return false;
  for (std::size_t k = 0; k < pattern.size(); ++k) {
    const bool digit = rest[k] >= '0' && rest[k] <= '9';
    if (pattern[k] == 'd' ? !digit : rest[k] != pattern[k]) return false;
  }
  return true;
}

// The key of a settings line, '\' separators as '/' (OSKAR's files use both).
std::string setting_key(const std::string& line) {
  const auto eq = line.find('=');
  std::string key = eq == std::string::npos ? std::string() : line.substr(0, eq);
  std::replace(key.begin(), key.end(), '\\', '/');
  return key;
}

// The rows' values of one scalar string column ("" for an undefined cell).
std::vector<std::string> strings_of(const Table& t, const std::string& column) {
  std::vector<std::string> out;
  if (const auto* c = find_column(t, column))
    for (const auto& cell : c->cells)
      out.push_back(cell.defined && !cell.strings.empty() ? cell.strings[0] : std::string());
  return out;
}

}  // namespace

std::map<std::string, double> compare_table(const std::string& table_name, const Table& ours,
                                            const Table& ref,
                                            const std::map<std::string, ColumnRule>& rules,
                                            const Report& report) {
  std::map<std::string, double> largest;
  std::set<std::string> names;
  for (const auto& c : ours) names.insert(c.name);
  for (const auto& c : ref) names.insert(c.name);
  for (const std::string& name : names) {
    const std::string where = table_name + "::" + name;
    const auto* a = find_column(ours, name);
    const auto* b = find_column(ref, name);
    if (!a || !b) {
      report.fail(where + ": column only in " + (a ? "ours" : "OSKAR's"));
      continue;
    }
    if (a->data_type != b->data_type)
      report.fail(where + ": type " + a->data_type + " vs " + b->data_type);
    if (a->measure_type != b->measure_type || a->measure_ref != b->measure_ref)
      report.fail(where + ": MEASINFO " + a->measure_type + "/" + a->measure_ref + " vs " +
                  b->measure_type + "/" + b->measure_ref);
    const auto r = rules.find(name);
    const ColumnRule rule = r == rules.end() ? ColumnRule{} : r->second;
    if (rule.skip) continue;
    if (a->cells.size() != b->cells.size()) {
      report.fail(where + ": " + std::to_string(a->cells.size()) + " rows vs " +
                  std::to_string(b->cells.size()));
      continue;
    }
    double worst = 0.0;
    std::size_t noted = 0;
    for (std::size_t row = 0; row < a->cells.size(); ++row) {
      std::string why;
      const double d = cell_difference(a->cells[row], b->cells[row], rule.trim_strings, why);
      worst = std::max(worst, d);
      if (d > rule.abs_tolerance) {
        const std::string text = where + " row " + std::to_string(row) + ": " +
                                 cell_text(a->cells[row]) + "vs " + cell_text(b->cells[row]) +
                                 (why.empty() ? "" : " (" + why + ")");
        if (rule.intended.empty())
          report.fail(text);
        else if (noted++ == 0)  // one line per column
          report.note(text + ": " + rule.intended);
      }
    }
    largest[name] = worst;
  }
  return largest;
}

void compare_history(const Table& ours, const Table& ref,
                     const std::vector<std::string>& settings_may_differ, const Report& report) {
  // Columns, types and measures as OSKAR's; the contents are compared below.
  std::map<std::string, ColumnRule> skip_all;
  for (const auto& c : ref) skip_all[c.name].skip = true;
  compare_table("HISTORY", ours, ref, skip_all, report);

  const auto msg_a = strings_of(ours, "MESSAGE"), msg_b = strings_of(ref, "MESSAGE");
  const auto org_a = strings_of(ours, "ORIGIN"), org_b = strings_of(ref, "ORIGIN");
  const auto app_a = strings_of(ours, "APPLICATION"), app_b = strings_of(ref, "APPLICATION");
  if (msg_a.empty() || msg_b.empty()) {
    report.fail("HISTORY: no rows (" + std::to_string(msg_a.size()) + " vs " +
                std::to_string(msg_b.size()) + ")");
    return;
  }
  // Row 0: the creation message, ORIGIN = APPLICATION.
  if (!is_creation_message(msg_a[0])) report.fail("HISTORY row 0 MESSAGE '" + msg_a[0] + "'");
  if (!is_creation_message(msg_b[0]))
    report.fail("HISTORY row 0 MESSAGE of OSKAR's MS '" + msg_b[0] + "' (format changed?)");
  if (org_a[0] != app_a[0]) report.fail("HISTORY row 0 ORIGIN is not the APPLICATION");
  for (std::size_t r = 1; r < app_a.size(); ++r)
    if (app_a[r] != app_a[0]) report.fail("HISTORY APPLICATION differs between rows");
  if (trimmed(app_a[0]) != trimmed(app_b[0]))
    report.note("HISTORY APPLICATION '" + app_a[0] + "' vs '" + app_b[0] +
                "': fringe names itself");

  // The settings rows: rows 1.. with ORIGIN OSKAR_SETTINGS, line for line.
  auto settings_end = [](const std::vector<std::string>& origin) {
    std::size_t r = 1;
    while (r < origin.size() && origin[r] == "OSKAR_SETTINGS") ++r;
    return r;
  };
  const std::size_t end_a = settings_end(org_a), end_b = settings_end(org_b);
  if (end_a != end_b)
    report.fail("HISTORY: " + std::to_string(end_a - 1) + " OSKAR_SETTINGS rows vs " +
                std::to_string(end_b - 1));
  for (std::size_t r = 1; r < std::min(end_a, end_b); ++r) {
    if (msg_a[r] == msg_b[r]) continue;
    const std::string ka = setting_key(msg_a[r]);
    const bool allowed = !ka.empty() && ka == setting_key(msg_b[r]) &&
                         std::find(settings_may_differ.begin(), settings_may_differ.end(), ka) !=
                             settings_may_differ.end();
    if (allowed)
      report.note("HISTORY settings row " + std::to_string(r) + " '" + msg_a[r] + "' vs '" +
                  msg_b[r] + "': a path the test's copy of the settings file changed");
    else
      report.fail("HISTORY settings row " + std::to_string(r) + " '" + msg_a[r] + "' vs '" +
                  msg_b[r] + "'");
  }
  // The log: every later row, one ORIGIN per MS.
  std::size_t log_a = 0;
  for (std::size_t r = end_a; r < org_a.size(); ++r, ++log_a)
    if (org_a[r] != "FRINGE_LOG")
      report.fail("HISTORY row " + std::to_string(r) + " ORIGIN '" + org_a[r] +
                  "' after the settings (expected FRINGE_LOG)");
  for (std::size_t r = end_b; r < org_b.size(); ++r)
    if (org_b[r] != "OSKAR_LOG")
      report.fail("HISTORY row " + std::to_string(r) + " of OSKAR's MS: ORIGIN '" + org_b[r] + "'");
  if (log_a == 0) report.fail("HISTORY: no FRINGE_LOG rows (the run log)");
  report.note("HISTORY log: " + std::to_string(log_a) + " FRINGE_LOG rows vs " +
              std::to_string(org_b.size() - end_b) + " OSKAR_LOG rows: fringe's own log");

  // The other columns: every row of ours as OSKAR's row 0 (TIME: whole seconds only).
  for (const char* name :
       {"PRIORITY", "OBSERVATION_ID", "OBJECT_ID", "APP_PARAMS", "CLI_COMMAND"}) {
    const auto* a = find_column(ours, name);
    const auto* b = find_column(ref, name);
    if (!a || !b || b->cells.empty()) continue;  // reported by compare_table
    for (std::size_t r = 0; r < a->cells.size(); ++r) {
      std::string why;
      if (cell_difference(a->cells[r], b->cells[0], false, why) > 0.0) {
        report.fail(std::string("HISTORY::") + name + " row " + std::to_string(r) + ": " +
                    cell_text(a->cells[r]) + "vs OSKAR's " + cell_text(b->cells[0]));
        break;
      }
    }
  }
  for (const Table* t : {&ours, &ref}) {
    const auto* time = find_column(*t, "TIME");
    if (!time) continue;
    for (std::size_t r = 0; r < time->cells.size(); ++r) {
      const auto& c = time->cells[r];
      const double v = c.defined && c.numbers.size() == 1 ? c.numbers[0] : NAN;
      // Whole seconds (OSKAR's day arithmetic leaves ~2e-5 s); after 2000-01-01 (MJD 51544).
      if (!(std::fabs(v - std::round(v)) < 1e-3 && v > 51544.0 * 86400.0)) {
        report.fail(std::string("HISTORY::TIME row ") + std::to_string(r) + " of " +
                    (t == &ours ? "ours" : "OSKAR's") + ": " + cell_text(c) +
                    "(expected whole seconds of a recent UTC)");
        break;
      }
    }
  }
}

}  // namespace fringe::io::compare
