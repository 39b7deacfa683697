"""Random bodies at every POST route: no 5xx, no traceback, a refusal changes nothing.

The real app (not in testing mode, so an unexpected error is a logged 500 as at the
table) around a real Service tracking a three-player game, the table PIN entered.
Each route gets ``--bodies`` seeded random bodies: valid bodies (5 %), valid bodies
with one to three fields mangled (a value of any type, a missing or unknown field, extra nesting),
random JSON documents, nesting 9 to 30,000 levels deep, integers of 4,000 to 20,000
digits, NaN / Infinity / 1e999, random bytes, UTF-16 / UTF-32 / Latin-1 text, lone
surrogates, wrong content types and bodies over the 64 KB limit. Valid bodies that
the game accepts (2xx) are allowed to change it; every refusal must leave it as it
was (a malformed one must not even publish a notice) and answer
``{"error": "one line"}``.

Prints per route: bodies sent, 2xx / 4xx / 5xx, tracebacks logged, refusals that
changed the game, refusals without a one-line JSON error. Goal (issue 20): 0 and 0.

Reproduce (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/web_fuzz.py --bodies 10000
    nice -n 10 .venv/bin/python benchmarks/web_fuzz.py --bodies 500 --http   # via waitress
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.service import Service, Update
from engine.board import House
from engine.events import SeatSpec
from engine.game import Game
from engine.setup import tracked_game
from web import Server, create_app

PIN = "2468"
STACKS = [["darrow", "sevro"], ["mustang", "cassius"], ["lorn", "tactus"], ["victra", "ragnar"]]
FIELDS = ["index", "seq", "card", "cards", "button", "location", "face_down", "removed_to",
          "player", "helium", "influence", "fleet", "count", "pin", "players", "first",
          "locations", "automa_level", "priorities", "parity", "variants", "name", "house"]
WORDS = ["mars", "luna", "jupiter", "institute", "darrow", "harmony", "deck", "banished",
         "DIE", "NEXT", "AUTOMA", "odd", "even", "A", "", "\u0000", "𝔘", "2468", "x" * 300]
OTHER_TYPES = [None, "text/plain", "application/x-www-form-urlencoded",
               "multipart/form-data; boundary=x", "application/xml"]


def templates(seq: int) -> dict[str, list[dict[str, Any]]]:
    """Valid bodies per route (the game may still refuse them), to be mangled."""
    players = [{"name": "Ann", "house": "mars"}, {"name": "Bo", "house": "ceres"}]
    return {
        "/api/answer": [{"index": 0, "seq": seq, "card": "harmony"}, {"index": 1, "seq": seq},
                        {"index": 0, "seq": seq, "cards": ["darrow", "harmony"]}],
        "/api/game": [{"players": players, "first": 0, "locations": STACKS},
                      {"players": players[:1], "first": 1, "locations": STACKS,
                       "automa_level": 3, "priorities": {"A": "mars", "B": "luna",
                                                         "C": "jupiter", "D": "institute"},
                       "variants": ["automa-variant"]},
                      {"players": players[:1], "first": 0, "parity": "odd",
                       "priorities": ["mars", "luna", "jupiter", "institute"],
                       "locations": [["darrow", None], *STACKS[1:]]}],
        "/api/question": [{"index": 0}],
        "/api/undo": [{"seq": seq}, {}],
        "/api/press": [{"button": "die"}, {"button": "next"}, {"button": "automa"},
                       {"button": "undo"}],
        "/api/corrections/location": [{"location": "mars", "cards": ["darrow", None],
                                       "face_down": [False, True], "removed_to": "deck",
                                       "seq": seq}],
        "/api/corrections/tokens": [{"player": 1, "helium": 4, "influence": 2, "fleet": 3}],
        "/api/corrections/sovereign": [{"player": 1}, {"player": None, "seq": seq}],
        "/api/corrections/hand": [{"player": 0, "count": 3}],
        "/api/corrections/identify": [{"location": "mars", "index": 0, "card": "darrow"}],
        "/api/login": [{"pin": "0000"}],
        "/api/logout": [{}],
    }


class Bodies:
    """A seeded source of request bodies (bytes) and their content types."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def value(self, depth: int = 0) -> Any:
        """Any JSON value (NaN and Infinity included), a few levels deep at most."""
        rng = self.rng
        kind = rng.randrange(10 if depth < 3 else 7)
        if kind == 0:
            return rng.choice([None, True, False])
        if kind == 1:
            return rng.choice([0, 1, -1, 7, 2**31, 2**53, 2**64, -(2**70), 10**300])
        if kind == 2:
            return rng.randint(-200, 200)
        if kind == 3:
            return rng.choice([0.5, -0.0, 1e308, float("nan"), float("inf"), float("-inf")])
        if kind in (4, 5):
            return rng.choice(WORDS)
        if kind == 6:
            return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0xD800, 0xE000),
                                           rng.randrange(0x10000, 0x10FFFF)]))
                           for _ in range(rng.randrange(6)))
        if kind in (7, 8):
            return [self.value(depth + 1) for _ in range(rng.randrange(5))]
        return {self.key(): self.value(depth + 1) for _ in range(rng.randrange(5))}

    def key(self) -> str:
        return self.rng.choice(FIELDS) if self.rng.random() < 0.8 else self.rng.choice(WORDS)

    def mangled(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with one to three fields replaced, dropped, added or wrapped."""
        rng = self.rng
        body = json.loads(json.dumps(body))
        for _ in range(rng.randint(1, 3)):
            how = rng.randrange(4)
            name = rng.choice(sorted(body)) if body else self.key()
            if how == 0:
                body[name] = self.value()
            elif how == 1:
                body.pop(name, None)
            elif how == 2:
                body[self.key()] = self.value()
            else:
                body[name] = [body.get(name)] if rng.random() < 0.5 else {"x": body.get(name)}
        return body

    def draw(self, valid: list[dict[str, Any]]) -> tuple[str, bytes, str | None]:
        """(kind, body, content type) for one request."""
        rng = self.rng
        roll = rng.random()
        json_type = rng.choice(["application/json", "application/json; charset=utf-8"])
        template = rng.choice(valid)
        if roll < 0.05:
            return "valid", dump(template), json_type
        if roll < 0.40:
            return "mangled", dump(self.mangled(template)), json_type
        if roll < 0.55:
            return "random", dump(self.value()), json_type
        if roll < 0.65:
            return "deep", nested(rng.choice([9, 10, 100, 999, 1000, 5000, 29_000]), rng), json_type
        if roll < 0.70:
            field = rng.choice(FIELDS).encode()
            digits = b"9" * rng.randint(4000, 20_000)
            return "huge-int", b'{"%s": %s}' % (field, digits), json_type
        if roll < 0.75:
            word = rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999"])
            return "nan", b'{"%s": %s}' % (rng.choice(FIELDS).encode(), word), json_type
        if roll < 0.83:
            return "binary", rng.randbytes(rng.randrange(600)), json_type
        if roll < 0.88:
            codec = rng.choice(["utf-16", "utf-32", "utf-16-le", "latin-1"])
            text = json.dumps({**template, "name": "Chloé"}, ensure_ascii=False)
            return "encoding", text.encode(codec, "replace"), json_type
        if roll < 0.93:
            return "content-type", dump(template), rng.choice(OTHER_TYPES)
        if roll < 0.95:
            return "oversized", b'{"cards": [' + b'"darrow",' * 9000 + b'"x"]}', json_type
        return "surrogate", b'{"%s": "\\ud800"}' % rng.choice(FIELDS).encode(), json_type


def dump(value: Any) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


def nested(depth: int, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        return b"[" * depth + b"1" + b"]" * depth
    return b'{"seq":' * depth + b"1" + b"}" * depth


class Tracebacks(logging.Handler):
    """Counts log records that carry a traceback (or are errors at all)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.count += 1
            self.first = self.first or self.format(record)[-800:]


Post = Callable[[str, bytes, "str | None"], tuple[int, bytes]]


def test_client(app: Any) -> tuple[Post, Callable[[], None]]:
    """Posting through Flask's test client, with the PIN entered (and re-entered)."""
    client = app.test_client()
    token: dict[str, str] = {}

    def login() -> None:
        reply = client.post("/api/login", json={"pin": PIN})
        token["csrf"] = reply.json["csrf"]

    def post(path: str, body: bytes, ctype: str | None) -> tuple[int, bytes]:
        headers = {"X-CSRF-Token": token["csrf"]}
        if ctype:
            headers["Content-Type"] = ctype
        reply = client.post(path, data=body, headers=headers)
        return reply.status_code, reply.data

    login()
    return post, login


def over_http(url: str) -> tuple[Post, Callable[[], None]]:
    """Posting through waitress on loopback, one keep-alive connection at a time."""
    parts = urlsplit(url)
    state: dict[str, Any] = {"conn": None}

    def request(path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        for attempt in (1, 2):
            conn = state["conn"] or http.client.HTTPConnection(parts.hostname, parts.port,
                                                               timeout=30)
            state["conn"] = conn
            try:
                conn.request("POST", path, body=body, headers=headers)
                reply = conn.getresponse()
                data = reply.read()
            except (ConnectionError, http.client.HTTPException):
                conn.close()
                state["conn"] = None
                if attempt == 2:
                    raise
                continue
            if reply.getheader("Connection", "").lower() == "close":
                conn.close()
                state["conn"] = None
            return reply.status, data
        raise AssertionError("unreachable")

    def login() -> None:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        conn.request("POST", "/api/login", body=json.dumps({"pin": PIN}),
                     headers={"Content-Type": "application/json"})
        reply = conn.getresponse()
        state["csrf"] = json.loads(reply.read())["csrf"]
        state["cookie"] = reply.getheader("Set-Cookie", "").split(";")[0]
        conn.close()

    def post(path: str, body: bytes, ctype: str | None) -> tuple[int, bytes]:
        headers = {"X-CSRF-Token": state["csrf"], "Cookie": state["cookie"]}
        if ctype:
            headers["Content-Type"] = ctype
        return request(path, body, headers)

    login()
    return post, login


def is_one_line_error(data: bytes) -> bool:
    try:
        error = json.loads(data)["error"]
    except (ValueError, KeyError, TypeError):
        return False
    return isinstance(error, str) and bool(error) and "\n" not in error and len(error) <= 300


def changed(status: int, before: Update, after: Update) -> bool:
    """Did a refusal change anything? Malformed input (400, 413) must not even reach the
    service; a well-formed request the rules refuse may publish a notice (a button press
    says why it did nothing, to every page), but the game must stay as it was."""
    if status in (400, 413):
        return after.seq != before.seq
    return after.state is not before.state


def fuzz_route(path: str, count: int, post: Post, relogin: Callable[[], None],
               service: Service, bodies: Bodies, logged: Tracebacks) -> Counter[str]:
    tally: Counter[str] = Counter()
    for _ in range(count):
        before = service.snapshot()
        valid = templates(before.seq)[path]
        _kind, body, ctype = bodies.draw(valid)
        traced = logged.count
        status, data = post(path, body, ctype)
        tally["sent"] += 1
        tally[f"{status // 100}xx"] += 1
        tally["tracebacks"] += logged.count - traced
        if 400 <= status < 500:
            tally["changed"] += changed(status, before, service.snapshot())
            tally["bad-error"] += not is_one_line_error(data)
        if status == 401 or (path == "/api/logout" and status == 200):
            relogin()  # a real logout (an empty object): keep the controls
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=10_000, help="per route")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--http", action="store_true", help="through waitress on loopback")
    args = parser.parse_args()
    logged = Tracebacks()
    logging.getLogger().addHandler(logged)
    seats = (SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.CERES),
             SeatSpec("Cy", House.DIANA))
    service = Service(Game(tracked_game(seats, STACKS, first=0)), rng=random.Random(args.seed))
    service.start()
    app = create_app({"TABLE_PIN": PIN, "LOGIN_FREE": 10**9,
                      "LOGIN_TABLE_FREE": 10**9}, service=service)
    server = Server(app).start() if args.http else None
    post, relogin = over_http(server.url) if server else test_client(app)
    bodies = Bodies(args.seed)
    routes = sorted(templates(0))
    totals: Counter[str] = Counter()
    start = time.perf_counter()
    print(f"{'route':28} {'sent':>6} {'2xx':>5} {'4xx':>6} {'5xx':>4} {'tracebacks':>10}"
          f" {'changed':>7} {'bad error':>9}")
    try:
        for path in routes:
            tally = fuzz_route(path, args.bodies, post, relogin, service, bodies, logged)
            totals.update(tally)
            print(f"{path:28} {tally['sent']:6d} {tally['2xx']:5d} {tally['4xx']:6d}"
                  f" {tally['5xx']:4d} {tally['tracebacks']:10d} {tally['changed']:7d}"
                  f" {tally['bad-error']:9d}", flush=True)
    finally:
        if server:
            server.stop()
        service.stop()
    elapsed = time.perf_counter() - start
    how = "waitress" if server else "test client"
    print(f"{'all':28} {totals['sent']:6d} {totals['2xx']:5d} {totals['4xx']:6d}"
          f" {totals['5xx']:4d} {totals['tracebacks']:10d} {totals['changed']:7d}"
          f" {totals['bad-error']:9d}   ({elapsed:.0f} s, {how})")
    if logged.first:
        print("first traceback:\n" + logged.first)
    bad = totals["5xx"] + totals["tracebacks"] + totals["changed"] + totals["bad-error"]
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
