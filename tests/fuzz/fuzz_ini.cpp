// libFuzzer target: OSKAR-style INI settings files (fringe/settings/ini.h).
// The input is the file's text: parsed, applied to sim_interferometer's schema (compiled in),
// validated, written back with format_ini and parsed again.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/schema.h"
#include "fringe/settings/settings.h"
#include "tests/fuzz/fuzz_support.h"

namespace {
const fringe::settings::Schema& schema() {
  static const fringe::settings::Schema s = fringe::settings::Schema::load(
      fringe::settings::embedded_schemas(), "sim_interferometer.xml");
  return s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fringe::settings;
  fringe::fuzz::expect_clean_failure("ini", [&] {
    std::istringstream in{std::string(fringe::fuzz::as_text(data, size))};
    const IniFile ini = parse_ini(in, "fuzz.ini");
    Settings settings(schema());
    settings.set_base_dir(fringe::fuzz::scratch().path().string());
    apply_ini(settings, ini);
    (void)settings.validate();
    std::istringstream again{format_ini(settings, "sim_interferometer", "2.13")};
    (void)parse_ini(again, "fuzz-rewritten.ini");
  });
  return 0;
}
