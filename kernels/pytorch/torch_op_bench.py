#!/usr/bin/python3
"""dlsim's PyTorch operator benchmark: times every kernel signature a step needs *through
PyTorch's own operators*, as a training or inference loop calls them, and writes Google
Benchmark JSON that `dlsim calibrate` reads like dlsim-cpu-bench's.

    /usr/bin/python3 kernels/pytorch/torch_op_bench.py --signatures FILE [--threads 1,2]
        [--inference] [--repetitions 5] [--min-time 0.05] --out RAW.json

Why a second benchmark next to the oneDNN one: PyTorch does not hand every kernel to
oneDNN the way a oneDNN program would.  Linear layers go to the system BLAS, pooling and
batch norm to PyTorch's native kernels, convolutions to oneDNN on plain NCHW tensors with
reorders around them, and every operator allocates its output.  The operators are timed
from warm heap memory, without page faults (steady_state_allocator); the pages a whole
step or pass faults are priced apart (first_touch) by dlsim's heap model.  Timing the
operators themselves captures those paths on whatever machine and PyTorch build this
runs on, without a rule per case.  Each phase is what autograd runs:
  fwd          the operator on inputs that require grad, as training calls it; in place
               for the ReLU family and additions
  infer        the operator under no_grad in eval mode, as inference calls it (both
               modes; --inference times only this one)
  infer_thread the same called from a thread other than the process's main one, as an
               HTTP or gRPC server's request threads call it (both modes; --request-thread
               times only this one): on two threads PyTorch's operators run slower there
               (libgomp's teams), ResNet-18 at batch 1 20-26 ms a pass instead of 14
  infer_pass, infer_pass_thread, infer_pass_turns, infer_pass_shared
               the inference forward timed inside whole passes of a network, on the main
               thread, on a request thread, on two request threads taking turns, a pass
               each, and on a request thread whose team shares its core (--in-pass,
               in_pass.py): weights cold, inputs as the previous operator leaves them
  bwd_data     the gradient of its input (all gradients for batch norm and the rest)
  bwd_weights  the weight and bias gradients of a convolution or linear layer
  update       optimizer.step() over the model's parameter tensors, then
               zero_grad(set_to_none=True), as validation/measure/pytorch_cpu.py trains
  fresh, warm  "first_touch" only: pages written into a fresh mapping and into resident
               memory, the price of a page the step's heap gives back and faults again
  back_to_back, idle, after_idle
               "team_wake" only, on the request thread after the main thread ran PyTorch:
               a ReLU called again at once, 100 us of the caller's own work, and that work
               then the ReLU; the difference is an operator's team woken from sleep
               (sim/perf/step_plan.hpp)
  back_to_back, long_idle, after_long_idle
               "team_spin" only, on the main thread: a ReLU called again at once, 30 ms
               of the caller's own work, and that work then the ReLU; the process's CPU
               time beyond them is what the team's idle threads spun before they slept
               (sim/perf/step_plan.hpp)
Signatures are dlsim's (sim/graph/kernel_signature.cpp).  A signature that fails is
reported as an errored row; the others still run.
"""
import argparse
import concurrent.futures
import ctypes
import itertools
import mmap
import os
import re
import sys
import time

import torch
import torch.nn.functional as F

import benchmark_file
import in_pass


def parse_signature(text, dtypes=("fp32",)):
    words = text.split()
    if len(words) < 2:
        raise ValueError(f"signature '{text}' has no operator and data type")
    sig = {"text": text, "op": words[0], "dtype": words[1], "fields": {}, "flags": set(), "shapes": []}
    for w in words[2:]:
        m = re.fullmatch(r"([a-z_]+)(-?\d+(?:,-?\d+)*)", w)
        if m:
            sig["fields"][m.group(1)] = [int(v) for v in m.group(2).split(",")]
        elif re.fullmatch(r"\d+(x\d+)+", w):
            sig["shapes"].append([int(v) for v in w.split("x")])
        elif w.isalpha():
            sig["flags"].add(w)
        else:
            raise ValueError(f"signature '{text}': cannot read '{w}'")
    if sig["dtype"] not in dtypes:
        raise ValueError(f"signature '{text}': only {', '.join(dtypes)} runs here")
    return sig


