"""IE QA of the configured extractor on CoNLL04 and Re-DocRED gold triples.

    .venv/bin/python benchmarks/ie_qa.py [--extractor nlp]

Indexes each gold set's texts with the graph pipeline and prints the IE QA gate's numbers.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from graphgate import Workspace
from graphgate.datasets.ie import convert_ie
from graphgate.gates.ie import GOLD_METRICS

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "ie"
SETS = {
    "CoNLL04 test": SHARED / "conll04" / "conll04_test_triples.jsonl",
    "Re-DocRED dev": SHARED / "re_docred" / "dev_revised_triples.jsonl",
}
KEYS = GOLD_METRICS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--extractor", default="nlp")
    args = parser.parse_args()
    rows = []
    for name, path in SETS.items():
        if not path.exists():
            print(f"skipped {name}: {path} not found")
            continue
        tmp = Path(tempfile.mkdtemp(prefix="gg-ie-"))
        gold = convert_ie(path, tmp / "data")
        with Workspace(tmp / "ws", extract={"extractor": args.extractor}) as ws:
            ws.index(gold.corpus, gold_triples=gold.triples)
            report = ws.gates()
        ie = next(r for r in report.results if r.gate == "ie")
        rows.append(
            (
                name,
                gold.documents,
                gold.gold_triples,
                int(ie.metrics["predicted_triples"] or 0),
                *(ie.metrics[k] for k in KEYS),
            )
        )
        print(
            json.dumps(
                {
                    "set": name,
                    "spurious": ie.details.get("spurious"),
                    "missed": ie.details.get("missed"),
                },
                ensure_ascii=False,
            )
        )
    print("| set | docs | gold | predicted | " + " | ".join(KEYS) + " |")
    print("|" + "---|" * (4 + len(KEYS)))
    for row in rows:
        cells = [str(x) if not isinstance(x, float) else f"{x:.3f}" for x in row]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
