"""Stage *summarize*: a report per community, built from its member subgraph alone.

Offline there is no model to write prose, so a report is made of statements the index can
point at: the most central members with the sentence that describes them (an entity claim),
the heaviest relations among members rendered as sentences (edge claims) and the source
sentences behind them (chunk claims). Every claim names what it rests on.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

import numpy as np
import pyarrow as pa

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
    from_table,
    to_table,
)
from graphgate.index.cache import content_key
from graphgate.index.subgraph_columns import LIST_SEPARATOR, Rows, SubgraphColumns


def relation_sentence(source: str, predicate: str, target: str, weight: float) -> str:
    if predicate == COOCCURS:
        times = "once" if weight == 1 else f"{int(weight)} times"
        return f"{source} and {target} are mentioned together {times}."
    return f"{source} {predicate.replace('_', ' ')} {target}."


class Linked(Protocol):
    """A relation as :class:`MemberRelations` files it: a record, or a slimmer tuple."""

    @property
    def id(self) -> str: ...

    @property
    def source_id(self) -> str: ...

    @property
    def target_id(self) -> str: ...


L = TypeVar("L", bound=Linked)


class MemberRelations(Generic[L]):
    """Relations indexed by source entity, to list the ones inside a group of members."""

    def __init__(self, relationships: Iterable[L]) -> None:
        self._by_source: dict[str, list[L]] = defaultdict(list)
        for r in relationships:
            self._by_source[r.source_id].append(r)

    def inside(self, members: Sequence[str]) -> list[L]:
        keep = set(members)
        found = (r for m in members for r in self._by_source.get(m, []) if r.target_id in keep)
        return sorted(found, key=lambda r: r.id)


# Part of every report's key: changed with what a report is made of, or how, so that reports
# cached by an older version go unused.
REPORT_VERSION = "extractive-1"


class KnownReports(Protocol):
    """Reports made before, by the key of their inputs (``index/cache.py``: CachedReports)."""

    def get_many(self, keys: Sequence[str]) -> dict[str, CommunityReport]: ...

    def put_many(self, reports: Mapping[str, CommunityReport]) -> None: ...


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
        return self.summarize_tables(
            to_table(communities, Community),
            to_table(entities, Entity),
            to_table(relationships, Relationship),
            to_table(chunks, Chunk),
        )

    def summarize_tables(
        self,
        communities: pa.Table,
        entities: pa.Table,
        relationships: pa.Table,
        chunks: pa.Table,
    ) -> list[CommunityReport]:
        """The reports, from the artifact tables (index/subgraph_columns.py: no record per
        entity or relation of the graph)."""
        graph = SubgraphColumns(entities, relationships, chunks)
        todo: list[tuple[Community, Rows, Rows]] = []
        for community in from_table(communities, Community):
            if community.size >= self.settings.min_report_size:
                members = graph.members(community.members)
                todo.append((community, members, graph.inside(members)))
        key_of = self._keys(graph, todo) if self.known is not None else []
        found = self.known.get_many(key_of) if self.known is not None else {}
        reports: list[CommunityReport] = []  # with their ratings before scaling
        fresh: dict[str, CommunityReport] = {}
        for i, (community, members, internal) in enumerate(todo):
            if key_of and key_of[i] in found:
                reports.append(found[key_of[i]])
                continue
            reports.append(self._report(community, members, internal, graph))
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

    def _keys(
        self, graph: SubgraphColumns, todo: Sequence[tuple[Community, Rows, Rows]]
    ) -> list[str]:
        """One key per community for everything its report is made of: the settings, its id
        (its level and members), each member's record, the relations among them and the text
        of every chunk those name. A chunk's text is keyed, not its id: an id names a span of
        a document, which a changed document may fill with other words."""
        s = self.settings
        settings = (
            f"{REPORT_VERSION}/{s.report_entities}/{s.report_relationships}/{s.report_sentences}"
        )
        # Each record hashed once (a record is in a community per level).
        text_keys = graph.text_keys()
        entity_keys = graph.entity_keys(text_keys)
        relation_keys = graph.relation_keys(text_keys)
        return [
            content_key(
                settings,
                community.id,
                str(community.level),
                LIST_SEPARATOR.join([entity_keys[m] for m in members.tolist()]),
                LIST_SEPARATOR.join([relation_keys[r] for r in internal.tolist()]),
            )
            for community, members, internal in todo
        ]

    def _report(
        self, community: Community, members: Rows, internal: Rows, graph: SubgraphColumns
    ) -> CommunityReport:
        s = self.settings
        # Weighted degree inside the community, summed in the order of the relations' ids.
        ordered = np.sort(members)
        ends = np.empty(2 * len(internal), dtype=np.int64)
        ends[0::2] = graph.source[internal]
        ends[1::2] = graph.target[internal]
        local = np.zeros(len(members), dtype=np.float64)
        np.add.at(local, np.searchsorted(ordered, ends), np.repeat(graph.weight[internal], 2))
        degree = local[np.searchsorted(ordered, members)]
        central = members[
            np.lexsort((graph.entity_rank[members], -graph.mentions[members], -degree))
        ][: s.report_entities].tolist()
        claims: list[tuple[str, ClaimKind, str, str | None]] = []
        key_entities: list[str] = []
        names: list[str] = []
        for row in central:
            name = str(graph.entity(row, "name"))
            sentence = first_sentence(squash(str(graph.entity(row, "description"))))
            key_entities.append(f"{name} ({graph.entity(row, 'type')})")
            names.append(name)
            codes = graph.entity_chunks.of(row).tolist()
            source = next(
                (
                    graph.chunk_names[c]
                    for c in codes
                    if sentence and sentence in graph.chunk_text[c]
                ),
                graph.chunk_names[codes[0]] if codes else None,
            )
            if sentence:
                claims.append((sentence, "entity", graph.entity_ids[row], source))
        heaviest = internal[
            np.lexsort(
                (graph.relation_rank[internal], -graph.weight[internal], graph.cooccurs[internal])
            )
        ].tolist()
        key_relationships: list[str] = []
        for r in heaviest[: s.report_relationships]:
            text = relation_sentence(
                str(graph.entity(int(graph.source[r]), "name")),
                str(graph.relation(r, "predicate")),
                str(graph.entity(int(graph.target[r]), "name")),
                float(graph.weight[r]),
            )
            key_relationships.append(text)
            codes = graph.relation_chunks.of(r)
            first = graph.chunk_names[int(codes[0])] if len(codes) else None
            claims.append((text, "edge", str(graph.relation(r, "id")), first))
        seen = {c[0] for c in claims}
        for r in heaviest[: s.report_sentences]:
            sentence = first_sentence(squash(str(graph.relation(r, "description"))))
            chunk = next(
                (
                    graph.chunk_names[c]
                    for c in graph.relation_chunks.of(r).tolist()
                    if sentence in graph.chunk_text[c]
                ),
                None,
            )
            if sentence and sentence not in seen and chunk is not None:
                seen.add(sentence)
                claims.append((sentence, "chunk", chunk, chunk))
        stated = [Claim(terminated(text), kind, ref, cid) for text, kind, ref, cid in claims]
        top = names[:3]
        title = ", ".join(top[:-1]) + f" and {top[-1]}" if len(top) > 1 else top[0]
        weight = sum(graph.weight[internal].tolist())
        return CommunityReport(
            community_id=community.id,
            level=community.level,
            title=title,
            summary=" ".join(c.text for c in stated),
            key_entities=key_entities,
            key_relationships=key_relationships,
            rating=math.log1p(weight + community.size),
            chunk_ids=[graph.chunk_names[c] for c in graph.entity_chunks.union(members).tolist()],
            doc_ids=[graph.doc_names[d] for d in graph.entity_docs.union(members).tolist()],
            claims_json=claims_to_json(stated),
        )
