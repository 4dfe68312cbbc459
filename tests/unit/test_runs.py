from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest
from pydantic import ValidationError

from graphgate.core.errors import GraphgateError, IndexMissingError
from graphgate.core.runs import RunRegistry


def test_runs_are_created_listed_and_switched_atomically(tmp_path: Path) -> None:
    registry = RunRegistry(tmp_path)
    assert registry.current_id() is None and registry.list() == []
    with pytest.raises(IndexMissingError, match="no index yet"):
        registry.current()
    first, second = registry.create(), registry.create()
    assert first.run_id != second.run_id
    assert first.manifest().to_json()["status"] == "running"
    assert "ladybug" in first.manifest().to_json()["versions"]
    registry.set_current(first)
    assert registry.current().run_id == first.run_id
    registry.set_current(second)
    assert registry.current_id() == second.run_id
    assert not (tmp_path / "CURRENT.tmp").exists()
    assert {r.run_id for r in registry.list()} == {first.run_id, second.run_id}
    with pytest.raises(IndexMissingError, match="no run"):
        registry.get("nope")


def test_artifacts_round_trip_and_missing_ones_name_the_fix(tmp_path: Path) -> None:
    run = RunRegistry(tmp_path).create()
    table = pa.table({"id": ["a", "b"]})
    run.write_artifact("things", table)
    assert run.read_artifact("things").equals(table)
    assert not list(run.path.glob("*.tmp"))
    with pytest.raises(IndexMissingError, match="re-run the stage"):
        run.read_artifact("absent")
    run.update_manifest(status="complete", counts={"x": 1})
    assert (
        run.manifest().to_json()["counts"] == {"x": 1}
        and run.manifest().to_json()["status"] == "complete"
    )


def test_the_manifest_is_typed_validated_and_written_by_one_writer(tmp_path: Path) -> None:
    registry = RunRegistry(tmp_path)
    run = registry.create()
    run.update_manifest(pipeline="graph", embedding={"model": "m", "dimension": 4})
    manifest = run.manifest()
    assert manifest.pipeline == "graph" and manifest.embedding is not None
    assert (manifest.embedding.model, manifest.embedding.dimension) == ("m", 4)
    assert manifest.stage("extract") is None
    # A name the record does not declare is a programming error, not a silent new key.
    with pytest.raises(TypeError, match="not a manifest field: pipelines"):
        run.update_manifest(pipelines="graph")
    # A wrong type is refused before anything is written.
    with pytest.raises(ValidationError):
        run.update_manifest(seed="not a number")
    assert run.manifest().seed == 0
    # Keys a newer version wrote survive a rewrite.
    data = json.loads(run.manifest_path.read_text())
    run.manifest_path.write_text(json.dumps({**data, "written_by_a_newer_version": [1]}))
    run.update_manifest(status="complete")
    assert json.loads(run.manifest_path.read_text())["written_by_a_newer_version"] == [1]


def test_a_manifest_that_is_not_one_is_a_named_error_and_prunable(tmp_path: Path) -> None:
    registry = RunRegistry(tmp_path)
    run = registry.create()
    run.manifest_path.write_text(json.dumps({"run_id": run.run_id, "status": 3, "seed": "x"}))
    with pytest.raises(GraphgateError, match=rf"run {run.run_id}: manifest.json is not a run"):
        run.manifest()
    assert registry.state(run) == "interrupted"
    assert registry.prune(keep=None, protected=set()) == [run.run_id]
