#!/usr/bin/python3
"""Times the host's share of an input pipeline: one JPEG decoded (and augmented) on a core.

    /usr/bin/python3 kernels/pytorch/input_bench.py [--repetitions 5] [--min-time 0.2] --out RAW.json

For a JPEG of ImageNet's typical size (500x375, quality 90; ImageNet's training images
average about 400x350 and 110 KB), on one thread, as torchvision's ImageNet recipe does it:
  train  decode, RandomResizedCrop(224), RandomHorizontalFlip, ToTensor, Normalize
  eval   decode, Resize(256), CenterCrop(224), ToTensor, Normalize
The image is synthetic but photographic in its statistics (smooth regions, edges, noise), so
that JPEG's entropy decoding does a realistic amount of work; its size in bytes is in the
context.  And as a serving client sends an image that was resized to the network's input
beforehand (study A's 224x224 files):
  serve  decode a 224x224 JPEG, ToTensor, Normalize
Rows are "decode u8 w500 h375 s224 jpeg | threads=1 | train" (or eval; "decode u8 w224 h224
s224 jpeg | threads=1 | serve"), one per repetition, the raw format `dlsim calibrate` reads.
"""
import argparse
import io
import sys

import numpy as np
import torch
import torchvision
from PIL import Image
from torchvision import transforms

import benchmark_file

WIDTH, HEIGHT, CROP = 500, 375, 224
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def signature(width, height):
    return f"decode u8 w{width} h{height} s{CROP} jpeg"


def photographic_jpeg(width, height, seed=0):
    """A deterministic JPEG with the statistics of a photograph (each seed its own picture)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    image = np.stack([128 + 90 * np.sin(x / 37 + c) * np.cos(y / 23 - c) for c in range(3)], axis=-1)
    for _ in range(40 * width * height // (WIDTH * HEIGHT)):  # objects: discs of flat colour with sharp edges
        cx, cy, r = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(8, 60)
        image[(x - cx) ** 2 + (y - cy) ** 2 < r * r] = rng.uniform(0, 255, 3)
    image += rng.normal(0, 18, image.shape)  # sensor noise and texture
    out = io.BytesIO()
    Image.fromarray(np.clip(image, 0, 255).astype(np.uint8)).save(out, format="JPEG", quality=90)
    return out.getvalue()


def pipelines():
    normalize = [transforms.ToTensor(), transforms.Normalize(MEAN, STD)]
    return {  # phase: (image width, height, pipeline)
        "train": (WIDTH, HEIGHT, transforms.Compose([transforms.RandomResizedCrop(CROP),
                                                     transforms.RandomHorizontalFlip()] + normalize)),
        "eval": (WIDTH, HEIGHT, transforms.Compose([transforms.Resize(256), transforms.CenterCrop(CROP)] + normalize)),
        "serve": (CROP, CROP, transforms.Compose(normalize)),
    }


def decode_and_augment(jpeg, pipeline):
    return pipeline(Image.open(io.BytesIO(jpeg)).convert("RGB"))


def serving_pipeline():
    """A serving client's work on one image resized beforehand: decode, ToTensor, Normalize."""
    return pipelines()["serve"][2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per repetition at least")
    ap.add_argument("--out", required=True, help="Google Benchmark JSON to write")
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rows = []
    for phase, (width, height, pipeline) in pipelines().items():
        jpeg = photographic_jpeg(width, height)
        timed = benchmark_file.time_calls(lambda: decode_and_augment(jpeg, pipeline), a.repetitions, a.min_time,
                                          warmup=3)
        rows += benchmark_file.timing_rows(f"{signature(width, height)} | threads=1 | {phase}", timed, 1)
        print(f"input_bench: {phase}: {sorted(timed.times)[len(timed.times) // 2] * 1e3:.2f} ms per image",
              file=sys.stderr)
    context = benchmark_file.machine_context(
        __file__, framework="torchvision", torch_version=torch.__version__, torchvision_version=torchvision.__version__,
        pillow_version=Image.__version__, jpeg_bytes=str(len(photographic_jpeg(WIDTH, HEIGHT))),
        serve_jpeg_bytes=str(len(photographic_jpeg(CROP, CROP))), threads="1")
    benchmark_file.write(a.out, context, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
