"""The table PIN and the join code: a signed session cookie for controls, CSRF tokens, a
brake on guessing.

Everything is readable without them. ``POST /api/login`` with the right PIN, or opening
the join code's address (:mod:`web.join`), marks the session (Flask's signed cookie) and
hands out a CSRF token; every state-changing request must then send that token in the
``X-CSRF-Token`` header. Wrong guesses are braked per client address with growing
delays; a phone already unlocked never types again, so nobody's guesses can lock it out.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Blueprint, current_app, jsonify, request, session
from werkzeug.wrappers import Response

from web.errors import Forbidden, TooManyAttempts, Unauthorized
from web.service import BUTTONS
from web.validate import request_body

bp = Blueprint("auth", __name__, url_prefix="/api")
CSRF_HEADER = "X-CSRF-Token"
PIN_DIGITS = 6  # a million PINs: with the brake, years of guessing from one address
TOKEN_BYTES = 24  # the join code: 192 random bits, 32 characters in its address
MAX_CLIENTS = 4096  # clients the brake remembers (the oldest forgotten first)
F = TypeVar("F", bound=Callable[..., Any])


def new_pin(digits: int = PIN_DIGITS) -> str:
    """A random PIN to print at start-up and speak on request."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def new_token() -> str:
    """A random join code: what the /join QR code carries instead of the PIN."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class _Guesses:
    wrong: int = 0
    last: float = 0.0


class Brake:
    """Wrong guesses per client address, each past the first ``free`` met by a wait that
    doubles from ``delay`` up to ``longest`` seconds; a client that stops guessing wrong
    for ``forget`` seconds starts afresh, and a right answer clears its count.

    Across the table: once ``table_free`` wrong guesses stand (from any addresses), a
    client waits from its own first wrong guess, so many addresses buy one guess each.
    A client that never guessed wrong is never braked: one guest cannot lock the table.
    """

    def __init__(self, free: int, delay: float, longest: float, forget: float,
                 table_free: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.free, self.delay, self.longest = free, delay, longest
        self.forget, self.table_free, self.clock = forget, table_free, clock
        self._clients: dict[str, _Guesses] = {}
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float:
        """Seconds until ``client`` may guess again (0: now)."""
        with self._lock:
            now = self.clock()
            guesses = self._current(client, now)
            if guesses is None:
                return 0.0
            free = self.free if self._table_wrong(now) < self.table_free else 1
            if guesses.wrong < free:
                return 0.0
            wait = min(self.longest, self.delay * 2.0 ** (guesses.wrong - free))
            return max(0.0, guesses.last + wait - now)

    def fail(self, client: str) -> None:
        """``client`` guessed wrong."""
        with self._lock:
            now = self.clock()
            guesses = self._current(client, now) or _Guesses()
            guesses.wrong, guesses.last = guesses.wrong + 1, now
            self._clients.pop(client, None)
            self._clients[client] = guesses  # the most recent last: the oldest go first
            while len(self._clients) > MAX_CLIENTS:
                self._clients.pop(next(iter(self._clients)))

    def succeed(self, client: str) -> None:
        """``client`` got in: its wrong guesses are forgotten."""
        with self._lock:
            self._clients.pop(client, None)

    def _current(self, client: str, now: float) -> _Guesses | None:
        guesses = self._clients.get(client)
        if guesses is not None and now - guesses.last >= self.forget:
            del self._clients[client]
            return None
        return guesses

    def _table_wrong(self, now: float) -> int:
        return sum(g.wrong for g in self._clients.values() if now - g.last < self.forget)


def pin_tag() -> str:
    """A keyed digest of the current PIN: a session from before a PIN change is void."""
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    pin = str(current_app.config["TABLE_PIN"]).encode()
    return hmac.new(key, pin, hashlib.sha256).hexdigest()[:32]


def is_table() -> bool:
    """True if this session entered the table PIN."""
    tag = session.get("table")
    return isinstance(tag, str) and hmac.compare_digest(tag, pin_tag())


def check_csrf() -> None:
    token = session.get("csrf")
    sent = request.headers.get(CSRF_HEADER, "")
    if not isinstance(token, str) or not hmac.compare_digest(token, sent):
        raise Forbidden(f"missing or wrong {CSRF_HEADER} header: reload the page")


def require_table(view: F) -> F:
    """Only for sessions with the PIN, and only with the session's CSRF token."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not is_table():
            raise Unauthorized("enter the table PIN to use the controls")
        check_csrf()
        return view(*args, **kwargs)

    return guarded  # type: ignore[return-value]


def brake() -> Brake:
    found: Brake = current_app.extensions["companion_web"].brake
    return found


def client() -> str:
    """The address the brake counts guesses by."""
    return request.remote_addr or "unknown"


def check_brake() -> None:
    """Refuse a guess from a client that must still wait (even a right one: no oracle).

    :raises TooManyAttempts: with the wait in ``Retry-After``.
    """
    wait = brake().retry_after(client())
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise TooManyAttempts(f"too many wrong guesses: try again in {seconds} s",
                              headers={"Retry-After": str(seconds)})


def open_session() -> str:
    """Mark this session as the table's (PIN or join code) and return its CSRF token."""
    brake().succeed(client())
    session.clear()
    session.permanent = True
    session["table"] = pin_tag()
    session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


@bp.post("/login")
def login() -> Response:
    """Enter the table PIN."""
    body = request_body()
    pin = body.text("pin", 32)
    body.done()
    check_brake()
    if not hmac.compare_digest(
            pin.encode(), str(current_app.config["TABLE_PIN"]).encode()):
        brake().fail(client())
        raise Unauthorized("wrong PIN")
    return jsonify(authenticated=True, csrf=open_session())


@bp.post("/logout")
@require_table
def logout() -> Response:
    """Forget the PIN on this device."""
    request_body(optional=True).done()  # an empty object, if anything
    session.clear()
    return jsonify(authenticated=False, csrf=None)


@bp.get("/session")
def whoami() -> Response:
    """Whether this device has the PIN, and its CSRF token if it has."""
    if is_table():
        return jsonify(authenticated=True, csrf=session.get("csrf"), buttons=BUTTONS)
    return jsonify(authenticated=False, csrf=None, buttons=BUTTONS)
