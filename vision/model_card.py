"""The model card (models/MODEL_CARD.md): how the default classifier was made and measured.

Training writes everything but the measured figures; ``benchmarks/vision_accuracy.py``
fills the section between the ``measured`` markers, so both stay reproducible.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import onnx

from vision.classifier import MODEL_NAME, default_model_path

START, END = "<!-- measured:start -->", "<!-- measured:end -->"
_PENDING = "Not measured yet: run `python benchmarks/vision_accuracy.py --update-card`."


def card_path() -> Path:
    """models/MODEL_CARD.md beside the default model."""
    return default_model_path().parent / "MODEL_CARD.md"


def _measured_section(path: Path) -> str:
    if path.is_file():
        found = re.search(re.escape(START) + r"(.*?)" + re.escape(END), path.read_text(), re.S)
        if found:
            return found.group(1).strip()
    return _PENDING


def write_training(
    args: argparse.Namespace,
    classes: int,
    chosen: dict[str, float],
    minutes: float,
    cpu_minutes: float | None = None,
) -> None:
    """Rewrite the card's training part (open set, reproduce command, timing, size).

    A card that exists keeps everything else: its measured figures and the sections
    written by hand (the second look, honest limits, the independent frames)."""
    path = card_path()
    command = (
        f"nice -n 10 python -m vision.train --steps {args.steps} --batch {args.batch} "
        f"--seed {args.seed} --fakes {args.fakes} --workers {args.workers} "
        f"--threads {args.threads}" + (" --int8" if getattr(args, "int8", False) else "")
    )
    text = TEMPLATE.format(
        name=MODEL_NAME,
        size=args.out.stat().st_size / 1e6,
        command=command,
        classes=classes,
        fakes=args.fakes,
        steps=args.steps,
        batch=args.batch,
        minutes=minutes,
        min_score=chosen["min_score"],
        min_margin=chosen["min_margin"],
        accepted=100 * chosen["accepted"],
        false=100 * chosen["false"],
        cpu=""
        if cpu_minutes is None
        else f", {cpu_minutes:.1f} CPU-minutes in all",
        open_set=open_set_text(args.out),
        measured=f"{START}\n{_measured_section(path)}\n{END}",
    )
    if path.is_file():
        text = _keep_the_rest(path.read_text(), text)
    path.write_text(text)


def _section(text: str, title: str) -> re.Pattern[str]:
    return re.compile(rf"## {re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)


def _keep_the_rest(card: str, fresh: str) -> str:
    """``card`` with the sections a training run decides taken from ``fresh``."""
    for title in ("Open set", "Reproduce"):
        found = _section(fresh, title).search(fresh)
        assert found is not None  # the template has both
        old = _section(card, title).search(card)
        if old is not None:
            card = card[: old.start()] + found.group(0) + card[old.end() :]
    size = re.search(r"\(\d+\.\d+ MB\)", fresh)
    assert size is not None
    return re.sub(r"\(\d+\.\d+ MB\)", size.group(0), card, count=1)


def open_set_text(model_path: Path | None = None) -> str:
    """The open-set section, from the thresholds stored in the model file itself."""
    model = onnx.load(str(model_path or default_model_path()), load_external_data=False)
    meta = {p.key: p.value for p in model.metadata_props}
    return OPEN_SET.format(
        min_score=meta["min_score"],
        min_margin=meta["min_margin"],
        min_back=meta.get("min_back", "?"),
        min_likeness=meta.get("min_back_likeness", "?"),
        accepted=100 * float(meta.get("calibration_accepted", "nan")),
        false=100 * float(meta.get("calibration_false", "nan")),
    )


def write_thresholds(model_path: Path | None = None) -> None:
    """Rewrite the open-set section from the model file's metadata (after training or
    ``python -m vision.train --calibrate-only``), so the card never disagrees with it."""
    path = card_path()
    text = re.sub(
        r"## Open set\n.*?(?=## )",
        lambda _m: open_set_text(model_path),
        path.read_text(),
        flags=re.S,
    )
    # Recalibrating can also rewrite the embedder (--int8): the size must follow it.
    model = model_path or default_model_path()
    if model.is_file():
        size = f"({model.stat().st_size / 1e6:.2f} MB)"
        text = re.sub(r"\(\d+\.\d+ MB\)", size, text, count=1)
    path.write_text(text)


def write_measured(body: str) -> None:
    """Replace the measured section with ``body`` (Markdown)."""
    path = card_path()
    text = path.read_text()
    new = f"{START}\n{body.strip()}\n{END}"
    path.write_text(
        re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _m: new, text, flags=re.S)
    )


OPEN_SET = """## Open set

