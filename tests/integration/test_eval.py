from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.cli import build_app
from graphgate.core.errors import EmbeddingMismatchError
from graphgate.evaluate.generate import TestsetGenerator
from graphgate.evaluate.testset import TestCase, load_testset, write_testset

runner = CliRunner()
app = build_app()


@pytest.fixture()
def ws_path(small_workspace_path: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "ws"
    shutil.copytree(small_workspace_path, dest)
    return dest


def test_generated_cases_carry_their_ground_truth(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        cases = TestsetGenerator(ws.loaded(), seed=1).generate(20)
        again = TestsetGenerator(ws.loaded(), seed=1).generate(20)
        loaded = ws.loaded()
        assert cases == again and cases
        relationships = loaded.store.relationships()
        predicates = {r.predicate for r in relationships if r.kind == "svo"}
        singles = [c for c in cases if c.question_type == "single_hop"]
        for p in predicates:  # every relationship type is asked about (twice where it can be)
            n_edges = sum(1 for r in relationships if r.predicate == p)
            assert sum(1 for c in singles if c.gold_edges[0][1] == p) == min(2, n_edges)
        for c in cases:
            assert c.answer and c.gold_entities and c.gold_edges and c.gold_docs
            assert c.answer == c.gold_edges[-1][2]


def test_eval_cli_streams_results_summary_and_reports(ws_path: Path, tmp_path: Path) -> None:
    testset = tmp_path / "gen.jsonl"
    result = runner.invoke(
        app, ["testset", "generate", "--n", "12", "--out", str(testset), "-w", str(ws_path)]
    )
    assert result.exit_code == 0, result.output
    out = tmp_path / "eval"
    html = tmp_path / "report.html"
    result = runner.invoke(
        app,
        [
            "eval",
            str(testset),
            "--modes",
            "vector,local",
            "--out",
            str(out),
            "--html",
            str(html),
            "-w",
            str(ws_path),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 2 * len(load_testset(testset))
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["modes"]) == {"vector", "local"}
    assert "comparison" in summary
    seen = {v for per_mode in summary["verdicts"].values() for v in per_mode.values()}
    worst = "FAIL" if "FAIL" in seen else "WARN" if "WARN" in seen else "PASS"
    assert summary["overall_verdict"] == worst  # the worst verdict of any mode and metric
    local = summary["modes"]["local"]["overall"]["metrics"]
    assert local["relationship_recall"]["measured"] > 0
    page = html.read_text()
    assert (
        "<svg" in page
        and "worst cases" in page
        and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    )
    again = runner.invoke(app, ["eval", "report", str(out)])
    assert again.exit_code == 0 and "verdicts" in again.stdout
    resumed = runner.invoke(
        app,
        ["eval", str(testset), "--modes", "vector,local", "--resume", str(out), "-w", str(ws_path)],
    )
    assert resumed.exit_code == 0, resumed.output
    assert len((out / "results.jsonl").read_text().splitlines()) == len(lines)


def test_preflight_catches_a_dimension_mismatch_before_any_case(
    ws_path: Path, tmp_path: Path
) -> None:
    testset = tmp_path / "t.jsonl"
    write_testset(
        [TestCase(id="1", question="Who is Fred Holywell?", question_type="single_hop")], testset
    )
    with Workspace(ws_path) as ws:
        ws.runs.current().update_manifest(
            embedding={"model": "all-MiniLM-L6-v2-int8", "dimension": 768}
        )
        with pytest.raises(EmbeddingMismatchError, match="768") as exc:
            ws.evaluate(testset, ["vector"], tmp_path / "eval")
        assert "re-index" in exc.value.fix
    assert not (tmp_path / "eval" / "results.jsonl").exists()
    result = runner.invoke(
        app,
        [
            "eval",
            str(testset),
            "--modes",
            "vector",
            "--out",
            str(tmp_path / "e2"),
            "-w",
            str(ws_path),
        ],
    )
    assert result.exit_code == 2 and "768" in result.stderr


def test_preflight_refuses_graph_modes_without_a_graph(small_corpus: Path, tmp_path: Path) -> None:
    testset = tmp_path / "t.jsonl"
    write_testset([TestCase(id="1", question="Who?", question_type="single_hop")], testset)
    with Workspace(tmp_path / "v") as ws:
        ws.index(small_corpus, pipeline="vector")
        with pytest.raises(Exception, match="graph modes need both"):
            ws.evaluate(testset, ["vector", "local"], tmp_path / "eval")
