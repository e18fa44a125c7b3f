#include "perf/handler_buffers.hpp"

#include <stdexcept>

#include "perf/glibc_heap.hpp"

namespace dlsim::perf {

HandlerFreshPages handler_fresh_pages(const std::vector<int64_t>& parameter_bytes, int64_t request_bytes,
                                      bool read_on_handler_thread) {
  if (request_bytes <= 0) throw std::invalid_argument("handler_fresh_pages: request_bytes must be positive");
  // The model: every parameter made on the host, then each freed as its GPU copy replaces it.
  GlibcHeap model;
  std::vector<int64_t> parameters;
  for (int64_t bytes : parameter_bytes)
    if (bytes > 0) parameters.push_back(model.allocate(bytes).handle);
  for (int64_t handle : parameters) model.free(handle);
  // The handler's arena and, where another thread reads the bytes, that thread's.
  GlibcHeap handler = model.new_arena();
  GlibcHeap reader = model.new_arena();
  GlibcHeap& read_heap = read_on_handler_thread ? handler : reader;
  constexpr int kRequests = 4;  // thresholds settle after the first
  HandlerFreshPages last;
  for (int r = 0; r < kRequests; ++r) {
    const GlibcHeap::Allocation read = read_heap.allocate(request_bytes);
    const GlibcHeap::Allocation copy = handler.allocate(request_bytes);
    handler.free(copy.handle);  // the tensor, when the handler returns
    read_heap.free(read.handle);  // the bytes, once the answer is written
    last = {read.faulted_pages, copy.faulted_pages};
  }
  return last;
}

}  // namespace dlsim::perf
