#!/bin/sh
# GUI integration test: runs `fringe SETTINGS --run-and-exit --screenshot PNG` (under Xvfb via
# xvfb-run when it exists, else Qt's offscreen platform), then checks the exit status, the
# run log and that both screenshots are PNG files.
# Usage: run_gui_integration.sh FRINGE_EXE SETTINGS_INI APP_LOCATION OUT_PNG [light|dark]
set -u
exe=$1 ini=$2 apps=$3 png=$4 theme=${5:-light}
run_png="${png%.png}-run.png"
rm -f "$png" "$run_png"
extra=""
[ "$theme" = dark ] && extra="--dark"
log=$(mktemp)
if command -v xvfb-run >/dev/null 2>&1; then
  xvfb-run -a -s "-screen 0 1920x1200x24" "$exe" "$ini" --app-location "$apps" \
    --run-and-exit --screenshot "$png" --timeout 240 $extra >"$log" 2>&1
else
  QT_QPA_PLATFORM=offscreen "$exe" "$ini" --app-location "$apps" \
    --run-and-exit --screenshot "$png" --timeout 240 $extra >"$log" 2>&1
fi
rc=$?
cat "$log"
fail() { echo "FAIL: $*"; rm -f "$log"; exit 1; }
[ $rc -eq 0 ] || fail "fringe exited with $rc"
grep -q "Finished successfully" "$log" || fail "the run log does not say the run finished"
grep -q "Settings are valid" "$log" || fail "sim_interferometer's output is missing from the log"
for f in "$png" "$run_png"; do
  [ -s "$f" ] || fail "no screenshot $f"
  sig=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
  [ "$sig" = "89504e470d0a1a0a" ] || fail "$f is not a PNG"
done
rm -f "$log"
echo "PASS: screenshots $png and $run_png"
