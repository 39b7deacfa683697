"""``companion table scan`` over a batch of unrelated photos, some of them without markers.

    .venv/bin/python benchmarks/scan_unrelated.py [--photos 300] [--blurred 0.3] [--seed 0]

Held-out scenes of the printed-card photos, each its own camera, table and light
(:func:`vision.evaluate.scenes`); a share of them smeared by 13 px of horizontal motion
blur, which loses their markers. All are written as JPEG files and read by one call of
the command, as a user scanning a folder of photos would (``device.cli.main``, the
command's own code). Printed: cards named wrong (a top card other than the truth's, in a
photo with its markers or without), tops read right of the visible ones, and how the
photos without markers read (``unknown`` everywhere: no calibration carried over from
the photo before).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2

from device.cli import main as companion
from vision.evaluate import scenes

BLUR_PX = 13  # the motion blur that lost the markers of the photos the issue measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=300)
    parser.add_argument("--blurred", type=float, default=0.3, help="share smeared")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        paths, truths, smeared = [], [], []
        for i, (frame, truth) in enumerate(scenes(args.photos, "photo",
                                                  seed=910_000 + args.seed * 1000)):
            blur = rng.random() < args.blurred
            if blur:
                frame = cv2.blur(frame, (BLUR_PX, 1))
            paths.append(str(Path(folder) / f"photo{i:04d}.jpg"))
            cv2.imwrite(paths[-1], frame)
            truths.append(truth)
            smeared.append(blur)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            companion(["table", "scan", *paths, "--json"])
    wrong = right = visible = unread_blurred = 0
    for line, truth, blur in zip(out.getvalue().splitlines(), truths, smeared, strict=True):
        read = json.loads(line)["locations"]
        if blur and all(r["top"] is None and r.get("state") == "unknown" for r in read.values()):
            unread_blurred += 1
        for loc, real in truth.locations.items():
            top = read[loc]["top"]
            shown = real.state == "card"
            visible += shown and not blur
            right += shown and not blur and top == real.top
            wrong += top is not None and top != real.top
    print(f"{args.photos} photos, {sum(smeared)} blurred {BLUR_PX} px")
    print(f"  cards named wrong: {wrong}")
    print(f"  top cards read right where the markers show: {right}/{visible} "
          f"({right / max(1, visible):.2%})")
    print(f"  blurred photos read unknown everywhere: {unread_blurred}/{sum(smeared)}")


if __name__ == "__main__":
    main()
