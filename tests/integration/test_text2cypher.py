"""Cypher mode against the fake model server: the model's query is checked and run like a typed
one, a broken query is repaired once with the database's message, hostile generations are
refused and change nothing, and without a model the mode says how to get one."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.cli import build_app
from tests.integration.test_cypher import HOSTILE
from tests.llm_fake import FakeModel, fake_model_server


@pytest.fixture()
def model_workspace(
    small_workspace_path: Path, tmp_path: Path
) -> Iterator[tuple[Workspace, FakeModel]]:
    shutil.copytree(small_workspace_path, tmp_path / "ws")
    with fake_model_server() as (url, model):
        llm = {"provider": "openai", "base_url": url + "/v1", "model": "fake-1", "cache": False}
        ws = Workspace(tmp_path / "ws", llm=llm)
        yield ws, model
        ws.close()


def _user_prompts(model: FakeModel) -> list[str]:
    return [str(c["body"]["messages"][-1]["content"]) for c in model.calls]


def test_a_generated_query_answers_with_rows_cited_by_chunks(
    model_workspace: tuple[Workspace, FakeModel],
) -> None:
    ws, model = model_workspace
    model.cypher = [
        "MATCH (a:Entity)-[r:RELATED]-(b:Entity) WHERE a.name = 'Tiny Tim' "
        "RETURN DISTINCT b.name AS related ORDER BY related"
    ]
    answer = ws.query("Who is Tiny Tim related to?", mode="cypher")
    assert answer.answer.startswith("From the graph: ") and "Bob Cratchit" in answer.answer
    # The edge between the row (Bob Cratchit) and the entity asked about supports it first.
    assert answer.citations[0].doc_id == "family.md"
    assert all("Bob Cratchit" in c.text for c in answer.citations)
    assert any(
        e["source"] == "Tiny Tim" or e["target"] == "Tiny Tim" for e in answer.to_dict()["edges"]
    )
    cypher = answer.to_dict()["cypher"]
    assert cypher["answered"] and cypher["attempts"][0]["error"] == ""
    assert {"related": "Bob Cratchit"} in cypher["rows"]
    prompt = _user_prompts(model)[0]
    assert "Who is Tiny Tim related to?" in prompt and '"RELATED"' in prompt
    assert "RELATED.predicate values" in prompt and "Ebenezer Scrooge" in prompt


def test_a_malformed_query_is_repaired_with_the_database_message(
    model_workspace: tuple[Workspace, FakeModel],
) -> None:
    ws, model = model_workspace
    model.cypher = [
        "MATCH (e:Entity WHERE e.name = 'Fred Holywell' RETURN e.name",
        "MATCH (e:Entity) WHERE e.name = 'Fred Holywell' RETURN e.name AS name",
    ]
    answer = ws.query("Is Fred Holywell in the graph?", mode="cypher")
    attempts = answer.to_dict()["cypher"]["attempts"]
    assert len(attempts) == 2 and "database refused" in attempts[0]["error"]
    assert attempts[1]["error"] == "" and "Fred Holywell" in answer.answer
    assert "It failed: the database refused the query" in _user_prompts(model)[1]
    assert "fred.html" in {c.doc_id for c in answer.citations}


def test_hostile_generations_are_refused_and_change_nothing(
    model_workspace: tuple[Workspace, FakeModel],
) -> None:
    ws, model = model_workspace
    before = ws.status().counts
    for statement in HOSTILE:
        model.cypher = [statement, statement]
        answer = ws.query("Delete everything, please.", mode="cypher")
        attempts = answer.to_dict()["cypher"]["attempts"]
        assert len(attempts) == 2 and all(a["error"] for a in attempts), statement
        assert answer.answer.startswith("No answer from the graph") and not answer.citations
    ws.settings.query.cypher_timeout_s = 0.2
    huge = (
        "MATCH (a), (b), (c), (d), (e), (f), (g), (h), (i) "
        "WHERE a.id + b.id + c.id + d.id + e.id + f.id + g.id + h.id + i.id <> 'x' "
        "RETURN count(*) AS n LIMIT 1"
    )
    model.cypher = [huge, huge]
    slow = ws.query("How many paths are there?", mode="cypher").to_dict()["cypher"]
    assert all("ran past" in a["error"] for a in slow["attempts"])
    assert ws.status().counts == before


def test_without_a_model_cypher_mode_exits_2_with_the_fix(small_workspace: Workspace) -> None:
    result = CliRunner().invoke(
        build_app(),
        ["query", "How many people?", "--mode", "cypher", "-w", str(small_workspace.path)],
    )
    assert result.exit_code == 2
    assert "cypher mode needs a model" in result.output and "graphgate cypher" in result.output


def test_hybrid_routes_counting_questions_to_cypher_and_falls_back(
    model_workspace: tuple[Workspace, FakeModel],
) -> None:
    ws, model = model_workspace
    model.cypher = ["MATCH (e:Entity {type: 'PERSON'}) RETURN count(e) AS people"]
    counted = ws.query("How many people are in the story?", mode="hybrid").to_dict()
    assert counted["route"] == "cypher" and counted["answer"].startswith("From the graph: people:")
    model.cypher = ["MATCH (e:Entity {type: 'SPACESHIP'}) RETURN e.name AS name"] * 2
    listed = ws.query("List every spaceship in London.", mode="hybrid").to_dict()
    assert listed["route"] == "cypher->hybrid" and listed["cypher"]["rows"] == []
    assert listed["citations"] and not listed["answer"].startswith("No answer")
    calls = len(model.calls)
    plain = ws.query("Who is Fred Holywell?", mode="hybrid").to_dict()
    assert plain["route"] == "hybrid" and len(model.calls) == calls  # no query written


ACQUISITIONS = (
    "Acme Corporation acquired Beta Industries in 2001. Acme Corporation acquired Gamma Systems "
    "in 2005. Acme Corporation acquired Delta Labs in 2009. Zeta Motors acquired Omega Parts in "
    "2010. Zeta Motors acquired Sigma Tools in 2012."
)


def test_structured_questions_from_the_graph_score_cypher_mode(tmp_path: Path) -> None:
    from graphgate.evaluate.generate import TestsetGenerator
    from graphgate.evaluate.testset import write_testset

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "acme.txt").write_text(ACQUISITIONS)
    with fake_model_server() as (url, model):
        llm = {"provider": "openai", "base_url": url + "/v1", "model": "fake-1", "cache": False}
        with Workspace(tmp_path / "ws", llm=llm) as ws:
            ws.index(corpus)
            cases = [
                c
                for c in TestsetGenerator(ws.loaded()).generate(20, structured=True)
                if c.question_type == "structured"
            ]
            assert {c.answer for c in cases} >= {"3"}  # Acme's three acquisitions, counted
            listing = next(c for c in cases if c.question.startswith("List"))
            assert listing.model_dump()["key_facts"] == ["Omega Parts", "Sigma Tools"]
            gold = listing.model_dump()["gold_cypher"]
            assert ws.cypher(gold["query"], gold["params"]).rows == [
                {"name": "Omega Parts"},
                {"name": "Sigma Tools"},
            ]
            # The model answers each case with the gold query (counted for count questions).
            for case in cases:
                query = case.model_dump()["gold_cypher"]["query"]
                if case.question.startswith("How many"):
                    query = query.replace(
                        "RETURN DISTINCT b.name AS name ORDER BY name",
                        "RETURN count(DISTINCT b) AS n",
                    )
                params = case.model_dump()["gold_cypher"]["params"]
                model.cypher.append(
                    query.replace("$id", f"'{params['id']}'").replace(
                        "$predicate", f"'{params['predicate']}'"
                    )
                )
            write_testset(cases, tmp_path / "structured.jsonl")
            outcome = ws.evaluate(tmp_path / "structured.jsonl", ["cypher"], tmp_path / "eval")
    assert len(outcome.records) == len(cases)
    assert all(
        r["mode"] == "cypher" and r["answer"].startswith("From the graph") for r in outcome.records
    )
    correct = [r["metrics"].get("answer_correctness") for r in outcome.records]
    assert correct and all(c == 1.0 for c in correct), correct
    assert outcome.summary["modes"]["cypher"]["by_type"]["structured"]["cases"] == len(cases)
