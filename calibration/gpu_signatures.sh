#!/usr/bin/env bash
# Writes the signature lists calibration/measure_gpu.sh times, one file per network, data
# type and batch, calibration/gpu_signatures/<net>_<dtype>_b<batch>.txt, with the dlsim
# built here (the GPU machine may not build dlsim: it needs SimGrid).  Run from anywhere:
#   calibration/gpu_signatures.sh [DLSIM]        (default build/sim/cli/dlsim)
# Signatures repeat within a network (ResNet's blocks): each file lists each one once.
set -euo pipefail
cd "$(dirname "$0")/.."
dlsim=${1:-build/sim/cli/dlsim}
out=calibration/gpu_signatures
nets="resnet50 resnet152 vgg16 vgg19 inception_v3 alexnet googlenet keras_mnist keras_cifar10 cifar10_3block"
# Known from their ONNX export (validation/oracle/onnx): depthwise and grouped convolutions,
# squeeze-and-excitation products, hard swish, the channel shuffle.
onnx_nets="efficientnet_b0 mobilenet_v3_large resnext101_32x4d shufflenet_v2_x1_0"
mkdir -p "$out"
rm -f "$out"/*.txt
for net in $nets $onnx_nets; do
  model=$net
  [[ " $onnx_nets " == *" $net "* ]] && model=validation/oracle/onnx/${net}_train.onnx
  for dtype in fp32 tf32 fp16; do
    for batch in 1 2 4 8 16 32 64 128 256; do
      # first_touch: the CPU heap model's page-fault reference, nothing a GPU runs.
      "$dlsim" model "$model" --batch "$batch" --dtype "$dtype" --format kernels | grep -v '^first_touch' |
        awk '!seen[$0]++' > "$out/${net}_${dtype}_b${batch}.txt"
    done
  done
done
echo "wrote $(find "$out" -name "*.txt" | wc -l) files, $(du -sh "$out" | cut -f1) in $out"
