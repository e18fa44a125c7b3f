#!/usr/bin/env bash
# Measures this machine's GPU kernels (cuDNN, cuBLASLt, NCCL, copies) for the zoo networks and
# keeps the raw Google Benchmark JSON under $OUT/MACHINE/, one file per network, data type
# and batch.  Run from anywhere on the GPU machine (H100 or H200, 16 cores):
#   calibration/measure_gpu.sh [MACHINE]          (default: the GPU's name, e.g. nvidia-h100-80gb-hbm3)
# It builds kernels/gpu on its own (dlsim itself is not needed there: it needs SimGrid), so the
# signature lists come pre-generated from calibration/gpu_signatures.sh.  Environment:
#   SIGNATURES_DIR  the lists, <net>_<dtype>_b<batch>.txt (default calibration/gpu_signatures)
#   OUT             where MACHINE/ goes (default calibration/raw)
#   DEADLINE        seconds after which no new file starts (default 840); the rest are listed as skipped
#   REPS ITERS WARMUP  rows per kernel, calls per row, untimed calls first (default 5 5 3)
#   BATCHES DTYPES NETS  what to measure, in that order of priority
#   BUILD_DIR       (default build-gpu)
#   PREBUILT        a folder holding dlsim-gpu-bench and dlsim-gpu-info built elsewhere, used
#                   when building here fails
#   DLSIM_CUDA_ROOT DLSIM_CUDNN_ROOT DLSIM_NCCL_ROOT DLSIM_BENCHMARK_ROOT  override the found libraries
# Exits non-zero only when the build fails.  It never changes GPU settings (no persistence
# mode, application clocks or clock locks): the GPU is measured as the machine runs it.
#
# Time: the zoo networks' lists hold about 9,700 distinct signatures (27 data type and batch
# pairs of ~357, plus 30 optimizer updates that do not depend on the batch); a signature
# already measured in an earlier file of the run is not measured again.  That is about
# 23,000 phases (convolutions and linear layers 3, other layers 2, add and concat 1), each 3
# warm-up calls plus 5 repetitions of 5 timed calls (28 calls, about 650,000 in all, mostly
# well under a millisecond), plus about 11,000 cuDNN algorithm searches (the costly part at
# large batches) and 270 program starts of about 1.5 s.  Estimated per data type and batch:
# ~20 s at batch 1 to ~90 s at batch 256 in fp32, less in fp16: about 13 minutes for all of
# it on an H100, uncertain by a factor of two.  The four networks known from their ONNX
# export (depthwise and grouped convolutions, products, hard swish, the channel shuffle) come
# last and add about 6,800 signatures more (16,500 in all, 378 files).  Hence the deadline,
# and the order: batches 32, 1 and 256 first, all data types for each, so that what a short
# run skips lies between measured ones.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# A location from PyTorch's wheels (python package nvidia.cudnn, nvidia.nccl), if installed.
wheel_dir() {
  python3 - "$1" 2> /dev/null << 'PY'
import importlib, sys
print(list(importlib.import_module(sys.argv[1]).__path__)[0])
PY
}

