// The real glibc's answer to a heap script, for perf/glibc_heap's model to be checked
// against: reads "a ID BYTES" (posix_memalign(64, BYTES), as PyTorch's CPU allocator
// calls it), "f ID" (free) and "p" (a pass ends) lines on stdin and prints, at each "p",
// the heap pages the allocations since the previous one found fresh.  A heap page is
// fresh when an allocation first covers it since the heap last shrank below it; a chunk
// outside the heap is a mapping of its own, all fresh.  Nothing is written to the chunks:
// glibc's choices do not depend on it.  Before the script the process makes and frees one
// small chunk (and with it the thread's tcache, as a process's first malloc does), and it
// allocates nothing else.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum { kIds = 1 << 22 };
static char input[1 << 16];
static size_t input_len, input_pos;

static int next_char(void) {
  if (input_pos == input_len) {
    const ssize_t got = read(0, input, sizeof input);
    if (got <= 0) return -1;
    input_len = (size_t)got;
    input_pos = 0;
  }
  return input[input_pos++];
}

static long next_number(void) {
  int c;
  while ((c = next_char()) == ' ') {
  }
  long value = 0;
  for (; c >= '0' && c <= '9'; c = next_char()) value = value * 10 + (c - '0');
  return value;
}

static void print_number(long value) {
  char text[24];
  size_t at = sizeof text;
  text[--at] = '\n';
  do text[--at] = (char)('0' + value % 10);
  while ((value /= 10) > 0);
  if (write(1, text + at, sizeof text - at) < 0) exit(2);
}

// Memory outside the heap, so that the script's heap is the only thing in it.
static void* mapped(size_t bytes) {
  void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) exit(2);
  return p;
}

int main(void) {
  void** chunks = mapped(kIds * sizeof(void*));
  const size_t pages = (size_t)1 << 32;  // 16 TiB of heap at most
  uint8_t* resident = mapped(pages / 8);
  // Nothing may ask for the break before this first malloc: a process that called sbrk(0)
  // first lays its heap out otherwise (ResNet-18's pass at batch 8 then faults 18,784
  // pages where it faults 12,517 here).
  void* const first = malloc(1);
  char* const start = (char*)((uintptr_t)first & ~(uintptr_t)4095);  // where the heap begins
  free(first);
  char* top = sbrk(0);
  long fresh = 0;
  for (int c; (c = next_char()) != -1;) {
    if (c == 'p') {
      print_number(fresh);
      fresh = 0;
      continue;
    }
    if (c == 'f') {
      const long id = next_number();
      if (id < 0 || id >= kIds) return 2;
      free(chunks[id]);
    } else if (c == 'a') {
      const long id = next_number(), bytes = next_number();
      if (id < 0 || id >= kIds || bytes <= 0 || posix_memalign(&chunks[id], 64, (size_t)bytes) != 0)
        return 2;
      char* const p = chunks[id];
      if (p >= start && p < (char*)sbrk(0)) {
        for (size_t page = (size_t)(p - start) >> 12; page <= (size_t)(p + bytes - 1 - start) >> 12; ++page)
          if (!(resident[page >> 3] & (1u << (page & 7)))) {
            resident[page >> 3] |= (uint8_t)(1u << (page & 7));
            ++fresh;
          }
      } else {
        fresh += (bytes + 4095) >> 12;
      }
    } else {
      continue;
    }
    char* const now = sbrk(0);
    if (now < top)  // trimmed: the pages above the new break are gone
      for (size_t page = (size_t)(now - start + 4095) >> 12; page < (size_t)(top - start + 4095) >> 12; ++page)
        resident[page >> 3] &= (uint8_t)~(1u << (page & 7));
    top = now;
  }
  return 0;
}
