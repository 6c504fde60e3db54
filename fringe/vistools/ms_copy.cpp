#include "fringe/vistools/ms_copy.h"

#include <filesystem>
#include <system_error>

#include "fringe/vistools/inputs.h"

namespace fringe::vistools {
namespace fs = std::filesystem;

OutputTarget ms_target(const std::string& path) {
  OutputTarget t;
  t.path = path;
  t.kind = OutputKind::MeasurementSet;
  return t;
}

void copy_ms(const std::string& source, const TemporaryOutput& out) {
  std::error_code ec;
  fs::copy(source, out.path(), fs::copy_options::recursive, ec);
  if (ec) {
    throw RunFailure("copying the Measurement Set '" + source + "' to '" + out.path() +
                     "' failed: " + ec.message());
  }
}

}  // namespace fringe::vistools
