"""Live-update delivery: one game event to 20 phones by Server-Sent Events, on loopback.

The real stack: a Service (engine thread) tracking a three-player game, the Flask app
behind waitress (web.Server), and N clients each holding an open ``/events`` stream
over its own TCP connection. The driver applies one correction at a time and waits
until every client has the new document before the next, so each figure is one
event's delivery without queueing behind the previous one. Latency runs from the
moment the service publishes the update (a service listener stamps it) to the moment a
client has read the document's data line; "from submit" adds the engine applying the
event. It also prints the page weight: the HTML, CSS, JS and icon a phone downloads.

Targets (issue 7): p99 ≤ 100 ms with 20 clients; page weight ≤ 150 KB.

Reproduce (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/web_sse.py --clients 20 --events 300
"""

from __future__ import annotations

import argparse
import http.client
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import urlopen

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.service import Play, Service, Update
from engine.board import House
from engine.events import SeatSpec, SetTokens
from engine.game import Game
from engine.setup import tracked_game
from web import Server, create_app

LOCATIONS = (("darrow", "sevro"), ("mustang", "cassius"), ("lorn", "tactus"),
             ("victra", "ragnar"))
P99_TARGET_MS = 100.0
WEIGHT_TARGET_KB = 150.0


class Client(threading.Thread):
    """One phone: reads its stream and stamps when each update's data arrives."""

    def __init__(self, url: str, arrivals: dict[int, list[float]], lock: threading.Condition
                 ) -> None:
        super().__init__(daemon=True)
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self.arrivals = arrivals
        self.lock = lock
        self.ready = threading.Event()

    def run(self) -> None:
        self.conn.request("GET", "/events")
        reply = self.conn.getresponse()
        seq = None
        try:
            while line := reply.readline():
                if line.startswith(b"id: "):
                    seq = int(line.split(b".")[-1])
                elif line.startswith(b"data: ") and seq is not None:
                    self._arrived(seq, time.perf_counter())
        except OSError:
            return  # the server closed the stream at the end

    def _arrived(self, seq: int, when: float) -> None:
        with self.lock:
            self.arrivals.setdefault(seq, []).append(when)
            self.lock.notify_all()
        self.ready.set()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
    return ordered[k]


def page_weight(url: str) -> dict[str, int]:
    """Bytes of the page and the static files it loads."""
    sizes = {}
    for path in ("/", "/static/app.css", "/static/dom.js", "/static/app.js", "/static/icon.svg"):
        with urlopen(url + path, timeout=10) as reply:
            sizes[path] = len(reply.read())
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args(argv)

    seats = (SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.CERES),
             SeatSpec("Cy", House.DIANA))
    service = Service(Game(tracked_game(seats, LOCATIONS, first=0)), rng=random.Random(1))
    published: dict[int, float] = {}
    service.listeners.append(lambda u: published.__setitem__(u.seq, time.perf_counter()))
    service.start()
    app = create_app({"SSE_MAX_CLIENTS": max(40, args.clients)}, service=service)
    arrivals: dict[int, list[float]] = {}
    lock = threading.Condition()
    with Server(app) as server:
        clients = [Client(server.url, arrivals, lock) for _ in range(args.clients)]
        for c in clients:
            c.start()
        for c in clients:
            if not c.ready.wait(10):
                raise SystemExit("a client never received its first document")
        submitted: dict[int, float] = {}
        for n in range(args.warmup + args.events):
            start = time.perf_counter()
            update: Update = service.call(Play(SetTokens(n % 3, n % 40, n % 11, n % 11)))
            submitted[update.seq] = start
            with lock:
                ok = lock.wait_for(lambda s=update.seq: len(arrivals.get(s, ())) == args.clients,
                                   timeout=10)
            if not ok:
                raise SystemExit(f"update {update.seq} did not reach every client in 10 s")
        weight = page_weight(server.url)
    service.stop()

    measured = sorted(submitted)[args.warmup:]
    from_publish = [(t - published[s]) * 1000 for s in measured for t in arrivals[s]]
    from_submit = [(t - submitted[s]) * 1000 for s in measured for t in arrivals[s]]
    report(args, from_publish, from_submit, weight)
    p99 = percentile(from_publish, 99)
    total_kb = sum(weight.values()) / 1024
    return 0 if p99 <= P99_TARGET_MS and total_kb <= WEIGHT_TARGET_KB else 1


def report(args: argparse.Namespace, from_publish: list[float], from_submit: list[float],
           weight: dict[str, int]) -> None:
    print(f"SSE delivery: {args.clients} clients, {args.events} events "
          f"({len(from_publish)} deliveries) after {args.warmup} warm-up, loopback, waitress")
    for name, values in (("from publish", from_publish), ("from submit", from_submit)):
        print(f"  {name:12}  p50 {statistics.median(values):6.2f} ms   "
              f"p99 {percentile(values, 99):6.2f} ms   max {max(values):6.2f} ms")
    p99 = percentile(from_publish, 99)
    print(f"  target p99 ≤ {P99_TARGET_MS:.0f} ms: {'met' if p99 <= P99_TARGET_MS else 'MISSED'}")
    total = sum(weight.values())
    parts = ", ".join(f"{path} {size / 1024:.1f} KB" for path, size in weight.items())
    print(f"Page weight (HTML + CSS + JS + icon): {total / 1024:.1f} KB ({parts})")
    print(f"  target ≤ {WEIGHT_TARGET_KB:.0f} KB: "
          f"{'met' if total / 1024 <= WEIGHT_TARGET_KB else 'MISSED'}")


if __name__ == "__main__":
    sys.exit(main())
