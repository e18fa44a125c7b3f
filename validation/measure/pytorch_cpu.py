#!/usr/bin/python3
"""Ground truth for dlsim's CPU predictions: training and inference images/s of PyTorch on
this machine's CPU (Debian's python3-torch, built on oneDNN 2.6.3 like kernels/cpu).

    /usr/bin/python3 validation/measure/pytorch_cpu.py --out validation/data/pytorch_cpu_devbox.csv
    /usr/bin/python3 validation/measure/pytorch_cpu.py --models keras_mnist --batches 32 --threads 1 --quick

Method: synthetic inputs and labels already in memory (no data loading); for training,
forward, cross-entropy loss, backward and the optimizer step (Adam for study B's Keras
nets as the study trained them, SGD with momentum otherwise); for inference, eval mode
under no_grad.  Warm-up steps first, then REPS repetitions of STEPS timed steps; each
repetition gives one images/s figure, and the row reports their median, P10 and P90.
Every row is measured in a process of its own, as a training job or a server runs: glibc's
heap carries what a process ran before (its dynamic mmap threshold and its grown, untrimmed
top), and inference after training in one process ran 11-36% faster on the Zen 5 VM than
in a fresh one (ResNet-50 batch 4 on two threads: 36.3 against 23.2 images/s).  With
--processes N each row is measured in N fresh processes one after another and reports the
median of their medians, P10 and P90 over every repetition of them all: on two threads
the Zen 5 VM runs a process 50% faster or slower than the one before it (MobileNet-v2 at
batch 8, 94 to 142 ms a pass), steadily within each.
"""
import argparse
import csv
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torchvision

# Study B's Keras examples, layer for layer as dlsim's zoo has them (sim/graph/zoo/study_nets.cpp).
def keras_mnist():
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 10))


def keras_cifar10():
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        nn.Flatten(), nn.Linear(2304, 512), nn.ReLU(), nn.Dropout(0.5), nn.Linear(512, 10))


MODELS = {
    # name: (builder, input shape, optimizer)
    "keras_mnist": (keras_mnist, (1, 28, 28), "adam"),
    "keras_cifar10": (keras_cifar10, (3, 32, 32), "adam"),
    "resnet18": (lambda: torchvision.models.resnet18(weights=None), (3, 224, 224), "sgd_momentum"),
    "resnet50": (lambda: torchvision.models.resnet50(weights=None), (3, 224, 224), "sgd_momentum"),
    "vgg16": (lambda: torchvision.models.vgg16(weights=None), (3, 224, 224), "sgd_momentum"),
}


def torchvision_model(name):
    """(builder, input shape, optimizer) of any other torchvision classifier, named as
    dlsim's zoo names it (alexnet, googlenet, mobilenet_v2, resnet34, vgg11, ...): ImageNet
    inputs (299x299 for Inception-v3), SGD with momentum, no auxiliary heads (dlsim's
    GoogLeNet has none; its Inception-v3 keeps one in training, as torchvision's)."""
    if name in MODELS:
        return MODELS[name]
    if not hasattr(torchvision.models, name):
        raise SystemExit(f"pytorch_cpu.py: no model '{name}' here or in torchvision.models")
    kwargs = {"weights": None}
    if name == "googlenet":
        kwargs.update(aux_logits=False, init_weights=False)
    if name == "inception_v3":
        kwargs.update(init_weights=False)
    size = 299 if name == "inception_v3" else 224
    return (lambda: getattr(torchvision.models, name)(**kwargs)), (3, size, size), "sgd_momentum"


# Batch sizes per model: large enough to matter, small enough for two cores.
BATCHES = {"keras_mnist": [32, 128], "keras_cifar10": [32, 128], "resnet18": [8, 32], "resnet50": [4, 8],
           "vgg16": [2, 4]}


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def measure(name, mode, batch, threads, reps, steps, warmup):
    builder, shape, optimizer_name = torchvision_model(name)
    torch.manual_seed(0)
    torch.set_num_threads(threads)
    model = builder()
    x = torch.randn(batch, *shape)
    y = torch.randint(0, 10, (batch,))
    if mode == "train":
        model.train()
        loss_fn = nn.CrossEntropyLoss()
        opt = (torch.optim.Adam(model.parameters(), lr=1e-3) if optimizer_name == "adam"
               else torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9))

        def step():
            opt.zero_grad(set_to_none=True)
            out = model(x)  # Inception-v3 trains with its auxiliary head: a loss on each output
            sum(loss_fn(o, y) for o in (out if isinstance(out, tuple) else (out,))).backward()
            opt.step()
    else:
        model.eval()
        optimizer_name = ""

        def step():
            with torch.no_grad():
                model(x)

    for _ in range(warmup):
        step()
    rates = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(steps):
            step()
        rates.append(batch * steps / (time.perf_counter() - start))
    rates.sort()
    q = statistics.quantiles(rates, n=10, method="inclusive") if len(rates) > 1 else [rates[0]] * 9
    return {"optimizer": optimizer_name, "images_per_s": statistics.median(rates), "images_per_s_p10": q[0],
            "images_per_s_p90": q[8], "reps": reps, "steps_per_rep": steps, "rates": rates}


