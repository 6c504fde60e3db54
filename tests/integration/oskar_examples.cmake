# Issue 18: OSKAR 2.13's own example settings files (its tutorial and its application test
# data, tests/data/oskar-examples) run in fringe unchanged, apart from the two keys the
# tutorial asks the user to set, and agree with what OSKAR 2.13 wrote for them
# (tests/data/oskar-examples/reference, made by OSKAR itself; README there).
add_executable(vis_compare ${CMAKE_CURRENT_SOURCE_DIR}/oskar_examples/vis_compare.cpp)
target_link_libraries(vis_compare PRIVATE fringe::io_vis fringe::core)
set(oskar_examples_ref ${PROJECT_SOURCE_DIR}/tests/data/oskar-examples/reference)
# oskar_example(<set> <sky file> <tolerances...>): run_example.sh's arguments; the binaries
# are gathered in one folder.
function(oskar_example set sky)
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/oskar_examples_bin)
  string(REPLACE ";" " " tolerances "${ARGN}")
  add_test(NAME integration.oskar_examples.${set}
    COMMAND bash -c "set -e; mkdir -p '${bin}'; for t in '$<TARGET_FILE:sim_interferometer>' '$<TARGET_FILE:imager>' '$<TARGET_FILE:sim_beam_pattern>' '$<TARGET_FILE:vis_compare>'; do ln -sf \"$t\" '${bin}/'; done; bash '${CMAKE_CURRENT_SOURCE_DIR}/oskar_examples/run_example.sh' ${set} ${sky} '${CMAKE_CURRENT_BINARY_DIR}/oskar_examples/${set}' '${bin}' '${oskar_examples_ref}' ${tolerances}")
  set_tests_properties(integration.oskar_examples.${set} PROPERTIES LABELS integration
    TIMEOUT 900)
endfunction()
# Tolerances (largest |fringe - OSKAR| / largest |OSKAR|; measured on this machine when they
# were set, docs/oskar_migration.md): single vs OSKAR single 1e-3 (4.1e-4: OSKAR's own
# single-precision error), single vs OSKAR double 2e-6 (4.4e-7), double vs double 1e-10
# (1.4e-12), beam-pattern samples in single precision 1e-4 (3.1e-5), DFT image 1e-6 (9.6e-8,
# the float32 storage of the reference samples), FFT and W-projection images in double 1e-6
# (the same storage floor; the full images agree to 6e-10 of the peak, docs/imager.md), the
# tutorial's imager file as shipped (FFT, single precision) 3e-3 (1.07e-3; OSKAR's own single
# image differs from its double one by 7.6e-4).
oskar_example(tutorial sky.txt 1e-3 2e-6 1e-10 1e-4 1e-6 1e-6 3e-3)
oskar_example(test-data sky.osm 1e-3 2e-6 1e-10 1e-4 1e-6 1e-6 3e-3)
