#include "fringe/settings/app_cli.h"

#include "fringe/core/interrupt.h"

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/ini_document.h"

namespace fringe::settings {
namespace {

namespace fs = std::filesystem;

constexpr int kOk = 0;
constexpr int kRunFailed = 1;
constexpr int kBadInput = 2;

void usage(std::ostream& o, const AppInfo& app) {
  o << "Usage:\n"
    << "  " << app.name << " [-q] [--strict] [--force] [--timing] settings.ini\n"
    << "  " << app.name << " --get settings.ini key\n"
    << "  " << app.name << " --set settings.ini key [value]\n"
    << "  " << app.name << " --settings | --version | --help\n";
  if (!app.summary.empty()) o << "\n" << app.summary << "\n";
  o << "\nOptions:\n"
    << "  -q, --quiet     log only warnings and errors\n"
    << "  --strict        treat warnings (e.g. unknown keys, all-zero output) as errors\n"
    << "  --force         run even when the estimated output or memory exceeds what is free\n"
    << "  --timing        print the run's stage times as one JSON line on stdout at the end\n"
    << "                  (apps that time their stages: imager)\n"
    << "  --get INI KEY   print the value of KEY (its default when not in the file)\n"
    << "  --set INI KEY [VALUE]\n"
    << "                  set KEY (reset it to its default without VALUE): only KEY's line\n"
    << "                  of INI changes, comments and other lines stay (INI is created\n"
    << "                  if missing); VALUE may start with '-' (-45); write -- before\n"
    << "                  a VALUE that is one of these options\n"
    << "  --settings      print the settings schema (XML)\n"
    << "  --version       print the version\n"
    << "  -h, --help      print this help\n"
    << "\nRelative paths in settings files are relative to the settings file's folder.\n"
    << "Exit codes: 0 ok, 1 run failed, 2 bad input, 130/143 stopped by SIGINT/SIGTERM\n"
    << "(temporary outputs removed).\n";
}

struct Args {
  bool help = false, version = false, print_settings = false, quiet = false, strict = false,
       force = false, timing = false;
  std::optional<std::string> mode;  // "get" or "set"
  std::vector<std::string> positional;
};

// True for a word that reads as a number ("-45", "-1.5e3", "-.5"): a value, never an option.
bool is_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  (void)std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// The options this command line knows (for the --set VALUE slot below).
bool is_known_option(const std::string& s) {
  return s == "-h" || s == "--help" || s == "--version" || s == "--settings" || s == "-q" ||
         s == "--quiet" || s == "--strict" || s == "--force" || s == "--timing" || s == "--get" ||
         s == "--set" || s == "--";
}

// The arguments after --set and --get are positional (FILE KEY [VALUE]), as in OSKAR's apps:
// a value that starts with '-' ("-45" for phase_centre_dec_deg, "-1e3") is the value, not an
// option. So a word that reads as a number is always positional, and in the VALUE slot of
// --set (after FILE and KEY) any word that is not one of the options above is the value
// ("-12:30:00"). "--" ends the options: every later word is positional (a value "-q").
Args parse_args(int argc, const char* const* argv) {
  Args a;
  bool options_ended = false;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    const bool value_slot = a.mode == "set" && a.positional.size() == 2;
    if (options_ended || is_number(s) || (value_slot && !is_known_option(s))) {
      a.positional.push_back(s);
    } else if (s == "--") {
      options_ended = true;
    } else if (s == "-h" || s == "--help") {
      a.help = true;
    } else if (s == "--version") {
      a.version = true;
    } else if (s == "--settings") {
      a.print_settings = true;
    } else if (s == "-q" || s == "--quiet") {
      a.quiet = true;
    } else if (s == "--strict") {
      a.strict = true;
    } else if (s == "--force") {
      a.force = true;
    } else if (s == "--timing") {
      a.timing = true;
    } else if (s == "--get" || s == "--set") {
      if (a.mode) throw Error("give only one of --get and --set");
      a.mode = s.substr(2);
    } else if (s.size() > 1 && s[0] == '-') {
      throw Error("unknown option '" + s + "' (see --help)");
    } else {
      a.positional.push_back(s);
    }
  }
  return a;
}

// Prints problems; returns the number that count as errors.
int report(std::ostream& err, const std::vector<Problem>& problems, bool strict) {
  int errors = 0;
  for (const auto& p : problems) {
    const bool is_error = !p.warning || strict;
    err << (is_error ? "error: " : "warning: ") << p.text() << "\n";
    errors += is_error ? 1 : 0;
  }
  return errors;
}

Problem unknown_key_problem(const Settings& s, const std::string& key) {
  Problem p;
  p.key = key;
  if (s.schema().find(key)) {
    p.message = "is a group of settings, not a setting";
  } else {
    p.message = "unknown setting";
    std::string hint = suggest_key(s.schema(), key);
    if (!hint.empty()) p.message += " (did you mean '" + hint + "'?)";
  }
  return p;
}

// True when two keys name the same setting (keys match case-insensitively).
bool iequals_key(const Settings& s, const std::string& a, const std::string& b) {
  const SettingNode* na = s.schema().find(a);
  const SettingNode* nb = s.schema().find(b);
  return na && na == nb;
}

bool app_matches(const AppInfo& app, const std::string& file_app) {
  return file_app.empty() || file_app == app.name || file_app == app.oskar_name;
}

int do_get(const Args& a, Settings& s, std::ostream& out, std::ostream& err) {
  if (a.positional.size() != 2) throw Error("--get needs a settings file and a key");
  const std::string& path = a.positional[0];
  const std::string& key = a.positional[1];
  if (!s.has(key)) return report(err, {unknown_key_problem(s, key)}, true) ? kBadInput : kOk;
  LoadReport r = load_ini(s, path);
  for (const auto& p : r.errors) {
    if (iequals_key(s, p.key, key)) return report(err, {p}, true) ? kBadInput : kOk;
  }
  report(err, r.warnings, false);
  out << s.get(key) << "\n";
  return kOk;
}

// --set: edits the one line of key in place (IniDocument), so comments, unknown keys and
// everything else in the file stay. Problems elsewhere in the file are reported (as errors
// with --strict, and then the file is left alone) but kept as they are.
int do_set(const Args& a, const AppInfo& app, Settings& s, std::ostream& err) {
  if (a.positional.size() < 2 || a.positional.size() > 3)
    throw Error("--set needs a settings file, a key and optionally a value");
  const std::string& path = a.positional[0];
  const std::string& key = a.positional[1];
  if (!s.has(key)) return report(err, {unknown_key_problem(s, key)}, true) ? kBadInput : kOk;
  IniDocument doc = IniDocument::read(path);
  std::error_code ec;
  if (fs::exists(path, ec)) {
    LoadReport r = load_ini(s, path);
    std::vector<Problem> others;
    for (const auto& p : r.errors)
      if (!iequals_key(s, p.key, key)) others.push_back(p);
    for (const auto& p : r.warnings)
      if (!iequals_key(s, p.key, key)) others.push_back(p);
    for (auto& p : others) {
      p.warning = true;
      p.message += " (left as it is in the file)";
    }
    if (report(err, others, a.strict) > 0) {
      err << "error: not changing '" << path << "' (--strict): fix the lines above first\n";
      return kBadInput;
    }
  }
  if (doc.empty()) doc.add_header(app.name, app.version);
  if (a.positional.size() == 3)
    s.set(key, a.positional[2]);  // throws (exit 2) for a bad value: the file stays as it was
  else
    s.reset(key);
  const std::string canonical = s.schema().find(key)->key;
  // A value equal to the default is written as no line, as OSKAR does.
  if (s.is_default(canonical))
    doc.remove(s.schema(), canonical);
  else
    doc.set(s.schema(), canonical, s.get(canonical));
  interrupt::install();  // SIGINT/SIGTERM while writing: the temporary is removed
  try {
    doc.write(path);
  } catch (const Error& e) {  // the input was fine: a failed write is a failed run
    err << "error: " << e.what() << "\n";
    return kRunFailed;
  }
  return kOk;
}

}  // namespace

