"""Whole games played by bots: for tests, statistics and benchmarks.

Every game's randomness comes from one ``random.Random`` seeded from the run's seed
and the game's number, so the same seed gives byte-identical event logs.

>>> results = simulate(players=3, games=2, seed=5)
>>> [r.index for r in results], all(r.turns > 0 for r in results)
([0, 1], True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any

from engine.bots import BOTS, Bot
from engine.endgame import final_table
from engine.events import Event, Setup
from engine.game import Game
from engine.scoring import score
from engine.setup import new_game
from engine.state import Phase, Track

MAX_EVENTS = 20_000  # a game this long has stalled: a bug, reported loudly


@dataclass(frozen=True)
class GameResult:
    """What one simulated game produced."""

    index: int
    seed: str
    turns: int  # turns taken by all players together
    events: int
    trigger_player: int | None
    trigger_conditions: tuple[Track, ...]
    names: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[str, ...]
    log: tuple[Event, ...]
    final: str = ""  # the end position's fen (the journal archives it with the scores)


def game_seed(seed: int, index: int) -> str:
    return f"{seed}:{index}"


def play(setup: Setup, bots: Sequence[Bot], rng: random.Random) -> Game:
    """Play a game to its end, each seat answered by its bot, chance by ``rng``.

    :raises RuntimeError: if the game does not end within ``MAX_EVENTS`` events.
    """
    game = Game(setup, rng=rng)
    state = game.state
    while state.phase is not Phase.OVER:
        decision = state.pending
        if decision is None or len(game.log) > MAX_EVENTS:
            raise RuntimeError(f"game stalled after {len(game.log)} events: {state.fen()}")
        seat = decision.player if decision.player is not None else state.current
        state = game.play(bots[seat].choose(state, decision, rng))
    return game


def result_of(index: int, seed: str, game: Game) -> GameResult:
    state = game.state
    sheet = score(final_table(state), notes=False)
    trigger = state.trigger
    return GameResult(
        index=index,
        seed=seed,
        turns=sum(p.turns for p in state.players),
        events=len(game.log),
        trigger_player=trigger.player if trigger else None,
        trigger_conditions=trigger.conditions if trigger else (),
        names=tuple(p.name for p in state.players),
        totals=tuple(p.total for p in sheet.players),
        winners=tuple(sheet.winners),
        log=tuple(game.log),
        final=state.fen(),
    )


SetupFactory = Callable[[random.Random], Setup]


def simulate(
    players: int = 4,
    games: int = 1,
    seed: int = 0,
    bot: str = "random",
    *,
    setup: SetupFactory | None = None,
    bots: Sequence[str] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games; ``setup`` overrides the deal (e.g. a solo game); ``on_game``
    hears each game's number as it ends (the engine keeps no clock: its caller shows the
    progress)."""
    names = [f"P{i + 1}" for i in range(players)]
    factory = setup or (lambda rng: new_game(names, rng))
    kinds = list(bots) if bots is not None else [bot] * players
    results = []
    for index in range(games):
        seed_text = game_seed(seed, index)
        rng = random.Random(seed_text)
        deal = factory(rng)
        seat_bots = [BOTS[kinds[i % len(kinds)]]() for i in range(len(deal.seats))]
        results.append(result_of(index, seed_text, play(deal, seat_bots, rng)))
        if on_game is not None:
            on_game(index)
    return results


def summary(results: Sequence[GameResult]) -> dict[str, Any]:
    """Statistics over a run: lengths, how the end was triggered, scores, winners."""
    conditions = Counter("+".join(r.trigger_conditions) for r in results)
    seats = len(results[0].totals) if results else 0
    wins = Counter(name for r in results for name in r.winners)
    return {
        "games": len(results),
        "turns_mean": round(mean(r.turns for r in results), 2) if results else 0,
        "turns_min": min((r.turns for r in results), default=0),
        "turns_max": max((r.turns for r in results), default=0),
        "events_mean": round(mean(r.events for r in results), 2) if results else 0,
        "trigger": dict(sorted(conditions.items())),
        "score_mean": [
            round(mean(r.totals[i] for r in results), 2) for i in range(seats)
        ],
        "score_max": max((max(r.totals) for r in results), default=0),
        "wins": dict(sorted(wins.items())),
    }
