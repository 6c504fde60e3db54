// libFuzzer target: OSKAR text sky models (fringe/sky/sky_text_reader.h), fixed and named
// columns. The input is written to a scratch file and read by the dispatching reader
// (read_sky_text), leniently and with strict=true, then by each reader directly.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fringe/sky/sky_text_reader.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fringe::sky;
  const std::string path =
      fringe::fuzz::scratch().write("sky.osm", fringe::fuzz::as_text(data, size)).string();
  for (const bool strict : {false, true}) {
    fringe::fuzz::expect_clean_failure("osm", [&] {
      std::vector<std::string> warnings;
      TextReadOptions options;
      options.strict = strict;
      options.diagnostics.warnings = &warnings;
      (void)read_sky_text(path, options);
    });
  }
  // Each reader on its own too, whatever the dispatch would choose.
  fringe::fuzz::expect_clean_failure("osm fixed", [&] { (void)read_sky_fixed_columns(path); });
  fringe::fuzz::expect_clean_failure("osm named", [&] { (void)read_sky_named_columns(path); });
  return 0;
}
