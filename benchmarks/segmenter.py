"""The table segmenter alone, on held-out generated scenes of every table kind (the kind
training never sees, ``terrazzo``, included): how much of each part it labels right,
the stacks read from its maps (count exact, empty read empty), its CPU time per frame
and its size.

    taskset -c 1 .venv/bin/python benchmarks/segmenter.py --scenes 40

Scenes come from seeds training never draws (970 000 on; training starts at 500 000 and
draws fewer than 100 000). The camera is the benchmarks' usual one, not training's wider
one. The independent renderer's frames are measured by ``benchmarks/vision_dev.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

import numpy as np

from engine.board import Location
from vision import evaluate
from vision.locate import Found
from vision.segmenter import Segmenter, default_segmenter_path
from vision.stacks import read_stacks
from vision.synth import cards, tables
from vision.synth.labels import Part, label_maps
from vision.synth.scene import SceneOptions, render
from vision.view import View

SEED = 970_000
KINDS = (None, *tables.KINDS, tables.UNSEEN)


def measure(
    segmenter: Segmenter, kind: str | None, scenes: int
) -> tuple[Counter[str], list[float]]:
    """Part agreement, counts and empties over ``scenes`` scenes on one table kind."""
    c: Counter[str] = Counter()
    cpu_ms = []
    for n in range(scenes):
        rng = random.Random(SEED + 1000 * KINDS.index(kind) + n)
        layout = evaluate.random_layout(rng, foreign=0.0, face_down=0.0)
        hands = ("luna",) if n % 4 == 0 else ()
        frame, truth = render(layout, rng, SceneOptions(
            style="photo", photo_dir=cards.default_photo_dir(), table=kind, hands=hands))
        view = View(truth.calibration)
        rectified = view.rectify(frame)
        start = time.process_time()
        seg = segmenter(rectified)
        cpu_ms.append((time.process_time() - start) * 1000)
        parts, _edges = label_maps(truth, view)
        said = seg.parts.argmax(axis=0)
        for p in Part:
            c[f"{p.name}:n"] += int((parts == p).sum())
            c[f"{p.name}:ok"] += int(((said == p) & (parts == p)).sum())
        for loc, column in zip(Location, read_stacks(seg, view), strict=True):
            if truth.locations[loc.value].state not in ("card", "empty"):
                continue  # a hand over the stack: what it hides is not the count's to know
            depth = len(layout[loc.value])
            if depth == 0:
                c["empty:n"] += 1
                c["empty:ok"] += column.state is Found.EMPTY
            else:
                c["count:n"] += 1
                c["count:ok"] += (column.state, column.depth) == (Found.STACK, depth)
    return c, cpu_ms


def pct(c: Counter[str], key: str) -> str:
    return f"{100 * c[key + ':ok'] / max(c[key + ':n'], 1):.2f} %"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=40, help="scenes per table kind")
    args = parser.parse_args()
    path = default_segmenter_path()
    segmenter = Segmenter(path, threads=1)
    every: list[float] = []
    print(f"{path.name}: {path.stat().st_size / 1000:.0f} kB; {args.scenes} scenes per kind")
    for kind in KINDS:
        c, ms = measure(segmenter, kind, args.scenes)
        every += ms
        share = ", ".join(f"{p.name.lower()} {pct(c, p.name)}" for p in Part)
        unseen = " (never trained on)" if kind == tables.UNSEEN else ""
        print(f"  {kind or 'usual'}{unseen}: count exact {pct(c, 'count')} of {c['count:n']} "
              f"stacks; empty read empty {pct(c, 'empty')} of {c['empty:n']}; pixels "
              f"labelled right: {share}")
    print(f"segmenter CPU per frame, one thread: median {statistics.median(every):.2f} ms, "
          f"p95 {float(np.percentile(every, 95)):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
