"""The button table: what DIE, AUTOMA, NEXT and UNDO mean in a given game state."""

from __future__ import annotations

import random

import pytest
from devkit import play_until, two_player_setup

from device.controls import DRAW, UNDO, ButtonError, resolve
from engine.board import Location
from engine.decisions import Decision, Kind
from engine.events import Decline, Lead, Place
from engine.game import Game
from engine.state import GameState, Player, evolve
from engine.steps import Step


def gain_state() -> GameState:
    game = Game(two_player_setup(), rng=random.Random(1))
    play_until(game, Kind.GAIN)
    return game.state


def with_pending(state: GameState, decision: Decision) -> GameState:
    return evolve(state, pending=decision)


def test_die_in_the_gain_step_takes_the_deck_card_and_rolls() -> None:
    assert resolve("die", gain_state()) is DRAW


def test_die_outside_the_gain_step_says_what_the_table_waits_for() -> None:
    state = Game(two_player_setup(), rng=random.Random(1)).state
    assert state.pending is not None and state.pending.kind is Kind.TURN
    with pytest.raises(ButtonError, match=r"DIE: waiting for .*Lead or Scout"):
        resolve("die", state)


def test_next_confirms_a_single_option_and_passes_a_may() -> None:
    base = gain_state()
    step = Step("x", 0)
    only = Place(Location.MARS)
    assert resolve("next", with_pending(base, Decision(Kind.PLACE, 0, "place", (only,), step))) \
        is only
    may = Decision(Kind.BLOCK, 0, "block?", (Lead("judge", None), Decline()), step)
    assert resolve("next", with_pending(base, may)) == Decline()
    choice = Decision(Kind.TARGET, 0, "Banish which?", (Lead("a", None), Lead("b", None)), step)
    with pytest.raises(ButtonError, match="choose on the page: Banish which"):
        resolve("next", with_pending(base, choice))


def test_automa_confirms_au_tomas_step_only_on_her_turn() -> None:
    base = gain_state()
    her = evolve(base, players=(*base.players[:1], Player("Au Toma", automa=True)))
    confirm = Place(Location.LUNA)
    step = Decision(Kind.CONFIRM, 1, "Au Toma deploys to Luna", (confirm,), Step("x", 1))
    assert resolve("automa", with_pending(her, step)) is confirm
    assert resolve("next", with_pending(her, step)) is confirm
    with pytest.raises(ButtonError, match="AUTOMA: not Au Toma's move"):
        resolve("automa", her)


def test_undo_and_unknown_buttons() -> None:
    assert resolve("undo", gain_state()) is UNDO
    with pytest.raises(ButtonError, match="no game"):
        resolve("undo", GameState())
    with pytest.raises(ButtonError, match="unknown button 'jump'"):
        resolve("jump", gain_state())
