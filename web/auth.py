"""The table PIN: a signed session cookie for controls, CSRF tokens, a brake on guessing.

Everything is readable without the PIN. ``POST /api/login`` with the right PIN marks
the session (Flask's signed cookie) and hands out a CSRF token; every state-changing
request must then send that token in the ``X-CSRF-Token`` header. Wrong PINs are
counted per client address and across the table, in a sliding window.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, current_app, jsonify, request, session
from werkzeug.wrappers import Response

from web.errors import Forbidden, TooManyAttempts, Unauthorized
from web.service import BUTTONS
from web.validate import request_body

bp = Blueprint("auth", __name__, url_prefix="/api")
CSRF_HEADER = "X-CSRF-Token"
EVERYONE = "*"  # the limiter's key for all clients together
F = TypeVar("F", bound=Callable[..., Any])


def new_pin(digits: int = 4) -> str:
    """A random PIN to print at start-up and speak on request."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


class Limiter:
    """Failures per key in a sliding window; a key over its limit must wait."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, key: str, limit: int | None = None) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        limit = self.limit if limit is None else limit
        with self._lock:
            times = self._recent(key)
            if len(times) < limit:
                return 0.0
            return max(0.0, times[len(times) - limit] + self.window - self.clock())

    def fail(self, key: str) -> None:
        with self._lock:
            self._recent(key).append(self.clock())

    def reset(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)

    def _recent(self, key: str) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        cutoff = self.clock() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        return times


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


def limiter() -> Limiter:
    found: Limiter = current_app.extensions["companion_web"].limiter
    return found


def _check_rate(client: str) -> None:
    lim = limiter()
    wait = max(lim.retry_after(client),
               lim.retry_after(EVERYONE, current_app.config["LOGIN_ATTEMPTS_TABLE"]))
    if wait > 0:
        seconds = int(wait) + 1
        raise TooManyAttempts(f"too many wrong PINs: try again in {seconds} s",
                              headers={"Retry-After": str(seconds)})


@bp.post("/login")
def login() -> Response:
    """Enter the table PIN."""
    body = request_body()
    pin = body.text("pin", 32)
    body.done()
    client = request.remote_addr or "unknown"
    _check_rate(client)
    if not hmac.compare_digest(
            pin.encode(), str(current_app.config["TABLE_PIN"]).encode()):
        limiter().fail(client)
        limiter().fail(EVERYONE)
        raise Unauthorized("wrong PIN")
    limiter().reset(client)
    session.clear()
    session.permanent = True
    session["table"] = pin_tag()
    session["csrf"] = secrets.token_urlsafe(24)
    return jsonify(authenticated=True, csrf=session["csrf"])


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
