// dlsim-net-bench: times gRPC requests whose payload is 1 KiB to 64 MiB, pushed to a
// server and pulled from it, one request in flight, with Google Benchmark.
//   dlsim-net-bench [--target HOST:PORT] [--max-bytes N] [--benchmark_out=raw.json ...]
//   dlsim-net-bench --serve PORT      be the server for a run on another machine or namespace
// Without --target the server runs in this process on loopback, so that the sender's and
// the receiver's CPU work share one machine, as a parameter server and its workers on one
// instance do.  Rows are "transfer u8 b<bytes> grpc | threads=1 | push" (or pull), the
// raw format `dlsim calibrate` fits into a per-request and per-byte cost.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include "transfer.grpc.pb.h"
#include "transfer_server.hpp"

namespace {

struct Options {
  std::string target;
  std::string serve;
  int64_t max_bytes = int64_t{64} << 20;
};

// Takes dlsim's own flags out of argv, leaving Google Benchmark's.
Options parse_options(int& argc, char** argv) {
  Options o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--target" && i + 1 < argc) o.target = argv[++i];
    else if (arg == "--serve" && i + 1 < argc) o.serve = argv[++i];
    else if (arg == "--max-bytes" && i + 1 < argc) o.max_bytes = std::stoll(argv[++i]);
    else argv[kept++] = argv[i];
  }
  argc = kept;
  return o;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

void push(benchmark::State& state, dlsim::net::Transfer::Stub* stub, int64_t bytes) {
  dlsim::net::Payload payload;
  payload.mutable_data()->assign(static_cast<size_t>(bytes), '\1');
  for (auto _ : state) {
    grpc::ClientContext context;
    dlsim::net::Size answer;
    const grpc::Status status = stub->Push(&context, payload, &answer);
    if (!status.ok()) return state.SkipWithError(status.error_message().c_str());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

void pull(benchmark::State& state, dlsim::net::Transfer::Stub* stub, int64_t bytes) {
  dlsim::net::Size request;
  request.set_bytes(static_cast<uint64_t>(bytes));
  for (auto _ : state) {
    grpc::ClientContext context;
    dlsim::net::Payload answer;
    const grpc::Status status = stub->Pull(&context, request, &answer);
    if (!status.ok()) return state.SkipWithError(status.error_message().c_str());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  if (!o.serve.empty()) {
    dlsim::net::TransferServer server("0.0.0.0:" + o.serve);
    std::cerr << "dlsim-net-bench: serving on " << server.address() << "\n";
    server.wait();
    return 0;
  }
  std::unique_ptr<dlsim::net::TransferServer> local;
  if (o.target.empty()) local = std::make_unique<dlsim::net::TransferServer>("127.0.0.1:0");
  const std::string target = o.target.empty() ? local->address() : o.target;
  auto stub = dlsim::net::Transfer::NewStub(dlsim::net::unlimited_channel(target));

  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("device", "network");
  benchmark::AddCustomContext("framework", "grpc");
  benchmark::AddCustomContext("grpc_version", grpc::Version());
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("cpu_logical_cores", std::to_string(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("endpoint", o.target.empty() ? "loopback, server in the same process" : o.target);
  for (int64_t bytes = 1024; bytes <= o.max_bytes; bytes *= 4)
    for (const char* phase : {"push", "pull"}) {
      const std::string name = "transfer u8 b" + std::to_string(bytes) + " grpc | threads=1 | " + phase;
      benchmark::RegisterBenchmark(name.c_str(), [&stub, bytes, phase](benchmark::State& state) {
        std::string(phase) == "push" ? push(state, stub.get(), bytes) : pull(state, stub.get(), bytes);
      })->UseRealTime()->Unit(benchmark::kMicrosecond);
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
