#!/usr/bin/env python3
"""The GPU training rows of the public measurements that dlsim can simulate, keyed for it.

Reads validation/data/public/public-measurements.csv (see its SOURCES.md) and writes
validation/data/public_gpu_training.csv: every synthetic-data images/s measurement of
TensorFlow's benchmarks (TF-BENCH-2017, EBUG-DISTTF-2017) on one GPU, and on several GPUs
of one catalog instance in TensorFlow's "replicated" mode (NCCL all-reduce inside the
node: dlsim's strategy "allreduce"), with the zoo's model, the catalog's GPU and instance
and dlsim's strategy beside the source's own words.  A multi-GPU row also gets its
measured scaling efficiency, images/s over the GPU count times the same source's one-GPU
images/s in the same mode, platform, model and batch (empty when there is no such row), so
that the cluster simulation can be judged apart from the single-GPU kernels.  The same
benchmarks' runs on ImageNet read from local disk ("real" data) go, keyed alike, to
validation/data/public_gpu_training_real.csv.  Nothing in the source is changed or averaged; rows
of a model, GPU, instance or mode dlsim does not simulate yet are left out and counted.

    validation/public_gpu_training.py   (from the repository root)
"""
import csv
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "validation/data/public/public-measurements.csv")
# Runs on synthetic data, and the same benchmarks' runs reading ImageNet from local disk.
TARGETS = {"synthetic": os.path.join(ROOT, "validation/data/public_gpu_training.csv"),
           "real": os.path.join(ROOT, "validation/data/public_gpu_training_real.csv")}

MODELS = {"ResNet-50": "resnet50", "ResNet-152": "resnet152", "InceptionV3": "inception_v3",
          "VGG16": "vgg16", "AlexNet": "alexnet"}
# The DGX-1's P100s are SXM2 boards; every K80 row is one die of a K80 board.
GPUS = {"Tesla P100 (DGX-1": "p100-sxm2", "Tesla P100 (CSCS Piz Daint": "p100-pcie", "Tesla K80": "k80"}


def catalog_gpu(text):
    for prefix, name in GPUS.items():
        if text.startswith(prefix):
            return name
    return None


# The source's platform -> the catalog instance, where the catalog has it.
INSTANCES = {"AWS p2.8xlarge": "p2.8xlarge", "AWS p2.xlarge": "p2.xlarge",
             "GCE n1-standard-32-k80x8": "gcp-n1-standard-32-k80x8", "DGX-1": "dgx-1-p100",
             "CSCS Piz Daint XC50 node": "cscs-piz-daint-xc50"}


def strategy(row):
    """dlsim's training.strategy for the row, or None when dlsim does not simulate it yet.

    TensorFlow's distributed runs with one GPU per node exchange every gradient with
    parameter-server processes over gRPC, whether the mode is "parameter_server" or
    "distributed_replicated" (which differs only in aggregating a node's GPUs first):
    dlsim's "ps_sync".  Single-node "parameter_server" runs with local_parameter_device=cpu
    keep the variables in the workers' own process on the host CPU: "ps_sync" with
    ps_transport "in_process" (transport() below); with one GPU the row stays "single",
    its transport saying that the variables were on the host all the same."""
    single_node, one_gpu = row["nodes"] == "1", row["gpus_per_node"] == "1"
    if one_gpu and single_node:
        return "single"
    if single_node and row["mode"].startswith("replicated"):
        return "allreduce"
    if single_node and row["mode"].startswith("ps_sync") and "local_parameter_device=cpu" in row["mode"]:
        return "ps_sync"
    if one_gpu and not single_node and row["mode"].split(" ")[0] in ("ps_sync", "distributed_replicated"):
        return "ps_sync"
    return None


def parameter_servers(row):
    """The row's "Num PSs=N" (EBUG-DISTTF-2017 gives it per row), one for a single node's
    own process, or empty."""
    match = re.search(r"Num PSs=(\d+)", row["notes"])
    return match.group(1) if match else "1" if transport(row) == "in_process" else ""


def transport(row):
    """How a parameter-server row's gradients reach the variables: "grpc" between
    processes, "in_process" on one node's CPU; empty for the other strategies."""
    if not row["mode"].startswith(("ps_sync", "distributed_replicated")):
        return ""
    if row["nodes"] == "1":
        return "in_process" if "local_parameter_device=cpu" in row["mode"] else ""
    return "grpc"


def platform(text, mode):
    """"GCE", "AWS p2.8xlarge", ... from the source's GPU description, plus "distributed" runs."""
    inside = text[text.find("(") + 1:]
    for stop in (";", ",", ")"):
        inside = inside.split(stop)[0]
    return inside.strip() + (" distributed" if mode.startswith("distributed") else "")


def extract(data, target):
    kept, skipped = [], 0
    with open(SOURCE, newline="") as f:
        for row in csv.DictReader(f):
            if not (row["workload"] == "cnn_training" and row["data"] == data
                    and row["metric"] == "images_per_sec"):
                continue
            model, gpu, how = MODELS.get(row["model"]), catalog_gpu(row["gpu"]), strategy(row)
            where = platform(row["gpu"], row["mode"])
            instance = INSTANCES.get(where.replace(" distributed", ""), "")
            servers = parameter_servers(row)
            if model is None or gpu is None or how is None or (how != "single" and not instance) or \
                    (how == "ps_sync" and not servers):
                skipped += 1
                continue
            kept.append({"platform": where, "instance": instance, "strategy": how, "parameter_servers": servers,
                         "ps_transport": transport(row),
                         "gpus": int(row["gpus_per_node"]) * int(row["nodes"]), "model": model, "gpu": gpu, "batch": row["batch_per_gpu"], "precision": row["precision"],
                         "images_per_s": row["value"], "source_id": row["source_id"], "source_gpu": row["gpu"],
                         "source_model": row["model"], "mode": row["mode"]})
    # The same source's one-GPU row in the same mode, else in any mode, on the same platform.
    def key(r, mode):
        return (r["source_id"], r["platform"].replace(" distributed", ""), r["model"], r["batch"], mode)
    one_gpu = {}
    for r in kept:
        if r["gpus"] == 1:
            one_gpu[key(r, r["mode"].split(" ")[0])] = float(r["images_per_s"])
            one_gpu.setdefault(key(r, "any"), float(r["images_per_s"]))
    for r in kept:
        base = one_gpu.get(key(r, r["mode"].split(" ")[0]), one_gpu.get(key(r, "any")))
        r["scaling_efficiency"] = ("{:.4f}".format(float(r["images_per_s"]) / (r["gpus"] * base))
                                   if base and r["gpus"] > 1 else "")
    with open(target, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(kept[0].keys()), lineterminator="\n")
        writer.writeheader()
        writer.writerows(kept)
    print("{}: {} rows ({} left out: model, GPU, instance or mode not simulated)".format(target, len(kept), skipped))


def main():
    for data, target in TARGETS.items():
        extract(data, target)


if __name__ == "__main__":
    main()
