from __future__ import annotations

import numpy as np

from graphgate.core.config import ResolveSettings
from graphgate.core.text import normalise_name
from graphgate.core.types import COOCCURS, Mention, RawRelation
from graphgate.embed.base import VectorRows
from graphgate.index.resolve import EntityResolver, entity_id
from tests.unit.fakes import BagOfWordsEmbedder


def _m(name: str, typ: str = "PERSON", sentence: str = "", chunk: str = "c1") -> Mention:
    return Mention(chunk, "d1", name, typ, sentence or f"{name} was here.")


def _passages(mentions: list[Mention]) -> dict[str, np.ndarray]:
    """Each mention in its own chunk, that chunk's vector embedding its sentence."""
    vectors = BagOfWordsEmbedder().embed([m.sentence for m in mentions])
    return {m.chunk_id: vectors[i] for i, m in enumerate(mentions)}


def _own_chunks(mentions: list[Mention]) -> list[Mention]:
    return [Mention(f"c{i}", m.doc_id, m.name, m.type, m.sentence) for i, m in enumerate(mentions)]


def test_normalise_name() -> None:
    assert normalise_name("Café Müller") == "cafe muller"
    assert normalise_name("Scrooge's") == "scrooge"
    assert normalise_name("The Acme Corp.") == "acme"
    assert normalise_name("Acme, Inc") == "acme"
    assert normalise_name("U.S.A.") == "u s a"
    assert normalise_name("The") == "the"


def test_blocking_merges_spelling_variants_and_keeps_aliases() -> None:
    mentions = [
        _m("Acme Corp", "ORG"),
        _m("ACME", "ORG"),
        _m("Acme Corp", "ORG"),
        _m("Acme Inc.", "ORG", chunk="c2"),
    ]
    res = EntityResolver(ResolveSettings(use_embeddings=False)).resolve(mentions, [])
    assert len(res.entities) == 1
    e = res.entities[0]
    assert e.name == "Acme Corp" and e.aliases == ["ACME", "Acme Inc."]
    assert e.mention_count == 4 and e.chunk_ids == ["c1", "c2"] and e.id == entity_id("acme")


def test_short_name_joins_its_only_long_form_when_passages_agree() -> None:
    mentions = _own_chunks(
        [
            _m("Ebenezer Scrooge", sentence="Ebenezer Scrooge keeps a counting house in London."),
            _m("Scrooge", sentence="Scrooge keeps a counting house and hates Christmas."),
        ]
    )
    vectors = _passages(mentions)
    res = EntityResolver(ResolveSettings(similarity_threshold=0.3)).resolve(mentions, [], vectors)
    assert len(res.entities) == 1 and res.merged_by_embedding == 1
    assert res.entities[0].name == "Ebenezer Scrooge" and res.entities[0].aliases == ["Scrooge"]
    assert res.entities[0].chunk_ids == ["c0", "c1"]
    strict = EntityResolver(ResolveSettings(similarity_threshold=0.99))
    assert len(strict.resolve(mentions, [], vectors).entities) == 2
    # without passage vectors there is no evidence, so no merge
    assert (
        len(
            EntityResolver(ResolveSettings(similarity_threshold=0.0)).resolve(mentions, []).entities
        )
        == 2
    )


def test_vectors_over_one_matrix_merge_as_a_dict_of_them_does() -> None:
    """The stage passes its chunk matrix as it is (VectorRows, rows in the table's order, not
    sorted by id); the contexts, so the merges and entities, are the same bits."""
    mentions = _own_chunks(
        [
            _m("Ebenezer Scrooge", sentence="Ebenezer Scrooge keeps a counting house in London."),
            _m("Scrooge", sentence="Scrooge keeps a counting house and hates Christmas."),
            _m("Scrooge", sentence="Scrooge hates Christmas in London."),
            _m("Fred Scrooge", sentence="Fred Scrooge loves Christmas dinners."),
            _m("Fred", sentence="Fred loves Christmas."),
        ]
    )
    vectors = _passages(mentions)
    ids = sorted(vectors, reverse=True)  # not the sorted order the dict path uses
    rows = VectorRows(ids, np.vstack([vectors[c] for c in ids]))
    assert len(rows) == len(vectors) and set(rows) == set(vectors)
    assert np.array_equal(rows["c2"], vectors["c2"])
    resolver = EntityResolver(ResolveSettings(similarity_threshold=0.2))
    by_dict, by_rows = resolver.resolve(mentions, [], vectors), resolver.resolve(mentions, [], rows)
    assert by_rows.merged_by_embedding == by_dict.merged_by_embedding >= 1
    assert by_rows.entity_table.equals(by_dict.entity_table)


