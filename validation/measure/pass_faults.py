#!/usr/bin/python3
"""The minor page faults of a PyTorch CPU forward pass in its steady state, run on the
process's first thread or on a second thread (a server's request thread), each pass handed
a fresh copy of its batch as the serving harness's handler makes one: ground truth for
dlsim's glibc heap model (sim/perf/glibc_heap.hpp), which replays the first thread's arena.

    /usr/bin/python3 validation/measure/pass_faults.py --machine NAME --out FAULTS.csv \\
        [--models resnet18,resnet50] [--batches 1,8,32] [--threads 1,2] [--passes 8]

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
import serving_stack  # noqa: E402  (the harness's thread_faults)

FIELDS = ["machine", "model", "batch", "threads", "thread", "passes", "steady_faults_median",
          "faults_per_pass", "source"]


def one(model_name, batch, threads, where, passes):
    """Faults of each pass in this process; runs in a child (see main)."""
    import threading

    import torch
    import torchvision
    torch.set_num_threads(threads)
    model = getattr(torchvision.models, model_name)().eval()
    body = torch.randn(batch, 3, 224, 224).numpy().tobytes()
    faults = []

    def run():
        with torch.no_grad():
            for _ in range(passes):
                x = torch.frombuffer(bytearray(body), dtype=torch.float32).view(-1, 3, 224, 224)
                before = serving_stack.thread_faults()
                model(x)
                faults.append(serving_stack.thread_faults() - before)

    if where == "request":
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    else:
        run()
    return faults


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--models", default="resnet18,resnet50")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--passes", type=int, default=8)
    ap.add_argument("--child", nargs=4, metavar=("MODEL", "BATCH", "THREADS", "WHERE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.passes < 2:
        ap.error(f"--passes {args.passes}: at least 2 (the steady state is the last half)")
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
                        command = [sys.executable, os.path.abspath(__file__), "--machine", args.machine, "--out",
                                   os.devnull, "--passes", str(args.passes), "--child", model, str(batch),
                                   str(threads), where]
                        faults = json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE,
                                                           text=True).stdout)
                        steady = statistics.median(faults[len(faults) // 2:])
                        out.writerow({"machine": args.machine, "model": model, "batch": batch, "threads": threads,
                                      "thread": where, "passes": len(faults), "steady_faults_median": steady,
                                      "faults_per_pass": " ".join(map(str, faults)),
                                      "source": "validation/measure/pass_faults.py"})
                        f.flush()
                        print(f"{model} b{batch} t{threads} {where}: steady {steady:.0f} ({faults})", flush=True)


if __name__ == "__main__":
    main()
