# Helpers for fringe's module libraries and tests.

# fringe_module(<name> SOURCES ... [CUDA_SOURCES ...] [DEPS ...])
# Builds the static library fringe_<name> (C++20). CUDA_SOURCES are compiled only
# when the CUDA back end is enabled; FRINGE_HAVE_CUDA is then defined (PUBLIC).
function(fringe_module name)
  cmake_parse_arguments(M "" "" "SOURCES;CUDA_SOURCES;DEPS" ${ARGN})
  set(srcs ${M_SOURCES})
  if(FRINGE_HAVE_CUDA)
    list(APPEND srcs ${M_CUDA_SOURCES})
  endif()
  add_library(fringe_${name} STATIC ${srcs})
  add_library(fringe::${name} ALIAS fringe_${name})
  target_include_directories(fringe_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_compile_features(fringe_${name} PUBLIC cxx_std_20)
  target_link_libraries(fringe_${name} PUBLIC ${M_DEPS})
  target_compile_options(fringe_${name} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall>)
  set_target_properties(fringe_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(FRINGE_HAVE_CUDA)
    target_compile_definitions(fringe_${name} PUBLIC FRINGE_HAVE_CUDA=1)
    target_link_libraries(fringe_${name} PUBLIC CUDA::cudart)
    set_target_properties(fringe_${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  endif()
endfunction()

# fringe_test(<name> SOURCES ... DEPS ... [LABELS ...])
# A GoogleTest binary test_<name>; each TEST becomes a CTest test with the labels.
function(fringe_test name)
  cmake_parse_arguments(T "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(test_${name} ${T_SOURCES})
  target_link_libraries(test_${name} PRIVATE ${T_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_${name} PRIVATE
    FRINGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}" FRINGE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  gtest_discover_tests(test_${name} DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${T_LABELS}" WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
endfunction()

# fringe_native_sources(file...): compile these sources of the current directory with
# -march=native unless FRINGE_PORTABLE is ON or the compiler lacks the flag (README, Options).
include(CheckCXXCompilerFlag)
check_cxx_compiler_flag(-march=native FRINGE_HAVE_MARCH_NATIVE)
function(fringe_native_sources)
  if(FRINGE_PORTABLE OR NOT FRINGE_HAVE_MARCH_NATIVE)
    return()
  endif()
  set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS -march=native)
endfunction()
