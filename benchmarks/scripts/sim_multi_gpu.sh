#!/usr/bin/env bash
# sim_interferometer on OSKAR's GPU anchor case scaled to 16 times (512 stations, 99856
# sources, Full, double), on 1 GPU and on every GPU of the machine: prints one JSON line per
# run with the wall time, the start-up (from "Simulating" to "running on N GPU(s)": CUDA
# initialisation), the rest, and the stage times of its log. Each case runs twice; the second
# (warm file cache and driver) is reported.
# Usage: [CHANNELS=1] benchmarks/scripts/sim_multi_gpu.sh BUILD_DIR [WORK_DIR]
#   CHANNELS: channels of 1 MHz (the anchor case has 1; more channels = more GPU work per row).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: sim_multi_gpu.sh BUILD_DIR [WORK_DIR]}
work=${2:-$(mktemp -d)}
sim="$build/apps/sim_interferometer/sim_interferometer"
mkdir -p "$work"
cp -r "$root/benchmarks/inputs/." "$work/"
ngpu=$(nvidia-smi -L | wc -l)
channels=${CHANNELS:-1}
run() {  # name, cuda_device_ids
  sed -e 's/^num_time_steps=4/num_time_steps=16/' -e 's/^length=00:04:00.000/length=00:16:00.000/' \
    -e "s/^num_channels=1/num_channels=$channels/" "$work/predict_512.ini" >"$work/$1.ini"
  printf '\n[simulator]\ncuda_device_ids=%s\n' "$2" >>"$work/$1.ini"
  sed -i "s/^ms_filename=.*/ms_filename=$1.ms/" "$work/$1.ini"
  "$sim" "$work/$1.ini" >"$work/$1.log" 2>&1
  rm -rf "$work/$1.ms"
  "$sim" "$work/$1.ini" >"$work/$1.log" 2>&1
  rm -rf "$work/$1.ms"
  python3 - "$work/$1.log" "$1" "$channels" <<'PY'
import datetime, json, re, sys
text = open(sys.argv[1]).read()
stages = dict((m.group(1), float(m.group(2))) for m in re.finditer(
    r"\]\s+(load sky|load telescope|GPU discovery|create MS|GPU setup|horizon clip|jones|correlate|noise|block reduction|write|write wait)\s+([0-9.]+)\s", text))
total = float(re.search(r"Simulation completed in ([0-9.]+) s", text).group(1))
gpus = int(re.search(r"running on (\d+) GPU", text).group(1))
def stamp(pattern):
    t = re.search(r"\[(\d\d):(\d\d):(\d\d\.\d+)\] (?:\w+: )?" + pattern, text).groups()
    return 3600 * int(t[0]) + 60 * int(t[1]) + float(t[2])
startup = stamp("running on") - stamp("Simulating")
print(json.dumps({"name": "sim_multi_gpu/" + sys.argv[2], "gpus": gpus, "channels": int(sys.argv[3]),
                  "seconds": total, "startup_seconds": round(startup, 3),
                  "after_startup_seconds": round(total - startup, 3),
                  "stages_thread_seconds": stages}))
PY
}
run one_gpu 0
if [ "$ngpu" -gt 1 ]; then
  ids=$(seq -s, 0 $((ngpu - 1)))
  run all_gpus "$ids"
fi
