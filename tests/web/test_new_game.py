"""Starting a new physical game from the page: seats, houses, setup cards, Au Toma."""

from __future__ import annotations

from typing import Any

import pytest
from pagekit import Table

from device.service import Service
from engine.board import House, Location
from vision.stabilize import LocationState as Stable

STACKS = [["darrow", "sevro"], ["mustang", "cassius"], ["lorn", "tactus"], ["victra", "ragnar"]]


def players(*houses: str) -> list[dict[str, str]]:
    return [{"name": f"P{i}", "house": h} for i, h in enumerate(houses)]


def test_a_three_player_game_from_given_setup_cards(table: Table, service: Service) -> None:
    reply = table.post("/api/game", {"players": players("mars", "ceres", "diana"),
                                     "first": 2, "locations": STACKS})
    assert reply.status_code == 200, reply.json
    state = service.game.state
    assert [p.house for p in state.players] == [House.MARS, House.CERES, House.DIANA]
    assert state.current == 2 and state.hidden
    assert [p.hand.unknown for p in state.players] == [5, 6, 5]
    assert [s.card for s in state.stack_at(Location.MARS)] == ["mustang", "cassius"]


def test_apollo_goes_first_whatever_the_page_says(table: Table, service: Service) -> None:
    ok = table.post("/api/game", {"players": players("mars", "apollo"), "locations": STACKS})
    assert ok.status_code == 200 and service.game.state.current == 1
    wrong = table.post("/api/game", {"players": players("mars", "apollo"), "first": 0,
                                     "locations": STACKS})
    assert wrong.status_code == 400 and "Apollo" in wrong.json["error"]


def test_setup_cards_come_from_the_camera_when_not_given(table: Table,
                                                         service: Service) -> None:
    service.camera_reading = {loc.value: Stable("card", s[-1], 2)
                              for loc, s in zip(Location, STACKS, strict=True)}
    reply = table.post("/api/game", {"players": players("mars", "diana"), "first": 0})
    assert reply.status_code == 200, reply.json
    assert [s.card for s in service.game.state.stack_at(Location.LUNA)] == [None, "tactus"]


def test_a_solo_game_against_au_toma(table: Table, service: Service) -> None:
    reply = table.post("/api/game", {"players": players("jupiter"), "first": 0,
                                     "locations": STACKS, "automa_level": 4})
    assert reply.status_code == 200, reply.json
    state = service.game.state
    assert state.players[1].automa and state.automa is not None
    assert state.automa.level == 4 and state.automa.parity in ("odd", "even")


@pytest.mark.parametrize(("body", "message"), [
    ({"players": players("mars", "mars"), "first": 0, "locations": STACKS}, "share a house"),
    ({"players": players("mars", "diana"), "locations": STACKS}, "who goes first"),
    ({"players": players("mars", "diana"), "first": 0, "locations": [["nobody"]] * 4},
     "unknown card"),
    ({"players": players("mars", "diana"), "first": 0}, "camera does not see"),
    ({"players": players("jupiter"), "first": 0,
      "locations": [[None, "sevro"], *STACKS[1:]]}, "parity"),
    ({"players": players("mars", "diana"), "first": 0, "locations": STACKS,
      "automa_level": 3}, "solo game"),
    ({"players": [], "first": 0}, "1 to 6"),
])
def test_bad_new_games_are_refused_and_change_nothing(table: Table, service: Service,
                                                      body: dict[str, Any],
                                                      message: str) -> None:
    before = service.game.state
    reply = table.post("/api/game", body)
    assert reply.status_code in (400, 422) and message in reply.json["error"]
    assert service.game.state is before
