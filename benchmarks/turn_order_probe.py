"""Whether ``endgame.next_turn`` ever starts a turn while the seat that just played is behind.

Mutation testing left ``next_turn`` searching from the seat that just played
(``range(n + 1)`` instead of ``range(1, n + 1)``). The two differ only when that seat has
fewer turns than ``final_turns`` while another seat does too. The argument that this never
happens: the seat that just played has finished a counted turn, and Loan Shark's
uncounted borrowed turn hands the turn back to the lender (``loan-shark-resume``) before
``next_turn`` runs. This plays random-bot games of 2 to 6 players and counts the calls
where the argument would fail, and the borrowed turns the games held (Loan Shark is in
every multiplayer deck).

    nice -n 10 .venv/bin/python benchmarks/turn_order_probe.py --games 400 --seed 7
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import endgame
from engine.abilities.trades import BORROW
from engine.draft import Draft
from engine.simulate import simulate


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=400, help="games per player count")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    original = endgame.next_turn
    calls, behind = 0, 0

    def probe(draft: Draft) -> None:
        nonlocal calls, behind
        if draft.final_turns is not None:
            calls += 1
            behind += draft.players[draft.current].turns < draft.final_turns
        original(draft)

    endgame.next_turn = probe  # engine.rules calls it through the module
    borrowed = games = 0
    try:
        for players in range(2, 7):
            for result in simulate(players=players, games=args.games, seed=args.seed):
                games += 1
                borrowed += sum(1 for event in result.log if event == BORROW)
    finally:
        endgame.next_turn = original
    print(f"{games} games, {borrowed} turns borrowed from Loan Shark, {calls} calls of "
          f"next_turn in the final round, {behind} with the seat that just played behind")


if __name__ == "__main__":
    main()
