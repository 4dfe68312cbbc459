"""/metrics reads the graph's structure once per run, and again when another run is current."""

from __future__ import annotations

import pytest

from graphgate import Workspace
from graphgate.serve.metrics import ServerMetrics


def _value(metrics: ServerMetrics, name: str, **labels: str) -> float:
    value = metrics.registry.get_sample_value(name, labels or None)
    assert value is not None
    return value


def test_structure_once_per_run_and_again_for_a_new_one(
    small_workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    metrics = ServerMetrics()
    metrics.refresh(small_workspace)
    relationships = _value(metrics, "graphgate_relationship_total")
    assert relationships == len(small_workspace.loaded().store.relationships()) > 0
    store = small_workspace.loaded().store

    def refuse() -> None:
        raise AssertionError("the structure was read again for the same run")

    monkeypatch.setattr(store, "relationships", refuse)
    metrics.refresh(small_workspace)  # the same run: nothing read again
    monkeypatch.undo()
    small_workspace.add_documents(
        [
            {
                "id": "ledger.txt",
                "text": "Agnes Wickfield keeps the ledger of Wickfield and Heep in Canterbury. "
                "Uriah Heep works for Agnes Wickfield's father in Canterbury.",
            }
        ]
    )
    metrics.refresh(small_workspace)
    assert _value(metrics, "graphgate_relationship_total") == len(
        small_workspace.loaded().store.relationships()
    )
    assert _value(metrics, "graphgate_relationship_total") != relationships
