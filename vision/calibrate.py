"""Play-area calibration: ArUco markers (the contract) or four manual corners.

Markers are OpenCV's ``DICT_4X4_50`` ids 0 (top-left), 1 (top-right), 2 (bottom-right)
and 3 (bottom-left); their **centres** are the corners of the play area, by default
328 × 218 mm. A :class:`Calibration` maps play-area millimetres to frame pixels and
round-trips through a plain dict, so the device can keep manual corners in its config.
"""

from __future__ import annotations

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
    frame: np.ndarray, width_mm: float = PLAY_W_MM, height_mm: float = PLAY_H_MM
) -> Calibration | None:
    """Calibration from the four markers in ``frame``, or None unless all four are seen."""
    found = find_markers(frame)
    if len(found) < 4:
        return None
    centres = tuple((float(x), float(y)) for x, y in (found[i].mean(axis=0) for i in MARKER_IDS))
    try:
        return Calibration(centres, width_mm, height_mm, "markers")
    except CalibrationError:
        return None  # markers seen in an impossible arrangement (a sheet lying elsewhere)


def px_per_mm(calibration: Calibration) -> float:
    """Rough pixels per millimetre of the play area (for choosing work resolutions)."""
    pts = np.asarray(calibration.corners)
    top = math.dist(pts[0], pts[1]) / calibration.width_mm
    side = math.dist(pts[0], pts[3]) / calibration.height_mm
    return (top + side) / 2
