"""A location the camera cannot read: the page asks what lies there, and the answer counts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from pagekit import TRACKED_LOCATIONS, Table, make_app, tracked_setup

from device.service import CameraChanges, Service
from device.tracking import TableTracking
from engine.board import Location
from engine.events import Lead
from engine.game import Game


@dataclass
class Stable:
    """What vision.stabilize reports for a location."""

    state: str
    top: str | None
    depth: int
    unread_for: float = 0.0


@pytest.fixture
def tracked() -> Iterator[Service]:
    game = Game(tracked_setup(), rng=random.Random(2))
    service = Service(game, rng=game.rng)
    TableTracking(unread_after=2.0, ask_after=5.0).install(service)
    service.start()
    yield service
    service.stop()


def luna_unread_for(service: Service, seconds: float) -> None:
    """The camera reads the setup cards, but Luna has been unreadable ``seconds``."""
    reading = {loc.value: Stable("card", s[-1], len(s))
               for loc, s in zip(Location, TRACKED_LOCATIONS, strict=True)}
    reading["luna"] = Stable("unknown", None, 0, seconds)
    service.call(CameraChanges(("change",), reading))


def test_a_location_unread_a_few_seconds_is_asked_about_on_the_page(tracked: Service) -> None:
    client = make_app(tracked).test_client()
    luna_unread_for(tracked, 3.0)
    assert client.get("/api/state").json["question"] is None  # not overdue yet
    luna_unread_for(tracked, 6.0)
    question = client.get("/api/state").json["question"]
    assert question["prompt"] == "What is on top of Luna?"
    assert (question["kind"], question["location"], question["count"]) == ("location", "luna", 2)


def test_the_answer_names_the_card_and_the_game_follows_it(tracked: Service) -> None:
    table = Table(make_app(tracked).test_client())
    luna_unread_for(tracked, 6.0)
    reply = table.post("/api/question", {"top": "card", "card": "quietus"})
    assert reply.status_code == 200 and reply.json["question"] is None
    assert tracked.game.log[-1] == Lead("quietus", Location.LUNA)  # deployed there unseen


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"top": "card"}, 400, "'card' names the card"),
    ({"top": "empty", "card": "quietus"}, 400, "'card' names the card"),
    ({"top": "sideways"}, 400, "'top' must be one of"),
    ({"top": "card", "card": "no-such-card"}, 400, "no-such-card"),
    ({"top": "empty", "count": 3}, 422, "an empty location holds no cards"),
    ({"index": 0}, 400, "unknown field 'index'"),
])
def test_a_bad_answer_is_refused_with_one_line_and_changes_nothing(
        tracked: Service, body: dict[str, object], status: int, says: str) -> None:
    table = Table(make_app(tracked).test_client())
    luna_unread_for(tracked, 6.0)
    before = list(tracked.game.log)
    reply = table.post("/api/question", body)
    assert reply.status_code == status and says in reply.json["error"]
    assert tracked.game.log == before and tracked.question is not None
