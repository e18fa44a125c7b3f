#!/usr/bin/env python3
"""A CPU machine's pace on the day over its calibration's (dlsim's system.cpu_pace): the
operators of the calibration's grids, and of a network's pass where one was probed, timed
again inside passes on the main thread (calibration/probe_pace.sh), each over its time in the
calibration, the median of those ratios for each thread count, with their quartiles.  The
pace to set is calibration/reference_pace.py's, read from a network served as a campaign serves
it: while the Granite Rapids VM ran slow (2026-12-01 21:26-00:00) these operators read it 10-20
points slower than whole passes ran, and priced three campaigns at 17.0% MAPE where the served
network's pace gave 8.6%.

    calibration/pace.py calibration/raw/MACHINE-pytorch PROBE_DIR [--check THREADS[:OPERATOR]=PACE ...]

PROBE_DIR holds GRID_in_pass.json and NETWORK_bBATCH_in_pass.json files
(kernels/pytorch/torch_op_bench.py --in-pass --pass-threads main; or .json.xz, as committed),
each compared with the calibration's file of that name, phase infer_pass.  The pace is the
network passes' operators' where the directory has any, else the grids': on a freshly booted
Granite Rapids VM (2026-12-01 14:33-15:27) the grids' small tensors ran at 0.85-0.91 of their
calibration, ResNet-18's pass at 0.76-0.86, and the pass's pace priced networks served there on
two threads better, the grids' on one (validation/REPORT.md).  The linear layers' own pace
(system.cpu_pace_by_op.linear, the reference BLAS's, not oneDNN's) is their median where the
probes timed ten or more (the position_linears grid); GEMM-bound networks followed it, not
the pass's (2026-12-01 21:16).  Every operator kind's median is printed too.  --check exits 1
unless each thread count's pace (THREADS=PACE) or an operator's (THREADS:linear=PACE), rounded
to 0.01, is the one given (what a validation case states).  A VM's host moved the Granite Rapids VM's pace by
5-11% within eight hours (2026-12-01: the thin grid at 0.89-0.94 of its 00:52 times at
08:29), while the same grid timed twice minutes apart agreed to 1% in median.
"""
import argparse
import collections
import json
import lzma
import pathlib
import re
import statistics
import sys

PHASE = "infer_pass"
# An operator's own pace is printed where the probes timed it this many times or more (the
# position_linears grid times 20 linear layers; ResNet-18's pass has one).
OPERATOR_SAMPLES = 10
# The operators priced at a pace of their own (system.cpu_pace_by_op), each with why: run by
# another library than the passes' oneDNN convolutions, they kept another pace (2026-12-01).
OWN_PACE = {"linear": "the reference BLAS's linear layers over many rows, on one thread"}


