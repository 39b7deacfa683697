"""The marker sheet: a vector PDF whose code cells are exact, and a lossless 300 dpi PNG.

No PDF rasteriser is installed here, so the PDF is checked by parsing its own drawing
operators back into cells and millimetres; the PNG, drawn from the same shapes, is
checked by OpenCV's detector.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from device.cli import main
from vision import markers
from vision.calibrate import MARKER_IDS, MARKER_MM, find_markers

CELL = MARKER_MM / markers.CELLS
NUMBER = r"-?[0-9.]+"
RECT = re.compile(rf"^({NUMBER}) ({NUMBER}) ({NUMBER}) ({NUMBER}) re$")


def content(data: bytes) -> list[str]:
    """The page's content stream, one operator line per item."""
    match = re.search(rb"/Length (\d+) >>\nstream\n", data)
    assert match is not None
    start = match.end()
    return data[start:start + int(match.group(1))].decode("ascii").splitlines()


def fills(lines: list[str]) -> list[list[tuple[float, ...]]]:
    """Each filled path's rectangles (x, y, w, h), in the order they are drawn."""
    out: list[list[tuple[float, ...]]] = []
    current: list[tuple[float, ...]] = []
    for line in lines:
        if (m := RECT.match(line)) is not None:
            current.append(tuple(float(v) for v in m.groups()))
        elif line == "f":
            out.append(current)
            current = []
    return out


def cells_of(rects: list[tuple[float, ...]]) -> tuple[tuple[float, float], np.ndarray]:
    """The code's top-left corner (mm) and its 6 × 6 black cells, read from rectangles."""
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    grid = np.zeros((markers.CELLS, markers.CELLS), bool)
    for x, y, w, h in rects:
        assert w == pytest.approx(CELL, abs=1e-3) and h == pytest.approx(CELL, abs=1e-3)
        col, row = (x - x0) / CELL, (y - y0) / CELL
        assert col == pytest.approx(round(col), abs=1e-3)
        assert row == pytest.approx(round(row), abs=1e-3)
        grid[round(row), round(col)] = True
    return (x0, y0), grid


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pdf_holds_no_image_at_all(paper: str) -> None:
    data = markers.pdf(paper)
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    for lossy_or_image in (b"/DCTDecode", b"/Image", b"/XObject", b"/JPX"):
        assert lossy_or_image not in data


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pdf_page_is_the_paper_at_true_size(paper: str) -> None:
    data = markers.pdf(paper)
    box = re.search(rb"/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]", data)
    assert box is not None
    w_mm, h_mm = markers.PAPERS_MM[paper]
    assert float(box.group(1)) == pytest.approx(w_mm * 72 / 25.4, abs=1e-3)
    assert float(box.group(2)) == pytest.approx(h_mm * 72 / 25.4, abs=1e-3)
    first = content(data)[0].split()
    # one user unit is one millimetre, y pointing down from the page's top edge
    assert first[0] == "q" and first[-1] == "cm"
    a, b, c, d, e, f = map(float, first[1:7])
    assert (a, b, c, e) == (pytest.approx(72 / 25.4, rel=1e-7), 0, 0, 0)
    assert d == pytest.approx(-72 / 25.4, rel=1e-7) and f == pytest.approx(h_mm * 72 / 25.4)


def test_every_pdf_code_cell_is_an_exact_rectangle_of_opencvs_own_pattern() -> None:
    codes = fills(content(markers.pdf("a4")))
    assert len(codes) == len(MARKER_IDS)
    corners = []
    for marker_id, rects in zip(MARKER_IDS, codes, strict=True):
        corner, grid = cells_of(rects)
        assert np.array_equal(grid, markers.code_cells(marker_id))
        assert grid[0].all() and grid[-1].all()  # the black border spans the full 22 mm
        right = max(r[0] + r[2] for r in rects)
        assert right - corner[0] == pytest.approx(MARKER_MM, abs=1e-3)
        corners.append(corner)
    # laid out as on the table: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    assert x0 == x3 < x1 == x2 and y0 == y1 < y2 == y3


def test_the_pdf_cross_reference_points_at_its_objects() -> None:
    data = markers.pdf("a4")
    start = int(data.rsplit(b"startxref\n", 1)[1].split()[0])
    table = data[start:].split(b"trailer")[0].splitlines()[3:]
    for number, entry in enumerate(table, 1):
        offset = int(entry.split()[0])
        assert data[offset:].startswith(b"%d 0 obj" % number)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_png_drawn_from_the_same_shapes_is_detected(paper: str, tmp_path: Path) -> None:
    out = markers.write(tmp_path / "sheet.png", paper)
    with Image.open(out) as image:
        assert image.format == "PNG"
        assert tuple(round(v) for v in image.info["dpi"]) == (markers.DPI, markers.DPI)
    img = cv2.imread(str(out))
    found = find_markers(img)
    assert sorted(found) == list(MARKER_IDS)
    side_px = MARKER_MM / 25.4 * markers.DPI
    for quad in found.values():
        assert np.linalg.norm(quad[1] - quad[0]) == pytest.approx(side_px, abs=2)


def test_the_png_code_is_pure_black_and_white() -> None:
    img = markers.sheet("a4")
    x, y = (markers._px(v) for v in markers.PLACES_MM[0])
    code = img[y:y + markers._px(MARKER_MM), x:x + markers._px(MARKER_MM)]
    assert set(np.unique(code)) == {0, 255}


def test_companion_table_markers_writes_the_vector_pdf(tmp_path: Path) -> None:
    out = tmp_path / "markers.pdf"
    assert main(["table", "markers", "--out", str(out)]) == 0
    assert out.read_bytes() == markers.pdf("a4")


def test_a_bad_suffix_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.pdf or \.png"):
        markers.write(tmp_path / "new" / "sheet.jpg")
    assert not (tmp_path / "new").exists()
