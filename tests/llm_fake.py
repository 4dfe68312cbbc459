"""A local fake model server on loopback that speaks the OpenAI chat-completions and Anthropic
messages protocols, with scripted failures (429 + Retry-After, 500, malformed JSON, truncation,
slow answers, auth and model errors). Its extractions come from the prompt's text."""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def report_for(prompt: str) -> dict[str, Any]:
    lines = [x[2:] for x in prompt.splitlines() if x.startswith("- ")]
    names = [x.split(" (", 1)[0] for x in lines]
    summary = " ".join(x.split("): ", 1)[-1] for x in lines[:2])
    return {
        "title": " and ".join(names[:2]),
        "summary": summary,
        "rating": 5,
        "key_entities": [{"name": n, "role": "member"} for n in names[:3]],
    }


def grade_for(prompt: str) -> dict[str, Any]:
    gold = re.search(r"Gold answer: (.*)", prompt)
    answer = re.search(r"Answer to grade: (.*)", prompt, re.S)
    ok = bool(gold and answer and gold.group(1).lower() in answer.group(1).lower())
    return {"correct": ok, "reason": "gold answer present" if ok else "missing"}


def answer_for(prompt: str) -> str:
    passage = re.search(r"\[C1\] \([^)]*\) (.*?\.)", prompt, re.S)
    first = " ".join(passage.group(1).split()) if passage else ""
    return f"{first} [C1]" if first else "The context does not say."


