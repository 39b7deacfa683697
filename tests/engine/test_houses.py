"""The Sovereign token and the six house abilities (every Sovereign gain, even if held)."""

from __future__ import annotations

import pytest
from positions import FixedDie, I, J, L, M, position

from engine.board import House
from engine.decisions import Kind
from engine.events import (
    Block,
    Choose,
    Decline,
    DrawFromDeck,
    GainFrom,
    Lead,
    Place,
    SetLocation,
)
from engine.narration import change_text
from engine.state import ChangeKind

HANDS = [["pax-au-telemanus", "judge", "eo"], ["the-howlers", "lorn", "justice"]]
STACKS = [["pelus"], ["virga", "ragnar"], ["orion", "quietus"], ["the-pax"]]


def take_luna(house: House, *, rng: FixedDie | None = None, other: House = House.MARS):  # type: ignore[no-untyped-def]
    game = position(HANDS, STACKS, deck=["invictus", "morning-star"], houses=[house, other],
                    rng=rng)
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    return game


@pytest.mark.parametrize(("house", "field"), [
    (House.DIANA, "influence"), (House.JUPITER, "fleet"), (House.MARS, "helium"),
])
def test_token_houses(house: House, field: str) -> None:
    game = take_luna(house, other=House.APOLLO)
    assert game.state.sovereign == 0
    assert getattr(game.state.players[0], field) == 1


def test_apollo_reveals_and_places_the_deck_top_without_a_bonus() -> None:
    game = take_luna(House.APOLLO)
    assert game.pending.kind is Kind.PLACE
    game.play(Place(I, "invictus"))
    assert game.state.top(I).card == "invictus"
    assert game.state.players[0].influence == 0


def test_ceres_banishes_any_card_of_a_location_not_only_the_top() -> None:
    game = take_luna(House.CERES)
    assert Choose("virga", M, 0) in game.legal_actions()
    game.play(Choose("virga", M, 0))
    assert game.state.banished == ("virga",)
    assert [s.card for s in game.state.stack_at(M)] == ["ragnar"]


def test_minerva_rolls_and_takes_that_face() -> None:
    game = take_luna(House.MINERVA, rng=FixedDie("helium"))
    assert game.state.players[0].helium == 1


def test_minerva_rolling_the_sovereign_picks_another_face() -> None:
    game = take_luna(House.MINERVA, rng=FixedDie("sovereign"))
    assert game.pending.kind is Kind.FACE
    assert "sovereign" not in {o.value for o in game.legal_actions()}
    game.play(Choose("fleet"))
    assert game.state.players[0].fleet == 1


def test_house_ability_fires_again_when_the_token_is_already_held() -> None:
    game = position(HANDS, [["pelus"], [], ["orion", "quietus"], []],
                    houses=[House.MARS, House.DIANA], first=0)
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    game.play(Lead("the-howlers", M))  # Bo
    game.play(GainFrom(J))
    game.play(Lead("judge", J))
    game.play(GainFrom(L))  # Ann already holds it
    assert game.state.sovereign == 0
    assert game.state.players[0].helium == 2


def test_sovereign_passes_from_holder_to_taker() -> None:
    game = position([["pax-au-telemanus", "judge"], ["the-howlers", "lorn"]],
                    [["pelus"], [], ["orion", "quietus"], []])
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    game.play(Lead("the-howlers", J))
    game.play(GainFrom(L))
    assert game.state.sovereign == 1


def sovereign_held_by_bo():  # type: ignore[no-untyped-def]
    game = position(HANDS, [["pelus"], [], ["orion", "quietus"], []],
                    deck=["invictus"], first=1)
    game.play(Lead("the-howlers", J))
    game.play(GainFrom(L))
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    return game


def test_justice_blocks_the_sovereign_being_taken() -> None:
    game = sovereign_held_by_bo()
    assert game.pending.kind is Kind.BLOCK and game.pending.player == 1
    game.play(Block("justice"))
    state = game.state
    assert state.sovereign == 1
    assert "justice" in state.banished
    assert "invictus" in state.players[1].hand.known  # gains the deck's top card


def test_declining_the_block_gives_up_the_token() -> None:
    game = sovereign_held_by_bo()
    game.play(Decline())
    assert game.state.sovereign == 0


def test_no_block_is_offered_without_a_block_card() -> None:
    game = position([["pax-au-telemanus", "judge"], ["the-howlers", "lorn"]],
                    [["pelus"], [], ["orion", "quietus"], []], first=1)
    game.play(Lead("the-howlers", J))
    game.play(GainFrom(L))
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    assert game.state.sovereign == 0


def test_die_sovereign_face_fires_the_house() -> None:
    game = position(HANDS, STACKS, deck=["invictus"], houses=[House.JUPITER, House.MARS],
                    rng=FixedDie("sovereign"))
    game.play(Lead("pax-au-telemanus", J))
    game.play(DrawFromDeck())
    assert game.state.sovereign == 0 and game.state.players[0].fleet == 1


def _bo_holds_the_sovereign_and_the_deck_holds(left: int):  # type: ignore[no-untyped-def]
    """As sovereign_held_by_bo, with only ``left`` cards in the deck (the rest on Mars)."""
    game = position(HANDS, [["pelus"], [], ["orion", "quietus"], []],
                    deck=["invictus"], first=1)
    rest = game.state.deck or ()
    game.push(SetLocation(M, rest[left:]))
    game.play(Lead("the-howlers", J))
    game.play(GainFrom(L))
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    return game


def test_the_sovereign_block_is_asked_and_told_by_name() -> None:
    """Justice: when an opponent would take your Sovereign, reveal and banish it to keep
    the token. The holder is asked by name; the turn's summary says who blocked."""
    game = sovereign_held_by_bo()
    assert game.pending is not None
    assert game.pending.prompt == "P2: block P1 taking the Sovereign?"
    game.play(Block("justice"))
    said = [change_text(c, game.state) for c in game.state.changes
            if c.kind == ChangeKind.BLOCK]
    assert said == ["P2 blocked with Justice"]


def test_justice_draws_the_decks_last_card_and_nothing_from_an_empty_deck() -> None:
    """Justice's blocker gains the deck's top card: the last one too; none if it is empty."""
    last = _bo_holds_the_sovereign_and_the_deck_holds(1)
    last.play(Block("justice"))
    assert "invictus" in last.state.players[1].hand.known and last.state.deck_count == 0
    empty = _bo_holds_the_sovereign_and_the_deck_holds(0)
    hand = empty.state.players[1].hand.size
    empty.play(Block("justice"))
    assert empty.state.sovereign == 1 and empty.state.players[1].hand.size == hand - 1


def test_ceres_is_asked_in_its_own_words() -> None:
    """House Ceres: banish any card of any location."""
    game = take_luna(House.CERES)
    assert game.pending is not None
    assert game.pending.prompt == "Ceres: banish a card from a location"
