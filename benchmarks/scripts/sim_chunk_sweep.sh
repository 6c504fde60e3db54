#!/usr/bin/env bash
# usage: sweep.sh BUILD OUT ; runs predict_512 with 16 times: chunk sizes x GPU counts
set -u
B=$1; O=$2; mkdir -p $O; cp -r benchmarks/inputs/. $O/
sim=$B/apps/sim_interferometer/sim_interferometer
for chunk in 16384 100000; do for ids in 0 0,1; do
  n=c${chunk}_g${ids/,/}
  sed -e 's/^num_time_steps=4/num_time_steps=16/' -e 's/^length=00:04:00.000/length=00:16:00.000/' -e "s/^max_sources_per_chunk=.*/max_sources_per_chunk=$chunk/" -e "s/^ms_filename=.*/ms_filename=$n.ms/" $O/predict_512.ini > $O/$n.ini
  printf '\n[simulator]\ncuda_device_ids=%s\n' $ids >> $O/$n.ini
  $sim $O/$n.ini > $O/$n.log 2>&1
  echo "$n $(grep -E 'Simulating|running on' $O/$n.log | awk '{print $1}' | tr '\n' ' ') $(grep -E 'completed in' $O/$n.log | sed 's/.*completed in//') | $(grep -E '^\[.*\]   (horizon clip|jones|correlate|block reduction|write) ' $O/$n.log | awk '{printf "%s=%s ", $(NF-2), $(NF-1)}')"
  rm -rf $O/$n.ms
done; done
