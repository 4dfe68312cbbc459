"""``index.executor``: what it accepts, what it refuses, and the local executor's results."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from pydantic import ValidationError

from graphgate.core.config import ExtractSettings, IndexSettings, Settings
from graphgate.core.errors import ConfigError
from graphgate.core.types import Chunk
from graphgate.index.executor_base import build_executor
from graphgate.index.executor_local import LocalExecutor
from graphgate.index.executor_ray import RayExecutor
from graphgate.index.extract_nlp import NlpExtractor


@pytest.mark.parametrize(
    "value",
    ["local", "ray", "ray://127.0.0.1:10001", "ray://head.cluster.internal:10001", "ray://[::1]:1"],
)
def test_executor_accepted(value: str) -> None:
    assert IndexSettings(executor=value).executor == value


@pytest.mark.parametrize(
    "value",
    [
        "",
        "Local",
        "dask://x:1",
        "ray://",
        "ray://host",
        "ray://host:0",
        "ray://host:70000",
        "ray://a b:1",
        "ray://host:1/path",
        "http://host:10001",
    ],
)
def test_executor_refused_with_the_forms_named(value: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(index={"executor": value})
    assert "ray://HOST:PORT" in str(caught.value) and "local" in str(caught.value)


def test_build_executor_picks_by_setting() -> None:
    assert isinstance(build_executor(IndexSettings()), LocalExecutor)
    ray = build_executor(IndexSettings(executor="ray://127.0.0.1:10001"))
    assert isinstance(ray, RayExecutor) and ray.describe()["workers"] == 0  # nothing started


def test_ray_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError

    executor = RayExecutor(IndexSettings(executor="ray"))

    chunk = Chunk(id="c", doc_id="d", index=0, text="Ada met Babbage.", start=0, end=16, n_tokens=4)
    with pytest.raises(ConfigError) as caught:
        executor.extract(NlpExtractor(ExtractSettings()), [chunk])
    assert "graphgate[ray]" in caught.value.fix and "index.executor = local" in caught.value.fix


def test_local_executor_embeds_each_group_in_order() -> None:
    class Counting:
        model, dimension = "count", 2

        def __init__(self) -> None:
            self.calls: list[list[str]] = []

        def embed(self, texts: list[str], max_tokens: int | None = None) -> np.ndarray:
            self.calls.append(list(texts))
            return np.array([[len(t), max_tokens or 0] for t in texts], dtype=np.float32)

    embedder = Counting()
    seen: list[int] = []
    out = list(LocalExecutor().embed(embedder, [["a", "bb"], ["ccc"]], 7, seen.append))
    assert embedder.calls == [["a", "bb"], ["ccc"]] and seen == [2, 1]
    assert [m.tolist() for m in out] == [[[1, 7], [2, 7]], [[3, 7]]]
