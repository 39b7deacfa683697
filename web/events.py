"""Server-Sent Events: every service update goes to every open page at once.

Each message carries the whole document (the page re-renders from it), with
``id: <boot>.<seq>``. A browser reconnecting sends that id back as ``Last-Event-ID``:
updates it missed that are still in the service's history are replayed in order;
otherwise, or after a restart (another boot token), it gets the current document.
The number of open streams is capped, because each one holds a server thread; a stream
whose page went away ends within :data:`CHECK_EVERY` seconds (waitress tells, see
:mod:`web.server`), so a reloaded page gives its slot back at once.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, current_app, request

from web.document import Documents
from web.errors import Unavailable
from web.service import Service, Subscription, Update

bp = Blueprint("events", __name__)
CLOSE = object()  # put in a subscription's queue to end its stream
CHECK_EVERY = 0.5  # seconds between looks at whether the page is still there
KEEPALIVE = b": keepalive\n\n"
LAST_ID = re.compile(r"([0-9a-f]{1,32})\.([0-9]{1,15})")  # <boot>.<seq>, ASCII digits only


def _never() -> bool:
    return False


class Streams:
    """The open event streams: a cap on their number, and a way to end them all."""

    def __init__(self, service: Service, limit: int) -> None:
        self.service = service
        self.limit = limit
        self.closing = threading.Event()
        self._subs: dict[int, Subscription] = {}
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)

    def open(self, last_seq: int | None) -> Subscription:
        """Subscribe a new stream; replays updates after ``last_seq`` still in history.

        :raises Unavailable: when every stream slot is taken or the server is stopping.
        """
        with self._lock:
            if self.closing.is_set():
                raise Unavailable("the companion is shutting down")
            if len(self._subs) >= self.limit:
                raise Unavailable(f"{self.limit} pages are already following the game",
                                  headers={"Retry-After": "10"})
            sub = self.service.subscribe(last_seq)
            self._subs[id(sub)] = sub
            return sub

    def close(self, sub: Subscription) -> None:
        self.service.unsubscribe(sub)
        with self._lock:
            self._subs.pop(id(sub), None)
            self._changed.notify_all()

    def wait_count(self, at_most: int, timeout: float) -> bool:
        """Wait until at most ``at_most`` streams are open; False if ``timeout`` passed."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self._subs) <= at_most, timeout)

    def shutdown(self) -> None:
        """End every stream now (their threads return at once)."""
        self.closing.set()
        with self._lock:
            for sub in self._subs.values():
                sub.updates.put(CLOSE)  # type: ignore[arg-type]

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._subs)


def frame(boot: str, update: Update, documents: Documents) -> bytes:
    """One SSE message holding the update's document."""
    return b"".join((f"id: {boot}.{update.seq}\nevent: update\ndata: ".encode(),
                     documents.json(update), b"\n\n"))


def parse_last_id(value: str | None, boot: str) -> int | None:
    """The sequence number in a ``Last-Event-ID`` of this boot, else None."""
    found = LAST_ID.fullmatch(value or "")
    if found is None or found.group(1) != boot:
        return None
    return int(found.group(2))


def _replays(last_seq: int | None, service: Service) -> bool:
    """True if the history still holds every update after ``last_seq``."""
    if last_seq is None:
        return False
    oldest = next(iter(service.history()), None)
    first_needed = last_seq + 1
    return oldest is None or oldest.seq <= first_needed or last_seq >= service.snapshot().seq


@bp.get("/events")
def stream() -> Response:
    """The live feed of the game (read-only, no PIN)."""
    web = current_app.extensions["companion_web"]
    service: Service = current_app.extensions["companion"]
    boot: str = web.boot
    last_seq = parse_last_id(request.headers.get("Last-Event-ID"), boot)
    streams: Streams = web.streams
    covered = _replays(last_seq, service)
    sub = streams.open(last_seq if covered else None)
    first = None if covered else service.snapshot()  # after subscribing: no gap
    keepalive = float(current_app.config["SSE_KEEPALIVE"])
    gone = request.environ.get("waitress.client_disconnected", _never)
    body = _frames(sub, first, boot, web.documents, streams, keepalive, gone)
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _frames(sub: Subscription, first: Update | None, boot: str, documents: Documents,
            streams: Streams, keepalive: float, gone: Callable[[], bool]) -> Iterator[bytes]:
    try:
        yield b"retry: 2000\n\n"
        if first is not None:
            yield frame(boot, first, documents)
        sent = time.monotonic()
        while not streams.closing.is_set() and not gone():
            quiet = sent + keepalive - time.monotonic()
            if quiet <= 0:
                # A comment line keeps proxies from closing an idle stream, and finds
                # a vanished client where the server cannot tell (the write fails).
                yield KEEPALIVE
                sent = time.monotonic()
                continue
            update = sub.get(timeout=min(quiet, CHECK_EVERY))
            if update is CLOSE:
                return
            if update is not None:
                yield frame(boot, update, documents)
                sent = time.monotonic()
    finally:
        streams.close(sub)
