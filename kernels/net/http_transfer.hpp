#pragma once
// The HTTP/1.1 end of a transfer benchmark (cpp-httplib, keep-alive): POST /push takes a
// payload and answers its size; GET /pull?bytes=N answers N bytes.  Like TransferServer
// for gRPC, in this process on threads of its own or as the whole program.
#include <memory>
#include <string>
#include <thread>

namespace httplib {
class Server;
}  // namespace httplib

namespace dlsim::net {

class HttpTransferServer {
 public:
  // Listens on `host`:`port` (port 0 picks a free one).
  HttpTransferServer(const std::string& host, int port);
  ~HttpTransferServer();
  int port() const { return port_; }
  void wait();  // serves until killed

 private:
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace dlsim::net
