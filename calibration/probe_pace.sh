#!/usr/bin/env bash
# A calibrated CPU machine's pace on the day (dlsim's system.cpu_pace): the thin convolutions'
# and squeeze-and-excitation blocks' grids (calibration/grids.sh) timed again inside passes on
# the main thread, about 30 s, into OUT_DIR, and compared operator by operator with the
# machine's calibration (calibration/pace.py prints the pace for one and two threads).
#   calibration/probe_pace.sh MACHINE OUT_DIR
# Run it on the otherwise idle machine just before the runs to be predicted.
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
out=$2
ops=calibration/raw/$machine-pytorch
source calibration/grids.sh
require_calibration probe_pace.sh "$ops"
mkdir -p "$out"
for grid in thin_convs squeeze_excitation; do
  grid_in_a_pass "$grid" "$out/${grid}_in_pass.json" --pass-threads main
done
/usr/bin/python3 calibration/pace.py "$ops" "$out"
