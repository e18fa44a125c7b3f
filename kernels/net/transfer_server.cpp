#include "transfer_server.hpp"

#include <stdexcept>

#include "transfer.grpc.pb.h"

namespace dlsim::net {

class TransferServer::Service final : public Transfer::Service {
  grpc::Status Push(grpc::ServerContext*, const Payload* in, Size* out) override {
    out->set_bytes(in->data().size());
    return grpc::Status::OK;
  }
  grpc::Status Pull(grpc::ServerContext*, const Size* in, Payload* out) override {
    out->mutable_data()->assign(in->bytes(), '\1');
    return grpc::Status::OK;
  }
};

TransferServer::TransferServer(const std::string& address) : service_(std::make_unique<Service>()) {
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &port);
  builder.SetMaxReceiveMessageSize(-1);
  builder.SetMaxSendMessageSize(-1);
  builder.RegisterService(service_.get());
  server_ = builder.BuildAndStart();
  if (!server_ || port == 0) throw std::runtime_error("cannot listen on " + address);
  address_ = address.substr(0, address.rfind(':') + 1) + std::to_string(port);
}

TransferServer::~TransferServer() {
  if (server_) server_->Shutdown();
}

void TransferServer::wait() { server_->Wait(); }

std::shared_ptr<grpc::Channel> unlimited_channel(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

}  // namespace dlsim::net
