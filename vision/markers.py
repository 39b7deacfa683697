"""The printable calibration sheet: the four ArUco markers to cut out and lay down.

The play area (328 × 218 mm between marker centres) is larger than A4 or Letter, so the
sheet carries the four markers to cut out, each with its id, its corner of the play
area, the size its black square must measure when printed, and the distances to lay
them at.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.calibrate import MARKER_IDS, MARKER_MM, PLAY_H_MM, PLAY_W_MM

DPI = 300
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CORNER_NAMES = (
    "top-left (Jupiter side, far)",
    "top-right (Institute side, far)",
    "bottom-right (Institute side, near)",
    "bottom-left (Jupiter side, near)",
)


def _px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def _text(img: np.ndarray, text: str, x_mm: float, y_mm: float, size: float = 1.0) -> None:
    cv2.putText(
        img,
        text,
        (_px(x_mm), _px(y_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        1.6 * size,
        0,
        max(1, round(3 * size)),
        cv2.LINE_AA,
    )


def _marker(img: np.ndarray, marker_id: int, x_mm: float, y_mm: float) -> None:
    """One marker: its 6-cell code exactly MARKER_MM wide, two white cells round it, a cut line."""
    side = _px(MARKER_MM)
    code = cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), marker_id, side
    )
    x, y = _px(x_mm), _px(y_mm)
    img[y : y + side, x : x + side] = code
    cell = MARKER_MM / 6
    margin = _px(2 * cell + 2)
    cv2.rectangle(
        img, (x - margin, y - margin), (x + side + margin, y + side + margin), 150, 2, cv2.LINE_AA
    )


def sheet(paper: str = "a4") -> np.ndarray:
    """The sheet as a grayscale image at 300 dpi.

    :raises ValueError: for a paper size other than ``a4`` or ``letter``.
    """
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS_MM)}")
    w_mm, h_mm = PAPERS_MM[paper]
    img = np.full((_px(h_mm), _px(w_mm)), 255, np.uint8)
    _text(img, "Red Rising companion - calibration markers", 15, 20, 1.1)
    _text(
        img,
        f"Print at 100% (no 'fit to page'). Each black square must measure {MARKER_MM:.0f} mm.",
        15,
        30,
        0.7,
    )
    _text(
        img,
        "Cut along the grey lines; keep the white border. Lay the markers so their centres are",
        15,
        37,
        0.7,
    )
    _text(
        img,
        f"{PLAY_W_MM:.0f} mm apart left to right and {PLAY_H_MM:.0f} mm apart top to "
        f"bottom, upright.",
        15,
        44,
        0.7,
    )
    _text(img, "The four columns between them are Jupiter, Mars, Luna, the Institute.", 15, 51, 0.7)
    # Laid out as on the table: 0 and 1 on the far side, 3 and 2 on the near side.
    for i, (marker_id, (x_mm, y_mm)) in enumerate(
        zip(MARKER_IDS, ((30, 75), (125, 75), (125, 170), (30, 170)), strict=True)
    ):
        _marker(img, marker_id, x_mm, y_mm)
        _text(img, f"id {marker_id}: {CORNER_NAMES[i]}", x_mm - 14, y_mm + MARKER_MM + 22, 0.55)
        _text(img, f"black square {MARKER_MM:.0f} mm", x_mm - 14, y_mm + MARKER_MM + 28, 0.55)
    _ruler(img, 15, h_mm - 25)
    return img


def _ruler(img: np.ndarray, x_mm: float, y_mm: float) -> None:
    """A 100 mm scale bar to check the print scale."""
    x0, x1, y = _px(x_mm), _px(x_mm + 100), _px(y_mm)
    cv2.line(img, (x0, y), (x1, y), 0, 3)
    for k in range(11):
        xk = _px(x_mm + 10 * k)
        cv2.line(img, (xk, y - _px(3 if k % 5 else 5)), (xk, y), 0, 3)
    _text(img, "100 mm: check with a ruler", x_mm + 105, y_mm, 0.6)


def write(path: Path, paper: str = "a4") -> Path:
    """Write the sheet as PDF or PNG (by the file's suffix), at true size.

    :raises ValueError: for another suffix or paper size.
    """
    from PIL import Image

    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise ValueError(f"{path.name}: the marker sheet is written as .pdf or .png")
    image = Image.fromarray(sheet(paper))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, resolution=DPI) if suffix == ".pdf" else image.save(path, dpi=(DPI, DPI))
    return path
