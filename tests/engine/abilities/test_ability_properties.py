"""Properties over hundreds of simulated games with every ability.

A plain loop over fixed seeds plays most games (cards conserved, tokens in bounds, every
decision has options, every game ends); hypothesis, with a fixed number of examples,
drives the costlier checks (undo after every event, replay, same seed same log).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.abilities.primitives import MULTIPLAYER_VARIANT
from engine.automa import new_solo_game
from engine.board import FLEET_MAX, INFLUENCE_TOKENS
from engine.cards import ALL_IDS
from engine.events import Event, Setup
from engine.game import Game
from engine.rules import apply
from engine.setup import new_game
from engine.state import GameState, Phase

MAX_EVENTS = 5_000  # a game this long has stalled
CHUNK = 200  # games per test; three chunks play 600 (tens of thousands of turns)


def deal(seed: int) -> Setup:
    """2–6 players; every third game with the multiplayer variant."""
    rng = random.Random(seed)
    variants = (MULTIPLAYER_VARIANT,) if seed % 3 == 0 else ()
    return new_game([f"P{i}" for i in range(2 + seed % 5)], rng, variants=variants)


def check_tokens(state: GameState) -> None:
    assert state.cards_in_play() == state.total_cards
    for p in state.players:
        assert 0 <= p.fleet <= FLEET_MAX and 0 <= p.influence <= INFLUENCE_TOKENS
        assert p.helium >= 0 and p.hand.unknown >= 0
    assert state.sovereign is None or 0 <= state.sovereign < len(state.players)


def check_every_card_once(state: GameState, ids: tuple[str, ...] = ALL_IDS) -> None:
    seen = [s.card for stack in state.locations for s in stack]
    seen += [c for p in state.players for c in p.hand.known]
    seen += [*state.banished, *(state.deck or ()), *state.revealed]
    assert Counter(seen) == Counter(ids)


def play_out(state: GameState, rng: random.Random, until: Phase) -> GameState:
    """Answer every decision at random until ``until`` (or the end); check each state."""
    for _ in range(MAX_EVENTS):
        if state.phase is until or state.phase is Phase.OVER:
            return state
        assert state.pending is not None and state.pending.options, state.fen()
        state = apply(state, rng.choice(state.pending.options))
        check_tokens(state)
    raise AssertionError(f"the game stalled: {state.fen()}")


@pytest.mark.parametrize("chunk", range(3))
def test_thousands_of_turns_conserve_cards_bound_tokens_and_reach_the_end(chunk: int) -> None:
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        rng = random.Random(seed)
        state = play_out(apply(GameState(), deal(seed)), rng, Phase.FINALE)
        assert state.trigger is not None
        check_every_card_once(state)


def test_whole_games_through_the_end_of_game_flow() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        state = play_out(apply(GameState(), deal(seed)), rng, Phase.OVER)
        assert state.phase is Phase.OVER
        check_every_card_once(state)


def test_solo_games_against_au_toma_with_and_without_her_variant() -> None:
    for seed in range(100):
        rng = random.Random(seed)
        setup = new_solo_game("Ann", rng, variant=seed % 2 == 0)
        state = play_out(apply(GameState(), setup), rng, Phase.OVER)
        assert state.phase is Phase.OVER
        assert state.cards_in_play() == setup.total_cards


def _log(seed: int) -> list[Event]:
    rng = random.Random(seed)
    game = Game(deal(seed), rng=rng)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    return game.log


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_undo_after_every_event_restores_the_previous_state(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(deal(seed), rng=rng)
    while not game.is_over:
        previous, text = game.state, game.state.fen()
        mark = len(game.log)
        game.play(rng.choice(game.legal_actions()))
        for _ in range(len(game.log) - mark):  # the answer and any chance it caused
            game.undo()
        assert game.state == previous and game.state.fen() == text
        game.play(rng.choice(game.legal_actions()))  # go on, maybe down another branch
        assert len(game.log) < MAX_EVENTS
    assert Game.replay(game.log).state == game.state


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_a_seed_reproduces_the_same_log(seed: int) -> None:
    assert _log(seed) == _log(seed)
