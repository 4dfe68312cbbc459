"""Community reports written by the configured model, grounded in the member subgraph only.

Each sentence of the model's summary becomes a claim tied to the member chunk that supports it
best, so global mode can cite it and the Summary Eval gate can check it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from graphgate.core.config import CommunitySettings
from graphgate.core.text import claims_of, content_word_set, squash, terminated
from graphgate.core.types import (
    Chunk,
    Claim,
    Community,
    CommunityReport,
    Entity,
    Relationship,
    claims_to_json,
)
from graphgate.index.summarize import MemberRelations, relation_sentence
from graphgate.llm.base import LLMError, Request
from graphgate.llm.client import LLMClient

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "summary": {"type": "string"},
        "rating": {"type": "number"},
        "key_entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "role": {"type": "string"}},
            },
        },
    },
    "required": ["title", "summary"],
}
SYSTEM = (
    "Write a short report about a group of related entities, using only the facts given. "
    "Title: a few words. Summary: 2-5 sentences. Rating: importance 0-10. Key entities: "
    "name and role. Do not add facts that are not given."
)


class LlmCommunitySummarizer:
    name = "llm"

    def __init__(self, settings: CommunitySettings, client: LLMClient) -> None:
        self.settings = settings
        self.client = client
        self.failed = 0
        self.reused = 0  # every report is written again (the model's cache makes it cheap)

    def summarize(
        self,
        communities: Sequence[Community],
        entities: Sequence[Entity],
        relationships: Sequence[Relationship],
        chunks: Sequence[Chunk],
    ) -> list[CommunityReport]:
        self.failed = 0
        by_id = {e.id: e for e in entities}
        words = {c.id: content_word_set(c.text) for c in chunks}
        relations = MemberRelations(relationships)
        todo = [c for c in communities if c.size >= self.settings.min_report_size]
        reports = self.client.parallel(lambda c: self._one(c, by_id, relations, words), todo)
        return [r for r in reports if r is not None]

    def _one(
        self,
        community: Community,
        by_id: dict[str, Entity],
        relations: MemberRelations[Relationship],
        words: dict[str, set[str]],
    ) -> CommunityReport | None:
        lines = [
            f"- {by_id[m].name} ({by_id[m].type}): {by_id[m].description}"
            for m in community.members[:30]
        ]
        internal = relations.inside(community.members)
        lines += [
            relation_sentence(
                by_id[r.source_id].name, r.predicate, by_id[r.target_id].name, r.weight
            )
            for r in sorted(internal, key=lambda r: -r.weight)[:30]
        ]
        try:
            completion = self.client.complete(
                Request(SYSTEM, "\n".join(lines), SCHEMA, "report", 1024, 0.0)
            )
            data = completion.data or json.loads(completion.text)
            title, summary = str(data["title"]), str(data["summary"])
        except (LLMError, KeyError, TypeError, json.JSONDecodeError):
            self.failed += 1
            return None
        chunk_ids = sorted({c for m in community.members for c in by_id[m].chunk_ids})
        claims: list[Claim] = []
        for sentence in claims_of(squash(summary)):
            text = terminated(sentence)
            claim_words = content_word_set(text)
            best = max(
                chunk_ids, key=lambda c: (len(claim_words & words.get(c, set())), c), default=None
            )
            claims.append(Claim(text, "generated", community.id, best))
        rating = float(data.get("rating", 0.0) or 0.0)
        key_entities = [
            f"{k.get('name')} ({k.get('role')})"
            for k in data.get("key_entities", [])
            if isinstance(k, dict)
        ]
        return CommunityReport(
            community_id=community.id,
            level=community.level,
            title=title,
            summary=" ".join(c.text for c in claims),
            key_entities=key_entities,
            key_relationships=[],
            rating=max(0.0, min(10.0, rating)),
            chunk_ids=chunk_ids,
            doc_ids=sorted({d for m in community.members for d in by_id[m].doc_ids}),
            claims_json=claims_to_json(claims),
        )
