// libFuzzer target: OSKAR telescope model folders (fringe/telescope/tm_loader.h). The input is
// a packed folder tree (tm_unpack.h), unpacked into a scratch .tm folder, loaded and
// summarised.
#include <cstddef>
#include <cstdint>
#include <filesystem>

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
    const fringe::telescope::TelescopeModel model = fringe::telescope::load_telescope_model(tm);
    const auto summary = fringe::telescope::summarise(model);
    (void)fringe::telescope::format_summary(model, summary);
  });
  return 0;
}
