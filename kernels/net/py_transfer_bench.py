#!/usr/bin/env python3
"""Times the Python serving stack (serving_stack.py) the way dlsim-net-bench times C++ gRPC
and HTTP: requests carrying 1 KiB to --max-bytes pushed to a server (answered with 8 bytes)
and pulled from it (8 bytes asking), one in flight.  Rows "transfer u8 b<bytes> <protocol>
| threads=1 | push|pull", one per repetition, in the Google Benchmark JSON `dlsim
calibrate` fits.  Run with Debian's /usr/bin/python3.

  py_transfer_bench.py --protocol http|grpc --out RAW.json [--link loopback|veth]
                       [--max-bytes N] [--repetitions 5] [--min-time 0.2] [--idle-ms MS]
                       [--handler-model NAME]

The server is a process of its own, as a served model's is, so that the two ends' work
shares the machine's CPUs but not a Python interpreter: in one process the client's and the
server's Python work took turns under one GIL, and gRPC timed so cost 1.35 and 1.7 times as
much at 4 and 16 MiB as against a server of its own (HTTP 0.9-1.2 times; Zen 5 VM,
2026-11).  --link loopback (default): over loopback, what a protocol profile prices.
--link veth: behind study A's client link (veth_link.py: a namespace, a veth pair, tc at
5 Gbit/s; needs root), so that large messages take the link's time: its goodput and round
trip, with their spread.

As a stack serves a model (what the serving harness measures and dlsim prices), or bare:
--idle-ms MS   each timed call follows MS asleep (counted towards --min-time, not timed), as
               a served request follows the pass that answered the one before: its client
               and the server's threads have slept meanwhile, and on a VM a sleeping vCPU is
               handed back to the host and woken again.
--handler-model NAME   the server answers each request after a forward pass of torchvision's
               NAME on one thread (on the request's own images where the request is whole
               224x224 images, which the sizes past 256 KiB then are: 1, 4, 16, 64 images;
               else on one image of its own), times the pass and answers its seconds in the
               answer's first 8 bytes; the client leaves them out of the call's time.  A
               served CNN's passes free activations larger than its requests, which raises
               glibc's mmap threshold (up to 32 MiB), so the stack's message buffers come
               from the heap instead of pages mapped afresh.
On the 2-vCPU Zen 5 VM (2.1 GHz, 2026-11-29), where a fresh page costs 11 us, a gRPC call
pushing 4.8 MB after 20 ms asleep took 35-45 ms bare (the server faulted 1-3 times per page
of the message) and 13.7 ms answered after ResNet-18's pass; served requests at batch 8
spent 9-14 ms outside their pass.  HTTP at 602,112 bytes: 0.26 ms back to back, 1.0 after
20 ms asleep, 1.4 after the pass too, against 1.2-4 ms served.  Both default to bare, as
every profile before that date was timed (calibrate_cpu_machine.sh sets them).
"""
import argparse
import os
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pytorch"))
import benchmark_file  # noqa: E402
import serving_stack  # noqa: E402
import veth_link  # noqa: E402


IMAGE_BYTES = 3 * 224 * 224 * 4  # one 224x224 RGB image in FP32


def bare(body):
    if len(body) == 8:  # a pull: the size asked for
        return bytes(int.from_bytes(body, "little"))
    return len(body).to_bytes(8, "little")


def after_pass(model_name):
    """A handler that answers as bare() does after a forward pass of the model, the pass's
    seconds in the answer's first 8 bytes."""
    import torch
    import torchvision
    torch.set_num_threads(1)
    model = getattr(torchvision.models, model_name)().eval()
    own_image = torch.randn(1, 3, 224, 224)

    def handler(body):
        start = time.perf_counter()
        images = len(body) // IMAGE_BYTES if len(body) % IMAGE_BYTES == 0 else 0
        x = torch.frombuffer(bytearray(body), dtype=torch.float32).view(-1, 3, 224, 224) if images else own_image
        with torch.no_grad():
            model(x)
        answer = bare(body)
        return struct.pack("<d", time.perf_counter() - start) + answer[8:]
    return handler


