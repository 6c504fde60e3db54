#!/usr/bin/env bash
# Runs a command and then checks that FILE still begins with LINE (a user's file that the
# command must not touch); exits with the command's exit code, or 99 when FILE changed.
#   keeps_file.sh FILE LINE -- command [args...]
set -u
file=$1 line=$2
shift 3
"$@"
rc=$?
if [ "$(head -n 1 "$file" 2>/dev/null)" != "$line" ]; then
  echo "FAIL: $file was changed or removed" >&2
  exit 99
fi
exit $rc
