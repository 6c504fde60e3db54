#!/usr/bin/env bash
# Hostile copies of the imager tests' Measurement Set (tests/integration/safety_imager.cmake):
#   make_ms.sh POKE SOURCE_MS DIR
# DIR/inf.ms (DATA of row 3 = Inf), nan_uvw.ms (UVW of row 5 = NaN), nan_time.ms (TIME of
# row 7 = NaN), nan_weight.ms (WEIGHT of row 9 = NaN), each with a *_flagged.ms twin where that row is flagged instead (the image
# must come out the same), zero.ms (DATA = 0 everywhere: an all-zero image) and
# chan1_flagged.ms (channel 1 flagged everywhere: an all-zero plane of a snapshot cube).
set -eu
poke=$1 src=$2 dir=$3
mkdir -p "$dir"
copy() { rm -rf "${dir:?}/$1"; cp -r "$src" "$dir/$1"; }
copy inf.ms && "$poke" "$dir/inf.ms" DATA 3 inf
copy inf_flagged.ms && "$poke" "$dir/inf_flagged.ms" FLAG 3 1
copy nan_uvw.ms && "$poke" "$dir/nan_uvw.ms" UVW 5 nan
copy nan_uvw_flagged.ms && "$poke" "$dir/nan_uvw_flagged.ms" FLAG 5 1
copy nan_time.ms && "$poke" "$dir/nan_time.ms" TIME 7 nan
copy nan_time_flagged.ms && "$poke" "$dir/nan_time_flagged.ms" FLAG 7 1
copy nan_weight.ms && "$poke" "$dir/nan_weight.ms" WEIGHT 9 nan
copy nan_weight_flagged.ms && "$poke" "$dir/nan_weight_flagged.ms" FLAG 9 1
copy zero.ms && "$poke" "$dir/zero.ms" DATA all 0
copy chan1_flagged.ms && "$poke" "$dir/chan1_flagged.ms" FLAG_CHANNEL all 1
echo "made hostile copies of $src in $dir"
