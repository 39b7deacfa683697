"""Play-area calibration: ArUco markers (the contract) or four manual corners.

Markers are OpenCV's ``DICT_4X4_50`` ids 0 (top-left), 1 (top-right), 2 (bottom-right)
and 3 (bottom-left); their **centres** are the corners of the play area, by default
328 × 218 mm. Three markers will do when the fourth is hidden or cut off by the
picture's edge: the fourth centre then comes from the camera that sees the three codes as
they are (:func:`from_markers`). A :class:`Calibration` maps play-area millimetres to
frame pixels and round-trips through a plain dict, so the device can keep manual corners
in its config.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

PLAY_W_MM, PLAY_H_MM = 328.0, 218.0
MARKER_MM = 22.0  # the black code's side, border cells included
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
SOURCES = ("markers", "manual")


class CalibrationError(ValueError):
    """Calibration data that cannot describe a play area."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """Frame pixels of the play area's corners (TL, TR, BR, BL) and its size in mm."""

    corners: tuple[tuple[float, float], ...]
    width_mm: float = PLAY_W_MM
    height_mm: float = PLAY_H_MM
    source: str = "manual"

    def __post_init__(self) -> None:
        pts = np.asarray(self.corners, np.float64)
        if pts.shape != (4, 2) or not np.isfinite(pts).all():
            raise CalibrationError("calibration needs four (x, y) corners: TL, TR, BR, BL")
        if self.width_mm <= 0 or self.height_mm <= 0:
            raise CalibrationError("play-area size must be positive")
        if self.source not in SOURCES:
            raise CalibrationError(f"calibration source must be one of {SOURCES}")
        if not _is_convex_clockwise(pts):
            raise CalibrationError("corners must be TL, TR, BR, BL of a convex area")

    def homography(self) -> np.ndarray:
        """3×3 matrix taking play-area millimetres to frame pixels."""
        src = np.array(
            [[0, 0], [self.width_mm, 0], [self.width_mm, self.height_mm], [0, self.height_mm]],
            np.float32,
        )
        return cv2.getPerspectiveTransform(src, np.asarray(self.corners, np.float32))

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        """Play-area millimetres (N, 2) → frame pixels (N, 2)."""
        pts = np.asarray(points_mm, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography()).reshape(-1, 2)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for TOML or JSON."""
        return {
            "corners": [[round(x, 2), round(y, 2)] for x, y in self.corners],
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        """The inverse of :meth:`to_dict`; raises :class:`CalibrationError` on bad data."""
        try:
            corners = tuple((float(x), float(y)) for x, y in data["corners"])
            return cls(
                corners,
                float(data.get("width_mm", PLAY_W_MM)),
                float(data.get("height_mm", PLAY_H_MM)),
                str(data.get("source", "manual")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"bad calibration data: {exc}") from exc


def _is_convex_clockwise(pts: np.ndarray) -> bool:
    """True for a convex quad listed clockwise on screen (y down), as TL, TR, BR, BL are."""
    crosses = []
    for i in range(4):
        a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        crosses.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    return all(c > 0 for c in crosses)


def parse_corners(text: str) -> tuple[tuple[float, float], ...]:
    """``"x,y x,y x,y x,y"`` (TL TR BR BL) → corner tuples; raises CalibrationError."""
    try:
        values = [float(v) for v in text.replace(";", " ").replace(",", " ").split()]
    except ValueError as exc:
        raise CalibrationError(f"corners must be numbers: {text!r}") from exc
    if len(values) != 8:
        raise CalibrationError("give four corners as 'x,y x,y x,y x,y' (TL TR BR BL)")
    return tuple((values[i], values[i + 1]) for i in range(0, 8, 2))


# Second looks, only while a marker is missing: wider thresholding windows (a marker far
# from a tilted camera is small and smeared, one close by is large and dim), then codes
# whose border reads light (a dim, tilted marker's border can sample light).
RETRIES = (
    {"adaptiveThreshWinSizeMax": 53, "adaptiveThreshWinSizeStep": 6},
    {"detectInvertedMarker": True},
)


def _detector(**options: object) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    for name, value in options.items():
        setattr(params, name, value)
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def find_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    """Detected contract markers: id → its four corner pixels (4, 2).

    When one is missing, looks again on a locally equalised image: a lamp's glare or a
    dim corner flattens a marker's contrast below the detector's thresholds."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = _markers(gray)
    if len(found) < len(MARKER_IDS):
        equalised = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8)).apply(gray)
        found = {**_markers(equalised), **found}
    for options in RETRIES:
        if len(found) == len(MARKER_IDS):
            break
        found = {**_markers(gray, **options), **found}
    return found


