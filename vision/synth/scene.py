"""Table scenes: markers, cascaded stacks, hands and objects, seen by a tilted camera.

``render(layout, rng, options)`` returns a BGR frame and its truth. Geometry follows the
contract: marker centres are the play-area corners (328 × 218 mm), four 82 mm columns,
cards 63 × 88 mm upright, stacks start about 20 mm below the top edge and cascade about
14 mm per card, a long stack pushed closer together so it ends within the reach the
README asks for; placement is messy on purpose (offsets, rotation). Deterministic for a
given ``random.Random``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from engine.board import Location
from vision.calibrate import MARKER_IDS, PLAY_H_MM, PLAY_W_MM, Calibration
from vision.locate import STACK_REACH_MM
from vision.synth import effects, tables
from vision.synth.camera import (
    PAPER_MM,
    any_homography,
    camera_homography,
    frame_box,
    paste,
    project,
    rect_mm,
)
from vision.synth.cards import (
    CARD_H_MM,
    CARD_W_MM,
    FACE_DOWN,
    card_face,
    draw_foreign,
    seeded,
)

COLUMN_MM = PLAY_W_MM / 4
STACK_TOP_MM = 20.0
CASCADE_MM = 14.0
FOREIGN = "foreign-card"  # layout entry: a card from another game (the answer is unknown)
MIN_TABLE_LEVEL = 70.0  # code plus two white cells each side


@dataclass(frozen=True)
class SceneOptions:
    """How to draw a scene; ``None`` fields are drawn at random from ``rng``."""

    style: str = "classic"
    photo_dir: Path | None = None
    size: tuple[int, int] = (1280, 960)
    tilt_deg: float | None = None  # camera tilt from straight down, 0–30°
    messy: bool = True  # placement offsets (±4 mm), rotation (±5°), cascade 12–16 mm
    capture: bool = True  # light, shadow, glare, blur, noise, JPEG
    hands: tuple[str, ...] = ()  # locations a hand covers
    objects: tuple[str, ...] = ()  # locations with a non-card object on top
    glare: float = 0.3  # chance of a specular highlight
    show_markers: bool = True
    faces: Mapping[str, np.ndarray] | None = None  # extra layout entries → their card faces
    table: str | None = None  # a kind from vision.synth.tables; None: wood, felt or paint
    wide: bool = False  # a wide-angle lens close to the table: strong perspective
    lamp: tuple[float, float, float] | None = None  # a lamp's reflection: x, y, radius (mm)
    lamp_strength: float = 0.8  # above 1 the reflection's middle is clipped flat white
    steady: bool = False  # a card keeps its place when others are added (a game filmed)
    any_pose: bool = False  # the camera anywhere round the table (training), not the player's
    # Training's extra realism (the benchmarks' scenes are drawn without it, as before):
    # soft shadows cast by the cards and hands, shaded hands, up to this many glares.
    soft_shadows: bool = False
    glares: int = 1


@dataclass(frozen=True)
class LocationTruth:
    """What a scanner should report for one location."""

    state: str  # "empty" | "card" | "face_down" | "occluded" | "unknown"
    top: str | None
    depth: int
    quad: np.ndarray | None = None  # top card corners in frame pixels (TL, TR, BR, BL)
    start_mm: float | None = None  # where the stack's first card starts (y of its top, mm)
    quads_mm: tuple[np.ndarray, ...] = ()  # every card's corners (play-area mm), oldest first


@dataclass(frozen=True)
class SceneTruth:
    """The scene's ground truth: calibration (marker centres) and each location."""

    calibration: Calibration
    locations: dict[str, LocationTruth] = field(default_factory=dict)
    # Hands and objects over the table, drawn after the cards (play-area mm polygons).
    occluders_mm: tuple[np.ndarray, ...] = ()


@lru_cache(maxsize=4)
def marker_image(marker_id: int, cell_px: int = 12) -> np.ndarray:
    """The marker on its paper: the 6-cell code and two white cells all round, BGR."""
    code = cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), marker_id, 6 * cell_px
    )
    paper = cv2.copyMakeBorder(
        code, 2 * cell_px, 2 * cell_px, 2 * cell_px, 2 * cell_px, cv2.BORDER_CONSTANT, value=255
    )
    return cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR)


