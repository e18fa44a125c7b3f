#!/usr/bin/python3
"""How soon a thread blocked on a Python lock runs once the lock is let go while the thread
that let it go keeps working: a diagnostic of a Python server's turns, as Google Benchmark
JSON rows.  dlsim does not fit it (calibration/README.md says why).

    /usr/bin/python3 kernels/pytorch/lock_wake.py [--seconds 60] [--busy-ms 10] --out RAW.json

A Python server's handler threads take turns on the model's lock.  threading.Lock is a
glibc semaphore: releasing it wakes a waiter, which takes the lock only once it runs, and
a thread that reaches acquire() before then takes it instead (no hand-off).  The releasing
thread goes on with the answer and its client's next request, so whether a waiter keeps
its turn depends on how soon the machine runs a woken thread while another is busy.  On
the 2-vCPU Zen 3 VM (2026-11-26) 2.5-27% of wakes took over 1 ms, by the minute, and at
batch 1 the serving harness's servers let 0.4-6% of requests (one thread) through ahead of
one that had waited a whole pass, which then waited two.

Each trial: a thread blocks on a held lock; the main thread lets it go and runs 128x128
matrix products (1.5 ms each on one thread of that VM, the GIL let go throughout, so the
waiter's note of the time waits for the GIL by no more than the Python between two of
them; tiny operators would hold the GIL most of the time and the waiter would wait for
the interpreter's switch interval instead) for --busy-ms; the waiter notes when acquire()
returned.  One row per trial, its wake time; a wake past --busy-ms is cut there.
  "lock_wake fp32 n1 e16384 | threads=1 | wake"   one row per trial
  "lock_wake fp32 n1 e16384 | threads=1 | busy"   one row, --busy-ms
"""
import argparse
import sys
import threading
import time

import torch

import benchmark_file

SIGNATURE = "lock_wake fp32 n1 e16384"


def trial(busy_s, x):
    """Seconds from the lock's release until its waiter ran, at most busy_s."""
    lock = threading.Lock()
    lock.acquire()
    waiting = threading.Event()
    woke = []

    def waiter():
        waiting.set()
        with lock:
            woke.append(time.perf_counter())

    t = threading.Thread(target=waiter)
    t.start()
    waiting.wait()
    time.sleep(0.002)  # blocked in acquire() by now
    released = time.perf_counter()
    lock.release()
    while time.perf_counter() - released < busy_s and not woke:
        torch.mm(x, x)
    t.join()
    return min(woke[0] - released, busy_s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds of trials")
    ap.add_argument("--busy-ms", type=float, default=10.0, help="how long the releaser stays busy")
    ap.add_argument("--out", required=True, help="Google Benchmark JSON to write")
    a = ap.parse_args()
    if a.busy_ms <= 0 or a.seconds <= 0:
        print("lock_wake: --busy-ms and --seconds must be positive", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    x = torch.randn(128, 128)
    wakes = []
    end = time.perf_counter() + a.seconds
    while time.perf_counter() < end:
        wakes.append(trial(a.busy_ms * 1e-3, x))
    prefix = f"{SIGNATURE} | threads=1 | "
    rows = [{"name": prefix + "wake", "run_type": "iteration", "threads": 1, "iterations": 1,
             "real_time": w * 1e6, "time_unit": "us"} for w in wakes]
    rows.append({"name": prefix + "busy", "run_type": "iteration", "threads": 1, "iterations": 1,
                 "real_time": a.busy_ms * 1e3, "time_unit": "us"})
    late = sum(w > 1e-3 for w in wakes)
    print(f"lock_wake: {len(wakes)} wakes, median {sorted(wakes)[len(wakes) // 2] * 1e6:.0f} us, "
          f"{late} over 1 ms", file=sys.stderr)
    context = benchmark_file.machine_context(__file__, framework="pytorch", torch_version=torch.__version__,
                                             busy_ms=str(a.busy_ms))
    benchmark_file.write(a.out, context, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
