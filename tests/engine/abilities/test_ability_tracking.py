"""Every deploy ability while tracking a physical game, from every location.

Hands and the deck are unseen; one stack card is unidentified and one lies face down.
Questions are answered at random, as the table might: an option that leaves a card
unnamed is sometimes answered as it is and sometimes with a name filled in. A refused
answer (``IllegalActionError``) changes nothing and another is tried; anything else
is a bug. Each ability must come to rest at the gain step or the next player's turn.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from abilities_support import I, L, M

from engine.abilities import DEPLOY
from engine.board import LOCATIONS, House
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Event, Lead, SeatSpec, SetLocation, SetSovereign, SetTokens
from engine.game import Game
from engine.setup import tracked_game
from engine.state import GameState

STACKS = [["lorn", "deanna"], ["eo", "pelus"], ["aja", "trigg"], ["lawyer", "zanzibar"]]


def _tracked(card: str) -> Game:
    seats = [SeatSpec("P1", House.MARS), SeatSpec("P2", House.DIANA), SeatSpec("P3", None)]
    stacks = [[c for c in s if c != card] for s in STACKS]
    game = Game(tracked_game(seats, stacks, first=0), rng=random.Random(0))
    assert game.state.hidden
    game.push(SetLocation(M, (*stacks[1], None)))  # a card the camera could not read
    here = game.state.stack_at(L)
    game.push(SetLocation(L, (*(s.card for s in here), None),
                          face_down=(*(False for _ in here), True)))
    for name in ("nero", "the-jackal"):  # banished earlier (unless in play now)
        if name != card:
            game.push(SetLocation(I, (*stacks[3], name)))
            game.push(SetLocation(I, tuple(stacks[3])))
    for seat in range(3):
        game.push(SetTokens(seat, 4, 2, 3))
    game.push(SetSovereign(0))
    return game


def _filled(option: Event, state: GameState, rng: random.Random) -> Event:
    """The option, or (sometimes) the option with its unnamed card named."""
    field = "value" if hasattr(option, "value") else "card"
    if getattr(option, field, "") is not None or rng.random() < 0.3:
        return option
    seen = {s.card for stack in state.locations for s in stack} | set(state.banished)
    names = sorted(c for c in DEPLOY if c not in seen)
    return dataclasses.replace(option, **{field: rng.choice(names)})  # type: ignore[type-var]


def _settled(game: Game) -> bool:
    pending = game.pending
    return pending is None or pending.kind is Kind.GAIN or (
        pending.kind is Kind.TURN and pending.player != 0)


def _resolve(game: Game, rng: random.Random) -> None:
    for _ in range(60):
        if _settled(game):
            return
        for _attempt in range(200):
            option = _filled(rng.choice(game.legal_actions()), game.state, rng)
            try:
                game.play(option)
                break
            except IllegalActionError:
                continue
        else:
            raise AssertionError(f"no answer accepted: {game.pending}")
    raise AssertionError(f"the ability did not come to rest: {game.state.fen()}")


@pytest.mark.parametrize("card", sorted(DEPLOY))
def test_every_ability_resolves_while_tracking(card: str) -> None:
    for location in LOCATIONS:
        for seed in range(3):
            game = _tracked(card)
            game.play(Lead(card, location))
            _resolve(game, random.Random(seed))
            state = game.state
            assert state.cards_in_play() == state.total_cards
