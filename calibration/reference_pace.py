#!/usr/bin/env python3
"""A CPU machine's pace on the day read from a served network (dlsim's system.cpu_pace): the
pace at which dlsim, priced from the machine's calibration, predicts the in-process throughput
that the serving harness measured (validation/measure/serving_cpu.py --deployments in-process),
for each row, with the median for each thread count.

    calibration/reference_pace.py DLSIM PROFILE SERVED_CSV [--census CENSUS_CSV] [--latencies JSONL]
        [--model-file PATTERN] [--check THREADS=PACE ...]

The operator probes (calibration/pace.py) time kernels again in loops, and on the Granite
Rapids VM on 2026-12-01 from 21:26 they read it 12-34% slower than its calibration while
whole networks served there ran 2-11% slower (validation/REPORT.md): a kernel repeated on the
same tensors slowed more than inside a pass.  A served pass is what a serving campaign runs, so
this reading asks the question the campaign will.  Its networks should be ones the calibration
timed (calibration/probe_pace.sh serves ResNet-18 at batches 1 and 8 and ResNet-50 at 4 and 8:
every kernel measured, so the reading is the machine's pace, not dlsim's error on an unseen
network), and not ones the campaign to be priced serves.  ResNet-18 alone priced three
campaigns blind (2026-12-01 23:40 - 2026-12-02 00:42): 8.6% MAPE over 168 cases, where the
operators' reading gave 17.0%, but on one thread it read the VM about 15% slower than the
networks ran, its batch 1 reading 0.07-0.15 above its batch 8 in every probe that night; the
median of the four passes priced the next three campaigns at 8.1% over 252 cases, 221 within
15%, where ResNet-18 alone would have given 9.4%, 207 (2026-12-02 02:18-03:58).

A prediction's time per request is linear in the pace only where the kernels are all of it, so
the pace is found by the secant method on dlsim's prediction, to 0.1% of the measured time.
--census (validation/page_census.py's counts of the same runs) prices each pass with the pages
its stack faulted, as the campaign's cases are priced (ResNet-18's pass at batch 8 faulted
10,979 pages in process, 10.6 ms of its 126 ms as the 19:25 calibration prices them); without
it dlsim's heap model counts them.  --latencies (the same runs' JSON lines) prices the passes
of networks whose constructor left the loading thread an OpenMP team as served beside it
(serving.loader_team, as validation/serving_cases.py does): GoogLeNet's pass at batch 1 on two
threads takes 94 ms on the thread that built it and 125 ms on another, each operator waking its
team (2026-12-02 03:20), so without it GoogLeNet read 1.70 where the VM ran at 1.3.
--model-file names the model files, {model} where the network goes (default: the zoo's).
--check exits 1 unless each thread count's pace, rounded to 0.01, is the one given.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "validation"))
from serving_cases import loader_teams  # noqa: E402
SCENARIO = os.path.join(ROOT, "validation", "cases", "scenarios", "cpu_infer.toml")
TOLERANCE = 0.001
STEPS = 8
PACES = (0.1, 10.0)  # the system.cpu_pace values dlsim takes
COLUMNS = ("model", "deployment", "batch", "server_threads", "images_per_s")


def census_of(path):
    """{(model, batch, threads): pages a pass faulted} of a page census's in-process rows."""
    with open(path, newline="") as f:
        return {(row["model"], row["batch"], row["server_threads"]): row["pass_page_faults"]
                for row in csv.DictReader(f) if row["deployment"] == "in-process"}


def in_process_rows(path):
    """The in-process rows of a serving_cpu.py CSV."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: no column {', '.join(missing)} "
                             "(expected validation/measure/serving_cpu.py's CSV)")
        rows = [row for row in reader if row["deployment"] == "in-process"]
    if not rows:
        raise ValueError(f"{path}: no in-process row (serving_cpu.py --deployments in-process)")
    return rows


def expected_paces(checks):
    """{threads: pace} of --check's THREADS=PACE items."""
    try:
        return {int(threads): float(pace) for threads, _, pace in (c.partition("=") for c in checks)}
    except ValueError:
        raise ValueError(f"--check {' '.join(checks)}: expected THREADS=PACE items, e.g. 2=1.19") from None


def loader_teams_of(path):
    """The networks of a campaign's JSON lines served beside the loading thread's team."""
    try:
        return loader_teams(path)
    except OSError as e:
        raise ValueError(f"--latencies {path}: {e.strerror} (expected the same runs' "
                         "serving_cpu.py --latencies file)") from None


