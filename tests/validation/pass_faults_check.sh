#!/usr/bin/env bash
# validation/measure/pass_faults.py briefly: ResNet-18 at batch 1, one thread, two passes,
# on the first thread and on a second one: two rows of two counts each; one pass refused.
set -euo pipefail
source_dir=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
/usr/bin/python3 "$source_dir/validation/measure/pass_faults.py" --machine check --out "$out" \
  --models resnet18 --batches 1 --threads 1 --passes 2 > /dev/null
[ "$(head -1 "$out" | tr -d '\r')" = "machine,model,batch,threads,thread,passes,steady_faults_median,faults_per_pass,source" ]
[ "$(tr -d '\r' < "$out" | cut -d, -f2-6 | tail -n +2 | tr '\n' ' ')" = "resnet18,1,1,main,2 resnet18,1,1,request,2 " ]
awk -F, 'NR > 1 && split($8, counts, " ") != 2 { exit 1 }' "$out"
if /usr/bin/python3 "$source_dir/validation/measure/pass_faults.py" --machine check --out "$out" --passes 1 2> /dev/null; then
  echo "--passes 1 was accepted" >&2
  exit 1
fi
echo "pass_faults.py: two configurations counted; --passes 1 refused"
