#!/usr/bin/env bash
# kernels/pytorch/pass_after_idle.py briefly on this CPU: ResNet-18 at batch 1, one gap,
# every mode (pinned also after 1 ms; four threads in turn; beside each serving stack);
# one row per pass, each mode's rows there, each named with the CPU it ended on.
#   pass_after_idle_check.sh PYTHON SOURCE_DIR
set -euo pipefail
python=$1
src=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$python" "$src/kernels/pytorch/pass_after_idle.py" --net resnet18 --batches 1 --gaps-ms 0 --passes 2 \
  --pin-passes 1 --beside-passes 1 --out "$out" 2> /dev/null
"$python" - "$out" <<'PY'
import json, os, re, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
pattern = re.compile(r"^pass_after_idle resnet18 b1 \| threads=1 \| (\S+) g[01] cpu(\d+)$")
modes = {}
for r in rows:
    m = pattern.match(r["name"])
    assert m and r["real_time"] > 0 and int(m[2]) < os.cpu_count(), r
    modes[m[1]] = modes.get(m[1], 0) + 1
cpus = len(os.sched_getaffinity(0))
expected = {"sleep": 2, "spin": 2, "wake": 2, "pinned": 2 * cpus, "turns-4": 2, "beside-python": 1, "beside-copy": 1,
            "beside-http": 2, "beside-grpc": 2, "beside-http-idle": 2, "beside-grpc-idle": 2}
assert modes == expected, (modes, expected)
print(f"pass_after_idle.py: {len(rows)} passes, modes {sorted(modes)}")
PY
