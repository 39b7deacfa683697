"""The camera on frames from an independent renderer: ../shared/vision-dev, scored by its own
``score.py``, with breakdowns per table kind and camera tilt.

    nice -n 10 .venv/bin/python benchmarks/vision_dev.py [--dev ../shared/vision-dev]
        [--reps 6] [--update-card]

Runs exactly the commands of the set's README (as subprocesses of this venv's
``companion``): the scan of ``scenes-photo``; enrolment from ``refs-style-b``, then the
scan of ``scenes-style-b`` and ``cards identify`` of ``crops-style-b``; each scored with
``score.py``. Then, for each ``games/table-*`` folder (one fixed camera, one still frame
after every change), feeds every frame to the scanner and the stabiliser as a still
camera would (the frame ``--reps`` times, 0.2 s apart, each with fresh sensor noise) and
scores the settled reading after each change against the truth: top exact (a card, empty
or face down), count exact, and locations left unsettled (the stable state is not what
the camera reads now, or the camera reads nothing there).

The set is for evaluation only: nothing here feeds back into a threshold or a model.
Skips with a message when the set is absent.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEV = ROOT.parent / "shared" / "vision-dev"
CARD = ROOT / "models" / "MODEL_CARD.md"
START, END = "<!-- vision-dev:start -->", "<!-- vision-dev:end -->"
TILTS = ((0, 10), (10, 20), (20, 90))  # |pitch| bands, degrees

from vision.progress import Progress  # noqa: E402

PROGRESS = Progress("vision_dev", quiet=True)  # main's own, on stderr (--quiet: none)


def companion(*args: str, out: Path | None = None) -> str:
    """Run ``companion ARGS`` with this interpreter; stdout to ``out`` or returned."""
    cmd = [sys.executable, "-m", "device.cli", *args]
    if out is None:
        return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    with out.open("w") as f:
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=f, text=True)
    return ""


def score(dev: Path, mode: str, truth: Path, pred: Path) -> list[str]:
    """``score.py MODE``'s printed lines (its exit status says pass/fail: both are fine)."""
    cmd = [sys.executable, str(dev / "score.py"), mode, "--truth", str(truth), "--pred", str(pred)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(done.stderr)
    return done.stdout.strip().splitlines()


def scan(dev: Path, folder: str, tmp: Path, model: Path | None) -> tuple[list[str], Path]:
    frames = sorted((dev / folder).glob("frame_*.jpg"))
    PROGRESS.stage(f"{folder}: table scan", None)
    pred = tmp / f"{folder}.jsonl"
    extra = ["--model", str(model)] if model else []
    companion("table", "scan", *map(str, frames), *extra, "--json", out=pred)
    return score(dev, "scan", dev / folder / "truth.json", pred), pred


def breakdown(truth_path: Path, pred_path: Path) -> list[str]:
    """Per table kind and per tilt band: top exact, wrong, empty read empty, count exact."""
    pred = {}
    for line in pred_path.read_text().splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            pred[Path(d["frame"]).name] = d["locations"]
    import cv2

    from vision import calibrate

    groups: dict[str, Counter[str]] = defaultdict(Counter)
    unplaced = 0
    for t in json.loads(truth_path.read_text()):
        # a frame where fewer than three markers are found cannot be placed (table scan
        # reads it unknown everywhere, never with another frame's calibration): these
        # rows leave it out, as the scorer's top figure leaves out every frame without
        # all four
        if calibrate.detect(cv2.imread(str(truth_path.parent / t["frame"]))) is None:
            unplaced += 1
            continue
        tilt = abs(float(t["camera"]["pitch"]))
        band = next(f"tilt {lo}-{hi}°" for lo, hi in TILTS if lo <= tilt < hi)
        for loc, tl in t["locations"].items():
            r = pred[t["frame"]][loc]
            for key in (t.get("table", "?"), band):
                _tally(groups[key], tl, r)
    everything: Counter[str] = Counter()
    for key, c in groups.items():
        if not key.startswith("tilt"):
            everything.update(c)
    return [f"  {key:<12} {_describe(c)}" for key, c in sorted(groups.items())] + [
        f"  {'all':<12} {_describe(everything)}; frames without their markers: {unplaced}"]


def _tally(c: Counter[str], tl: dict, r: dict) -> None:  # type: ignore[type-arg]
    if tl["occluded"]:
        c["occ"] += 1
        c["occ_wrong"] += r["top"] is not None and r["top"] != tl["top"]
        return
    c["n_depth"] += 1
    c["depth"] += r["depth"] == tl["depth"]
    if r["depth"] != tl["depth"]:
        c[f"off{r['depth'] - tl['depth']:+d}"] += 1
    if tl["top"] is None:
        c["n_empty"] += 1
        c["empty"] += r["top"] is None and r.get("state", "empty") == "empty"
    else:
        c["n_top"] += 1
        c["top"] += r["top"] == tl["top"]
        c["wrong"] += r["top"] is not None and r["top"] != tl["top"]


def _describe(c: Counter[str]) -> str:
    offs = ", ".join(f"{k[3:]}: {v}" for k, v in sorted(c.items()) if k.startswith("off"))
    return (f"top {c['top']}/{c['n_top']} (wrong {c['wrong']}), empty {c['empty']}/"
            f"{c['n_empty']}, count {c['depth']}/{c['n_depth']}"
            + (f" (off {offs})" if offs else ""))


def games(dev: Path, reps: int, model: Path | None) -> list[str]:
    """Every game folder through scanner and stabiliser, as a still camera films it."""
    import cv2

    from vision.classifier import CardClassifier

    lines = []
    for folder in PROGRESS.track(sorted((dev / "games").glob("table-*")), "games"):
        cond = json.loads((folder / "conditions.json").read_text())
        # a fresh classifier per game: each learns its own table's card back
        c, ms = play(folder, CardClassifier(model, threads=1), reps, cv2)
        lines.append(
            f"  {folder.name} ({cond['table']}, tilt {abs(cond['camera']['pitch']):.0f}°, "
            f"{c['frames']} changes): top exact {c['top']}/{c['n']} = {pct(c['top'], c['n'])}, "
            f"count exact {c['depth']}/{c['n']} = {pct(c['depth'], c['n'])}, unsettled "
            f"{c['unsettled']}/{c['n']}; empty read empty {c['empty']}/{c['n_empty']}; "
            f"backs learnt from the player's word {c['backs']}; "
            f"scan median {statistics.median(ms):.1f} ms a full look")
    return lines


def play(folder: Path, classifier, reps: int, cv2) -> tuple[Counter[str], list[float]]:  # type: ignore[no-untyped-def]
    """One game folder: feed, settle, score after each change."""
    import numpy as np

    from vision.scanner import TableScanner
    from vision.stabilize import Stabilizer

    scanner, stabilizer = TableScanner(classifier=classifier), Stabilizer()
    rng = np.random.default_rng(0)
    c: Counter[str] = Counter()
    ms: list[float] = []
    t = 0.0
    for truth in json.loads((folder / "truth.json").read_text()):
        frame = cv2.imread(str(folder / truth["frame"]), cv2.IMREAD_COLOR)
        for _ in range(reps):
            noisy = np.clip(frame + rng.normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8)
            start, saved = time.perf_counter(), scanner.still.saved
            reading = scanner.scan(noisy)
            if scanner.still.saved == saved:  # a full look, not the still table's last one
                ms.append((time.perf_counter() - start) * 1000)
            stabilizer.update(reading, t)
            t += 0.2
        c["backs"] += _learn_backs(scanner, classifier, frame, truth["locations"], reading)
        c["frames"] += 1
        _settled(c, truth["locations"], stabilizer.state, reading)
    return c, ms


def _learn_backs(scanner, classifier, frame, truth: dict, reading) -> int:  # type: ignore[no-untyped-def,type-arg]
    """As the product does when a player answers "face down" to the tracker's question
    about a location it cannot read (device/backs.py): learn that card's back from the
    frame. Counted; at most one answer per change."""
    from engine.board import Location

    for loc in Location:
        tl = truth[loc.value]
        if tl.get("face_down") and reading[loc.value].state == "unknown":
            crop = scanner.top_card_image(frame, loc)
            if crop is not None:
                classifier.learn_back(crop)
                return 1
    return 0


def _settled(c: Counter[str], truth: dict, stable: dict, last) -> None:  # type: ignore[no-untyped-def,type-arg]
    for loc, tl in truth.items():
        s, r = stable[loc], last[loc]
        c["n"] += 1
        if tl.get("face_down"):
            right = s.state == "face_down"
        elif tl["top"] is None:
            right = s.state == "empty"
            c["n_empty"] += 1
            c["empty"] += right
        else:
            right = s.state == "card" and s.top == tl["top"]
        c["top"] += right
        c["depth"] += s.depth == tl["depth"]
        c["unsettled"] += r.state in ("unknown", "occluded") or (s.state, s.top) != (r.state, r.top)


def pct(a: int, n: int) -> str:
    return f"{100 * a / n:.2f}%" if n else "n/a"


def report(args: argparse.Namespace) -> list[str]:
    dev = args.dev
    lines = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        got, pred = scan(dev, "scenes-photo", tmp, args.model)
        lines += ["scenes-photo (printed-card photos, 60 frames): score.py scan", *_indent(got),
                  "  by table kind and camera tilt (frames with their markers):",
                  *breakdown(dev / "scenes-photo" / "truth.json", pred)]
        style_b = tmp / "style-b.onnx"
        PROGRESS.stage("refs-style-b: cards enroll", None)
        extra = ["--model", str(args.model)] if args.model else []
        companion("cards", "enroll", "--images", str(dev / "refs-style-b"), "--out",
                  str(style_b), *extra)
        got, pred = scan(dev, "scenes-style-b", tmp, style_b)
        lines += ["scenes-style-b (enrolled from refs-style-b, one image per card): score.py scan",
                  *_indent(got), "  by table kind and camera tilt (frames with their markers):",
                  *breakdown(dev / "scenes-style-b" / "truth.json", pred)]
        crops = sorted((dev / "crops-style-b").glob("crop_*.jpg"))
        ids = tmp / "ids.jsonl"
        companion("cards", "identify", "--model", str(style_b), *map(str, crops), "--json",
                  out=ids)
        got = score(dev, "crops", dev / "crops-style-b" / "truth.json", ids)
        lines += ["crops-style-b (100 loose photos): score.py crops", *_indent(got)]
    lines += [f"games (fixed camera; each frame {args.reps}× with fresh noise, 0.2 s apart; "
              "settled reading after each change):", *games(dev, args.reps, args.model)]
    return lines


def _indent(lines: list[str]) -> list[str]:
    return [f"  {line}" for line in lines if not line.startswith("frames missing")
            and not line.startswith("images missing")]


def update_card(lines: list[str]) -> None:
    """Write the figures into the model card between the vision-dev markers."""
    block = "\n".join([START, "Measured by `benchmarks/vision_dev.py`:", "", "```", *lines,
                       "```", END])
    text = CARD.read_text()
    if START in text:
        text = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _m: block, text,
                      flags=re.S)
    else:
        text = text.rstrip() + "\n\n## Measured on an independent renderer's frames\n\n" + block
    CARD.write_text(text + ("" if text.endswith("\n") else "\n"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dev", type=Path, default=DEV)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--reps", type=int, default=6, help="times each game frame is seen")
    parser.add_argument("--update-card", action="store_true", help="write models/MODEL_CARD.md")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = Progress("vision_dev", quiet=args.quiet)
    if not (args.dev / "score.py").is_file():
        print(f"skipped: the independent frames are not in {args.dev}")
        return 0
    start = time.time()
    lines = report(args)
    print("\n".join(lines))
    print(f"(benchmark took {time.time() - start:.0f} s)")
    if args.update_card:
        update_card(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
