#!/usr/bin/python3
"""What a page that glibc's heap gives back and faults again costs inside a PyTorch CPU
inference pass: first_touch's "in_pass" phase, beside its "fresh" and "warm" ones
(torch_op_bench.py), which time 128 MiB written alone.

    /usr/bin/python3 kernels/pytorch/page_price.py --networks resnet18:8,32 --threads 1,2 \\
        --out calibration/raw/MACHINE-pytorch/page_price.json

For each network, batch and thread count, two processes of their own run the same passes
on their main thread, a pass at a time in turns: one under glibc as it comes, whose heap is
trimmed and regrown (and whose largest tensors are mapped afresh) in every pass, one told
never to give memory back (MALLOC_TRIM_THRESHOLD_ and MALLOC_TOP_PAD_ far above any pass,
MALLOC_MMAP_THRESHOLD_ at its 32 MiB most), whose passes fault nothing once its heap has
grown.  The passes are the same otherwise, so their difference in time over their
difference in the process's minor page faults (every thread's) is what a page costs there:
the fault, the zeroing and the unmapping, and the caches that zeroing takes from the pass's
own data.  On the 2-vCPU Zen 5 VM at 2.1 GHz (2026-11-28,
validation/data/pass_faults_devbox_turin21.csv) a page cost 14-17 us inside ResNet-18,
ResNet-34 and VGG-11 passes on one thread where first_touch's fresh less warm priced 11.4.
A row per pair of passes and thread count pools the configurations (their extra time over
their extra pages), its time the price of first_touch's 32,768 pages.  Configurations that
fault too few pages to price (under 1,000 a pass), or whose untrimmed passes are no faster
(ResNet-50 at batch 8 on one thread there: 6.2 s a pass against 5.7, its convolutions on a
slow path), are left out, and the file must keep one per thread count.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

import benchmark_file

SIGNATURE = "first_touch fp32 n32768 e1024"
PAGES = 32768
PHASE = "in_pass"
MIN_FAULTS = 1000
UNTRIMMED = {"MALLOC_TRIM_THRESHOLD_": str(1 << 40), "MALLOC_TOP_PAD_": str(1 << 30),
             "MALLOC_MMAP_THRESHOLD_": str(32 << 20)}


def parse_networks(text):
    """'resnet18:8,32 resnet50:4' -> [(network, batch), ...]."""
    out = []
    for item in text.split():
        name, _, batches = item.partition(":")
        if not name or not batches:
            raise ValueError(f"--networks: '{item}' is not NAME:BATCH[,BATCH...]")
        out += [(name, int(b)) for b in batches.split(",")]
    return out


def serve_passes(network, batch, threads):
    """Runs a pass for each line on stdin and answers each with [seconds, CPU seconds,
    process minor faults] on stdout; the child's side of Child."""
    import torch
    import torchvision
    torch.set_num_threads(threads)
    model = getattr(torchvision.models, network)().eval()
    x = torch.randn(batch, 3, 224, 224)
    with torch.no_grad():
        for _ in sys.stdin:
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            cpu, start = time.process_time(), time.perf_counter()
            model(x)
            print(json.dumps([time.perf_counter() - start, time.process_time() - cpu,
                              resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults]), flush=True)


