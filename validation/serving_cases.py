#!/usr/bin/python3
"""Writes the validation case file of a CPU serving campaign (validation/measure/serving_cpu.py):
for each network and thread count the campaign served, its throughput and P99 per
deployment, and for each deployment the server's CPU busy share and, from the campaign's
phases (validation/serving_phases.py), the time under and waiting for the model's lock.

    /usr/bin/python3 validation/serving_cases.py --data validation/data/X.csv \
        --phases validation/data/serving_phases_X.csv --profile calibration/profiles/P.toml \
        --protocols MACHINE --cpu CATALOG_CPU --tag 'GROUP_TAG-{model}' --header NOTE.txt \
        --out validation/cases/X.toml [--latencies validation/data/serving_latencies_X.jsonl] \
        [--census validation/data/page_census_X.csv] [--model-file 'validation/oracle/onnx/{model}_train.onnx'] \
        [--input-profile calibration/profiles/input/torchvision-MACHINE.toml] [--pace 0.93 | --pace 1=0.95 --pace 2=0.93 \
        | --pace resnet34:1=0.95 ...] \
        [--pace-by-op linear=1.02] \
        [--bounds build/sim/cli/dlsim]

--protocols names the protocol profiles, calibration/profiles/protocols/python-{grpc,http}-
MACHINE.toml; --tag the groups' machine part, with {model} where the network goes
(devbox-epyc-genoa-{model}-unseen-2224 gives cpu-serve/local/devbox-epyc-genoa-vgg13-unseen-2224/...); --header a
text file whose lines open the file as comments (what was measured, when, from what).
--latencies (the campaign's JSON lines) gives every suite of a network whose serving process
had more threads after building the model than before, in any of its runs, serving.loader_team
(its constructor ran parallel operators: GoogLeNet's and Inception-v3's truncated-normal
initialisation leaves the loading thread an OpenMP team).
--census (validation/page_census.py's counts) prices each configuration's pass with the pages
its stack was counted to fault (system.pass_page_faults), one suite a configuration.
--model-file names the network's model file, with {model} where the network goes, for
networks the zoo lacks (ONNX exports: the training-mode one keeps each batch normalisation an
operator of its own, as PyTorch's eager forward runs it, where the eval-mode export folds it
into the convolution before it).
--input-profile names the machine's input calibration for a campaign whose clients read files
(serving_cpu.py --input files): each case is served from its row's `input` (files or tensors),
which its id then names, a JPEG decoded at that profile's pace.
--pace prices every case at the machine's pace on the day (system.cpu_pace:
calibration/probe_pace.sh, taken before the campaign), or, as THREADS=PACE once for each thread
count, the cases served on that many threads at that pace (with --census, whose suites are one
configuration each), or, as MODEL:THREADS=PACE, one network's on that many threads (where
validation/measure/serving_campaign.sh read a yardstick before each network; a network without
its own takes its thread count's); --pace-by-op an operator's kernels at their own
(system.cpu_pace_by_op, as calibration/pace.py prints it).
--bounds sets each group's bound to what it achieves (its MAPE rounded up, one more when
whole), as the committed case files do, so that a regression fails while a gap stays visible.
"""
import argparse
import collections
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "validation", "cases")
SCENARIOS = os.path.join(CASES, "scenarios")
# The remote link's payload rate, as every case file states it: 5 Gbit/s times a TCP
# segment's payload in the Ethernet frame tc counts (validation/cases/serving_cpu_devbox_epyc.toml).
REMOTE = '"serving.deployment" = "remote", "system.network_bandwidth" = "4.78Gbps"'
GROUP_PART = {"in-process": "in-process", "local": "local", "remote": "remote-5gbps"}
# What besides the network tells one configuration's page census from another's.
CENSUS_KEYS = ("batch", "server_threads", "deployment", "protocol", "mode")


def machine_pace(text):
    """"0.93" -> (None, None, 0.93), every case's; "2=0.93" -> (None, "2", 0.93), the cases on
    two threads'; "resnet34:2=0.93" -> ("resnet34", "2", 0.93), ResNet-34's on two threads."""
    where, _, pace = text.rpartition("=")
    model, _, threads = where.rpartition(":")
    try:
        if (threads or model) and not threads.isdigit():
            raise ValueError
        return (model or None), (threads or None), float(pace)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected PACE, THREADS=PACE or MODEL:THREADS=PACE, "
                                         "e.g. 0.93, 2=0.93 or resnet34:2=0.93") from None


