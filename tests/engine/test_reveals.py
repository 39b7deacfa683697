"""A card turned over from the deck and placed with no bonus (the die's reveal face, Apollo)."""

from __future__ import annotations

from positions import FixedDie, I, J, L, M, position

from engine.board import House
from engine.decisions import Kind
from engine.events import DrawFromDeck, GainFrom, Lead, Place, SetLocation
from engine.game import Game

HANDS = [["pax-au-telemanus", "sevro"], ["nero", "lorn"]]
STACKS = [["pelus"], ["virga", "eo"], ["orion"], ["the-pax"]]


def rolled_reveal(left: int) -> tuple[Game, tuple[str, ...]]:
    """The die shows its reveal face with ``left`` cards in the deck after the draw; and
    the deck before the draw, top first."""
    game = position(HANDS, STACKS, rng=FixedDie("reveal"))
    rest = game.state.deck or ()
    # Every deck card but left + 1 goes onto Jupiter; the draw takes one more.
    game.push(SetLocation(J, ("pelus", *rest[left + 1:])))
    game.play(Lead("pax-au-telemanus", M))
    game.play(DrawFromDeck())
    return game, rest[:left + 1]


def test_the_reveal_face_turns_over_the_decks_last_card() -> None:
    """The die's reveal face turns over the deck's top card: the last one still counts."""
    game, deck = rolled_reveal(1)
    last = deck[1]  # the draw took deck[0]
    assert game.pending.kind is Kind.PLACE
    assert set(game.legal_actions()) == {Place(loc, last) for loc in (J, M, L, I)}
    game.play(Place(L, last))
    assert game.state.top(L).card == last and game.state.deck_count == 0


def test_the_reveal_face_does_nothing_once_the_deck_is_empty() -> None:
    """Rules, empty deck: nothing can reveal from it, so the turn simply ends."""
    game, _ = rolled_reveal(0)
    assert game.pending.kind is not Kind.PLACE and game.state.deck_count == 0
    assert game.state.current == 1


def test_the_reveal_prompt_says_the_placement_gives_no_bonus() -> None:
    """Rules, bonuses only from Lead or Scout: the die's reveal face places with none."""
    game, _ = rolled_reveal(5)
    assert game.pending.prompt == "Place the revealed card (no bonus)"


def test_apollos_prompt_says_the_placement_gives_no_bonus() -> None:
    """Apollo's house ability reveals and places; the prompt names it and the missing bonus."""
    game = position(HANDS, STACKS, houses=[House.APOLLO, House.MARS])
    game.play(Lead("pax-au-telemanus", J))
    game.play(GainFrom(L))
    assert game.pending.prompt == "Apollo: place the revealed card (no bonus)"
