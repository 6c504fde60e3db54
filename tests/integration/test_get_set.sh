#!/usr/bin/env bash
# --get and --set on a copy of a settings file: values, defaults, resets, rewritten text.
#   test_get_set.sh APP DATA_DIR SCRATCH_DIR
set -eu
app=$1 data=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
cp "$data/oskar_style.ini" "$dir/s.ini"
fail() { echo "FAIL: $*"; echo "--- file"; cat "$dir/s.ini"; exit 1; }
[ "$("$app" --get "$dir/s.ini" observation/start_frequency_hz)" = "1.4e9" ] || fail "get value"
[ "$("$app" --get "$dir/s.ini" observation/num_channels)" = "1" ] || fail "get default"
[ "$("$app" --get "$dir/s.ini" telescope/station_type)" = "Gaussian beam" ] || fail "get option"
[ "$("$app" --get "$dir/s.ini" observation/start_time_utc)" = "01-02-2015 10:05:23.2" ] ||
  fail "get date"
"$app" --set "$dir/s.ini" observation/num_channels 5 || fail "set"
[ "$("$app" --get "$dir/s.ini" observation/num_channels)" = "5" ] || fail "get after set"
grep -q '^num_channels=5$' "$dir/s.ini" || fail "num_channels not written"
grep -q '^oskar_sky_model/file=sky.osm$' "$dir/s.ini" || fail "backslash key not rewritten with /"
grep -q '^station_type=Gaussian beam$' "$dir/s.ini" || fail "option not written in full"
grep -q '^app=oskar_sim_interferometer$' "$dir/s.ini" || fail "app= not kept"
"$app" --set "$dir/s.ini" observation/num_channels || fail "reset"
! grep -q 'num_channels' "$dir/s.ini" || fail "reset key still written"
"$app" --set "$dir/s.ini" simulator/double_precision true || fail "set to default"
! grep -q 'double_precision' "$dir/s.ini" || fail "default value written"
before=$(cat "$dir/s.ini")
if "$app" --set "$dir/s.ini" observation/num_channels zero 2>/dev/null; then fail "bad value accepted"; fi
[ "$(cat "$dir/s.ini")" = "$before" ] || fail "file changed by a rejected --set"
# The rewritten file still validates (paths are relative to the file's folder: copy inputs).
cp "$data/sky.osm" "$dir/"
sed -i "s|^input_directory=.*|input_directory=$data/../../../telescope-models/vla-a.tm|" "$dir/s.ini"
"$app" -q "$dir/s.ini" || fail "rewritten file does not validate"
echo "ok"
