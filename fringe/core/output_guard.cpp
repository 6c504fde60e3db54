#include "fringe/core/output_guard.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"

namespace fringe {

namespace fs = std::filesystem;

namespace {

// The "Type = ..." value of a casacore table's table.info ("" when absent or unreadable).
// casacore writes table.info as text: "Type = <type>\nSubType = <subtype>\n\n<readme>".
bool read_table_type(const fs::path& dir, std::string* type) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / "table.dat", ec)) return false;
  std::ifstream in(dir / "table.info");
  type->clear();
  std::string line;
  if (in && std::getline(in, line)) {
    const std::string prefix = "Type = ";
    if (line.compare(0, prefix.size(), prefix) == 0) *type = line.substr(prefix.size());
  }
  return true;
}

std::string first_line(const fs::path& file, std::size_t max_chars) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  char c;
  while (line.size() < max_chars && in.get(c) && c != '\n' && c != '\r') line.push_back(c);
  return line;
}

bool is_fits_file(const fs::path& file) {
  // FITS: the first card is "SIMPLE  =" (FITS standard 4.0, section 4.4.1.1).
  return first_line(file, 9) == "SIMPLE  =";
}

std::string kind_name(const OutputTarget& t) {
  switch (t.kind) {
    case OutputKind::MeasurementSet:
      return "a Measurement Set";
    case OutputKind::CasacoreTable:
      return t.table_type.empty() ? "a casacore table"
                                  : "a casacore table of type '" + t.table_type + "'";
    case OutputKind::Fits:
      return "a FITS file";
    case OutputKind::Text:
      return "a text file starting with '" + t.text_signature + "'";
    case OutputKind::File:
      break;
  }
  return "a new file";
}

// Names the field (the app layer shows its settings key) and the path; a target without one (a
// writer's own check: it does not know what named its path) names the file instead.
Error refuse(const OutputTarget& t, const std::string& why) {
  if (t.key.empty()) return Error::in_file(t.path, 0, why);
  return Error::in_field(t.key, t.path, why);
}

fs::path canonical_or_lexical(const std::string& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
  if (ec) c = fs::absolute(p).lexically_normal();
  return c;
}

// True when inner equals outer or lies inside it (both canonical).
bool inside(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

}  // namespace

