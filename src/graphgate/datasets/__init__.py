"""Converters from public benchmark formats to a graphgate corpus (JSONL) and test set (JSONL)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphgate.datasets.base import ConvertedDataset
from graphgate.datasets.graphrag_bench import convert_graphrag_bench
from graphgate.datasets.hotpotqa import convert_hotpotqa
from graphgate.datasets.multihop_rag import convert_multihop_rag
from graphgate.datasets.ramdocs import convert_ramdocs
from graphgate.datasets.timeqa import convert_timeqa

CONVERTERS: dict[str, Callable[[Path, Path], ConvertedDataset]] = {
    "hotpotqa": convert_hotpotqa,
    "multihop-rag": convert_multihop_rag,
    "graphrag-bench": convert_graphrag_bench,
    "timeqa": convert_timeqa,
    "ramdocs": convert_ramdocs,
}

__all__ = ["CONVERTERS", "ConvertedDataset"]
