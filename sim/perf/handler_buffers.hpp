#pragma once
// The pages a Python GPU server faults afresh in each request's two host buffers: the
// bytes its stack reads the request into and the handler's copy of them into a tensor
// (validation/measure/serving_cpu.py).  Whether a buffer is warm is glibc's doing
// (glibc_heap.hpp): the mmap threshold starts at 128 KiB and every mapping freed raises
// it to that mapping's size; a model built on the host and moved to its GPU frees every
// parameter tensor, so the threshold starts at the largest of them (ResNet-50: a 3x3
// convolution's 9.4 MB of weights).  A request at least that large is mapped once and
// then taken from the heap; two of them live on one thread's heap together, and freeing
// both leaves a top at least the trim threshold (twice the mapping), so the heap shrinks
// and both are faulted again on the next request.  That happens where the stack reads the
// bytes on the handler's thread (Python's HTTP server) and not where another thread made
// them (gRPC's poller, whose arena holds only its own buffer).  Measured on the H100
// machine lent on 2026-11-26 (validation/data/serving_gpu_h100_1641_latencies.jsonl): HTTP
// at batch 32 (19.3 MB) faulted 4,672 pages in the read and 4,704 in the copy of every
// request, at batch 8 (4.8 MB) none; gRPC's copy none at either.  A thread's arena trims
// by the same rule (heap_trim) but grows its heap by just what a request lacks, with no
// pad: replayed so (tried on 2026-11-26), the two buffers leave a top a few pages short of
// the trim threshold and no page is faulted, against the 9,376 counted, while the main
// arena's rules (glibc_heap.hpp) give the counts to the page; so those rules stand here,
// and what else in a real request's allocations tips the top over is not known.
#include <cstdint>
#include <vector>

namespace dlsim::perf {

struct HandlerFreshPages {
  int64_t read = 0;  // the stack's read of the request's bytes
  int64_t copy = 0;  // the handler's copy of them into a tensor
};

// parameter_bytes: the model's parameter tensors, freed on the host as it moves to the
// GPU; read_on_handler_thread: the stack reads the bytes on the handler's own thread.
// The steady state, after a few requests.
HandlerFreshPages handler_fresh_pages(const std::vector<int64_t>& parameter_bytes, int64_t request_bytes,
                                      bool read_on_handler_thread);

}  // namespace dlsim::perf
