"""Reports made from columns equal the record-per-entity summarizer they replaced.

The reference below is that summarizer, written plainly (a record per entity and relation, a
dict by id); random graphs exercise ties in degree, mentions and weight, co-occurrences, chunks
a list names twice or the chunks table lacks, relations to no entity, and nested communities.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence

import pytest

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
from graphgate.index.summarize import (
    REPORT_VERSION,
    CommunitySummarizer,
    MemberRelations,
    relation_sentence,
)
from tests.unit.test_summarize import _Recorded

SEP = "\x1e"
WORDS = ["Ada", "Zoë", "Bo", "Café", "met", "left", "Mr.", "J.", "London", "ÉTÉ"]


def _reference(
    s: CommunitySettings,
    communities: list[Community],
    entities: list[Entity],
    relationships: list[Relationship],
    chunks: list[Chunk],
) -> tuple[list[CommunityReport], list[str]]:
    by_id = {e.id: e for e in entities}
    chunk_text = {c.id: squash(c.text) for c in chunks}
    text_key = {c: content_key(c, t) for c, t in chunk_text.items()}

    def texts(ids: Sequence[str]) -> str:
        return SEP.join([text_key.get(c, "") for c in ids])

    entity_key = {
        e.id: content_key(
            e.id, e.name, e.type, e.description, str(e.mention_count), SEP.join(e.doc_ids),
            texts(e.chunk_ids),
        )
        for e in entities
    }  # fmt: skip
    relation_key = {
        r.id: content_key(r.id, r.predicate, repr(r.weight), r.description, texts(r.chunk_ids))
        for r in relationships
    }
    settings = f"{REPORT_VERSION}/{s.report_entities}/{s.report_relationships}/{s.report_sentences}"
    relations = MemberRelations(relationships)
    reports, keys = [], []
    for community in communities:
        if community.size < s.min_report_size:
            continue
        internal = relations.inside(community.members)
        keys.append(
            content_key(
                settings, community.id, str(community.level),
                SEP.join([entity_key[m] for m in community.members]),
                SEP.join([relation_key[r.id] for r in internal]),
            )
        )  # fmt: skip
        degree: dict[str, float] = defaultdict(float)
        for r in internal:
            degree[r.source_id] += r.weight
            degree[r.target_id] += r.weight
        central = sorted(community.members, key=lambda m: (-degree[m], -by_id[m].mention_count, m))
        claims: list[tuple[str, ClaimKind, str, str | None]] = []
        key_entities = []
        for eid in central[: s.report_entities]:
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
        key_relationships = []
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
        names = [by_id[e].name for e in central[: s.report_entities][:3]]
        title = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        reports.append(
            CommunityReport(
                community_id=community.id,
                level=community.level,
                title=title,
                summary=" ".join(c.text for c in stated),
                key_entities=key_entities,
                key_relationships=key_relationships,
                rating=math.log1p(sum(r.weight for r in internal) + community.size),
                chunk_ids=sorted({c for m in community.members for c in by_id[m].chunk_ids}),
                doc_ids=sorted({d for m in community.members for d in by_id[m].doc_ids}),
                claims_json=claims_to_json(stated),
            )
        )
    top = max((r.rating for r in reports), default=0.0) or 1.0
    scaled = [
        CommunityReport(**{**r.__dict__, "rating": round(10 * r.rating / top, 3)}) for r in reports
    ]
    return scaled, keys


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))) + rng.choice(
        [".", "", "!"]
    )


def _graph(
    seed: int,
) -> tuple[list[Community], list[Entity], list[Relationship], list[Chunk]]:
    rng = random.Random(seed)
    chunk_ids = [f"c{i:02d}" for i in range(rng.randint(1, 12))] + ["ç9", "c_missing"]
    sentences = [_sentence(rng) for _ in range(12)]
    chunks = [
        Chunk(c, f"d{i % 3}", 0, "  ".join(rng.sample(sentences, 4)), 0, 1, 1)
        for i, c in enumerate(chunk_ids[:-1])  # "c_missing" is named but not a chunk
    ]
    ids = rng.sample([f"e{i}" for i in range(60)] + ["É1", "z", "Z"], rng.randint(2, 25))
    entities = [
        Entity(
            e,
            rng.choice(["Ada", "Zoë", "Bo", f"N{e}"]),
            rng.choice(["PERSON", "ORG"]),
            rng.choice(["", *sentences, sentences[0] + " " + sentences[1]]),
            [],
            rng.choice([1, 1, 2, 5]),
            [rng.choice(chunk_ids) for _ in range(rng.randint(0, 4))],
            sorted({f"d{rng.randint(0, 4)}" for _ in range(rng.randint(0, 3))}),
        )
        for e in ids
    ]
    ends = [*ids, "ghost"]  # a relation to an entity the table lacks is never inside
    relationships = [
        Relationship(
            f"r{rng.randint(0, 10**6):07d}-{i}",
            rng.choice(ends),
            rng.choice(ends),
            rng.choice(["met", COOCCURS, "led_by"]),
            "relation",
            rng.choice([1.0, 2.0, 0.5, 3.0, 1.0 / 3.0]),
            rng.choice(sentences),
            [rng.choice(chunk_ids) for _ in range(rng.randint(0, 3))],
            ["d1"],
        )
        for i in range(rng.randint(0, 80))
    ]
    communities = []
    for level in range(rng.randint(1, 3)):
        pool = ids[:]
        rng.shuffle(pool)
        while pool:
            members = [pool.pop() for _ in range(min(len(pool), rng.randint(1, 9)))]
            communities.append(
                Community(f"k{level}_{len(communities)}", level, None, [], members, len(members))
            )
    return communities, entities, relationships, chunks


@pytest.mark.parametrize("seed", range(80))
def test_reports_from_columns_equal_the_record_reference(seed: int) -> None:
    graph = _graph(seed)
    rng = random.Random(seed)
    settings = CommunitySettings(
        min_report_size=rng.choice([1, 2]),
        report_entities=rng.choice([1, 3, 8]),
        report_relationships=rng.choice([1, 4]),
        report_sentences=rng.choice([0, 2, 5]),
    )
    expected, expected_keys = _reference(settings, *graph)
    known = _Recorded()
    got = CommunitySummarizer(settings, known).summarize(*graph)
    assert got == expected
    assert list(known.stored) == list(dict.fromkeys(expected_keys))
