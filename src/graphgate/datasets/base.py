"""What every converter returns, and the writers they share."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphgate.core.errors import InputError
from graphgate.evaluate.testset import TestCase, write_testset


@dataclass(frozen=True)
class ConvertedDataset:
    corpus: Path  # JSONL of {id, title, text, metadata}
    questions: Path  # test set JSONL (see evaluate/testset.py)
    documents: int
    cases: int
    skipped: int = 0  # cases the test-set format cannot express (e.g. creative generation)


def require(path: Path) -> Path:
    if not path.exists():
        raise InputError(f"dataset file not found: {path}", "point at the dataset's folder or file")
    return path


def read_json(path: Path) -> Any:
    try:
        return json.loads(require(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: malformed JSON ({exc.msg})", "check the file") from exc


def read_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """(zero-based line index, value) for every non-blank line; a bad line names its number."""
    for index, line in enumerate(require(path).read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        try:
            yield index, json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path} line {index + 1}: malformed JSON ({exc.msg})", "check the file"
            ) from exc


def write_dataset(
    out_dir: Path, documents: Iterable[dict[str, Any]], cases: list[TestCase], skipped: int = 0
) -> ConvertedDataset:
    out_dir.mkdir(parents=True, exist_ok=True)
    corpus = out_dir / "corpus.jsonl"
    count = 0
    seen: set[str] = set()
    with corpus.open("w", encoding="utf-8") as fh:
        for doc in documents:
            if doc["id"] in seen:
                continue
            seen.add(doc["id"])
            fh.write(json.dumps(doc, ensure_ascii=False) + "\n")
            count += 1
    questions = out_dir / "testset.jsonl"
    write_testset(cases, questions)
    return ConvertedDataset(corpus, questions, count, len(cases), skipped)
