"""Extractions made elsewhere, imported instead of extracted: graphgate's JSONL and HippoRAG's
OpenIE JSON on hand-made files and on Re-DocRED's gold triples; malformed input; updates after
an import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.cli import build_app
from graphgate.core.errors import InputError
from tests.conftest import shared_path

SCROOGE = {
    "doc_id": "scrooge.txt",
    "entities": [
        {"name": "Ebenezer Scrooge", "type": "person", "aliases": ["Scrooge"]},
        {"name": "Bob Cratchit", "type": "PERSON", "description": "A clerk."},
        {"name": "London", "type": "GPE"},
        {"name": "Jacob Marley", "type": "PERSON", "aliases": ["Marley"]},
    ],
    "relations": [
        {"source": "Bob Cratchit", "predicate": "works for", "target": "Ebenezer Scrooge"},
        {"source": "Jacob Marley", "predicate": "partner of", "target": "Scrooge"},
        {"source": "Bob Cratchit", "predicate": "lives in", "target": "Paris"},  # nowhere
    ],
}
FAMILY = {
    "doc_id": "family.md",
    "entities": [{"name": "Tiny Tim", "type": "PERSON"}, {"name": "Bob Cratchit"}],
    "relations": [{"source": "Tiny Tim", "predicate": "son of", "target": "Bob Cratchit"}],
}


def _jsonl(path: Path, *records: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _graph(ws: Workspace) -> tuple[dict[str, Any], set[tuple[str, str, str]]]:
    with ws.holding() as loaded:
        entities = {e.id: e for e in loaded.store.entities()}
        edges = {
            (entities[r.source_id].name, r.predicate, entities[r.target_id].name)
            for r in loaded.store.relationships()
        }
    return {e.name: e for e in entities.values()}, edges


def _imported(ws_path: Path, extractions: Path) -> Workspace:
    return Workspace(ws_path, extract={"extractor": "import", "import_path": str(extractions)})


def test_graphgate_jsonl_is_placed_in_chunks_and_reported(
    small_corpus: Path, tmp_path: Path
) -> None:
    extractions = _jsonl(tmp_path / "x.jsonl", SCROOGE, FAMILY)
    with _imported(tmp_path / "ws", extractions) as ws:
        report = ws.index(small_corpus)
        names, edges = _graph(ws)
    extract = next(s for s in report.stages if s.name == "extract")
    assert extract.info["extractor"] == "import"
    assert extract.info["documents_without_extractions"] == 1  # fred.html has none
    assert extract.info["without_extractions"] == ["fred.html"]
    assert extract.info["unplaced_relations"] == 1  # Paris is never named
    assert {"Ebenezer Scrooge", "Bob Cratchit", "Tiny Tim", "Jacob Marley"} <= set(names)
    assert names["Ebenezer Scrooge"].type == "PERSON"
    # "Scrooge" alone (an alias) is the same entity: no second Scrooge.
    assert not any(n != "Ebenezer Scrooge" and "Scrooge" in n for n in names), sorted(names)
    assert ("Bob Cratchit", "works_for", "Ebenezer Scrooge") in edges
    assert ("Jacob Marley", "partner_of", "Ebenezer Scrooge") in edges
    assert ("Tiny Tim", "son_of", "Bob Cratchit") in edges
    assert "Fred Holywell" not in names  # nothing was extracted from fred.html


def test_hipporag_openie_json_is_read_by_title(small_corpus: Path, tmp_path: Path) -> None:
    openie = {
        "docs": [
            {
                "idx": 0,
                "title": "family.md",
                "passage": "…",
                "extracted_entities": ["Tiny Tim", "Bob Cratchit", "Camden Town"],
                "extracted_triples": [
                    ["Tiny Tim", "youngest son of", "Bob Cratchit"],
                    ["Bob Cratchit", "lives in", "Camden Town"],
                ],
            }
        ]
    }
    path = tmp_path / "openie.json"
    path.write_text(json.dumps(openie))
    with _imported(tmp_path / "ws", path) as ws:
        report = ws.index(small_corpus)
        _, edges = _graph(ws)
    assert ("Tiny Tim", "youngest_son_of", "Bob Cratchit") in edges
    assert ("Bob Cratchit", "lives_in", "Camden Town") in edges
    extract = next(s for s in report.stages if s.name == "extract")
    assert extract.info["documents_without_extractions"] == 2


def _msgraphrag_folder(folder: Path) -> Path:
    """An output folder in MS GraphRAG's table schemas (microsoft.github.io/graphrag, Outputs):
    documents by a hash id with their file name as title, text units naming their documents,
    entities and relationships naming their text units."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir()
    tables = {
        "documents": [{"id": "d41d8cd9", "human_readable_id": 0, "title": "family.md",
                       "text": "...", "text_unit_ids": ["u1"]}],
        "text_units": [{"id": "u1", "human_readable_id": 0, "text": "...",
                        "document_ids": ["d41d8cd9"], "n_tokens": 30}],
        "entities": [
            {"id": "e1", "human_readable_id": 0, "title": "TINY TIM", "type": "PERSON",
             "description": "The youngest Cratchit.", "text_unit_ids": ["u1"]},
            {"id": "e2", "human_readable_id": 1, "title": "BOB CRATCHIT", "type": "PERSON",
             "description": "Tiny Tim's father.", "text_unit_ids": ["u1"]},
        ],
        "relationships": [
            {"id": "r1", "human_readable_id": 0, "source": "TINY TIM", "target": "BOB CRATCHIT",
             "description": "Tiny Tim is Bob Cratchit's youngest son.", "weight": 2.0,
             "text_unit_ids": ["u1"]},
        ],
    }  # fmt: skip
    for name, rows in tables.items():
        pq.write_table(pa.Table.from_pylist(rows), folder / f"{name}.parquet")
    return folder


