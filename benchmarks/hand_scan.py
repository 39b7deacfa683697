"""Scoring by camera: hands laid face up in the play area, named by the hand reader's finder.

    .venv/bin/python benchmarks/hand_scan.py [--hands 60] [--seed 0] [--photos DIR]
        [--table KIND]

Each trial draws a hand of 3–8 cards (a finished game's hand), lays it out apart in rows
(what the page asks for), renders the frame with the scene generator's capture effects
(light, shadow, glare, blur, noise, JPEG) and runs :func:`vision.spread.find_cards`
with the committed classifier, calibrated from the markers in the frame. Prints: cards
found (outlines), cards named right, cards named WRONG (the dangerous figure: the player
must notice and fix it), hands fully named, and CPU ms per read on one thread; first from
the frame alone, as the device's hand reader reads it (``device/hands.py``), then against
the bare table a fixed camera's scanner learnt at calibration (the same camera, table and
markers, no cards; each frame's light, glare and shadow are drawn anew).
By default the printed-card photos from ../shared/reference/card-photos are drawn when
present, else the project's ``classic`` drawings. ``--table`` draws the table kind named
(:mod:`vision.synth.tables`; ``terrazzo`` is the one no training or tuning ever used);
by default the usual wood, felt and paint.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.cards import ALL_IDS  # noqa: E402
from vision import calibrate  # noqa: E402
from vision.classifier import CardClassifier  # noqa: E402
from vision.progress import Progress  # noqa: E402
from vision.scanner import TableScanner  # noqa: E402
from vision.spread import find_cards  # noqa: E402
from vision.synth.scene import SceneOptions, render_spread  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "reference" / "card-photos"
PROGRESS = Progress("hand_scan", quiet=True)  # main's own, on stderr (--quiet: none)


def draw(args: argparse.Namespace, k: int, cards_shown: bool = True):  # type: ignore[no-untyped-def]
    """Trial ``k``'s hand and frame (with ``cards_shown`` False: the same camera, table and
    markers with the play area bare, as calibration saw it)."""
    rng = random.Random(args.seed + 700_000 + k)
    hand = rng.sample(ALL_IDS, rng.randint(3, 8))
    options = SceneOptions(style="photo" if args.photos else "classic", photo_dir=args.photos,
                           tilt_deg=rng.uniform(0, 20), table=args.table)
    frame, truth_cal, _placed = render_spread(hand if cards_shown else [], rng, "row", options)
    return hand, frame, truth_cal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--photos", type=Path, default=PHOTOS if PHOTOS.is_dir() else None)
    parser.add_argument("--table", default=None, help="a table kind (default: the usual ones)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = Progress("hand_scan", quiet=args.quiet)
    classifier = CardClassifier(threads=1)
    style = "photo" if args.photos else "classic"
    where = f"on {args.table}" if args.table else "on the usual tables"
    for fixed in (False, True):
        how = ("fixed camera, bare table learnt at calibration" if fixed
               else "one frame, no reference")
        print(f"Hands laid out apart ({style} cards, {where}; {how}), {args.hands} hands:")
        print("\n".join(measure(args, classifier, fixed)))


def measure(args: argparse.Namespace, classifier: CardClassifier, fixed: bool) -> list[str]:
    cards = found = right = wrong = full = 0
    ms = []
    for k in PROGRESS.track(range(args.hands), "fixed-camera hands" if fixed else "hands"):
        hand, frame, truth_cal = draw(args, k)
        cal = calibrate.detect(frame) or truth_cal
        table = None
        if fixed:
            scanner = TableScanner(classifier=classifier, calibration=cal)
            scanner.learn_table(draw(args, k, cards_shown=False)[1])
            assert scanner.view is not None and scanner.reference is not None
            table = (scanner.view, scanner.reference)
        start = time.process_time()
        seen = find_cards(frame, cal, classifier, table)
        ms.append((time.process_time() - start) * 1000)
        named = [card for card, _conf, _quad in seen if card is not None]
        cards += len(hand)
        found += min(len(seen), len(hand))
        right += sum(card in hand for card in named)
        wrong += sum(card not in hand for card in named)
        full += sorted(named) == sorted(hand)
    return [f"- {cards} cards; card outlines found: {found / cards:.1%}",
            f"- cards named right: {right / cards:.1%}; named WRONG: {wrong / cards:.2%}",
            f"- hands named completely (the player only confirms): {full / args.hands:.1%}",
            f"- CPU per read: median {statistics.median(ms):.0f} ms (one thread)"]


if __name__ == "__main__":
    main()
