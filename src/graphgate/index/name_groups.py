"""Mentions grouped by normalised name, and clusters of names made entities, column by column.

Blocking on a normalised name makes a group per distinct key; merges (by embedding, by the
user's edits) join groups into clusters, and each cluster is an entity. A Python record per
group held counters and sets for every name of the corpus; here a group is an integer code and
its facts are Arrow columns or NumPy arrays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.text import normalise_name
from graphgate.core.types import SCHEMAS, Entity
from graphgate.index.columnar import Codes, encode, grouped_lists, value_ranks
from graphgate.index.edges import clipped


@dataclass(frozen=True)
class NameGroups:
    """The mentions with a name key (``rows``), each row's group code (``group``), and the
    keys, numbered in order of first appearance."""

    rows: pa.Table
    group: Codes
    keys: list[str]

    def types(self) -> list[str]:
        """Each group's type: its mentions' most frequent (ties: the first in sort order)."""
        codes, types = encode(self.rows["type"])
        return [str(t) for t in top_values(self.group, codes, types, len(self.keys)).to_pylist()]

    def chunk_lists(self) -> pa.ListArray:
        """Each group's chunk ids, sorted."""
        codes, chunks = encode(self.rows["chunk_id"])
        return grouped_lists(self.group, codes, chunks, len(self.keys))


def group_names(mentions: pa.Table) -> NameGroups:
    """Mentions by normalised name (a name that normalises to nothing is dropped)."""
    names = mentions["name"].combine_chunks().unique()
    keys = pa.array([normalise_name(n) for n in names.to_pylist()], pa.string())
    row_keys = keys.take(pc.index_in(mentions["name"], value_set=names))
    kept = pc.not_equal(row_keys, "")
    if kept.null_count == 0 and pc.all(kept).as_py() is not False:  # usual: no copy
        rows = mentions
    else:
        rows, row_keys = mentions.filter(kept), row_keys.filter(kept)
    group, distinct = encode(row_keys)
    return NameGroups(rows, group, distinct.to_pylist())


def top_values(
    groups: Codes, values: Codes, dictionary: pa.Array, n_groups: int, longest_first: bool = False
) -> pa.Array:
    """Each group's most frequent value; ties go to the longer one (with ``longest_first``),
    then to the first in sort order."""
    width = max(len(dictionary), 1)
    ranks = value_ranks(dictionary)
    pairs, counts = np.unique(groups * width + values, return_counts=True)
    group_of, value_of = pairs // width, pairs % width
    order_keys: list[Codes] = [ranks[value_of]]
    if longest_first:
        lengths = pc.utf8_length(dictionary).to_numpy(zero_copy_only=False).astype(np.int64)
        order_keys.append(-lengths[value_of])
    order = np.lexsort((*order_keys, -counts, group_of))
    first = np.unique(group_of[order], return_index=True)[1]
    return dictionary.take(pa.array(value_of[order][first]))


def entity_table(
    groups: NameGroups,
    head: Mapping[str, str],
    renamed: Mapping[str, str],
    curated: Mapping[str, Sequence[str]],
    n_sentences: int,
) -> tuple[pa.Table, list[str]]:
    """An entity per cluster (``head``: name key -> the key that labels its cluster), in
    label order, and the labels. The entity's name is its label group's most frequent surface
    form (or ``renamed``'s), its type the cluster's most frequent, its aliases every other
    surface form and ``curated`` name, its description the first ``n_sentences`` distinct
    sentences of its groups (the label's first, then the others' in key order)."""
    labels = sorted(set(head[k] for k in groups.keys))
    number = {label: i for i, label in enumerate(labels)}
    key_index = {key: i for i, key in enumerate(groups.keys)}
    cluster_of_key = np.array([number[head[k]] for k in groups.keys], dtype=np.int64)
    label_key = np.array([key_index[label] for label in labels], dtype=np.int64)
    n = len(labels)
    cluster = cluster_of_key[groups.group]
    rows = groups.rows
    surface_codes, surfaces = encode(rows["name"])
    in_label = groups.group == label_key[cluster]
    names = top_values(
        cluster[in_label], surface_codes[in_label], surfaces, n, longest_first=True
    ).to_pylist()
    for label, name in renamed.items():
        if label in number:
            names[number[label]] = name
    type_codes, types = encode(rows["type"])
    chunk_codes, chunk_ids = encode(rows["chunk_id"])
    doc_codes, doc_ids = encode(rows["doc_id"])
    columns = {
        "id": pa.array([entity_id(label) for label in labels], pa.string()),
        "name": pa.array(names, pa.string()),
        "type": top_values(cluster, type_codes, types, n),
        "description": _descriptions(groups, cluster_of_key, label_key, n, n_sentences),
        "aliases": _aliases(cluster, surface_codes, surfaces, names, number, curated),
        "mention_count": pa.array(np.bincount(cluster, minlength=n).astype(np.int64)),
        "chunk_ids": grouped_lists(cluster, chunk_codes, chunk_ids, n),
        "doc_ids": grouped_lists(cluster, doc_codes, doc_ids, n),
    }
    return pa.table(columns).cast(SCHEMAS[Entity]), labels


