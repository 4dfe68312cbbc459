"""Stage *summarize*: a report per community, built from its member subgraph alone.

Offline there is no model to write prose, so a report is made of statements the index can
point at: the most central members with the sentence that describes them (an entity claim),
the heaviest relations among members rendered as sentences (edge claims) and the source
sentences behind them (chunk claims). Every claim names what it rests on.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Protocol

from graphgate.core.config import CommunitySettings
from graphgate.core.text import first_sentence, squash, terminated
from graphgate.core.types import (
    COOCCURS,
    Chunk,
    Claim,
    ClaimKind,
    Community,
    CommunityReport,
    Entity,
    Relationship,
    claims_to_json,
)
from graphgate.index.cache import content_key


def relation_sentence(source: str, predicate: str, target: str, weight: float) -> str:
    if predicate == COOCCURS:
        times = "once" if weight == 1 else f"{int(weight)} times"
        return f"{source} and {target} are mentioned together {times}."
    return f"{source} {predicate.replace('_', ' ')} {target}."


class MemberRelations:
    """Relations indexed by source entity, to list the ones inside a group of members."""

    def __init__(self, relationships: Sequence[Relationship]) -> None:
        self._by_source: dict[str, list[Relationship]] = defaultdict(list)
        for r in relationships:
            self._by_source[r.source_id].append(r)

    def inside(self, members: Sequence[str]) -> list[Relationship]:
        keep = set(members)
        found = (r for m in members for r in self._by_source.get(m, []) if r.target_id in keep)
        return sorted(found, key=lambda r: r.id)


# Part of every report's key: changed with what a report is made of, or how, so that reports
# cached by an older version go unused.
REPORT_VERSION = "extractive-1"
_LIST = "\x1e"  # between a list's items inside one part of a key (content_key's are \x1f)


class KnownReports(Protocol):
    """Reports made before, by the key of their inputs (``index/cache.py``: CachedReports)."""

    def get_many(self, keys: Sequence[str]) -> dict[str, CommunityReport]: ...

    def put_many(self, reports: Mapping[str, CommunityReport]) -> None: ...


class ReportKeys:
    """One key per community for everything its report is made of: the settings, its id
    (its level and members), each member's record, the relations among them and the text of
    every chunk those name. A chunk's text is keyed, not its id: an id names a span of a
    document, which a changed document may fill with other words."""

    def __init__(
        self,
        settings: CommunitySettings,
        entities: Sequence[Entity],
        relationships: Sequence[Relationship],
        chunk_text: dict[str, str],
    ) -> None:
        self.settings = (
            f"{REPORT_VERSION}/{settings.report_entities}/{settings.report_relationships}/"
            f"{settings.report_sentences}"
        )
        # Each record hashed once, in one pass (a record is in a community per level).
        text = {c: content_key(c, t) for c, t in chunk_text.items()}

        def texts(chunk_ids: Sequence[str]) -> str:
            return _LIST.join([text.get(c, "") for c in chunk_ids])

        self._entities = {
            e.id: content_key(
                e.id,
                e.name,
                e.type,
                e.description,
                str(e.mention_count),
                _LIST.join(e.doc_ids),
                texts(e.chunk_ids),
            )
            for e in entities
        }
        self._relations = {
            r.id: content_key(r.id, r.predicate, repr(r.weight), r.description, texts(r.chunk_ids))
            for r in relationships
        }

    def of(self, community: Community, internal: Sequence[Relationship]) -> str:
        return content_key(
            self.settings,
            community.id,
            str(community.level),
            _LIST.join([self._entities[m] for m in community.members]),
            _LIST.join([self._relations[r.id] for r in internal]),
        )


class Summarizer(Protocol):
    """Writes a report per community from its member subgraph; what its last call did is
    read back for the run's manifest: reports that failed (a model's answer that could not
    be used) and reports taken again unchanged from an earlier run."""

    name: str
    failed: int
    reused: int

    def summarize(
        self,
        communities: Sequence[Community],
        entities: Sequence[Entity],
        relationships: Sequence[Relationship],
        chunks: Sequence[Chunk],
    ) -> list[CommunityReport]: ...


class CommunitySummarizer:
    """``known`` reports are taken again for communities whose inputs are unchanged (after
    an update, most of them); :attr:`reused` counts them."""

    name = "extractive"

    def __init__(self, settings: CommunitySettings, known: KnownReports | None = None) -> None:
        self.settings = settings
        self.known = known
        self.reused = 0
        self.failed = 0  # an extractive report cannot fail

    def summarize(
        self,
        communities: Sequence[Community],
        entities: Sequence[Entity],
        relationships: Sequence[Relationship],
        chunks: Sequence[Chunk],
    ) -> list[CommunityReport]:
        by_id = {e.id: e for e in entities}
        chunk_text = {c.id: squash(c.text) for c in chunks}
        relations = MemberRelations(relationships)
        todo = [
            (c, relations.inside(c.members))
            for c in communities
            if c.size >= self.settings.min_report_size
        ]
        key_of: list[str] = []
        if self.known is not None:
            keys = ReportKeys(self.settings, entities, relationships, chunk_text)
            key_of = [keys.of(c, internal) for c, internal in todo]
        found = self.known.get_many(key_of) if self.known is not None else {}
        reports: list[CommunityReport] = []  # with their ratings before scaling
        fresh: dict[str, CommunityReport] = {}
        for i, (community, internal) in enumerate(todo):
            if key_of and key_of[i] in found:
                reports.append(found[key_of[i]])
                continue
            reports.append(self._report(community, by_id, internal, chunk_text))
            if key_of:
                fresh[key_of[i]] = reports[-1]
        if self.known is not None and fresh:
            self.known.put_many(fresh)
        self.reused = len(todo) - len(fresh) if self.known is not None else 0
        top = max((r.rating for r in reports), default=0.0) or 1.0
        return [
            CommunityReport(**{**r.__dict__, "rating": round(10 * r.rating / top, 3)})
            for r in reports
        ]

    def _report(
        self,
        community: Community,
        by_id: dict[str, Entity],
        internal: list[Relationship],
        chunk_text: dict[str, str],
    ) -> CommunityReport:
        s = self.settings
        degree: dict[str, float] = defaultdict(float)
        for r in internal:
            degree[r.source_id] += r.weight
            degree[r.target_id] += r.weight
        central = sorted(community.members, key=lambda m: (-degree[m], -by_id[m].mention_count, m))[
            : s.report_entities
        ]
        claims: list[tuple[str, ClaimKind, str, str | None]] = []
        key_entities: list[str] = []
        for eid in central:
            e = by_id[eid]
            sentence = first_sentence(squash(e.description))
            key_entities.append(f"{e.name} ({e.type})")
            source = next(
                (c for c in e.chunk_ids if sentence and sentence in chunk_text.get(c, "")),
                e.chunk_ids[0] if e.chunk_ids else None,
            )
            if sentence:
                claims.append((sentence, "entity", eid, source))
        heaviest = sorted(internal, key=lambda r: (r.predicate == COOCCURS, -r.weight, r.id))
        key_relationships: list[str] = []
        for r in heaviest[: s.report_relationships]:
            text = relation_sentence(
                by_id[r.source_id].name, r.predicate, by_id[r.target_id].name, r.weight
            )
            key_relationships.append(text)
            claims.append((text, "edge", r.id, r.chunk_ids[0] if r.chunk_ids else None))
        seen = {c[0] for c in claims}
        for r in heaviest[: s.report_sentences]:
            sentence = first_sentence(squash(r.description))
            chunk = next((c for c in r.chunk_ids if sentence in chunk_text.get(c, "")), None)
            if sentence and sentence not in seen and chunk is not None:
                seen.add(sentence)
                claims.append((sentence, "chunk", chunk, chunk))
        stated = [Claim(terminated(text), kind, ref, cid) for text, kind, ref, cid in claims]
        names = [by_id[e].name for e in central[:3]]
        title = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        chunk_ids = sorted({c for m in community.members for c in by_id[m].chunk_ids})
        doc_ids = sorted({d for m in community.members for d in by_id[m].doc_ids})
        weight = sum(r.weight for r in internal)
        return CommunityReport(
            community_id=community.id,
            level=community.level,
            title=title,
            summary=" ".join(c.text for c in stated),
            key_entities=key_entities,
            key_relationships=key_relationships,
            rating=math.log1p(weight + community.size),
            chunk_ids=chunk_ids,
            doc_ids=doc_ids,
            claims_json=claims_to_json(stated),
        )
