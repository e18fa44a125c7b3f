#!/usr/bin/python3
"""The minor page faults of a PyTorch CPU forward pass in its steady state, and its time,
run on the process's first thread or on a second thread (a server's request thread), each
pass handed a fresh copy of its batch as the serving harness's handler makes one: ground
truth for dlsim's glibc heap model (sim/perf/glibc_heap.hpp), which replays the first
thread's arena, and for the price it gives a page.

    /usr/bin/python3 validation/measure/pass_faults.py --machine NAME --out FAULTS.csv \\
        [--models resnet18,resnet50] [--batches 1,8,32] [--threads 1,2] [--passes 8] \\
        [--allocators default,untrimmed]

Allocators: glibc as it comes ("default"), or told never to give memory back ("untrimmed":
MALLOC_TRIM_THRESHOLD_ and MALLOC_TOP_PAD_ far above any pass, MALLOC_MMAP_THRESHOLD_ at
its 32 MiB most, so that the first thread's heap serves every tensor warm).  On the first
thread the two differ by the faults and nothing else: their difference in time over their
difference in faults is what a page costs inside a pass, beside first_touch's price of a
page written fresh rather than warm (kernels/pytorch/torch_op_bench.py), timed in the same
process after the passes (fresh_page_us: torch_op_bench.py's first_touch, 128 MiB mapped,
written, unmapped, less the same bytes written warm, per page; median of three).  Faults are the calling thread's: with two
threads the OpenMP worker faults its own share, so prices come from one thread.

Each configuration runs in a process of its own (glibc's thresholds are the process's);
a row per configuration: the faults of every pass, the first ones (the heap growing and
its thresholds rising) beside the steady state's median over the last half.  On the 2-vCPU
Zen 3 VM (2026-11-26) ResNet-18 at batch 8 on one thread faulted about 1 page a pass on a
second thread and 4,000-25,000 (alternating) on the first: the arenas trim differently.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "kernels", "net"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "kernels", "pytorch"))
import page_price  # noqa: E402  (the untrimmed allocator's environment)
import serving_stack  # noqa: E402  (the harness's thread_faults)

FIELDS = ["machine", "model", "batch", "threads", "thread", "allocator", "passes", "steady_faults_median",
          "steady_ms_median", "fresh_page_us", "faults_per_pass", "ms_per_pass", "source"]

# The environment of each allocator's child process.
ALLOCATORS = {"default": {}, "untrimmed": page_price.UNTRIMMED}


def fresh_page_us():
    """first_touch's price of a page in this process (torch_op_bench.py's fresh less warm
    phase, 128 MiB), per page, median of three."""
    import time

    import torch_op_bench
    sig = torch_op_bench.parse_signature(page_price.SIGNATURE)
    phases = torch_op_bench.first_touch(sig)
    prices = []
    for _ in range(3):
        seconds = {}
        for phase in ("fresh", "warm"):
            start = time.perf_counter()
            phases[phase]()
            seconds[phase] = time.perf_counter() - start
        prices.append((seconds["fresh"] - seconds["warm"]) * 1e6 / page_price.PAGES)
    return statistics.median(prices)


def one(model_name, batch, threads, where, passes):
    """Faults and milliseconds of each pass in this process, and its fresh page's price;
    runs in a child (see main)."""
    import threading
    import time

    import torch
    import torchvision
    torch.set_num_threads(threads)
    model = getattr(torchvision.models, model_name)().eval()
    body = torch.randn(batch, 3, 224, 224).numpy().tobytes()
    faults, ms = [], []

    def run():
        with torch.no_grad():
            for _ in range(passes):
                x = torch.frombuffer(bytearray(body), dtype=torch.float32).view(-1, 3, 224, 224)
                before = serving_stack.thread_faults()
                start = time.perf_counter()
                model(x)
                ms.append(round((time.perf_counter() - start) * 1e3, 3))
                faults.append(serving_stack.thread_faults() - before)

    if where == "request":
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    else:
        run()
    return {"faults": faults, "ms": ms, "fresh_page_us": fresh_page_us()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--models", default="resnet18,resnet50")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--passes", type=int, default=8)
    ap.add_argument("--allocators", default="default", help="default, untrimmed or both, comma-separated")
    ap.add_argument("--child", nargs=4, metavar=("MODEL", "BATCH", "THREADS", "WHERE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.passes < 2:
        ap.error(f"--passes {args.passes}: at least 2 (the steady state is the last half)")
    allocators = args.allocators.split(",")
    for name in allocators:
        if name not in ALLOCATORS:
            ap.error(f"--allocators: '{name}' is not one of {', '.join(ALLOCATORS)}")
    if args.child:
        model, batch, threads, where = args.child
        print(json.dumps(one(model, int(batch), int(threads), where, args.passes)))
        return
    with open(args.out, "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=FIELDS)
        out.writeheader()
        for model in args.models.split(","):
            for batch in (int(b) for b in args.batches.split(",")):
                for threads in (int(t) for t in args.threads.split(",")):
                    for where in ("main", "request"):
                        for allocator in allocators:
                            write_row(out, args, model, batch, threads, where, allocator)
                            f.flush()


def write_row(out, args, model, batch, threads, where, allocator):
    """One configuration, run in a child process of its own."""
    command = [sys.executable, os.path.abspath(__file__), "--machine", args.machine, "--out", os.devnull,
               "--passes", str(args.passes), "--child", model, str(batch), str(threads), where]
    result = json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True,
                                       env={**os.environ, **ALLOCATORS[allocator]}).stdout)
    faults, ms = result["faults"], result["ms"]
    steady = statistics.median(faults[len(faults) // 2:])
    steady_ms = statistics.median(ms[len(ms) // 2:])
    out.writerow({"machine": args.machine, "model": model, "batch": batch, "threads": threads, "thread": where,
                  "allocator": allocator, "passes": len(faults), "steady_faults_median": steady,
                  "steady_ms_median": steady_ms, "fresh_page_us": round(result["fresh_page_us"], 2),
                  "faults_per_pass": " ".join(map(str, faults)), "ms_per_pass": " ".join(map(str, ms)),
                  "source": "validation/measure/pass_faults.py"})
    print(f"{model} b{batch} t{threads} {where} {allocator}: steady {steady:.0f} faults, {steady_ms:.1f} ms "
          f"({faults})", flush=True)


if __name__ == "__main__":
    main()
