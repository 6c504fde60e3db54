#!/usr/bin/env bash
# Runs an app on a copy of a settings file whose outputs go to WORKDIR (inputs keep pointing
# at the original files; see relocate_ini.py), so tests never write into the source tree.
#   run_relocated.sh WORKDIR APP [APP_OPTIONS...] SETTINGS.ini
set -eu
workdir=$1 app=$2
shift 2
args=("$@")
ini=${args[-1]}
unset 'args[-1]'
rm -rf "$workdir"
copy=$(/usr/bin/python3 "$(dirname "$0")/relocate_ini.py" "$ini" "$workdir")
exec "$app" "${args[@]}" "$copy"
