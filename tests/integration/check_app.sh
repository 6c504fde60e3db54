#!/usr/bin/env bash
# Runs a command and checks its exit code and output.
#   check_app.sh RC OUT_REGEX ERR_REGEX -- command [args...]
# RC is the expected exit code; OUT_REGEX and ERR_REGEX are extended regular expressions that
# stdout and stderr must match (an empty one is not checked; one starting with '!' must NOT
# match; EMPTY means the stream must be empty). Prints what it saw when a check fails.
set -u
rc_want=$1 out_re=$2 err_re=$3
shift 3
[ "$1" = "--" ] && shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
rc=$?
fail=0
check() {  # stream-name file regex
  local re=$3 negate=0
  [ -z "$re" ] && return 0
  if [ "$re" = "EMPTY" ]; then
    [ -s "$2" ] && { echo "FAIL: $1 is not empty"; fail=1; }
    return 0
  fi
  if [ "${re:0:1}" = "!" ]; then negate=1 re=${re:1}; fi
  if grep -Eq -- "$re" "$2"; then
    [ $negate = 1 ] && { echo "FAIL: $1 matches /$re/ but must not"; fail=1; }
  else
    [ $negate = 0 ] && { echo "FAIL: $1 does not match /$re/"; fail=1; }
  fi
  return 0
}
[ "$rc" = "$rc_want" ] || { echo "FAIL: exit code $rc, expected $rc_want"; fail=1; }
check stdout "$out" "$out_re"
check stderr "$err" "$err_re"
if [ $fail = 1 ]; then
  echo "command: $*"
  echo "--- stdout"; cat "$out"
  echo "--- stderr"; cat "$err"
  exit 1
fi
echo "ok: $*"
