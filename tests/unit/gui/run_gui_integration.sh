#!/bin/sh
# GUI integration test: copies the example settings into the build tree (input paths made
# absolute, the Measurement Set written beside the copy, never into the source tree), runs
# `fringe COPY --run-and-exit --screenshot PNG` (under Xvfb via xvfb-run when it exists, else
# Qt's offscreen platform), then checks the exit status, the run log and the screenshots.
# Usage: run_gui_integration.sh FRINGE_EXE SETTINGS_INI APP_LOCATION OUT_PNG [light|dark] [APP]
# APP (default sim_interferometer): sim_beam_pattern writes FITS beam images (root_path made
# absolute into the run folder), and the GUI must then also show the first one (-image.png).
set -u
exe=$1 ini=$2 apps=$3 png=$4 theme=${5:-light} app=${6:-sim_interferometer}
out_dir=$(dirname "$png")
run_dir="$out_dir/gui_run_$theme"
[ "$app" = sim_interferometer ] || run_dir="$out_dir/gui_run_${app}_$theme"
rm -rf "$run_dir"
mkdir -p "$run_dir"
rm -f "$png" "${png%.png}-run.png" "${png%.png}-uv.png" "${png%.png}-image.png"
ex_dir=$(cd "$(dirname "$ini")" && pwd)
copy="$run_dir/$(basename "$ini")"
sed -e "s|^oskar_sky_model/file=\([^/].*\)$|oskar_sky_model/file=$ex_dir/\1|" \
    -e "s|^input_directory=\([^/].*\)$|input_directory=$ex_dir/\1|" \
    -e "s|^ms_filename=\([^/].*\)$|ms_filename=$run_dir/\1|" \
    -e "s|^root_path=\([^/].*\)$|root_path=$run_dir/\1|" "$ini" > "$copy"
extra="--app $app"
[ "$theme" = dark ] && extra="$extra --dark"
log=$(mktemp)
if command -v xvfb-run >/dev/null 2>&1; then
  xvfb-run -a -s "-screen 0 1920x1200x24" "$exe" "$copy" --app-location "$apps" \
    --run-and-exit --screenshot "$png" --timeout 240 $extra >"$log" 2>&1
else
  QT_QPA_PLATFORM=offscreen "$exe" "$copy" --app-location "$apps" \
    --run-and-exit --screenshot "$png" --timeout 240 $extra >"$log" 2>&1
fi
rc=$?
cat "$log"
fail() { echo "FAIL: $*"; rm -f "$log"; exit 1; }
[ $rc -eq 0 ] || fail "fringe exited with $rc"
grep -q "Finished successfully" "$log" || fail "the run log does not say the run finished"
grep -q "Settings are valid" "$log" || fail "$app's output is missing from the log"
shots="$png ${png%.png}-run.png"
# When the app wrote a Measurement Set, the GUI must have shown its uv coverage too.
if ls -d "$run_dir"/*.[mM][sS] >/dev/null 2>&1; then
  shots="$shots ${png%.png}-uv.png"
fi
# When the app wrote FITS images, the GUI must have shown one.
if ls "$run_dir"/*.fits >/dev/null 2>&1; then
  shots="$shots ${png%.png}-image.png"
fi
for f in $shots; do
  [ -s "$f" ] || fail "no screenshot $f"
  sig=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
  [ "$sig" = "89504e470d0a1a0a" ] || fail "$f is not a PNG"
done
rm -f "$log"
echo "PASS: screenshots $shots"
