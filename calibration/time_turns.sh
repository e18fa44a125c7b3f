#!/usr/bin/env bash
# Adds passes taking turns between two request threads (phase infer_pass_turns,
# kernels/pytorch/in_pass.py) to a CPU calibration taken before calibrate_cpu_machine.sh timed
# them (2026-12-01), on the machine it calibrated while that still runs, then refits its
# profile: the networks' and the grids' passes as the calibration times them inside passes,
# in that place only.
#   calibration/time_turns.sh MACHINE CATALOG_CPU
# writes calibration/raw/MACHINE-pytorch/*_in_pass_turns.json and refits
# calibration/profiles/MACHINE-pytorch.toml.  Run it on an otherwise idle machine (about 3
# minutes on 2 vCPUs).
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
catalog_cpu=$2
ops=calibration/raw/$machine-pytorch
if [ ! -d "$ops" ]; then
  echo "time_turns.sh: no calibration folder $ops; calibrate the machine first (calibrate_cpu_machine.sh)" >&2
  exit 2
fi
source calibration/grids.sh
calibration/measure_cpu.sh "$machine-pytorch" "$networks" 1,2 pytorch in-pass-turns
for grid in $pass_grids; do
  grid_in_a_pass "$grid" "$ops/${grid}_in_pass_turns.json" --pass-threads turns
done
calibration/refit_cpu_profile.sh "$machine" "$catalog_cpu"
