# Data safety of sim_interferometer and sim_beam_pattern (docs/reliability/sim.md): outputs
# checked before any work, range checks, runaway requests, all-zero output, SIGTERM, disk
# full. Each case runs tests/data/safety/sim/safety_sim.sh in its own folder of the build tree.
set(safety_sim_script ${PROJECT_SOURCE_DIR}/tests/data/safety/sim/safety_sim.sh)
foreach(case ms_over_folder ms_over_file ms_over_input ms_replaces_ms true_gains_refused
             image_refused calibrate_gains_refused ranges runaway all_zero flux_filter_zero
             sky_text_refused sigterm disk_full
             bp_refused bp_ranges bp_all_zero bp_sigterm)
  add_test(NAME integration.safety.sim.${case}
    COMMAND bash ${safety_sim_script} ${case} ${CMAKE_CURRENT_BINARY_DIR}/runs/safety_sim/${case}
      $<TARGET_FILE:sim_interferometer> $<TARGET_FILE:sim_beam_pattern>
      ${PROJECT_SOURCE_DIR}/telescope-models/ska-low-aa0.5.tm)
  set_tests_properties(integration.safety.sim.${case} PROPERTIES LABELS integration TIMEOUT 60)
endforeach()
# The SIGTERM cases time their run: keep other tests off the 2 cores meanwhile.
set_tests_properties(integration.safety.sim.sigterm integration.safety.sim.bp_sigterm
  PROPERTIES RUN_SERIAL TRUE)
