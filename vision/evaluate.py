"""Scoring a scanner against generated scenes: held-out layouts, conditions and tallies.

Used by ``benchmarks/vision_accuracy.py`` (large sets) and the tests (small ones). Scene
seeds come from their own range, so no frame here was ever drawn while training (the
embedder trains on card crops, not scenes, in any case).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from engine.board import Location
from engine.cards import ALL_IDS
from vision import calibrate
from vision.calibrate import Calibration
from vision.scanner import Sight, TableReading
from vision.stabilize import Stabilizer
from vision.synth import effects
from vision.synth.cards import FACE_DOWN
from vision.synth.scene import FOREIGN, SceneOptions, SceneTruth, render

HELD_OUT_SEED = 900_000  # scenes for evaluation start here; nothing else draws from it


@dataclass
class Tally:
    """Counts of outcomes per kind of truth."""

    counts: Counter[str] = field(default_factory=Counter)

    def add(
        self,
        truth_state: str,
        truth_top: str | None,
        depth: int,
        r_state: str,
        r_top: str | None,
        r_depth: int,
    ) -> None:
        """Record one location's reading against its truth."""
        c = self.counts
        c[f"{truth_state}:n"] += 1
        if truth_state == "card":
            c["card:right"] += r_state == "card" and r_top == truth_top
            c["card:wrong"] += r_state == "card" and r_top != truth_top
            c["card:depth"] += r_depth == depth
        elif truth_state in ("empty", "face_down"):
            c[f"{truth_state}:right"] += r_state == truth_state
            c[f"{truth_state}:wrong"] += r_state == "card"
        else:  # occluded or unknown: any card named other than the one truly there is wrong
            c[f"{truth_state}:wrong"] += r_state == "card" and r_top != truth_top
            c[f"{truth_state}:named"] += r_state == "card"

    def rate(self, state: str, what: str) -> float:
        """Share of ``state`` locations with outcome ``what`` (NaN if none)."""
        n = self.counts[f"{state}:n"]
        return self.counts[f"{state}:{what}"] / n if n else float("nan")

    def rate_of(self, states: tuple[str, ...], what: str) -> float:
        n = sum(self.counts[f"{s}:n"] for s in states)
        hits = sum(self.counts[f"{s}:{what}"] for s in states)
        return hits / n if n else float("nan")


EVERYDAY = (0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7)  # stack depths a table shows most of a game
DEEP = tuple(range(9, 18))  # long stacks, pushed together to stay within the reach


def random_layout(
    rng: random.Random,
    foreign: float = 0.04,
    face_down: float = 0.04,
    depths: tuple[int, ...] = EVERYDAY,
) -> dict[str, list[str]]:
    """A table mid-game: stacks of ``depths`` cards, now and then a face-down or foreign
    top."""
    layout = {}
    for loc in Location:
        depth = rng.choice(depths)
        stack = rng.sample(ALL_IDS, depth)
        if stack and rng.random() < face_down:
            stack[-1] = FACE_DOWN
        elif stack and rng.random() < foreign:
            stack[-1] = FOREIGN
        layout[loc.value] = stack
    return layout


def _draw(
    rng: random.Random, hands: float, objects: float, depths: tuple[int, ...] = EVERYDAY
) -> tuple[dict[str, list[str]], tuple[str, ...], tuple[str, ...]]:
    """A scene's layout and the locations a hand and an object cover."""
    layout = random_layout(rng, depths=depths)
    names = [loc.value for loc in Location]
    covered = tuple(rng.sample(names, 1)) if rng.random() < hands else ()
    spare = [n for n in names if n not in covered]
    objs = tuple(rng.sample(spare, 1)) if rng.random() < objects else ()
    return layout, covered, objs


@dataclass(frozen=True)
class Table:
    """The table and camera a set of held-out scenes is drawn with."""

    kind: str | None = None  # a vision.synth.tables kind; None: wood, felt or paint
    wide: bool = False  # a wide lens, tilted 20-30°: strong perspective
    lamp: bool = False  # a lamp's reflection somewhere on the play area
    blown: bool = False  # ... so bright that the camera clips its middle flat white


CONDITIONS = {  # the table kinds the benchmark and the tests report one by one
    "usual": Table(),
    "gingham": Table("gingham"),
    "planks": Table("planks"),
    "playmat": Table("playmat"),
    "wide": Table(wide=True),
    "lamp": Table(lamp=True),
    "glare": Table(lamp=True, blown=True),
}
BLOWN_LAMP = 1.6  # a blown lamp's strength: flat white out to ~0.9 of its radius


def options_for(
    table: Table, rng: random.Random, **fields: object
) -> SceneOptions:
    """Scene options drawing ``table``: the lamp's place and a wide lens's tilt come from
    ``rng`` (only when the condition asks for them, so the usual scenes stay as drawn)."""
    extra: dict[str, object] = {"table": table.kind, "wide": table.wide}
    if table.wide:
        extra["tilt_deg"] = rng.uniform(20, 30)
    if table.lamp:
        extra["lamp"] = (rng.uniform(20, 308), rng.uniform(30, 200), rng.uniform(15, 40))
    if table.blown:
        extra["lamp_strength"] = BLOWN_LAMP
    return SceneOptions(**fields, **extra)  # type: ignore[arg-type]


