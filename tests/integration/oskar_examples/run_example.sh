#!/usr/bin/env bash
# Runs one of OSKAR 2.13's own example sets (tests/data/oskar-examples/<set>) through fringe's
# apps exactly as an OSKAR user would: copy the folder, set the two keys OSKAR's tutorial asks
# for with --set, then run the three settings files unchanged (simulate -> .vis -> image, and
# the beam pattern), and compare with what OSKAR 2.13 wrote for the same files.
#   run_example.sh SET SKY_FILE WORKDIR BIN_DIR REF_DIR SINGLE_TOL SINGLE_DOUBLE_TOL DOUBLE_TOL
#                  BEAM_TOL IMAGE_TOL CONV_TOL SINGLE_IMAGE_TOL
# BIN_DIR holds sim_interferometer, imager, sim_beam_pattern and vis_compare. REF_DIR holds
# OSKAR's outputs (README there; both sets describe the same observation, so they share one
# reference). Tolerances, as largest |fringe - OSKAR| / largest |OSKAR|: fringe's single-
# precision run against OSKAR's single (SINGLE_TOL: OSKAR's own single-precision error
# dominates) and against OSKAR's double-precision run of the same file (SINGLE_DOUBLE_TOL),
# fringe's double against OSKAR's double (DOUBLE_TOL), the beam-pattern samples (single
# precision, as the file asks), the DFT image of the double run (double precision, IMAGE_TOL),
# and the FFT and W-projection images of the double run (CONV_TOL). The tutorial's imager file
# as shipped (OSKAR's default FFT gridder, single precision, of the single-precision run) is
# compared with SINGLE_IMAGE_TOL: single-precision gridding, FFT and the division by the
# gridding correction near the image edges leave errors of ~1e-3 of the peak in both
# programs' single-precision images (each against OSKAR's double-precision one).
set -euo pipefail
set_name=$1 sky=$2 work=$3 bin=$4 ref=$5 single_tol=$6 single_double_tol=$7 double_tol=$8
beam_tol=$9 image_tol=${10} conv_tol=${11} single_image_tol=${12}
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../../data/oskar-examples" && pwd)

rm -rf "$work"  # this test's own scratch folder in the build tree
mkdir -p "$work"
cp -r "$data/$set_name"/. "$work"/
cd "$work"

echo "== the two keys the tutorial asks for, set with --set"
"$bin/sim_interferometer" --set oskar_sim_interferometer.ini sky/oskar_sky_model/file "$sky"
"$bin/sim_interferometer" --set oskar_sim_interferometer.ini telescope/input_directory telescope.tm
"$bin/sim_beam_pattern" --set oskar_sim_beam_pattern.ini telescope/input_directory telescope.tm

echo "== sim_interferometer oskar_sim_interferometer.ini"
"$bin/sim_interferometer" oskar_sim_interferometer.ini | tee sim.log
test -s example.vis

echo "== imager oskar_imager.ini (reads example.vis)"
"$bin/imager" oskar_imager.ini | tee imager.log
# No image/algorithm in the file: OSKAR's default, the FFT gridder, as OSKAR runs it.
grep -q "algorithm: FFT" imager.log
$py "$here/fits_samples.py" compare "$ref/image_fft_single.npz" . "$single_image_tol"

echo "== sim_beam_pattern oskar_sim_beam_pattern.ini"
"$bin/sim_beam_pattern" oskar_sim_beam_pattern.ini | tee beam.log
# The same file names as OSKAR's, the same FITS axes, and the same beam (samples).
$py "$here/fits_samples.py" compare "$ref/beam_pattern.npz" . "$beam_tol"

echo "== example.vis against OSKAR's (single precision, as the file asks)"
gzip -dc "$ref/example_single.vis.gz" > oskar_single.vis
gzip -dc "$ref/example_double.vis.gz" > oskar_double.vis
"$bin/vis_compare" oskar_single.vis example.vis "$single_tol"
echo "== example.vis against OSKAR's double-precision run of the same file"
"$bin/vis_compare" oskar_double.vis example.vis "$single_double_tol"

echo "== double precision (simulator/double_precision = true set on a copy)"
cp oskar_sim_interferometer.ini double.ini
"$bin/sim_interferometer" --set double.ini simulator/double_precision true
"$bin/sim_interferometer" --set double.ini interferometer/oskar_vis_filename example_double.vis
"$bin/sim_interferometer" -q double.ini
"$bin/vis_compare" oskar_double.vis example_double.vis "$double_tol"
echo "== the same DFT image as OSKAR's (DFT 2D, double precision, of the double run)"
cp oskar_imager.ini dft.ini
"$bin/imager" --set dft.ini image/algorithm "DFT 2D"
"$bin/imager" --set dft.ini image/root_path example_dft
"$bin/imager" --set dft.ini image/double_precision true
"$bin/imager" --set dft.ini image/input_vis_data example_double.vis
"$bin/imager" dft.ini > dft.log
$py "$here/fits_samples.py" compare "$ref/image_dft.npz" . "$image_tol"
echo "== the same FFT and W-projection images as OSKAR's (double precision, of the double run)"
cp dft.ini fft_double.ini
"$bin/imager" --set fft_double.ini image/algorithm FFT
"$bin/imager" --set fft_double.ini image/root_path example_fft_double
"$bin/imager" fft_double.ini > fft_double.log
$py "$here/fits_samples.py" compare "$ref/image_fft_double.npz" . "$conv_tol"
cp fft_double.ini wproj_double.ini
"$bin/imager" --set wproj_double.ini image/algorithm W-projection
"$bin/imager" --set wproj_double.ini image/root_path example_wproj_double
"$bin/imager" wproj_double.ini > wproj_double.log
$py "$here/fits_samples.py" compare "$ref/image_wproj_double.npz" . "$conv_tol"
echo "== uniform weighting as OSKAR defines it (FFT, double precision)"
cp fft_double.ini fft_uniform_double.ini
"$bin/imager" --set fft_uniform_double.ini image/weighting Uniform
"$bin/imager" --set fft_uniform_double.ini image/root_path example_fft_uniform_double
"$bin/imager" fft_uniform_double.ini > fft_uniform_double.log
$py "$here/fits_samples.py" compare "$ref/image_fft_uniform_double.npz" . "$conv_tol"

echo "all checks passed"
