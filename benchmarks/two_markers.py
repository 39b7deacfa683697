"""How far off is a calibration carried by two markers when the camera is knocked?

    .venv/bin/python benchmarks/two_markers.py [--cameras 400] [--seed 1]

A knocked camera whose other two markers are hidden (arms, long cascades) is recalibrated
from the two it still sees (:func:`vision.calibrate.moved_with`: one turn and shift of
their eight code corners). A real knock turns the camera about some axis, which also
tilts the view; no turn and shift undoes that. This measures the error on the geometry
alone, no frames: cameras placed as the generated scenes place them (a quarter of them
wide-angle), each turned 1-3 degrees about a random axis through its centre (pixels move
by K R K^-1), every pair of markers in turn. Printed: the pairs the fit accepts, and the
worst play-area corner's distance from the truth for the moved calibration and for the
calibration held as it was (what the scanner read with before).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import calibrate
from vision.calibrate import MARKER_MM, PLAY_H_MM, PLAY_W_MM, Calibration
from vision.synth.camera import extent, look_at

SIZE = (1280, 960)
AREA = np.array([[0, 0], [PLAY_W_MM, 0], [PLAY_W_MM, PLAY_H_MM], [0, PLAY_H_MM]], float)
HALF = MARKER_MM / 2
CODES = [corner + np.array([[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]])
         for corner in AREA]


def camera(rng: random.Random) -> tuple[np.ndarray, float]:
    """A generated-like camera's homography (play-area mm → px) and its focal length."""
    wide = rng.random() < 0.25
    tilt, roll = math.radians(rng.uniform(0, 30)), math.radians(rng.uniform(-4, 4))
    target = np.array([PLAY_W_MM / 2, PLAY_H_MM / 2 + 15, 0])
    f = SIZE[0] * (rng.uniform(0.45, 0.55) if wide else rng.uniform(0.75, 0.95))
    width, height = extent(look_at(target, 1000.0, tilt, roll, f, SIZE))
    scale = max(width / (0.9 * SIZE[0]), height / (0.9 * SIZE[1]))
    return look_at(target, 1000.0 * scale, tilt, roll, f, SIZE), f


def knock(rng: random.Random, f: float) -> np.ndarray:
    """The pixel homography of the camera turned 1-3° about a random axis."""
    k = np.array([[f, 0, SIZE[0] / 2], [0, f, SIZE[1] / 2], [0, 0, 1]])
    axis = np.array([rng.uniform(-1, 1) for _ in range(3)])
    angle = math.radians(rng.uniform(1, 3)) * rng.choice((-1, 1))
    turn, _ = cv2.Rodrigues(angle * axis / np.linalg.norm(axis))
    return k @ turn @ np.linalg.inv(k)


def px(hom: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, hom).reshape(-1, 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cameras", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    moved, held, refused = [], [], 0
    for _ in range(args.cameras):
        hom, f = camera(rng)
        knocked = knock(rng, f) @ hom
        calibration = Calibration(tuple(map(tuple, px(hom, AREA))), source="markers")
        truth = px(knocked, AREA)
        before = {i: px(hom, CODES[i]).astype(np.float32) for i in range(4)}
        after = {i: px(knocked, CODES[i]).astype(np.float32) for i in range(4)}
        for pair in itertools.combinations(range(4), 2):
            got = calibrate.moved_with(calibration, before, {i: after[i] for i in pair})
            if got is None:
                refused += 1
                continue
            moved.append(np.linalg.norm(np.array(got.corners) - truth, axis=1).max())
            held.append(np.linalg.norm(np.array(calibration.corners) - truth, axis=1).max())
    pairs = len(moved) + refused
    print(f"{args.cameras} cameras knocked 1-3° about a random axis, {pairs} pairs of markers: "
          f"{len(moved)} moved with, {refused} refused")
    for name, errors in (("moved with two markers", moved), ("held as it was", held)):
        e = np.array(errors)
        print(f"  {name}: worst corner off {np.median(e):.1f} px in the median, "
              f"{np.percentile(e, 90):.1f} px at the 90th percentile, {e.max():.1f} px at worst")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
