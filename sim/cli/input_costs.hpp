#pragma once
// What feeding a network its images costs the host: a training step's input pipeline and a
// serving client's file reads and decodes, from the input profiles (kernels/pytorch/input_bench.py)
// and the catalog's disks.
#include <string>

#include "graph/graph.hpp"
#include "hardware/catalog.hpp"
#include "infer/file_reads.hpp"
#include "platform/cluster.hpp"
#include "scenario/run_spec.hpp"
#include "train/input_pipeline.hpp"

namespace dlsim::cli {

// The host's work per image (training.input): none for synthetic data or tensors already
// in memory, else one JPEG decoded and augmented on a core; the copy is the network's
// input tensor.
train::InputPipeline input_pipeline(const scenario::RunSpec& spec, const graph::Graph& model,
                                    const hardware::Catalog& catalog, const platform::ClusterSpec& cluster,
                                    std::string& notes);

// A serving client's time to read one request's images from files in the page cache and
// decode them to the network's input (serving.input = "files"): the serving decode of a
// 224x224 JPEG, in proportion to the input's pixels, on the CPU the client runs on.
double client_load_s(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                     std::string& notes);

// What a serving client reads from its machine's disk before decoding, when the scenario
// names one: the batch's files, each in one read (serving.disk, serving.file_size).
infer::FileReads client_file_reads(const scenario::RunSpec& spec, const hardware::Catalog& catalog,
                                   std::string& notes);

}  // namespace dlsim::cli