def test_an_ms_graphrag_output_folder_is_read(small_corpus: Path, tmp_path: Path) -> None:
    folder = _msgraphrag_folder(tmp_path / "output")
    with _imported(tmp_path / "ws", folder) as ws:
        report = ws.index(small_corpus)
        names, edges = _graph(ws)
    # Names in capitals (GraphRAG's habit) are found in the text in any case.
    assert {"Tiny Tim", "Bob Cratchit"} <= set(names)  # spelled as the text spells them
    assert ("Tiny Tim", "related", "Bob Cratchit") in edges
    extract = next(s for s in report.stages if s.name == "extract")
    assert extract.info["documents_without_extractions"] == 2
    (folder / "relationships.parquet").unlink()
    with _imported(tmp_path / "ws2", folder) as ws, pytest.raises(InputError, match="relation"):
        ws.index(small_corpus)


def test_a_real_ms_graphrag_run_is_imported(tmp_path: Path) -> None:
    """The output of GraphRAG 3.3.0 itself over the demo novel (its fast method: noun phrases
    and co-occurrence; tests/data/build_msgraphrag.py): its entities are found in graphgate's
    chunks, its relationships kept where a chunk holds both ends, the rest reported."""
    import pyarrow.parquet as pq

    from graphgate.core.text import normalise_name
    from tests.conftest import DEMO_CORPUS

    folder = Path(__file__).parents[1] / "data" / "msgraphrag_demo"
    with _imported(tmp_path / "ws", folder) as ws:
        report = ws.index(DEMO_CORPUS)
        names, edges = _graph(ws)
        answer = ws.query("Who is Tiny Tim?", mode="local")
    extract = next(s for s in report.stages if s.name == "extract")
    assert extract.info["documents_without_extractions"] == 0
    relationships = pq.read_table(folder / "relationships.parquet").num_rows
    # GraphRAG pairs noun phrases across a 1,200-token text unit; a pair no chunk of graphgate's
    # holds is not placed, and counted.
    assert 0 < extract.info["unplaced_relations"] < relationships
    text = (DEMO_CORPUS / "christmas_carol.txt").read_text(encoding="utf-8").casefold()
    titles = pq.read_table(folder / "entities.parquet")["title"].to_pylist()
    verbatim = {normalise_name(t) for t in titles if t.casefold() in text}
    found = {normalise_name(n) for e in names.values() for n in (e.name, *e.aliases)}
    assert len(verbatim & found) >= 0.95 * len(verbatim), sorted(verbatim - found)
    assert edges and all(predicate == "related" for _, predicate, _ in edges)
    # GraphRAG's titles are in capitals; the entities take the spelling the text uses.
    assert "Tiny Tim" in names and "TINY TIM" not in names
    assert answer.citations


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "not JSON"),
        ('{"entities": []}', "doc_id"),
        ('{"doc_id": "a", "entities": [{"type": "PERSON"}]}', "name"),
        ('{"doc_id": "a", "relations": [{"source": "x", "target": "y"}]}', "predicate"),
        ('{"doc_id": "a", "entities": "Scrooge"}', "must be a list"),
    ],
)
def test_a_malformed_line_names_file_and_line_and_changes_nothing(
    small_workspace: Workspace, small_corpus: Path, tmp_path: Path, line: str, problem: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(FAMILY) + "\n" + line + "\n")
    before = small_workspace.runs.current_id()
    with _imported(small_workspace.path, path) as ws, pytest.raises(InputError) as refused:
        ws.index(small_corpus)
    assert f"{path}:2" in refused.value.problem and problem in refused.value.problem
    assert small_workspace.runs.current_id() == before


