# What a CPU calibration times, sourced by calibrate_cpu_machine.sh, time_pass_place.sh and
# probe_pace.sh: the networks (NAME:BATCHES) whose operators and passes it times, and the
# grids of operators none of them has, each a function that prints one kernel signature a
# line.
networks="keras_mnist:32,128 keras_cifar10:32,128 resnet18:1,8,32 resnet50:4,8 vgg16:2,4"
# Exits 2 unless the calibration folder $2 exists, naming the script ($1) that needs it.
require_calibration() {
  if [ ! -d "$2" ]; then
    echo "$1: no calibration folder $2; calibrate the machine first (calibrate_cpu_machine.sh)" >&2
    exit 2
  fi
}
# The grids timed inside a pass of them as well as in loops.
pass_grids="concats thin_convs squeeze_excitation position_linears"

# The grid a function prints (its name, $1) as a pass: `dlsim model --format csv`'s columns
# (kernels/pytorch/in_pass.py), every call in order, as a network repeats one.
as_pass() { echo kernel,train_only; $1 | sed 's/.*/"&",0/'; }
# Times grid $1 inside passes of it on one and two threads into $2; any further arguments go
# to torch_op_bench.py (--pass-threads PLACES).
grid_in_a_pass() {
  local grid=$1 out=$2
  shift 2
  /usr/bin/python3 kernels/pytorch/torch_op_bench.py --signatures <(as_pass "$grid") --threads 1,2 --in-pass "$@" \
    --out "$out" 2> /dev/null
}

# Activations that none of the five networks has, timed on a grid of sizes: their
# arithmetic, not their bytes, decides (SiLU took 12x a ReLU's time on the same elements on
# the Zen 3 VM, 2026-11-29), so no other operator can stand in for them.
activations() {
  for op in silu gelu sigmoid tanh hardswish hardsigmoid relu6 leaky_relu; do
    for n in 1 8 32; do for e in 3136 25088 100352 401408; do echo "$op fp32 n$n e$e"; done; done
  done
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

# Linear layers of many rows, as a channels-last block's or a transformer's MLP runs over
# every position or token: widths 64-4,096 at the 4x ratio of those MLPs, each way, weights
# of 64 KB to 16 MB, each at two row counts making 0.12 and 0.48 GFLOP (the five networks'
# linear layers are classifiers of at most 128 rows).  Debian's PyTorch runs them through the
# reference BLAS, which reads the weights again for every row: from the L2 while they fit
# (sim/perf/features.hpp, beyond_l2_flops), 1.3-1.5x faster a FLOP on the Granite Rapids VM
# (2026-12-01), where the fit of classifiers alone priced ConvNeXt-T's first stages 35-40% slow.
position_linears() {
  for width in 64 128 256 512 1024; do
    for shape in "$width $((4 * width))" "$((4 * width)) $width"; do
      set -- $shape
      local rows=$((60000000 / ($1 * $2)))
      [ "$rows" -lt 16 ] && rows=16
      echo "linear fp32 n$rows in$1 out$2 bias"
      echo "linear fp32 n$((4 * rows)) in$1 out$2 bias"
    done
  done
}
