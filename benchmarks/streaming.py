"""Streamed answers and the cost of tracing.

    .venv/bin/python benchmarks/streaming.py [--workspace WS] [--questions FILE] [--n 20]
        [--piece 6] [--delay-ms 20]

1. Time to the first streamed words against time to the full answer, with a model answerer
   whose model is the fake OpenAI-compatible server of the tests (tests/llm_fake.py) writing
   ``--piece`` characters per event, ``--delay-ms`` apart (a stand-in for a model's token rate:
   6 characters per 20 ms is about 75 tokens a second). Measured three ways: in-process
   (``Workspace.query_stream``), over a loopback ``graphgate serve`` through the official
   ``openai`` client with ``stream=True``, and the same client without streaming.
2. Tracing: the p50 of the same vector queries with no telemetry configured (the default),
   and with every span recorded by an in-memory exporter, interleaved; and the cost of the
   step timing itself (``Steps`` with no provider), per query.

Without ``--workspace`` the demo corpus is indexed into a temporary workspace first.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphgate import Workspace
from graphgate.core.telemetry import Telemetry
from graphgate.query.events import Answered, AnswerText
from tests.llm_fake import fake_model_server
from tests.serving import running_server

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"
DEMO_QUESTIONS = [
    "Who is Bob Cratchit's employer?",
    "What does the Ghost of Jacob Marley warn Scrooge about?",
    "Which of the Cratchit children is ill?",
    "Who is Fred?",
    "What does Scrooge see with the Ghost of Christmas Past?",
    "Where does Scrooge go with the Ghost of Christmas Present?",
    "What happens to Tiny Tim?",
    "Who was Fezziwig?",
    "What does Scrooge buy on Christmas morning?",
    "Who is Belle?",
]


def p50(values: list[float]) -> float:
    return statistics.median(values)


def in_process(ws: Workspace, questions: list[str]) -> tuple[list[float], list[float]]:
    first, full = [], []
    for q in questions:
        started = time.perf_counter()
        seen = None
        for event in ws.query_stream(q, mode="hybrid"):
            if isinstance(event, AnswerText) and seen is None:
                seen = time.perf_counter() - started
            elif isinstance(event, Answered):
                full.append((time.perf_counter() - started) * 1000)
        first.append((seen or 0.0) * 1000)
    return first, full


def over_openai(base: str, questions: list[str]) -> tuple[list[float], list[float], list[float]]:
    import openai

    client = openai.OpenAI(base_url=base + "/v1", api_key="bench-read", max_retries=0)
    first, full, whole = [], [], []
    for q in questions:
        messages = [{"role": "user", "content": q}]
        started = time.perf_counter()
        seen = None
        for chunk in client.chat.completions.create(
            model="graphgate-hybrid", messages=messages, stream=True
        ):  # type: ignore[call-overload]
            if seen is None and chunk.choices and chunk.choices[0].delta.content:
                seen = time.perf_counter() - started
        full.append((time.perf_counter() - started) * 1000)
        first.append((seen or 0.0) * 1000)
        started = time.perf_counter()
        client.chat.completions.create(model="graphgate-hybrid", messages=messages)  # type: ignore[call-overload]
        whole.append((time.perf_counter() - started) * 1000)
    return first, full, whole


def tracing_cost(path: Path, questions: list[str], rounds: int) -> None:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    off, on = Workspace(path), Workspace(path, tracing=Telemetry(provider))
    times: dict[str, list[float]] = {"none configured": [], "in-memory exporter": []}
    try:
        for ws in (off, on):  # warm: embedder, read model, caches
            for q in questions:
                ws.query(q, mode="vector")
        for _ in range(rounds):
            for q in questions:
                for name, ws in (("none configured", off), ("in-memory exporter", on)):
                    started = time.perf_counter()
                    ws.query(q, mode="vector")
                    times[name].append((time.perf_counter() - started) * 1000)
                exporter.clear()
    finally:
        off.close()
        on.close()
        provider.shutdown()
    base = p50(times["none configured"])
    print("\n| telemetry | vector p50 ms | ratio |\n|---|---:|---:|")
    for name, values in times.items():
        print(f"| {name} | {p50(values):.2f} | {p50(values) / base:.3f} |")
    quiet = Telemetry()
    n = 20_000
    started = time.perf_counter()
    for _ in range(n):  # what every query does for its timings: a root, two steps, sub-steps
        root = quiet.steps("graphgate.query", streamed=False)
        with root.step("retrieve") as step:
            step.set(chunks=5)
            step.record({"embed": 1.0, "search": 1.0})
        with root.step("answer"):
            pass
        root.end()
    per_query_us = (time.perf_counter() - started) / n * 1e6
    print(
        f"\nStep timing with no provider: {per_query_us:.1f} µs per query "
        f"({per_query_us / 1000 / base * 100:.3f}% of the vector p50)"
    )


def main() -> None:
    import logging

    for name in ("httpx", "mcp"):  # one line per request would bury the tables
        logging.getLogger(name).setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--questions", type=Path, help="one question a line")
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--piece", type=int, default=6)
    parser.add_argument("--delay-ms", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    temp = Path(tempfile.mkdtemp(prefix="gg-stream-"))
    try:
        if args.workspace is None:
            path = temp / "ws"
            with Workspace(path) as ws:
                ws.index(DEMO)
        else:
            path = temp / "ws"
            shutil.copytree(args.workspace, path)
        lines = args.questions.read_text().splitlines() if args.questions else DEMO_QUESTIONS
        questions = [q for q in lines if q.strip()][: args.n]
        questions = (questions * (args.n // max(len(questions), 1) + 1))[: args.n]
        with fake_model_server() as (url, model):
            model.stream_piece, model.stream_delay_s = args.piece, args.delay_ms / 1000
            llm = {"provider": "openai", "base_url": url + "/v1", "model": "fake", "cache": False}
            with Workspace(path, query={"answerer": "llm"}, llm=llm) as ws:
                in_process(ws, questions[:2])  # warm
                first, full = in_process(ws, questions)
            with running_server(path, "bench-write", "bench-read", query={"answerer": "llm"},
                                llm=llm) as (base, _):  # fmt: skip
                over_openai(base, questions[:2])
                api_first, api_full, api_whole = over_openai(base, questions)
        print(
            f"{len(questions)} hybrid questions, fake model: {args.piece} characters per event, "
            f"{args.delay_ms:g} ms apart\n"
        )
        print("| path | first words p50 ms | full answer p50 ms | first / full |")
        print("|---|---:|---:|---:|")
        for name, a, b in (
            ("in-process query_stream", first, full),
            ("HTTP /v1, openai client, stream=True", api_first, api_full),
        ):
            print(f"| {name} | {p50(a):.1f} | {p50(b):.1f} | {p50(a) / p50(b):.2f} |")
        print(f"| HTTP /v1, openai client, not streamed | – | {p50(api_whole):.1f} | – |")
        tracing_cost(path, questions, args.rounds)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    main()
