#!/usr/bin/env bash
# One short lease of a GPU machine, in order of what matters most, inside LIMIT seconds:
#   1. the machine's identity (nvidia-smi, PyTorch, cuDNN, CPU)
#   2. ground truth: validation/measure/pytorch_gpu.py (training and inference images/s,
#      inference latency, launch and copy microbenchmarks), within GROUND_TRUTH_S
#   3. PyTorch's own operators on the GPU (kernels/pytorch/torch_gpu_op_bench.py) for the
#      ground truth's networks, within TORCH_OPS_S (batches 32, 1, 128, 256; fp32, fp16, tf32)
#   4. the kernel suite: calibration/measure_gpu.sh for the same networks, until the time
#      left runs out (batches 32, 1, 256, 128, 8; fp32, fp16, tf32)
# Everything lands in $OUT as at most seven files (the device tool brings back eight at most,
# two folders deep), the kernel JSON as one tarball:
#   OUT=/tmp/out LIMIT=560 calibration/gpu_session.sh
# Google Benchmark: from the system, or DLSIM_BENCHMARK_ROOT (a prefix carried along);
# PREBUILT names programs built elsewhere, used when building there fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:?OUT must name the folder for the results}
limit=${LIMIT:-560}
ground_truth_s=${GROUND_TRUTH_S:-170}
torch_ops_s=${TORCH_OPS_S:-200}
nets="resnet50 vgg16 resnet152 inception_v3 alexnet"
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

PYTHONUNBUFFERED=1 timeout $((ground_truth_s + 60)) python3 validation/measure/pytorch_gpu.py \
  --out "$out/pytorch_gpu.csv" --micro "$out/pytorch_gpu_micro.json" --deadline "$ground_truth_s" \
  --extra "resnet50:train:128:tf32,vgg16:train:128:tf32,resnet50:infer:32:tf32,vgg16:infer:32:tf32" \
  > "$out/pytorch_gpu.log" 2>&1
echo "ground truth done at $SECONDS s"

if [ -n "${DLSIM_BENCHMARK_ROOT:-}" ]; then
  export LD_LIBRARY_PATH="$DLSIM_BENCHMARK_ROOT/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
raw=$(mktemp -d)
# PyTorch's operators, one file per network, type and batch, each signature once.
mkdir -p "$raw/torch-ops"
seen=$(mktemp)
list=$(mktemp)
ops_until=$((SECONDS + torch_ops_s))
for batch in 32 1 128 256; do
  for dtype in fp32 fp16 tf32; do
    for net in $nets; do
      name=${net}_${dtype}_b${batch}
      [ "$SECONDS" -lt "$ops_until" ] || continue
      grep -v '^#' "calibration/gpu_signatures/$name.txt" | grep -vxF -f "$seen" > "$list" || continue
      cat "$list" >> "$seen"
      timeout $((ops_until - SECONDS + 30)) python3 kernels/pytorch/torch_gpu_op_bench.py --signatures "$list" \
        --repetitions 3 --calls 5 --out "$raw/torch-ops/$name.json" 2>> "$out/torch_ops.log"
      echo "$name: exit $? at $SECONDS s" >> "$out/torch_ops.log"
    done
  done
done
rm -f "$seen" "$list"
echo "PyTorch's operators done at $SECONDS s"

kernel_s=$(($(left) - 25))
if [ "$kernel_s" -gt 60 ]; then
  OUT=$raw DEADLINE=$((kernel_s - 75)) BATCHES="32 1 256 128 8" DTYPES="fp32 fp16 tf32" \
    NETS="$nets" \
    timeout "$kernel_s" calibration/measure_gpu.sh > "$out/measure_gpu.log" 2>&1
  echo "kernels done at $SECONDS s (exit $?)"
fi
tar czf "$out/kernels.tgz" -C "$raw" . && rm -rf "$raw"
echo "session done at $SECONDS s"
