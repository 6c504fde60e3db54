// libFuzzer target: OSKAR telescope model folders (fringe/telescope/tm_loader.h). The input is
// a packed folder tree (tm_unpack.h), unpacked into a scratch .tm folder, loaded, summarised
// and given element errors.
#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "fringe/telescope/element_errors.h"
#include "fringe/telescope/summary.h"
#include "fringe/telescope/tm_loader.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/tm_unpack.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& scratch = fringe::fuzz::scratch();
  scratch.clear();
  const std::filesystem::path tm = scratch.path() / "model.tm";
  std::filesystem::create_directory(tm);
  fringe::fuzz::unpack_tree(fringe::fuzz::as_text(data, size), tm);
  fringe::fuzz::expect_clean_failure("tm", [&] {
    fringe::telescope::TelescopeModel model = fringe::telescope::load_telescope_model(tm);
    const auto summary = fringe::telescope::summarise(model);
    (void)fringe::telescope::format_summary(model, summary);
    // Element errors walk every station's element and tile tree.
    fringe::telescope::ElementErrorConfig errors;
    errors.position_error_xy_m = 0.01;
    errors.gain = {1.0, 1.0};
    errors.gain_error_fixed = {0.1, 0.1};
    errors.phase_error_fixed_rad = {0.01, 0.01};
    errors.cable_length_error_m = {0.001, 0.001};
    errors.orientation_error_rad = {0.01, 0.01};
    fringe::telescope::apply_element_errors(model, errors);
  });
  return 0;
}
