#!/usr/bin/env bash
# Adds one place of passes (kernels/pytorch/in_pass.py) to a CPU calibration taken before
# calibrate_cpu_machine.sh timed it, on the machine it calibrated while that still runs, then
# refits its profile: the networks' and the grids' passes as the calibration times them inside
# passes, in that place only.  PLACE is turns (two request threads taking turns, phase
# infer_pass_turns, timed since 2026-12-01 02:47) or shared (a request thread whose team is
# pinned to its core, infer_pass_shared, since 2026-12-01 06:20).
#   calibration/time_pass_place.sh MACHINE CATALOG_CPU PLACE
# writes calibration/raw/MACHINE-pytorch/*_in_pass_PLACE.json and refits
# calibration/profiles/MACHINE-pytorch.toml.  Run it on an otherwise idle machine (about 3
# minutes a place on 2 vCPUs).
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
catalog_cpu=$2
place=$3
ops=calibration/raw/$machine-pytorch
source calibration/grids.sh
require_calibration time_pass_place.sh "$ops"
if [ "$place" != turns ] && [ "$place" != shared ]; then
  echo "time_pass_place.sh: place '$place': expected turns or shared" >&2
  exit 2
fi
calibration/measure_cpu.sh "$machine-pytorch" "$networks" 1,2 pytorch "in-pass-$place"
for grid in $pass_grids; do
  grid_in_a_pass "$grid" "$ops/${grid}_in_pass_$place.json" --pass-threads "$place"
done
calibration/refit_cpu_profile.sh "$machine" "$catalog_cpu"
