#!/usr/bin/env bash
# Data-safety checks of sim_interferometer and sim_beam_pattern (docs/reliability/sim.md),
# each on a tiny case (4 SKA-Low AA0.5 stations, one or two sources) in a fresh WORKDIR:
#   safety_sim.sh CASE WORKDIR SIM_INTERFEROMETER SIM_BEAM_PATTERN TELESCOPE_MODEL_DIR
# Prints "ok: CASE" and exits 0, or prints what failed (with the app's output) and exits 1.
set -u
case=$1 work=$2 sim=$3 bp=$4 tm=$5
lib=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/case_lib.sh
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=../case_lib.sh
source "$lib"


# set_key FILE SECTION/KEY VALUE: replaces KEY's line, or appends a [SECTION] with it.
set_key() {
  local file=$1 section=${2%%/*} key=${2#*/} value=$3
  if grep -q "^${key}=" "$file"; then
    sed -i "s|^${key}=.*|${key}=${value}|" "$file"
  else
    printf '\n[%s]\n%s=%s\n' "$section" "$key" "$value" >>"$file"
  fi
}

printf '# RA, Dec [deg], Stokes I [Jy]\n60.0 -30.0 1.0\n60.5 -29.5 0.5\n' >sky.osm
cat >sim.ini <<EOF
[General]
app=sim_interferometer

[simulator]
use_gpus=false

[sky]
oskar_sky_model/file=sky.osm

[observation]
phase_centre_ra_deg=60
phase_centre_dec_deg=-30
start_frequency_hz=100e6
num_channels=2
frequency_inc_hz=1e6
start_time_utc=2025-01-01T13:17:30.5
length=00:20:00
num_time_steps=3

[telescope]
input_directory=$tm
station_type=Isotropic beam

[interferometer]
ms_filename=out.ms
EOF
cat >bp.ini <<EOF
[General]
app=sim_beam_pattern

[simulator]
use_gpus=false

[observation]
phase_centre_ra_deg=60
phase_centre_dec_deg=-30
start_frequency_hz=100e6
num_channels=2
frequency_inc_hz=1e6
start_time_utc=2025-01-01T13:17:30
length=00:20:00
num_time_steps=2

[telescope]
input_directory=$tm
station_type=Gaussian beam
gaussian_beam/fwhm_deg=4.5
gaussian_beam/ref_freq_hz=100e6

[beam_pattern]
station_ids=0,1
beam_image/size=16
beam_image/fov_deg=10
root_path=bp
station_outputs/fits_image/amp=true
telescope_outputs/text_file/cross_power_amp=true
EOF

# Sends SIGTERM after ~1 s; the app must stop soon after with 143.
terminate_after_a_second() {
  "$@" >out.txt 2>err.txt &
  local pid=$!
  sleep 1
  kill -0 $pid 2>/dev/null || fail "the run ended within 1 s: the case is too small to test SIGTERM"
  kill -TERM $pid
  local waited=0
  # Within a second (the grace time is 0.8 s), plus 1 s for a loaded test machine.
  while kill -0 $pid 2>/dev/null && [ $waited -lt 20 ]; do sleep 0.1; waited=$((waited + 1)); done
  if kill -0 $pid 2>/dev/null; then kill -KILL $pid; fail "still running 2 s after SIGTERM"; fi
  wait $pid
  local rc=$?
  [ $rc = 143 ] || fail "exit code $rc after SIGTERM, expected 143"
}