def seconds_per_request(dlsim, profile, row, model, pace, faults, loader_team=False):
    """dlsim's time for one in-process request of `row` at `pace`, its pass faulting `faults`
    pages (None: as dlsim's heap model counts them), beside the loading thread's team where
    `loader_team`."""
    batch = int(row["batch"])
    keys = {"workload.model": model, "workload.batch": batch, "system.threads": row["server_threads"],
            "system.profile": os.path.abspath(profile), "system.cpu_pace": f"{pace:.6f}"}
    if faults is not None:
        keys["system.pass_page_faults"] = faults
    if loader_team:
        keys["serving.loader_team"] = "true"
    command = [dlsim, "run", SCENARIO, "--format", "json"]
    for key, value in keys.items():
        command += ["--set", f"{key}={value}"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"dlsim for {model} b{batch}: {done.stderr.strip()}")
    return batch / json.loads(done.stdout)["throughput_images_per_s"]


def pace_of(dlsim, profile, row, model, faults, loader_team=False):
    """The pace at which dlsim's time for `row` is the measured one (secant method from 1 and
    2).  Where the simulated time steps as the pace moves (a two-thread pass meets the
    machine's traced stalls at other moments), no pace may give it within TOLERANCE: then
    the pace where it crosses the measured one, bisected between the nearest paces either
    side to TOLERANCE of the pace."""
    measured = int(row["batch"]) / float(row["images_per_s"])
    points = [(pace, seconds_per_request(dlsim, profile, row, model, pace, faults, loader_team))
              for pace in (1.0, 2.0)]
    for _ in range(STEPS):
        (p0, t0), (p1, t1) = points[-2:]
        if abs(t1 - measured) <= TOLERANCE * measured:
            return p1
        pace = p1 + (measured - t1) * (p1 - p0) / (t1 - t0)
        if not PACES[0] <= pace <= PACES[1]:
            raise ValueError(f"{row['model']} b{row['batch']}: measured {measured * 1e3:.2f} ms a request, "
                             f"{points[0][1] * 1e3:.2f} ms as calibrated: a pace of {pace:.3f}, outside dlsim's "
                             f"{PACES[0]}-{PACES[1]}; were the runs served on the calibrated machine?")
        points.append((pace, seconds_per_request(dlsim, profile, row, model, pace, faults, loader_team)))
    below = max((p for p, t in points if t < measured), default=None)
    above = min((p for p, t in points if t > measured), default=None)
    if below is None or above is None or below > above:
        raise ValueError(f"{row['model']} b{row['batch']}: no pace within {TOLERANCE:.1%} after {STEPS} steps, "
                         f"and dlsim's time does not cross the measured {measured * 1e3:.2f} ms between them")
    while above - below > TOLERANCE * below:
        pace = (below + above) / 2
        if seconds_per_request(dlsim, profile, row, model, pace, faults, loader_team) < measured:
            below = pace
        else:
            above = pace
    return (below + above) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dlsim")
    parser.add_argument("profile")
    parser.add_argument("served_csv")
    parser.add_argument("--census", help="validation/page_census.py's counts of the same runs")
    parser.add_argument("--latencies", help="the same runs' JSON lines (serving_cpu.py --latencies)")
    parser.add_argument("--model-file", help="model files, {model} where the network goes")
    parser.add_argument("--check", nargs="*", default=[], metavar="THREADS=PACE")
    args = parser.parse_args()
    try:
        rows = in_process_rows(args.served_csv)
        expected = expected_paces(args.check)
        census = census_of(args.census) if args.census else {}
        teams = loader_teams_of(args.latencies) if args.latencies else set()
        paces = {}
        for row in rows:
            model = os.path.abspath(args.model_file.format(model=row["model"])) if args.model_file else row["model"]
            key = (row["model"], row["batch"], row["server_threads"])
            if args.census and key not in census:
                raise ValueError(f"{args.census}: no in-process count for {row['model']} b{row['batch']} on "
                                 f"{row['server_threads']} threads; take the census of the same runs")
            paces.setdefault(int(row["server_threads"]), []).append(
                (f"{row['model']} b{row['batch']}",
                 pace_of(args.dlsim, args.profile, row, model, census.get(key), row["model"] in teams)))
    except (OSError, ValueError, KeyError) as e:
        print(f"reference_pace.py: {e}", file=sys.stderr)
        return 2
    wrong = []
    for threads, found in sorted(paces.items()):
        pace = statistics.median(p for _, p in found)
        print(f"threads {threads}: system.cpu_pace = {pace:.2f} (served in process: "
              + ", ".join(f"{name} {p:.2f}" for name, p in found) + ")")
        if threads in expected and round(pace, 2) != round(expected[threads], 2):
            wrong.append(f"threads {threads}: {pace:.2f}, not {expected[threads]:.2f}")
    wrong += [f"threads {threads}: not served" for threads in sorted(set(expected) - set(paces))]
    if wrong:
        print("reference_pace.py: " + "; ".join(wrong), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
