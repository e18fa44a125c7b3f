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


def time_calls(fn, repetitions, min_time, warmup=1):
    """Seconds per call, one figure per repetition of enough calls to last min_time, and
    the CPU seconds the whole process spent per call meanwhile (every thread's: a
    multi-threaded kernel keeps several busy, or idle through its serial parts); the
    `warmup` first calls stay out (allocator and cache warm-up)."""
    start = time.perf_counter()
    for _ in range(warmup):
        fn()
    first = (time.perf_counter() - start) / max(warmup, 1)
    iterations = max(1, math.ceil(min_time / max(first, 1e-9)))
    times, cpu_times = [], []
    for _ in range(repetitions):
        cpu, start = time.process_time(), time.perf_counter()
        for _ in range(iterations):
            fn()
        times.append((time.perf_counter() - start) / iterations)
        cpu_times.append((time.process_time() - cpu) / iterations)
    return Timed(times, cpu_times, iterations)


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
