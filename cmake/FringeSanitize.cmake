# Sanitizer and fuzzing builds (docs/reliability/fuzzing.md; scripts/sanitize, scripts/fuzz).
#
#   -DFRINGE_SANITIZE=address,undefined   every C/C++ target is compiled and linked with
#                                         -fsanitize=<list> -fno-omit-frame-pointer; undefined
#                                         behaviour aborts (-fno-sanitize-recover) so ctest sees it,
#                                         except the null-reference check: recoverable so that
#                                         tests/fuzz/ubsan.supp can suppress casacore's (the
#                                         scripts run with UBSAN_OPTIONS=halt_on_error=1).
#   -DFRINGE_FUZZ=ON                      clang only: libraries get -fsanitize=fuzzer-no-link,
#                                         address,undefined and tests/fuzz builds the libFuzzer
#                                         targets fuzz_<name> (linked with -fsanitize=fuzzer).
# Without FRINGE_FUZZ, tests/fuzz (when FRINGE_TESTS is on) builds the same targets with a plain
# main() that replays the checked-in corpus and regressions as unit tests.
# Both need the CUDA back end off (-DFRINGE_CUDA=OFF): nvcc does not take these flags.
# Included after FringeDependencies (FRINGE_HAVE_CUDA), before the module libraries.
set(FRINGE_SANITIZE "" CACHE STRING "Sanitizers for every target, e.g. address,undefined")
option(FRINGE_FUZZ "Build the libFuzzer targets of tests/fuzz (clang)" OFF)

if(FRINGE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "FRINGE_FUZZ=ON needs clang (e.g. CXX=clang++-14), not "
                        "${CMAKE_CXX_COMPILER_ID}")
  endif()
  set(FRINGE_SANITIZE "address,undefined")
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>)
endif()

if(FRINGE_SANITIZE)
  if(FRINGE_HAVE_CUDA)
    message(FATAL_ERROR "FRINGE_SANITIZE/FRINGE_FUZZ need -DFRINGE_CUDA=OFF")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=${FRINGE_SANITIZE}>"
                      $<$<COMPILE_LANGUAGE:C,CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:C,CXX>:-fno-sanitize-recover=all>
                      $<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize-recover=null>)
  add_link_options(-fsanitize=${FRINGE_SANITIZE})
  message(STATUS "fringe: sanitizers ${FRINGE_SANITIZE}")
endif()

# tests/fuzz: libFuzzer targets (FRINGE_FUZZ) or their corpus replays (unit tests). Included
# at the end of the top-level CMakeLists.txt (deferred): it uses the module libraries and their
# helpers.
if((FRINGE_FUZZ OR FRINGE_TESTS) AND EXISTS ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_targets.cmake)
  cmake_language(DEFER CALL include ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_targets.cmake)
endif()
