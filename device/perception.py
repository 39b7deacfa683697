"""From camera frames to the tracker's views: scanner → stabiliser → :data:`TableView`
(with the covered cards named from their strips, :mod:`vision.strips`).

:class:`Perception` turns a stream of frames (with their times) into a new
:data:`~engine.tracking.TableView` whenever the stable picture of the table changes — a card
added or removed, a stack one card deeper or shallower — and into nothing while a hand
is over a location or the picture has not settled. A location that stays unreadable
(glare, a table texture the locator misreads, something left on it) holds up nothing:
after ``unread_after`` seconds the view carries it as
:class:`~engine.tracking.Unread`, overdue after ``ask_after`` seconds (then the table is
asked about it). The service's camera loop and ``companion replay`` both use it.

:class:`ScriptedCamera` films a scripted game (:mod:`engine.tracking.script`) frame by frame
with the scene generator: hands over the locations that change while they change, then
the still table, under light that drifts slowly as daylight does; optionally on another
kind of table, with something left lying over a location for a while, with the markers
out of sight for a while, or with the camera knocked partway through.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.board import LOCATIONS
from engine.tracking import Seen, Shown, TableView, Unread
from engine.tracking.script import Layout, Moment
from vision.strips import Strips
from vision.synth import effects, scene
from vision.synth.cards import FACE_DOWN, card_back

SETTLED = frozenset(Shown)  # stable states the tracker can use

# A hand placing a card leaves a location unread for about a second; glare or a misread
# table for as long as it lasts. Past UNREAD_AFTER_S the view no longer waits for the
# location; past ASK_AFTER_S the table is asked what lies there ([vision] settings).
UNREAD_AFTER_S = 2.0
ASK_AFTER_S = 5.0
# A hand placing or taking a card covers a location for a fraction of a second, and the
# view waits for it; something over it longer (an object, a hand resting, an empty
# table the locator takes for a hand) leaves it unread instead of holding every view.
COVERED_S = 1.0


def view_from_stable(states: Mapping[str, Any], unread_after: float = UNREAD_AFTER_S,
                     ask_after: float = ASK_AFTER_S) -> TableView | None:
    """A view from the stabiliser's per-location states.

    ``states`` maps location names to objects with ``state``, ``top``, ``depth``,
    ``unread_for``, ``settling``, ``covered_for`` and ``covered_span``
    (:class:`vision.stabilize.LocationState`). A location unread for ``unread_after``
    seconds, or covered (now and then read through) for COVERED_S, is
    :class:`~engine.tracking.Unread` (overdue after ``ask_after``); None while one is
    still settling or briefly covered, or none can be read at all.
    """
    seen: list[Seen | Unread] = []
    for loc in LOCATIONS:
        state = states.get(loc.value)
        if state is None:
            return None
        unread = float(getattr(state, "unread_for", 0.0))
        covered = float(getattr(state, "covered_for", 0.0))
        span = float(getattr(state, "covered_span", covered))
        if unread >= unread_after or span >= COVERED_S:
            # Glare, something left lying there, or a hand a long while: what lay there
            # before may be gone (the table asks once it is overdue). A cloth the
            # locator keeps taking for a hand now and then reads the stable content, so
            # unread_for stays short there: covered that long is overdue as well.
            seen.append(Unread(overdue=max(unread, span) >= ask_after))
        elif state.state not in SETTLED or covered or getattr(state, "settling", False):
            # The first half second, a hand over it, or a change there still settling:
            # the whole change is seen at once (a card taken from one stack and slid
            # under another's top), not half of it.
            return None
        elif Shown(state.state) is Shown.EMPTY:
            seen.append(Seen(0))
        else:
            down = Shown(state.state) is Shown.FACE_DOWN
            seen.append(Seen(max(1, int(state.depth)), None if down else state.top, down))
    if all(isinstance(s, Unread) for s in seen):
        return None
    return (seen[0], seen[1], seen[2], seen[3])


class Perception:
    """Frames in; a new view out whenever the stable table changes."""

    def __init__(self, scanner: Any, stabilizer: Any, unread_after: float = UNREAD_AFTER_S,
                 ask_after: float = ASK_AFTER_S) -> None:
        self.scanner = scanner
        self.stabilizer = stabilizer
        self.unread_after, self.ask_after = unread_after, ask_after
        self.view: TableView | None = None
        self.frames = 0
        self.strips = Strips()  # the cards seen on top, to name covered strips by

    def feed(self, frame: np.ndarray, t: float) -> TableView | None:
        """Scan one frame taken at ``t`` seconds; the new view if the table changed."""
        return self.take(frame, self.scanner.scan(frame), t)

    def take(self, frame: np.ndarray, reading: Any, t: float) -> TableView | None:
        """:meth:`feed` with the frame's reading already made (a still frame shown for a
        while is read once)."""
        self.frames += 1
        self.stabilizer.update(reading, t)
        view = view_from_stable(self.stabilizer.state, self.unread_after, self.ask_after)
        if view is None or view == _without_strips(self.view):
            return None
        strips = self.strips.table(frame, self.scanner, reading, self.stabilizer.state)
        self.view = with_strips(view, strips)
        return self.view


def with_strips(view: TableView, strips: Mapping[str, tuple[str | None, ...]]) -> TableView:
    """``view`` with the covered cards the camera read from each stack's strips
    (:meth:`vision.strips.Strips.table`), where they fit the view's count."""
    seen = list(view)
    for loc, here in zip(LOCATIONS, view, strict=True):
        under = strips.get(loc.value)
        # A location the table told about, or a count the strips do not fit, keeps none.
        if isinstance(here, Seen) and not here.told and under is not None \
                and len(under) == here.depth - 1:
            seen[loc.pos] = replace(here, under=under)
    return (seen[0], seen[1], seen[2], seen[3])


