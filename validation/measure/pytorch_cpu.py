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
"""
import argparse
import csv
import datetime
import os
import platform
import statistics
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
    builder, shape, optimizer_name = MODELS[name]
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
            loss_fn(model(x), y).backward()
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
            "images_per_s_p90": q[8], "reps": reps, "steps_per_rep": steps}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine", default="devbox-emerald-rapids-2vcpu")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--batches", default="")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--modes", default="train,infer")
    ap.add_argument("--reps", type=int, default=0, help="default: 5, or 3 when a step takes over a second")
    ap.add_argument("--quick", action="store_true", help="one repetition of one step: a smoke test")
    args = ap.parse_args()
    warmup = 1 if args.quick else 2
    fields = ["source", "machine", "cpu", "model", "mode", "batch", "threads", "optimizer", "images_per_s",
              "images_per_s_p10", "images_per_s_p90", "reps", "steps_per_rep", "torch", "onednn", "date"]
    exists = os.path.exists(args.out)
    with open(args.out, "a", newline="") as f:
        out = csv.DictWriter(f, fieldnames=fields)
        if not exists:
            out.writeheader()
        for name in args.models.split(","):
            batches = [int(b) for b in args.batches.split(",")] if args.batches else BATCHES[name]
            for mode in args.modes.split(","):
                for batch in batches:
                    for threads in (int(t) for t in args.threads.split(",")):
                        # About two seconds of work per repetition, at least one step.
                        probe = measure(name, mode, batch, threads, 1, 1, 1)
                        steps = 1 if args.quick else max(1, int(2.0 * probe["images_per_s"] / batch))
                        reps = 1 if args.quick else args.reps or (5 if probe["images_per_s"] > batch else 3)
                        row = measure(name, mode, batch, threads, reps, steps, warmup)
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
