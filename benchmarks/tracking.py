"""Tracking whole games with the camera: games matched, moves inferred, questions asked.

    .venv/bin/python benchmarks/tracking.py [--games 30] [--solo-games 20] [--seed 0]

Bots play scripted games (3-player, or ``--players N``, and solo against Au Toma at level
2); each is fed
through the tracker and the engine as a perfect camera and the buttons perceive it,
with the people at the table (:class:`engine.tracking.script.Oracle`) answering what a camera
cannot see, and compared with the truth (tokens after every turn, the trigger, the final
scores). Prints per kind of game: games matched; the share of moves the camera could see
that it inferred without a question; the table's answers on the phone per game (choices
nobody sees, cards to name: never questions); questions per game by kind; seconds per
game (the replay only, the script's writing left out).

``--miscount RATE`` keeps the perfect camera but makes it miscount: in that share of
views one named stack's count reads one card off (its top card still right), as a
deep or dim stack does, to measure how the tracker rides out counts::

    .venv/bin/python benchmarks/tracking.py --games 30 --solo-games 0 --miscount 0.08

``--unreadable RATE`` keeps the perfect camera but blinds it at one location for
stretches (a lamp's reflection, an arm resting there): at each change of the table with
no stretch under way one begins with probability RATE, at a random location, for 3 to 8
changes; the location is overdue (the table may be asked) from its third view on. The
share of views with a location unread is printed. ``--empty-unread`` makes every empty
location unreadable all game long instead (bare wood the locator cannot tell from a
card)::

    .venv/bin/python benchmarks/tracking.py --unreadable 0.02
    .venv/bin/python benchmarks/tracking.py --empty-unread

``--blind LOCATION`` never reads that location all game (a lamp's reflection nobody
moves): the tracker has only the table's answers there::

    .venv/bin/python benchmarks/tracking.py --blind luna --games 10 --solo-games 5

``--camera`` replays through the real camera path instead: every change of the table is
drawn frame by frame by the scene generator (hands over the changing locations first,
then the still table, slow lighting drift, sensor noise, JPEG), scanned by the committed
classifier and settled by the stabiliser before the tracker sees it. That costs about
ten frames per change, so use a few games. ``--table KIND`` draws another table kind
(those of ``vision.synth.tables``) and ``--lamp X,Y,R`` a fixed lamp reflection (mm)::

    .venv/bin/python benchmarks/tracking.py --camera --games 1 --solo-games 1 --table planks

``--views DIR`` with ``--camera`` writes the views the camera path hands the tracker,
one file per table kind and seed; without ``--camera`` it tracks those views again, with
no frame drawn or scanned (the camera path does not depend on the tracker, so a change
to the tracker is measured on exactly the same views in seconds). ``--log`` prints, per
moment, each misread field of a view (top, count, face down, empty, unread), each
question asked, and where the tracked game leaves the table::

    .venv/bin/python benchmarks/tracking.py --camera --table planks --games 2 --views views
    .venv/bin/python benchmarks/tracking.py --table planks --games 2 --views views --log

``--vision-dev DIR`` measures what the independent renderer's game folders allow (see
:func:`vision_dev_games`): they hold one still frame per change and its truth, not the
buttons, the players or the truth's events, so no game can be tracked from them::

    .venv/bin/python benchmarks/tracking.py --vision-dev ../shared/vision-dev/games
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random
from dataclasses import replace

from engine.board import Location
from engine.tracking import Unread
from engine.tracking.replay import (
    Perceive,
    Report,
    hiding,
    miscounting,
    perfect_camera,
    random_stretches,
    replay_script,
    strip_camera,
)
from engine.tracking.script import Moment, Script, write_script
from vision.progress import Progress

PROGRESS = Progress("tracking", quiet=True)  # main's own, on stderr: --quiet keeps it silent

STRETCH = (3, 8)  # changes of the table a location stays unreadable (--unreadable)


def lamp_option(text: str) -> tuple[float, ...]:
    """``--lamp X,Y,R[,STRENGTH]``: three or four numbers, a positive radius."""
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not numbers: {text!r}") from None
    if len(values) not in (3, 4) or values[2] <= 0:
        raise argparse.ArgumentTypeError("give X,Y,R or X,Y,R,STRENGTH (mm), R above 0")
    return values


def run(kind: str, seeds: range, args: argparse.Namespace) -> list[Report]:
    """Replay the scripted games of ``kind`` ("multi": ``--players``; or "solo")."""
    reports = []
    for seed in PROGRESS.track(seeds, f"{kind} games"):
        script = (write_script(args.players, seed=seed) if kind == "multi"
                  else write_script(seed=seed, automa_level=2))
        watch = Log(seed) if args.log else None
        reports.append(replay_script(script, perceiver(script, seed, args), time.perf_counter,
                                     watch))
        if not reports[-1].matches:
            print(f"  seed {seed}: {reports[-1].problems[0][:160]}")
    return reports


class Log:
    """``--log``: per moment, where the camera's view differs from the table (by field:
    top, count, face down, empty, unread), each question asked, and where the tracked
    game stops agreeing with the table."""

    def __init__(self, seed: int) -> None:
        self.seed, self.questions, self.behind = seed, 0, False
        self.last = None  # the table as it lay at the previous moment

    def __call__(self, k: int, moment: Moment, view, follow) -> None:  # type: ignore[no-untyped-def]
        from engine.tracking.script import view_of_layout
        from engine.tracking.view import view_of

        if moment.layout is None:
            return
        truth = view_of_layout(moment.layout)
        wrong = view_misreads(view, truth) if view is not None else ""
        if wrong:
            print(f"  [{self.seed}:{k}] view: {wrong}")
        if view is None and truth != self.last:
            print(f"  [{self.seed}:{k}] no view of a change: {view_misreads(self.last, truth)}")
        self.last = truth
        if follow.questions > self.questions:
            kinds = ",".join(str(q) for q in follow.kinds[self.questions:])
            tracked = view_misreads(follow.last_view, view_of(follow.game.state))
            print(f"  [{self.seed}:{k}] asked {kinds}; camera vs tracked game: {tracked}")
            self.questions = follow.questions
        behind = view_of(follow.game.state) != truth
        if behind != self.behind:
            tracked = view_misreads(view_of(follow.game.state), truth)
            state = f"differs: {tracked}" if behind else "agrees"
            print(f"  [{self.seed}:{k}] tracked game {state}")
            self.behind = behind


def view_misreads(view, truth) -> str:  # type: ignore[no-untyped-def]
    """How ``view`` differs from ``truth``, location by location ("" when it does not)."""
    from engine.board import LOCATIONS

    if view is None:
        return "(none)"
    out = []
    for loc, seen, real in zip(LOCATIONS, view, truth, strict=True):
        if isinstance(seen, Unread):
            out.append(f"{loc.value} unread (truth {real.depth})")
        elif (seen.depth == 0) != (real.depth == 0):
            out.append(f"{loc.value} empty wrong: read {seen.depth}, truth {real.depth}")
        elif seen.face_down != real.face_down:
            out.append(f"{loc.value} face down wrong: read {seen.face_down}")
        elif seen.top != real.top:
            out.append(f"{loc.value} top {seen.top}, truth {real.top}")
        elif seen.depth != real.depth:
            out.append(f"{loc.value} count {seen.depth}, truth {real.depth}")
    return "; ".join(out)


def perceiver(script: Script, seed: int, args: argparse.Namespace) -> Perceive:
    """The camera the options ask for."""
    if args.views is not None:
        path = args.views / f"{args.table or 'default'}-{seed}.json"
        if not args.camera:
            return recorded(path)
        return recording(through_vision(seed, args.table, args.lamp), path)
    if args.camera:
        return through_vision(seed, args.table, args.lamp)
    camera = (miscounting(args.miscount, random.Random(seed)) if args.miscount else
              strip_camera if args.strips else perfect_camera)
    if args.empty_unread:
        camera = empty_unread(camera)
    if args.blind is not None:  # one location never read, all game long
        camera = counting_unread(hiding(camera, [(args.blind, 0, len(script.moments))]))
    if args.unreadable:
        stretches = random_stretches(len(script.moments), args.unreadable,
                                     random.Random(seed), STRETCH)
        camera = counting_unread(hiding(camera, stretches))
    return camera


def through_vision(seed: int, table: str | None = None,
                   lamp: tuple[float, ...] | None = None) -> Perceive:
    """The camera path: synthetic frames → scanner → stabiliser → the tracker's views."""
    from device.perception import Perception, ScriptedCamera, camera_perceiver
    from vision.scanner import TableScanner
    from vision.stabilize import Stabilizer

    perception = Perception(TableScanner(), Stabilizer())
    perception.strips.read = timed(perception.strips.read)  # type: ignore[method-assign]
    camera = ScriptedCamera(seed=seed, table=table)
    if lamp is not None:
        camera = replace(camera, lamp=(lamp[0], lamp[1], lamp[2]))
        if len(lamp) > 3:
            camera = replace(camera, lamp_strength=lamp[3])
    return counting_unread(camera_perceiver(perception, camera))


