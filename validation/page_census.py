#!/usr/bin/env python3
"""A page census of a serving stack: for every configuration (network, batch, threads,
deployment, protocol, mode, clients, input) of the given serving latencies files
(validation/measure/serving_cpu.py --latencies, from a harness that counts every thread's
faults over a pass, "locked_process"), the pages a pass faults, as dlsim's
system.pass_page_faults takes them.  The timings are not used: a stack's count repeats
from process to process, and between machines whose PyTorch runs the same kernels
(validation/fault_census.py: the Zen 4 and Zen 5 VMs, both AVX-512, share most counts;
the Zen 3 Milan, AVX2 only, shared 27 of 102 with the Zen 5), so take a census on the
machine kind that will serve, in a few requests a configuration, with as many clients as
will be served: a second client's request waits in the stack while a pass runs.

    validation/page_census.py LATENCIES.jsonl ... --out validation/data/page_census_X.csv [--check]

Each row holds the count most runs of the configuration gave (the first among equals);
--check exits 1 unless --out already holds exactly that.
"""
import argparse
import collections
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_census import CONFIGURATION, counts  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("latencies", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    runs = counts(args.latencies, phase="locked_process", clients=None)
    if not runs:
        print("page_census: no run counted every thread's faults (locked_process)", file=sys.stderr)
        return 2
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(list(CONFIGURATION) + ["pass_page_faults", "runs"])
    for key in sorted(runs, key=lambda k: tuple(map(str, k))):
        values = runs[key]
        w.writerow(list(key) + [collections.Counter(values).most_common(1)[0][0], len(values)])
    if args.check:
        with open(args.out) as f:
            if f.read() != out.getvalue():
                print(f"page_census: {args.out} is not what its latencies give; rerun without --check",
                      file=sys.stderr)
                return 1
        return 0
    with open(args.out, "w") as f:
        f.write(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
