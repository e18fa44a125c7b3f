#pragma once
// The far end of a transfer benchmark: a gRPC server answering Push and Pull
// (transfer.proto), in this process on a thread pool of its own or as the whole program
// (dlsim-net-bench --serve PORT, for a second machine or network namespace).
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

namespace dlsim::net {

class TransferServer {
 public:
  // Listens on `address` ("127.0.0.1:0" picks a free port).
  explicit TransferServer(const std::string& address);
  ~TransferServer();
  std::string address() const { return address_; }  // with the port it got
  void wait();                                        // serves until killed

 private:
  class Service;
  std::unique_ptr<Service> service_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
};

// A channel that allows messages of any size (gRPC's default caps them at 4 MiB).
std::shared_ptr<grpc::Channel> unlimited_channel(const std::string& address);

}  // namespace dlsim::net
