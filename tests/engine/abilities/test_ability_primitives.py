"""The shared building blocks of abilities, through the cards that use them.

Each test names the printed card text it relies on (``../shared/reference/cards.json``),
in our own words.
"""

from __future__ import annotations

from abilities_support import M, hand, lead, play, table, tokens, tracked

from engine.abilities.primitives import STEP_BY_STEP
from engine.cards import CARDS, Color
from engine.events import Choose, Decline
from engine.game import Game

STACKS = [["pelus"], ["virga"], ["orion"], ["the-pax"]]


def _offered(game: Game) -> set[object]:
    assert game.pending is not None
    return {getattr(o, "value", None) for o in game.pending.options}


def _reds_unseen(game: Game, *but: str) -> set[object]:
    seen = {s.card for stack in game.state.locations for s in stack}
    return {c for c, card in CARDS.items() if card.color is Color.RED and c not in seen
            and c not in but and c != "dancer"}


def test_a_tracked_dancer_shows_two_reds_one_by_one_for_two_more_helium() -> None:
    """Dancer: gain 1 Helium, and 2 more by revealing 2 other Reds from hand. While
    tracking, the hand is unseen: the player shows each Red (any Red nobody has seen
    elsewhere) or declines, and the prompt counts the cards shown."""
    game = tracked(STACKS)
    lead(game, "dancer", M)
    assert game.pending is not None
    assert game.pending.prompt == "P1: reveal a red card (1 of 2), or decline"
    assert _offered(game) == _reds_unseen(game) | {None}  # None: the Decline
    first = sorted(_reds_unseen(game))[0]
    play(game, Choose(first))
    assert game.pending.prompt == "P1: reveal a red card (2 of 2), or decline"
    assert _offered(game) == _reds_unseen(game, first) | {None}
    second = sorted(_reds_unseen(game, first))[0]
    play(game, Choose(second))
    assert tokens(game) == (3, 0, 0)
    assert set(hand(game)) == {first, second}  # shown, so known to be held


def test_a_tracked_dancer_who_declines_keeps_only_the_first_helium() -> None:
    """Dancer's 2 more Helium need the 2 Reds shown: declining after one gets nothing more."""
    game = tracked(STACKS)
    lead(game, "dancer", M)
    play(game, Choose(sorted(_reds_unseen(game))[0]), Decline())
    assert tokens(game) == (1, 0, 0)


def test_step_by_step_the_simulated_dancer_shows_her_reds_one_at_a_time() -> None:
    """Filmed step by step, the simulated player shows the next Red of a known hand: the
    one true answer, one card a question."""
    game = table([["dancer", "deanna", "eo", "lorn"], ["judge"]], variants=[STEP_BY_STEP])
    lead(game, "dancer", M)
    assert game.pending is not None and game.pending.options == (Choose("deanna"),)
    play(game, Choose("deanna"))
    assert game.pending.options == (Choose("eo"),)
    play(game, Choose("eo"))
    assert tokens(game) == (3, 0, 0)
