#!/usr/bin/env python3
"""DeepBench's published cuDNN convolution timings as dlsim raw kernel files.

Baidu's DeepBench (github.com/baidu-research/DeepBench, results/train/*.xlsx, NVIDIA's
sheets) timed its 94 training convolutions forward, backward-data and backward-filter on
eight GPUs; validation/data/public/deepbench-conv-kernels.csv transcribes them (see its
SOURCES.md).  This script writes each GPU sheet as the Google Benchmark JSON that dlsim's
own GPU suite writes (kernels/gpu), so that `dlsim calibrate RAW.json --catalog-gpu GPU`
fits a profile from them exactly as from our own measurements:

    calibration/deepbench/to_raw.py validation/data/public/deepbench-conv-kernels.csv calibration/raw

One file per GPU and data type: calibration/raw/deepbench-<gpu>/<dtype>.json.  DeepBench
gives one time per kernel (no spread).  Cells it marks N/A (the first layer's data
gradient, which no network computes) are left out.  P100's "pseudo FP16" sheet (fp16
storage, fp32 arithmetic) is left out: it is not how frameworks run fp16 on any GPU we
predict.
"""
import csv
import json
import os
import re
import sys

DTYPES = {"fp32": "fp32", "fp16_mixed": "fp16"}
PHASES = {"fwd_ms": "fwd", "bwd_data_ms": "bwd_data", "bwd_filter_ms": "bwd_weights"}
SOURCE = "Baidu DeepBench, results/train (NVIDIA sheets) @ da81ba7820739e2e506dc27f382d15be5479f98f"


def signature(row, dtype):
    f = {k: int(row[k]) for k in ("N", "C", "H", "W", "K", "R_filter_h", "S_filter_w", "pad_h", "pad_w",
                                  "stride_h", "stride_w")}
    return ("conv2d {d} n{N} c{C} h{H} w{W} k{K} r{R_filter_h} s{S_filter_w} pad{pad_h},{pad_w},{pad_h},{pad_w} "
            "str{stride_h},{stride_w} dil1,1 g1").format(d=dtype, **f)


def version(text, name):
    match = re.search(name + r"\s+([0-9][0-9.]*)", text)
    return match.group(1) if match else "unknown"


def context(row, dtype):
    return {
        "device": "gpu",
        "framework": "cudnn",
        "gpu_name": row["gpu"],
        "cuda_runtime": version(row["sw"], "CUDA"),
        "cudnn": version(row["sw"], "cuDNN"),
        "published_by": SOURCE,
        "deepbench_sheet": row["sheet"],
        "dtype": dtype,
    }


def main(csv_path, out_dir):
    files = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            dtype = DTYPES.get(row["precision"])
            if dtype is None:
                continue
            key = (row["gpu_key"], dtype)
            entry = files.setdefault(key, {"context": context(row, dtype), "benchmarks": []})
            for column, phase in PHASES.items():
                try:
                    ms = float(row[column])
                except ValueError:
                    continue
                entry["benchmarks"].append({
                    "name": "{} | gpu | {}/manual_time".format(signature(row, dtype), phase),
                    "run_type": "iteration", "real_time": ms, "time_unit": "ms",
                    "deepbench_row": int(row["row_index"]), "deepbench_app": row["app"]})
    for (gpu, dtype), entry in sorted(files.items()):
        folder = os.path.join(out_dir, "deepbench-" + gpu.lower().replace("_", "-"))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, dtype + ".json"), "w") as out:
            json.dump(entry, out, indent=1, sort_keys=True)
            out.write("\n")
        print("{}/{}.json: {} kernels".format(folder, dtype, len(entry["benchmarks"])))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: to_raw.py deepbench-conv-kernels.csv OUT_DIR")
    main(sys.argv[1], sys.argv[2])
