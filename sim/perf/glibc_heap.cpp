#include "perf/glibc_heap.hpp"

#include <algorithm>
#include <stdexcept>

namespace dlsim::perf {
namespace {

constexpr int64_t kMinChunk = 32;
constexpr int64_t kAlignment = 64;               // c10's CPU allocator
constexpr int64_t kTopPad = 128 << 10;           // M_TOP_PAD
constexpr int64_t kConsolidateAbove = 64 << 10;  // FASTBIN_CONSOLIDATION_THRESHOLD

int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }
int64_t pages(int64_t bytes) { return (bytes + GlibcHeap::kPage - 1) / GlibcHeap::kPage; }

}  // namespace

int64_t GlibcHeap::touch(int64_t end) {
  if (end <= resident_) return 0;
  const int64_t fresh = pages(end) - pages(resident_);
  resident_ = end;
  return fresh;
}

// Best fit: the smallest free chunk that holds the request, the lowest address on a tie;
// the remainder stays free.  Returns the chunk's offset, or -1.
int64_t GlibcHeap::take_free_chunk(int64_t request, int64_t size) {
  auto best = free_.end();
  for (auto it = free_.begin(); it != free_.end(); ++it)
    if (it->second >= request && (best == free_.end() || it->second < best->second)) best = it;
  if (best == free_.end()) return -1;
  const auto [offset, chunk] = *best;
  free_.erase(best);
  if (chunk - size >= kMinChunk) free_[offset + size] = chunk - size;
  return offset;
}

GlibcHeap::Allocation GlibcHeap::allocate(int64_t bytes) {
  if (bytes <= 0) throw std::invalid_argument("GlibcHeap::allocate: bytes must be positive");
  // posix_memalign asks malloc for the chunk plus the alignment and a minimum chunk, then
  // gives the slack back.
  const int64_t size = round_up(std::max(bytes + 8, kMinChunk), 16) + kAlignment;
  const int64_t request = size + kMinChunk;
  const int64_t handle = next_handle_++;
  if (int64_t at = take_free_chunk(request, size); at >= 0) {
    live_[handle] = {at, size};
    return {handle, 0};  // chunks below the top stay resident
  }
  if (brk_ - top_start_ < request) {
    if (request >= mmap_threshold_) {
      live_[handle] = {-1, round_up(request + 8, kPage)};
      return {handle, pages(bytes)};
    }
    brk_ += round_up(request + kTopPad - (brk_ - top_start_), kPage);
  }
  const int64_t at = top_start_;
  top_start_ += size;
  live_[handle] = {at, size};
  return {handle, touch(top_start_)};
}

GlibcHeap GlibcHeap::new_arena() const {
  GlibcHeap arena;
  arena.mmap_threshold_ = mmap_threshold_;
  arena.trim_threshold_ = trim_threshold_;
  return arena;
}

void GlibcHeap::free(int64_t handle) {
  const auto it = live_.find(handle);
  if (it == live_.end()) throw std::invalid_argument("GlibcHeap::free: unknown handle");
  const Block block = it->second;
  live_.erase(it);
  if (block.offset < 0) {
    if (block.size > mmap_threshold_ && block.size <= kMaxMmapThreshold) {
      mmap_threshold_ = block.size;
      trim_threshold_ = 2 * block.size;
    }
    return;
  }
  release_to_heap(block.offset, block.size);
  trim_if_due(block.size);
}

void GlibcHeap::release_to_heap(int64_t offset, int64_t size) {
  if (auto next = free_.find(offset + size); next != free_.end()) {
    size += next->second;
    free_.erase(next);
  }
  if (auto after = free_.lower_bound(offset); after != free_.begin()) {
    auto prev = std::prev(after);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      size += prev->second;
      free_.erase(prev);
    }
  }
  if (offset + size == top_start_)
    top_start_ = offset;
  else
    free_[offset] = size;
}

void GlibcHeap::trim_if_due(int64_t freed) {
  const int64_t top = brk_ - top_start_;
  if (freed < kConsolidateAbove || top < trim_threshold_) return;
  const int64_t extra = (top - kTopPad - kMinChunk - 1) / kPage * kPage;
  if (extra <= 0) return;
  brk_ -= extra;
  resident_ = std::min(resident_, brk_);
}

}  // namespace dlsim::perf
