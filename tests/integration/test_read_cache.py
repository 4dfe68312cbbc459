"""The embedded store's page cache in a querying process (store.read_cache_mb): it reaches
LadybugDB, a small one answers as the default does, and one too small is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphgate import Workspace
from graphgate.core.errors import ConfigError

QUESTIONS = (
    "Who does Bob Cratchit work for?",
    "Where does Bob Cratchit live?",
    "What is known about Scrooge?",
)


def _answers(path: Path, **overrides: Any) -> list[str]:
    with Workspace(path, **overrides) as ws:
        found = []
        for question in QUESTIONS:
            for mode in ("local", "hybrid", "graph"):
                answer = ws.query(question, mode=mode).to_dict()
                answer.pop("timings_ms", None)
                found.append(json.dumps(answer, sort_keys=True, default=str))
        return found


def test_the_page_cache_reaches_ladybugdb_and_answers_do_not_change(
    small_workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ladybug

    opened: list[tuple[bool, int]] = []
    real = ladybug.Database

    def recording(path: str, **kwargs: Any) -> Any:
        opened.append((bool(kwargs.get("read_only")), int(kwargs.get("buffer_pool_size", -1))))
        return real(path, **kwargs)

    monkeypatch.setattr(ladybug, "Database", recording)
    path = small_workspace.path
    small_workspace.close()
    default = _answers(path)
    assert (True, 64 << 20) in opened
    opened.clear()
    assert _answers(path, store={"read_cache_mb": 32}) == default
    assert (True, 32 << 20) in opened
    opened.clear()
    assert _answers(path, store={"read_cache_mb": 0}) == default
    assert (True, 0) in opened


@pytest.mark.parametrize("size", [1, 8, 31, -1])
def test_a_page_cache_too_small_is_refused_by_name(tmp_path: Path, size: int) -> None:
    with pytest.raises(ConfigError, match="read_cache_mb"):
        Workspace(tmp_path, store={"read_cache_mb": size})
