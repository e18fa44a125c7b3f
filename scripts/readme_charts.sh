#!/usr/bin/env bash
# Draws the charts README.md shows, into docs/charts/, with the built dlsim and gnuplot:
#   scripts/readme_charts.sh [build/sim/cli/dlsim]
# Each chart is what `dlsim sweep` or `dlsim plan --out` writes; this only picks folders.
set -euo pipefail
cd "$(dirname "$0")/.."
dlsim=${1:-build/sim/cli/dlsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=docs/charts
mkdir -p "$out"

# Study C: throughput and scaling efficiency against K80 count, ring all-reduce.
"$dlsim" sweep scenarios/study_c_allreduce.toml --vary workload.model=resnet50,resnet152,vgg16,inception_v4 \
  --vary system.devices=2,4,8,16 --out "$work/study_c" 2>/dev/null
cp "$work/study_c/throughput.svg" "$out/study_c_throughput.svg"
cp "$work/study_c/scaling_efficiency.svg" "$out/study_c_scaling_efficiency.svg"

# Serving: p99 latency against throughput as the offered load grows, per request batch.
"$dlsim" sweep scenarios/serving_fleet_resnet50.toml --set system.devices=2 \
  --vary serving.image_rate=500,1000,1500,2000,2500,3000 --vary workload.batch=4,8,16 --out "$work/serving" 2>/dev/null
cp "$work/serving/latency_throughput.svg" "$out/serving_latency_throughput.svg"

# The ImageNet plan: its answer and Pareto front of billed time against cost.
"$dlsim" plan scenarios/plan_resnet50_imagenet.toml --out "$work/plan" >/dev/null
cp "$work/plan/pareto.svg" "$out/plan_resnet50_imagenet_pareto.svg"
echo "readme_charts: $(ls "$out" | wc -l) charts in $out"