def answer_json_for(prompt: str) -> dict[str, Any]:
    """The answer schema: the cited answer, and as short answer the first name the first
    passage's first sentence holds (null when it holds none)."""
    text = answer_for(prompt)
    name = re.search(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*", text.split(" ", 1)[-1])
    return {"answer": text, "short_answer": name.group(0) if name else None}


def extraction_for(text: str) -> dict[str, Any]:
    """Capitalised word runs are entities; consecutive ones are related."""
    body = text.split("Text:\n", 1)[-1]
    names = list(dict.fromkeys(re.findall(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+\b", body)))[:6]
    entities = [
        {"name": n, "type": "PERSON", "description": f"{n} appears in the text."} for n in names
    ]
    relations = [
        {
            "source": a,
            "predicate": "appears with",
            "target": b,
            "weight": 0.5,
            "valid_from": None,
            "valid_to": None,
            "description": f"{a} and {b}.",
        }
        for a, b in itertools.pairwise(names)
    ]
    return {"entities": entities, "relationships": relations}


class FakeModel:
    def __init__(self) -> None:
        self.script: list[str] = []
        self.cypher: list[str] = []  # queries to answer cypher-mode requests with, in order
        self.calls: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        # Prompts answered with garbage every time they are asked (a share of chunks whose
        # answers stay unreadable, whatever the order of calls); None: the script decides.
        self.unreadable: Callable[[str], bool] | None = None
        # Streamed answers: characters per event, and the pause after each event.
        self.stream_piece = 6
        self.stream_delay_s = 0.0
        self.cut_after: int | None = None  # events sent before a stream's connection drops
        # A stream that waits, after ``hold_after`` pieces, until the test sets ``hold`` (or
        # 10 s pass); ``released`` says which: proof that what was sent reached the reader.
        self.hold: threading.Event | None = None
        self.hold_after = 2
        self.released: bool | None = None

    def next_behaviour(self) -> str:
        with self.lock:
            return self.script.pop(0) if self.script else "ok"


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(raw)

        def _stream(
            self,
            model_name: str,
            text: str,
            finish: str,
            anthropic: bool,
            tool: bool,
            usage: tuple[int, int],
        ) -> None:
            """Server-sent events as the real APIs send them, a few characters per event
            (``model.stream_delay_s`` apart), flushed one by one."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            pieces = [
                text[i : i + model.stream_piece] for i in range(0, len(text), model.stream_piece)
            ]

            sent = 0

            def send(event: dict[str, Any], name: str | None = None) -> None:
                nonlocal sent
                sent += 1
                if model.hold is not None and sent == model.hold_after + 2:
                    model.released = model.hold.wait(10)
                head = f"event: {name}\n" if name else ""
                self.wfile.write(f"{head}data: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()
                if model.stream_delay_s:
                    time.sleep(model.stream_delay_s)

            if model.cut_after is not None:  # the connection drops midway
                pieces = pieces[: model.cut_after]
            if anthropic:
                start = {"id": "msg_1", "type": "message", "role": "assistant",
                         "model": model_name, "content": [],
                         "usage": {"input_tokens": usage[0], "output_tokens": 1}}  # fmt: skip
                send({"type": "message_start", "message": start}, "message_start")
                block = (
                    {"type": "tool_use", "id": "t1", "name": "answer", "input": {}}
                    if tool
                    else {"type": "text", "text": ""}
                )
                send({"type": "content_block_start", "index": 0, "content_block": block},
                     "content_block_start")  # fmt: skip
                for piece in pieces:
                    delta = (
                        {"type": "input_json_delta", "partial_json": piece}
                        if tool
                        else {"type": "text_delta", "text": piece}
                    )
                    send({"type": "content_block_delta", "index": 0, "delta": delta},
                         "content_block_delta")  # fmt: skip
                if model.cut_after is not None:
                    return
                send({"type": "content_block_stop", "index": 0}, "content_block_stop")
                stop = "max_tokens" if finish == "length" else ("tool_use" if tool else "end_turn")
                send({"type": "message_delta", "delta": {"stop_reason": stop},
                      "usage": {"output_tokens": usage[1]}}, "message_delta")  # fmt: skip
                send({"type": "message_stop"}, "message_stop")
                return
            chunk = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": model_name}
            send({**chunk, "choices": [{"index": 0, "delta": {"role": "assistant"},
                                        "finish_reason": None}]})  # fmt: skip
            for piece in pieces:
                send({**chunk, "choices": [{"index": 0, "delta": {"content": piece},
                                            "finish_reason": None}]})  # fmt: skip
            if model.cut_after is not None:
                return
            send({**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
            usage_body = {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                          "total_tokens": sum(usage)}  # fmt: skip
            send({**chunk, "choices": [], "usage": usage_body})
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with model.lock:
                model.calls.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
            behaviour = model.next_behaviour()
            if model.unreadable is not None and model.unreadable(body["messages"][-1]["content"]):
                behaviour = "garbage"
            if behaviour == "429":
                return self._send(429, {"error": "rate limited"}, {"Retry-After": "0"})
            if behaviour == "500":
                return self._send(500, {"error": "boom"})
            if behaviour == "401":
                return self._send(401, {"error": "bad key"})
            if behaviour == "404":
                return self._send(404, {"error": "model not found"})
            if behaviour == "slow":
                time.sleep(0.3)
            anthropic = self.path.endswith("/messages")
            prompt = body["messages"][-1]["content"]
            schema = (
                body.get("tool_choice", {}).get("name")
                if anthropic
                else body.get("response_format", {}).get("json_schema", {}).get("name")
            )
            if schema == "report":
                data = report_for(prompt)
            elif schema == "grade":
                data = grade_for(prompt)
            elif schema == "answer":
                data = answer_json_for(prompt)
            elif schema == "cypher":
                with model.lock:
                    query = model.cypher.pop(0) if model.cypher else "MATCH (e) RETURN count(e)"
                data = {"cypher": query}
            else:
                data = extraction_for(prompt)
            plain = prompt.startswith("Context:") and schema is None
            text = answer_for(prompt) if plain else json.dumps(data)
            finish = "stop"
            if behaviour == "malformed":  # repairable: fences, prose, trailing comma
                text = "Sure! ```json\n" + text[:-1] + ",}\n```"
            elif behaviour == "garbage":
                text = "I cannot do that."
            elif behaviour == "truncated":
                text, finish = text[: len(text) // 2], "length"
            structured = behaviour == "ok" or behaviour == "slow"
            usage_in, usage_out = len(prompt) // 4, len(text) // 4
            if body.get("stream"):
                tool = structured and anthropic and "tools" in body
                return self._stream(
                    body["model"], json.dumps(data) if tool else text, finish, anthropic, tool,
                    (usage_in, usage_out),
                )  # fmt: skip
            if anthropic:
                content: list[dict[str, Any]] = (
                    [{"type": "tool_use", "id": "t1", "name": "record_graph", "input": data}]
                    if structured and "tools" in body
                    else [{"type": "text", "text": text}]
                )
                return self._send(
                    200,
                    {
                        "id": "msg_1",
                        "type": "message",
                        "role": "assistant",
                        "model": body["model"],
                        "content": content,
                        "stop_reason": "max_tokens" if finish == "length" else "end_turn",
                        "usage": {"input_tokens": usage_in, "output_tokens": usage_out},
                    },
                )
            return self._send(
                200,
                {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": finish,
                            "message": {"role": "assistant", "content": text},
                        }
                    ],
                    "usage": {
                        "prompt_tokens": usage_in,
                        "completion_tokens": usage_out,
                        "total_tokens": usage_in + usage_out,
                    },
                },
            )

    return Handler


@contextmanager
def fake_model_server() -> Iterator[tuple[str, FakeModel]]:
    model = FakeModel()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(model))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", model
    finally:
        server.shutdown()
        server.server_close()
