# Malformed FEKO spherical-wave coefficient files (text and *FEKO*.h5) are bad input: both
# simulators exit 2 naming the file, before any output
# (tests/data/safety/element_patterns/feko_bad_input.sh).
foreach(case h5_missing_dataset h5_bad_length h5_not_hdf5 text_short_line)
  add_test(NAME integration.safety.element_patterns.feko_${case}
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/data/safety/element_patterns/feko_bad_input.sh
      ${case} ${CMAKE_CURRENT_BINARY_DIR}/runs/safety_element_patterns/${case}
      $<TARGET_FILE:sim_interferometer> $<TARGET_FILE:sim_beam_pattern> ${PROJECT_SOURCE_DIR})
  set_tests_properties(integration.safety.element_patterns.feko_${case}
    PROPERTIES LABELS integration TIMEOUT 60)
endforeach()
