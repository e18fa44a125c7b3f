#!/usr/bin/python3
"""Whole inference passes of torchvision networks on two threads, in each place a server can
run them, to show what the placement of a request thread's OpenMP team costs:

  main     the process's main thread, its team the process's only one (idle threads spin)
  request  one request thread, pass after pass, after the main thread ran PyTorch: two
           teams, more runtime threads than cores, so idle threads sleep at once
           (torch_op_bench.py's infer_pass_thread)
  turns    two request threads taking turns, a pass each, as a server's connections do
           under its model's lock (infer_pass_turns)
  shared   as request, the request thread and its team pinned to one core
  apart    as request, the request thread pinned to one core and its team to the other

    /usr/bin/python3 kernels/pytorch/pass_placement.py --models mobilenet_v3_small,resnet18 \\
        --batches 1,8 [--passes 40] --out FILE.jsonl

Each network, batch and place runs in a fresh process (a thread's team lives as long as
the thread) and appends one JSON line: the median, 10th and 90th percentile of its passes
in ms, after warm-up passes.  Run it on an otherwise idle machine with two or more cores.
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import statistics
import subprocess
import sys
import threading
import time

PLACES = ("main", "request", "turns", "shared", "apart")
THREADS = 2


def timed_passes(model, x, count):
    """Seconds of `count` passes on the calling thread."""
    import torch
    out = []
    with torch.no_grad():
        for _ in range(count):
            start = time.perf_counter()
            model(x)
            out.append(time.perf_counter() - start)
    return out


def request_thread():
    """An executor of one thread, set to run PyTorch on THREADS threads."""
    import torch
    thread = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    thread.submit(torch.set_num_threads, THREADS).result()
    return thread


def pin_team(thread, model, x, together):
    """Runs a pass on `thread` to start its team, then pins the thread to core 0 and the
    team's new threads to core 0 (together) or core 1."""
    before = set(os.listdir("/proc/self/task"))
    caller = thread.submit(threading.get_native_id).result()
    thread.submit(timed_passes, model, x, 1).result()
    team = [int(t) for t in set(os.listdir("/proc/self/task")) - before]
    os.sched_setaffinity(caller, {0})
    for tid in team:
        os.sched_setaffinity(tid, {0} if together else {1})


def one(name, batch, place, passes, warmup=5):
    """The passes of one network, batch and place, in this process: seconds each."""
    import torch
    import torchvision
    torch.set_num_threads(THREADS)
    model = getattr(torchvision.models, name)().eval()
    side = 299 if name == "inception_v3" else 224
    x = torch.randn(batch, 3, side, side)
    if place == "main":
        timed_passes(model, x, warmup)
        return timed_passes(model, x, passes)
    timed_passes(model, x, 2)  # the main thread's team, as a server's loader may leave one
    if place == "turns":
        threads = itertools.cycle([request_thread(), request_thread()])
        for _ in range(warmup):
            next(threads).submit(timed_passes, model, x, 1).result()
        return [t for _ in range(passes) for t in next(threads).submit(timed_passes, model, x, 1).result()]
    thread = request_thread()
    if place in ("shared", "apart"):
        pin_team(thread, model, x, together=place == "shared")
    thread.submit(timed_passes, model, x, warmup).result()
    return thread.submit(timed_passes, model, x, passes).result()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", help="torchvision classifiers, comma-separated")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--places", default=",".join(PLACES))
    ap.add_argument("--passes", type=int, default=40)
    ap.add_argument("--out", help="JSON lines to append to")
    ap.add_argument("--one", nargs=3, metavar=("MODEL", "BATCH", "PLACE"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(one(a.one[0], int(a.one[1]), a.one[2], a.passes)))
        return 0
    places = a.places.split(",")
    if not set(places) <= set(PLACES) or not a.out or not a.models:
        print(f"pass_placement: --models and --out are needed, and --places must be some of {','.join(PLACES)}",
              file=sys.stderr)
        return 2
    if len(os.sched_getaffinity(0)) < 2:
        print("pass_placement: needs two cores or more", file=sys.stderr)
        return 2
    for name, batch, place in itertools.product(a.models.split(","), a.batches.split(","), places):
        run = subprocess.run([sys.executable, __file__, "--one", name, batch, place, "--passes", str(a.passes)],
                             capture_output=True, text=True, check=True)
        ms = sorted(1e3 * s for s in json.loads(run.stdout.splitlines()[-1]))
        row = {"model": name, "batch": int(batch), "threads": THREADS, "place": place, "passes": len(ms),
               "median_ms": round(statistics.median(ms), 2), "p10_ms": round(ms[len(ms) // 10], 2),
               "p90_ms": round(ms[9 * len(ms) // 10], 2), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        print(json.dumps(row), flush=True)
        with open(a.out, "a") as f:
            f.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
