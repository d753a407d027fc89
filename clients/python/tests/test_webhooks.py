# verify_webhook is what stands between a receiver and forged events, so it is checked against
# signatures made here with hmac (valid, several v1 values, tampered, replayed, malformed), and
# end to end against a real delivery from Folio to a receiver on 127.0.0.1.
from __future__ import annotations

import hashlib
import hmac
import json
import time

from folio_client import Folio, verify_webhook

from fakes import FakeServer, Reply
from pdfs import text_pdf

SECRET = "whsec_test_0123456789abcdef"
BODY = b'{"id":"evt_1","type":"document.completed","data":{"object":{"id":"doc_1"}}}'


def sign(body: bytes, timestamp: int, secret: str = SECRET) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def test_a_valid_signature_passes() -> None:
    now = int(time.time())
    header = f"t={now},v1={sign(BODY, now)}"
    assert verify_webhook(BODY, header, SECRET)
    assert verify_webhook(BODY.decode(), header, SECRET)
    assert verify_webhook(bytearray(BODY), f" t={now} , v1={sign(BODY, now).upper()}", SECRET)


def test_any_one_of_several_signatures_passes() -> None:
    now = int(time.time())
    header = f"t={now},v1={sign(BODY, now, 'whsec_old')},v1={sign(BODY, now)}"
    assert verify_webhook(BODY, header, SECRET)
    assert not verify_webhook(BODY, f"t={now},v1={sign(BODY, now, 'whsec_old')}", SECRET)


def test_a_tampered_body_or_wrong_secret_fails() -> None:
    now = int(time.time())
    header = f"t={now},v1={sign(BODY, now)}"
    assert not verify_webhook(BODY.replace(b"doc_1", b"doc_2"), header, SECRET)
    assert not verify_webhook(BODY + b" ", header, SECRET)
    assert not verify_webhook(BODY, header, SECRET + "x")
    # The timestamp is signed too: moving it breaks the signature.
    assert not verify_webhook(BODY, f"t={now + 1},v1={sign(BODY, now)}", SECRET)


def test_an_old_or_future_timestamp_fails() -> None:
    now = int(time.time())
    old = now - 301
    assert not verify_webhook(BODY, f"t={old},v1={sign(BODY, old)}", SECRET)
    assert verify_webhook(BODY, f"t={old},v1={sign(BODY, old)}", SECRET, tolerance=600)
    future = now + 400
    assert not verify_webhook(BODY, f"t={future},v1={sign(BODY, future)}", SECRET)
    assert verify_webhook(BODY, f"t={old},v1={sign(BODY, old)}", SECRET, now=old + 10)


def test_malformed_headers_fail() -> None:
    now = int(time.time())
    good = sign(BODY, now)
    for header in ["", None, f"v1={good}", f"t={now}", f"t=abc,v1={good}", f"t={now},v1={good[:-2]}", f"t={now},v0={good}", f"t={now},v1=zz{good[2:]}"]:
        assert not verify_webhook(BODY, header, SECRET), header
    assert not verify_webhook(BODY, f"t={now},v1={good}", "")


def test_a_real_delivery_verifies(folio: Folio) -> None:
    with FakeServer([Reply(200, {"ok": True})]) as receiver:
        webhook = folio.create_webhook(f"{receiver.url}/folio-events", ["document.completed"])
        try:
            assert webhook.secret and webhook.secret.startswith("whsec_") and webhook.events == ["document.completed"]
            assert webhook.id in [w.id for w in folio.list_webhooks()]
            document = folio.parse(text_pdf([[(11, "Delivered by webhook.")]]), interval=0.2, timeout=60)

            def is_ours(request) -> bool:
                if request.method != "POST":
                    return False
                event = json.loads(request.body)
                return event["type"] == "document.completed" and event["data"]["object"]["id"] == document.id

            delivery = receiver.wait_for(is_ours, timeout=30)
            header = delivery.headers["folio-signature"]
            assert verify_webhook(delivery.body, header, webhook.secret)
            assert not verify_webhook(delivery.body + b"\n", header, webhook.secret)
            attempts = folio.webhook_deliveries(webhook.id).data
            assert attempts and attempts[0].status_code == 200 or _eventually_delivered(folio, webhook.id)
        finally:
            folio.delete_webhook(webhook.id)
    assert webhook.id not in [w.id for w in folio.list_webhooks()]


def _eventually_delivered(folio: Folio, webhook_id: str) -> bool:
    # The receiver answers before the worker records the attempt, so the record may lag a moment.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        attempts = folio.webhook_deliveries(webhook_id).data
        if attempts and attempts[0].status_code == 200:
            return True
        time.sleep(0.2)
    return False
