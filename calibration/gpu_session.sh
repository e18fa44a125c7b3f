#!/usr/bin/env bash
# One short lease of a GPU machine, in order of what matters most, inside LIMIT seconds:
#   1. the machine's identity (nvidia-smi, PyTorch, cuDNN, CPU)
#   2. the host's Python serving stacks (kernels/net/py_transfer_bench.py, HTTP and gRPC
#      over loopback): the protocol calibration of the served rows below (PROTOCOLS=0 skips);
#      and its pages written warm and fresh (torch_op_bench.py's first_touch, one thread):
#      the catalog's write_bandwidth for the host's CPU, and what a fresh page costs there
#      and, within PASS_IDLE_S seconds a network (0, the default, skips it), the pass of each
#      network in PASS_NETS (ResNet-50 by default) after idling, woken, pinned to each vCPU,
#      taken in turns by four threads and beside other Python work and each serving stack
#      (kernels/pytorch/pass_after_idle.py, a diagnostic of the host's pace; its pinned
#      passes, and those of a second map after the serving runs, are the host's time per
#      launch on the day: validation/host_pace.py)
#   3. serving ground truth: validation/measure/serving_cpu.py --device cuda (each model in
#      SERVING_MODELS, ResNet-50 by default, in process and behind HTTP and gRPC on loopback,
#      sync and async, with each number of clients in SERVING_CLIENTS, one and then four, at
#      least SERVING_IMAGES images a configuration; first, where SERVING_REMOTE_MODEL names
#      one and the host has ip and tc (the H200 image of 2026-11-30 had neither), that model
#      behind study A's 5 Gbit/s client link with one client; every request's latency and
#      the server's phases in serving_gpu_latencies.jsonl), within SERVING_S
#   4. ground truth: validation/measure/pytorch_gpu.py (training and inference images/s,
#      inference latency, launch and copy microbenchmarks), within GROUND_TRUTH_S, its rows
#      narrowed by GROUND_TRUTH_ARGS (a repeat of a few rows measures a new lease's spread)
#   5. PyTorch's own operators on the GPU (kernels/pytorch/torch_gpu_op_bench.py) for the
#      ground truth's networks, within TORCH_OPS_S, in the order of TORCH_OPS_DTYPES
#      (fp16 fp32 tf32) and TORCH_OPS_BATCHES (32 256 128 1 8), for the networks in NETS
#   6. the kernel suite: calibration/measure_gpu.sh for the same networks, until the time
#      left runs out (batches 32, 256, 128, 1, 8; fp16, fp32, tf32); KERNEL_SUITE=0 skips it
# A stage given 0 seconds is skipped.  Everything lands in $OUT as eight files at most (what
# the device tool brings back, two folders deep): env.txt, serving_gpu.{csv,log},
# serving_gpu_latencies.jsonl, pytorch_gpu.{csv,log}, pytorch_gpu_micro.json and kernels.tgz,
# the raw JSON and the later stages' logs as one tarball:
#   OUT=/tmp/out LIMIT=560 calibration/gpu_session.sh
# Google Benchmark: from the system, or DLSIM_BENCHMARK_ROOT (a prefix carried along);
# PREBUILT names programs built elsewhere, used when building there fails.
# The device tool sends the checkout's tracked files and refuses more than 64 MiB; the raw
# calibration files alone are over 100 MB and none of this script reads them, so move
# calibration/raw out of the checkout for the call and back after it (2026-11-27).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:?OUT must name the folder for the results}
limit=${LIMIT:-560}
serving_s=${SERVING_S:-150}
ground_truth_s=${GROUND_TRUTH_S:-170}
torch_ops_s=${TORCH_OPS_S:-200}
torch_ops_dtypes=${TORCH_OPS_DTYPES:-fp16 fp32 tf32}
torch_ops_batches=${TORCH_OPS_BATCHES:-32 256 128 1 8}
nets=${NETS:-resnet50 vgg16 resnet152 inception_v3 alexnet}
mkdir -p "$out"
left() { echo $((limit - SECONDS)); }

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit,temperature.gpu \
    --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda,
                                    "cudnn", torch.backends.cudnn.version())'
  lscpu
  command -v nvcc && nvcc --version
  find /usr/local /opt /usr/lib/python3* -name cudnn.h -o -name nccl.h 2> /dev/null | head
} > "$out/env.txt" 2>&1

