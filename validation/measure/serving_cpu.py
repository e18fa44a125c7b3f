#!/usr/bin/python3
"""Ground truth for dlsim's serving predictions on this machine's CPU (or, --device cuda,
its GPU): study A's three deployments of a torchvision model, really run and timed.

    /usr/bin/python3 validation/measure/serving_cpu.py --out validation/data/serving_cpu_devbox.csv
    /usr/bin/python3 validation/measure/serving_cpu.py --quick --out /tmp/serving.csv
    python3 validation/measure/serving_cpu.py --device cuda --machine nvidia-h200 --out serving_gpu.csv

On a GPU (--device cuda) the model runs there in fp32 (TF32 off, cudnn.benchmark on): each
request's batch is copied in from the request's pageable bytes and the logits back, inside
the model instance's lock, as a PyTorch server without pinned buffers does.

Deployments
  in-process  the client calls the model in its own process, one request at a time
  local       a server process on loopback, over HTTP/1.1 or gRPC (kernels/net/serving_stack.py)
  remote      the server in a network namespace of its own, joined to this one by a veth
              pair whose both ends `tc` limits to 5 Gbit/s (study A's client link); the
              harness makes the namespace and removes it, on 10.77.0.0/24 only
The server runs one model instance (a lock: one forward pass at a time) on --server-threads
threads.  Clients: synchronous (CONCURRENCY clients, each with its own connection and one
request in flight) or, over gRPC, asynchronous (one client with CONCURRENCY requests in
flight on one channel); HTTP/1.1 cannot multiplex, so an asynchronous HTTP client would be
the synchronous ones again and is not measured.  Or an open loop (--arrival constant or
poisson, --rates): one request at each arrival, answered or not, on CONCURRENCY connections
(gRPC: threads on one channel; a request that finds them all busy waits, its latency counted
from its arrival), as perf_analyzer's --request-rate-range does; --intervals-dir keeps the
Poisson gaps for dlsim to replay.  Inputs are FP32 batches already in memory, or with
--input files each request's images read from JPEG files in the page cache and decoded
by its client before it is sent (study A's application; image_files.py: one batch at a
time per client, an asynchronous client's requests taking turns on its loader, as dlsim's
serving.input = "files" says), latency counted from the send; answers are the logits.
Every deployment's model runs in a process of its own, started for the configuration
(in-process too: glibc's heap carries what a process ran before, and inference after other
work in one process can run a third faster than in a fresh one,
validation/data/README.md).  Each configuration: warm-up requests, then timed ones, at
least REQUESTS of them and at least IMAGES images (24 batch-1 requests take under a second
here, and runs that short differed by up to 17% from one campaign to the next); throughput
= images answered / time from the first send to the last answer; latency per request from
send to answer (P50/P90/P99 over the timed requests); with --latencies each timed request's
latency and the server's phases (HTTP's body read and answer write, the handler's copy of
the bytes into a tensor, its wait for the model's lock, and the copy in, forward pass and
copy back under it), the minor page faults of the copy, of the pass under the lock and of
HTTP's read, and the host's state (the share of the machine's CPU time its hypervisor stole
over the timed requests, /proc/stat; a fixed piece of Python timed before and after them)
go to a JSON-lines file.  CPU: the seconds the server process and the client process (this
harness; in-process, the one process) spent on a CPU over the timed requests
(/proc/PID/stat, os.times; 10 ms ticks), each as a share of the machine's cores over that
time, and both together (cpu_busy): client and server share this machine here, the remote
one's namespace included, as dlsim's cpu_utilization counts a machine that client and
server share.
"""
import argparse
import concurrent.futures
import csv
import datetime
import json
import os
import random
import subprocess
import statistics
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "kernels", "net"))
import image_files  # noqa: E402
import serving_stack  # noqa: E402
from veth_link import LINK_RATE, SERVER_ADDRESS, VethLink, in_namespace  # noqa: E402


