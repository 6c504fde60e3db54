# Fuzz targets (docs/reliability/fuzzing.md), included by cmake/FringeSanitize.cmake.
# fuzz_<name> is a libFuzzer binary when FRINGE_FUZZ is on (clang, scripts/fuzz), else a replay
# program (replay_main.cpp). Either way the test fuzz.<name>.replay runs it on the checked-in
# seed corpus (corpus/<name>/) and the crash regressions (regressions/<name>/): label fuzz in the
# fuzzing build, unit otherwise.
set(fuzz_dir ${CMAKE_CURRENT_LIST_DIR})

function(fringe_fuzz_target name)
  cmake_parse_arguments(F "" "" "SOURCES;DEPS" ${ARGN})
  list(TRANSFORM F_SOURCES PREPEND ${fuzz_dir}/ REGEX "^[^/]")
  add_executable(fuzz_${name} ${F_SOURCES})
  target_include_directories(fuzz_${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(fuzz_${name} PRIVATE ${F_DEPS})
  target_compile_options(fuzz_${name} PRIVATE -Wall -Wextra)
  if(FRINGE_FUZZ)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    set(label fuzz)
  else()
    target_sources(fuzz_${name} PRIVATE ${fuzz_dir}/replay_main.cpp)
    set(label unit)
  endif()
  # Files, not folders: given a folder, libFuzzer would start fuzzing it.
  file(GLOB inputs CONFIGURE_DEPENDS ${fuzz_dir}/corpus/${name}/* ${fuzz_dir}/regressions/${name}/*)
  list(FILTER inputs EXCLUDE REGEX "/README[^/]*$")
  add_test(NAME fuzz.${name}.replay COMMAND fuzz_${name} ${inputs})
  # As scripts/fuzz: a failed allocation returns null (CFITSIO checks), outside ASan too; the
  # suppressions of the libraries' own findings (ignored without sanitizers).
  set_tests_properties(fuzz.${name}.replay PROPERTIES LABELS ${label}
    ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1;LSAN_OPTIONS=suppressions=${fuzz_dir}/lsan.supp;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=${fuzz_dir}/ubsan.supp")
endfunction()

fringe_fuzz_target(ini SOURCES fuzz_ini.cpp DEPS fringe::settings)
file(GLOB fuzz_schema_common CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/settings/common/*.xml)
fringe_embed_schemas(fuzz_ini sim_interferometer.xml ${fuzz_schema_common})

fringe_fuzz_target(osm SOURCES fuzz_osm.cpp DEPS fringe::sky)
fringe_fuzz_target(tm SOURCES fuzz_tm.cpp DEPS fringe::telescope)
# The imager's model-image reader is compiled in alone (the imager library needs much more).
fringe_fuzz_target(fits SOURCES fuzz_fits.cpp ${PROJECT_SOURCE_DIR}/fringe/imager/model_image.cpp
  DEPS fringe::sky PkgConfig::CFITSIO)
target_compile_features(fuzz_fits PRIVATE cxx_std_20)
# fuzz_ms_metadata.cpp includes casacore (C++17); fuzz_ms_imager_read.cpp the imager (C++20).
fringe_fuzz_target(ms_metadata SOURCES fuzz_ms_metadata.cpp fuzz_ms_imager_read.cpp
  DEPS fringe::io_ms fringe::imager PkgConfig::CASACORE)
set_source_files_properties(${fuzz_dir}/fuzz_ms_metadata.cpp PROPERTIES COMPILE_OPTIONS -std=c++17)
