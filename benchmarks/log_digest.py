"""One SHA-256 over the event logs and final states of seeded bot games.

    .venv/bin/python benchmarks/log_digest.py [--games 520] [--seed 1]

A refactor that must not change behaviour prints the same digest before and after.
Each game's log goes in as its JSON document (``events.to_dict``, sorted keys), each
state's changes, turn kind and trigger as JSON, and the final state as ``fen()``, over
2-5 players, solo games against Au Toma and every bot, so a changed string, order or
choice anywhere shows up.
Run it from another checkout with ``PYTHONPATH=<checkout>`` to compare two versions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

from engine.automa import new_solo_game
from engine.bots import BOTS
from engine.events import Setup, to_dict
from engine.setup import new_game
from engine.simulate import game_seed, play
from engine.state import GameState


def digest(games: int, seed: int) -> tuple[str, int]:
    sha = hashlib.sha256()
    events = 0
    bots = sorted(BOTS)
    for index in range(games):
        bot = bots[index % len(bots)]
        rng = random.Random(game_seed(seed, index))
        deal = _deal(index, rng)
        game = play(deal, [BOTS[bot]() for _ in deal.seats], rng)
        for event, state in zip(game.log, game.states[1:], strict=True):
            sha.update(json.dumps(to_dict(event), sort_keys=True).encode())
            sha.update(json.dumps(_facts(state)).encode())
            sha.update(b"\n")
        sha.update(game.state.fen().encode())
        events += len(game.log)
    return sha.hexdigest(), events


def _deal(index: int, rng: random.Random) -> Setup:
    """2-5 players, and every fifth game a solo game against Au Toma (levels 1-4)."""
    if index % 5 == 4:
        return new_solo_game("P1", rng, level=1 + index // 5 % 4)
    return new_game([f"P{i + 1}" for i in range(2 + index % 4)], rng)


def _facts(state: GameState) -> list[object]:
    """What a state says beyond its fen: the changes, the turn's kind, the trigger."""
    trigger = state.trigger
    return [[list(c) for c in state.changes], state.turn.kind if state.turn else None,
            [trigger.player, trigger.turn, list(trigger.conditions)] if trigger else None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=520)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    value, events = digest(args.games, args.seed)
    print(f"{args.games} games, {events} events: sha256 {value}")


if __name__ == "__main__":
    main()
