"""Simulated full games per second on one core (the rules engine's speed).

    .venv/bin/python benchmarks/simulate.py [--games 200] [--players 4] [--bot random]

Pins itself to one CPU, plays seeded whole games with bots (every card ability
fires), and prints games/s and events/s by wall-clock and by CPU time (on a busy
machine the CPU figure is the fairer one). A game runs to its end, the end-of-game
abilities included; the final scoring is left out (benchmarks/scoring.py measures it).
"""

from __future__ import annotations

import argparse
import os
import random
import time

from engine.bots import BOTS
from engine.setup import new_game
from engine.simulate import game_seed, play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", choices=sorted(BOTS), default="random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # CPU 0 also serves the system
    names = [f"P{i + 1}" for i in range(args.players)]
    events = turns = 0
    start, cpu = time.perf_counter(), time.process_time()
    for index in range(args.games):
        rng = random.Random(game_seed(args.seed, index))
        deal = new_game(names, rng)
        game = play(deal, [BOTS[args.bot]() for _ in names], rng)
        events += len(game.log)
        turns += sum(p.turns for p in game.state.players)
    elapsed = time.perf_counter() - start
    busy = time.process_time() - cpu
    print(f"{args.games} {args.players}-player games, {args.bot} bots, one core")
    print(f"games/s: {args.games / elapsed:.1f} wall, {args.games / busy:.1f} CPU")
    print(f"events/s: {events / elapsed:.0f} wall, {events / busy:.0f} CPU")
    print(f"mean turns/game: {turns / args.games:.1f}; mean events/game: {events / args.games:.1f}")


if __name__ == "__main__":
    main()