raw=$(mktemp -d)
# The machine's name in the rows, as pytorch_gpu.py names it: "NVIDIA H200" -> nvidia-h200.
gpu_machine=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
if [ "$serving_s" -gt 0 ]; then
  mkdir -p "$raw/protocols"
  for protocol in $([ "${PROTOCOLS:-1}" = 0 ] || echo http grpc); do
    timeout 60 python3 kernels/net/py_transfer_bench.py --protocol "$protocol" --repetitions 3 --min-time 0.1 \
      --max-bytes $((32 << 20)) --out "$raw/protocols/python_${protocol}_loopback.json" 2>> "$out/serving_gpu.log"
  done
  timeout 60 python3 kernels/pytorch/torch_op_bench.py --signatures <(echo "first_touch fp32 n32768 e1024") \
    --threads 1 --out "$raw/protocols/host_first_touch.json" 2>> "$out/serving_gpu.log"
  echo "protocols done at $SECONDS s"
  # A pass after an idle pause, woken, pinned to each CPU, beside other Python work
  # (PASS_ARGS narrows it, e.g. "--batches 1 --modes pin,turns --pin-passes 40"), for each
  # network in PASS_NETS (ResNet-50's map is pass_after_idle.json, another's
  # pass_after_idle_NET.json): two networks' passes on one host tell its fixed time a pass
  # from its time a launch, which one network's cannot (ResNet-152 on the 2026-11-30 H200).
  for net in ${PASS_NETS:-resnet50}; do
    name=pass_after_idle_$net.json
    [ "$net" = resnet50 ] && name=pass_after_idle.json
    # shellcheck disable=SC2086  # PASS_ARGS is a list of options
    [ "${PASS_IDLE_S:-0}" -gt 0 ] && timeout "$PASS_IDLE_S" python3 kernels/pytorch/pass_after_idle.py --device cuda \
      --net "$net" ${PASS_ARGS:-} --out "$raw/protocols/$name" 2>> "$out/serving_gpu.log"
  done
  echo "passes after idle done at $SECONDS s"
  serving_until=$((SECONDS + serving_s))
  serve() {  # one serving_cpu.py run; its rows join $out/serving_gpu.csv at once, so a lease
    local name=$1 seconds=$2  # cut short keeps every configuration that finished
    shift 2
    PYTHONUNBUFFERED=1 timeout "$seconds" python3 validation/measure/serving_cpu.py \
      --device cuda --machine "$gpu_machine" --server-threads 4 --batches 1,8,32 --requests 32 \
      --images "${SERVING_IMAGES:-512}" --latencies "$out/serving_gpu_latencies.jsonl" \
      --out "$raw/serving_gpu_$name.csv" "$@" >> "$out/serving_gpu.log" 2>&1
    cat "$raw"/serving_gpu_*.csv | awk 'NR == 1 || !/^source,/' > "$out/serving_gpu.csv"
  }
  # Study A's client link, where the host can make one (ip and tc): one client.
  remote=${SERVING_REMOTE_MODEL:-}
  if [ -n "$remote" ] && command -v ip > /dev/null && command -v tc > /dev/null; then
    serve "${remote}_remote" "${SERVING_REMOTE_S:-120}" --model "$remote" --concurrency 1 --deployments remote
    echo "remote serving done at $SECONDS s"
  fi
  # Per model, one client first (no two requests contend for the server's interpreter), then four.
  for model in ${SERVING_MODELS:-resnet50}; do
    for concurrency in ${SERVING_CLIENTS:-1 4}; do
      seconds=$((serving_until - SECONDS))  # never 0: `timeout 0` waits for ever
      [ "$seconds" -gt 0 ] || continue
      deployments=local
      [ "$concurrency" -gt 1 ] || deployments=in-process,local
      serve "${model}_c$concurrency" "$seconds" --model "$model" --concurrency "$concurrency" \
        --deployments $deployments
    done
  done
  echo "serving done at $SECONDS s"
  # The pass pinned to each vCPU again, after the serving runs (which vCPUs are slow
  # changes within minutes: validation/host_pace.py takes the host's pace from either map).
  [ "${PASS_IDLE_S:-0}" -gt 0 ] && timeout 40 python3 kernels/pytorch/pass_after_idle.py --device cuda \
    --net resnet50 --batches 1 --modes pin --pin-passes 40 --out "$raw/protocols/pass_pinned_after.json" \
    2>> "$out/serving_gpu.log"
fi

if [ "$ground_truth_s" -gt 0 ]; then
  # shellcheck disable=SC2086  # GROUND_TRUTH_ARGS is a list of options
  PYTHONUNBUFFERED=1 timeout $((ground_truth_s + 60)) python3 validation/measure/pytorch_gpu.py \
    --out "$out/pytorch_gpu.csv" --micro "$out/pytorch_gpu_micro.json" --deadline "$ground_truth_s" \
    ${GROUND_TRUTH_ARGS:---extra resnet50:train:128:tf32,vgg16:train:128:tf32,resnet50:infer:32:tf32,vgg16:infer:32:tf32} \
    > "$out/pytorch_gpu.log" 2>&1
  echo "ground truth done at $SECONDS s"
fi

if [ -n "${DLSIM_BENCHMARK_ROOT:-}" ]; then
  export LD_LIBRARY_PATH="$DLSIM_BENCHMARK_ROOT/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
# PyTorch's operators: one list in order of need, each signature once, one process.
list=$(mktemp)
for dtype in $torch_ops_dtypes; do
  for batch in $torch_ops_batches; do
    for net in $nets; do
      grep -hv '^#' "calibration/gpu_signatures/${net}_${dtype}_b${batch}.txt" 2> /dev/null
    done
  done
done | awk '!seen[$0]++' > "$list"
if [ "$torch_ops_s" -gt 0 ]; then
  timeout $((torch_ops_s + 60)) python3 kernels/pytorch/torch_gpu_op_bench.py --signatures "$list" \
    --repetitions 3 --calls 5 --deadline "$torch_ops_s" --out "$raw/torch_ops.json" 2> "$raw/torch_ops.log"
  echo "torch ops: exit $? at $SECONDS s" >> "$raw/torch_ops.log"
fi
rm -f "$list"
echo "PyTorch's operators done at $SECONDS s"

kernel_s=$(($(left) - 25))
if [ "${KERNEL_SUITE:-1}" = 1 ] && [ "$kernel_s" -gt 60 ]; then
  OUT=$raw DEADLINE=$((kernel_s - 75)) BATCHES="32 256 128 1 8" DTYPES="fp16 fp32 tf32" \
    NETS="$nets" \
    timeout "$kernel_s" calibration/measure_gpu.sh > "$raw/measure_gpu.log" 2>&1
  echo "kernels done at $SECONDS s (exit $?)"
fi
tar czf "$out/kernels.tgz" -C "$raw" . && rm -rf "$raw"
echo "session done at $SECONDS s"
