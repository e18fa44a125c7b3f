#!/usr/bin/python3
"""A GPU host's pace on the day, as dlsim's system.launch_overhead: the median of the
forward passes kernels/pytorch/pass_after_idle.py timed pinned to each of the host's CPUs
in turn ("pinned" rows) at one batch, divided by the pass's kernel launches (dlsim's
provenance.kernels for that network and batch: ResNet-50 at batch 1 launches 176).  At
batch 1 a PyTorch pass on an H100 is bound by its host's launches (its kernels take 2 ms
of a 3.4-6.8 ms pass), so the pass's time per launch is the host's time per kernel; the
median over CPUs is the pace a served run meets on a CPU it did not choose (a server's
thread stays on one CPU through a run, a different one each run:
validation/data/serving_gpu_h100_0036_latencies.jsonl's phases_where).

    validation/host_pace.py RAW.json[.xz] --kernels 176 [--batch 1] [--check 25.1us 19.9us 31.1us]
                            [--check-spread 0.72,0.92,0.95,0.97,1,1.04,1.16,1.35,2.18] [--check-handoff 35.1us]
    validation/host_pace.py RAW.json[.xz] --dlsim build/sim/cli/dlsim --scenario S.toml --set K=V ...
    validation/host_pace.py EARLIER_1.json.xz EARLIER_2.json.xz ... --kernels 176

(the second counts the launches as dlsim prices the scenario's pass; the third pools the
maps of several leases, each CPU of each map its own: the host kind's history, what a
lease not yet mapped is predicted from)

Prints the passes' spread and the time per kernel at their median and at their P10 and
P90 (system.launch_overhead, launch_overhead_p10, launch_overhead_p90: the prediction's
band); --check exits 1 unless the three, rounded to 0.1 us, are the ones given (what a
validation case states).

And the spread of a pass about its CPU's median (system.launch_spread): each pinned
pass's time over the median of the passes pinned to its CPU, at P1, P5, P10, P25, P50,
P75, P90, P95 and P99 (dlsim's perf::kSpreadPercentiles), rounded to 0.01.  A served run
with one client keeps its thread on one CPU (phases_where), so its passes spread as one
CPU's do; --check-spread exits 1 unless they are the ones given.  With it, how a pass's
ratio correlates with the next one's on its CPU: slow passes come in spells, which dlsim's
independent draws leave out.

And, where the file has the turns mode's passes (four threads taking the passes in turn),
the time per kernel at their median: a pass whose thread took over from another's, as a
Python server's connection threads take them with more than one client
(system.launch_overhead_handoff); --check-handoff exits 1 unless it is the one given.
"""
import argparse
import json
import lzma
import re
import statistics
import subprocess
import sys

SPREAD_PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)  # dlsim's perf::kSpreadPercentiles
PINNED = re.compile(r" b(\d+) \| threads=\d+ \| pinned g[^ ]+ cpu(\d+)$")
TURNS = re.compile(r" b(\d+) \| threads=\d+ \| turns-\d+ g[^ ]+ cpu(\d+)$")


def passes_of(path, batch, mode=PINNED):
    """{cpu: [ms, ...]} of the passes of one mode (pinned, or taken in turns) at `batch` in a
    pass_after_idle.py file."""
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        rows = json.load(f)["benchmarks"]
    passes = {}
    for row in rows:
        match = mode.search(row["name"])
        if match and int(match.group(1)) == batch:
            passes.setdefault(int(match.group(2)), []).append(row["real_time"] / 1e3)
    return passes


def spread(passes):
    """Each pass over its CPU's median, at SPREAD_PERCENTILES, as system.launch_spread writes them."""
    ratios = [t / statistics.median(times) for times in passes.values() for t in times]
    percentiles = statistics.quantiles(ratios, n=100)
    return ",".join(f"{round(percentiles[p - 1], 2):g}" for p in SPREAD_PERCENTILES)


def consecutive_correlation(passes):
    """The correlation of each pinned pass's time over its CPU's median with the next one's
    on the same CPU, in the order they were timed: how long a slow spell lasts, which dlsim
    leaves out (it draws every pass on its own)."""
    pairs = []
    for times in passes.values():
        ratios = [t / statistics.median(times) for t in times]
        pairs += zip(ratios, ratios[1:])
    return statistics.correlation(*zip(*pairs))


