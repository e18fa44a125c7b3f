#pragma once
// A client that reads its images from files on a disk rather than from the page cache:
// every request reads its batch's files one after another (each waits the disk's access
// latency) while the disk's bandwidth and its operations per second are shared by all the
// readers of the machine, each a SimGrid disk of its own.  One operation per file: image
// files are smaller than a volume's largest I/O (256 KiB on EBS).
#include <cstdint>

namespace simgrid::s4u {
class Disk;
class Host;
}  // namespace simgrid::s4u

namespace dlsim::infer {

struct FileReads {
  int64_t files = 0;         // per request: its batch
  double file_bytes = 0;
  double bandwidth_Bps = 0;  // the disk's, read
  double iops = 0;
  double latency_s = 0;      // per access
  bool from_disk() const { return files > 0 && bandwidth_Bps > 0; }
};

// The disk of one client machine.
class MachineDisk {
 public:
  MachineDisk(simgrid::s4u::Host* machine, const FileReads& reads);
  // Reads one request's files, in the calling actor (on this machine).
  void read_request() const;

 private:
  FileReads reads_;
  simgrid::s4u::Disk* bytes_ = nullptr;       // its bandwidth
  simgrid::s4u::Disk* operations_ = nullptr;  // its operations per second, one "byte" an operation
};

}  // namespace dlsim::infer