def _markers(gray: np.ndarray, **options: object) -> dict[int, np.ndarray]:
    corners, ids, _rejected = _detector(**options).detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    for quad, marker in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        if int(marker) in MARKER_IDS:
            found[int(marker)] = quad.reshape(4, 2)
    return found


def detect(
    frame: np.ndarray,
    width_mm: float = PLAY_W_MM,
    height_mm: float = PLAY_H_MM,
    held: Calibration | None = None,
) -> Calibration | None:
    """Calibration from the markers in ``frame``: from the four centres, or from three
    markers when the fourth is not seen (:func:`from_markers`); None otherwise."""
    size = (frame.shape[1], frame.shape[0])
    return from_markers(find_markers(frame), size, width_mm, height_mm, held)


def from_markers(
    found: dict[int, np.ndarray],
    size: tuple[int, int],
    width_mm: float = PLAY_W_MM,
    height_mm: float = PLAY_H_MM,
    held: Calibration | None = None,
) -> Calibration | None:
    """Calibration from :func:`find_markers`' markers in a frame of ``size`` (w, h).

    Four markers: their centres, as the contract says. Three: the fourth centre from the
    fit of :func:`_from_three`, unless ``held`` (the calibration a fixed camera holds)
    still lies on the three seen: then the fourth is only hidden (a hand over it), and
    the held calibration, perhaps from four markers, is kept rather than re-estimated."""
    if len(found) == len(MARKER_IDS):
        return _from_centres(found, width_mm, height_mm)
    if len(found) != len(MARKER_IDS) - 1:
        return None
    if held is not None and _lies_on(held, found):
        return held
    return _from_three(found, size, width_mm, height_mm)


def _from_centres(
    found: dict[int, np.ndarray], width_mm: float, height_mm: float
) -> Calibration | None:
    centres = tuple((float(x), float(y)) for x, y in (found[i].mean(axis=0) for i in MARKER_IDS))
    try:
        return Calibration(centres, width_mm, height_mm, "markers")
    except CalibrationError:
        return None  # markers seen in an impossible arrangement (a sheet lying elsewhere)


def _lies_on(held: Calibration, found: dict[int, np.ndarray]) -> bool:
    """True when every seen marker's centre is within :data:`HELD_PX` of its held corner."""
    return all(
        math.dist(held.corners[MARKER_IDS.index(i)], quad.mean(axis=0)) <= HELD_PX
        for i, quad in found.items()
    )


# Three markers. A seen code's four corners lie 11 mm either side of its centre, turned
# as the marker lies (cut out by hand: a quarter turn or more, and a few degrees more).
# Three codes' 12 corners fix a camera well enough to place the fourth centre, if the
# camera is a pinhole one (square pixels, centred lens): a free homography has two more
# degrees of freedom, which the codes' few-pixel shapes pin down poorly (its fourth
# corner was 8 px off in the median on the wide lens's frames, 36 px at worst).
#
# Measured on generated frames of four tables (usual, wide lens, lamp, gingham; 100
# frames each, a new camera each, markers laid within ±3°), each of the four markers
# left out in turn: of 1,424 fits, 1,420 pass the bar below, their fourth corner off by
# 0.7 px in the median, 2.3 px at the 90th percentile, 8.2 px at worst (four markers'
# centres: about 1 px at worst).
HELD_PX = 2.0  # a held calibration this close at the seen markers: the camera has not moved
FIT_ROUNDS = 5  # camera, then each code's turn from it; the fourth corner moves under
#                 0.05 px after the third round on the wide lens's frames
# The bar on the 12 corners' worst distance from where the fitted camera sees them, as a
# fraction of the codes' mean side (a nearer camera sees larger codes, larger errors).
# On the fits above the right markers score 0.010 in the median, 0.034 at the 99th
# percentile. The 4 refused score 0.054-0.075: an object touching a code's edge bends
# its corners, and the fourth corner came out 3.5-15 px off. Refused by far: three of
# the marker sheet's codes lying on the table (0.55 and more), markers in each other's
# corners (2.3 and more), a marker laid 10 mm (diagonally) off its corner (0.06). One 5
# mm off scores 0.03 and is taken: the fourth corner then lies 15 px off, where with four
# markers only the misplaced marker's own corner would be.
THREE_BAR = 0.05


