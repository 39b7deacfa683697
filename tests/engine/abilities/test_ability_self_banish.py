"""A card's own "banish this card" sentence when the gain before it has nothing to take.

The rulebook's "if it's not possible to use the deploy ability, ignore the ability" keeps
the card (the default); the ``self-banish-alone`` variant reads the banish sentence on its
own. Every case here deploys where the gain is impossible and the card's own condition
does not spare it, so the two readings disagree; the spared cases show they then agree.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from abilities_support import (
    J,
    L,
    M,
    banish_from_deck,
    gain_is_next,
    lead,
    stack,
    table,
)

from engine.abilities.primitives import Moved
from engine.board import House
from engine.decisions import Kind
from engine.events import Lead, SeatSpec
from engine.game import Game
from engine.rulings import SELF_BANISH_ALONE, Rulings, in_effect, in_play, play_variants
from engine.setup import tracked_game
from engine.state import GameState, Location

Setup = Callable[[list[str]], Game]


def _empty_deck(game: Game) -> Game:
    """The same position with the whole deck banished (the deck just stops being usable)."""
    assert game.state.deck is not None
    game.states[-1] = banish_from_deck(game.state, *game.state.deck)
    return game


ELSEWHERE = [["eo"], [], [], []]  # with the deck gone, a card to take in the gain step

# card, where it is deployed, and the table it is deployed on (for a given variant list)
IMPOSSIBLE: dict[str, tuple[Location, Setup]] = {
    "romulus": (J, lambda v: table([["romulus"], ["judge"]], [["deanna"], [], [], []],
                                   variants=v)),  # on a Red, and no Blue here
    "darrow": (J, lambda v: table([["darrow"], ["judge"]], variants=v)),  # nothing here
    "victra": (J, lambda v: table([["victra"], ["judge"]], variants=v)),  # she is the bottom
    "cassius": (J, lambda v: table([["cassius"], ["judge"]], variants=v)),  # nothing under
    "octavia": (M, lambda v: table([["octavia"], ["judge"]], sovereign=0, variants=v)),
    "mustang": (M, lambda v: table([["mustang"], ["judge"]], variants=v)),  # no banished card
    "lysander": (M, lambda v: _empty_deck(table([["lysander"], ["judge"]], ELSEWHERE,
                                                variants=v))),
    "codebreaker": (M, lambda v: _empty_deck(table([["codebreaker"], ["judge"]], ELSEWHERE,
                                                   variants=v))),
}


def _rulings_noted(state: GameState) -> list[tuple[str | None, str | None, str | None]]:
    return [(c.card, c.source, c.target) for c in state.changes if c.kind == "ruling"]


@pytest.mark.parametrize("card", sorted(IMPOSSIBLE))
def test_by_default_an_impossible_gain_ignores_the_banish_and_the_log_says_so(card: str) -> None:
    where, deal = IMPOSSIBLE[card]
    game = deal([])
    lead(game, card, where)
    assert stack(game, where)[-1] == card and card not in game.state.banished
    assert _rulings_noted(game.state) == [(card, "self_banish_needs_gain", "stay")]
    assert gain_is_next(game)


@pytest.mark.parametrize("card", sorted(IMPOSSIBLE))
def test_read_alone_the_banish_sentence_still_banishes_the_card(card: str) -> None:
    where, deal = IMPOSSIBLE[card]
    game = deal([SELF_BANISH_ALONE])
    before = len(game.state.banished)
    lead(game, card, where)
    assert card not in stack(game, where) and game.state.banished[before:] == (card,)
    assert _rulings_noted(game.state) == [(card, "self_banish_needs_gain", "banish")]
    assert gain_is_next(game)


SPARED: dict[str, tuple[Location, Setup]] = {
    "romulus": (J, lambda v: table([["romulus"], ["judge"]], [["lorn"], [], [], []],
                                   variants=v)),  # directly on a Gold
    "darrow": (J, lambda v: table([["darrow"], ["judge"]], [["lorn"], [], [], []],
                                  variants=v)),  # on a Gold, and no other non-Gold
    "lysander": (L, lambda v: _empty_deck(table([["lysander"], ["judge"]], variants=v))),
    "codebreaker": (J, lambda v: _empty_deck(table([["codebreaker"], ["judge"]],
                                                   [["banker"], [], [], []], variants=v))),
    "octavia": (L, lambda v: table([["octavia"], ["judge"]], sovereign=0, variants=v)),
}


@pytest.mark.parametrize("variants", [[], [SELF_BANISH_ALONE]], ids=["default", "alone"])
@pytest.mark.parametrize("card", sorted(SPARED))
def test_where_the_card_would_stay_anyway_both_readings_agree(card: str,
                                                              variants: list[str]) -> None:
    where, deal = SPARED[card]
    game = deal(variants)
    lead(game, card, where)
    assert stack(game, where)[-1] == card and card not in game.state.banished
    assert _rulings_noted(game.state) == []


def test_a_gain_that_happens_decides_nothing_under_either_reading() -> None:
    for variants in ([], [SELF_BANISH_ALONE]):
        game = table([["romulus"], ["judge"]], [["pelus", "deanna"], [], [], []],
                     variants=variants)
        lead(game, "romulus", J)  # on a Red: gains Pelus, then leaves as printed
        assert "romulus" in game.state.banished and _rulings_noted(game.state) == []


def test_tracking_waits_for_the_camera_to_see_the_card_leave() -> None:
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    game = Game(tracked_game(seats, [["deanna"], [], [], []], first=0,
                             variants=[SELF_BANISH_ALONE]))
    game.play(Lead("romulus", M))  # Mars was empty: no Blue to gain
    pending = game.pending
    assert pending is not None and pending.kind is Kind.CONFIRM
    assert pending.options == (Moved(source=M, card="romulus"),)
    game.play(pending.options[0])
    assert game.state.banished == ("romulus",) and gain_is_next(game)


def test_the_setting_defaults_to_the_rulebook_and_travels_as_a_variant() -> None:
    assert Rulings().self_banish_needs_gain is True
    assert play_variants(Rulings()) == ()
    alone = Rulings(self_banish_needs_gain=False)
    assert play_variants(alone) == (SELF_BANISH_ALONE,)
    assert in_play(play_variants(alone)) == alone and in_play(()) == Rulings()
    assert in_play(["multiplayer-variant"]) == Rulings()
    game = table([["romulus"], ["judge"]], variants=[SELF_BANISH_ALONE])
    assert in_play(game.state.variants) == alone


def test_the_page_gets_every_setting_with_its_value_and_which_is_read_in_play() -> None:
    listed = {r["setting"]: r for r in in_effect({SELF_BANISH_ALONE})}
    assert listed["self_banish_needs_gain"]["value"] is False
    assert listed["self_banish_needs_gain"]["in_play"] is True
    assert "banish clause" in str(listed["self_banish_needs_gain"]["text"])
    assert listed["gray_double_count"] == {
        "setting": "gray_double_count", "value": False, "in_play": False,
        "text": "whether a Gray with an extra color may score twice for one clause"}
    assert all(r["value"] == getattr(Rulings(), str(r["setting"])) for r in in_effect(()))
