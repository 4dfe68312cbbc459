"""The GraphStore contract: what every backend must answer, and how.

Run against each backend on the same small index, each opened by its own StoreBackend: the
embedded LadybugDB store, the same run's tables written to a graph on a real FalkorDB server
(``falkordb_url``), and a toy in-memory backend defined in a test module (toy_backend.py).
Retrieval is typed against this protocol only. The write side's contract is in
test_store_backends.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from graphgate import Workspace
from graphgate.core.config import Settings
from graphgate.core.errors import GraphgateError
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import Run, RunRegistry
from graphgate.core.text import normalise_name
from graphgate.store.base import STORE_ARTIFACTS, GraphStore, nothing_built_ahead
from graphgate.store.embedded_backend import EmbeddedBackend
from graphgate.store.falkordb_backend import FalkorDBBackend
from tests.contract.toy_backend import ToyBackend, ToyGraphStore


def _tables(run: Run) -> dict[str, pa.Table]:
    return {name: run.read_artifact(name) for name in STORE_ARTIFACTS if run.has_artifact(name)}


def _embedded(ws_path: Path, request: pytest.FixtureRequest) -> GraphStore:
    """The run's own store, as its backend opens it."""
    run = RunRegistry(ws_path).current()
    return EmbeddedBackend().open(run, StoreRecord(backend="embedded"), Settings())


def _falkordb(ws_path: Path, request: pytest.FixtureRequest, keywords: str = "bm25") -> GraphStore:
    """The same run's tables written to a graph on a real FalkorDB server by its backend."""
    settings = Settings(
        store={"backend": "falkordb", "url": request.getfixturevalue("falkordb_url"),
               "keyword_search": keywords}
    )  # fmt: skip
    run = RunRegistry(ws_path).current()
    record = StoreRecord(backend="falkordb", graph=f"contract-{request.node.name}")
    backend = FalkorDBBackend()
    backend.write(run, record, settings, _tables(run), None, nothing_built_ahead)
    return backend.open(run, record, settings)


def _falkordb_fulltext(ws_path: Path, request: pytest.FixtureRequest) -> GraphStore:
    """Keyword search by FalkorDB's own full-text index (store.keyword_search = "server")."""
    return _falkordb(ws_path, request, "server")


def _toy(ws_path: Path, request: pytest.FixtureRequest) -> GraphStore:
    """A backend registered from a test module (tests/contract/toy_backend.py)."""
    run = RunRegistry(ws_path).current()
    backend, settings = ToyBackend(), Settings()
    record = backend.place(run, settings, None)
    backend.write(run, record, settings, _tables(run), None, nothing_built_ahead)
    return backend.open(run, record, settings)


BACKENDS: dict[str, Callable[[Path, pytest.FixtureRequest], GraphStore]] = {
    "embedded": _embedded,
    "falkordb": _falkordb,
    "falkordb-fulltext": _falkordb_fulltext,
    "toy": _toy,
}


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, small_workspace_path: Path) -> Iterator[GraphStore]:
    opened = BACKENDS[request.param](small_workspace_path, request)
    yield opened
    opened.close()


@pytest.fixture()
def embedder(small_workspace_path: Path) -> Iterator[object]:
    with Workspace(small_workspace_path) as ws:
        yield ws.embedder


def test_entities_by_id_and_by_name_or_alias(store: GraphStore) -> None:
    entities = store.entities()
    assert entities and len({e.id for e in entities}) == len(entities)
    scrooge = next(e for e in entities if e.name == "Ebenezer Scrooge")
    assert store.entity(scrooge.id) == scrooge
    with pytest.raises(KeyError):
        store.entity("no-such-entity")
    # Names are matched normalised: case, accents, possessives, a leading article.
    assert scrooge.id in store.entity_ids_named("ebenezer scrooge's")
    for alias in scrooge.aliases:
        assert scrooge.id in store.entity_ids_named(alias)
    assert store.entity_ids_named("nobody at all") == []
    # The name table lists every name and alias under its normalised key, nothing else.
    table = store.entity_names()
    assert scrooge.id in table["ebenezer scrooge"]
    assert all(key == normalise_name(key) and ids for key, ids in table.items())
    assert {eid for ids in table.values() for eid in ids} == {e.id for e in entities}


def test_relationships_and_the_edges_among_entities(store: GraphStore) -> None:
    relationships = store.relationships()
    assert relationships and [r.id for r in relationships] == sorted(r.id for r in relationships)
    ids = {e.id for e in store.entities()}
    assert all(r.source_id in ids and r.target_id in ids for r in relationships)
    first = relationships[0]
    pair = {first.source_id, first.target_id}
    among = store.relations_among(pair)
    assert first in among and all({r.source_id, r.target_id} <= pair for r in among)
    assert store.relations_among({first.source_id}) == [
        r for r in relationships if r.source_id == r.target_id == first.source_id
    ]
    near = store.neighbours([first.source_id])
    assert first.target_id in near and first.source_id not in near and near == sorted(near)


