# Issue 18: --set FILE KEY VALUE with a negative VALUE (OSKAR accepts it; fringe refused it as
# "unknown option '-45'"). The value round-trips through --set and --get on a copy of a
# settings file, and a real unknown option is still refused.
set(app sim_interferometer)
set(set_negative_dir ${CMAKE_CURRENT_BINARY_DIR}/set_negative_scratch)
add_test(NAME integration.${app}.set_negative_value
  COMMAND bash -c "set -e; rm -rf '${set_negative_dir}'; mkdir -p '${set_negative_dir}'; cp '${data}/good.ini' '${set_negative_dir}/s.ini'; '$<TARGET_FILE:${app}>' --set '${set_negative_dir}/s.ini' observation/phase_centre_dec_deg -45; test \"$('$<TARGET_FILE:${app}>' --get '${set_negative_dir}/s.ini' observation/phase_centre_dec_deg)\" = -45; grep -qx 'phase_centre_dec_deg=-45' '${set_negative_dir}/s.ini'; echo ok")
set_tests_properties(integration.${app}.set_negative_value PROPERTIES LABELS integration)
app_test(${app} set_unknown_option_refused 2 "" "error: unknown option '--bogus'"
  --set ${data}/good.ini observation/phase_centre_dec_deg -45 --bogus)
