#!/usr/bin/env bash
# Measures this machine's CPU kernels for some networks and keeps the raw Google Benchmark
# JSON under calibration/raw/MACHINE/, one file per network and batch.
#   calibration/measure_cpu.sh MACHINE "keras_mnist:32,128 resnet18:8,32" [THREADS] [VIA] [MODE] [SUFFIX]
# A network is a zoo name or an ONNX export (validation/oracle/onnx/NAME_train.onnx), whose
# files are named NAME_bBATCH*.json.
# VIA is pytorch (default: PyTorch's own operators, kernels/pytorch/torch_op_bench.py) or
# onednn (oneDNN and BLAS directly, build/kernels/cpu/dlsim-cpu-bench).  MODE is training
# (default: every phase, the inference forward included) or inference (the pytorch
# operators' inference forward alone, into NETWORK_bBATCH_infer.json: what a profile
# timed before that phase existed needs for its inference predictions) or request-thread
# (that forward called from a thread other than the process's main one, as a server's
# request threads call it, into NETWORK_bBATCH_infer_thread.json).  SUFFIX, when given,
# goes before .json in either inference mode, so that one calibration can time a phase
# more than once and the fit pool the repetitions.  MODE in-pass times the inference forward
# of every call inside whole passes of the network, on the main thread, on a request thread
# on two request threads taking turns and on a request thread whose team shares its core
# (phases infer_pass, infer_pass_thread, infer_pass_turns and infer_pass_shared,
# kernels/pytorch/in_pass.py), into NETWORK_bBATCH_in_passSUFFIX.json; MODE in-pass-turns or
# in-pass-shared one of the last two alone, into NETWORK_bBATCH_in_pass_PLACESUFFIX.json.  Run it
# on an otherwise idle machine;
# the JSON context records the CPU, its flags, the library versions and the thread
# counts.  `dlsim calibrate --cpu` does the same and fits at once.
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
models=$2
threads=${3:-1,2}
via=${4:-pytorch}
mode=${5:-training}
suffix=${6:-}
out=calibration/raw/$machine
mkdir -p "$out"
for entry in $models; do
  model=${entry%%:*}
  batches=${entry#*:}
  name=$(basename "$model" .onnx)
  name=${name%_train}
  for batch in ${batches//,/ }; do
    sig=$(mktemp)
    listing=kernels
    [[ "$mode" = in-pass* ]] && listing=csv  # every call of the pass, in order
    build/sim/cli/dlsim model "$model" --batch "$batch" --format "$listing" > "$sig"
    echo "measuring $name at batch $batch, threads $threads, via $via, $mode"
    if [[ "$mode" = in-pass* ]]; then
      places=()
      [ "$mode" != in-pass ] && places=(--pass-threads "${mode#in-pass-}")
      /usr/bin/python3 kernels/pytorch/torch_op_bench.py --signatures "$sig" --threads "$threads" \
        --in-pass "${places[@]}" --repetitions 5 --min-time 0.2 \
        --out "$out/${name}_b${batch}_${mode//-/_}$suffix.json" 2> /dev/null
    elif [ "$mode" = request-thread ]; then
      /usr/bin/python3 kernels/pytorch/torch_op_bench.py --signatures "$sig" --threads "$threads" \
        --request-thread --repetitions 5 --out "$out/${name}_b${batch}_infer_thread$suffix.json" 2> /dev/null
    elif [ "$mode" = inference ]; then
      /usr/bin/python3 kernels/pytorch/torch_op_bench.py --signatures "$sig" --threads "$threads" \
        --inference --repetitions 5 --out "$out/${name}_b${batch}_infer$suffix.json" 2> /dev/null
    elif [ "$via" = pytorch ]; then
      /usr/bin/python3 kernels/pytorch/torch_op_bench.py --signatures "$sig" --threads "$threads" \
        --repetitions 5 --out "$out/${name}_b${batch}.json" 2> /dev/null
    else
      build/kernels/cpu/dlsim-cpu-bench --signatures "$sig" --threads "$threads" \
        --benchmark_repetitions=5 --benchmark_min_time=0.05 \
        --benchmark_out="$out/${name}_b${batch}.json" --benchmark_out_format=json > /dev/null
    fi
    rm -f "$sig"
  done
done
