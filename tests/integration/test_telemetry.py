"""OpenTelemetry spans: one per index stage and per query step, with counts and ids and never
text, made from the same measurements as the report's seconds and the answer's timings; sent
over OTLP/HTTP to a collector on loopback when ``telemetry.otlp_endpoint`` is set."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the telemetry extra is not installed")

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
)
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)

from graphgate import Workspace
from graphgate.core.telemetry import Telemetry
from graphgate.query.events import Answered

QUESTION = "Who does Bob Cratchit work for?"


@pytest.fixture()
def spans() -> Iterator[tuple[Telemetry, InMemorySpanExporter]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield Telemetry(provider), exporter
    provider.shutdown()


def _ms(span: ReadableSpan) -> float:
    assert span.start_time is not None and span.end_time is not None
    return (span.end_time - span.start_time) / 1e6


def _no_text(finished: tuple[ReadableSpan, ...], texts: list[str]) -> None:
    for span in finished:
        for value in (span.attributes or {}).values():
            assert not any(t in str(value) for t in texts if len(t) > 8), (span.name, value)


def test_a_span_per_index_stage_with_the_report_s_seconds(
    spans: tuple[Telemetry, InMemorySpanExporter], small_corpus: Path, tmp_path: Path
) -> None:
    telemetry, exporter = spans
    with Workspace(tmp_path / "ws", tracing=telemetry) as ws:
        report = ws.index(small_corpus)
        names = ws.pipelines["graph"].stage_names()
    finished = exporter.get_finished_spans()
    root = next(s for s in finished if s.name == "graphgate.index")
    assert root.attributes is not None and root.attributes["run_id"] == report.run_id
    stages = [s for s in finished if s.name.startswith("index.")]
    assert [s.name for s in stages] == [f"index.{n}" for n in names]
    for span, stage in zip(stages, report.stages, strict=True):
        assert span.parent is not None and span.parent.span_id == root.context.span_id
        assert span.attributes is not None and span.attributes["stage"] == stage.name
        assert _ms(span) == pytest.approx(stage.seconds * 1000, abs=1e-3)
        for table, rows in stage.rows.items():
            assert span.attributes[f"rows.{table}"] == rows
    assert _ms(root) == pytest.approx(report.seconds * 1000, abs=1e-3)
    texts = [p.read_text() for p in small_corpus.iterdir()]
    _no_text(finished, [line for t in texts for line in t.split(".")])


@pytest.mark.parametrize("streamed", [False, True])
def test_a_span_per_query_step_with_the_answer_s_timings(
    spans: tuple[Telemetry, InMemorySpanExporter],
    small_workspace_path: Path,
    streamed: bool,
) -> None:
    telemetry, exporter = spans
    with Workspace(small_workspace_path, tracing=telemetry) as ws:
        if streamed:
            last = list(ws.query_stream(QUESTION, mode="hybrid"))[-1]
            assert isinstance(last, Answered)
            answer = last.answer
        else:
            answer = ws.query(QUESTION, mode="hybrid")
    finished = exporter.get_finished_spans()
    by_name = {s.name: s for s in finished}
    root, retrieve, generate = (
        by_name["graphgate.query"], by_name["retrieve"], by_name["answer"]
    )  # fmt: skip
    attributes = dict(root.attributes or {})
    assert attributes["mode"] == "hybrid" and attributes["run_id"] == answer.run_id
    assert attributes["streamed"] is streamed
    assert retrieve.parent is not None and retrieve.parent.span_id == root.context.span_id
    assert generate.parent is not None and generate.parent.span_id == root.context.span_id
    steps = dict(retrieve.attributes or {})
    assert steps["chunks"] == len(answer.retrieval.chunks) > 0
    assert steps["entities"] == len(answer.retrieval.entities)
    assert (generate.attributes or {})["citations"] == len(answer.citations)
    # The answer's timings are the spans' lengths.
    assert _ms(root) == pytest.approx(answer.timings_ms["total"], abs=1e-3)
    assert _ms(retrieve) == pytest.approx(answer.timings_ms["retrieve"], abs=1e-3)
    assert _ms(generate) == pytest.approx(answer.timings_ms["answer"], abs=1e-3)
    subs = {k.removeprefix("retrieve."): v for k, v in answer.timings_ms.items() if "." in k}
    assert subs and {f"retrieve.{k}" for k in subs} <= set(by_name)
    for sub, ms in subs.items():
        span = by_name[f"retrieve.{sub}"]
        assert span.parent is not None and span.parent.span_id == retrieve.context.span_id
        assert _ms(span) == pytest.approx(ms, abs=1e-3)
    chunk_texts = [c.text for c in answer.retrieval.chunks]
    _no_text(finished, [QUESTION, *[s for t in chunk_texts for s in t.split(".")]])


def test_without_an_endpoint_there_are_no_spans(small_workspace_path: Path) -> None:
    with Workspace(small_workspace_path) as ws:
        answer = ws.query(QUESTION, mode="vector")
        telemetry = ws.parts.telemetry
    assert not telemetry.enabled and telemetry.provider is None
    assert {"retrieve", "answer", "total"} <= set(answer.timings_ms)


class _Collector(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[str, bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_spans_are_exported_over_otlp_to_the_configured_endpoint(
    small_workspace_path: Path,
) -> None:
    _Collector.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{server.server_address[1]}/v1/traces"
    try:
        telemetry = {"otlp_endpoint": endpoint, "service_name": "graphgate-test"}
        with Workspace(small_workspace_path, telemetry=telemetry) as ws:
            ws.query(QUESTION, mode="local")
        # Closing the workspace flushed the batch.
    finally:
        server.shutdown()
        server.server_close()
    assert _Collector.received and all(p == "/v1/traces" for p, _ in _Collector.received)
    names, services = set(), set()
    for _, body in _Collector.received:
        request = ExportTraceServiceRequest.FromString(body)
        for resource_spans in request.resource_spans:
            for attribute in resource_spans.resource.attributes:
                if attribute.key == "service.name":
                    services.add(attribute.value.string_value)
            for scope in resource_spans.scope_spans:
                names |= {span.name for span in scope.spans}
    assert {"graphgate.query", "retrieve", "answer"} <= names
    assert services == {"graphgate-test"}
