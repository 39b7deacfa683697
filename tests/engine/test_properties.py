"""Properties over random simulated games (hypothesis picks the seeds)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import FLEET_MAX, INFLUENCE_TOKENS
from engine.game import Game
from engine.setup import new_game
from engine.state import GameState


def check_invariants(state: GameState) -> None:
    assert state.cards_in_play() == state.total_cards
    seen = [s.card for stack in state.locations for s in stack if s.card]
    seen += [c for p in state.players for c in p.hand.known] + list(state.banished)
    seen += list(state.deck or ()) + [c for c in state.revealed if c]
    assert len(seen) == len(set(seen)), "a card is in two places"
    for p in state.players:
        assert 0 <= p.fleet <= FLEET_MAX
        assert 0 <= p.influence <= INFLUENCE_TOKENS
        assert p.helium >= 0 and p.hand.unknown >= 0
    assert state.sovereign is None or 0 <= state.sovereign < len(state.players)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 6))
def test_whole_games_conserve_cards_bound_tokens_undo_and_replay(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = Game(new_game([f"P{i}" for i in range(players)], rng), rng=rng)
    while not game.is_over:
        assert game.legal_actions(), "a pending decision has no options"
        previous, mark = game.state, len(game.log)
        game.play(rng.choice(game.legal_actions()))
        check_invariants(game.state)
        for _ in range(len(game.log) - mark):  # the move and any die roll it caused
            game.undo()
        assert game.state == previous  # undo after apply is the identity
        game.play(rng.choice(game.legal_actions()))  # go on (maybe down another branch)
        assert len(game.log) < 5000, "the game stalled"
    assert Game.replay(game.log).state == game.state