def _draw_markers(frame: np.ndarray, hom: np.ndarray, rng: random.Random) -> None:
    corners = ((0, 0), (PLAY_W_MM, 0), (PLAY_W_MM, PLAY_H_MM), (0, PLAY_H_MM))
    for marker_id, (x, y) in zip(MARKER_IDS, corners, strict=True):
        quad = rect_mm(x, y, PAPER_MM, PAPER_MM, rng.uniform(-3, 3))
        paste(frame, marker_image(marker_id), project(hom, quad))


def _table(
    w: int, h: int, rng: random.Random, kind: str | None = None, hom: np.ndarray | None = None
) -> np.ndarray:
    """The table top. Near-black tables are lifted to a dark mid-tone: the locator cannot
    part black-framed cards from a black table in dim light (a documented limit). A
    ``kind`` from :mod:`vision.synth.tables` is drawn on the table's plane through ``hom``."""
    if kind is not None and hom is not None:
        return tables.draw(kind, hom, (w, h), rng)
    small = effects.table_texture(min(h, 720), min(w, 960), rng)
    mean = float(small.mean())
    if mean < MIN_TABLE_LEVEL:
        small = cv2.convertScaleAbs(small, alpha=MIN_TABLE_LEVEL / max(mean, 1.0))
    if small.shape[:2] == (h, w):
        return small
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _face(entry: str, options: SceneOptions) -> np.ndarray:
    if options.faces is not None and entry in options.faces:
        return options.faces[entry]
    if entry == FOREIGN:
        return _foreign_face()
    return card_face(entry, options.style, options.photo_dir)


@lru_cache(maxsize=1)
def _foreign_face() -> np.ndarray:
    return draw_foreign(seeded("foreign"))


def _placements(stack: list[str], column: int, rng: random.Random, messy: bool) -> list[np.ndarray]:
    """Card corners in play-area mm for one stack, oldest first."""
    cx = COLUMN_MM * (column + 0.5)
    step = rng.uniform(12.0, 16.0) if messy else CASCADE_MM
    top = STACK_TOP_MM + (rng.uniform(-3, 3) if messy else 0.0)
    if len(stack) > 1:  # people keep a long stack in the camera's view (see the README)
        step = min(step, (PLAY_H_MM + STACK_REACH_MM - CARD_H_MM - top) / (len(stack) - 1))
    quads = []
    for k in range(len(stack)):
        dx, dy, angle = (
            (rng.uniform(-4, 4), rng.uniform(-1.5, 1.5), rng.uniform(-5, 5))
            if messy
            else (0.0, 0.0, 0.0)
        )
        quads.append(
            rect_mm(cx + dx, top + k * step + CARD_H_MM / 2 + dy, CARD_W_MM, CARD_H_MM, angle)
        )
    return quads


def _draw_card(
    frame: np.ndarray, hom: np.ndarray, face: np.ndarray, quad_mm: np.ndarray,
    shadow: tuple[float, float, float, float] | None = None,
) -> np.ndarray:
    """Paste a card; ``shadow`` (dx, dy mm, blur mm, strength) casts a soft one first."""
    if shadow is not None:
        dx, dy, soft, strength = shadow
        px_per_mm = _px_per_mm(hom, quad_mm)
        effects.soft_shadow(frame, [project(hom, quad_mm)], (dx * px_per_mm, dy * px_per_mm),
                            soft * px_per_mm, strength)
    darken(frame, project(hom, quad_mm + np.array((0.8, 1.2))), 0.6)  # the card's own drop shadow
    quad = project(hom, quad_mm)
    paste(frame, face, quad)
    return quad


def _px_per_mm(hom: np.ndarray, quad_mm: np.ndarray) -> float:
    """About how many frame pixels a millimetre spans around ``quad_mm``."""
    corners = project(hom, quad_mm)
    return float(np.linalg.norm(corners[1] - corners[0]) / np.linalg.norm(quad_mm[1] - quad_mm[0]))


def darken(frame: np.ndarray, quad: np.ndarray, factor: float) -> None:
    """Scale the pixels inside a convex pixel polygon by ``factor`` (in place)."""
    box = frame_box(frame, quad)
    if box is None:
        return
    x0, y0, x1, y1 = box
    roi = frame[y0:y1, x0:x1]
    black = roi.copy()
    cv2.fillConvexPoly(black, np.round(quad - (x0, y0)).astype(np.int32), (0, 0, 0))
    cv2.addWeighted(black, 1 - factor, roi, factor, 0, dst=roi)


