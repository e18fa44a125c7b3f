#!/usr/bin/env bash
# The runs that check a calibrated CPU machine (validation/data/README.md): the 40 PyTorch
# training and inference runs, each in a process of its own, then four campaigns of the
# serving configurations, the server's model on one thread, two, one and two, so that the
# machine's drift within the hour shows as two campaigns of each.
#   validation/measure/measure_cpu_machine.sh MACHINE NAME
# writes validation/data/pytorch_cpu_NAME.csv and validation/data/serving_cpu_NAME.csv, and
# every served request's latency to validation/data/serving_latencies_NAME.jsonl.
# Run it as root (the remote deployment's veth link) right after
# calibration/calibrate_cpu_machine.sh MACHINE ..., on an otherwise idle machine; it takes
# about 65 minutes on 2 vCPUs (the Zen 3 VM, 2026-11-25).
set -euo pipefail
cd "$(dirname "$0")/../.."
machine=$1
name=$2
py=/usr/bin/python3
data=validation/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

$py validation/measure/pytorch_cpu.py --machine "$machine" --out "$data/pytorch_cpu_$name.csv"
for campaign in 1 2; do
  for threads in 1 2; do
    echo "serving: campaign $campaign, server on $threads thread(s), $(date -u +%H:%M)"
    $py validation/measure/serving_cpu.py --machine "$machine" --images 256 \
      --server-threads "$threads" --out "$work/serving_${campaign}_$threads.csv" \
      --latencies "$data/serving_latencies_$name.jsonl"
  done
done
head -1 "$work/serving_1_1.csv" > "$data/serving_cpu_$name.csv"
for f in "$work"/serving_*.csv; do tail -n +2 "$f" >> "$data/serving_cpu_$name.csv"; done