def entity_id(key: str) -> str:
    return "e_" + hashlib.sha256(key.encode()).hexdigest()[:16]


def _aliases(
    cluster: Codes,
    surface_codes: Codes,
    surfaces: pa.Array,
    names: list[str],
    number: Mapping[str, int],
    curated: Mapping[str, Sequence[str]],
) -> pa.ListArray:
    """Each cluster's surface forms and curated names, sorted, without its name (``number``:
    a cluster's label -> its position)."""
    extra = [(number[label], s) for label, more in curated.items() if label in number for s in more]
    if extra:
        surfaces = pa.concat_arrays([surfaces, pa.array([s for _, s in extra], pa.string())])
        at = len(surfaces) - len(extra)
        surface_codes = np.concatenate(
            [surface_codes, np.arange(at, at + len(extra), dtype=np.int64)]
        )
        cluster = np.concatenate([cluster, np.array([c for c, _ in extra], dtype=np.int64)])
    lists = grouped_lists(cluster, surface_codes, surfaces, len(names))
    parents = pc.list_parent_indices(lists)
    values = pc.list_flatten(lists)
    own = pa.array(names, pa.string()).take(parents)
    keep = pc.not_equal(values, own)
    counts = np.bincount(parents.filter(keep).to_numpy(), minlength=len(names))
    offsets = np.zeros(len(names) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values.filter(keep))


def _descriptions(
    groups: NameGroups, cluster_of_key: Codes, label_key: Codes, n: int, n_sentences: int
) -> pa.Array:
    """The first ``n_sentences`` distinct sentences of each cluster: its label group's first,
    then each other group's (in key order) that are new; clipped and joined."""
    codes, sentences = encode(groups.rows["sentence"])
    n_keys = len(groups.keys)
    per_key = grouped_lists(
        groups.group, codes, pa.array(np.arange(len(sentences))), n_keys, "first", n_sentences
    )
    key_of = pc.list_parent_indices(per_key).to_numpy().astype(np.int64)
    sentence_of = pc.list_flatten(per_key).to_numpy().astype(np.int64)
    position = np.arange(len(key_of)) - np.searchsorted(key_of, key_of, side="left")
    cluster = cluster_of_key[key_of]
    not_label = (key_of != label_key[cluster]).astype(np.int64)
    key_rank = value_ranks(pa.array(groups.keys, pa.string()))[key_of]
    order = np.lexsort((position, key_rank, not_label, cluster))
    width = max(len(sentences), 1)
    pair = cluster[order] * width + sentence_of[order]
    first = np.sort(np.unique(pair, return_index=True)[1])
    chosen = order[first]  # in cluster order, each cluster's sentences in their order
    chosen_cluster = cluster[chosen]
    rank = np.arange(len(chosen)) - np.searchsorted(chosen_cluster, chosen_cluster, side="left")
    keep = rank < n_sentences
    chosen, chosen_cluster = chosen[keep], chosen_cluster[keep]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(chosen_cluster, minlength=n), out=offsets[1:])
    values = clipped(sentences).take(pa.array(sentence_of[chosen]))
    lists = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values)
    return pc.binary_join(lists, " ")
