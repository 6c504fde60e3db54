#!/usr/bin/env bash
# Copies this folder's model.tm and loop.ini to WORKDIR, adds a symbolic-link loop to the
# station folder (ln -s . station/loop) and runs APP [OPTIONS...] on the copy. The link is
# made here rather than checked in, so that no tool walking the source tree meets it.
#   loop_model.sh WORKDIR APP [OPTIONS...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
workdir=$1 app=$2
shift 2
rm -rf "$workdir"
mkdir -p "$workdir"
cp -r "$here/model.tm" "$here/loop.ini" "$here/sky_bom.osm" "$workdir/"
ln -s . "$workdir/model.tm/station/loop"
exec "$app" "$@" "$workdir/loop.ini"
