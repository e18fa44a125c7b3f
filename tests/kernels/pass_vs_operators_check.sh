#!/usr/bin/env bash
# kernels/pytorch/pass_vs_operators.py briefly on this CPU: SqueezeNet 1.1, a network
# outside dlsim's zoo, at batch 1 on one thread, its operators listed from its ONNX export;
# one JSON line with the whole forward, its 57 leaf modules and its operators inside passes.
#   pass_vs_operators_check.sh PYTHON SOURCE_DIR DLSIM
set -euo pipefail
python=$1
src=$2
dlsim=$3
line=$("$python" "$src/kernels/pytorch/pass_vs_operators.py" --model squeezenet1_1 --batch 1 --threads 1 \
  --passes 2 --calls 1 --dlsim "$dlsim" --listing "$src/validation/oracle/onnx/squeezenet1_1_train.onnx" 2> /dev/null)
"$python" - "$line" <<'PY'
import json, sys
row = json.loads(sys.argv[1])
assert (row["model"], row["batch"], row["threads"], row["calls"]) == ("squeezenet1_1", 1, 1, 57), row
for key in ("pass_ms", "operators_ms", "in_pass_ms", "pass_between_ms"):
    assert row[key] > 0, (key, row)
assert abs(row["in_pass_ratio"] - row["pass_between_ms"] / row["in_pass_ms"]) < 1e-3, row
print(f"pass_vs_operators.py: forward {row['pass_ms']} ms, operators inside passes {row['in_pass_ms']} ms")
PY
