#!/usr/bin/env bash
# A serving campaign on a calibrated CPU machine, its day's pace read between its networks:
# for each network, a yardstick (calibration/probe_pace.sh --served-only: ResNet-18 and
# ResNet-50 served in process, the pace at which dlsim predicts them from the calibration),
# the page census of the network's configurations (a few requests each, for
# validation/page_census.py), then its runs: batches 1 and 8 on one server thread and on two,
# in process and over local HTTP, gRPC and asynchronous gRPC with two clients.  A last
# yardstick after the last network, so each network's runs lie between two readings.
#   validation/measure/serving_campaign.sh CALIBRATION MACHINE NAME MODEL...
# CALIBRATION names the calibration (calibration/raw/CALIBRATION-pytorch), MACHINE the
# machine as the data names it; writes validation/data/serving_cpu_NAME.csv, its JSON lines
# serving_latencies_NAME.jsonl, page_census_NAME.{jsonl,csv} and the yardsticks'
# pace_probe_NAME_before_MODEL/ and pace_probe_NAME_after/.  REQUESTS and IMAGES (default 40
# and 160) set each configuration's timed requests: at least REQUESTS, at least IMAGES images,
# so a batch-1 P99 is read from 160 requests, not the 48 of the campaigns before 2026-12-02 05:05.
# The VM's pace moved ~10% within the 03:42 campaign of 2026-12-02 (validation/REPORT.md);
# validation/serving_cases.py --pace MODEL:THREADS=PACE prices each network at its own reading.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 4 ]; then
  echo "usage: validation/measure/serving_campaign.sh CALIBRATION MACHINE NAME MODEL..." >&2
  exit 2
fi
calibration=$1
machine=$2
name=$3
shift 3
data=validation/data
requests=${REQUESTS:-40}
images=${IMAGES:-160}
serve() {  # MODEL THREADS OUT_CSV LATENCIES REQUESTS IMAGES
  /usr/bin/python3 validation/measure/serving_cpu.py --out "$3" --latencies "$4" --machine "$machine" \
    --model "$1" --batches 1,8 --requests "$5" --images "$6" --server-threads "$2" \
    --deployments in-process,local --concurrency 2 > /dev/null
}
yardstick() {  # OUT_DIR
  echo "yardstick $1, $(date -u +%H:%M:%S)"
  calibration/probe_pace.sh --served-only "$calibration" "$1"
}
census=$(mktemp)
trap 'rm -f "$census"' EXIT
for model in "$@"; do
  yardstick "$data/pace_probe_${name}_before_$model"
  echo "$model, $(date -u +%H:%M:%S)"
  for threads in 1 2; do serve "$model" $threads "$census" "$data/page_census_$name.jsonl" 4 4; done
  for threads in 1 2; do
    serve "$model" $threads "$data/serving_cpu_$name.csv" "$data/serving_latencies_$name.jsonl" "$requests" "$images"
  done
done
yardstick "$data/pace_probe_${name}_after"
/usr/bin/python3 validation/page_census.py "$data/page_census_$name.jsonl" --out "$data/page_census_$name.csv"
echo "done, $(date -u +%H:%M:%S)"
