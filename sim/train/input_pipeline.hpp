#pragma once

namespace dlsim::train {

// Where a GPU's batches come from.  Synthetic data is made on the GPU and costs nothing;
// otherwise a loader on the node's host prepares each batch (decoding and augmenting
// every image, `seconds_per_image` of one core each, spread over `workers` cores that all
// GPUs' loaders share), keeps up to `prefetch` batches ready, and the batch is copied to
// the GPU over PCIe before its forward pass, or, `to_gpu`, ahead of it by the loader
// (TensorFlow's StagingArea, PyTorch's prefetchers on a side stream, DALI).
struct InputPipeline {
  bool synthetic = true;
  int batch = 0;                 // images per GPU and step
  double seconds_per_image = 0;  // host core time to prepare one (0: already prepared in memory)
  double bytes_per_image = 0;    // copied to the GPU
  int workers = 1;               // cores per GPU's loader
  int prefetch = 2;
  bool to_gpu = false;           // prefetched batches already on the GPU
};

}  // namespace dlsim::train
