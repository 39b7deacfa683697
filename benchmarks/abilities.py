"""Simulation speed with every deploy ability: four-player games between random bots.

Each game is dealt by :func:`engine.setup.new_game` from its own seed and played to the
end by folding events with :func:`engine.rules.apply` (the engine alone: no log or undo
history is kept). Every decision, chance ones included, is answered uniformly at random
from the game's ``random.Random``. The goal is at least 100 four-player games per second
on one core.

Prints, for whole games and for the turns alone (up to the end-of-game flow, whose
scoring of options is not ability work): games per second and events per second, by CPU
time (what one core delivers) and by wall time (which also counts waiting on a busy
machine), and how many deploys per game fired an ability.

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

from engine.abilities import DEPLOY
from engine.rules import apply
from engine.setup import new_game
from engine.state import GameState, Phase

NAMES = ("Ann", "Bo", "Cy", "Di")


def play(seed: int, variants: tuple[str, ...], until: Phase) -> tuple[int, int]:
    """Play one game up to ``until``; returns (events, deploys that fired an ability)."""
    rng = random.Random(seed)
    state = apply(GameState(), new_game(NAMES, rng, variants=variants))
    events = deploys = 0
    while state.phase is not until and state.phase is not Phase.OVER:
        assert state.pending is not None, "a game stalled with nothing pending"
        state = apply(state, rng.choice(state.pending.options))
        events += 1
        deploys += sum(1 for c in state.changes if c.kind == "deploy" and c.card in DEPLOY)
    return events, deploys


def measure(label: str, games: int, seed: int, variants: tuple[str, ...], until: Phase) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    totals = [play(seed * 1_000_003 + i, variants, until) for i in range(games)]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    events = sum(e for e, _ in totals)
    fired = sum(d for _, d in totals) / games
    print(f"{label}: {games} games, {cpu:.2f} s CPU, {wall:.2f} s wall")
    print(f"  games/s: {games / cpu:.1f} (CPU), {games / wall:.1f} (wall)")
    print(f"  events/s: {events / cpu:.0f} (CPU), {events / games:.1f} events per game,"
          f" {fired:.1f} abilities fired per game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="store_true", help="the multiplayer variant")
    args = parser.parse_args()
    variants = ("multiplayer-variant",) if args.variant else ()
    measure("whole games", args.games, args.seed, variants, Phase.OVER)
    measure("turns only", args.games, args.seed, variants, Phase.FINALE)


if __name__ == "__main__":
    main()
