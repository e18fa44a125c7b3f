#!/usr/bin/env python3
"""How precisely a serving campaign measures its P99: for each configuration of a
latencies file (validation/measure/serving_cpu.py --latencies), the P50 and P99 of each
campaign, the P99 campaigns' spread, and the 90% interval of each campaign's P99 over
2,000 bootstrap resamples of its own requests (a fixed seed, so the output repeats).

    validation/latency_spread.py validation/data/serving_latencies_devbox_milan.jsonl

A P99 over 24 requests is the largest of them; over 256 it is the third largest: a model
cannot be checked against it more closely than this interval says.  A resample never
exceeds its campaign's slowest request, so for 24 requests the interval is a lower bound
of the spread; the campaigns' spread is the stronger evidence.
"""
import collections
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "measure"))
from serving_cpu import percentile  # noqa: E402  the harness's own percentile (rank rounded)


def bootstrap_interval(values, q, draws=2000, seed=1):
    rng = random.Random(seed)
    estimates = sorted(percentile(rng.choices(values, k=len(values)), q) for _ in range(draws))
    return estimates[int(0.05 * draws)], estimates[int(0.95 * draws) - 1]


def main():
    campaigns = collections.defaultdict(list)
    with open(sys.argv[1]) as f:
        for line in f:
            row = json.loads(line)
            key = (row["deployment"], row["protocol"] or "-", row["mode"], row["batch"], row["server_threads"])
            campaigns[key].append(row["latencies_ms"])
    print("| configuration | requests | P50 (ms) | P99 (ms) | P99 90% interval (ms) | interval / P99 "
          "| campaigns' P99 spread |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for (deployment, protocol, mode, batch, threads), runs in sorted(campaigns.items(), key=lambda kv: str(kv[0])):
        p99s = [percentile(r, 0.99) for r in runs]
        for latencies, p99 in zip(runs, p99s):
            low, high = bootstrap_interval(latencies, 0.99)
            spread = f"{100 * (max(p99s) - min(p99s)) / min(p99s):.0f}%" if len(runs) > 1 else "-"
            print(f"| {deployment} {protocol} {mode} b{batch} t{threads} | {len(latencies)} | "
                  f"{percentile(latencies, 0.5):.1f} | {p99:.1f} | {low:.1f}-{high:.1f} | "
                  f"{100 * (high - low) / p99:.0f}% | {spread} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
