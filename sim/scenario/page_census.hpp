#pragma once
// A page census (validation/page_census.py's CSV): the pages a served CPU pass faulted,
// every thread's, counted on its own serving stack, one row a configuration.  A stack's
// count repeats from process to process far better than the heap model can give it, so a
// scenario may name a census (system.page_census) and each configuration it prices, a
// sweep's or a search's points too, takes the count its row holds; one the census lacks
// keeps the heap model's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlsim::scenario {

// What tells one census row from another.
struct PageCensusKey {
  std::string model;       // as the serving harness names it (torchvision's), e.g. "efficientnet_b3"
  int64_t batch = 1;
  int threads = 1;         // the server's compute threads
  std::string deployment;  // "in-process", "local", "remote"
  std::string protocol;    // "http", "grpc"; empty in process
  std::string mode;        // "sync", "async"
  int clients = 1;
  std::string input;       // "tensors", "files"
};
std::string to_string(const PageCensusKey& key);

class PageCensus {
 public:
  // Throws InputError (file, line, column) for a missing column or a count that is no
  // whole number.
  static PageCensus read(const std::string& path);
  std::optional<int64_t> pages(const PageCensusKey& key) const;
  std::vector<std::string> models() const;  // sorted, each once
  const std::string& source() const { return source_; }

 private:
  struct Row {
    PageCensusKey key;
    int64_t pages = 0;
  };
  std::string source_;
  std::vector<Row> rows_;
};

}  // namespace dlsim::scenario
