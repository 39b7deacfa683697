"""Scoring speed: random 7–10-card hands with Oranges and Grays, on one core.

Each table has two players; every hand holds at least one Orange or Gray (so the
name/caste search always runs), the board has 1–4 cards per location, the banished
pile 0–12 cards, and tokens are random. Prints hands scored per second (wall clock and
CPU time; they differ when other work shares the core) for the plain score, what the
goal of 2,000 hands/s is about, and with ruling notes (``companion score``'s default).

Reproduce (from the repository root)::

    nice -n 10 taskset -c 0 .venv/bin/python benchmarks/scoring.py --hands 10000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.board import Location
from engine.cards import ALL_IDS, CARDS, Color
from engine.scoring import score
from engine.table import Seat, StackCard, Table

CHOOSERS = frozenset({Color.ORANGE, Color.GRAY})


def random_hand(rng: random.Random, pool: list[str]) -> tuple[str, ...]:
    """7–10 cards from the pool with at least one Orange or Gray (taken out of the pool)."""
    while True:
        size = rng.randint(7, 10)
        hand = rng.sample(pool, size)
        if any(CARDS[c].color in CHOOSERS for c in hand):
            for c in hand:
                pool.remove(c)
            return tuple(hand)


def random_table(rng: random.Random) -> Table:
    """A two-player table around two random hands."""
    pool = list(ALL_IDS)
    seats = tuple(
        Seat(name, random_hand(rng, pool), helium=rng.randint(0, 12),
             influence=rng.randint(0, 10), fleet=rng.randint(0, 10),
             sovereign=(name == "A" and rng.random() < 0.5))
        for name in ("A", "B"))
    rng.shuffle(pool)
    stacks = []
    for _ in Location:
        depth = rng.randint(1, 4)
        stacks.append(tuple(StackCard(pool.pop()) for _ in range(depth)))
    banished = tuple(pool.pop() for _ in range(rng.randint(0, 12)))
    return Table(seats=seats, locations=tuple(stacks), banished=banished, neutral_influence=3)


def measure(tables: list[Table], *, notes: bool) -> tuple[float, float]:
    """Hands scored per second of wall-clock time and per second of this process's CPU."""
    wall, cpu = time.perf_counter(), time.process_time()
    for table in tables:
        score(table, notes=notes)
    hands = sum(len(t.seats) for t in tables)
    return hands / (time.perf_counter() - wall), hands / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tables = [random_table(rng) for _ in range(args.hands // 2)]
    wall, cpu = measure(tables, notes=False)
    print(f"{len(tables) * 2} hands (7–10 cards, each with an Orange or Gray), one core: "
          f"{wall:,.0f} hands/s wall clock, {cpu:,.0f} hands/s of CPU time")
    wall, cpu = measure(tables[: max(1, len(tables) // 10)], notes=True)
    print("with ruling notes (re-scores the cards once per setting that could matter): "
          f"{wall:,.0f} hands/s wall clock, {cpu:,.0f} hands/s of CPU time")


if __name__ == "__main__":
    main()
