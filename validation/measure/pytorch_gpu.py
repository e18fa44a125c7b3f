#!/usr/bin/env python3
"""Ground truth for dlsim's single-GPU predictions: training and inference images/s and
inference latency of PyTorch on this machine's GPU, plus the host's time per kernel launch
and its host<->device copy bandwidth.  Run on the GPU machine (its python3 holds PyTorch):

    python3 validation/measure/pytorch_gpu.py --out validation/data/pytorch_gpu_MACHINE.csv \
        --micro validation/data/pytorch_gpu_MACHINE_micro.json
    python3 validation/measure/pytorch_gpu.py --quick --out /tmp/gpu.csv     # a smoke test

Method: torchvision's models in NCHW, synthetic inputs and labels, cudnn.benchmark on (the
fastest algorithm per shape, as dlsim-gpu-bench's search picks).  Precisions: fp32 (TF32
off for convolutions and products: true FP32), tf32 (TF32 on for both), amp (autocast to
FP16; training with a gradient scaler).  Training: forward, cross-entropy (Inception-v3's
auxiliary head weighted 0.4, as torchvision's reference trains it), backward, SGD with
momentum.  Warm-up steps first (cuDNN's search happens there), then REPS repetitions of
enough steps for about REP_S seconds each, timed by the host clock around a synchronised
region; a row reports the median repetition's images/s and the P10 and P90 over them.
Inference (eval mode, no_grad), two ways:
  infer       input already in GPU memory, one batch per call, synchronised after each call
  infer_host  input in pageable host memory, copied in, run, the logits copied back: one
              request of an in-process server
each call timed on its own, so the rows also give latency percentiles over the calls.
Micro (JSON): the host's time per launch of tiny kernels (calls issued back to back, one
synchronisation at the end, so the GPU is never the bottleneck), copy bandwidth for
image-sized payloads, pageable and pinned, and training steps of ResNet-50 and VGG-16 at
batch 1 of 64x64 images, fp32 and amp, whose pace is the host's (its time per kernel in
training, which autograd and GradScaler make longer than in inference).
"""
import argparse
import contextlib
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
import torch.nn.functional as F
import torchvision

TRAIN_MODELS = ["resnet50", "resnet152", "vgg16", "inception_v3", "alexnet"]
INFER_MODELS = ["resnet50", "vgg16"]
IMAGE_BYTES = 3 * 224 * 224 * 4


MODELS = {}


def cached_model(name, device):
    """One instance per network, built once (VGG-16's initialisation alone takes seconds)."""
    if name not in MODELS:
        if name == "inception_v3":
            model = torchvision.models.inception_v3(weights=None, aux_logits=True, init_weights=False)
        else:
            model = getattr(torchvision.models, name)(weights=None)
        MODELS[name] = model.to(device)
    return MODELS[name]


def input_size(name):
    return 299 if name == "inception_v3" else 224


def set_precision(precision):
    tf32 = precision == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32


