// The writers' own use of fringe/core/output_guard.h (docs/reliability.md): each writer
// checks its target when it is constructed (defence in depth: the apps have already checked
// all their outputs and inputs, with the settings keys) and moves its complete temporary
// into place only through commit_output(). A writer does not know the settings key that
// named its path, so, for a target without a key, these errors name the file instead.
// Header-only (used by fringe/io/ms, which is C++17, and by the C++20 modules).
#pragma once

#include <string>

#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"

namespace fringe::io {

// check_output(target); an error is reported against the file when target.key is empty.
inline void check_writer_target(const OutputTarget& target) {
  try {
    check_output(target);
  } catch (const Error& e) {
    if (!target.key.empty()) throw;
    throw Error::in_file(target.path, 0, e.message());
  }
}

// temp.commit() with the same error naming as check_writer_target().
inline void commit_writer_output(TemporaryOutput& temp) {
  try {
    temp.commit();
  } catch (const Error& e) {
    if (!temp.target().key.empty()) throw;
    throw Error::in_file(temp.target().path, 0, e.message());
  }
}

}  // namespace fringe::io
