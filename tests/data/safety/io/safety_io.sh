#!/usr/bin/env bash
# Output-safety checks of the writers through sim_interferometer (docs/reliability/io.md),
# on a tiny case (4 SKA-Low AA0.5 stations, one source) in a fresh WORKDIR:
#   safety_io.sh CASE WORKDIR SIM_INTERFEROMETER TELESCOPE_MODEL_DIR
# Cases:
#   sky_output   the sky text output replaces an earlier one (first line "# fringe sky
#                model"), and a user's .osm at its path is refused and kept;
#   disk_full    a run whose writes fail (file-size limit, SIGXFSZ ignored, as a full disk)
#                exits 1 without an abort, leaves no temporary, and the earlier MS at the
#                path is byte-for-byte unchanged.
# Prints "ok: CASE" and exits 0, or prints what failed (with the app's output) and exits 1.
set -u
case=$1 work=$2 sim=$3 tm=$4
lib=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/case_lib.sh
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=../case_lib.sh
source "$lib"

tree_sum() { (cd "$1" && find . -type f ! -name table.lock -exec md5sum {} + | sort); }

printf '# RA, Dec [deg], Stokes I [Jy]\n60.0 -30.0 1.0\n' >sky.osm
cat >sim.ini <<EOF2
[simulator]
use_gpus=false

[sky]
oskar_sky_model/file=sky.osm
output_text_file=final_sky.osm

[observation]
phase_centre_ra_deg=60
phase_centre_dec_deg=-30
start_frequency_hz=100e6
num_channels=2
frequency_inc_hz=1e6
start_time_utc=2025-01-01T13:17:30.5
length=00:20:00
num_time_steps=2

[telescope]
input_directory=$tm
station_type=Isotropic beam

[interferometer]
ms_filename=out.ms
EOF2

case $case in
  sky_output)
    run 0 "$sim" -q sim.ini
    head -1 final_sky.osm | grep -q '^# fringe sky model' || fail "first line: $(head -1 final_sky.osm)"
    run 0 "$sim" -q sim.ini  # the earlier output is replaced
    rm -rf out.ms
    printf '# my own sky model\n10 -30 1\n' >final_sky.osm
    cp final_sky.osm expected.osm
    "$sim" -q sim.ini >out.txt 2>err.txt
    rc=$?
    [ $rc = 1 ] || [ $rc = 2 ] || fail "exit code $rc, expected 1 or 2"
    stderr_has "final_sky.osm.*refusing to replace"
    cmp -s final_sky.osm expected.osm || fail "final_sky.osm changed"
    no_temporaries ;;
  disk_full)
    run 0 "$sim" -q sim.ini
    before=$(tree_sum out.ms)
    sed -i 's/^num_time_steps=.*/num_time_steps=200/; s/^num_channels=.*/num_channels=64/' sim.ini
    (trap '' XFSZ; ulimit -f 600; exec "$sim" -q sim.ini) >out.txt 2>err.txt
    rc=$?
    [ $rc = 1 ] || fail "exit code $rc, expected 1 (134 is an abort)"
    stderr_has "error: .*out.ms"
    [ "$(tree_sum out.ms)" = "$before" ] || fail "the earlier out.ms changed"
    no_temporaries ;;
  *) fail "unknown case" ;;
esac
echo "ok: $case"
