"""Serving the app with waitress, a production WSGI server (never Flask's debug server).

Each open event stream holds one waitress thread for as long as the page is open, so
the pool must be larger than the stream cap (``SSE_MAX_CLIENTS``) plus a few threads
for ordinary requests.

Sockets that hold a connection without asking for anything (phones pre-opening them,
or anyone on the Wi-Fi) must not take the page down, so waitress is tuned:

- ``poll()`` instead of ``select()``, which cannot watch a descriptor above 1023;
- room for ``CONNECTION_LIMIT`` connections (waitress's default, 100, was filled by 110
  idle sockets), with the process's open-file limit raised to match;
- a connection must deliver a whole request within ``REQUEST_TIMEOUT`` seconds of
  connecting or of starting it (silent and half-sent ones go), and an idle keep-alive
  connection goes after ``IDLE_TIMEOUT``; a connection whose request is running (an
  event stream) is never cut; checked every second;
- waitress keeps reading a connection while its request runs (request lookahead), so
  a page that closes is seen at once: ``waitress.client_disconnected`` in the request's
  environment tells its event stream to end and give its slot back.
"""

from __future__ import annotations

import contextlib
import logging
import resource
import threading
import time
from typing import Any

from flask import Flask
from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.adjustments import Adjustments  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ThreadedTaskDispatcher  # type: ignore[import-untyped]

SPARE_THREADS = 8  # for page loads and API calls while every stream slot is taken
RESERVED_FILES = 128  # descriptors kept for the journal, camera, model, logs, pipes
CLEANUP_INTERVAL = 1  # seconds between sweeps for connections that overstay
ACCEPT_BATCH = 64  # connections accepted per pass of the loop

log = logging.getLogger(__name__)


def threads_for(app: Flask) -> int:
    """Enough threads for every allowed event stream plus ordinary requests."""
    return int(app.config["SSE_MAX_CLIENTS"]) + SPARE_THREADS


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080,
          threads: int | None = None) -> None:
    """Serve until interrupted (Ctrl-C, SIGTERM via the caller), then end the streams."""
    server = Server(app, host, port, threads)
    try:
        server.run()
    finally:
        server.stop()


def room_for(connections: int) -> int:
    """How many connections the open-file limit allows, raising its soft limit if needed.

    Each connection is one descriptor; :data:`RESERVED_FILES` stay for everything else.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        log.info("open-file limit raised from %d to %d for the web server", soft, raised)
        soft = raised
    if soft != resource.RLIM_INFINITY and soft < wanted:
        log.warning("open-file limit %d (hard): room for %d connections, not %d",
                    soft, soft - RESERVED_FILES, connections)
        return max(1, soft - RESERVED_FILES)
    return connections


class Channel(HTTPChannel):  # type: ignore[misc]
    """waitress's connection, remembering since when it owes the server a whole request."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owed_since: float | None = self.creation_time  # a new one owes its first

    def received(self, data: bytes) -> bool:
        done: bool = super().received(data)
        if self.request is None:
            self.owed_since = None  # nothing half-received
        elif self.owed_since is None:
            self.owed_since = time.time()  # a new request has begun arriving
        return done