def scenes(
    count: int,
    style: str,
    seed: int = HELD_OUT_SEED,
    hands: float = 0.25,
    objects: float = 0.05,
    photo_dir: Path | None = None,
    depths: tuple[int, ...] = EVERYDAY,
    table: Table = Table(),
) -> Iterator[tuple[np.ndarray, SceneTruth]]:
    """``count`` held-out frames: random layouts, poses, light; hands and objects at times."""
    for i in range(count):
        rng = random.Random(seed + i)
        layout, covered, objs = _draw(rng, hands, objects, depths)
        options = options_for(
            table, rng, style=style, photo_dir=photo_dir, hands=covered, objects=objs
        )
        yield render(layout, rng, options)


@dataclass(frozen=True)
class LampPair:
    """A scene with one empty place and a blown lamp's reflection on or beside it, and the
    same scene (camera, table, lamp, light) with a card laid at that place."""

    location: str
    empty: tuple[np.ndarray, SceneTruth]
    laid: tuple[np.ndarray, SceneTruth]


def lamp_beside_empty(count: int, seed: int = HELD_OUT_SEED + 600_000, style: str = "photo",
                      photo_dir: Path | None = None) -> Iterator[LampPair]:
    """``count`` :class:`LampPair` scenes: a lamp of 20-65 mm radius clipped flat white,
    its centre within 60 mm across of the empty place; on wood, felt, paint, planks or a
    checked cloth, exposed up to 35 % brighter (a cloth's white checks clip as well), with
    up to three smaller clipped reflections anywhere."""
    names = [loc.value for loc in Location]
    for i in range(count):
        rng = random.Random(seed + i)
        k = rng.randrange(len(names))
        cards = iter(rng.sample(ALL_IDS, 12))
        layout = {n: [] if j == k else [next(cards) for _ in range(rng.choice((0, 1, 2, 3)))]
                  for j, n in enumerate(names)}
        column = calibrate.PLAY_W_MM / len(names)
        lamp = (column * (k + 0.5) + rng.uniform(-60, 60), rng.uniform(30, 130),
                rng.uniform(20, 65))
        options = SceneOptions(style=style, photo_dir=photo_dir, lamp=lamp,
                               lamp_strength=rng.uniform(1.2, 2.0),
                               table=rng.choice((None, "planks", "gingham")))
        gain = rng.uniform(1.0, 1.35)
        spots = [((rng.uniform(0, 1), rng.uniform(0, 1)), rng.uniform(0.015, 0.06),
                  rng.uniform(1.0, 2.5)) for _ in range(rng.randint(0, 3))]
        light = _Lit(options, gain, spots, rng.randrange(1 << 30))
        laid = {**layout, names[k]: [next(cards)]}
        yield LampPair(names[k], light.draw(layout), light.draw(laid))


@dataclass(frozen=True)
class _Lit:
    """One camera's scene options, exposure and extra reflections, for drawing twice."""

    options: SceneOptions
    gain: float
    spots: list[tuple[tuple[float, float], float, float]]  # (x, y) of the frame, radius, strength
    seed: int

    def draw(self, stacks: dict[str, list[str]]) -> tuple[np.ndarray, SceneTruth]:
        frame, truth = render(stacks, random.Random(self.seed), self.options)
        frame = cv2.convertScaleAbs(frame, alpha=self.gain)
        h, w = frame.shape[:2]
        for (x, y), radius, strength in self.spots:
            frame = effects.glare(frame, random.Random(self.seed), (x * w, y * h), radius * w,
                                  strength)
        return frame, truth


def clear_view(
    index: int,
    style: str,
    seed: int = HELD_OUT_SEED,
    hands: float = 0.25,
    objects: float = 0.05,
    photo_dir: Path | None = None,
    depths: tuple[int, ...] = EVERYDAY,
    table: Table = Table(),
) -> np.ndarray:
    """Scene ``index`` of :func:`scenes` (same arguments) with no hand or object over the
    table: the same camera pose and layout, as the fixed camera saw it a moment before.
    Long stacks are seen as they were earlier in the game, at most ``max(EVERYDAY)``
    deep: pushed to the reach, an outer column's stack lies over a bottom marker, and a
    device keeps the calibration of its last look that found them."""
    rng = random.Random(seed + index)
    layout, _covered, _objs = _draw(rng, hands, objects, depths)
    earlier = {loc: stack[: max(EVERYDAY)] for loc, stack in layout.items()}
    return render(earlier, rng, options_for(table, rng, style=style, photo_dir=photo_dir))[0]


def device_calibration(frame: np.ndarray, clear: Callable[[], np.ndarray]) -> Calibration | None:
    """The calibration a device scanning ``frame`` holds: the four markers found in the
    frame, else the calibration from the clear view it calibrated from earlier, unless
    the frame's three markers lie elsewhere (:func:`calibrate.from_markers`). Never the
    scene's true calibration."""
    size = (frame.shape[1], frame.shape[0])
    found = calibrate.find_markers(frame)
    if len(found) == len(calibrate.MARKER_IDS):
        return calibrate.from_markers(found, size) or calibrate.detect(clear())
    held = calibrate.detect(clear())
    return calibrate.from_markers(found, size, held=held) or held


