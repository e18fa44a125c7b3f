#!/usr/bin/python3
"""What a page that glibc's heap gives back and faults again costs inside a PyTorch CPU
inference pass: first_touch's "in_pass" phase, beside its "fresh" and "warm" ones
(torch_op_bench.py), which time 128 MiB written alone.

    /usr/bin/python3 kernels/pytorch/page_price.py --networks resnet18:8,32 --threads 1,2 \\
        --out calibration/raw/MACHINE-pytorch/page_price.json

For each network, batch and thread count, two processes of their own run the same passes
on their main thread: one under glibc as it comes, whose heap is trimmed and regrown (and
whose largest tensors are mapped afresh) in every pass, one told never to give memory back
(MALLOC_TRIM_THRESHOLD_ and MALLOC_TOP_PAD_ far above any pass, MALLOC_MMAP_THRESHOLD_ at
its 32 MiB most), whose passes fault nothing once its heap has grown.  The passes are the
same otherwise, so their difference in time over their difference in the process's minor
page faults (every thread's) is what a page costs there: the fault, the zeroing and the
unmapping, and the caches that zeroing takes from the pass's own data.  On the 2-vCPU Zen 5
VM at 2.1 GHz (2026-11-28, validation/data/pass_faults_devbox_turin21.csv) a page cost
14-17 us inside ResNet-18, ResNet-34 and VGG-11 passes on one thread where first_touch's
fresh less warm priced 11.4.  Each repetition pairs the i-th timed pass of each process;
a row per repetition, its time the price of first_touch's 32,768 pages.  Configurations
that fault too few pages to price (under 1,000 a pass), or whose untrimmed passes are no
faster (ResNet-50 at batch 8 on one thread there: 6.2 s a pass against 5.7, its
convolutions on a slow path), are left out, and the file must keep one per thread count.
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


def passes(network, batch, threads, warmups, count):
    """[(seconds, process minor faults)] of `count` passes after `warmups`; runs in a child."""
    import torch
    import torchvision
    torch.set_num_threads(threads)
    model = getattr(torchvision.models, network)().eval()
    x = torch.randn(batch, 3, 224, 224)
    out = []
    with torch.no_grad():
        for i in range(warmups + count):
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            cpu, start = time.process_time(), time.perf_counter()
            model(x)
            timed = (time.perf_counter() - start, time.process_time() - cpu,
                     resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults)
            if i >= warmups:
                out.append(timed)
    return out


def child_passes(args, network, batch, threads, env):
    command = [sys.executable, os.path.abspath(__file__), "--out", os.devnull, "--passes", str(args.passes),
               "--child", network, str(batch), str(threads)]
    result = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True, env={**os.environ, **env})
    return json.loads(result.stdout)


def priced_rows(args, network, batch, threads):
    """One row per pair of passes, or none where the passes fault too few pages."""
    trimmed = child_passes(args, network, batch, threads, {})
    untrimmed = child_passes(args, network, batch, threads, UNTRIMMED)
    faults = statistics.median(p[2] for p in trimmed) - statistics.median(p[2] for p in untrimmed)
    print(f"{network} b{batch} t{threads}: {faults:.0f} pages a pass more, "
          f"{statistics.median(p[0] for p in trimmed) * 1e3:.1f} ms against "
          f"{statistics.median(p[0] for p in untrimmed) * 1e3:.1f}", file=sys.stderr)
    if faults < MIN_FAULTS:
        return []
    if statistics.median(p[0] for p in trimmed) <= statistics.median(p[0] for p in untrimmed):
        print(f"{network} b{batch} t{threads}: left out, the untrimmed passes were no faster", file=sys.stderr)
        return []
    scale = PAGES / faults
    timed = benchmark_file.Timed([max(a[0] - b[0], 0.0) * scale for a, b in zip(trimmed, untrimmed)],
                                 [max(a[1] - b[1], 0.0) * scale for a, b in zip(trimmed, untrimmed)], 1)
    return benchmark_file.timing_rows(f"{SIGNATURE} | threads={threads} | {PHASE}", timed, threads)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="Google Benchmark JSON to write")
    ap.add_argument("--networks", default="resnet18:8,32", help="NAME:BATCH[,BATCH...], space-separated")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--passes", type=int, default=6, help="timed passes per process (after two warm-ups)")
    ap.add_argument("--child", nargs=3, metavar=("NETWORK", "BATCH", "THREADS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.passes < 1:
        ap.error(f"--passes {args.passes}: at least 1")
    if args.child:
        network, batch, threads = args.child
        print(json.dumps(passes(network, int(batch), int(threads), 2, args.passes)))
        return
    try:
        networks = parse_networks(args.networks)
    except ValueError as e:
        ap.error(str(e))
    thread_counts = [int(t) for t in args.threads.split(",")]
    rows = []
    for threads in thread_counts:
        priced = [row for network, batch in networks for row in priced_rows(args, network, batch, threads)]
        if not priced:
            print(f"page_price.py: no configuration faulted {MIN_FAULTS} pages a pass on {threads} thread(s) "
                  f"and ran faster untrimmed (--networks {args.networks!r}); try a larger batch", file=sys.stderr)
            sys.exit(2)
        rows += priced
    context = benchmark_file.machine_context(__file__, framework="pytorch", threads=args.threads,
                                             networks=args.networks, mode="inference")
    benchmark_file.write(args.out, context, rows)


if __name__ == "__main__":
    main()
