# Issue 18 (docs/ms_output.md): the Measurement Set metadata of sim_interferometer runs on
# OSKAR's reference settings equal what OSKAR 2.13 wrote for the same runs
# (tests/data/oskar-reference): an aperture array in double precision, one in single precision
# (Scalar, one shared station folder), and a dish array (no PHASED_ARRAY rows). Compared by
# ms_metadata_compare: ANTENNA names, TELESCOPE_NAME, every PHASED_ARRAY row, and every cell
# of OBSERVATION, FIELD, HISTORY and the other small subtables.
# The run has no USER or USERNAME in its environment, as OSKAR's reference runs had (both
# then write OBSERVER 'Unknown'). The settings lines of HISTORY must equal OSKAR's except the
# three paths that the test's copy of the settings file makes absolute (run_relocated.sh).
# OSKAR's MS is packed in the repository and unpacked next to the run's folder.
foreach(case low_aa1_dipole_gauss mwa_scalar_single vla_gauss_beam_smear)
  set(ref_dir ${PROJECT_SOURCE_DIR}/tests/data/oskar-reference/${case})
  set(run_dir ${CMAKE_CURRENT_BINARY_DIR}/runs/ms_metadata_${case})
  add_test(NAME integration.sim_interferometer.ms_metadata_${case}
    COMMAND bash -c "set -e; env -u USER -u USERNAME bash '${relocate}' '${run_dir}' '$<TARGET_FILE:sim_interferometer>' -q '${ref_dir}/${case}.ini'; rm -rf '${run_dir}_oskar'; mkdir -p '${run_dir}_oskar'; tar xzf '${ref_dir}/${case}.ms.tar.gz' -C '${run_dir}_oskar'; '$<TARGET_FILE:ms_metadata_compare>' --settings-may-differ oskar_sky_model/file --settings-may-differ input_directory --settings-may-differ ms_filename '${run_dir}/${case}.ms' '${run_dir}_oskar/${case}.ms'")
  set_tests_properties(integration.sim_interferometer.ms_metadata_${case} PROPERTIES
    LABELS integration PASS_REGULAR_EXPRESSION "metadata agree"
    FAIL_REGULAR_EXPRESSION "DIFFERENT")
endforeach()
