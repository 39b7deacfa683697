"""Recorded games: what the companion was shown and told, kept so it can be replayed.

A game folder (``GAME_DIR``; docs/game-folder.md describes it for users) holds:

* ``game.json``: ``{"format": 2, "setup": <the Setup event>, "events": [<events played
  before the recording began>], "rng": <the companion's random source as the timeline
  begins, random.getstate() as JSON>, "seed": <its seed, when known>, "corners": <manual
  calibration or null>, "vision": {"unread_after", "ask_after"}, "model": <file name>}``;
  format 1 had no ``events``, ``rng``, ``vision`` or ``model``;
* ``timeline.jsonl``: one JSON object per line, in the order the companion took them,
  each with ``"t"`` (seconds) and one of ``"frame"`` (a file in ``frames/``),
  ``"button"`` (die, automa, next, undo), ``"answer"`` (an event a phone played: an
  answer or a correction), ``"question"`` (the number of the reading a phone chose; for
  "what is on top of Luna?" also ``"told"``: ``{"depth", "top", "face_down"}``),
  ``"undo"`` (true), ``"note"`` (a remark of the recorder's, e.g. no more frames);
* ``frames/``: the camera's frames as JPEG files;
* ``card-back.png``: the card back the device had learnt before the game, if any;
* ``script.json`` (scripted games only): the game the bots really played, so that
  ``companion replay --oracle`` can answer on the table's behalf; their timelines also
  hold ``"table"`` items (the truth's length up to which the people at the table may
  answer at that point) that a replay without ``--oracle`` ignores.

:class:`Recorder` writes one item by item (the live recorder,
:class:`device.recorder.GameRecorder`, drives it from a background thread);
:func:`write_scripted` films a scripted game into one; :func:`replay` feeds one through
the same service, tracker, vision pipeline and card-back learning the device uses.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.backs import BackLearner, teach
from device.hardware.capture import VisionPipeline
from device.perception import ASK_AFTER_S, UNREAD_AFTER_S, ScriptedCamera
from device.service import AnswerQuestion, CameraChanges, NewGame, Play, Press, Service, Undo
from device.tracking import TableTracking
from engine.events import Event, Setup, from_dict, to_dict
from engine.game import Game
from engine.tracking import LOCATION, Seen
from engine.tracking.replay import horizons
from engine.tracking.script import Oracle, Script, TakeBack, script_from_json, script_to_json
from vision.still import Picture, PictureError

FORMAT = 2  # 2: game.json gained events, rng, vision and model; the timeline, notes
READS = (1, 2)
BACK_FILE = "card-back.png"
JPEG_QUALITY = 85


class RecordingError(ValueError):
    """A game folder that cannot be read: names the file and the problem."""


# --- the companion's random source -------------------------------------------------------


def rng_to_json(rng: random.Random) -> list[Any]:
    """``rng``'s state as JSON (:meth:`random.Random.getstate`: version, words, gauss)."""
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


def rng_from_json(data: Any, where: str) -> random.Random:
    """A generator in the state :func:`rng_to_json` wrote.

    :raises RecordingError: naming ``where`` when the state is not one.
    """
    rng = random.Random()
    try:
        version, words, gauss = data
        rng.setstate((int(version), tuple(int(w) for w in words),
                      None if gauss is None else float(gauss)))
    except (TypeError, ValueError, OverflowError) as exc:
        raise RecordingError(f"{where}: 'rng' is not a random generator's state "
                             f"(random.getstate() as JSON): {exc}") from exc
    return rng


# --- writing ----------------------------------------------------------------------------


def game_json(setup: Setup, *, rng: random.Random, events: tuple[Event, ...] = (),
              seed: int | None = None, corners: Any = None,
              vision: Mapping[str, float] | None = None, model: str | None = None,
              ) -> dict[str, Any]:
    """``game.json``'s content: how the game began and what the companion's die holds."""
    return {"format": FORMAT, "setup": to_dict(setup), "events": [to_dict(e) for e in events],
            "rng": rng_to_json(rng), "seed": seed, "corners": corners,
            "vision": dict(vision or {"unread_after": UNREAD_AFTER_S,
                                      "ask_after": ASK_AFTER_S}),
            "model": model}


