#!/usr/bin/env bash
# The whole calibration of a CPU machine that will train and serve, as every development VM
# has been calibrated (calibration/README.md): PyTorch's operators for five networks on 1
# and 2 threads (every phase), eight activations, the average pooling, the concatenation and
# thin convolutions on grids of sizes, ResNet-18's inference forward on a request thread,
# the five networks' inference forwards timed inside whole passes
# (kernels/pytorch/in_pass.py), the served network's (ResNet-18's) inference forwards timed
# again, each way, at the start and at the end (the fit pools each phase's three samples: a
# VM's pace drifts over twenty minutes, and one sample priced ResNet-18's two-thread batch 8
# anywhere in 34-41 images/s while the runs in process kept to 40-45), the price of a page
# faulted afresh alone and inside ResNet-18's passes (kernels/pytorch/page_price.py), the
# wake-up of a thread team, a trace of the stalls that hold a team up and of its speed
# between (pooled in the profile with the traces of the kind's earlier calibrations), and
# the Python serving stack over loopback and across a 5 Gbit/s veth link, as it serves
# ResNet-18 (each request after 20 ms idle and answered after the network's pass, which
# kernels/net/py_transfer_bench.py leaves out of its time); then the profiles fitted from
# them.
#   calibration/calibrate_cpu_machine.sh MACHINE CATALOG_CPU
# writes calibration/raw/MACHINE-pytorch/, calibration/raw/MACHINE-python-serving/,
# calibration/profiles/MACHINE-pytorch.toml and profiles/protocols/python-{grpc,http}-MACHINE.toml.
# MACHINE names the machine (e.g. devbox-epyc-milan-2vcpu), CATALOG_CPU its catalog entry.
# Run it as root (the veth link needs network namespaces) on an otherwise idle machine,
# after a build (build/sim/cli/dlsim); it takes 35-50 minutes on 2 vCPUs (49 on the Zen 3 kind).
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
catalog_cpu=$2
py=/usr/bin/python3
ops=calibration/raw/$machine-pytorch
stack=calibration/raw/$machine-python-serving
mkdir -p "$ops" "$stack"

networks="keras_mnist:32,128 keras_cifar10:32,128 resnet18:1,8,32 resnet50:4,8 vgg16:2,4"
request_thread() { calibration/measure_cpu.sh "$machine-pytorch" "resnet18:1,8,32" 1,2 pytorch request-thread "$1"; }
served_forwards() {
  calibration/measure_cpu.sh "$machine-pytorch" "resnet18:1,8,32" 1,2 pytorch inference "$1"
  request_thread "$1"
  calibration/measure_cpu.sh "$machine-pytorch" "resnet18:1,8,32" 1,2 pytorch in-pass "$1"
}

