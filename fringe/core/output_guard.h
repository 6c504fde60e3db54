// Output safety: the one place that decides whether a run may write a path.
//
// The rule (docs/reliability.md): a run may replace an existing path only when it is an
// earlier output of the same kind (a Measurement Set, a casacore table of the same type, a
// FITS file, a text file with the same first-line signature), and only after the new output
// is complete. Anything else that is there (a folder of other files, a file of another kind,
// an input of the same run) is refused before any work starts, with the settings key, the
// path and what is there. Outputs are built under a temporary name beside the final one,
// registered with fringe::interrupt so that SIGINT/SIGTERM remove them, and renamed into
// place by commit_output(). Nothing here deletes a path the run did not create, except a
// verified earlier output at the moment it is replaced.
//
// casacore-free: a casacore table folder is recognised by its table.dat and the "Type = ..."
// line of its table.info (both written by every casacore table).
#pragma once

#include <string>
#include <vector>

namespace fringe {

enum class OutputKind {
  MeasurementSet,  // casacore table folder whose table.info Type is "Measurement Set"
  CasacoreTable,   // casacore table folder; table_type (when set) must equal its Type
  Fits,            // regular file beginning with "SIMPLE  ="
  Text,            // regular text file whose first line begins with text_signature
  File,            // any regular file the run writes that has no recognisable signature:
                   // an existing one is never replaced (refused)
};

struct OutputTarget {
  // The config field ("CalibrateConfig.output_gains") or, in the app layer, the settings key that
  // names (or derives) the path; empty (a writer's own check): errors name the file instead.
  std::string key;
  std::string path;  // the final path
  OutputKind kind = OutputKind::File;
  std::string table_type;      // CasacoreTable: required "Type" in table.info ("" = any table)
  std::string text_signature;  // Text: required prefix of the first line (must not be empty)
};

// What is at path, in words for a message: "nothing", "a Measurement Set", "a casacore table
// of type 'X'", "a FITS file", "a file of 123 bytes", "a folder holding 4 entries (not a
// casacore table)", "a symbolic link to ...".
std::string describe_path(const std::string& path);

// True when path exists and is an output of target's kind (so it may be replaced).
bool is_output_of_kind(const std::string& path, const OutputTarget& target);

// True when a and b name the same file or folder, or one lies inside the other (compared
// through fs::weakly_canonical, so "./x/../ms" and "ms" are the same).
bool paths_overlap(const std::string& a, const std::string& b);

// Checks one output before any work starts; throws fringe::Error naming the key, the path
// and what is there when the path:
//  - is empty, or its parent folder does not exist or is not writable;
//  - is, contains or lies inside one of the run's inputs (files or folders);
//  - exists and is not an output of the same kind (OutputKind::File: exists at all).
void check_output(const OutputTarget& target, const std::vector<std::string>& inputs = {});

// check_output() for every target, and no two targets overlap each other.
void check_outputs(const std::vector<OutputTarget>& targets,
                   const std::vector<std::string>& inputs = {});

// A fresh temporary name beside final_path: "<final_path>.tmp-<pid>-<random hex>".
std::string temporary_path_for(const std::string& final_path);

// Moves the complete temporary output temp_path to target.path. An existing target.path is
// checked again (it must still be an output of the same kind: otherwise fringe::Error and
// the temporary is removed), moved aside, the new one moved in, then the old one deleted.
// On failure the old output is put back and the temporary removed.
void commit_output(const std::string& temp_path, const OutputTarget& target);

// A temporary output: a fresh name beside the target, registered with fringe::interrupt so
// a signal removes it; the destructor removes it unless commit() succeeded.
class TemporaryOutput {
 public:
  explicit TemporaryOutput(OutputTarget target);
  ~TemporaryOutput();
  TemporaryOutput(const TemporaryOutput&) = delete;
  TemporaryOutput& operator=(const TemporaryOutput&) = delete;

  const std::string& path() const { return temp_; }  // where to write
  const OutputTarget& target() const { return target_; }
  void commit();   // commit_output(path(), target())
  void discard();  // remove the temporary now (idempotent)
  bool committed() const { return committed_; }

 private:
  OutputTarget target_;
  std::string temp_;
  int registration_ = -1;
  bool committed_ = false;
};

// Removes a path this run created (a temporary), file or folder; never throws.
void remove_temporary(const std::string& path) noexcept;

}  // namespace fringe
