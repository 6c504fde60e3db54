# Output safety of the writers (docs/reliability/io.md) through sim_interferometer: the sky
# text output's signature and refusal, and a disk-full run that keeps the earlier MS. Each
# case runs tests/data/safety/io/safety_io.sh in its own folder of the build tree.
set(safety_io_script ${PROJECT_SOURCE_DIR}/tests/data/safety/io/safety_io.sh)
foreach(case sky_output disk_full)
  add_test(NAME integration.safety.io.${case}
    COMMAND bash ${safety_io_script} ${case} ${CMAKE_CURRENT_BINARY_DIR}/runs/safety_io/${case}
      $<TARGET_FILE:sim_interferometer> ${PROJECT_SOURCE_DIR}/telescope-models/ska-low-aa0.5.tm)
  set_tests_properties(integration.safety.io.${case} PROPERTIES LABELS integration TIMEOUT 60)
endforeach()
