#!/usr/bin/env bash
# One data-safety case of calibrate (tests/integration/safety_calibrate.cmake): copies the
# base Measurement Set into a fresh case folder beside a settings file, a "thesis.tex" and a
# "sky.osm" (files that must survive), runs calibrate and checks what is left.
#   cal_case.sh MODE CALIBRATE CAL_MS_POKE BASE_MS CASE_DIR [LINE|poke:COLUMN=VALUE]...
# LINEs go into the [calibrate] section (@DIR@ = the case folder); output_gains and
# min_baselines get defaults unless given. poke:COLUMN=VALUE writes hostile values into the
# copy first (cal_ms_poke). MODE:
#   ok        calibrate's exit code; afterwards the gain table exists.
#   rerun     calibrate twice: an earlier gain table is replaced.
#   refused   calibrate's exit code; afterwards the MS has no CORRECTED_DATA, and the case
#             folder's files are intact.
#   fails     calibrate's exit code; afterwards the MS is readable, FLAG unchanged (no
#             flagged sample), no gain table or temporary.
#   diskfull  calibrate under `ulimit -f 16` (16 KiB) with SIGXFSZ ignored; afterwards the MS
#             is readable and no temporary is left.
#   diskfull_rerun  the same after a first run without the limit (CORRECTED_DATA there: its
#             writes fail mid-run); the first run's gain table is moved away.
#   sigterm   SIGTERM once calibrate reports its third solution interval; exit 143 within a
#             second is expected; afterwards the MS is readable, without orphan column files,
#             and neither a gain table nor a temporary is left.
#   sigint    the same with SIGINT (exit 130).
# Prints calibrate's output and the checks; exits with calibrate's exit code, or 99 when a
# check after the run fails (check_app.sh compares the code and the output).
set -u
mode=$1 cal=$2 poke=$3 base=$4 dir=$5
shift 5
rm -rf "$dir"
mkdir -p "$dir"
cp -r "$base" "$dir/in.ms"
echo "keep me" >"$dir/thesis.tex"
printf '0 0 1\n' >"$dir/sky.osm"
ini=$dir/cal.ini
lines=()
for a in "$@"; do
  if [ "${a#poke:}" != "$a" ]; then
    kv=${a#poke:}
    "$poke" "$dir/in.ms" "${kv%%=*}" "${kv#*=}" || exit 98
  else
    lines+=("${a//@DIR@/$dir}")
  fi
done
{
  printf '[General]\napp=calibrate\n\n[calibrate]\nuse_gpus=false\ninput_ms=%s\n' "$dir/in.ms"
  printf '%s\n' "${lines[@]}" | grep -q '^output_gains=' || printf 'output_gains=%s\n' "$dir/out.gains"
  printf '%s\n' "${lines[@]}" | grep -q '^min_baselines=' || printf 'min_baselines=2\n'
  printf '%s\n' "${lines[@]}"
} >"$ini"
cp "$ini" "$dir/cal.ini.orig"

fail() {
  echo "CHECK FAILED: $*"
  exit 99
}
leftovers() { find "$dir" -maxdepth 1 -name '*.tmp-*' | grep -q .; }

case $mode in
  sigterm | sigint)
    sig=${mode#sig}
    sig=${sig^^}
    log=$dir/run.log
    # Job control on: without it a script's background job starts with SIGINT ignored (POSIX),
    # and fringe keeps a signal it inherits as ignored ignored (docs/reliability.md).
    set -m
    "$cal" "$ini" >"$log" 2>&1 &
    pid=$!
    set +m
    for _ in $(seq 1 500); do
      grep -q 'times 2\.\.2' "$log" 2>/dev/null && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.01
    done
    grep -q 'times 2\.\.2' "$log" || { cat "$log"; fail "calibrate did not reach its third interval"; }
    start=$(date +%s%N)
    kill -$sig $pid
    wait $pid
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    cat "$log"
    echo "exit $rc after SIG$sig in $ms ms"
    [ $ms -le 1000 ] || fail "took $ms ms to stop"
    ;;
  diskfull | diskfull_rerun)
    if [ $mode = diskfull_rerun ]; then
      "$cal" -q "$ini" || fail "the first run failed"
      mv "$dir/out.gains" "$dir/first.gains" && mv "$dir/out.gains.csv" "$dir/first.gains.csv"
    fi
    (trap '' XFSZ && ulimit -f 16 && exec "$cal" "$ini")
    rc=$?
    [ -e "$dir/out.gains" ] && fail "a gain table was written"
    ;;
  rerun)
    "$cal" -q "$ini" || fail "the first run failed"
    "$cal" "$ini"
    rc=$?
    ;;
  *)
    "$cal" "$ini"
    rc=$?
    ;;
esac

[ -f "$dir/thesis.tex" ] && [ "$(cat "$dir/thesis.tex")" = "keep me" ] || fail "thesis.tex changed"
[ -f "$dir/sky.osm" ] && [ "$(cat "$dir/sky.osm")" = "0 0 1" ] || fail "sky.osm changed"
cmp -s "$ini" "$dir/cal.ini.orig" || fail "the settings file changed"
check=$("$poke" "$dir/in.ms" check) || fail "the MS is not readable: $check"
echo "$check"
case $mode in
  ok | rerun) [ -d "$dir/out.gains" ] && [ -f "$dir/out.gains.csv" ] || fail "no gain table" ;;
  refused) echo "$check" | grep -q 'CORRECTED_DATA no' || fail "the MS was changed" ;;
  fails)
    echo "$check" | grep -q ' 0 flagged samples' || fail "FLAG was written"
    [ -e "$dir/out.gains" ] && fail "a gain table was written"
    leftovers && fail "a temporary was left"
    ;;
  diskfull | diskfull_rerun | sigterm | sigint)
    leftovers && fail "a temporary was left: $(ls "$dir")"
    [ "${mode#sig}" != "$mode" ] && [ -e "$dir/out.gains" ] && fail "a gain table was written"
    ;;
esac
exit $rc
