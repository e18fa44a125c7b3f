#!/usr/bin/env python3
"""dlsim's PyTorch operator benchmark on a GPU: times every kernel signature a step needs
through PyTorch's own operators on CUDA, as a training or inference loop calls them, and
writes Google Benchmark JSON whose rows ("<signature> | gpu | <phase>") `dlsim calibrate
--catalog-gpu NAME` fits like dlsim-gpu-bench's.  Run on the GPU machine (its python3):

    python3 kernels/pytorch/torch_gpu_op_bench.py --signatures FILE --out RAW.json
    python3 kernels/pytorch/torch_gpu_op_bench.py --signatures FILE --out RAW.json --quick   # anywhere

Why beside dlsim-gpu-bench: PyTorch does not call cuDNN as a cuDNN program would.  On an
H200 (2026-11-26) PyTorch 2.11 ran its models in NCHW under autocast, chose its
convolution engines through cuDNN's graph API with its own search (cudnn.benchmark tries
at most ten), and runs pooling, most batch norms and all elementwise work in kernels of its
own; dlsim-gpu-bench's legacy-API timings predicted its fp32 ResNet training within 6% but
its amp runs 35-90% off.  Timing the operators themselves measures those choices.

Phases and signatures are torch_op_bench.py's (fwd, infer, bwd_data, bwd_weights, update),
whose operators this reuses; the data type is the signature's: fp32 with TF32 off, tf32
with it on, fp16 with half activations and weights in PyTorch's default NCHW (autocast's
kernels; its casts are dlsim's own kernels) and batch norm's parameters in fp32.
Timing: the GPU's time alone, not the host's.  The GPU is first held by a sleep kernel
while the host queues --calls calls, then the calls run back to back between two CUDA
events; the sleep outlasts the queueing (checked, and lengthened when it does not), so no
launch gap is timed.  The host's time per launch is a separate figure in dlsim
(system.launch_overhead).
"""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchmark_file  # noqa: E402
import torch_op_bench as ops  # noqa: E402

DTYPES = ("fp32", "tf32", "fp16")
MAX_LENGTHENINGS = 4  # an operator that synchronises with the GPU never runs ahead of a sleep
CLOCK_HZ = 2.0e9  # what a sleep of N cycles lasts is only a bound: it must outlast the queueing


def use_dtype(dtype):
    tf32 = dtype == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    ops.ACTIVATION_DTYPE = torch.float16 if dtype == "fp16" else torch.float32


def gpu_seconds_per_call(fn, repetitions, calls):
    """The GPU's seconds per call, one figure per repetition (see the module's text)."""
    for _ in range(3):  # cudnn.benchmark's search and the caching allocator's first blocks
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    queueing = time.perf_counter() - start
    torch.cuda.synchronize()
    times = []
    lengthened = 0
    while len(times) < repetitions:
        sleep_s = 2 * queueing + 1e-3
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(int(sleep_s * CLOCK_HZ))
        begin.record()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        queued = time.perf_counter() - start
        end.record()
        end.synchronize()
        if queued > sleep_s and lengthened < MAX_LENGTHENINGS:  # the GPU caught up: a launch gap was timed
            queueing = queued
            lengthened += 1
            continue
        # Still caught up after that many longer sleeps: the operator waits for the GPU
        # itself (its host work follows the GPU's), and its time is what a step sees.
        times.append(begin.elapsed_time(end) * 1e-3 / calls)
    return times


def host_seconds_per_call(fn, repetitions, calls):
    """Without a GPU (--quick on a CPU): the call's own time, so the file's shape is checked."""
    return benchmark_file.time_calls(fn, repetitions, 0.0).times


def phases(sig, training):
    if sig["op"] in ("first_touch", "team_wake", "team_spin"):
        return {}
    return ops.phases_of(sig, training)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--signatures", required=True, help="one dlsim kernel signature per line")
    ap.add_argument("--inference", action="store_true", help="forward kernels only, under no_grad")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--calls", type=int, default=10, help="calls timed back to back per repetition")
    ap.add_argument("--quick", action="store_true", help="one repetition of one call, on the CPU without a GPU")
    ap.add_argument("--deadline", type=float, help="seconds after which no further signature is started")
    ap.add_argument("--out", required=True, help="Google Benchmark JSON to write")
    a = ap.parse_args()
    try:
        signatures = ops.read_signatures(a.signatures)
    except OSError as e:
        print(f"torch_gpu_op_bench: {e}", file=sys.stderr)
        return 2
    gpu = torch.cuda.is_available()
    if not gpu and not a.quick:
        print("torch_gpu_op_bench: no GPU here (--quick runs the operators on the CPU)", file=sys.stderr)
        return 77
    if gpu:
        torch.set_default_device("cuda")
        torch.backends.cudnn.benchmark = True
    repetitions, calls = (1, 1) if a.quick else (a.repetitions, a.calls)
    timer = gpu_seconds_per_call if gpu else host_seconds_per_call
    torch.manual_seed(0)
    training = not a.inference
    rows = []
    started = time.monotonic()
    skipped = 0
    for text in signatures:
        if a.deadline is not None and time.monotonic() - started > a.deadline:
            skipped += 1
            continue
        prefix = f"{text} | gpu | "
        try:
            sig = ops.parse_signature(text, DTYPES)
            use_dtype(sig["dtype"])
            kernels = phases(sig, training)
        except (ValueError, RuntimeError) as e:
            rows.append({"name": prefix + "error", "run_type": "iteration", "error_occurred": True,
                         "error_message": str(e)})
            continue
        for phase, fn in kernels.items():
            try:
                seconds = timer(fn, repetitions, calls)
            except RuntimeError as e:  # out of memory, an operator the build lacks
                rows.append({"name": prefix + phase, "run_type": "iteration", "error_occurred": True,
                             "error_message": str(e)})
                continue
            rows += [{"name": prefix + phase, "run_type": "iteration", "repetitions": len(seconds),
                      "repetition_index": i, "threads": 1, "iterations": calls, "real_time": s * 1e6,
                      "time_unit": "us"} for i, s in enumerate(seconds)]
        if gpu:
            torch.cuda.empty_cache()
        print(f"torch_gpu_op_bench: {time.monotonic() - started:.1f} s: {text}", file=sys.stderr)
        write(a, gpu, training, rows, skipped)  # each signature kept, should the run be cut short
    write(a, gpu, training, rows, skipped)
    return 0


def write(a, gpu, training, rows, skipped):
    context = benchmark_file.machine_context(
        __file__, framework="pytorch", torch_version=torch.__version__, device="gpu" if gpu else "cpu",
        mode="training" if training else "inference", layout="NCHW",
        timing="GPU time between CUDA events, the calls queued behind a sleep kernel" if gpu else "host time (--quick)",
        signatures_skipped_at_deadline=str(skipped))
    if gpu:
        props = torch.cuda.get_device_properties(0)
        context.update({"gpu_name": props.name, "gpu_sm_count": str(props.multi_processor_count),
                        "cuda_runtime": str(torch.version.cuda), "cudnn": str(torch.backends.cudnn.version())})
    benchmark_file.write(a.out, context, rows)


if __name__ == "__main__":
    sys.exit(main())