int run_app(int argc, const char* const* argv, const AppInfo& app, const RunFunction& run,
            std::ostream& out, std::ostream& err) {
  Args args;
  try {
    args = parse_args(argc, argv);
  } catch (const Error& e) {
    err << "error: " << e.what() << "\n";
    return kBadInput;
  }
  if (args.help) {
    usage(out, app);
    return kOk;
  }
  if (args.version) {
    out << app.name << " (fringe) " << app.version << "\n";
    return kOk;
  }
  std::optional<Schema> schema;
  try {
    if (!app.schema_files) throw Error("no settings schema compiled in");
    schema = Schema::load(*app.schema_files, app.root_schema);
  } catch (const std::exception& e) {
    err << "error: settings schema: " << e.what() << "\n";
    return kRunFailed;
  }
  if (args.print_settings) {
    out << schema->merged_xml();
    return kOk;
  }
  Settings settings(std::move(*schema));
  try {
    if (args.mode == "get") return do_get(args, settings, out, err);
    if (args.mode == "set") return do_set(args, app, settings, err);
    if (args.positional.size() != 1) {
      usage(err, app);
      return kBadInput;
    }
    const std::string& path = args.positional[0];
    IniFile ini;
    LoadReport r = load_ini(settings, path, &ini);
    std::vector<Problem> problems = r.errors;
    problems.insert(problems.end(), r.warnings.begin(), r.warnings.end());
    if (!app_matches(app, ini.app)) {
      Problem p;
      p.file = path;
      p.message = "the file was written for '" + ini.app + "', not " + app.name;
      p.warning = true;
      problems.push_back(p);
    }
    for (auto& p : settings.validate()) problems.push_back(std::move(p));
    if (report(err, problems, args.strict) > 0) return kBadInput;
    Logger logger(out);
    if (args.quiet) logger.set_level(LogLevel::Warning);
    try {
      interrupt::install();
      run(settings, logger, RunOptions{args.strict, args.quiet, args.force, path, args.timing});
      interrupt::throw_if_requested();
    } catch (const interrupt::Cancelled& e) {
      err << "error: " << e.what() << "\n";
      return 128 + e.signal_number();
    } catch (const InputError& e) {
      err << "error: " << e.what() << "\n";
      return kBadInput;
    } catch (const std::exception& e) {
      err << "error: " << e.what() << "\n";
      return kRunFailed;
    }
    return kOk;
  } catch (const Error& e) {
    err << "error: " << e.what() << "\n";
    return kBadInput;
  }
}

int run_app(int argc, const char* const* argv, const AppInfo& app, const RunFunction& run) {
  return run_app(argc, argv, app, run, std::cout, std::cerr);
}

std::string format_number(double value) {
  std::ostringstream ss;
  ss.precision(10);
  ss << value;
  return ss.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace fringe::settings
