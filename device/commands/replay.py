"""``companion replay GAME_DIR``: a recorded game through vision, tracker and engine.

    companion replay GAME_DIR [--model FILE.onnx] [--journal FILE] [--oracle] [--json]

Feeds the folder's frames, button presses and phone answers through the same service,
tracker, vision pipeline and card-back learning the device uses (docs/game-folder.md
describes the folder), the die rolling from the companion's random source as the game
began, and prints what the companion made of it: the game's events, the questions it
asked, the final position and, when the game ended, the scores. What the replay cannot
reproduce (a format-1 folder's die) is a note on stderr. ``--journal`` writes the
events to a SQLite journal as the device does; ``--oracle`` (scripted folders only) lets
the game's truth answer what only the table can.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from device.cli import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="feed a recorded game through the whole pipeline",
                       description="Feed a recorded game folder through vision, the tracker "
                                   "and the engine. The folder's layout and the output: "
                                   "docs/game-folder.md; an example: examples/game.")
    p.add_argument("game_dir", metavar="GAME_DIR", help="a recorded or scripted game folder")
    p.add_argument("--model", help="card classifier (.onnx); default: the installed one")
    p.add_argument("--journal", metavar="FILE", help="write the events to this journal")
    p.add_argument("--oracle", action="store_true",
                   help="scripted folders: the game's truth answers for the table")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(handler=run)


# The pipeline is imported inside the handlers: on top of `companion --help` (0.10 s of
# CPU) device.recording would add 0.31 s to every command's start, device.appliance 0.50 s,
# engine.game 0.11 s and engine.state alone 0.05 s (benchmarks/import_costs.py).
def run(args: argparse.Namespace) -> int:
    from vision.progress import Progress

    with Progress("replay", quiet=args.quiet) as progress:
        outcome = replay_folder(args.game_dir, model=args.model, journal=args.journal,
                                oracle=args.oracle, progress=progress)
    for note in outcome.notes:
        print(f"companion replay: note: {note}", file=sys.stderr)
    summary = _summary(outcome)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        _print(summary)
    return 0


def replay_folder(game_dir: str, *, model: str | None = None, journal: str | None = None,
                  oracle: bool = False, watch: Any = None, progress: Any = None) -> Any:
    """What ``companion replay`` does with a folder: read it, build the vision and the
    service as the device does, and feed it through (benchmarks/games.py takes this
    path too). Returns the :class:`device.recording.Outcome`. ``watch`` sees each item
    fed (:data:`device.recording.Watch`); ``progress`` (:class:`vision.progress.Progress`)
    counts them.

    :raises UsageError: ``oracle`` for a folder that holds no script.
    """
    from device.recording import GameFolder, replay

    folder = GameFolder.read(game_dir)
    if oracle and folder.script is None:
        raise UsageError(f"{game_dir}: --oracle needs a scripted folder (script.json)")
    if progress is not None:
        progress.stage("loading the model", 1)
    scanner, stabilizer = _vision(model, folder.corners)
    service = _service(folder.companion_rng(), journal)
    if progress is not None:
        progress.stage("frames and presses", len(folder.items))

    def fed(item: dict[str, Any], outcome: Any) -> None:
        if progress is not None:
            progress.tick()
        if watch is not None:
            watch(item, outcome)

    return replay(folder, scanner, stabilizer, oracle=oracle, service=service, watch=fed)


def _vision(model: str | None, corners: Any) -> tuple[Any, Any]:
    from device.appliance import manual_calibration
    from vision.classifier import default_model_path
    from vision.scanner import TableScanner
    from vision.stabilize import Stabilizer

    return TableScanner(model or default_model_path(), manual_calibration(corners or [])), (
        Stabilizer())


def _service(rng: random.Random, journal_path: str | None) -> Any:
    from device.journal import Journal
    from device.service import Service
    from engine.game import Game

    journal = Journal(journal_path) if journal_path else None
    return Service(Game(rng=rng), journal=journal)


def _summary(outcome: Any) -> dict[str, Any]:
    from engine.endgame import final_table
    from engine.scoring import score
    from engine.state import Phase

    game = outcome.service.game
    state = game.state
    summary: dict[str, Any] = {
        "frames": outcome.frames,
        "views": outcome.views,
        "events": len(game.log),
        "questions": outcome.questions,
        "table_answers": outcome.table_answers,
        "refused": outcome.refused,
        "backs": outcome.backs,
        "notes": outcome.notes,
        "seconds": round(outcome.seconds, 2),
        "position": state.fen(),
        "trigger": None if state.trigger is None else {
            "player": state.players[state.trigger.player].name, "turn": state.trigger.turn},
        "scores": None,
    }
    if state.phase is Phase.OVER:
        sheet = score(final_table(state), notes=False)
        summary["scores"] = {p.name: p.total for p in sheet.players}
    return summary


def _print(summary: dict[str, Any]) -> None:
    out = sys.stdout
    out.write(f"{summary['frames']} frames, {summary['views']} stable views, "
              f"{summary['events']} events in {summary['seconds']} s\n")
    out.write(f"questions asked: {summary['questions']}; "
              f"table answers: {summary['table_answers']}\n")
    for line in summary["refused"]:
        out.write(f"refused: {line}\n")
    for line in summary["backs"]:
        out.write(f"card back: {line}\n")
    if summary["trigger"]:
        out.write(f"end triggered by {summary['trigger']['player']} "
                  f"on turn {summary['trigger']['turn']}\n")
    if summary["scores"]:
        out.write("scores: " + ", ".join(f"{n} {s}" for n, s in summary["scores"].items()) + "\n")
    out.write(f"position: {summary['position']}\n")