def test_projection_covers_every_entity_and_edge(store: GraphStore) -> None:
    projection = store.projection()
    assert projection.node_ids == sorted(e.id for e in store.entities())
    n = len(store.relationships())
    assert len(projection.source_ids) == len(projection.target_ids) == len(projection.weights) == n
    nodes = set(projection.node_ids)
    assert set(projection.source_ids) <= nodes and set(projection.target_ids) <= nodes
    assert all(w > 0 for w in projection.weights)
    # The passages of graph mode's walk: every chunk, and each entity's chunks as mentions.
    assert projection.chunk_ids == sorted(c.id for c in store.chunks())
    mentions = sorted(zip(projection.mention_entity_ids, projection.mention_chunk_ids, strict=True))
    assert mentions == sorted((e.id, c) for e in store.entities() for c in e.chunk_ids)
    assert mentions


def test_chunks_their_entities_and_entity_pages(store: GraphStore) -> None:
    chunks = store.chunks()
    assert chunks
    chunk = chunks[0]
    assert store.chunk(chunk.id) == chunk
    with pytest.raises(KeyError):
        store.chunk("no-such-chunk")
    vector = store.chunk_vector(chunk.id)
    assert vector is not None and vector.shape == (384,)
    assert store.chunk_vector("no-such-chunk") is None
    other = chunks[-1]
    cosine = store.chunk_similarities([chunk.id, other.id, "no-such-chunk"], vector)
    assert set(cosine) == {chunk.id, other.id}
    assert cosine[chunk.id] == pytest.approx(1.0, abs=1e-5)
    assert cosine[other.id] == pytest.approx(float(store.chunk_vector(other.id) @ vector), abs=1e-5)  # type: ignore[operator]
    assert store.chunk_similarities([], vector) == {}
    for entity in store.entities():
        for cid in entity.chunk_ids:
            assert entity.id in store.entities_in_chunk(cid)
    first = {
        c.doc_id: c.id for c in sorted(chunks, key=lambda c: (c.doc_id, c.index), reverse=True)
    }
    for doc_id, chunk_id in first.items():
        assert store.first_chunk(doc_id) == chunk_id
    assert store.first_chunk("no-such-doc") is None
    for doc_id in first:
        order = [c.id for c in sorted(chunks, key=lambda c: c.index) if c.doc_id == doc_id]
        assert store.document_chunks(doc_id) == order
    assert store.document_chunks("no-such-doc") == []
    # The small corpus's "fred.html" has the title "Fred": its entity page.
    assert store.entity_pages("FRED") == ["fred.html"]
    assert store.entity_pages("nobody") == []


def test_documents_by_metadata(store: GraphStore) -> None:
    # The small corpus is a folder of files: their metadata is empty.
    assert store.documents_by("source") == {}


def test_communities_and_reports(store: GraphStore) -> None:
    communities = store.communities()
    assert communities
    for community in communities:
        assert store.community(community.id) == community
    reports = store.reports()
    assert reports and {r.community_id for r in reports} <= {c.id for c in communities}
    assert store.report(reports[0].community_id) == reports[0]
    with pytest.raises(KeyError):
        store.report("no-such-community")


def test_vector_and_text_search_return_known_ids(store: GraphStore, embedder: object) -> None:
    vector = embedder.embed(["Who does Bob Cratchit work for?"])[0]  # type: ignore[attr-defined]
    hits = store.vector_search("chunk", vector, 2)
    assert len(hits) == 2 and hits[0][1] >= hits[1][1]
    assert all(store.chunk(cid) for cid, _ in hits)
    text = store.text_search("chunk", "Cratchit clerk", 3)
    assert text and all(store.chunk(cid) for cid, _ in text)
    assert store.text_search("entity", "Cratchit", 3)
    assert store.has_vector_index("entity")
    entity_hits = store.vector_search("entity", vector, 3)
    assert all(store.entity(eid) for eid, _ in entity_hits)
    with pytest.raises(Exception, match="dimension"):
        store.vector_search("chunk", np.zeros(5, dtype=np.float32), 2)


def test_cypher_reads_and_refuses_writes(store: GraphStore) -> None:
    assert store.counts()["Entity"] == len(store.entities())
    if isinstance(store, ToyGraphStore):  # a store without Cypher says so, by name
        with pytest.raises(GraphgateError, match="answers no Cypher"):
            store.cypher("MATCH (e:Entity) RETURN count(e) AS n")
        return
    rows = store.cypher("MATCH (e:Entity) RETURN count(e) AS n").to_pylist()
    assert rows == [{"n": len(store.entities())}]
    with pytest.raises(Exception):  # noqa: B017 - each backend refuses in its own words
        store.cypher("CREATE (e:Entity {id: 'x'})")
    assert store.counts()["Entity"] == len(store.entities())


def test_query_syntax_in_user_text_is_only_words(store: GraphStore) -> None:
    # Full-text engines have their own syntax (negation, prefixes, field names): a question
    # containing it is searched for its words, never parsed.
    plain = store.text_search("chunk", "Cratchit clerk", 3)
    hostile = store.text_search("chunk", '-Cratchit* @text:(clerk) | "\\ ~%', 3)
    assert {cid for cid, _ in hostile} == {cid for cid, _ in plain}
    assert store.text_search("chunk", "?!", 3) == []


def test_the_store_says_where_it_lives(store: GraphStore) -> None:
    described = store.describe()
    assert described["backend"] in {"embedded", "falkordb", "toy"}
    assert all(isinstance(v, str) and v for v in described.values())
