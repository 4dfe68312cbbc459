"""The embedded store written by a process of its own, which ends when it is written.

LadybugDB's bulk load holds several times the bytes it copies until the database closes, and
the C heap keeps much of it after (``store.write_process_above`` has the figures' source:
``benchmarks/scale.py``). A process that ends gives all of it back: the indexing process, or
a server that applies a corpus change, keeps only its own memory. The writer reads the run's
artifacts itself (the graph stage's tables are those artifacts), so no table crosses
processes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pyarrow as pa

from graphgate.core.errors import WorkerDiedError
from graphgate.core.memory import own_peak_rss_mb
from graphgate.core.runs import ArtifactTables, Run
from graphgate.core.workers import BackgroundProcess
from graphgate.store.base import STORE_OPTIONAL, STORE_REQUIRED, BuiltAhead
from graphgate.store.build import KEYWORD_AHEAD, write_store
from graphgate.store.read_tables import write_read_tables


def write_embedded(
    run: Run,
    tables: Mapping[str, pa.Table],
    exact_below: int,
    context_fields: Sequence[str],
    built_ahead: BuiltAhead,
) -> dict[str, int]:
    """The graph, its search indexes and the read model's tables, in this process."""
    counts = write_store(run.store_dir, tables, exact_below, context_fields, built_ahead)
    write_read_tables(run)
    return counts


def _write_in_worker(
    run_id: str, run_path: str, exact_below: int, context_fields: list[str], built: list[str]
) -> tuple[dict[str, int], float | None]:
    """The worker's job (module level: it travels by name): the counts, and its peak RSS."""
    run = Run(run_id, Path(run_path))
    counts = write_embedded(
        run,
        ArtifactTables(run, STORE_REQUIRED, STORE_OPTIONAL),
        exact_below,
        context_fields,
        built.__contains__,
    )
    return counts, own_peak_rss_mb()


def write_embedded_apart(
    run: Run, exact_below: int, context_fields: Sequence[str], built_ahead: BuiltAhead
) -> tuple[dict[str, int], float | None]:
    """:func:`write_embedded` of the run's artifacts in a spawned process: the counts and the
    process's peak RSS (MB; what the run's memory figures would otherwise miss). Its error is
    raised here. A writer that dies (killed, out of memory) fails the write: the run does
    not become current, and the index in use is untouched."""
    built = [kind for kind in KEYWORD_AHEAD if built_ahead(kind)]
    worker = BackgroundProcess()
    try:
        job = worker.submit(
            _write_in_worker,
            run.run_id,
            str(run.path),
            exact_below,
            list(context_fields),
            built,
        )
        done = worker.wait(job)
    finally:
        worker.close()
    if done is None:
        raise WorkerDiedError(
            "the process writing the graph store ended before it finished (killed, or out of "
            "memory); the run was not made current and the index in use is unchanged",
            "run it again; if the machine ran out of memory, free some, or index into a "
            'FalkorDB server (store.backend = "falkordb")',
        )
    return done
