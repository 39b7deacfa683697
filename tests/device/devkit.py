"""Helpers shared by the device tests (a unique module name: test folders share sys.path)."""

from __future__ import annotations

import random

from engine.decisions import Kind
from engine.events import DrawFromDeck, Setup
from engine.game import Game
from engine.setup import new_game


def two_player_setup(seed: int = 2) -> Setup:
    return new_game(["Ann", "Bo"], random.Random(seed))


def play_until(game: Game, kind: Kind, limit: int = 400, seed: int = 5) -> None:
    """Play seeded random answers (never the deck draw) until a human ``kind`` decision."""
    rng = random.Random(seed)
    for _ in range(limit):
        pending = game.pending
        if pending is not None and pending.kind is kind and pending.player is not None:
            return
        assert pending is not None, "the game ended first"
        options = [o for o in pending.options if not isinstance(o, DrawFromDeck)]
        game.play(rng.choice(options or list(pending.options)))
    raise AssertionError(f"no {kind} decision within {limit} events")


def policy(game: Game) -> object:
    """A deterministic answer for any position: seeded by the log's length."""
    pending = game.pending
    assert pending is not None
    return random.Random(len(game.log)).choice(pending.options)
