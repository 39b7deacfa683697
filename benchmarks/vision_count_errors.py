"""Where stack counts go wrong, per table kind, on the project's own generated scenes.

For each kind of :data:`vision.evaluate.CONDITIONS` (the frames
``benchmarks/vision_accuracy.py`` draws for its per-kind figures, same seeds), prints
top card, empty and count exact as that benchmark scores them, then splits the count
misses: a stack not read as a card at all (by what it was read as), or read as a card
with the count off (by sign and true depth), and of those, how many had the stack's start
or the top card's outline more than 4 mm from the truth (the two ends a count is taken
between). Single frames, one new camera each; calibration as on the device (markers
found in the frame, else in a clear view of the same pose).

    nice -n 10 .venv/bin/python benchmarks/vision_count_errors.py --frames 40 [--kinds planks]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import evaluate  # noqa: E402
from vision.classifier import CardClassifier  # noqa: E402
from vision.locate import evidence, locate_column  # noqa: E402
from vision.scanner import TableScanner  # noqa: E402
from vision.synth import cards as synth_cards  # noqa: E402
from vision.view import View  # noqa: E402

OFF_MM = 4.0  # an end further than this from the truth is off by about a card's strip


def kind_seed(name: str) -> int:
    """The seed ``vision_accuracy.py`` draws the kind's frames from."""
    if name == "usual":
        return evaluate.HELD_OUT_SEED
    return evaluate.HELD_OUT_SEED + 200_000 + 10_000 * list(evaluate.CONDITIONS).index(name)


def measure(name: str, frames: int, base: CardClassifier, photos: Path) -> list[str]:
    table, seed = evaluate.CONDITIONS[name], kind_seed(name)
    scanner, tally, misses = TableScanner(classifier=base), evaluate.Tally(), Counter[str]()
    for i, (frame, truth) in enumerate(evaluate.scenes(frames, "photo", seed=seed,
                                                       photo_dir=photos, table=table)):
        cal = evaluate.device_calibration(frame, lambda i=i: evaluate.clear_view(  # type: ignore[misc]
            i, "photo", seed=seed, photo_dir=photos, table=table))
        scanner.keep(cal)
        # The evidence the scan itself sees (its reference before this frame teaches it).
        ev = evidence(frame, View(cal), scanner.reference) if cal is not None else None
        reading = scanner.scan(frame)
        evaluate.score(reading, truth, tally)
        for j, (loc, t) in enumerate(truth.locations.items()):
            r = reading[loc]
            if t.state != "card" or r.depth == t.depth:
                continue
            if r.state != "card" or ev is None or cal is None:
                misses[f"read {r.state}"] += 1
                continue
            misses[f"read a card, count {r.depth - t.depth:+d} (true {t.depth})"] += 1
            misses.update(ends_off(ev, View(cal), j, t))
    lines = [f"- {name} ({frames} frames): top card {100 * tally.rate('card', 'right'):.2f}% "
             f"(n={tally.counts['card:n']}), empty read empty "
             f"{100 * tally.rate('empty', 'right'):.2f}% (n={tally.counts['empty:n']}), count "
             f"exact {100 * tally.rate('card', 'depth'):.2f}%"]
    lines += [f"    {n:3d} {what}" for what, n in sorted(misses.items(), key=lambda kv: -kv[1])]
    return lines


def ends_off(ev, view: View, index: int, t) -> list[str]:  # type: ignore[no-untyped-def]
    """Which ends of a miscounted stack the locator placed more than :data:`OFF_MM` off."""
    column = locate_column(ev, view, index)
    if column.quad_mm is None or t.quad is None or t.start_mm is None:
        return ["  no outline on a second look"]
    to_mm = np.linalg.inv(view.calibration.homography())
    quad = cv2.perspectiveTransform(t.quad.reshape(-1, 1, 2).astype(np.float64), to_mm)
    out = []
    if abs(column.top_mm - t.start_mm) > OFF_MM:
        out.append("  ... of which the start was off")
    if abs(float(column.quad_mm[:2, 1].mean()) - float(quad[:2, 0, 1].mean())) > OFF_MM:
        out.append("  ... of which the top card's outline was off")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=40, help="frames per table kind")
    parser.add_argument("--kinds", default=",".join(evaluate.CONDITIONS),
                        help="comma-separated kinds of vision.evaluate.CONDITIONS")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--photos", type=Path, default=synth_cards.default_photo_dir())
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    unknown = [k for k in kinds if k not in evaluate.CONDITIONS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r}: one of {', '.join(evaluate.CONDITIONS)}")
    cv2.setNumThreads(1)
    base = CardClassifier(args.model, threads=1)
    for name in kinds:
        print("\n".join(measure(name, args.frames, base, args.photos)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
