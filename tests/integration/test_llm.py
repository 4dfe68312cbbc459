"""LLM providers, cache, accounting and the LLM extractor against a fake server on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphgate import Workspace
from graphgate.core.config import LLMSettings, ModelPrice
from graphgate.llm.anthropic import AnthropicLLM
from graphgate.llm.base import LLMError, Request
from graphgate.llm.client import LLMClient, ResponseCache
from graphgate.llm.openai_compat import OpenAICompatibleLLM
from tests.llm_fake import FakeModel, fake_model_server

SECRET = "sk-test-secret-0123456789"


@pytest.fixture()
def server() -> Iterator[tuple[str, FakeModel]]:
    with fake_model_server() as pair:
        yield pair


def _settings(url: str, provider: str = "openai", **kw: Any) -> LLMSettings:
    base = url + ("/v1" if provider == "openai" else "")
    return LLMSettings(
        provider=provider, base_url=base, model="fake-1", api_key=SECRET, backoff_s=0.0, **kw
    )  # type: ignore[arg-type]


REQUEST = Request("system", "Text:\nAlice Smith met Bob Jones in Paris.", None)


def test_openai_retries_rate_limits_and_server_errors(server: tuple[str, FakeModel]) -> None:
    url, model = server
    model.script = ["429", "500", "ok"]
    completion = OpenAICompatibleLLM(_settings(url)).complete(REQUEST)
    assert len(model.calls) == 3 and "Alice Smith" in completion.text
    assert completion.usage.prompt_tokens > 0
    assert model.calls[0]["headers"]["authorization"] == f"Bearer {SECRET}"


def test_auth_and_missing_model_errors_name_the_fix(server: tuple[str, FakeModel]) -> None:
    url, model = server
    model.script = ["401"]
    with pytest.raises(LLMError, match="API key") as exc:
        OpenAICompatibleLLM(_settings(url)).complete(REQUEST)
    assert "GRAPHGATE_LLM__API_KEY" in exc.value.fix
    model.script = ["404"]
    with pytest.raises(LLMError, match="unknown model"):
        AnthropicLLM(_settings(url, "anthropic")).complete(REQUEST)
    model.script = ["500"] * 10
    with pytest.raises(LLMError, match="HTTP 500"):
        OpenAICompatibleLLM(_settings(url, max_retries=2)).complete(REQUEST)


def test_a_slow_answer_times_out_with_a_clear_error(server: tuple[str, FakeModel]) -> None:
    url, model = server
    model.script = ["slow"]
    with pytest.raises(LLMError, match="cannot reach"):
        OpenAICompatibleLLM(_settings(url, timeout_s=0.05, max_retries=0)).complete(REQUEST)


def test_anthropic_structured_output_through_tool_use(server: tuple[str, FakeModel]) -> None:
    url, model = server
    request = Request(
        "system", "Text:\nAlice Smith met Bob Jones.", {"type": "object"}, "record_graph"
    )
    completion = AnthropicLLM(_settings(url, "anthropic")).complete(request)
    assert completion.data is not None and completion.data["entities"][0]["name"] == "Alice Smith"
    sent = model.calls[0]
    assert sent["path"] == "/v1/messages" and sent["headers"]["x-api-key"] == SECRET
    assert sent["body"]["tool_choice"] == {"type": "tool", "name": "record_graph"}


def test_cache_makes_a_repeat_free_and_costs_are_counted(
    server: tuple[str, FakeModel], tmp_path: Path
) -> None:
    url, model = server
    settings = _settings(
        url, prices={"fake-1": ModelPrice(input_per_mtok=1.0, output_per_mtok=2.0)}
    )
    client = LLMClient(OpenAICompatibleLLM(settings), settings, ResponseCache(tmp_path / "c.db"))
    first = client.complete(REQUEST)
    second = client.complete(REQUEST)
    assert len(model.calls) == 1 and second.cached and second.text == first.text
    acc = client.accounting.as_dict()
    assert acc["calls"] == 1 and acc["cached"] == 1 and acc["cost"] > 0
    assert SECRET not in (tmp_path / "c.db").read_bytes().decode("latin-1")
    model.script = ["truncated"]
    truncated = client.complete(Request("s", "Text:\nCarl Berg met Dana Holt.", None))
    assert truncated.finish_reason == "length"
    client.complete(Request("s", "Text:\nCarl Berg met Dana Holt.", None))
    assert len(model.calls) == 3  # a truncated answer is never cached


def _llm_workspace(path: Path, url: str, max_failed_share: float = 0.2, **extra: Any) -> Workspace:
    return Workspace(
        path,
        extract={"extractor": "llm", "max_failed_share": max_failed_share},
        llm={
            "provider": "openai",
            "base_url": url + "/v1",
            "model": "fake-1",
            "api_key": SECRET,
            "backoff_s": 0.0,
            "concurrency": 2,
            **extra,
        },
    )


def test_llm_extractor_indexes_counts_repairs_and_caches(
    server: tuple[str, FakeModel], small_corpus: Path, tmp_path: Path
) -> None:
    url, model = server
    # chunk 1: malformed but repairable; chunk 2: garbage, then garbage again on the retry
    model.script = ["malformed", "garbage", "garbage", "429", "slow"]
    # One chunk of three fails on purpose: allow it (the default 0.2 would stop the run).
    with _llm_workspace(tmp_path / "ws", url, 0.5, concurrency=1) as ws:  # scripted order
        report = ws.index(small_corpus)
        info = next(s for s in report.stages if s.name == "extract").info
        assert info["extractor"] == "llm"
        assert info["repaired"] >= 1 and info["retried"] >= 1 and info["failed_chunks"] == 1
        assert info["llm"]["calls"] >= 3 and info["llm"]["prompt_tokens"] > 0
        assert report.counts["Entity"] > 0 and report.counts["RELATED"] > 0
        answer = ws.query("Who met Bob Cratchit?", mode="hybrid")
        assert answer.citations
        manifest_text = (ws.runs.current().path / "manifest.json").read_text()
        assert json.loads(manifest_text)["settings"]["llm"]["api_key"] == "***"
        for file in ws.runs.current().path.rglob("*"):
            if file.is_file():
                assert SECRET.encode() not in file.read_bytes(), file
    calls_after_first = len(model.calls)
    with _llm_workspace(tmp_path / "ws", url, 0.5) as ws:
        again = ws.index(small_corpus)
        info = next(s for s in again.stages if s.name == "extract").info
    assert len(model.calls) == calls_after_first + 1  # only the failed chunk is asked again
    assert info["llm"]["calls"] == 1 and info["llm"]["cached"] >= 2


def test_index_query_eval_path_against_the_fake_server(
    server: tuple[str, FakeModel], small_corpus: Path, tmp_path: Path
) -> None:
    url, _ = server
    from graphgate.evaluate.testset import TestCase, write_testset

    testset = tmp_path / "t.jsonl"
    write_testset(
        [
            TestCase(
                id="1",
                question="Who is Fred Holywell?",
                question_type="single_hop",
                answer="Fred Holywell",
                gold_entities=["Fred Holywell"],
            )
        ],
        testset,
    )
    with _llm_workspace(tmp_path / "ws", url) as ws:
        ws.index(small_corpus)
        outcome = ws.evaluate(testset, ["vector", "hybrid"], tmp_path / "eval")
        assert len(outcome.records) == 2
        assert (
            outcome.summary["modes"]["hybrid"]["overall"]["metrics"]["entity_recall"]["measured"]
            == 1
        )


def test_estimate_before_spending(small_corpus: Path, tmp_path: Path) -> None:
    ws = Workspace(
        tmp_path / "ws",
        extract={"extractor": "llm"},
        llm={"model": "m", "prices": {"m": {"input_per_mtok": 2.0, "output_per_mtok": 4.0}}},
    )
    numbers = ws.estimate(small_corpus)
    assert numbers["chunks"] == 3 and numbers["calls"] == 3
    assert numbers["prompt_tokens"] > 0 and numbers["cost"] == pytest.approx(
        (numbers["prompt_tokens"] * 2 + numbers["completion_tokens"] * 4) / 1e6
    )


def test_no_provider_configured_is_a_clear_error(small_corpus: Path, tmp_path: Path) -> None:
    from graphgate.core.errors import ConfigError

    with (
        Workspace(tmp_path / "ws", extract={"extractor": "llm"}) as ws,
        pytest.raises(ConfigError, match="no LLM is configured"),
    ):
        ws.index(small_corpus)
    assert ws.runs.current_id() is None


def test_llm_everywhere_index_summaries_answers_judge(
    server: tuple[str, FakeModel], small_corpus: Path, tmp_path: Path
) -> None:
    url, model = server
    from graphgate.evaluate.testset import TestCase, write_testset

    testset = tmp_path / "t.jsonl"
    write_testset(
        [
            TestCase(
                id="1",
                question="Who does Bob Cratchit work for?",
                question_type="single_hop",
                answer="Ebenezer Scrooge",
            )
        ],
        testset,
    )
    llm = {
        "provider": "anthropic",
        "base_url": url,
        "model": "fake-2",
        "api_key": SECRET,
        "backoff_s": 0.0,
    }
    options: dict[str, Any] = {
        "extract": {"extractor": "llm"},
        "llm": llm,
        "communities": {"summarizer": "llm"},
        "query": {"answerer": "llm"},
        "eval": {"judge": "llm"},
    }
    with Workspace(tmp_path / "ws", **options) as ws:
        report = ws.index(small_corpus)
        summarize = next(s for s in report.stages if s.name == "summarize")
        assert summarize.info["summarizer"] == "llm" and summarize.info["failed_reports"] == 0
        assert ws.status().llm is not None and ws.status().llm["calls"] > 0  # type: ignore[index]
        reports = ws.runs.current().read_artifact("community_reports").to_pylist()
        assert reports and all(json.loads(r["claims_json"])[0]["chunk_id"] for r in reports)
        answer = ws.query("Who does Bob Cratchit work for?", mode="hybrid")
        assert answer.generator == "llm:fake-2" and "[C1]" in answer.answer
        # The model is asked for a short answer too (the answer schema), read from its JSON.
        first = " ".join(answer.retrieval.chunks[0].text.split())
        assert answer.short_answer and answer.short_answer in first
        assert not answer.answer.lstrip().startswith("{")
        assert answer.citations and answer.citations[0].chunk_id == answer.retrieval.chunks[0].id
        outcome = ws.evaluate(testset, ["hybrid"], tmp_path / "eval")
        assert outcome.summary["judge"] == "llm:fake-2" and outcome.summary["llm"]["calls"] > 0
        gen = next(g for g in ws.gates().results if g.gate == "gen")
        assert gen.metrics["llm_calls"] and gen.metrics["llm_calls"] > 0
    calls = len(model.calls)
    with Workspace(tmp_path / "ws", **options) as ws:
        ws.index(small_corpus)
        ws.query("Who does Bob Cratchit work for?", mode="hybrid")
    assert len(model.calls) == calls  # an identical second run makes zero provider calls


def test_two_index_runs_in_one_process_record_their_own_llm_totals(
    server: tuple[str, FakeModel], small_corpus: Path, tmp_path: Path
) -> None:
    """A long-lived process (the server) indexes many times: each run's manifest and extract
    report hold that run's calls, not the process's running total."""
    url, model = server
    with _llm_workspace(tmp_path / "ws", url, cache=False) as ws:
        runs = [ws.index(small_corpus), ws.index(small_corpus)]
        totals = [ws.runs.get(r.run_id).manifest().to_json()["llm"] for r in runs]
        extract = [next(s for s in r.stages if s.name == "extract").info["llm"] for r in runs]
        process = ws.llm_usage()
    assert len(model.calls) == 6
    assert [t["calls"] for t in totals] == [3, 3] and [e["calls"] for e in extract] == [3, 3]
    assert totals[1]["prompt_tokens"] == totals[0]["prompt_tokens"] > 0
    assert process is not None and process["calls"] == 6


def test_an_update_asks_the_model_only_about_new_chunks(
    server: tuple[str, FakeModel], small_corpus: Path, tmp_path: Path
) -> None:
    url, model = server
    with _llm_workspace(tmp_path / "ws", url) as ws:
        first = ws.index(small_corpus)
        chunks = first.stages[1].rows["chunks"]
        assert len(model.calls) == chunks  # one extraction request per chunk
        new = tmp_path / "new"
        new.mkdir()
        (new / "belle.txt").write_text("Belle Fairfax married Edward Hunt in Lincoln Town.")
        (new / "dick.txt").write_text("Dick Wilkins was apprenticed to Old Fezziwig in London.")
        added = ws.add([new])
        new_chunks = added.stages[1].rows["chunks"] - chunks
        assert new_chunks == 2 and len(model.calls) == chunks + new_chunks
        ws.delete(["belle.txt"])
        assert len(model.calls) == chunks + new_chunks  # a deletion asks nothing
        names = {e.name for e in ws.loaded().store.entities()}
        assert "Dick Wilkins" in names and "Belle Fairfax" not in names
