#!/usr/bin/env python3
"""Times the Python serving stack (serving_stack.py) the way dlsim-net-bench times C++ gRPC
and HTTP: requests carrying 1 KiB to --max-bytes pushed to a server on loopback in this
process (answered with 8 bytes) and pulled from it (8 bytes asking), one in flight.  Rows
"transfer u8 b<bytes> <protocol> | threads=1 | push|pull", one per repetition, in the
Google Benchmark JSON `dlsim calibrate` fits.  Run with Debian's /usr/bin/python3.

  py_transfer_bench.py --protocol http|grpc --out RAW.json [--max-bytes N]
                       [--repetitions 5] [--min-time 0.2]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pytorch"))
import benchmark_file  # noqa: E402
import serving_stack  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", choices=serving_stack.PROTOCOLS, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-bytes", type=int, default=64 << 20)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args()

    def handler(body):
        if len(body) == 8:  # a pull: the size asked for
            return bytes(int.from_bytes(body, "little"))
        return len(body).to_bytes(8, "little")

    port, stop = serving_stack.serve(args.protocol, "127.0.0.1", 0, handler)
    client = serving_stack.Client(args.protocol, "127.0.0.1", port)
    rows = []
    size = 1024
    while size <= args.max_bytes:
        payload = bytes(size)
        for phase, call in (("push", lambda: client.call(payload)),
                            ("pull", lambda: client.call(size.to_bytes(8, "little")))):
            timed = benchmark_file.time_calls(call, args.repetitions, args.min_time, warmup=2)
            name = f"transfer u8 b{size} {args.protocol} | threads=1 | {phase}"
            rows += benchmark_file.timing_rows(name, timed, 1)
            print(f"{name}: {1e6 * sorted(timed.times)[len(timed.times) // 2]:.1f} us", file=sys.stderr)
        size *= 4
    client.close()
    stop()
    import grpc  # noqa: F401  (both stacks' versions go into the context)
    context = benchmark_file.machine_context(
        __file__, device="network", framework=f"python-{args.protocol}",
        python_stack_version=f"python-{sys.version.split()[0]}-grpcio-{grpc.__version__}",
        endpoint="loopback, server in the same process")
    benchmark_file.write(args.out, context, rows)


if __name__ == "__main__":
    main()
