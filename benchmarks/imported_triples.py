"""Graph retrieval with strong triples: Re-DocRED's gold triples imported against the offline
extractor, on the same documents and questions.

    .venv/bin/python benchmarks/imported_triples.py [--docs 500] [--questions 300] [--out DIR]

Writes, under ``--out`` (default benchmarks/out/redocred): ``corpus.jsonl`` (the dev
documents), ``extractions.jsonl`` (their gold entities with aliases and their triples, in
graphgate's import format), ``gold.jsonl`` (the triples, for the IE gate) and ``testset.jsonl``:
one question per sampled triple whose head and tail the document names, phrased by one of
several templates over the relation's name ("What is the country of citizenship of X?"), the
triple's document as the gold document. Then indexes the corpus twice (``ws-offline``,
``ws-import``) and runs ``benchmarks/retrieval.py`` on each, which prints doc recall per
mode beside BM25, dense and their fusion.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "ie" / "re_docred"
TEMPLATES = [
    "What is the {relation} of {head}?",
    "Which {relation} does {head} have?",
    "{head}: what is its {relation}?",
    "Tell me the {relation} of {head}.",
    "Regarding {head}, what {relation} is recorded?",
]


def _pick(key: str, n: int) -> int:
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % n


def _triple_key(row: dict[str, Any], triple: dict[str, Any]) -> str:
    return f"{row['doc_id']}/{triple['head']}/{triple['relation']}/{triple['tail']}"


def build(out: Path, docs: int, questions: int) -> None:
    rows = [
        json.loads(line)
        for line in (SOURCE / "dev_revised_triples.jsonl").read_text().splitlines()[:docs]
    ]
    out.mkdir(parents=True, exist_ok=True)
    with (out / "corpus.jsonl").open("w") as f:
        for r in rows:
            f.write(json.dumps({"id": str(r["doc_id"]), "title": r["title"], "text": r["text"]}))
            f.write("\n")
    with (out / "extractions.jsonl").open("w") as f, (out / "gold.jsonl").open("w") as g:
        for r in rows:
            entities = [
                {"name": e["name"], "type": e["type"], "aliases": e.get("aliases", [])}
                for e in r["entities"]
            ]
            relations = [
                {"source": t["head"], "predicate": t["relation"], "target": t["tail"]}
                for t in r["triples"]
            ]
            f.write(json.dumps({"doc_id": str(r["doc_id"]), "entities": entities,
                                "relations": relations}) + "\n")  # fmt: skip
            g.write(json.dumps({"triples": r["triples"]}) + "\n")
    candidates = []
    for r in rows:
        text = r["text"].lower()
        for t in r["triples"]:
            if t["head"].lower() in text and t["tail"].lower() in text:
                candidates.append((r, t))
    candidates.sort(key=lambda rt: _pick(_triple_key(*rt), 10**9))
    with (out / "testset.jsonl").open("w") as f:
        for i, (r, t) in enumerate(candidates[:questions]):
            template = TEMPLATES[_pick(f"{i}", len(TEMPLATES))]
            case = {
                "id": str(i),
                "question": template.format(relation=t["relation"], head=t["head"]),
                "question_type": "single_hop",
                "answer": t["tail"],
                "gold_docs": [str(r["doc_id"])],
            }
            f.write(json.dumps(case) + "\n")


def index(out: Path, name: str, extra: list[str]) -> None:
    ws = out / name
    shutil.rmtree(ws, ignore_errors=True)
    graphgate = Path(sys.executable).parent / "graphgate"
    command = [str(graphgate), "index", str(out / "corpus.jsonl"), "-w", str(ws),
               "--gold-triples", str(out / "gold.jsonl"), *extra]  # fmt: skip
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=500)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/redocred"))
    parser.add_argument("--modes", default="vector,local,graph,hybrid")
    args = parser.parse_args()
    build(args.out, args.docs, args.questions)
    index(args.out, "ws-offline", [])
    index(args.out, "ws-import", ["--extractions", str(args.out / "extractions.jsonl")])
    retrieval = Path(__file__).parent / "retrieval.py"
    for name in ("ws-offline", "ws-import"):
        print(f"\n## {name}")
        subprocess.run(
            [sys.executable, str(retrieval), str(args.out / "corpus.jsonl"),
             str(args.out / "testset.jsonl"), "--workspace", str(args.out / name),
             "--modes", args.modes],
            check=True,
        )  # fmt: skip


if __name__ == "__main__":
    main()
