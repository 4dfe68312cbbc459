"""The OpenAI-compatible API on a real loopback server, through the official ``openai`` client
(models, a cited answer, the same answer streamed, a refused key, OpenAI-shaped errors) and
through httpx for the raw server-sent events; ``POST /query/stream`` and ``POST /retrieve``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from graphgate.core.modes import QUERY_MODES
from tests.serving import running_server

READ, WRITE = "read-token-R", "write-token-W"
QUESTION = "Who does Bob Cratchit work for?"


@pytest.fixture(scope="module")
def server(small_workspace_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("openai")
    shutil.copytree(small_workspace_path, root / "ws")
    with running_server(root / "ws", WRITE, READ) as (base, _):
        yield base


def _client(base: str, key: str = READ) -> openai.OpenAI:
    return openai.OpenAI(base_url=base + "/v1", api_key=key, max_retries=0, timeout=60)


def _ask(mode: str = "local", **extra: Any) -> dict[str, Any]:
    return {
        "model": f"graphgate-{mode}",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Tell me about the Cratchits."},
            {"role": "assistant", "content": "They are a family in London."},
            {"role": "user", "content": QUESTION},
        ],
        **extra,
    }


def test_models_are_the_query_modes(server: str) -> None:
    ids = [m.id for m in _client(server).models.list()]
    assert ids == [f"graphgate-{mode}" for mode in QUERY_MODES]


def test_a_cited_answer_and_the_same_answer_streamed(server: str) -> None:
    client = _client(server)
    whole = client.chat.completions.create(**_ask())
    text = whole.choices[0].message.content
    assert text and "[1]" in text and whole.choices[0].finish_reason == "stop"
    cited = (whole.model_extra or {})["graphgate"]
    assert cited["answer"] == text and cited["mode"] == "local" and cited["run_id"]
    first = cited["citations"][0]
    assert first["marker"] == 1 and first["doc_id"] and first["end"] > first["start"]
    assert cited["entities"] and "edges" in cited and whole.system_fingerprint == cited["run_id"]

    chunks = list(client.chat.completions.create(**_ask(), stream=True))
    pieces = [c.choices[0].delta.content for c in chunks if c.choices[0].delta.content]
    assert len(pieces) >= 2  # several chunks, not one
    assert "".join(pieces) == text  # the non-streamed text is the streamed text joined
    assert chunks[0].choices[0].delta.role == "assistant"
    last = chunks[-1]
    assert last.choices[0].finish_reason == "stop"
    assert (last.model_extra or {})["graphgate"]["citations"] == cited["citations"]
    assert len({c.id for c in chunks}) == 1


def test_the_write_token_is_a_key_too_and_a_wrong_key_is_refused(server: str) -> None:
    assert _client(server, WRITE).models.list().data
    with pytest.raises(openai.AuthenticationError) as refused:
        _client(server, "sk-not-the-token").chat.completions.create(**_ask())
    assert refused.value.status_code == 401
    assert (
        isinstance(refused.value.body, dict)
        and refused.value.body["type"] == "authentication_error"
    )
    raw = httpx.get(server + "/v1/models", timeout=30)  # no key at all, a read token set
    assert raw.status_code == 401 and set(raw.json()["error"]) == {
        "message",
        "type",
        "param",
        "code",
    }


@pytest.mark.parametrize(
    ("body", "status", "param"),
    [
        (_ask("nonsense"), 404, "model"),
        ({"model": "graphgate-local", "messages": []}, 400, "messages"),
        ({"model": "graphgate-local", "messages": [{"role": "user"}]}, 400, "messages"),
        (
            {"model": "graphgate-local", "messages": [{"role": "assistant", "content": "Hi"}]},
            400,
            "messages",
        ),
        ({"model": "graphgate-local", "messages": [{"role": "wizard", "content": "x"}]}, 400,
         "messages.0.role"),
        (_ask(n=2), 400, "n"),
        ({"model": "graphgate-local", "messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "http://x"}}]}]}, 400, "messages.0.content"),
    ],
)  # fmt: skip
def test_bad_requests_get_openai_shaped_errors(
    server: str, body: dict[str, Any], status: int, param: str
) -> None:
    response = httpx.post(
        server + "/v1/chat/completions",
        json=body,
        headers={"Authorization": f"Bearer {READ}"},
        timeout=30,
    )
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error" and error["message"]
    assert (error["param"] or "").startswith(param)
    assert "wizard" not in error["message"] and "http://x" not in error["message"]  # not echoed


def test_the_sdk_raises_the_error_classes_clients_catch(server: str) -> None:
    with pytest.raises(openai.NotFoundError) as missing:
        _client(server).chat.completions.create(**_ask("nonsense"))
    assert missing.value.code == "model_not_found"
    with pytest.raises(openai.BadRequestError):
        _client(server).chat.completions.create(
            model="graphgate-local", messages=[{"role": "user", "content": "x" * 100_000}]
        )


def _sse(response: httpx.Response) -> list[tuple[str | None, str]]:
    """(event name, data) pairs of a server-sent event stream."""
    events: list[tuple[str | None, str]] = []
    name: str | None = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            events.append((name, line[6:]))
            name = None
    return events


def test_raw_chat_stream_is_openai_chunks_ending_with_done(server: str) -> None:
    headers = {"Authorization": f"Bearer {READ}"}
    with httpx.stream(
        "POST", server + "/v1/chat/completions", json=_ask(stream=True), headers=headers,
        timeout=60,
    ) as response:  # fmt: skip
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = _sse(response)
    assert events[-1] == (None, "[DONE]")
    chunks = [json.loads(data) for _, data in events[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert [c["choices"][0]["finish_reason"] for c in chunks].count("stop") == 1
    assert "graphgate" in chunks[-1] and all("graphgate" not in c for c in chunks[:-1])


def test_query_stream_sends_retrieval_then_text_then_the_answer(server: str) -> None:
    headers = {"Authorization": f"Bearer {READ}"}
    body = {"question": QUESTION, "mode": "hybrid"}
    with httpx.stream(
        "POST", server + "/query/stream", json=body, headers=headers, timeout=60
    ) as response:
        assert response.status_code == 200
        events = _sse(response)
    names = [n for n, _ in events]
    assert names[0] == "retrieval" and names[-1] == "answer"
    assert set(names[1:-1]) == {"text"} and len(names) >= 4
    retrieval = json.loads(events[0][1])
    answer = json.loads(events[-1][1])
    assert retrieval["passages"][0]["text"] and retrieval["run_id"] == answer["run_id"]
    assert "".join(json.loads(d)["text"] for n, d in events if n == "text") == answer["answer"]
    plain = httpx.post(server + "/query", json=body, headers=headers, timeout=60).json()
    assert plain["answer"] == answer["answer"] and plain["citations"] == answer["citations"]
    refused = httpx.post(server + "/query/stream", json={"question": " "}, headers=headers)
    assert refused.status_code == 422  # a bad question fails before any stream


def test_retrieve_returns_passages_with_their_place(server: str) -> None:
    headers = {"Authorization": f"Bearer {READ}"}
    out = httpx.post(
        server + "/retrieve", json={"question": QUESTION, "top_k": 3}, headers=headers, timeout=60
    ).json()
    assert len(out["passages"]) == 3 and [p["rank"] for p in out["passages"]] == [1, 2, 3]
    first = out["passages"][0]
    assert first["text"] and first["doc_id"] and first["end"] > first["start"]
    assert out["run_id"] and out["entities"] and out["timings_ms"]["retrieve"] > 0


def test_a_model_answerer_streams_through_the_api_as_it_writes(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    """The model holds its stream after a few pieces until the client has read the first words:
    a server that waited for the whole answer before sending would keep it waiting (10 s)."""
    import threading

    from tests.llm_fake import fake_model_server

    shutil.copytree(small_workspace_path, tmp_path / "ws")
    with fake_model_server() as (url, model):
        llm = {"provider": "openai", "base_url": url + "/v1", "model": "fake-4", "cache": False}
        with running_server(tmp_path / "ws", WRITE, READ, query={"answerer": "llm"}, llm=llm) as (
            base,
            _,
        ):
            model.hold, model.hold_after = threading.Event(), 6  # a few words of the answer
            stream = _client(base).chat.completions.create(**_ask("hybrid"), stream=True)
            pieces: list[str] = []
            for chunk in stream:
                if chunk.choices[0].delta.content:
                    pieces.append(chunk.choices[0].delta.content)
                    model.hold.set()  # the first words are here; the model may go on
            assert model.released is True
            assert len(pieces) >= 3
            whole = _client(base).chat.completions.create(**_ask("hybrid"))
    assert "".join(pieces) == whole.choices[0].message.content
    prompt = model.calls[0]["body"]["messages"][-1]["content"]
    # Earlier turns reach the model; the system message is a turn like the others.
    assert "user: Tell me about the Cratchits." in prompt
    assert "assistant: They are a family in London." in prompt
    assert prompt.rstrip().endswith(QUESTION)
