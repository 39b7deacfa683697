"""Tracking whole games with the camera: games matched, moves inferred, questions asked.

    .venv/bin/python benchmarks/tracking.py [--games 30] [--solo-games 20] [--seed 0]

Bots play scripted games (3-player, and solo against Au Toma at level 2); each is fed
through the tracker and the engine as a perfect camera and the buttons perceive it,
with the people at the table (:class:`device.script.Oracle`) answering what a camera
cannot see, and compared with the truth (tokens after every turn, the trigger, the final
scores). Prints per kind of game: games matched; the share of moves the camera could see
that it inferred without a question; the table's answers on the phone per game (choices
nobody sees, cards to name: never questions); questions per game by kind; seconds per
game (the replay only, the script's writing left out).

``--miscount RATE`` keeps the perfect camera but makes it miscount: in that share of
views one named stack's count reads one card off (its top card still right), as a
deep or dim stack does, to measure how the tracker rides out counts::

    .venv/bin/python benchmarks/tracking.py --games 30 --solo-games 0 --miscount 0.08

``--camera`` replays through the real camera path instead: every change of the table is
drawn frame by frame by the scene generator (hands over the changing locations first,
then the still table, slow lighting drift, sensor noise, JPEG), scanned by the committed
classifier and settled by the stabiliser before the tracker sees it. That costs about
ten frames per change, so use a few games::

    .venv/bin/python benchmarks/tracking.py --camera --games 1 --solo-games 1
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random
from dataclasses import replace

from device.replay import Perceive, Report, perfect_camera, replay_script
from device.script import Moment, write_script


def run(kind: str, seeds: range, camera: bool = False, miscount: float = 0.0) -> list[Report]:
    """Replay the scripted games of ``kind`` ("3-player" or "solo") with these seeds."""
    reports = []
    for seed in seeds:
        script = (write_script(3, seed=seed) if kind == "3-player"
                  else write_script(seed=seed, automa_level=2))
        perceive = (through_vision(seed) if camera
                    else miscounting(miscount, seed) if miscount else perfect_camera)
        reports.append(replay_script(script, perceive))
        if not reports[-1].matches:
            print(f"  seed {seed}: {reports[-1].problems[0]}")
    return reports


def through_vision(seed: int) -> Perceive:
    """The camera path: synthetic frames → scanner → stabiliser → the tracker's views."""
    from device.perception import Perception, ScriptedCamera, camera_perceiver
    from vision.scanner import TableScanner
    from vision.stabilize import Stabilizer

    perception = Perception(TableScanner(), Stabilizer())
    return camera_perceiver(perception, ScriptedCamera(seed=seed))


def miscounting(rate: float, seed: int) -> Perceive:
    """A perfect camera that, in ``rate`` of its views, reads one named stack's count one
    card off (seeded)."""
    rng = random.Random(seed)

    def perceive(moment: Moment):  # type: ignore[no-untyped-def]
        view = perfect_camera(moment)
        named = [i for i, s in enumerate(view or ()) if s.top and s.depth > 1]
        if view is None or not named or rng.random() >= rate:
            return view
        i, off = rng.choice(named), rng.choice((-1, 1))
        return tuple(replace(s, depth=s.depth + off) if k == i else s for k, s in enumerate(view))

    return perceive


def summary(kind: str, reports: list[Report]) -> str:
    """The figures for one kind of game, one per line."""
    games = len(reports)
    inferred = sum(r.inferred for r in reports)
    asked = sum(r.asked for r in reports)
    kinds: Counter[str] = Counter()
    for report in reports:
        kinds.update(report.question_kinds)
    per_kind = ", ".join(f"{k} {n / games:.2f}" for k, n in sorted(kinds.items())) or "none"
    return "\n".join([
        f"{kind}: {sum(r.matches for r in reports)}/{games} games matched "
        f"({sum(r.turns for r in reports) / games:.1f} turns per game)",
        f"  moves the camera saw, inferred without a question: "
        f"{inferred / max(1, inferred + asked):.1%} ({inferred} of {inferred + asked})",
        f"  table answers on the phone per game: {sum(r.table for r in reports) / games:.1f}",
        f"  questions per game: {sum(r.questions for r in reports) / games:.2f} ({per_kind})",
        f"  corrections: {sum(r.corrections for r in reports)}",
        f"  seconds per game: {sum(r.seconds for r in reports) / games:.2f}",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="3-player games")
    parser.add_argument("--solo-games", type=int, default=20, help="solo games")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--miscount", type=float, default=0.0,
                        help="share of views with one stack's count one off (perfect camera)")
    parser.add_argument("--camera", action="store_true",
                        help="through generated frames, the scanner and the stabiliser")
    args = parser.parse_args()
    started = time.perf_counter()
    for kind, count in (("3-player", args.games), ("solo", args.solo_games)):
        if count > 0:
            reports = run(kind, range(args.seed, args.seed + count), args.camera, args.miscount)
            print(summary(kind, reports))
    print(f"total {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
