# Folio's Python client: every endpoint of /api/v1 that a program reading documents needs, over
# httpx (only APIs present in httpx 0.23, what Debian bookworm ships), with the TypeScript
# client's rules (src/client/index.ts) so both behave alike against the same server: 429 and 503
# are retried after their Retry-After, each submission carries a fresh Idempotency-Key that its
# retries reuse (so a retry never creates or charges twice), and every failure is a FolioApiError.
from __future__ import annotations

import contextlib
import json
import mimetypes
import os
import time
import uuid
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import (
    IO,
    Any,
    Callable,
    ContextManager,
    Iterator,
    Literal,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    TypeVar,
    Union,
    overload,
)
from urllib.parse import quote

import httpx

from .errors import FolioApiError
from .types import (
    Accepted,
    Account,
    Chunk,
    Document,
    Image,
    Page,
    Query,
    ResourceList,
    UsageRecord,
    Webhook,
    WebhookAttempt,
)

__all__ = ["Folio", "FileInput", "__version__"]

__version__ = "0.1.0"

#: What can be uploaded: a path, the bytes themselves, or a binary file object open for reading.
FileInput = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]
Include = Union[str, Sequence[str], None]
Options = Union[Mapping[str, Any], str, None]

_DEFAULT_WAIT_SECONDS = 600.0


# Structural types, so the polling and paging helpers hand back the resource they were given to
# a type checker rather than Any.
class _Pollable(Protocol):
    @property
    def finished(self) -> bool: ...


class _Identified(Protocol):
    id: str


_Polled = TypeVar("_Polled", bound=_Pollable)
_Listed = TypeVar("_Listed", bound=_Identified)


def _new_idempotency_key() -> str:
    return f"folio-python-{uuid.uuid4()}"


def _join(include: Include) -> Optional[str]:
    if include is None:
        return None
    if isinstance(include, str):
        return include or None
    return ",".join(include) or None


def _params(**values: Any) -> dict[str, str]:
    # httpx would send a None as an empty value, which the API reads as a bad parameter.
    out: dict[str, str] = {}
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, datetime):
            value = _timestamp(value)
        out[name] = str(value)
    return out


def _timestamp(value: datetime) -> str:
    # A naive datetime is taken as UTC, the API's only time zone.
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _retry_after(response: httpx.Response) -> Optional[float]:
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        # The header may also be an HTTP date; Folio sends seconds, a proxy in front of it may not.
        try:
            seconds = (parsedate_to_datetime(value) - datetime.now(timezone.utc)).total_seconds()
        except (TypeError, ValueError):
            return None
    return seconds if seconds > 0 else None


def _options_json(options: Options) -> Optional[str]:
    if options is None:
        return None
    return options if isinstance(options, str) else json.dumps(options)


class _Upload:
    """A file to upload, opened afresh for every attempt so a retried request sends it whole."""

    def __init__(self, source: FileInput, filename: Optional[str]) -> None:
        self.source = source
        self.filename = filename or self._name_of(source)
        self.content_type = mimetypes.guess_type(self.filename)[0] or "application/octet-stream"
        self.start: Optional[int] = None
        if hasattr(source, "read") and hasattr(source, "seek"):
            with contextlib.suppress(OSError, ValueError):
                self.start = source.tell()  # type: ignore[union-attr]

    @staticmethod
    def _name_of(source: FileInput) -> str:
        if isinstance(source, (str, os.PathLike)):
            return os.path.basename(os.fspath(source))
        name = getattr(source, "name", None)
        if isinstance(name, str) and name:
            return os.path.basename(name)
        return "upload"

    @contextlib.contextmanager
    def opened(self) -> Iterator[Any]:
        source = self.source
        if isinstance(source, (bytes, bytearray, memoryview)):
            yield bytes(source)
        elif isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as handle:
                yield handle
        else:
            if self.start is not None:
                source.seek(self.start)
            yield source


