// Inputs and outputs shared by the vis tools (docs/vis_tools.md): what kind of data set a
// path names, OSKAR's rule for files that may be combined, the output name of
// vis_add_noise, and the error of a run whose writing failed.
// Errors are fringe::Error naming the file (and, from the .vis reader, the chunk).
#pragma once

#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/io/vis/vis_file.h"

namespace fringe::vistools {

// Writing an output failed (disk full, I/O error): the run failed (exit 1), the input was fine.
// Every other fringe::Error of the tools is about the input (exit 2).
class RunFailure : public Error {
 public:
  using Error::Error;
  explicit RunFailure(const Error& e) : Error(e.message(), e.context()) {}
};

// Runs f; a fringe::Error it throws becomes a RunFailure (for the write calls of a run).
template <typename F>
void as_run_failure(F&& f) {
  try {
    f();
  } catch (const RunFailure&) {
    throw;
  } catch (const Error& e) {
    throw RunFailure(e);
  }
}

enum class DataSetKind { VisFile, MeasurementSet };

// A Measurement Set when path is a folder holding table.dat, else an OSKAR .vis file. Throws
// fringe::Error naming the path when nothing is there.
DataSetKind data_set_kind(const std::string& path);

// All inputs of one kind; throws fringe::Error naming the first path of the other kind.
DataSetKind common_kind(const std::vector<std::string>& paths);

// Why header b cannot be combined with header a under OSKAR's rule (oskar_vis_add: total and
// per-block channel and time counts, stations, start frequency and spacing, amplitude and
// polarisation types), or "" when it can.
std::string incompatibility(const io::VisFileHeader& a, const io::VisFileHeader& b);

// vis_add_noise's output name: "<name without .vis>_noise.vis" for a .vis file (OSKAR's rule;
// a name not ending in .vis keeps its whole name), "<name without .ms/.MS>_noise.ms" (the
// extension's case kept) for a Measurement Set.
std::string noise_output_path(const std::string& input, DataSetKind kind);

}  // namespace fringe::vistools
