from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphgate import Workspace
from tests.ray_cluster import RayCluster

REPO = Path(__file__).resolve().parents[1]
DEMO_CORPUS = REPO / "data" / "demo"
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_path(*parts: str) -> Path:
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/data/{'/'.join(parts)} (absent in a plain clone)")
    return path


SMALL_TEXTS = {
    "scrooge.txt": (
        "Ebenezer Scrooge runs a counting-house in London. Bob Cratchit works for Ebenezer "
        "Scrooge as a clerk. Scrooge pays Bob Cratchit fifteen shillings a week.\n\n"
        "Jacob Marley was the partner of Ebenezer Scrooge. Marley died seven years ago."
    ),
    "family.md": (
        "# The Cratchits\n\nBob Cratchit lives in Camden Town with his family. "
        "Tiny Tim is the youngest son of Bob Cratchit. Martha Cratchit works at a milliner's."
    ),
    "fred.html": (
        "<html><head><title>Fred</title><style>p {color: red}</style></head><body>"
        "<p>Fred Holywell is the nephew of Ebenezer Scrooge.</p><p>Fred Holywell invites Scrooge "
        "to dinner in London every Christmas.</p></body></html>"
    ),
}


FRED_CASE = {
    "id": "q1",
    "question": "Who is Fred Holywell?",
    "question_type": "single_hop",
    "answer": "nephew",
    "gold_docs": ["fred.html"],
}


def write_fred_testset(path: Path) -> Path:
    """A one-case test set over the small corpus."""
    path.write_text(json.dumps(FRED_CASE) + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def small_corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, text in SMALL_TEXTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def demo_workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """The demo corpus indexed once for the whole session (read-only use in tests)."""
    path = tmp_path_factory.mktemp("demo") / "ws"
    ws = Workspace(path)
    ws.index(DEMO_CORPUS)
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def small_workspace_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small corpus indexed once; tests copy it before changing anything."""
    root = tmp_path_factory.mktemp("small")
    corpus = root / "corpus"
    corpus.mkdir()
    for name, text in SMALL_TEXTS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    with Workspace(root / "ws") as ws:
        ws.index(corpus)
    return root / "ws"


@pytest.fixture()
def small_workspace(small_workspace_path: Path, tmp_path: Path) -> Iterator[Workspace]:
    copy = tmp_path / "ws"
    shutil.copytree(small_workspace_path, copy)
    ws = Workspace(copy)
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def falkordb_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A FalkorDB server for the whole session (tests name their graphs apart)."""
    from tests.falkordb_server import FalkorDBProcess

    server = FalkorDBProcess(tmp_path_factory.mktemp("falkordb"))
    server.start()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[RayCluster]:
    """A two-node Ray cluster for the whole session (tests/ray_cluster.py)."""
    pytest.importorskip("ray", reason="needs graphgate[ray]")
    from tests.ray_cluster import two_node_cluster

    with two_node_cluster() as cluster:
        yield cluster


@pytest.fixture()
def ray_joined(ray_cluster: RayCluster, monkeypatch: pytest.MonkeyPatch) -> str:
    """``index.executor = "ray"`` joins the test cluster as a driver (RAY_ADDRESS)."""
    monkeypatch.setenv("RAY_ADDRESS", ray_cluster.gcs)
    return "ray"
