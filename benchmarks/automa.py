"""Solo games against Au Toma: games/s on one core, and her mean score per level.

    .venv/bin/python benchmarks/automa.py [--games 200] [--levels 1-6] [--bot random]

Pins itself to one CPU and plays the same seeded solo games (one bot against Au Toma)
at every level: the level only changes her score, so each level replays the same
games. Prints games/s (play only, scoring left out), then per level her mean score,
the bot's mean score and the bot's win rate (a shared win counts as a win).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.automa import AUTOMA_NAME, new_solo_game
from engine.bots import BOTS
from engine.endgame import final_table
from engine.scoring import score
from engine.simulate import game_seed, play

PLAYER = "You"


def levels(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--levels", default="1-6", help="a level or a range, e.g. 2 or 1-6")
    parser.add_argument("--bot", choices=sorted(BOTS), default="random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # CPU 0 also serves the system
    events = played = 0
    elapsed = 0.0
    print(f"{args.games} solo games per level, {args.bot} bot against {AUTOMA_NAME}, one core")
    for level in levels(args.levels):
        hers, mine, wins = [], [], 0
        for index in range(args.games):
            rng = random.Random(game_seed(args.seed, index))
            deal = new_solo_game(PLAYER, rng, level=level)
            start = time.perf_counter()
            game = play(deal, [BOTS[args.bot](), BOTS[args.bot]()], rng)
            elapsed += time.perf_counter() - start
            events += len(game.log)
            played += 1
            sheet = score(final_table(game.state))
            hers.append(sheet.player(AUTOMA_NAME).total)
            mine.append(sheet.player(PLAYER).total)
            wins += PLAYER in sheet.winners
        print(f"level {level}: Au Toma mean {mean(hers):.1f}, bot mean {mean(mine):.1f}, "
              f"bot win rate {wins / args.games:.3f}")
    print(f"games/s: {played / elapsed:.1f}; events/s: {events / elapsed:.0f}")


if __name__ == "__main__":
    main()
