"""Identification that degrades gracefully: a card style never seen in training, enrolled
from one clean image per card, and the classifier's second look before "unknown".

    taskset -c 1 nice -n 10 .venv/bin/python benchmarks/vision_identify.py [--scenes 100]
        [--photos 100] [--captures 200] [--dev ../shared/vision-dev]

Prints, each *before* (the embedder alone: the enrolled model without its second-look
data, photos cut as :func:`vision.crop.card_image` cuts them, which is what ``cards
identify`` did) and *after* (the second look, and photos read by
:func:`vision.photo.identify_photo`):

* the project's own unseen style ``poster`` (held out of training), enrolled from one
  clean image per card and the back: loose photos (:func:`vision.synth.crops.loose_photo`:
  older cards' strips above, neighbours beside, the phone askew, glare, blur, JPEG) named
  right and WRONG; top cards of held-out scenes named right and WRONG, and wrong where a
  hand covers the top or another game's card or an object lies there;
* the default model on held-out scenes of the printed-card photos, the same way;
* how often the second look runs (per frame), how often it names a card, its CPU ms when
  it runs, and the median CPU ms of a whole scan (one thread, calibration cached);
* a back learnt at run time (:meth:`vision.classifier.CardClassifier.learn_back`) from one
  simulated capture of a back design the model never saw: the share of other captures of
  it read face down, and cards and non-cards read face down (must be none);
* with ``--dev``: vision-dev style B (evaluation only, never tuned on): ``companion cards
  enroll`` from ``refs-style-b``, ``companion cards identify`` on ``crops-style-b`` and
  ``companion table scan`` on ``scenes-style-b``, each scored by its ``score.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import helper  # noqa: E402

from engine.cards import ALL_IDS  # noqa: E402
from vision import evaluate, verify  # noqa: E402
from vision.classifier import CardClassifier  # noqa: E402
from vision.crop import card_image  # noqa: E402
from vision.enroll import enroll  # noqa: E402
from vision.head import save  # noqa: E402
from vision.keypoints import REF_SIZE  # noqa: E402
from vision.photo import identify_photo  # noqa: E402
from vision.progress import Progress  # noqa: E402
from vision.scanner import TableScanner  # noqa: E402
from vision.synth import cards as synth_cards  # noqa: E402
from vision.synth.crops import NEGATIVE_KINDS, capture, loose_photo  # noqa: E402

PROGRESS = Progress("vision_identify", quiet=True)  # main's own, on stderr (--quiet: none)

STYLE = "poster"
PHOTO_SEED = 950_000  # loose photos; nothing else draws from here
BACK_SEED = 960_000


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def without_second_look(model: Path, out: Path) -> Path:
    """A copy of ``model`` without its second-look data: the classifier as it was."""
    m = onnx.load(str(model))
    meta = {p.key: p.value for p in m.metadata_props if p.key != verify.METADATA_KEY}
    del m.metadata_props[:]
    helper.set_model_props(m, meta)
    save(m, out)
    return out


def enrolled_poster(base: CardClassifier, out: Path) -> Path:
    """A classifier for the unseen style from ONE clean image per card, and the back."""
    faces = {cid: synth_cards.card_face(cid, STYLE) for cid in ALL_IDS}
    crops = {cid: [card_image(face, base.input_size)] for cid, face in faces.items()}
    crops["back"] = [card_image(synth_cards.card_back(), base.input_size)]
    refs = {cid: card_image(face, REF_SIZE) for cid, face in faces.items()}
    note = f"{STYLE} style, one clean image per card"
    save(enroll(base, crops, note=note, references=refs), out)
    return out


class Looks:
    """Counts and times the second looks a classifier takes."""

    def __init__(self, classifier: CardClassifier) -> None:
        self.ms: list[float] = []
        self.named = 0
        look = classifier.second_look

        def timed(frame, quad, ident):  # type: ignore[no-untyped-def]
            start = time.process_time()
            got = look(frame, quad, ident)
            if ident.candidates:
                self.ms.append((time.process_time() - start) * 1000)
                self.named += got.card is not None
            return got

        classifier.second_look = timed  # type: ignore[method-assign]


def scan_scenes(model: Path, style: str, count: int, seed: int, photo_dir: Path | None) -> str:
    """Top cards of held-out scenes: right, wrong, wrong where covered; looks; speed."""
    classifier = CardClassifier(model, threads=1)
    looks = Looks(classifier)
    scanner = TableScanner(classifier=classifier)
    tally, ms = evaluate.Tally(), []
    frames = evaluate.scenes(count, style, seed=seed, photo_dir=photo_dir)
    for i, (frame, truth) in enumerate(PROGRESS.track(frames, f"{style} scenes", count)):
        clear = evaluate.clear_view(i, style, seed=seed, photo_dir=photo_dir)
        scanner.keep(evaluate.device_calibration(frame, lambda clear=clear: clear))
        start = time.process_time()
        reading = scanner.scan(frame)
        ms.append((time.process_time() - start) * 1000)
        evaluate.score(reading, truth, tally)
    runs = f"{len(looks.ms)} in {count} frames, named {looks.named}"
    cost = f"{statistics.median(looks.ms):.1f} ms" if looks.ms else "-"
    return (
        f"tops {pct(tally.rate('card', 'right'))} right, {pct(tally.rate('card', 'wrong'))} "
        f"WRONG (n={tally.counts['card:n']}); covered or not ours: "
        f"{pct(tally.rate_of(('occluded', 'unknown'), 'wrong'))} wrong "
        f"(n={tally.counts['occluded:n'] + tally.counts['unknown:n']}); second look: {runs}, "
        f"{cost} when it runs; scan median {statistics.median(ms):.1f} ms"
    )


def photos(model: Path, style: str, count: int, photo_dir: Path | None) -> tuple[str, str]:
    """Loose photos: (before, after) right and wrong."""
    rng = random.Random(PHOTO_SEED)
    shots = []
    for _ in PROGRESS.track(range(count), f"{style} photos drawn"):
        def face() -> np.ndarray:
            return synth_cards.card_face(rng.choice(ALL_IDS), style, photo_dir)

        top = rng.choice(ALL_IDS)
        under = [face() for _ in range(rng.choice((0, 1, 2, 3)))]
        beside = [face() for _ in range(rng.choice((0, 0, 1, 2)))]
        shots.append((top, loose_photo(synth_cards.card_face(top, style, photo_dir), rng,
                                       under, beside)[0]))
    classifier = CardClassifier(model, threads=1)
    before = [classifier.identify([card_image(p, classifier.input_size)])[0].card
              for _t, p in shots]
    after, ms = [], []
    for _t, p in PROGRESS.track(shots, f"{style} photos read"):
        start = time.process_time()
        after.append(identify_photo(classifier, p).card)
        ms.append((time.process_time() - start) * 1000)
    truth = [t for t, _p in shots]

    def tally(got: list) -> str:  # type: ignore[type-arg]
        right = sum(g == t for g, t in zip(got, truth, strict=True))
        wrong = sum(g is not None and g != t for g, t in zip(got, truth, strict=True))
        return f"{right}/{count} right, {wrong} WRONG"

    return tally(before), f"{tally(after)}, {statistics.median(ms):.0f} ms a photo"


def learnt_back(model: Path, style: str, captures: int) -> str:
    """A back design the model never saw, learnt from one simulated capture."""
    back = np.full((synth_cards.FACE_H, synth_cards.FACE_W, 3), (40, 90, 20), np.uint8)
    for k in range(-synth_cards.FACE_H, synth_cards.FACE_W, 24):
        cv2.line(back, (k, 0), (k + synth_cards.FACE_H, synth_cards.FACE_H), (60, 160, 200), 6)
    cv2.circle(back, (synth_cards.FACE_W // 2, synth_cards.FACE_H // 2), 60, (230, 230, 230), 8)
    rng = random.Random(BACK_SEED)
    shots = [capture(back, rng) for _ in range(captures + 1)]
    cards = [capture(synth_cards.card_face(rng.choice(ALL_IDS), style), rng)
             for _ in range(captures)]
    others = [capture(synth_cards.card_face(rng.choice(ALL_IDS), style), rng, kind)
              for kind in NEGATIVE_KINDS for _ in range(captures // len(NEGATIVE_KINDS))]
    classifier = CardClassifier(model, threads=1)

    def down() -> str:
        return " / ".join(f"{sum(i.face_down for i in classifier.identify(c))}/{len(c)}"
                          for c in (shots[1:], cards, others))

    before = down()
    start = time.process_time()
    classifier.learn_back(shots[0])
    took = time.process_time() - start
    return (f"read face down (its captures / cards / hands, bare table, other games' cards "
            f"and objects): before {before}, after {down()}; learning took {took:.2f} s")


def vision_dev(dev: Path, tmp: Path) -> list[str]:
    """Style B: enrol, identify and scan through the commands, scored by score.py."""
    cli = [sys.executable, "-m", "device.cli"]
    model = tmp / "style-b.onnx"
    subprocess.run([*cli, "cards", "enroll", "--images", str(dev / "refs-style-b"),
                    "--out", str(model)], cwd=ROOT, check=True, capture_output=True)
    plain = without_second_look(model, tmp / "style-b-plain.onnx")
    crops = sorted((dev / "crops-style-b").glob("crop_*.jpg"))
    frames = sorted((dev / "scenes-style-b").glob("frame_*.jpg"))
    out = []
    before = tmp / "ids-before.jsonl"
    classifier = CardClassifier(plain, threads=1)
    with before.open("w") as f:
        for path in crops:
            img = cv2.imread(str(path))
            card = classifier.identify([card_image(img, classifier.input_size)])[0].card
            f.write(json.dumps({"image": path.name, "card": card}) + "\n")
    for name, pred in (("before", before), ("after", tmp / "ids-after.jsonl")):
        if name == "after":
            with pred.open("w") as f:
                subprocess.run([*cli, "cards", "identify", "--model", str(model), "--json",
                                *map(str, crops)], cwd=ROOT, check=True, stdout=f)
        out.append(f"  crops-style-b {name}: " + score(dev, "crops", "crops-style-b", pred))
    for name, m in (("before", plain), ("after", model)):
        pred = tmp / f"scan-{name}.jsonl"
        with pred.open("w") as f:
            subprocess.run([*cli, "table", "scan", "--model", str(m), "--json",
                            *map(str, frames)], cwd=ROOT, check=True, stdout=f)
        out.append(f"  scenes-style-b {name}: " + score(dev, "scan", "scenes-style-b", pred))
    return out


def score(dev: Path, mode: str, folder: str, pred: Path) -> str:
    done = subprocess.run([sys.executable, str(dev / "score.py"), mode, "--truth",
                           str(dev / folder / "truth.json"), "--pred", str(pred)],
                          capture_output=True, text=True)
    keep = ("identify accuracy", "top-card accuracy", "occluded columns", "empty columns")
    return "; ".join(line for line in done.stdout.splitlines() if line.startswith(keep))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--captures", type=int, default=200)
    parser.add_argument("--card-photos", type=Path, default=synth_cards.default_photo_dir())
    parser.add_argument("--dev", type=Path, default=ROOT.parent / "shared" / "vision-dev")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = Progress("vision_identify", quiet=args.quiet)
    cv2.setNumThreads(1)
    start = time.time()
    base_path = ROOT / "models" / "card_embedder_2026nov.onnx"
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        poster = enrolled_poster(CardClassifier(base_path), tmp / "poster.onnx")
        poster_plain = without_second_look(poster, tmp / "poster-plain.onnx")
        seed = evaluate.HELD_OUT_SEED + 50_000
        print(f"Own unseen style '{STYLE}', enrolled from one clean image per card:")
        before, after = photos(poster, STYLE, args.photos, None)
        print(f"  loose photos: before {before}; after {after}")
        for name, model in (("before", poster_plain), ("after", poster)):
            print(f"  scenes {name}: " + scan_scenes(model, STYLE, args.scenes, seed, None))
        print(f"  a back learnt at run time: {learnt_back(poster, STYLE, args.captures)}")
        if (args.card_photos / f"{ALL_IDS[0]}.jpg").is_file():
            plain = without_second_look(base_path, tmp / "default-plain.onnx")
            print("Default model, printed-card photos:")
            for name, model in (("before", plain), ("after", base_path)):
                print(f"  scenes {name}: " + scan_scenes(
                    model, "photo", args.scenes, evaluate.HELD_OUT_SEED, args.card_photos))
            print(f"  a back learnt at run time: "
                  f"{learnt_back(base_path, 'photo', args.captures)}")
        if (args.dev / "score.py").is_file():
            print("vision-dev style B (evaluation only):")
            print("\n".join(vision_dev(args.dev, tmp)))
    print(f"(benchmark took {time.time() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
