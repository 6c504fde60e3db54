#include "fringe/app/vis_tool_cli.h"

#include <iostream>
#include <sstream>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/vistools/inputs.h"

namespace fringe::app {
namespace {

constexpr int kOk = 0;
constexpr int kRunFailed = 1;
constexpr int kBadInput = 2;

const ToolFlag* find_flag(const ToolSpec& spec, const std::string& arg) {
  for (const auto& f : spec.flags) {
    if (arg == f.name || (!f.long_name.empty() && arg == f.long_name)) return &f;
  }
  return nullptr;
}

}  // namespace

bool ToolArgs::is_set(const std::string& name) const {
  auto it = given.find(name);
  return it != given.end() && it->second;
}

const std::string& ToolArgs::get(const std::string& name) const {
  static const std::string empty;
  auto it = values.find(name);
  return it == values.end() ? empty : it->second;
}

ToolArgs parse_tool_args(int argc, const char* const* argv, const ToolSpec& spec, bool* help,
                         bool* version) {
  ToolArgs a;
  for (const auto& f : spec.flags) {
    if (f.takes_value) a.values[f.name] = f.default_value;
  }
  *help = *version = false;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--help" || s == "-h") {
      *help = true;
      return a;
    }
    if (s == "--version") {
      *version = true;
      return a;
    }
    if (s.size() > 1 && s[0] == '-') {
      const ToolFlag* f = find_flag(spec, s);
      if (!f) throw Error("unknown option '" + s + "' (see --help)");
      a.given[f->name] = true;
      if (f->takes_value) {
        if (i + 1 >= argc) throw Error("option '" + s + "' needs a value");
        a.values[f->name] = argv[++i];
      }
    } else {
      a.inputs.push_back(s);
    }
  }
  if (int(a.inputs.size()) < spec.min_inputs) {
    throw Error("expected at least " + std::to_string(spec.min_inputs) + " input file" +
                (spec.min_inputs == 1 ? "" : "s") + " (" + spec.inputs_label + "), got " +
                std::to_string(a.inputs.size()));
  }
  return a;
}

std::string tool_usage(const ToolSpec& spec) {
  std::ostringstream o;
  o << spec.name << " (fringe " << spec.version << "; OSKAR's " << spec.oskar_name << ")\n\n"
    << spec.description << "\n\nUsage:\n  " << spec.name << " [options] " << spec.inputs_label
    << "\n\nOptions:\n";
  for (const auto& f : spec.flags) {
    std::string names = f.name + (f.long_name.empty() ? "" : ", " + f.long_name);
    if (f.takes_value) names += " <value>";
    o << "  " << names << std::string(names.size() < 26 ? 26 - names.size() : 1, ' ') << f.help;
    if (f.takes_value && !f.default_value.empty()) o << " (default: " << f.default_value << ")";
    o << "\n";
  }
  o << "  --help                    Display usage instructions and exit.\n"
    << "  --version                 Display the program name and version and exit.\n";
  if (!spec.examples.empty()) {
    o << "\nExamples:\n";
    for (const auto& e : spec.examples) o << "  " << e << "\n";
  }
  o << "\nExit codes: 0 ok, 1 the run failed, 2 bad input. See docs/vis_tools.md.\n";
  return o.str();
}

int run_tool(int argc, const char* const* argv, const ToolSpec& spec, const ToolRun& run,
             std::ostream& out, std::ostream& err) {
  ToolArgs args;
  try {
    bool help = false, version = false;
    args = parse_tool_args(argc, argv, spec, &help, &version);
    if (help) {
      out << tool_usage(spec);
      return kOk;
    }
    if (version) {
      out << spec.name << " (fringe) " << spec.version << "\n";
      return kOk;
    }
  } catch (const Error& e) {
    err << "error: " << e.what() << "\n\n" << tool_usage(spec);
    return kBadInput;
  }
  try {
    interrupt::install();
    run(args, out, err);
    interrupt::throw_if_requested();
  } catch (const interrupt::Cancelled& e) {
    err << "error: " << e.what() << "\n";
    return 128 + e.signal_number();
  } catch (const vistools::RunFailure& e) {
    err << "error: " << e.what() << "\n";
    return kRunFailed;
  } catch (const Error& e) {
    err << "error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return kRunFailed;
  }
  return kOk;
}

int run_tool(int argc, const char* const* argv, const ToolSpec& spec, const ToolRun& run) {
  return run_tool(argc, argv, spec, run, std::cout, std::cerr);
}

}  // namespace fringe::app
