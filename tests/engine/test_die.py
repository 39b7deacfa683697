"""The Rising die: six faces, each applied; bonuses capped as for locations."""

from __future__ import annotations

import pytest
from positions import FixedDie, I, J, L, M, position

from engine.board import House
from engine.decisions import Kind
from engine.events import Choose, DrawFromDeck, Face, GainFrom, Lead, Place, Roll
from engine.narration import change_text, roll_text
from engine.state import ChangeKind

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


def test_the_roll_waits_for_the_die_and_is_said_with_who_rolled_what() -> None:
    """A Lead that draws from the deck rolls the Rising die: with nothing to roll it, the
    game waits on the die; the roll is then told as the drawing player's."""
    game = position(HANDS, STACKS, deck=["quietus", "invictus"])
    game.play(Lead("pax-au-telemanus", J))
    game.play(DrawFromDeck())
    assert game.pending is not None and game.pending.prompt == "Roll the Rising die"
    game.play(Roll(Face.FLEET))
    said = [change_text(c, game.state) for c in game.state.changes if c.kind == ChangeKind.ROLL]
    assert said == [roll_text("fleet", "P1")]


def test_minerva_is_asked_by_name_for_another_face() -> None:
    """House Minerva: on the Sovereign face, pick another face instead."""
    game = position([["pax-au-telemanus"], ["nero"]], STACKS, houses=[House.MINERVA, None],
                    rng=FixedDie("sovereign"))
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    assert game.pending is not None and game.pending.kind is Kind.FACE
    assert game.pending.prompt == "P1 (Minerva): pick another face"


def test_the_banish_face_names_each_top_card_it_offers() -> None:
    """The banish face banishes a top card of the player's choice: each option names it."""
    game = roll("banish")
    assert game.pending is not None
    assert game.pending.prompt == "Banish the top card of a location"
    assert set(game.legal_actions()) == {Choose("pax-au-telemanus", J, 1), Choose("eo", M, 1),
                                         Choose("orion", L, 0), Choose("the-pax", I, 0)}
