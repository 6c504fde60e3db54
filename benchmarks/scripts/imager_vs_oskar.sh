#!/usr/bin/env bash
# The FFT imager end to end against OSKAR 2.13's imager on the same host and Measurement Set
# (issue 22; benchmarks/RESULTS.md): simulate SKA-Low AA4 (512 stations) for 32 times x 8
# channels with fringe's sim_interferometer, then image it with both programs, same settings
# (FFT, 4096^2 over 5 deg, Stokes I, natural, single precision), on the GPU and on the CPU,
# three alternating runs, one JSON line per run; then the largest pixel differences.
# Usage: imager_vs_oskar.sh FRINGE_BUILD OSKAR_PREFIX WORKDIR [use_gpus: true|false]
#   FRINGE_BUILD: a fringe build folder (apps/ and tests/unit/imager/imager_fits_compare);
#   OSKAR_PREFIX: an OSKAR install (bin/oskar_imager, lib/), e.g. from build-oskar.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "$1" && pwd) O=$(cd "$2" && pwd) work=$3 gpus=${4:-true}
mkdir -p "$work" && cd "$work"
sed -e "s|SKY|$root/benchmarks/inputs/imager_vs_oskar_sky.osm|" \
    -e "s|TEL|$root/telescope-models/ska-low-aa4.tm|" -e "s|GPUS|$gpus|" \
    "$root/benchmarks/inputs/imager_vs_oskar_sim.ini" > sim.ini
TIMEFORMAT=%R
[ -d e2e.ms ] || "$B/apps/sim_interferometer/sim_interferometer" -q sim.ini
mk() {  # mk NAME APP KEY=VALUE...
  local f=$1.ini app=$2; shift 2
  printf '[General]\napp=%s\n\n[image]\ninput_vis_data=e2e.ms\nsize=4096\nfov_deg=5\n' "$app" > "$f"
  printf 'image_type=I\nalgorithm=FFT\nweighting=Natural\ndouble_precision=false\n' >> "$f"
  for kv in "$@"; do echo "$kv" >> "$f"; done
}
gpu_keys=(use_gpus=true fft/use_gpu=true fft/grid_on_gpu=true)
mk fr_gpu imager "${gpu_keys[@]}" root_path=fr_gpu
mk os_gpu oskar_imager "${gpu_keys[@]}" root_path=os_gpu
mk fr_cpu imager use_gpus=false root_path=fr_cpu
mk os_cpu oskar_imager use_gpus=false root_path=os_cpu
export LD_LIBRARY_PATH=$O/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cases=(fr_cpu os_cpu)
[ "$gpus" = true ] && cases=(fr_gpu os_gpu fr_cpu)
for r in 1 2 3; do
  for c in "${cases[@]}"; do
    case $c in fr_*) exe=$B/apps/imager/imager ;; *) exe=$O/bin/oskar_imager ;; esac
    s=$( { time "$exe" -q "$c.ini" > /dev/null 2>&1; } 2>&1 )
    echo "{\"bench\":\"imager_vs_oskar\",\"run\":$r,\"case\":\"$c\",\"wall_s\":$s}"
  done
done
ref=os_cpu_I.fits
[ "$gpus" = true ] && ref=os_gpu_I.fits
[ -f os_cpu_I.fits ] || "$O/bin/oskar_imager" -q os_cpu.ini
for a in fr_gpu_I fr_cpu_I os_cpu_I; do
  [ -f "$a.fits" ] && [ "$a.fits" != "$ref" ] || continue
  echo "== $a vs ${ref%.fits}"
  "$B/tests/unit/imager/imager_fits_compare" "$a.fits" "$ref" || true
done
