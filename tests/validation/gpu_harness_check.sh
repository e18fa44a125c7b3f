#!/usr/bin/env bash
# The GPU ground-truth harness (validation/measure/pytorch_gpu.py) runs here, on the CPU,
# in its smoke-test mode: every kind of row (training with autocast, inference in GPU
# memory and from host memory) and its microbenchmarks, so that a lent GPU's short lease
# is not spent finding its bugs.
#   gpu_harness_check.sh SOURCE_DIR
set -euo pipefail
src=$1
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
