#!/usr/bin/env python3
"""Whether a served pass's page faults repeat: for every configuration (network, batch,
threads, deployment, protocol, mode, clients, input; one client unless --clients says
otherwise) of the given serving latencies files
(validation/measure/serving_cpu.py --latencies), each run's count a pass (the median over
its requests of the pages faulted under the model's lock, on the request's thread), and
then how many configurations measured in more than one run kept one count in all of them.
With --across FILES, a second set (another machine kind's campaigns): how many
configurations measured in both share a count (a run of each faulted the same pages).

    validation/fault_census.py validation/data/serving_latencies_devbox_turin21_1950.jsonl \\
        validation/data/serving_latencies_devbox_turin21_repeats_2136.jsonl \\
        [--across validation/data/serving_latencies_devbox_genoa_*.jsonl] [--clients any]

On the Zen 5 VM the 19:48 campaign and its three repeats: 23 of 24 configurations kept one
count in all four processes; every Zen 5 campaign, 85 of 104; 118 of the 139 configurations
served on both the Zen 5 and the Zen 4 kind share a count; 27 of the 102 served on both the
Zen 5 and the Zen 3 Milan (AVX2 only: oneDNN picks other kernels there) share one.
"""
import argparse
import collections
import json
import statistics
import sys

CONFIGURATION = ("model", "batch", "server_threads", "deployment", "protocol", "mode", "concurrency", "input")
# What a run that does not say had: files its clients decode in the serving process leave
# the heap in another state than tensors, and runs before 2026-11-30 09:50 sent tensors.
UNSAID = {"input": "tensors"}


def counts(paths, phase="locked", clients=1):
    """Each configuration's counts a pass, one a run, in the order run: the pass's thread's
    ("locked") or, where the harness counted them, every thread's ("locked_process"); of the
    runs with that many clients, or with None of every run."""
    runs = collections.defaultdict(list)
    for path in sorted(paths):
        with open(path) as f:
            for line in f:
                run = json.loads(line)
                locked = run.get("page_faults", {}).get(phase)
                if not locked or (clients is not None and run["concurrency"] != clients):
                    continue
                said = {**UNSAID, **run}
                runs[tuple(said[k] for k in CONFIGURATION)].append(round(statistics.median(locked)))
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("latencies", nargs="+")
    ap.add_argument("--across", nargs="+", default=[])
    ap.add_argument("--clients", default="1", help="the runs with this many clients (default 1), or 'any'")
    args = ap.parse_args()
    if args.clients != "any" and not args.clients.isdigit():
        print(f"fault_census: --clients {args.clients}: expected a number of clients or 'any'", file=sys.stderr)
        return 2
    clients = None if args.clients == "any" else int(args.clients)
    runs = counts(args.latencies, clients=clients)
    repeated = {k: v for k, v in runs.items() if len(v) > 1}
    if not repeated:
        print("fault_census: no configuration measured twice", flush=True)
        return 2
    kept = sum(len(set(v)) == 1 for v in repeated.values())
    print(f"{len(repeated)} configurations measured more than once: {kept} kept one count a pass")
    for key, values in sorted(repeated.items(), key=lambda kv: tuple(map(str, kv[0]))):
        if len(set(values)) > 1:
            print(f"  {' '.join(map(str, key))}: {', '.join(map(str, values))}")
    if args.across:
        other = counts(args.across, clients=clients)
        both = set(runs) & set(other)
        shared = sum(bool(set(runs[k]) & set(other[k])) for k in both)
        print(f"{len(both)} configurations in both sets: {shared} share a count")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