def score(reading: TableReading, truth: SceneTruth, tally: Tally) -> None:
    """Add one frame's readings to ``tally``."""
    for name, t in truth.locations.items():
        r = reading.locations[name]
        tally.add(t.state, t.top, t.depth, r.state, r.top, r.depth)


def run(
    scan: Callable[[np.ndarray, SceneTruth], TableReading],
    frames: Iterator[tuple[np.ndarray, SceneTruth]],
) -> Tally:
    """Scan every frame and tally the readings."""
    tally = Tally()
    for frame, truth in frames:
        score(scan(frame, truth), truth, tally)
    return tally


def still_game(
    seed: int,
    table: Table = Table(),
    changes: int = 30,
    style: str = "classic",
    photo_dir: Path | None = None,
    clear_first: bool = False,
) -> Iterator[tuple[np.ndarray, SceneTruth]]:
    """A game as one fixed camera films it: one still frame after every change (a card
    added to a stack, now and then one taken off or a location cleared), the camera,
    table, lamp and markers the same throughout (the light, noise and JPEG drawn anew at
    each change). ``clear_first`` starts with the bare play area, as at calibration."""
    rng = random.Random(seed)
    options = options_for(table, rng, style=style, photo_dir=photo_dir, steady=True)
    names = [loc.value for loc in Location]
    cards = iter(rng.sample(ALL_IDS, len(ALL_IDS)))
    layout: dict[str, list[str]] = {n: [] for n in names}
    if not clear_first:
        layout = {n: [next(cards) for _ in range(rng.choice((1, 2, 2, 3)))] for n in names}
    for _ in range(changes + 1):
        frame, truth = render(layout, random.Random(seed), options)
        # The light drifts a little between changes (a cloud, a lamp nearby).
        gain = rng.uniform(0.88, 1.12)
        drift = np.array([gain * rng.uniform(0.97, 1.03) for _ in range(3)])
        yield cv2.convertScaleAbs(frame * drift.astype(np.float32)), truth
        loc, roll = rng.choice(names), rng.random()
        if layout[loc] and roll < 0.15:
            layout[loc] = layout[loc][:-1]
        elif layout[loc] and roll < 0.2:
            layout[loc] = []
        else:
            layout[loc] = [*layout[loc], next(cards)]


@dataclass
class Settled:
    """Per location and change of a still game: the settled reading against the truth."""

    counts: Counter[str] = field(default_factory=Counter)

    def add(self, truth: SceneTruth, stable: Mapping[str, object], last: TableReading) -> None:
        """Score the stabiliser's ``stable`` states after one change (``last``: the
        scanner's latest reading)."""
        c = self.counts
        for name, t in truth.locations.items():
            s, r = stable[name], last[name]
            c["n"] += 1
            c[f"{t.state}:n"] += 1
            right = (s.state, s.top) == (t.state, t.top)  # type: ignore[attr-defined]
            c["top"] += right
            c[f"{t.state}:right"] += right
            c["depth"] += s.depth == t.depth  # type: ignore[attr-defined]
            if s.depth != t.depth:  # type: ignore[attr-defined]
                c[f"off{s.depth - t.depth:+d}"] += 1  # type: ignore[attr-defined]
            named = s.state is Sight.CARD and s.top != t.top  # type: ignore[attr-defined]
            # The card last settled, held while the camera reads something else (nothing,
            # under glare or a hand, or the new card, not settled yet): stale, not
            # misread. The device passes a location read no more on as unread once it
            # has been so for a while (device.perception).
            stale = named and (r.state, r.top) != (s.state, s.top)  # type: ignore[attr-defined]
            c["wrong"] += named and not stale
            c["stale"] += stale
            now = (r.state, r.top)
            c["unsettled"] += r.state in (Sight.UNKNOWN, Sight.OCCLUDED) or now != (s.state, s.top)  # type: ignore[attr-defined]


def settle(
    scanner: object,
    frames: Iterator[tuple[np.ndarray, SceneTruth]],
    reps: int = 6,
    noise: float = 2.0,
    seed: int = 0,
) -> Settled:
    """Feed each still frame ``reps`` times (0.2 s apart, fresh sensor noise each time)
    to ``scanner`` and a stabiliser, and score the settled readings after each change."""
    stabilizer, nrng, t = Stabilizer(), np.random.default_rng(seed), 0.0
    out = Settled()
    for frame, truth in frames:
        reading = None
        for _ in range(reps):
            noisy = np.clip(frame + nrng.normal(0, noise, frame.shape), 0, 255).astype(np.uint8)
            reading = scanner.scan(noisy)  # type: ignore[attr-defined]
            stabilizer.update(reading, t)
            t += 0.2
        assert reading is not None
        out.add(truth, stabilizer.state, reading)
    return out
