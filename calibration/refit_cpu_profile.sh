#!/usr/bin/env bash
# Fits a CPU machine's PyTorch profile from its calibration folder: every operator file in
# calibration/raw/MACHINE-pytorch/, and its stall trace pooled with every earlier one of the
# machine's kind (stall_history.py).
#   calibration/refit_cpu_profile.sh MACHINE CATALOG_CPU
# writes calibration/profiles/MACHINE-pytorch.toml (after a build: build/sim/cli/dlsim).
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
catalog_cpu=$2
ops=calibration/raw/$machine-pytorch
mapfile -t operators < <(ls "$ops"/*.json | grep -v '/stall_trace\.json$')
history=$(/usr/bin/python3 calibration/stall_history.py "$ops/stall_trace.json" --cpu "$catalog_cpu")
mapfile -t stalls <<< "$history"
build/sim/cli/dlsim calibrate "${operators[@]}" "${stalls[@]}" --machine "$machine" --catalog-cpu "$catalog_cpu" \
  -o "calibration/profiles/$machine-pytorch.toml"
