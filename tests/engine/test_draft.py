"""Draft.freeze: a state holds exactly its fields, whatever the rules touched."""

from __future__ import annotations

import random
from dataclasses import fields

from engine.game import Game
from engine.setup import new_game
from engine.state import GameState


def test_frozen_states_hold_exactly_the_state_fields() -> None:
    rng = random.Random(4)
    game = Game(new_game(["Ann", "Bo", "Cy"], rng), rng=rng)
    names = {f.name for f in fields(GameState)}
    for _ in range(120):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
        assert set(vars(game.state)) == names
    assert all(isinstance(vars(s)["players"], tuple) for s in game.states)