def test_ambiguous_short_name_stays_apart() -> None:
    mentions = _own_chunks(
        [
            _m("Bob Cratchit", sentence="Bob Cratchit is a clerk."),
            _m("Tim Cratchit", sentence="Tim Cratchit is a clerk."),
            _m("Cratchit", sentence="Cratchit is a clerk."),
        ]
    )
    res = EntityResolver(ResolveSettings(similarity_threshold=0.0)).resolve(
        mentions, [], _passages(mentions)
    )
    assert len(res.entities) == 3 and res.merged_by_embedding == 0


def test_different_types_do_not_merge_by_embedding() -> None:
    mentions = _own_chunks(
        [
            _m("Washington", "GPE", "Washington is a city."),
            _m("George Washington", "PERSON", "George Washington is a city."),
        ]
    )
    res = EntityResolver(ResolveSettings(similarity_threshold=0.0)).resolve(
        mentions, [], _passages(mentions)
    )
    assert len(res.entities) == 2


def test_relations_are_rekeyed_aggregated_and_self_loops_dropped() -> None:
    mentions = [_m("Alice Smith"), _m("Bob Jones"), _m("ALICE SMITH")]
    rels = [
        RawRelation("c1", "d1", "Alice Smith", "Bob Jones", "know", "svo", "s1"),
        RawRelation("c2", "d2", "ALICE SMITH", "Bob Jones", "know", "svo", "s2"),
        RawRelation("c1", "d1", "Bob Jones", "Alice Smith", COOCCURS, "cooccurrence", "s1"),
        RawRelation("c3", "d1", "Alice Smith", "Alice Smith", COOCCURS, "cooccurrence", "s3"),
        RawRelation("c1", "d1", "Alice Smith", "Nobody", "know", "svo", "s1"),
    ]
    res = EntityResolver(ResolveSettings(use_embeddings=False)).resolve(mentions, rels)
    by_pred = {r.predicate: r for r in res.relationships}
    assert set(by_pred) == {"know", COOCCURS}
    know = by_pred["know"]
    assert know.weight == 2.0 and know.chunk_ids == ["c1", "c2"] and know.doc_ids == ["d1", "d2"]
    assert know.source_id == entity_id("alice smith") and know.target_id == entity_id("bob jones")
    co = by_pred[COOCCURS]
    assert co.source_id < co.target_id  # undirected edges are stored in one canonical order


def test_resolution_is_deterministic() -> None:
    names = ["Zed Q", "Amy B", "Zed Q", "amy b", "Scrooge", "Ebenezer Scrooge"]
    mentions = _own_chunks([_m(n) for n in names])
    vectors = _passages(mentions)
    r1 = EntityResolver(ResolveSettings()).resolve(mentions, [], vectors)
    r2 = EntityResolver(ResolveSettings()).resolve(list(reversed(mentions)), [], vectors)
    assert [e.id for e in r1.entities] == [e.id for e in r2.entities]


def test_the_same_fact_for_two_periods_stays_two_edges() -> None:
    mentions = [_m("Alice Smith"), _m("Acme", "ORG")]
    rels = [
        RawRelation("c1", "d1", "Alice Smith", "Acme", "work_for", "svo", "s1", "1990", "1995"),
        RawRelation("c2", "d1", "Alice Smith", "Acme", "work_for", "svo", "s2", "2000", None),
        RawRelation("c3", "d1", "Alice Smith", "Acme", "work_for", "svo", "s3", "1990", "1995"),
    ]
    res = EntityResolver(ResolveSettings(use_embeddings=False)).resolve(mentions, rels)
    spans = sorted((r.valid_from, r.valid_to, r.weight) for r in res.relationships)
    assert spans == [("1990", "1995", 2.0), ("2000", None, 1.0)]
    assert len({r.id for r in res.relationships}) == 2


def test_long_sentences_are_clipped_at_a_word_with_an_ellipsis() -> None:
    from graphgate.index.edges import clip

    long = "word " * 100
    clipped = clip(long.strip(), 50)
    assert clipped.endswith("…") and len(clipped) <= 51 and not clipped[:-1].endswith(" ")
    assert clip("short one.", 50) == "short one."
