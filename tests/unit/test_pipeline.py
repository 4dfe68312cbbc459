"""The pipeline runner: stages run with the cycle collector paused, unless told otherwise."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from graphgate.core.config import Settings
from graphgate.core.runs import RunRegistry
from graphgate.index.pipeline import (
    IndexContext,
    Pipeline,
    Stage,
    StageOutput,
    cycle_collector_paused,
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
