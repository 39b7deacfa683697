"""Fixtures for the web tests: a real Service around a real engine game, the app, clients."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pagekit import FakeClock, Rolls, Table, make_app, running, tracked_setup

from device.service import Service
from engine.game import Game
from engine.setup import new_game


@pytest.fixture
def service() -> Iterator[Service]:
    """A tracked three-player game on a running engine thread (the die shows Helium)."""
    with running(Game(tracked_setup(), rng=Rolls())) as service:
        yield service


@pytest.fixture
def sim_service() -> Iterator[Service]:
    """A simulated game: every hand and the deck known to the engine, never to the page."""
    rng = random.Random(3)
    with running(Game(new_game(["Ann", "Bo", "Cy"], rng), rng=rng)) as service:
        yield service


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(service: Service, clock: FakeClock) -> Flask:
    return make_app(service, clock)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client)
