"""The extract stage works in windows of chunks (records for one window at a time): windows
of any size, with chunks fresh and from the content cache side by side, give the artifacts one
window gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from graphgate import Workspace
from graphgate.index import extract_stage

ARTIFACTS = ("chunks", "mentions", "raw_relations", "entities", "relationships")


def _tables(workspace: Path) -> dict[str, object]:
    run = (workspace / "CURRENT").read_text().strip()
    return {n: pq.read_table(workspace / "runs" / run / f"{n}.parquet") for n in ARTIFACTS}


def test_windows_of_any_size_give_the_same_artifacts(
    small_workspace_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    changed = tmp_path / "corpus"
    shutil.copytree(small_workspace_path.parent / "corpus", changed)
    first = sorted(changed.iterdir())[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n\nA new line about Marley.\n")
    with Workspace(tmp_path / "whole") as ws:  # one window, every chunk fresh
        ws.index(changed)
    shutil.copytree(small_workspace_path, tmp_path / "windows")
    monkeypatch.setattr(extract_stage, "_EXTRACT_WINDOW", 2)
    with Workspace(tmp_path / "windows") as ws:  # windows of two, most chunks cached
        report = ws.index(changed)
    extracted = next(s for s in report.stages if s.name == "extract")
    assert extracted.info["chunks"] > 2
    assert 0 < extracted.info["reused"] < extracted.info["chunks"]
    assert _tables(tmp_path / "windows") == _tables(tmp_path / "whole")
