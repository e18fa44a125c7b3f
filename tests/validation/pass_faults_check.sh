#!/usr/bin/env bash
# validation/measure/pass_faults.py briefly: ResNet-18 at batch 1, one thread, two passes,
# on the first thread and on a second one, under glibc as it comes and untrimmed: four rows
# of two counts and two times each, each with a fresh page's positive price; one pass and
# an unknown allocator refused.
set -euo pipefail
source_dir=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
/usr/bin/python3 "$source_dir/validation/measure/pass_faults.py" --machine check --out "$out" \
  --models resnet18 --batches 1 --threads 1 --passes 2 --allocators default,untrimmed > /dev/null
[ "$(head -1 "$out" | tr -d '\r')" = "machine,model,batch,threads,thread,allocator,passes,steady_faults_median,steady_ms_median,fresh_page_us,faults_per_pass,ms_per_pass,source" ]
[ "$(tr -d '\r' < "$out" | cut -d, -f2-7 | tail -n +2 | tr '\n' ' ')" = \
  "resnet18,1,1,main,default,2 resnet18,1,1,main,untrimmed,2 resnet18,1,1,request,default,2 resnet18,1,1,request,untrimmed,2 " ]
awk -F, 'NR > 1 && (split($11, counts, " ") != 2 || split($12, times, " ") != 2 || $9 <= 0 || $10 <= 0) { exit 1 }' "$out"
for refused in "--passes 1" "--allocators jemalloc"; do
  # shellcheck disable=SC2086  # two words each
  if /usr/bin/python3 "$source_dir/validation/measure/pass_faults.py" --machine check --out "$out" $refused 2> /dev/null; then
    echo "$refused was accepted" >&2
    exit 1
  fi
done
echo "pass_faults.py: four configurations counted and timed; --passes 1 and an unknown allocator refused"
