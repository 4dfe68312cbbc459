"""uvicorn's h11 protocol with a deadline for request headers.

uvicorn times out idle keep-alive connections, but a client that sends its headers one byte at
a time (slowloris) holds a connection open forever. Here every connection must finish a
request's headers within ``header_timeout_s`` of connecting or of its previous response.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


class DeadlineH11Protocol(H11Protocol):
    header_timeout_s: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        waiting_for = self.cycle
        self._deadline = self.loop.call_later(self.header_timeout_s, self._expire, waiting_for)

    def _expire(self, waiting_for: object) -> None:
        # A new cycle object exists once a request's headers have been parsed.
        if self.cycle is waiting_for and not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)


def protocol_with_deadline(header_timeout_s: float) -> type[DeadlineH11Protocol]:
    """A protocol class bound to one timeout (uvicorn takes a class, not an instance)."""
    return type(
        "BoundDeadlineH11Protocol", (DeadlineH11Protocol,), {"header_timeout_s": header_timeout_s}
    )
