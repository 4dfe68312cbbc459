"""Test sets generated from the graph: template questions with their ground-truth subgraph.

Single-hop questions cover relationship types (two each, most frequent types first), multi-hop
questions follow 2- and 3-hop paths, temporal ones ask about an edge's time span,
contradiction ones where one subject holds different values for one relation in different
documents, and (when asked for) structured ones count or list what one subject holds along one
relation, their gold computed by a Cypher query on the graph (kept as ``gold_cypher``). Seeded:
the same index and seed give the same test set.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence

from graphgate.core.types import COOCCURS, Entity, Relationship
from graphgate.evaluate.testset import TestCase
from graphgate.query.loaded import LoadedIndex


def _phrase(predicate: str) -> str:
    return predicate.replace("_", " ")


class TestsetGenerator:
    __test__ = False

    def __init__(self, index: LoadedIndex, seed: int = 0) -> None:
        self.index = index
        self.seed = seed

    def _name(self, eid: str) -> str:
        return self.index.store.entity(eid).name

    def _entity(self, eid: str) -> Entity:
        return self.index.store.entity(eid)

    def _case(
        self,
        kind: str,
        n: int,
        question: str,
        answer_id: str,
        path: Sequence[Relationship],
        **extra: object,
    ) -> TestCase:
        ids = [path[0].source_id, *(r.target_id for r in path)]
        docs = sorted({d for r in path for d in r.doc_ids})
        return TestCase.model_validate(
            {
                "id": f"gen-{kind}-{n:04d}",
                "question": question,
                "question_type": kind,
                "difficulty": {1: "easy", 2: "medium"}.get(len(path), "hard"),
                "answer": self._name(answer_id),
                "answer_aliases": self._entity(answer_id).aliases,
                "gold_entities": [self._name(e) for e in dict.fromkeys(ids)],
                "gold_edges": [
                    [self._name(r.source_id), r.predicate, self._name(r.target_id)] for r in path
                ],
                "gold_docs": docs,
                "generated_from": [r.id for r in path],
                **extra,
            }
        )

    def generate(self, n: int, structured: bool = False) -> list[TestCase]:
        rng = random.Random(self.seed)
        facts = sorted(
            (r for r in self.index.store.relationships() if r.predicate != COOCCURS),
            key=lambda r: r.id,
        )
        singles = self._single_hop(facts, rng)
        temporal = self._temporal(facts, rng)
        contradiction = self._contradiction(facts, rng)
        multi = self._multi_hop(facts, rng)
        quota = max(1, n // 4)
        others = temporal[:quota] + contradiction[:quota]
        if structured:
            others += self._structured(facts, rng)[:quota]
        chosen = singles[: max(0, n - len(others) - min(len(multi), quota))]
        # Multi-hop questions fill whatever the other kinds leave.
        chosen += others + multi[: n - len(chosen) - len(others)]
        return chosen[:n]

    def _single_hop(self, facts: list[Relationship], rng: random.Random) -> list[TestCase]:
        by_predicate: dict[str, list[Relationship]] = defaultdict(list)
        for r in facts:
            by_predicate[r.predicate].append(r)
        frequency = Counter({p: len(v) for p, v in by_predicate.items()})
        ordered = []
        for predicate, _ in sorted(frequency.items(), key=lambda kv: (-kv[1], kv[0])):
            edges = list(by_predicate[predicate])
            rng.shuffle(edges)
            ordered.append(edges)
        # Two per relationship type first, then the rest, so every type is covered early.
        rounds = [e for edges in ordered for e in edges[:2]]
        rounds += [e for edges in ordered for e in edges[2:]]
        out: list[TestCase] = []
        for r in rounds:
            q = f"What does {self._name(r.source_id)} {_phrase(r.predicate)}?"
            out.append(self._case("single_hop", len(out), q, r.target_id, [r]))
        return out

    def _multi_hop(self, facts: list[Relationship], rng: random.Random) -> list[TestCase]:
        outgoing: dict[str, list[Relationship]] = defaultdict(list)
        for r in facts:
            outgoing[r.source_id].append(r)
        paths: list[list[Relationship]] = []
        for first in facts:
            for second in outgoing.get(first.target_id, []):
                if second.target_id == first.source_id:
                    continue
                paths.append([first, second])
                for third in outgoing.get(second.target_id, [])[:2]:
                    if third.target_id not in {first.source_id, first.target_id}:
                        paths.append([first, second, third])
        rng.shuffle(paths)
        out: list[TestCase] = []
        for path in paths:
            question = f"{self._name(path[0].source_id)} {_phrase(path[0].predicate)} something"
            for r in path[1:]:
                question = f"the entity that {question}" if r is not path[1] else question
                question = f"{question}; what does that {_phrase(r.predicate)}"
            out.append(self._case("multi_hop", len(out), question + "?", path[-1].target_id, path))
        return out

    def _structured(self, facts: list[Relationship], rng: random.Random) -> list[TestCase]:
        """Counts and lists along one relation of one subject (two values or more)."""
        groups: dict[tuple[str, str], list[Relationship]] = defaultdict(list)
        for r in facts:
            groups[(r.source_id, r.predicate)].append(r)
        keys = sorted(k for k, edges in groups.items() if len(edges) >= 2)
        rng.shuffle(keys)
        query = (
            "MATCH (a:Entity {id: $id})-[r:RELATED {predicate: $predicate}]->(b:Entity) "
            "RETURN DISTINCT b.name AS name ORDER BY name"
        )
        out: list[TestCase] = []
        for source, predicate in keys:
            rows = self.index.store.cypher(query, {"id": source, "predicate": predicate})
            names = [str(x) for x in rows["name"].to_pylist()]
            path = sorted(groups[(source, predicate)], key=lambda r: r.id)
            subject = self._name(source)
            counting = len(out) % 2 == 0
            question = (
                f"How many entities does {subject} {_phrase(predicate)}?"
                if counting
                else f"List every entity that {subject} {_phrase(predicate)}."
            )
            case = self._case("structured", len(out), question, path[0].target_id, path)
            extra = {
                "answer": str(len(names)) if counting else names[0],
                "answer_aliases": [] if counting else case.answer_aliases,
                "key_facts": [] if counting else names,
                "gold_cypher": {"query": query, "params": {"id": source, "predicate": predicate}},
                "difficulty": "medium",
            }
            out.append(TestCase.model_validate({**case.model_dump(), **extra}))
        return out

    def _temporal(self, facts: list[Relationship], rng: random.Random) -> list[TestCase]:
        timed = [r for r in facts if r.valid_from or r.valid_to]
        rng.shuffle(timed)
        out: list[TestCase] = []
        for r in timed:
            when = r.valid_from or r.valid_to or ""
            q = f"What did {self._name(r.source_id)} {_phrase(r.predicate)} in {when}?"
            out.append(self._case("temporal", len(out), q, r.target_id, [r], as_of=when))
        return out

    def _contradiction(self, facts: list[Relationship], rng: random.Random) -> list[TestCase]:
        """Conflicts the index found first (both values must come back, one flagged as
        disputed), then relations with several values across documents."""
        out: list[TestCase] = []
        for conflict in self.index.store.conflicts():
            about = conflict.about.replace("_", " ")
            out.append(
                TestCase.model_validate(
                    {
                        "id": f"gen-contradiction-{len(out):04d}",
                        "question": f"What is the {about} of {conflict.subject}?",
                        "question_type": "contradiction",
                        "difficulty": "medium",
                        "answer": conflict.a_value,
                        "gold_entities": [conflict.subject],
                        "gold_docs": sorted({conflict.a_doc_id, conflict.b_doc_id}),
                        "conflicting_answers": [conflict.b_value],
                        "generated_from": [conflict.id],
                    }
                )
            )
        groups: dict[tuple[str, str], list[Relationship]] = defaultdict(list)
        for r in facts:
            groups[(r.source_id, r.predicate)].append(r)
        keys = sorted(
            k
            for k, v in groups.items()
            if len({r.target_id for r in v}) > 1 and len({d for r in v for d in r.doc_ids}) > 1
        )
        rng.shuffle(keys)
        for source, predicate in keys:
            edges = sorted(groups[(source, predicate)], key=lambda r: (-r.weight, r.id))
            q = f"What does {self._name(source)} {_phrase(predicate)}?"
            conflicting = [self._name(r.target_id) for r in edges[1:]]
            case = self._case(
                "contradiction",
                len(out),
                q,
                edges[0].target_id,
                [edges[0]],
                conflicting_answers=conflicting,
            )
            docs = sorted({d for r in edges for d in r.doc_ids})
            out.append(case.model_copy(update={"gold_docs": docs}))
        return out
