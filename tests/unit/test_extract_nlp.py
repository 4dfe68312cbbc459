from __future__ import annotations

import pytest

from graphgate.core.config import ExtractSettings
from graphgate.core.types import Chunk
from graphgate.index.extract_nlp import COOCCURS, NlpExtractor, clean_name


def _chunk(text: str, cid: str = "c1") -> Chunk:
    return Chunk(cid, "doc1", 0, text, 0, len(text), len(text.split()))


@pytest.fixture(scope="module")
def extractor() -> NlpExtractor:
    return NlpExtractor(ExtractSettings())


def test_typed_entities_with_provenance(extractor: NlpExtractor) -> None:
    ex = extractor.extract([_chunk("Bob Cratchit works for Ebenezer Scrooge in London.")])
    found = {(m.name, m.type) for m in ex.mentions}
    assert ("Bob Cratchit", "PERSON") in found
    assert ("London", "GPE") in found
    assert all(m.chunk_id == "c1" and m.doc_id == "doc1" for m in ex.mentions)
    assert all("Bob Cratchit works for" in m.sentence for m in ex.mentions)


def test_subject_verb_object_relations_use_the_verb_lemma(extractor: NlpExtractor) -> None:
    ex = extractor.extract([_chunk("Bob Cratchit works for Ebenezer Scrooge.")])
    svo = {(r.source_name, r.predicate, r.target_name) for r in ex.relations if r.kind == "svo"}
    assert ("Bob Cratchit", "work_for", "Ebenezer Scrooge") in svo
    ex = extractor.extract([_chunk("Microsoft acquired GitHub in 2018.")])
    svo = {(r.source_name, r.predicate, r.target_name) for r in ex.relations if r.kind == "svo"}
    assert ("Microsoft", "acquire", "GitHub") in svo


def test_passive_voice_keeps_the_agent_as_source(extractor: NlpExtractor) -> None:
    ex = extractor.extract([_chunk("GitHub was acquired by Microsoft.")])
    svo = {(r.source_name, r.predicate, r.target_name) for r in ex.relations if r.kind == "svo"}
    assert ("Microsoft", "acquire", "GitHub") in svo


def test_cooccurrence_edges_per_sentence(extractor: NlpExtractor) -> None:
    text = "Alice Smith met Carol Jones in Paris. Alice Smith later moved to Berlin."
    ex = extractor.extract([_chunk(text)])
    pairs = {(r.source_name, r.target_name) for r in ex.relations if r.predicate == COOCCURS}
    assert ("Alice Smith", "Carol Jones") in pairs
    assert ("Alice Smith", "Berlin") in pairs
    assert ("Berlin", "Carol Jones") not in pairs  # different sentences
    off = NlpExtractor(ExtractSettings(cooccurrence_edges=False)).extract([_chunk(text)])
    assert not [r for r in off.relations if r.predicate == COOCCURS]


def test_numeric_entities_are_not_nodes(extractor: NlpExtractor) -> None:
    ex = extractor.extract([_chunk("Scrooge paid fifteen shillings on 25 December 1843.")])
    assert all(m.type not in {"DATE", "CARDINAL", "MONEY"} for m in ex.mentions)


def test_progress_is_reported_per_chunk(extractor: NlpExtractor) -> None:
    seen: list[int] = []
    extractor.extract([_chunk("Alice went home.", "a"), _chunk("Bob left.", "b")], seen.append)
    assert sum(seen) == 2


def test_clean_name() -> None:
    assert clean_name("the  United Nations") == "United Nations"
    assert clean_name("Scrooge's") == "Scrooge"
    assert clean_name('"Tiny Tim"') == "Tiny Tim"


def test_time_phrases_become_valid_from_and_valid_to(extractor: NlpExtractor) -> None:
    cases = {
        "Alice Smith worked for Acme Corp from 1990 to 1995.": ("1990", "1995"),
        "In 2001, Bob Jones joined Google.": ("2001", None),
        "Dan Brown worked at Microsoft until 2010.": (None, "2010"),
        "Bob Cratchit works for Ebenezer Scrooge.": (None, None),
    }
    for text, expected in cases.items():
        svo = [r for r in extractor.extract([_chunk(text)]).relations if r.kind == "svo"]
        assert svo, text
        assert (svo[0].valid_from, svo[0].valid_to) == expected, text