class Folio:
    """A client of one Folio installation, with one key.

    ``base_url`` is where Folio runs (``http://127.0.0.1:8080``) and ``api_key`` an
    ``ak_live_...`` or ``ak_test_...`` key; either falls back to ``FOLIO_URL`` / ``FOLIO_API_KEY``
    in the environment. ``timeout`` bounds each HTTP request (seconds, or an ``httpx.Timeout``);
    ``max_retries`` is how many times a request refused with 429 or 503, or cut by the network, is
    sent again. ``http_client`` lets you bring your own ``httpx.Client`` (proxies, certificates);
    it is then yours to close.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        timeout: Union[float, httpx.Timeout] = 60.0,
        max_retries: int = 3,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        base_url = base_url or os.environ.get("FOLIO_URL")
        api_key = api_key or os.environ.get("FOLIO_API_KEY")
        if not base_url:
            raise ValueError("Folio needs base_url (or FOLIO_URL in the environment)")
        if not api_key:
            raise ValueError("Folio needs api_key (or FOLIO_API_KEY in the environment)")
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self._api_key = api_key
        self._owns_client = http_client is None
        self._http = http_client if http_client is not None else httpx.Client(timeout=timeout)
        self._user_agent = f"folio-client-python/{__version__} httpx/{httpx.__version__}"

    def __repr__(self) -> str:
        # Never the key itself: reprs end up in logs.
        return f"Folio({self.base_url!r}, key={self._api_key[:12]!r}...)"

    # -- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        if self._owns_client:
            self._http.close()

    def __enter__(self) -> "Folio":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    # -- transport -------------------------------------------------------------------------------

    def _send(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, str]] = None,
        json_body: Any = None,
        form: Optional[Mapping[str, str]] = None,
        upload: Optional[tuple[str, _Upload]] = None,
        idempotency_key: Optional[str] = None,
    ) -> httpx.Response:
        headers = {"authorization": f"Bearer {self._api_key}", "user-agent": self._user_agent}
        if idempotency_key is not None:
            headers["idempotency-key"] = idempotency_key
        # Safe to repeat after a network failure: reads change nothing and submissions carry an
        # Idempotency-Key; anything else (creating a webhook) might be done twice.
        repeatable = method in ("GET", "DELETE") or idempotency_key is not None
        url = f"{self.base_url}{path}"
        attempt = 0
        while True:
            try:
                with self._body(upload) as files:
                    response = self._http.request(
                        method,
                        url,
                        params=params,
                        json=json_body,
                        data=dict(form) if form else None,
                        files=files,
                        headers=headers,
                    )
            except httpx.TransportError as error:
                if not repeatable or attempt >= self.max_retries:
                    raise FolioApiError(0, "network_error", f"Could not reach Folio at {self.base_url}: {error}") from error
                time.sleep(0.5 * 2**attempt)
                attempt += 1
                continue
            if response.status_code in (429, 503) and attempt < self.max_retries:
                wait = _retry_after(response)
                time.sleep(wait if wait is not None else 2**attempt)
                attempt += 1
                continue
            if not 200 <= response.status_code < 300:
                raise self._error_of(response)
            return response

    @staticmethod
    def _body(upload: Optional[tuple[str, _Upload]]) -> ContextManager[Optional[dict[str, Any]]]:
        if upload is None:
            return contextlib.nullcontext(None)

        field, file = upload

        @contextlib.contextmanager
        def files() -> Iterator[dict[str, Any]]:
            with file.opened() as content:
                yield {field: (file.filename, content, file.content_type)}

        return files()

    @staticmethod
    def _error_of(response: httpx.Response) -> FolioApiError:
        request_id = response.headers.get("x-request-id")
        try:
            error = response.json()["error"]
            fields = {name: value for name, value in error.items() if name not in ("type", "message")}
            return FolioApiError(response.status_code, str(error["type"]), str(error["message"]), fields, request_id)
        except (ValueError, KeyError, TypeError, AttributeError):
            excerpt = response.text[:200]
            return FolioApiError(response.status_code, "http_error", f"HTTP {response.status_code}: {excerpt}", {}, request_id)

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._send(method, path, **kwargs).json()

    @staticmethod
    def _path(template: str, **ids: Any) -> str:
        return template.format(**{name: quote(str(value), safe="") for name, value in ids.items()})

    # -- documents -------------------------------------------------------------------------------

    def submit(
        self,
        file: FileInput,
        options: Options = None,
        filename: Optional[str] = None,
        *,
        idempotency_key: Union[str, Literal[False], None] = None,
    ) -> Accepted:
        """Uploads one file (``POST /documents``, multipart) without waiting for it to be read.

        ``options`` is a DocumentOptions dict (``{"markdown": True, "pages": "1-3"}``), sent as the
        JSON string of the ``options`` form field. A fresh ``Idempotency-Key`` is made unless one
        is given (``False`` sends none).
        """
        form = {}
        encoded = _options_json(options)
        if encoded is not None:
            form["options"] = encoded
        answer = self._json(
            "POST",
            "/api/v1/documents",
            form=form,
            upload=("file", _Upload(file, filename)),
            idempotency_key=self._idempotency(idempotency_key),
        )
        return Accepted.from_dict(answer)

    def submit_url(
        self,
        url: str,
        options: Options = None,
        *,
        idempotency_key: Union[str, Literal[False], None] = None,
    ) -> Accepted:
        """Asks Folio to download and read the document at ``url`` (``POST /documents``, JSON)."""
        body: dict[str, Any] = {"url": url}
        if options is not None:
            body["options"] = json.loads(options) if isinstance(options, str) else dict(options)
        answer = self._json("POST", "/api/v1/documents", json_body=body, idempotency_key=self._idempotency(idempotency_key))
        return Accepted.from_dict(answer)

    @overload
    def parse(
        self,
        file: FileInput,
        options: Options = ...,
        include: Include = ...,
        filename: Optional[str] = ...,
        wait: Literal[True] = ...,
        *,
        idempotency_key: Union[str, Literal[False], None] = ...,
        timeout: float = ...,
        interval: float = ...,
        on_progress: Optional[Callable[[Document], None]] = ...,
    ) -> Document: ...

    @overload
    def parse(
        self,
        file: FileInput,
        options: Options = ...,
        include: Include = ...,
        filename: Optional[str] = ...,
        *,
        wait: Literal[False],
        idempotency_key: Union[str, Literal[False], None] = ...,
        timeout: float = ...,
        interval: float = ...,
        on_progress: Optional[Callable[[Document], None]] = ...,
    ) -> Accepted: ...

    @overload
    def parse(
        self,
        file: FileInput,
        options: Options = ...,
        include: Include = ...,
        filename: Optional[str] = ...,
        wait: bool = ...,
        *,
        idempotency_key: Union[str, Literal[False], None] = ...,
        timeout: float = ...,
        interval: float = ...,
        on_progress: Optional[Callable[[Document], None]] = ...,
    ) -> Union[Document, Accepted]: ...

    def parse(
        self,
        file: FileInput,
        options: Options = None,
        include: Include = None,
        filename: Optional[str] = None,
        wait: bool = True,
        *,
        idempotency_key: Union[str, Literal[False], None] = None,
        timeout: float = _DEFAULT_WAIT_SECONDS,
        interval: float = 0.5,
        on_progress: Optional[Callable[[Document], None]] = None,
    ) -> Union[Document, Accepted]:
        """Uploads a file and, unless ``wait=False``, waits for its result (see :meth:`wait`).

        ``include`` (``["text", "markdown", "pages"]``...) is applied to the final read. A failed
        document is returned, not raised: its ``error`` says why.
        """
        accepted = self.submit(file, options, filename, idempotency_key=idempotency_key)
        if not wait:
            return accepted
        return self.wait(accepted.id, include, interval, timeout, on_progress=on_progress)

    def parse_url(
        self,
        url: str,
        options: Options = None,
        include: Include = None,
        *,
        idempotency_key: Union[str, Literal[False], None] = None,
        timeout: float = _DEFAULT_WAIT_SECONDS,
        interval: float = 0.5,
        on_progress: Optional[Callable[[Document], None]] = None,
    ) -> Document:
        """Submits a URL and waits for its result."""
        accepted = self.submit_url(url, options, idempotency_key=idempotency_key)
        return self.wait(accepted.id, include, interval, timeout, on_progress=on_progress)

    def wait(
        self,
        document_id: str,
        include: Include = None,
        interval: float = 0.5,
        timeout: float = _DEFAULT_WAIT_SECONDS,
        *,
        max_interval: float = 5.0,
        on_progress: Optional[Callable[[Document], None]] = None,
    ) -> Document:
        """Polls ``GET /documents/{id}`` until the document is completed, failed or expired.

        The pause starts at ``interval`` seconds and grows by half each poll up to
        ``max_interval``, so a long document costs few requests; past ``timeout`` seconds it
        raises a FolioApiError of type ``timeout``. Once completed, the document is read once
        more with ``include``: asking for it while polling would have the server build the text
        or the usage at every poll.
        """
        def still_waiting(document: Document) -> str:
            return f"Document {document_id} was still {document.status} ({document.stage}) when the wait ran out."

        document = self._poll(
            lambda: self.get_document(document_id),
            still_waiting,
            interval,
            max_interval,
            timeout,
            on_progress,
        )
        if _join(include) and document.status == "completed":
            return self.get_document(document_id, include)
        return document

    def get_document(self, document_id: str, include: Include = None) -> Document:
        """``include``: ``text``, ``markdown``, ``pages``, ``tables``, ``key_values``, ``usage``, ``options``."""
        path = self._path("/api/v1/documents/{id}", id=document_id)
        return Document.from_dict(self._json("GET", path, params=_params(include=_join(include))))

    def list_documents(
        self,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        status: Optional[str] = None,
    ) -> ResourceList[Document]:
        answer = self._json("GET", "/api/v1/documents", params=_params(limit=limit, starting_after=starting_after, status=status))
        return ResourceList([Document.from_dict(item) for item in answer["data"]], bool(answer.get("has_more")))

    def iter_documents(self, status: Optional[str] = None) -> Iterator[Document]:
        """Every document of this key, newest first, fetched a hundred at a time."""
        return self._iterate(lambda after: self.list_documents(100, after, status))

    def delete(self, document_id: str) -> None:
        """Deletes the document with its pages, pictures, upload and questions (usage stays)."""
        self._send("DELETE", self._path("/api/v1/documents/{id}", id=document_id))

    def get_pages(self, document_id: str, include: Include = None, page: Union[int, str, None] = None) -> list[Page]:
        """``include``: ``layout``, ``tables``, ``key_values``, ``images``, ``image_data``,
        ``embeddings``; ``page`` is one page (3) or an inclusive range ("1-3")."""
        path = self._path("/api/v1/documents/{id}/pages", id=document_id)
        answer = self._json("GET", path, params=_params(include=_join(include), page=page))
        return [Page.from_dict(item) for item in answer["data"]]

    def get_page_preview(self, document_id: str, page: int, size: Optional[int] = None) -> bytes:
        """A JPEG of one page (long side ``size`` px, 64 to 1568); every bbox lines up with it."""
        path = self._path("/api/v1/documents/{id}/pages/{page}/preview", id=document_id, page=page)
        return self._send("GET", path, params=_params(size=size)).content

    def get_chunks(self, document_id: str, max_tokens: Optional[int] = None, *, embeddings: bool = False) -> list[Chunk]:
        """The document cut for retrieval, each chunk at most ``max_tokens`` (64 to 4096, default
        512) with its headings, pages and boxes; ``embeddings`` adds the default cut's vectors."""
        path = self._path("/api/v1/documents/{id}/chunks", id=document_id)
        params = _params(max_tokens=max_tokens, include="embeddings" if embeddings else None)
        return [Chunk.from_dict(item) for item in self._json("GET", path, params=params)["data"]]

    def images(self, document_id: str, page: Union[int, str, None] = None, *, data: bool = False) -> list[Image]:
        """The document's pictures; ``data=True`` adds each one's bytes (``Image.data_bytes``)."""
        path = self._path("/api/v1/documents/{id}/images", id=document_id)
        answer = self._json("GET", path, params=_params(page=page, include="data" if data else None))
        return [Image.from_dict(item) for item in answer["data"]]

    def get_image(self, document_id: str, image_id: str) -> bytes:
        """A picture's bytes: PNG for a figure, JPEG for a whole page."""
        path = self._path("/api/v1/documents/{id}/images/{image_id}", id=document_id, image_id=image_id)
        return self._send("GET", path).content

    # -- questions -------------------------------------------------------------------------------

    def ask(
        self,
        document_id: str,
        question: str,
        schema: Optional[Mapping[str, Any]] = None,
        wait: bool = True,
        *,
        instructions: Optional[str] = None,
        model: Optional[str] = None,
        idempotency_key: Union[str, Literal[False], None] = None,
        timeout: float = _DEFAULT_WAIT_SECONDS,
        interval: float = 0.5,
    ) -> Query:
        """Asks a question of a completed document and, unless ``wait=False``, waits for the answer.

        With a JSON ``schema`` (``type: "object"``) ``query.answer.answer`` is an object following
        it. A failed question is returned, not raised: its ``error`` says why.
        """
        body: dict[str, Any] = {"question": question}
        if schema is not None:
            body["schema"] = dict(schema)
        if instructions is not None:
            body["instructions"] = instructions
        if model is not None:
            body["model"] = model
        path = self._path("/api/v1/documents/{id}/queries", id=document_id)
        query = Query.from_dict(self._json("POST", path, json_body=body, idempotency_key=self._idempotency(idempotency_key)))
        if not wait or query.finished:
            return query
        return self.wait_query(document_id, query.id, interval, timeout)

    def get_query(self, document_id: str, query_id: str) -> Query:
        path = self._path("/api/v1/documents/{id}/queries/{query_id}", id=document_id, query_id=query_id)
        return Query.from_dict(self._json("GET", path))

    def list_queries(self, document_id: str, limit: Optional[int] = None, starting_after: Optional[str] = None) -> ResourceList[Query]:
        path = self._path("/api/v1/documents/{id}/queries", id=document_id)
        answer = self._json("GET", path, params=_params(limit=limit, starting_after=starting_after))
        return ResourceList([Query.from_dict(item) for item in answer["data"]], bool(answer.get("has_more")))

    def wait_query(
        self,
        document_id: str,
        query_id: str,
        interval: float = 0.5,
        timeout: float = _DEFAULT_WAIT_SECONDS,
        *,
        max_interval: float = 5.0,
    ) -> Query:
        """Polls a question until it is completed or failed (pauses as in :meth:`wait`)."""
        def still_waiting(query: Query) -> str:
            return f"Query {query_id} was still {query.status} when the wait ran out."

        return self._poll(
            lambda: self.get_query(document_id, query_id),
            still_waiting,
            interval,
            max_interval,
            timeout,
            None,
        )

    # -- account and usage -----------------------------------------------------------------------

    def account(self) -> Account:
        return Account.from_dict(self._json("GET", "/api/v1/account"))

    def usage(
        self,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        *,
        document_id: Optional[str] = None,
        since: Union[datetime, str, None] = None,
        until: Union[datetime, str, None] = None,
    ) -> ResourceList[UsageRecord]:
        """Usage records of this key's workspace and mode, newest first (``GET /usage``).

        ``since`` is inclusive and ``until`` exclusive; a naive datetime is taken as UTC.
        """
        params = _params(limit=limit, starting_after=starting_after, document_id=document_id, since=since, until=until)
        answer = self._json("GET", "/api/v1/usage", params=params)
        return ResourceList([UsageRecord.from_dict(item) for item in answer["data"]], bool(answer.get("has_more")))

    def iter_usage(
        self,
        *,
        document_id: Optional[str] = None,
        since: Union[datetime, str, None] = None,
        until: Union[datetime, str, None] = None,
    ) -> Iterator[UsageRecord]:
        """Every usage record matching, newest first, fetched a hundred at a time."""
        return self._iterate(lambda after: self.usage(100, after, document_id=document_id, since=since, until=until))

    # -- webhooks --------------------------------------------------------------------------------

    def create_webhook(self, url: str, events: Sequence[str]) -> Webhook:
        """Creates a webhook for this key's workspace and mode. Keep the answer's ``secret``: it is
        shown this once, and :func:`verify_webhook` needs it. Not retried after a network failure,
        as the API takes no Idempotency-Key here and a repeat would make a second webhook."""
        return Webhook.from_dict(self._json("POST", "/api/v1/webhooks", json_body={"url": url, "events": list(events)}))

    def list_webhooks(self) -> list[Webhook]:
        return [Webhook.from_dict(item) for item in self._json("GET", "/api/v1/webhooks")["data"]]

    def delete_webhook(self, webhook_id: str) -> None:
        self._send("DELETE", self._path("/api/v1/webhooks/{id}", id=webhook_id))

    def webhook_deliveries(self, webhook_id: str, limit: Optional[int] = None, starting_after: Optional[str] = None) -> ResourceList[WebhookAttempt]:
        """A webhook's delivery attempts, newest first: status codes, errors, the next try."""
        path = self._path("/api/v1/webhooks/{id}/deliveries", id=webhook_id)
        answer = self._json("GET", path, params=_params(limit=limit, starting_after=starting_after))
        return ResourceList([WebhookAttempt.from_dict(item) for item in answer["data"]], bool(answer.get("has_more")))

    # -- helpers ---------------------------------------------------------------------------------

    @staticmethod
    def _idempotency(key: Union[str, Literal[False], None]) -> Optional[str]:
        if key is False:
            return None
        return key if key else _new_idempotency_key()

    @staticmethod
    def _iterate(fetch: Callable[[Optional[str]], ResourceList[_Listed]]) -> Iterator[_Listed]:
        after: Optional[str] = None
        while True:
            page = fetch(after)
            yield from page.data
            if not page.has_more or not page.data:
                return
            after = page.data[-1].id

    @staticmethod
    def _poll(
        read: Callable[[], _Polled],
        still_waiting: Callable[[_Polled], str],
        interval: float,
        max_interval: float,
        timeout: float,
        on_progress: Optional[Callable[[_Polled], None]],
    ) -> _Polled:
        deadline = time.monotonic() + timeout
        while True:
            value = read()
            if on_progress is not None:
                on_progress(value)
            if value.finished:
                return value
            if time.monotonic() + interval > deadline:
                raise FolioApiError(0, "timeout", still_waiting(value))
            time.sleep(interval)
            interval = min(max_interval, interval * 1.5)
