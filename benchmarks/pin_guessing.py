"""Guessing the table PIN at full speed from one address, against the real page server,
while a phone unlocked by the join code keeps using the controls from another.

The real stack on loopback: a Service (engine thread) tracking a three-player game, the
Flask app behind waitress (``web.Server``). The guesser, from 127.0.0.1 on one
keep-alive connection, posts random 6-digit PINs to ``/api/login`` as fast as the server
answers, never waiting out a ``Retry-After``. The phone, from 127.0.0.2, first opens the
join code's address (what scanning /join's QR code does) and then, every 0.2 s, presses
NEXT through ``/api/press`` with its cookie and CSRF token; its answer latency is timed.
Both loops end by themselves after ``--seconds``.

    nice -n 10 .venv/bin/python benchmarks/pin_guessing.py [--seconds 600]

Prints the guesses the server judged (401 wrong, 200 right), the ones the brake turned
away (429), and the phone's latency; exits 1 if a guess got in or the phone was refused.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.service import Service
from engine.board import House
from engine.events import SeatSpec
from engine.game import Game
from engine.setup import tracked_game
from web import Server, create_app

LOCATIONS = (("darrow", "sevro"), ("mustang", "cassius"), ("lorn", "tactus"),
             ("victra", "ragnar"))
GUESSER, PHONE = "127.0.0.1", "127.0.0.2"
PHONE_EVERY = 0.2  # seconds between the phone's presses


def connect(url: str, source: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30,
                                      source_address=(source, 0))


def guess(url: str, until: float, seed: int) -> Counter[int]:
    """Random PINs from one address until ``until``: the count of each answer's status."""
    rng = random.Random(seed)
    conn = connect(url, GUESSER)
    statuses: Counter[int] = Counter()
    while time.monotonic() < until:
        body = json.dumps({"pin": f"{rng.randrange(10**6):06d}"})
        conn.request("POST", "/api/login", body, {"Content-Type": "application/json"})
        reply = conn.getresponse()
        reply.read()
        statuses[reply.status] += 1
    conn.close()
    return statuses


class Phone:
    """A phone unlocked by the join code, pressing NEXT every :data:`PHONE_EVERY` s."""

    def __init__(self, url: str, token: str) -> None:
        self.conn = connect(url, PHONE)
        self.conn.request("GET", f"/unlock/{token}")
        reply = self.conn.getresponse()
        reply.read()
        self.unlocked_in_one = reply.status == 303
        self.cookie = reply.getheader("Set-Cookie", "").split(";")[0]
        session = self.get("/api/session")
        self.csrf = str(session["csrf"])
        self.ms: list[float] = []
        self.refused: Counter[int] = Counter()

    def get(self, path: str) -> dict[str, object]:
        self.conn.request("GET", path, headers={"Cookie": self.cookie})
        reply = self.conn.getresponse()
        found: dict[str, object] = json.loads(reply.read())
        return found

    def run(self, until: float) -> None:
        headers = {"Cookie": self.cookie, "X-CSRF-Token": self.csrf,
                   "Content-Type": "application/json"}
        while time.monotonic() < until:
            start = time.perf_counter()
            self.conn.request("POST", "/api/press", json.dumps({"button": "next"}), headers)
            reply = self.conn.getresponse()
            reply.read()
            self.ms.append((time.perf_counter() - start) * 1000)
            if reply.status in (401, 403, 429):  # locked out (a rules refusal is an answer)
                self.refused[reply.status] += 1
            time.sleep(max(0.0, PHONE_EVERY - (time.perf_counter() - start)))
        self.conn.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seats = (SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.CERES),
             SeatSpec("Cy", House.DIANA))
    service = Service(Game(tracked_game(seats, LOCATIONS, first=0)), rng=random.Random(1))
    service.start()
    app = create_app({}, service=service)
    with Server(app) as server:
        phone = Phone(server.url, app.config["JOIN_TOKEN"])
        until = time.monotonic() + args.seconds
        pressing = threading.Thread(target=phone.run, args=(until,), daemon=True)
        pressing.start()
        statuses = guess(server.url, until, args.seed)
        pressing.join(args.seconds + 30)
    service.stop()
    report(args.seconds, statuses, phone)
    return 0 if statuses[200] == 0 and not phone.refused and phone.unlocked_in_one else 1


def report(seconds: float, statuses: Counter[int], phone: Phone) -> None:
    sent = sum(statuses.values())
    print(f"PIN guessing from one address for {seconds:.0f} s at full speed "
          f"(waitress on loopback, a 6-digit PIN, the default brake):")
    print(f"  requests {sent} ({sent / seconds:.0f}/s): PINs judged {statuses[401] + statuses[200]}"
          f" (wrong {statuses[401]}, right {statuses[200]}), turned away by the brake "
          f"{statuses[429]}, other {sent - statuses[401] - statuses[200] - statuses[429]}")
    print(f"  successes: {statuses[200]}")
    print(f"  the phone unlocked by the join code: in one request "
          f"{'yes' if phone.unlocked_in_one else 'NO'}; {len(phone.ms)} presses, locked out "
          f"{sum(phone.refused.values())}; answer p50 {statistics.median(phone.ms):.1f} ms, "
          f"p99 {percentile(phone.ms, 99):.1f} ms, max {max(phone.ms):.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
