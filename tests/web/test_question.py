"""The tracker's questions on the page: shown to everyone, answered with the PIN."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from flask.testing import FlaskClient
from pagekit import Table, make_app, tracked_setup

from device.service import CameraChanges, Service
from device.tracking import TableTracking
from engine.board import Location
from engine.game import Game


@dataclass
class Stable:
    state: str
    top: str | None
    depth: int


@pytest.fixture
def tracked() -> Iterator[Service]:
    game = Game(tracked_setup(), rng=random.Random(2))
    service = Service(game, rng=game.rng)
    TableTracking().install(service)
    service.start()
    yield service
    service.stop()


def unexpected_view(service: Service) -> None:
    """Mars loses its top card although nobody could have taken it."""
    stacks = [[s.card for s in service.game.state.stack_at(loc)] for loc in Location]
    stacks[1] = stacks[1][:1]
    reading = {loc.value: Stable("card", s[-1], len(s)) for loc, s in zip(Location, stacks,
                                                                         strict=True)}
    service.call(CameraChanges(("change",), reading))


def test_an_open_question_is_in_the_public_document(tracked: Service) -> None:
    client = make_app(tracked).test_client()
    assert client.get("/api/state").json["question"] is None
    unexpected_view(tracked)
    question = client.get("/api/state").json["question"]
    assert "nobody expected" in question["prompt"]
    assert [o["index"] for o in question["options"]] == list(range(len(question["options"])))


def test_answering_needs_the_pin_and_applies_the_reading(tracked: Service) -> None:
    app = make_app(tracked)
    client: FlaskClient = app.test_client()
    unexpected_view(tracked)
    assert client.post("/api/question", json={"index": 0}).status_code == 401
    table = Table(app.test_client())
    options = client.get("/api/state").json["question"]["options"]
    correct = next(o["index"] for o in options if "correct" in o["label"])
    reply = table.post("/api/question", {"index": correct})
    assert reply.status_code == 200 and reply.json["question"] is None
    assert tracked.game.state.stack_at(Location.MARS)[-1].card == "mustang"


def test_a_wrong_answer_number_is_refused(tracked: Service) -> None:
    table = Table(make_app(tracked).test_client())
    assert table.post("/api/question", {"index": 0}).status_code == 409
    unexpected_view(tracked)
    assert table.post("/api/question", {"index": 99}).status_code == 422
