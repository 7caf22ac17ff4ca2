"""A tiny OpenAI-compatible chat server for tests: 127.0.0.1, random free port, behaviour scripted per request.

    standin.script("[ex-2]", Reply(status=500), Reply())   # requests whose messages contain "[ex-2]": 500, then OK
    standin.script("[ex-3]", Reply(delay=2.0))             # sleeps past the client's timeout
    standin.script("[ex-4]", Reply(finish_reason="length", content="```ids\\n<?xml ...", ))

Unscripted requests get `default_answer(request) -> content`. Only /v1/chat/completions exists.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer



@dataclass(frozen=True)
class Reply:
    status: int = 200
    delay: float = 0.0
    content: str | None = None  # None: default_answer(request)
    finish_reason: str = "stop"


@dataclass
class StandIn:
    default_answer: Callable[[dict], str] = lambda request: "```ids\n<ids/>\n```"
    requests: list[dict] = field(default_factory=list)
    max_in_flight: int = 0
    url: str = ""
    _scripts: dict[str, list[Reply]] = field(default_factory=dict)
    _in_flight: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stop: threading.Event = field(default_factory=threading.Event)

    def script(self, marker: str, *replies: Reply) -> None:
        self._scripts[marker] = list(replies)

    def requests_for(self, marker: str) -> list[dict]:
        return [r for r in self.requests if marker in json.dumps(r["messages"], ensure_ascii=False)]

    def _next_reply(self, request: dict) -> Reply:
        text = json.dumps(request.get("messages"), ensure_ascii=False)
        with self._lock:
            self.requests.append(request)
            for marker, replies in self._scripts.items():
                if marker in text and replies:
                    return replies.pop(0)
        return Reply()

    def _enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def handle(self, request: dict) -> tuple[int, dict, float]:
        reply = self._next_reply(request)
        if reply.status != 200:
            return reply.status, {"error": {"message": f"scripted {reply.status}", "type": "server_error"}}, reply.delay
        content = reply.content if reply.content is not None else self.default_answer(request)
        body = {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
            "model": request.get("model", "standin"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": reply.finish_reason}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }
        return 200, body, reply.delay


def _handler(standin: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:  # noqa: N802
            if self.path.rstrip("/") != "/v1/chat/completions":
                self.send_error(404)
                return
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            standin._enter()
            try:
                status, body, delay = standin.handle(request)
                if delay:
                    standin._stop.wait(delay)  # released at shutdown, so no thread outlives the test
                payload = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout): exactly what some tests want
            finally:
                standin._leave()

    return Handler


def run_standin(monkeypatch):
    """A running stand-in (a generator for a fixture: tests/harness/conftest.py); proxies are disabled
    so nothing but 127.0.0.1 is ever contacted."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    server_state = StandIn()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(server_state))
    server.daemon_threads = True
    server_state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server_state
    finally:
        server_state._stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
