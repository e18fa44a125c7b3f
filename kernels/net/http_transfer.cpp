#include "http_transfer.hpp"

#include <limits>
#include <stdexcept>

#include <httplib.h>

namespace dlsim::net {

HttpTransferServer::HttpTransferServer(const std::string& host, int port)
    : server_(std::make_unique<httplib::Server>()) {
  server_->Post("/push", [](const httplib::Request& request, httplib::Response& response) {
    response.set_content(std::to_string(request.body.size()), "text/plain");
  });
  server_->Get("/pull", [](const httplib::Request& request, httplib::Response& response) {
    const auto bytes = static_cast<size_t>(std::stoull(request.get_param_value("bytes")));
    response.set_content(std::string(bytes, '\1'), "application/octet-stream");
  });
  server_->set_payload_max_length(std::numeric_limits<size_t>::max());
  server_->set_tcp_nodelay(true);  // no Nagle delay before an answer (servers like Triton do the same)
  port_ = port == 0 ? server_->bind_to_any_port(host) : (server_->bind_to_port(host, port) ? port : -1);
  if (port_ <= 0) throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port));
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

HttpTransferServer::~HttpTransferServer() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

void HttpTransferServer::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace dlsim::net
