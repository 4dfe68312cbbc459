"""One schema: the records in types.py declare every table; Parquet and the graph agree."""

from __future__ import annotations

import dataclasses

from graphgate import Workspace
from graphgate.core.types import GRAPH_TABLE, GRAPH_TABLES, SCHEMAS, Chunk, Entity, Relationship


def test_arrow_schemas_follow_the_record_fields() -> None:
    for cls, schema in SCHEMAS.items():
        assert schema.names == [f.name for f in dataclasses.fields(cls)], cls
    assert str(SCHEMAS[Entity].field("aliases").type) == "list<item: string>"
    assert str(SCHEMAS[Relationship].field("weight").type) == "double"


def test_graph_tables_rename_cypher_words_and_drop_what_the_graph_does_not_hold() -> None:
    chunk = dict(GRAPH_TABLE["Chunk"].columns())
    assert {"position", "start_char", "end_char"} <= set(chunk) and "index" not in chunk
    assert len(chunk) == len(dataclasses.fields(Chunk))
    assert "text" not in dict(GRAPH_TABLE["Document"].columns())
    related = GRAPH_TABLE["RELATED"]
    assert related.ends == ("Entity", "Entity") and "source_id" not in dict(related.columns())


def test_the_database_holds_exactly_the_declared_tables(small_workspace: Workspace) -> None:
    store = small_workspace.loaded().store
    for table in GRAPH_TABLES:
        rows = store.cypher(f"CALL table_info('{table.label}') RETURN *").to_pylist()
        assert [(r["name"], r["type"]) for r in rows] == table.columns(), table.label


def test_reading_columns_through_numpy_keeps_values_types_and_missing_values() -> None:
    import pyarrow as pa

    from graphgate.core.types import column_values

    columns = [
        pa.chunked_array([["a", None], ["b"]]),
        pa.chunked_array([[1.5, None]]),  # a missing number stays None, never NaN
        pa.chunked_array([[1, 2]], pa.int64()),
        pa.chunked_array([[True, None]]),
        pa.chunked_array([[["x", "y"], [], None]], pa.list_(pa.string())),
        pa.chunked_array([[["w"]], [["x"], ["y", None]]]).slice(1, 2),
        pa.chunked_array([], pa.list_(pa.string())),
    ]
    for column in columns:
        values = column_values(column)
        assert values == column.to_pylist()
        assert [type(v) for v in values] == [type(v) for v in column.to_pylist()]
