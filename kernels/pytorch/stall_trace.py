#!/usr/bin/python3
"""How often, and for how long, this machine takes a PyTorch team off its cores, and how
its speed drifts between: a trace for dlsim's serving simulation (sim/infer/stalls.hpp),
as Google Benchmark JSON that `dlsim calibrate` reads with the operator timings.

    /usr/bin/python3 kernels/pytorch/stall_trace.py [--threads 1,2] [--seconds 60]
        [--threshold-us 200] [--window-ms 20] --out RAW.json

An operator's timing (torch_op_bench.py) is the median of repetitions, each the mean of
many calls, so it carries the machine's small jitter but not its rare long interruptions:
a vCPU the hypervisor takes away, another task scheduled onto a core the team needs.  A
team of several threads waits at every operator's end for its last thread, so one thread
off its core stalls them all; on the 2-vCPU Zen 5 VM ResNet-18 passes of 20 ms on two
threads had a P99 10-34% above their median, on one thread 3%.  This runs a ReLU in place
on 1x64x56x56 (the team_wake shape) back to back on a request thread, as a server calls
its model, for --seconds per thread count, and reports every call that took at least
--threshold-us longer than the median call, by how much.

Between stalls a VM's speed drifts for a second or so at a time (a neighbour on the host's
cores, its clocks): on the 2-vCPU Zen 3 VM, ResNet-18 passes at batch 1 on one thread took
66 ms at the median, P90 1.22x and P99 1.33x that, consecutive passes correlated 0.78, and
the calls of its first 3x3 convolution (1x64x56x56) spread alike (P90 1.20x, P99 1.30x),
where the ReLU's 70 ms windows spread less (P90 1.08x): compute slows more than memory
traffic.  So the trace then calls that convolution back to back for --seconds and keeps,
window by window in order, the median call of each --window-ms (a median, so the stalls
counted above are not counted again):
  "stall fp32 n1 e200704 | threads=<n> | stall"    one row per stall, its excess time
  "stall fp32 n1 e200704 | threads=<n> | traced"   one row, the seconds traced
  "stall fp32 n1 e200704 | threads=<n> | speed"    one row per window, its median call
  "stall fp32 n1 e200704 | threads=<n> | window"   one row, the windows' length
"""
import argparse
import concurrent.futures
import statistics
import sys
import time

import torch

import benchmark_file

SIGNATURE = "stall fp32 n1 e200704"


def trace(threads, seconds, threshold_s):
    """(stalls in seconds, seconds traced) on the calling thread."""
    torch.set_num_threads(threads)
    x = torch.randn(1, 64, 56, 56)
    clock = time.perf_counter
    for _ in range(1000):
        torch.relu_(x)
    calls = []
    start = clock()
    end = start + seconds
    t = start
    while t < end:
        torch.relu_(x)
        now = clock()
        calls.append(now - t)
        t = now
    median = statistics.median(calls)
    return [c - median for c in calls if c - median >= threshold_s], t - start


def speed(threads, seconds, window_s):
    """The median call of the convolution in each window, in seconds, in order; a window
    without a call started in it (one call longer than a window) keeps the one before."""
    torch.set_num_threads(threads)
    torch.set_grad_enabled(False)  # on this thread, as a server's request thread runs
    conv = torch.nn.Conv2d(64, 64, 3, padding=1, bias=False).eval()
    x = torch.randn(1, 64, 56, 56)
    clock = time.perf_counter
    for _ in range(50):
        conv(x)
    windows = [[] for _ in range(int(seconds / window_s))]
    start = clock()
    t = start
    while (w := int((t - start) / window_s)) < len(windows):
        conv(x)
        now = clock()
        windows[w].append(now - t)
        t = now
    medians = []
    for calls in windows:
        medians.append(statistics.median(calls) if calls else medians[-1])
    return medians


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--seconds", type=float, default=60.0,
                    help="seconds traced per thread count, for stalls and again for speed")
    ap.add_argument("--threshold-us", type=float, default=200.0,
                    help="a call this much slower than the median is a stall")
    ap.add_argument("--window-ms", type=float, default=20.0, help="the speed trace's window")
    ap.add_argument("--out", required=True, help="Google Benchmark JSON to write")
    a = ap.parse_args()
    try:
        threads = [int(t) for t in a.threads.split(",")]
    except ValueError as e:
        print(f"stall_trace: --threads: {e}", file=sys.stderr)
        return 2
    with torch.no_grad():
        torch.relu_(torch.randn(1, 64, 56, 56))  # the main thread runs PyTorch first, as servers' do
    request_thread = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    rows = []
    for t in threads:
        stalls, traced = request_thread.submit(trace, t, a.seconds, a.threshold_us * 1e-6).result()
        prefix = f"{SIGNATURE} | threads={t} | "
        rows += [{"name": prefix + "stall", "run_type": "iteration", "threads": t, "iterations": 1,
                  "real_time": s * 1e6, "time_unit": "us"} for s in stalls]
        rows.append({"name": prefix + "traced", "run_type": "iteration", "threads": t, "iterations": 1,
                     "real_time": traced * 1e6, "time_unit": "us"})
        windows = request_thread.submit(speed, t, a.seconds, a.window_ms * 1e-3).result()
        rows += [{"name": prefix + "speed", "run_type": "iteration", "threads": t, "iterations": 1,
                  "real_time": m * 1e6, "time_unit": "us"} for m in windows]
        rows.append({"name": prefix + "window", "run_type": "iteration", "threads": t, "iterations": 1,
                     "real_time": a.window_ms * 1e3, "time_unit": "us"})
        print(f"stall_trace: {len(stalls)} stalls, {sum(stalls) * 1e3:.1f} ms in {traced:.1f} s on {t} thread(s)",
              file=sys.stderr)
        print(f"stall_trace: {len(windows)} speed windows on {t} thread(s), the slowest "
              f"{max(windows) / statistics.median(windows):.2f}x the median", file=sys.stderr)
    context = benchmark_file.machine_context(__file__, framework="pytorch", torch_version=torch.__version__,
                                             threads=a.threads, threshold_us=str(a.threshold_us),
                                             window_ms=str(a.window_ms))
    benchmark_file.write(a.out, context, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
