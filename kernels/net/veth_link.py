"""Study A's client link on one machine: a network namespace joined to this one by a veth
pair whose both ends `tc` limits to 5 Gbit/s (a token bucket, 1 MB of burst).  Made and
removed by whoever measures across it (validation/measure/serving_cpu.py,
kernels/net/py_transfer_bench.py), on 10.77.0.0/24 only; needs root.

    with VethLink():
        subprocess.Popen(in_namespace([...]))   # a server at SERVER_ADDRESS
        ...                                     # its clients here, at HOST_ADDRESS
"""
import subprocess

NAMESPACE = "dlsim-serve"
HOST_ADDRESS, SERVER_ADDRESS = "10.77.0.1", "10.77.0.2"
LINK_RATE = "5gbit"


def in_namespace(command):
    """The command, run inside the link's namespace."""
    return ["ip", "netns", "exec", NAMESPACE] + command


class VethLink:
    """The namespace, the veth pair and their rate limits, for the `with` block."""

    def __enter__(self):
        self.close()
        for command in (
                ["ip", "netns", "add", NAMESPACE],
                ["ip", "link", "add", "dlsim-c", "type", "veth", "peer", "name", "dlsim-s"],
                ["ip", "link", "set", "dlsim-s", "netns", NAMESPACE],
                ["ip", "addr", "add", f"{HOST_ADDRESS}/24", "dev", "dlsim-c"],
                ["ip", "link", "set", "dlsim-c", "up"],
                in_namespace(["ip", "addr", "add", f"{SERVER_ADDRESS}/24", "dev", "dlsim-s"]),
                in_namespace(["ip", "link", "set", "dlsim-s", "up"]),
                in_namespace(["ip", "link", "set", "lo", "up"]),
                ["tc", "qdisc", "add", "dev", "dlsim-c", "root", "tbf", "rate", LINK_RATE, "burst", "1mb", "latency",
                 "50ms"],
                in_namespace(["tc", "qdisc", "add", "dev", "dlsim-s", "root", "tbf", "rate", LINK_RATE, "burst", "1mb",
                              "latency", "50ms"])):
            subprocess.run(command, check=True)
        return self

    def __exit__(self, *exc):
        self.close()

    @staticmethod
    def close():
        subprocess.run(["ip", "link", "del", "dlsim-c"], stderr=subprocess.DEVNULL)
        subprocess.run(["ip", "netns", "del", NAMESPACE], stderr=subprocess.DEVNULL)
