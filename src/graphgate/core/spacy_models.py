"""Loading the configured spaCy model, for the extractor, entity linking and predicate
matching alike: one message when it is missing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphgate.core.errors import ConfigError


def load_spacy(model: str, purpose: str, disable: Sequence[str] = ()) -> Any:
    """The spaCy pipeline ``model`` (``disable``: components not needed for ``purpose``)."""
    import spacy

    try:
        return spacy.load(model, disable=list(disable))
    except OSError as exc:
        raise ConfigError(
            f"spaCy model {model!r} for {purpose} is not installed",
            "run `make install`, or set GRAPHGATE_EXTRACT__SPACY_MODEL",
        ) from exc
