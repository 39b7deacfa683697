"""Serving the app with waitress, a production WSGI server (never Flask's debug server).

Each open event stream holds one waitress thread for as long as the page is open, so
the pool must be larger than the stream cap (``SSE_MAX_CLIENTS``) plus a few threads
for ordinary requests.
"""

from __future__ import annotations

import contextlib
import threading

from flask import Flask
from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.server import create_server  # type: ignore[import-untyped]

SPARE_THREADS = 8  # for page loads and API calls while every stream slot is taken


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


class Server:
    """A waitress server for ``app``; ``start()`` runs it on a thread (tests, benchmarks).

    Only the thread that runs the loop ever closes the sockets: closing one under a
    running ``select()`` makes the loop fail with EBADF. :meth:`stop` therefore asks the
    loop to end (a flag, plus a wake-up through waitress's trigger) and lets the loop's
    own thread close everything on its way out.
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0,
                 threads: int | None = None) -> None:
        self.app = app
        count = threads_for(app) if threads is None else threads
        self._server = create_server(app, host=host, port=port, threads=count,
                                     ident="companion")
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    @property
    def url(self) -> str:
        """The address the server listens on, e.g. ``http://127.0.0.1:43121``."""
        host = self._server.effective_host
        port = self._server.effective_port
        return f"http://{host}:{port}"

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
        # If the trigger is gone already, the loop's timeout notices the flag instead.
        with contextlib.suppress(OSError):
            self._server.trigger.pull_trigger()

    def _close_sockets(self) -> None:
        # A worker still finishing (past the dispatcher's 5 s wait, on a loaded machine)
        # would wake the loop through the closed trigger pipe: make that a no-op first.
        self._server.pull_trigger = lambda *args: None
        wasyncore.close_all(self._server._map)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