def measure_row(name, mode, batch, threads, reps, quick):
    """One row: about two seconds of work per repetition, at least one step."""
    probe = measure(name, mode, batch, threads, 1, 1, 1)
    steps = 1 if quick else max(1, int(2.0 * probe["images_per_s"] / batch))
    reps = 1 if quick else reps or (5 if probe["images_per_s"] > batch else 3)
    return measure(name, mode, batch, threads, reps, steps, 1 if quick else 2)


def in_fresh_processes(command, processes):
    """Runs a --one measurement in `processes` fresh processes; the row of their median."""
    runs = [json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout
                       .strip().splitlines()[-1]) for _ in range(processes)]
    rates = sorted(rate for r in runs for rate in r.pop("rates"))
    row = dict(runs[0], images_per_s=statistics.median(r["images_per_s"] for r in runs), processes=processes)
    if len(rates) > 1:
        q = statistics.quantiles(rates, n=10, method="inclusive")
        row["images_per_s_p10"], row["images_per_s_p90"] = q[0], q[8]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", help="CSV to append the rows to (required)")
    ap.add_argument("--machine", default="devbox-emerald-rapids-2vcpu")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--batches", default="")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--modes", default="train,infer")
    ap.add_argument("--reps", type=int, default=0, help="default: 5, or 3 when a step takes over a second")
    ap.add_argument("--processes", type=int, default=1, help="fresh processes per row, one after another")
    ap.add_argument("--quick", action="store_true", help="one repetition of one step: a smoke test")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # NAME,MODE,BATCH,THREADS: one row, as JSON on stdout
    args = ap.parse_args()
    if args.one:
        name, mode, batch, threads = args.one.split(",")
        print(json.dumps(measure_row(name, mode, int(batch), int(threads), args.reps, args.quick)))
        return
    if not args.out:
        ap.error("--out is required")
    fields = ["source", "machine", "cpu", "model", "mode", "batch", "threads", "optimizer", "images_per_s",
              "images_per_s_p10", "images_per_s_p90", "reps", "steps_per_rep", "processes", "torch", "onednn", "date"]
    exists = os.path.exists(args.out)
    with open(args.out, "a", newline="") as f:
        out = csv.DictWriter(f, fieldnames=fields)
        if not exists:
            out.writeheader()
        for name in args.models.split(","):
            batches = [int(b) for b in args.batches.split(",")] if args.batches else BATCHES.get(name, [8])
            for mode in args.modes.split(","):
                for batch in batches:
                    for threads in (int(t) for t in args.threads.split(",")):
                        one = [sys.executable, os.path.abspath(__file__), "--one", f"{name},{mode},{batch},{threads}",
                               "--reps", str(args.reps)] + (["--quick"] if args.quick else [])
                        row = in_fresh_processes(one, args.processes)
                        row.update({"source": "validation/measure/pytorch_cpu.py", "machine": args.machine,
                                    "cpu": cpu_model(), "model": name, "mode": mode, "batch": batch,
                                    "threads": threads, "torch": torch.__version__,
                                    "onednn": torch.backends.mkldnn.is_available() and "2.6.3",
                                    "date": datetime.date.today().isoformat()})
                        out.writerow(row)
                        f.flush()
                        print(f"{name:14} {mode:5} batch {batch:4} threads {threads}: "
                              f"{row['images_per_s']:9.2f} images/s (P10 {row['images_per_s_p10']:.2f}, "
                              f"P90 {row['images_per_s_p90']:.2f})", flush=True)


if __name__ == "__main__":
    main()
