"""Operators timed inside whole inference passes, as a served network runs them, rather
than each in a loop of its own (torch_op_bench.py's --in-pass mode).

A loop keeps one operator's weights and input in the caches; a pass reads every weight
once, cold, and hands each operator the output its predecessor has just written.  On the
2-vCPU Genoa VM (2026-11-27, validation/data/pass_vs_operators_devbox_genoa_1356.jsonl,
by kernels/pytorch/pass_vs_operators.py) real torchvision passes of ResNet-18, MobileNetV2
and ResNet-50 at batches 1 and 8 came within -2..+13% of the operators timed here,
interleaved with them, and -1..+28% from the same operators timed in loops.

Where a pass runs matters as much on two threads.  On a request thread, beside another
thread's OpenMP team, idle threads sleep at once and every parallel region wakes its team;
where one request thread runs pass after pass, the scheduler keeps its team on the other
core, and on a VM whose idle vCPUs halt (the Granite Rapids VM, guest_halt_poll_ns = 0) each
wake then costs the host's wake of that vCPU.  A server's connections take turns instead,
each pass on another request thread, and the team then often shares its caller's core:
MobileNetV3-Small at batch 1 on two threads took 30-35 ms a pass on one request thread,
20.2 ms with its team pinned to the caller's core, 20.8-21.8 ms taking turns, and 21.8-24.0
ms under a real server's lock (2026-12-01, the Granite Rapids VM; MNASNet 0.5 48.8, 32.4
and 32.9-34.2 ms), while larger passes (batch 8, ResNet-18) ran apart either way
(pass_placement.py).  So the passes are timed four ways: on the main thread, on one request
thread, taking turns between two request threads, and on a request thread whose team is
pinned to its own core (PASS_THREADS), the two places a served pass settles between.

Every call of the pass gets tensors of its own, so that weights are as cold as a real
network's.  Before each timed call its data inputs are rewritten in place by the same
team of threads (x *= 1), untimed: as a real pass's predecessor leaves them, warm in the
caches of the threads that wrote them.  Each repetition runs whole passes for at least
min_time; an operator's figure is its time per call over those passes, every call of its
signature in the pass pooled.
"""
import collections
import csv
import math
import time

import torch

import benchmark_file

# The phase of each place a pass runs: the process's main thread; a server's request thread
# (infer_thread's counterpart), pass after pass; two request threads taking turns, a pass
# each, as a server's connections do under its model's lock; a request thread pass after
# pass with its team pinned to the thread's own core.
PASS_THREADS = {"main": "infer_pass", "request": "infer_pass_thread", "turns": "infer_pass_turns",
                "shared": "infer_pass_shared"}


def read_pass(lines, name):
    """The kernel signature of every call of an inference pass, in order, from the lines of
    `dlsim model NET --batch N --format csv` (training-only layers left out); `name` says
    where they came from, for the error."""
    reader = csv.DictReader(lines)
    if not {"kernel", "train_only"} <= set(reader.fieldnames or []):
        raise ValueError(f"{name}: not `dlsim model --format csv` output (no kernel and train_only columns)")
    return [r["kernel"] for r in reader if r["kernel"] and r["train_only"] == "0"]


def time_passes(calls, repetitions, min_time, warmup=2, run=lambda one_pass: one_pass()):
    """{signature: benchmark_file.Timed} for calls [(signature, fn, inputs)] run as passes:
    seconds (and process CPU seconds) per call of each signature, one figure per
    repetition; the `warmup` first passes stay out.  run(one_pass) runs each pass where it
    is to run (on the calling thread by default)."""
    def one_pass(wall, cpu):
        with torch.no_grad():  # grad mode is the running thread's own
            for i, (_, fn, inputs) in enumerate(calls):
                for t in inputs:
                    t.mul_(1.0)
                c, s = time.process_time(), time.perf_counter()
                fn()
                wall[i] += time.perf_counter() - s
                cpu[i] += time.process_time() - c

    start = time.perf_counter()
    for _ in range(warmup):
        run(lambda: one_pass([0.0] * len(calls), [0.0] * len(calls)))
    first = (time.perf_counter() - start) / max(warmup, 1)
    passes = max(1, math.ceil(min_time / max(first, 1e-9)))
    count = collections.Counter(sig for sig, _, _ in calls)
    times, cpu_times = collections.defaultdict(list), collections.defaultdict(list)
    for _ in range(repetitions):
        wall, cpu = [0.0] * len(calls), [0.0] * len(calls)
        for _ in range(passes):
            run(lambda: one_pass(wall, cpu))
        per_sig_wall, per_sig_cpu = collections.Counter(), collections.Counter()
        for (sig, _, _), w, c in zip(calls, wall, cpu):
            per_sig_wall[sig] += w
            per_sig_cpu[sig] += c
        for sig in count:
            times[sig].append(per_sig_wall[sig] / (passes * count[sig]))
            cpu_times[sig].append(per_sig_cpu[sig] / (passes * count[sig]))
    return {sig: benchmark_file.Timed(times[sig], cpu_times[sig], passes * count[sig]) for sig in count}
