#!/usr/bin/env bash
# fringe's imager end to end against WSClean 3.1 on the same host and Measurement Set (issue 23;
# benchmarks/RESULTS.md "Imager vs WSClean"): without MS, simulate the SKA-Low AA4 case of
# imager_vs_oskar.sh (512 stations, 32 times x 8 channels, 4.19 M rows, 1.3 GB) with fringe's
# sim_interferometer; then make a dirty image of it (4096^2 over 5 deg, Stokes I, natural
# weighting) with WSClean (-use-wgridder, all cores) and with fringe's imager (FFT and IDG, single
# precision; on the GPU and the CPU with use_gpus=true, on the CPU only with false), three
# alternating runs, one JSON line per run (wall time of the whole program, bash `time`); then
# each fringe image against WSClean's (compare_fits.py: RMS and largest difference over
# WSClean's peak, also over the central half).
#
# Usage: imager_vs_wsclean.sh FRINGE_BUILD WORKDIR [use_gpus: true|false] [MS]
#   FRINGE_BUILD: a fringe build folder (apps/, tests/unit/imager/imager_fits_compare);
#   WORKDIR: settings, logs and images go here (e2e.ms too when simulated; an existing
#     WORKDIR/e2e.ms is reused);
#   MS: image this Measurement Set instead (only read: WSClean runs with
#     -no-update-model-required and without reordering).
# Environment: SIZE (4096) and FOV_DEG (5): image side and field; the cell is fringe's (OSKAR's)
#   asin(2 sin(fov/2) / size), 4.393136955" for 5 deg over 4096, given to WSClean as -scale;
#   WSCLEAN (wsclean): the WSClean 3.1 binary; WS_ACCURACY (1e-4, WSClean's default):
#   -wgridder-accuracy; WS_POL (I): WSClean's -pol (XX for a one-correlation MS, OSKAR's scalar
#   mode, where fringe's I is the XX column and WSClean refuses I); RUNS (3): alternating runs; PYTHON (python3, with numpy and astropy;
#   without them only imager_fits_compare's largest difference is printed).
# WSClean command (N = SIZE, cell in arcsec with 10 decimals):
#   OPENBLAS_NUM_THREADS=1 wsclean -use-wgridder -wgridder-accuracy 1e-4 -j $(nproc)
#     -size N N -scale <cell>asec -pol I -weight natural -niter 0 -no-small-inversion
#     -no-update-model-required -temp-dir WORKDIR -name ws MS        -> ws-dirty.fits
#   -niter 0: no cleaning, the dirty image; -no-small-inversion: grid at the full size rather than
#   at the smallest the uv coverage needs followed by Fourier interpolation, which costs accuracy
#   near the edges (compare_fits.py; no effect on the AA4 case, whose coverage needs 4096^2);
#   OPENBLAS_NUM_THREADS=1: WSClean 3.1 refuses a multi-threaded OpenBLAS.
#
# On the GPU host (no network; the run carries .deps, which holds .deps/debs, unpack-debs.sh and
# .deps/wsclean/{unpack-wsclean.sh, wsclean-3.1-debs/}, copies of ../shared/peers/):
#   eval "$(bash .deps/unpack-debs.sh .deps/debs /opt/deps)"   # casacore, FFTW, CFITSIO ...;
#                                      # exports LD_LIBRARY_PATH=/opt/deps/usr/lib/x86_64-linux-gnu
#   bash .deps/wsclean/unpack-wsclean.sh /opt/deps             # prints wsclean: /opt/deps/usr/bin/wsclean
#                                      # (or the libraries ldd cannot find)
#   export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/opt/deps/lib/x86_64-linux-gnu   # libkeyutils.so.1
#   export WSCLEAN=/opt/deps/usr/bin/wsclean
#   TARGETS="imager sim_interferometer imager_fits_compare" scripts/gpu-check   # build-gpu/
#   benchmarks/scripts/imager_vs_wsclean.sh build-gpu /tmp/iws true 2>&1 | tee $OUT/iws.txt
# (the simulation takes about 15 s; the AA4 WSClean run took 64.6 s on 16 cores in issue 23).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "$1" && pwd) work=$2 gpus=${3:-true} ms=${4:-}
size=${SIZE:-4096} fov=${FOV_DEG:-5} runs=${RUNS:-3}
ws=${WSCLEAN:-wsclean} acc=${WS_ACCURACY:-1e-4} pol=${WS_POL:-I} py=${PYTHON:-python3}
if [ -n "$ms" ]; then
  [ -d "$ms" ] || { echo "imager_vs_wsclean: MS '$ms' is not a Measurement Set folder" >&2; exit 2; }
  ms=$(cd "$ms" && pwd)
