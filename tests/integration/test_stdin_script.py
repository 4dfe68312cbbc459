"""A script read from stdin (``python - < script.py``) indexes and answers: spawned workers
cannot re-import its ``__main__``, so its parser pool and background worker run in the calling
process instead of dying on start and being waited on for ever; and a worker pool whose every
worker dies on start is given up, not waited on."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from graphgate.core.workers import BackgroundProcess, WarmPool, WorkerDiedError, spawnable

SCRIPT = """
from graphgate import Workspace
ws = Workspace({ws!r}, gates={{"background_from_chunks": 1}}, extract={{"parallel_from": 1}})
report = ws.index({corpus!r})
print("RUN", report.run_id)
print("ANSWER", ws.query("Who does Bob Cratchit work for?", mode="local").citations[0].doc_id)
ws.close()
"""


def test_a_script_on_stdin_indexes_in_process(small_corpus: Path, tmp_path: Path) -> None:
    script = SCRIPT.format(ws=str(tmp_path / "ws"), corpus=str(small_corpus))
    done = subprocess.run(
        [sys.executable, "-"], input=script, capture_output=True, text=True, timeout=300,
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "RUN " in done.stdout and "ANSWER " in done.stdout


def test_spawnable_is_false_only_for_a_main_without_its_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = types.ModuleType("__main__")
    monkeypatch.setitem(sys.modules, "__main__", fake)
    assert spawnable()  # interactive, python -c: no __file__
    fake.__file__ = "<stdin>"
    assert not spawnable()
    (tmp_path / "s.py").write_text("")
    fake.__file__ = str(tmp_path / "s.py")
    assert spawnable()


def die_on_start() -> None:
    os._exit(3)


def test_workers_that_die_on_start_are_given_up_not_waited_for() -> None:
    background = BackgroundProcess(die_on_start)
    try:
        assert background.wait(background.submit(abs, -1), poll_s=0.2) is None
    finally:
        background.close()
    pool = WarmPool(1, die_on_start)
    with pytest.raises(WorkerDiedError):
        list(pool.map(abs, [-1, -2], poll_s=0.2))
    pool.close()
