#!/usr/bin/env bash
# Measures this machine's CPU kernels for some networks with dlsim-cpu-bench and keeps the
# raw Google Benchmark JSON under calibration/raw/MACHINE/, one file per network and batch.
#   calibration/measure_cpu.sh MACHINE "keras_mnist:32,128 resnet18:8,32" [THREADS]
# Run it on an otherwise idle machine; the JSON context records the CPU, its flags, the
# oneDNN version and the thread counts.
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
models=$2
threads=${3:-1,2}
out=calibration/raw/$machine
mkdir -p "$out"
for entry in $models; do
  model=${entry%%:*}
  batches=${entry#*:}
  for batch in ${batches//,/ }; do
    sig=$(mktemp)
    build/sim/cli/dlsim model "$model" --batch "$batch" --format kernels > "$sig"
    echo "measuring $model at batch $batch, threads $threads"
    build/kernels/cpu/dlsim-cpu-bench --signatures "$sig" --threads "$threads" \
      --benchmark_repetitions=5 --benchmark_min_time=0.05 \
      --benchmark_out="$out/${model}_b${batch}.json" --benchmark_out_format=json > /dev/null
    rm -f "$sig"
  done
done
