# Parsers (docs/reliability/parsers.md): telescope and sky models that are hostile or
# misleading are refused with the file and line (exit 2), or read with a warning naming the
# line (an error with --strict); a UTF-8 byte order mark is accepted. Inputs in
# tests/data/safety/parsers (make_fits.py writes its FITS files); every run writes into the
# build tree only.
set(parsers_data ${PROJECT_SOURCE_DIR}/tests/data/safety/parsers)
set(app sim_interferometer)
# A symbolic-link loop (ln -s . station/loop, made in a build-tree copy) used to hang.
add_test(NAME integration.${app}.parsers_tm_symlink_loop
  COMMAND bash ${check} 2 "!Measurement Set"
    "error: .*model.tm/station/loop: folder loop: this is the folder .*model.tm/station" --
    bash ${parsers_data}/loop_model.sh ${CMAKE_CURRENT_BINARY_DIR}/runs/parsers_tm_symlink_loop
    $<TARGET_FILE:${app}>)
set_tests_properties(integration.${app}.parsers_tm_symlink_loop PROPERTIES
  LABELS integration TIMEOUT 60)
# A BOM at the start of the sky model and of every telescope model file.
app_run_test(${app} parsers_bom 0 "Measurement Set: .*out.ms \\(3 rows\\)" EMPTY
  ${parsers_data}/bom.ini)
app_test(${app} parsers_altitude 2 "!Measurement Set"
  "error: .*altitude.tm/position.txt:1: altitude -1e7 is outside \\[-10000, 100000\\] metres"
  ${parsers_data}/altitude.ini)
app_test(${app} parsers_ecef_names_line 2 "!Measurement Set"
  "error: .*ecef.tm/layout_ecef.txt:3: station 2: ECEF position \\(1000, 1000, 1000\\) m is 1732.05"
  ${parsers_data}/ecef.ini)
app_run_test(${app} parsers_huge_flux_warns 0
  "warning: .*sky_huge_flux.osm:3: skipped malformed sky model line: value 1e\\+308 is out of range"
  "" ${parsers_data}/huge_flux.ini)
app_test(${app} parsers_huge_flux_strict 2 "!Measurement Set"
  "error: .*sky_huge_flux.osm:3: malformed sky model line: value 1e\\+308" --strict
  ${parsers_data}/huge_flux.ini)
app_run_test(${app} parsers_named_unknown_column 0
  "warning: .*sky_named.txt:1: column 5 'Flux' is not a known sky model column name" ""
  ${parsers_data}/named.ini)
app_run_test(${app} parsers_named_unknown_type 0
  "warning: .*sky_named.txt:3: source type 'SHAPELET' is not supported" ""
  ${parsers_data}/named.ini)
app_test(${app} parsers_named_strict 2 "!Measurement Set"
  "error: .*sky_named.txt:1: column 5 'Flux'" --strict ${parsers_data}/named.ini)
app_test(${app} parsers_fits_stokes_q 2 "!Measurement Set"
  "error: .*stokes_q.fits: the STOKES axis \\(CTYPE4\\) holds Q but no Stokes I plane"
  ${parsers_data}/stokes_q.ini)
app_test(${app} parsers_fits_crval2 2 "!Measurement Set"
  "error: .*crval2_100.fits: keyword CRVAL2 = 100: .*\\[-90, 90\\]" ${parsers_data}/crval2.ini)
app_test(${app} parsers_fits_naxis1_1e9 2 "!Measurement Set"
  "error: .*naxis1_1e9.fits: the header \\(NAXIS1 = 1000000000, NAXIS2 = 3\\) implies 24 GB"
  ${parsers_data}/naxis.ini)
app_run_test(${app} parsers_fits_good 0 "Sky model: 1 source" EMPTY
  ${parsers_data}/good_fits.ini)
