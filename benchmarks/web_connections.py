"""The page under idle sockets, and how soon a closed page gives its live-update slot back.

The real stack on loopback: a Service tracking a three-player game, the app behind
web.Server (waitress, tuned as in production). It opens ``--idle`` TCP connections that
never send a byte and ``--half`` that send half a request, then times the first GET
after them (it waits for the server to accept the burst) and ``--requests``
fresh-connection GETs of ``/api/state`` and ``/`` (as phones would), printing p50 and
max (the sockets held all along); then how long a server with the default deadline
(``REQUEST_TIMEOUT``) keeps such sockets.
Then, with the real keep-alive interval (15 s), it opens an event stream, reads its
first document, closes it and times until the server has freed the slot, ``--streams``
times; and the same for the cap's worth of streams closed at once.

Targets (issue 20): the page and the API under 1 s with 300 idle + 50 half-sent
connections; a closed stream's slot free again within ~2 s (it was ~30 s).

Reproduce (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/web_connections.py --idle 300 --half 50
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import urlopen

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Flask

import web.server
from device.service import Service
from engine.board import House
from engine.events import SeatSpec
from engine.game import Game
from engine.setup import tracked_game
from web import Server, create_app
from web.events import Streams

STACKS = (("darrow", "sevro"), ("mustang", "cassius"), ("lorn", "tactus"), ("victra", "ragnar"))
HALF_REQUESTS = (b"GET /api/state HTTP/1.1\r\nHost: table\r\n",
                 b"POST /api/undo HTTP/1.1\r\nHost: table\r\nContent-Length: 900\r\n\r\n{")
STREAM_REQUEST = b"GET /events HTTP/1.1\r\nHost: table\r\n\r\n"


def connect(url: str, first: bytes = b"") -> socket.socket:
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=30)
    if first:
        sock.sendall(first)
    return sock


def open_stream(url: str) -> socket.socket:
    """An event stream, read up to its first document."""
    sock = connect(url, STREAM_REQUEST)
    seen = b""
    while b"\ndata: " not in seen:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"the stream was refused or ended: {seen[:120]!r}")
        seen += chunk
    return sock


def fetch(url: str) -> float:
    """Seconds for one GET on a fresh connection, the body read whole."""
    start = time.perf_counter()
    with urlopen(url, timeout=30) as reply:
        reply.read()
    return time.perf_counter() - start


def summary(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (f"{name:34} n={len(ms):3d}  p50 {statistics.median(ms):7.1f} ms"
            f"  max {max(ms):7.1f} ms")


def slot_free_times(url: str, streams: Streams, rounds: int) -> list[float]:
    """Close one stream at a time; seconds until the server has freed its slot."""
    times = []
    for _ in range(rounds):
        before = streams.count
        sock = open_stream(url)
        start = time.perf_counter()
        sock.close()
        if not streams.wait_count(before, timeout=60):
            raise TimeoutError("a closed stream kept its slot for 60 s")
        times.append(time.perf_counter() - start)
    return times


def cap_free_time(url: str, streams: Streams, cap: int) -> float:
    """Open the cap's worth of streams, close them all; seconds until every slot is free."""
    pages = [open_stream(url) for _ in range(cap)]
    start = time.perf_counter()
    for page in pages:
        page.close()
    if not streams.wait_count(0, timeout=60):
        raise TimeoutError(f"{streams.count} slots still held 60 s after closing")
    elapsed = time.perf_counter() - start
    open_stream(url).close()  # and a new page gets in
    return elapsed


def still_held(held: list[socket.socket], deadline: float) -> int:
    """Wait (up to ``deadline``, a perf_counter time) for the server to close every held
    connection; how many it had not closed by then."""
    kept = 0
    for sock in held:
        sock.settimeout(max(0.01, deadline - time.perf_counter()))
        try:
            while sock.recv(4096):
                pass
        except ConnectionResetError:
            pass
        except TimeoutError:
            kept += 1
        sock.close()
    return kept


@contextmanager
def serving(**config: Any) -> Iterator[tuple[Flask, Server]]:
    """The app (defaults, then ``config``) around a fresh game, behind a running Server."""
    seats = (SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.CERES),
             SeatSpec("Cy", House.DIANA))
    service = Service(Game(tracked_game(seats, STACKS, first=0)), rng=random.Random(1))
    service.start()
    app = create_app({"TABLE_PIN": "2468", **config}, service=service)
    server = Server(app).start()
    try:
        yield app, server
    finally:
        server.stop()
        service.stop()


def hold(url: str, idle: int, half: int) -> list[socket.socket]:
    held = [connect(url) for _ in range(idle)]
    return held + [connect(url, HALF_REQUESTS[i % 2]) for i in range(half)]


def latency_while_held(args: argparse.Namespace) -> float:
    """Page and API timings with the sockets held all along; the worst, in seconds."""
    # A deadline far off: the sockets stay for the whole measurement, as if an attacker
    # kept replacing them (the production deadline is measured on its own below).
    with serving(REQUEST_TIMEOUT=3600.0) as (_app, server):
        held = hold(server.url, args.idle, args.half)
        first = fetch(server.url + "/api/state")  # waits for the server to accept the lot
        state = [fetch(server.url + "/api/state") for _ in range(args.requests)]
        page = [fetch(server.url + "/") for _ in range(args.requests)]
        print(f"{args.idle} idle + {args.half} half-sent connections held "
              f"({server.connections} open on the server after measuring)")
        print(f"{'first GET /api/state after them':34} {first * 1000:7.1f} ms"
              f"  (accepting {web.server.ACCEPT_BATCH} at a time)")
        print(summary("GET /api/state", state))
        print(summary("GET /", page))
        for sock in held:
            sock.close()
    return max(first, *state, *page)


def dropping(args: argparse.Namespace) -> None:
    """How long the server, with its default deadline, keeps the held sockets."""
    with serving() as (app, server):
        opened = time.perf_counter()
        held = hold(server.url, args.idle, args.half)
        limit = float(app.config["REQUEST_TIMEOUT"])
        kept = still_held(held, opened + limit + 10)
        print(f"held connections dropped by the server {time.perf_counter() - opened:.1f} s"
              f" after opening, {kept} kept (REQUEST_TIMEOUT {limit:g} s, swept every second)")


def freeing(args: argparse.Namespace) -> None:
    """How soon closed pages give their live-update slots back (real keep-alive)."""
    with serving() as (app, server):
        streams: Streams = app.extensions["companion_web"].streams
        print(summary("closed stream -> slot free", slot_free_times(server.url, streams,
                                                                    args.streams)))
        cap = int(app.config["SSE_MAX_CLIENTS"])
        print(f"{f'{cap} streams closed -> all free':34} "
              f"{cap_free_time(server.url, streams, cap) * 1000:7.1f} ms"
              f"  (SSE_KEEPALIVE {app.config['SSE_KEEPALIVE']:g} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=300)
    parser.add_argument("--half", type=int, default=50)
    parser.add_argument("--requests", type=int, default=50, help="GETs of each page")
    parser.add_argument("--streams", type=int, default=20, help="streams closed one by one")
    parser.add_argument("--accept-batch", type=int, default=web.server.ACCEPT_BATCH,
                        help="connections accepted per loop pass (1: waitress's own way)")
    args = parser.parse_args()
    web.server.ACCEPT_BATCH = args.accept_batch
    worst = latency_while_held(args)
    dropping(args)
    freeing(args)
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