def get(sig, name, index=0):
    if name not in sig["fields"]:
        raise ValueError(f"signature '{sig['text']}' lacks field '{name}'")
    return sig["fields"][name][index]


# The activations' and weights' type: fp32 here, fp16 on a GPU for autocast's kernels
# (torch_gpu_op_bench.py).  A parameter autocast leaves in fp32 (batch norm's) stays so.
ACTIVATION_DTYPE = torch.float32


def leaf(*shape, grad=True, param=False):
    return torch.randn(*shape, dtype=torch.float32 if param else ACTIVATION_DTYPE).requires_grad_(grad)


def symmetric_padding(sig):
    top, left, bottom, right = sig["fields"].get("pad", [0, 0, 0, 0])
    if (top, left) != (bottom, right):
        raise ValueError(f"signature '{sig['text']}': PyTorch pads symmetrically, not {top},{left},{bottom},{right}")
    return top, left


ACTIVATIONS = {"relu": torch.relu, "relu6": F.relu6, "sigmoid": torch.sigmoid, "tanh": torch.tanh,
               "leaky_relu": F.leaky_relu, "gelu": F.gelu, "silu": F.silu, "hardsigmoid": F.hardsigmoid,
               "hardswish": F.hardswish}
# The forms networks write in place (torchvision's ReLU(inplace=True), ResNet's
# `out += identity`, autograd's gradient sums, torchvision's SiLU and Hardswish in its
# convolution blocks): no output to allocate.
IN_PLACE = {"relu": torch.relu_, "relu6": lambda t: F.relu6(t, inplace=True),
            "leaky_relu": lambda t: F.leaky_relu(t, inplace=True), "silu": lambda t: F.silu(t, inplace=True),
            "hardswish": lambda t: F.hardswish(t, inplace=True), "add": None}


def in_place_forward(sig, training):
    """(function, data inputs): the operator applied in place to a tensor that is not a leaf
    (autograd records it)."""
    n, e = get(sig, "n"), get(sig, "e")
    x = leaf(n, e, grad=training).clone()
    if sig["op"] == "add":
        others = [torch.randn(n, e, dtype=ACTIVATION_DTYPE) for _ in range(get(sig, "x") - 1)]

        def add():
            for o in others:
                x.add_(o)
        return add, [x, *others]
    return (lambda: IN_PLACE[sig["op"]](x)), [x]


