"""A real Chromium (Debian's, driven by Playwright) against a real graphgate server on loopback.

Skips with the reason where the browser or Playwright is absent (``.ci/run`` installs both).
Screenshots go to ``$UI_SCREENSHOTS`` when set (``docs/screenshots`` is made that way),
else to the test's temporary folder; page timings to ``ui_timings.json`` beside them.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphgate import Workspace
from graphgate.evaluate.generate import TestsetGenerator
from graphgate.evaluate.testset import write_testset
from tests.serving import running_server

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
# Chromium as root in a container, and quiet: no calls home on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WRITE_TOKEN = "ui-write-token"
EXTRA_DOCUMENT = (
    "Fezziwig was a kind employer in London. Ebenezer Scrooge worked for Fezziwig as an "
    "apprentice from 1820 to 1826. Dick Wilkins was apprenticed to Fezziwig with Scrooge."
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Module-scoped: Playwright's sync API keeps an event loop running in this thread while
    it is open, which later tests that start their own (anyio.run) must not meet."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: pip install -r requirements.lock")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def ui_workspace(demo_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo index, then a second run (one document added) and an evaluation, so every
    page has something to show: two runs of gates to draw trends from, results to open."""
    path = tmp_path_factory.mktemp("ui") / "ws"
    shutil.copytree(demo_workspace.path, path)
    corpus = path.parent / "extra"
    corpus.mkdir()
    (corpus / "fezziwig.txt").write_text(EXTRA_DOCUMENT, encoding="utf-8")
    with Workspace(path) as ws:
        ws.set_baseline(ws.runs.current_id() or "")
        ws.add([corpus / "fezziwig.txt"])
        testset = path.parent / "testset.jsonl"
        write_testset(TestsetGenerator(ws.loaded(), 0).generate(8), testset)
        ws.evaluate(testset, "vector,local,hybrid", path.parent / "eval")
    return path


@pytest.fixture(scope="session")
def server(ui_workspace: Path) -> Iterator[str]:
    with running_server(ui_workspace, WRITE_TOKEN) as (base, _):
        yield base


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("UI_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def timings(shots: Path) -> Iterator[dict[str, float]]:
    measured: dict[str, float] = {}
    yield measured
    (shots / "ui_timings.json").write_text(json.dumps(measured, indent=2, sort_keys=True))


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    context.close()
    assert not errors, f"the page threw: {errors}"
