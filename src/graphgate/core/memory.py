"""Handing freed memory back to the system between the stages of a long run.

A stage builds and drops objects by the hundred thousand; without this the process keeps its
high-water mark for the rest of the run (glibc keeps freed heap pages, Arrow's allocator keeps
its pools), and each stage's peak stacks on the last one's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import sys
from collections.abc import Callable

import pyarrow as pa


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (None elsewhere: musl, macOS)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def release_memory() -> None:
    """Collect the young generations' cycles (a stage's own garbage: a full collection walks
    every object of the process, a tenth of a second per stage in a long-lived one), then
    return the free pages of Arrow's pool and of the C heap."""
    gc.collect(1)
    pa.default_memory_pool().release_unused()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def peak_rss_mb() -> float | None:
    """This process's peak resident memory so far, in MB (None where the platform has no
    ``getrusage``). It never goes down: the stage that raised it is the first to show it."""
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux counts kilobytes, macOS bytes.
    return round(peak / (1 << 20) if sys.platform == "darwin" else peak / 1024, 1)


def own_peak_rss_mb() -> float | None:
    """This process's own peak resident memory, MB: the kernel's ``VmHWM`` where there is
    one. A spawned process is forked before it runs a new program, and ``getrusage`` keeps the
    larger peak across that, so it reports at least the RSS of the process that started it;
    ``VmHWM`` counts only the new program's pages."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return peak_rss_mb()


def use_arrow_allocator(choice: str) -> None:
    """``index.arrow_allocator``: "system" makes the C heap Arrow's default pool for this
    process (tables already made keep the pool they came from); "unchanged" leaves it."""
    if choice == "system" and pa.default_memory_pool().backend_name != "system":
        pa.set_memory_pool(pa.system_memory_pool())
