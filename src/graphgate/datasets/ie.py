"""Relation-extraction gold sets (CoNLL04, Re-DocRED) as a corpus plus gold triples for IE QA."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from graphgate.datasets.base import read_jsonl


@dataclass(frozen=True)
class GoldSet:
    corpus: Path  # JSONL documents
    triples: Path  # JSONL {"head", "relation", "tail"}
    documents: int
    gold_triples: int


def convert_ie(path: Path, out_dir: Path) -> GoldSet:
    """``path``: a CoNLL04 ``*_triples.jsonl`` (text, triples) or a Re-DocRED
    ``dev_revised_triples.jsonl`` (doc_id, title, text, triples of dicts)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    corpus, gold = out_dir / "corpus.jsonl", out_dir / "gold_triples.jsonl"
    docs = triples = 0
    with corpus.open("w", encoding="utf-8") as c_out, gold.open("w", encoding="utf-8") as g_out:
        for number, row in read_jsonl(path):
            doc_id = str(row.get("doc_id", row.get("orig_id", number)))
            c_out.write(
                json.dumps(
                    {
                        "id": f"{doc_id}-{number}",
                        "title": row.get("title", doc_id),
                        "text": row["text"],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
            docs += 1
            for t in row.get("triples", []):
                head, relation, tail = (
                    (t["head"], t["relation"], t["tail"]) if isinstance(t, dict) else t
                )
                g_out.write(
                    json.dumps(
                        {"head": head, "relation": relation, "tail": tail}, ensure_ascii=False
                    )
                    + "\n"
                )
                triples += 1
    return GoldSet(corpus, gold, docs, triples)
