from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from graphgate.errors import IndexMissingError
from graphgate.runs import RunRegistry


def test_runs_are_created_listed_and_switched_atomically(tmp_path: Path) -> None:
    registry = RunRegistry(tmp_path)
    assert registry.current_id() is None and registry.list() == []
    with pytest.raises(IndexMissingError, match="no index yet"):
        registry.current()
    first, second = registry.create(), registry.create()
    assert first.run_id != second.run_id
    assert first.manifest()["status"] == "running"
    assert "ladybug" in first.manifest()["versions"]
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
    assert run.manifest()["counts"] == {"x": 1} and run.manifest()["status"] == "complete"