served_forwards _start
calibration/measure_cpu.sh "$machine-pytorch" "$networks" 1,2
request_thread ""
calibration/measure_cpu.sh "$machine-pytorch" "$networks" 1,2 pytorch in-pass
# Activations that none of the five networks has, timed on a grid of sizes: their
# arithmetic, not their bytes, decides (SiLU took 12x a ReLU's time on the same elements on
# the Zen 3 VM, 2026-11-29), so no other operator can stand in for them.
activations() {
  for op in silu gelu sigmoid tanh hardswish hardsigmoid relu6 leaky_relu; do
    for n in 1 8 32; do for e in 3136 25088 100352 401408; do echo "$op fp32 n$n e$e"; done; done
  done
}
$py kernels/pytorch/torch_op_bench.py --signatures <(activations) --threads 1,2 --out "$ops/activations.json" 2> /dev/null
# The grid a function prints (its name, $1), inference only on one and two threads, timed in
# loops ($ops/$1.json; each signature once) and inside a pass of them ($ops/$1_in_pass.json;
# every call, as a network repeats one).
in_loops() {
  $py kernels/pytorch/torch_op_bench.py --signatures <($1 | awk '!seen[$0]++') --threads 1,2 --inference \
    --out "$ops/$1.json" 2> /dev/null
}
in_a_pass() {
  $py kernels/pytorch/torch_op_bench.py --signatures <(echo kernel,train_only; $1 | sed 's/.*/"&",0/') \
    --threads 1,2 --in-pass --out "$ops/$1_in_pass.json" 2> /dev/null
}
# Average poolings, which none of the five networks has, on a grid of shapes (a window of 3
# at stride 1, as Inception's branches pool; of 2 and 3 at stride 2, as DenseNet's
# transitions and stems do), inference only (--inference: on the main thread and on a
# request thread): PyTorch's average pooling took a third of a max pooling's time on the
# same shape on the Granite Rapids VM (2026-11-30), so the max pooling cannot stand in for it.
poolings() {
  for n in 1 8 32; do
    for shape in "c64 h56 w56" "c128 h28 w28" "c256 h14 w14" "c512 h7 w7"; do
      for window in "r3 s3 pad1,1,1,1 str1,1" "r2 s2 pad0,0,0,0 str2,2" "r3 s3 pad1,1,1,1 str2,2"; do
        echo "avgpool fp32 n$n $shape $window"
      done
    done
  done
}
in_loops poolings
# Concatenations along channels, which none of the five networks has, on a grid of shapes
# (2, 4 and 8 inputs, each above and below PyTorch's grain of 32,768 values), in loops and
# inside a pass of them, on the main thread and a request thread: PyTorch copies each input
# of one in a parallel region of its own, so beside another team each costs a wake (about
# 100 us on the Granite Rapids VM, 2026-11-30), which no in-place activation of the same
# bytes pays: GoogLeNet's and Inception-v3's ran 2x their ReLU stand-in's price.
concats() {
  for n in 1 8 32; do
    for inputs in "2 64x56x56" "4 32x56x56" "2 128x28x28" "4 64x28x28" "8 32x28x28" "2 256x14x14" \
        "4 128x14x14" "2 512x7x7" "4 256x7x7"; do
      set -- $inputs
      echo "concat fp32 n$n$(printf " $2%.0s" $(seq "$1"))"
    done
  done
}
in_loops concats
in_a_pass concats
# Thin convolutions (1x1 of 40-600 channels, 3x3 of 16-112, depthwise 3x3) and the batch
# norms after them, at 7x7 to 56x56, batches 1 and 8, none of them a served network's shape,
# in loops and inside a pass of them: the five networks' convolutions all take milliseconds,
# so without these the fits' fixed cost a call is the intercept of large kernels (615 us a
# convolution on two threads on a request thread on the Granite Rapids VM, 341 us with them),
# and DenseNet's, ShuffleNet's and SqueezeNet's served passes were priced 12-86% slow.
# Calls $1 with each batch (1, 8) and side (7, 14, 28, 56) of the thin grids below.
at_thin_shapes() {
  for n in 1 8; do
    for side in 7 14 28 56; do "$1" "$n" "$side"; done
  done
}
thin_convs_at() {
  local n=$1 side=$2
  for ck in "40 40" "80 80" "152 152" "320 80" "600 120"; do
    set -- $ck; echo "conv2d fp32 n$n c$1 h$side w$side k$2 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1"
  done
  for ck in "16 16" "48 24" "112 40"; do
    set -- $ck; echo "conv2d fp32 n$n c$1 h$side w$side k$2 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1"
  done
  for c in 44 92 176; do
    echo "conv2d fp32 n$n c$c h$side w$side k$c r3 s3 pad1,1,1,1 str1,1 dil1,1 g$c"
    echo "batch_norm fp32 n$n c$c hw$((side * side))"
  done
}
thin_convs() { at_thin_shapes thin_convs_at; }
in_loops thin_convs
in_a_pass thin_convs
# Squeeze-and-excitation blocks and the small operators around thin convolutions (batch
# norm, ReLU, SiLU, hard swish, global average pooling, the two 1x1 convolutions on one
# pixel, sigmoid, hard sigmoid, the channel-wise scale, the residual addition), 21-457
# channels at 7x7 to 56x56, batches 1 and 8, none of them a served network's shape, in
# loops and inside a pass of them: the five networks' small operators are few and some
# follow a linear layer, after which a ReLU of 8,192 values took 200-330 us in VGG-16's
# pass, so the ReLU's fixed cost inside a pass was fitted at 42 us where RegNet-Y's
# passes took 5-50 us a ReLU (Granite Rapids VM, 2026-11-30).
squeeze_excitation_at() {
  local n=$1 side=$2
  for c in 21 53 101 229 457; do
    local e=$((c * side * side)) r=$((c / 4))
    echo "batch_norm fp32 n$n c$c hw$((side * side))"
    for op in relu silu hardswish; do echo "$op fp32 n$n e$e"; done
    echo "global_avgpool fp32 n$n c$c h$side w$side oh1 ow1"
    echo "conv2d fp32 n$n c$c h1 w1 k$r r1 s1 pad0,0,0,0 str1,1 dil1,1 g1 bias"
    echo "relu fp32 n$n e$r"
    echo "conv2d fp32 n$n c$r h1 w1 k$c r1 s1 pad0,0,0,0 str1,1 dil1,1 g1 bias"
    for op in sigmoid hardsigmoid; do echo "$op fp32 n$n e$c"; done
    echo "mul fp32 n$n e$e c$c"
    echo "add fp32 n$n e$e x2"
  done
}
squeeze_excitation() { at_thin_shapes squeeze_excitation_at; }
in_loops squeeze_excitation
in_a_pass squeeze_excitation
$py kernels/pytorch/torch_op_bench.py --signatures <(echo "first_touch fp32 n32768 e1024") \
  --threads 1,2 --out "$ops/first_touch.json" 2> /dev/null
