"""Break each stage on purpose and see the right gate move (over a real small index)."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.cli import build_app
from graphgate.core.config import CommunitySettings
from graphgate.core.types import Community, CommunityReport, Relationship, from_table
from graphgate.gates.base import FAIL, PASS, WARN
from graphgate.gates.context import GateContext, load_context, read_stability, write_stability
from graphgate.gates.runner import GatesReport, evaluate_gates
from graphgate.index.communities import detect, relationship_edges

GOLD = [
    {"head": "Bob Cratchit", "relation": "work_for", "tail": "Ebenezer Scrooge"},
    {"head": "Fred Holywell", "relation": "invite", "tail": "Scrooge"},
    {"head": "Bob Cratchit", "relation": "live_in", "tail": "Camden Town"},
]


@pytest.fixture()
def healthy(
    small_workspace: Workspace, tmp_path: Path
) -> tuple[Workspace, GateContext, GatesReport]:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(json.dumps(g) for g in GOLD))
    small_workspace.index(
        small_workspace.runs.current().manifest().to_json()["corpus"], gold_triples=gold
    )
    run = small_workspace.runs.current()
    ctx = load_context(run, small_workspace.settings.gates)
    return small_workspace, ctx, small_workspace.gates()


def _metrics(report: GatesReport) -> dict[str, dict[str, Any]]:
    return {r.gate: r.metrics for r in report.results}


def _gate(report: GatesReport, name: str) -> Any:
    return next(r for r in report.results if r.gate == name)


def _judge(ws: Workspace, ctx: GateContext, baseline: GatesReport) -> GatesReport:
    return evaluate_gates(ctx, ws.settings.gates, _metrics(baseline))


def test_healthy_run_passes_and_is_stored(
    healthy: tuple[Workspace, GateContext, GatesReport],
) -> None:
    ws, _, report = healthy
    assert report.verdict == PASS, report.as_dict()
    stored = json.loads((ws.runs.current().path / "gates.json").read_text())
    assert stored["verdict"] == PASS and len(stored["gates"]) == 8
    ie = _gate(report, "ie").metrics
    assert ie["strict_recall"] > 0 and ie["relaxed_recall"] >= ie["strict_recall"]


def test_gates_over_rows_streamed_from_the_files_equal_gates_over_records(
    healthy: tuple[Workspace, GateContext, GatesReport],
) -> None:
    """The context streams the large artifacts on each pass (ArtifactRows): every gate's
    metrics and details are what they are over the same rows held as lists of records."""
    ws, ctx, _ = healthy
    run = ws.runs.current()
    held = dataclasses.replace(
        ctx,
        documents=list(ctx.documents),
        chunks=list(ctx.chunks),
        entities=list(ctx.entities),
        relationships=list(ctx.relationships),
        reports=list(ctx.reports),
    )
    assert not isinstance(ctx.relationships, list) and len(held.relationships) > 10
    assert [r.id for r in held.relationships] == run.read_artifact("relationships")[
        "id"
    ].to_pylist()
    streamed = evaluate_gates(ctx, ws.settings.gates).as_dict()
    assert streamed == evaluate_gates(held, ws.settings.gates).as_dict()
    assert evaluate_gates(ctx, ws.settings.gates).as_dict() == streamed  # passes again


def test_chunker_that_drops_paragraph_breaks_fails_chunk_qa(healthy: Any) -> None:
    ws, ctx, baseline = healthy
    broken = [dataclasses.replace(c, text=" ".join(c.text.split())) for c in ctx.chunks]
    report = _judge(ws, dataclasses.replace(ctx, chunks=broken), baseline)
    chunk = _gate(report, "chunk")
    assert chunk.verdicts["offset_fidelity"] == FAIL and report.verdict == FAIL


def test_extractor_that_loses_a_relation_class_moves_ie_qa(healthy: Any) -> None:
    ws, ctx, baseline = healthy
    kept = [r for r in ctx.relationships if r.predicate != "work_for"]
    report = _judge(ws, dataclasses.replace(ctx, relationships=kept), baseline)
    ie = _gate(report, "ie")
    assert ie.metrics["strict_recall"] < _gate(baseline, "ie").metrics["strict_recall"]
    assert ie.verdicts["strict_recall"] == WARN and ie.verdict == WARN


def _unmerged(ctx: GateContext) -> GateContext:
    """What a resolver that never merges leaves: spelling variants as separate entities."""
    extra = [
        dataclasses.replace(e, name=e.name.upper(), id=e.id + "-upper")
        for e in list(ctx.entities)[:4]
    ]
    return dataclasses.replace(ctx, entities=[*ctx.entities, *extra])


def test_resolver_that_stops_merging_raises_the_duplicate_rate(healthy: Any) -> None:
    ws, ctx, baseline = healthy
    report = _judge(ws, _unmerged(ctx), baseline)
    graph = _gate(report, "graph")
    assert graph.metrics["duplicate_rate"] > _gate(baseline, "graph").metrics["duplicate_rate"]
    assert graph.verdicts["duplicate_rate"] == WARN


def test_over_merging_resolver_shows_a_hub_and_is_named(healthy: Any) -> None:
    ws, ctx, _ = healthy
    # Against a baseline that still had duplicates, merging every person into one entity
    # lowers the duplicate rate and creates a hub: the report must call that over-merging.
    baseline = evaluate_gates(_unmerged(ctx), ws.settings.gates)
    hub = next(iter(ctx.entities)).id
    people = {e.id for e in ctx.entities if e.type == "PERSON"}
    merged_rels = [
        dataclasses.replace(
            r,
            source_id=hub if r.source_id in people else r.source_id,
            target_id=hub if r.target_id in people else r.target_id,
        )
        for r in ctx.relationships
    ]
    merged_rels = [r for r in merged_rels if r.source_id != r.target_id]
    merged_rels += [
        Relationship(f"x{i}", hub, e.id, "know", "svo", 1.0, "", ["c"], ["scrooge.txt"])
        for i, e in enumerate(ctx.entities)
        if e.id not in people
    ]
    entities = [e for e in ctx.entities if e.id == hub or e.id not in people]
    report = _judge(
        ws, dataclasses.replace(ctx, entities=entities, relationships=merged_rels), baseline
    )
    graph = _gate(report, "graph")
    assert graph.metrics["hub_share"] > _gate(baseline, "graph").metrics["hub_share"]
    assert graph.verdicts["hub_share"] == WARN
    assert any("over-merging" in note for note in report.notes)


def test_a_resolution_change_moves_ari_against_the_baseline(healthy: Any) -> None:
    ws, ctx, _ = healthy
    edges = relationship_edges(ctx.relationships)
    ids = [e.id for e in ctx.entities]
    coarse = detect(ids, edges, CommunitySettings(resolution=0.05), 0)
    fine = detect(ids, edges, CommunitySettings(resolution=5.0), 0)
    current = dataclasses.replace(
        ctx, communities=fine, baseline=dataclasses.replace(ctx, communities=coarse)
    )
    same = dataclasses.replace(ctx, baseline=dataclasses.replace(ctx))
    community = _gate(evaluate_gates(current, ws.settings.gates), "community")
    assert community.metrics["ari_vs_baseline"] < 0.5
    assert community.verdicts["ari_vs_baseline"] == FAIL
    steady = _gate(evaluate_gates(same, ws.settings.gates), "community")
    assert steady.metrics["ari_vs_baseline"] == 1.0


def test_an_invented_sentence_in_a_summary_fails_summary_eval(healthy: Any) -> None:
    ws, ctx, baseline = healthy
    first, *rest = ctx.reports
    invented = CommunityReport(
        **{**first.__dict__, "summary": first.summary + " The moon is made of green cheese."}
    )
    report = _judge(ws, dataclasses.replace(ctx, reports=[invented, *rest]), baseline)
    summary = _gate(report, "summary")
    assert (
        summary.metrics["hallucinated_claims"] == 1
        and summary.verdicts["hallucinated_claims"] == FAIL
    )


def test_the_summary_gate_judges_the_stored_claims(healthy: Any) -> None:
    """A claim stored with the report is judged as stored, even where the summary text does
    not show it."""
    ws, ctx, baseline = healthy
    first, *rest = ctx.reports
    claims = [
        *json.loads(first.claims_json),
        {"text": "Bob Cratchit owns the moon.", "kind": "edge", "ref": "r-1", "chunk_id": None},
    ]
    stored = CommunityReport(**{**first.__dict__, "claims_json": json.dumps(claims)})
    report = _judge(ws, dataclasses.replace(ctx, reports=[stored, *rest]), baseline)
    summary = _gate(report, "summary")
    assert summary.metrics["hallucinated_claims"] == 1
    assert summary.details["hallucinated"][0]["claim"] == "Bob Cratchit owns the moon."


def test_cli_gates_baseline_runs_and_exit_codes(healthy: Any, tmp_path: Path) -> None:
    ws, _, report = healthy
    runner = CliRunner()
    app = build_app()
    first = ws.runs.list()[0].run_id
    assert (
        runner.invoke(app, ["gates", "baseline", "set", first, "-w", str(ws.path)]).exit_code == 0
    )
    result = runner.invoke(app, ["gates", "--json", "-w", str(ws.path)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["baseline_id"] == first and out["run_id"] == report.run_id
    assert {g["gate"] for g in out["gates"]} == {
        "data",
        "chunk",
        "ie",
        "graph",
        "community",
        "hierarchy",
        "summary",
        "gen",
    }
    listed = runner.invoke(app, ["runs", "-w", str(ws.path)])
    assert "PASS" in listed.stdout
    # break the stored chunks of the current run: the gate fails and so does the exit code
    run = ws.runs.current()
    table = run.read_artifact("chunks")
    import pyarrow as pa

    texts = [t.replace(" ", "  ") for t in table["text"].to_pylist()]
    run.write_artifact("chunks", table.set_column(3, "text", pa.array(texts)))
    failed = runner.invoke(app, ["gates", "-w", str(ws.path)])
    assert failed.exit_code == 1 and "FAIL" in failed.stdout


def test_gates_judged_in_the_background_equal_gates_judged_after(
    small_workspace_path: Path,
    small_corpus: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A second process judges the gates while the store is written: the stored verdict is
    the one judging the finished run gives, and the worker ends with the workspace. It built
    the keyword indexes of chunks and entities ahead: the files are those built in place."""
    import filecmp
    import multiprocessing

    from graphgate.app.background import BackgroundWork
    from graphgate.store.build import build_search_indexes

    ws_path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, ws_path)
    with Workspace(ws_path) as ws:
        first = ws.runs.current().run_id
        ws.set_baseline(first)
    extra = small_corpus / "extra.txt"
    extra.write_text("Ada Lovelace worked with Charles Babbage in London.", encoding="utf-8")
    judge_after = Workspace.gates

    def not_here(self: Workspace, *args: Any) -> GatesReport:
        raise AssertionError("the gates should have been judged in the background")

    built_ahead = BackgroundWork.built_ahead
    answered: dict[str, bool] = {}

    def spied(self: BackgroundWork, kind: str) -> bool:
        answered[kind] = built_ahead(self, kind)
        return answered[kind]

    monkeypatch.setattr(BackgroundWork, "built_ahead", spied)
    others = set(multiprocessing.active_children())  # a session fixture's parser workers
    with Workspace(ws_path, gates={"background_from_chunks": 0}) as ws:
        monkeypatch.setattr(Workspace, "gates", not_here)
        report = ws.index(small_corpus)
        assert answered == {"chunk": True, "entity": True}
        run = ws.runs.get(report.run_id)
        artifacts = [p.stem for p in run.path.glob("*.parquet")]
        tables = {name: run.read_artifact(name) for name in artifacts}
        build_search_indexes(
            tmp_path / "in_place", tables, 10_000, ws.settings.chunk.context_fields
        )
        for kind in ("chunk", "entity"):
            here, ahead = tmp_path / "in_place" / "text" / kind, run.store_dir / "text" / kind
            names = sorted(p.name for p in here.iterdir())
            assert names == sorted(p.name for p in ahead.iterdir())
            assert all(filecmp.cmp(here / n, ahead / n, shallow=False) for n in names)
        monkeypatch.setattr(Workspace, "gates", judge_after)
        run = ws.runs.get(report.run_id)
        stored = json.loads(run.gates_path.read_text())
        assert len(set(multiprocessing.active_children()) - others) == 1  # kept warm
        assert read_stability(run) is not None  # measured ahead, while the reports were written
        run.stability_path.unlink()  # judged again from scratch below
        again = ws.gates(report.run_id).as_dict()
    assert not set(multiprocessing.active_children()) - others  # closed with the workspace
    assert stored["baseline_id"] == first and stored["verdict"] == again["verdict"]
    assert [g["metrics"] for g in stored["gates"]] == [g["metrics"] for g in again["gates"]]
    assert [g["verdicts"] for g in stored["gates"]] == [g["verdicts"] for g in again["gates"]]


