#!/usr/bin/python3
"""The stall traces (kernels/pytorch/stall_trace.py) of every calibration of a machine
kind up to a new one, oldest first, for `dlsim calibrate` to pool into the new profile.

    /usr/bin/python3 calibration/stall_history.py RAW/stall_trace.json --cpu CATALOG_CPU
    /usr/bin/python3 calibration/stall_history.py --check PROFILE.toml

The first prints the traces to pool, oldest first; the second checks that a profile pooled
its kind's history up to its own (latest) trace, and says what to refit if not.

A VM's interruptions and slow spells are its host's, and its host changes from one half
hour to the next: on the Genoa VM kind the two-thread traces of eleven calibrations
(2026-11-25 to 11-27) stalled 4-16 times a second, and their slowest windows ran 1.04-1.64x
the median.  One trace then prices the tails of the runs that follow it no better than the
kind's history: pooled with every earlier trace of the kind, the profiles' serving P99 came
within 15% in 514 of 807 cases of the Genoa campaigns, against 492 from each calibration's
own trace (calibration/README.md).  A trace belongs to the kind when a committed profile
of that catalog CPU (calibration/profiles/*.toml, `cpu`) lists it; the new trace counts
whether or not one does.  Each trace keeps its own slowdowns (dlsim normalises a speed
trace by its own file's median window), and stalls pool by the seconds traced.
"""
import argparse
import datetime
import functools
import glob
import json
import os
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.cache
def traced_at(path):
    """When a stall trace was taken, from its Google Benchmark context (each file read once)."""
    with open(path) as f:
        date = json.load(f)["context"]["date"]
    return datetime.datetime.strptime(date, "%Y-%m-%dT%H:%M:%S%z")


def kind_traces(cpu, profiles):
    """The stall traces the profiles of catalog CPU `cpu` were fitted from, as paths from the
    repository's root."""
    traces = set()
    for profile in profiles:
        with open(profile, "rb") as f:
            head = tomllib.load(f).get("profile", {})
        if head.get("cpu") == cpu:
            traces.update(s for s in head.get("sources", []) if os.path.basename(s) == "stall_trace.json")
    return traces


def history(trace, cpu, profiles):
    """`trace` and every trace of the kind taken no later, oldest first."""
    until = traced_at(os.path.join(ROOT, trace))
    earlier = {t for t in kind_traces(cpu, profiles) if traced_at(os.path.join(ROOT, t)) <= until}
    return sorted(earlier | {trace}, key=lambda t: (traced_at(os.path.join(ROOT, t)), t))


def check(profile, profiles):
    """Whether `profile` pooled the history of its latest trace, in order."""
    with open(profile, "rb") as f:
        head = tomllib.load(f)["profile"]
    pooled = [s for s in head["sources"] if os.path.basename(s) == "stall_trace.json"]
    if not pooled:
        return True
    own = max(pooled, key=lambda t: (traced_at(os.path.join(ROOT, t)), t))
    expected = history(own, head["cpu"], profiles)
    if pooled == expected:
        return True
    print(f"stall_history.py: {profile}: sources pool {len(pooled)} stall traces where its kind "
          f"({head['cpu']}) has {len(expected)} up to {own}:\n  " + "\n  ".join(expected) +
          "\nrefit the profile with these in place of its stall traces", file=sys.stderr)
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", nargs="?", help="the new calibration's stall_trace.json, from the repository's root")
    parser.add_argument("--cpu", help="the machine's catalog CPU (dlsim hw list), e.g. epyc-genoa-kvm")
    parser.add_argument("--check", metavar="PROFILE", help="check a profile's stall traces instead")
    parser.add_argument("--profiles", default=os.path.join(ROOT, "calibration/profiles/*.toml"),
                        help="the profiles whose sources make the kinds' histories")
    args = parser.parse_args()
    if (args.check is None) == (args.trace is None or args.cpu is None):
        parser.error("give a trace and --cpu, or --check PROFILE")
    profiles = sorted(glob.glob(args.profiles))
    try:
        if args.check:
            sys.exit(0 if check(args.check, profiles) else 1)
        print("\n".join(history(os.path.normpath(args.trace), args.cpu, profiles)))
    except (OSError, KeyError, ValueError) as e:
        print(f"stall_history.py: {args.check or args.trace}: {e} (expected a stall_trace.py output with its "
              "context's date, or a profile that lists them, named from the repository's root)", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