def _without_strips(view: TableView | None) -> TableView | None:
    if view is None:
        return None
    seen = [replace(s, under=None) if isinstance(s, Seen) else s for s in view]
    return (seen[0], seen[1], seen[2], seen[3])


@dataclass(frozen=True)
class Room:
    """What a living room does to a camera over a whole game, each at a time in seconds.

    ``nudge``: (t, degrees, dx, dy) the camera arm is knocked once: from then on the
    picture is turned and shifted (pixels), markers and all. ``light``: (t, gain,
    warmth) the room's light changes once (a lamp switched on, a cloud): every frame
    after is ``gain`` times as bright, and warmer by ``warmth`` (red up, blue down, as
    a share). ``gap``: (t, seconds) the camera delivers no frames for a while (a busy
    Pi, a loose cable). ``rest``: (t, seconds, location) a hand lies over a stack for a
    few seconds, doing nothing.
    """

    nudge: tuple[float, float, float, float] | None = None
    light: tuple[float, float, float] | None = None
    gap: tuple[float, float] | None = None
    rest: tuple[float, float, str] | None = None

    @classmethod
    def draw(cls, rng: random.Random, duration: float) -> Room:
        """One of each event at a random time within the middle of a game ``duration``
        seconds long, with the sizes people meet (a nudge of 1-3 degrees and 10-35
        pixels, light ×0.6-1.45 and warmer, 1-2 s without frames, a hand resting 2-4 s)."""
        def when() -> float:
            return rng.uniform(0.15, 0.85) * duration

        sign = rng.choice((-1.0, 1.0))
        shift = rng.uniform(10.0, 35.0)
        angle = rng.uniform(0.0, 2 * math.pi)
        return cls(
            nudge=(when(), sign * rng.uniform(1.0, 3.0), shift * math.cos(angle),
                   shift * math.sin(angle)),
            light=(when(), rng.choice((rng.uniform(0.6, 0.85), rng.uniform(1.15, 1.45))),
                   rng.uniform(0.03, 0.12)),
            gap=(when(), rng.uniform(1.0, 2.0)),
            rest=(when(), rng.uniform(2.0, 4.0), rng.choice(LOCATIONS).value),
        )

    def events(self) -> tuple[str, ...]:
        """The kinds of event this room holds (for reports)."""
        return tuple(name for name in ("nudge", "light", "gap", "rest")
                     if getattr(self, name) is not None)

    def dropped(self, t: float) -> bool:
        """Does the camera deliver no frame at ``t``?"""
        return self.gap is not None and self.gap[0] <= t < self.gap[0] + self.gap[1]

    def resting(self, t: float) -> tuple[str, ...]:
        """The locations a resting hand covers at ``t``."""
        if self.rest is not None and self.rest[0] <= t < self.rest[0] + self.rest[1]:
            return (self.rest[2],)
        return ()

    def lit(self, frame: np.ndarray, t: float) -> np.ndarray:
        """``frame`` in the room's light at ``t``."""
        if self.light is None or t < self.light[0]:
            return frame
        _, gain, warm = self.light
        bgr = np.array([gain * (1 - warm), gain, gain * (1 + warm)], np.float32)
        return np.clip(frame * bgr, 0, 255).astype(np.uint8)

    def seen(self, frame: np.ndarray, t: float) -> np.ndarray:
        """``frame`` as the camera sees it from where the arm holds it at ``t``."""
        if self.nudge is None or t < self.nudge[0]:
            return frame
        return knocked(frame, *self.nudge[1:])