def serve_until_stdin_closes(protocol, host, model_name):
    port, stop = serving_stack.serve(protocol, host, 0, after_pass(model_name) if model_name else bare)
    print(f"ready {port}", flush=True)
    sys.stdin.read()
    stop()


def sizes(max_bytes, images):
    """1 KiB and up by fours; with `images`, whole images past 256 KiB (1, 4, 16, 64)."""
    size = 1024
    while size <= max_bytes and not (images and size > 256 << 10):
        yield size
        size *= 4
    count = 1
    while images and count * IMAGE_BYTES <= max_bytes:
        yield count * IMAGE_BYTES
        count *= 4


def time_transfers(client, protocol, args):
    """Rows of each size's push and pull; with a handler model, less the pass's seconds."""
    rows = []
    passes = args.handler_model is not None

    def call(body):
        answer = client.call(body)
        return struct.unpack("<d", answer[:8])[0] if passes else 0.0

    for size in sizes(args.max_bytes, passes):
        payload = bytes(size)
        for phase, fn in (("push", lambda: call(payload)), ("pull", lambda: call(size.to_bytes(8, "little")))):
            timed = benchmark_file.time_calls(fn, args.repetitions, args.min_time, warmup=2,
                                              idle_s=args.idle_ms / 1e3, leaves_out=passes)
            name = f"transfer u8 b{size} {protocol} | threads=1 | {phase}"
            rows += benchmark_file.timing_rows(name, timed, 1)
            print(f"{name}: {1e6 * sorted(timed.times)[len(timed.times) // 2]:.1f} us", file=sys.stderr)
    return rows


def timed_against_server(args, host, wrap=lambda command: command):
    """Rows timed against a server process on `host`, started by `wrap`ped command."""
    command = [sys.executable, os.path.abspath(__file__), "--serve", host, "--protocol", args.protocol]
    if args.handler_model:
        command += ["--handler-model", args.handler_model]
    server = subprocess.Popen(wrap(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().split()[1])
        client = serving_stack.Client(args.protocol, host, port)
        rows = time_transfers(client, args.protocol, args)
        client.close()
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    return rows


def across_veth(args):
    with veth_link.VethLink():
        rows = timed_against_server(args, veth_link.SERVER_ADDRESS, veth_link.in_namespace)
    return rows, f"veth pair to a network namespace, tc tbf {veth_link.LINK_RATE} each way, server in its own process"


def on_loopback(args):
    return timed_against_server(args, "127.0.0.1"), "loopback, server in its own process"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", choices=serving_stack.PROTOCOLS, required=True)
    parser.add_argument("--out")
    parser.add_argument("--link", choices=("loopback", "veth"), default="loopback")
    parser.add_argument("--max-bytes", type=int, default=64 << 20)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--idle-ms", type=float, default=0.0)
    parser.add_argument("--handler-model", help="torchvision model the server runs before answering (default: none)")
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # HOST: be the server, until stdin closes
    args = parser.parse_args()
    if args.serve:
        return serve_until_stdin_closes(args.protocol, args.serve, args.handler_model)
    if not args.out:
        parser.error("--out is required")
    rows, endpoint = across_veth(args) if args.link == "veth" else on_loopback(args)
    import grpc  # noqa: F401  (both stacks' versions go into the context)
    context = benchmark_file.machine_context(
        __file__, device="network", framework=f"python-{args.protocol}",
        python_stack_version=f"python-{sys.version.split()[0]}-grpcio-{grpc.__version__}", endpoint=endpoint,
        idle_ms=f"{args.idle_ms:g}", handler_model=args.handler_model or "none")
    benchmark_file.write(args.out, context, rows)


if __name__ == "__main__":
    main()
