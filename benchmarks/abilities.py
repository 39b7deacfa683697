"""Simulation speed with every deploy ability: four-player games between random bots.

Each game is dealt by :func:`engine.setup.new_game` from its own seed and played to the
end by folding events with :func:`engine.rules.apply` (the engine alone: no log or undo
history is kept). Every decision, chance ones included, is answered uniformly at random
from the game's ``random.Random``. Prints games per second, events per second, and how
many deploys fired an ability. The goal is at least 100 four-player games per second.

Reproduce (from the repository root, on one core)::

    nice -n 10 taskset -c 0 .venv/bin/python benchmarks/abilities.py --games 500 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.abilities import DEPLOY  # noqa: E402
from engine.rules import apply  # noqa: E402
from engine.setup import new_game  # noqa: E402
from engine.state import GameState, Phase  # noqa: E402

NAMES = ("Ann", "Bo", "Cy", "Di")


def play(seed: int, variants: tuple[str, ...]) -> tuple[int, int]:
    """Play one game; returns (events, deploys whose card has an ability)."""
    rng = random.Random(seed)
    state = apply(GameState(), new_game(NAMES, rng, variants=variants))
    events = deploys = 0
    while state.phase is not Phase.OVER:
        assert state.pending is not None, "a game stalled with nothing pending"
        state = apply(state, rng.choice(state.pending.options))
        events += 1
        deploys += sum(1 for c in state.changes if c.kind == "deploy" and c.card in DEPLOY)
    return events, deploys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="store_true", help="the multiplayer variant")
    args = parser.parse_args()
    variants = ("multiplayer-variant",) if args.variant else ()
    start, cpu = time.perf_counter(), time.process_time()
    totals = [play(args.seed * 1_000_003 + i, variants) for i in range(args.games)]
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    events = sum(e for e, _ in totals)
    deploys = sum(d for _, d in totals)
    print(f"{args.games} four-player games in {elapsed:.2f} s wall, {cpu:.2f} s CPU")
    # CPU time is what one core delivers; wall time also counts waiting on a busy machine.
    print(f"games/s: {args.games / cpu:.1f} (CPU), {args.games / elapsed:.1f} (wall)")
    print(f"events/s: {events / cpu:.0f} (CPU) ({events / args.games:.1f} events per game)")
    print(f"abilities fired: {deploys / args.games:.1f} per game")


if __name__ == "__main__":
    main()
