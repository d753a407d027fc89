# The API grows by adding fields (docs/api.md, "Versioning"): results must keep what this client
# does not know instead of failing, and must not fail when a documented field is left out.
from __future__ import annotations

from folio_client import Document, Query


def test_unknown_fields_are_kept_and_missing_ones_are_none() -> None:
    wire = {
        "id": "doc_1",
        "object": "document",
        "status": "completed",
        "stage": "done",
        "created_at": "2026-11-24T07:51:40.042Z",
        "pages": [{"page": 1, "text": "Hi", "word_count": 1, "result": None, "brand_new": [1, 2]}],
        "result": {"data": {"title": "Hi"}, "citations": [{"path": "data.title", "page": 1, "quote": "Hi", "confidence": 0.9}], "novel": True},
        "sparkle": {"level": 3},
    }
    document = Document.from_dict(wire)
    assert document.extra == {"sparkle": {"level": 3}}
    assert document.raw == wire
    assert document.filename is None and document.error is None
    assert document.created_at.year == 2026 and document.created_at.microsecond == 42000
    assert document.pages is not None and document.pages[0].extra == {"brand_new": [1, 2]}
    assert document.result is not None and document.result.data == {"title": "Hi"}
    assert document.result.citations and document.result.citations[0].path == "data.title"
    assert document.result.extra == {"novel": True}


def test_a_failed_query_carries_its_error() -> None:
    query = Query.from_dict({"id": "qry_1", "status": "failed", "error": {"type": "query_failed", "message": "The model kept failing."}})
    assert query.finished and query.answer is None
    assert query.error is not None and (query.error.type, query.error.stage) == ("query_failed", None)
