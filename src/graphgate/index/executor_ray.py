"""The Ray executor: offline extraction and local embeddings on a Ray cluster's actors.

Each actor (index/chunk_worker.py, one CPU) holds a spaCy parser and the ONNX embedder for as
long as the executor is open, so a server's updates find them warm. Batches go out round-robin
with a bounded number in flight (the driver never holds the whole corpus's results at once)
and come back in the order they went out: the run's artifacts are those of the local executor.

A worker that dies (killed, out of memory, its node lost) is restarted by Ray and its batches
given to it again, ``index.ray_retries`` times; past that the run fails and never becomes
current. Work that is not the CPU's (an LLM extractor, an embeddings endpoint) stays in this
process: it waits on a model server, which a cluster would not make faster.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from graphgate.core.config import IndexSettings
from graphgate.core.errors import ConfigError, GraphgateError, WorkerDiedError
from graphgate.core.types import Chunk, Mention, RawRelation
from graphgate.embed.base import Embedder, Matrix
from graphgate.index.executor_local import LocalExecutor
from graphgate.index.extract_base import Extraction, Extractor, Progress

# Tries at a Ray client server's start of this client's server (see ``_init``).
_CLIENT_START_ATTEMPTS = 3
# CPUs an actor asks of the cluster, and the embedder's threads in it.
_ACTOR_CPUS = 1
# Batches in flight per actor: one running, one waiting, so an actor never idles on the driver.
_IN_FLIGHT_PER_ACTOR = 2


class RayExecutor:
    name = "ray"

    def __init__(self, settings: IndexSettings) -> None:
        self.settings = settings
        self._ray: Any = None
        self._actors: list[Any] = []
        self._owns_connection = False
        self._nodes = 0

    def extract(
        self, extractor: Extractor, chunks: Sequence[Chunk], progress: Progress | None = None
    ) -> Extraction:
        from graphgate.index.extract_nlp import NlpExtractor

        if not isinstance(extractor, NlpExtractor) or not chunks:
            return LocalExecutor().extract(extractor, chunks, progress)
        actors = self._workers()
        # Even shares for a small update, so every worker has some of it.
        size = min(self.settings.ray_batch_chunks, -(-len(chunks) // len(actors)))
        batches = [list(chunks[i : i + size]) for i in range(0, len(chunks), size)]
        mentions: list[Mention] = []
        relations: list[RawRelation] = []
        calls = [("extract", (extractor.settings, batch), len(batch)) for batch in batches]
        for part in self._ordered(calls, progress):
            for found, related in part:
                mentions.extend(found)
                relations.extend(related)
        return Extraction(mentions, relations)

    def embed(
        self,
        embedder: Embedder,
        groups: Sequence[Sequence[str]],
        max_tokens: int,
        progress: Progress | None = None,
    ) -> Iterator[Matrix]:
        from graphgate.embed.onnx_minilm import OnnxMiniLMEmbedder

        if not isinstance(embedder, OnnxMiniLMEmbedder) or not groups:
            yield from LocalExecutor().embed(embedder, groups, max_tokens, progress)
            return
        actors = self._workers()
        total = sum(len(g) for g in groups)
        want = min(self.settings.ray_batch_chunks, -(-total // len(actors)))
        bundles: list[list[Sequence[str]]] = [[]]
        for group in groups:  # whole groups: each is one embedder call, as it is locally
            if bundles[-1] and sum(len(g) for g in bundles[-1]) >= want:
                bundles.append([])
            bundles[-1].append(group)
        calls = [
            ("embed", (embedder.settings, [list(g) for g in b], max_tokens), sum(map(len, b)))
            for b in bundles
        ]
        for matrices in self._ordered(calls, progress):
            yield from matrices

    def describe(self) -> dict[str, object]:
        return {
            "executor": self.name,
            "address": self.settings.executor,
            "workers": len(self._actors),
            "nodes": self._nodes,
        }

    def worker_pids(self) -> list[int]:
        """The actors' process ids (starting them if they are not up)."""
        actors = self._workers()
        pids: list[int] = self._ray.get([actor.pid.remote() for actor in actors])
        return pids

    def close(self) -> None:
        """Ends the actors, and the connection when this executor made it."""
        ray, self._ray = self._ray, None
        if ray is None:
            return
        for actor in self._actors:
            with contextlib.suppress(Exception):  # already gone with its node
                ray.kill(actor)
        self._actors = []
        if self._owns_connection:
            ray.shutdown()
            self._owns_connection = False

    def _ordered(
        self, calls: list[tuple[str, tuple[Any, ...], int]], progress: Progress | None
    ) -> Iterator[Any]:
        """Each call's result in call order, a bounded number in flight."""
        actors = self._workers()
        window = _IN_FLIGHT_PER_ACTOR * len(actors)
        pending: deque[tuple[Any, int]] = deque()
        for i, (method, args, size) in enumerate(calls):
            actor = actors[i % len(actors)]
            pending.append((getattr(actor, method).remote(*args), size))
            if len(pending) >= window:
                yield self._result(*pending.popleft(), progress)
        while pending:
            yield self._result(*pending.popleft(), progress)

    def _result(self, ref: Any, size: int, progress: Progress | None) -> Any:
        ray = self._ray
        try:
            value = ray.get(ref)
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, GraphgateError):
                raise cause from None
            raise GraphgateError(
                f"a Ray worker failed on its batch: {type(cause).__name__}: {cause}",
                "the same error happens locally with index.executor = local; the previous run "
                "stays current",
            ) from exc
        except ray.exceptions.RayError as exc:  # the actor died, or its node
            self.close()  # the survivors are rebuilt by the next run
            raise WorkerDiedError(
                "a Ray worker ended before finishing its batch (killed, out of memory, or its "
                f"node lost) and index.ray_retries = {self.settings.ray_retries} gave it no "
                f"further try ({type(exc).__name__}); nothing was changed",
                "run it again (unchanged chunks come from the content cache); raise "
                "index.ray_retries to retry lost batches",
            ) from exc
        if progress is not None:
            progress(size)
        return value

    def _workers(self) -> list[Any]:
        """The actors, connecting and starting them on first use."""
        if self._actors:
            return self._actors
        ray = self._connect()
        from graphgate.index.chunk_worker import ChunkWorker

        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = self.settings.ray_workers or max(cpus, 1)
        retries = self.settings.ray_retries
        worker = ray.remote(num_cpus=_ACTOR_CPUS, max_restarts=retries, max_task_retries=retries)(
            ChunkWorker
        )
        self._actors = [worker.remote(_ACTOR_CPUS) for _ in range(count)]
        self._nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
        return self._actors

    def _connect(self) -> Any:
        if self._ray is not None:
            return self._ray
        try:
            import ray
        except ImportError as exc:
            raise ConfigError(
                f"index.executor = {self.settings.executor!r} needs Ray, which is not installed",
                "pip install 'graphgate[ray]' (the Ray version of the cluster), or set "
                "index.executor = local",
            ) from exc
        if not ray.is_initialized():  # else the caller's connection is used, and kept
            address = self.settings.executor
            if address == "ray":
                address = os.environ.get("RAY_ADDRESS", "auto")
            try:
                _init(ray, address)
            except Exception as exc:
                raise ConfigError(
                    f"could not reach the Ray cluster at {address}: {type(exc).__name__}: {exc}",
                    "start one (ray start --head; its client server listens on port 10001), "
                    "check the address and that both sides run the same Ray and Python "
                    "versions, or set index.executor = local",
                ) from exc
            self._owns_connection = True
        self._ray = ray
        return ray


def _init(ray: Any, address: str) -> None:
    """Connects to the cluster. A Ray client server sometimes fails to start the server of a
    new client ("Initialization failure from server", seen about one connection in five on a
    fresh cluster); the next attempt is served, so a refused start is tried again."""
    for attempt in range(_CLIENT_START_ATTEMPTS):
        try:
            ray.init(
                address=address,
                namespace="graphgate",
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
            return
        except ConnectionAbortedError:
            if attempt == _CLIENT_START_ATTEMPTS - 1:
                raise
            time.sleep(1.0)
