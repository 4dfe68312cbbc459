"""Spreadsheets: Excel (.xlsx) through openpyxl and CSV through the standard library. Each
sheet is a section, each row one paragraph with its header ("Name: Bob; Role: clerk"), so a
cell that search finds still says which column it is."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from graphgate.index.formats.layout import (
    FormatProblem,
    ParsedDocument,
    TextBuilder,
    opened,
    table_lines,
)
from graphgate.index.formats.limits import ReadLimits
from graphgate.index.formats.word import core_properties


def read_xlsx(path: Path, limits: ReadLimits) -> ParsedDocument:
    import openpyxl

    book = opened(
        lambda: openpyxl.load_workbook(str(path), read_only=True, data_only=True),
        "an Excel workbook",
        "Excel",
    )
    builder = TextBuilder(limits.max_text_chars)
    try:
        for sheet in book.worksheets:
            rows = [
                ["" if value is None else str(value) for value in row]
                for row in sheet.iter_rows(values_only=True)
            ]
            lines = table_lines(rows)
            if lines:
                builder.heading(str(sheet.title), 1)
                for line in lines:
                    builder.paragraph(line)
        metadata = core_properties(book.properties)
    finally:
        book.close()
    return builder.build(metadata.pop("title", ""), metadata)


def read_csv(text: str, limits: ReadLimits) -> ParsedDocument:
    """A CSV table (its dialect sniffed: commas, semicolons, tabs) as header-named rows."""
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:8192], ",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = list(csv.reader(io.StringIO(text), dialect))
    except csv.Error as exc:
        raise FormatProblem(
            f"it cannot be read as CSV ({exc})", "fix the quoting, or skip it"
        ) from exc
    builder = TextBuilder(limits.max_text_chars)
    for line in table_lines(rows):
        builder.paragraph(line)
    return builder.build()
