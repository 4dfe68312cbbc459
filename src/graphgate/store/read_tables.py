"""The tables the embedded read model answers from, as memory-mapped Arrow files.

Written once per run into its store folder (``read/``: uncompressed Arrow IPC, one record
batch per table), by the graph stage or, for a run indexed before they existed, by the first
process that opens the run. Mapped, not read: a query's pages come from the file when it
touches them, the operating system drops them under pressure, and every ``serve --workers``
process shares one copy. Where the folder cannot be written (a read-only workspace) the
tables are read into memory instead.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc

from graphgate.core.runs import Run

READ_DIR = "read"
# The run's artifacts the read model maps, with the columns it needs (None: all of them).
READ_TABLES: Mapping[str, tuple[str, ...] | None] = {
    "chunks": None,
    "chunk_vectors": None,
    "entities": None,
    "relationships": None,
    "communities": None,
    "community_reports": None,
    "documents": ("id", "title", "metadata_json"),
}


def _artifact(run: Run, name: str) -> pa.Table:
    columns = READ_TABLES[name]
    if columns is not None and run.has_artifact(name):
        return run.read_artifact(name, columns)
    return run.read_or_empty(name)


def write_read_tables(run: Run) -> None:
    """The run's ``read/`` folder, unless there is one; written beside it and renamed into
    place, so a reader sees all of it or none, and of two writers one wins."""
    target = run.store_dir / READ_DIR
    if target.exists():
        return
    run.store_dir.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".read-", dir=run.store_dir))
    try:
        for name in READ_TABLES:
            table = _artifact(run, name).combine_chunks()
            with ipc.new_file(partial / f"{name}.arrow", table.schema) as writer:
                writer.write_table(table, max_chunksize=max(table.num_rows, 1))
            del table
        os.rename(partial, target)
    except OSError:
        if not target.exists():
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def read_tables(run: Run) -> dict[str, pa.Table]:
    """What the read model needs of ``run``: mapped from ``read/`` (written first if missing),
    or read into memory where it cannot be written."""
    try:
        write_read_tables(run)
    except OSError:
        return {name: _artifact(run, name) for name in READ_TABLES}
    folder = run.store_dir / READ_DIR
    return {
        name: ipc.open_file(pa.memory_map(str(folder / f"{name}.arrow"))).read_all()
        for name in READ_TABLES
    }
