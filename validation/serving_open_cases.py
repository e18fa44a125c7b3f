#!/usr/bin/python3
"""Writes the validation case file of an open-loop serving campaign
(validation/measure/serving_cpu.py --arrival constant or poisson): for each arrival process,
the throughput, P50 and P99 of every configuration it ran at each rate, and from the
campaign's phases (validation/serving_phases.py) the server's mean time under the model's
lock and, for Poisson arrivals, its mean wait for it; Poisson runs a second time, each replaying the very gaps its client drew
(serving.arrival = "replay", from the harness's --intervals-dir).

    /usr/bin/python3 validation/serving_open_cases.py --data validation/data/X.csv \
        --phases validation/data/serving_open_phases_X.csv --intervals validation/data/intervals \
        --profile calibration/profiles/P.toml --protocols MACHINE --cpu CATALOG_CPU --tag GROUP_TAG \
        --header NOTE.txt --out validation/cases/X.toml [--seed 1] [--bounds build/sim/cli/dlsim]

--protocols names the protocol profiles, calibration/profiles/protocols/python-{grpc,http}-
MACHINE.toml; --tag the groups' machine part (cpu-serve/local-open/TAG/..., a client behind
the 5 Gbit/s link cpu-serve/remote-5gbps-open/TAG/...); --header a text
file whose lines open the file as comments; --seed the harness's (the intervals files' names
carry it); --bounds sets each group's bound to what it achieves, as serving_cases.py does.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serving_cases import GROUP_PART, REMOTE, ROOT, SCENARIOS, achieved, relative  # noqa: E402

# (group's last part, measured column, prediction key, from the phases file)
METRICS = [("throughput", "images_per_s", "throughput_images_per_s", False),
           ("p50-latency", "latency_p50_ms", "latency_ms.p50", False),
           ("p99-latency", "latency_p99_ms", "latency_ms.p99", False),
           ("server-queue", "lock_wait_mean_ms", "breakdown_ms.server_queue", True),
           ("server-compute", "locked_mean_ms", "breakdown_ms.compute", True)]


def suite(group, metric, where, data=None, replay=None):
    """One suite; a remote deployment's link and a replay's gaps in its settings."""
    _, measured, predicted, _ = metric
    lines = ["[[suite]]"]
    if data:
        lines.append(f'data = "{relative(data)}"')
    lines.append("where = { " + ", ".join(f'{k} = "{v}"' for k, v in where) + " }")
    settings = [REMOTE] if dict(where)["deployment"] == "remote" else []
    if replay:
        settings.append(f'"serving.arrival" = "replay", "serving.intervals" = "{relative(replay, SCENARIOS)}", '
                        '"serving.request_rate" = "", "serving.requests" = ""')
    if settings:
        lines.append("set = { " + ", ".join(settings) + " }")
    lines += [f'group = "{group}"', f'measured = "{measured}"', f'predicted = "{predicted}"']
    return group, "\n".join(lines)


def suites(args, rows):
    metrics = [m for m in METRICS if args.phases or not m[3]]  # the server's means need the phases file
    out = []
    for deployment in dict.fromkeys(r["deployment"] for r in rows):
        mine = [r for r in rows if r["deployment"] == deployment]
        prefix = f"cpu-serve/{GROUP_PART[deployment]}-open/{args.tag}"
        for arrival in dict.fromkeys(r["arrival"] for r in mine):
            for metric in metrics:
                # Constant arrivals below capacity queue for tens of microseconds, whose
                # percentage errors say nothing.
                if metric[0] == "server-queue" and arrival == "constant":
                    continue
                out.append(suite(f"{prefix}/{arrival}-{metric[0]}", metric,
                                 [("deployment", deployment), ("arrival", arrival)],
                                 args.phases if metric[3] else None))
        out += replayed(args, metrics, prefix, deployment, [r for r in mine if r["arrival"] == "poisson"])
    return out


def replayed(args, metrics, prefix, deployment, poisson):
    """The Poisson runs' suites once more, each rate replaying the gaps the harness drew."""
    out = []
    for metric in metrics:
        for rate in dict.fromkeys(r["request_rate"] for r in poisson):
            requests = {r["requests"] for r in poisson if r["request_rate"] == rate}
            if len(requests) != 1:
                sys.exit(f"serving_open_cases: Poisson runs at {rate}/s of {sorted(requests)} requests: one file each")
            gaps = os.path.join(args.intervals, f"poisson_r{float(rate):g}_n{requests.pop()}_seed{args.seed}.txt")
            if not os.path.exists(os.path.join(ROOT, gaps)):
                sys.exit(f"serving_open_cases: no such file: {gaps} (the harness's --intervals-dir)")
            out.append(suite(f"{prefix}/poisson-replayed-{metric[0]}", metric,
                             [("deployment", deployment), ("arrival", "poisson"), ("request_rate", rate)],
                             args.phases if metric[3] else None, gaps))
    return out


def text(args, header, found, bounds):
    defaults = ("[defaults]\n"
                f'data = "{relative(args.data)}"\n'
                'scenario = "scenarios/cpu_serve_open.toml"\n'
                'set = { "workload.model" = "{model}", "workload.batch" = "{batch}", '
                f'"system.threads" = "{{server_threads}}", "system.profile" = "{relative(args.profile, SCENARIOS)}", '
                f'"system.cpu" = "{args.cpu}", "serving.protocol_profile" = '
                f'"{relative("calibration/profiles/protocols", SCENARIOS)}/python-{{protocol}}-{args.protocols}.toml", '
                '"serving.protocol" = "{protocol}", "serving.arrival" = "{arrival}", '
                '"serving.request_rate" = "{request_rate}", "serving.requests" = "{requests}" }\n'
                'id = "{model} {deployment} {protocol} {arrival} {request_rate}/s b{batch} t{server_threads}"')
    body = [f"{lines}\nbound_mape_pct = {bounds.get(group, 0)}" for group, lines in found]
    return header + "\n" + defaults + "\n\n" + "\n\n".join(body) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag in ("--data", "--intervals", "--profile", "--protocols", "--cpu", "--tag", "--header", "--out"):
        ap.add_argument(flag, required=True)
    ap.add_argument("--phases")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bounds", metavar="DLSIM")
    args = ap.parse_args()
    for path in filter(None, (args.data, args.phases, args.profile, args.header)):
        if not os.path.exists(os.path.join(ROOT, path)):
            print(f"serving_open_cases: no such file: {path}", file=sys.stderr)
            return 2
    with open(os.path.join(ROOT, args.data)) as f:
        rows = [r for r in csv.DictReader(f) if r.get("arrival", "closed") != "closed"]
    if not rows:
        print(f"serving_open_cases: {args.data} has no open-loop runs", file=sys.stderr)
        return 2
    with open(os.path.join(ROOT, args.header)) as f:
        header = "".join("# " + line if line.strip() else "#\n" for line in f)
    found = suites(args, rows)
    out = os.path.join(ROOT, args.out)
    with open(out, "w") as f:
        f.write(text(args, header, found, {}))
    if args.bounds:
        bounds = achieved(args.out, args.bounds)
        with open(out, "w") as f:
            f.write(text(args, header, found, bounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
