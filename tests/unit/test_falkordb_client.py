"""The FalkorDB client's errors when the server accepts a connection and then says nothing:
a real loopback socket, no FalkorDB needed."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from graphgate.core.config import StoreSettings
from graphgate.core.errors import StoreUnavailableError
from graphgate.store.falkordb_client import FalkorDBServer


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP listener on loopback that accepts connections and never answers."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            accepted.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for connection in accepted:
            connection.close()
        listener.close()


def test_a_copy_whose_server_does_not_answer_the_connection_names_its_timeout(
    silent_server: str,
) -> None:
    """Connecting asks the server for INFO under ``store.copy_timeout_s``: a server that does
    not answer in time is the same clean error as a copy cut off (it was a raw redis
    TimeoutError)."""
    client = FalkorDBServer(StoreSettings(url=silent_server, copy_timeout_s=0.2))
    with pytest.raises(StoreUnavailableError, match="copy_timeout_s"):
        client.copy_graph("a", "b")


def test_a_query_to_a_server_that_does_not_answer_is_retried_then_a_clean_error(
    silent_server: str,
) -> None:
    client = FalkorDBServer(
        StoreSettings(url=silent_server, timeout_s=0.2, retries=1, retry_backoff_s=0.01)
    )
    try:
        with pytest.raises(StoreUnavailableError, match=r"not answering.*2 tries"):
            client.query("g", "RETURN 1")
    finally:
        client.close()
