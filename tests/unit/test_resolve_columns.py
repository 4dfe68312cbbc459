"""Resolution built from columns equals the record-per-group aggregation it replaced.

The reference below is that aggregation, written plainly (a dict of records per name and per
edge); random corpora exercise its ties, merges, repeats, long sentences, time spans and dates.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from pathlib import Path

import pyarrow as pa
import pytest

from graphgate.core.runs import RunRegistry
from graphgate.core.text import normalise_name
from graphgate.core.types import Entity, Mention, RawRelation, Relationship, from_table, to_table
from graphgate.index.columnar import encode
from graphgate.index.edges import clip, edge_table, relationship_id
from graphgate.index.name_groups import entity_id, entity_table, group_names

NAMES = [
    "Acme Corp", "ACME", "Acme Inc.", "The Acme", "acme",
    "Ann Lee", "ann lee", "Ann  Lee", "Lee", "Bo", "Café Müller", "Cafe Muller",
    "Zoë", "ZOË", "Nadia Okafor", "Okafor", "...", "The",
]  # fmt: skip
TYPES = ["PERSON", "ORG", "GPE"]
LONG = "Ü" + " word" * 80 + "."
SENTENCES = ["A met B.", "B left A.", "They argued.", LONG, LONG + " Again.", "Zoë said so."]
DATES = [None, "", "1999-01-02", "2001", "2001-05-06"]


def _corpus(seed: int) -> tuple[list[Mention], list[RawRelation], pa.Table]:
    rng = random.Random(seed)
    chunks = [f"c{i}" for i in range(rng.randint(1, 8))]
    doc = {c: f"d{rng.randint(0, 3)}" for c in chunks}
    mentions = [
        Mention(c, doc[c], rng.choice(NAMES), rng.choice(TYPES), rng.choice(SENTENCES))
        for c in (rng.choice(chunks) for _ in range(rng.randint(0, 40)))
    ]
    relations = [
        RawRelation(
            c,
            doc[c],
            rng.choice([*NAMES, "Nobody Known"]),
            rng.choice([*NAMES, "Nobody Known"]),
            rng.choice(["met", "co_occurs_with", "led"]),
            rng.choice(["svo", "cooccurrence"]),
            rng.choice(SENTENCES),
            rng.choice([None, None, "2001", "1999"]),
            rng.choice([None, None, "2003"]),
        )
        for c in (rng.choice(chunks) for _ in range(rng.randint(0, 60)))
    ]
    dates = pa.table({"id": chunks, "date": [rng.choice(DATES) for _ in chunks]})
    return mentions, relations, dates


def _reference_entities(
    mentions: list[Mention],
    head: dict[str, str],
    renamed: dict[str, str],
    extra: dict[str, list[str]],
    n: int,
) -> list[Entity]:
    groups: dict[str, dict[str, Counter[str] | list[str] | set[str]]] = {}
    for m in mentions:
        key = normalise_name(m.name)
        if not key:
            continue
        g = groups.setdefault(
            key, {"s": Counter(), "t": Counter(), "x": [], "c": set(), "d": set()}
        )
        g["s"][m.name] += 1  # type: ignore[index]
        g["t"][m.type] += 1  # type: ignore[index]
        if len(g["x"]) < n and m.sentence not in g["x"]:
            g["x"].append(m.sentence)  # type: ignore[union-attr]
        g["c"].add(m.chunk_id)  # type: ignore[union-attr]
        g["d"].add(m.doc_id)  # type: ignore[union-attr]
    clusters: dict[str, list[str]] = defaultdict(list)
    for key in sorted(groups):
        clusters[head[key]].append(key)
    out = []
    for label, members in sorted(clusters.items()):
        order = [label, *[k for k in members if k != label]]
        surfaces: Counter[str] = Counter()
        types: Counter[str] = Counter()
        sentences: list[str] = []
        chunks: set[str] = set()
        docs: set[str] = set()
        for k in order:
            g = groups[k]
            surfaces.update(g["s"])  # type: ignore[arg-type]
            types.update(g["t"])  # type: ignore[arg-type]
            sentences.extend(s for s in g["x"] if s not in sentences)  # type: ignore[union-attr]
            chunks |= g["c"]  # type: ignore[arg-type]
            docs |= g["d"]  # type: ignore[arg-type]
        own = groups[label]["s"].items()  # type: ignore[union-attr]
        name = renamed.get(label) or sorted(own, key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))[0][0]
        out.append(
            Entity(
                id=entity_id(label),
                name=name,
                type=sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))[0][0],
                description=" ".join(clip(s) for s in sentences[:n]),
                aliases=sorted({*surfaces, *extra.get(label, [])} - {name}),
                mention_count=sum(surfaces.values()),
                chunk_ids=sorted(chunks),
                doc_ids=sorted(docs),
            )
        )
    return out


def _reference_edges(
    relations: list[RawRelation], key_to_id: dict[str, str], n: int, dated: dict[str, str | None]
) -> list[Relationship]:
    acc: dict[tuple[str, str, str, str | None, str | None], dict[str, object]] = {}
    for r in relations:
        s, t = (
            key_to_id.get(normalise_name(r.source_name)),
            key_to_id.get(normalise_name(r.target_name)),
        )
        if s is None or t is None or s == t:
            continue
        if r.kind == "cooccurrence" and t < s:
            s, t = t, s
        a = acc.setdefault(
            (s, r.predicate, t, r.valid_from, r.valid_to),
            {"k": r.kind, "n": 0, "x": [], "c": set(), "d": set()},
        )
        a["n"] += 1  # type: ignore[operator]
        if r.sentence not in a["x"] and len(a["x"]) < n:  # type: ignore[operator,arg-type]
            a["x"].append(r.sentence)  # type: ignore[attr-defined]
        a["c"].add(r.chunk_id)  # type: ignore[attr-defined]
        a["d"].add(r.doc_id)  # type: ignore[attr-defined]
    out = []
    for (s, p, t, vf, vt), a in acc.items():
        dates = [d for c in a["c"] if (d := dated.get(c))]  # type: ignore[attr-defined]
        out.append(
            Relationship(
                relationship_id(s, p, t, vf, vt), s, t, p, str(a["k"]), float(a["n"]),  # type: ignore[arg-type]
                " ".join(clip(x) for x in a["x"]),  # type: ignore[attr-defined]
                sorted(a["c"]), sorted(a["d"]), vf, vt, max(dates) if dates else None,  # type: ignore[call-overload]
            )
        )  # fmt: skip
    return sorted(out, key=lambda r: r.id)


@pytest.mark.parametrize("seed", range(60))
def test_columns_equal_the_record_per_group_aggregation(seed: int, tmp_path: Path) -> None:
    mentions, relations, dates = _corpus(seed)
    rng = random.Random(seed + 1000)
    groups = group_names(to_table(mentions, Mention))
    keys = groups.keys
    head: dict[str, str] = {}
    for k in keys:  # some clusters of several names, as merges and edits make them
        own = rng.random() >= 0.3 or not head
        head[k] = k if own else rng.choice(sorted(set(head.values())))
    labels = sorted(set(head.values()))
    renamed = {labels[0]: "Renamed One"} if labels and seed % 3 == 0 else {}
    extra = {labels[-1]: ["Curated Alias", "ACME"]} if labels and seed % 4 == 0 else {}
    n = 1 + seed % 3
    table, got_labels = entity_table(groups, head, renamed, extra, n)
    assert got_labels == labels
    assert from_table(table, Entity) == _reference_entities(mentions, head, renamed, extra, n)
    key_to_id = {k: entity_id(h) for k, h in head.items()}
    dated = dict(zip(dates["id"].to_pylist(), dates["date"].to_pylist(), strict=True))
    raw = to_table(relations, RawRelation)
    got = from_table(edge_table(raw, key_to_id, n, dates), Relationship)
    assert got == _reference_edges(relations, key_to_id, n, dated)
    # As the resolve stage reads them: sentences dictionary-encoded, through Parquet.
    run = RunRegistry(tmp_path).create()
    run.write_artifact("mentions", to_table(mentions, Mention))
    run.write_artifact("raw_relations", raw)
    read_mentions = run.read_artifact("mentions", dictionary=("sentence",))
    read_raw = run.read_artifact("raw_relations", dictionary=("sentence",))
    assert pa.types.is_dictionary(read_raw.schema.field("sentence").type)
    assert entity_table(group_names(read_mentions), head, renamed, extra, n)[0].equals(table)
    assert edge_table(read_raw, key_to_id, n, dates).equals(edge_table(raw, key_to_id, n, dates))


def test_a_dictionary_column_encodes_as_its_plain_values_do() -> None:
    """A Parquet dictionary may repeat a value, hold values no row uses, and differ between
    chunks: the codes and values are those of the plain column."""
    rng = random.Random(7)
    for _ in range(50):
        chunks = []
        for _ in range(rng.randint(1, 3)):
            dictionary = [rng.choice("abcdé") for _ in range(rng.randint(1, 6))]
            indices = [rng.randrange(len(dictionary)) for _ in range(rng.randint(0, 12))]
            chunks.append(pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), dictionary))
        column = pa.chunked_array(chunks)
        plain = column.cast(pa.string())
        codes, values = encode(column)
        want_codes, want_values = encode(plain)
        assert codes.tolist() == want_codes.tolist() and values.equals(want_values)


def test_the_corpora_above_reach_the_cases_that_matter() -> None:
    """The random corpora above are only a check if they hold ties, merges and long text."""
    merged = cooccurring = clipped = dated = 0
    for seed in range(60):
        mentions, relations, dates = _corpus(seed)
        merged += len({normalise_name(m.name) for m in mentions}) < len({m.name for m in mentions})
        cooccurring += any(r.kind == "cooccurrence" for r in relations)
        clipped += any(r.sentence == LONG for r in relations)
        dated += any(d for d in dates["date"].to_pylist())
    assert min(merged, cooccurring, clipped, dated) >= 30