first_with() {  # first_with FILE DIR...: the first DIR holding FILE
  local file=$1 dir
  shift
  for dir in "$@"; do
    if [ -n "$dir" ] && [ -e "$dir/$file" ]; then
      echo "$dir"
      return
    fi
  done
}

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -1)
default_machine=$(echo "${gpu_name:-gpu}" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/-$//')
machine=${1:-$default_machine}
signatures_dir=${SIGNATURES_DIR:-calibration/gpu_signatures}
dest=${OUT:-calibration/raw}/$machine
deadline=${DEADLINE:-840}
reps=${REPS:-5}
iters=${ITERS:-5}
warmup=${WARMUP:-3}
batches=${BATCHES:-"32 1 256 8 128 2 64 4 16"}
dtypes=${DTYPES:-"fp32 fp16 tf32"}
nets=${NETS:-"resnet50 resnet152 vgg16 vgg19 inception_v3 alexnet googlenet keras_mnist keras_cifar10 cifar10_3block
  efficientnet_b0 mobilenet_v3_large resnext101_32x4d shufflenet_v2_x1_0"}
build=${BUILD_DIR:-build-gpu}

nvcc_path=$(command -v nvcc || true)
cuda_root=${DLSIM_CUDA_ROOT:-$(first_with bin/nvcc "${nvcc_path%/bin/nvcc}" /usr/local/cuda)}
cuda_root=${cuda_root:-/usr/local/cuda}
cudnn_wheel=$(wheel_dir nvidia.cudnn)
nccl_wheel=$(wheel_dir nvidia.nccl)
cudnn_root=${DLSIM_CUDNN_ROOT:-$(first_with include/cudnn.h "$cudnn_wheel" "$cuda_root")}
nccl_root=${DLSIM_NCCL_ROOT:-$(first_with include/nccl.h "$nccl_wheel" "$cuda_root")}
cudnn_root=${cudnn_root:-$cuda_root}
nccl_root=${nccl_root:-$cuda_root}
# Only the GPU this runs on: sm_90 on H100 and H200 keeps the build short.
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -1 | tr -d '.')
echo "CUDA $cuda_root, cuDNN $cudnn_root, NCCL $nccl_root, architecture ${arch:-80;90}"

build_args=(-DCMAKE_BUILD_TYPE=Release -DDLSIM_CUDA_ROOT="$cuda_root" -DDLSIM_CUDNN_ROOT="$cudnn_root"
  -DDLSIM_NCCL_ROOT="$nccl_root" -DCMAKE_CUDA_ARCHITECTURES="${arch:-80;90}")
[ -n "${DLSIM_BENCHMARK_ROOT:-}" ] && build_args+=(-DDLSIM_BENCHMARK_ROOT="$DLSIM_BENCHMARK_ROOT")
if ! cmake -S kernels/gpu -B "$build" "${build_args[@]}" || ! cmake --build "$build" -j16; then
  if [ -n "${PREBUILT:-}" ] && [ -x "$PREBUILT/dlsim-gpu-bench" ]; then
    echo "measure_gpu.sh: building kernels/gpu failed; using the programs in $PREBUILT" >&2
    build=$PREBUILT
  else
    echo "measure_gpu.sh: building kernels/gpu failed (Google Benchmark missing? install libbenchmark-dev" \
      "or build it and set DLSIM_BENCHMARK_ROOT)" >&2
    exit 1
  fi
fi
export LD_LIBRARY_PATH="$cudnn_root/lib:$nccl_root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench=$build/dlsim-gpu-bench

# Benchmark JSON only at the top of $dest (dlsim calibrate reads $dest/*.json); the rest in about/.
about=$dest/about
mkdir -p "$about/logs"
nvidia-smi -q > "$about/nvidia-smi-q.txt" 2>&1
"$build/dlsim-gpu-info" > "$about/dlsim-gpu-info.json"
case $? in
  0) ;;
  77)
    echo "measure_gpu.sh: no usable GPU here; nothing measured"
    exit 0
    ;;
  *) echo "measure_gpu.sh: dlsim-gpu-info failed; measuring anyway" >&2 ;;
esac

timing=(--warmup "$warmup" --iterations "$iters" --benchmark_repetitions="$reps" --benchmark_out_format=json)
measured=() skipped=() failed=()

run_bench() {  # run_bench NAME ARGS...: one program run, its JSON $dest/NAME.json
  local name=$1 start=$SECONDS
  shift
  if "$bench" "$@" "${timing[@]}" --benchmark_out="$dest/$name.json" > "$about/logs/$name.log" 2>&1; then
    measured+=("$name")
  else
    failed+=("$name")
  fi
  local errors
  errors=$(grep -c '"error_occurred": true' "$dest/$name.json" 2> /dev/null)
  echo "$name: $((SECONDS - start)) s, ${errors:-0} rows failed"
}

# The copy and all-reduce sweeps do not depend on a network: once.
run_bench copies --copies
run_bench allreduce --allreduce

seen=$(mktemp)
list=$(mktemp)
trap 'rm -f "$seen" "$list"' EXIT
for batch in $batches; do
  for dtype in $dtypes; do
    for net in $nets; do
      name=${net}_${dtype}_b${batch}
      file=$signatures_dir/$name.txt
      if [ ! -f "$file" ]; then
        echo "$name: no $file (calibration/gpu_signatures.sh writes it)" >&2
        continue
      fi
      if [ "$SECONDS" -ge "$deadline" ]; then
        skipped+=("$name")
        continue
      fi
      grep -v '^#' "$file" | grep -vxF -f "$seen" > "$list"
      if [ ! -s "$list" ]; then
        echo "$name: every signature measured already"
        continue
      fi
      cat "$list" >> "$seen"
      run_bench "$name" --signatures "$list"
    done
  done
done

{
  echo "machine $machine, GPU ${gpu_name:-unknown}, $(date -u +%Y-%m-%dT%H:%M:%SZ), $SECONDS s"
  echo "measured (${#measured[@]}): ${measured[*]}"
  echo "program failed (${#failed[@]}): ${failed[*]}"
  echo "skipped at the ${deadline} s deadline (${#skipped[@]}): ${skipped[*]}"
} | tee "$about/summary.txt"
