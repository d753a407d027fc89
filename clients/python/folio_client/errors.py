# One exception for everything that goes wrong talking to Folio, so callers handle API refusals,
# network failures and timed-out waits with a single `except` and branch on `type`, exactly as
# with the TypeScript client's FolioApiError (docs/api.md, "Errors").
from __future__ import annotations

from typing import Any, Mapping, Optional


class FolioApiError(Exception):
    """An answer that is not a success, a network failure or a wait that ran out.

    ``type`` is the API's ``error.type`` (``not_found``, ``invalid_request``, ``rate_limited``...),
    or ``network_error`` (``status`` 0) when Folio could not be reached, ``timeout`` (``status`` 0)
    when :meth:`Folio.wait` gave up, and ``http_error`` for an answer without Folio's error body
    (a proxy's page, say). ``fields`` holds the error object's other fields (``details``,
    ``retry_after``, ``limit``, ``balance_micro``, ``feature``...), and ``request_id`` the
    answer's ``X-Request-Id``, to find the request in the server's logs.
    """

    def __init__(
        self,
        status: int,
        type: str,
        message: str,
        fields: Optional[Mapping[str, Any]] = None,
        request_id: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.type = type
        self.message = message
        self.fields: dict[str, Any] = dict(fields or {})
        self.request_id = request_id

    @property
    def details(self) -> Optional[dict[str, list[str]]]:
        """With ``invalid_request``: each field's path (``options.markdown``) to its messages."""
        return self.fields.get("details")

    def __str__(self) -> str:
        suffix = f" (request {self.request_id})" if self.request_id else ""
        return f"{self.type}: {self.message}{suffix}"

    def __repr__(self) -> str:
        return f"FolioApiError(status={self.status!r}, type={self.type!r}, message={self.message!r}, request_id={self.request_id!r})"