std::string describe_path(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  const fs::file_status ls = fs::symlink_status(p, ec);
  if (ec || !fs::exists(ls)) return "nothing";
  if (fs::is_symlink(ls)) {
    const fs::path target = fs::read_symlink(p, ec);
    return "a symbolic link to '" + target.string() + "'";
  }
  if (fs::is_directory(ls)) {
    std::string type;
    if (read_table_type(p, &type)) {
      if (type == "Measurement Set") return "a Measurement Set";
      return type.empty() ? "a casacore table" : "a casacore table of type '" + type + "'";
    }
    std::size_t n = 0;
    for (auto it = fs::directory_iterator(p, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      ++n;
    }
    return "a folder holding " + std::to_string(n) + " entr" + (n == 1 ? "y" : "ies") +
           " (not a casacore table)";
  }
  if (fs::is_regular_file(ls)) {
    if (is_fits_file(p)) return "a FITS file";
    const auto size = fs::file_size(p, ec);
    return "a file of " + std::to_string(ec ? 0 : size) + " bytes";
  }
  return "a special file (device, socket or pipe)";
}

bool is_output_of_kind(const std::string& path, const OutputTarget& t) {
  std::error_code ec;
  const fs::path p(path);
  const fs::file_status ls = fs::symlink_status(p, ec);
  if (ec || !fs::exists(ls) || fs::is_symlink(ls)) return false;
  switch (t.kind) {
    case OutputKind::MeasurementSet:
    case OutputKind::CasacoreTable: {
      if (!fs::is_directory(ls)) return false;
      std::string type;
      if (!read_table_type(p, &type)) return false;
      if (t.kind == OutputKind::MeasurementSet) return type == "Measurement Set";
      return t.table_type.empty() || type == t.table_type;
    }
    case OutputKind::Fits:
      return fs::is_regular_file(ls) && is_fits_file(p);
    case OutputKind::Text:
      if (t.text_signature.empty() || !fs::is_regular_file(ls)) return false;
      return first_line(p, t.text_signature.size()) == t.text_signature;
    case OutputKind::File:
      return false;
  }
  return false;
}

bool paths_overlap(const std::string& a, const std::string& b) {
  const fs::path ca = canonical_or_lexical(a), cb = canonical_or_lexical(b);
  return inside(ca, cb) || inside(cb, ca);
}

void check_output(const OutputTarget& t, const std::vector<std::string>& inputs) {
  if (t.path.empty()) throw refuse(t, "the output path is empty");
  std::error_code ec;
  const fs::path p(t.path);
  for (const std::string& in : inputs) {
    if (in.empty()) continue;
    if (paths_overlap(t.path, in)) {
      throw refuse(t, "the output would overwrite or contain the run's input '" + in +
                          "': choose another output path");
    }
  }
  const fs::path parent = fs::absolute(p, ec).parent_path();
  if (!fs::is_directory(parent, ec)) {
    throw refuse(t, "the folder '" + parent.string() + "' for the output does not exist");
  }
  if (::access(parent.c_str(), W_OK | X_OK) != 0) {
    throw refuse(t, "the folder '" + parent.string() + "' for the output is not writable");
  }
  const fs::file_status ls = fs::symlink_status(p, ec);
  if (!ec && fs::exists(ls) && !is_output_of_kind(t.path, t)) {
    throw refuse(t, "refusing to replace " + describe_path(t.path) +
                        " there: only an earlier output (" + kind_name(t) +
                        ") may be replaced; choose another path or move it away");
  }
}

void check_outputs(const std::vector<OutputTarget>& targets,
                   const std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < targets.size(); ++i) {
    check_output(targets[i], inputs);
    for (std::size_t j = 0; j < i; ++j) {
      if (paths_overlap(targets[i].path, targets[j].path)) {
        throw refuse(targets[i], "the output overlaps another output of the run ('" +
                                     targets[j].path + "', setting '" + targets[j].key + "')");
      }
    }
  }
}

std::string temporary_path_for(const std::string& final_path) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ".tmp-%ld-%08x", static_cast<long>(::getpid()),
                static_cast<unsigned>(rng()));
  std::string p = final_path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p + suffix;
}

void remove_temporary(const std::string& path) noexcept {
  if (path.empty()) return;
  std::error_code ec;
  fs::remove_all(path, ec);
}

void commit_output(const std::string& temp_path, const OutputTarget& t) {
  std::error_code ec;
  const fs::path final_path(t.path);
  std::string old_path;
  const fs::file_status ls = fs::symlink_status(final_path, ec);
  if (!ec && fs::exists(ls)) {
    // Checked again: something may have appeared at the path while the run was working.
    if (!is_output_of_kind(t.path, t)) {
      remove_temporary(temp_path);
      throw refuse(t, "refusing to replace " + describe_path(t.path) +
                          " that appeared there during the run (expected " + kind_name(t) + ")");
    }
    old_path = temporary_path_for(t.path) + ".old";
    fs::rename(final_path, old_path, ec);
    if (ec) {
      remove_temporary(temp_path);
      throw refuse(t, "cannot move the earlier output aside: " + ec.message());
    }
  }
  fs::rename(temp_path, final_path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::error_code ec2;
    if (!old_path.empty()) fs::rename(old_path, final_path, ec2);
    remove_temporary(temp_path);
    throw refuse(t, "cannot rename the finished output from '" + temp_path + "': " + why);
  }
  // The old output was verified above to be an earlier output of the same kind.
  if (!old_path.empty()) remove_temporary(old_path);
}

TemporaryOutput::TemporaryOutput(OutputTarget target)
    : target_(std::move(target)), temp_(temporary_path_for(target_.path)) {
  registration_ = interrupt::register_temporary(temp_);
}

TemporaryOutput::~TemporaryOutput() {
  if (!committed_) remove_temporary(temp_);
  interrupt::unregister_temporary(registration_);
}

void TemporaryOutput::commit() {
  if (committed_) return;
  commit_output(temp_, target_);
  committed_ = true;
}

void TemporaryOutput::discard() {
  if (!committed_) remove_temporary(temp_);
}

}  // namespace fringe
