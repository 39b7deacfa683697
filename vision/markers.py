"""The printable calibration sheet: the four ArUco markers to cut out and lay down.

The play area (328 × 218 mm between marker centres) is larger than A4 or Letter, so the
sheet carries the four markers to cut out, each with its id, its corner of the play
area, the size its black square must measure when printed, and the distances to lay
them at.

The sheet is drawn once, as shapes measured in millimetres (:func:`layout`), and
rendered two ways from those shapes: a vector PDF, where every black code cell is a
filled rectangle of exactly ``MARKER_MM / 6`` mm, and a lossless PNG at the printer's
300 dpi. Nothing is ever JPEG-compressed: a blurred cell edge is exactly what the
camera must not have to read.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from vision.calibrate import MARKER_IDS, MARKER_MM, PLAY_H_MM, PLAY_W_MM

DPI = 300
PT_PER_MM = 72 / 25.4
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CELLS = 6  # a DICT_4X4_50 code: 4 × 4 data cells inside a one-cell black border
CUT_GRAY = 150  # the cut line: visible, but never mistaken for a code's outline
HELVETICA_CAP = 0.718  # Helvetica's capital height, in ems
CORNER_NAMES = (
    "top-left (Jupiter side, far)",
    "top-right (Institute side, far)",
    "bottom-right (Institute side, near)",
    "bottom-left (Jupiter side, near)",
)
# Each code's top-left corner (mm), laid out as on the table: 0 and 1 on the far side,
# 3 and 2 on the near side.
PLACES_MM = ((30.0, 85.0), (125.0, 85.0), (125.0, 180.0), (30.0, 180.0))


@dataclass(frozen=True)
class Fill:
    """Black rectangles (x, y, width, height in mm) filled as one shape, so that no
    renderer leaves a hairline seam between two touching cells."""

    rects: tuple[tuple[float, float, float, float], ...]


@dataclass(frozen=True)
class Stroke:
    """A line through ``points`` (mm), ``width`` mm wide, gray 0 (black) to 255."""

    points: tuple[tuple[float, float], ...]
    width: float
    gray: int = 0
    closed: bool = False


@dataclass(frozen=True)
class Label:
    """One line of text whose baseline starts at (x, y) mm; capitals ``cap`` mm tall."""

    text: str
    x: float
    y: float
    cap: float


Shape = Fill | Stroke | Label


def code_cells(marker_id: int) -> np.ndarray:
    """The marker's 6 × 6 cells, True where black (OpenCV's own pattern)."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    out: np.ndarray = cv2.aruco.generateImageMarker(dictionary, marker_id, CELLS) == 0
    return out


def _code(marker_id: int, x: float, y: float) -> Fill:
    cell = MARKER_MM / CELLS
    black = code_cells(marker_id)
    return Fill(tuple((x + c * cell, y + r * cell, cell, cell)
                      for r in range(CELLS) for c in range(CELLS) if black[r, c]))


def _marker(marker_id: int, corner: str, x: float, y: float) -> list[Shape]:
    """The code, a cut line two white cells (plus 2 mm) out, and what it is for."""
    m = 2 * MARKER_MM / CELLS + 2
    cut = ((x - m, y - m), (x + MARKER_MM + m, y - m), (x + MARKER_MM + m, y + MARKER_MM + m),
           (x - m, y + MARKER_MM + m))
    below = y + MARKER_MM + 16
    return [_code(marker_id, x, y), Stroke(cut, 0.2, CUT_GRAY, closed=True),
            Label(f"id {marker_id}: {corner}", x - 14, below, 1.6),
            Label(f"black square {MARKER_MM:.0f} mm", x - 14, below + 6, 1.6)]


def _ruler(x: float, y: float) -> list[Shape]:
    """A 100 mm scale bar to check the print scale."""
    ticks = [Stroke(((x + 10 * k, y - (5 if k % 5 == 0 else 3)), (x + 10 * k, y)), 0.25)
             for k in range(11)]
    return [Stroke(((x, y), (x + 100, y)), 0.25), *ticks,
            Label("100 mm: check with a ruler", x + 105, y, 1.8)]


INSTRUCTIONS = (
    f"Print at 100% (no 'fit to page'). Each black square must measure {MARKER_MM:.0f} mm.",
    "Cut along the grey lines; keep the white border. Lay the markers so their centres are",
    f"{PLAY_W_MM:.0f} mm apart left to right and {PLAY_H_MM:.0f} mm apart top to bottom, "
    "upright.",
    "The four columns between them are Jupiter, Mars, Luna, the Institute. Stacks start",
    "about 20 mm below the top markers and cascade about 14 mm per card; keep each",
    "newest card within 3 cm below the bottom markers.",
)


