"""What the PyTorch-side benchmarks share: the machine's identity and the Google Benchmark
JSON file dlsim reads (rows "<signature> | threads=<n> | <phase>", one per repetition)."""
import collections
import json
import math
import os
import platform
import time


def cpu_field(key):
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_context(executable, **extra):
    """The context every raw file carries, plus the benchmark's own entries (all strings)."""
    context = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "host_name": platform.node(),
        "executable": os.path.abspath(executable),
        "cpu_model": cpu_field("model name"),
        "cpu_flags": cpu_field("flags"),
        "cpu_logical_cores": str(os.cpu_count()),
    }
    context.update(extra)
    return context


Timed = collections.namedtuple("Timed", "times cpu_times iterations")


def time_calls(fn, repetitions, min_time, warmup=1, idle_s=0.0, leaves_out=False):
    """Seconds per call, one figure per repetition of enough calls to last min_time, and
    the CPU seconds the whole process spent per call meanwhile (every thread's: a
    multi-threaded kernel keeps several busy, or idle through its serial parts); the
    `warmup` first calls stay out (allocator and cache warm-up).  With idle_s each call
    follows that long asleep, left out of its time but counted towards min_time; with
    leaves_out fn returns seconds of its call to leave out (work another process timed)."""
    start = time.perf_counter()
    for _ in range(warmup):
        fn()
    first = (time.perf_counter() - start) / max(warmup, 1)
    iterations = max(1, math.ceil(min_time / max(first + idle_s, 1e-9)))
    times, cpu_times = [], []
    for _ in range(repetitions):
        if idle_s or leaves_out:
            busy, cpu = _one_by_one(fn, iterations, idle_s)
        else:  # one clock reading around the lot: a kernel of a few microseconds is timed so
            cpu, start = time.process_time(), time.perf_counter()
            for _ in range(iterations):
                fn()
            busy, cpu = time.perf_counter() - start, time.process_time() - cpu
        times.append(busy / iterations)
        cpu_times.append(cpu / iterations)
    return Timed(times, cpu_times, iterations)


def _one_by_one(fn, calls, idle_s):
    """Seconds (less what fn returns) and process CPU seconds of `calls` calls, each timed
    on its own after idle_s asleep."""
    busy = cpu = 0.0
    for _ in range(calls):
        if idle_s:
            time.sleep(idle_s)
        cpu_start, start = time.process_time(), time.perf_counter()
        left_out = fn() or 0.0
        busy += time.perf_counter() - start - left_out
        cpu += time.process_time() - cpu_start
    return busy, cpu


def timing_rows(name, timed, threads):
    """One row per repetition, times in microseconds; process_cpu_time is the process's CPU
    time per call (Google Benchmark's cpu_time counts the calling thread only)."""
    return [{"name": name, "run_type": "iteration", "repetitions": len(timed.times), "repetition_index": i,
             "threads": threads, "iterations": timed.iterations, "real_time": s * 1e6,
             "process_cpu_time": c * 1e6, "time_unit": "us"}
            for i, (s, c) in enumerate(zip(timed.times, timed.cpu_times))]


def write(path, context, rows):
    with open(path, "w") as f:
        json.dump({"context": context, "benchmarks": rows}, f, indent=1)
        f.write("\n")
