// The command line shared by fringe's settings-driven apps (OSKAR's; docs/settings.md):
//   app [-q] [--strict] settings.ini    validate the file, then run
//   app --get settings.ini key          print the value (or default) of key
//   app --set settings.ini key [value]  set key (reset to default without value): only the
//                                       key's line changes (added or removed; a value equal
//                                       to the default removes it); every other line stays
//                                       byte for byte; the file is created when missing
//   app --settings                      print the schema XML (imports inlined)
//   app --version | --help
// --force: run although the run-size estimate exceeds the free disk or memory.
// -q: only warnings and errors are logged. --strict: warnings (unknown keys, keys ignored
// because of their dependencies, an app= of another program) count as errors.
// Exit codes: 0 ok, 1 the run failed, 2 bad input (command line, settings file, values),
// 128 + signal when SIGINT/SIGTERM/SIGHUP stopped the run (temporaries removed).
// Problems go to stderr as "error: ..." / "warning: ...".
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/settings/schema.h"
#include "fringe/settings/settings.h"

namespace fringe::settings {

struct AppInfo {
  std::string name;        // e.g. "sim_interferometer"
  std::string oskar_name;  // e.g. "oskar_sim_interferometer": app= also accepted in files
  std::string version;     // fringe's version
  std::string summary;     // one line for --help
  const SchemaFiles* schema_files = nullptr;
  std::string root_schema;  // e.g. "sim_interferometer.xml"
};

// What the command line asked for, passed on to the run.
struct RunOptions {
  bool strict = false;        // --strict: malformed input lines are errors, not warnings
  bool quiet = false;         // -q
  bool force = false;         // --force: run although the size estimate exceeds free disk/memory
  std::string settings_file;  // the settings file of the run, as given (an input of the run)
  bool timing = false;        // --timing: the stage times as one JSON line on stdout
};

// Thrown by a run when its input (a file the settings name) is bad: exit code 2, not 1.
class InputError : public Error {
 public:
  using Error::Error;
  explicit InputError(const Error& e) : Error(e.message(), e.context()) {}
};

// Runs with validated settings; throws fringe::Error (or std::exception) when the run fails,
// InputError when an input file is bad.
using RunFunction = std::function<void(Settings&, Logger&, const RunOptions&)>;

int run_app(int argc, const char* const* argv, const AppInfo& app, const RunFunction& run,
            std::ostream& out, std::ostream& err);
int run_app(int argc, const char* const* argv, const AppInfo& app, const RunFunction& run);

// Text helpers for the apps' run logs: a number with up to 10 significant digits, and the
// lines of a multi-line text.
std::string format_number(double value);
std::vector<std::string> split_lines(const std::string& text);

}  // namespace fringe::settings