def autocast(device, amp):
    """FP16 autocast for amp, nothing otherwise (older CPU builds refuse FP16 autocast even disabled)."""
    return torch.autocast(device_type="cuda", dtype=torch.float16) if amp else contextlib.nullcontext()


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def percentile(values, q):
    """The q-th percentile (1-99), interpolated between the sorted values (numpy's default)."""
    if len(values) == 1:  # Python before 3.13 refuses quantiles of one value
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def train_row(name, batch, precision, device, args, size=None):
    set_precision(precision)
    model = cached_model(name, device).train()
    size = size or input_size(name)
    x = torch.randn(batch, 3, size, size, device=device)
    y = torch.randint(0, 1000, (batch,), device=device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    amp = precision == "amp" and device.type == "cuda"
    # torch.amp.GradScaler from PyTorch 2.3; torch.cuda.amp's before (1.13 here, in CI).
    scaler = torch.amp.GradScaler("cuda", enabled=amp) if hasattr(torch.amp, "GradScaler") \
        else torch.cuda.amp.GradScaler(enabled=amp)

    def step():
        opt.zero_grad(set_to_none=True)
        with autocast(device, amp):
            out = model(x)
            if isinstance(out, tuple):  # Inception-v3 in training: (logits, aux_logits)
                loss = F.cross_entropy(out[0], y) + 0.4 * F.cross_entropy(out[1], y)
            else:
                loss = F.cross_entropy(out, y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    return timed_steps(step, batch, device, args)


def timed_steps(step, batch, device, args):
    for _ in range(args.warmup):
        step()
    sync(device)
    start = time.perf_counter()
    probe = 2
    for _ in range(probe):
        step()
    sync(device)
    per_step = (time.perf_counter() - start) / probe
    steps = 1 if args.quick else max(3, int(args.rep_s / max(per_step, 1e-6)))
    rates = []
    for _ in range(1 if args.quick else args.reps):
        start = time.perf_counter()
        for _ in range(steps):
            step()
        sync(device)
        rates.append(batch * steps / (time.perf_counter() - start))
    return {"images_per_s": statistics.median(rates), "images_per_s_p10": percentile(rates, 10),
            "images_per_s_p90": percentile(rates, 90), "reps": len(rates), "steps_per_rep": steps}


def infer_row(name, batch, precision, mode, device, args):
    set_precision(precision)
    model = cached_model(name, device).eval()
    amp = precision == "amp" and device.type == "cuda"
    size = input_size(name)
    if mode == "infer":
        x = torch.randn(batch, 3, size, size, device=device)

        def call():
            with torch.no_grad(), autocast(device, amp):
                model(x)
            sync(device)
    else:
        host = torch.randn(batch, 3, size, size)

        def call():
            with torch.no_grad(), autocast(device, amp):
                model(host.to(device)).float().cpu()

    for _ in range(args.warmup):
        call()
    latencies = []
    deadline = time.perf_counter() + (0.05 if args.quick else args.infer_s)
    while len(latencies) < (2 if args.quick else args.min_calls) or time.perf_counter() < deadline:
        start = time.perf_counter()
        call()
        latencies.append(time.perf_counter() - start)
        if len(latencies) >= args.max_calls:
            break
    # Throughput over consecutive groups of calls, for a spread comparable with training's.
    groups = [latencies[i::5] for i in range(5)] if len(latencies) >= 5 else [latencies]
    rates = [batch * len(g) / sum(g) for g in groups]
    return {"images_per_s": batch * len(latencies) / sum(latencies), "images_per_s_p10": percentile(rates, 10),
            "images_per_s_p90": percentile(rates, 90), "latency_ms_p50": 1e3 * percentile(latencies, 50),
            "latency_ms_p90": 1e3 * percentile(latencies, 90), "latency_ms_p99": 1e3 * percentile(latencies, 99),
            "reps": len(latencies), "steps_per_rep": 1}


def launch_times(device, calls, reps):
    """Host microseconds per call of tiny operators issued back to back."""
    x = torch.randn(1, 8, 8, 8, device=device)
    w = torch.randn(8, 8, 3, 3, device=device)
    v = torch.randn(8, device=device)
    a = torch.randn(4, 64, device=device)
    lin = torch.randn(64, 64, device=device)
    ops = {
        "add_": lambda: x.add_(1.0),
        "relu": lambda: torch.relu(x),
        "conv2d_3x3": lambda: F.conv2d(x, w, padding=1),
        "batch_norm_eval": lambda: F.batch_norm(x, v, v.abs(), v, v, False),
        "linear": lambda: F.linear(a, lin),
    }
    result = {}
    for name, op in ops.items():
        with torch.no_grad():
            for _ in range(50):
                op()
            sync(device)
            per_call = []
            for _ in range(reps):
                start = time.perf_counter()
                for _ in range(calls):
                    op()
                sync(device)
                per_call.append(1e6 * (time.perf_counter() - start) / calls)
        result[name] = {"us_per_call_median": statistics.median(per_call), "us_per_call": per_call}
    return result


def training_host_steps(device, args):
    """Milliseconds per training step at batch 1 of a 64x64 image, where the GPU's work is
    tiny and the host's launches set the pace: what a training step's host spends per
    kernel (autograd, the optimizer, GradScaler), beside the inference figures of
    launch_times."""
    models, precisions = (("resnet50",), ("fp32",)) if args.quick else (("resnet50", "vgg16"), ("fp32", "amp"))
    out = {}
    for name in models:
        for precision in precisions:
            row = train_row(name, 1, precision, device, args, size=64)
            out[f"{name} {precision}"] = {"step_ms_median": 1e3 / row["images_per_s"],
                                          "step_ms_p10": 1e3 / row["images_per_s_p90"],
                                          "step_ms_p90": 1e3 / row["images_per_s_p10"]}
    return out


def copy_bandwidth(device, reps):
    """GB/s of host->device and device->host copies of 1, 8, 32 and 256 images."""
    rows = []
    for images in (1, 8, 32, 256):
        count = images * IMAGE_BYTES // 4
        gpu = torch.empty(count, device=device)
        for pinned in (False, True):
            host = torch.randn(count)
            if pinned and device.type == "cuda":
                host = host.pin_memory()
            for direction in ("h2d", "d2h"):
                times = []
                for _ in range(reps):
                    sync(device)
                    start = time.perf_counter()
                    if direction == "h2d":
                        gpu.copy_(host)
                    else:
                        host.copy_(gpu)
                    sync(device)
                    times.append(time.perf_counter() - start)
                t = statistics.median(times[1:] if len(times) > 1 else times)
                rows.append({"bytes": count * 4, "pinned": pinned, "direction": direction,
                             "seconds_median": t, "gb_per_s": count * 4 / t / 1e9})
    return rows


def identity(device):
    info = {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
            "host_cpu": platform.processor() or platform.machine(), "cpu_count": os.cpu_count(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    if device.type == "cuda":
        p = torch.cuda.get_device_properties(0)
        info.update({"gpu": p.name, "sm_count": p.multi_processor_count, "gpu_memory_bytes": p.total_memory})
        try:
            info["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                            capture_output=True, text=True).stdout.strip()
        except OSError:
            info["driver"] = ""
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="CSV to append the rows to")
    ap.add_argument("--micro", help="JSON for the launch and copy microbenchmarks")
    ap.add_argument("--machine", default="")
    ap.add_argument("--train-models", default=",".join(TRAIN_MODELS))
    ap.add_argument("--train-batches", default="32,128,256")
    ap.add_argument("--train-precisions", default="fp32,amp")
    ap.add_argument("--infer-models", default=",".join(INFER_MODELS))
    ap.add_argument("--infer-batches", default="1,2,4,8,16,32,64,128,256")
    ap.add_argument("--infer-precisions", default="fp32,amp")
    ap.add_argument("--infer-modes", default="infer,infer_host")
    ap.add_argument("--host-batches", default="1,8,32,128", help="batches of the infer_host rows")
    ap.add_argument("--extra", default="", help="more rows: MODEL:MODE:BATCH:PRECISION separated by commas")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rep-s", type=float, default=0.25, help="seconds per training repetition")
    ap.add_argument("--infer-s", type=float, default=0.6, help="seconds of calls per inference row (at least)")
    ap.add_argument("--min-calls", type=int, default=30)
    ap.add_argument("--max-calls", type=int, default=2000)
    ap.add_argument("--deadline", type=float, default=0, help="seconds after which no new row starts")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.backends.cudnn.benchmark = True
    info = identity(device)
    machine = args.machine or info.get("gpu", "cpu").lower().replace(" ", "-")
    print(json.dumps(info), flush=True)
    began = time.perf_counter()

    if args.micro:
        micro = {"identity": info, "launch": launch_times(device, 200 if args.quick else 2000, 2 if args.quick else 7),
                 "copies": copy_bandwidth(device, 3 if args.quick else 9),
                 "training_host": training_host_steps(device, args)}
        with open(args.micro, "w") as f:
            json.dump(micro, f, indent=1)
        print("launch us/call:", {k: round(v["us_per_call_median"], 2) for k, v in micro["launch"].items()}, flush=True)
        print("training step ms at batch 1, 64x64:",
              {k: round(v["step_ms_median"], 2) for k, v in micro["training_host"].items()}, flush=True)

    plan = []  # training first: a deadline cuts the inference rows, which are quicker to redo
    for name in filter(None, args.train_models.split(",")):
        for precision in filter(None, args.train_precisions.split(",")):
            for batch in filter(None, args.train_batches.split(",")):
                plan.append((name, "train", int(batch), precision))
    for name in filter(None, args.infer_models.split(",")):
        for precision in filter(None, args.infer_precisions.split(",")):
            for mode in filter(None, args.infer_modes.split(",")):
                batches = args.host_batches if mode == "infer_host" else args.infer_batches
                for batch in filter(None, batches.split(",")):
                    plan.append((name, mode, int(batch), precision))
    for item in filter(None, args.extra.split(",")):
        name, mode, batch, precision = item.split(":")
        plan.append((name, mode, int(batch), precision))
    if args.quick:
        plan = [p for p in plan if p[2] in (1, 2)][:4] or plan[:2]

    fields = ["source", "machine", "gpu", "model", "mode", "batch", "precision", "images_per_s",
              "images_per_s_p10", "images_per_s_p90", "latency_ms_p50", "latency_ms_p90", "latency_ms_p99",
              "reps", "steps_per_rep", "torch", "cuda", "cudnn", "driver", "date"]
    new = not os.path.exists(args.out) or os.path.getsize(args.out) == 0
    with open(args.out, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        if new:
            writer.writeheader()
        for name, mode, batch, precision in plan:
            if args.deadline and time.perf_counter() - began > args.deadline:
                print(f"skipped at the deadline: {name} {mode} b{batch} {precision}", flush=True)
                continue
            start = time.perf_counter()
            try:
                if mode == "train":
                    row = train_row(name, batch, precision, device, args)
                else:
                    row = infer_row(name, batch, precision, mode, device, args)
            except RuntimeError as e:  # out of memory, say: the row is reported, the rest go on
                print(f"{name} {mode} b{batch} {precision}: failed: {e}", file=sys.stderr, flush=True)
                MODELS.clear()
                if device.type == "cuda":
                    torch.cuda.empty_cache()
                continue
            row.update({"source": "validation/measure/pytorch_gpu.py", "machine": machine,
                        "gpu": info.get("gpu", "cpu"), "model": name, "mode": mode, "batch": batch,
                        "precision": precision, "torch": info["torch"], "cuda": info["cuda"],
                        "cudnn": info["cudnn"], "driver": info.get("driver", ""), "date": info["date"][:10]})
            writer.writerow(row)
            f.flush()
            print(f"{name} {mode} b{batch} {precision}: {row['images_per_s']:.1f} images/s"
                  f" ({time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
