"""The pipeline runner: stages run with the cycle collector paused, unless told otherwise;
inputs read from the run's artifacts per stage; large tables read a batch at a time."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from graphgate.core.config import Settings
from graphgate.core.errors import IndexMissingError
from graphgate.core.memory import release_memory, use_arrow_allocator
from graphgate.core.runs import ArtifactTables, RunRegistry
from graphgate.core.types import Relationship, TableRows, to_table
from graphgate.index.pipeline import (
    IndexContext,
    Pipeline,
    Stage,
    StageOutput,
    cycle_collector_paused,
    execute,
)


def test_the_collector_is_paused_and_restored() -> None:
    assert gc.isenabled()
    with cycle_collector_paused(True):
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), cycle_collector_paused(True):
        raise RuntimeError("a failing stage")
    assert gc.isenabled()
    with cycle_collector_paused(False):
        assert gc.isenabled()
    gc.disable()  # the caller's choice is kept
    try:
        with cycle_collector_paused(True):
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def _seen(name: str, seen: dict[str, bool]) -> Any:
    def stage(ctx: IndexContext, tables: dict[str, pa.Table]) -> StageOutput:
        seen[name] = gc.isenabled()
        return StageOutput({})

    return stage


@pytest.mark.parametrize("pause", [True, False])
def test_stages_run_with_the_collector_as_configured(tmp_path: Path, pause: bool) -> None:
    seen: dict[str, bool] = {}
    pipeline = Pipeline(
        "probe",
        (
            Stage("builds", (), (), _seen("builds", seen)),
            Stage("waits", (), (), _seen("waits", seen), pause_gc=False),
        ),
    )
    settings = Settings(runs={"pause_gc": pause})
    run = RunRegistry(tmp_path).create()
    pipeline.run(IndexContext(settings, tmp_path, run, None, None))  # type: ignore[arg-type]
    assert seen == {"builds": not pause, "waits": True}
    assert gc.isenabled()


def _table(n: int) -> pa.Table:
    return pa.table({"id": [f"c{i}" for i in range(n)], "n": list(range(n))})


def test_a_stage_reads_its_inputs_and_nothing_outlives_it(tmp_path: Path) -> None:
    """Inputs come from the run's artifacts (what an earlier stage wrote), held only while
    the stage runs; a stage that reads as needed gets a mapping that reads on each access."""
    got: dict[str, Any] = {}

    def make(ctx: IndexContext, tables: Any) -> StageOutput:
        return StageOutput({"made": _table(5)})

    def use(ctx: IndexContext, tables: Any) -> StageOutput:
        got["eager"] = tables
        return StageOutput({})

    def walk(ctx: IndexContext, tables: Any) -> StageOutput:
        first, second = tables["made"], tables["made"]
        got["lazy"] = (type(tables).__name__, first is second, first.equals(second))
        got["optional"] = tables["never_made"].num_rows
        return StageOutput({})

    pipeline = Pipeline(
        "probe",
        (
            Stage("make", (), ("made",), make),
            Stage("use", ("made",), (), use),
            Stage("walk", ("made",), (), walk, ("never_made",), reads_as_needed=True),
        ),
    )
    run = RunRegistry(tmp_path).create()
    pipeline.run(IndexContext(Settings(), tmp_path, run, None, None))  # type: ignore[arg-type]
    assert got["eager"]["made"].equals(_table(5))  # read back from the artifact
    assert got["lazy"] == ("ArtifactTables", False, True)
    assert got["optional"] == 0


def test_no_output_of_a_stage_is_alive_while_the_next_one_runs(tmp_path: Path) -> None:
    """What a stage made is written and dropped: the next stage starts with none of it held
    (a loop variable once kept a stage's last table through the whole of the next stage)."""
    held: list[int] = []

    def make(ctx: IndexContext, tables: Any) -> StageOutput:
        big = pa.table({"v": pa.array(range(1_000_000), pa.int64())})  # 8 MB
        return StageOutput({"small": _table(3), "big": big})

    def after(ctx: IndexContext, tables: Any) -> StageOutput:
        held.append(pa.total_allocated_bytes())
        return StageOutput({})

    pipeline = Pipeline(
        "probe", (Stage("make", (), ("small", "big"), make), Stage("after", (), (), after))
    )
    run = RunRegistry(tmp_path).create()
    before = pa.total_allocated_bytes()
    pipeline.run(IndexContext(Settings(), tmp_path, run, None, None))  # type: ignore[arg-type]
    assert held[0] - before < 1_000_000


class _Releasing:
    """An embedder that records when it is asked to hand back its memory."""

    model, dimension = "releasing", 2

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def embed(self, texts: Any, max_tokens: int | None = None) -> Any:
        raise AssertionError("not called")

    def release_memory(self) -> None:
        self.log.append("released")


def test_an_embedder_that_holds_memory_hands_it_back_after_each_stage(tmp_path: Path) -> None:
    log: list[str] = []

    def stage(name: str) -> Any:
        def run(ctx: IndexContext, tables: Any) -> StageOutput:
            log.append(name)
            return StageOutput({})

        return run

    pipeline = Pipeline("probe", (Stage("a", (), (), stage("a")), Stage("b", (), (), stage("b"))))
    run = RunRegistry(tmp_path).create()
    ctx = IndexContext(Settings(), tmp_path, run, _Releasing(log), None)  # type: ignore[arg-type]
    pipeline.run(ctx)
    assert log == ["a", "released", "b", "released"]


def test_artifact_tables_name_a_missing_input_at_once(tmp_path: Path) -> None:
    run = RunRegistry(tmp_path).create()
    run.write_artifact("chunks", _table(3))
    with pytest.raises(IndexMissingError, match="entities"):
        ArtifactTables(run, ("chunks", "entities"))
    tables = ArtifactTables(run, ("chunks",), ("entities",))
    assert list(tables) == ["chunks", "entities"] and len(tables) == 2
    assert tables["entities"].num_rows == 0 and "id" in tables["entities"].column_names
    with pytest.raises(KeyError):
        tables["relationships"]


@pytest.mark.parametrize("batch", [1, 2, 3, 7, 100])
def test_table_rows_give_every_record_in_order_on_each_pass(batch: int) -> None:
    relations = [
        Relationship(f"r{i}", "a", "b", "p", "svo", 1.0, "d", [f"c{j}" for j in range(i % 4)])
        for i in range(7)
    ]
    rows = TableRows(to_table(relations, Relationship), Relationship, batch_rows=batch)
    assert len(rows) == 7
    assert list(rows) == relations
    assert list(rows) == relations  # a second pass reads the table again


def test_a_run_switches_arrow_to_the_system_allocator_unless_told_not_to(tmp_path: Path) -> None:
    """mimalloc (pyarrow's default) keeps every page it held: between stages nothing went
    back. The run chooses the C heap, whose free pages ``release_memory`` returns."""
    before = pa.default_memory_pool()
    try:
        pa.set_memory_pool(pa.mimalloc_memory_pool())
        use_arrow_allocator("unchanged")
        assert pa.default_memory_pool().backend_name == "mimalloc"
        pipeline = Pipeline("probe", (Stage("make", (), ("made",), _make),))
        run = RunRegistry(tmp_path).create()
        ctx = IndexContext(Settings(), tmp_path, run, _NoEmbedder(), None)  # type: ignore[arg-type]
        execute(pipeline, ctx)
        assert pa.default_memory_pool().backend_name == "system"
        release_memory()  # and nothing it frees is in use
        assert run.read_artifact("made").equals(_table(5))
        stage = run.manifest().stages[0]
        assert stage.peak_rss_mb is not None and stage.peak_rss_mb > 10  # an interpreter's MB
    finally:
        pa.set_memory_pool(before)


def _make(ctx: IndexContext, tables: Any) -> StageOutput:
    return StageOutput({"made": _table(5)})


class _NoEmbedder:
    model = "none"
    dimension = 0