def forward_of(sig, training):
    """(function, data inputs, weight inputs) for one signature."""
    op, n = sig["op"], get(sig, "n")
    g = training
    if op == "conv2d":
        c, h, w, k = get(sig, "c"), get(sig, "h"), get(sig, "w"), get(sig, "k")
        groups = get(sig, "g")
        x = leaf(n, c, h, w, grad=g)
        wt = leaf(k, c // groups, get(sig, "r"), get(sig, "s"), grad=g)
        b = leaf(k, grad=g) if "bias" in sig["flags"] else None
        stride, dil = tuple(sig["fields"]["str"]), tuple(sig["fields"]["dil"])
        pad = symmetric_padding(sig)
        return (lambda: F.conv2d(x, wt, b, stride, pad, dil, groups)), [x], [t for t in (wt, b) if t is not None]
    if op == "linear":
        x = leaf(n, get(sig, "in"), grad=g)
        wt = leaf(get(sig, "out"), get(sig, "in"), grad=g)
        b = leaf(get(sig, "out"), grad=g) if "bias" in sig["flags"] else None
        return (lambda: F.linear(x, wt, b)), [x], [t for t in (wt, b) if t is not None]
    if op in ("maxpool", "avgpool"):
        x = leaf(n, get(sig, "c"), get(sig, "h"), get(sig, "w"), grad=g)
        kernel, stride = (get(sig, "r"), get(sig, "s")), tuple(sig["fields"]["str"])
        pad, ceil = symmetric_padding(sig), "ceil" in sig["flags"]
        pool = F.max_pool2d if op == "maxpool" else F.avg_pool2d
        return (lambda: pool(x, kernel, stride, pad, ceil_mode=ceil)), [x], []
    if op in ("global_avgpool", "global_maxpool", "adaptive_avg_pool"):
        x = leaf(n, get(sig, "c"), get(sig, "h"), get(sig, "w"), grad=g)
        if op == "global_maxpool":
            return (lambda: torch.amax(x, (2, 3))), [x], []
        size = (get(sig, "oh"), get(sig, "ow")) if op == "adaptive_avg_pool" else (1, 1)
        return (lambda: F.adaptive_avg_pool2d(x, size)), [x], []
    if op == "batch_norm":
        c = get(sig, "c")
        x = leaf(n, c, get(sig, "hw"), grad=g)
        wt, b = leaf(c, grad=g, param=True), leaf(c, grad=g, param=True)
        mean, var = torch.zeros(c), torch.ones(c)
        return (lambda: F.batch_norm(x, mean, var, wt, b, training=training)), [x], [wt, b]
    if op == "layer_norm":  # over each position's channels, laid out channels last (ConvNeXt's)
        c = get(sig, "c")
        x = leaf(n, get(sig, "hw"), c, grad=g)
        wt, b = leaf(c, grad=g, param=True), leaf(c, grad=g, param=True)
        return (lambda: F.layer_norm(x, (c,), wt, b, 1e-6)), [x], [wt, b]
    if op == "lrn":
        x = leaf(n, get(sig, "c"), get(sig, "hw"), grad=g)
        return (lambda: F.local_response_norm(x, get(sig, "size"))), [x], []
    if op in ACTIVATIONS or op in ("dropout", "softmax"):
        x = leaf(n, get(sig, "e"), grad=g)
        if op == "dropout":
            return (lambda: F.dropout(x, 0.5, training=True)), [x], []
        if op == "softmax":
            return (lambda: torch.softmax(x, 1)), [x], []
        return (lambda: ACTIVATIONS[op](x)), [x], []
    if op == "add":
        xs = [leaf(n, get(sig, "e"), grad=g) for _ in range(get(sig, "x"))]
        return (lambda: sum(xs[1:], xs[0])), xs, []
    if op == "mul":  # a squeeze-and-excitation's `scale * input`: c factors per sample
        e, c = get(sig, "e"), get(sig, "c")
        if e % c:
            raise ValueError(f"signature '{sig['text']}': {c} factors do not divide {e} elements")
        x, y = leaf(n, c, e // c, grad=g), leaf(n, c, 1, grad=g)
        return (lambda: y * x), [x, y], []
    if op == "concat":
        xs = [leaf(n, *shape, grad=g) for shape in sig["shapes"]]
        return (lambda: torch.cat(xs, 1)), xs, []
    if op == "channel_shuffle":  # torchvision's ShuffleNet: a view, transposed, made contiguous
        c, hw, groups = get(sig, "c"), get(sig, "hw"), get(sig, "g")
        if c % groups:
            raise ValueError(f"signature '{sig['text']}': {groups} groups do not divide {c} channels")
        x = leaf(n, c, hw, grad=g)
        return (lambda: x.view(n, groups, c // groups, hw).transpose(1, 2).contiguous().view(n, c, hw)), [x], []
    if op == "softmax_cross_entropy":
        classes = get(sig, "classes")
        x = leaf(n, classes, grad=g)
        labels = torch.randint(0, classes, (n,))
        return (lambda: F.cross_entropy(x, labels)), [x], []
    raise ValueError(f"signature '{sig['text']}': no PyTorch operator for '{op}'")


OPTIMIZERS = {"sgd": lambda ps: torch.optim.SGD(ps, lr=0.01),
              "sgd_momentum": lambda ps: torch.optim.SGD(ps, lr=0.01, momentum=0.9),
              "adam": lambda ps: torch.optim.Adam(ps, lr=1e-3)}


def optimizer_update(sig):
    params, tensors = get(sig, "p"), sig["fields"].get("t", [1])[0]
    largest = sig["fields"].get("max", [params // max(tensors, 1)])[0]
    if params <= 0 or not 0 < tensors <= params or not 0 < largest <= params - (tensors - 1):
        raise ValueError(f"optimizer signature '{sig['text']}' needs p > 0, 0 < t <= p and 0 < max <= p - t + 1")
    # The largest tensor as the model has it (whether it stays in cache matters), the rest
    # split evenly over the other tensors: element count and per-tensor launches are the
    # model's, the other sizes are not.
    rest, others = params - largest, tensors - 1
    sizes = [largest] + [rest // others + (1 if i < rest % others else 0) for i in range(others)]
    ps = [torch.nn.Parameter(torch.randn(n) * 0.01) for n in sizes]
    grads = [torch.randn(n) * 1e-3 for n in sizes]
    opt = OPTIMIZERS[sig["op"]](ps)

    def step():
        # zero_grad(set_to_none=True) then backward leave each .grad the freshly computed
        # tensor itself (AccumulateGrad steals it): no copy, no accumulation to time.
        for p, g in zip(ps, grads):
            p.grad = g
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


def first_touch(sig):
    """Writing n pages of e fp32 elements into a fresh mapping ("fresh": the pages faulted,
    zeroed by the kernel, written, unmapped) and into memory already resident ("warm").
    Their difference is what a page costs when a training step's or an inference pass's
    heap is trimmed and regrown (sim/perf/step_allocations.hpp).  The fresh phase maps its
    own private pages: a 128 MiB tensor from the allocator sometimes comes out of free heap
    space (the heap steady_state_allocator grows is never trimmed) and faults nothing: one
    calibration in three here measured fresh as fast as warm."""
    elements = get(sig, "n") * get(sig, "e")
    warm = torch.empty(elements)

    def fresh():
        pages = mmap.mmap(-1, elements * 4, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        tensor = torch.frombuffer(pages, dtype=torch.float32)
        tensor.fill_(1.0)
        del tensor
        pages.close()
    return {"fresh": fresh, "warm": lambda: warm.fill_(1.0)}


def inference_call(sig):
    """(function, data inputs) of the operator as inference calls it (eval mode; the caller
    holds no_grad), or None for operators inference skips.  Batch norm differs most from
    its training forward: it applies the running statistics instead of computing the
    batch's (0.22 against 2.1 ms for 8x32x112x112 on two Zen 5 threads)."""
    if sig["op"] in ("dropout", "softmax_cross_entropy"):
        return None
    return in_place_forward(sig, False) if sig["op"] in IN_PLACE else forward_of(sig, False)[:2]


def inference_forward(sig):
    """{"infer": the operator as an inference loop calls it, under no_grad}, or {} for
    operators inference skips."""
    call = inference_call(sig)
    if call is None:
        return {}

    def infer():
        with torch.no_grad():
            call[0]()
    return {"infer": infer}


def relu_after_work(sig, seconds, work_phase, after_phase):
    """A ReLU of n x e elements called back to back, `seconds` of the caller's own work
    (work_phase: CPU time of the calling thread), and that work then the ReLU (after_phase)."""
    x = torch.randn(get(sig, "n"), get(sig, "e"))

    def work():  # on the thread's own CPU clock, so that a busy host cannot shorten it
        start = time.thread_time()
        while time.thread_time() - start < seconds:
            pass

    def after():
        work()
        torch.relu(x)
    return {"back_to_back": lambda: torch.relu(x), work_phase: work, after_phase: after}


def team_wake(sig):
    """The ReLU on the request thread's team, after 100 us of the caller's own work (in a
    network, the framework's between operators), with that work alone to subtract.  The main
    thread runs PyTorch on the same threads first, as a server's does, so that libgomp keeps
    two teams and lets idle threads sleep."""
    start_team()
    return relu_after_work(sig, 100e-6, "idle", "after_idle")


def team_spin(sig):
    """The ReLU on the main thread's team, the process's only one, after 30 ms of the caller's
    own work, with that work alone to subtract.  In the wait the team's idle threads spin
    before they sleep (libgomp's GOMP_SPINCOUNT, 300,000 turns of a pause by default where the
    process's teams fit its cores), so the rows' CPU times hold the spin; a team that spins
    longer than the wait shows the wait."""
    return relu_after_work(sig, 30e-3, "long_idle", "after_long_idle")


def phases_of(sig, training):
    """{phase: callable} for one signature on the main thread (request_thread_phases has
    the request thread's)."""
    if sig["op"] == "first_touch":
        return first_touch(sig)
    if sig["op"] == "team_wake":
        return {}
    if sig["op"] == "team_spin":
        return team_spin(sig)
    if sig["op"] in OPTIMIZERS:
        return {"update": optimizer_update(sig)} if training else {}
    inference = inference_forward(sig)
    if not training:
        return inference
    fn, data, weights = forward_of(sig, True)
    phases = {"fwd": in_place_forward(sig, True)[0] if sig["op"] in IN_PLACE else fn, **inference}
    out = fn()  # the gradients come from an out-of-place graph of their own
    grad_out = torch.randn_like(out)
    if sig["op"] in ("add", "concat"):
        return phases  # autograd passes the gradient through as views
    if sig["op"] in ("conv2d", "linear"):
        phases["bwd_data"] = lambda: torch.autograd.grad(out, data, grad_out, retain_graph=True)
        phases["bwd_weights"] = lambda: torch.autograd.grad(out, weights, grad_out, retain_graph=True)
    else:
        phases["bwd_data"] = lambda: torch.autograd.grad(out, data + weights, grad_out, retain_graph=True)
    return phases


def steady_state_allocator():
    """Serves every output from warm heap memory, so that an operator's time carries no
    page faults; which pages a whole step or pass faults depends on the sequence of its
    allocations, and dlsim's heap model prices them (sim/perf/step_allocations.hpp).
    Timed alone from a cold start, a 25 MB output is instead mapped, or the heap trimmed
    and regrown, each call: batch norm on 32x64x56x56 took 9.4 ms with 3,763 faults per
    call alone against 4.1 ms with none inside ResNet-18.  So glibc maps nothing (every
    request comes from the heap, which the warm-up call grows), never trims the heap, and
    keeps one arena for every thread: a request thread's own arena is made of heaps of at
    most 64 MiB and maps anything larger afresh on every call (batch norm on 32x64x112x112,
    102.8 MB out, 48.8 ms with 25,089 faults a call against 6.6 ms warm).  Returns what was
    done, for the JSON context."""
    m_trim_threshold, m_mmap_max, m_arena_max = -1, -4, -8  # malloc.h
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        if not (libc.mallopt(m_mmap_max, 0) and libc.mallopt(m_trim_threshold, 2**31 - 1)
                and libc.mallopt(m_arena_max, 1)):
            return "default"
    except (OSError, AttributeError):
        return "default"
    return "glibc: no mappings, heap never trimmed, one arena for every thread"


def onednn_version():
    m = re.search(r"MKL-DNN v(\d+\.\d+\.\d+)", torch.__config__.show())
    return m.group(1) if m else "none"


def read_signatures(path):
    out, seen = [], set()
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and line not in seen:
                seen.add(line)
                out.append(line)
    return out


def request_thread_phases(sig):
    """{phase: callable} called from the request thread: the inference forward
    (infer_thread), or team_wake's phases; {} for anything else."""
    if sig["op"] == "team_wake":
        return team_wake(sig)
    if sig["op"] in ("first_touch", "team_spin", *OPTIMIZERS):
        return {}
    return {"infer_thread": fn for fn in inference_forward(sig).values()}


def time_signature(text, threads, training, a, request_thread):
    """Rows for one signature on `threads` threads: its main-thread phases, or with a
    request thread the phases called from there; a signature that cannot be run is one
    errored row, reported by the pass that times the mode's phases."""
    prefix = f"{text} | threads={threads} | "
    try:
        sig = parse_signature(text)
        if request_thread:
            phases = request_thread_phases(sig)
        else:
            phases = {} if a.request_thread else phases_of(sig, training)
    except (ValueError, RuntimeError) as e:
        reported_here = (request_thread is not None) == a.request_thread  # once, by the pass that times it
        return [{"name": prefix + "error", "run_type": "iteration", "error_occurred": True,
                 "error_message": str(e)}] if reported_here else []
    rows = []
    for phase, fn in phases.items():
        try:
            timed = (request_thread.submit(benchmark_file.time_calls, fn, a.repetitions, a.min_time).result()
                     if request_thread else benchmark_file.time_calls(fn, a.repetitions, a.min_time))
        except RuntimeError as e:
            rows.append({"name": prefix + phase, "run_type": "iteration", "error_occurred": True,
                         "error_message": str(e)})
            continue
        rows += benchmark_file.timing_rows(prefix + phase, timed, threads)
    if rows:
        print(f"torch_op_bench: {text} on {threads} thread(s)", file=sys.stderr)
    return rows


def pass_calls(texts):
    """([(signature, function, data inputs)] for every call of a pass that inference runs,
    with tensors of its own; {signature: error} for those that cannot be built)."""
    calls, failed = [], {}
    for text in texts:
        try:
            call = inference_call(parse_signature(text))
        except (ValueError, RuntimeError) as e:
            failed[text] = str(e)
            continue
        if call is not None:
            calls.append((text, *call))
    return calls, failed


def taking_turns(threads):
    """Runs each pass it is given on the next of `threads` (executors of one thread each), as
    a server's connections take turns under its model's lock, and waits for it."""
    turns = itertools.cycle(threads)
    return lambda one_pass: next(turns).submit(one_pass).result()


def start_team():
    """A parallel region on the calling thread's team, which starts it."""
    torch.ones(1 << 22).mul_(2.0)


def pinned_thread():
    """An executor of one thread pinned to the first core this process may use, before it
    runs anything: the OpenMP team it starts inherits the pin, so the team shares its core."""
    thread = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    thread.submit(os.sched_setaffinity, 0, {min(os.sched_getaffinity(0))}).result()
    return thread


def in_pass_rows(texts, threads, a, place, request_threads, shared_thread):
    """Rows for the calls of one pass (in_pass.py) on `threads` threads where `place` says
    (in_pass.PASS_THREADS): on the main thread, pass after pass on the first of the
    request threads, taking turns between them, or pass after pass on a thread whose team
    shares its core; a call that cannot be built is one errored row and the pass runs
    without it."""
    phase = in_pass.PASS_THREADS[place]
    calls, failed = pass_calls(texts)
    rows = [{"name": f"{text} | threads={threads} | {phase}", "run_type": "iteration", "error_occurred": True,
             "error_message": error} for text, error in failed.items()]
    run = (lambda: in_pass.time_passes(calls, a.repetitions, a.min_time))
    if place == "turns":
        timed = in_pass.time_passes(calls, a.repetitions, a.min_time, run=taking_turns(request_threads))
    elif place == "shared":
        # Beside the teams a server keeps (its main thread's, another request thread's), as
        # the other places run: with no other team libgomp lets a waiting thread spin 300,000
        # turns, here on the core its team shares (4 ms a parallel region on the Granite VM).
        start_team()
        request_threads[0].submit(start_team).result()
        shared_thread.submit(torch.set_num_threads, threads).result()
        timed = shared_thread.submit(run).result()
    else:
        timed = request_threads[0].submit(run).result() if place == "request" else run()
    for text, t in timed.items():
        rows += benchmark_file.timing_rows(f"{text} | threads={threads} | {phase}", t, threads)
    print(f"torch_op_bench: a pass of {len(calls)} calls on {threads} thread(s), {phase}", file=sys.stderr)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--signatures", required=True,
                    help="one dlsim kernel signature per line; with --in-pass, `dlsim model --format csv`")
    ap.add_argument("--threads", default="1", help="comma-separated thread counts")
    ap.add_argument("--inference", action="store_true", help="forward kernels only, under no_grad")
    ap.add_argument("--request-thread", action="store_true",
                    help="the inference forward only, called from a request thread (phase infer_thread)")
    ap.add_argument("--in-pass", action="store_true",
                    help="every call of an inference pass timed inside whole passes (phases infer_pass, "
                         "infer_pass_thread, infer_pass_turns and infer_pass_shared, in_pass.py)")
    ap.add_argument("--pass-threads", default=",".join(in_pass.PASS_THREADS),
                    help="with --in-pass, where the passes run, comma-separated: main (the main thread), request "
                         "(one request thread), turns (two request threads taking turns), shared (a request thread "
                         "whose team is pinned to its core)")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.05, help="seconds per repetition at least")
    ap.add_argument("--out", required=True, help="Google Benchmark JSON to write")
    a = ap.parse_args()
    try:
        threads = [int(t) for t in a.threads.split(",")]
        places = a.pass_threads.split(",")
        if not set(places) <= set(in_pass.PASS_THREADS):
            raise ValueError(f"--pass-threads {a.pass_threads}: expected some of {','.join(in_pass.PASS_THREADS)}")
        if a.in_pass:
            with open(a.signatures, newline="") as f:
                signatures = in_pass.read_pass(f, a.signatures)
        else:
            signatures = read_signatures(a.signatures)
    except (OSError, ValueError) as e:
        print(f"torch_op_bench: {e}", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    allocator = steady_state_allocator()
    training = not (a.inference or a.request_thread or a.in_pass)
    # One request thread, reused, as a server's; a second takes turns with it.
    request_threads = [concurrent.futures.ThreadPoolExecutor(max_workers=1) for _ in range(2)]
    shared_thread = pinned_thread() if a.in_pass and "shared" in places else None
    rows = []
    # The request threads' phases come after every main-thread one: once a second thread
    # has run a team, libgomp manages more threads than there are cores and lets idle
    # workers sleep at once, so every later parallel region of the main thread wakes its
    # team (Adam's update of ResNet-18 on two threads: 10 ms, 30 ms after one request-thread
    # call) where a training process, running one team, does not.
    for place in ([p for p in in_pass.PASS_THREADS if p in places] if a.in_pass else ["main", "request"]):
        for t in threads:
            torch.set_num_threads(t)
            for thread in request_threads:
                thread.submit(torch.set_num_threads, t).result()
            if a.in_pass:
                rows += in_pass_rows(signatures, t, a, place, request_threads, shared_thread)
                continue
            request_thread = request_threads[0] if place == "request" else None
            for text in signatures:
                rows += time_signature(text, t, training, a, request_thread)
    mode = ("passes" if a.in_pass else "training" if training
            else "inference from a request thread" if a.request_thread else "inference")
    context = benchmark_file.machine_context(
        __file__, framework="pytorch", torch_version=torch.__version__, onednn_version=onednn_version(),
        threads=a.threads, allocator=allocator, mode=mode)
    benchmark_file.write(a.out, context, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