$py kernels/pytorch/page_price.py --networks resnet18:8,32 --threads 1,2 --out "$ops/page_price.json" 2> /dev/null
$py kernels/pytorch/torch_op_bench.py --signatures <(echo "team_wake fp32 n1 e200704") \
  --threads 1,2 --repetitions 15 --min-time 0.1 --out "$ops/team_wake.json" 2> /dev/null
# Two minutes a thread count: on the Zen 5 kind a minute's trace on one thread (2026-11-28
# 00:21) found its slowest windows 1.48x the median and P99 1.20x, where served passes on
# one thread ran 1.6-1.9x slower for seconds at a time, 10% of their time.  Two minutes
# catch more of such spells, not all: the host decides when they come (calibration/README.md).
$py kernels/pytorch/stall_trace.py --threads 1,2 --seconds 120 --out "$ops/stall_trace.json"
for protocol in grpc http; do
  for link in loopback veth; do
    $py kernels/net/py_transfer_bench.py --protocol $protocol --link $link --idle-ms 20 --handler-model resnet18 \
      --out "$stack/python_${protocol}_${link}.json"
  done
done
served_forwards _end

# The stalls pool this trace with every earlier one of the machine's kind (stall_history.py).
mapfile -t operators < <(ls "$ops"/*.json | grep -v '/stall_trace\.json$')
history=$($py calibration/stall_history.py "$ops/stall_trace.json" --cpu "$catalog_cpu")
mapfile -t stalls <<< "$history"
build/sim/cli/dlsim calibrate "${operators[@]}" "${stalls[@]}" --machine "$machine" --catalog-cpu "$catalog_cpu" \
  -o "calibration/profiles/$machine-pytorch.toml"
for protocol in grpc http; do
  build/sim/cli/dlsim calibrate "$stack/python_${protocol}_loopback.json" --machine "$machine" \
    --catalog-cpu "$catalog_cpu" -o "calibration/profiles/protocols/python-$protocol-$machine.toml"
done
