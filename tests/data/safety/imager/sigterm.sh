#!/usr/bin/env bash
# Sends SIGTERM to an imager run after DELAY seconds and checks that it exits 143 within a
# few seconds and leaves no output and no temporary beside ROOT:
#   sigterm.sh IMAGER SETTINGS ROOT DELAY
set -u
imager=$1 ini=$2 root=$3 delay=$4
rm -f "$root"_*
"$imager" -q "$ini" &
pid=$!
sleep "$delay"
kill -TERM "$pid"
start=$(date +%s)
wait "$pid"
rc=$?
took=$(($(date +%s) - start))
left=$(ls -d "$root"_* 2>/dev/null | wc -l)
echo "rc=$rc after ${took} s, $left file(s) left beside $root"
[ "$rc" = 143 ] && [ "$left" = 0 ] && [ "$took" -le 3 ]