# The side of the square images a model is built for where it is not 224 (dlsim's zoo
# gives Inception-v3 299: a request's bytes and the pass follow it).
IMAGE_SIDE = {"inception_v3": 299}


def image_side(model):
    return IMAGE_SIDE.get(model, 224)


def process_threads():
    """The threads this process has now (Linux)."""
    return len(os.listdir("/proc/self/task"))


def load_model(name, threads, device):
    """The model, and the process's threads before and after building it: more after means
    its constructor ran parallel operators (torchvision's truncated-normal initialisation in
    GoogLeNet, Inception-v3 and ConvNeXt), so the loading thread keeps an OpenMP team beside
    the threads that run the passes (dlsim's serving.loader_team)."""
    import torch
    import torchvision
    torch.set_num_threads(threads)
    if device == "cuda":
        torch.backends.cudnn.benchmark = True
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
    before = process_threads()
    model = getattr(torchvision.models, name)().eval().to(device)
    return model, [before, process_threads()]


def infer(model, side, lock, device, record=lambda *args, **kwargs: None):
    """The model's request handler: bytes in (images `side` pixels square), logits' bytes
    out.  record(phase, seconds, faults) hears each request's phases: its bytes copied into
    a tensor ("copy", with the pages that copy faulted), the wait for the model's lock
    ("lock_wait"), and the copy in, forward pass and copy back under it ("locked", with the
    pages its thread faulted and, as process_faults, every thread's: on the 2-vCPU Zen 3 VM
    a served ResNet-18 pass at batch 8 faulted 3,100-6,300 pages where in process it faulted
    none, 2026-11-26, and on two threads the OpenMP worker faults about as many again as the
    pass's own thread, 2026-11-28; and the CPU it ended on and its thread: on a lent H100's
    host one pass at batch 1 took 3.6 ms pinned to nine of 16 vCPUs and 4.6-6.1 on the
    other seven, 2026-11-27)."""
    import torch

    def handler(body):
        faults = serving_stack.thread_faults()
        start = time.perf_counter()
        x = torch.frombuffer(bytearray(body), dtype=torch.float32).view(-1, 3, side, side)
        copied = time.perf_counter()
        faults = serving_stack.thread_faults() - faults
        with lock, torch.no_grad():
            entered = time.perf_counter()
            # every thread's window holds the pass's thread's (so its count is at least that
            # one's, a read of /proc faulting a page inside either)
            all_faults = serving_stack.process_faults()
            pass_faults = serving_stack.thread_faults()
            answer = model(x.to(device)).cpu().numpy().tobytes()
            pass_faults = serving_stack.thread_faults() - pass_faults
            all_faults = serving_stack.process_faults() - all_faults
        done = time.perf_counter()
        record("copy", copied - start, faults)
        record("lock_wait", entered - copied)
        record("locked", done - entered, pass_faults,
               where=(serving_stack.current_cpu(), threading.get_native_id()), process_faults=all_faults)
        return answer
    return handler


class Phases:
    """Seconds per phase of each request a process served, in the order they ended; for
    the phases that count them the minor page faults of the thread that ran them (and for
    the pass, "locked_process", every thread's over it), and for those that say so where
    they ran: [the CPU the phase ended on, its thread's id]."""

    def __init__(self):
        self.recorded = {"seconds": {}, "faults": {}, "where": {}}
        self.lock = threading.Lock()

    def record(self, phase, seconds, faults=None, where=None, process_faults=None):
        with self.lock:
            self.recorded["seconds"].setdefault(phase, []).append(seconds)
            if faults is not None:
                self.recorded["faults"].setdefault(phase, []).append(faults)
            if process_faults is not None:  # every thread's, as "<phase>_process"
                self.recorded["faults"].setdefault(f"{phase}_process", []).append(process_faults)
            if where is not None:
                self.recorded["where"].setdefault(phase, []).append(list(where))


