#!/usr/bin/env bash
# A calibrated CPU machine's pace on the day (dlsim's system.cpu_pace), about 90 s, into
# OUT_DIR.  First the operators: the thin convolutions' and squeeze-and-excitation blocks' grids
# (calibration/grids.sh), the linear layers of many rows (position_linears, where the
# calibration timed them) and ResNet-18's pass at batch 1 timed again inside passes on the main
# thread and compared one by one with the calibration (calibration/pace.py: the pass's pace,
# the grids', the linear layers' own, each operator kind's).  Then ResNet-18 at batches 1 and 8
# and ResNet-50 at 4 and 8 (passes the calibration timed) served in process on one and two
# threads, and the median pace at which dlsim predicts those runs from the calibration
# (calibration/reference_pace.py): the pace to price a campaign with.  About 3 minutes.
#   calibration/probe_pace.sh [--served-only] MACHINE OUT_DIR
# --served-only skips the operators (about 90 s instead of 3 minutes): the yardstick that
# validation/measure/serving_campaign.sh serves between a campaign's networks.
# Run it on the otherwise idle machine just before the runs to be predicted.  The operators
# misread the day: on 2026-12-01 from 21:26 they read the Granite Rapids VM 12-50% slower than
# its calibration while the networks served there ran 0-39% slower; the served ResNet-18's pace
# priced three campaigns blind at 8.6% MAPE, the operators' at 17.0% (validation/REPORT.md).
# ResNet-18's batch 1 alone read one thread 0.07-0.15 slower than its batch 8 that night, so
# the reading is a median over four passes of two networks, not one.
set -euo pipefail
cd "$(dirname "$0")/.."
served_only=false
if [ "${1:-}" = --served-only ]; then
  served_only=true
  shift
fi
if [ $# -ne 2 ]; then
  echo "usage: calibration/probe_pace.sh [--served-only] MACHINE OUT_DIR" >&2
  exit 2
fi
machine=$1
out=$2
ops=calibration/raw/$machine-pytorch
source calibration/grids.sh
require_calibration probe_pace.sh "$ops"
mkdir -p "$out"
# The operators timed again inside passes, compared one by one with the calibration.
probe_operators() {
  for grid in thin_convs squeeze_excitation position_linears; do
    if [ ! -f "$ops/${grid}_in_pass.json" ]; then
      echo "probe_pace.sh: $ops has no ${grid}_in_pass.json (calibrated before that grid); not probed" >&2
      continue
    fi
    grid_in_a_pass "$grid" "$out/${grid}_in_pass.json" --pass-threads main
  done
  pass=$(mktemp)
  trap 'rm -f "$pass"' EXIT
  build/sim/cli/dlsim model resnet18 --batch 1 --format csv > "$pass"
  /usr/bin/python3 kernels/pytorch/torch_op_bench.py --signatures "$pass" --threads 1,2 --in-pass --pass-threads main \
    --repetitions 5 --min-time 0.2 --out "$out/resnet18_b1_in_pass.json" 2> /dev/null
  /usr/bin/python3 calibration/pace.py "$ops" "$out"
}
$served_only || probe_operators
# ResNet-18 and ResNet-50 served in process on one and two threads, as a campaign serves, at
# the pace that dlsim predicts them from the calibration, each pass with the pages it was
# counted to fault (calibration/reference_pace.py, validation/page_census.py).
serve_in_process() {  # THREADS MODEL BATCHES REQUESTS IMAGES
  /usr/bin/python3 validation/measure/serving_cpu.py --out "$out/served.csv" --machine "$machine" \
    --model "$2" --batches "$3" --requests "$4" --images "$5" --server-threads "$1" --deployments in-process \
    --latencies "$out/served.jsonl" > /dev/null
}
for threads in 1 2; do
  serve_in_process $threads resnet18 1,8 8 64
  serve_in_process $threads resnet50 4,8 6 32
done
/usr/bin/python3 validation/page_census.py "$out/served.jsonl" --out "$out/served_census.csv"
/usr/bin/python3 calibration/reference_pace.py build/sim/cli/dlsim "calibration/profiles/$machine-pytorch.toml" \
  "$out/served.csv" --census "$out/served_census.csv" --latencies "$out/served.jsonl"
