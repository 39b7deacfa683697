"""Recorded games: what the companion was shown and told, kept so it can be replayed.

A game folder (``GAME_DIR``; docs/game-folder.md describes it for users) holds:

* ``game.json``: ``{"format": 1, "setup": <the Setup event>, "seed": <the companion's
  random seed>, "corners": <manual calibration or null>}``;
* ``timeline.jsonl``: one JSON object per line, in time order, each with ``"t"``
  (seconds) and one of ``"frame"`` (a file in ``frames/``), ``"button"`` (die, automa,
  next, undo), ``"answer"`` (an event a phone played: an answer or a correction),
  ``"question"`` (the number of the reading a phone chose; for "what is on top of
  Luna?" also ``"told"``: ``{"depth", "top", "face_down"}``), ``"undo"`` (true);
* ``frames/``: the camera's frames as JPEG files;
* ``script.json`` (scripted games only): the game the bots really played, so that
  ``companion replay --oracle`` can answer on the table's behalf; their timelines also
  hold ``"table"`` items (the truth's length up to which the people at the table may
  answer at that point) that a replay without ``--oracle`` ignores.

:class:`Recorder` writes one from a running companion's frames and commands (the
appliance does not call it yet: there is no setting for it);
:func:`write_scripted` films a scripted game into one; :func:`replay` feeds one through
the same service, tracker and vision the device uses.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

from device.perception import ScriptedCamera, view_from_stable
from device.service import AnswerQuestion, CameraChanges, NewGame, Play, Press, Service, Undo
from device.tracking import TableTracking
from engine.events import Event, Setup, from_dict, to_dict
from engine.game import Game
from engine.tracking import LOCATION, Seen
from engine.tracking.replay import horizons
from engine.tracking.script import Oracle, Script, script_from_json, script_to_json
from vision.strips import Strips

FORMAT = 1


class RecordingError(ValueError):
    """A game folder that cannot be read: names the file and the problem."""


# --- writing ----------------------------------------------------------------------------


class Recorder:
    """Writes a game folder as the companion runs (frames, buttons, phone commands)."""

    def __init__(self, folder: str | Path, *, clock: Callable[[], float] = time.monotonic,
                 quality: int = 85) -> None:
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self.quality = quality
        self._start = clock()
        self._frames = 0
        self._timeline = (self.folder / "timeline.jsonl").open("a", encoding="utf-8")

    def game(self, setup: Setup, seed: int, corners: Any = None) -> None:
        data = {"format": FORMAT, "setup": to_dict(setup), "seed": seed, "corners": corners}
        (self.folder / "game.json").write_text(json.dumps(data, indent=1), encoding="utf-8")

    def frame(self, frame: Any) -> None:
        self._frames += 1
        name = f"frames/{self._frames:06d}.jpg"
        cv2.imwrite(str(self.folder / name), frame, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        self._line({"frame": name})

    def command(self, command: object) -> None:
        """A command from a button or a phone (camera changes are recorded as frames)."""
        if isinstance(command, Press):
            self._line({"button": command.button})
        elif isinstance(command, Play):
            self._line({"answer": to_dict(command.event)})
        elif isinstance(command, AnswerQuestion):
            told = command.told
            self._line({"question": command.index} if told is None else {
                "question": command.index,
                "told": {"depth": told.depth, "top": told.top, "face_down": told.face_down}})
        elif isinstance(command, Undo):
            self._line({"undo": True})

    def close(self) -> None:
        self._timeline.close()

    def _line(self, item: dict[str, Any]) -> None:
        item["t"] = round(self.clock() - self._start, 3)
        self._timeline.write(json.dumps(item) + "\n")
        self._timeline.flush()


def write_scripted(script: Script, folder: str | Path, camera: ScriptedCamera) -> Path:
    """Film a scripted game into a game folder (frames rendered by the scene generator)."""
    out = Path(folder)
    (out / "frames").mkdir(parents=True, exist_ok=True)
    game = {"format": FORMAT, "setup": to_dict(script.tracked_setup), "seed": script.seed,
            "corners": None}
    (out / "game.json").write_text(json.dumps(game, indent=1), encoding="utf-8")
    (out / "script.json").write_text(json.dumps(script_to_json(script)), encoding="utf-8")
    count = 0
    upcoming = horizons(script)
    with (out / "timeline.jsonl").open("w", encoding="utf-8") as timeline:

        def line(item: dict[str, Any]) -> None:
            timeline.write(json.dumps({"t": round(camera.t, 3), **item}) + "\n")

        if script.moments:
            line({"table": script.moments[0].truth_len})
        for k, moment in enumerate(script.moments):
            if moment.button is not None:
                line({"button": moment.button.value})
            if moment.layout is not None:
                hands = tuple(loc.value for loc in moment.hands_over)
                for frame, _ in camera.frames(moment.layout, hands):
                    count += 1
                    name = f"frames/{count:06d}.jpg"
                    cv2.imwrite(str(out / name), frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
                    line({"frame": name})
            if upcoming[k] != moment.truth_len or k + 1 == len(script.moments):
                line({"table": upcoming[k]})  # people answer between physical actions
    return out


# --- reading ----------------------------------------------------------------------------


@dataclass
class GameFolder:
    """A game folder, read and checked."""

    path: Path
    setup: Setup
    seed: int
    corners: Any
    items: list[dict[str, Any]]
    script: Script | None = None

    @classmethod
    def read(cls, folder: str | Path) -> GameFolder:
        """:raises RecordingError: naming the file and what is wrong with it."""
        path = Path(folder)
        game = _json(path / "game.json")
        if game.get("format") != FORMAT:
            raise RecordingError(f"{path / 'game.json'}: format {game.get('format')!r}, "
                                 f"expected {FORMAT}")
        try:
            setup = from_dict(game["setup"])
            seed = int(game["seed"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordingError(f"{path / 'game.json'}: {exc}") from exc
        if not isinstance(setup, Setup):
            raise RecordingError(f"{path / 'game.json'}: 'setup' is not a Setup event")
        items = list(_timeline(path / "timeline.jsonl"))
        script = None
        if (path / "script.json").exists():
            script = script_from_json(_json(path / "script.json"))
        return cls(path, setup, seed, game.get("corners"), items, script)


def _json(file: Path) -> dict[str, Any]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordingError(f"{file}: cannot read: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise RecordingError(f"{file}: not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise RecordingError(f"{file}: expected a JSON object")
    return data


KINDS = ("frame", "button", "answer", "question", "undo", "table")


def _timeline(file: Path) -> Iterator[dict[str, Any]]:
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise RecordingError(f"{file}: cannot read: {exc.strerror}") from exc
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordingError(f"{file}:{number}: not valid JSON: {exc}") from exc
        if not isinstance(item, dict) or sum(k in item for k in KINDS) != 1:
            raise RecordingError(f"{file}:{number}: expected one of {', '.join(KINDS)}")
        yield item


# --- replaying ----------------------------------------------------------------------------


@dataclass
class Outcome:
    """What a replay did."""

    service: Service
    frames: int = 0
    views: int = 0
    questions: int = 0
    table_answers: int = 0
    refused: list[str] = field(default_factory=list)
    seconds: float = 0.0


def replay(folder: GameFolder, scanner: Any, stabilizer: Any, *, oracle: bool = False,
           service: Service | None = None, on_item: Callable[[], None] | None = None
           ) -> Outcome:
    """Feed a game folder through vision, the tracker and the engine, as the device does.

    With ``oracle`` (scripted folders only) the game's truth answers what only the table
    can; otherwise the recorded phone answers are replayed. ``on_item`` hears each of the
    folder's items (frames, presses, answers) once it is fed.
    """
    started = time.perf_counter()
    svc = service or Service(Game(rng=random.Random(folder.seed)), rng=random.Random(folder.seed))
    tracking = TableTracking()
    tracking.install(svc)
    svc.call(NewGame(folder.setup, source="replay"))
    table = Oracle(folder.script) if oracle and folder.script is not None else None
    outcome = Outcome(svc)
    view = None
    strips = Strips()  # the game's own camera: the cards it sees on top name the strips
    for item in folder.items:
        if "frame" in item:
            view = _frame(folder, item, (scanner, stabilizer, strips), svc, view, outcome)
        elif "table" in item:
            if table is not None:
                table.advance(int(item["table"]))
                _answer_for_table(table, svc, tracking, outcome)
        else:
            _command(item, svc, outcome)
        if on_item is not None:
            on_item()
    if table is not None and tracking.idle(svc):
        _answer_for_table(table, svc, tracking, outcome)  # what the camera still cannot read
    outcome.seconds = time.perf_counter() - started
    return outcome


def _frame(folder: GameFolder, item: dict[str, Any], vision: tuple[Any, Any, Strips],
           svc: Service, last: Any, outcome: Outcome) -> Any:
    """One recorded frame through ``vision`` (scanner, stabiliser, strips) as the device's
    capture loop takes it (:class:`device.hardware.capture.VisionPipeline`)."""
    scanner, stabilizer, strips = vision
    frame = cv2.imread(str(folder.path / item["frame"]))
    if frame is None:
        raise RecordingError(f"{folder.path / item['frame']}: not an image")
    outcome.frames += 1
    reading = scanner.scan(frame)
    changes = stabilizer.update(reading, float(item["t"]))
    view = view_from_stable(stabilizer.state)
    if changes or (view is not None and view != last):
        outcome.views += view is not None and view != last
        under = strips.table(frame, scanner, reading, stabilizer.state)
        _call(svc, CameraChanges(tuple(changes), stabilizer.state, under, source="replay"),
              outcome)
        if svc.question is not None:
            outcome.questions += 1
    return view or last


def _command(item: dict[str, Any], svc: Service, outcome: Outcome) -> None:
    if "button" in item:
        _call(svc, Press(str(item["button"]), source="replay"), outcome)
    elif "answer" in item:
        _call(svc, Play(_event(item["answer"]), source="replay"), outcome)
    elif "question" in item:
        told = _told(item["told"]) if "told" in item else None
        _call(svc, AnswerQuestion(int(item["question"]), source="replay", told=told), outcome)
    elif "undo" in item:
        _call(svc, Undo(source="replay"), outcome)


def _event(data: Any) -> Event:
    return from_dict(data)


def _told(data: Any) -> Seen:
    """A recorded answer to "what is on top of Luna?"."""
    try:
        return Seen(int(data["depth"]), data.get("top"), bool(data.get("face_down", False)))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordingError(f"a 'told' answer must be {{depth, top, face_down}}: {exc}") from exc


def _call(svc: Service, command: Any, outcome: Outcome) -> None:
    try:
        svc.call(command)
    except ValueError as exc:
        outcome.refused.append(f"{type(command).__name__}: {exc}")


def _answer_for_table(table: Oracle, svc: Service, tracking: TableTracking,
                      outcome: Outcome) -> None:
    """The table answers questions and the decisions only it can (scripted games)."""
    for _ in range(200):
        tracker = tracking.tracker
        question = svc.question
        if question is not None and question.location is not None and (
                question.kind is LOCATION):
            told = table.tell(question.location)
            _call(svc, AnswerQuestion(0, source="replay", told=told), outcome)
            continue
        if question is not None and tracker is not None:
            anchor = svc.game.states[tracker.anchor]
            _call(svc, AnswerQuestion(table.answer(svc.game, question, anchor)), outcome)
            continue
        waiting = tracker is not None and tracker.waits_for_table(svc.game)
        event = table.decide(svc.game, asked=waiting)
        if event is None:
            return
        outcome.table_answers += 1
        _call(svc, Play(event, source="replay"), outcome)
