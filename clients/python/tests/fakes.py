# Some client behaviour cannot be provoked from a real Folio on demand (a 429 on exactly the first
# upload, a 503, an answer that is not JSON), and a webhook needs somewhere to be delivered: this
# is a scripted HTTP server on 127.0.0.1, in a thread, that records every request it gets.
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Reply:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> bytes:
        if self.body is None:
            return b""
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode()
        return json.dumps(self.body).encode()


class FakeServer:
    """Answers from ``replies`` in order (the last one again once they run out), or from
    ``handler`` when given; ``requests`` holds what came in, headers lower-cased."""

    def __init__(self, replies: Optional[list[Reply]] = None, handler: Optional[Callable[[Recorded], Reply]] = None) -> None:
        self.replies = list(replies or [])
        self.handler = handler
        self.requests: list[Recorded] = []
        self.arrived = threading.Condition()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                recorded = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length))
                with fake.arrived:
                    fake.requests.append(recorded)
                    fake.arrived.notify_all()
                reply = fake.handler(recorded) if fake.handler else (fake.replies.pop(0) if len(fake.replies) > 1 else fake.replies[0])
                payload = reply.encoded()
                self.send_response(reply.status)
                headers = {"content-type": "application/json", **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeServer":
        self.thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, predicate: Callable[[Recorded], bool], timeout: float) -> Recorded:
        """The first request matching ``predicate``, waiting up to ``timeout`` seconds for it."""
        with self.arrived:
            found: list[Recorded] = []

            def match() -> bool:
                found[:] = [r for r in self.requests if predicate(r)]
                return bool(found)

            if not self.arrived.wait_for(match, timeout):
                raise AssertionError(f"no matching request within {timeout} s; got {[(r.method, r.path) for r in self.requests]}")
            return found[0]
