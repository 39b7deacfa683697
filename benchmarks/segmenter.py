"""The table segmenter alone, on held-out generated scenes of every table kind (the kind
training never sees, ``terrazzo``, included): how much of each part it labels right,
the stacks read from its maps (count exact, empty read empty), its CPU time per frame
and its size.

    taskset -c 1 .venv/bin/python benchmarks/segmenter.py --scenes 40

``--banded-art N`` also reads N scenes whose every top card's art is three other cards'
top bands (:func:`vision.synth.cards.banded_face`): art the network may take for older
cards' strips, on any table kind. ``--blown-lamp N`` reads N scenes with a lamp whose
reflection (25-60 mm, clipped flat white) lies over or beside one stack: how that stack
reads (counted, hidden by the glare, empty, ...), and the other stacks' count.

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
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine.board import Location
from engine.cards import ALL_IDS
from vision import evaluate
from vision.locate import Column, Found
from vision.progress import Progress
from vision.segmenter import Segmenter, default_segmenter_path
from vision.stacks import read_stacks
from vision.synth import cards, tables
from vision.synth.labels import Part, label_maps
from vision.synth.scene import SceneOptions, SceneTruth, render
from vision.view import View

SEED = 970_000
BANDED_SEED = 8_000_000  # the banded-art scenes' own seeds
BLOWN_SEED = 7_000_000  # the blown-lamp scenes' own seeds
KINDS = (None, *tables.KINDS, tables.UNSEEN)
PROGRESS = Progress("segmenter", quiet=True)  # main's own, on stderr (--quiet: none)


def measure(
    segmenter: Segmenter, kind: str | None, scenes: int
) -> tuple[Counter[str], list[float]]:
    """Part agreement, counts and empties over ``scenes`` scenes on one table kind."""
    c: Counter[str] = Counter()
    cpu_ms = []
    for n in PROGRESS.track(range(scenes), f"{kind or 'usual'} scenes"):
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


def _card_stacks(
    segmenter: Segmenter, frame: np.ndarray, truth: SceneTruth
) -> Iterator[tuple[Location, Column, int]]:
    """Each location whose truth is a stack with its top card showing: the column read
    from the segmenter's maps, and the true depth."""
    view = View(truth.calibration)
    columns = read_stacks(segmenter(view.rectify(frame)), view)
    for loc, column in zip(Location, columns, strict=True):
        t = truth.locations[loc.value]
        if t.state == "card":
            yield loc, column, t.depth


def _layouts(
    first_seed: int, scenes: int
) -> Iterator[tuple[int, random.Random, dict[str, list[str]]]]:
    """One seeded card layout per scene (no foreign cards, none face down): its seed, the
    random source that drew it (to draw the rest of the scene from) and the layout."""
    for n in PROGRESS.track(range(scenes), "scenes"):
        rng = random.Random(first_seed + n)
        yield first_seed + n, rng, evaluate.random_layout(rng, foreign=0.0, face_down=0.0)


def measure_banded(segmenter: Segmenter, scenes: int) -> Counter[str]:
    """Count exact and how the rest are off, for stacks topped by a banded-art card."""
    c: Counter[str] = Counter()
    photos = cards.default_photo_dir()
    for _seed, rng, layout in _layouts(BANDED_SEED, scenes):
        faces = {}
        for loc, stack in layout.items():
            if stack:
                others = [cards.card_face(k, "photo", photos) for k in rng.sample(ALL_IDS, 3)]
                faces[f"banded-{loc}"] = cards.banded_face(
                    cards.card_face(stack[-1], "photo", photos), others)
                stack[-1] = f"banded-{loc}"
        frame, truth = render(layout, rng, SceneOptions(
            style="photo", photo_dir=photos, faces=faces, table=rng.choice(KINDS[:-1])))
        for _loc, column, depth in _card_stacks(segmenter, frame, truth):
            c["count:n"] += 1
            c["count:ok"] += (column.state, column.depth) == (Found.STACK, depth)
            if column.state is Found.STACK and column.depth != depth:
                c[f"off {column.depth - depth:+d}"] += 1
            elif column.state is not Found.STACK:
                c[f"read {column.state.value}"] += 1
    return c


def measure_blown(segmenter: Segmenter, scenes: int) -> Counter[str]:
    """How the stack under a blown-out lamp reads, and the count of the others."""
    c: Counter[str] = Counter()
    photos = cards.default_photo_dir()
    for seed, rng, layout in _layouts(BLOWN_SEED, scenes):
        lit = rng.choice([loc for loc, stack in layout.items() if stack])
        options = SceneOptions(style="photo", photo_dir=photos)
        _, plain = render(layout, random.Random(seed), replace(options, capture=False))
        x, y = np.asarray(plain.locations[lit].quads_mm[-1]).mean(axis=0)
        lamp = (float(x) + rng.uniform(-30, 30), float(y) + rng.uniform(-40, 40),
                rng.uniform(25, 60))
        frame, truth = render(layout, random.Random(seed), replace(
            options, lamp=lamp, lamp_strength=evaluate.BLOWN_LAMP))
        for loc, column, depth in _card_stacks(segmenter, frame, truth):
            exact = (column.state, column.depth) == (Found.STACK, depth)
            which = "lit" if loc.value == lit else "other"
            c[f"{which}:n"] += 1
            c[f"{which}:ok"] += exact
            if which == "lit" and not exact:
                c[column.reason or f"read {column.state.value}"] += 1
    return c


def pct(c: Counter[str], key: str) -> str:
    return f"{100 * c[key + ':ok'] / max(c[key + ':n'], 1):.2f} %"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=40, help="scenes per table kind")
    parser.add_argument("--banded-art", type=int, default=0, metavar="N",
                        help="also N scenes whose top cards' art looks like strips")
    parser.add_argument("--blown-lamp", type=int, default=0, metavar="N",
                        help="also N scenes with a lamp's clipped reflection at one stack")
    parser.add_argument("--model", type=Path, default=None,
                        help="another segmenter (.onnx) than the one the package ships")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = Progress("segmenter", quiet=args.quiet)
    path = args.model or default_segmenter_path()
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
    if args.banded_art:
        c = measure_banded(segmenter, args.banded_art)
        rest = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if ":" not in k)
        print(f"  top cards with banded art, {args.banded_art} scenes: count exact "
              f"{pct(c, 'count')} of {c['count:n']} stacks (the rest: {rest})")
    if args.blown_lamp:
        c = measure_blown(segmenter, args.blown_lamp)
        rest = "; ".join(f"{k} {v}" for k, v in sorted(c.items()) if ":" not in k)
        print(f"  a blown-out lamp at one stack, {args.blown_lamp} scenes: that stack counted "
              f"exact {pct(c, 'lit')} of {c['lit:n']} (the rest: {rest}); the other stacks "
              f"{pct(c, 'other')} of {c['other:n']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
