// Paths of the vis tools' test data (tests/data/vis_tools/README.md) and a fresh folder per test.
#pragma once

#include <string>

#include "../io/fault_injection.h"

namespace fringe::vistools::test {

inline std::string data(const std::string& name) {
  return std::string(FRINGE_SOURCE_DIR) + "/tests/data/vis_tools/" + name;
}
// OSKAR's outputs; its Measurement Sets are unpacked from oskar/oskar_ms.tar.gz into the build
// tree at configure time (tests/CMakeLists.txt).
inline std::string oskar_ref(const std::string& name) {
  const bool ms = name.size() > 3 && name.compare(name.size() - 3, 3, ".ms") == 0;
  return ms ? std::string(FRINGE_BINARY_DIR) + "/vis_tools_oskar_ms/" + name
            : data("oskar/" + name);
}
// OSKAR-written .vis files of the io_vis tests (tests/unit/io_vis/data).
inline std::string io_vis_data(const std::string& name) {
  return std::string(FRINGE_SOURCE_DIR) + "/tests/unit/io_vis/data/" + name;
}
// The .vis file of each case: OSKAR's oskar_tiny_{double,single} (io_vis data), the others
// here.
inline std::string vis_of(const std::string& name) {
  return name.rfind("oskar_tiny_", 0) == 0 ? io_vis_data(name + ".vis") : data(name + ".vis");
}
inline std::string fresh_dir() { return fringe::test::fresh_test_dir("tmp_vistools"); }

}  // namespace fringe::vistools::test
