#!/usr/bin/env python3
"""Where a served pass's OpenMP team ran, traced, against where dlsim draws it: for each
network whose served passes ran under the scheduler trace (trace_run.sh, sched_passes.py),
the share of passes whose worker ran on the other vCPU over each stack, against dlsim's
share of passes apart (`passes_apart_share`, one number a network and batch, drawn the
same on every stack).

    validation/placement_shares.py DLSIM --profile P --cpu CPU --protocol-profile T
        [--traces DIR] [--max-error E]

Each traced run's network, batch and threads come from its rows (traced*.jsonl beside the
passes*.csv sched_passes.py wrote from them).  Prints a markdown table, then the mean
absolute difference over every (network, stack) share, and over each network's mean of
its stacks, and the signed mean; exits 1 where the first is above --max-error.
"""
import argparse
import csv
import json
import pathlib
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
STACKS = (("http", "sync"), ("grpc", "sync"), ("grpc", "async"))


def traced_runs(folder):
    """[(model, batch, threads, {(protocol, mode): share apart, ...}, passes)] by network."""
    runs = []
    for passes in sorted(folder.glob("passes*.csv")):
        rows_file = folder / passes.name.replace("passes", "traced", 1).replace(".csv", ".jsonl")
        if not rows_file.exists():
            raise SystemExit(f"{passes}: no {rows_file.name} beside it (trace_run.sh writes both)")
        with open(rows_file) as f:
            first = json.loads(f.readline())
        by_stack = {}
        with open(passes) as f:
            for row in csv.DictReader(f):
                by_stack.setdefault((row["protocol"], row["mode"]), []).append(row["place"] == "apart")
        shares = {stack: sum(apart) / len(apart) for stack, apart in by_stack.items() if apart}
        runs.append((first["model"], int(first["batch"]), int(first["server_threads"]), shares,
                     sum(len(v) for v in by_stack.values())))
    return runs


def dlsim_share(dlsim, model, batch, threads, args):
    """dlsim's share of passes apart for the network served locally with two clients."""
    sets = {
        "workload.model": f"../../oracle/onnx/{model}_train.onnx",
        "workload.batch": str(batch),
        "system.threads": str(threads),
        "system.profile": str(pathlib.Path(args.profile).resolve()),
        "system.cpu": args.cpu,
        "system.pass_page_faults": "0",
        "serving.protocol_profile": str(pathlib.Path(args.protocol_profile).resolve()),
        "serving.concurrency": "2",
    }
    command = [dlsim, "run", str(HERE / "cases/scenarios/cpu_serve.toml"), "--format", "json"]
    for key, value in sets.items():
        command += ["--set", f"{key}={value}"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"dlsim failed for {model}: {done.stderr.strip()}")
    return json.loads(done.stdout).get("passes_apart_share", 0.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dlsim")
    parser.add_argument("--profile", required=True, help="the traced machine's calibration profile")
    parser.add_argument("--cpu", required=True, help="its catalog CPU")
    parser.add_argument("--protocol-profile", required=True, help="a protocol profile of the machine")
    parser.add_argument("--traces", default=str(HERE / "data/slow_passes_devbox_granite_0810"))
    parser.add_argument("--max-error", type=float, help="fail above this mean absolute difference")
    args = parser.parse_args()
    print("| network | batch | threads | passes | HTTP | gRPC | async gRPC | dlsim |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    each, means, signed = [], [], []
    for model, batch, threads, shares, passes in traced_runs(pathlib.Path(args.traces)):
        predicted = dlsim_share(args.dlsim, model, batch, threads, args)
        traced = [shares[s] for s in STACKS if s in shares]
        each += [abs(predicted - s) for s in traced]
        means.append(abs(predicted - statistics.mean(traced)))
        signed.append(predicted - statistics.mean(traced))
        cells = " | ".join(f"{100 * shares[s]:.0f}%" if s in shares else "" for s in STACKS)
        print(f"| {model} | {batch} | {threads} | {passes} | {cells} | {100 * predicted:.0f}% |")
    error = statistics.mean(each)
    print(f"\nmean absolute difference {error:.3f} over {len(each)} stack shares, "
          f"{statistics.mean(means):.3f} over {len(means)} networks' means, signed {statistics.mean(signed):+.3f}")
    if args.max_error is not None and error > args.max_error:
        print(f"above the bound of {args.max_error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
