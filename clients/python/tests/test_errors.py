# Failures must reach a Python caller as one exception type carrying what the API said (its error
# type, message, status, request id and the error's other fields), so callers branch on `type`
# instead of parsing messages; network failures and foreign answers get the same shape.
from __future__ import annotations

import socket

import pytest

from folio_client import Document, Folio, FolioApiError

from conftest import Target
from fakes import FakeServer, Reply
from pdfs import text_pdf


def test_unknown_document_is_not_found(folio: Folio) -> None:
    with pytest.raises(FolioApiError) as raised:
        folio.get_document("doc_01aaaaaaaaaaaaaaaaaaaaaaaa")
    error = raised.value
    assert (error.status, error.type) == (404, "not_found")
    assert error.message and error.request_id and error.request_id.startswith("req_")
    assert error.request_id in str(error)


def test_a_bad_option_is_invalid_request_with_details(folio: Folio) -> None:
    with pytest.raises(FolioApiError) as raised:
        folio.submit(text_pdf([[(11, "Never read.")]]), {"markdown": True, "analysis": "read"})
    error = raised.value
    assert (error.status, error.type) == (422, "invalid_request")
    assert error.details is not None and "options.markdown" in error.details
    assert error.fields["details"] == error.details

    with pytest.raises(FolioApiError) as unknown:
        folio.submit(text_pdf([[(11, "Never read.")]]), {"bogus": 1})
    assert unknown.value.details == {"options.bogus": ["is not a known field"]}


def test_a_bad_include_is_invalid_request(folio: Folio, report: Document) -> None:
    with pytest.raises(FolioApiError) as raised:
        folio.get_document(report.id, include=["tables"])  # tables need pages too
    assert raised.value.type == "invalid_request" and raised.value.details


def test_a_wrong_key_is_unauthorized(target: Target) -> None:
    with Folio(target.url, "ak_test_" + "x" * 32) as stranger:
        with pytest.raises(FolioApiError) as raised:
            stranger.account()
    assert (raised.value.status, raised.value.type) == (401, "unauthorized")


def test_an_unreachable_server_is_a_network_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens there now; one retry keeps the test short and still goes through the loop.
    with Folio(f"http://127.0.0.1:{port}", "ak_test_x", max_retries=1) as client:
        with pytest.raises(FolioApiError) as raised:
            client.account()
    assert (raised.value.status, raised.value.type) == (0, "network_error")
    assert f"127.0.0.1:{port}" in raised.value.message


def test_an_answer_without_folios_error_body_is_an_http_error() -> None:
    with FakeServer([Reply(502, "<html>Bad gateway</html>", {"content-type": "text/html", "x-request-id": "req_proxy"})]) as fake:
        with Folio(fake.url, "ak_test_x") as client:
            with pytest.raises(FolioApiError) as raised:
                client.account()
    assert (raised.value.status, raised.value.type, raised.value.request_id) == (502, "http_error", "req_proxy")
    assert "Bad gateway" in raised.value.message


def test_a_wait_that_runs_out_is_a_timeout() -> None:
    queued = {"id": "doc_1", "object": "document", "status": "processing", "stage": "analyzing"}
    with FakeServer([Reply(200, queued)]) as fake:
        with Folio(fake.url, "ak_test_x") as client:
            with pytest.raises(FolioApiError) as raised:
                client.wait("doc_1", interval=0.1, timeout=0.5)
    assert (raised.value.status, raised.value.type) == (0, "timeout")
    assert "processing (analyzing)" in raised.value.message