case $case in
  ms_over_folder)  # results.ms/ holding a thesis: refused, untouched
    mkdir results.ms && echo "years of work" >results.ms/thesis.tex
    set_key sim.ini interferometer/ms_filename results.ms
    run 2 "$sim" sim.ini
    stderr_has "interferometer/ms_filename.*results.ms.*folder holding 1 entry"
    [ "$(cat results.ms/thesis.tex)" = "years of work" ] || fail "thesis.tex changed"
    [ "$(ls -A results.ms)" = "thesis.tex" ] || fail "results.ms changed: $(ls -A results.ms)"
    no_temporaries ;;
  ms_over_file)  # a regular file at the MS path: refused, untouched
    echo "notes" >notes.ms
    set_key sim.ini interferometer/ms_filename notes.ms
    run 2 "$sim" sim.ini
    stderr_has "interferometer/ms_filename.*notes.ms"
    [ "$(cat notes.ms)" = "notes" ] || fail "notes.ms changed" ;;
  ms_over_input)  # the MS path is the run's telescope model: refused
    cp -r "$tm" model.ms
    set_key sim.ini telescope/input_directory model.ms
    set_key sim.ini interferometer/ms_filename model.ms
    run 2 "$sim" sim.ini
    stderr_has "interferometer/ms_filename.*model.ms"
    diff -r "$tm" model.ms >/dev/null || fail "the telescope model changed" ;;
  ms_replaces_ms)  # an earlier Measurement Set is replaced
    run 0 "$sim" -q sim.ini
    [ -f out.ms/table.dat ] || fail "no out.ms"
    run 0 "$sim" -q sim.ini
    [ -f out.ms/table.dat ] || fail "no out.ms after the second run"
    no_temporaries ;;
  true_gains_refused)  # gain corruption's true-gains table path holds a user folder
    set_key sim.ini interferometer/gain_corruption/enable true
    mkdir out.ms.true_gains && echo data >out.ms.true_gains/mine.txt
    run 2 "$sim" sim.ini
    stderr_has "interferometer/gain_corruption/enable.*out.ms.true_gains"
    absent out.ms
    [ -f out.ms.true_gains/mine.txt ] || fail "the folder changed" ;;
  image_refused)  # the imaging step's FITS path holds a text file: refused before simulating
    set_key sim.ini interferometer/image_output true
    printf '\n[image]\nuse_gpus=false\nsize=64\nfov_deg=0.5\nroot_path=img\n' >>sim.ini
    echo "my figure" >img_I.fits
    run 2 "$sim" sim.ini
    stderr_has "image/root_path.*img_I.fits"
    absent out.ms
    [ "$(cat img_I.fits)" = "my figure" ] || fail "img_I.fits changed" ;;
  calibrate_gains_refused)  # calibrate/output_gains names the sky model (an input)
    set_key sim.ini interferometer/calibrate_output true
    printf '\n[calibrate]\nuse_gpus=false\noutput_gains=sky.osm\n' >>sim.ini
    run 2 "$sim" sim.ini
    stderr_has "calibrate/output_gains.*sky.osm"
    absent out.ms
    grep -q "60.0 -30.0 1.0" sky.osm || fail "sky.osm changed" ;;
  ranges)  # out-of-range values: exit 2 naming the key and the value
    for kv in observation/phase_centre_dec_deg=-91 observation/phase_centre_dec_deg=95 \
        observation/phase_centre_dec_deg=1e300 observation/start_frequency_hz=1e300 \
        observation/start_frequency_hz=1e-300 observation/start_frequency_hz=0 \
        observation/frequency_inc_hz=1e300 "observation/start_time_utc=1800-01-01 00:00:00" \
        interferometer/gain_corruption/amplitude_std=1000; do
      key=${kv%%=*} value=${kv#*=}
      cp sim.ini r.ini
      [ "$key" = interferometer/gain_corruption/amplitude_std ] &&
        set_key r.ini interferometer/gain_corruption/enable true
      set_key r.ini "$key" "$value"
      run 2 "$sim" r.ini
      stderr_has "setting '$key' = '$value': expected"
      absent out.ms
    done
    cp sim.ini r.ini
    printf 'noise/enable=true\nnoise/freq=Observation settings\nnoise/rms=Range\n' >>r.ini
    printf 'noise/rms/start=1e308\nnoise/rms/end=1\n' >>r.ini
    run 2 "$sim" r.ini
    stderr_has "setting 'interferometer/noise/rms/start' = '1e308'" ;;
  runaway)  # 1e9 time steps: refused before the MS is created (exit 1), --force named
    set_key sim.ini observation/num_time_steps 1000000000
    run 1 "$sim" sim.ini
    stderr_has "too large: the output needs about .* TB.*--force"
    absent out.ms
    no_temporaries ;;
  all_zero)  # the only source never rises: a loud warning; --strict: error, no MS
    printf '60 80 1\n' >north.osm
    set_key sim.ini sky/oskar_sky_model/file north.osm
    set_key sim.ini observation/phase_centre_dec_deg 80
    run 0 "$sim" sim.ini
    log_has "warning: every visibility in DATA is zero: every source is below the horizon"
    rm -rf out.ms
    run 1 "$sim" --strict sim.ini
    stderr_has "every visibility in DATA is zero.*--strict"
    absent out.ms
    no_temporaries ;;
  flux_filter_zero)  # the common flux filter removes every source: the warning says so
    set_key sim.ini sky/common_flux_filter/flux_min 10
    run 0 "$sim" sim.ini
    log_has "warning: every visibility in DATA is zero: .*sky/common_flux_filter" ;;
  sky_text_refused)  # sky/output_text_file names a user's file: refused, untouched
    echo "my list" >list.txt
    set_key sim.ini sky/output_text_file list.txt
    run 2 "$sim" sim.ini
    stderr_has "sky/output_text_file.*list.txt"
    [ "$(cat list.txt)" = "my list" ] || fail "list.txt changed"
    absent out.ms ;;
  sigterm)  # SIGTERM mid-run: 143 within a second, no MS, no temporary
    printf '\n[sky]\ngenerator/random_power_law/num_sources=20000\n' >>sim.ini
    printf 'generator/random_power_law/flux_min=0.1\ngenerator/random_power_law/flux_max=1\n' >>sim.ini
    set_key sim.ini sky/oskar_sky_model/file ""
    set_key sim.ini observation/num_time_steps 2000
    set_key sim.ini observation/num_channels 8
    terminate_after_a_second "$sim" -q sim.ini
    stderr_has "SIGTERM"
    absent out.ms
    no_temporaries ;;
  disk_full)  # writes fail with EFBIG (file-size limit, SIGXFSZ ignored): exit 1, no abort
    set_key sim.ini observation/num_time_steps 400
    set_key sim.ini observation/num_channels 64
    (trap '' XFSZ; ulimit -f 100; exec "$sim" -q sim.ini) >out.txt 2>err.txt
    rc=$?
    [ $rc = 1 ] || fail "exit code $rc, expected 1"
    stderr_has "error: "
    absent out.ms
    no_temporaries ;;
  bp_refused)  # a text product's path holds a user file; the log file path too
    run 0 "$bp" -q bp.ini
    run 0 "$bp" -q bp.ini  # earlier outputs are replaced
    txt=$(ls bp_*.txt | head -1)
    echo "my notes" >"$txt"
    run 2 "$bp" bp.ini
    stderr_has "beam_pattern/root_path.*$txt"
    [ "$(cat "$txt")" = "my notes" ] || fail "$txt changed"
    rm -f bp_*
    set_key bp.ini simulator/keep_log_file true
    echo "my log" >bp.log
    run 2 "$bp" bp.ini
    stderr_has "simulator/keep_log_file.*bp.log"
    [ "$(cat bp.log)" = "my log" ] || fail "bp.log changed"
    [ -z "$(ls bp_* 2>/dev/null)" ] || fail "products were written: $(ls bp_*)" ;;
  bp_ranges)
    set_key bp.ini observation/phase_centre_dec_deg 95
    run 2 "$bp" bp.ini
    stderr_has "setting 'observation/phase_centre_dec_deg' = '95': expected" ;;
  bp_all_zero)  # beams pointing at a direction that never rises
    set_key bp.ini observation/phase_centre_dec_deg 80
    run 0 "$bp" bp.ini
    log_has "warning: every station beam value is zero"
    rm -f bp_*
    run 1 "$bp" --strict bp.ini
    stderr_has "every station beam value is zero.*--strict"
    [ -z "$(ls bp_* 2>/dev/null)" ] || fail "files were written: $(ls bp_*)"
    no_temporaries ;;
  bp_sigterm)
    set_key bp.ini beam_pattern/beam_image/size 256
    set_key bp.ini observation/num_time_steps 200
    set_key bp.ini observation/num_channels 10
    terminate_after_a_second "$bp" -q bp.ini
    [ -z "$(ls bp_* 2>/dev/null)" ] || fail "files were left: $(ls bp_*)"
    no_temporaries ;;
  *)
    echo "unknown case '$case'"
    exit 1 ;;
esac
echo "ok: $case"
