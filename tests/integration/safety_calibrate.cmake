# calibrate's data-safety and hostile-input tests (issue 16, docs/reliability/calibrate.md).
# sim_interferometer writes one small corrupted MS (SKA-Low AA0.5: 4 stations, 8 times x 2
# channels) in the build tree; each case runs calibrate on its own copy, in a folder beside a
# settings file and unrelated files (tests/data/safety/calibrate/cal_case.sh), and checks the
# exit code, the message and what is left: refused outputs (exit 2, nothing touched), settings
# that do not fit the MS (exit 2), data that solve nothing (exit 1, FLAG unchanged), a full
# disk (exit 1, no SIGABRT) and SIGTERM mid-run (exit 143 within a second, MS readable).
set(sc_dir ${CMAKE_CURRENT_BINARY_DIR}/runs/safety_calibrate)
set(sc_ms ${sc_dir}/base/base.ms)
file(WRITE ${sc_dir}/base/sim.ini
  "[General]\napp=sim_interferometer\n\n[simulator]\nuse_gpus=false\n\n"
  "[sky]\noskar_sky_model/file=${data}/sky.osm\n\n"
  "[observation]\nphase_centre_ra_deg=60\nphase_centre_dec_deg=-30\n"
  "start_frequency_hz=100e6\nnum_channels=2\nfrequency_inc_hz=1e6\n"
  "start_time_utc=2025-01-01T13:17:30.5\nlength=00:40:00\nnum_time_steps=8\n\n"
  "[telescope]\ninput_directory=${PROJECT_SOURCE_DIR}/telescope-models/ska-low-aa0.5.tm\n"
  "station_type=Isotropic beam\n\n"
  "[interferometer]\nms_filename=${sc_ms}\ngain_corruption/enable=true\n")
add_test(NAME integration.calibrate.safety_make_ms
  COMMAND bash -c "rm -rf '${sc_dir}/base/base.ms'* && '$<TARGET_FILE:sim_interferometer>' -q '${sc_dir}/base/sim.ini'")
set_tests_properties(integration.calibrate.safety_make_ms PROPERTIES LABELS integration
  FIXTURES_SETUP calibrate_safety_ms)
set(sc_case ${PROJECT_SOURCE_DIR}/tests/data/safety/calibrate/cal_case.sh)
# sc_test(<name> <mode> <rc> <stdout regex> <stderr regex> [settings lines / poke:...]...)
function(sc_test name mode rc out err)
  add_test(NAME integration.calibrate.safety_${name}
    COMMAND bash ${check} ${rc} "${out}" "${err}" -- bash ${sc_case} ${mode}
      $<TARGET_FILE:calibrate> $<TARGET_FILE:cal_ms_poke> ${sc_ms} ${sc_dir}/${name} ${ARGN})
  set_tests_properties(integration.calibrate.safety_${name} PROPERTIES LABELS integration
    FIXTURES_REQUIRED calibrate_safety_ms)
endfunction()

# The reference run: solves, writes the gain table and CORRECTED_DATA.
sc_test(good ok 0 "cells: 16 \\(converged 16" ""
  channels_per_solution=1)
# An earlier gain table is replaced by a second run.
sc_test(rerun rerun 0 "readable: .*CORRECTED_DATA yes" "" channels_per_solution=1)
# Outputs that are not earlier gain outputs, or are inputs: refused before the MS is opened.
sc_test(gains_dot refused 2 "readable: .*CORRECTED_DATA no"
  "error: setting 'calibrate/output_gains' = '.*/gains_dot': .*run's input '.*/in.ms'"
  "output_gains=@DIR@")
sc_test(gains_dot_relative refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/output_gains' = '.*': " "output_gains=@DIR@/in.ms/..")
sc_test(gains_ms refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/output_gains' = '.*/gains_ms/in.ms': .*run's input"
  "output_gains=@DIR@/in.ms")
sc_test(gains_osm refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/output_gains' = '.*/sky.osm': .*file of 6 bytes"
  "output_gains=@DIR@/sky.osm")
sc_test(gains_sky_input refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/output_gains' = '.*/sky.osm': " "output_gains=@DIR@/sky.osm"
  "sky_model_file=@DIR@/sky.osm")
sc_test(gains_inside_ms refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/output_gains' = '.*/in.ms/x.gains': " "output_gains=@DIR@/in.ms/x.gains")
sc_test(gains_unwritable_folder refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/output_gains' = '/proc/x.gains': " "output_gains=/proc/x.gains")
# Settings that do not fit the MS (4 stations): key, value and range; exit 2.
sc_test(reference_station refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/reference_station' = '99': expected a station index in 0..3"
  reference_station=99)
sc_test(min_baselines_negative refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/min_baselines' = '-5': expected" min_baselines=-5)
sc_test(min_baselines_above refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/min_baselines' = '4': expected 0..3" min_baselines=4)
sc_test(missing_model_column refused 2 "CORRECTED_DATA no"
  "error: setting 'calibrate/model_column' = 'NOPE': " model_column=NOPE)
# A sky model without sources (its one line does not read): bad input (exit 2).
sc_test(bad_sky_model refused 2 "CORRECTED_DATA no"
  "error: setting .calibrate/sky_model_file. = .*thesis.tex.: the sky model has no sources"
  "sky_model_file=@DIR@/thesis.tex" model_column=NONE)
# Data that solve nothing: exit 1 with the reason; FLAG and the gain table not written.
sc_test(nan_weight fails 1 "readable: .* 0 flagged samples"
  "error: .*in.ms: nothing could be solved.*NaN, infinite, zero or negative WEIGHT"
  poke:WEIGHT=nan)
sc_test(negative_weight fails 1 " 0 flagged samples"
  "error: .*nothing could be solved.*[1-9][0-9]* have a NaN, infinite, zero or negative WEIGHT"
  poke:WEIGHT=-1)
sc_test(nan_time fails 1 " 0 flagged samples" "error: .*in.ms: row 0 has TIME = nan"
  poke:TIME=nan)
# A full disk (file-size limit): a clear error, exit 1 (not SIGABRT), the MS readable.
sc_test(disk_full diskfull 1 "readable: .*CORRECTED_DATA no"
  "error: .*in.ms: no room for the CORRECTED_DATA column: .*file-size limit")
# ... and with CORRECTED_DATA there from an earlier run (its 1 MiB tile file exceeds the
# limit): the write fails mid-run; exit 1, the MS readable, no gain table.
sc_test(disk_full_existing_column diskfull_rerun 1 "readable: .*CORRECTED_DATA yes"
  "error: .*in.ms: .*(failed|error)")
# SIGTERM / SIGINT mid-run (slow cells, about 0.1 s each here: no convergence test): exit
# 143 / 130 within a second, the MS readable with no orphan column files, no gain table or
# temporary.
set(sc_slow channels_per_solution=1 tolerance=0 stall_checks=0 max_iterations=100000)
sc_test(sigterm sigterm 143 "^exit 143 after SIGTERM in [0-9]+ ms" "" ${sc_slow})
sc_test(sigint sigint 130 "^exit 130 after SIGINT in [0-9]+ ms" "" ${sc_slow})