fi
mkdir -p "$work" && cd "$work"
if [ -z "$ms" ]; then
  sed -e "s|SKY|$root/benchmarks/inputs/imager_vs_oskar_sky.osm|" \
      -e "s|TEL|$root/telescope-models/ska-low-aa4.tm|" -e "s|GPUS|$gpus|" \
      "$root/benchmarks/inputs/imager_vs_oskar_sim.ini" > sim.ini
  [ -d e2e.ms ] || "$B/apps/sim_interferometer/sim_interferometer" -q sim.ini
  ms=$PWD/e2e.ms
fi
# fringe's cell (fringe/app/imager_settings.cpp): asin(2 sin(fov/2) / size), in arcsec.
cell=$(awk -v f="$fov" -v n="$size" 'BEGIN { pi = atan2(0, -1); x = 2 * sin(f * pi / 360) / n;
  printf "%.10f", atan2(x, sqrt(1 - x * x)) * 180 / pi * 3600 }')
mk() {  # mk NAME KEY=VALUE...: a fringe imager settings file
  local name=$1; shift
  printf '[General]\napp=imager\n\n[image]\ninput_vis_data=%s\nsize=%s\nfov_deg=%s\n' \
    "$ms" "$size" "$fov" > "$name.ini"
  printf 'image_type=I\nweighting=Natural\ndouble_precision=false\nroot_path=%s\n' "$name" \
    >> "$name.ini"
  for kv in "$@"; do echo "$kv" >> "$name.ini"; done
}
mk fr_fft_gpu algorithm=FFT use_gpus=true fft/use_gpu=true fft/grid_on_gpu=true
mk fr_idg_gpu algorithm=IDG use_gpus=true
mk fr_fft_cpu algorithm=FFT use_gpus=false
mk fr_idg_cpu algorithm=IDG use_gpus=false
ws_cmd=("$ws" -use-wgridder -wgridder-accuracy "$acc" -j "$(nproc)" -size "$size" "$size"
  -scale "${cell}asec" -pol "$pol" -weight natural -niter 0 -no-small-inversion
  -no-update-model-required -temp-dir "$PWD" -name ws "$ms")
echo "== $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-); cell ${cell}\""
echo "== OPENBLAS_NUM_THREADS=1 ${ws_cmd[*]}"
export OPENBLAS_NUM_THREADS=1
cases=(ws fr_fft_cpu fr_idg_cpu)
[ "$gpus" = true ] && cases=(ws fr_fft_gpu fr_idg_gpu fr_fft_cpu fr_idg_cpu)
TIMEFORMAT=%R
for r in $(seq 1 "$runs"); do
  for c in "${cases[@]}"; do
    if [ "$c" = ws ]; then cmd=("${ws_cmd[@]}"); else cmd=("$B/apps/imager/imager" -q "$c.ini"); fi
    if ! s=$( { time "${cmd[@]}" > "$c.log" 2>&1; } 2>&1 ); then
      echo "imager_vs_wsclean: $c failed (run $r); the end of $PWD/$c.log:" >&2
      tail -20 "$c.log" >&2
      exit 1
    fi
    echo "{\"bench\":\"imager_vs_wsclean\",\"run\":$r,\"case\":\"$c\",\"wall_s\":$s}"
  done
done
grep -h "Gridded visibility count" ws.log | sed 's/^/== wsclean: /' || true
for c in "${cases[@]}"; do
  [ "$c" = ws ] && continue
  echo "== ${c}_I vs ws-dirty"
  if "$py" -c 'import numpy, astropy' 2> /dev/null; then
    "$py" "$root/benchmarks/scripts/compare_fits.py" "${c}_I.fits" ws-dirty.fits || true
  else
    "$B/tests/unit/imager/imager_fits_compare" "${c}_I.fits" ws-dirty.fits || true
  fi
done
