"""PowerPoint (.pptx) through python-pptx: one page per slide, the slide title as its
section, text frames, tables and speaker notes as paragraphs, core properties as metadata."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphgate.index.formats.layout import (
    FormatProblem,
    ParsedDocument,
    TextBuilder,
    opened,
    table_lines,
)
from graphgate.index.formats.limits import ReadLimits
from graphgate.index.formats.word import core_properties


def read_pptx(path: Path, limits: ReadLimits) -> ParsedDocument:
    import pptx

    deck = opened(lambda: pptx.Presentation(str(path)), "a PowerPoint deck", "PowerPoint")
    builder = TextBuilder(limits.max_text_chars)
    if len(deck.slides) > limits.max_pages:
        raise FormatProblem(
            f"{len(deck.slides)} slides is over load.max_pages ({limits.max_pages})",
            "split the deck, or raise GRAPHGATE_LOAD__MAX_PAGES",
        )
    for number, slide in enumerate(deck.slides, start=1):
        builder.new_page()
        title_shape = slide.shapes.title
        title = str(title_shape.text_frame.text) if title_shape is not None else ""
        if title.strip():
            builder.heading(title, 1)
        else:
            builder.heading_here(f"Slide {number}", 1)
        for shape in slide.shapes:
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            _add_shape(builder, shape)
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            if notes is not None and notes.text.strip():
                builder.paragraph(notes.text)
    metadata = core_properties(deck.core_properties)
    return builder.build(metadata.pop("title", ""), metadata)


def _add_shape(builder: TextBuilder, shape: Any) -> None:
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
        for line in table_lines(rows):
            builder.paragraph(line)
    elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        for paragraph in shape.text_frame.paragraphs:
            builder.paragraph("".join(run.text for run in paragraph.runs))
    elif hasattr(shape, "shapes"):  # a group
        for inner in shape.shapes:
            _add_shape(builder, inner)