STRIP_MS: list[float] = []  # CPU time of each stack's strips read (once per change there)


def timed(read):  # type: ignore[no-untyped-def]
    def timed_read(*args, **kwargs):  # type: ignore[no-untyped-def]
        started = time.process_time()
        out = read(*args, **kwargs)
        if out is not None:  # a stack's strips read (not a single card, not refused)
            STRIP_MS.append((time.process_time() - started) * 1000)
        return out

    return timed_read


def recording(camera: Perceive, path: Path) -> Perceive:
    """``camera``, writing every view it hands on to ``path`` (JSON, one per moment) as it
    goes: the camera path does not depend on the tracker, so the tracker can be run
    again on the same views (:func:`recorded`) without drawing and scanning the frames."""
    views: list[object] = []
    path.parent.mkdir(parents=True, exist_ok=True)

    def perceive(moment: Moment):  # type: ignore[no-untyped-def]
        view = camera(moment)
        views.append(None if view is None else [_seen_json(s) for s in view])
        path.write_text(json.dumps(views))
        return view

    return perceive


def _seen_json(seen) -> dict[str, object]:  # type: ignore[no-untyped-def]
    if isinstance(seen, Unread):
        return {"unread": True, "overdue": seen.overdue}
    return {"depth": seen.depth, "top": seen.top, "face_down": seen.face_down,
            "under": None if seen.under is None else list(seen.under)}


