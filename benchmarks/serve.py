"""tmphys serve under many idle connections: its memory, how soon a request is answered meanwhile, and how soon the
idle and half-sent ones are dropped. Everything on 127.0.0.1.

    python benchmarks/serve.py                 # 1,000 connections (half silent, half with half a request)
    python benchmarks/serve.py --connections 200

The server is the ``tmphys serve`` command itself, on the app's own site; this process raises its own open-file
limit to hold the connections.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

import psutil


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch_seconds(port: int) -> float:
    start = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as response:
        response.read()
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.connections + 256)), hard))
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "tmphys", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        server.stderr.readline()  # "tmphys: serving on …"
        process = psutil.Process(server.pid)
        fetch_seconds(port)
        idle_rss = process.memory_info().rss
        alone = [fetch_seconds(port) for _ in range(5)]
        held: list[socket.socket] = []
        opened = time.monotonic()
        for k in range(args.connections):
            s = socket.create_connection(("127.0.0.1", port))
            if k % 2:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Half: ")
            held.append(s)
        time.sleep(1.0)
        loaded_rss = process.memory_info().rss
        busy = [fetch_seconds(port) for _ in range(5)]
        for s in held:
            s.settimeout(60)
        dropped = []
        for s in held:
            try:
                while s.recv(65536):
                    pass
            except OSError:
                pass
            dropped.append(time.monotonic() - opened)
            s.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.1f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"server idle: {idle_rss / 2**20:.1f} MB; with {args.connections} connections: "
          f"{loaded_rss / 2**20:.1f} MB (+{(loaded_rss - idle_rss) / 2**20:.1f} MB, "
          f"{(loaded_rss - idle_rss) / args.connections / 1024:.1f} kB each)")
    print(f"GET / (1.7 MB): median {statistics.median(alone) * 1000:.0f} ms alone, "
          f"{statistics.median(busy) * 1000:.0f} ms (worst {max(busy) * 1000:.0f} ms) beside them")
    print(f"dropped: all {len(dropped)} within {max(dropped):.1f} s of opening (first {min(dropped):.1f} s)")
    print(f"exit status on Ctrl-C: {server.returncode}")


if __name__ == "__main__":
    main()