def test_an_update_reads_the_extractions_as_they_are_then(
    small_corpus: Path, tmp_path: Path
) -> None:
    extractions = _jsonl(tmp_path / "x.jsonl", SCROOGE, FAMILY)
    new_doc = tmp_path / "new"
    new_doc.mkdir()
    (new_doc / "fezziwig.txt").write_text("Old Fezziwig employed Ebenezer Scrooge as a boy.")
    with _imported(tmp_path / "ws", extractions) as ws:
        ws.index(small_corpus)
        fezziwig = {
            "doc_id": "fezziwig.txt",
            "entities": [{"name": "Old Fezziwig", "type": "PERSON"}],
            "relations": [
                {"source": "Old Fezziwig", "predicate": "employed", "target": "Ebenezer Scrooge"}
            ],
        }
        _jsonl(extractions, SCROOGE, FAMILY, fezziwig)
        ws.add([new_doc / "fezziwig.txt"])
        names, edges = _graph(ws)
        assert ("Old Fezziwig", "employed", "Ebenezer Scrooge") in edges
        ws.delete(["family.md"])
        names, edges = _graph(ws)
    assert "Tiny Tim" not in names and "Old Fezziwig" in names
    assert ("Bob Cratchit", "works_for", "Ebenezer Scrooge") in edges


def test_the_cli_takes_extractions(small_corpus: Path, tmp_path: Path) -> None:
    extractions = _jsonl(tmp_path / "x.jsonl", SCROOGE, FAMILY)
    out = CliRunner().invoke(
        build_app(),
        ["index", str(small_corpus), "-w", str(tmp_path / "ws"), "--extractions",
         str(extractions), "--json"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    stages = {s["name"]: s for s in json.loads(out.stdout)["stages"]}
    assert stages["extract"]["info"]["extractor"] == "import"
    missing = CliRunner().invoke(
        build_app(),
        ["index", str(small_corpus), "-w", str(tmp_path / "ws2"), "--extractions",
         str(tmp_path / "none.jsonl")],
    )  # fmt: skip
    assert missing.exit_code == 2 and "does not exist" in missing.output


@pytest.mark.shared
def test_re_docred_gold_triples_become_the_graph(tmp_path: Path) -> None:
    """Real documents and their gold triples (Re-DocRED dev, the first 15 documents): most
    triples become edges between the entities they name."""
    source = shared_path("ie", "re_docred", "dev_revised_triples.jsonl")
    rows = [json.loads(line) for line in source.read_text().splitlines()[:15]]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": str(r["doc_id"]), "text": r["text"]}) + "\n" for r in rows)
    )
    records = [
        {
            "doc_id": str(r["doc_id"]),
            "entities": [
                {"name": e["name"], "type": e["type"], "aliases": e.get("aliases", [])}
                for e in r["entities"]
            ],
            "relations": [
                {"source": t["head"], "predicate": t["relation"], "target": t["tail"]}
                for t in r["triples"]
            ],
        }
        for r in rows
    ]
    extractions = _jsonl(tmp_path / "gold.jsonl", *records)
    with _imported(tmp_path / "ws", extractions) as ws:
        report = ws.index(corpus)
        _, edges = _graph(ws)
    extract = next(s for s in report.stages if s.name == "extract")
    gold = {(t["head"], t["relation"], t["tail"]) for r in rows for t in r["triples"]}
    assert extract.info["documents_without_extractions"] == 0
    assert extract.info["unplaced_relations"] < 0.2 * len(gold)
    predicates = {p for _, p, _ in edges}
    assert "country_of_citizenship" in predicates or "country" in predicates
    assert len(edges) >= 0.5 * len(gold)
