# The vis tools (docs/vis_tools.md) from the command line: OSKAR's invocations, OSKAR's text
# layout (vis_summary against oskar_vis_summary's output for the same files,
# tests/data/vis_tools/oskar/), and bad input: a missing or truncated file, files of other
# dimensions, settings without noise, an output path holding something else: exit 2 with a
# message naming the file (or key), nothing written.
set(vt_data ${PROJECT_SOURCE_DIR}/tests/data/vis_tools)
set(vt_tiny ${PROJECT_SOURCE_DIR}/tests/unit/io_vis/data)
set(vt_dir ${CMAKE_CURRENT_BINARY_DIR}/vis_tools_scratch)
file(MAKE_DIRECTORY ${vt_dir})

foreach(tool vis_to_ms vis_add vis_add_noise vis_summary)
  app_test(${tool} version 0 "^${tool} \\(fringe\\) [0-9]+\\.[0-9]+" "" --version)
  app_test(${tool} help 0 "Usage:" "" --help)
  app_test(${tool} no_args 2 "" "error: expected at least")
  app_test(${tool} unknown_option 2 "" "error: unknown option '--bogus'" --bogus x.vis)
  set(vt_args ${vt_dir}/no_such.vis ${vt_dir}/no_such.vis)
  if(tool STREQUAL vis_add_noise)
    set(vt_args -s ${vt_data}/noise.ini ${vt_args})
  endif()
  app_test(${tool} missing_file 2 "" "error: .*no_such.vis.*not found" ${vt_args})
endforeach()

# vis_summary prints what oskar_vis_summary printed for the same files (run in the data folder,
# so that the file names are the ones OSKAR was given).
foreach(v fringe_tiny_double fringe_noncasa_single)
  add_test(NAME integration.vis_summary.equals_oskar_${v}
    COMMAND bash -c "'$<TARGET_FILE:vis_summary>' -a -t ${v}.vis | diff - oskar/${v}.summary_at.txt"
    WORKING_DIRECTORY ${vt_data})
  set_tests_properties(integration.vis_summary.equals_oskar_${v} PROPERTIES LABELS integration)
endforeach()
add_test(NAME integration.vis_summary.equals_oskar_log_settings
  COMMAND bash -c "'$<TARGET_FILE:vis_summary>' --log fringe_tiny_double.vis | diff - oskar/fringe_tiny_double.summary_l.txt && '$<TARGET_FILE:vis_summary>' --opts fringe_tiny_double.vis | diff - oskar/fringe_tiny_double.summary_s.txt"
  WORKING_DIRECTORY ${vt_data})
set_tests_properties(integration.vis_summary.equals_oskar_log_settings PROPERTIES
  LABELS integration)

# vis_to_ms and vis_add with OSKAR's arguments and messages.
app_test(vis_to_ms oskar_arguments 0 "^  \\[00\\] .*oskar_tiny_double.vis$" ""
  ${vt_tiny}/oskar_tiny_double.vis -o ${vt_dir}/t.ms)
app_test(vis_add oskar_arguments 0 "^Combining the 2 input files:$" ""
  ${vt_tiny}/oskar_tiny_double.vis ${vt_data}/fringe_tiny_double.vis --output ${vt_dir}/sum.vis)
app_test(vis_add quiet 0 EMPTY EMPTY
  -q ${vt_tiny}/oskar_tiny_double.vis ${vt_data}/fringe_tiny_double.vis -o ${vt_dir}/sum_q.vis)

# vis_to_ms's metadata (ANTENNA, FEED, FIELD, OBSERVATION, PHASED_ARRAY, HISTORY settings, ...)
# against the MS oskar_vis_to_ms wrote from the same file (ms_metadata_compare,
# tests/unit/io; the differences docs/ms_output.md lists as intended are allowed).
foreach(v oskar_tiny_double oskar_tiny_single fringe_tiny_double fringe_noncasa_single
    oskar_scalar_single oskar_scalar_single_p)
  set(vt_in ${vt_data}/${v}.vis)
  set(vt_flags "")
  if(v MATCHES "^oskar_tiny_")
    set(vt_in ${vt_tiny}/${v}.vis)
  elseif(v STREQUAL oskar_scalar_single_p)
    set(vt_in ${vt_data}/oskar_scalar_single.vis)
    set(vt_flags "-p")
  endif()
  add_test(NAME integration.vis_to_ms.metadata_equals_oskar_${v}
    COMMAND bash -c "set -e; '$<TARGET_FILE:vis_to_ms>' -q ${vt_flags} '${vt_in}' -o '${vt_dir}/meta_${v}.ms'; '$<TARGET_FILE:ms_metadata_compare>' '${vt_dir}/meta_${v}.ms' '${FRINGE_VISTOOLS_OSKAR_MS}/${v}.ms'")
  set_tests_properties(integration.vis_to_ms.metadata_equals_oskar_${v} PROPERTIES
    LABELS integration)
