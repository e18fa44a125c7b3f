#!/usr/bin/env bash
# A calibrated CPU machine's pace on the day (dlsim's system.cpu_pace): the thin convolutions'
# and squeeze-and-excitation blocks' grids (calibration/grids.sh), the linear layers of many
# rows (position_linears, where the calibration timed them) and ResNet-18's pass at batch 1 (as
# the calibration timed it) timed again inside passes on the main thread, about 50 s, into
# OUT_DIR, and compared operator by operator with the machine's calibration
# (calibration/pace.py prints the pace for one and two threads: the pass's, which priced the
# networks served on two threads on a freshly booted VM better than the grids' small tensors
# did; on one thread the grids' priced them better; and the linear layers' own,
# system.cpu_pace_by_op.linear, which GEMM-bound networks followed).
#   calibration/probe_pace.sh MACHINE OUT_DIR
# Run it on the otherwise idle machine just before the runs to be predicted.  The operators
# can misread the day: on 2026-12-01 from 21:26 they read the Granite Rapids VM 12-34% slower
# than its calibration while the networks served there ran near the calibration's pace
# (validation/REPORT.md); so it ends by serving ResNet-18 in process and reading the pace from
# that (calibration/reference_pace.py), about 20 s more.
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
out=$2
ops=calibration/raw/$machine-pytorch
source calibration/grids.sh
require_calibration probe_pace.sh "$ops"
mkdir -p "$out"
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
# ResNet-18 served in process on two threads, as a campaign serves, at the pace that dlsim
# predicts it from the calibration, each pass with the pages it was counted to fault
# (calibration/reference_pace.py, validation/page_census.py).
/usr/bin/python3 validation/measure/serving_cpu.py --out "$out/served_resnet18.csv" --machine "$machine" \
  --model resnet18 --batches 1,8 --requests 8 --images 64 --server-threads 2 --deployments in-process \
  --latencies "$out/served_resnet18.jsonl" > /dev/null
/usr/bin/python3 validation/page_census.py "$out/served_resnet18.jsonl" --out "$out/served_resnet18_census.csv"
/usr/bin/python3 calibration/reference_pace.py build/sim/cli/dlsim "calibration/profiles/$machine-pytorch.toml" \
  "$out/served_resnet18.csv" --census "$out/served_resnet18_census.csv"
