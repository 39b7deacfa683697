"""Observations and corrections: cards are conserved, and bad ones are refused in one line."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from positions import I, J, L, M, position

from engine.board import House
from engine.errors import IllegalActionError
from engine.events import (
    DrawUnknown,
    Event,
    Identify,
    Pile,
    RevealCard,
    Scout,
    SeatSpec,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
)
from engine.game import Game
from engine.narration import change_text
from engine.rules import apply
from engine.setup import arranged, tracked_game
from engine.state import GameState


def _tracked() -> Game:
    """A tracked game of two: hands and deck unseen; Jupiter holds an unread card."""
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    return Game(tracked_game(seats, [[None], ["eo"], ["orion"], ["the-pax"]], first=0))


def _refused(game: Game, event: Event, message: str) -> None:
    before = game.state
    with pytest.raises(IllegalActionError, match=rf"^{re.escape(message)}$"):
        game.push(event)
    assert game.state is before


def test_each_bad_correction_is_refused_in_one_line_naming_its_rule() -> None:
    """Bad input gets one clear line and changes nothing."""
    game = _tracked()
    deck = game.state.deck_count
    _refused(game, SetTokens(2, 0, 0, 0), "there is no player 2 [player]")
    _refused(game, Identify(J, 1, "lorn"), "Jupiter has no card 1 [location]")
    _refused(game, DrawUnknown(0, 0), f"cannot draw 0 from a deck of {deck} [empty-deck]")
    _refused(game, DrawUnknown(0, deck + 1),
             f"cannot draw {deck + 1} from a deck of {deck} [empty-deck]")
    game.push(RevealCard(0, "lorn"))
    _refused(game, SetHandCount(0, 0), "Ann is known to hold 1 cards [hand]")
    _refused(game, SetHandCount(0, 1 + deck + 5 + 1),
             "the deck does not hold that many cards [empty-deck]")
    _refused(game, SetLocation(M, ("eo",), removed_to="pile"),  # type: ignore[arg-type]
             "removed cards go to 'banished' or 'deck' [correction]")
    _refused(game, SetLocation(M, ("eo",), face_down=(False, True)),
             "one face-down flag per card [correction]")
    _refused(game, SetLocation(M, ("eo", "eo")), "a card appears twice [one-copy]")
    _refused(game, SetLocation(J, ()), "name the cards that were banished [correction]")
    _refused(game, SetLocation(I, (None,) * (deck + 1)),
             "more cards than the deck holds [conservation]")
    _refused(game, SetTokens(0, -1, 0, 0), "Helium cannot be negative [tokens]")
    _refused(game, SetTokens(0, 0, 11, 0), "Influence placed is 0 to 10 [influence-cap]")
    _refused(game, SetTokens(0, 0, 0, 11), "the Fleet Track runs from 0 to 10 [fleet-cap]")
    _refused(game, SetSovereign(5), "there is no player 5 [player]")
    with pytest.raises(IllegalActionError, match=r"^set the game up first \[setup\]$"):
        apply(GameState(), SetTokens(0, 1, 0, 0))


def test_a_simulated_deck_refuses_unnamed_cards_and_cards_it_does_not_hold() -> None:
    """In a simulation every card has a name and a place: an unnamed card cannot come from
    the deck, and a card turned over by Scout is no longer in it."""
    game = position([["darrow"], ["sevro"]], [["pelus"], [], [], []], deck=["quietus"])
    _refused(game, SetLocation(M, (None,)),
             "a simulated deck needs named cards [conservation]")
    game.play(Scout())  # Quietus is turned over, waiting to be placed
    _refused(game, SetLocation(I, ("quietus",)), "quietus is not in the deck [one-copy]")


def test_hand_counts_and_draws_go_up_to_exactly_what_the_deck_holds() -> None:
    """A hand may be set to exactly its known cards, or grow by exactly the whole deck;
    a draw of one or of the whole deck is allowed."""
    game = _tracked()
    game.push(RevealCard(0, "lorn"))
    game.push(SetHandCount(0, 3))
    hand = game.state.players[0].hand
    assert (hand.known, hand.unknown) == (("lorn",), 2)
    game.push(SetHandCount(0, 1))
    assert game.state.players[0].hand.unknown == 0
    deck = game.state.deck_count
    game.push(SetHandCount(0, 1 + deck))
    assert game.state.deck_count == 0
    again = _tracked()
    again.push(DrawUnknown(1, 1))
    again.push(DrawUnknown(1, again.state.deck_count))
    assert again.state.deck_count == 0


def test_cards_moved_by_a_correction_are_taken_from_where_they_were() -> None:
    """Cards are conserved: an unread card that arrives comes from the deck, one that
    leaves to the deck goes back into it, and a card known to be in a hand leaves it."""
    game = _tracked()
    deck = game.state.deck_count
    game.push(SetLocation(J, (None, None)))  # one more unread card
    assert game.state.deck_count == deck - 1
    game.push(SetLocation(J, (), removed_to=Pile.DECK))  # both back into the deck
    assert game.state.deck_count == deck + 1
    game.push(RevealCard(1, "lorn"))
    game.push(SetLocation(L, ("orion", "lorn")))
    bo = game.state.players[1].hand
    assert "lorn" not in bo.known and bo.size == 4  # dealt 5, one of them now on Luna


def test_a_simulated_card_sent_back_to_the_deck_goes_to_its_bottom() -> None:
    """A simulated deck keeps its order: a card returned by a correction goes under it."""
    game = position([["darrow"], ["sevro"]], [["pelus"], [], [], []], deck=["quietus"])
    count = game.state.deck_count
    game.push(SetLocation(J, (), removed_to=Pile.DECK))
    state = game.state
    assert state.deck is not None and state.deck[-1] == "pelus"
    assert state.deck_count == count + 1 and state.deck[0] == "quietus"


def test_nobody_may_hold_the_sovereign() -> None:
    """A correction may take the Sovereign from everyone."""
    game = _tracked()
    game.push(SetSovereign(1))
    game.push(SetSovereign(None))
    assert game.state.sovereign is None


def test_a_simulated_deck_takes_back_no_unseen_card() -> None:
    """§1: the deck is 112 named cards. A simulated game whose deck is known may still
    hold a card nobody has seen (here in Ann's hand); a correction that would return it
    to the deck unnamed is refused, as taking an unnamed card from it is."""
    event = arranged([["darrow"], ["sevro"]], [["pelus"], [], [], []], deck=["quietus"])
    deck = event.deck or ()
    game = Game(replace(event, unknown=(1, 0), deck=deck[:-1], deck_count=len(deck) - 1))
    assert game.state.players[0].hand.size == 2
    _refused(game, SetHandCount(0, 1), "a simulated deck needs named cards [conservation]")


def test_a_token_correction_is_told_for_the_player_whose_tokens_changed() -> None:
    """§1: each player's Helium, Influence and Fleet are tracked; a correction sets them
    and the turn's summary says whose were corrected."""
    game = _tracked()
    game.push(SetTokens(1, 2, 3, 4))
    bo = game.state.players[1]
    assert (bo.helium, bo.influence, bo.fleet) == (2, 3, 4)
    assert [change_text(c, game.state) for c in game.state.changes] == [
        "Bo's tokens corrected"]
