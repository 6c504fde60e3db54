// ms_metadata_compare [--settings-may-differ KEY]... OURS.ms OSKAR.ms: compares the metadata
// other tools read (issue 18; docs/ms_output.md) of a fringe MS with OSKAR's MS of the same run:
// ANTENNA names, TELESCOPE_NAME (OSKAR's carries trailing spaces: compared without them), every
// PHASED_ARRAY row (POSITION within 1 mm, COORDINATE_AXES within 1e-9, ELEMENT_OFFSET within
// 1 um, ELEMENT_FLAG shape and values), every cell of OBSERVATION, FIELD and HISTORY
// (ms_subtable_compare.h) and of the other small subtables. Differences that docs/ms_output.md
// lists as intended are printed as "intended:" lines; any other prints "DIFFERENT:". The
// settings lines of HISTORY must be equal except those of a key given with
// --settings-may-differ (the reference settings files' edited telescope path).
// Prints the largest differences; exit 0 when all agree, 1 otherwise, 2 for bad arguments.
// Used by tests/integration/safety_ms_metadata.cmake on OSKAR's reference runs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include <map>
#include <vector>

#include "fringe/io/ms/ms_cells.h"
#include "fringe/io/ms/ms_reader.h"
#include "ms_subtable_compare.h"

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

namespace cmp = fringe::io::compare;

// How each column of the subtables is compared (columns not named: equal cell for cell).
// Tolerances: ITRF positions 1 mm (fringe's and OSKAR's geodetic conversions, docs/ms_output.md);
// times 1 us (MJD seconds ~5e9: a few ulp); directions 1e-12 rad; frequencies 1e-6 Hz.
std::map<std::string, std::map<std::string, cmp::ColumnRule>> subtable_rules() {
  std::map<std::string, std::map<std::string, cmp::ColumnRule>> r;
  r["OBSERVATION"]["TELESCOPE_NAME"].trim_strings = true;
  r["OBSERVATION"]["ARRAY_CENTER"].abs_tolerance = 1e-3;
  r["OBSERVATION"]["TIME_RANGE"].abs_tolerance = 1e-6;
  r["OBSERVATION"]["RELEASE_DATE"].abs_tolerance = 1e-6;
  for (const char* dir : {"DELAY_DIR", "PHASE_DIR", "REFERENCE_DIR"})
    r["FIELD"][dir].abs_tolerance = 1e-12;
  for (const char* col : {"CHAN_FREQ", "CHAN_WIDTH", "EFFECTIVE_BW", "RESOLUTION", "REF_FREQUENCY",
                          "TOTAL_BANDWIDTH"})
    r["SPECTRAL_WINDOW"][col].abs_tolerance = 1e-6;
  r["ANTENNA"]["POSITION"].abs_tolerance = 1e-3;
  // Kept from casacore's MS conventions where OSKAR leaves a cell unset (docs/ms_output.md).
  r["ANTENNA"]["TYPE"].intended = "fringe writes the MS convention GROUND-BASED, OSKAR nothing";
  r["SPECTRAL_WINDOW"]["NET_SIDEBAND"].intended = "fringe: 1 (upper sideband), OSKAR unset";
  r["FEED"]["SPECTRAL_WINDOW_ID"].intended = "fringe: -1 (valid for every window), OSKAR unset";
  r["FEED"]["BEAM_ID"].intended = "fringe: -1 (no beam table), OSKAR unset";
  r["FEED"]["POL_RESPONSE"].intended = "fringe: the identity (ideal X and Y), OSKAR zeros";
  return r;
}

