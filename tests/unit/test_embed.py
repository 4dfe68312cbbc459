from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import numpy as np
import pytest

from graphgate.core.config import EmbedSettings, Settings
from graphgate.core.errors import ConfigError, EmbeddingMismatchError
from graphgate.core.runs import RunRegistry
from graphgate.embed import build_embedder
from graphgate.embed.base import HoldsMemory
from graphgate.embed.onnx_minilm import OnnxMiniLMEmbedder
from graphgate.embed.openai_compat import OpenAICompatibleEmbedder
from graphgate.index.pipeline import IndexContext
from graphgate.index.stages import _embed


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder(EmbedSettings())


def test_minilm_vectors_are_normalised_and_meaningful(minilm: OnnxMiniLMEmbedder) -> None:
    v = minilm.embed(
        [
            "Bob Cratchit is the clerk of Ebenezer Scrooge.",
            "Scrooge employs Bob Cratchit as his clerk.",
            "The stock market fell sharply on Tuesday.",
        ]
    )
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.3


def test_minilm_order_and_batching_do_not_change_vectors(minilm: OnnxMiniLMEmbedder) -> None:
    texts = ["short", "a much longer sentence about ghosts and Christmas past", "mid length one"]
    together = minilm.embed(texts)
    alone = np.vstack([minilm.embed([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


def test_minilm_hands_back_its_arena_and_embeds_the_same_after() -> None:
    """``release_memory`` (called by the pipeline after each stage) shrinks ONNX Runtime's
    arena; before the first call it has nothing to hand back, and afterwards the vectors are
    the same bits."""
    embedder = OnnxMiniLMEmbedder(EmbedSettings())
    assert isinstance(embedder, HoldsMemory)
    embedder.release_memory()  # no session yet: nothing to do
    texts = [
        f"Passage {i} about ghosts, clerks and Christmas in London." * (i % 5 + 1)
        for i in range(40)
    ]
    before = embedder.embed(texts)
    embedder.release_memory()
    assert np.array_equal(embedder.embed(texts), before)
    embedder.release_memory()
    assert np.array_equal(embedder.embed(texts[:3]), before[:3])


def test_build_embedder_picks_the_provider() -> None:
    assert isinstance(build_embedder(EmbedSettings()), OnnxMiniLMEmbedder)
    assert isinstance(build_embedder(EmbedSettings(provider="openai")), OpenAICompatibleEmbedder)


class _FakeEmbeddings(BaseHTTPRequestHandler):
    """Speaks the OpenAI /v1/embeddings protocol; dimension from the model name."""

    seen: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeEmbeddings.seen.append({"auth": self.headers.get("Authorization"), **body})
        if self.path != "/v1/embeddings":
            self.send_response(404)
            self.end_headers()
            return
        dim = 8 if body["model"] == "tiny-8" else 4
        data = [
            {
                "object": "embedding",
                "index": i,
                "embedding": [float(len(t) + j) for j in range(dim)],
            }
            for i, t in reversed(list(enumerate(body["input"])))
        ]
        payload = json.dumps(
            {
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": 3, "total_tokens": 3},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def fake_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeEmbeddings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_openai_compatible_embedder_over_loopback(fake_server: str) -> None:
    _FakeEmbeddings.seen.clear()
    e = OpenAICompatibleEmbedder(
        EmbedSettings(
            provider="openai", base_url=fake_server, model="tiny-8", api_key="k-1", batch_size=2
        )
    )
    v = e.embed(["a", "bbb", "cc"])
    assert v.shape == (3, 8) and e.dimension == 8
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0)
    assert len(_FakeEmbeddings.seen) == 2  # batched
    assert _FakeEmbeddings.seen[0]["auth"] == "Bearer k-1"
    # rows come back in input order even though the server lists them reversed
    expected = np.array([1.0 + j for j in range(8)])
    assert np.allclose(v[0], expected / np.linalg.norm(expected))


def test_openai_compatible_dimension_mismatch(fake_server: str) -> None:
    e = OpenAICompatibleEmbedder(
        EmbedSettings(provider="openai", base_url=fake_server, model="tiny-4", dimension=8)
    )
    with pytest.raises(EmbeddingMismatchError, match="4-dimensional"):
        e.embed(["x"])


def test_openai_compatible_errors_name_the_fix(fake_server: str) -> None:
    wrong_path = OpenAICompatibleEmbedder(
        EmbedSettings(provider="openai", base_url=fake_server + "/nope", model="m")
    )
    with pytest.raises(ConfigError, match="HTTP 404"):
        wrong_path.embed(["x"])
    unreachable = OpenAICompatibleEmbedder(
        EmbedSettings(provider="openai", base_url="http://127.0.0.1:9/v1", model="m", timeout_s=2)
    )
    with pytest.raises(ConfigError, match="cannot reach"):
        unreachable.embed(["x"])


def test_mean_directions_of_many_groups_at_once() -> None:
    """Each group's unit mean, as numpy gives it one group at a time; a group's vector does not
    depend on the other groups (an update computes fewer or other groups than a rebuild)."""
    from graphgate.embed.base import mean_directions

    rng = np.random.default_rng(0)
    matrix = rng.normal(size=(30, 8)).astype(np.float32)
    groups = [[1], [2, 3], [], [4, 5, 6, 7], [0], [9, 9]]
    together = mean_directions(groups, matrix)
    for group, row in zip(groups, together, strict=True):
        if group:
            mean = matrix[group].mean(axis=0)
            np.testing.assert_allclose(row, mean / np.linalg.norm(mean), atol=1e-6)
    assert not together[2].any()  # no rows: the zero vector
    for i, group in enumerate(groups):
        assert np.array_equal(mean_directions([group], matrix)[0], together[i])
    assert mean_directions([], matrix).shape == (0, 8)


def test_mean_directions_gathers_rows_in_batches_with_the_same_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows are gathered a batch of groups at a time (bounded memory); the vectors are the
    same bits as one gather of all of them."""
    from graphgate.embed import base

    rng = np.random.default_rng(1)
    matrix = rng.normal(size=(50, 8)).astype(np.float32)
    groups = [list(rng.integers(0, 50, size=int(rng.integers(0, 9)))) for _ in range(40)]
    at_once = base.mean_directions(groups, matrix)
    gathered: list[int] = []

    class Recording(np.ndarray):  # type: ignore[type-arg]
        def __getitem__(self, key: object) -> object:
            if isinstance(key, np.ndarray):  # the gather of a batch's rows
                gathered.append(len(key))
            return super().__getitem__(key)  # type: ignore[index]

    monkeypatch.setattr(base, "_GATHER_ROWS", 7)
    batched = base.mean_directions(groups, matrix.view(Recording))
    assert np.array_equal(np.asarray(batched), at_once)
    assert len(gathered) > 5 and max(gathered) <= 7 + 8  # a batch stops once it holds 7 rows


class _Recording:
    """An embedder whose vector of a text is its length: what the stage asked, in order."""

    model = "recording"
    dimension = 2

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Any, max_tokens: int | None = None) -> np.ndarray[Any, Any]:
        self.calls.append(list(texts))
        return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)


def test_the_embed_stage_asks_by_length_and_returns_in_the_texts_order(tmp_path: Any) -> None:
    """Sorted across the whole stage (each batch pads to nearly its own length), the vectors
    still come back in the texts' order."""
    lengths = [9, 1, 5, 3, 7, 2, 8, 4, 6, 10, 12, 11]
    texts = ["w" * n for n in lengths]
    recording = _Recording()
    settings = Settings(embed={"batch_size": 1})
    run = RunRegistry(tmp_path).create()
    ctx = IndexContext(settings, tmp_path, run, recording, None)  # type: ignore[arg-type]
    matrix, reused = _embed(ctx, "embed chunks", texts, 16)
    assert reused == 0
    assert matrix[:, 0].tolist() == lengths
    asked = [len(t) for call in recording.calls for t in call]
    assert asked == sorted(lengths)
    assert [len(call) for call in recording.calls] == [4, 4, 4]  # four batches a group