def operator_pace(text):
    """"linear=1.02" -> ("linear", 1.02), for --pace-by-op."""
    op, _, pace = text.partition("=")
    try:
        return op, float(pace)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected OPERATOR=PACE, e.g. linear=1.02") from None


def relative(path, base=CASES):
    """`path` as a case file names it: a data file from validation/cases/, a profile from the
    scenarios' folder, where the scenarios' own settings are read."""
    return os.path.relpath(os.path.join(ROOT, path), base)


class Writer:
    def __init__(self, args):
        self.args = args
        self.protocol_set = (f'"serving.protocol_profile" = "{relative("calibration/profiles/protocols", SCENARIOS)}'
                             f'/python-{{protocol}}-{args.protocols}.toml", "serving.protocol" = "{{protocol}}", '
                             '"serving.mode" = "{mode}", "serving.concurrency" = "{concurrency}", '
                             '"serving.timed_requests" = "{requests}"')
        self.suites = []  # (group, its lines but the bound)
        self.loader_teams = loader_teams(args.latencies) if args.latencies else set()
        self.rows = campaign_rows(args.data)
        self.census = read_census(args.census) if args.census else {}
        self.id_input = " {input}" if args.input_profile else ""
        self.paces = {(model, threads): pace for model, threads, pace in args.pace if threads}

    def suite(self, where, deployment, group, measured, predicted, data=None):
        """One suite, or with a census one for each of its configurations, each given the
        pages its stack was counted to fault."""
        if not self.census:
            return self.one_suite(where, deployment, group, measured, predicted, data)
        for extra, pages in self.census_splits(where):
            self.one_suite(where + extra, deployment, group, measured, predicted, data,
                           [f'"system.pass_page_faults" = "{pages}"'] if pages is not None else [])

    def census_splits(self, where):
        """The campaign's configurations a suite's `where` selects, each with its census count
        (None where the census has none, which the heap model then prices)."""
        chosen = [r for r in self.rows if all(r[k] == v for k, v in where)]
        splits = dict.fromkeys(tuple((k, r[k]) for k in CENSUS_KEYS if k not in dict(where)) for r in chosen)
        out = []
        for extra in splits:
            config = {**dict(where), **dict(extra)}
            clients = {r["concurrency"] for r in chosen if all(r[k] == v for k, v in extra)}
            counted = self.census.get(tuple(config[k] for k in ("model",) + CENSUS_KEYS), {})
            pages = counted.get(clients.pop()) if len(clients) == 1 else None
            if pages is None:
                print(f"serving_cases: no census count for {config} with its clients", file=sys.stderr)
            out.append((list(extra), pages))
        return out

    def one_suite(self, where, deployment, group, measured, predicted, data=None, counted=()):
        lines = ["[[suite]]"]
        if data:
            lines.append(f'data = "{relative(data)}"')
        lines.append("where = { " + ", ".join(f'{k} = "{v}"' for k, v in where) + " }")
        team = ['"serving.loader_team" = "true"'] if dict(where)["model"] in self.loader_teams else []
        team += list(counted)
        if self.paces:
            team.append(f'"system.cpu_pace" = "{served_pace(self.paces, dict(where))}"')
        if deployment == "in-process":
            if team:
                lines.append("set = { " + ", ".join(team) + " }")
            lines += ['scenario = "scenarios/cpu_infer.toml"',
                      f'id = "{{model}} in-process b{{batch}} t{{server_threads}}{self.id_input}"']
        else:
            extra = [REMOTE] if deployment == "remote" else []
            lines.append("set = { " + ", ".join(team + [self.protocol_set] + extra) + " }")
        lines += [f'group = "{group}"', f'measured = "{measured}"', f'predicted = "{predicted}"']
        self.suites.append((group, "\n".join(lines)))

    def text(self, header, bounds):
        """The case file, each group's bound from `bounds` (0 where it has none yet)."""
        a = self.args
        model = relative(a.model_file, SCENARIOS) if a.model_file else "{model}"
        pace = "".join(f', "system.cpu_pace" = "{value}"' for _, threads, value in a.pace if not threads)
        pace += "".join(f', "system.cpu_pace_by_op.{op}" = "{value}"' for op, value in a.pace_by_op)
        inputs = (f', "serving.input" = "{{input}}", "system.input_profile" = "{relative(a.input_profile, SCENARIOS)}"'
                  if a.input_profile else "")
        defaults = ("[defaults]\n"
                    f'data = "{relative(a.data)}"\n'
                    'scenario = "scenarios/cpu_serve.toml"\n'
                    f'set = {{ "workload.model" = "{model}", "workload.batch" = "{{batch}}", '
                    f'"system.threads" = "{{server_threads}}", "system.profile" = "{relative(a.profile, SCENARIOS)}", '
                    f'"system.cpu" = "{a.cpu}"{inputs}{pace} }}\n'
                    f'id = "{{model}} {{deployment}} {{protocol}} {{mode}} b{{batch}} c{{concurrency}} '
                    f't{{server_threads}}{self.id_input}"\n'
                    'measured = "images_per_s"\n'
                    'predicted = "throughput_images_per_s"')
        suites = [f"{lines}\nbound_mape_pct = {bounds.get(group, 0)}" for group, lines in self.suites]
        return header + "\n" + defaults + "\n\n" + "\n\n".join(suites) + "\n"