The answer is *unknown* unless the best score is at least **{min_score}** and beats both
the runner-up card and the *null* by at least **{min_margin}**. The null is the head's
similarity to bare table, another game's cards and other objects: the embedder maps
them all to one place, so a crop close to it names no card. These thresholds (stored
in the model's metadata, which this section is generated from) were chosen on held-out
crops (new seeds: card captures, top cards cut by the locator from generated scenes,
hands over cards, bare table, another game's cards, other objects) as the loosest pair
naming a wrong card for at most 0.1% of the crops; on that set they accepted
{accepted:.1f}% of card crops with {false:.2f}% of crops misnamed.

A card reads *face down* when its card-back score beats every card and is at least
**{min_back}**, and its pixels (16×22, band-passed, per channel normalised) correlate
with the back's by at least **{min_likeness}**: another game's plain card lies close to
the back in the embedding, never in its picture.

"""

TEMPLATE = """# Model card: {name}

`{name}.onnx` ({size:.2f} MB) identifies the top card of a location from a canonical
88×64 card image cut out of the camera frame. One file holds both parts:

- **Embedder**: a small CNN (7 conv layers, 3×2 pooled grid, 128-d unit embedding; about
  0.4 M parameters, 16 MFLOPs per card), trained by this project. Its convolutions run
  in int8 (`--int8`: weights per channel, activation ranges from simulated captures of
  the catalogue, invented cards and negatives); the projection and the unit
  normalisation stay float, so embeddings keep a cosine of about 0.9995 with the float
  model's, and one card costs about half the float model's CPU.
- **Prototype head**: one or more reference embeddings per card; the `scores` output is
  each card's best cosine similarity. The default head holds, per catalogue card, the
  printed-card photo and the project's `classic` drawing, plus the card back.
  `companion cards enroll` swaps in a head built from a user's own photos.

Labels: `{name}.labels.txt` beside the model (the 112 catalogue ids), also stored in the
model's metadata; the loader checks them against the output width.

{open_set}## Training data

- The 112 printed-card photos (read from `../shared/reference/card-photos/` at training
  time; never committed), weighted ×3.
- The catalogue drawn in the synthetic `classic` style, and {fakes} invented cards in
  that style (random names, castes, values, art), so the embedder learns to separate
  card designs in general rather than memorise 112 pictures.
- The synthetic card back (face-down cards).
- Negatives (12% of each batch) pushed to match no class: a hand over a card, bare
  table, another game's card, other objects.

The synthetic `modern` style is **never** used in training: it measures how enrolment
copes with a card design the embedder never saw.

## Augmentation (capture simulation)

Every crop is made the way the scanner makes one: the card is laid on a table texture
(wood, felt, paint) at 2.0–3.8 camera px/mm, optionally in a sleeve (coloured or clear
rim, sheen), then lit (gain 0.5–1.4, light gradient, white balance 0.8–1.2 per channel),
shadowed (30%), glared (35%; half of the reflections clip a patch of the card flat
white, as a sensor clips a lamp brighter than its range), blurred (gaussian σ ≤ 1.4 or
motion), noised (σ ≤ 8), JPEG-compressed (quality 45–95), and cut out through outlines
with the locator's typical error (shift ±3 mm, scale 0.95–1.05, corner wobble σ 1 mm,
rotation ±2.5°); four such cuts are taken from each simulated capture.

## Reproduce

```
pip install -e '.[train]'      # torch==2.13.0 (CPU)
{command}
```

{classes} classes, {steps} steps of {batch} crops, AdamW + one-cycle LR, CosFace
(s = 20, m = 0.25) plus outlier exposure; seeded. This run took {minutes:.1f} minutes of
wall-clock time on this machine's 2 cores{cpu} (whatever else ran beside it slows the
clock, not the CPU-minutes).

## Measured

{measured}

## Honest limits

- The 112 photos are the only real images: each is one photo per card, so "held out"
  means new scenes (camera pose, tilt up to 30°, light, placement, stack composition,
  hands, objects), never new photos of the cards. Real-camera accuracy has not been
  measured; enrol your own photos (`companion cards enroll`) to adapt to your camera.
- Scenes put glare on cards (glossy cards and sleeves), not on the table, and lift
  near-black tables to a dark mid-tone: black-framed cards on a black table in dim
  light are not separated from it.
- Stack depth comes from where a stack starts and where its top card starts, with the
  contract's ~14 mm cascade; people cascade unevenly, so deep stacks can be off by one.
- The camera sees 40 mm below the play area, no more: a stack must end within 32 mm of it,
  and people push a long stack together to keep it there (the scenes model that, with
  spacings down to about 9 mm; the count weighs 8-17 mm only for a stack ending near
  that reach). A stack running past the view reads occluded and the device says so.
  Such a stack in an outer column covers a bottom marker, so the device relies on the
  calibration it found earlier in the game.
- The scene benchmark's hands are flat polygons in skin tones.
- A perceptual hash reads a frame faster than our scan does. The baselines run on this
  project's own locator, which is most of a scan. After it, hashing a card costs well
  under what cutting and embedding it costs, and our scan also tries second outlines
  where the first names no card. The hash is also several points less accurate (see
  Measured). For our scan to be the faster one, it would most likely need a locator
  that a network can use and a hash cannot, such as a learned one.
"""
