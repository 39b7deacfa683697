"""Camera card recognition, measured on held-out generated scenes, with a classic baseline.

Prints, in one run:

* top-card accuracy on held-out scenes drawn with the printed-card photos (non-occluded
  card locations), depth accuracy, empty and face-down detection;
* the wrong-card rate where the truth is occluded (a hand) or unknown (another game's
  card, a phone or coaster);
* top card and depth on long stacks (9-17 cards, pushed together to stay in view);
* accuracy on the ``modern`` style, never seen in training, after enrolling ONE clean
  image per card;
* median ms per full 1280×960 scan on one core (calibration cached; marker detection
  timed apart), model size, peak RSS of ``companion table scan``;
* ORB matching, a perceptual hash, and the hash shortlisting for ORB, against the same
  reference images on the same located cards: accuracy and ms per frame, and the ms per
  card image that identifying alone costs each of them and our embedder.

Calibration is obtained as on the device, whose camera is fixed and which keeps the
calibration of its last successful marker look: the markers are detected in each frame
and, when a hand or an object covers one, in a clear view of the same scene (the same
camera pose and layout rendered without hands and objects, i.e. the table a moment
before the hand arrived). The scene's true calibration is never used.

Reproduce (from the repository root; needs ../shared/reference/card-photos)::

    nice -n 10 .venv/bin/python benchmarks/vision_accuracy.py --scenes 300 --update-card
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from engine.cards import ALL_IDS  # noqa: E402
from vision import calibrate, evaluate  # noqa: E402
from vision.baseline import ORB_SIZE, HashMatcher, OrbMatcher, ShortlistMatcher, cut  # noqa: E402
from vision.classifier import CardClassifier, default_model_path  # noqa: E402
from vision.crop import card_image  # noqa: E402
from vision.enroll import enroll  # noqa: E402
from vision.head import save  # noqa: E402
from vision.locate import STACK_REACH_MM, View, locate  # noqa: E402
from vision.progress import Progress  # noqa: E402
from vision.scanner import Sight, TableScanner  # noqa: E402
from vision.stacks import GLARE  # noqa: E402
from vision.synth import cards as synth_cards  # noqa: E402

PROGRESS = Progress("vision_accuracy", quiet=True)  # main's own, on stderr (--quiet: none)


def drawn(scenes, count: int, what: str) -> list:  # type: ignore[no-untyped-def]
    """``count`` scenes drawn (a few seconds each), as a stage of the progress."""
    return list(PROGRESS.track(scenes, what, count))


def device_calibrations(frames, style: str, seed: int, photo_dir: Path | None,  # type: ignore[no-untyped-def]
                        depths: tuple[int, ...] = evaluate.EVERYDAY,
                        table: evaluate.Table = evaluate.CONDITIONS["usual"]) -> list:
    """Per frame, the calibration the device holds: markers found in the frame, else (a
    hand covers one) in a clear view of the same pose, as the fixed camera saw it before
    the hand came. Never the scene's true calibration."""
    out = []
    for i, (frame, _truth) in enumerate(PROGRESS.track(frames, "calibrations")):
        clear = lambda i=i: evaluate.clear_view(i, style, seed=seed, photo_dir=photo_dir,  # noqa: E731
                                                depths=depths, table=table)
        out.append(evaluate.device_calibration(frame, clear))
    return out