def recorded(path: Path) -> Perceive:
    """The views :func:`recording` wrote, handed on moment by moment."""
    from engine.tracking import Seen

    views = iter(json.loads(path.read_text()))

    def perceive(moment: Moment):  # type: ignore[no-untyped-def]
        view = next(views, None)
        if view is None:
            return None
        seen = [Unread(s["overdue"]) if s.get("unread") else
                Seen(s["depth"], s["top"], s["face_down"],
                     under=None if s.get("under") is None else tuple(s["under"]))
                for s in view]
        return counting_unread(lambda _: tuple(seen))(moment)  # type: ignore[arg-type,return-value]

    return perceive


def empty_unread(camera: Perceive) -> Perceive:
    """``camera``, reading every empty location as unreadable (overdue at once)."""

    def perceive(moment: Moment):  # type: ignore[no-untyped-def]
        view = camera(moment)
        if view is None:
            return None
        return tuple(Unread(overdue=True) if getattr(s, "depth", 1) == 0 else s for s in view)

    return perceive


VIEWS: Counter[str] = Counter()  # views handed on, and those with a location unread


def counting_unread(camera: Perceive) -> Perceive:
    """``camera``, counting its views and those with a location unread (into VIEWS)."""

    def perceive(moment: Moment):  # type: ignore[no-untyped-def]
        view = camera(moment)
        if view is not None:
            VIEWS["views"] += 1
            VIEWS["unread"] += any(isinstance(s, Unread) for s in view)
            if moment.layout is not None:
                count_strips(view, moment.layout)
        return view

    return perceive


def count_strips(view, layout) -> None:  # type: ignore[no-untyped-def]
    """Tally the covered cards the view reads from their strips against the table."""
    from engine.tracking import BACK

    tally_strips(view, [[BACK if down else card for card, down in stack[:-1]]
                        for stack in layout], VIEWS)


