"""Running a checked read query against a run's graph, within a row and a time limit."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from graphgate.errors import GraphgateError, InputError
from graphgate.query.cypher_guard import check_read_only, with_row_limit
from graphgate.store.base import GraphStore
from graphgate.types import column_values


@dataclass
class CypherResult:
    columns: list[str]
    rows: list[dict[str, Any]]
    truncated: bool  # more rows matched than query.cypher_max_rows
    seconds: float
    run_id: str = ""
    executed: str = ""  # the statement as run (with the row limit appended)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def run_read_query(
    store: GraphStore,
    query: str,
    params: dict[str, Any] | None,
    max_rows: int,
    timeout_s: float,
) -> CypherResult:
    """``query`` after :func:`check_read_only`, on the store's read-only connection."""
    found = check_read_only(query)
    executed = with_row_limit(query, found, max_rows)
    started = time.perf_counter()
    try:
        table = store.cypher(executed, params or {}, timeout_s)
    except GraphgateError:  # refusals and timeouts already say what and why
        raise
    except Exception as exc:  # the database's own refusal: a syntax error, an unknown name
        raise InputError(
            f"the database refused the query: {str(exc).strip()[:500]}",
            "check labels, properties and syntax against `graphgate cypher --schema`",
        ) from None
    seconds = time.perf_counter() - started
    columns = list(table.column_names)
    values = [column_values(table.column(c)) for c in columns]
    rows = [dict(zip(columns, row, strict=True)) for row in zip(*values, strict=True)]
    truncated = len(rows) > max_rows
    return CypherResult(columns, rows[:max_rows], truncated, seconds, executed=executed)
