#pragma once
// How many fresh pages a sequence of allocations touches under glibc's malloc (the main
// arena, as a single-threaded framework loop uses it).  A training step frees and
// reallocates its activations and gradients; whether that memory is reused warm or
// returned to the kernel and page-faulted back depends on the allocator, not the kernels:
// PyTorch 1.13 on this VM trains the MNIST net of study B 18% faster when glibc never
// trims its heap (validation/data/README.md).  The rules kept here are glibc 2.36's
// (malloc/malloc.c):
//   - a request of at least the mmap threshold that the heap cannot serve gets a mapping
//     of its own, faulted afresh and unmapped on free;
//   - freeing such a mapping raises the threshold to its size (at most 32 MiB) and the
//     trim threshold to twice that: the "dynamic mmap threshold";
//   - other requests take the best-fitting free chunk, or grow the heap (plus a 128 KiB
//     pad); freed chunks merge with free neighbours and with the top;
//   - when a free of at least 64 KiB leaves a top chunk of at least the trim threshold,
//     the heap shrinks to the pad, and those pages are faulted again when it regrows.
// Fastbins, tcache and the unsorted bin change which small chunk serves a request; best
// fit stands for them.  Checked against glibc 2.36 itself (tests/perf/glibc_replay.c, a
// process whose heap is fresh, replaying step_allocations' events): the same pages to
// within two for the inference passes of ResNet-18 (batch 8 and 32), GoogLeNet,
// MobileNetV2, ResNet-50 and Inception-v3; the model counts 14% more for VGG-11 at batch 8
// (132,760 against 115,969) and 4% more for AlexNet.
// What the model cannot know is the heap's state before the passes, and small chunks
// there decide where freed tensors can merge: the same events from a heap laid out a
// little otherwise (the process asked for its break before its first malloc) fault 18,784
// pages a ResNet-18 pass at batch 8 rather than 12,517, and PyTorch processes on the Zen 5
// VM faulted 15,648 on one thread (validation/data/pass_faults_devbox_turin21.csv) and
// GoogLeNet's 31,000-38,000 on two where the model gives 13,345 (2026-11-28).
#include <cstdint>
#include <map>

namespace dlsim::perf {

class GlibcHeap {
 public:
  static constexpr int64_t kPage = 4096;
  // DEFAULT_MMAP_THRESHOLD_MAX on 64-bit: requests this large always get a fresh mapping.
  static constexpr int64_t kMaxMmapThreshold = int64_t{32} << 20;

  struct Allocation {
    int64_t handle = 0;         // for free()
    int64_t faulted_pages = 0;  // fresh pages its first write touched
  };
  // Allocates `bytes` at the framework's 64-byte alignment and writes all of it (a
  // kernel's output).
  Allocation allocate(int64_t bytes);
  void free(int64_t handle);
  // An empty heap for another thread, under this one's thresholds (glibc's are the
  // process's) and the main arena's rules (perf/handler_buffers.hpp says why).
  GlibcHeap new_arena() const;

  int64_t mmap_threshold() const { return mmap_threshold_; }
  int64_t heap_bytes() const { return brk_; }

 private:
  struct Block {
    int64_t offset = 0;  // in the heap; -1 for a mapping of its own
    int64_t size = 0;
  };
  int64_t touch(int64_t end);  // returns the pages faulted
  int64_t take_free_chunk(int64_t request, int64_t size);
  void release_to_heap(int64_t offset, int64_t size);
  void trim_if_due(int64_t freed);

  int64_t mmap_threshold_ = 128 << 10;
  int64_t trim_threshold_ = 128 << 10;
  int64_t top_start_ = 0;  // the top chunk runs from here to brk_
  int64_t brk_ = 0;
  int64_t resident_ = 0;   // heap bytes below this have been touched since the last trim
  int64_t next_handle_ = 0;
  std::map<int64_t, int64_t> free_;  // offset -> size, below the top
  std::map<int64_t, Block> live_;
};

}  // namespace dlsim::perf
