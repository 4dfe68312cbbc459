"""PDF against text: the same articles read from PDF files and from Markdown files, retrieved
alike; every citation's page checked against the page texts; parsing speed.

    .venv/bin/python benchmarks/formats.py CORPUS.jsonl TESTSET.jsonl --out DIR [--novel PDF]

CORPUS is a converted MultiHop-RAG corpus (`graphgate testset convert multihop-rag ...`). Each
article becomes a Markdown file (front matter: title, author, source, created) and a PDF made
by LibreOffice from the same text (Debian's libreoffice-writer-nogui), with the same four
fields written into its info dictionary by pypdf. Both folders are indexed and scored by
benchmarks/retrieval.py (doc recall@2/5/10 per question type, beside BM25, dense and their
fusion over the same folder). Then every citation of the PDF rendition's answers (and of the
demo novel's PDF, 54 pages, with the demo questions) is checked: the page it names must hold
the start of its text, by pdfium's reading of that page (not pypdf's). Printed: the two recall
tables, the difference at recall@5, the page check, and pages per second of the PDF reader
with its share of the index time.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from graphgate import Workspace
from graphgate.core.config import LoadSettings
from graphgate.core.layout import parse_layout
from graphgate.index.load import CorpusLoader

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("title", "author", "source", "created")


def _pdf_date(iso: str) -> str:
    digits = re.sub(r"\D", "", iso[:19])
    return f"D:{digits}Z" if len(digits) >= 8 else ""


def build_renditions(corpus: Path, testset: Path, out: Path) -> dict[str, Path]:
    """OUT/text (Markdown), OUT/pdf (LibreOffice), and a test set for each with its ids."""
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line]
    rows.sort(key=lambda r: str(r["id"]))
    names = {str(r["id"]): f"a{n:04d}" for n, r in enumerate(rows)}
    text_dir, plain_dir, pdf_dir = out / "text", out / "plain", out / "pdf"
    for folder in (text_dir, plain_dir, pdf_dir):
        folder.mkdir(parents=True, exist_ok=True)
    fields: dict[str, dict[str, str]] = {}
    for row in rows:
        meta = row.get("metadata") or {}
        values = {
            "title": str(row.get("title") or ""),
            "author": str(meta.get("author") or ""),
            "source": str(meta.get("source") or ""),
            "created": str(meta.get("published_at") or ""),
        }
        fields[names[str(row["id"])]] = values
        front = "".join(
            f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in values.items() if v
        )
        name = names[str(row["id"])]
        (text_dir / f"{name}.md").write_text(f"---\n{front}---\n{row['text']}\n", encoding="utf-8")
        (plain_dir / f"{name}.txt").write_text(row["text"] + "\n", encoding="utf-8")
    if not (out / "pdf.done").exists():
        _soffice_pdf(plain_dir, pdf_dir)
        _set_info(pdf_dir, fields)
        (out / "pdf.done").write_text("LibreOffice made them; pypdf wrote their info\n")
    sets = {}
    for kind, suffix in (("text", ".md"), ("pdf", ".pdf")):
        lines = []
        for line in testset.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            case["gold_docs"] = [
                names[d] + suffix for d in case.get("gold_docs") or [] if d in names
            ]
            lines.append(json.dumps(case, ensure_ascii=False))
        sets[kind] = out / f"{kind}-testset.jsonl"
        sets[kind].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"text": text_dir, "pdf": pdf_dir, **{f"{k}-testset": v for k, v in sets.items()}}


def _soffice_pdf(source: Path, target: Path) -> None:
    """LibreOffice converts the missing ones, 40 files a call (a long batch was seen to stop
    part-way without an error)."""
    program = shutil.which("soffice")
    if program is None:
        raise SystemExit("LibreOffice is needed: apt-get install libreoffice-writer-nogui")
    for _ in range(3):
        files = sorted(
            str(p) for p in source.glob("*.txt") if not (target / f"{p.stem}.pdf").exists()
        )
        if not files:
            return
        for start in range(0, len(files), 40):
            with tempfile.TemporaryDirectory() as profile:
                subprocess.run(
                    [
                        program,
                        f"-env:UserInstallation=file://{profile}",
                        "--headless",
                        "--convert-to",
                        "pdf:writer_pdf_Export",
                        "--outdir",
                        str(target),
                        *files[start : start + 40],
                    ],
                    check=True,
                    capture_output=True,
                    timeout=1800,
                )
    raise SystemExit(f"LibreOffice did not convert every file of {source}")


def _set_info(folder: Path, fields: dict[str, dict[str, str]]) -> None:
    from pypdf import PdfReader, PdfWriter

    for path in sorted(folder.glob("*.pdf")):
        values = fields[path.stem]
        writer = PdfWriter(clone_from=PdfReader(path))
        info = {"/Title": values["title"], "/Author": values["author"], "/Source": values["source"]}
        if _pdf_date(values["created"]):
            info["/CreationDate"] = _pdf_date(values["created"])
        writer.add_metadata({k: v for k, v in info.items() if v})
        with path.open("wb") as handle:
            writer.write(handle)


def retrieval_table(corpus: Path, testset: Path, workspace: Path, modes: str) -> str:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "retrieval.py"),
            str(corpus),
            str(testset),
            "--workspace",
            str(workspace),
            "--modes",
            modes,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def recall_at_5(table: str) -> dict[tuple[str, str], float]:
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 8 and cells[2][:1].isdigit():
            out[(cells[0], cells[1])] = float(cells[3])
    return out


def page_texts(path: Path) -> list[str]:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        return [
            " ".join(document[i].get_textpage().get_text_range().split())
            for i in range(len(document))
        ]
    finally:
        document.close()


def check_pages(workspace: Path, folder: Path, questions: list[str]) -> tuple[int, int, int]:
    """(citations on a PDF, their page right, pages named at all) over hybrid answers."""
    texts: dict[str, list[str]] = {}
    cited = right = named = 0
    with Workspace(workspace) as ws:
        for question in questions:
            for c in ws.query(question, mode="hybrid").citations:
                if not c.doc_id.endswith(".pdf"):
                    continue
                cited += 1
                if c.page is None:
                    continue
                named += 1
                pages = texts.setdefault(c.doc_id, page_texts(folder / c.doc_id))
                start = " ".join(c.text.split())[:40]
                right += int(0 < c.page <= len(pages) and start in pages[c.page - 1])
    return cited, right, named


def parse_speed(folder: Path) -> tuple[int, float]:
    started = time.perf_counter()
    docs = CorpusLoader(LoadSettings()).load(folder).documents
    seconds = time.perf_counter() - started
    pages = sum(len(parse_layout(d.layout_json).pages) for d in docs)
    return pages, seconds


def load_share(workspace: Path) -> tuple[float, float]:
    with Workspace(workspace) as ws:
        manifest = ws.runs.current().manifest()
    stages = {s.name: s.seconds for s in manifest.stages}
    return stages.get("load", 0.0), sum(stages.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("testset", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--modes", default="vector,hybrid")
    parser.add_argument("--novel", type=Path, default=ROOT / "tests/data/documents/carol.pdf")
    parser.add_argument(
        "--novel-questions", type=Path, default=ROOT / ".graphgate-demo/testset.jsonl"
    )
    args = parser.parse_args()
    paths = build_renditions(args.corpus, args.testset, args.out)
    tables = {}
    for kind in ("text", "pdf"):
        ws = args.out / f"ws-{kind}"
        tables[kind] = retrieval_table(paths[kind], paths[f"{kind}-testset"], ws, args.modes)
        print(f"## {kind} rendition\n\n{tables[kind]}")
    text_r5, pdf_r5 = recall_at_5(tables["text"]), recall_at_5(tables["pdf"])
    print("| type | method | recall@5 text | recall@5 PDF | PDF − text |\n|---|---|---|---|---|")
    for key in text_r5:
        if key in pdf_r5:
            diff = pdf_r5[key] - text_r5[key]
            print(f"| {key[0]} | {key[1]} | {text_r5[key]:.3f} | {pdf_r5[key]:.3f} | {diff:+.3f} |")
    questions = [json.loads(x)["question"] for x in paths["pdf-testset"].read_text().splitlines()]
    rows = [("MultiHop-RAG PDFs", *check_pages(args.out / "ws-pdf", paths["pdf"], questions[:100]))]
    if args.novel.exists() and args.novel_questions.exists():
        novel_dir = args.out / "novel"
        novel_dir.mkdir(exist_ok=True)
        shutil.copy(args.novel, novel_dir / args.novel.name)
        with Workspace(args.out / "ws-novel") as ws:
            if ws.runs.current_id() is None:
                ws.index(novel_dir)
        novel_q = [json.loads(x)["question"] for x in args.novel_questions.read_text().splitlines()]
        rows.append(("demo novel PDF", *check_pages(args.out / "ws-novel", novel_dir, novel_q)))
    print("\n| corpus | citations of a PDF | page right | page named |\n|---|---|---|---|")
    for name, cited, right, named in rows:
        print(f"| {name} | {cited} | {right} | {named} |")
    print("\n| PDFs | pages | read in s | pages/s | load stage s | index s | load share |")
    print("|---|---|---|---|---|---|---|")
    speeds = [("MultiHop-RAG", paths["pdf"], args.out / "ws-pdf")]
    if (args.out / "ws-novel").exists():
        speeds.append(("demo novel", args.out / "novel", args.out / "ws-novel"))
    for name, folder, ws_path in speeds:
        pages, seconds = parse_speed(folder)
        load, total = load_share(ws_path)
        print(
            f"| {name} | {pages} | {seconds:.1f} | {pages / seconds:.1f} | {load:.1f} | "
            f"{total:.1f} | {load / total:.1%} |"
        )


if __name__ == "__main__":
    main()
