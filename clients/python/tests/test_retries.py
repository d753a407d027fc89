# The retry rules are the TypeScript client's (src/client/index.ts), checked against a scripted
# server because a real Folio cannot be made to refuse exactly the first request: Retry-After is
# waited out on 429 and 503, and a submission's Idempotency-Key is fresh per call and the same on
# every retry of it, which is what makes retrying a POST safe.
from __future__ import annotations

import json
import time

import pytest

from folio_client import Accepted, Folio, FolioApiError

from fakes import FakeServer, Reply

ACCEPTED = {"id": "doc_1", "object": "document", "status": "queued", "estimated_cost_micro": 0, "poll_url": "http://x/api/v1/documents/doc_1"}
RATE_LIMITED = {"error": {"type": "rate_limited", "message": "Too many requests.", "limit": 1, "retry_after": 1}}


def test_a_429_is_retried_after_retry_after_with_the_same_idempotency_key() -> None:
    replies = [Reply(429, RATE_LIMITED, {"retry-after": "1"}), Reply(202, ACCEPTED)]
    with FakeServer(replies) as fake, Folio(fake.url, "ak_test_abc") as client:
        started = time.monotonic()
        accepted = client.submit(b"%PDF-1.4 fake", {"markdown": True}, filename="a.pdf")
        elapsed = time.monotonic() - started
    assert isinstance(accepted, Accepted) and accepted.id == "doc_1"
    assert [r.method + " " + r.path for r in fake.requests] == ["POST /api/v1/documents"] * 2
    keys = [r.headers.get("idempotency-key") for r in fake.requests]
    assert keys[0] and keys[0] == keys[1]
    assert elapsed >= 1.0
    first = fake.requests[0]
    assert first.headers["authorization"] == "Bearer ak_test_abc"
    assert first.headers["content-type"].startswith("multipart/form-data")
    # Both attempts carry the whole upload, options as a JSON string in the form.
    for request in fake.requests:
        assert b'name="options"' in request.body and json.dumps({"markdown": True}).encode() in request.body
        assert b'name="file"; filename="a.pdf"' in request.body and b"%PDF-1.4 fake" in request.body


def test_every_submission_gets_its_own_key_unless_given() -> None:
    with FakeServer([Reply(202, ACCEPTED)]) as fake, Folio(fake.url, "ak_test_abc") as client:
        client.submit(b"one")
        client.submit(b"two")
        client.submit(b"three", idempotency_key="mine-1")
        client.submit(b"four", idempotency_key=False)
        client.submit_url("https://example.com/a.pdf", {"pages": "1"})
    keys = [r.headers.get("idempotency-key") for r in fake.requests]
    assert keys[0] and keys[1] and keys[0] != keys[1]
    assert keys[2] == "mine-1" and keys[3] is None and keys[4] not in (None, keys[0], keys[1])
    assert json.loads(fake.requests[4].body) == {"url": "https://example.com/a.pdf", "options": {"pages": "1"}}


def test_a_question_is_retried_with_its_idempotency_key() -> None:
    query = {"id": "qry_1", "object": "query", "document_id": "doc_1", "question": "Who?", "status": "queued", "model": {}, "cost": {}, "created_at": "2026-01-01T00:00:00.000Z"}
    replies = [Reply(503, {"error": {"type": "internal_error", "message": "Shutting down.", "request_id": "req_1"}}, {"retry-after": "1"}), Reply(202, query)]
    with FakeServer(replies) as fake, Folio(fake.url, "ak_test_abc") as client:
        answered = client.ask("doc_1", "Who?", wait=False)
    assert answered.id == "qry_1" and answered.status == "queued"
    assert [r.path for r in fake.requests] == ["/api/v1/documents/doc_1/queries"] * 2
    keys = [r.headers.get("idempotency-key") for r in fake.requests]
    assert keys[0] and keys[0] == keys[1]
    assert json.loads(fake.requests[1].body) == {"question": "Who?"}


def test_a_503_on_a_read_is_retried() -> None:
    account = {"credits": {"available_micro": 5}, "key": {"mode": "test"}, "organization": {}, "plan": {}, "rate_limit_per_second": 5, "limits": {}}
    replies = [Reply(503, {"error": {"type": "internal_error", "message": "Shutting down."}}, {"retry-after": "1"}), Reply(200, account)]
    with FakeServer(replies) as fake, Folio(fake.url, "ak_test_abc") as client:
        assert client.account().available_micro == 5
    assert len(fake.requests) == 2 and "idempotency-key" not in fake.requests[0].headers


def test_retries_run_out_into_the_apis_error() -> None:
    with FakeServer([Reply(429, RATE_LIMITED, {"retry-after": "1", "x-request-id": "req_9"})]) as fake:
        with Folio(fake.url, "ak_test_abc", max_retries=0) as client:
            with pytest.raises(FolioApiError) as raised:
                client.get_document("doc_1")
    error = raised.value
    assert (error.status, error.type, error.request_id) == (429, "rate_limited", "req_9")
    assert error.fields == {"limit": 1, "retry_after": 1}
    assert len(fake.requests) == 1


def test_errors_other_than_429_and_503_are_not_retried() -> None:
    conflict = {"error": {"type": "conflict", "message": "A request with this Idempotency-Key is still running."}}
    with FakeServer([Reply(409, conflict)]) as fake, Folio(fake.url, "ak_test_abc") as client:
        with pytest.raises(FolioApiError) as raised:
            client.submit(b"x")
    assert raised.value.type == "conflict" and len(fake.requests) == 1


def test_path_ids_are_escaped_and_lists_joined() -> None:
    with FakeServer([Reply(200, {"object": "list", "document_id": "d", "data": []})]) as fake, Folio(fake.url + "/", "ak_test_abc") as client:
        client.get_pages("doc/../x", include=["layout", "tables"], page="1-3")
    assert fake.requests[0].path == "/api/v1/documents/doc%2F..%2Fx/pages?include=layout%2Ctables&page=1-3"
