# Typed results for the API's resources (docs/api.md, "Resources"), as plain dataclasses: the
# client depends on httpx alone, and Debian's pydantic is v1. Folio's additions are additive only
# (new fields), so every result is built leniently: unknown fields never fail, they stay in `raw`
# (the object exactly as received) and show in `extra`; a documented field that is absent is None.
from __future__ import annotations

import base64
import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, ClassVar, Generic, Mapping, Optional, TypeVar, Union

__all__ = [
    "Accepted",
    "Account",
    "Answer",
    "BBox",
    "Chunk",
    "ChunkBox",
    "Citation",
    "Document",
    "DocumentUsage",
    "Embedding",
    "ErrorInfo",
    "ExtractionResult",
    "Image",
    "KeyValue",
    "LayoutElement",
    "Line",
    "Page",
    "Query",
    "QueryAnswer",
    "Resource",
    "ResourceList",
    "Table",
    "TableCell",
    "UsageRecord",
    "Webhook",
    "WebhookAttempt",
]

R = TypeVar("R", bound="Resource")
T = TypeVar("T")

# A field's metadata may name how its JSON value becomes the Python one; everything else is kept as
# the JSON gave it. The key is private so it cannot meet a user's metadata.
_CONVERT = "folio_convert"


def _convert(fn: Callable[[Any], Any], default: Any = None) -> Any:
    return field(default=default, metadata={_CONVERT: fn})


def _one(cls: type[Resource]) -> Callable[[Any], Any]:
    return lambda value: cls.from_dict(value) if isinstance(value, Mapping) else value


def _many(cls: type[Resource]) -> Callable[[Any], Any]:
    return lambda value: [cls.from_dict(item) if isinstance(item, Mapping) else item for item in value]


def _by_name(cls: type[Resource]) -> Callable[[Any], Any]:
    return lambda value: {name: cls.from_dict(item) if isinstance(item, Mapping) else item for name, item in value.items()}


def _time(value: Any) -> Any:
    # The API writes UTC with milliseconds and a Z, which fromisoformat reads from Python 3.11 on;
    # anything else is handed over untouched rather than failing the whole result.
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value
    return value


def _time_field(default: Any = None) -> Any:
    return _convert(_time, default)


@dataclass
class Resource:
    """Base of every result: ``raw`` is the JSON object exactly as the API sent it."""

    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, kw_only=True)

    @classmethod
    def from_dict(cls: type[R], data: Mapping[str, Any]) -> R:
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name == "raw" or not f.init:
                continue
            if f.name in data:
                value = data[f.name]
                convert = f.metadata.get(_CONVERT)
                values[f.name] = convert(value) if convert is not None and value is not None else value
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                values[f.name] = None
        return cls(**values, raw=dict(data))

    @property
    def extra(self) -> dict[str, Any]:
        """Fields the API sent that this version of the client does not know."""
        known = {f.name for f in dataclasses.fields(self)}
        return {name: value for name, value in self.raw.items() if name not in known}


@dataclass
class ResourceList(Generic[T]):
    """One page of a list endpoint; pass ``data[-1].id`` as ``starting_after`` while ``has_more``."""

    data: list[T]
    has_more: bool


@dataclass
class BBox(Resource):
    """Where something stands on its page, in fractions 0 to 1 of the page as it was read."""

    left: float
    top: float
    width: float
    height: float


@dataclass
class ChunkBox(Resource):
    page: int
    left: float
    top: float
    width: float
    height: float


@dataclass
class Line(Resource):
    text: str
    bbox: Optional[BBox] = _convert(_one(BBox))


@dataclass
class LayoutElement(Resource):
    type: str
    text: str
    bbox: Optional[BBox] = _convert(_one(BBox))
    reading_order: Optional[int] = None
    level: Optional[int] = None
    figure_index: Optional[int] = None
    lines: Optional[list[Line]] = _convert(_many(Line))


@dataclass
class TableCell(Resource):
    row: int
    column: int
    row_span: int
    column_span: int
    text: str
    bbox: Optional[BBox] = _convert(_one(BBox))


@dataclass
class Table(Resource):
    rows: list[list[str]]
    columns: int
    markdown: str
    header_rows: Optional[int] = None
    cells: Optional[list[TableCell]] = _convert(_many(TableCell))
    bbox: Optional[BBox] = _convert(_one(BBox))
    continued_from_previous_page: Optional[bool] = None
    continues_on_next_page: Optional[bool] = None
    continues_table: Optional[int] = None


@dataclass
class KeyValue(Resource):
    value: str
    key_confidence: Optional[float] = None
    value_confidence: Optional[float] = None
    selection_status: Optional[str] = None
    bbox: Optional[BBox] = _convert(_one(BBox))


@dataclass
class Embedding(Resource):
    model: str
    dimensions: int
    vector: list[float]


@dataclass
class Image(Resource):
    """A picture taken from a page: a cropped figure (PNG) or a whole page (JPEG)."""

    id: str
    object: str
    page: int
    kind: str
    media_type: str
    width: int
    height: int
    byte_size: int
    url: str
    figure_index: Optional[int] = None
    caption: Optional[str] = None
    bbox: Optional[BBox] = _convert(_one(BBox))
    data: Optional[str] = None

    @property
    def data_bytes(self) -> Optional[bytes]:
        """The picture's bytes when they were asked for inline (``data=True``, ``image_data``)."""
        return base64.b64decode(self.data) if self.data is not None else None


@dataclass
class Page(Resource):
    page: int
    text: str
    word_count: int
    result: Optional[dict[str, Any]] = None
    embedding: Optional[Embedding] = _convert(_one(Embedding))
    tables: Optional[list[Table]] = _convert(_many(Table))
    key_values: Optional[dict[str, KeyValue]] = _convert(_by_name(KeyValue))
    layout: Optional[list[LayoutElement]] = _convert(_many(LayoutElement))
    images: Optional[list[Image]] = _convert(_many(Image))


