# Settings files (docs/reliability/settings.md): lines without '=' are warned about with their
# line (errors with --strict), a UTF-8 byte order mark and CRLF line ends load, and --set
# changes only the line of the key it sets.
set(settings_data ${PROJECT_SOURCE_DIR}/tests/data/safety/settings)
set(app sim_interferometer)
app_run_test(${app} settings_no_equals_warns 0 "Measurement Set: "
  "warning: .*no_equals.ini:12: 'num_channels 3' is not a setting line"
  ${settings_data}/no_equals.ini)
app_test(${app} settings_no_equals_strict 2 "!Measurement Set"
  "error: .*no_equals.ini:12: 'num_channels 3' is not a setting line" --strict
  ${settings_data}/no_equals.ini)
# BOM on the "[observation]" line and CRLF ends: the value is read, nothing is warned.
app_test(${app} settings_bom_crlf 0 "^2$" EMPTY
  --get ${settings_data}/bom_crlf.ini observation/num_channels)
app_test(${app} settings_bom_crlf_second_group 0 "^false$" EMPTY
  --get ${settings_data}/bom_crlf.ini simulator/use_gpus)
add_test(NAME integration.${app}.settings_set_keeps_lines
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_get_set.sh $<TARGET_FILE:${app}>
          ${settings_data} ${CMAKE_CURRENT_BINARY_DIR}/settings_set_keeps_lines keeps_lines)
set_tests_properties(integration.${app}.settings_set_keeps_lines PROPERTIES LABELS integration)
