#!/usr/bin/env python3
"""The single-GPU training rows of the public measurements, keyed for dlsim.

Reads validation/data/public/public-measurements.csv (see its SOURCES.md) and writes
validation/data/public_single_gpu.csv: one row per single-GPU, synthetic-data,
images/s measurement of TensorFlow's benchmarks (TF-BENCH-2017, EBUG-DISTTF-2017), with
the zoo's model name and the catalog's GPU beside the source's own words.  Nothing is
changed or averaged; rows of a model or GPU dlsim does not know are left out and counted.

    validation/public_single_gpu.py   (from the repository root)
"""
import csv
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "validation/data/public/public-measurements.csv")
TARGET = os.path.join(ROOT, "validation/data/public_single_gpu.csv")

MODELS = {"ResNet-50": "resnet50", "ResNet-152": "resnet152", "InceptionV3": "inception_v3",
          "VGG16": "vgg16", "AlexNet": "alexnet"}
# The DGX-1's P100s are SXM2 boards; every K80 row is one die of a K80 board.
GPUS = {"Tesla P100 (DGX-1": "p100-sxm2", "Tesla P100 (CSCS Piz Daint": "p100-pcie", "Tesla K80": "k80"}


def catalog_gpu(text):
    for prefix, name in GPUS.items():
        if text.startswith(prefix):
            return name
    return None


def platform(text, mode):
    """"GCE", "AWS p2.8xlarge", ... from the source's GPU description, plus "distributed" runs."""
    inside = text[text.find("(") + 1:]
    for stop in (";", ",", ")"):
        inside = inside.split(stop)[0]
    return inside.strip() + (" distributed" if mode.startswith("distributed") else "")


def main():
    kept, skipped = [], 0
    with open(SOURCE, newline="") as f:
        for row in csv.DictReader(f):
            if not (row["workload"] == "cnn_training" and row["gpus_per_node"] == "1" and row["nodes"] == "1"
                    and row["data"] == "synthetic" and row["metric"] == "images_per_sec"):
                continue
            model, gpu = MODELS.get(row["model"]), catalog_gpu(row["gpu"])
            if model is None or gpu is None:
                skipped += 1
                continue
            kept.append({"platform": platform(row["gpu"], row["mode"]), "model": model, "gpu": gpu, "batch": row["batch_per_gpu"], "precision": row["precision"],
                         "images_per_s": row["value"], "source_id": row["source_id"], "source_gpu": row["gpu"],
                         "source_model": row["model"], "mode": row["mode"]})
    with open(TARGET, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(kept[0].keys()), lineterminator="\n")
        writer.writeheader()
        writer.writerows(kept)
    print("{}: {} rows ({} left out: model or GPU not in dlsim)".format(TARGET, len(kept), skipped))


if __name__ == "__main__":
    main()
