#include "allreduce.hpp"

#include <memory>
#include <stdexcept>

#include <nccl.h>

#include "buffers.hpp"
#include "check.hpp"

namespace dlsim::kernels::gpu {
namespace {

void check_nccl(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(status));
}

// One communicator, stream and pair of buffers per GPU.  Device 0 uses the context's
// stream, which the timer's events are on: the others wait for it to reach the call
// (fork) and it waits for them to finish (join), so its events span the whole collective.
struct AllReduce {
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> done;  // per GPU; [0] is the fork
  std::vector<DeviceBuffer> send, recv;
  size_t count = 0;
  ncclDataType_t type = ncclFloat32;

  AllReduce() = default;
  AllReduce(const AllReduce&) = delete;
  AllReduce& operator=(const AllReduce&) = delete;
  ~AllReduce() {
    for (size_t d = 0; d < streams.size(); ++d) {
      cudaSetDevice(static_cast<int>(d));
      cudaStreamSynchronize(streams[d]);
      if (d < comms.size() && comms[d]) ncclCommDestroy(comms[d]);
      if (d < done.size()) cudaEventDestroy(done[d]);
      if (d > 0) cudaStreamDestroy(streams[d]);
    }
    cudaSetDevice(0);
  }
};

void launch(AllReduce& a) {
  const int gpus = static_cast<int>(a.comms.size());
  check(cudaEventRecord(a.done[0], a.streams[0]), "cudaEventRecord");
  for (int d = 1; d < gpus; ++d) {
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaStreamWaitEvent(a.streams[d], a.done[0], 0), "cudaStreamWaitEvent");
  }
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (int d = 0; d < gpus; ++d)
    check_nccl(ncclAllReduce(a.send[d].get(), a.recv[d].get(), a.count, a.type, ncclSum, a.comms[d], a.streams[d]),
               "ncclAllReduce");
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  for (int d = 1; d < gpus; ++d) {
    check(cudaSetDevice(d), "cudaSetDevice");
    check(cudaEventRecord(a.done[d], a.streams[d]), "cudaEventRecord");
    check(cudaSetDevice(0), "cudaSetDevice");
    check(cudaStreamWaitEvent(a.streams[0], a.done[d], 0), "cudaStreamWaitEvent");
  }
  check(cudaSetDevice(0), "cudaSetDevice");
}

}  // namespace

std::vector<std::string> allreduce_sweep(int gpus) {
  std::vector<std::string> out;
  for (size_t bytes = size_t{4} << 10; bytes <= size_t{1} << 30; bytes *= 4)
    out.push_back("allreduce fp32 e" + std::to_string(bytes / 4) + " g" + std::to_string(gpus));
  return out;
}

PhaseKernel allreduce_phase(const Signature& sig, const GpuContext& gpu) {
  const int64_t gpus = sig.get("g"), elements = sig.get("e");
  int visible = 0;
  check(cudaGetDeviceCount(&visible), "cudaGetDeviceCount");
  if (gpus < 1 || gpus > visible)
    throw std::invalid_argument("signature '" + sig.text + "' needs " + std::to_string(gpus) + " GPUs; " +
                                std::to_string(visible) + " visible");
  if (elements <= 0) throw std::invalid_argument("signature '" + sig.text + "' reduces no elements");
  const Precision p = precision_of(sig.dtype);
  if (p == Precision::tf32) throw std::invalid_argument("an all-reduce moves fp32 or fp16, not tf32");
  auto a = std::make_shared<AllReduce>();
  a->count = static_cast<size_t>(elements);
  a->type = p == Precision::fp16 ? ncclFloat16 : ncclFloat32;
  for (int d = 0; d < gpus; ++d) {
    check(cudaSetDevice(d), "cudaSetDevice");
    cudaStream_t s = gpu.stream;
    if (d > 0) check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    a->streams.push_back(s);
    cudaEvent_t e;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    a->done.push_back(e);
    a->send.push_back(filled(a->count, p, s));
    a->recv.push_back(DeviceBuffer(a->count * element_bytes(p)));
  }
  check(cudaSetDevice(0), "cudaSetDevice");
  std::vector<int> devices(static_cast<size_t>(gpus));
  for (int d = 0; d < gpus; ++d) devices[static_cast<size_t>(d)] = d;
  a->comms.resize(devices.size());
  check_nccl(ncclCommInitAll(a->comms.data(), static_cast<int>(gpus), devices.data()), "ncclCommInitAll");
  check(cudaSetDevice(0), "cudaSetDevice");
  PhaseKernel k;
  k.launch = [a] { launch(*a); };
  k.counters = {{"gpus", static_cast<double>(gpus)}, {"bytes", static_cast<double>(a->count * element_bytes(p))}};
  return k;
}

std::string nccl_version() {
  int v = 0;
  check_nccl(ncclGetVersion(&v), "ncclGetVersion");
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

}  // namespace dlsim::kernels::gpu
