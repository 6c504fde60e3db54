// The command line of the vis tools (vis_to_ms, vis_add, vis_add_noise, vis_summary;
// docs/vis_tools.md), shaped like OSKAR's option parser so that OSKAR's invocations work:
//   tool [flags] files...     flags anywhere, each short or long ("-o x" or "--output x")
//   tool --help | --version
// Exit codes (docs/reliability.md): 0 ok; 1 the run failed (writing an output, a
// vistools::RunFailure, or any other exception); 2 bad input (command line, a missing, bad or
// mismatched input file, an output path that holds something else: fringe::Error); 128 +
// signal when SIGINT/SIGTERM/SIGHUP stopped the run (temporaries removed).
// Problems go to stderr as "error: ..." / "warning: ...".
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fringe::app {

struct ToolFlag {
  std::string name;       // "-o"
  std::string long_name;  // "--output" ("" = none)
  std::string help;
  bool takes_value = false;
  std::string default_value;  // of a flag that takes a value
};

// A flag without a value ("-p") and one with a value and its default ("-o out.ms").
inline ToolFlag switch_flag(std::string name, std::string long_name, std::string help) {
  return ToolFlag{std::move(name), std::move(long_name), std::move(help), false, ""};
}
inline ToolFlag value_flag(std::string name, std::string long_name, std::string help,
                           std::string default_value) {
  return ToolFlag{std::move(name), std::move(long_name), std::move(help), true,
                  std::move(default_value)};
}

struct ToolSpec {
  std::string name;        // "vis_add"
  std::string oskar_name;  // "oskar_vis_add"
  std::string version;
  std::string description;
  std::string inputs_label;  // "OSKAR visibility files..."
  int min_inputs = 1;
  std::vector<ToolFlag> flags;
  std::vector<std::string> examples;
};

struct ToolArgs {
  std::vector<std::string> inputs;
  std::map<std::string, std::string> values;  // by flag name: given or default value
  std::map<std::string, bool> given;          // by flag name
  bool is_set(const std::string& name) const;
  const std::string& get(const std::string& name) const;
};

// Parses the command line; throws fringe::Error for an unknown flag, a missing value or too
// few inputs. help/version are set for --help/--version.
ToolArgs parse_tool_args(int argc, const char* const* argv, const ToolSpec& spec, bool* help,
                         bool* version);

// The usage text.
std::string tool_usage(const ToolSpec& spec);

using ToolRun = std::function<void(const ToolArgs&, std::ostream& out, std::ostream& err)>;

// Parses the command line and runs run, mapping its exceptions to exit codes (above).
int run_tool(int argc, const char* const* argv, const ToolSpec& spec, const ToolRun& run,
             std::ostream& out, std::ostream& err);
int run_tool(int argc, const char* const* argv, const ToolSpec& spec, const ToolRun& run);

}  // namespace fringe::app
