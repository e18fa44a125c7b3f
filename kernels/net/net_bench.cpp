// dlsim-net-bench: times gRPC or HTTP/1.1 requests whose payload is 1 KiB to 64 MiB, pushed
// to a server and pulled from it, one request in flight, with Google Benchmark.
//   dlsim-net-bench [--protocol grpc|http] [--target HOST:PORT] [--max-bytes N]
//                   [--benchmark_out=raw.json ...]
//   dlsim-net-bench --serve PORT      be the server (gRPC on PORT, HTTP on PORT + 1) for a
//                                     run on another machine or namespace
// Without --target the server runs in this process on loopback, so that the sender's and
// the receiver's CPU work share one machine, as a parameter server and its workers on one
// instance do.  Rows are "transfer u8 b<bytes> grpc | threads=1 | push" (or http, or pull),
// the raw format `dlsim calibrate` fits into a per-request and per-byte cost.  gRPC is
// gRPC C++ (what Triton serves); HTTP is cpp-httplib with keep-alive (a C++ HTTP server
// like Triton's, which uses libevhtp).
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>
#include <httplib.h>

#include "transfer.grpc.pb.h"
#include "http_transfer.hpp"
#include "transfer_server.hpp"

namespace {

struct Options {
  std::string target;
  std::string serve;
  std::string protocol = "grpc";
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
    else if (arg == "--protocol" && i + 1 < argc) o.protocol = argv[++i];
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

void http_push(benchmark::State& state, httplib::Client* client, int64_t bytes) {
  const std::string payload(static_cast<size_t>(bytes), '\1');
  for (auto _ : state) {
    const auto answer = client->Post("/push", payload, "application/octet-stream");
    if (!answer || answer->status != 200) return state.SkipWithError("HTTP push failed");
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

void http_pull(benchmark::State& state, httplib::Client* client, int64_t bytes) {
  const std::string path = "/pull?bytes=" + std::to_string(bytes);
  for (auto _ : state) {
    const auto answer = client->Get(path);
    if (!answer || answer->status != 200 || static_cast<int64_t>(answer->body.size()) != bytes)
      return state.SkipWithError("HTTP pull failed");
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  if (o.protocol != "grpc" && o.protocol != "http") {
    std::cerr << "dlsim-net-bench: --protocol is grpc or http, not " << o.protocol << "\n";
    return 2;
  }
  if (!o.serve.empty()) {
    dlsim::net::TransferServer server("0.0.0.0:" + o.serve);
    dlsim::net::HttpTransferServer http("0.0.0.0", std::stoi(o.serve) + 1);
    std::cerr << "dlsim-net-bench: serving gRPC on " << server.address() << ", HTTP on port " << http.port() << "\n";
    server.wait();
    return 0;
  }
  const bool grpc = o.protocol == "grpc";
  std::unique_ptr<dlsim::net::TransferServer> local;
  std::unique_ptr<dlsim::net::HttpTransferServer> local_http;
  std::string target = o.target;
  if (target.empty() && grpc) {
    local = std::make_unique<dlsim::net::TransferServer>("127.0.0.1:0");
    target = local->address();
  } else if (target.empty()) {
    local_http = std::make_unique<dlsim::net::HttpTransferServer>("127.0.0.1", 0);
    target = "127.0.0.1:" + std::to_string(local_http->port());
  }
  std::shared_ptr<dlsim::net::Transfer::Stub> stub;
  std::shared_ptr<httplib::Client> client;
  if (grpc) {
    stub = dlsim::net::Transfer::NewStub(dlsim::net::unlimited_channel(target));
  } else {
    const auto colon = target.rfind(':');
    client = std::make_shared<httplib::Client>(target.substr(0, colon), std::stoi(target.substr(colon + 1)));
    client->set_keep_alive(true);
    client->set_tcp_nodelay(true);  // as the server: no Nagle delay on small writes
  }

  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("device", "network");
  benchmark::AddCustomContext("framework", o.protocol);
  if (grpc) benchmark::AddCustomContext("grpc_version", grpc::Version());
  else benchmark::AddCustomContext("cpp_httplib_version", CPPHTTPLIB_VERSION);
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("cpu_logical_cores", std::to_string(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("endpoint", o.target.empty() ? "loopback, server in the same process" : o.target);
  for (int64_t bytes = 1024; bytes <= o.max_bytes; bytes *= 4)
    for (const char* phase : {"push", "pull"}) {
      const std::string name = "transfer u8 b" + std::to_string(bytes) + " " + o.protocol + " | threads=1 | " + phase;
      const bool is_push = std::string(phase) == "push";
      benchmark::RegisterBenchmark(name.c_str(), [stub, client, bytes, is_push](benchmark::State& state) {
        if (stub) is_push ? push(state, stub.get(), bytes) : pull(state, stub.get(), bytes);
        else is_push ? http_push(state, client.get(), bytes) : http_pull(state, client.get(), bytes);
      })->UseRealTime()->Unit(benchmark::kMicrosecond);
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // Close the client's keep-alive connection before the server stops, which would
  // otherwise wait for it to time out.
  benchmark::ClearRegisteredBenchmarks();
  client.reset();
  return 0;
}
