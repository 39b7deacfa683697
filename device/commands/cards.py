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
    from engine.cards import CARDS
    from vision.enroll import BACK_NAMES, enroll  # +0.26 s per start (import_costs.py)
    from vision.head import save
    from vision.keypoints import REF_SIZE

    _out_path(args.out)
    found = _collect(args.images)
    unknown = sorted(k for k in found if k not in CARDS and k not in BACK_NAMES)
    if unknown and not args.any_ids:
        raise UsageError(f"not card ids: {', '.join(unknown[:5])} (or pass --any-ids)")
    base = load_classifier(args.model)
    photos = {label: [(p, decode_image(p)) for p in paths] for label, paths in found.items()}
    crops = {k: [_cut(img, base.input_size, p) for p, img in v] for k, v in photos.items()}
    # The second look keeps each card's first photo, cut at its own (larger) size.
    refs = {k: _cut(v[0][1], REF_SIZE, v[0][0]) for k, v in photos.items()
            if k not in BACK_NAMES}
    note = f"enrolled from {args.images.name}"
    save(enroll(base, crops, note=note, references=refs), args.out)
    count = sum(len(v) for v in crops.values())
    print(f"wrote {args.out}: {len(crops)} labels from {count} images")
    return 0


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
