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

from device.cli import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cards = sub.add_parser(
        "cards",
        help="enrol a classifier from photos; identify card images",
        description="The card classifier.",
    )
    csub = cards.add_subparsers(dest="cards_command", metavar="ACTION", required=True)
    enroll = csub.add_parser("enroll", help="build a classifier from your own card photos")
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
    ident = csub.add_parser("identify", help="name the card in each image")
    ident.add_argument("images", nargs="+", metavar="IMAGE")
    ident.add_argument("--model", type=Path, help="classifier .onnx (default: the installed one)")
    ident.add_argument("--json", action="store_true", help="one JSON object per image")
    ident.set_defaults(handler=run_identify)


def _read(path: Path):  # type: ignore[no-untyped-def]
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise UsageError(f"not an image: {path}")
    return img


def run_enroll(args: argparse.Namespace) -> int:
    from engine.cards import CARDS
    from vision.classifier import CardClassifier
    from vision.enroll import BACK_NAMES, collect_images, enroll, save
    from vision.keypoints import REF_SIZE
    from vision.locate import card_image

    if args.out.suffix.lower() != ".onnx":
        raise UsageError(f"{args.out.name}: the classifier is written as .onnx")
    found = collect_images(args.images)
    unknown = sorted(k for k in found if k not in CARDS and k not in BACK_NAMES)
    if unknown and not args.any_ids:
        raise UsageError(f"not card ids: {', '.join(unknown[:5])} (or pass --any-ids)")
    base = CardClassifier(args.model)
    photos = {label: [_read(p) for p in paths] for label, paths in found.items()}
    crops = {k: [card_image(img, base.input_size) for img in v] for k, v in photos.items()}
    # The second look keeps each card's first photo, cut at its own (larger) size.
    refs = {k: card_image(v[0], REF_SIZE) for k, v in photos.items() if k not in BACK_NAMES}
    save(enroll(base, crops, note=f"enrolled from {args.images.name}", references=refs), args.out)
    count = sum(len(v) for v in crops.values())
    print(f"wrote {args.out}: {len(crops)} labels from {count} images")
    return 0


def run_identify(args: argparse.Namespace) -> int:
    from vision.classifier import CardClassifier
    from vision.photo import identify_photo

    classifier = CardClassifier(args.model)
    paths = [Path(p) for p in args.images]
    for path in paths:
        if not path.is_file():
            raise UsageError(f"image not found: {path}")
    for path in paths:
        ident = identify_photo(classifier, _read(path))
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
