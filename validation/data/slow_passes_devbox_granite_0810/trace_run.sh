#!/bin/bash
# Runs a served network's passes (MODEL, ShuffleNet V2 x1.0 by default) at batch 1 on two
# threads over the local stacks
# (two clients, 160 requests) under the kernel's scheduler trace: every switch, wakeup and
# migration with CLOCK_MONOTONIC stamps, so where a pass's OpenMP threads ran and waited
# can be read against the passes (sched_passes.py).  Root; tracefs.
#   trace_run.sh [NAME [MODEL]]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
name=${1:-traced}
model=${2:-shufflenet_v2_x1_0}
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
echo 0 > $T/tracing_on
echo > $T/trace
echo mono > $T/trace_clock
echo 65536 > $T/buffer_size_kb
for e in sched_switch sched_wakeup sched_waking sched_migrate_task; do echo 1 > $T/events/sched/$e/enable; done
echo 1 > $T/tracing_on
cd "$repo"
/usr/bin/python3 validation/measure/serving_cpu.py --out "$here/$name.csv" --latencies "$here/$name.jsonl" \
  --machine devbox-xeon-granite-rapids-2vcpu --model "$model" --server-threads 2 \
  --batches 1 --concurrency 2 --requests 160 --deployments local
echo 0 > $T/tracing_on
for e in sched_switch sched_wakeup sched_waking sched_migrate_task; do echo 0 > $T/events/sched/$e/enable; done
grep -v '^#' $T/trace | gzip > "/tmp/$name.trace.gz"
echo > $T/trace
echo "trace: /tmp/$name.trace.gz ($(zcat /tmp/$name.trace.gz | wc -l) events)"
