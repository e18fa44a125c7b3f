"""A small Python serving stack, the one validation/measure/serving_cpu.py serves a model
with and kernels/net/py_transfer_bench.py calibrates: one request is a body of bytes, one
answer another.

  HTTP/1.1   http.server's ThreadingHTTPServer (a thread per connection, keep-alive,
             Nagle off) and http.client, POST /call
  gRPC       grpcio (the C core 1.51.1, as gRPC C++), one unary method without protobuf
             (bytes in, bytes out), a thread pool on the server

serve(protocol, host, port, handler) starts a server on threads of its own and returns a
stop function (record(phase, seconds, faults), if given, hears how long HTTP's server took
to read each request's body, with the minor page faults its thread took meanwhile, and to
write its answer: gRPC's C core does both before and after the handler, out of Python's
sight); Client(protocol, address).call(body) sends one request and returns the
answer (one connection or channel per client; a client is used by one thread at a time).
"""
import http.client
import http.server
import resource
import socket
import threading
import time
from concurrent import futures

PROTOCOLS = ("http", "grpc")
_METHOD = "/dlsim.Serve/Call"


def thread_faults():
    """Minor page faults the calling thread has taken so far (Linux)."""
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt


def process_faults():
    """Minor page faults every thread of this process has taken so far (Linux): a pass on
    two threads faults on its OpenMP worker too, which thread_faults() leaves out."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def current_cpu():
    """The CPU the calling thread last ran on (Linux: /proc/thread-self/stat's field 39)."""
    with open("/proc/thread-self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[36])


def serve(protocol, host, port, handler, workers=8, record=lambda phase, seconds, faults=None: None):
    if protocol == "http":
        return _serve_http(host, port, handler, record)
    if protocol == "grpc":
        return _serve_grpc(host, port, handler, workers)
    raise ValueError(f"protocol is one of {PROTOCOLS}, not {protocol!r}")


def _serve_http(host, port, handler, record):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive
        disable_nagle_algorithm = True

        def do_POST(self):
            faults = thread_faults()
            start = time.perf_counter()
            body = self.rfile.read(int(self.headers["Content-Length"]))
            record("read", time.perf_counter() - start, thread_faults() - faults)
            answer = handler(body)
            start = time.perf_counter()
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            record("write", time.perf_counter() - start)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop():
        server.shutdown()
        server.server_close()

    return server.server_address[1], stop


def _serve_grpc(host, port, handler, workers):
    import grpc

    def call(request, context):
        return handler(request)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers),
                         options=[("grpc.max_receive_message_length", -1), ("grpc.max_send_message_length", -1)])
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
        "dlsim.Serve", {"Call": grpc.unary_unary_rpc_method_handler(call)}),))
    bound = server.add_insecure_port(f"{host}:{port}")
    server.start()
    return bound, lambda: server.stop(grace=None)


class Client:
    def __init__(self, protocol, host, port):
        self.protocol = protocol
        if protocol == "http":
            self.connection = http.client.HTTPConnection(host, port)
            self.connection.connect()
            self.connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        elif protocol == "grpc":
            import grpc
            self.channel = grpc.insecure_channel(f"{host}:{port}", options=[
                ("grpc.max_receive_message_length", -1), ("grpc.max_send_message_length", -1)])
            self.stub = self.channel.unary_unary(_METHOD)
        else:
            raise ValueError(f"protocol is one of {PROTOCOLS}, not {protocol!r}")

    def call(self, body):
        if self.protocol == "grpc":
            return self.stub(body)
        self.connection.request("POST", "/call", body=body,
                                headers={"Content-Type": "application/octet-stream"})
        response = self.connection.getresponse()
        answer = response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}")
        return answer

    def close(self):
        if self.protocol == "grpc":
            self.channel.close()
        else:
            self.connection.close()
