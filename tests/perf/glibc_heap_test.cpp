#include <gtest/gtest.h>

#include "perf/glibc_heap.hpp"

namespace dlsim::perf {
namespace {

constexpr int64_t kMiB = 1 << 20;

// A 1 MiB tensor is a chunk of 1,048,656 bytes (header, 16-byte rounding, 64-byte
// alignment slack): 257 pages when the heap serves it, 256 written pages when mapped.
TEST(GlibcHeap, TheFirstLargeBlockIsMappedAndRaisesTheThresholdToItsMapping) {
  GlibcHeap heap;
  const auto a = heap.allocate(kMiB);
  EXPECT_EQ(a.faulted_pages, 256);
  EXPECT_EQ(heap.heap_bytes(), 0);  // not from the heap
  heap.free(a.handle);
  EXPECT_EQ(heap.mmap_threshold(), 1052672);  // 1,048,696 bytes rounded up to pages
}

TEST(GlibcHeap, AfterTheThresholdRisesTheHeapServesAndKeepsTheBlockWarm) {
  GlibcHeap heap;
  heap.free(heap.allocate(kMiB).handle);
  const auto second = heap.allocate(kMiB);
  EXPECT_EQ(second.faulted_pages, 257);
  EXPECT_EQ(heap.heap_bytes(), 1183744);  // the chunk and the 128 KiB pad, in pages
  heap.free(second.handle);               // a top of 1.13 MiB is below the 2 MiB trim threshold
  EXPECT_EQ(heap.allocate(kMiB).faulted_pages, 0);
}

// Three 1 MiB tensors freed together leave a top of over 3 MiB, past twice the 1 MiB
// threshold: the heap shrinks to its pad and the next step faults them all again.
TEST(GlibcHeap, ATopBeyondTwiceTheThresholdIsTrimmedAndRefaulted) {
  GlibcHeap heap;
  heap.free(heap.allocate(kMiB).handle);
  for (int step = 0; step < 3; ++step) {
    int64_t faulted = 0;
    int64_t handles[3];
    for (auto& h : handles) {
      const auto a = heap.allocate(kMiB);
      faulted += a.faulted_pages;
      h = a.handle;
    }
    for (auto h : handles) heap.free(h);
    // ceil(3 x 1,048,656 / 4096) = 769 pages; after a trim, less the 33 it keeps (the
    // 128 KiB pad and a minimum chunk, rounded up to pages)
    EXPECT_EQ(faulted, step == 0 ? 769 : 736) << "step " << step;
    EXPECT_LT(heap.heap_bytes(), 200 * 1024);    // trimmed to about the pad
  }
}

TEST(GlibcHeap, AFreedChunkInTheMiddleServesTheNextRequestWarm) {
  GlibcHeap heap;
  heap.free(heap.allocate(4 * kMiB).handle);  // threshold 4 MiB
  const auto a = heap.allocate(kMiB);
  const auto b = heap.allocate(kMiB);
  heap.free(a.handle);  // below b: stays in the heap, resident
  EXPECT_EQ(heap.allocate(kMiB - 4096).faulted_pages, 0);
  heap.free(b.handle);
}

TEST(GlibcHeap, RejectsBadRequests) {
  GlibcHeap heap;
  EXPECT_THROW(heap.allocate(0), std::invalid_argument);
  EXPECT_THROW(heap.free(7), std::invalid_argument);
}

// Another thread's arena: an empty heap under the process's thresholds.
TEST(GlibcHeap, ANewArenaStartsEmptyWithTheThresholds) {
  GlibcHeap heap;
  heap.free(heap.allocate(kMiB).handle);
  GlibcHeap arena = heap.new_arena();
  EXPECT_EQ(arena.mmap_threshold(), heap.mmap_threshold());
  EXPECT_EQ(arena.heap_bytes(), 0);
  EXPECT_EQ(arena.allocate(kMiB).faulted_pages, 257);  // from its heap, not mapped
}

}  // namespace
}  // namespace dlsim::perf
