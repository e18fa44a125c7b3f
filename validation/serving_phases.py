#!/usr/bin/env python3
"""Where a served request's time went on the server, per configuration, from the serving
harness's latencies file: the mean wait for the model's lock (the server's queue) and the
mean time under it (the copy in, the forward pass and the copy back: the compute), in
milliseconds, as a CSV that `dlsim validate` compares with a prediction's breakdown_ms
(server_queue, compute: means per request, as perf_analyzer reports them).  In-process
runs have no queue and are left out; a file of open loops keeps each run's arrival and
request rate, and a file whose clients read JPEG files (serving_cpu.py --input files) each
run's input.

    validation/serving_phases.py validation/data/serving_latencies_devbox_milan_0848.jsonl \\
        validation/data/serving_phases_devbox_milan_0848.csv
    validation/serving_phases.py --check JSONL CSV   # exit 1 when CSV is not what JSONL gives

The phases are the server's own clocks (validation/measure/serving_cpu.py's Phases), the
same requests as the latencies, warm-ups left out.
"""
import argparse
import csv
import io
import json
import os
import statistics
import sys

CONFIGURATION = ("machine", "model", "deployment", "protocol", "mode", "batch", "concurrency", "server_threads")
OPEN_LOOP = ("arrival", "request_rate")  # columns only a file of open loops has
INPUT = ("input",)  # the column only a file with runs from files has
MEANS = ("requests", "lock_wait_mean_ms", "locked_mean_ms", "date", "source")


def rows(jsonl_path):
    """One row per served configuration run that recorded its phases, in file order."""
    out = []
    with open(jsonl_path) as f:
        for line in f:
            run = json.loads(line)
            phases = run.get("phases_ms") or {}
            if run["deployment"] == "in-process" or "locked" not in phases or "lock_wait" not in phases:
                continue
            row = {key: run[key] for key in CONFIGURATION + OPEN_LOOP + INPUT if key in run}
            row["requests"] = len(phases["locked"])
            row["lock_wait_mean_ms"] = f"{statistics.fmean(phases['lock_wait']):.3f}"
            row["locked_mean_ms"] = f"{statistics.fmean(phases['locked']):.3f}"
            row["date"] = run.get("date", "")
            row["source"] = f"validation/serving_phases.py {os.path.basename(jsonl_path)}"
            out.append(row)
    return out


def as_csv(table):
    """The rows as CSV; an open loop's arrival and rate, and where clients read files every
    row's input, after the configuration's columns."""
    open_loop = any(row.get("arrival", "closed") != "closed" for row in table)
    files = any(row.get("input", "tensors") == "files" for row in table)
    text = io.StringIO()
    extra = (OPEN_LOOP if open_loop else ()) + (INPUT if files else ())
    writer = csv.DictWriter(text, fieldnames=CONFIGURATION + extra + MEANS,
                            lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(table)
    return text.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with CSV instead of writing it")
    ap.add_argument("jsonl")
    ap.add_argument("csv")
    a = ap.parse_args()
    try:
        text = as_csv(rows(a.jsonl))
    except (OSError, ValueError, KeyError) as e:
        print(f"serving_phases: {a.jsonl}: {e}", file=sys.stderr)
        return 2
    if a.check:
        with open(a.csv) as f:
            if f.read() != text:
                print(f"serving_phases: {a.csv} is not what {a.jsonl} gives; rerun without --check", file=sys.stderr)
                return 1
        print(f"{a.csv}: current ({text.count(chr(10)) - 1} configurations)")
        return 0
    with open(a.csv, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
