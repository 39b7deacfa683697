"""The event log: undo restores the exact previous state, replay reproduces the game."""

from __future__ import annotations

import random

import pytest

from engine.board import Location
from engine.errors import IllegalActionError
from engine.events import Identify, from_dict, to_dict
from engine.game import Game
from engine.setup import new_game
from engine.state import GameState


def random_game(seed: int, players: int = 3, moves: int = 60) -> Game:
    rng = random.Random(seed)
    game = Game(new_game([f"P{i}" for i in range(players)], rng), rng=rng)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
    return game


def test_undo_two_deep_after_every_event_restores_the_position_text() -> None:
    """python-chess style: push two, pop two, compare the one-line text form."""
    game = random_game(1, moves=0)
    rng = random.Random(9)
    for _ in range(40):
        fen = game.state.fen()
        state = game.state
        for _ in range(2):
            if game.legal_actions():
                game.push(rng.choice(game.legal_actions()))
        while len(game.states) > 1 and game.state is not state:
            game.undo()
        assert game.state.fen() == fen and game.state == state
        game.play(rng.choice(game.legal_actions()))


def test_replaying_the_log_reproduces_the_state() -> None:
    game = random_game(4)
    again = Game.replay(game.log)
    assert again.state == game.state
    assert again.states == game.states


def test_replay_from_json_reproduces_the_state() -> None:
    game = random_game(5)
    lines = [to_dict(e) for e in game.log]
    assert Game.replay(from_dict(d) for d in lines).state == game.state


def test_undo_with_nothing_to_undo_is_an_error() -> None:
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        Game().undo()


def test_an_illegal_event_changes_nothing() -> None:
    game = random_game(6, moves=5)
    before, log = game.state, list(game.log)
    with pytest.raises(IllegalActionError):
        game.push(Identify(Location.MARS, 99, "eo"))
    assert game.state is before and game.log == log


def test_fen_is_one_line() -> None:
    game = random_game(7, moves=10)
    text = game.state.fen()
    assert "\n" not in text and text.startswith("playing p")
    assert GameState().fen().startswith("setup")
