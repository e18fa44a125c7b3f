#!/usr/bin/python3
"""How far a network's whole forward pass is from the sum of its operators timed one by
one, as dlsim prices a CPU pass from a profile: each operator in a loop of its own (phase
infer), or inside whole passes (phase infer_pass, in_pass.py, as calibrate_cpu_machine.sh
times them).

    /usr/bin/python3 kernels/pytorch/pass_vs_operators.py --model resnet18 --batch 1 \
        --threads 2 [--passes 20] [--calls 10] [--dlsim build/sim/cli/dlsim \
        [--listing MODEL_FILE]] >> OUT.jsonl

In one process, on the main thread, in eval mode without gradients: the median of
--passes whole forwards (after five untimed), then each leaf module's call of one
forward, replayed on the input it had there, --calls times after three untimed, its
median; the medians summed over the forward's calls.  Module calls leave out what a
forward does between modules (ResNet's residual adds, reshapes), under 1% of a pass.
With --dlsim, also the network's calls as dlsim lists them (`dlsim model --format csv`)
(or the ONNX file --listing names: torchvision's networks outside dlsim's zoo) timed
inside passes by in_pass.py, one pass at a time between whole forwards, --passes
rounds, so that both meet the machine at the same pace (the VM's moved by up to 75%
within minutes): the sum of each signature's median time per call, against the median of
the forwards between; glibc's heap then serves every output warm, as the calibration
times operators (torch_op_bench.steady_state_allocator), so that neither pays page
faults.  One JSON line: the model, batch, threads, calls, pass_ms, operators_ms, their
ratio, with --dlsim in_pass_ms, pass_between_ms and in_pass_ratio, the parameter and
buffer bytes, and the time (UTC) it ended.
"""
import argparse
import collections
import datetime
import io
import json
import statistics
import subprocess
import time

import torch
import torchvision

import in_pass
import torch_op_bench


def leaf_calls(model, x):
    """Each leaf module's call of one forward of x, with a copy of its input."""
    calls = []
    hooks = [m.register_forward_hook(lambda m, inp, out: calls.append((m, inp[0].detach().clone())))
             for m in model.modules() if not list(m.children())]
    model(x)
    for h in hooks:
        h.remove()
    return calls


def median_s(fn, repeats, warmups):
    for _ in range(warmups):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_pass_against_forwards(name, model, x, dlsim, rounds):
    """(the sum over the pass's calls of each signature's median in-pass time per call, the
    median whole forward), one in-pass pass and one forward a round, alternating; `name` is
    what dlsim lists the calls of, a network of its zoo or a model file."""
    listing = subprocess.run([dlsim, "model", name, "--batch", str(x.shape[0]), "--format", "csv"],
                             capture_output=True, text=True, check=True).stdout
    calls, failed = torch_op_bench.pass_calls(in_pass.read_pass(io.StringIO(listing), f"dlsim model {name}"))
    if failed:
        raise ValueError(f"{name}: cannot build {', '.join(failed)}")
    per_call, forwards = collections.defaultdict(list), []
    for _ in range(rounds):
        for sig, timed in in_pass.time_passes(calls, 1, 0.0, warmup=1).items():
            per_call[sig].append(timed.times[0])
        forwards.append(median_s(lambda: model(x), 1, 0))
    count = collections.Counter(sig for sig, _, _ in calls)
    return sum(count[sig] * statistics.median(ts) for sig, ts in per_call.items()), statistics.median(forwards)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--dlsim", help="dlsim's binary: time the calls inside passes too")
    parser.add_argument("--listing", help="the model file dlsim lists those calls from (default: --model, of its zoo)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.dlsim:
        torch_op_bench.steady_state_allocator()  # as the calibration times: no page faults in either
    model = getattr(torchvision.models, args.model)().eval()
    x = torch.randn(args.batch, 3, 224, 224)
    with torch.no_grad():
        forward_s = median_s(lambda: model(x), args.passes, 5)
        calls = leaf_calls(model, x)
        operators_s = sum(median_s(lambda: m(inp), args.calls, 3) for m, inp in calls)
        listed = args.listing or args.model
        in_pass_s, between_s = (in_pass_against_forwards(listed, model, x, args.dlsim, args.passes)
                                if args.dlsim else (None, None))
    weight_bytes = sum(t.numel() * t.element_size() for t in list(model.parameters()) + list(model.buffers()))
    row = {"model": args.model, "batch": args.batch, "threads": args.threads, "calls": len(calls),
           "pass_ms": round(1e3 * forward_s, 3), "operators_ms": round(1e3 * operators_s, 3),
           "ratio": round(forward_s / operators_s, 4)}
    if in_pass_s:
        row.update({"in_pass_ms": round(1e3 * in_pass_s, 3), "pass_between_ms": round(1e3 * between_s, 3),
                    "in_pass_ratio": round(between_s / in_pass_s, 4)})
    row.update({"weight_bytes": weight_bytes, "torch": torch.__version__,
                "finished_utc": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M:%S")})
    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
