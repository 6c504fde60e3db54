#!/usr/bin/env bash
# --get and --set on a copy of a settings file: values, defaults, resets; --set changes only
# the key's line.
#   test_get_set.sh APP DATA_DIR SCRATCH_DIR
#   test_get_set.sh APP SAFETY_DATA_DIR SCRATCH_DIR keeps_lines
# The second form: --set on a hand-written file (UTF-8 BOM, CRLF, comments, an unknown key, a
# line without '=') changes exactly one line, byte for byte (tests/data/safety/settings).
set -eu
app=$1 data=$2 dir=$3 mode=${4:-}
rm -rf "$dir" && mkdir -p "$dir"
if [ "$mode" = keeps_lines ]; then
  f=$dir/user.ini
  cp "$data/user.ini" "$f"
  fail() { echo "FAIL: $*"; echo "--- file"; od -c "$f" | head -40; exit 1; }
  "$app" --set "$f" observation/num_channels 5 2>"$dir/err" || fail "set"
  grep -q "warning: .*user.ini:11: setting 'observation/num_time_stesp'" "$dir/err" ||
    fail "unknown key not reported: $(cat "$dir/err")"
  grep -q "warning: .*user.ini:9: 'num_channels 3' is not a setting line" "$dir/err" ||
    fail "line without '=' not reported: $(cat "$dir/err")"
  cmp "$f" "$data/user_set.expected.ini" || fail "--set changed more than one line"
  "$app" --set "$f" observation/num_channels 2>/dev/null || fail "reset"
  cmp "$f" "$data/user.ini" || fail "reset did not give back the original bytes"
  if "$app" --strict --set "$f" observation/num_channels 5 2>/dev/null; then
    fail "--strict --set accepted a file with an unknown key"
  fi
  cmp "$f" "$data/user.ini" || fail "--strict --set changed the file"
  ls "$dir" | grep -q 'tmp' && fail "a temporary was left: $(ls "$dir")"
  echo "ok"
  exit 0
fi
cp "$data/oskar_style.ini" "$dir/s.ini"
fail() { echo "FAIL: $*"; echo "--- file"; cat "$dir/s.ini"; exit 1; }
[ "$("$app" --get "$dir/s.ini" observation/start_frequency_hz)" = "1.4e9" ] || fail "get value"
[ "$("$app" --get "$dir/s.ini" observation/num_channels)" = "1" ] || fail "get default"
[ "$("$app" --get "$dir/s.ini" telescope/station_type)" = "Gaussian beam" ] || fail "get option"
[ "$("$app" --get "$dir/s.ini" observation/start_time_utc)" = "01-02-2015 10:05:23.2" ] ||
  fail "get date"
"$app" --set "$dir/s.ini" observation/num_channels 5 || fail "set"
[ "$("$app" --get "$dir/s.ini" observation/num_channels)" = "5" ] || fail "get after set"
# Only the key's line is new: every other line stays as written (key spellings, options).
grep -q '^num_channels=5$' "$dir/s.ini" || fail "num_channels not written"
[ "$(grep -v '^num_channels=5$' "$dir/s.ini")" = "$(cat "$data/oskar_style.ini")" ] ||
  fail "other lines changed by --set"
grep -q '^oskar_sky_model\\file=sky.osm$' "$dir/s.ini" || fail "backslash key respelled"
grep -q '^station_type=G$' "$dir/s.ini" || fail "option rewritten"
"$app" --set "$dir/s.ini" observation/num_channels || fail "reset"
cmp -s "$dir/s.ini" "$data/oskar_style.ini" || fail "reset did not give back the original"
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
