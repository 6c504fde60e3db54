// The message of the fringe::Error that a call throws, for tests that check what an error says
// (the file, key or dataset it names). A call that throws nothing is a test failure and gives "".
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "fringe/core/error.h"

namespace fringe::test {

template <class F>
std::string error_of(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const fringe::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no fringe::Error thrown";
  return {};
}

}  // namespace fringe::test
