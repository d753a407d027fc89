# The client against a real Folio (conftest.py): documents uploaded in each form the client takes,
# read back as typed results (text, markdown, pages with layout, chunks, pictures), questions,
# usage and the account, so a change on either side that breaks a Python caller fails here.
from __future__ import annotations

import io
import threading
from datetime import datetime, timedelta, timezone
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from folio_client import Accepted, Chunk, Document, Folio, FolioApiError, Image, LayoutElement, Page, Query, UsageRecord

from pdfs import report_pdf, text_pdf


def test_parse_reads_text_markdown_and_pages(report: Document) -> None:
    assert isinstance(report, Document)
    assert report.status == "completed" and report.stage == "done"
    assert report.page_count == 2 and report.filename == "report.pdf" and report.mode == "test"
    assert isinstance(report.completed_at, datetime) and report.completed_at.tzinfo is not None
    assert report.text is not None and report.text.startswith("=== Page 1 ===\nQuarterly Maintenance Report")
    assert "=== Page 2 ===" in report.text
    assert report.markdown is not None and report.markdown.startswith("# Quarterly Maintenance Report")
    assert report.pages is not None and [p.page for p in report.pages] == [1, 2]
    assert all(isinstance(p, Page) for p in report.pages)
    assert "Signed by Jane Doe" in report.pages[1].text and report.pages[1].word_count > 0
    # The raw object is kept whole, and nothing the client knows about spills into `extra`.
    assert report.raw["id"] == report.id and "text" not in report.extra


def test_pages_with_layout_and_a_page_range(folio: Folio, report: Document) -> None:
    pages = folio.get_pages(report.id, include=["layout", "images"], page="2")
    assert [p.page for p in pages] == [2]
    layout = pages[0].layout
    assert layout and all(isinstance(e, LayoutElement) for e in layout)
    heading = layout[0]
    assert (heading.type, heading.text, heading.reading_order) == ("heading", "Approval", 0)
    assert heading.bbox is not None and 0 < heading.bbox.left < 1 and 0 < heading.bbox.width < 1
    assert heading.lines and heading.lines[0].text == "Approval"
    # The short signature page is kept as a picture of the whole page.
    assert pages[0].images and pages[0].images[0].kind == "page"
    both = folio.get_pages(report.id, page="1-2")
    assert [p.page for p in both] == [1, 2] and both[0].layout is None


def test_chunks_carry_headings_pages_and_boxes(folio: Folio, report: Document) -> None:
    chunks = folio.get_chunks(report.id, max_tokens=64)
    assert len(chunks) >= 3 and all(isinstance(c, Chunk) for c in chunks)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(c.tokens is not None and c.tokens <= 64 for c in chunks)
    assert chunks[0].headings == ["Quarterly Maintenance Report"] and chunks[0].pages == [1]
    last = chunks[-1]
    assert last.pages == [2] and last.headings[-1] == "Approval" and "Jane Doe" in last.text
    assert last.boxes and last.boxes[0].page == 2
    # The default cut holds the whole two pages in fewer chunks.
    assert len(folio.get_chunks(report.id)) < len(chunks)


def test_images_list_and_bytes(folio: Folio, report: Document) -> None:
    images = folio.images(report.id)
    assert len(images) == 1 and isinstance(images[0], Image)
    image = images[0]
    assert (image.page, image.kind, image.media_type, image.bbox) == (2, "page", "image/jpeg", None)
    assert max(image.width, image.height) <= 1568
    data = folio.get_image(report.id, image.id)
    assert data[:3] == b"\xff\xd8\xff" and len(data) == image.byte_size
    inline = folio.images(report.id, page=2, data=True)
    assert inline[0].data_bytes == data
    assert folio.images(report.id, page=1) == []


def test_ask_answers_with_a_citation(folio: Folio, report: Document) -> None:
    query = folio.ask(report.id, "When was the pumping station inspected?", interval=0.2, timeout=60)
    assert isinstance(query, Query) and query.status == "completed"
    assert query.answer is not None and not query.answer.not_found
    assert "12 March 2024" in query.answer.answer
    assert query.answer.citations and query.answer.citations[0].page == 1
    assert "12 March 2024" in query.answer.citations[0].quote
    assert query.cost["settled_micro"] == 0  # a test key is never charged


