"""Read-only Cypher: reads answer, every write is refused twice over (the statement check, then
the read-only database), limits cut what runs too long or returns too much, and the graph is
never changed — on the embedded store and on FalkorDB."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from graphgate import Workspace
from graphgate.core.errors import InputError, QueryTimeoutError
from graphgate.query.cypher_guard import CypherRefused, check_read_only, graph_schema
from tests.serving import running_server

HOSTILE = [
    "CREATE (e:Entity {id: 'x', name: 'Mallory'})",
    "MATCH (e:Entity) SET e.name = 'pwned'",
    "MATCH (e:Entity) DETACH DELETE e",
    "MATCH ()-[r:RELATED]->() DELETE r",
    "MERGE (e:Entity {id: 'x'}) RETURN e",
    "MATCH (e:Entity) REMOVE e.description",
    "DROP TABLE Entity",
    "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row",
    "COPY Entity FROM '/tmp/evil.csv'",
    "CALL db.idx.fulltext.createNodeIndex('Entity', 'name')",
    "CALL db.idx.fulltext.drop('Chunk')",
    "CALL { CREATE (x:Entity {id: 'y'}) } RETURN 1",
    "MATCH (e:Entity) RETURN e.name; CREATE (x:Entity {id: 'z'})",
    "MATCH (e:Entity) RETURN e.name // ; MATCH (n) DETACH DELETE n",
    "MATCH (e:Entity) /* CREATE (x:Entity) */ RETURN e.name",
    "MATCH (e:Entity) FOREACH (x IN [1] | CREATE (:Entity {id: 'w'})) RETURN e",
    "UNWIND [1] AS x CREATE (:Entity {id: toString(x)})",
    "INSTALL httpfs",
    "ATTACH '/tmp/other.lbug' AS other",
    "BEGIN TRANSACTION",
    "MATCH (e:Entity) RETURN 'unterminated",
    "EXPLAIN MATCH (e) RETURN e",
]
READS = [
    "MATCH (e:Entity) RETURN count(e) AS n",
    "MATCH (e:Entity) WHERE e.name = 'a; CREATE (x) // DELETE' RETURN e.name",
    "MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.name, r.predicate, b.name LIMIT 3",
    "MATCH (e:Entity) WHERE e.id = $id RETURN e.name;",
    "OPTIONAL MATCH (e:Entity {name: `name`}) RETURN e",
]


def test_the_statement_check_refuses_writes_and_says_why() -> None:
    assert len(HOSTILE) >= 15
    for statement in HOSTILE:
        with pytest.raises(CypherRefused) as refused:
            check_read_only(statement)
        assert refused.value.problem and refused.value.fix, statement
    for statement in READS:
        assert check_read_only(statement)
    with pytest.raises(CypherRefused, match="DETACH is refused"):
        check_read_only("MATCH (n) DETACH DELETE n")
    with pytest.raises(CypherRefused, match="more than one statement"):
        check_read_only("MATCH (n) RETURN n; MATCH (m) RETURN m")
    with pytest.raises(CypherRefused, match="comments"):
        check_read_only("MATCH (n) RETURN n /* hidden */")
    schema = graph_schema()
    assert "Entity" in schema["nodes"] and schema["edges"]["RELATED"]["from"] == "Entity"


@pytest.fixture(params=["embedded", "falkordb"])
def workspace(
    request: pytest.FixtureRequest, small_corpus: Path, small_workspace_path: Path, tmp_path: Path
) -> Iterator[Workspace]:
    if request.param == "embedded":
        shutil.copytree(small_workspace_path, tmp_path / "ws")
        ws = Workspace(tmp_path / "ws")
    else:
        url = request.getfixturevalue("falkordb_url")
        store = {"backend": "falkordb", "url": url, "graph": "cypher"}
        ws = Workspace(tmp_path / "ws", store=store)
        ws.index(small_corpus)
    yield ws
    ws.close()


def test_reads_answer_and_hostile_statements_leave_the_graph_unchanged(
    workspace: Workspace,
) -> None:
    before = workspace.status().counts
    top = workspace.cypher(
        "MATCH (e:Entity)-[r:RELATED]-() RETURN e.name AS name, count(r) AS degree "
        "ORDER BY degree DESC, name LIMIT 3"
    )
    assert top.columns == ["name", "degree"] and top.rows[0]["name"] == "Ebenezer Scrooge"
    assert top.rows[0]["degree"] >= top.rows[-1]["degree"]
    named = workspace.cypher(
        "MATCH (e:Entity) WHERE e.name = $name RETURN e.id AS id", {"name": "Tiny Tim"}
    )
    assert len(named.rows) == 1
    hidden = workspace.cypher(READS[1])  # a write inside a string is only text
    assert hidden.rows == []
    for statement in HOSTILE:
        with pytest.raises(InputError):
            workspace.cypher(statement)
    # The second lock: a write that got past the check is refused by the read-only database.
    store = workspace.loaded().store
    for statement in HOSTILE[:6]:
        with pytest.raises(Exception):  # noqa: B017 - each backend refuses in its own words
            store.cypher(statement)
    assert workspace.status().counts == before


def test_limits_cut_rows_and_time(workspace: Workspace) -> None:
    workspace.settings.query.cypher_max_rows = 50
    product = workspace.cypher("MATCH (a:Entity), (b:Entity), (c:Entity) RETURN a.id, b.id, c.id")
    assert product.truncated and len(product.rows) == 50 and product.executed.endswith("LIMIT 51")
    workspace.settings.query.cypher_timeout_s = 0.2
    with pytest.raises(QueryTimeoutError, match="ran past"):
        workspace.cypher(  # 17 nodes to the 9th power, each combination compared
            "MATCH (a), (b), (c), (d), (e), (f), (g), (h), (i) "
            "WHERE a.id + b.id + c.id + d.id + e.id + f.id + g.id + h.id + i.id <> 'x' "
            "RETURN count(*) AS n LIMIT 1"
        )
    assert workspace.cypher("MATCH (e:Entity) RETURN count(e) AS n").rows[0]["n"] > 0
    with pytest.raises(InputError, match="database refused"):
        workspace.cypher("MATCH (e:NoSuchLabel RETURN e")


def test_cypher_over_http_needs_the_switch_and_the_write_token(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    shutil.copytree(small_workspace_path, tmp_path / "ws")
    body = {"query": "MATCH (e:Entity) RETURN count(e) AS n"}
    with running_server(tmp_path / "ws", "w-token", "r-token") as (base, _):
        off = httpx.post(base + "/cypher", json=body, headers={"Authorization": "Bearer w-token"})
        assert off.status_code == 403 and "serve.cypher" in off.json()["fix"]
    on = {"serve": {"cypher": True}}
    with running_server(tmp_path / "ws", "w-token", "r-token", **on) as (base, _):
        write = {"Authorization": "Bearer w-token"}
        assert httpx.post(base + "/cypher", json=body).status_code == 401
        read = {"Authorization": "Bearer r-token"}
        assert httpx.post(base + "/cypher", json=body, headers=read).status_code == 403
        ok = httpx.post(base + "/cypher", json=body, headers=write)
        assert ok.status_code == 200 and ok.json()["rows"][0]["n"] > 0
        for statement in HOSTILE[:5]:
            refused = httpx.post(base + "/cypher", json={"query": statement}, headers=write)
            assert refused.status_code == 422, statement
        after = httpx.post(base + "/cypher", json=body, headers=write)
        assert after.json()["rows"] == ok.json()["rows"]


def test_the_cli_lists_the_demo_corpus_top_entities_by_degree(demo_workspace: Workspace) -> None:
    import json

    from typer.testing import CliRunner

    from graphgate.cli import build_app

    query = (
        "MATCH (e:Entity)-[r:RELATED]-() RETURN e.name AS name, count(r) AS degree "
        "ORDER BY degree DESC, name LIMIT 5"
    )
    result = CliRunner().invoke(
        build_app(), ["cypher", query, "--json", "-w", str(demo_workspace.path)]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rows"]
    assert rows[0]["name"] == "Scrooge" and len(rows) == 5
    assert [r["degree"] for r in rows] == sorted((r["degree"] for r in rows), reverse=True)
    refused = CliRunner().invoke(
        build_app(), ["cypher", "MATCH (n) DETACH DELETE n", "-w", str(demo_workspace.path)]
    )
    assert refused.exit_code == 2 and "DETACH is refused" in refused.output