def _object_polys(
    centre: np.ndarray, rng: random.Random
) -> list[tuple[np.ndarray, tuple[int, int, int]]]:
    """A non-card object: a phone, a coaster or a notebook lying on the stack."""
    colour = (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
    kind = rng.choice(("phone", "coaster", "notebook"))
    if kind == "coaster":
        ang = np.linspace(0, 2 * math.pi, 32, endpoint=False)
        r = rng.uniform(40, 50)
        pts = np.stack([centre[0] + r * np.cos(ang), centre[1] + r * np.sin(ang)], 1)
        return [(pts.astype(np.float32), colour)]
    w, h = (72, 150) if kind == "phone" else (110, 150)
    body = rect_mm(float(centre[0]), float(centre[1]), w, h, rng.uniform(-25, 25))
    inner = (
        rect_mm(float(centre[0]), float(centre[1]), w - 8, h - 14, 0) if kind == "phone" else None
    )
    polys = [(body, (20, 20, 20) if kind == "phone" else colour)]
    if inner is not None:
        polys.append((inner, colour))
    return polys


def render(
    layout: dict[str, list[str]] | dict[Location, list[str]],
    rng: random.Random,
    options: SceneOptions | None = None,
) -> tuple[np.ndarray, SceneTruth]:
    """A camera frame of the table with ``layout`` ({location: [card ids, oldest first]}).

    Entries may be card ids, :data:`~vision.synth.cards.FACE_DOWN` or :data:`FOREIGN`.
    :raises ValueError: for an unknown location, card id or style.
    """
    options = options or SceneOptions()
    stacks = _normalise(layout, options.faces)
    w, h = options.size
    hom = (any_homography(rng, options.size, options.wide) if options.any_pose
           else camera_homography(rng, options.size, options.tilt_deg, options.wide))
    frame = _table(w, h, rng, options.table, hom)
    if options.show_markers:
        _draw_markers(frame, hom, rng)
    truth: dict[str, LocationTruth] = {}
    # Steady: each column's cards come from a source of their own, the k-th card's place
    # the same whatever lies elsewhere (and the light after them the same too).
    steady = rng.randrange(1 << 30) if options.steady else None
    for column, loc in enumerate(Location):
        own = rng if steady is None else random.Random(steady + column)
        truth[loc.value] = _draw_stack(frame, hom, stacks.get(loc.value, []), column, own, options)
    occluders = _cover(frame, hom, truth, rng, options)
    if options.capture:
        frame = _capture(frame, rng, options, _glare_spot(truth, rng), hom)
    elif options.lamp is not None:
        frame = _lamp(frame, hom, options.lamp, options.lamp_strength)
    corners = project(
        hom, np.array([[0, 0], [PLAY_W_MM, 0], [PLAY_W_MM, PLAY_H_MM], [0, PLAY_H_MM]], np.float32)
    )
    calib = Calibration(tuple((float(x), float(y)) for x, y in corners), source="markers")
    return frame, SceneTruth(calib, truth, occluders)


def _normalise(layout: dict, faces: Mapping[str, np.ndarray] | None) -> dict[str, list[str]]:  # type: ignore[type-arg]
    out = {}
    for key, stack in layout.items():
        loc = Location(str(key))
        for entry in stack:
            if entry != FOREIGN and not (faces and entry in faces):
                card_face(entry, "classic")  # validates the id
        out[loc.value] = list(stack)
    return out


def _draw_stack(
    frame: np.ndarray,
    hom: np.ndarray,
    stack: list[str],
    column: int,
    rng: random.Random,
    options: SceneOptions,
) -> LocationTruth:
    if not stack:
        return LocationTruth("empty", None, 0)
    quad = None
    places = _placements(stack, column, rng, options.messy)
    shadow = _shadow_of(rng) if options.soft_shadows else None
    for entry, quad_mm in zip(stack, places, strict=True):
        quad = _draw_card(frame, hom, _face(entry, options), quad_mm, shadow)
    top, start, quads = stack[-1], float(places[0][:2, 1].mean()), tuple(places)
    if top == FACE_DOWN:
        return LocationTruth("face_down", None, len(stack), quad, start, quads)
    if top == FOREIGN:
        return LocationTruth("unknown", None, len(stack), quad, start, quads)
    return LocationTruth("card", top, len(stack), quad, start, quads)


def _shadow_of(rng: random.Random) -> tuple[float, float, float, float]:
    """A lamp's soft shadow: offset (mm), blur (mm) and strength."""
    return (rng.uniform(-5, 5), rng.uniform(-2, 7), rng.uniform(0.5, 4), rng.uniform(0.15, 0.55))


def _cover(
    frame: np.ndarray,
    hom: np.ndarray,
    truth: dict[str, LocationTruth],
    rng: random.Random,
    options: SceneOptions,
) -> tuple[np.ndarray, ...]:
    """Objects and hands over locations; they change the truth to unknown / occluded.
    Returns the polygons drawn (play-area mm)."""
    drawn: list[np.ndarray] = []
    for name in options.objects:
        loc = Location(name)
        centre = _top_centre_mm(truth[loc.value], hom, _column(loc))
        polys = _object_polys(centre, rng)
        effects.fill_polygons(frame, polys, hom)
        drawn += [pts for pts, _colour in polys]
        old = truth[loc.value]
        truth[loc.value] = replace(old, state="unknown", top=None)
    for name in options.hands:
        loc = Location(name)
        centre = _top_centre_mm(truth[loc.value], hom, _column(loc))
        tip = centre + np.array((rng.uniform(-15, 15), rng.uniform(-30, 10)))
        angle = math.pi / 2 + rng.uniform(-0.6, 0.6)
        polys = effects.hand_polygons(tuple(tip), angle, rng)
        if options.soft_shadows:
            dx, dy, soft, strength = _shadow_of(rng)
            px = _px_per_mm(hom, np.array([[0, 0], [100, 0]], np.float32))
            away = np.array((dx * 2, dy * 2), np.float32)  # a hand is higher than a card
            shifted = [project(hom, pts + away) for pts, _c in polys]
            effects.soft_shadow(frame, shifted, (0.0, 0.0), 3 * soft * px, strength)
            painted = np.zeros(frame.shape[:2], np.uint8)
            effects.fill_polygons(painted, [(p, (1, 1, 1)) for p, _c in polys], hom)
            effects.fill_polygons(frame, polys, hom)
            effects.shade(frame, painted > 0, rng)
        else:
            effects.fill_polygons(frame, polys, hom)
        drawn += [pts for pts, _colour in polys]
        for covered in _covered(polys, truth, hom) | {loc.value}:
            truth[covered] = replace(truth[covered], state="occluded")
    return tuple(drawn)


def _column(loc: Location) -> int:
    return list(Location).index(loc)


def _covered(
    polys: list[tuple[np.ndarray, tuple[int, int, int]]],
    truth: dict[str, LocationTruth],
    hom: np.ndarray,
) -> set[str]:
    """Locations whose stack (or, when empty, where a card would lie) a shape overlaps."""
    grid = np.zeros((int(PLAY_H_MM + 60), int(PLAY_W_MM)), np.uint8)  # 1 px per mm
    for pts, _colour in polys:
        cv2.fillPoly(grid, [np.round(pts).astype(np.int32)], 1)
    out = set()
    for i, loc in enumerate(Location):
        t = truth[loc.value]
        bottom = STACK_TOP_MM + CARD_H_MM
        if t.quad is not None:
            bottom = float(project(np.linalg.inv(hom), t.quad)[:, 1].max()) + 3
        x0 = int(COLUMN_MM * (i + 0.5) - CARD_W_MM / 2 - 4)
        region = grid[int(STACK_TOP_MM - 6) : int(bottom), max(x0, 0) : x0 + int(CARD_W_MM) + 8]
        if region.any():
            out.add(loc.value)
    return out


def _top_centre_mm(t: LocationTruth, hom: np.ndarray, column: int) -> np.ndarray:
    if t.quad is None:
        return np.array([COLUMN_MM * (column + 0.5), STACK_TOP_MM + CARD_H_MM / 2])
    out: np.ndarray = project(np.linalg.inv(hom), t.quad).mean(axis=0)
    return out


def _glare_spot(truth: dict[str, LocationTruth], rng: random.Random) -> tuple[float, float] | None:
    """Somewhere on a top card: glossy cards and sleeves shine, a matte table hardly does."""
    quads = [t.quad for t in truth.values() if t.quad is not None]
    if not quads:
        return None
    quad = rng.choice(quads)
    w = rng.random()
    point = (
        quad.mean(axis=0) * (1 - w) + quad[rng.randrange(4)] * w * 0.8 + quad.mean(axis=0) * w * 0.2
    )
    return float(point[0]), float(point[1])


def _lamp(
    frame: np.ndarray, hom: np.ndarray, lamp: tuple[float, float, float], strength: float
) -> np.ndarray:
    """A lamp's reflection at a fixed place on the table (x, y, radius in play-area mm):
    the table and any card under it washed out towards white."""
    x, y, r = lamp
    centre, rim = project(hom, np.array([[x, y], [x + r, y]], np.float32))
    radius = float(np.linalg.norm(rim - centre))
    return effects.lamp(frame, (float(centre[0]), float(centre[1])), radius, strength)


def _capture(
    frame: np.ndarray,
    rng: random.Random,
    options: SceneOptions,
    spot: tuple[float, float] | None,
    hom: np.ndarray,
) -> np.ndarray:
    frame = effects.light(frame, rng)
    if rng.random() < 0.25:
        frame = effects.shadow(frame, rng)
    if options.lamp is not None:
        # After the room's light and shade: the sensor clips the reflection's white
        # whatever the exposure and white balance make of the rest.
        frame = _lamp(frame, hom, options.lamp, options.lamp_strength)
    if spot is not None and rng.random() < options.glare:
        frame = effects.glare(frame, rng, spot, radius=rng.uniform(0.02, 0.05) * frame.shape[1])
    for _ in range(rng.randint(0, options.glares - 1) if options.glares > 1 else 0):
        frame = effects.glare(frame, rng, None, radius=rng.uniform(0.015, 0.06) * frame.shape[1])
    frame = effects.blur(frame, rng, 1.2)
    frame = effects.noise(frame, rng, 6.0)
    return effects.jpeg(frame, rng, (60, 95))


def render_spread(
    cards_shown: list[str],
    rng: random.Random,
    arrangement: str = "row",
    options: SceneOptions | None = None,
) -> tuple[np.ndarray, Calibration, list[tuple[str, np.ndarray, bool]]]:
    """Cards laid face up in the play area for scoring by camera.

    ``arrangement``: ``row`` (apart, in one or two rows), ``cascade`` (overlapping to the
    right, each older card showing a strip) or ``fan``. Returns the frame, the true
    calibration and, per card, (id, corners in pixels, fully visible?).
    """
    options = options or SceneOptions()
    w, h = options.size
    hom = (any_homography(rng, options.size, options.wide) if options.any_pose
           else camera_homography(rng, options.size, options.tilt_deg, options.wide))
    frame = _table(w, h, rng, options.table, hom)
    if options.show_markers:
        _draw_markers(frame, hom, rng)
    placed = []
    shadow = _shadow_of(rng) if options.soft_shadows else None
    for k, (cid, quad_mm) in enumerate(
        zip(cards_shown, _spread_quads(len(cards_shown), rng, arrangement), strict=True)
    ):
        quad = _draw_card(frame, hom, _face(cid, options), quad_mm, shadow)
        placed.append((cid, quad, arrangement == "row" or k == len(cards_shown) - 1))
    if options.capture:
        frame = _capture(frame, rng, options, None, hom)
    elif options.lamp is not None:
        frame = _lamp(frame, hom, options.lamp, options.lamp_strength)
    corners = project(
        hom, np.array([[0, 0], [PLAY_W_MM, 0], [PLAY_W_MM, PLAY_H_MM], [0, PLAY_H_MM]], np.float32)
    )
    return (
        frame,
        Calibration(tuple((float(x), float(y)) for x, y in corners), source="markers"),
        placed,
    )


def _spread_quads(n: int, rng: random.Random, arrangement: str) -> list[np.ndarray]:
    if arrangement == "row":
        per_row = min(n, 4)
        return [
            rect_mm(
                44 + 80 * (k % per_row) + rng.uniform(-2, 2),
                60 + 104 * (k // per_row) + rng.uniform(-2, 2),
                CARD_W_MM,
                CARD_H_MM,
                rng.uniform(-5, 5),
            )
            for k in range(n)
        ]
    if arrangement == "cascade":
        step = rng.uniform(18, 24)
        return [
            rect_mm(
                50 + step * k, 100 + rng.uniform(-2, 2), CARD_W_MM, CARD_H_MM, rng.uniform(-3, 3)
            )
            for k in range(n)
        ]
    if arrangement == "fan":
        return [
            rect_mm(120 + 14 * k, 110, CARD_W_MM, CARD_H_MM, -20 + 40 * k / max(n - 1, 1))
            for k in range(n)
        ]
    raise ValueError(f"unknown arrangement {arrangement!r}: row, cascade or fan")