def tally_strips(view, covered, tally: Counter[str]) -> None:  # type: ignore[no-untyped-def]
    """Each covered card ``view`` reads from its strip against ``covered`` (each
    location's covered cards as they lie, oldest first, BACK for one face down): named
    right, named wrong, left unnamed; and stacks read at a wrong count."""
    from engine.tracking import Seen

    for seen, truth in zip(view, covered, strict=True):
        if not isinstance(seen, Seen) or seen.under is None:
            continue
        if len(truth) != len(seen.under):
            tally["strips: read at a wrong count"] += 1
            continue
        for named, card in zip(seen.under, truth, strict=True):
            tally["strips: unnamed" if named is None else
                  "strips: named right" if named == card else "strips: named WRONG"] += 1


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


# --- the independent renderer's game folders ----------------------------------------------


STILL_S = 3.0  # each kept frame is shown this long, as a still camera between two changes
FPS = 10.0


def vision_dev_games(folder: Path) -> None:
    """Each kept frame of each ``table-*`` folder, fed to the scanner and the stabiliser
    as a still camera would show it for STILL_S seconds (its scan repeated: the frame is
    the same), then the view perception hands the tracker, compared with the truth.

    Printed per game, before (the view main gave before this work: nothing until every
    location has settled, then each location's last settled content however long ago it
    was read) and now: the frames after which the tracker gets no view at all; the
    locations of the views read right (top card and count), with the right top and the
    count off, with a wrong top, or (now only) unread, split into those that held cards
    (a location question would be asked) and empty ones (left alone until they matter).
    """
    from device.perception import Perception
    from vision.scanner import TableScanner
    from vision.stabilize import Stabilizer

    for game in PROGRESS.track(sorted(folder.glob("table-*")), "games"):
        truth = json.loads((game / "truth.json").read_text())
        # each game its own camera
        perception = Perception(TableScanner(), Stabilizer())
        tally: Counter[str] = Counter()
        t = 0.0
        for record in truth:
            frame = _image(game / record["frame"])
            reading = perception.scanner.scan(frame)
            for _ in range(int(STILL_S * FPS)):
                perception.take(frame, reading, t)
                t += 1 / FPS
            tally["frames"] += 1
            _score(_legacy_view(perception.stabilizer.state), record["locations"], tally,
                   "before")
            _score(perception.view, record["locations"], tally, "now")
            _score_strips(perception.view, record["locations"], tally)
        _print_game(game.name, tally)


def _score_strips(view, truth: dict, tally: Counter[str]) -> None:  # type: ignore[no-untyped-def]
    """Each covered card the view reads from its strip, against the truth's stack (where
    a card face down is None)."""
    from engine.board import LOCATIONS
    from engine.tracking import BACK

    if view is not None:
        tally_strips(view, [[BACK if card is None else card
                             for card in truth[loc.value]["stack"][:-1]]
                            for loc in LOCATIONS], tally)


def _image(path: Path):  # type: ignore[no-untyped-def]
    import cv2

    return cv2.imread(str(path))


def _legacy_view(states):  # type: ignore[no-untyped-def]
    """main's view before this work: None until every location has settled, then each
    one's last settled content."""
    from engine.board import LOCATIONS
    from engine.tracking import Seen

    seen = []
    for loc in LOCATIONS:
        state = states[loc.value]
        if state.state not in ("empty", "card", "face_down"):
            return None
        down = state.state == "face_down"
        seen.append(Seen(state.depth if state.state != "empty" else 0,
                         None if down else state.top, down))
    return tuple(seen)


def _score(view, truth: dict, tally: Counter[str], when: str) -> None:  # type: ignore[no-untyped-def]
    from engine.board import LOCATIONS

    if view is None:
        tally[f"{when}: no view"] += 1
        return
    for loc, seen in zip(LOCATIONS, view, strict=True):
        real = truth[loc.value]
        if isinstance(seen, Unread):
            tally[f"{when}: unread, {'cards there' if real['depth'] else 'empty'}"] += 1
            continue
        top = None if real["face_down"] else real["top"]
        if (seen.top, seen.face_down) != (top, real["face_down"]):
            tally[f"{when}: wrong top"] += 1
        else:
            right = seen.depth == real["depth"]
            tally[f"{when}: right" if right else f"{when}: right top, count off"] += 1


