// Every shipped telescope model (telescope-models/*.tm) loads, and its station count,
// elements per station, number of station folders, coordinate frame and longest baseline
// agree with the summary table of telescope-models/README.md (parsed here, not copied).
// The README rounds the baseline (e.g. "73.44 km"), so the tolerance is half a unit of its
// last digit. The longest baseline is the largest 3-D distance between the stations' true
// positions (the shipped models have no error columns, so true = measured).
// Where metadata/<model>.stations.csv gives folder names or station coordinates, those are
// checked too (coordinates through ERFA's WGS84 conversion).
#include <erfa.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <ostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/telescope/summary.h"
#include "fringe/telescope/tm_loader.h"

namespace fs = std::filesystem;
using namespace fringe::telescope;

namespace {

const fs::path kModels = fs::path(FRINGE_SOURCE_DIR) / "telescope-models";

struct Expected {
  std::string model;  // "ska-low-aa4.tm"
  std::size_t stations = 0;
  std::size_t elements = 0;                               // per station, unless listed below
  std::map<std::string, std::size_t> element_exceptions;  // station name -> elements
  std::string frame;                                      // ENU, ECEF, WGS84
  std::size_t folders = 0;
  double baseline_km = 0.0;
  double tolerance_km = 0.0;
};

// gtest prints parameters of failing tests with this.
void PrintTo(const Expected& e, std::ostream* os) { *os << e.model; }

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto k = s.find(sep, start);
    out.push_back(trim(s.substr(start, k - start)));
    if (k == std::string::npos) break;
    start = k + sep.size();
  }
  return out;
}

std::size_t leading_int(const std::string& s) { return std::stoul(s); }

// Rows of the README's "Summary" table: | model | stations | elements | frame | dirs | max
// baseline | source |. One row may list several models separated by " / ".
std::vector<Expected> readme_table() {
  std::ifstream in(kModels / "README.md");
  std::vector<Expected> out;
  std::string line;
  const std::regex exception_re(R"(\(([A-Za-z0-9]+): (\d+)\))");
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.find(".tm") == std::string::npos) continue;
    auto cells = split(line.substr(1), "|");
    if (cells.size() < 6 || cells[0].find(".tm") == std::string::npos) continue;
    const auto models = split(cells[0], " / ");
    std::string km = cells[5];
    km = trim(km.substr(0, km.find("km")));
    const auto baselines = split(km, " / ");
    if (baselines.size() != models.size()) continue;
    for (std::size_t i = 0; i < models.size(); ++i) {
      Expected e;
      e.model = models[i];
      e.stations = leading_int(cells[1]);
      e.elements = leading_int(cells[2]);
      for (std::sregex_iterator it(cells[2].begin(), cells[2].end(), exception_re), end; it != end;
           ++it)
        e.element_exceptions[(*it)[1]] = std::stoul((*it)[2]);
      e.frame = cells[3];
      e.folders = leading_int(cells[4]);
      e.baseline_km = std::stod(baselines[i]);
      const auto dot = baselines[i].find('.');
      const int decimals =
          dot == std::string::npos ? 0 : static_cast<int>(baselines[i].size() - dot - 1);
      e.tolerance_km = 0.5 * std::pow(10.0, -decimals) + 1e-9;
      out.push_back(e);
    }
  }
  return out;
}

// metadata/<model>.stations.csv as rows of column name -> value (empty if there is none).
std::vector<std::map<std::string, std::string>> metadata(const std::string& model) {
  std::vector<std::map<std::string, std::string>> rows;
  const std::string stem = model.substr(0, model.size() - 3);
  std::ifstream in(kModels / "metadata" / (stem + ".stations.csv"));
  if (!in) return rows;
  std::string line;
  std::getline(in, line);
  const auto header = split(line, ",");
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    const auto cells = split(line, ",");
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

std::string test_name(const testing::TestParamInfo<Expected>& info) {
  std::string s;
  for (char c : info.param.model.substr(0, info.param.model.size() - 3))
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

class ShippedModel : public testing::TestWithParam<Expected> {};

}  // namespace

TEST(ShippedModels, ReadmeTableCoversEveryModel) {
  const auto table = readme_table();
  std::set<std::string> listed;
  for (const auto& e : table) listed.insert(e.model);
  std::set<std::string> shipped;
  for (const auto& entry : fs::directory_iterator(kModels))
    if (entry.is_directory() && entry.path().extension() == ".tm")
      shipped.insert(entry.path().filename().string());
  EXPECT_EQ(listed, shipped);
  EXPECT_GE(table.size(), 20u);
}

TEST_P(ShippedModel, MatchesReadme) {
  const Expected& e = GetParam();
  const auto m = load_telescope_model(kModels / e.model);
  const auto s = summarise(m);

  EXPECT_EQ(s.num_stations, e.stations);
  EXPECT_EQ(s.num_station_models, e.folders);
  EXPECT_EQ(to_string(m.layout_frame), e.frame);
  for (std::size_t i = 0; i < m.num_stations(); ++i) {
    const auto it = e.element_exceptions.find(m.stations[i].name);
    const std::size_t want = it == e.element_exceptions.end() ? e.elements : it->second;
    EXPECT_EQ(s.leaf_elements_per_station[i], want) << "station " << m.stations[i].name;
  }
  for (const auto& [name, count] : e.element_exceptions) {
    bool found = false;
    for (const auto& st : m.stations) found = found || st.name == name;
    EXPECT_TRUE(found) << "README names station " << name;
  }
  EXPECT_NEAR(s.longest_baseline.length / 1e3, e.baseline_km, e.tolerance_km);
  EXPECT_EQ(s.longest_baseline.length, s.longest_baseline_measured.length);  // no error columns
  EXPECT_TRUE(m.unsupported_files.empty());
  EXPECT_TRUE(m.warnings.empty());

  // Station metadata, where there is some.
  const auto meta = metadata(e.model);
  if (meta.empty()) return;
  ASSERT_EQ(meta.size(), m.num_stations());
  for (std::size_t i = 0; i < meta.size(); ++i) {
    const auto& row = meta[i];
    const auto& st = m.stations[i];
    if (row.count("folder")) EXPECT_EQ(m.model_of(i).name, row.at("folder")) << i;
    if (row.count("ecef_x_m")) {
      // The WGS84 variant lists ECEF beside lon/lat/HAE (README: round trip 0.03 mm).
      const double d = std::hypot(st.true_ecef.x - std::stod(row.at("ecef_x_m")),
                                  st.true_ecef.y - std::stod(row.at("ecef_y_m")),
                                  st.true_ecef.z - std::stod(row.at("ecef_z_m")));
      EXPECT_LT(d, 1e-3) << "station " << i;
    } else if (row.count("lon_deg")) {
      // ENU layouts: README says ENU -> ECEF matches the surveyed ECEF within 0.022 m.
      double xyz[3];
      constexpr double kDeg = std::numbers::pi / 180.0;
      ASSERT_EQ(eraGd2gc(1, std::stod(row.at("lon_deg")) * kDeg,
                         std::stod(row.at("lat_deg")) * kDeg, std::stod(row.at("hae_m")), xyz),
                0);
      const double d =
          std::hypot(st.true_ecef.x - xyz[0], st.true_ecef.y - xyz[1], st.true_ecef.z - xyz[2]);
      EXPECT_LT(d, 0.03) << "station " << i << " (" << row.at("name") << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Readme, ShippedModel, testing::ValuesIn(readme_table()), test_name);
