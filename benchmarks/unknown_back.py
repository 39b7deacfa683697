"""Face-down cards in a card back the classifier never saw, through `companion replay`.

    .venv/bin/python benchmarks/unknown_back.py [--games 4] [--players 3] [--back lattice]
                                                [--no-learning] [--moments N]

Firewall Expert lays a card face down on each other location. Scripted games in which
it is deployed (bots playing, the first ``--games`` seeds from 0 whose game lays a card
face down) are filmed into game folders with the scene generator drawing every
face-down card in ``--back`` (``lattice``: a back the default model was never trained
on; ``classic``: the one it was) and replayed by ``device.recording.replay`` with
``--oracle``, exactly as ``companion replay GAME_DIR --oracle`` runs them: the device's
vision pipeline, tracker, card-back learning and service, the game's truth answering
for the people at the table.

The film's pace is a table's: a change every 2.75 s (4 frames a second: one with a hand
over the changing locations, then ten of the still table), so a location the camera
cannot read is followed without after ``[vision] unread_after`` (2 s) and asked about
after ``ask_after`` (5 s) as at a real table. 640 × 480 frames, for time.

Per game it prints the questions the companion asked (as ``companion replay`` counts
them), how many times the table was asked "what is on top of …?" (each time it is put
again counts), the table's answers on the phone, what learning the back said, whether the game was
tracked (over, with the truth's scores; with ``--moments``, the truth's turns and table
at the cut) and the replay's seconds. ``--no-learning`` replays as ``companion replay``
did before it learnt backs (the device's tracker with no back learner).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.perception import ScriptedCamera
from device.recording import GameFolder, Outcome, replay, write_scripted
from device.service import Service
from device.tracking import LOCATION_QUESTION
from engine.endgame import final_table
from engine.game import Game
from engine.scoring import score
from engine.state import GameState, Phase
from engine.tracking.replay import turn_rows
from engine.tracking.script import Script, layout_of, same_layout, write_script
from vision.classifier import default_model_path
from vision.scanner import TableScanner
from vision.stabilize import Stabilizer
from vision.synth.cards import BACKS

PACE = {"fps": 4.0, "hand_frames": 1, "still_frames": 10}  # a change every 2.75 s
SIZE = (640, 480)


@dataclass
class Result:
    seed: int
    moments: int
    questions: int
    asked_where: int  # times "what is on top of …?" was put to the table
    answers: int
    learnt: int
    tracked: bool
    seconds: float


def face_down_games(players: int, count: int, moments: int | None) -> list[Script]:
    """The first ``count`` scripted games from seed 0 that lay a card face down (within
    the first ``moments`` changes, when given)."""
    found: list[Script] = []
    seed = 0
    while len(found) < count:
        script = (write_script(players, seed=seed) if players > 1
                  else write_script(seed=seed, automa_level=2))
        cut = _cut(script, moments)
        if any(m.layout and any(stack and stack[-1][1] for stack in m.layout)
               for m in cut.moments):
            found.append(cut)
        seed += 1
    return found


def _cut(script: Script, moments: int | None) -> Script:
    if moments is None or moments >= len(script.moments):
        return script
    end = script.moments[moments - 1].truth_len
    return replace(script, moments=script.moments[:moments], truth=script.truth[:end])


def play(script: Script, back: str, learn: bool, folder: Path) -> Result:
    """Film ``script`` into ``folder`` and replay it as `companion replay --oracle` does."""
    camera = ScriptedCamera(seed=script.seed, size=SIZE, back=back, **PACE)  # type: ignore[arg-type]
    game = GameFolder.read(write_scripted(script, folder, camera))
    service = Service(Game(rng=game.companion_rng()))
    asked: list[str] = []
    service.listeners.append(
        lambda update: asked.append(update.message) if update.kind == LOCATION_QUESTION else None)
    done = replay(game, TableScanner(default_model_path(), None), Stabilizer(), oracle=True,
                  service=service, learn_backs=learn)
    return Result(script.seed, len(script.moments), done.questions, len(asked),
                  done.table_answers, sum(m.startswith("learnt") for m in done.backs),
                  tracked(script, done), done.seconds)


def tracked(script: Script, done: Outcome) -> bool:
    """The truth's scores at the end of a whole game; its turns and table at a cut."""
    mine, truth = done.service.game.states, Game.replay(script.truth).states
    if truth[-1].phase is Phase.OVER:
        return mine[-1].phase is Phase.OVER and totals(mine[-1]) == totals(truth[-1])
    rows = turn_rows(mine)
    return rows == turn_rows(truth)[:len(rows)] and same_layout(
        layout_of(mine[-1]), layout_of(truth[-1]))


def totals(state: GameState) -> dict[str, int]:
    return {p.name: p.total for p in score(final_table(state), notes=False).players}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=3, choices=range(1, 7),
                        help="players per game (1: solo against Au Toma)")
    parser.add_argument("--back", default="lattice", choices=BACKS)
    parser.add_argument("--no-learning", action="store_true",
                        help="replay with no card-back learning (as before it was wired)")
    parser.add_argument("--moments", type=int, help="film only each game's first N changes")
    args = parser.parse_args()
    started = time.perf_counter()
    scripts = face_down_games(args.players, args.games, args.moments)
    results = []
    with tempfile.TemporaryDirectory(prefix="unknown-back-") as tmp:
        for k, script in enumerate(scripts):
            results.append(play(script, args.back, not args.no_learning, Path(tmp) / str(k)))
            r = results[-1]
            print(f"seed {r.seed:3d}: {r.moments:3d} changes, {r.questions:2d} questions "
                  f"(what-is-on-top asked {r.asked_where}x), {r.answers:2d} table answers, back "
                  f"learnt {r.learnt}x, tracked {'yes' if r.tracked else 'NO'}, "
                  f"{r.seconds:.0f} s", flush=True)
    n = len(results)
    print(f"{args.players}-player games, back {args.back!r}, learning "
          f"{'off' if args.no_learning else 'on'}: tracked {sum(r.tracked for r in results)}"
          f"/{n}; per game {sum(r.questions for r in results) / n:.1f} questions "
          f"(what-is-on-top asked {sum(r.asked_where for r in results) / n:.1f}x), "
          f"{sum(r.answers for r in results) / n:.1f} table answers; back learnt in "
          f"{sum(r.learnt > 0 for r in results)}/{n} games; "
          f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