def served_pace(paces, where):
    """The pace of the cases `where` selects (a network on a thread count): the network's own
    on that many threads where --pace gives one, else the thread count's (None: neither)."""
    threads = where["server_threads"]
    return paces.get((where["model"], threads), paces.get((None, threads)))


def pace_problem(args):
    """What is wrong with the --pace arguments for this campaign, or None."""
    by_threads = [(model, threads) for model, threads, _ in args.pace if threads]
    if len(args.pace) > 1 and len(by_threads) != len(args.pace):
        return "--pace once for every case, or as [MODEL:]THREADS=PACE once for each thread count or network"
    if len(set(by_threads)) != len(by_threads):
        return "--pace: a thread count or network given twice"
    rows = campaign_rows(args.data)
    served = {r["server_threads"] for r in rows}
    strangers = sorted({model for model, _ in by_threads if model} - {r["model"] for r in rows})
    if strangers:
        return f"--pace for {', '.join(strangers)}, which the campaign did not serve (it served " \
               f"{', '.join(dict.fromkeys(r['model'] for r in rows))})"
    paces = dict.fromkeys(by_threads, 1.0)
    unpriced = {(r["model"], r["server_threads"]) for r in rows
                if served_pace(paces, {"model": r["model"], "server_threads": r["server_threads"]}) is None}
    if by_threads and (not args.census or unpriced):
        got = ", ".join(sorted(f"{model}:{threads}" if model else threads for model, threads in by_threads))
        return (f"--pace [MODEL:]THREADS=PACE needs --census and a pace for every thread count served "
                f"({', '.join(sorted(served))}), or for each network on it; got {got}"
                + (f" (none for {', '.join(f'{m} on {t}' for m, t in sorted(unpriced))})" if unpriced else ""))
    return None


def loader_teams(path):
    """The networks whose serving process had more threads after building the model than
    before in any run of the campaign's JSON lines (host.threads_around_load)."""
    teams = set()
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            run = json.loads(line)
            before, after = run.get("host", {}).get("threads_around_load", [0, 0])
            if after > before:
                teams.add(run["model"])
    return teams


def read_census(path):
    """validation/page_census.py's counts: (model, batch, threads, deployment, protocol,
    mode) to the pages a pass faults with each number of clients."""
    census = collections.defaultdict(dict)
    with open(os.path.join(ROOT, path)) as f:
        for r in csv.DictReader(f):
            census[tuple(r[k] for k in ("model",) + CENSUS_KEYS)][r["concurrency"]] = int(r["pass_page_faults"])
    return census


def campaign_rows(path):
    with open(os.path.join(ROOT, path)) as f:
        return list(csv.DictReader(f))