endforeach()

# A truncated file: the message names the file and the chunk.
add_test(NAME integration.vis_to_ms.truncated_file
  COMMAND bash -c "head -c 5000 '${vt_tiny}/oskar_tiny_double.vis' > '${vt_dir}/cut.vis' && bash '${check}' 2 '' 'error: .*cut.vis.*chunk' -- '$<TARGET_FILE:vis_to_ms>' '${vt_dir}/cut.vis' -o '${vt_dir}/cut.ms' && test ! -e '${vt_dir}/cut.ms'")
add_test(NAME integration.vis_summary.truncated_file
  COMMAND bash -c "head -c 5000 '${vt_tiny}/oskar_tiny_double.vis' > '${vt_dir}/cut2.vis' && bash '${check}' 2 '' 'error: .*cut2.vis.*chunk' -- '$<TARGET_FILE:vis_summary>' -t '${vt_dir}/cut2.vis'")
set_tests_properties(integration.vis_to_ms.truncated_file integration.vis_summary.truncated_file
  PROPERTIES LABELS integration)

# vis_add: other dimensions (double + single) -> exit 2 naming the second file.
app_test(vis_add mismatched_dimensions 2 ""
  "error: .*oskar_tiny_single.vis: does not have the same dimensions as"
  ${vt_tiny}/oskar_tiny_double.vis ${vt_tiny}/oskar_tiny_single.vis -o ${vt_dir}/bad_sum.vis)
app_test(vis_add one_file 2 "" "error: expected at least 2 input files"
  ${vt_tiny}/oskar_tiny_double.vis)

# vis_add_noise: the settings file is required, noise must be enabled, and an OSKAR-style run
# writes <name>_noise.vis beside the input.
app_test(vis_add_noise no_settings 2 "" "error: a settings file is required"
  ${vt_tiny}/oskar_tiny_double.vis)
file(WRITE ${vt_dir}/noise_off.ini "[telescope]\ninput_directory=${vt_data}/noise_tel.tm\n")
app_test(vis_add_noise noise_disabled 2 ""
  "error: setting 'interferometer/noise/enable' = 'false': noise addition is disabled"
  -s ${vt_dir}/noise_off.ini ${vt_data}/noise_input.vis)
add_test(NAME integration.vis_add_noise.oskar_style_run
  COMMAND bash -c "set -e; rm -rf '${vt_dir}/noise'; mkdir -p '${vt_dir}/noise'; cp -r '${vt_data}/noise_input.vis' '${vt_data}/noise.ini' '${vt_data}/noise_tel.tm' '${vt_dir}/noise/'; cd '${vt_dir}/noise'; '$<TARGET_FILE:vis_add_noise>' -q -s noise.ini noise_input.vis; test -s noise_input_noise.vis; '$<TARGET_FILE:vis_summary>' -t noise_input_noise.vis | grep -q 'Stokes-I cross-correlations'; echo ok")
set_tests_properties(integration.vis_add_noise.oskar_style_run PROPERTIES LABELS integration)
# The output guard: a file that is not an OSKAR binary file at the output path is refused.
add_test(NAME integration.vis_add.refuses_foreign_output
  COMMAND bash -c "echo precious > '${vt_dir}/precious.vis' && bash '${check}' 2 '' 'error: .*precious.vis' -- '$<TARGET_FILE:vis_add>' '${vt_tiny}/oskar_tiny_double.vis' '${vt_data}/fringe_tiny_double.vis' -o '${vt_dir}/precious.vis' && grep -qx precious '${vt_dir}/precious.vis'")
set_tests_properties(integration.vis_add.refuses_foreign_output PROPERTIES LABELS integration)
