"""The CLI contracts: ``companion cards enroll|identify`` and ``companion table scan|markers``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cli import main
from engine.board import Location
from vision.synth import cards
from vision.synth.scene import SceneOptions, render


def lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def frames(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("frames")
    paths = []
    for i, layout in enumerate(({"mars": ["aja"]}, {"luna": ["eo", "sevro"]})):
        frame, _ = render(layout, random.Random(i), SceneOptions())
        paths.append(folder / f"frame{i}.jpg")
        cv2.imwrite(str(paths[-1]), frame)
    return paths


def test_table_scan_json_contract(frames: list[Path], capsys) -> None:
    assert main(["table", "scan", *map(str, frames), "--json"]) == 0
    out = lines(capsys)
    assert [o["frame"] for o in out] == [str(p) for p in frames]
    for o in out:
        assert set(o) == {"frame", "elapsed_ms", "locations"}
        assert isinstance(o["elapsed_ms"], float) and o["elapsed_ms"] > 0
        assert list(o["locations"]) == [loc.value for loc in Location]
        for loc in o["locations"].values():
            assert {"top", "confidence", "depth"} <= set(loc)
            assert loc["top"] is None or isinstance(loc["top"], str)
            assert isinstance(loc["depth"], int)
    assert out[0]["locations"]["mars"]["top"] == "aja"


def test_cards_identify_json_contract(tmp_path: Path, capsys) -> None:
    paths = []
    for cid in ("aja", "eo"):
        paths.append(tmp_path / f"{cid}.png")
        cv2.imwrite(str(paths[-1]), cards.card_face(cid, "classic"))
    assert main(["cards", "identify", *map(str, paths), "--json"]) == 0
    out = lines(capsys)
    assert [set(o) for o in out] == [{"image", "card", "confidence"}] * 2
    assert [o["card"] for o in out] == ["aja", "eo"]


def test_cards_enroll_then_identify(tmp_path: Path, capsys) -> None:
    images = tmp_path / "photos"
    images.mkdir()
    for cid in ("aja", "eo", "judge"):
        cv2.imwrite(str(images / f"{cid}.png"), cards.card_face(cid, "modern"))
    model = tmp_path / "mine.onnx"
    assert main(["cards", "enroll", "--images", str(images), "--out", str(model)]) == 0
    assert model.is_file() and model.with_suffix(".labels.txt").read_text().split() == [
        "aja",
        "eo",
        "judge",
    ]
    capsys.readouterr()
    assert main(["cards", "identify", "--model", str(model), str(images / "eo.png"), "--json"]) == 0
    assert lines(capsys)[0]["card"] == "eo"


@pytest.mark.parametrize("name,paper", [("sheet.pdf", "a4"), ("sheet.png", "letter")])
def test_table_markers_writes_a_sheet(tmp_path: Path, name: str, paper: str) -> None:
    out = tmp_path / name
    assert main(["table", "markers", "--out", str(out), "--paper", paper]) == 0
    assert out.stat().st_size > 1000
    if out.suffix == ".png":
        from vision.calibrate import find_markers

        assert sorted(find_markers(cv2.imread(str(out)))) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "scan", "missing.jpg"],
        ["table", "scan", "x.jpg", "--corners", "1,2 3"],
        ["table", "markers", "--out", "sheet.svg"],
        ["cards", "identify", "missing.png"],
        ["cards", "enroll", "--images", "nowhere", "--out", "m.onnx"],
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.jpg").write_bytes(b"not an image")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1


def test_table_scan_says_why_a_location_is_occluded(tmp_path: Path, capsys) -> None:
    """Without --json each occluded location gives its reason: a lamp's reflection the
    camera clips white over Luna's only card."""
    layout = {"mars": ["aja"], "luna": ["eo"]}
    _, plain = render(layout, random.Random(3), SceneOptions(capture=False))
    x, y = plain.locations["luna"].quads_mm[-1].mean(axis=0)
    frame, _ = render(layout, random.Random(3), SceneOptions(
        lamp=(float(x), float(y), 60.0), lamp_strength=1.6))
    path = tmp_path / "lamp.jpg"
    cv2.imwrite(str(path), frame)
    assert main(["table", "scan", str(path)]) == 0
    out = capsys.readouterr().out
    luna = next(line for line in out.splitlines() if line.strip().startswith("luna"))
    assert "occluded" in luna and "(a lamp's reflection hides the location)" in luna
    mars = next(line for line in out.splitlines() if line.strip().startswith("mars"))
    assert "aja" in mars and "(" not in mars.split("confidence")[1]


def _column_px(truth) -> float:  # type: ignore[no-untyped-def]
    """How far one column spans across the frame (pixels, along the play area's top)."""
    (x0, _y0), (x1, _y1) = truth.calibration.corners[:2]
    return (x1 - x0) / len(Location)


def test_table_scan_reads_unrelated_photos_each_with_its_own_markers(
        tmp_path: Path, capsys) -> None:
    """Photos from different cameras, some without markers: a photo without them reads
    unknown, never with the photo before's calibration. The third photo is the second's
    camera turned one column's width, its markers cut out: read with the second's
    calibration it would name each stack's card at the location to its right."""
    shown = {"jupiter": ["aja"], "mars": ["eo"], "luna": ["sevro"], "institute": ["mustang"]}
    first, first_truth = render({"mars": ["darrow"]}, random.Random(5), SceneOptions())
    second, truth = render(shown, random.Random(8), SceneOptions())
    moved, moved_truth = render({"jupiter": ["dancer"], "mars": ["harmony"], "luna": ["ragnar"]},
                                random.Random(8), SceneOptions(show_markers=False))
    turn = np.float32([[1, 0, _column_px(moved_truth)], [0, 1, 0]])
    moved = cv2.warpAffine(moved, turn, (moved.shape[1], moved.shape[0]),
                           borderMode=cv2.BORDER_REPLICATE)
    blurred = cv2.blur(second, (25, 1))  # motion blur: no marker found
    truths = [first_truth, truth, None, None]
    paths = []
    for i, frame in enumerate((first, second, moved, blurred)):
        paths.append(tmp_path / f"photo{i}.jpg")
        cv2.imwrite(str(paths[-1]), frame)
    assert main(["table", "scan", *map(str, paths), "--json"]) == 0
    out = lines(capsys)
    for o, t in zip(out[:2], truths, strict=False):
        named = {loc: r["top"] for loc, r in o["locations"].items() if r["top"]}
        assert named == {loc: t.locations[loc].top for loc in named}
        assert named  # the photos with markers are read
    for o in out[2:]:
        assert {r["state"] for r in o["locations"].values()} == {"unknown"}


def test_table_scan_same_camera_keeps_the_calibration_through_a_frame_without_markers(
        tmp_path: Path, capsys) -> None:
    shown = {"jupiter": ["aja"], "luna": ["sevro"]}
    seen, _ = render(shown, random.Random(8), SceneOptions())
    hidden, _ = render(shown, random.Random(8), SceneOptions(show_markers=False))
    paths = [tmp_path / "seen.jpg", tmp_path / "hidden.jpg"]
    for path, frame in zip(paths, (seen, hidden), strict=True):
        cv2.imwrite(str(path), frame)
    assert main(["table", "scan", *map(str, paths), "--json", "--same-camera"]) == 0
    later = lines(capsys)[1]["locations"]
    assert (later["jupiter"]["top"], later["luna"]["top"]) == ("aja", "sevro")
