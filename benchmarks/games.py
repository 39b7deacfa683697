"""Whole games through the product's own path, in a living room, for every player count.

    .venv/bin/python benchmarks/games.py [--games 30] [--kinds solo,variant,2,3,4,5,6]
                                         [--seed 0] [--jobs 1] [--quiet-room] [--keep DIR]

Bots play a scripted game (:func:`engine.tracking.script.write_script`); the scene
generator films it into a game folder (:func:`device.recording.write_scripted`, 10
frames a second: hands over the locations that change, then the still table), on a
table kind that turns with the seed (the default cloth, gingham, planks, a playmat and
terrazzo, which the segmenter never saw in training), in a living room
(:class:`device.perception.Room`): each game draws each of a camera nudge (1-3°,
10-35 px), a change of light (×0.6-1.45, warmer), 1-2 s with no frames and a hand
resting over a stack for 2-4 s, each with probability ``--event-rate``, at a random
time. The folder is then fed through exactly what ``companion replay GAME_DIR
--oracle`` runs (:func:`device.commands.replay.replay_folder`: scanner, stabiliser,
strips, tracker, service, with the game's truth answering for the people at the table)
and the tracked game is compared with the truth: the tokens after every turn, the
trigger, the final scores (:func:`engine.tracking.replay.compare`).

Kinds: ``solo`` (against Au Toma, level 2), ``variant`` (the same with her optional
variant), ``2`` … ``6`` players. Printed per kind and per living-room event: games
tracked to the right scores; questions per game (by kind); the table's answers per
game (choices nobody can see, never questions); games where a turn ended wrong and no
question came with that view or the next (:class:`engine.tracking.replay.Drift`); CPU
seconds per game against the game's own length (the filming left out); the most CPU one
view, button or answer took. ``--keep DIR`` keeps every game folder and films only the
games it does not hold yet, so a change to the tracker is measured again on the same
films (else they are written to a temporary folder and removed); ``--jobs 2`` plays two
games at a time.
"""

from __future__ import annotations

import argparse
import logging
import pickle
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device import recording
from device.commands.replay import replay_folder
from device.perception import QUIET, Room, ScriptedCamera
from device.recording import write_scripted
from device.service import CameraChanges
from engine.tracking.replay import Drift, Report, compare
from engine.tracking.script import Script, write_script

KINDS = ("solo", "variant", "2", "3", "4", "5", "6")
TABLES = (None, "gingham", "planks", "playmat", "terrazzo")  # None: the scene's default
EVENTS = ("nudge", "light", "gap", "rest")


@dataclass
class Game:
    """One game's figures."""

    kind: str
    seed: int
    table: str
    events: tuple[str, ...]
    problems: list[str] = field(default_factory=list)
    questions: Counter[str] = field(default_factory=Counter)
    table_answers: int = 0
    silent: int | None = None  # the first wrong turn no question followed
    cpu: float = 0.0
    duration: float = 0.0
    slowest: float = 0.0
    slowest_command: str = ""
    refused: int = 0

    @property
    def matched(self) -> bool:
        return not self.problems


def script_for(kind: str, seed: int) -> Script:
    if kind in ("solo", "variant"):
        return write_script(seed=seed, automa_level=2, automa_variant=kind == "variant")
    return write_script(int(kind), seed=seed)


def room_for(kind: str, seed: int, script: Script, camera: ScriptedCamera,
             rate: float) -> Room:
    """The living room's events for this game, drawn from its own seed."""
    rng = random.Random(f"{kind}-{seed}")
    changes = sum(m.layout is not None for m in script.moments)
    duration = changes * (camera.hand_frames + camera.still_frames) / camera.fps
    drawn = Room.draw(rng, duration)
    keep = {name: getattr(drawn, name) if rng.random() < rate else None for name in EVENTS}
    return Room(**keep)


