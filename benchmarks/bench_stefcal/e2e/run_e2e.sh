#!/usr/bin/env bash
# End-to-end calibration benchmark (issue 9): simulate a corrupted observation, then calibrate
# it, and print calibrate's summary with the time of each stage (read, reorder, solve, write).
#   run_e2e.sh BUILD_DIR WORKDIR [TELESCOPE] [CHANNELS] [TIMES] [USE_GPUS]
# defaults: ska-low-aa4 (512 stations), 64 channels, 10 times, true. The MS holds DATA,
# MODEL_DATA and CORRECTED_DATA: 512 stations x 64 channels x 10 times is about 8 GB on disk
# (the issue's 100 times would be ~80 GB).
set -euo pipefail
build=$(cd "$1" && pwd) work=$2
tel=${3:-ska-low-aa4} chans=${4:-64} times=${5:-10} gpus=${6:-true}
root=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
rm -rf "$work/e2e.ms" "$work/e2e.ms".*
cat > "$work/sim.ini" <<INI
[General]
app=sim_interferometer

[simulator]
use_gpus=$gpus

[sky]
oskar_sky_model/file=$root/tests/integration/data/sky.osm

[observation]
phase_centre_ra_deg=60
phase_centre_dec_deg=-30
start_frequency_hz=100e6
num_channels=$chans
frequency_inc_hz=100e3
start_time_utc=2025-01-01T13:17:30.5
length=00:10:00
num_time_steps=$times

[telescope]
input_directory=$root/telescope-models/$tel.tm
station_type=Isotropic beam

[interferometer]
ms_filename=$work/e2e.ms
gain_corruption/enable=true
gain_corruption/delay_std_ns=2
noise/enable=true
noise/freq=Observation settings
noise/rms=Range
noise/rms/start=0.1
noise/rms/end=0.1
INI
cat > "$work/cal.ini" <<INI
[General]
app=calibrate

[calibrate]
input_ms=$work/e2e.ms
gain_type=Diagonal
solution_interval_times=1
channels_per_solution=1
use_gpus=$gpus
INI
/usr/bin/time -f "sim_interferometer wall %e s, max RSS %M kB" \
  "$build/apps/sim_interferometer/sim_interferometer" -q "$work/sim.ini"
/usr/bin/time -f "calibrate wall %e s, max RSS %M kB" \
  "$build/apps/calibrate/calibrate" "$work/cal.ini" | grep -A8 "Calibration summary"
