"""OpenTelemetry spans for index stages and query steps, made from the same measurements as
the timings reports and answers carry (``StageReport.seconds``, ``Answer.timings_ms``).

Nothing is global: a :class:`Telemetry` holds its own tracer provider (built from
``telemetry.otlp_endpoint``, or given, as tests give an in-memory exporter's), and parents are
passed explicitly, so a streamed answer read on several threads keeps one trace. Without a
provider a step costs what timing it costs anyway: two clock reads. Attributes are names,
counts, ids and timings, never document text, questions or tokens.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from graphgate.core.config_serve import TelemetrySettings
from graphgate.core.errors import ConfigError

Attribute = str | int | float | bool


class Telemetry:
    def __init__(self, provider: Any | None = None) -> None:
        """``provider``: an OpenTelemetry SDK ``TracerProvider``; None: no spans."""
        self.provider = provider
        self._tracer = provider.get_tracer("graphgate") if provider is not None else None

    @property
    def enabled(self) -> bool:
        return self._tracer is not None

    @classmethod
    def from_settings(cls, settings: TelemetrySettings) -> Telemetry:
        if settings.otlp_endpoint is None:
            return cls()
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor
        except ImportError as exc:
            raise ConfigError(
                "telemetry.otlp_endpoint is set but the OpenTelemetry SDK is not installed",
                "pip install 'graphgate[telemetry]', or unset GRAPHGATE_TELEMETRY__OTLP_ENDPOINT",
            ) from exc
        provider = TracerProvider(resource=Resource.create({"service.name": settings.service_name}))
        provider.add_span_processor(
            BatchSpanProcessor(OTLPSpanExporter(endpoint=settings.otlp_endpoint))
        )
        return cls(provider)

    def steps(self, name: str, **attributes: Attribute) -> Steps:
        """The root of one operation (an index run, a query): started now, ended by
        :meth:`Steps.end`."""
        return Steps(self, name, None, attributes)

    def shutdown(self) -> None:
        """Export what is still batched (a process about to exit)."""
        if self.provider is not None:
            self.provider.shutdown()


class Steps:
    """One timed operation and its steps: each step's milliseconds land in :attr:`ms`, and,
    with telemetry on, each step is a span under this one with the same start and end."""

    def __init__(
        self,
        telemetry: Telemetry,
        name: str,
        parent: Any | None,
        attributes: Mapping[str, Attribute],
        start_ns: int | None = None,
        anchor: int | None = None,
    ) -> None:
        self.telemetry = telemetry
        self.name = name
        self.ms: dict[str, float] = {}
        # Durations from the monotonic clock; span times on the wall clock through one anchor
        # (a root's, shared by its steps).
        self._anchor = time.time_ns() - time.perf_counter_ns() if anchor is None else anchor
        self.start_ns = time.perf_counter_ns() if start_ns is None else start_ns
        self._span: Any = None
        tracer = telemetry._tracer
        if tracer is not None:
            context = None
            if parent is not None:
                from opentelemetry import trace

                context = trace.set_span_in_context(parent)
            self._span = tracer.start_span(
                name, context, attributes=dict(attributes), start_time=self._anchor + self.start_ns
            )

    @contextmanager
    def step(self, name: str, **attributes: Attribute) -> Iterator[Steps]:
        """Times the block as step ``name``; the yielded :class:`Steps` takes sub-steps and
        attributes (``child.set(...)``) while it runs."""
        started = time.perf_counter_ns()
        child = (
            Steps(self.telemetry, name, self._span, attributes, started, self._anchor)
            if self.enabled
            else None
        )
        try:
            yield child if child is not None else _Quiet(self.telemetry)
        except BaseException as exc:
            if child is not None:
                child.error(exc)
            raise
        finally:
            ended = time.perf_counter_ns()
            self.ms[name] = (ended - started) / 1e6
            if child is not None:
                child.end(ended)

    def record(self, durations_ms: Mapping[str, float]) -> None:
        """Sub-steps measured elsewhere (a retriever's ``timings_ms``) as spans of their
        length under this step, one after another from its start (their order is the
        retriever's; their lengths are exact, their placement is not)."""
        if not self.enabled:
            return
        cursor = self.start_ns
        for sub, ms in durations_ms.items():
            span = Steps(self.telemetry, f"{self.name}.{sub}", self._span, {}, cursor, self._anchor)
            cursor += int(ms * 1e6)
            span.end(cursor)

    @property
    def enabled(self) -> bool:
        return self._span is not None

    def set(self, **attributes: Attribute | None) -> None:
        if self._span is not None:
            self._span.set_attributes({k: v for k, v in attributes.items() if v is not None})

    def error(self, exc: BaseException) -> None:
        if self._span is not None:
            from opentelemetry.trace import Status, StatusCode

            self._span.set_status(Status(StatusCode.ERROR, type(exc).__name__))

    def end(self, at_ns: int | None = None) -> float:
        """Ends the operation; its milliseconds."""
        ended = time.perf_counter_ns() if at_ns is None else at_ns
        if self._span is not None:
            self._span.end(end_time=self._anchor + ended)
            self._span = None
        return (ended - self.start_ns) / 1e6


class _Quiet(Steps):
    """The step handle when telemetry is off: takes sub-steps' timings, makes no spans."""

    def __init__(self, telemetry: Telemetry) -> None:
        self.telemetry = telemetry
        self.name = ""
        self.ms = {}
        self._anchor = 0
        self.start_ns = 0
        self._span = None
