#!/usr/bin/env python3
"""Times the Python serving stack (serving_stack.py) the way dlsim-net-bench times C++ gRPC
and HTTP: requests carrying 1 KiB to --max-bytes pushed to a server (answered with 8 bytes)
and pulled from it (8 bytes asking), one in flight.  Rows "transfer u8 b<bytes> <protocol>
| threads=1 | push|pull", one per repetition, in the Google Benchmark JSON `dlsim
calibrate` fits.  Run with Debian's /usr/bin/python3.

  py_transfer_bench.py --protocol http|grpc --out RAW.json [--link loopback|veth]
                       [--max-bytes N] [--repetitions 5] [--min-time 0.2]

The server is a process of its own, as a served model's is, so that the two ends' work
shares the machine's CPUs but not a Python interpreter: in one process the client's and the
server's Python work took turns under one GIL, and gRPC timed so cost 1.35 and 1.7 times as
much at 4 and 16 MiB as against a server of its own (HTTP 0.9-1.2 times; Zen 5 VM,
2026-11).  --link loopback (default): over loopback, what a protocol profile prices.
--link veth: behind study A's client link (veth_link.py: a namespace, a veth pair, tc at
5 Gbit/s; needs root), so that large messages take the link's time: its goodput and round
trip, with their spread.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pytorch"))
import benchmark_file  # noqa: E402
import serving_stack  # noqa: E402
import veth_link  # noqa: E402


def handler(body):
    if len(body) == 8:  # a pull: the size asked for
        return bytes(int.from_bytes(body, "little"))
    return len(body).to_bytes(8, "little")


def serve_until_stdin_closes(protocol, host):
    port, stop = serving_stack.serve(protocol, host, 0, handler)
    print(f"ready {port}", flush=True)
    sys.stdin.read()
    stop()


def time_transfers(client, protocol, max_bytes, repetitions, min_time):
    rows = []
    size = 1024
    while size <= max_bytes:
        payload = bytes(size)
        for phase, call in (("push", lambda: client.call(payload)),
                            ("pull", lambda: client.call(size.to_bytes(8, "little")))):
            timed = benchmark_file.time_calls(call, repetitions, min_time, warmup=2)
            name = f"transfer u8 b{size} {protocol} | threads=1 | {phase}"
            rows += benchmark_file.timing_rows(name, timed, 1)
            print(f"{name}: {1e6 * sorted(timed.times)[len(timed.times) // 2]:.1f} us", file=sys.stderr)
        size *= 4
    return rows


def timed_against_server(args, host, wrap=lambda command: command):
    """Rows timed against a server process on `host`, started by `wrap`ped command."""
    server = subprocess.Popen(wrap([sys.executable, os.path.abspath(__file__), "--serve", host, "--protocol",
                                    args.protocol]), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().split()[1])
        client = serving_stack.Client(args.protocol, host, port)
        rows = time_transfers(client, args.protocol, args.max_bytes, args.repetitions, args.min_time)
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
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # HOST: be the server, until stdin closes
    args = parser.parse_args()
    if args.serve:
        return serve_until_stdin_closes(args.protocol, args.serve)
    if not args.out:
        parser.error("--out is required")
    rows, endpoint = across_veth(args) if args.link == "veth" else on_loopback(args)
    import grpc  # noqa: F401  (both stacks' versions go into the context)
    context = benchmark_file.machine_context(
        __file__, device="network", framework=f"python-{args.protocol}",
        python_stack_version=f"python-{sys.version.split()[0]}-grpcio-{grpc.__version__}", endpoint=endpoint)
    benchmark_file.write(args.out, context, rows)


if __name__ == "__main__":
    main()
