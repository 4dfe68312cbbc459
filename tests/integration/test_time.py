"""Time and truth on a hand-made corpus: a succession of chief executives across two dated
reports, a post held twice, two sources giving different heights of one building, dates from
front matter and HTML meta, and bad ``as_of`` input."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.cli import build_app
from graphgate.core.errors import InputError

DOCS = [
    (
        "report-2012",
        "Annual report 2012",
        "In 2012, Anna Berg became chief executive of Nordvik Shipping. "
        "Nordvik Shipping moved its headquarters to Oslo.",
        "2012-12-31",
    ),
    (
        "report-2016",
        "Annual report 2016",
        "In 2016, Olaf Lund succeeded Anna Berg as chief executive of Nordvik Shipping. "
        "Anna Berg joined the board of Halden Mining.",
        "2016-12-31",
    ),
    (
        "tower-a",
        "City guide",
        "The Harbour Tower in Oslo is 120 metres tall and opened in 1998.",
        "2020-01-01",
    ),
    (
        "tower-b",
        "Engineering review",
        "The Harbour Tower is 135 metres tall including its spire.",
        "2021-05-01",
    ),
    (
        "career",
        "Profile",
        "Carl Holm was mayor of Bergen from 1990 to 1994. "
        "Carl Holm was elected mayor of Bergen again from 2001 to 2005.",
        "2010-01-01",
    ),
]
CEO = "Who was chief executive of Nordvik Shipping?"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("time")
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "reports.jsonl").write_text(
        "".join(
            json.dumps({"id": i, "title": t, "text": x, "metadata": {"date": d}}) + "\n"
            for i, t, x, d in DOCS
        )
    )
    (corpus / "note.md").write_text(
        "---\ntitle: Harbour note\ndate: 2019-05-02\nauthor: 'Ida Vik'\n---\nThe harbour reopened."
    )
    (corpus / "page.html").write_text(
        '<html><head><title>Dock</title><meta property="article:published_time" '
        'content="2020-07-01T10:00:00Z"><meta name="author" content="Per Dahl"></head>'
        "<body><p>The dock closed for repairs.</p></body></html>"
    )
    with Workspace(root / "ws") as ws:
        ws.index(corpus)
        yield ws


HOLDER = re.compile(r"^The .+ of .+: (?P<holder>.+) \((?P<held>[^)]*)\) \[\d+\]$")


def _holder(answer_text: str) -> str:
    """The holder line, after the header and the short answer (who it names): who held the
    post asked about then."""
    lines = answer_text.splitlines()
    found = HOLDER.match(lines[2] if lines[1].startswith("Answer: ") else lines[1])
    assert found is not None, answer_text
    if lines[1].startswith("Answer: "):  # the short answer names the holder
        assert lines[1].removeprefix("Answer: ").split(" [")[0] == found["holder"], answer_text
    return f"{found['holder']} ({found['held']})"


def _first_sentence(answer_text: str) -> str:
    """The first quoted sentence (after the short answer and the holder line)."""
    return next(
        line
        for line in answer_text.splitlines()[1:]
        if not HOLDER.match(line) and not line.startswith("Answer: ")
    )


@pytest.mark.parametrize("mode", ["vector", "local", "hybrid"])
def test_as_of_before_and_after_a_succession(workspace: Workspace, mode: str) -> None:
    before = workspace.query(CEO, mode=mode, as_of="2014")
    assert "as of 2014" in before.answer.splitlines()[0]
    assert _holder(before.answer) == "Anna Berg (since 2012, until 2016)"
    # The holder line cites the sentence that states it (quoted once).
    assert "Anna Berg became chief executive" in before.citations[0].text
    assert "Olaf Lund" not in before.answer  # his appointment lies after 2014
    after = workspace.query(CEO, mode=mode, as_of="2017")
    assert _holder(after.answer) == "Olaf Lund (since 2016)"
    assert "Olaf Lund succeeded Anna Berg" in after.citations[0].text
    assert [h.source for h in after.retrieval.holders] == ["Olaf Lund"]
    # Without a time the question is answered as before: both sentences may come back.
    timeless = workspace.query(CEO, mode=mode)
    assert timeless.retrieval.time is None and "as of" not in timeless.answer.splitlines()[0]


def test_the_question_can_name_the_time(workspace: Workspace) -> None:
    answer = workspace.query("Who was chief executive of Nordvik Shipping in 2016?")
    assert answer.retrieval.time is not None and answer.retrieval.time.label == "in 2016"
    assert "in 2016" in answer.answer.splitlines()[0]
    # Anna Berg's term ends in 2016 and Olaf Lund's starts: the later start is the holder.
    assert _holder(answer.answer) == "Olaf Lund (since 2016)"
    assert "Olaf Lund succeeded" in answer.citations[0].text
    as_json = answer.to_dict()
    assert as_json["time"] == {"label": "in 2016", "start": "2016-01-01", "end": "2016-12-31"}


def test_a_post_held_twice_stays_two_intervals(workspace: Workspace) -> None:
    store = workspace.loaded().store
    holm = store.entity_ids_named("Carl Holm")[0]
    spans = sorted(
        (r.valid_from, r.valid_to)
        for r in store.relationships()
        if r.source_id == holm and r.predicate == "mayor_of"
    )
    assert spans == [("1990", "1994"), ("2001", "2005")]
    answer = workspace.query("Who was mayor of Bergen in 2003?", mode="vector")
    assert "again from 2001 to 2005" in _first_sentence(answer.answer)
    # Facts not valid at the asked time are dropped from the answer's edges.
    local = workspace.query("Who was mayor of Bergen in 1992?", mode="local")
    assert all((e.valid_from, e.valid_to) != ("2001", "2005") for e in local.retrieval.edges), (
        local.retrieval.edges
    )


def test_document_dates_come_from_metadata_front_matter_and_html(workspace: Workspace) -> None:
    run = workspace.runs.current()
    documents = {d["id"]: d for d in run.read_artifact("documents").to_pylist()}
    note = documents["note.md"]
    assert note["title"] == "Harbour note" and note["text"] == "The harbour reopened."
    assert json.loads(note["metadata_json"]) == {"author": "Ida Vik", "date": "2019-05-02"}
    assert json.loads(documents["page.html"]["metadata_json"]) == {
        "author": "Per Dahl",
        "date": "2020-07-01T10:00:00Z",
    }
    dates = {c["doc_id"]: c["date"] for c in run.read_artifact("chunks").to_pylist()}
    assert dates["note.md"] == "2019-05-02" and dates["page.html"] == "2020-07-01"
    assert dates["report-2016"] == "2016-12-31"


def test_a_bad_as_of_is_refused_with_the_formats(workspace: Workspace) -> None:
    with pytest.raises(InputError, match="accepted: YYYY"):
        workspace.query(CEO, as_of="last Tuesday")
    result = CliRunner().invoke(
        build_app(), ["query", CEO, "--as-of", "soon", "-w", str(workspace.path)]
    )
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.stderr


def test_a_succession_closes_the_earlier_fact_without_deleting_it(workspace: Workspace) -> None:
    store = workspace.loaded().store
    nordvik = store.entity_ids_named("Nordvik Shipping")[0]
    facts = [
        r
        for r in store.relationships()
        if r.target_id == nordvik and r.predicate == "chief_executive_of"
    ]
    held = sorted(
        ((store.entity(r.source_id).name, r.valid_from, r.valid_to) for r in facts), key=str
    )
    # The 2016 report says both that Anna Berg's term ended and that Olaf Lund's began.
    assert held == [
        ("Anna Berg", "2012", "2016"),
        ("Anna Berg", None, "2016"),
        ("Olaf Lund", "2016", None),
    ]
    # Each fact keeps the date of the report it was read in.
    observed = sorted((store.entity(r.source_id).name, r.observed_at) for r in facts)
    assert observed == [
        ("Anna Berg", "2012-12-31"),
        ("Anna Berg", "2016-12-31"),
        ("Olaf Lund", "2016-12-31"),
    ]
    assert not [c for c in store.conflicts() if c.about == "chief executive"]  # a succession


@pytest.mark.parametrize("mode", ["vector", "local", "hybrid"])
def test_sources_that_disagree_are_both_cited(workspace: Workspace, mode: str) -> None:
    answer = workspace.query("How tall is the Harbour Tower?", mode=mode)
    (conflict,) = answer.retrieval.conflicts
    assert conflict.subject == "Harbour Tower" and conflict.about == "height"
    sides = {side.doc_id: side for side in conflict.sides}
    assert set(sides) == {"tower-a", "tower-b"}
    assert sides["tower-a"].value == "120 metres tall" and sides["tower-a"].date == "2020-01-01"
    assert "Sources disagree on the height of Harbour Tower" in answer.answer
    documents = {
        d["id"]: d["text"] for d in workspace.runs.current().read_artifact("documents").to_pylist()
    }
    cited = {c.doc_id: c for c in answer.citations}
    for doc in ("tower-a", "tower-b"):  # both sides cited, each by its exact sentence
        c = cited[doc]
        assert documents[doc][c.start : c.end] == c.text == sides[doc].text
    as_json = answer.to_dict()["conflicts"][0]
    assert {s["doc_id"] for s in as_json["sides"]} == {"tower-a", "tower-b"}
    # A question about something else does not drag the conflict in.
    assert workspace.query("When did the Harbour Tower open?", mode=mode).retrieval.conflicts == []


def test_generated_test_sets_ask_about_the_conflicts(workspace: Workspace) -> None:
    from graphgate.evaluate.generate import TestsetGenerator

    cases = TestsetGenerator(workspace.loaded(), seed=1).generate(40)
    (case,) = [c for c in cases if c.question == "What is the height of Harbour Tower?"]
    assert case.question_type == "contradiction" and case.gold_docs == ["tower-a", "tower-b"]
    assert {case.answer, *case.conflicting_answers} == {"120 metres tall", "135 metres tall"}
    assert any(c.question_type == "temporal" and c.as_of for c in cases)
    # Scored by the harness: both sides surfaced and the other value flagged as disputed.
    from graphgate.evaluate.judge import DeterministicJudge

    answer = workspace.query(case.question, mode="hybrid")
    judged = DeterministicJudge().judge(case, answer).as_metrics()
    assert judged["all_answers_surfaced"] == 1.0 and judged["misinformation_flagged"] == 1.0
    assert judged["conflicts_surfaced"] == 1.0
