"""One SHA-256 over the event logs and final states of seeded bot games.

    .venv/bin/python benchmarks/log_digest.py [--games 520] [--seed 1]

A refactor that must not change behaviour prints the same digest before and after.
Each game's log goes in as its JSON document (``events.to_dict``, sorted keys) and
its final state as ``fen()``, over 2-5 players and every bot, so a changed string,
order or choice anywhere shows up.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

from engine.bots import BOTS
from engine.events import to_dict
from engine.setup import new_game
from engine.simulate import game_seed, play


def digest(games: int, seed: int) -> tuple[str, int]:
    sha = hashlib.sha256()
    events = 0
    bots = sorted(BOTS)
    for index in range(games):
        players = 2 + index % 4
        bot = bots[index % len(bots)]
        rng = random.Random(game_seed(seed, index))
        names = [f"P{i + 1}" for i in range(players)]
        game = play(new_game(names, rng), [BOTS[bot]() for _ in names], rng)
        for event in game.log:
            sha.update(json.dumps(to_dict(event), sort_keys=True).encode())
            sha.update(b"\n")
        sha.update(game.state.fen().encode())
        events += len(game.log)
    return sha.hexdigest(), events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=520)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    value, events = digest(args.games, args.seed)
    print(f"{args.games} games, {events} events: sha256 {value}")


if __name__ == "__main__":
    main()