int compare(const char* ours_path, const char* ref_path,
            const std::vector<std::string>& settings_may_differ) {
  const fringe::io::MsReader ours(ours_path), ref(ref_path);
  int problems = 0;
  auto fail = [&](const std::string& what) {
    std::printf("DIFFERENT: %s\n", what.c_str());
    ++problems;
  };
  const auto na = ours.station_names(), nb = ref.station_names();
  if (na != nb) {
    fail("ANTENNA names (" + std::to_string(na.size()) + " vs " + std::to_string(nb.size()) + ")");
    for (std::size_t i = 0; i < std::min(na.size(), nb.size()); ++i)
      if (na[i] != nb[i]) std::printf("  %zu: '%s' vs '%s'\n", i, na[i].c_str(), nb[i].c_str());
  }
  if (trimmed(ours.telescope_name()) != trimmed(ref.telescope_name()))
    fail("TELESCOPE_NAME '" + ours.telescope_name() + "' vs '" + ref.telescope_name() + "'");
  const auto pa = ours.phased_array(), pb = ref.phased_array();
  if (pa.size() != pb.size())
    fail("PHASED_ARRAY rows " + std::to_string(pa.size()) + " vs " + std::to_string(pb.size()));
  double dpos = 0, daxes = 0, doffset = 0;
  for (std::size_t i = 0; i < std::min(pa.size(), pb.size()); ++i) {
    const std::string row = "PHASED_ARRAY row " + std::to_string(i);
    if (pa[i].antenna_id != pb[i].antenna_id) fail(row + " ANTENNA_ID");
    for (int k = 0; k < 3; ++k) {
      dpos = std::max(dpos, std::fabs(pa[i].position_ecef_m[k] - pb[i].position_ecef_m[k]));
      for (int j = 0; j < 3; ++j)
        daxes = std::max(daxes, std::fabs(pa[i].axes[j][k] - pb[i].axes[j][k]));
    }
    const auto& ea = pa[i].element_offset_ecef_m;
    const auto& eb = pb[i].element_offset_ecef_m;
    if (ea.size() != eb.size()) fail(row + " number of elements");
    for (std::size_t e = 0; e < std::min(ea.size(), eb.size()); ++e)
      for (int k = 0; k < 3; ++k) doffset = std::max(doffset, std::fabs(ea[e][k] - eb[e][k]));
    if (pa[i].flag_receptors != pb[i].flag_receptors ||
        pa[i].num_flag_cells != pb[i].num_flag_cells || pa[i].num_flagged != pb[i].num_flagged)
      fail(row + " ELEMENT_FLAG");
  }
  std::printf(
      "stations %zu, PHASED_ARRAY rows %zu; largest differences: POSITION %.3g m, "
      "COORDINATE_AXES %.3g, ELEMENT_OFFSET %.3g m\n",
      na.size(), pa.size(), dpos, daxes, doffset);
  if (dpos > 1e-3) fail("PHASED_ARRAY POSITION beyond 1 mm");
  if (daxes > 1e-9) fail("COORDINATE_AXES beyond 1e-9");
  if (doffset > 1e-6) fail("ELEMENT_OFFSET beyond 1 um");

  // The subtables, cell by cell.
  int intended = 0;
  const cmp::Report report{fail, [&](const std::string& what) {
                             std::printf("intended: %s\n", what.c_str());
                             ++intended;
                           }};
  const auto rules = subtable_rules();
  for (const char* table :
       {"OBSERVATION", "FIELD", "ANTENNA", "POLARIZATION", "SPECTRAL_WINDOW", "DATA_DESCRIPTION",
        "FEED", "POINTING", "SOURCE", "STATE", "PROCESSOR", "FLAG_CMD"}) {
    const auto r = rules.find(table);
    const auto largest = cmp::compare_table(
        table, fringe::io::read_subtable_cells(ours_path, table),
        fringe::io::read_subtable_cells(ref_path, table),
        r == rules.end() ? std::map<std::string, cmp::ColumnRule>{} : r->second, report);
    for (const auto& [column, d] : largest)
      if (d > 0.0) std::printf("%s::%s largest difference %.3g\n", table, column.c_str(), d);
  }
  cmp::compare_history(fringe::io::read_subtable_cells(ours_path, "HISTORY"),
                       fringe::io::read_subtable_cells(ref_path, "HISTORY"), settings_may_differ,
                       report);
  std::printf("%s\n", problems ? "metadata differ" : "metadata agree");
  return problems ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> may_differ, paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--settings-may-differ" && i + 1 < argc)
      may_differ.push_back(argv[++i]);
    else
      paths.push_back(a);
  }
  if (paths.size() != 2) {
    std::fprintf(stderr,
                 "usage: ms_metadata_compare [--settings-may-differ KEY]... OURS.ms OSKAR.ms\n");
    return 2;
  }
  try {
    return compare(paths[0].c_str(), paths[1].c_str(), may_differ);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
