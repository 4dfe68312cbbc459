"""Running a checked read query against a run's graph, within a row, a byte and a time limit.

The limits hold on what comes back, not on what the statement says: rows are read from the
database one at a time and counted, their size as JSON is added up, and the clock covers the
database, the reading and the conversion, so no statement (a LIMIT hidden in a WITH, a
million-character string repeated) makes an answer larger or longer than the settings allow.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from graphgate.core.errors import GraphgateError, InputError, QueryTimeoutError
from graphgate.query.cypher_guard import check_read_only, with_row_limit
from graphgate.store.base import GraphStore


@dataclass
class CypherResult:
    columns: list[str]
    rows: list[dict[str, Any]]
    truncated: bool  # more rows matched than query.cypher_max_rows, or than cypher_max_bytes
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
    max_bytes: int = 10_000_000,
) -> CypherResult:
    """``query`` after :func:`check_read_only`, on the store's read-only connection: at most
    ``max_rows`` rows and ``max_bytes`` bytes of them (as JSON), within ``timeout_s`` in all."""
    found = check_read_only(query)
    executed = with_row_limit(query, found, max_rows)
    started = time.perf_counter()
    deadline = started + timeout_s
    try:
        result = store.cypher_rows(executed, params or {}, timeout_s)
    except GraphgateError:  # refusals and timeouts already say what and why
        raise
    except Exception as exc:  # the database's own refusal: a syntax error, an unknown name
        raise InputError(
            f"the database refused the query: {str(exc).strip()[:500]}",
            "check labels, properties and syntax against `graphgate cypher --schema`",
        ) from None
    columns = result.columns
    rows: list[dict[str, Any]] = []
    size, truncated, notes = 2, False, []
    try:
        for values in result.rows:
            if time.perf_counter() > deadline:
                raise QueryTimeoutError(
                    f"reading the answer ran past {timeout_s:g} s and was stopped",
                    "return fewer or smaller values (query.cypher_timeout_s sets the limit)",
                )
            if len(rows) == max_rows:
                truncated = True
                break
            row = dict(zip(columns, values, strict=True))
            size += len(json.dumps(row, default=str, ensure_ascii=False).encode()) + 1
            if size > max_bytes:
                truncated = True
                notes.append(
                    f"stopped after {len(rows)} rows: the next would take the answer past "
                    f"query.cypher_max_bytes ({max_bytes} bytes)"
                )
                break
            rows.append(row)
    finally:
        close = getattr(result.rows, "close", None)
        if close is not None:
            close()  # the database's result is released, read to the end or not
    seconds = time.perf_counter() - started
    return CypherResult(columns, rows, truncated, seconds, executed=executed, notes=notes)