def layout(paper: str = "a4") -> tuple[tuple[float, float], list[Shape]]:
    """The sheet's size (width, height in mm) and its shapes.

    :raises ValueError: for a paper size other than ``a4`` or ``letter``.
    """
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS_MM)}")
    w_mm, h_mm = PAPERS_MM[paper]
    shapes: list[Shape] = [Label("Red Rising companion - calibration markers", 15, 20, 3.2)]
    shapes += [Label(line, 15, 30 + 6 * k, 2.0) for k, line in enumerate(INSTRUCTIONS)]
    for marker_id, corner, (x, y) in zip(MARKER_IDS, CORNER_NAMES, PLACES_MM, strict=True):
        shapes += _marker(marker_id, corner, x, y)
    shapes += _ruler(15, h_mm - 25)
    return (w_mm, h_mm), shapes


# --- the raster sheet ---------------------------------------------------------------------


def _px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def sheet(paper: str = "a4") -> np.ndarray:
    """The sheet as a grayscale image at 300 dpi.

    :raises ValueError: for a paper size other than ``a4`` or ``letter``.
    """
    (w_mm, h_mm), shapes = layout(paper)
    img = np.full((_px(h_mm), _px(w_mm)), 255, np.uint8)
    for shape in shapes:
        _raster(img, shape)
    return img


def _raster(img: np.ndarray, shape: Shape) -> None:
    if isinstance(shape, Fill):
        for x, y, w, h in shape.rects:  # each edge rounded once, so cells tile exactly
            img[_px(y):_px(y + h), _px(x):_px(x + w)] = 0
    elif isinstance(shape, Stroke):
        pts = np.array([[_px(x), _px(y)] for x, y in shape.points], np.int32)
        cv2.polylines(img, [pts], shape.closed, shape.gray, max(1, _px(shape.width)),
                      cv2.LINE_AA)
    else:
        font = cv2.FONT_HERSHEY_SIMPLEX
        scale = _px(shape.cap) / cv2.getTextSize("H", font, 1.0, 1)[0][1]
        cv2.putText(img, shape.text, (_px(shape.x), _px(shape.y)), font, scale, 0,
                    max(1, round(_px(shape.cap) / 10)), cv2.LINE_AA)


# --- the vector sheet ---------------------------------------------------------------------


def _num(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _pdf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _operators(shape: Shape) -> Iterable[str]:
    """PDF drawing operators for one shape, in millimetres with y pointing down."""
    if isinstance(shape, Fill):
        yield "0 g"
        yield from (" ".join(map(_num, r)) + " re" for r in shape.rects)
        yield "f"
    elif isinstance(shape, Stroke):
        (x0, y0), *rest = shape.points
        yield f"{_num(shape.gray / 255)} G {_num(shape.width)} w {_num(x0)} {_num(y0)} m"
        yield from (f"{_num(x)} {_num(y)} l" for x, y in rest)
        yield "h S" if shape.closed else "S"
    else:  # the text matrix flips y back, so the letters stand upright
        size = shape.cap / HELVETICA_CAP
        yield (f"BT 0 g /F1 {_num(size)} Tf 1 0 0 -1 {_num(shape.x)} {_num(shape.y)} Tm "
               f"({_pdf_text(shape.text)}) Tj ET")


def pdf(paper: str = "a4") -> bytes:
    """The sheet as a one-page vector PDF (no images at all).

    :raises ValueError: for a paper size other than ``a4`` or ``letter``.
    """
    (w_mm, h_mm), shapes = layout(paper)
    scale = f"{PT_PER_MM:.8f}"
    ops = [f"q {scale} 0 0 -{scale} 0 {_num(h_mm * PT_PER_MM)} cm"]
    for shape in shapes:
        ops += _operators(shape)
    content = ("\n".join([*ops, "Q"]) + "\n").encode("ascii")
    box = f"[0 0 {_num(w_mm * PT_PER_MM)} {_num(h_mm * PT_PER_MM)}]"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox {box} /Contents 4 0 R "
         "/Resources << /Font << /F1 5 0 R >> >> >>").encode("ascii"),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    return _pdf_file(objects)


def _pdf_file(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def write(path: Path, paper: str = "a4") -> Path:
    """Write the sheet as a vector PDF or a 300 dpi PNG (by the file's suffix), true size.

    :raises ValueError: for another suffix or paper size.
    """

    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise ValueError(f"{path.name}: the marker sheet is written as .pdf or .png")
    if suffix == ".pdf":
        data = pdf(paper)
    else:
        buffer = io.BytesIO()
        Image.fromarray(sheet(paper)).save(buffer, "PNG", dpi=(DPI, DPI))
        data = buffer.getvalue()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
