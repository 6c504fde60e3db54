#!/usr/bin/env bash
# sim_interferometer on OSKAR's GPU anchor case scaled to 16 times (512 stations, 99856
# sources, Full, double), on 1 GPU and on every GPU of the machine: prints one JSON line per
# run with the wall time and the stage times of its log, and the speed-up.
# Usage: benchmarks/scripts/sim_multi_gpu.sh BUILD_DIR [WORK_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: sim_multi_gpu.sh BUILD_DIR [WORK_DIR]}
work=${2:-$(mktemp -d)}
sim="$build/apps/sim_interferometer/sim_interferometer"
mkdir -p "$work"
cp -r "$root/benchmarks/inputs/." "$work/"
ngpu=$(nvidia-smi -L | wc -l)
run() {  # name, cuda_device_ids
  sed -e 's/^num_time_steps=4/num_time_steps=16/' -e 's/^length=00:04:00.000/length=00:16:00.000/' \
    "$work/predict_512.ini" >"$work/$1.ini"
  printf '\n[simulator]\ncuda_device_ids=%s\n' "$2" >>"$work/$1.ini"
  sed -i "s/^ms_filename=.*/ms_filename=$1.ms/" "$work/$1.ini"
  "$sim" "$work/$1.ini" >"$work/$1.log" 2>&1
  python3 - "$work/$1.log" "$1" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
stages = dict((m.group(1), float(m.group(2))) for m in re.finditer(
    r"\]\s+(load sky|load telescope|horizon clip|jones|correlate|noise|block reduction|write)\s+([0-9.]+)\s", text))
total = float(re.search(r"Simulation completed in ([0-9.]+) s", text).group(1))
gpus = int(re.search(r"running on (\d+) GPU", text).group(1))
print(json.dumps({"name": "sim_multi_gpu/" + sys.argv[2], "gpus": gpus, "seconds": total,
                  "stages_thread_seconds": stages}))
PY
}
run one_gpu 0
if [ "$ngpu" -gt 1 ]; then
  ids=$(seq -s, 0 $((ngpu - 1)))
  run all_gpus "$ids"
fi
