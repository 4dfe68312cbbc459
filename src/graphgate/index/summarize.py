"""Stage *summarize*: a report per community, built from its member subgraph alone.

Offline there is no model to write prose, so a report is made of statements the index can
point at: the most central members with the sentence that describes them (an entity claim),
the heaviest relations among members rendered as sentences (edge claims) and the source
sentences behind them (chunk claims). Every claim names what it rests on.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from graphgate.config import CommunitySettings
from graphgate.text import first_sentence, squash, terminated
from graphgate.types import (
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


class CommunitySummarizer:
    def __init__(self, settings: CommunitySettings) -> None:
        self.settings = settings

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
        reports: list[CommunityReport] = []
        for community in communities:
            if community.size < self.settings.min_report_size:
                continue
            internal = relations.inside(community.members)
            reports.append(self._report(community, by_id, internal, chunk_text))
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