def play(kind: str, seed: int, args: argparse.Namespace) -> Game:
    """Film one game into a folder and replay it as ``companion replay --oracle`` does."""
    script = script_for(kind, seed)
    table = TABLES[seed % len(TABLES)]
    camera = ScriptedCamera(seed=seed, table=table)
    camera.room = QUIET if args.quiet_room else room_for(kind, seed, script, camera,
                                                         args.event_rate)
    game = Game(kind, seed, table or "default", camera.room.events())
    where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="game-"))
    folder = where / f"{kind}-{seed}"
    if not (args.keep and folder.exists()):  # --keep: filmed once
        # Filmed beside, then renamed: a run stopped mid-film leaves no folder that a
        # later --keep run would take for the whole game.
        filming = where / f"{kind}-{seed}.filming"
        shutil.rmtree(filming, ignore_errors=True)
        write_scripted(script, filming, camera)
        filming.rename(folder)
    try:
        drift = Drift(script.truth_states())
        started = time.process_time()
        watch = Watching(drift, args.log)
        with cached_vision(folder, args.cached_vision):
            outcome = replay_folder(str(folder), oracle=True, watch=watch)
        game.cpu = time.process_time() - started
    finally:
        if not args.keep:
            shutil.rmtree(where, ignore_errors=True)
    report = Report()
    compare(script.truth_states(), outcome.service.game.states, report)
    follow = outcome.service.follower.follow
    game.problems = report.problems
    game.questions = Counter(str(k) for k in follow.kinds)
    game.table_answers = outcome.table_answers
    game.silent = drift.silent
    game.duration = watch.t
    game.slowest, game.slowest_command = outcome.slowest, outcome.slowest_command
    game.refused = len(outcome.refused)
    return game


class Watching:
    """Sees every timeline item the replay handles: after each new view, whether a turn
    ended wrong unasked (:class:`Drift`); and the game's length (the last item's time).
    ``log``: print each view, button and answer with the events they led to."""

    def __init__(self, drift: Drift, log: bool = False) -> None:
        self.drift, self.views, self.t, self.log = drift, 0, 0.0, log
        self.logged = 0  # events printed so far
        self.wrong = 0  # wrong turns printed so far

    def __call__(self, item: dict[str, Any], outcome: Any) -> None:
        self.t = float(item["t"])
        viewed = "frame" in item and outcome.views > self.views
        if viewed:
            self.views = outcome.views
            self.drift.view(outcome.service.game.states, outcome.service.question is not None)
        if self.log and (viewed or "frame" not in item):
            self._print(item, outcome, viewed)

    def _print(self, item: dict[str, Any], outcome: Any, viewed: bool) -> None:
        from engine.wording import event_text

        svc = outcome.service
        follow = svc.follower.follow
        if follow is None:
            return  # nothing seen yet
        what = (f"view {_view_text(follow.last_view)}" if viewed else
                ", ".join(f"{k} {v}" for k, v in item.items() if k != "t"))
        print(f"    {self.t:7.1f} {what[:150]}")
        log = svc.game.log
        self.logged = min(self.logged, len(log))
        follow.catch_up()  # events the service played that the tracker has not seen yet
        for k in range(self.logged, len(log)):
            print(f"              {follow.sources[k].value:>6}: {event_text(log[k])[:140]}")
        self.logged = len(log)
        if svc.question is not None and viewed:
            print(f"              asked: {svc.question.prompt}")
        if len(self.drift.wrong) > self.wrong:
            self.wrong = len(self.drift.wrong)
            print(f"              turn {self.drift.wrong[-1]} ended unlike the truth's")


def _view_text(view: Any) -> str:
    from engine.tracking import Unread

    if view is None:
        return "-"
    return " ".join("?" if isinstance(s, Unread) else
                    f"{s.depth}:{'down' if s.face_down else s.top or '-'}" for s in view)


@contextmanager
def cached_vision(folder: Path, cached: bool) -> Iterator[None]:
    """``--cached-vision``: what vision handed the service for each frame (its camera
    changes) is kept beside the folder the first time and handed on again after that,
    with no frame read or scanned, so a change to the tracker alone is measured again
    in seconds. A shortcut for working on the tracker (no card back is learnt in it):
    the figures come from runs without it."""
    if not cached:
        yield
        return
    path = folder / "vision.pickle"
    kept: list[list[Any]] = pickle.loads(path.read_bytes()) if path.exists() else []
    original_pipeline, original_call = recording._pipeline, recording._call

    def pipeline(game: Any, scanner: Any, stabilizer: Any, outcome: Any) -> Any:
        real = original_pipeline(game, scanner, stabilizer, outcome)
        return _Recorded(real, kept, outcome, record=not path.exists())

    def call(svc: Any, command: Any, outcome: Any) -> None:
        if isinstance(command, CameraChanges) and not path.exists() and kept:
            kept[-1].append((command, outcome.views))
        original_call(svc, command, outcome)

    original_pictures = recording._Pictures
    recording._pipeline, recording._call = pipeline, call  # type: ignore[assignment]
    if path.exists():
        recording._Pictures = _Unread  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        recording._pipeline, recording._call = original_pipeline, original_call
        recording._Pictures = original_pictures  # type: ignore[misc]
    if not path.exists():
        path.write_bytes(pickle.dumps(kept))


