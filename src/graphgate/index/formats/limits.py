"""The bounds a document reader works within, as plain values the parser worker is given."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from graphgate.core.config import LoadSettings


@dataclass(frozen=True)
class ReadLimits:
    max_text_chars: int  # load.max_document_bytes, applied to the extracted text
    max_pages: int
    max_unpacked_bytes: int
    ocr: bool
    ocr_language: str

    @classmethod
    def of(cls, settings: LoadSettings) -> ReadLimits:
        return cls(
            max_text_chars=settings.max_document_bytes,
            max_pages=settings.max_pages,
            max_unpacked_bytes=settings.max_unpacked_bytes,
            ocr=settings.ocr,
            ocr_language=settings.ocr_language,
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
