#!/usr/bin/env bash
# kernels/pytorch/page_price.py briefly on this CPU: ResNet-18 at batch 8 on one thread, one
# timed pass a process: rows of first_touch's in_pass phase, each a positive price; a batch
# that faults too few pages to price, and a network without its batches, refused.
#   page_price_check.sh PYTHON SOURCE_DIR
set -euo pipefail
python=$1
src=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$python" "$src/kernels/pytorch/page_price.py" --networks resnet18:8 --threads 1 --passes 1 --out "$out" 2> /dev/null
"$python" - "$out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
assert len(rows) == 1, rows
row = rows[0]
assert row["name"] == "first_touch fp32 n32768 e1024 | threads=1 | in_pass", row
assert row["threads"] == 1 and row["real_time"] > 0, row
print(f"page_price.py: a page {row['real_time'] / 32768:.2f} us inside ResNet-18's pass at batch 8")
PY
for refused in "resnet18:1" "resnet18"; do
  if "$python" "$src/kernels/pytorch/page_price.py" --networks "$refused" --threads 1 --passes 1 \
      --out "$out" 2> /dev/null; then
    echo "--networks $refused was accepted" >&2
    exit 1
  fi
done
echo "page_price.py: batch 1 (too few faults) and a network without batches refused"