def medians(path):
    """{(signature, threads): median seconds} of a file's infer_pass rows."""
    times = collections.defaultdict(list)
    with (lzma.open if str(path).endswith(".xz") else open)(path, "rt") as f:
        rows = json.load(f)["benchmarks"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    for row in rows:
        if row.get("run_type") == "aggregate":
            continue
        signature, threads, phase = (part.strip() for part in row["name"].split("|"))
        if phase == PHASE:
            times[(signature, int(threads.removeprefix("threads=")))].append(
                row["real_time"] * scale[row.get("time_unit", "ns")])
    return {key: statistics.median(v) for key, v in times.items()}


def is_network_pass(probe):
    """A network's pass (resnet18_b1_in_pass.json), not a grid's (thin_convs_in_pass.json)."""
    return re.search(r"_b\d+_in_pass\.json", probe.name) is not None


def operator(signature):
    """The kernel's operator, its signature's first word ("linear fp32 n16 in64 out256" -> linear)."""
    return signature.split()[0]


def ratios(calibration_dir, probe_dir, networks):
    """{(threads, operator): [probe / calibration for each operator both timed]}, over the
    network passes' files if `networks`, else over the grids'."""
    out = collections.defaultdict(list)
    probes = sorted(pathlib.Path(probe_dir).glob("*_in_pass.json*"))
    if not probes:
        raise ValueError(f"{probe_dir}: no *_in_pass.json probe files (calibration/probe_pace.sh writes them)")
    for probe in (p for p in probes if is_network_pass(p) == networks):
        name = probe.name.removesuffix(".xz")
        calibrated = pathlib.Path(calibration_dir) / name
        if not calibrated.exists():
            raise ValueError(f"{calibrated}: the calibration has no {name} to compare {probe} with; "
                             "probe what the calibration timed (calibration/probe_pace.sh)")
        then = medians(calibrated)
        for key, now in medians(probe).items():
            if key in then and then[key] > 0:
                out[(key[1], operator(key[0]))].append(now / then[key])
    return out


def by_threads(ratios_by_operator):
    """{threads: every ratio of that thread count}, whatever the operator."""
    out = collections.defaultdict(list)
    for (threads, _), values in sorted(ratios_by_operator.items()):
        out[threads] += values
    return out


def operator_paces(ratios_by_operator, threads):
    """{operator: its median ratio} on `threads` for each operator timed at least
    OPERATOR_SAMPLES times among every probe file."""
    return {op: statistics.median(values) for (t, op), values in sorted(ratios_by_operator.items())
            if t == threads and len(values) >= OPERATOR_SAMPLES}


def quartiles(values):
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return q[0], statistics.median(values), q[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("calibration_dir")
    parser.add_argument("probe_dir")
    parser.add_argument("--check", nargs="*", default=[], metavar="THREADS[:OPERATOR]=PACE")
    args = parser.parse_args()
    try:
        grids_by_op = ratios(args.calibration_dir, args.probe_dir, networks=False)
        passes_by_op = ratios(args.calibration_dir, args.probe_dir, networks=True)
        grids, passes = by_threads(grids_by_op), by_threads(passes_by_op)
        each = {key: grids_by_op.get(key, []) + passes_by_op.get(key, [])
                for key in sorted(set(grids_by_op) | set(passes_by_op))}
        if not grids and not passes:
            raise ValueError(f"{args.probe_dir}: no operator timed both there and in {args.calibration_dir} "
                             f"(phase {PHASE})")
        paces = passes or grids
        expected = {}
        for item in args.check:
            key, _, pace = item.partition("=")
            threads, _, op = key.partition(":")
            expected[(int(threads), op)] = float(pace)
    except (OSError, ValueError, KeyError) as e:
        print(f"pace.py: {e}", file=sys.stderr)
        return 2
    wrong = []

    def check(threads, op, found):
        if (threads, op) in expected and (found is None or round(found, 2) != round(expected[(threads, op)], 2)):
            shown = "not probed" if found is None else f"{found:.2f}"
            wrong.append(f"threads {threads}{' ' + op if op else ''}: {shown}, not {expected[(threads, op)]:.2f}")

    for threads, values in sorted(paces.items()):
        p25, pace, p75 = quartiles(values)
        source = "network passes: " if passes else ""
        grids_too = (f"; the grids: {statistics.median(grids[threads]):.2f}, {len(grids[threads])} operators"
                     if passes and grids.get(threads) else "")
        print(f"threads {threads}: system.cpu_pace = {pace:.2f} ({source}P25 {p25:.2f}, P75 {p75:.2f}, "
              f"{len(values)} operators{grids_too})")
        check(threads, "", pace)
        own = operator_paces(each, threads)
        for op in OWN_PACE:
            if op in own:
                print(f"threads {threads}: system.cpu_pace_by_op.{op} = {own[op]:.2f} ({OWN_PACE[op]}, "
                      f"{len(each[(threads, op)])} operators)")
            check(threads, op, own.get(op))
        if own:
            print(f"threads {threads}: by operator, every probe file: " +
                  ", ".join(f"{op} {value:.2f} ({len(each[(threads, op)])})" for op, value in own.items()))
    for threads in sorted({threads for threads, _ in expected} - set(paces)):
        wrong.append(f"threads {threads}: not probed")
    if wrong:
        print("pace.py: " + "; ".join(wrong), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
