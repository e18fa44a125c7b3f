#!/usr/bin/env bash
# The serving harness and its protocol calibration run here, briefly: the Python stack's
# transfer benchmark writes rows `dlsim calibrate` fits, the stall and speed trace rows it
# fits into a profile's [[stalls]], and serving_cpu.py --quick serves a model in-process
# and over both protocols on loopback, writing one row per deployment and each request's
# latency, server phases and the host's state (steal, a pace probe).
#   serving_harness_check.sh DLSIM SOURCE_DIR
set -euo pipefail
dlsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$src/kernels/net/py_transfer_bench.py" --protocol grpc --max-bytes 4096 --repetitions 2 \
  --min-time 0.01 --out "$work/raw.json" 2>/dev/null
"$dlsim" calibrate "$work/raw.json" --machine here -o "$work/protocol.toml" >/dev/null
grep -q 'name = "python-grpc on python-' "$work/protocol.toml"
# As the stack serves a model: each call after an idle pause, answered after a ResNet-18
# pass the client leaves out, so a 1 KiB call costs what the stack does (milliseconds at
# most), not the pass's tens of milliseconds; past 256 KiB the requests are whole images.
/usr/bin/python3 "$src/kernels/net/py_transfer_bench.py" --protocol http --max-bytes 602112 --repetitions 2 \
  --min-time 0.01 --idle-ms 1 --handler-model resnet18 --out "$work/served.json" 2>/dev/null
/usr/bin/python3 - "$work/served.json" <<'PY'
import json, sys
raw = json.load(open(sys.argv[1]))
assert raw["context"]["handler_model"] == "resnet18" and raw["context"]["idle_ms"] == "1", raw["context"]
sizes = sorted({int(row["name"].split()[2][1:]) for row in raw["benchmarks"]})
assert sizes == [1024, 4096, 16384, 65536, 262144, 602112], sizes
assert all(0 < row["real_time"] < 10000 for row in raw["benchmarks"]), raw["benchmarks"]
PY
/usr/bin/python3 "$src/kernels/pytorch/stall_trace.py" --threads 1 --seconds 0.2 --out "$work/stalls.json" 2>/dev/null
"$dlsim" calibrate "$work/stalls.json" --machine here -o "$work/stalls.toml" >/dev/null
grep -q '^speed_window_ms = 20$' "$work/stalls.toml"
grep -Eq '^speed = \[[0-9.]+, ' "$work/stalls.toml"
# Rows are appended to --out; a file of other columns is refused (exit 2), left as it was.
printf 'a,b\n1,2\n' > "$work/other.csv"
status=0
/usr/bin/python3 "$src/validation/measure/serving_cpu.py" --quick --out "$work/other.csv" 2>/dev/null || status=$?
[ "$status" -eq 2 ] && [ "$(cat "$work/other.csv")" = "$(printf 'a,b\n1,2')" ]
/usr/bin/python3 "$src/validation/measure/serving_cpu.py" --quick --requests 3 --out "$work/serving.csv" \
  --latencies "$work/latencies.jsonl" 2>/dev/null
/usr/bin/python3 - "$work/serving.csv" "$work/latencies.jsonl" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for line in open(sys.argv[2]):
    run = json.loads(line)
    phases = {"copy", "lock_wait", "locked"} | ({"read", "write"} if run["protocol"] == "http" else set())
    assert set(run["phases_ms"]) == phases, run["phases_ms"].keys()
    assert all(len(t) == len(run["latencies_ms"]) for t in run["phases_ms"].values()), run
    counted = {"copy", "locked", "locked_process"} | ({"read"} if run["protocol"] == "http" else set())
    assert set(run["page_faults"]) == counted, run["page_faults"].keys()
    assert all(len(n) == len(run["latencies_ms"]) and min(n) >= 0 for n in run["page_faults"].values()), run
    # every thread's faults over a pass include the pass's own thread's
    assert all(a >= t for a, t in zip(run["page_faults"]["locked_process"], run["page_faults"]["locked"])), run
    host = run["host"]
    assert 0 <= host["steal_share"] <= 1 and len(host["pace_probe_ms"]) == 2 and min(host["pace_probe_ms"]) > 0, host
    # fewer after than before happens: a thread of the interpreter's own ended during the load
    # (2 before and 1 after once among .ci/run's tests, 2026-11-29)
    assert min(host["threads_around_load"]) >= 1 and len(host["threads_around_load"]) == 2, host
kinds = {(r["deployment"], r["protocol"], r["mode"]) for r in rows}
expected = {("in-process", "", "sync"), ("local", "http", "sync"), ("local", "grpc", "sync"), ("local", "grpc", "async")}
assert kinds == expected, kinds
assert all(float(r["images_per_s"]) > 0 and float(r["latency_p99_ms"]) >= float(r["latency_p50_ms"]) > 0 for r in rows), rows
assert all(r["arrival"] == "closed" and r["request_rate"] == "" and r["input"] == "tensors" for r in rows), rows
print(f"serving harness: {len(rows)} rows, e.g. {rows[1]['deployment']} {rows[1]['protocol']}: "
      f"{float(rows[1]['images_per_s']):.1f} images/s")
PY
# Clients that read their images from JPEG files and decode them before each send: the
# same deployments, each request's latency from its send (so at least its pass, and not
# above the time its client takes per request, which holds the decode too).
/usr/bin/python3 "$src/validation/measure/serving_cpu.py" --quick --requests 3 --input files --out "$work/files.csv" \
  --latencies "$work/files.jsonl" 2>/dev/null
/usr/bin/python3 - "$work/files.csv" "$work/files.jsonl" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4 and all(r["input"] == "files" for r in rows), rows
for row, line in zip(rows, open(sys.argv[2])):
    run = json.loads(line)
    per_client_request_ms = 1e3 * float(row["seconds"]) * int(row["concurrency"]) / int(row["requests"])
    assert min(run["latencies_ms"]) >= min(run["phases_ms"]["locked"]), run
    assert float(row["latency_p50_ms"]) < per_client_request_ms * 1.2, (row, per_client_request_ms)
PY
# An open loop: a request at each Poisson arrival, the gaps kept as dlsim replays them.
/usr/bin/python3 "$src/validation/measure/serving_cpu.py" --batches 1 --deployments local --arrival poisson \
  --rates 40 --requests 6 --concurrency 4 --out "$work/open.csv" --intervals-dir "$work/intervals" 2>/dev/null
/usr/bin/python3 - "$work/open.csv" "$work/intervals/poisson_r40_n6_seed1.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {(r["protocol"], r["mode"], r["arrival"], r["request_rate"]) for r in rows} == \
    {("http", "open", "poisson", "40.0"), ("grpc", "open", "poisson", "40.0")}, rows
assert all(int(r["requests"]) == 6 and float(r["latency_p99_ms"]) > 0 for r in rows), rows
gaps = [float(line) for line in open(sys.argv[2])]
assert len(gaps) == 6 and all(g > 0 for g in gaps), gaps
PY
# An open loop needs its rates, and rates an open loop; files go with closed loops (exit 2).
status=0
/usr/bin/python3 "$src/validation/measure/serving_cpu.py" --rates 5 --out "$work/bad.csv" 2>/dev/null || status=$?
[ "$status" -eq 2 ] && [ ! -e "$work/bad.csv" ]
status=0
/usr/bin/python3 "$src/validation/measure/serving_cpu.py" --arrival constant --rates 5 --input files \
  --out "$work/bad.csv" 2>/dev/null || status=$?
[ "$status" -eq 2 ] && [ ! -e "$work/bad.csv" ]
