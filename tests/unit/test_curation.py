"""Curation edits over clusters of name keys (index/curation.py), without a workspace."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from graphgate.app.curation import CurationLog
from graphgate.core.config import ResolveSettings
from graphgate.core.errors import InputError
from graphgate.core.types import Mention, RawRelation
from graphgate.index.curation import (
    CurationEdit,
    apply_edits,
    curation_key,
    effective,
    without_deleted,
)
from graphgate.index.resolve import EntityResolver

# Blocking and the embedding merge's clusters: "scrooge" joined "ebenezer scrooge".
HEAD = {
    "ebenezer scrooge": "ebenezer scrooge",
    "scrooge": "ebenezer scrooge",
    "jacob marley": "jacob marley",
    "marley": "jacob marley",
    "new york city": "new york city",
    "nyc": "nyc",
}


def _edit(n: int, op: str, entity: str = "", *names: str, **more: object) -> CurationEdit:
    return CurationEdit(n, op, entity, tuple(names), **more)  # type: ignore[arg-type]


def test_merge_joins_clusters_under_the_first_name() -> None:
    cur = apply_edits(HEAD, [_edit(1, "merge", "New York City", "NYC")])
    assert cur.head["nyc"] == cur.head["new york city"] == "new york city"
    assert cur.outcomes[0].applied


def test_split_undoes_an_embedding_merge_and_a_rebuild_agrees() -> None:
    edits = [_edit(1, "split", "Ebenezer Scrooge", "Scrooge")]
    cur = apply_edits(HEAD, edits)
    assert cur.head["scrooge"] == "scrooge"
    assert cur.head["ebenezer scrooge"] == "ebenezer scrooge"
    assert apply_edits(HEAD, edits).head == cur.head  # deterministic


def test_split_of_the_label_name_relabels_what_remains() -> None:
    cur = apply_edits(HEAD, [_edit(1, "split", "Marley", "Jacob Marley")])
    assert cur.head["jacob marley"] != cur.head["marley"]
    assert cur.head["marley"] == "marley"


def test_a_split_that_would_leave_nothing_is_reported() -> None:
    cur = apply_edits(HEAD, [_edit(1, "split", "NYC", "NYC")])
    assert not cur.outcomes[0].applied
    assert "nothing" in cur.outcomes[0].reason
    assert cur.head == HEAD


def test_an_alias_not_in_the_corpus_is_found_later_and_joins_when_it_appears() -> None:
    cur = apply_edits(HEAD, [_edit(1, "alias_add", "Jacob Marley", "Old Marley")])
    assert cur.find("old marley") == "jacob marley"
    assert cur.extra["jacob marley"] == ["Old Marley"]
    # A later corpus mentions it: the name's own cluster moves into the entity.
    cur = apply_edits(
        {**HEAD, "old marley": "old marley"}, [_edit(1, "alias_add", "Marley", "Old Marley")]
    )
    assert cur.head["old marley"] == "jacob marley"


def test_an_alias_taken_from_another_cluster_moves_only_that_name() -> None:
    head = {**HEAD, "big apple": "nyc"}
    cur = apply_edits(head, [_edit(1, "alias_add", "New York City", "NYC")])
    assert cur.head["nyc"] == "new york city"
    assert cur.head["big apple"] == "big apple"  # relabelled, still apart


def test_rename_keeps_the_cluster_and_survives_a_relabel() -> None:
    cur = apply_edits(HEAD, [_edit(1, "rename", "Scrooge", "Mr. Scrooge")])
    assert cur.names == {"ebenezer scrooge": "Mr. Scrooge"}
    assert cur.find("Mr Scrooge") == "ebenezer scrooge"  # the new name finds it


def test_edits_on_names_that_left_the_corpus_are_reported_not_fatal() -> None:
    edits = [
        _edit(1, "merge", "Tiny Tim", "Marley"),
        _edit(2, "merge", "Jacob Marley", "Nobody", "NYC"),
        _edit(3, "relation_delete", "Marley", target="Fezziwig"),
        _edit(4, "rename", "NYC", "New York"),
    ]
    cur = apply_edits(HEAD, edits)
    applied = [(o.n, o.applied, o.reason[:20]) for o in cur.outcomes]
    assert applied[0][:2] == (1, False) and "Tiny Tim" in cur.outcomes[0].reason
    assert applied[1][:2] == (2, True) and cur.outcomes[1].reason.startswith("partly")
    assert applied[2][:2] == (3, False)
    assert applied[3][:2] == (4, True)
    assert cur.head["nyc"] == "jacob marley"  # merged by edit 2, renamed by edit 4
    assert cur.names["jacob marley"] == "New York"


def test_a_reverted_edit_is_not_in_force_and_changes_the_key() -> None:
    edits = [_edit(1, "merge", "New York City", "NYC"), _edit(2, "revert", reverts=1)]
    assert effective(edits) == []
    assert apply_edits(HEAD, edits).head == HEAD
    assert curation_key(effective(edits)) != curation_key(effective(edits[:1]))


def test_relation_delete_matches_direction_unless_undirected() -> None:
    table = pa.table(
        {
            "source_id": ["a", "b", "a", "b"],
            "target_id": ["b", "a", "b", "a"],
            "predicate": ["employs", "employs", "co_occurs_with", "co_occurs_with"],
            "kind": ["svo", "svo", "cooccurrence", "cooccurrence"],
        }
    )
    kept, removed = without_deleted(table, [("a", "Employs", "b", 1)])
    assert kept["source_id"].to_pylist() == ["b", "a", "b"] and removed == {1: 1}
    kept, removed = without_deleted(table, [("b", "co_occurs_with", "a", 2)])
    assert kept.num_rows == 2 and removed == {2: 2}
    kept, removed = without_deleted(table, [("b", None, "a", 3)])
    assert kept.num_rows == 0 and removed == {3: 4}


def test_the_resolver_applies_edits_names_and_aliases() -> None:
    mentions = [
        Mention("c1", "d1", "Jacob Marley", "PERSON", "Jacob Marley was a partner."),
        Mention("c2", "d1", "Jacob Marley", "PERSON", "Jacob Marley died."),
        Mention("c2", "d1", "Ebenezer Scrooge", "PERSON", "Ebenezer Scrooge mourned."),
    ]
    relations = [
        RawRelation("c1", "d1", "Jacob Marley", "Ebenezer Scrooge", "partner_of", "svo", "s")
    ]
    edits = [
        _edit(1, "rename", "Jacob Marley", "J. Marley"),
        _edit(2, "alias_add", "Ebenezer Scrooge", "Old Scrooge"),
        _edit(3, "relation_delete", "Jacob Marley", target="Ebenezer Scrooge"),
    ]
    resolver = EntityResolver(ResolveSettings(use_embeddings=False))
    result = resolver.resolve(mentions, relations, edits=edits)
    by_name = {e.name: e for e in result.entities}
    assert set(by_name) == {"J. Marley", "Ebenezer Scrooge"}
    assert by_name["J. Marley"].aliases == ["Jacob Marley"]
    assert by_name["Ebenezer Scrooge"].aliases == ["Old Scrooge"]
    assert result.key_to_id["old scrooge"] == by_name["Ebenezer Scrooge"].id
    assert result.deleted == [(by_name["J. Marley"].id, None, by_name["Ebenezer Scrooge"].id, 3)]


def test_the_log_names_file_and_line_of_a_bad_edit(tmp_path: Path) -> None:
    log = CurationLog(tmp_path)
    good = _edit(1, "merge", "A", "B").to_json()
    for bad, expected in [
        ("{not json", "line 2: not JSON"),
        (json.dumps({"n": 2, "op": "explode"}), "line 2: an edit needs"),
        (json.dumps({"n": 3, "op": "rename", "entity": "A", "names": ["B"]}), "edit 3 where 2"),
        (json.dumps({"n": 2, "op": "rename", "entity": "A", "names": ["B", "C"]}), "one name"),
        (json.dumps({"n": 2, "op": "revert", "reverts": 5}), "earlier edit"),
        (json.dumps({"n": 2, "op": "merge", "entity": "A", "names": [7]}), "wrong type"),
    ]:
        log.path.write_text(good + "\n" + bad + "\n")
        with pytest.raises(InputError, match=r"curation\.jsonl, line 2") as err:
            log.read()
        assert expected in str(err.value)
    log.path.write_text(good + "\n\n")
    assert log.read() == [_edit(1, "merge", "A", "B")]


def test_a_split_keeps_the_walk_from_joining_the_two_again() -> None:
    """Names that embed alike get a synonym edge, unless the user split them apart."""
    from types import SimpleNamespace

    from graphgate.core.config import Settings
    from graphgate.core.types import vectors_table
    from graphgate.index.curation import kept_apart
    from graphgate.index.stages import synonyms_stage

    entities = pa.table(
        {
            "id": ["e_a", "e_b", "e_c"],
            "name": ["Ebenezer Scrooge", "Scrooge", "London"],
            "type": ["PERSON", "PERSON", "GPE"],
            "aliases": [["Mr Scrooge"], [], []],
        }
    )
    vectors = np.eye(3, 8, dtype=np.float32)
    vectors[1] = vectors[0]  # the two names embed alike
    tables = {
        "entities": entities,
        "entity_name_vectors": vectors_table(["e_a", "e_b", "e_c"], vectors),
    }
    split = [_edit(1, "split", "Mr Scrooge", "Scrooge")]
    assert kept_apart(split, entities) == {("e_a", "e_b")}
    assert kept_apart([*split, _edit(2, "revert", reverts=1)], entities) == set()

    def edges(curation: list[CurationEdit]) -> list[tuple[str, str]]:
        ctx = SimpleNamespace(settings=Settings(), curation=curation)
        table = synonyms_stage(ctx, tables).tables["entity_synonyms"]  # type: ignore[arg-type]
        return list(zip(table["a"].to_pylist(), table["b"].to_pylist(), strict=True))

    assert edges([]) == [("e_a", "e_b")]
    assert edges(split) == []
