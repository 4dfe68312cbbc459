"""The generated succession and conflict set: as varied as issue 31 asks, deterministic, and
every case answerable from the documents it names."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from graphgate.core.dates import document_date, parse_time
from graphgate.datasets.time_scenarios import (
    ATTRIBUTES,
    CHANGES,
    ROLES,
    STARTS,
    time_scenarios,
    write_time_scenarios,
)
from graphgate.evaluate.testset import load_testset


def test_the_grammar_covers_ten_roles_and_eight_attributes_in_five_phrasings() -> None:
    assert len(ROLES) >= 10 and len(ATTRIBUTES) >= 8
    assert len(STARTS) >= 5 and len(CHANGES) >= 5
    assert all(len(a.phrasings) >= 5 for a in ATTRIBUTES.values())
    docs, cases = time_scenarios(seed=0)
    used = defaultdict(set)
    for case in cases:
        used[(case.extras()["scenario"], case.extras()["family"])].add(case.extras()["phrasing"])
    assert {f for s, f in used if s == "succession"} == set(ROLES)
    assert {f for s, f in used if s == "conflict"} == set(ATTRIBUTES)
    assert all(len(phrasings) >= 5 for phrasings in used.values())
    units = {w for d in docs for w in ("metres", "feet", "square miles", "km²") if w in d["text"]}
    assert len(units) >= 3  # units vary within a family


def test_the_same_seed_gives_the_same_files_and_another_seed_other_names(tmp_path: Path) -> None:
    one = write_time_scenarios(tmp_path / "a", seed=3)
    two = write_time_scenarios(tmp_path / "b", seed=3)
    other = write_time_scenarios(tmp_path / "c", seed=4)
    assert one.corpus.read_bytes() == two.corpus.read_bytes()
    assert one.questions.read_bytes() == two.questions.read_bytes()
    assert one.corpus.read_bytes() != other.corpus.read_bytes()
    assert len(load_testset(one.questions)) == one.cases


def test_every_case_is_answered_by_the_documents_it_names() -> None:
    docs, cases = time_scenarios(seed=1)
    by_id = {d["id"]: d for d in docs}
    for case in cases:
        gold = [by_id[g] for g in case.gold_docs]
        if case.extras()["scenario"] == "succession":
            assert case.as_of is not None and case.answer
            (doc,) = gold
            assert case.answer in doc["text"]
            dated = document_date(doc["metadata"])
            assert dated is not None
            asked = parse_time(case.as_of)
            assert dated.first <= asked.first  # the valid document was written by then
        else:
            texts = " ".join(d["text"] for d in gold)
            assert len(set(case.conflicting_answers)) == 2
            assert all(value in texts for value in case.conflicting_answers)
            assert len({d["metadata"]["source"] for d in gold}) == 2  # two sources disagree


def test_successions_name_both_holders_and_dates_in_order() -> None:
    docs, _ = time_scenarios(seed=2)
    pairs = defaultdict(list)
    for doc in docs:
        if doc["id"].startswith("succession-"):
            pairs[doc["id"].rsplit("-", 1)[0]].append(doc)
    assert len(pairs) == 10 * 5
    for first, second in pairs.values():
        assert first["metadata"]["date"] < second["metadata"]["date"]
        years = [int(y) for y in re.findall(r"\b(19\d\d|20\d\d)\b", second["text"])]
        assert years and years[0] == int(second["metadata"]["date"][:4])