def measure_scanner(scanner: TableScanner, frames, cals) -> tuple[evaluate.Tally, list, list]:  # type: ignore[no-untyped-def]
    """Tally readings; time marker detection and the cached-calibration scan apart.

    Marker detection runs in a pass of its own, as on the device (every 50th frame): run
    before each scan, its megabytes of buffers would evict the scan's working set (the
    model's weights among them) every time, which the baselines' loop never suffers."""
    tally, detect_ms = evaluate.Tally(), []
    for frame, _truth in frames:
        start = time.perf_counter()
        calibrate.detect(frame)
        detect_ms.append((time.perf_counter() - start) * 1000)
    scan_ms: list[tuple[float, float]] = []
    for (frame, truth), cal in PROGRESS.track(list(zip(frames, cals, strict=True)), "scans"):
        if cal is None:
            print("  markers not found even in the clear view: unknown everywhere", file=sys.stderr)
        scanner.keep(cal)
        start, cpu = time.perf_counter(), time.process_time()
        reading = scanner.scan(frame)
        scan_ms.append(((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000))
        evaluate.score(reading, truth, tally)
        for loc, t in truth.locations.items():  # depth by true depth, where a card was read
            if t.state == "card" and reading[loc].state == "card":
                tally.counts[f"depth{t.depth}:n"] += 1
                tally.counts[f"depth{t.depth}:exact"] += reading[loc].depth == t.depth
    return tally, scan_ms, detect_ms


def measure_baseline(frames, cals, photo_dir: Path, scanner: TableScanner) -> dict:  # type: ignore[no-untyped-def]
    """ORB, pHash and the two together on the locator's outlines: per matcher (accuracy,
    wrong-card rate, CPU ms per frame, our scanner's CPU ms per frame timed alongside, ms
    per card image for identification alone), plus ``"ours"``: our scanner's top-card
    accuracy on the same frames and its ms per card image (crop and embedder).

    Our scan of each frame is timed right beside the baseline's, the two taking turns to
    go first: the machine's load drifts over a run, and medians taken minutes apart
    compare the load as much as the code."""
    refs = {cid: cv2.resize(synth_cards.card_face(cid, "photo", photo_dir), ORB_SIZE,
                            interpolation=cv2.INTER_AREA) for cid in ALL_IDS}
    matchers = {"orb": OrbMatcher(refs), "phash": HashMatcher(refs),
                "phash shortlist + orb": ShortlistMatcher(refs)}
    out = {}
    for name, matcher in matchers.items():
        right = wrong = cards = covered = 0
        ms, ours, per_card = [], [], []
        for k, ((frame, truth), view_cal) in enumerate(zip(frames, cals, strict=True)):
            if view_cal is None:
                continue
            view = View(view_cal)
            scanner.keep(view_cal)
            if k % 2:
                ours.append(_cpu_ms(scanner.scan, frame))
            found: dict[str, str | None] = {}
            ms.append(_cpu_ms(read_baseline, frame, view, list(truth.locations), matcher, found,
                              per_card))
            if not k % 2:
                ours.append(_cpu_ms(scanner.scan, frame))
            for loc, t in truth.locations.items():
                guess = found.get(loc)
                if t.state == "card":
                    cards += 1
                    right += guess == t.top
                elif t.state in ("occluded", "unknown"):
                    covered += 1
                    wrong += guess is not None and guess != t.top
        out[name] = (right / max(cards, 1), wrong / max(covered, 1), statistics.median(ms),
                     statistics.median(ours), statistics.median(per_card))
    tally, ours_per_card = evaluate.Tally(), []
    for (frame, truth), view_cal in zip(frames, cals, strict=True):
        scanner.keep(view_cal)
        evaluate.score(scanner.scan(frame), truth, tally)
        if view_cal is not None:
            ours_per_card += embed_ms(frame, View(view_cal), scanner)
    out["ours"] = (tally.rate("card", "right"), statistics.median(ours_per_card))
    return out


def read_baseline(frame, view: View, names: list[str], matcher, found: dict,  # type: ignore[no-untyped-def]
                  per_card: list[float]) -> None:
    """The baseline's reading of one frame into ``found``: locate, cut, match; the CPU
    ms per card image that cutting and matching alone took goes into ``per_card``."""
    stacks = [(loc, col) for loc, col in zip(names, locate(frame, view), strict=True)
              if col.state == "stack"]
    start = time.process_time()
    for loc, col in stacks:
        found[loc] = matcher.identify(cut(frame, view.calibration.to_pixels(col.quad_mm)))
    if stacks:
        per_card.append((time.process_time() - start) * 1000 / len(stacks))


def embed_ms(frame, view: View, scanner: TableScanner) -> list[float]:  # type: ignore[no-untyped-def]
    """CPU ms per card image for our crop and embedder on the frame's located top cards,
    all in one batch as the scanner runs them."""
    quads = [c.quad_mm for c in locate(frame, view) if c.state == "stack"]
    if not quads:
        return []
    crops = lambda: scanner.classifier.identify([scanner.crop_quad(frame, q) for q in quads])  # noqa: E731
    return [_cpu_ms(crops) / len(quads)]


def _cpu_ms(fn, *args) -> float:  # type: ignore[no-untyped-def]
    start = time.process_time()
    fn(*args)
    return (time.process_time() - start) * 1000


def enrolled_modern(base: CardClassifier, out: Path) -> CardClassifier:
    """A classifier for the unseen ``modern`` style from ONE clean image per card."""
    crops = {cid: [card_image(synth_cards.card_face(cid, "modern"), base.input_size)]
             for cid in ALL_IDS}
    crops["back"] = [card_image(synth_cards.card_back(), base.input_size)]
    save(enroll(base, crops, note="modern style, one clean image per card"), out)
    return CardClassifier(out, threads=1)


def peak_rss_mb(model: Path, frames: list[Path]) -> float:
    """Peak resident memory of ``companion table scan`` over ``frames`` (MB).

    Measured by GNU time around the command: the benchmark's own getrusage would count
    the forked child's copy of this (large) process before it execs.
    """
    cmd = ["/usr/bin/time", "-f", "%M", sys.executable, "-m", "device.cli", "table", "scan",
           "--model", str(model), "--json", *map(str, frames)]
    done = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def depth_rates(tally: evaluate.Tally) -> str:
    """``1: 100.00% (n=…), 2: …``: the share of exact depths per true depth."""
    keys = [k for k in tally.counts if k.startswith("depth") and k.endswith(":n")]
    depths = sorted(int(k[5:-2]) for k in keys)
    return ", ".join(
        f"{d}: {pct(tally.counts[f'depth{d}:exact'] / tally.counts[f'depth{d}:n'])} "
        f"(n={tally.counts[f'depth{d}:n']})"
        for d in depths
    )


def kinds_report(args: argparse.Namespace, base: CardClassifier) -> list[str]:
    """Per table kind, single frames (a new camera each): the usual figures."""
    lines = [f"Table kinds, {args.kind_scenes} held-out frames each (one new camera per frame):"]
    for k, (name, table) in enumerate(evaluate.CONDITIONS.items()):
        if name == "usual" or name not in args.kinds.split(","):
            continue
        seed = evaluate.HELD_OUT_SEED + 200_000 + 10_000 * k
        frames = drawn(evaluate.scenes(args.kind_scenes, "photo", seed=seed,
                                       photo_dir=args.photos, table=table),
                       args.kind_scenes, f"{name} scenes")
        cals = device_calibrations(frames, "photo", seed, args.photos, table=table)
        t, _, _ = measure_scanner(TableScanner(classifier=base), frames, cals)
        lines.append(f"- {name}: top card {pct(t.rate('card', 'right'))} (n={t.counts['card:n']}), "
                     f"wrong {pct(t.rate('card', 'wrong'))}; empty read empty "
                     f"{pct(t.rate('empty', 'right'))} (n={t.counts['empty:n']}); count exact "
                     f"{pct(t.rate('card', 'depth'))}; wrong where covered "
                     f"{pct(t.rate_of(('occluded', 'unknown'), 'wrong'))}")
    return lines


def lamp_report(args: argparse.Namespace, base: CardClassifier) -> list[str]:
    """A blown lamp on or beside an empty place, then a card laid there: the glare verdict
    only where a card would go unseen, and never an empty place where one lies."""
    c: Counter[str] = Counter()
    scanner = TableScanner(classifier=base)
    for pair in evaluate.lamp_beside_empty(args.lamp_scenes, photo_dir=args.photos):
        readings = [_scan_alone(scanner, frame) for frame, _truth in (pair.empty, pair.laid)]
        if readings[0] is None or readings[1] is None:
            c["unplaced"] += 1  # the lamp clipped two markers: no calibration to read with
            continue
        for reading, (_frame, truth) in zip(readings, (pair.empty, pair.laid), strict=True):
            c["wrong"] += sum(reading[n].top not in (None, t.top)
                              for n, t in truth.locations.items())
        empty, laid = readings[0][pair.location], readings[1][pair.location]
        shows = laid.state in (Sight.CARD, Sight.UNKNOWN, Sight.FACE_DOWN)  # a card is seen
        c["n"] += 1
        c["empty"] += empty.state is Sight.EMPTY
        c["glare"] += empty.reason == GLARE
        c["shows"] += shows
        c["empty_shows"] += shows and empty.state is Sight.EMPTY
        c["laid_empty"] += laid.state is Sight.EMPTY
    return [f"A blown lamp on or beside an empty place, {args.lamp_scenes} frames (one new camera "
            "each), each again with a card laid at the place:",
            f"- empty read empty {pct(c['empty'] / c['n'])} (n={c['n']}; read hidden by the "
            f"glare {c['glare']}); where the laid card is seen: "
            f"{pct(c['empty_shows'] / c['shows'])} (n={c['shows']}); the laid card read empty: "
            f"{c['laid_empty']}; wrong cards: "
            f"{c['wrong']}; frames left out (the lamp clipped two markers): {c['unplaced']}"]


def _scan_alone(scanner: TableScanner, frame: np.ndarray):  # type: ignore[no-untyped-def]
    """``frame`` read with the calibration its own markers give (None: too few seen)."""
    found = calibrate.detect(frame)
    if found is None:
        return None
    scanner.keep(found)
    scanner.still.forget()
    return scanner.scan(frame)


def games_report(args: argparse.Namespace, base: CardClassifier) -> list[str]:
    """Per table kind, still games filmed by one fixed camera, settled after each change."""
    lines = [f"Fixed camera, {args.games} still games of {args.changes} changes per kind "
             "(each frame seen 6 times with fresh noise, the light drifting between "
             "changes); settled readings after each change:"]
    speed: list[float] = []
    for k, (name, table) in enumerate(evaluate.CONDITIONS.items()):
        parts = []
        for calibrated in (True, False):
            tally = evaluate.Settled()
            for g in PROGRESS.track(range(args.games), f"{name} still games"):
                seed = evaluate.HELD_OUT_SEED + 300_000 + 1_000 * k + g
                scanner = TimedScanner(classifier=base)
                frames = evaluate.still_game(seed, table, args.changes, "photo", args.photos,
                                             clear_first=calibrated)
                if calibrated:
                    scanner.learn_table(next(frames)[0])
                tally.counts.update(evaluate.settle(scanner, frames).counts)
                speed += scanner.ms[len(scanner.ms) // 2 :]  # once the reference is known
            c = tally.counts
            empty = pct(c["empty:right"] / c["empty:n"]) if c["empty:n"] else "n/a"
            parts.append(f"{'calibrated' if calibrated else 'not calibrated'}: top "
                         f"{pct(c['top'] / c['n'])}, count {pct(c['depth'] / c['n'])}, empty "
                         f"{empty} (n={c['empty:n']}), wrong card {c['wrong']} (a card settled "
                         f"earlier held while the camera reads otherwise: {c['stale']}), "
                         f"unsettled "
                         f"{c['unsettled']} of {c['n']}")
        lines.append(f"- {name}: " + "; ".join(parts))
    lines.append(f"- a still game's frames once the reference is known (most answered by the "
                 f"still-table check): median {statistics.median(speed):.1f} ms of CPU (p90 "
                 f"{np.percentile(speed, 90):.1f} ms), one thread")
    return lines


class TimedScanner(TableScanner):
    """A scanner that keeps the CPU ms of every scan."""

    def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(**kwargs)
        self.ms: list[float] = []

    def scan(self, frame):  # type: ignore[no-untyped-def]
        start = time.process_time()
        out = super().scan(frame)
        self.ms.append((time.process_time() - start) * 1000)
        return out


def report(args: argparse.Namespace) -> list[str]:
    """Every section the options ask for; a section given 0 scenes is left out."""
    cv2.setNumThreads(1)
    base = CardClassifier(args.model, threads=1)
    frames = drawn(evaluate.scenes(args.scenes, "photo", photo_dir=args.photos), args.scenes,
                   "held-out scenes")
    cals = device_calibrations(frames, "photo", evaluate.HELD_OUT_SEED, args.photos)
    lines: list[str] = []
    if frames:
        lines += held_out_report(args, base, frames, cals)
    if args.deep_scenes:
        lines += deep_report(args, base)
    if args.unseen_scenes:
        lines += unseen_report(args, base)
    if args.kind_scenes:
        lines += kinds_report(args, base)
    if args.lamp_scenes:
        lines += lamp_report(args, base)
    if args.games:
        lines += games_report(args, base)
    if args.baseline_scenes and frames:
        lines += baseline_report(args, base, frames, cals)
    return lines


def held_out_report(args: argparse.Namespace, base: CardClassifier, frames,  # type: ignore[no-untyped-def]
                    cals) -> list[str]:
    """The held-out printed-card scenes: accuracy, then speed, size and memory."""
    tally, scan_ms, detect_ms = measure_scanner(TableScanner(classifier=base), frames, cals)
    lines = [f"Held-out scenes, printed-card photos: {args.scenes} frames 1280×960 "
             f"(seeds from {evaluate.HELD_OUT_SEED})",
             f"- top-card accuracy (non-occluded card locations, n={tally.counts['card:n']}): "
             f"{pct(tally.rate('card', 'right'))}; wrong card named: "
             f"{pct(tally.rate('card', 'wrong'))}",
             f"- stack depth exact: {pct(tally.rate('card', 'depth'))}",
             f"- stack depth exact where the top card was read, by true depth: "
             f"{depth_rates(tally)}",
             f"- empty locations read empty (n={tally.counts['empty:n']}): "
             f"{pct(tally.rate('empty', 'right'))}",
             f"- face-down tops read face_down (n={tally.counts['face_down:n']}): "
             f"{pct(tally.rate('face_down', 'right'))}",
             f"- wrong card where the truth is occluded or unknown "
             f"(n={tally.counts['occluded:n'] + tally.counts['unknown:n']}): "
             f"{pct(tally.rate_of(('occluded', 'unknown'), 'wrong'))} (any card named there: "
             f"{pct(tally.rate_of(('occluded', 'unknown'), 'named'))})"]
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, (frame, _) in enumerate(frames[:20]):
            paths.append(Path(tmp) / f"f{i}.jpg")
            cv2.imwrite(str(paths[-1]), frame)
        rss = peak_rss_mb(args.model or default_model_path(), paths)
    size = (args.model or default_model_path()).stat().st_size / 1e6
    wall = [w for w, _ in scan_ms]
    cpu = [c for _, c in scan_ms]
    return [
        *lines,
        f"Speed, one thread: full scan median {statistics.median(cpu):.1f} ms of CPU "
        f"(p90 {np.percentile(cpu, 90):.1f} ms; wall clock median "
        f"{statistics.median(wall):.1f} ms on this shared machine), marker detection "
        f"median {statistics.median(detect_ms):.1f} ms (run every 50th frame)",
        f"Model file {size:.2f} MB; peak RSS of `companion table scan` (20 frames): "
        f"{rss:.0f} MB"]


def deep_report(args: argparse.Namespace, base: CardClassifier) -> list[str]:
    """Long stacks, pushed together to stay in view (the game's late turns)."""
    d_seed = evaluate.HELD_OUT_SEED + 100_000
    deep = drawn(evaluate.scenes(args.deep_scenes, "photo", seed=d_seed, photo_dir=args.photos,
                                 depths=evaluate.DEEP), args.deep_scenes, "long-stack scenes")
    d_cals = device_calibrations(deep, "photo", d_seed, args.photos, evaluate.DEEP)
    d_tally, _, _ = measure_scanner(TableScanner(classifier=base), deep, d_cals)
    return [f"Long stacks ({min(evaluate.DEEP)}-{max(evaluate.DEEP)} cards, pushed together "
            f"to end within {STACK_REACH_MM:.0f} mm below the play area): {args.deep_scenes} "
            f"frames, top-card accuracy (n={d_tally.counts['card:n']}): "
            f"{pct(d_tally.rate('card', 'right'))}, "
            f"wrong {pct(d_tally.rate('card', 'wrong'))}; "
            f"depth exact {pct(d_tally.rate('card', 'depth'))}, by true depth: "
            f"{depth_rates(d_tally)}"]


def unseen_report(args: argparse.Namespace, base: CardClassifier) -> list[str]:
    """A card style the model never saw, enrolled from one clean image per card."""
    with tempfile.TemporaryDirectory() as tmp:
        modern = enrolled_modern(base, Path(tmp) / "modern.onnx")
        u_seed = evaluate.HELD_OUT_SEED + 50_000
        unseen = drawn(evaluate.scenes(args.unseen_scenes, "modern", seed=u_seed),
                       args.unseen_scenes, "unseen-style scenes")
        u_cals = device_calibrations(unseen, "modern", u_seed, None)
        u_tally, _, _ = measure_scanner(TableScanner(classifier=modern), unseen, u_cals)
    return [f"Unseen style (modern), enrolled from one clean image per card: "
            f"{args.unseen_scenes} frames, top-card accuracy (n="
            f"{u_tally.counts['card:n']}): {pct(u_tally.rate('card', 'right'))}; "
            f"wrong on occluded/unknown: "
            f"{pct(u_tally.rate_of(('occluded', 'unknown'), 'wrong'))}"]


def baseline_report(args: argparse.Namespace, base: CardClassifier, frames,  # type: ignore[no-untyped-def]
                    cals) -> list[str]:
    """The classic baselines on the first frames only (ORB is slow): our scan is timed
    again on the very same frames, beside each baseline, so the speeds compare like for
    like."""
    base_frames = frames[: args.baseline_scenes]
    timed = measure_baseline(base_frames, cals[: args.baseline_scenes], args.photos,
                             TableScanner(classifier=base))
    ours_card = timed.pop("ours")
    lines = []
    for name, (acc, wrong, ms, ours, per_card) in timed.items():
        lines.append(f"Baseline {name} on {len(base_frames)} of the same frames: top-card "
                     f"accuracy {pct(acc)}, wrong on occluded/unknown {pct(wrong)}, "
                     f"{ms:.1f} ms of CPU per frame (locating included; our full scan "
                     f"{ours:.1f} ms on these frames, timed alongside); identifying alone "
                     f"{per_card:.3f} ms per card image")
    lines.append(f"Ours on the same {len(base_frames)} frames: top-card accuracy "
                 f"{pct(ours_card[0])}; identifying alone (our crop and embedder, a frame's "
                 f"cards in one batch) {ours_card[1]:.3f} ms per card image")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=300, help="held-out scenes (0: skip)")
    parser.add_argument("--unseen-scenes", type=int, default=200, help="(0: skip)")
    parser.add_argument("--deep-scenes", type=int, default=100,
                        help="scenes of long stacks (the game's late turns; 0: skip)")
    parser.add_argument("--baseline-scenes", type=int, default=100,
                        help="of the held-out scenes, for the classic baselines (0: skip)")
    parser.add_argument("--kind-scenes", type=int, default=100,
                        help="frames per table kind (0: skip)")
    parser.add_argument("--kinds", default=",".join(k for k in evaluate.CONDITIONS if k != "usual"),
                        help="the table kinds --kind-scenes reports, comma-separated")
    parser.add_argument("--lamp-scenes", type=int, default=300,
                        help="frames of a blown lamp beside an empty place (0: skip)")
    parser.add_argument("--games", type=int, default=3, help="still games per table kind")
    parser.add_argument("--changes", type=int, default=25, help="changes per still game")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--photos", type=Path, default=synth_cards.default_photo_dir())
    parser.add_argument("--update-card", action="store_true", help="write models/MODEL_CARD.md")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = Progress("vision_accuracy", quiet=args.quiet)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    start = time.time()
    lines = report(args)
    print("\n".join(lines))
    print(f"(benchmark took {time.time() - start:.0f} s)")
    if args.update_card:
        from vision.model_card import write_measured

        write_measured("\n".join(["Measured by `benchmarks/vision_accuracy.py` "
                                  f"(--scenes {args.scenes}):", "", *lines]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
