#!/usr/bin/env python3
"""The whole-network forward and backward times of soumith/convnet-benchmarks that dlsim
can simulate, keyed for it.

Reads validation/data/public/public-measurements.csv (CONVNET-BENCH rows; see its
SOURCES.md: "Imagenet Winners Benchmarking", Titan X Maxwell, 2016-2017) and writes
validation/data/public_convnet_benchmarks.csv: one row per network, framework and phase
(forward, backward) in seconds per batch, for the frameworks that run cuDNN
(CuDNN[R4] fp32 and fp16 under Torch, TensorFlow) on the zoo's networks: AlexNet (the
"One Weird Trick" variant, torchvision's alexnet), OverFeat's fast model (overfeat_fast)
and VGG-A (vgg11).  Left out and counted: GoogLeNet V1 (the zoo's googlenet is
torchvision's, with batch norm), the other frameworks (their own kernels: Nervana neon, fbfft,
cuda-convnet2, Caffe's, Chainer's) and the forward+backward sums (the two phases are kept).

    validation/public_convnet_benchmarks.py   (from the repository root)
"""
import csv
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "validation/data/public/public-measurements.csv")
TARGET = os.path.join(ROOT, "validation/data/public_convnet_benchmarks.csv")

MODELS = {"AlexNet (OWT variant, 1 tower)": "alexnet", "OverFeat (fast)": "overfeat_fast",
          "VGG-A (OxfordNet Model-A, VGG-11)": "vgg11"}
FRAMEWORKS = {"CuDNN[R4]-fp32 (Torch)": "torch-cudnn-r4", "CuDNN[R4]-fp16 (Torch)": "torch-cudnn-r4",
              "TensorFlow": "tensorflow"}
PHASES = {"ms_per_batch_fwd": "forward", "ms_per_batch_bwd": "backward"}
GPUS = {"GeForce GTX Titan X (Maxwell)": "titan-x-maxwell"}


def main():
    kept, skipped = [], 0
    with open(SOURCE, newline="") as f:
        for row in csv.DictReader(f):
            if row["source_id"] != "CONVNET-BENCH":
                continue
            framework = FRAMEWORKS.get(" ".join(row["framework"].split()))
            model, phase, gpu = MODELS.get(row["model"]), PHASES.get(row["metric"]), GPUS.get(row["gpu"])
            if None in (framework, model, phase, gpu):
                skipped += 1
                continue
            kept.append({"model": model, "gpu": gpu, "batch": row["batch_per_gpu"], "precision": row["precision"],
                         "framework": framework, "phase": phase, "seconds": float(row["value"]) / 1e3,
                         "source_id": row["source_id"], "source_model": row["model"],
                         "source_framework": row["framework"]})
    with open(TARGET, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(kept[0].keys()), lineterminator="\n")
        writer.writeheader()
        writer.writerows(kept)
    print("{}: {} rows ({} left out: network, framework or metric not simulated)".format(TARGET, len(kept), skipped))


if __name__ == "__main__":
    main()
