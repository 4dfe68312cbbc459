"""Real news articles (MultiHop-RAG, ../shared) rendered by LibreOffice as PDF and as Word, read
back: the words are the article's words, in order, and each file is one document."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from graphgate.core.config import LoadSettings
from graphgate.index.load import CorpusLoader
from tests.conftest import shared_path

ARTICLES = 30


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.shared
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_pdf_and_word_renditions_of_news_articles_read_back_as_their_text(tmp_path: Path) -> None:
    articles_file = shared_path("multihop", "multihop_rag", "articles.jsonl")
    lines = articles_file.read_text(encoding="utf-8").splitlines()
    step = max(1, len(lines) // ARTICLES)  # spread over the corpus: many sources and styles
    articles = [json.loads(line) for line in lines[::step][:ARTICLES]]
    plain = tmp_path / "plain"
    plain.mkdir()
    texts = {}
    for n, article in enumerate(articles):
        body = "\n\n".join(fact.strip() for fact in article["facts"] if fact.strip())
        texts[f"a{n:02d}"] = body
        (plain / f"a{n:02d}.txt").write_text(body + "\n", encoding="utf-8")
    out = tmp_path / "office"
    out.mkdir()
    files = sorted(str(p) for p in plain.glob("*.txt"))
    with tempfile.TemporaryDirectory() as profile:
        for target in ("pdf:writer_pdf_Export", "docx:MS Word 2007 XML"):
            subprocess.run(
                [
                    "soffice",
                    f"-env:UserInstallation=file://{profile}",
                    "--headless",
                    "--convert-to",
                    target,
                    "--outdir",
                    str(out),
                    *files,
                ],
                check=True,
                capture_output=True,
                timeout=600,
            )
    result = CorpusLoader(LoadSettings()).load(out)
    assert result.problems == []
    docs = {d.id: d for d in result.documents}
    assert set(docs) == {f"{name}{suffix}" for name in texts for suffix in (".pdf", ".docx")}
    for name, body in texts.items():
        assert squash(docs[f"{name}.docx"].text) == squash(body), name
        # A PDF may break a line inside a hyphenated word; nothing else differs.
        pdf = squash(docs[f"{name}.pdf"].text)
        assert pdf.replace("- ", "-") == squash(body).replace("- ", "-"), name