def _from_three(
    found: dict[int, np.ndarray], size: tuple[int, int], width_mm: float, height_mm: float
) -> Calibration | None:
    """Calibration from three markers: the camera fitted to their 12 code corners, each
    marker tried at its four quarter turns; None when no fit is close enough."""
    ids = sorted(found)
    px = np.concatenate([found[i] for i in ids]).astype(np.float64)
    area = _area_mm(width_mm, height_mm)
    angles = _quarter_turns(px, area[ids])
    hom, error = _camera_fit(px, area[ids], angles, size)
    if hom is None or error > THREE_BAR * _side_px(px):
        return None  # no camera sees these codes there: not the play area's markers
    corners = cv2.perspectiveTransform(area.reshape(-1, 1, 2), hom).reshape(-1, 2)
    try:
        return Calibration(tuple((float(x), float(y)) for x, y in corners), width_mm,
                           height_mm, "markers")
    except CalibrationError:
        return None


# Two markers. A camera knocked while arms or long cascades hide two of the markers: the
# two still seen moved as one rigid piece (a knock turns and shifts the view; the camera's
# height, and so the scale, stays). Their eight code corners, where the last look found
# them and where they lie now, fix that turn and shift (a least-squares similarity), and
# the held calibration moved alike serves until a look finds three. Two centres always
# fit a turn and a shift: only their distance (the scale) and the codes' own turns can
# say they did not move as one. Not taken when the corners stray from the fitted move (a
# code turned by hand, or bent by a hand at its edge) or the scale changed (a marker slid
# towards the other, a camera lowered): then the look is in vain, as before.
#
# A real knock tilts the camera too, which no turn and shift undoes. Measured on the
# geometry of 400 cameras like the generated ones (a quarter wide-angle), each turned
# 1-3° about a random axis through its centre, every pair of markers in turn
# (benchmarks/two_markers.py): of 2,400 pairs 2,167 pass the bars below, their worst
# play-area corner off by 9.3 px in the median, 17.9 px at the 90th percentile, 33 px at
# worst; the calibration held as it was lay 37, 57 and 73 px off. Near enough to read
# the cards by (the scanner looks a few millimetres round each outline, and names none
# where no stack can lie) until a look sees three markers and replaces it.
TWO_PX = 2.0  # the worst corner's distance from the fitted move (a few mm of table: no)
TWO_SCALE = 0.02  # the move's scale this close to 1


def moved_with(held: Calibration, before: dict[int, np.ndarray],
               now: dict[int, np.ndarray]) -> Calibration | None:
    """``held`` moved as the markers seen both ``before`` (the last look's) and ``now``
    moved, when at least two were and they moved rigidly; None otherwise."""
    common = sorted(set(before) & set(now))
    if len(common) < 2:
        return None
    src = np.concatenate([before[i] for i in common]).astype(np.float64)
    dst = np.concatenate([now[i] for i in common]).astype(np.float64)
    # The similarity as one complex factor (turn and scale) and a shift.
    z_src, z_dst = src @ (1, 1j), dst @ (1, 1j)
    mid_src, mid_dst = z_src.mean(), z_dst.mean()
    a, b = z_src - mid_src, z_dst - mid_dst
    factor = complex(np.vdot(a, b) / np.vdot(a, a))
    if abs(abs(factor) - 1) > TWO_SCALE or np.abs(factor * a - b).max() > TWO_PX:
        return None
    corners = (np.asarray(held.corners) @ (1, 1j) - mid_src) * factor + mid_dst
    try:
        return Calibration(tuple((float(z.real), float(z.imag)) for z in corners),
                           held.width_mm, held.height_mm, "markers")
    except CalibrationError:
        return None


def _area_mm(width_mm: float, height_mm: float) -> np.ndarray:
    """The play area's corners (mm), in :data:`MARKER_IDS` order."""
    return np.array([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]], np.float64)


