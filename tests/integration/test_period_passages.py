"""A question asking over a period reads the passages of its page dated inside it.

A society's long page (many passages of history, concerts, venues, teaching and
recordings, its committee's chairmen, secretaries and treasurers, some "from 1910" on, which
overlaps any later period) lists its presidents at the end of a long list of member choirs
("1931–1934 : Edith Marlow"); questions asking who chaired, headed, led or presided over it in
one of those spans share few words with that passage. With ``query.temporal_period_passages``
the list's passage is read (it states the very span asked, on the best passage's page) and the
right president answered; without it, seldom.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphgate import Workspace

ORG = "Calder Valley Choral Union"
PRESIDENTS = [
    ("1931", "1934", "Edith Marlow"),
    ("1934", "1938", "Tobias Renshaw"),
    ("1946", "1950", "Margit Olander"),
    ("1950", "1955", "Corwin Ashby"),
    ("1955", "1961", "Lucinda Farrow"),
]
PHRASINGS = [
    "Who chaired the {org} from {a} to {b}?",
    "The {org} was headed by which person from {a} to {b}?",
    "Which person presided over the {org} from {a} to {b}?",
    "From {a} to {b}, who led the {org}?",
    "Who was at the helm of the {org} from {a} to {b}?",
]

_PLACES = ["Halifax", "Todmorden", "Hebden Bridge", "Sowerby", "Elland", "Brighouse"]
_WORKS = ["Messiah", "Elijah", "The Creation", "Dream of Gerontius", "Carmina Burana"]
_THINGS = ["a new organ", "a rehearsal hall", "a lending library of scores", "a youth choir"]
_OFFICERS = ["Amos Greenwood", "Hester Crabtree", "Walter Sutcliffe", "Ada Holroyd"]
_TEMPLATES = [
    "The committee , chaired by its secretary {officer} , met in {place} in {year} .",
    "{officer} led the union's rehearsals from {year} , and headed its music committee .",
    "The union's rules of {year} say its president presides at the annual meeting in {place} .",
    "In {year} the members elected {officer} treasurer , heading the union's accounts .",
    "The chairman of the concert committee in {year} was {officer} , a mill owner of {place} .",
    "In {year} the choir sang {work} at {place} to an audience of {n} people .",
    "The union bought {thing} in {year} , paid for by a bazaar held in {place} .",
    "Its singers toured {place} and {place2} in {year} , giving {n} concerts in a month .",
    "A dispute over fees in {year} led {n} members to leave for a rival choir in {place} .",
    "The {work} performance of {year} was broadcast from {place} by the regional wireless .",
    "Teaching began in {year} , with {n} children taught to sight-read in {place} schools .",
    "The union's archive holds {n} programmes , the oldest printed in {place} in {year} .",
]
_HEADINGS = [
    "History",
    "Early years",
    "Concerts",
    "Venues",
    "Teaching",
    "Recordings",
    "Archive",
    "Tours",
    "Festivals",
    "Commissions",
    "Finances",
    "Membership",
    "Broadcasts",
    "Disputes",
]


def _filler(rng: random.Random) -> str:
    """Paragraphs of the page's other matters: varied sentences, dated mostly before the
    presidents' years, a few inside them."""
    out = []
    for heading in _HEADINGS:
        sentences = []
        for _ in range(12):
            year = rng.choice([*range(1880, 1930), 1932, 1948, 1952])
            sentences.append(
                rng.choice(_TEMPLATES).format(
                    year=year,
                    work=rng.choice(_WORKS),
                    place=rng.choice(_PLACES),
                    place2=rng.choice(_PLACES),
                    thing=rng.choice(_THINGS),
                    n=rng.randint(12, 900),
                    officer=rng.choice(_OFFICERS),
                )
            )
        out.append(f"{heading} .\n\n" + " ".join(sentences))
    return "\n\n".join(out)


_KINDS = ["Male Voice Choir", "Ladies Choir", "Choral Society", "Glee Club", "Madrigal Group"]


def _page() -> str:
    """The page, its presidents listed at the end of a long list of member choirs (one
    passage holds both, as an encyclopaedia's tail does)."""
    rng = random.Random(7)
    members = "\n\n".join(
        f"- {place} {kind}" for place in _PLACES for kind in _KINDS if rng.random() < 0.8
    )
    rows = "\n\n".join(f"{a}–{b} : {name}" for a, b, name in PRESIDENTS)
    return (
        f"{ORG}\n\nThe {ORG} is an amateur choral society in West Yorkshire , England .\n\n"
        f"{_filler(rng)}\n\nMembers and presidents .\n\nThe member choirs of the union :\n\n"
        f"{members}\n\nList of the presidents of the union since 1931 :\n\n{rows}\n"
    )


OTHERS = [
    ("halifax", "Halifax", "Halifax is a minster town in Calderdale , West Yorkshire ."),
    ("organ", "Pipe organ", "A pipe organ makes sound by driving air through pipes ."),
]


@pytest.fixture(scope="module")
def workspace_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("period")
    corpus = root / "corpus.jsonl"
    docs = [("union", ORG, _page()), *OTHERS]
    corpus.write_text(
        "".join(json.dumps({"id": i, "title": t, "text": x}) + "\n" for i, t, x in docs)
    )
    with Workspace(root / "ws") as ws:
        ws.index(corpus)
    yield root / "ws"


def _cases() -> list[tuple[str, str, str]]:
    """(question, the asked row as written, the president) for every span and phrasing."""
    return [
        (p.format(org=ORG, a=a, b=b), f"{a}–{b} : {name}", name)
        for a, b, name in PRESIDENTS
        for p in PHRASINGS
    ]


def _read(path: Path, mode: str, on: bool) -> tuple[int, int, list[str]]:
    """(questions whose passages hold the asked row, answered right, the wrong answers)."""
    retrieved = right = 0
    wrong: list[str] = []
    with Workspace(path, query={"temporal_period_passages": on}) as ws:
        for question, row, name in _cases():
            answer = ws.query(question, mode=mode)
            retrieved += any(row in c.text for c in answer.retrieval.chunks)
            if answer.short_answer == name:
                right += 1
            elif answer.short_answer is not None:
                wrong.append(f"{question} -> {answer.short_answer}")
    return retrieved, right, wrong


def test_the_page_is_long_enough_to_hide_its_list(workspace_path: Path) -> None:
    with Workspace(workspace_path) as ws:
        store = ws.loaded().store
        assert len(store.document_chunks("union")) > 12  # more than a query fetches


@pytest.mark.parametrize("mode", ["vector", "hybrid"])
def test_a_period_question_reads_its_pages_dated_passages(workspace_path: Path, mode: str) -> None:
    n = len(_cases())
    retrieved, right, wrong = _read(workspace_path, mode, on=True)
    assert retrieved == n
    assert right >= n - 2 and not wrong, wrong
    # Without it the list's passage is seldom read: the page's other passages, dated by
    # "from 1922" and alike, rank first, and a secretary or a treasurer is answered.
    off_retrieved, off_right, _ = _read(workspace_path, mode, on=False)
    assert off_retrieved <= 3 and off_right <= 3