def timed_phases(recorded, warmups):
    """Milliseconds per phase, page faults per counted phase and where the phases that say
    so ran, the first `warmups` requests' (the warm-ups') left out."""
    return {"ms": {phase: [round(1e3 * t, 3) for t in times[warmups:]]
                   for phase, times in recorded["seconds"].items()},
            "faults": {phase: counts[warmups:] for phase, counts in recorded["faults"].items()},
            "where": {phase: places[warmups:] for phase, places in recorded["where"].items()}}


def serve_main(args):
    model, threads_around_load = load_model(args.model, args.server_threads, args.device)
    phases = Phases()
    port, stop = serving_stack.serve(args.protocol, args.host, args.port,
                                     infer(model, image_side(args.model), threading.Lock(), args.device, phases.record),
                                     record=phases.record)
    print(f"ready {port} {' '.join(map(str, threads_around_load))}", flush=True)
    try:
        sys.stdin.read()  # until the harness closes our stdin
    finally:
        stop()
        with open(args.phases, "w") as f:
            json.dump(phases.recorded, f)


def start_server(args, deployment, protocol, phases):
    command = [sys.executable, os.path.abspath(__file__), "serve", "--protocol", protocol, "--model", args.model,
               "--server-threads", str(args.server_threads), "--device", args.device, "--port", "0",
               "--host", SERVER_ADDRESS if deployment == "remote" else "127.0.0.1", "--phases", phases]
    if deployment == "remote":
        command = in_namespace(command)
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline().split()
    if not line or line[0] != "ready":
        server.kill()
        raise RuntimeError(f"the {protocol} server did not start")
    return server, (SERVER_ADDRESS if deployment == "remote" else "127.0.0.1"), int(line[1]), list(map(int, line[2:]))


def process_cpu_s(pid):
    """User and system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_s():
    t = os.times()
    return t.user + t.system


def machine_ticks():
    """The machine's CPU time so far, in /proc/stat's ticks: (all of it, the part its
    hypervisor gave to others while this guest wanted it: steal)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:9]]
    return sum(fields), fields[7]


def steal_share(before, after):
    """The share of the machine's CPU time stolen between two machine_ticks()."""
    return (after[1] - before[1]) / max(1, after[0] - before[0])