def _code_mm(centres: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """The codes' corners on the table (mm), in the detector's order, each code turned by
    its angle (radians, clockwise on screen) about its centre."""
    half = MARKER_MM / 2
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    out = []
    for centre, angle in zip(centres, angles, strict=True):
        c, s = math.cos(angle), math.sin(angle)
        out.append(centre + square @ np.array([[c, s], [-s, c]]))
    return np.concatenate(out)


def _reprojection(hom: np.ndarray, mm: np.ndarray, px: np.ndarray) -> float:
    """The worst distance (px) between ``px`` and ``mm`` seen through ``hom``."""
    seen = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), hom).reshape(-1, 2)
    return float(np.linalg.norm(seen - px, axis=1).max())


def _quarter_turns(px: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Each code's quarter turn (radians): the best of the 64 combinations, each judged by
    a least-squares homography. A wrong quarter turn leaves corners a code's side off."""
    best, angles = math.inf, np.zeros(len(centres))
    for turns in itertools.product(range(4), repeat=len(centres)):
        trial = np.array(turns) * (math.pi / 2)
        mm = _code_mm(centres, trial)
        hom, _ = cv2.findHomography(mm, px, 0)
        error = math.inf if hom is None else _reprojection(hom, mm, px)
        if error < best:
            best, angles = error, trial
    return angles


def _camera_fit(
    px: np.ndarray, centres: np.ndarray, angles: np.ndarray, size: tuple[int, int]
) -> tuple[np.ndarray | None, float]:
    """A pinhole camera's homography fitted to the codes' corners, and its worst
    reprojection error (px). Rounds alternate the camera and each code's exact turn."""
    hom = None
    for _ in range(FIT_ROUNDS):
        hom = _pinhole(_code_mm(centres, angles), px, size)
        if hom is None:
            return None, math.inf
        angles = _turns_seen(px, centres, hom)
    assert hom is not None
    return hom, _reprojection(hom, _code_mm(centres, angles), px)


def _pinhole(mm: np.ndarray, px: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
    """mm → px homography of the camera (focal length, pose) that best sees ``mm`` at
    ``px``: square pixels, the principal point at the frame's centre, no distortion."""
    w, h = size
    guess = np.array([[0.7 * w, 0, w / 2], [0, 0.7 * w, h / 2], [0, 0, 1]])  # between lenses
    objects = [np.hstack([mm, np.zeros((len(mm), 1))]).astype(np.float32)]
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
             | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST
             | cv2.CALIB_FIX_K1 | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    try:
        _, k, _, rvecs, tvecs = cv2.calibrateCamera(
            objects, [px.astype(np.float32)], size, guess, np.zeros(5), flags=flags
        )
    except cv2.error:
        return None  # a degenerate view (corners in a line)
    rot, _ = cv2.Rodrigues(rvecs[0])
    hom = k @ np.column_stack([rot[:, 0], rot[:, 1], tvecs[0].ravel()])
    out: np.ndarray = hom / hom[2, 2]
    return out


def _turns_seen(px: np.ndarray, centres: np.ndarray, hom: np.ndarray) -> np.ndarray:
    """Each code's turn on the table (radians) as ``hom`` sees it: its corners taken back
    to the table, matched to an unturned code about the centre (least squares)."""
    on_table = cv2.perspectiveTransform(px.reshape(-1, 1, 2), np.linalg.inv(hom)).reshape(-1, 2)
    square = _code_mm(np.zeros((1, 2)), np.zeros(1))
    angles = []
    for centre, corners in zip(centres, on_table.reshape(-1, 4, 2), strict=True):
        rel = corners - centre
        cross = np.sum(square[:, 0] * rel[:, 1] - square[:, 1] * rel[:, 0])
        angles.append(math.atan2(cross, float(np.sum(square * rel))))
    return np.array(angles)


def _side_px(px: np.ndarray) -> float:
    """The codes' mean side (px), for a bar that scales with how near the camera is."""
    quads = px.reshape(-1, 4, 2)
    return float(np.linalg.norm(np.roll(quads, -1, axis=1) - quads, axis=2).mean())


def px_per_mm(calibration: Calibration) -> float:
    """Rough pixels per millimetre of the play area (for choosing work resolutions)."""
    pts = np.asarray(calibration.corners)
    top = math.dist(pts[0], pts[1]) / calibration.width_mm
    side = math.dist(pts[0], pts[3]) / calibration.height_mm
    return (top + side) / 2
