# The client is only worth what it does against the real server, so these tests talk to a real
# Folio: the one FOLIO_URL and FOLIO_API_KEY name (the vitest wrapper,
# test/e2e/python-client.test.ts, starts one and passes them), or else one started here from this
# checkout (`node bin/folio.js serve`, built to dist/ first) on SQLite in a temporary directory,
# with a fresh workspace whose test key is never charged. It is stopped when the session ends.
# FOLIO_API_KEY must be a test key (ak_test_...): the tests check that nothing was charged.
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator, NamedTuple

import pytest

from folio_client import Document, Folio

from pdfs import report_pdf

ROOT = Path(__file__).resolve().parents[3]
BIN = ROOT / "bin" / "folio.js"
STARTUP_SECONDS = 60


class Target(NamedTuple):
    url: str
    key: str


class _Server:
    """`folio serve --port 0` as a child process; its log is drained in a thread so a full pipe
    never stalls it, and kept to explain a failed start."""

    def __init__(self, data_dir: str) -> None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node is not on PATH: start Folio yourself and set FOLIO_URL and FOLIO_API_KEY")
        if not (ROOT / "dist" / "cli" / "main.js").exists():
            raise RuntimeError(f"{ROOT}/dist is not built: run `npx tsc -p tsconfig.build.json` in {ROOT}")
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "FOLIO_REDIS_URL", "FOLIO_BLOB_STORE")}
        # Private addresses allowed: the tests' URL uploads and webhooks are served from 127.0.0.1.
        self.env.update(FOLIO_DATA_DIR=data_dir, FOLIO_URL_ALLOW_PRIVATE="1", FOLIO_POLL_MS="200", FOLIO_LOG_LEVEL="info")
        self.node = node
        self.logs: list[str] = []
        self.url: str | None = None
        self.ready = threading.Event()
        self.process = subprocess.Popen(
            [node, str(BIN), "serve", "--port", "0"],
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._drain, daemon=True).start()
        if not self.ready.wait(STARTUP_SECONDS) or self.url is None:
            self.stop()
            raise RuntimeError("folio serve did not start:\n" + "".join(self.logs[-50:]))

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.logs.append(line)
            if self.url is None and line.startswith("{"):
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("msg") == "listening" and entry.get("url"):
                    self.url = entry["url"]
                    self.ready.set()
        self.ready.set()

    def admin(self, *args: str) -> dict:
        done = subprocess.run([self.node, str(BIN), "admin", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"folio admin {' '.join(args)} failed ({done.returncode}): {done.stderr}")
        return json.loads(done.stdout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def target() -> Iterator[Target]:
    url, key = os.environ.get("FOLIO_URL"), os.environ.get("FOLIO_API_KEY")
    if url and key:
        yield Target(url.rstrip("/"), key)
        return
    data_dir = tempfile.mkdtemp(prefix="folio-python-")
    server = None
    try:
        server = _Server(data_dir)
        created = server.admin("workspace", "create", "--org", "Python client tests", "--credits-micro", "100000000")
        assert server.url is not None
        yield Target(server.url, created["keys"]["test"])
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def folio(target: Target) -> Iterator[Folio]:
    with Folio(target.url, target.key) as client:
        yield client


@pytest.fixture(scope="session")
def report(folio: Folio) -> Document:
    """The two-page report, read once with markdown and shared by the tests that only read it."""
    started = time.monotonic()
    document = folio.parse(report_pdf(), {"markdown": True}, ["text", "pages", "markdown"], filename="report.pdf", interval=0.2, timeout=120)
    assert document.status == "completed", f"{document.error} after {time.monotonic() - started:.1f} s"
    return document
