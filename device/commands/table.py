"""``companion table``: scan table frames and print the calibration marker sheet.

    companion table scan FRAME... [--model FILE.onnx] [--json] [--same-camera]
    companion table scan FRAME... --corners "x,y x,y x,y x,y"   # manual calibration
    companion table scan FRAME... --calibration calib.json
    companion table markers --out markers.pdf [--paper letter]

``scan --json`` prints one object per frame (the contract)::

    {"frame": "f1.jpg", "elapsed_ms": 9.1,
     "locations": {"jupiter": {"top": "aja", "confidence": 0.93, "depth": 2,
                               "state": "card"}, ...}}

``elapsed_ms`` is the scan alone (marker detection included, start-up excluded).
``state`` (an addition to the contract) is one of empty, card, occluded, face_down,
unknown. Without ``--corners``/``--calibration`` each frame is calibrated from its own
ArUco markers (three of the four will do); a frame without them reads ``unknown``
everywhere: the frames are taken to be unrelated photos, and another camera's
calibration would put the columns in the wrong places. ``--same-camera`` reads a series
from one fixed camera as the device does: a frame whose markers cannot be seen (a hand,
motion blur) is read with the calibration of the last frame that showed them.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from device.cli import UsageError
from device.commands.cards import load_classifier
from device.inputs import check_image, decode_image, read_json, show


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    table = sub.add_parser(
        "table",
        help="scan table frames; print the marker sheet",
        description="The camera's view of the table. Formats: docs/vision.md; the "
                    "markers and the table's geometry: docs/table.md.",
    )
    tsub = table.add_subparsers(dest="table_command", metavar="ACTION", required=True)
    scan = tsub.add_parser("scan", help="read the four locations in camera frames",
                           description="Read the four locations in camera frames; --json "
                                       "prints one object per frame (docs/vision.md).")
    scan.add_argument("frames", nargs="+", metavar="FRAME", help="image files (BGR/RGB)")
    scan.add_argument("--model", type=Path, help="classifier .onnx (default: the installed one)")
    scan.add_argument("--json", action="store_true", help="one JSON object per frame")
    scan.add_argument("--corners", help="manual play-area corners 'x,y x,y x,y x,y' (TL TR BR BL)")
    scan.add_argument("--calibration", type=Path, help="calibration JSON (docs/vision.md)")
    scan.add_argument("--same-camera", action="store_true",
                      help="the frames come from one fixed camera: a frame without markers "
                           "is read with the last calibration found")
    scan.set_defaults(handler=run_scan)
    marks = tsub.add_parser("markers", help="write the printable ArUco marker sheet",
                            description="Write the printable marker sheet: a vector PDF "
                                        "or a 300 dpi PNG (docs/table.md).")
    marks.add_argument("--out", type=Path, required=True, help="FILE.pdf or FILE.png")
    marks.add_argument("--paper", choices=("a4", "letter"), default="a4")
    marks.set_defaults(handler=run_markers)


def _calibration(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from vision.calibrate import Calibration, parse_corners  # +0.14 s per start (import_costs.py)

    if args.corners and args.calibration:
        raise UsageError("give --corners or --calibration, not both")
    if args.corners:
        found = Calibration(_finite(parse_corners(args.corners)), source="manual")
    elif args.calibration:
        data = read_json(args.calibration, "calibration")
        if not isinstance(data, dict):
            raise UsageError(f"calibration {show(args.calibration)} must hold a JSON object "
                             "with \"corners\"")
        found = Calibration.from_dict({**data, "source": "manual"})
    else:
        return None
    _finite(found.corners)
    if not all(math.isfinite(v) and v > 0 for v in (found.width_mm, found.height_mm)):
        raise UsageError("the calibration's width_mm and height_mm must be positive numbers")
    return found


def _finite(corners: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    if not all(math.isfinite(v) and abs(v) < 1e6 for corner in corners for v in corner):
        raise UsageError("the corners must be pixel positions (finite numbers)")
    return corners


def run_scan(args: argparse.Namespace) -> int:
    from vision.scanner import TableScanner  # +0.16 s per start (import_costs.py)

    calibration = _calibration(args)
    frames = [Path(f) for f in args.frames]
    for path in frames:  # every frame whole before anything is printed
        check_image(path, "frame")
    scanner = TableScanner(calibration=calibration, redetect_every=1,
                           classifier=load_classifier(args.model))
    alone = calibration is None and not args.same_camera
    for path in frames:
        frame = decode_image(path, "frame")
        start = time.perf_counter()
        if alone:
            scanner.keep(None)  # this frame's own markers, or nothing
        reading = scanner.scan(frame)
        elapsed = (time.perf_counter() - start) * 1000
        _print(path, elapsed, reading, args.json)
    return 0


def _print(path: Path, elapsed_ms: float, reading, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    locations = {
        name: {
            "top": r.top,
            "confidence": round(r.confidence, 4),
            "depth": r.depth,
            "state": r.state,
        }
        for name, r in reading.locations.items()
    }
    if as_json:
        print(
            json.dumps(
                {"frame": str(path), "elapsed_ms": round(elapsed_ms, 2), "locations": locations}
            ),
            flush=True,
        )
        return
    print(f"{path}  ({elapsed_ms:.1f} ms)")
    for name, loc in locations.items():
        what = loc["top"] or loc["state"]
        why = reading.locations[name].reason  # why it is occluded: not in the JSON contract
        print(f"  {name:<10} {what:<24} depth {loc['depth']}  confidence {loc['confidence']:.2f}"
              + (f"  ({why})" if why else ""))


def run_markers(args: argparse.Namespace) -> int:
    from vision.markers import write  # +0.13 s per start (import_costs.py)

    if args.out.is_dir():
        raise UsageError(f"--out {show(args.out)} is a folder; name the file to write")
    if not args.out.parent.is_dir():
        raise UsageError(f"--out {show(args.out)}: the folder {show(args.out.parent)} "
                         "does not exist")
    path = write(args.out, args.paper)
    print(f"wrote {path} ({args.paper}); print it at 100% scale")
    return 0