def host_pace_ms():
    """The median of five timings of one fixed piece of pure-Python work (ms): the host's
    pace for one thread just then, a probe beside each configuration (on a shared host it
    moves between runs minutes apart, validation/data/README.md)."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        sum(i * i for i in range(100_000))
        times.append(1e3 * (time.perf_counter() - start))
    return round(statistics.median(times), 3)


def timed_requests(send, count, in_flight, warmups=0, when_warm=lambda: None):
    """Runs `warmups` untimed calls of send(), then when_warm(), then `count` timed calls,
    `in_flight` at once, all on the same threads (PyTorch makes a thread's cuDNN and cuBLAS
    handles on its first call: 0.15-0.74 s on the H200, paid by the first timed request of
    the 2026-11-26 in-process runs when the warm-ups ran on another thread; and on a CPU
    each thread that runs PyTorch keeps an OpenMP team, so in process on one thread the
    model's team is the process's only one, as dlsim's serving.pass_threads = 1 says);
    send() returns when its request left, after loading its input (latency counts from
    there, as perf_analyzer and dlsim count it); returns (seconds, latencies)."""
    latencies = []
    lock = threading.Lock()

    def one(_):
        sent = send()
        with lock:
            latencies.append(time.perf_counter() - sent)

    with concurrent.futures.ThreadPoolExecutor(max_workers=in_flight) as pool:
        list(pool.map(lambda _: send(), range(warmups)))
        when_warm()
        start = time.perf_counter()
        list(pool.map(one, range(count)))
        return time.perf_counter() - start, latencies


def open_loop_gaps(arrival, rate, count, seed):
    """The gaps (s) after each of `count` requests sent at `rate` a second: all 1/rate
    (constant), or drawn from an exponential distribution (poisson, a seeded stream)."""
    if arrival == "constant":
        return [1.0 / rate] * count
    draw = random.Random(seed)
    return [draw.expovariate(rate) for _ in range(count)]


def open_loop_requests(send, gaps, workers, warmups=0, when_warm=lambda: None):
    """Runs `warmups` untimed calls of send() one after another, then when_warm(), then one
    timed call at each arrival the gaps give (the first at once), whether or not earlier ones
    were answered, on up to `workers` threads (a request that finds them all busy waits for
    one: its latency counts from its arrival, as a client's queue would); returns (seconds
    from the first arrival to the last answer, latencies, how late each send left its
    arrival)."""
    latencies, lags = [None] * len(gaps), []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for _ in range(warmups):
            send()
        when_warm()
        start = due = time.perf_counter()
        finished = [start]

        def one(i, arrived):
            send()
            now = time.perf_counter()
            latencies[i] = now - arrived
            finished.append(now)

        pending = []
        for i, gap in enumerate(gaps):
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            lags.append(time.perf_counter() - due)
            pending.append(pool.submit(one, i, due))
            due += gap
        for f in pending:
            f.result()
    return max(finished) - start, latencies, lags


def warmup_requests(args):
    """Untimed requests per client before the timed ones.  On a GPU more: cuDNN's autotuner
    (benchmark mode) and the caching allocator settle over the first requests."""
    return 10 if args.device == "cuda" else 2


def request_count(args, batch):
    """Timed requests for one configuration: --requests, or more to reach --images images."""
    return max(args.requests, -(-args.images // batch))


def measure_served(args, deployment, protocol, mode, batch, concurrency, load, gaps=None):
    """A server process for one configuration; (seconds, latencies, CPU seconds, the
    server's phases per request).  load() gives a request's bytes (a client's own images,
    for an asynchronous client one at a time).  With `gaps` an open loop (mode "open"): a
    request at each arrival they give, on `concurrency` connections (gRPC: threads on one
    channel)."""
    warmups = warmup_requests(args) * (1 if gaps else concurrency)
    with tempfile.TemporaryDirectory() as work:
        phases = os.path.join(work, "phases.json")
        server, host, port, threads_around_load = start_server(args, deployment, protocol, phases)
        try:
            if mode == "async" or (gaps and protocol == "grpc"):  # one gRPC channel, many calls in flight
                clients = [serving_stack.Client(protocol, host, port)]
                loader = threading.Lock()

                def send():
                    with loader:
                        body = load()
                    sent = time.perf_counter()
                    clients[0].call(body)
                    return sent
            else:  # a connection (channel) per client, one request in flight on each
                clients = [serving_stack.Client(protocol, host, port) for _ in range(concurrency)]
                pool_lock = threading.Lock()
                idle = list(clients)

                def send():
                    body = load()
                    with pool_lock:
                        client = idle.pop()
                    try:
                        sent = time.perf_counter()
                        client.call(body)
                        return sent
                    finally:
                        with pool_lock:
                            idle.append(client)
            cpu_before = {}

            def when_warm():  # connections, allocator and cuDNN ready
                cpu_before.update(server=process_cpu_s(server.pid), client=own_cpu_s(), ticks=machine_ticks())
            if gaps:
                elapsed, latencies, lags = open_loop_requests(send, gaps, concurrency, warmups, when_warm)
            else:
                elapsed, latencies = timed_requests(send, request_count(args, batch), concurrency,
                                                    warmups=warmups, when_warm=when_warm)
                lags = None
            cpu = {"server": process_cpu_s(server.pid) - cpu_before["server"],
                   "client": own_cpu_s() - cpu_before["client"],
                   "steal": steal_share(cpu_before["ticks"], machine_ticks()),
                   "threads_around_load": threads_around_load, "send_lags": lags}
            for c in clients:
                c.close()
        finally:
            server.stdin.close()
            server.wait(timeout=30)
        with open(phases) as f:
            return elapsed, latencies, cpu, timed_phases(json.load(f), warmups)


def measure_in_process(args, batch):
    """The in-process deployment in a fresh process of its own; as measure_served."""
    command = [sys.executable, os.path.abspath(__file__), "in-process", "--model", args.model,
               "--server-threads", str(args.server_threads), "--device", args.device, "--batch", str(batch),
               "--requests", str(request_count(args, batch)), "--input", args.input]
    result = json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout)
    cpu = {"server": result["cpu_s"], "client": None, "steal": result["steal"],
           "threads_around_load": result["threads_around_load"]}
    return result["seconds"], result["latencies"], cpu, result["phases"]


def in_process_main(args):
    side = image_side(args.model)
    phases = Phases()
    model, threads_around_load = load_model(args.model, args.server_threads, args.device)
    handler = infer(model, side, threading.Lock(), args.device, phases.record)
    before = []
    with tempfile.TemporaryDirectory() as folder:
        load = request_bytes(args.input, args.batch, side, folder)

        def call():
            body = load()
            sent = time.perf_counter()
            handler(body)
            return sent
        seconds, latencies = timed_requests(call, args.requests, 1, warmups=warmup_requests(args),
                                            when_warm=lambda: before.extend((own_cpu_s(), machine_ticks())))
    print(json.dumps({"seconds": seconds, "latencies": latencies, "cpu_s": own_cpu_s() - before[0],
                      "steal": steal_share(before[1], machine_ticks()), "threads_around_load": threads_around_load,
                      "phases": timed_phases(phases.recorded, warmup_requests(args))}))


def request_bytes(kind, batch, side, folder):
    """What gives a client each request's bytes: the same random batch already in memory
    (tensors), or the batch's images read from JPEG files written into `folder` and decoded
    (files)."""
    if kind == "files":
        files = image_files.ImageFiles(folder, side)
        return lambda: files.batch(batch)
    import torch
    body = torch.randn(batch, 3, side, side).numpy().tobytes()
    return lambda: body


def keep_latencies(path, row, latencies, phases, host):
    """Appends one configuration's request latencies (ms, in the order they finished; an open
    loop's in the order they arrived), the server's phases (ms per request, in the order each
    phase ended), the page faults of those that count them, where the passes ran ([CPU,
    thread] each) and the host's state (`host`: the share of the machine's CPU time stolen
    over the timed requests, the pace probe before and after them, the serving process's
    threads before and after it built the model; an open loop's sends' lateness, median and
    most) to a JSON-lines file."""
    key = {k: row[k] for k in ("machine", "model", "deployment", "protocol", "mode", "batch", "concurrency",
                               "server_threads", "date", "arrival", "request_rate", "input")}
    key["finished_utc"] = datetime.datetime.now(datetime.timezone.utc).strftime("%H:%M:%S")
    with open(path, "a") as f:
        f.write(json.dumps({**key, "latencies_ms": [round(1e3 * t, 3) for t in latencies],
                            "phases_ms": phases["ms"], "page_faults": phases["faults"],
                            "phases_where": phases["where"], "host": host}) + "\n")


def percentile(values, q):
    """As perf_analyzer reports it: the sorted value at index q (N - 1) rounded half up (Python's
    round() took ties to even before 2026-12-02 05:30, one rank lower at P50 of some even N)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        ap = argparse.ArgumentParser()
        ap.add_argument("serve")
        ap.add_argument("--protocol", required=True)
        ap.add_argument("--model", required=True)
        ap.add_argument("--server-threads", type=int, required=True)
        ap.add_argument("--device", required=True)
        ap.add_argument("--host", required=True)
        ap.add_argument("--port", type=int, required=True)
        ap.add_argument("--phases", required=True, help="JSON file for each request's phases, written at exit")
        return serve_main(ap.parse_args())
    if len(sys.argv) > 1 and sys.argv[1] == "in-process":
        ap = argparse.ArgumentParser()
        ap.add_argument("in-process")
        ap.add_argument("--model", required=True)
        ap.add_argument("--server-threads", type=int, required=True)
        ap.add_argument("--device", required=True)
        ap.add_argument("--batch", type=int, required=True)
        ap.add_argument("--requests", type=int, required=True)
        ap.add_argument("--input", choices=("tensors", "files"), required=True)
        return in_process_main(ap.parse_args())
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="CSV to append the rows to")
    ap.add_argument("--machine", default="devbox-emerald-rapids-2vcpu")
    ap.add_argument("--model", default="resnet18")
    ap.add_argument("--server-threads", type=int, default=1)
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where the model runs")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--requests", type=int, default=24)
    ap.add_argument("--images", type=int, default=0, help="time at least this many images per configuration")
    ap.add_argument("--deployments", default="in-process,local,remote")
    ap.add_argument("--quick", action="store_true", help="batch 1, 6 requests, local only")
    ap.add_argument("--input", choices=("tensors", "files"), default="tensors",
                    help="what clients send from: a batch already in memory, or JPEG files in the page cache that"
                         " each request reads and decodes first (closed loops)")
    ap.add_argument("--latencies", help="JSON lines to append each configuration's request latencies and the"
                                        " server's phases per request to")
    ap.add_argument("--arrival", choices=("closed", "constant", "poisson"), default="closed",
                    help="closed: the clients above; otherwise an open loop (served deployments) at each of --rates,"
                         " on --concurrency connections")
    ap.add_argument("--rates", default="", help="open loop: requests per second, comma-separated")
    ap.add_argument("--seed", type=int, default=1, help="open loop, poisson: the arrivals' seed")
    ap.add_argument("--intervals-dir", help="Poisson open loop: write each rate's gaps there, one per line in"
                                            " microseconds (perf_analyzer's --request-intervals; dlsim's"
                                            " serving.intervals)")
    args = ap.parse_args()
    if (args.arrival == "closed") != (not args.rates):
        print("--rates goes with an open loop (--arrival constant or poisson), and an open loop needs it",
              file=sys.stderr)
        return 2
    if args.input == "files" and args.arrival != "closed":
        print("--input files goes with closed loops: an open loop's sends keep their arrivals, which loading"
              " would move", file=sys.stderr)
        return 2
    if args.quick:
        args.batches, args.requests, args.deployments = "1", 6, "in-process,local"
    import grpc
    import torch
    fields = ["source", "machine", "cpu", "model", "deployment", "protocol", "mode", "batch", "concurrency",
              "server_threads", "requests", "images_per_s", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms",
              "seconds", "cores", "server_cpu_s", "client_cpu_s", "server_cpu_busy", "client_cpu_busy", "cpu_busy",
              "link", "torch", "grpcio", "python", "date", "device", "arrival", "request_rate", "input"]
    deployments = args.deployments.split(",")
    new = not os.path.exists(args.out) or os.path.getsize(args.out) == 0
    if not new:
        with open(args.out) as f:
            header = f.readline().strip().split(",")
        if header != fields:
            print(f"{args.out}:1: its columns are not this harness's ({','.join(fields)}); "
                  "name a new file with --out, or one this harness wrote", file=sys.stderr)
            return 2
    with open(args.out, "a", newline="") as f, (VethLink() if "remote" in deployments else _Nothing()), \
            tempfile.TemporaryDirectory() as folder:
        out = csv.DictWriter(f, fieldnames=fields)
        if new:
            out.writeheader()
        for batch in (int(b) for b in args.batches.split(",")):
            load = request_bytes(args.input, batch, image_side(args.model), folder)
            if args.arrival == "closed":
                configs = [("in-process", "", "sync", 1, "")] if "in-process" in deployments else []
                configs += [(d, p, m, args.concurrency, "") for d in deployments if d != "in-process"
                            for p in serving_stack.PROTOCOLS for m in ("sync", "async") if (p, m) != ("http", "async")]
            else:
                configs = [(d, p, "open", args.concurrency, float(rate)) for d in deployments if d != "in-process"
                           for p in serving_stack.PROTOCOLS for rate in args.rates.split(",")]
            for deployment, protocol, mode, concurrency, rate in configs:
                gaps = rate and open_loop_gaps(args.arrival, rate, request_count(args, batch), args.seed)
                if gaps and args.intervals_dir and args.arrival == "poisson":  # constant ones are 1/rate
                    write_intervals(args, rate, gaps)
                pace_before = host_pace_ms()
                elapsed, latencies, cpu, phases = (
                    measure_in_process(args, batch) if deployment == "in-process" else
                    measure_served(args, deployment, protocol, mode, batch, concurrency, load, gaps))
                host = {"steal_share": round(cpu["steal"], 4), "pace_probe_ms": [pace_before, host_pace_ms()],
                        "threads_around_load": cpu["threads_around_load"]}
                if cpu.get("send_lags"):  # how late the open loop's sends left their arrivals
                    host["send_lag_ms"] = [round(1e3 * statistics.median(cpu["send_lags"]), 3),
                                           round(1e3 * max(cpu["send_lags"]), 3)]
                cores = os.cpu_count()
                row = {"source": "validation/measure/serving_cpu.py", "machine": args.machine,
                       "cpu": serving_stack_cpu(), "model": args.model, "deployment": deployment,
                       "protocol": protocol, "mode": mode, "batch": batch, "concurrency": concurrency,
                       "server_threads": args.server_threads, "requests": len(latencies),
                       "images_per_s": batch * len(latencies) / elapsed,
                       "latency_p50_ms": 1e3 * percentile(latencies, 0.5),
                       "latency_p90_ms": 1e3 * percentile(latencies, 0.9),
                       "latency_p99_ms": 1e3 * percentile(latencies, 0.99),
                       "seconds": elapsed, "cores": cores, "server_cpu_s": cpu["server"],
                       "client_cpu_s": "" if cpu["client"] is None else cpu["client"],
                       "server_cpu_busy": cpu["server"] / (elapsed * cores),
                       "client_cpu_busy": "" if cpu["client"] is None else cpu["client"] / (elapsed * cores),
                       "cpu_busy": (cpu["server"] + (cpu["client"] or 0)) / (elapsed * cores),
                       "link": f"veth, tc tbf {LINK_RATE}" if deployment == "remote" else "",
                       "torch": torch.__version__, "grpcio": grpc.__version__,
                       "python": sys.version.split()[0], "date": datetime.date.today().isoformat(),
                       "device": torch.cuda.get_device_name(0) if args.device == "cuda" else "cpu",
                       "arrival": args.arrival, "request_rate": rate, "input": args.input}
                out.writerow(row)
                f.flush()
                if args.latencies:
                    keep_latencies(args.latencies, row, latencies, phases, host)
                medians = ", ".join(f"{p} {statistics.median(t):.2f}" for p, t in phases["ms"].items() if t)
                medians += "".join(f"; {p} faults {statistics.median(n):.0f}" for p, n in phases["faults"].items() if n)
                print(f"{deployment} {protocol} {mode} b{batch} c{concurrency}{f' {rate:g}/s' if rate else ''}: "
                      f"{row['images_per_s']:.2f} images/s, "
                      f"p50 {row['latency_p50_ms']:.1f} ms, p99 {row['latency_p99_ms']:.1f} ms; "
                      f"server's medians (ms): {medians}; steal {host['steal_share']:.1%}, pace probe "
                      f"{host['pace_probe_ms'][0]:.2f}/{host['pace_probe_ms'][1]:.2f} ms", file=sys.stderr)


def write_intervals(args, rate, gaps):
    """An open loop's gaps (us, one per line), the file dlsim replays: named after what draws
    them (every configuration at that rate sends at the same arrivals)."""
    os.makedirs(args.intervals_dir, exist_ok=True)
    name = f"{args.arrival}_r{rate:g}_n{len(gaps)}_seed{args.seed}.txt"
    with open(os.path.join(args.intervals_dir, name), "w") as f:
        f.writelines(f"{1e6 * gap:.3f}\n" for gap in gaps)


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def serving_stack_cpu():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


if __name__ == "__main__":
    sys.exit(main())