class Child:
    """A process of its own, under the environment `env`, that runs one pass when asked."""

    def __init__(self, network, batch, threads, env):
        command = [sys.executable, os.path.abspath(__file__), "--out", os.devnull,
                   "--child", network, str(batch), str(threads)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        env={**os.environ, **env})

    def run_pass(self):
        self.process.stdin.write("pass\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"page_price.py: a child ended early (exit {self.process.wait()})")
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        if self.process.wait() != 0:
            raise RuntimeError(f"page_price.py: a child failed (exit {self.process.returncode})")


def paired_passes(args, network, batch, threads):
    """(trimmed passes, untrimmed passes) after two warm-ups each, taken in turns a pass at a
    time, the order swapped every pair, so that both of a pair meet the host's pace of the
    same seconds: one process's passes after the other's, minutes apart, differed on the
    2-vCPU Zen 3 VM by more than the pages cost (ResNet-18 at batch 32 on two threads, 2026-11-29:
    untrimmed passes 310 ms faster than trimmed in one run, 14 ms slower in the next)."""
    trimmed, untrimmed = Child(network, batch, threads, {}), Child(network, batch, threads, UNTRIMMED)
    try:
        pairs = []
        for i in range(2 + args.passes):
            first, second = (trimmed, untrimmed) if i % 2 == 0 else (untrimmed, trimmed)
            a, b = first.run_pass(), second.run_pass()
            if i >= 2:
                pairs.append((a, b) if first is trimmed else (b, a))
    finally:
        trimmed.close()
        untrimmed.close()
    return [p[0] for p in pairs], [p[1] for p in pairs]


def priced_pair(args, network, batch, threads):
    """(trimmed passes, untrimmed passes, pages a pass more), or None where the passes fault
    too few pages to price or the untrimmed ones are no faster."""
    trimmed, untrimmed = paired_passes(args, network, batch, threads)
    faults = statistics.median(p[2] for p in trimmed) - statistics.median(p[2] for p in untrimmed)
    print(f"{network} b{batch} t{threads}: {faults:.0f} pages a pass more, "
          f"{statistics.median(p[0] for p in trimmed) * 1e3:.1f} ms against "
          f"{statistics.median(p[0] for p in untrimmed) * 1e3:.1f}", file=sys.stderr)
    if faults < MIN_FAULTS:
        return None
    if statistics.median(p[0] for p in trimmed) <= statistics.median(p[0] for p in untrimmed):
        print(f"{network} b{batch} t{threads}: left out, the untrimmed passes were no faster", file=sys.stderr)
        return None
    return trimmed, untrimmed, faults


def pooled_rows(pairs, threads):
    """A row per repetition: the time the i-th pair of passes of every configuration differ
    by, over all the pages they differ by (a ratio of sums), so a configuration weighs by
    its pages.  A pass's pace wanders by tens of milliseconds either way, which over
    ResNet-18's 12,512 pages at batch 8 is several microseconds a page and over its 165,300
    at batch 32 a fraction of one: on the 2-vCPU Zen 3 VM on two threads (2026-11-29) the
    batch-8 pairs priced a page at 3.2 us and the batch-32 ones at 1.9, and the median of
    rows scaled configuration by configuration swung from 3.4 us (12:30) to 2.3 (18:45)."""
    pages = sum(faults for _, _, faults in pairs)
    scale = PAGES / pages
    repetitions = min(len(trimmed) for trimmed, _, _ in pairs)

    def extra(i, field):
        return sum(trimmed[i][field] - untrimmed[i][field] for trimmed, untrimmed, _ in pairs)
    timed = benchmark_file.Timed([max(extra(i, 0), 0.0) * scale for i in range(repetitions)],
                                 [max(extra(i, 1), 0.0) * scale for i in range(repetitions)], 1)
    return benchmark_file.timing_rows(f"{SIGNATURE} | threads={threads} | {PHASE}", timed, threads)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="Google Benchmark JSON to write")
    ap.add_argument("--networks", default="resnet18:8,32", help="NAME:BATCH[,BATCH...], space-separated")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--passes", type=int, default=12, help="timed pairs of passes (after two warm-ups)")
    ap.add_argument("--child", nargs=3, metavar=("NETWORK", "BATCH", "THREADS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.passes < 1:
        ap.error(f"--passes {args.passes}: at least 1")
    if args.child:
        network, batch, threads = args.child
        serve_passes(network, int(batch), int(threads))
        return
    try:
        networks = parse_networks(args.networks)
    except ValueError as e:
        ap.error(str(e))
    thread_counts = [int(t) for t in args.threads.split(",")]
    rows = []
    for threads in thread_counts:
        pairs = [pair for network, batch in networks if (pair := priced_pair(args, network, batch, threads))]
        if not pairs:
            print(f"page_price.py: no configuration faulted {MIN_FAULTS} pages a pass on {threads} thread(s) "
                  f"and ran faster untrimmed (--networks {args.networks!r}); try a larger batch", file=sys.stderr)
            sys.exit(2)
        rows += pooled_rows(pairs, threads)
    context = benchmark_file.machine_context(__file__, framework="pytorch", threads=args.threads,
                                             networks=args.networks, mode="inference")
    benchmark_file.write(args.out, context, rows)


if __name__ == "__main__":
    main()