@dataclass
class Chunk(Resource):
    """A piece of the document cut for retrieval, with the headings it stands under."""

    index: int
    text: str
    headings: list[str]
    pages: list[int]
    boxes: list[ChunkBox] = _convert(_many(ChunkBox), default=None)
    tokens: Optional[int] = None
    embedding: Optional[Embedding] = _convert(_one(Embedding))


@dataclass
class Citation(Resource):
    """Where a value or an answer was read: ``path`` only on extraction citations."""

    page: Optional[int]
    quote: str
    path: Optional[str] = None
    confidence: Optional[float] = None
    bbox: Optional[BBox] = _convert(_one(BBox))


@dataclass
class Answer(Resource):
    """One of ``queries`` sent with the document, answered in ``result.answers``."""

    question: str
    answer: str
    page: Optional[int]
    quote: str
    not_found: bool
    bbox: Optional[BBox] = _convert(_one(BBox))


@dataclass
class ExtractionResult(Resource):
    data: Optional[dict[str, Any]] = None
    citations: Optional[list[Citation]] = _convert(_many(Citation))
    answers: Optional[list[Answer]] = _convert(_many(Answer))
    per_page: Optional[bool] = None
    pages: Optional[list[dict[str, Any]]] = None
    warnings: Optional[list[str]] = None


@dataclass
class UsageRecord(Resource):
    """One charge; ``amount_micro`` is in micro-USD and 0 in test mode."""

    id: str
    document_id: str
    stage: str
    sku: str
    model: str
    quantity: int
    unit_price_micro: int
    unit_divisor: int
    amount_micro: int
    created_at: datetime = _time_field()
    query_id: Optional[str] = None


@dataclass
class DocumentUsage(Resource):
    amount_micro: int
    by_sku: dict[str, dict[str, int]]
    records: list[UsageRecord] = _convert(_many(UsageRecord), default=None)


@dataclass
class ErrorInfo(Resource):
    """Why a document or a query failed (a failed document is a result, not an exception)."""

    type: str
    message: str
    stage: Optional[str] = None


@dataclass
class Document(Resource):
    id: str
    object: str
    status: str
    stage: str
    analysis: str
    byte_size: int
    content_type: str
    filename: str
    source_url: Optional[str]
    page_count: int
    mode: str
    model: dict[str, Any]
    cost: dict[str, Any]
    retention_seconds: int
    created_at: datetime = _time_field()
    expires_at: Optional[datetime] = _time_field()
    retrieved_at: Optional[datetime] = _time_field()
    started_at: Optional[datetime] = _time_field()
    completed_at: Optional[datetime] = _time_field()
    failed_at: Optional[datetime] = _time_field()
    purged_at: Optional[datetime] = _time_field()
    timings: Optional[dict[str, int]] = None
    error: Optional[ErrorInfo] = _convert(_one(ErrorInfo))
    result: Optional[ExtractionResult] = _convert(_one(ExtractionResult))
    text: Optional[str] = None
    markdown: Optional[str] = None
    pages: Optional[list[Page]] = _convert(_many(Page))
    options: Optional[dict[str, Any]] = None
    usage: Optional[DocumentUsage] = _convert(_one(DocumentUsage))

    FINISHED: ClassVar[frozenset[str]] = frozenset({"completed", "failed", "expired"})

    @property
    def finished(self) -> bool:
        """Whether waiting longer can change it: completed, failed or expired."""
        return self.status in self.FINISHED


@dataclass
class Accepted(Resource):
    """The 202 answer to a submission: the document is queued and its credit held."""

    id: str
    object: str
    status: str
    estimated_cost_micro: Optional[int]
    poll_url: str


@dataclass
class QueryAnswer(Resource):
    """``answer`` is a string, or with a schema an object following it."""

    answer: Union[str, dict[str, Any]]
    citations: list[Citation] = _convert(_many(Citation), default=None)
    confidence: Optional[float] = None
    not_found: bool = False


@dataclass
class Query(Resource):
    id: str
    object: str
    document_id: str
    question: str
    status: str
    model: dict[str, Any]
    cost: dict[str, Any]
    created_at: datetime = _time_field()
    completed_at: Optional[datetime] = _time_field()
    instructions: Optional[str] = None
    schema: Optional[dict[str, Any]] = None
    answer: Optional[QueryAnswer] = _convert(_one(QueryAnswer))
    error: Optional[ErrorInfo] = _convert(_one(ErrorInfo))

    @property
    def finished(self) -> bool:
        return self.status in ("completed", "failed")


@dataclass
class Account(Resource):
    credits: dict[str, int]
    key: dict[str, Any]
    organization: dict[str, Any]
    plan: dict[str, Any]
    rate_limit_per_second: int
    limits: dict[str, int]

    @property
    def available_micro(self) -> Optional[int]:
        return (self.credits or {}).get("available_micro")

    @property
    def mode(self) -> Optional[str]:
        return (self.key or {}).get("mode")


@dataclass
class Webhook(Resource):
    id: str
    object: str
    url: str
    events: list[str]
    created_at: datetime = _time_field()
    secret: Optional[str] = None


@dataclass
class WebhookAttempt(Resource):
    id: str
    object: str
    delivery_id: str
    event_id: str
    type: str
    attempt: int
    status_code: Optional[int]
    error: Optional[str]
    response_excerpt: Optional[str]
    duration_ms: int
    attempted_at: datetime = _time_field()
    delivered_at: Optional[datetime] = _time_field()
    next_attempt_at: Optional[datetime] = _time_field()
