#!/usr/bin/python3
"""How a forward pass's time depends on what its thread and machine did just before it:
idle for a while, woken by another thread, pinned to one CPU, or beside another thread's
Python work.  A diagnostic of a Python server's passes (a served pass at batch 1 on an
H100's host took 4.2-4.8 ms under the model's lock where the same pass in process took
3.4, 2026-11-26), as Google Benchmark JSON rows, one per pass.

    /usr/bin/python3 kernels/pytorch/pass_after_idle.py --device cuda --net resnet50 --out RAW.json

Modes, each at every batch of --batches (a pass: the batch copied in, the network, the
logits copied back, as serving_cpu.py's handler runs it):
  sleep   the thread sleeps GAP ms, then runs a pass (a server thread waiting for a request)
  spin    the thread spins GAP ms, then runs a pass (the same pause, its CPU kept busy)
  wake    a second thread, blocked on an event, is woken GAP ms after its last pass and
          runs the next one (a handler thread woken by its socket)
  pin     as sleep with GAP 0 and 1, the thread pinned to each CPU the process may use in
          turn (--pin-passes passes each; rows "pinned")
  turns   four threads run the passes in turn with nothing else to do ("turns-4"; a
          served pass among four clients runs on another thread than the last one's)
  beside  back-to-back passes while another thread runs Python ("beside-python": small
          pure-Python work; "beside-copy": bytearray copies of one request's bytes at
          batch 32)
  stacks  back-to-back passes while this process's HTTP and then gRPC server
          (kernels/net/serving_stack.py) answers a client process's requests of the
          batch's bytes, one a pass ("beside-http", "beside-grpc"; stderr says about
          how many requests it answered a pass), and first while it sends none after its first
          ("beside-http-idle", "beside-grpc-idle": the server's threads there, idle)
Rows: "pass_after_idle NET bB | threads=1 | MODE gGAP cpuC" (C: the CPU the pass ended on),
real_time the pass's microseconds; the file is rewritten after each batch, so a run cut
short keeps the batches it finished.  On a lent H100's host (2026-11-26 18:54 UTC) the
pass at batch 1 took 3.4-3.6 ms pinned to ten of 16 vCPUs and 4.0-5.2 on six, and beside
Python work 1.5 s (calibration/README.md).
"""
import argparse
import os
import subprocess
import sys
import threading
import time

import torch
import torchvision

import benchmark_file

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "net"))
import serving_stack  # noqa: E402

# A client process: one connection, a request of BYTES bytes every PERIOD seconds (or
# as soon as the last is answered, if later), until its stdin closes.
CLIENT = """
import sys, threading, time
sys.path.insert(0, sys.argv[1])
import serving_stack
client = serving_stack.Client(sys.argv[2], "127.0.0.1", int(sys.argv[3]))
body, period, done = bytes(int(sys.argv[4])), float(sys.argv[5]), threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
due = time.perf_counter()
while not done.is_set():
    client.call(body)
    due += period
    done.wait(max(0.0, due - time.perf_counter()))
"""