QUIET = Room()


@dataclass
class ScriptedCamera:
    """Frames of a scripted game's table, as a camera over it would take them."""

    seed: int = 0
    fps: float = 10.0
    hand_frames: int = 4  # frames with a hand over the changing locations
    still_frames: int = 9  # then the still table (the stabiliser settles in ~0.5 s)
    size: tuple[int, int] = (1280, 960)
    tilt_deg: float = 10.0
    style: str = "classic"
    photo_dir: Path | None = None
    drift_period_s: float = 90.0  # the light's slow swing, ±20 %
    table: str | None = None  # a table kind of vision.synth.scene (None: its default)
    lamp: tuple[float, float, float] | None = None  # a lamp's fixed reflection: x, y, r mm
    lamp_strength: float = 0.8  # above 1 its middle is clipped flat white
    room: Room = QUIET  # a nudge, a change of light, a gap, a resting hand
    back: str = "classic"  # the face-down cards' design (vision.synth.cards.BACKS)
    unmarked: tuple[float, float] | None = None  # from, to (s): the markers out of sight
    t: float = 0.0
    _last: tuple[tuple[Layout, tuple[str, ...], tuple[str, ...], bool], np.ndarray] | None = field(
        default=None, init=False, repr=False, compare=False)
    _lamp_px: tuple[tuple[float, float], float] | None = field(
        default=None, init=False, repr=False, compare=False)  # centre and radius, pixels

    def frames(self, layout: Layout, hands_over: tuple[str, ...] = (),
               covered: tuple[str, ...] = ()) -> Iterator[tuple[np.ndarray, float]]:
        """Frames for one change of the table: hands first, then the still table.

        ``covered``: locations with something lying over them all the while.
        """
        shots = [*((hands_over, k) for k in range(self.hand_frames if hands_over else 0)),
                 *(((), k) for k in range(self.still_frames))]
        for hands, k in shots:
            frame = self._shot(layout, hands, covered, k)
            if frame is not None:
                yield frame, self.t
        while self.room.resting(self.t + 1.0 / self.fps):  # a hand resting stays a while
            frame = self._shot(layout, (), covered, 0)
            if frame is not None:
                yield frame, self.t

    def _shot(self, layout: Layout, hands: tuple[str, ...], covered: tuple[str, ...],
              k: int) -> np.ndarray | None:
        """The next frame (None: the camera delivered none), as the room shows it."""
        t = self._tick()
        if self.room.dropped(t):
            return None
        hands = tuple(dict.fromkeys((*hands, *self.room.resting(t))))
        return self._frame(layout, hands, covered, k)

    def _tick(self) -> float:
        self.t += 1.0 / self.fps
        return self.t

    def _frame(self, layout: Layout, hands: tuple[str, ...], covered: tuple[str, ...],
               k: int) -> np.ndarray:
        rng = random.Random(hash((self.seed, round(self.t * 1000), k)))
        gain = 1.0 + 0.2 * math.sin(2 * math.pi * self.t / self.drift_period_s)
        frame = cv2.convertScaleAbs(self._scene(layout, hands, covered), alpha=gain)
        frame = self.room.lit(frame, self.t)
        if self._lamp_px is not None:  # after the room's light: the sensor clips it so
            (x, y), radius = self._lamp_px
            frame = effects.lamp(frame, (x, y), radius, self.lamp_strength)
        return effects.noise(self.room.seen(frame, self.t), rng, 5.0)

    def _scene(self, layout: Layout, hands: tuple[str, ...],
               covered: tuple[str, ...]) -> np.ndarray:
        # The scene is a pure function of the layout, the hands and what covers a
        # location (the generator is seeded afresh each time), so a still table is drawn
        # once, not once per frame; only the light and the sensor noise differ
        # from frame to frame.
        unmarked = self.unmarked is not None and self.unmarked[0] <= self.t < self.unmarked[1]
        key = (layout, hands, covered, unmarked)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        stacks = {loc.value: [FACE_DOWN if down else str(card) for card, down in stack]
                  for loc, stack in zip(LOCATIONS, layout, strict=True)}
        # A table kind only when asked for, so the scene's defaults stay so.
        kind: dict[str, Any] = {"table": self.table} if self.table is not None else {}
        if self.back != "classic":
            kind["faces"] = {FACE_DOWN: card_back(self.back)}
        options = scene.SceneOptions(style=self.style, photo_dir=self.photo_dir,
                                     size=self.size, tilt_deg=self.tilt_deg, capture=False,
                                     hands=hands, objects=covered, glare=0.0,
                                     show_markers=not unmarked, **kind)
        frame, truth = scene.render(stacks, random.Random(self.seed), options)
        if self.lamp is not None:  # drawn on each frame, over the light (see _frame)
            x, y, r = self.lamp
            centre, rim = truth.calibration.to_pixels(np.array([[x, y], [x + r, y]]))
            self._lamp_px = ((float(centre[0]), float(centre[1])),
                             float(np.linalg.norm(rim - centre)))
        # The stream's compression, once per drawn table: a JPEG round trip takes as
        # long as reading the frame, and the light and the sensor noise still differ
        # from frame to frame after it.
        frame = effects.jpeg(frame, random.Random(self.seed), (75, 90))
        self._last = (key, frame)
        return frame


