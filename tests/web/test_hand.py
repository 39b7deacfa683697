"""Scoring by camera on the page: the hand the camera reads is confirmed (or fixed) by a person."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pagekit import Table, at_the_end, make_app, running, tracked_setup

from device.service import HandSeen, Service
from engine.game import Game

ANN = ("nero", "virga", "pelus", "orion", "morning-star")
BO = ("trigg", "helga", "stained", "sefi", "ragnar")


@pytest.fixture
def end_service() -> Iterator[Service]:
    with running(at_the_end()) as service:
        yield service


@pytest.fixture
def end_table(end_service: Service) -> Table:
    return Table(make_app(end_service).test_client())


def test_the_document_asks_for_the_hand_and_shows_what_the_camera_reads(
        end_table: Table, end_service: Service) -> None:
    doc = end_table.state()
    assert doc["pending"]["hand"] == {"player": 0, "size": 5, "known": ["nero"]}
    assert doc["hand_seen"] is None
    end_service.call(HandSeen(0, ("nero", "orion", "virga"), unnamed=2))
    doc = end_table.state()
    assert doc["hand_seen"] == {"player": 0, "cards": ["nero", "orion", "virga"], "unnamed": 2}
    assert doc["notice"] == "camera: 5 cards in Ann's hand (2 not named yet)"


def test_the_camera_may_only_read_the_hand_the_game_waits_for(end_service: Service) -> None:
    with pytest.raises(ValueError, match="not waiting for that hand"):
        end_service.call(HandSeen(1, BO))
    assert end_service.hand_seen is None


def test_confirming_the_hand_scores_it_and_asks_for_the_next(end_table: Table,
                                                             end_service: Service) -> None:
    end_service.call(HandSeen(0, ANN))
    doc = end_table.state()
    reply = end_table.post("/api/answer", {"index": 0, "seq": doc["seq"], "cards": list(ANN)})
    assert reply.status_code == 200, reply.json
    assert reply.json["pending"]["hand"]["player"] == 1
    assert reply.json["hand_seen"] is None  # Ann's reading is not Bo's
    assert end_service.snapshot().state.players[0].hand.known == ANN


@pytest.mark.parametrize(("cards", "error"), [
    (None, "name the hand's cards"),
    (["nero", "virga"], "holds 5 cards, not 2"),
    (["nero", "nero", "virga", "pelus", "orion"], "names a card twice"),
    (["nero", "virga", "pelus", "orion", "no-such-card"], "unknown card id"),
    (["virga", "pelus", "orion", "morning-star", "sevro"], "nero is known to be in that hand"),
])
def test_a_wrong_hand_is_refused_and_changes_nothing(end_table: Table, end_service: Service,
                                                     cards: list[str] | None, error: str) -> None:
    doc = end_table.state()
    body = {"index": 0, "seq": doc["seq"]} | ({} if cards is None else {"cards": cards})
    reply = end_table.post("/api/answer", body)
    assert reply.status_code in (400, 422) and error in reply.json["error"]
    assert end_service.snapshot().state == end_service.game.state
    assert end_service.snapshot().state.pending.player == 0
    assert end_service.snapshot().state.players[0].hand.unknown == 4


def test_cards_are_only_for_a_hand() -> None:
    with running(Game(tracked_setup())) as service:
        table = Table(make_app(service).test_client())
        doc = table.state()
        reply = table.post("/api/answer", {"index": 0, "seq": doc["seq"], "cards": ["aja"]})
        assert reply.status_code == 400 and "only for a hand" in reply.json["error"]
