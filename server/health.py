"""Waiting for a Tablewire server to say it is ready: for the tools that start one (tests,
benchmarks, supervisors)."""

from __future__ import annotations

import socket
import time


def wait_http(port: int, path: str = "/readyz", timeout: float = 30.0) -> None:
    """Return once ``GET path`` on 127.0.0.1:``port`` answers 200; raise after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                if b" 200 " in s.recv(200):
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"nothing answered {path} on port {port}")
