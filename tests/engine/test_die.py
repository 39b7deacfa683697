"""The Rising die: six faces, each applied; bonuses capped as for locations."""

from __future__ import annotations

import pytest
from positions import FixedDie, I, J, L, M, position

from engine.decisions import Kind
from engine.events import Choose, DrawFromDeck, Face, Lead, Place, Roll

HANDS = [["pax-au-telemanus", "sevro"], ["nero", "lorn"]]
STACKS = [["pelus"], ["virga", "eo"], ["orion"], ["the-pax"]]


def roll(face: str, *, tokens: dict[int, tuple[int, int, int]] | None = None):  # type: ignore[no-untyped-def]
    game = position(HANDS, STACKS, deck=["quietus", "invictus"], tokens=tokens,
                    rng=FixedDie(face))
    game.play(Lead("pax-au-telemanus", J))
    game.play(DrawFromDeck())
    return game


@pytest.mark.parametrize(("face", "field"), [
    ("helium", "helium"), ("fleet", "fleet"), ("influence", "influence"),
])
def test_token_faces(face: str, field: str) -> None:
    game = roll(face)
    assert getattr(game.state.players[0], field) == 1
    assert game.state.last_roll == face


def test_the_roll_is_logged_as_a_chance_event() -> None:
    game = roll("fleet")
    assert game.log[-1] == Roll(Face.FLEET)


def test_sovereign_face_takes_the_token() -> None:
    game = roll("sovereign")
    assert game.state.sovereign == 0


def test_fleet_face_is_capped_at_ten() -> None:
    game = roll("fleet", tokens={0: (0, 0, 10)})
    assert game.state.players[0].fleet == 10


def test_reveal_face_places_the_deck_top_without_a_bonus() -> None:
    game = roll("reveal")
    assert game.pending.kind is Kind.PLACE
    game.play(Place(I, "invictus"))
    ann = game.state.players[0]
    assert game.state.top(I).card == "invictus"
    assert (ann.helium, ann.influence, ann.fleet) == (0, 0, 0)


def test_banish_face_banishes_a_top_card_of_the_players_choice() -> None:
    game = roll("banish")
    assert game.pending.kind is Kind.TARGET
    assert {o.location for o in game.legal_actions()} == {J, M, L, I}
    game.play(Choose("eo", M, 1))
    assert game.state.banished == ("eo",)
    assert [s.card for s in game.state.stack_at(M)] == ["virga"]


def test_banish_face_cannot_pick_a_covered_card() -> None:
    game = roll("banish")
    assert Choose("virga", M, 0) not in game.legal_actions()
