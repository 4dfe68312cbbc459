"""What one query may cost and what it may say (issue 27, items 3, 4 and 5): one loaded run from
start to end, one question-length limit on every entry point, and Cypher answers bounded in
rows, bytes and time on what comes back, whatever the statement says."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

import graphgate.app.workspace as workspace_module
from graphgate import Workspace
from graphgate.core.errors import InputError, QueryTimeoutError
from graphgate.query.cypher import run_read_query
from graphgate.store.base import CypherRows
from tests.conftest import FRED_CASE
from tests.serving import mcp_call, running_server

TOKEN = "bounds-token"
runner = CliRunner()


@pytest.fixture()
def ws(small_workspace_path: Path, tmp_path: Path) -> Path:
    shutil.copytree(small_workspace_path, tmp_path / "ws")
    return tmp_path / "ws"


# -- 3: one query, one run -----------------------------------------------------------------
def test_an_answer_names_the_run_it_cites_while_an_update_becomes_current(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Workspace(ws) as writer:
        before = writer.runs.current()
        after = writer.runs.get(writer.delete(["fred.html"]).run_id)
        writer.runs.set_current(before)
    real = workspace_module.build_retriever

    class SwitchingMidQuery:
        """The real retriever; the update becomes current between retrieving and answering."""

        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def retrieve(self, *args: Any, **kwargs: Any) -> Any:
            found = self.inner.retrieve(*args, **kwargs)
            reader.runs.set_current(after)
            return found

    monkeypatch.setattr(workspace_module, "build_retriever", lambda *a: SwitchingMidQuery(real(*a)))
    with Workspace(ws) as reader:
        answer = reader.query("Who is Fred Holywell?", mode="vector")
        assert "fred.html" in {c.doc_id for c in answer.citations}
        assert answer.run_id == before.run_id  # the run it retrieved from, not the new one
        assert reader.query("Who is Fred Holywell?", mode="vector").run_id == after.run_id


# -- 4: one limit on questions -------------------------------------------------------------
def test_a_long_question_is_refused_by_every_entry_point(ws: Path, tmp_path: Path) -> None:
    from graphgate.cli import build_app

    long = "Who is Fred Holywell? " * 250  # 5,500 characters: over the default 4,000
    with Workspace(ws) as workspace, pytest.raises(InputError, match="max_question_chars"):
        workspace.query(long)
    one = runner.invoke(build_app(), ["query", long, "-w", str(ws)])
    assert one.exit_code == 2 and "max_question_chars" in one.stderr
    batch = tmp_path / "questions.txt"
    batch.write_text("Who is Fred Holywell?\n" + long + "\n", encoding="utf-8")
    many = runner.invoke(build_app(), ["query", "--batch", str(batch), "-w", str(ws)])
    assert many.exit_code == 2 and "line 2" in many.stderr and many.stdout == ""
    testset = tmp_path / "t.jsonl"
    rows = [FRED_CASE, {**FRED_CASE, "id": "q2", "question": long}]
    testset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "eval"
    evaluated = runner.invoke(build_app(), ["eval", str(testset), "-w", str(ws), "--out", str(out)])
    assert evaluated.exit_code == 2 and "line 2" in evaluated.stderr
    assert not out.exists()
    with (
        running_server(ws, TOKEN) as (base, _),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        response = client.post("/query", json={"question": long})
        assert response.status_code == 422 and "max_question_chars" in response.text
        started = time.perf_counter()
        huge = {"name": "query_graph", "arguments": {"query": "x" * 1_200_000}}
        tool = mcp_call(client, "tools/call", huge, {}).json()["result"]
        assert tool["isError"] and "max_question_chars" in tool["content"][0]["text"]
        assert time.perf_counter() - started < 10  # refused, not parsed (spaCy's E088 at 1 MB)
    # The limit is the setting, not a constant of one transport.
    with running_server(ws, TOKEN, query={"max_question_chars": 6000}) as (base, _):
        assert httpx.post(f"{base}/query", json={"question": long}, timeout=60).status_code == 200


# -- 5: Cypher bounded on what comes back ----------------------------------------------------
def test_a_large_cypher_answer_stops_at_the_byte_limit(ws: Path) -> None:
    statement = "WITH lpad('', 10000, 'x') AS s UNWIND range(1, 1000) AS i RETURN i, s"
    with Workspace(ws, query={"cypher_max_bytes": 100_000}) as workspace:
        result = workspace.cypher(statement)
    assert result.truncated and 1 <= len(result.rows) < 10
    assert len(json.dumps(result.rows)) <= 100_000
    assert any("cypher_max_bytes" in note for note in result.notes)


def test_a_limit_inside_the_statement_does_not_lift_the_row_limit(ws: Path) -> None:
    with Workspace(ws, query={"cypher_max_rows": 2}) as workspace:
        hidden = workspace.cypher("MATCH (e:Entity) WITH e LIMIT 100000 RETURN e.id AS id")
        own = workspace.cypher("MATCH (e:Entity) RETURN e.id AS id LIMIT 5")
    assert hidden.executed.endswith("LIMIT 3") and len(hidden.rows) == 2 and hidden.truncated
    assert own.executed.endswith("LIMIT 5")  # its own final LIMIT stands; rows are counted
    assert len(own.rows) == 2 and own.truncated


class _SlowStore:
    """A store whose rows arrive slowly: the time limit covers reading them, too."""

    def __init__(self, rows: int, every_s: float) -> None:
        self.rows, self.every_s = rows, every_s

    def cypher_rows(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> CypherRows:
        def slow() -> Iterator[list[Any]]:
            for n in range(self.rows):
                time.sleep(self.every_s)
                yield [n]

        return CypherRows(["n"], slow())


def test_the_time_limit_covers_reading_the_rows() -> None:
    store: Any = _SlowStore(rows=100, every_s=0.02)
    with pytest.raises(QueryTimeoutError, match="reading the answer"):
        run_read_query(store, "MATCH (n) RETURN n", {}, 1000, 0.3)
    done = run_read_query(store, "MATCH (n) RETURN n", {}, 5, 0.3)
    assert [r["n"] for r in done.rows] == [0, 1, 2, 3, 4] and done.truncated
