#!/usr/bin/env bash
# What a lent GPU's short lease runs (calibration/gpu_session.sh) runs here first, on the
# CPU, in its smoke-test modes, so that the lease is not spent finding their bugs: the
# ground-truth harness (validation/measure/pytorch_gpu.py: every kind of row and its
# microbenchmarks) and PyTorch's operator benchmark (kernels/pytorch/torch_gpu_op_bench.py,
# fp32 signatures: the CPU build has no fp16 convolution), whose file dlsim calibrate reads.
#   gpu_harness_check.sh DLSIM SOURCE_DIR
set -euo pipefail
dlsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$src/validation/measure/pytorch_gpu.py" --quick --out "$work/gpu.csv" --micro "$work/micro.json" \
  --train-models alexnet --train-batches 2 --train-precisions fp32,amp --infer-models alexnet --infer-batches 1 \
  --infer-precisions fp32 --host-batches 1 2>/dev/null
/usr/bin/python3 - "$work/gpu.csv" "$work/micro.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
kinds = {(r["mode"], r["precision"]) for r in rows}
assert kinds == {("train", "fp32"), ("train", "amp"), ("infer", "fp32"), ("infer_host", "fp32")}, kinds
assert all(float(r["images_per_s"]) > 0 for r in rows), rows
assert all(float(r["latency_ms_p99"]) >= float(r["latency_ms_p50"]) > 0 for r in rows if r["mode"] != "train"), rows
micro = json.load(open(sys.argv[2]))
assert set(micro["launch"]) >= {"add_", "conv2d_3x3", "batch_norm_eval"} and len(micro["copies"]) == 16, micro.keys()
print(f"GPU harness on the CPU: {len(rows)} rows, launch {micro['launch']['add_']['us_per_call_median']:.1f} us")
PY
grep -v '^#' "$src/calibration/gpu_signatures/resnet50_fp32_b1.txt" | head -8 > "$work/signatures.txt"
echo "sgd_momentum fp32 p1000 t2 max600" >> "$work/signatures.txt"
/usr/bin/python3 "$src/kernels/pytorch/torch_gpu_op_bench.py" --signatures "$work/signatures.txt" --quick \
  --out "$work/ops.json" 2>/dev/null
"$dlsim" calibrate "$work/ops.json" --machine here -o "$work/ops.toml" >/dev/null
/usr/bin/python3 - "$work/ops.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
failed = [r["name"] for r in rows if r.get("error_occurred")]
assert not failed, failed
phases = {r["name"].rsplit(" | ", 1)[1] for r in rows}
assert {"fwd", "infer", "bwd_data", "bwd_weights", "update"} <= phases, phases
print(f"PyTorch's operator benchmark on the CPU: {len(rows)} rows")
PY
