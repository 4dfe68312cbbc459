"""Extractive community reports: made again only when what they are made of changed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from graphgate.core.config import CommunitySettings
from graphgate.core.types import Chunk, Community, CommunityReport, Entity, Relationship
from graphgate.index.cache import CachedReports, ContentCache
from graphgate.index.summarize import CommunitySummarizer


def _graph() -> tuple[list[Community], list[Entity], list[Relationship], list[Chunk]]:
    chunks = [
        Chunk("c1", "d1", 0, "Ada Lovelace worked with Charles Babbage.", 0, 41, 8),
        Chunk("c2", "d2", 0, "Alan Turing studied at Cambridge.", 0, 33, 6),
    ]
    entities = [
        Entity(
            "e1",
            "Ada Lovelace",
            "PERSON",
            "Ada Lovelace worked with Charles Babbage.",
            [],
            1,
            ["c1"],
            ["d1"],
        ),
        Entity(
            "e2",
            "Charles Babbage",
            "PERSON",
            "Ada Lovelace worked with Charles Babbage.",
            [],
            1,
            ["c1"],
            ["d1"],
        ),
        Entity(
            "e3",
            "Alan Turing",
            "PERSON",
            "Alan Turing studied at Cambridge.",
            [],
            1,
            ["c2"],
            ["d2"],
        ),
        Entity(
            "e4", "Cambridge", "GPE", "Alan Turing studied at Cambridge.", [], 1, ["c2"], ["d2"]
        ),
    ]
    relationships = [
        Relationship(
            "r1",
            "e1",
            "e2",
            "worked_with",
            "relation",
            1.0,
            "Ada Lovelace worked with Charles Babbage.",
            ["c1"],
            ["d1"],
        ),
        Relationship(
            "r2",
            "e3",
            "e4",
            "studied_at",
            "relation",
            1.0,
            "Alan Turing studied at Cambridge.",
            ["c2"],
            ["d2"],
        ),
    ]
    communities = [
        Community("k0_a", 0, None, [], ["e1", "e2"], 2),
        Community("k0_b", 0, None, [], ["e3", "e4"], 2),
    ]
    return communities, entities, relationships, chunks


class _Recorded:
    """The reports a summarizer was given and stored, in memory."""

    def __init__(self) -> None:
        self.stored: dict[str, CommunityReport] = {}

    def get_many(self, keys: Sequence[str]) -> dict[str, CommunityReport]:
        return {k: self.stored[k] for k in keys if k in self.stored}

    def put_many(self, reports: Mapping[str, CommunityReport]) -> None:
        self.stored.update(reports)


def _summarize(
    known: _Recorded, graph: tuple[list[Community], list[Entity], list[Relationship], list[Chunk]]
) -> tuple[list[CommunityReport], int]:
    summarizer = CommunitySummarizer(CommunitySettings(min_report_size=2), known)
    reports = summarizer.summarize(*graph)
    return reports, summarizer.reused


def test_reports_are_made_again_only_for_changed_inputs() -> None:
    known = _Recorded()
    first, reused = _summarize(known, _graph())
    assert reused == 0 and len(known.stored) == 2
    again, reused = _summarize(known, _graph())
    assert reused == 2 and again == first
    communities, entities, relationships, chunks = _graph()
    # a member's description: that community's report only
    entities[3] = replace(entities[3], description="Cambridge is a city in England.")
    changed, reused = _summarize(known, (communities, entities, relationships, chunks))
    assert reused == 1 and changed[0] == first[0] and changed[1] != first[1]
    # the same chunk id with other words (a changed document): the reports that cite it
    chunks[0] = replace(chunks[0], text="Ada Lovelace corresponded with Charles Babbage.")
    _, reused = _summarize(known, (communities, entities, relationships, chunks))
    assert reused == 1
    # a relation's weight among members: b made again; a as stored in the step before
    relationships[1] = replace(relationships[1], weight=2.0)
    _, reused = _summarize(known, (communities, entities, relationships, chunks))
    assert reused == 1


def test_reused_reports_are_rated_against_the_runs_highest(tmp_path: Path) -> None:
    """Ratings are stored unscaled: a report taken again is scaled to this run's top."""
    cache = ContentCache(tmp_path / "cache.sqlite")
    communities, entities, relationships, chunks = _graph()
    summarizer = CommunitySummarizer(CommunitySettings(min_report_size=2), CachedReports(cache))
    first = summarizer.summarize(communities, entities, relationships, chunks)
    assert [r.rating for r in first] == [10.0, 10.0]
    relationships[1] = replace(relationships[1], weight=5.0)  # community b now rates higher
    reader = CommunitySummarizer(CommunitySettings(min_report_size=2), CachedReports(cache))
    second = reader.summarize(communities, entities, relationships, chunks)
    assert reader.reused == 1 and second[0].rating < 10.0 and second[1].rating == 10.0
    rebuilt = CommunitySummarizer(
        CommunitySettings(min_report_size=2), CachedReports(cache, read=False)
    )
    assert rebuilt.summarize(communities, entities, relationships, chunks) == second
    assert rebuilt.reused == 0
    cache.close()
