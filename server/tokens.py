"""Signed station tokens: who may do what, where, until when.

A token is ``base64url(claims JSON) . base64url(HMAC-SHA256)`` under the server's secret. The
claims carry the role (dealer, floor, display, admin), the scope (a tournament, and for a
dealer one table; any other role with a table is confined to it too), an expiry in Unix seconds
and a random ``id`` by which the token is revoked. A display token may carry a delay, and
any token the name of the person holding it. Tokens
issued before ids existed have none and cannot be revoked one by one (rotate the secret).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Literal

import msgspec

Role = Literal["dealer", "floor", "display", "admin"]


class Claims(msgspec.Struct, frozen=True, omit_defaults=True):
    role: Role
    tournament: str
    exp: int
    table: str | None = None
    delay: float = 0.0
    id: str = ""
    name: str = ""
    """Who holds the token (``tablewire token --name``): a floor's rulings are recorded as
    ruled by this name."""


def new_id() -> str:
    """A token id: random, short enough to type into ``tablewire token revoke``."""
    return secrets.token_hex(8)


CLOSE_CODES = {"token_expired": 4001, "token_revoked": 4003}
"""The websocket close code that ends a signed-in connection whose token stopped being valid."""


class TokenError(Exception):
    """The token is malformed, forged, expired or revoked; ``code`` is what the station is
    told."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def issue(secret: bytes, claims: Claims) -> str:
    if claims.role == "dealer" and not claims.table:
        raise ValueError("a dealer token names its table")
    body = msgspec.json.encode(claims)
    signature = hmac.new(secret, body, hashlib.sha256).digest()
    return f"{_b64(body)}.{_b64(signature)}"


_claims_decoder = msgspec.json.Decoder(Claims)


def verify(secret: bytes, token: str, now: float) -> Claims:
    try:
        body_text, signature_text = token.split(".")
        body, signature = _unb64(body_text), _unb64(signature_text)
    except ValueError:
        raise TokenError("bad_token", "the token is not a Tablewire token") from None
    expected = hmac.new(secret, body, hashlib.sha256).digest()
    if not hmac.compare_digest(signature, expected):
        raise TokenError("bad_token", "the token's signature does not match")
    try:
        claims = _claims_decoder.decode(body)
    except msgspec.DecodeError as exc:
        raise TokenError("bad_token", f"the token's claims are invalid: {exc}") from None
    if expired(claims, now):
        raise TokenError("token_expired", "the token has expired: sign in again")
    return claims


def expired(claims: Claims, now: float) -> bool:
    return claims.exp < now
