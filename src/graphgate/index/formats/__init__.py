"""Documents as people have them: PDF, Word, PowerPoint, Excel and CSV, read with their pages,
sections and tables, in a worker process the loader can stop.

:class:`DocumentParser` is the loader's side: it starts the worker (formats/worker.py) on the
first file that needs it, gives it one file at a time and kills it when a file takes longer than
``load.max_seconds_per_document`` (the next file gets a fresh worker).
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

from graphgate.core.config import LoadSettings
from graphgate.core.layout import SectionStart
from graphgate.index.formats.layout import FormatProblem, ParsedDocument
from graphgate.index.formats.limits import ReadLimits
from graphgate.index.formats.sniff import SUFFIX_KIND

__all__ = [
    "BINARY_SUFFIXES",
    "DocumentParser",
    "FormatProblem",
    "ParsedDocument",
    "SectionStart",
]

# Extensions read by the worker (binary formats); CSV, Markdown and HTML are read in process.
BINARY_SUFFIXES = frozenset({".pdf", ".docx", ".pptx", ".xlsx"})
_START_SECONDS = 120.0


class DocumentParser:
    """Reads binary documents through one worker process; use it as a context manager."""

    def __init__(self, settings: LoadSettings) -> None:
        self.settings = settings
        self.limits = ReadLimits.of(settings)
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> DocumentParser:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()

    def parse(self, path: Path) -> ParsedDocument:
        """The file's text and layout; FormatProblem names what stopped it."""
        kind = SUFFIX_KIND[path.suffix.lower()]
        process = self._worker()
        assert process.stdin is not None and process.stdout is not None
        request = json.dumps({"path": str(path.resolve()), "kind": kind}) + "\n"
        try:
            process.stdin.write(request.encode("utf-8"))
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._kill()
            raise FormatProblem(
                "the parser worker stopped before reading it",
                "run again; if it recurs, skip this file",
            ) from None
        reply = self._read_reply(process, self.settings.max_seconds_per_document)
        if "problem" in reply:
            raise FormatProblem(str(reply["problem"]), str(reply["fix"]))
        document = reply["document"]
        assert isinstance(document, dict)
        return ParsedDocument.from_dict(document)

    def _worker(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            env = {**os.environ, "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"}
            self._process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "graphgate.index.formats.worker",
                    json.dumps(self.limits.as_dict()),
                    str(self.settings.max_parser_memory_bytes),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
            # Its start (a Python process importing the readers) is not the first file's time.
            ready = self._read_reply(self._process, _START_SECONDS, "starting")
            if ready.get("ready") is not True:
                self._kill()
                raise FormatProblem("the parser worker did not start", "run again")
        assert self._process is not None
        return self._process

    def _read_reply(
        self, process: subprocess.Popen[bytes], seconds: float, doing: str = "reading"
    ) -> dict[str, object]:
        assert process.stdout is not None
        deadline = time.monotonic() + seconds
        buffer = bytearray()
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while not buffer.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(timeout=left):
                    self._kill()
                    if doing == "starting":
                        raise FormatProblem(
                            f"the parser worker did not start within {seconds:g} s",
                            "check that the machine is not out of memory, and run again",
                        )
                    raise FormatProblem(
                        f"reading it took longer than load.max_seconds_per_document ({seconds:g} "
                        "s): the parser may be looping on a crafted or broken file",
                        "skip it, or raise GRAPHGATE_LOAD__MAX_SECONDS_PER_DOCUMENT if it is "
                        "just long",
                    )
                piece = os.read(process.stdout.fileno(), 1 << 20)
                if not piece:
                    code = process.wait()
                    self._process = None
                    raise FormatProblem(
                        f"the parser worker died reading it (exit status {code}): likely out "
                        "of memory (load.max_parser_memory_bytes) or a crash in a parser",
                        "skip it, or export it again from the program that made it",
                    )
                buffer += piece
        reply: dict[str, object] = json.loads(buffer.decode("utf-8"))
        return reply

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()