SCORES = ("no view", "right", "right top, count off", "wrong top", "unread, cards there",
          "unread, empty")


def _print_game(name: str, tally: Counter[str]) -> None:
    print(f"{name}: {tally['frames']} frames")
    for when in ("before", "now"):
        parts = ", ".join(f"{k} {tally[f'{when}: {k}']}" for k in SCORES
                          if when == "now" or not k.startswith("unread"))
        print(f"  {when}: {parts}")
    strips = {k: n for k, n in tally.items() if k.startswith("strips")}
    if strips:
        print("  covered cards read from their strips (per view): " + ", ".join(
            f"{k.removeprefix('strips: ')} {n}" for k, n in sorted(strips.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="multiplayer games")
    parser.add_argument("--players", type=int, default=3, choices=range(2, 7),
                        help="players in the multiplayer games")
    parser.add_argument("--solo-games", type=int, default=20, help="solo games")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--miscount", type=float, default=0.0,
                        help="share of views with one stack's count one off (perfect camera)")
    parser.add_argument("--unreadable", type=float, default=0.0,
                        help="chance a stretch of an unreadable location begins at a change")
    parser.add_argument("--blind", type=Location, metavar="LOCATION",
                        help="the perfect camera never reads this location (a lamp left "
                             "over it all game)")
    parser.add_argument("--empty-unread", action="store_true",
                        help="empty locations read as unreadable all game (perfect camera)")
    parser.add_argument("--strips", action="store_true",
                        help="the perfect camera also names every covered card by its strip")
    parser.add_argument("--camera", action="store_true",
                        help="through generated frames, the scanner and the stabiliser")
    parser.add_argument("--table", help="--camera: a table kind of vision.synth.tables")
    parser.add_argument("--lamp", type=lamp_option,
                        help="--camera: a fixed lamp reflection X,Y,R[,STRENGTH] (play-area "
                             "mm; a strength above 1 clips its middle flat white)")
    parser.add_argument("--views", type=Path, metavar="DIR",
                        help="with --camera: record each game's views in DIR; without: "
                             "track the views recorded there (no frames drawn)")
    parser.add_argument("--log", action="store_true",
                        help="print each misread view, question and divergence by moment")
    parser.add_argument("--vision-dev", type=Path, metavar="DIR",
                        help="the independent renderer's games folder: views, not games")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = Progress("tracking", quiet=args.quiet)
    started = time.perf_counter()
    if args.vision_dev is not None:
        vision_dev_games(args.vision_dev)
        print(f"total {time.perf_counter() - started:.1f} s")
        return
    for kind, count in (("multi", args.games), ("solo", args.solo_games)):
        if count > 0:
            VIEWS.clear()
            reports = run(kind, range(args.seed, args.seed + count), args)
            print(summary(f"{args.players}-player" if kind == "multi" else kind, reports))
            if VIEWS["views"] and VIEWS["unread"]:
                print(f"  views with a location unread: {VIEWS['unread'] / VIEWS['views']:.1%}"
                      f" ({VIEWS['unread']} of {VIEWS['views']})")
            if STRIP_MS:
                print(f"  strips read: {len(STRIP_MS)} stacks, median "
                      f"{statistics.median(STRIP_MS):.1f} ms CPU, 90th percentile "
                      f"{statistics.quantiles(STRIP_MS, n=10)[-1]:.1f} ms")
                STRIP_MS.clear()
            strips = {k: n for k, n in VIEWS.items() if k.startswith("strips")}
            if strips:
                read = sum(n for k, n in strips.items() if k != "strips: read at a wrong count")
                print("  covered cards read from their strips (per view): " + ", ".join(
                    f"{k.removeprefix('strips: ')} {n} ({n / max(1, read):.1%})"
                    for k, n in sorted(strips.items())))
    print(f"total {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
