"""Errors a user can act on: each names the problem and the fix."""

from __future__ import annotations


class GraphgateError(Exception):
    """Base error; ``fix`` tells the user what to do next."""

    def __init__(self, problem: str, fix: str = "") -> None:
        self.problem = problem
        self.fix = fix
        super().__init__(f"{problem}" + (f" — fix: {fix}" if fix else ""))


class InputError(GraphgateError):
    """The corpus or a question cannot be read as given."""


class NotFoundError(InputError):
    """An id (entity, community, chunk, document, run, evaluation) names nothing here."""


class DocumentNotFoundError(NotFoundError):
    """An update names a document id the current run does not hold."""


class ConfigError(GraphgateError):
    """Settings are inconsistent or a configured part cannot be built."""


class IndexMissingError(GraphgateError):
    """The workspace has no complete index run to answer from."""


class EmbeddingMismatchError(GraphgateError):
    """Vectors in the store were made by another model or dimension."""


class ExtractionFailedError(GraphgateError):
    """A run's extraction failed too often (or found nothing): it must not become current."""


class RunStateError(GraphgateError):
    """The run is not in a state for this (still running, interrupted, not complete)."""


class StoreUnavailableError(GraphgateError):
    """The graph-database server cannot be reached (HTTP 503: try again later)."""


class QueryTimeoutError(InputError):
    """A query ran past its time limit and was stopped (nothing was changed)."""


class WorkerDiedError(GraphgateError):
    """A worker process died during a run (killed, out of memory): the run fails cleanly."""


class WriteConflictError(GraphgateError):
    """Another writer holds the workspace past the wait allowed (HTTP 409): nothing changed."""
