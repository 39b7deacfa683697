"""``companion cards``: enrol a classifier from photos; identify card images.

    companion cards enroll --images DIR --out FILE.onnx [--model BASE.onnx]
    companion cards identify IMAGE... [--model FILE.onnx] [--json]

Enrolment (the contract): one or more photos per card, named ``<card-id>.<ext>`` or
kept in ``<card-id>/`` folders; a ``back.<ext>`` photo teaches the card back (face-down
cards). No retraining: the base model's embedder is reused with new prototypes, so it
takes a minute at most. A photo may show the card on a table (its outline is found) or
be a crop. ``identify`` finds the card in each photo (older cards' strips above it and
neighbours beside it are fine, see :mod:`vision.photo`).
``identify --json`` prints ``{"image", "card" (id or null), "confidence"}`` per line.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from device.cli import UsageError
from device.inputs import check_image, clip, decode_image, read_bytes, show

if TYPE_CHECKING:  # numpy only for the types: the handlers load it (+0.09 s per start)
    import numpy as np

    from vision.progress import Progress

MAX_MODEL_BYTES = 256 << 20  # the shipped model is 1.5 MB


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cards = sub.add_parser(
        "cards",
        help="enrol a classifier from photos; identify card images",
        description="The card classifier. Formats: docs/vision.md.",
    )
    csub = cards.add_subparsers(dest="cards_command", metavar="ACTION", required=True)
    enroll = csub.add_parser("enroll", help="build a classifier from your own card photos",
                             description="Build a classifier from your own card photos "
                                         "(the folder's layout: docs/vision.md).")
    enroll.add_argument(
        "--images",
        type=Path,
        required=True,
        help="folder of <card-id>.jpg files or <card-id>/ folders",
    )
    enroll.add_argument("--out", type=Path, required=True, help="the new classifier FILE.onnx")
    enroll.add_argument("--model", type=Path, help="base model whose embedder is reused")
    enroll.add_argument(
        "--any-ids", action="store_true", help="accept labels that are not catalogue card ids"
    )
    enroll.add_argument("--quiet", action="store_true", help="no progress on stderr")
    enroll.set_defaults(handler=run_enroll)
    ident = csub.add_parser("identify", help="name the card in each image",
                            description="Name the card in each image; --json prints one "
                                        "object per line (docs/vision.md).")
    ident.add_argument("images", nargs="+", metavar="IMAGE")
    ident.add_argument("--model", type=Path, help="classifier .onnx (default: the installed one)")
    ident.add_argument("--json", action="store_true", help="one JSON object per image")
    ident.set_defaults(handler=run_identify)


def load_classifier(path: Path | None):  # type: ignore[no-untyped-def]
    """The classifier at ``path`` (default: the installed one); a bad file is one line."""
    from vision.classifier import CardClassifier, ModelError  # +0.17 s per start (import_costs.py)

    if path is not None:
        read_bytes(path, "model", MAX_MODEL_BYTES)  # a folder, a device, a huge file
    try:
        return CardClassifier(path)
    except ModelError as exc:  # onnxruntime's own message can run over several lines
        raise UsageError(clip(str(exc))) from None


def _cut(image: np.ndarray, size: tuple[int, int], path: Path) -> np.ndarray:
    """The card in ``image`` (read from ``path``), cut out and straightened to ``size``."""
    from vision.crop import card_image  # +0.14 s per start (import_costs.py)

    try:
        return card_image(image, size)
    except Exception as exc:  # odd shapes (a 1x1 image) must not end in a traceback
        raise UsageError(f"no card can be cut out of {show(path)} ({clip(str(exc), 80)})") \
            from None


def _out_path(out: Path) -> None:
    if out.suffix.lower() != ".onnx":
        raise UsageError(f"{show(out.name)}: the classifier is written as .onnx")
    if out.is_dir():
        raise UsageError(f"--out {show(out)} is a folder; name the .onnx file to write")
    if not out.parent.is_dir():
        raise UsageError(f"--out {show(out)}: the folder {show(out.parent)} does not exist")


def _collect(folder: Path) -> dict[str, list[Path]]:
    from vision.enroll import collect_images  # +0.26 s per start (import_costs.py)

    try:
        found = collect_images(folder)
    except OSError as exc:
        raise UsageError(f"cannot read the image folder {show(folder)}: "
                         f"{exc.strerror or exc}") from None
    for paths in found.values():
        for path in paths:
            check_image(path)
    return found


def run_enroll(args: argparse.Namespace) -> int:
    from vision.progress import Progress

    _out_path(args.out)
    # Shown before the imports and the model load, which take a second or two on a Pi.
    with Progress("cards enroll", quiet=args.quiet) as progress:
        progress.stage("loading the model", 1)
        count, labels = _enroll(args, progress)
    print(f"wrote {args.out}: {labels} labels from {count} images")
    return 0


def _enroll(args: argparse.Namespace, progress: Progress) -> tuple[int, int]:
    """Enrol the photos in ``args.images`` into ``args.out``: (images, labels)."""
    from engine.cards import CARDS
    from vision.enroll import BACK_NAMES, enroll  # +0.26 s per start (import_costs.py)
    from vision.head import save

    found = _collect(args.images)
    unknown = sorted(k for k in found if k not in CARDS and k not in BACK_NAMES)
    if unknown and not args.any_ids:
        raise UsageError(f"not card ids: {', '.join(unknown[:5])} (or pass --any-ids)")
    base = load_classifier(args.model)
    progress.advance()
    crops, refs = _cut_all(found, base.input_size, progress)
    note = f"enrolled from {args.images.name}"
    save(enroll(base, crops, note=note, references=refs, progress=progress), args.out)
    return sum(len(v) for v in crops.values()), len(crops)


def _cut_all(found: dict[str, list[Path]], size: tuple[int, int], progress: Progress
             ) -> tuple[dict[str, list[np.ndarray]], dict[str, np.ndarray]]:
    """Each photo's card cut out at the embedder's ``size``, and each card's first photo at
    the second look's own (larger) size."""
    from vision.enroll import BACK_NAMES
    from vision.keypoints import REF_SIZE

    crops: dict[str, list[np.ndarray]] = {label: [] for label in found}
    refs: dict[str, np.ndarray] = {}
    pairs = [(label, path) for label, paths in found.items() for path in paths]
    for label, path in progress.track(pairs, "photos"):
        image = decode_image(path)
        crops[label].append(_cut(image, size, path))
        if label not in refs and label not in BACK_NAMES:
            refs[label] = _cut(image, REF_SIZE, path)
    return crops, refs


def run_identify(args: argparse.Namespace) -> int:
    from vision.photo import identify_photo  # +0.17 s per start (import_costs.py)

    paths = [Path(p) for p in args.images]
    for path in paths:  # every image whole before anything is printed
        check_image(path)
    classifier = load_classifier(args.model)
    for path in paths:
        ident = identify_photo(classifier, decode_image(path))
        if args.json:
            print(
                json.dumps(
                    {
                        "image": str(path),
                        "card": ident.card,
                        "confidence": round(ident.confidence, 4),
                    }
                ),
                flush=True,
            )
        else:
            print(
                f"{path}: {ident.card or ('face down' if ident.face_down else 'unknown')} "
                f"({ident.confidence:.2f})"
            )
    return 0