class Waitress(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with :class:`Channel` and deadlines for idle connections."""

    channel_class = Channel
    request_timeout = 10.0
    idle_timeout = 30.0

    def handle_accept(self) -> None:
        """Accept every waiting connection (up to :data:`ACCEPT_BATCH`), not just one.

        Each pass of the loop polls every connection, so accepting one per pass made a
        burst of N connections cost N passes over up to N sockets: 550 at once delayed
        the next page load by half a second on a busy machine.
        """
        for _ in range(ACCEPT_BATCH):
            if len(self._map) >= self.adj.connection_limit:
                return
            before = len(self._map)
            super().handle_accept()
            if len(self._map) == before:
                return  # none left waiting (or one failed, logged by waitress)

    def maintenance(self, now: float) -> None:
        """Close connections that hold a place without asking (runs on the loop thread)."""
        for channel in list(self.active_channels.values()):
            if self.overstays(channel, now):
                channel.will_close = True  # the loop closes it on its next pass

    def overstays(self, channel: Channel, now: float) -> bool:
        """True if ``channel`` is past its deadline for a request, or idle too long."""
        if channel.requests:
            return False  # a request in progress, e.g. an event stream: never cut
        owed = channel.owed_since
        if owed is not None and now - owed > self.request_timeout:
            return True  # silent, or a request half-sent (and maybe trickling)
        return bool(now - channel.last_activity > self.idle_timeout)


def build(app: Flask, host: str, port: int, threads: int) -> Waitress:
    """The tuned waitress server for ``app`` (on the first address ``host`` resolves to)."""
    cfg = app.config
    limit = room_for(int(cfg["CONNECTION_LIMIT"]))
    adj = Adjustments(host=host, port=port, threads=threads, ident="companion",
                      connection_limit=limit, cleanup_interval=CLEANUP_INTERVAL,
                      channel_timeout=max(1, int(cfg["IDLE_TIMEOUT"])),
                      asyncore_use_poll=True, channel_request_lookahead=1)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(threads)
    server = Waitress(app, map={}, dispatcher=dispatcher, adj=adj, sockinfo=adj.listen[0])
    server.request_timeout = float(cfg["REQUEST_TIMEOUT"])
    server.idle_timeout = float(cfg["IDLE_TIMEOUT"])
    return server


class Server:
    """A waitress server for ``app``; ``start()`` runs it on a thread (tests, benchmarks).

    Only the thread that runs the loop ever closes the sockets: closing one under a
    running ``poll()`` makes the loop fail (EBADF). :meth:`stop` therefore asks the
    loop to end (a flag, plus a wake-up through waitress's trigger) and lets the loop's
    own thread close everything on its way out. Every wake-up (the stop's and the
    workers') and the closing hold one lock, so nothing ever writes to the trigger's
    pipe once it is closed, when its descriptor number may already belong to another
    file.
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0,
                 threads: int | None = None) -> None:
        self.app = app
        count = threads_for(app) if threads is None else threads
        self._server = build(app, host, port, count)
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._closing = threading.Lock()
        self._closed = False
        self._server.pull_trigger = self._wake  # the workers' wake-up, made safe

    @property
    def url(self) -> str:
        """The address the server listens on, e.g. ``http://127.0.0.1:43121``."""
        host = self._server.effective_host
        port = self._server.effective_port
        return f"http://{host}:{port}"

    @property
    def connections(self) -> int:
        """Open client connections (for tests and benchmarks)."""
        return len(self._server.active_channels)

    def run(self) -> None:
        """Serve on this thread until :meth:`stop` (or Ctrl-C)."""
        server = self._server
        try:
            # waitress's own run(), one poll at a time so that the loop sees the stop
            # flag within one loop timeout even if the wake-up never arrives.
            while not self._stopping.is_set() and server._map:
                wasyncore.loop(timeout=server.adj.asyncore_loop_timeout, map=server._map,
                               use_poll=server.adj.asyncore_use_poll, count=1)
        except (SystemExit, KeyboardInterrupt):
            return  # stop(), called next by serve(), closes on this same thread
        if self._stopping.is_set():
            self._close_sockets()

    def start(self) -> Server:
        """Serve on a background thread."""
        self._thread = threading.Thread(target=self.run, name="waitress", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the event streams, let the workers finish, then close every socket."""
        self.app.extensions["companion_web"].streams.shutdown()
        # Workers first, while the loop still runs: a finishing request wakes it.
        self._server.task_dispatcher.shutdown()
        self._stopping.set()
        loop = self._thread
        if loop is not None and loop.is_alive():
            self._wake()
            loop.join(5)
        else:
            self._close_sockets()  # no loop runs: this thread is the only one left
        self._thread = None

    def _wake(self) -> None:
        with self._closing:
            if self._closed:
                return
            with contextlib.suppress(OSError):  # gone already: the loop's timeout will do
                self._server.trigger.pull_trigger()

    def _close_sockets(self) -> None:
        with self._closing:
            self._closed = True
            wasyncore.close_all(self._server._map)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