def test_ask_with_a_schema_and_without_waiting(folio: Folio, report: Document) -> None:
    schema = {"type": "object", "properties": {"date": {"type": "string"}}}
    queued = folio.ask(report.id, "When was the station inspected?", schema=schema, wait=False)
    assert queued.status in ("queued", "processing", "completed") and queued.schema == schema
    answered = folio.wait_query(report.id, queued.id, interval=0.2, timeout=60)
    assert answered.status == "completed" and answered.answer is not None
    assert isinstance(answered.answer.answer, dict) and "12 March 2024" in answered.answer.answer["date"]
    assert queued.id in [q.id for q in folio.list_queries(report.id).data]


def test_usage_records_of_the_document_and_its_questions(folio: Folio, report: Document) -> None:
    folio.ask(report.id, "Which firmware version was installed?", interval=0.2, timeout=60)
    records = list(folio.iter_usage(document_id=report.id))
    assert records and all(isinstance(r, UsageRecord) for r in records)
    assert all(r.document_id == report.id and r.amount_micro == 0 for r in records)
    analysis = [r for r in records if r.sku == "pages.layout"]
    assert len(analysis) == 1 and analysis[0].quantity == 2 and analysis[0].query_id is None
    assert any(r.stage == "query" and r.query_id for r in records)
    # Dates go out as the API's UTC timestamps: nothing was charged tomorrow.
    tomorrow = datetime.now(timezone.utc) + timedelta(days=1)
    assert folio.usage(document_id=report.id, since=tomorrow).data == []
    page = folio.usage(limit=1, document_id=report.id)
    assert len(page.data) == 1 and page.has_more


def test_account(folio: Folio) -> None:
    account = folio.account()
    assert account.mode == "test" and account.key["prefix"].startswith("ak_test_")
    assert isinstance(account.available_micro, int) and account.rate_limit_per_second > 0
    assert account.limits["max_upload_bytes"] > 0


def test_submit_then_wait_from_a_path_and_a_file_object(folio: Folio, tmp_path: Path) -> None:
    path = tmp_path / "memo.pdf"
    path.write_bytes(text_pdf([[(16, "Memo"), (11, "The office will be closed on Friday for the annual staff training day.")]]))
    accepted = folio.submit(path, {"analysis": "read"})
    assert isinstance(accepted, Accepted) and accepted.status == "queued" and accepted.poll_url.endswith(accepted.id)
    stages: list[str] = []
    document = folio.wait(accepted.id, include="text", interval=0.2, timeout=60, on_progress=lambda d: stages.append(d.stage))
    assert document.status == "completed" and stages[-1] == "done"
    assert document.filename == "memo.pdf" and document.analysis == "read"
    assert document.text is not None and "closed on Friday" in document.text

    with open(path, "rb") as handle:
        from_handle = folio.parse(handle, include=["text"], interval=0.2, timeout=60)
    assert from_handle.filename == "memo.pdf" and "closed on Friday" in (from_handle.text or "")
    named = folio.parse(io.BytesIO(path.read_bytes()), filename="renamed.pdf", wait=False)
    assert isinstance(named, Accepted)
    assert folio.get_document(named.id).filename == "renamed.pdf"
    assert named.id in [d.id for d in folio.iter_documents()]


def test_parse_url(folio: Folio, tmp_path: Path) -> None:
    (tmp_path / "notice.pdf").write_bytes(text_pdf([[(11, "Water will be off on Tuesday morning while the mains are flushed.")]]))
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietFiles, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/notice.pdf"
        document = folio.parse_url(url, include=["text"], interval=0.2, timeout=60)
    finally:
        server.shutdown()
        server.server_close()
    assert document.status == "completed", document.error
    assert document.source_url == url and document.filename == "notice.pdf"
    assert "mains are flushed" in (document.text or "")


def test_a_failed_document_is_returned_not_raised(folio: Folio) -> None:
    document = folio.parse(b"%PDF-1.4\nthis is not really a PDF\n", filename="broken.pdf", interval=0.2, timeout=60)
    assert document.status == "failed" and document.finished
    assert document.error is not None and document.error.type == "analysis_failed" and document.error.stage


def test_delete(folio: Folio) -> None:
    accepted = folio.submit(text_pdf([[(11, "Short lived.")]]))
    folio.wait(accepted.id, interval=0.2, timeout=60)
    folio.delete(accepted.id)
    with pytest.raises(FolioApiError) as raised:
        folio.get_document(accepted.id)
    assert raised.value.type == "not_found"


class _QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass
