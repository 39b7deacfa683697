"""Helpers for the web tests: exact games, a real Service, the app, a client with the PIN."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from device.service import Service
from engine.board import House, Location
from engine.events import GainFrom, Lead, SeatSpec, SetTokens
from engine.game import Game
from engine.setup import tracked_game
from web import create_app

PIN = "2468"
# Debian's chromium, as the browser tests drive it (Playwright cannot fetch its own here).
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HEIGHT = 844  # a phone's page height (its widths: the tests' own)


@contextmanager
def phone_browser(width: int = 390) -> Iterator[Any]:
    """Chromium as a phone (touch, mobile viewport), with a fresh profile directory."""
    from playwright.sync_api import sync_playwright  # the dev extra: browser tests only

    with tempfile.TemporaryDirectory(prefix="chromium-") as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": width, "height": HEIGHT}, is_mobile=True, has_touch=True)
        try:
            yield context
        finally:
            context.close()
TRACKED_LOCATIONS = (("darrow", "sevro"), ("mustang", "cassius"), ("lorn", "tactus"),
                     ("victra", "ragnar"))


class FakeClock:
    """A clock the test moves by hand (for the PIN rate limiter)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Rolls(random.Random):
    """A die that shows the given faces in turn (then Helium), for exact positions."""

    def __init__(self, *faces: str) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def choice(self, seq: Sequence[Any]) -> Any:
        wanted = self.faces.pop(0) if self.faces else "helium"
        return next(o for o in seq if getattr(o, "face", None) == wanted)


def tracked_setup() -> Any:
    """A physical game being tracked: hands and deck unseen, eight cards on the table."""
    seats = (SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.CERES),
             SeatSpec("Cy", House.DIANA))
    return tracked_game(seats, TRACKED_LOCATIONS, first=0)


END_STACKS = (("darrow", "sevro"), ("eo", "nero"), ("lorn", "aja"), ("judge", "trigg"))


def at_the_end() -> Game:
    """A tracked two-player game whose end came: it waits for Ann's hand laid out.

    Ann holds nero (gained) and four cards nobody has seen; Bo five unseen cards.
    """
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    game = Game(tracked_game(seats, END_STACKS, first=0))
    game.push(SetTokens(0, 6, 0, 7))
    game.play(Lead("quietus", Location.LUNA))
    game.play(GainFrom(Location.MARS))  # 7 Helium and Fleet 7: the end is triggered
    game.play(Lead("invictus", Location.JUPITER))
    game.play(GainFrom(Location.INSTITUTE))
    return game


@contextmanager
def running(game: Game) -> Iterator[Service]:
    """A real Service around ``game``, its engine thread running."""
    service = Service(game, rng=game.rng)
    service.start()
    try:
        yield service
    finally:
        service.stop()


def make_app(service: Service, clock: FakeClock | None = None, *, recording: Any = None,
             **config: Any) -> Flask:
    settings = {"TESTING": True, "TABLE_PIN": PIN, "SECRET_KEY": "test-secret",
                "CLOCK": clock, "SSE_KEEPALIVE": 0.05, **config}
    return create_app(settings, service=service, recording=recording)


class Table:
    """A client that entered the PIN: posts JSON with the CSRF header."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        reply = client.post("/api/login", json={"pin": PIN})
        assert reply.status_code == 200, reply.json
        self.csrf = reply.json["csrf"]

    def post(self, path: str, body: Any) -> Any:
        return self.client.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def state(self) -> dict[str, Any]:
        return self.client.get("/api/state").json


def play_demo_until(service: Service, done: Any, *, seed: int = 3, limit: int = 5000) -> None:
    """Let the demo's scripted player play ``service``'s solo game until ``done(state)``.

    Au Toma's steps wait for AUTOMA as at a real table (the demo's step-by-step game).
    """
    from device.demo import DemoPlayer

    player = DemoPlayer(service, seed=seed, interval=0.01)
    if not service.snapshot().state.players:
        service.call(player.new_game())
    for _ in range(limit):
        if done(service.snapshot().state):
            return
        player.step()
    raise AssertionError("the scripted game never reached the wanted state")
