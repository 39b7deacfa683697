"""The crash test's child: a journaled service playing a seeded game as fast as it can.

    python crash_child.py JOURNAL SEED play    # print "event N" after each command
    python crash_child.py JOURNAL SEED check   # print what start-up rebuilt, then exit

Every line is printed after the command's events were committed to the journal.
"""

from __future__ import annotations

import random
import sys

from devkit import policy, two_player_setup

from device.journal import Journal
from device.service import NewGame, Play, Service


def main(path: str, seed: int, mode: str) -> None:
    service = Service(rng=random.Random(seed), journal=Journal(path))
    print(f"restored {len(service.game.log)} {service.game.state.fen()}", flush=True)
    if mode != "play":
        return
    service.start()
    if not service.game.log:
        service.call(NewGame(two_player_setup()))
    while not service.game.is_over:
        service.call(Play(policy(service.game)))  # type: ignore[arg-type]
        print(f"event {len(service.game.log)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
