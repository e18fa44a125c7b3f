#!/usr/bin/env python3
"""How well one set of serving campaigns predicts another of the same machine: the floor
under any model's error against those runs.  Each configuration's median over the first
file's campaigns stands as the prediction of the second file's campaigns; given one file,
each campaign is predicted by the median of that file's other campaigns of the
configuration.  The cases are those of issue 6's goal (every configuration's throughput,
and the P99 of those served over HTTP or gRPC), the error as `dlsim validate` reports it
(prediction over measurement).

    validation/campaign_agreement.py validation/data/serving_cpu_devbox_milan.csv \\
        [validation/data/serving_cpu_devbox_milan_night.csv]

On the Zen 3 VM the evening's campaigns predicted the night's with a MAPE of 8.7%, 67 of
78 cases within 15%, where dlsim predicted them with 8.8%, 66.
"""
import collections
import csv
import statistics
import sys

CONFIGURATION = ("model", "deployment", "protocol", "mode", "batch", "concurrency", "server_threads")


def campaigns(path):
    """(throughput, P99) of every campaign, by configuration."""
    runs = collections.defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            runs[tuple(row[k] for k in CONFIGURATION)].append(
                (float(row["images_per_s"]), float(row["latency_p99_ms"])))
    return runs


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    measured = campaigns(sys.argv[-1])
    predicting = campaigns(sys.argv[1]) if len(sys.argv) == 3 else None
    errors = []
    for configuration, runs in sorted(measured.items()):
        quantities = (0, 1) if configuration[1] != "in-process" else (0,)  # throughput, P99
        for n, run in enumerate(runs):
            others = predicting.get(configuration, []) if predicting is not None else runs[:n] + runs[n + 1:]
            if not others:
                continue
            for i in quantities:
                errors.append(100 * (statistics.median(r[i] for r in others) / run[i] - 1))
    if not errors:
        print("campaign_agreement: no configuration measured twice", file=sys.stderr)
        return 2
    within = sum(abs(e) <= 15 for e in errors)
    print(f"{len(errors)} cases: MAPE {statistics.fmean(abs(e) for e in errors):.1f}%, "
          f"max {max(abs(e) for e in errors):.1f}%, {within} within 15%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
