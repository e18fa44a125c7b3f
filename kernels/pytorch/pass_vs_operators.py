#!/usr/bin/python3
"""How far a network's whole forward pass is from the sum of its operators timed one by
one, as dlsim prices a CPU pass (each operator's calls summed from a profile whose
operators torch_op_bench.py timed, each in a loop of its own).

    /usr/bin/python3 kernels/pytorch/pass_vs_operators.py --model resnet18 --batch 1 \
        --threads 2 [--passes 20] [--calls 10] >> OUT.jsonl

In one process, on the main thread, in eval mode without gradients: the median of
--passes whole forwards (after five untimed), then each leaf module's call of one
forward, replayed on the input it had there, --calls times after three untimed, its
median; the medians summed over the forward's calls.  Module calls leave out what a
forward does between modules (ResNet's residual adds, reshapes), under 1% of a pass.
One JSON line: the model, batch, threads, calls, pass_ms, operators_ms, their ratio,
the parameter and buffer bytes, and the time (UTC) it ended.
"""
import argparse
import datetime
import json
import statistics
import time

import torch
import torchvision


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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model = getattr(torchvision.models, args.model)().eval()
    x = torch.randn(args.batch, 3, 224, 224)
    with torch.no_grad():
        forward_s = median_s(lambda: model(x), args.passes, 5)
        calls = leaf_calls(model, x)
        operators_s = sum(median_s(lambda: m(inp), args.calls, 3) for m, inp in calls)
    weight_bytes = sum(t.numel() * t.element_size() for t in list(model.parameters()) + list(model.buffers()))
    print(json.dumps({"model": args.model, "batch": args.batch, "threads": args.threads, "calls": len(calls),
                      "pass_ms": round(1e3 * forward_s, 3), "operators_ms": round(1e3 * operators_s, 3),
                      "ratio": round(forward_s / operators_s, 4), "weight_bytes": weight_bytes,
                      "torch": torch.__version__,
                      "finished_utc": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M:%S")}), flush=True)


if __name__ == "__main__":
    main()