class _Recorded:
    """The device's vision pipeline, noting the camera changes each frame led to; or,
    once noted, handing them on again without the frame."""

    def __init__(self, real: Any, kept: list[list[Any]], outcome: Any, record: bool) -> None:
        self.real, self.kept, self.outcome, self.record = real, kept, outcome, record
        self.frames = iter(list(kept))
        self.later = real.later

    def __call__(self, frame: Any, t: float) -> None:
        if self.record:
            self.kept.append([])
            self.real(frame, t)
            return
        for command, views in next(self.frames):
            self.outcome.views = views
            recording._call(self.outcome.service, command, self.outcome)


class _Unread:
    """Frames not read at all (vision's changes are handed on from the cache)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, name: str) -> None:
        return None


def _one(job: tuple[str, int, argparse.Namespace]) -> Game:
    return play(*job)


def line(game: Game) -> str:
    asked = sum(game.questions.values())
    state = "ok" if game.matched else "LOST"
    out = (f"  {game.kind:>7} seed {game.seed:<3} {game.table:<8} "
           f"{'+'.join(game.events) or 'quiet':<22} {state:<4} {asked:>2} q, "
           f"{game.cpu:5.1f} s CPU / {game.duration:5.0f} s, slowest "
           f"{game.slowest * 1000:.0f} ms ({game.slowest_command})")
    if game.silent is not None:
        out += f"; turn {game.silent} ended wrong unasked"
    if game.problems:
        out += f"\n      {game.problems[0][:200]}"
    return out


def summary(label: str, games: list[Game]) -> str:
    n = len(games)
    kinds: Counter[str] = Counter()
    for game in games:
        kinds.update(game.questions)
    per_kind = ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(kinds.items())) or "none"
    ratio = min(g.duration / g.cpu for g in games if g.cpu)
    return (f"{label}: {sum(g.matched for g in games)}/{n} games tracked to the right scores; "
            f"questions per game {sum(kinds.values()) / n:.2f} ({per_kind}); table answers "
            f"per game {statistics.mean(g.table_answers for g in games):.1f}; silent wrong "
            f"turns {sum(g.silent is not None for g in games)}; CPU per game "
            f"{statistics.mean(g.cpu for g in games):.1f} s for "
            f"{statistics.mean(g.duration for g in games):.0f} s of play (replay at least "
            f"{ratio:.1f}x faster than play); slowest command "
            f"{max(g.slowest for g in games) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per kind")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=1, help="games replayed at once")
    parser.add_argument("--event-rate", type=float, default=0.75,
                        help="chance each living-room event happens in a game")
    parser.add_argument("--quiet-room", action="store_true", help="no living-room events")
    parser.add_argument("--keep", metavar="DIR", help="keep the game folders in DIR")
    parser.add_argument("--cached-vision", action="store_true",
                        help="with --keep: vision's output kept beside each folder and "
                             "used again (for work on the tracker; not for figures)")
    parser.add_argument("--log", action="store_true",
                        help="print every view, button and answer with its events")
    args = parser.parse_args()
    # The device logs each camera move it recalibrates for (every nudged game): kept out
    # of the figures.
    logging.getLogger("companion").setLevel(logging.ERROR)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kinds: {', '.join(unknown)}")
    if args.cached_vision and not args.keep:
        parser.error("--cached-vision needs --keep DIR")
    started = time.perf_counter()
    jobs = [(k, s, args) for k in kinds for s in range(args.seed, args.seed + args.games)]
    games: list[Game] = []
    with Pool(args.jobs) as pool:
        for game in pool.imap(_one, jobs):
            print(line(game), flush=True)
            games.append(game)
    for kind in kinds:
        print(summary(kind, [g for g in games if g.kind == kind]))
    for event in EVENTS:
        with_it = [g for g in games if event in g.events]
        if with_it:
            print(summary(f"with a {event}", with_it))
    print(summary("all", games))
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
