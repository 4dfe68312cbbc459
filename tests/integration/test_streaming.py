"""Answers streamed as they are written: the OpenAI-compatible and Anthropic providers read
their model's server-sent events (a fake server on loopback speaks both formats), and a
workspace streams the answerer's text between the retrieval and the cited answer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphgate import Workspace
from graphgate.core.config import LLMSettings
from graphgate.llm.anthropic import AnthropicLLM
from graphgate.llm.base import Completion, LLMError, Request
from graphgate.llm.client import LLMClient, ResponseCache
from graphgate.llm.json_stream import JsonFieldStream
from graphgate.llm.openai_compat import OpenAICompatibleLLM
from graphgate.query.answer_llm import SCHEMA, parse_answer
from graphgate.query.base import Turn
from graphgate.query.events import Answered, AnswerText, Retrieved
from tests.llm_fake import FakeModel, fake_model_server

QUESTION = "Who does Bob Cratchit work for?"
PLAIN = Request("system", "Context:\n[C1] (d) Bob Cratchit works for Scrooge. More.\n\nQuestion: x")
ANSWER = Request(
    "system", "Context:\n[C1] (d) Bob Cratchit works for Scrooge.\n\nQuestion: x", SCHEMA
)


@pytest.fixture()
def server() -> Iterator[tuple[str, FakeModel]]:
    with fake_model_server() as pair:
        yield pair


def _llm(url: str, provider: str) -> OpenAICompatibleLLM | AnthropicLLM:
    base = url + ("/v1" if provider == "openai" else "")
    settings = LLMSettings(provider=provider, base_url=base, model="fake-1", backoff_s=0.0)  # type: ignore[arg-type]
    return OpenAICompatibleLLM(settings) if provider == "openai" else AnthropicLLM(settings)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("request_", [PLAIN, ANSWER], ids=["text", "schema"])
def test_a_stream_is_pieces_then_the_completion_complete_gives(
    server: tuple[str, FakeModel], provider: str, request_: Request
) -> None:
    url, model = server
    llm = _llm(url, provider)
    items = list(llm.stream(request_))
    pieces, last = items[:-1], items[-1]
    assert isinstance(last, Completion) and all(isinstance(p, str) for p in pieces)
    assert len(pieces) >= 3  # several events, not one blob
    whole = llm.complete(request_)
    streamed_body = model.calls[0]["body"]
    assert streamed_body["stream"] is True
    assert (last.text, last.data, last.usage) == (whole.text, whole.data, whole.usage)
    # What was streamed is the model's output: its text, or its structured answer's JSON.
    joined = "".join(p for p in pieces if isinstance(p, str))
    if request_.schema is not None:
        assert json.loads(joined) == whole.data and whole.data is not None
    else:
        assert joined == whole.text and "[C1]" in joined


def test_a_refused_key_and_a_cut_stream_are_errors(server: tuple[str, FakeModel]) -> None:
    url, model = server
    model.script = ["401"]
    with pytest.raises(LLMError, match="refused"):
        list(_llm(url, "openai").stream(PLAIN))
    model.script = ["429", "ok"]  # retried before the first byte, like a plain call
    assert isinstance(list(_llm(url, "anthropic").stream(PLAIN))[-1], Completion)
    model.cut_after = 2  # never a silently shorter answer
    for provider in ("openai", "anthropic"):
        items = []
        with pytest.raises(LLMError, match="stream ended before"):
            for item in _llm(url, provider).stream(PLAIN):
                items.append(item)
        assert len(items) == 2 and not any(isinstance(i, Completion) for i in items)


def test_a_streamed_completion_is_cached_for_both_ways_of_asking(
    server: tuple[str, FakeModel], tmp_path: Path
) -> None:
    url, model = server
    llm = _llm(url, "openai")
    client = LLMClient(llm, llm.settings, ResponseCache(tmp_path / "c.sqlite"))
    streamed = list(client.stream(ANSWER))
    assert len(model.calls) == 1 and client.accounting.calls == 1
    assert client.complete(ANSWER).data == streamed[-1].data  # type: ignore[union-attr]
    again = list(client.stream(ANSWER))  # from the cache: one piece, then the completion
    assert len(model.calls) == 1 and client.accounting.cached == 2
    assert len(again) == 2 and json.loads(again[0]) == streamed[-1].data  # type: ignore[arg-type,union-attr]


@pytest.mark.parametrize(
    "value", ['He said "hi"\n', "naïve — 😀 [C1]", "back\\slash \t tab", "", "é" * 40]
)
@pytest.mark.parametrize("ascii_only", [True, False])
def test_the_answer_field_is_read_while_its_json_is_written(value: str, ascii_only: bool) -> None:
    text = json.dumps({"answer": value, "short_answer": "x"}, ensure_ascii=ascii_only)
    for size in (1, 2, 3, 5, 8, 13):
        field = JsonFieldStream("answer")
        out = "".join(field.feed(text[i : i + size]) for i in range(0, len(text), size))
        assert out == value and field.done
    # A raw line break inside the string (invalid JSON, written by models all the same).
    raw = '{"answer": "first line\nsecond [C1]", "short_answer": null}'
    for size in (1, 4, 7):
        field = JsonFieldStream("answer")
        out = "".join(field.feed(raw[i : i + size]) for i in range(0, len(raw), size))
        assert out == "first line\nsecond [C1]"
    assert parse_answer(raw) == ("first line\nsecond [C1]", None)
    other = JsonFieldStream("answer")  # a key that merely ends in "answer" is not the field
    assert other.feed('{"short_answer": "no", ') == "" and other.feed('"answer": "yes"}') == "yes"


def _llm_workspace(path: Path, url: str, provider: str) -> Workspace:
    base = url + ("/v1" if provider == "openai" else "")
    llm = {"provider": provider, "base_url": base, "model": "fake-3", "backoff_s": 0.0}
    return Workspace(path, query={"answerer": "llm"}, llm={**llm, "cache": False})


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_workspace_streams_retrieval_then_text_then_the_cited_answer(
    server: tuple[str, FakeModel], small_workspace_path: Path, provider: str
) -> None:
    url, model = server
    with _llm_workspace(small_workspace_path, url, provider) as ws:
        events = list(ws.query_stream(QUESTION, mode="hybrid"))
        plain = ws.query(QUESTION, mode="hybrid")
    first, *middle, last = events
    assert isinstance(first, Retrieved) and isinstance(last, Answered)
    assert first.retrieval.passages and first.retrieval.run_id == last.answer.run_id
    assert len(middle) >= 3 and all(isinstance(e, AnswerText) for e in middle)
    answer = last.answer
    assert "".join(e.text for e in middle if isinstance(e, AnswerText)) == answer.answer
    # The same answer as asked without streaming: text, short answer, citations.
    assert (answer.answer, answer.short_answer) == (plain.answer, plain.short_answer)
    assert answer.citations == plain.citations and answer.citations
    assert 0 < answer.timings_ms["first_text"] <= answer.timings_ms["total"]
    assert [c["body"].get("stream", False) for c in model.calls] == [True, False]


def test_earlier_turns_reach_the_model_and_not_the_extractive_reader(
    server: tuple[str, FakeModel], small_workspace_path: Path, small_workspace: Workspace
) -> None:
    url, model = server
    history = [Turn("user", "Tell me about the Cratchits."), Turn("assistant", "They are poor.")]
    with _llm_workspace(small_workspace_path, url, "openai") as ws:
        ws.query(QUESTION, mode="vector", history=history)
    prompt: str = model.calls[-1]["body"]["messages"][-1]["content"]
    assert "Conversation so far" in prompt and "assistant: They are poor." in prompt
    assert prompt.rstrip().endswith(QUESTION)
    offline = small_workspace.query(QUESTION, mode="vector", history=history)
    assert offline.answer == small_workspace.query(QUESTION, mode="vector").answer


def test_the_extractive_answer_streams_line_by_line(small_workspace: Workspace) -> None:
    events = list(small_workspace.query_stream(QUESTION, mode="local"))
    texts = [e.text for e in events if isinstance(e, AnswerText)]
    answer = events[-1].answer  # type: ignore[union-attr]
    assert len(texts) >= 2 and "".join(texts) == answer.answer
    assert answer.answer == small_workspace.query(QUESTION, mode="local").answer


def test_a_bad_question_fails_before_streaming_and_an_abandoned_stream_lets_the_run_go(
    small_workspace: Workspace,
) -> None:
    with pytest.raises(Exception, match="question"):
        small_workspace.query_stream("   ")
    stream = small_workspace.query_stream(QUESTION)
    assert isinstance(next(stream), Retrieved)
    loaded = small_workspace.loaded()
    assert loaded.holders == 1
    stream.close()  # a client that went away
    assert loaded.holders == 0