def game_text(data: dict[str, Any]) -> str:
    """``game.json``'s text: indented for reading, the random state on one line."""
    text = json.dumps({**data, "rng": "\0rng"}, indent=1)
    return text.replace('"\\u0000rng"', json.dumps(data["rng"])) + "\n"


def timeline_item(command: object) -> dict[str, Any] | None:
    """A button or phone command as a timeline item (None for what is not recorded:
    camera changes come from the frames, notices from the device)."""
    if isinstance(command, Press):
        return {"button": command.button}
    if isinstance(command, Play):
        return {"answer": to_dict(command.event)}
    if isinstance(command, AnswerQuestion):
        told = command.told
        return {"question": command.index} if told is None else {
            "question": command.index,
            "told": {"depth": told.depth, "top": told.top, "face_down": told.face_down}}
    if isinstance(command, Undo):
        return {"undo": True}
    return None


class Recorder:
    """Writes a game folder item by item (frames, buttons, phone commands), in order."""

    def __init__(self, folder: str | Path, *, clock: Callable[[], float] = time.monotonic,
                 quality: int = JPEG_QUALITY) -> None:
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self.quality = quality
        self.start = clock()
        self._frames = 0
        self.bytes = 0  # written so far: frames and timeline
        self._timeline = (self.folder / "timeline.jsonl").open("a", encoding="utf-8")

    def game(self, setup: Setup, seed: int | None = None, corners: Any = None, *,
             rng: random.Random | None = None, events: tuple[Event, ...] = (),
             vision: Mapping[str, float] | None = None, model: str | None = None) -> None:
        """Write ``game.json``; ``rng`` defaults to a generator seeded with ``seed``."""
        state = rng or random.Random(seed)
        data = game_json(setup, rng=state, events=events, seed=seed, corners=corners,
                         vision=vision, model=model)
        (self.folder / "game.json").write_text(game_text(data), encoding="utf-8")

    def frame(self, frame: np.ndarray, t: float | None = None) -> None:
        """A new picture and its timeline line (``t``: the recorder's clock)."""
        self.line({"frame": self.picture(frame)}, t)

    def picture(self, frame: np.ndarray, name: str | None = None) -> str:
        """Write one frame's picture (by default the next in ``frames/``); its name
        inside the folder."""
        if name is None:
            self._frames += 1
            name = f"frames/{self._frames:06d}.jpg"
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        if not ok:
            raise OSError(f"{self.folder / name}: the frame could not be encoded")
        (self.folder / name).write_bytes(data.tobytes())
        self.bytes += len(data)
        return name

    def command(self, command: object, t: float | None = None) -> None:
        """A command from a button or a phone (camera changes are recorded as frames)."""
        item = timeline_item(command)
        if item is not None:
            self.line(item, t)

    def line(self, item: dict[str, Any], t: float | None = None) -> None:
        """One timeline item at ``t`` (default: now), seconds since the recorder began."""
        at = self.clock() if t is None else t
        text = json.dumps({"t": round(at - self.start, 6), **item}) + "\n"
        self._timeline.write(text)
        self._timeline.flush()
        self.bytes += len(text)

    def close(self) -> None:
        self._timeline.close()


