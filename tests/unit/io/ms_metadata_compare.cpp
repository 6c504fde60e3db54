// ms_metadata_compare OURS.ms OSKAR.ms: compares the metadata other tools read (issue 18;
// docs/ms_output.md) of a fringe MS with OSKAR's MS of the same run: ANTENNA names, TELESCOPE_NAME
// (OSKAR's carries trailing spaces: compared without them), and every PHASED_ARRAY row
// (POSITION within 1 mm, COORDINATE_AXES within 1e-9, ELEMENT_OFFSET within 1 um, ELEMENT_FLAG
// shape and values). Prints the largest differences; exit 0 when all agree, 1 otherwise.
// Used by tests/integration/safety_ms_metadata.cmake on OSKAR's reference runs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "fringe/io/ms/ms_reader.h"

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

int compare(const char* ours_path, const char* ref_path) {
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
  std::printf("%s\n", problems ? "metadata differ" : "metadata agree");
  return problems ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ms_metadata_compare OURS.ms OSKAR.ms\n");
    return 2;
  }
  try {
    return compare(argv[1], argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
