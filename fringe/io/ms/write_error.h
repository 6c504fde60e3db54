// Internal to fringe/io/ms: the text of a casacore exception from a failed write, with a
// hint. casacore reports a failed write(2) as "FiledesIO::write - write error in <file>"
// followed by a stale errno text (often "No such file or directory"), which hides the usual
// cause: a full disk or a file-size limit (ENOSPC, EFBIG).
#pragma once

#include <string>

namespace fringe::io::detail {

inline std::string write_failure_text(const std::string& what) {
  if (what.find("write error") == std::string::npos) return what;
  return what + " (is the disk full, or a file-size limit reached?)";
}

}  // namespace fringe::io::detail
