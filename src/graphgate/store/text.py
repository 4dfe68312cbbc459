"""Keyword search with bm25s, persisted beside the graph."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphgate.store.base import Hit

_SAVED = "params.index.json"  # one of the files bm25s writes; absent when nothing was indexable


def _bm25s() -> Any:
    """bm25s, with tqdm's process-wide lock a thread lock. bm25s opens a tqdm bar (hidden) for
    each call, and tqdm's first bar makes a lock that is also a multiprocessing semaphore; a
    worker process that is ended (the gate worker at the end of a run) never unregisters it,
    and the resource tracker then warns of "leaked semaphore objects" as a large index or add
    exits. No graphgate process shares a bar with another, so a thread lock is enough."""
    import bm25s
    from tqdm import tqdm

    if getattr(tqdm, "_lock", None) is None:
        tqdm.set_lock(threading.RLock())
    return bm25s


class Bm25TextIndex:
    """``retriever`` is None when no chunk had an indexable word (only stopwords, digits or
    punctuation): such an index is valid and finds nothing."""

    def __init__(self, ids: Sequence[str], retriever: Any) -> None:
        self.ids = list(ids)
        self.retriever = retriever

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, query: str, k: int) -> list[Hit]:
        bm25s = _bm25s()
        if not self.ids or self.retriever is None:
            return []
        tokens = bm25s.tokenize([query], stopwords="en", show_progress=False, return_ids=False)
        if not tokens or not tokens[0]:
            return []
        docs, scores = self.retriever.retrieve(tokens, k=min(k, len(self.ids)), show_progress=False)
        return [
            (self.ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0], strict=True) if s > 0
        ]


def memory_text_index(ids: Sequence[str], texts: Sequence[str]) -> Bm25TextIndex:
    """An index held in memory only (a server store builds one from the server's texts)."""
    bm25s = _bm25s()
    retriever: Any = None
    if texts:
        tokens = bm25s.tokenize(list(texts), stopwords="en", show_progress=False)
        if tokens.vocab:
            retriever = bm25s.BM25()
            retriever.index(tokens, show_progress=False)
    return Bm25TextIndex(ids, retriever)


def build_text_index(ids: Sequence[str], texts: Sequence[str], folder: Path) -> Bm25TextIndex:
    folder.mkdir(parents=True, exist_ok=True)
    index = memory_text_index(ids, texts)
    if index.retriever is not None:
        index.retriever.save(str(folder))
    (folder / "ids.json").write_text(json.dumps(list(ids)))
    return index


def open_text_index(folder: Path) -> Bm25TextIndex:
    bm25s = _bm25s()
    ids = json.loads((folder / "ids.json").read_text())
    retriever = bm25s.BM25.load(str(folder)) if ids and (folder / _SAVED).exists() else None
    return Bm25TextIndex(ids, retriever)
