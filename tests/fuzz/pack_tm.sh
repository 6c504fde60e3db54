#!/usr/bin/env bash
# Packs a telescope model folder into the fuzz_tm input format (tm_unpack.h) on stdout:
# "@@ <path>" then the file's lines for each file, "@@dir <path>" for each empty folder.
# Usage: tests/fuzz/pack_tm.sh <model.tm> > corpus/tm/<name>
set -euo pipefail
cd "$1"
find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
  rel=${p#./}
  if [ -f "$p" ]; then
    echo "@@ $rel"
    cat "$p"
    [ -z "$(tail -c1 "$p")" ] || echo
  elif [ -d "$p" ] && [ -z "$(ls -A "$p")" ]; then
    echo "@@dir $rel"
  fi
done
