# Issue 18 (docs/ms_output.md): the Measurement Set metadata EveryBeam reads (ANTENNA names,
# TELESCOPE_NAME, PHASED_ARRAY) of sim_interferometer runs on OSKAR's reference settings equal
# what OSKAR 2.13 wrote for the same runs (tests/data/oskar-reference): an aperture array in
# double precision, one in single precision (Scalar, one shared station folder), and a dish
# array (no PHASED_ARRAY rows).
foreach(case low_aa1_dipole_gauss mwa_scalar_single vla_gauss_beam_smear)
  set(ref_dir ${PROJECT_SOURCE_DIR}/tests/data/oskar-reference/${case})
  set(run_dir ${CMAKE_CURRENT_BINARY_DIR}/runs/ms_metadata_${case})
  add_test(NAME integration.sim_interferometer.ms_metadata_${case}
    COMMAND bash -c "set -e; bash '${relocate}' '${run_dir}' '$<TARGET_FILE:sim_interferometer>' -q '${ref_dir}/${case}.ini'; '$<TARGET_FILE:ms_metadata_compare>' '${run_dir}/${case}.ms' '${ref_dir}/${case}.ms'")
  set_tests_properties(integration.sim_interferometer.ms_metadata_${case} PROPERTIES
    LABELS integration PASS_REGULAR_EXPRESSION "metadata agree"
    FAIL_REGULAR_EXPRESSION "DIFFERENT")
endforeach()
