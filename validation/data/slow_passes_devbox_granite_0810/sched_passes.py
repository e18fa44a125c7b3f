#!/usr/bin/python3
"""Where each served pass's OpenMP team ran, from a scheduler trace (trace_run.sh).

    sched_passes.py TRACE.gz RUNS.jsonl > passes.csv     (a summary per run on stderr)

The passes' request threads are the threads RUNS.jsonl says ran them (phases_where), a
run's in the order its rows came; each thread's worker is the thread it woke most.  A
pass is a stretch of its request thread's running with no sleep over 3 ms (between
passes it waits for the model's lock), 10-200 ms long.  For each: how long its request
thread and its worker ran, and where the worker ran: on the vCPU its request thread was
last seen on, or the other.  A pass is "apart" where its worker ran more on the other
vCPU.  Stamps are CLOCK_MONOTONIC seconds (trace_clock mono).  A switch into a thread the
trace lost (it happens on a waking idle vCPU) is taken from the thread's wakeup."""
import collections
import csv
import gzip
import json
import re
import statistics
import sys

EVENT = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def run_segments(trace):
    """{tid: [(start, end, cpu)]} of every thread's running, and {(waker, wakee): count}."""
    segments = collections.defaultdict(list)
    wakes = collections.Counter()
    last_switch = {}
    woken = {}
    with gzip.open(trace, "rt") as f:
        for line in f:
            m = EVENT.match(line)
            if not m:
                continue
            _, pid, cpu, t, name, rest = m.groups()
            t, cpu = float(t), int(cpu)
            fields = dict(FIELD.findall(rest))
            if name == "sched_waking":
                wakes[(int(pid), int(fields["pid"]))] += 1
            elif name == "sched_wakeup":
                woken[int(fields["pid"])] = t
            elif name == "sched_switch":
                prev = int(fields["prev_pid"])
                start = max(last_switch.get(cpu, t), woken.get(prev, 0.0))
                if prev:
                    segments[prev].append((start, t, cpu))
                last_switch[cpu] = t
    return segments, wakes


def ran(segments, a, b, cpu=None):
    return sum(max(0.0, min(b, t1) - max(a, t0)) for t0, t1, c in segments if cpu is None or c == cpu)


def main():
    trace, runs = sys.argv[1], sys.argv[2]
    segments, wakes = run_segments(trace)
    out = csv.writer(sys.stdout)
    out.writerow(["protocol", "mode", "start_s", "ms", "caller_ms", "worker_ms", "worker_beside_ms",
                  "worker_other_vcpu_ms", "place"])
    with open(runs) as f:
        rows = [json.loads(line) for line in f]
    for row in rows:
        callers = sorted({tid for _, tid in row["phases_where"]["locked"]})
        passes = []
        for caller in callers:
            worker = max(((n, b) for (a, b), n in wakes.items() if a == caller and b not in callers), default=(0, 0))[1]
            own = sorted(segments[caller])
            start = own[0][0]
            for (a0, a1, _), (b0, _, _) in zip(own, own[1:] + [(float("inf"), 0, 0)]):
                if b0 - a1 > 3e-3:
                    if 10e-3 < a1 - start < 200e-3:
                        passes.append((start, a1, caller, worker))
                    start = b0
        for a, b, caller, worker in sorted(passes):
            home = max((0, 1), key=lambda c: ran(segments[caller], a, b, c))
            beside = ran(segments[worker], a, b, home)
            other = ran(segments[worker], a, b, 1 - home)
            place = "apart" if other > beside else "shared"
            out.writerow([row["protocol"], row["mode"], f"{a:.6f}", f"{1e3 * (b - a):.2f}",
                          f"{1e3 * ran(segments[caller], a, b):.2f}", f"{1e3 * (beside + other):.2f}",
                          f"{1e3 * beside:.2f}", f"{1e3 * other:.2f}", place])
            row.setdefault("_passes", []).append((place, 1e3 * (b - a)))
        by = collections.defaultdict(list)
        for place, ms in row.get("_passes", []):
            by[place].append(ms)
        n = sum(len(v) for v in by.values())
        print(f"{row['protocol']} {row['mode']}: {n} passes; " + "; ".join(
            f"{place} {len(v)} ({100 * len(v) / n:.0f}%), median {statistics.median(v):.1f} ms"
            for place, v in sorted(by.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