def test_small_runs_judge_their_gates_afterwards(small_workspace_path: Path) -> None:
    from graphgate.app.background import BackgroundWork

    with Workspace(small_workspace_path) as ws:
        run = ws.runs.current()
        rows = run.artifact_rows("chunks")
        assert rows == run.read_artifact("chunks").num_rows
        big = ws.settings.model_copy(deep=True)
        big.gates.background_from_chunks = rows + 1
        worker = BackgroundWork.worker()
        assert not BackgroundWork(ws.runs, run, big, None, worker).wanted()
        big.gates.background_from_chunks = rows
        assert BackgroundWork(ws.runs, run, big, None, worker).wanted()


def test_stability_measured_ahead_is_read_only_for_the_artifacts_it_measured(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    ws_path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, ws_path)
    with Workspace(ws_path) as ws:
        run = ws.runs.current()
        communities = run.read_artifact("communities")
        partition = from_table(communities, Community)
        write_stability(run, {"ari": {"min": 0.5, "mean": 0.5}}, partition)
        assert read_stability(run) == {"ari": {"min": 0.5, "mean": 0.5}}
        write_stability(run, {"ari": {"min": 0.5, "mean": 0.5}}, partition[1:])
        assert read_stability(run) is None  # measured on another partition than the run's
        write_stability(run, {"ari": {"min": 0.5, "mean": 0.5}}, partition)
        run.write_artifact("communities", communities.slice(0, communities.num_rows - 1))
        assert read_stability(run) is None  # a re-run stage: measured again by the gate
        run.write_artifact("communities", communities)
        entities = run.read_artifact("entities")
        run.write_artifact("entities", entities.slice(0, entities.num_rows - 1))
        assert read_stability(run) is None