def pause(seconds, spin):
    if seconds <= 0:
        return
    if not spin:
        time.sleep(seconds)
        return
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class Runner:
    def __init__(self, net, device):
        self.device = device
        if device == "cuda":
            torch.backends.cudnn.benchmark = True
            torch.backends.cudnn.allow_tf32 = False
            torch.backends.cuda.matmul.allow_tf32 = False
        self.model = getattr(torchvision.models, net)().eval().to(device)
        self.rows = []
        self.net = net

    def one(self, x):
        start = time.perf_counter()
        with torch.no_grad():
            self.model(x.to(self.device)).cpu()
        return time.perf_counter() - start

    def record(self, batch, mode, gap_ms, seconds):
        self.rows.append({"name": f"pass_after_idle {self.net} b{batch} | threads=1 | {mode} g{gap_ms:g} "
                                  f"cpu{serving_stack.current_cpu()}",
                          "run_type": "iteration", "threads": 1, "iterations": 1,
                          "real_time": seconds * 1e6, "time_unit": "us"})

    def paused(self, x, mode, gap_ms, passes):
        for _ in range(passes):
            pause(gap_ms * 1e-3, mode == "spin")
            self.record(x.shape[0], mode, gap_ms, self.one(x))

    def woken(self, x, gap_ms, passes):
        go, done = threading.Event(), threading.Event()

        def handler():
            for _ in range(passes):
                go.wait()
                go.clear()
                self.record(x.shape[0], "wake", gap_ms, self.one(x))
                done.set()

        t = threading.Thread(target=handler)
        t.start()
        for _ in range(passes):
            pause(gap_ms * 1e-3, False)
            go.set()
            done.wait()
            done.clear()
        t.join()

    def turns(self, x, threads, passes):
        """`threads` threads run the passes in turn, one after another with nothing else
        to do (a served pass among four clients runs on a thread other than the last
        one's every time: validation/data/serving_gpu_h100_0036_latencies.jsonl)."""
        turn = threading.Condition()
        state = {"next": 0, "left": passes}
        warm = threading.Barrier(threads)

        def taker(k):
            self.one(x)  # the thread's own cuDNN and cuBLAS handles (or OpenMP team), untimed
            warm.wait()
            while True:
                with turn:
                    turn.wait_for(lambda: state["left"] == 0 or state["next"] == k)
                    if state["left"] == 0:
                        return
                self.record(x.shape[0], f"turns-{threads}", 0, self.one(x))
                with turn:
                    state["left"] -= 1
                    state["next"] = (k + 1) % threads
                    turn.notify_all()

        takers = [threading.Thread(target=taker, args=(k,)) for k in range(threads)]
        for t in takers:
            t.start()
        for t in takers:
            t.join()

    def beside(self, x, work, passes):
        stop = threading.Event()
        body = bytes(32 * 3 * 224 * 224 * 4)

        def other():
            while not stop.is_set():
                if work == "copy":
                    bytearray(body)
                else:
                    sum(i * i for i in range(200))

        t = threading.Thread(target=other)
        t.start()
        for _ in range(passes):
            self.record(x.shape[0], "beside-" + work, 0, self.one(x))
        stop.set()
        t.join()

    def beside_stack(self, x, protocol, passes, idle):
        """Back-to-back passes while this process serves a client process's requests of the
        batch's bytes over `protocol`, one a pass (the period of five passes timed alone
        just before: a server kept busy by its clients sees about one request arrive and
        one answer leave a pass), each handled as serving_cpu.py's handler does short of
        the model (the bytes copied into a tensor; the answer the logits' size); `idle`:
        the client sends one request and then none (the server's threads there, idle);
        returns the requests served per pass."""
        batch = x.shape[0]
        period = 1e6 if idle else sorted(self.one(x) for _ in range(5))[2]
        mode = f"beside-{protocol}" + ("-idle" if idle else "")

        answered = []

        def handler(body):
            torch.frombuffer(bytearray(body), dtype=torch.float32)
            answered.append(1)
            return bytes(4 * 1000 * batch)

        port, stop = serving_stack.serve(protocol, "127.0.0.1", 0, handler)
        client = subprocess.Popen([sys.executable, "-c", CLIENT, os.path.dirname(serving_stack.__file__), protocol,
                                   str(port), str(x.numel() * 4), str(period)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            time.sleep(0.5)  # connected, its first requests served
            before = len(answered)
            for _ in range(passes):
                self.record(batch, mode, 0, self.one(x))
            during = len(answered) - before
            client.communicate("", timeout=60)
        finally:
            client.kill()
            stop()
        return during / passes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--net", default="resnet50")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--gaps-ms", default="0,0.2,0.5,1,2,5,20")
    ap.add_argument("--passes", type=int, default=60, help="passes per mode and gap at batch 1 (a quarter of the batch fewer above 4)")
    ap.add_argument("--pin-passes", type=int, default=30)
    ap.add_argument("--beside-passes", type=int, default=3,
                    help="passes beside Python work, each 1.5 s on an H100 host (400 times one alone)")
    ap.add_argument("--modes", default="sleep,spin,wake,pin,turns,beside,stacks", help="which modes, comma-separated")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    torch.set_num_threads(1)
    runner = Runner(a.net, a.device)
    context = benchmark_file.machine_context(__file__, framework="pytorch", torch_version=torch.__version__,
                                             device=a.device, net=a.net)
    gaps = [float(g) for g in a.gaps_ms.split(",")]
    modes = a.modes.split(",")
    for batch in (int(b) for b in a.batches.split(",")):
        x = torch.randn(batch, 3, 224, 224)
        passes = max(1, a.passes // max(1, batch // 4))
        for _ in range(10):
            runner.one(x)
        for gap in gaps:
            for mode in ("sleep", "spin"):
                if mode in modes:
                    runner.paused(x, mode, gap, passes)
            if "wake" in modes:
                runner.woken(x, gap, passes)
        if "pin" in modes:
            allowed = sorted(os.sched_getaffinity(0))
            for cpu in allowed:
                os.sched_setaffinity(0, {cpu})
                for gap in (0, 1):
                    runner.paused(x, "pinned", gap, a.pin_passes)
            os.sched_setaffinity(0, set(allowed))
        if "turns" in modes:
            runner.turns(x, 4, passes)
        if "beside" in modes:
            for work in ("python", "copy"):
                runner.beside(x, work, a.beside_passes)
        if "stacks" in modes:
            for protocol in serving_stack.PROTOCOLS:
                runner.beside_stack(x, protocol, passes, idle=True)
                per_pass = runner.beside_stack(x, protocol, passes, idle=False)
                print(f"pass_after_idle: batch {batch} beside {protocol}, {per_pass:.2f} requests answered a pass",
                      file=sys.stderr, flush=True)
        benchmark_file.write(a.out, context, runner.rows)  # each batch's rows kept as they come
        print(f"pass_after_idle: batch {batch} done, {len(runner.rows)} rows", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