def write(args):
    """The case file's text as a function of the groups' bounds."""
    w = Writer(args)
    rows = w.rows
    models = list(dict.fromkeys(r["model"] for r in rows))
    for model in models:
        mine = [r for r in rows if r["model"] == model]
        tag = args.tag.format(model=model)
        for threads in dict.fromkeys(r["server_threads"] for r in mine):
            suffix = "" if threads == "1" else f"-{threads}-threads"
            served = [r for r in mine if r["server_threads"] == threads]
            for deployment in dict.fromkeys(r["deployment"] for r in served):
                where = [("model", model), ("deployment", deployment), ("server_threads", threads)]
                part = GROUP_PART[deployment]
                clients = {r["concurrency"] for r in served if r["deployment"] == deployment}
                one = "one-client-" if deployment != "in-process" and clients == {"1"} else ""
                w.suite(where, deployment, f"cpu-serve/{part}/{tag}/{one}throughput{suffix}",
                        "images_per_s", "throughput_images_per_s")
                if deployment != "in-process":
                    w.suite(where, deployment, f"cpu-serve/{part}/{tag}/{one}p99-latency{suffix}",
                            "latency_p99_ms", "latency_ms.p99")
        for deployment in dict.fromkeys(r["deployment"] for r in mine):
            where = [("model", model), ("deployment", deployment)]
            part = GROUP_PART[deployment]
            busy = "server_cpu_busy" if deployment == "remote" else "cpu_busy"
            w.suite(where, deployment, f"cpu-serve/{part}/{tag}/{'server-' if deployment == 'remote' else ''}cpu-busy",
                    busy, "cpu_utilization.server_machines")
            if deployment != "in-process" and args.phases:
                w.suite(where, deployment, f"cpu-serve/{part}/{tag}/server-compute", "locked_mean_ms",
                        "breakdown_ms.compute", data=args.phases)
                if all(r["concurrency"] != "1" for r in mine if r["deployment"] == deployment):  # else none queue
                    w.suite(where, deployment, f"cpu-serve/{part}/{tag}/server-queue", "lock_wait_mean_ms",
                            "breakdown_ms.server_queue", data=args.phases)
    with open(args.header) as f:
        header = "".join("# " + line if line.strip() else "#\n" for line in f)
    return lambda bounds: w.text(header, bounds)


def achieved(out, dlsim):
    """Each group's bound as the committed case files set it: its MAPE today rounded up,
    one more when whole."""
    report = subprocess.run([dlsim, "validate", os.path.join(ROOT, out), "--format", "json"],
                            capture_output=True, text=True)
    if report.returncode not in (0, 1):
        sys.exit(f"serving_cases: dlsim validate {out} failed ({report.returncode}): {report.stderr.strip()}")
    return {g["name"]: math.floor(g["mape_pct"]) + 1 for g in json.loads(report.stdout)["groups"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag in ("--data", "--profile", "--protocols", "--cpu", "--tag", "--header", "--out"):
        ap.add_argument(flag, required=True)
    ap.add_argument("--phases")
    ap.add_argument("--latencies")
    ap.add_argument("--census", help="validation/page_census.py's counts: each configuration priced with its own")
    ap.add_argument("--model-file", help="the network's model file, {model} where its name goes (default: the zoo's)")
    ap.add_argument("--input-profile", help="the machine's input calibration: cases served from their rows' input")
    ap.add_argument("--pace", type=machine_pace, action="append", default=[], metavar="[[MODEL:]THREADS=]PACE",
                    help="the machine's pace on the day (system.cpu_pace), for every case, those on THREADS, or"
                         " MODEL's on THREADS")
    ap.add_argument("--pace-by-op", type=operator_pace, action="append", default=[], metavar="OPERATOR=PACE",
                    help="an operator's own pace on the day (system.cpu_pace_by_op: linear=1.02)")
    ap.add_argument("--bounds", metavar="DLSIM")
    args = ap.parse_args()
    for path in filter(None, (args.data, args.phases, args.profile, args.header, args.latencies, args.census,
                              args.input_profile)):
        if not os.path.exists(os.path.join(ROOT, path)):
            print(f"serving_cases: no such file: {path}", file=sys.stderr)
            return 2
    problem = pace_problem(args)
    if problem:
        print(f"serving_cases: {problem}", file=sys.stderr)
        return 2
    text = write(args)
    out = os.path.join(ROOT, args.out)
    with open(out, "w") as f:
        f.write(text({}))
    if args.bounds:
        bounds = achieved(args.out, args.bounds)
        with open(out, "w") as f:
            f.write(text(bounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
