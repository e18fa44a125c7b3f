"""A serving client's images as JPEG files (study A's application: 224x224 images resized
beforehand, in the page cache of the client's machine): written once into a folder, read
once so that the page cache holds them, then each request's batch read from its files and
decoded on the calling thread as kernels/pytorch/input_bench.py's serve phase times it
(decode, ToTensor, Normalize), the files taken in turn."""
import itertools
import os
import sys
import threading

import torch
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "kernels", "pytorch"))
import input_bench  # noqa: E402


class ImageFiles:
    def __init__(self, folder, side, count=64):
        """`count` distinct JPEGs of `side` pixels square written into `folder` and read once."""
        self.paths = []
        for i in range(count):
            path = os.path.join(folder, f"image_{i:04d}.jpg")
            with open(path, "wb") as f:
                f.write(input_bench.photographic_jpeg(side, side, seed=i))
            self.paths.append(path)
        for path in self.paths:  # into the page cache
            with open(path, "rb") as f:
                f.read()
        self._next = itertools.cycle(self.paths)
        self._turn = threading.Lock()
        self._pipeline = input_bench.serving_pipeline()

    def batch(self, size):
        """The next `size` files read and decoded, as the request's bytes (a float32 batch)."""
        with self._turn:
            paths = [next(self._next) for _ in range(size)]
        images = []
        for path in paths:
            with Image.open(path) as image:
                images.append(self._pipeline(image.convert("RGB")))
        return torch.stack(images).numpy().tobytes()