def write_scripted(script: Script, folder: str | Path, camera: ScriptedCamera) -> Path:
    """Film a scripted game into a game folder (frames rendered by the scene generator).

    The companion's random source is the script's own (:meth:`Script.companion_rng`):
    positioned after Au Toma's setup, so a replay rolls the faces the script rolled.
    """
    out = Path(folder)
    (out / "frames").mkdir(parents=True, exist_ok=True)
    game = game_json(script.tracked_setup, rng=script.companion_rng(), seed=script.seed)
    (out / "game.json").write_text(game_text(game), encoding="utf-8")
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
                    cv2.imwrite(str(out / name), frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
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
    seed: int | None
    corners: Any
    items: list[dict[str, Any]]
    script: Script | None = None
    format: int = FORMAT
    events: tuple[Event, ...] = ()  # played before the recording began
    rng_state: Any = None  # the companion's random source as the timeline begins
    vision: dict[str, float] = field(default_factory=dict)  # unread_after, ask_after
    model: str | None = None  # the classifier the device used (its file name)

    @classmethod
    def read(cls, folder: str | Path) -> GameFolder:
        """:raises RecordingError: naming the file and what is wrong with it."""
        path = Path(folder)
        where = path / "game.json"
        game = _json(where)
        if game.get("format") not in READS:
            raise RecordingError(f"{where}: format {game.get('format')!r}, expected "
                                 f"{' or '.join(map(str, READS))}")
        try:
            setup = from_dict(game["setup"])
            seed = None if game.get("seed") is None else int(game["seed"])
            events = tuple(from_dict(e) for e in game.get("events") or ())
            vision = {k: float(v) for k, v in (game.get("vision") or {}).items()
                      if k in ("unread_after", "ask_after")}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordingError(f"{where}: {exc}") from exc
        if not isinstance(setup, Setup):
            raise RecordingError(f"{where}: 'setup' is not a Setup event")
        if game["format"] == 1 and seed is None:
            raise RecordingError(f"{where}: 'seed' is missing")
        state = game.get("rng")
        if state is not None:
            rng_from_json(state, str(where))  # checked now, not halfway through a replay
        items = list(_timeline(path / "timeline.jsonl"))
        script = None
        if (path / "script.json").exists():
            script = script_from_json(_json(path / "script.json"))
        model = game.get("model")
        return cls(path, setup, seed, game.get("corners"), items, script, int(game["format"]),
                   events, state, vision, model if isinstance(model, str) else None)

    def companion_rng(self) -> random.Random:
        """The companion's random source as the timeline begins (see :meth:`notes`)."""
        if self.rng_state is not None:
            return rng_from_json(self.rng_state, str(self.path / "game.json"))
        if self.script is not None:
            return self.script.companion_rng()  # a format-1 script holds what it needs
        return random.Random(self.seed)

    def notes(self) -> list[str]:
        """What a replay of this folder cannot reproduce as the game went."""
        if self.rng_state is not None or self.script is not None:
            return []
        return [f"{self.path / 'game.json'}: format {self.format} holds no 'rng': the die "
                f"is seeded from 'seed' ({self.seed}), as before the game's setup; a game "
                "whose setup drew from it (Au Toma's deck) may roll other faces"]

    @property
    def unread_after(self) -> float:
        """The device's ``[vision] unread_after`` when it recorded the game."""
        return self.vision.get("unread_after", UNREAD_AFTER_S)

    @property
    def ask_after(self) -> float:
        """The device's ``[vision] ask_after`` when it recorded the game."""
        return self.vision.get("ask_after", ASK_AFTER_S)

    @property
    def back(self) -> Path | None:
        """The card back the device had learnt before the game, if the folder holds it."""
        file = self.path / BACK_FILE
        return file if file.is_file() else None


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


KINDS = ("frame", "button", "answer", "question", "undo", "table", "note")


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
    backs: list[str] = field(default_factory=list)  # what learning the card back said
    notes: list[str] = field(default_factory=list)  # what may differ from the game
    # The most CPU one command took (a view, a button, an answer) and which it was: the
    # engine thread is busy that long, and the table waits.
    slowest: float = 0.0
    slowest_command: str = ""


# Called after each timeline item is handled, with the item and the outcome so far.
Watch = Callable[[dict[str, Any], Outcome], None]


def replay(folder: GameFolder, scanner: Any, stabilizer: Any, *, oracle: bool = False,
           service: Service | None = None, learn_backs: bool = True,
           watch: Watch | None = None) -> Outcome:
    """Feed a game folder through vision, the tracker and the engine, as the device does.

    The frames go through the device's own :class:`VisionPipeline`, and the card back is
    learnt where the device would learn it (:class:`device.backs.BackLearner`; not with
    ``learn_backs`` False, as replays were before). With ``oracle`` (scripted folders
    only) the game's truth answers what only the table can; otherwise the recorded
    phone answers are replayed. ``watch`` sees every item once it is fed.
    """
    started = time.perf_counter()
    svc = service or Service(Game(rng=folder.companion_rng()))
    outcome = Outcome(svc, notes=folder.notes())
    pipeline = _pipeline(folder, scanner, stabilizer, outcome)
    learner = BackLearner(None, pipeline.later, report=outcome.backs.append)
    tracking = TableTracking(learn_back=learner if learn_backs else None,
                             unread_after=folder.unread_after, ask_after=folder.ask_after)
    tracking.install(svc)
    _begin(folder, svc)
    table = Oracle(folder.script) if oracle and folder.script is not None else None
    pictures = _Pictures(folder.path)
    for item in folder.items:
        if "frame" in item:
            outcome.frames += 1
            try:
                pipeline(pictures.get(str(item["frame"])), float(item["t"]))
            except PictureError as exc:
                raise RecordingError(str(exc)) from None
        elif "table" in item:
            if table is not None:
                table.advance(int(item["table"]))
                answer_for_table(table, svc, tracking, outcome)
        elif "note" in item:
            outcome.notes.append(f"t={item['t']}: {item['note']}")
        else:
            _command(item, svc, outcome)
        if watch is not None:
            watch(item, outcome)
    if table is not None and tracking.idle(svc):
        answer_for_table(table, svc, tracking, outcome)  # what the camera still cannot read
    outcome.seconds = time.perf_counter() - started
    return outcome


def _begin(folder: GameFolder, svc: Service) -> None:
    """Start the game as the recording did: its random source, its setup, the events
    played before the recording began (their chance outcomes are in them)."""
    rng = folder.companion_rng()
    svc.game.rng = None if folder.events else rng  # NewGame keeps the game's generator
    svc.call(NewGame(folder.setup, source="replay"))
    if folder.events:
        svc.apply(folder.events, source="replay")
        svc.game.rng = rng


def _pipeline(folder: GameFolder, scanner: Any, stabilizer: Any,
              outcome: Outcome) -> VisionPipeline:
    """The device's vision pipeline, its changes handed to the replay's service."""
    svc = outcome.service
    last: list[Any] = [None]

    def submit(changes: tuple[Any, ...], reading: Any, strips: Any, blind: float = 0.0) -> None:
        if pipeline.view is not None and pipeline.view != last[0]:
            outcome.views += 1
            last[0] = pipeline.view
        _call(svc, CameraChanges(changes, reading, strips, source="replay", blind=blind),
              outcome)
        if svc.question is not None:
            outcome.questions += 1

    pipeline = VisionPipeline(lambda: scanner, stabilizer, submit,
                              on_error=outcome.backs.append, unread_after=folder.unread_after,
                              ask_after=folder.ask_after)
    kept = cv2.imread(str(folder.back)) if folder.back is not None else None
    if kept is not None:  # what the device knew as the game began (BackLearner.restore)
        pipeline.later(lambda scanner, frame: _teach(scanner, kept))
    return pipeline


def _teach(scanner: Any, crop: np.ndarray) -> None:
    teach(scanner, crop)


class _Pictures:
    """Frame files, each one :class:`Picture` while the timeline names it again (a still
    table's frame is decoded in full only if a look at it is needed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._last: Picture | None = None

    def get(self, name: str) -> Picture:
        path = self.folder / name
        if self._last is None or self._last.path != path:
            if not path.is_file():
                raise RecordingError(f"{path}: no such frame file")
            self._last = Picture(path)
        return self._last


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
    started = time.process_time()
    try:
        svc.call(command)
    except ValueError as exc:
        outcome.refused.append(f"{type(command).__name__}: {exc}")
    spent = time.process_time() - started
    if spent > outcome.slowest:
        outcome.slowest, outcome.slowest_command = spent, type(command).__name__


def answer_for_table(table: Oracle, svc: Service, tracking: TableTracking,
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
        if isinstance(event, TakeBack):  # "that is not what happened": UNDO
            for _ in range(len(svc.game.log) - event.length):
                _call(svc, Undo(source="replay"), outcome)
            continue
        refused = len(outcome.refused)
        _call(svc, Play(event, source="replay"), outcome)
        if len(outcome.refused) > refused:
            return  # the same answer would be refused again: the game has gone astray