def launches(dlsim, scenario, sets):
    """The kernels dlsim launches for one pass of `scenario` (its provenance.kernels)."""
    command = [dlsim, "run", scenario, "--format", "json"] + [arg for s in sets for arg in ("--set", s)]
    run = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {run.returncode} (its message above)")
    return json.loads(run.stdout)["provenance"]["kernels"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("raw", nargs="+", help="kernels/pytorch/pass_after_idle.py's outputs (JSON, or xz-compressed)")
    count = ap.add_mutually_exclusive_group(required=True)
    count.add_argument("--kernels", type=int, help="the pass's kernel launches (dlsim's provenance.kernels)")
    count.add_argument("--dlsim", help="count them by running this dlsim on --scenario")
    ap.add_argument("--scenario", help="with --dlsim: the pass's scenario")
    ap.add_argument("--set", action="append", default=[], help="with --dlsim: a scenario override, KEY=VALUE")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--check", nargs=3, metavar=("MEDIAN", "P10", "P90"),
                    help="the times per kernel a case states, e.g. 25.1us 19.9us 31.1us")
    ap.add_argument("--check-spread", metavar="R1,R5,...,R99", help="the spread a case states")
    ap.add_argument("--check-handoff", metavar="TIME", help="the time per kernel handed over a case states")
    a = ap.parse_args()
    if a.dlsim:
        if not a.scenario:
            ap.error("--dlsim needs --scenario")
        a.kernels = launches(a.dlsim, a.scenario, a.set)
    maps = " ".join(a.raw)

    def per_kernel(ms):
        """A pass's time over its launches, as a case states it."""
        return f"{round(1e3 * ms / a.kernels, 1)}us"

    passes = {(path, cpu): times for path in a.raw for cpu, times in passes_of(path, a.batch).items()}
    if not passes:
        sys.exit(f"{maps}: no pinned passes at batch {a.batch} (run pass_after_idle.py with --modes pin)")
    every = sorted(t for times in passes.values() for t in times)
    per_cpu = sorted(statistics.median(times) for times in passes.values())
    tenths = statistics.quantiles(every, n=10)
    pace = [per_kernel(ms) for ms in (statistics.median(every), tenths[0], tenths[-1])]
    print(f"{len(every)} pinned passes at batch {a.batch} on {len(passes)} CPUs of {len(a.raw)} map(s): median "
          f"{statistics.median(every):.2f} ms, P10 {tenths[0]:.2f}, P90 {tenths[-1]:.2f} (per CPU "
          f"{per_cpu[0]:.2f}-{per_cpu[-1]:.2f}); per kernel of {a.kernels}: {pace[0]} (P10 {pace[1]}, P90 {pace[2]})")
    within = spread(passes)
    print(f"a pass over its CPU's median at P{', P'.join(map(str, SPREAD_PERCENTILES))}: "
          f"system.launch_spread = [{within.replace(',', ', ')}]; consecutive passes on one CPU correlate "
          f"{consecutive_correlation(passes):.2f} (not modelled: each pass is drawn on its own)")
    turns = [t for path in a.raw for times in passes_of(path, a.batch, TURNS).values() for t in times]
    handoff = per_kernel(statistics.median(turns)) if turns else None
    if turns:
        print(f"{len(turns)} passes taken in turns by four threads: median {statistics.median(turns):.2f} ms; "
              f"system.launch_overhead_handoff = \"{handoff}\"")
    if a.check is not None and pace != a.check:
        sys.exit(f"{maps}: the times per kernel are {' '.join(pace)}, not {' '.join(a.check)}")
    if a.check_spread is not None and within != a.check_spread:
        sys.exit(f"{maps}: the spread is {within}, not {a.check_spread}")
    if a.check_handoff is not None and handoff != a.check_handoff:
        sys.exit(f"{maps}: the time per kernel handed over is {handoff}, not {a.check_handoff}")


if __name__ == "__main__":
    main()