def knocked(frame: np.ndarray, degrees: float, dx: float, dy: float) -> np.ndarray:
    """``frame`` as a camera turned ``degrees`` about its axis and shifted (``dx``, ``dy``)
    pixels sees it (the picture's new edges repeat its old ones)."""
    h, w = frame.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    turn[:, 2] += np.array((dx, dy))
    out: np.ndarray = cv2.warpAffine(frame, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return out


Cover = Callable[[int], tuple[str, ...]]  # moment number → locations covered meanwhile


def camera_perceiver(
    perception: Perception, camera: ScriptedCamera, cover: Cover | None = None,
) -> Callable[[Moment], TableView | None]:
    """A ``perceive`` hook for :func:`engine.tracking.replay.replay_script` through real vision.

    ``cover``: what lies over a location for a while (an object the locator cannot see
    past), by moment.
    """
    moments = 0

    def perceive(moment: Moment) -> TableView | None:
        nonlocal moments
        k, moments = moments, moments + 1
        if moment.layout is None:
            return None
        hands = tuple(loc.value for loc in moment.hands_over)
        covered = cover(k) if cover is not None else ()
        latest = None
        for frame, t in camera.frames(moment.layout, hands, covered):
            view = perception.feed(frame, t)
            if view is not None:
                latest = view
        return latest

    return perceive
