#!/usr/bin/env bash
# Malformed FEKO coefficient files are bad input: sim_interferometer and sim_beam_pattern exit
# 2 before any output, naming the file and what was expected (docs/station_beams.md, "FEKO
# coefficients"). The model is tests/data/oskar-reference/spherical_wave_feko/feko_h5.tm with
# its root HDF5 file replaced by a broken fixture (tests/data/hdf5/make_feko_files.py), or a
# FEKO text file cut short.
#   feko_bad_input.sh CASE WORKDIR SIM_INTERFEROMETER SIM_BEAM_PATTERN SOURCE_DIR
set -eu
case_name=$1 work=$2 sim=$3 bp=$4 src=$5
check="$src/tests/integration/check_app.sh"
ref="$src/tests/data/oskar-reference"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
case $case_name in
  h5_missing_dataset)
    cp -r "$ref/spherical_wave_feko/feko_h5.tm" tm
    cp "$src/tests/data/hdf5/feko_missing_dataset.h5" tm/element_pattern_FEKO_coeffs.h5
    want="element_pattern_FEKO_coeffs.h5: dataset 'Y2_70000000' is missing" ;;
  h5_bad_length)
    cp -r "$ref/spherical_wave_feko/feko_h5.tm" tm
    cp "$src/tests/data/hdf5/feko_bad_length.h5" tm/station_2/element_pattern_FEKO_coeffs.h5
    want="station_2/element_pattern_FEKO_coeffs.h5: dataset 'X1_50000000': 14 numbers per row" ;;
  h5_not_hdf5)
    cp -r "$ref/spherical_wave_feko/feko_h5.tm" tm
    echo "not HDF5" > tm/element_pattern_FEKO_coeffs.h5
    want="element_pattern_FEKO_coeffs.h5" ;;
  text_short_line)
    cp -r "$ref/spherical_wave_feko/feko_txt.tm" tm
    echo "1 2" > tm/element_pattern_spherical_wave_feko_x_te_re_0_100.txt
    want="element_pattern_spherical_wave_feko_x_te_re_0_100.txt:1: order l = 1 needs at least 3" ;;
  *) echo "unknown case $case_name"; exit 1 ;;
esac
sed -e "s#input_directory=.*#input_directory=$work/tm#" \
    -e "s#oskar_sky_model/file=.*#oskar_sky_model/file=$ref/spherical_wave_aa/sky.osm#" \
    -e "s#ms_filename=.*#ms_filename=$work/out.ms#" \
    "$ref/spherical_wave_feko_h5/spherical_wave_feko_h5.ini" > sim.ini
sed -e "s#input_directory=.*#input_directory=$work/tm#" -e "s#root_path=.*#root_path=$work/bp#" \
    "$ref/beam_pattern/spherical_wave_feko_h5/oskar_sim_beam_pattern.ini" > bp.ini
bash "$check" 2 "" "$want" -- "$sim" -q sim.ini
bash "$check" 2 "" "$want" -- "$bp" -q bp.ini
# Nothing written.
[ ! -e out.ms ] || { echo "FAIL: out.ms was written"; exit 1; }
if ls bp* >/dev/null 2>&1 && ls | grep -q '^bp_'; then echo "FAIL: beam patterns written"; exit 1; fi
echo "ok: $case_name"
