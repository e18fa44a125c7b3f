#include "infer/file_reads.hpp"

#include <simgrid/s4u.hpp>

namespace dlsim::infer {

MachineDisk::MachineDisk(simgrid::s4u::Host* machine, const FileReads& reads) : reads_(reads) {
  if (!reads.from_disk()) return;
  bytes_ = machine->create_disk(machine->get_name() + ".disk", reads.bandwidth_Bps, reads.bandwidth_Bps)->seal();
  operations_ = machine->create_disk(machine->get_name() + ".disk-ops", reads.iops, reads.iops)->seal();
}

void MachineDisk::read_request() const {
  if (!bytes_) return;
  simgrid::s4u::this_actor::sleep_for(static_cast<double>(reads_.files) * reads_.latency_s);
  auto bytes = bytes_->read_async(static_cast<sg_size_t>(static_cast<double>(reads_.files) * reads_.file_bytes));
  auto operations = operations_->read_async(static_cast<sg_size_t>(reads_.files));
  bytes->wait();
  operations->wait();
}

}  // namespace dlsim::infer
