# Shared helpers of the safety case scripts (source it after setting $case and cd-ing into
# the case's fresh work folder): each check prints what failed, with the app's output, and
# exits 1.
fail() {
  echo "FAIL ($case): $*"
  echo "--- stdout"; cat out.txt 2>/dev/null
  echo "--- stderr"; cat err.txt 2>/dev/null
  exit 1
}
run() {  # EXPECTED_RC COMMAND...: runs it, stdout/stderr into out.txt/err.txt
  local want=$1
  shift
  "$@" >out.txt 2>err.txt
  local rc=$?
  [ "$rc" = "$want" ] || fail "exit code $rc, expected $want: $*"
}
stderr_has() { grep -Eq -- "$1" err.txt || fail "stderr does not match /$1/"; }
log_has() { cat out.txt err.txt | grep -Eq -- "$1" || fail "the log does not match /$1/"; }
no_temporaries() {
  local left
  left=$(find . -name '*.tmp-*')
  [ -z "$left" ] || fail "temporaries left behind: $left"
}
absent() { [ ! -e "$1" ] || fail "'$1' exists but must not"; }
