# A webhook receiver must prove an event came from Folio before trusting it, and that check is
# easy to get subtly wrong (parsing the body first, comparing with ==, no replay window), so the
# client ships it: the scheme of the README's "Webhooks" and docs/api.md, like verifyWebhook in
# the TypeScript client. It needs no HTTP client, so it lives apart from Folio.
from __future__ import annotations

import hashlib
import hmac
import re
import time
from typing import Optional, Union

__all__ = ["verify_webhook"]

_TIMESTAMP = re.compile(r"^\d{1,12}$")
_SIGNATURE = re.compile(r"^[0-9a-fA-F]{64}$")


def verify_webhook(
    body: Union[bytes, bytearray, memoryview, str],
    header: Optional[str],
    secret: str,
    tolerance: float = 300,
    *,
    now: Optional[float] = None,
) -> bool:
    """Whether ``header`` (the request's ``Folio-Signature``) signs ``body`` with ``secret``.

    Pass the body exactly as received, before any JSON parsing: one changed byte fails. The header
    is ``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">``; every ``v1`` given is tried (a
    sender may sign with more than one secret), each compared in constant time. A ``t`` more than
    ``tolerance`` seconds from ``now`` (the clock by default) fails too: an old one is a replay.
    """
    if not header or not secret:
        return False
    timestamp: Optional[int] = None
    signatures: list[bytes] = []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and _TIMESTAMP.match(value):
            timestamp = int(value)
        elif name == "v1" and _SIGNATURE.match(value):
            signatures.append(bytes.fromhex(value))
    if timestamp is None or not signatures:
        return False
    current = time.time() if now is None else now
    # Too old is a replay; too far ahead is a clock that cannot be trusted either.
    if abs(current - timestamp) > tolerance:
        return False
    payload = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    expected = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + payload, hashlib.sha256).digest()
    # Every signature is compared, whichever matches, so the time taken says nothing of which did.
    matched = False
    for signature in signatures:
        matched = hmac.compare_digest(expected, signature) | matched
    return matched
