#!/usr/bin/env bash
# kernels/pytorch/page_price.py briefly on this CPU: ResNet-18 at batch 8 on one thread, three
# timed passes a process (with one, the check failed once among .ci/run's parallel tests,
# 2026-11-28, its cause unrecorded): a row of first_touch's in_pass phase for each pair of
# passes, none negative, their median positive; a batch that faults too few pages to price,
# and a network without its batches, refused.  A process's heap under glibc as it comes
# sometimes keeps its pages between passes (2026-11-29, in .ci/run: "0 pages a pass more",
# and the tool rightly refuses to price), and three pairs of passes among .ci/run's
# parallel tests once priced two of three at nothing (2026-11-29 23:04: the untrimmed
# passes no faster), so up to three tries, each a run and its check; configurations pool by
# their pages.
#   page_price_check.sh PYTHON SOURCE_DIR
set -euo pipefail
python=$1
src=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
priced() {
  "$python" "$src/kernels/pytorch/page_price.py" --networks resnet18:8 --threads 1 --passes 3 --out "$out" &&
  "$python" - "$out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
assert len(rows) == 3, rows  # one a pair of passes
for row in rows:
    assert row["name"] == "first_touch fp32 n32768 e1024 | threads=1 | in_pass", row
    assert row["threads"] == 1 and row["real_time"] >= 0, row
prices = sorted(row["real_time"] / 32768 for row in rows)
assert prices[1] > 0, prices
print(f"page_price.py: a page {prices[1]:.2f} us inside ResNet-18's pass at batch 8 (median of three)")
PY
}
for try in 1 2 3; do
  if priced; then
    break
  fi
  [ "$try" -lt 3 ] || exit 1
done
for refused in "resnet18:1" "resnet18"; do
  if "$python" "$src/kernels/pytorch/page_price.py" --networks "$refused" --threads 1 --passes 1 \
      --out "$out" 2> /dev/null; then
    echo "--networks $refused was accepted" >&2
    exit 1
  fi
done
echo "page_price.py: batch 1 (too few faults) and a network without batches refused"
# Configurations pool by their pages: 1,000 pages 10 ms slower and 3,000 pages 2 ms slower
# price a page at 12 ms / 4,000 = 3 us (the mean of the two's prices would be 5.3).
"$python" - "$src/kernels/pytorch" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import page_price
pair = lambda extra_s, pages: ([(1.0 + extra_s, 0.5 + extra_s, pages)] * 2, [(1.0, 0.5, 0)] * 2, pages)
rows = page_price.pooled_rows([pair(0.010, 1000), pair(0.002, 3000)], 2)
assert len(rows) == 2, rows
for row in rows:
    assert row["threads"] == 2 and row["name"].endswith("| threads=2 | in_pass"), row
    assert abs(row["real_time"] / 32768 - 3.0) < 1e-6, row
print("page_price.py: two configurations pooled by their pages (3 us a page)")
PY
