"""The parser worker: a child process that reads PDF and Office files for the loader.

A parser that loops on a crafted file, or grows without bound, cannot be stopped inside the
process that runs it (a thread cannot be killed; an alarm signal only reaches the main thread,
and the loader also runs in the server's worker threads). So the loader hands each file to
this process, waits ``load.max_seconds_per_document``, and kills it past that; its address
space is capped at ``load.max_parser_memory_bytes``, so a memory bomb ends in a MemoryError
reported for that file. One worker serves a whole load, one file at a time: JSON lines in,
JSON lines out.

    python -m graphgate.index.formats.worker LIMITS_JSON MEMORY_BYTES
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from pathlib import Path
from typing import Any

from graphgate.index.formats.layout import FormatProblem, ParsedDocument
from graphgate.index.formats.limits import ReadLimits
from graphgate.index.formats.sniff import check_archive, check_kind


def read_binary(path: Path, kind: str, limits: ReadLimits) -> ParsedDocument:
    """A PDF, Word, PowerPoint or Excel file, checked for what it really is first."""
    check_kind(path, kind)
    if kind == "pdf":
        from graphgate.index.formats.pdf import read_pdf

        return read_pdf(path, limits)
    check_archive(path, limits.max_unpacked_bytes)
    if kind == "docx":
        from graphgate.index.formats.word import read_docx

        return read_docx(path, limits)
    if kind == "pptx":
        from graphgate.index.formats.powerpoint import read_pptx

        return read_pptx(path, limits)
    if kind == "xlsx":
        from graphgate.index.formats.sheets import read_xlsx

        return read_xlsx(path, limits)
    raise FormatProblem(f"no reader for {kind}", "convert it to PDF, text or Markdown")


def answer(request: dict[str, Any], limits: ReadLimits) -> dict[str, Any]:
    try:
        parsed = read_binary(Path(request["path"]), request["kind"], limits)
    except FormatProblem as exc:
        return {"problem": exc.problem, "fix": exc.fix}
    except MemoryError:
        return {
            "problem": "reading it needed more memory than load.max_parser_memory_bytes allows",
            "fix": "split the document, or raise GRAPHGATE_LOAD__MAX_PARSER_MEMORY_BYTES",
        }
    except RecursionError:
        return {
            "problem": "it nests objects too deeply to read (a crafted or broken file)",
            "fix": "export it again from the program that made it, or skip it",
        }
    except Exception as exc:  # a parser's own bug is this file's problem, not the load's
        last = traceback.extract_tb(exc.__traceback__)[-1:]
        where = f" in {Path(last[0].filename).name}:{last[0].lineno}" if last else ""
        return {
            "problem": f"the parser failed on it ({type(exc).__name__}{where}: {str(exc)[:200]})",
            "fix": "export it again from the program that made it, or skip it",
        }
    return {"document": parsed.as_dict()}


def _cap_memory(limit: int) -> None:
    import resource

    if limit > 0:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(argv: list[str]) -> int:
    limits = ReadLimits(**json.loads(argv[0]))
    _cap_memory(int(argv[1]))
    logging.disable(logging.CRITICAL)  # pypdf warns on every odd file; the loader reports
    sys.stdout.write(json.dumps({"ready": True}) + "\n")  # a file's time starts after this
    sys.stdout.flush()
    for line in sys.stdin:
        reply = answer(json.loads(line), limits)
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
