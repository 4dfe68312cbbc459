"""Content-keyed caches: per-chunk work done once per content, reused by every later run.

A key is a hash of everything that determines the result (the text, the component and its
settings), so a cached value is exactly what computing it again would give: an entry is never
invalidated, only unused, and an update that reuses it equals a rebuild. One SQLite file per
workspace; each batch is written in one transaction, so a killed run leaves whole entries only.
LLM answers have their own cache (``llm_cache.sqlite``), keyed by the full request.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from graphgate.core.types import CommunityReport
from graphgate.embed.base import Embedder, Matrix

# SQLite's default limit of host parameters in one statement is 999 on older builds.
_BATCH = 500


def content_key(*parts: str) -> str:
    """A hash of the parts, unambiguous however they split (a unit separator between them)."""
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


class ContentCache:
    """Bytes by key, in named tables (``vectors``, ``extraction``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._tables: set[str] = set()

    def _conn(self, table: str) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path)
            self._db.execute("PRAGMA journal_mode=WAL")
        if table not in self._tables:
            if not table.isidentifier():
                raise ValueError(f"bad cache table name {table!r}")
            self._db.execute(
                f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value BLOB)"
            )
            self._tables.add(table)
        return self._db

    def get_many(self, table: str, keys: Sequence[str]) -> dict[str, bytes]:
        db = self._conn(table)
        found: dict[str, bytes] = {}
        unique = sorted(set(keys))
        for start in range(0, len(unique), _BATCH):
            part = unique[start : start + _BATCH]
            marks = ",".join("?" * len(part))
            rows = db.execute(f"SELECT key, value FROM {table} WHERE key IN ({marks})", part)
            found.update({k: bytes(v) for k, v in rows})
        return found

    def put_many(self, table: str, items: Iterable[tuple[str, bytes]]) -> None:
        db = self._conn(table)
        with db:
            db.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", list(items))

    def count(self, table: str) -> int:
        row = self._conn(table).execute(f"SELECT COUNT(*) FROM {table}").fetchone()
        return int(row[0])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
            self._tables.clear()


class CachedEmbedder:
    """Texts embedded once per (model, token limit, text); misses are embedded together.

    Reuse is exact: the local embedder's vector for a text does not depend on its batch (the
    test suite checks it), so a cached vector is the one a rebuild computes."""

    def __init__(self, embedder: Embedder, cache: ContentCache | None, read: bool = True) -> None:
        self.embedder = embedder
        self.cache = cache
        self.read = read
        self.hits = 0
        self.misses = 0

    def embed(
        self,
        texts: Sequence[str],
        max_tokens: int,
        embed_misses: Callable[[list[str]], Matrix] | None = None,
    ) -> Matrix:
        """``embed_misses`` embeds the uncached texts (with progress); default: the embedder."""
        dim = self.embedder.dimension
        out = np.zeros((len(texts), dim), dtype=np.float32)
        model = f"{self.embedder.model}/{dim}/{max_tokens}"
        keys = [content_key(model, t) for t in texts]
        found = self.cache.get_many("vectors", keys) if self.cache and self.read else {}
        missing = [i for i, k in enumerate(keys) if k not in found]
        for i, key in enumerate(keys):
            if key in found:
                out[i] = np.frombuffer(found[key], dtype=np.float32)
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            fresh_texts = [texts[i] for i in missing]
            if embed_misses is not None:
                fresh = embed_misses(fresh_texts)
            else:
                fresh = self.embedder.embed(fresh_texts, max_tokens=max_tokens)
            out[missing] = fresh
            if self.cache is not None:
                self.cache.put_many(
                    "vectors",
                    (
                        (keys[i], np.asarray(vector, dtype=np.float32).tobytes())
                        for i, vector in zip(missing, fresh, strict=True)
                    ),
                )
        return out


def extractor_fingerprint(name: str, settings_json: str) -> str:
    """What makes an extractor's output for a text what it is: its name and settings."""
    return content_key(name, settings_json)


def encode_extraction(
    mentions: list[dict[str, object]], relations: list[dict[str, object]]
) -> bytes:
    return json.dumps({"m": mentions, "r": relations}, ensure_ascii=False).encode("utf-8")


def decode_extraction(value: bytes) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    data = json.loads(value.decode("utf-8"))
    return data["m"], data["r"]


class CachedReports:
    """Community reports by the key of their inputs (``CommunitySummarizer._keys``), kept with
    their rating before it is scaled to the run's highest. ``read=False`` (a full rebuild)
    makes every report again and stores it."""

    def __init__(self, cache: ContentCache | None, read: bool = True) -> None:
        self.cache = cache
        self.read = read

    def get_many(self, keys: Sequence[str]) -> dict[str, CommunityReport]:
        if self.cache is None or not self.read:
            return {}
        found = self.cache.get_many("reports", keys)
        return {k: CommunityReport(**json.loads(v.decode("utf-8"))) for k, v in found.items()}

    def put_many(self, reports: Mapping[str, CommunityReport]) -> None:
        if self.cache is not None:
            self.cache.put_many(
                "reports",
                (
                    (key, json.dumps(dataclasses.asdict(r), ensure_ascii=False).encode("utf-8"))
                    for key, r in reports.items()
                ),
            )
