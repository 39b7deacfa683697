"""Prototype heads: turn embeddings of reference images into a classifier, without torch.

A head is appended to the embedder graph (:mod:`vision.head`, with the ``onnx``
package): ``scores`` is the best cosine similarity over each label's prototypes,
``special`` the similarity to the card back. Enrolment reuses a model's
embedder with new prototypes, so a user adapts to their camera, light and sleeves, or to
card designs the embedder never saw, in the time it takes to embed their photos.

Enrolment also stores what the second look needs (:mod:`vision.verify`): each card's own
reference keypoints, in the model's metadata, and the number of agreeing keypoints that
names a card, fitted on simulated captures of the enrolled images.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np
import onnx

from engine.cards import ALL_IDS
from vision import verify
from vision.classifier import (
    BAR_CAPTURES,
    FACE_DOWN,
    PIXEL_DIM,
    SHORTLIST,
    CardClassifier,
    back_features,
    encode_template,
)
from vision.crop import warp_card
from vision.head import attach_head, stored_back
from vision.keypoints import REF_SIZE
from vision.progress import Progress
from vision.synth.crops import NEGATIVE_KINDS, capture, capture_patch, null_crops
from vision.thresholds import NEGATIVE, choose_thresholds, likeness_bar, scene_crops

VIEWS = 8  # simulated captures per enrolment image, each kept as a prototype
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
BACK_NAMES = ("back", FACE_DOWN, "face-down")
PIXEL_WEIGHT = 0.35  # share of pixel likeness in an enrolled head's similarities
# Generated scenes whose locator crops help set an enrolled head's bar. Hands over cards
# are a few percent of the crops: with 60 scenes the fitted margin (0.08) let a
# hand-covered card of the unseen style read as a hub card (sevro, margin 0.089).
ENROL_SCENES = 120
# A few cards need fewer: enrolling 3 or 8 cards chose the same bars from 24, 48 and
# 120 scenes, and each scene costs ~40 ms to draw and read.
SCENES_PER_CARD, MIN_SCENES = 6, 24
VERIFY_CAPTURES = 3  # simulated captures per enrolled card that set the second look's bars
VERIFY_SAFETY = 1.25  # the inlier bar over the most any wrong card got in those
TEMPLATE_SAFETY = 0.03  # added to the template bars fitted on those
MIN_VERIFY_BAR = 10
KEPT_METADATA = (
    "min_score",
    "min_margin",
    "min_back",
    "min_back_likeness",
    "back_template",
    "embedder",
)
_LABEL = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def describe(
    classifier: CardClassifier, crops: Sequence[np.ndarray], pixel_weight: float
) -> np.ndarray:
    """Prototype vectors of canonical crops: unit embeddings, with a pixel weight ``a``
    joined to their pixel features as √(1−a)·embedding ⊕ √a·pixels (unit length)."""
    emb = embed_images(classifier, crops)
    if pixel_weight <= 0:
        return emb
    pix = back_features(list(crops))
    return np.hstack([np.sqrt(1 - pixel_weight) * emb, np.sqrt(pixel_weight) * pix])


def collect_images(folder: Path) -> dict[str, list[Path]]:
    """``<label>.<ext>`` files and ``<label>/`` folders of images → label → image paths.

    :raises ValueError: for a missing folder, a bad label or no images at all.
    """
    if not folder.is_dir():
        raise ValueError(f"image folder not found: {folder}")
    found: dict[str, list[Path]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.is_dir():
            files = [f for f in sorted(entry.iterdir()) if f.suffix.lower() in IMAGE_SUFFIXES]
            label = entry.name
        elif entry.suffix.lower() in IMAGE_SUFFIXES:
            files, label = [entry], entry.stem
        else:
            continue
        if files and not _LABEL.match(label):
            raise ValueError(f"{entry.name}: name it after a card id, e.g. 'dr-virany.jpg'")
        found.setdefault(label, []).extend(files)
    if not found:
        raise ValueError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {folder}")
    return found


def embed_images(classifier: CardClassifier, crops: Sequence[np.ndarray]) -> np.ndarray:
    """Unit embeddings of canonical crops, in batches of 32."""
    parts = [classifier.run(list(crops[i : i + 32]))["embedding"] for i in range(0, len(crops), 32)]
    return np.concatenate(parts)


def enroll(
    base: CardClassifier,
    crops_by_label: Mapping[str, Sequence[np.ndarray]],
    note: str = "enrolled",
    calibrate: bool = True,
    views: int = VIEWS,
    pixel_weight: float = PIXEL_WEIGHT,
    references: Mapping[str, np.ndarray] | None = None,
    progress: Progress | None = None,
) -> onnx.ModelProto:
    """A classifier with ``base``'s embedder and one prototype per given image.

    Each image (a card image of any size, cut to the card's outline: see
    :func:`vision.crop.card_image`) also yields ``views`` simulated captures of itself
    (light, blur, glare, a slightly wrong outline), each a prototype of its own: one clean
    photo then covers the ways a camera will see the card. Images filed under a back name
    (``back``, ``face-down``) become the card-back prototype and pixel template; otherwise
    the base model's card back is kept. Similarities blend the embedding with pixel
    likeness by ``pixel_weight`` (see :func:`describe`): a design the embedder never saw
    still differs pixel by pixel. With ``calibrate`` the open-set thresholds are fitted to
    the new prototypes (see :func:`fit_thresholds`); otherwise the base model's are kept.
    The second look's references (see :func:`second_look_metadata`) come from
    ``references`` (one image per label, cut to the card, at least
    :data:`~vision.keypoints.REF_SIZE`), else from the first images when they are that
    large; without either the model has no second look. Cut the embedder's images at its
    input size (as :func:`vision.crop.card_image` does) and the references apart:
    scaling a large cut down is not quite the crop the embedder was trained on.
    ``progress`` hears each stage and step (a minute or more for a whole deck on a Pi).
    """
    labels = sorted(k for k in crops_by_label if k not in BACK_NAMES)
    if not labels:
        raise ValueError("no card images to enrol")
    steps = progress or Progress("enroll", quiet=True)
    images = {k: list(crops_by_label[k]) for k in crops_by_label}
    crops = {k: [_canonical(base, img) for img in v] for k, v in images.items()}
    a = pixel_weight
    protos = [describe(base, with_views(crops[k], views, seed=i), a)
              for i, k in steps.track(list(enumerate(labels)), "cards")]
    nulls = describe(base, null_crops(seed=7), a)
    back_crops = [c for name in BACK_NAMES for c in crops.get(name, ())]
    keep = {k: v for k, v in base.metadata.items() if k in KEPT_METADATA}
    back: np.ndarray | None
    if back_crops:
        back = describe(base, with_views(back_crops, views), a)
        keep.update(back_check(back_crops))
        keep["min_back"] = str(back_bar(base, back_crops, back, a))
    else:
        back = stored_back(base)
        if back is not None and a > 0:
            # Only the embedding of the base model's back is known: its pixel part stays
            # zero, so a back scores √(1−a)² of what it did and the bar follows.
            back = np.hstack([np.sqrt(1 - a) * back, np.zeros((len(back), PIXEL_DIM))])
            keep["min_back"] = str(round(float(base.min_back) * (1 - a), 3))
    if calibrate:
        partial = not set(ALL_IDS) <= set(labels)
        scenes = threshold_scenes(len(labels))
        steps.stage("bars: scenes", scenes)
        chosen = fit_thresholds(base, [crops[k] for k in labels], protos, nulls, a, partial,
                                seed=1, scenes=scenes, on_scene=steps.tick)
        keep.update({k: str(chosen[k]) for k in ("min_score", "min_margin")})
    sharp = dict(references) if references else {k: images[k][0] for k in labels}
    if all(k in sharp and min(sharp[k].shape[:2]) >= min(REF_SIZE) for k in labels):
        sharp = {k: sharp[k] for k in labels}
        keep.update(second_look_metadata(base, sharp, head_scores(base, protos, a),
                                         progress=steps))
    model = onnx.load(str(base.path))
    return attach_head(model, labels, protos, back, {**keep, "head": note}, nulls, a)


def threshold_scenes(cards: int) -> int:
    """How many generated scenes set the bars of an enrolment of ``cards`` cards."""
    return min(ENROL_SCENES, max(MIN_SCENES, SCENES_PER_CARD * cards))


def _canonical(base: CardClassifier, image: np.ndarray) -> np.ndarray:
    """A card image at the embedder's input size (area-averaged when it is larger)."""
    if (image.shape[1], image.shape[0]) == base.input_size:
        return image
    return cv2.resize(image, base.input_size, interpolation=cv2.INTER_AREA)


def second_look_metadata(
    base: CardClassifier,
    images: Mapping[str, np.ndarray],
    rank: Callable[[list[np.ndarray]], np.ndarray],
    seed: int = 5,
    progress: Progress | None = None,
) -> dict[str, str]:
    """The second look's references and bars (:mod:`vision.verify`), as model metadata.

    ``rank`` gives the new head's score for each label (in ``images``' order) of a batch
    of canonical crops, to shortlist as the scanner will. Every card is captured
    (simulated, on a short cascade of other cards) :data:`VERIFY_CAPTURES` times, and
    other games' cards and objects half as often. Each look is shown those captures with
    the card itself *left out* (a card of the same design the user never enrolled) and
    the negatives: the template bars are the loosest score and lead that name none of
    them and the keypoints' bar is the most inliers any of them gathered, each with a
    safety margin."""
    labels = list(images)
    steps = progress or Progress("second look", quiet=True)
    steps.stage("second look: references", 1)
    stack, refs = verify.references(images)
    judge = verify.assemble(labels, stack, refs, verify.Bars(min_inliers=0))
    steps.advance()
    rng = random.Random(seed)
    shots = [
        (i, capture_patch(images[k], rng, under=_under(images, labels, rng)))
        for i, k in steps.track(list(enumerate(labels)), "second look: captures")
        for _ in range(VERIFY_CAPTURES)
    ]
    for n in range(len(shots) // 4):
        kind = NEGATIVE_KINDS[1 + n % (len(NEGATIVE_KINDS) - 1)]  # not hands: not wrong
        face = images[labels[n % len(labels)]]
        # Bare table where a top card was outlined: older cards there would be the top.
        under = _under(images, labels, rng) if kind != "table" else []
        shots.append((NEGATIVE, capture_patch(face, rng, kind, under)))
    likes = rank([warp_card(patch, quad, base.input_size) for _i, (patch, quad) in shots])
    truth = np.array([i for i, _shot in shots])
    # The look tries twice (the second time refined): a wrong card must clear neither.
    scores = np.stack(
        [
            np.maximum(judge.templates.look(p, q), judge.templates.look(p, q, refine=True))
            for _i, (p, q) in steps.track(shots, "second look: templates")
        ]
    )
    steps.stage("second look: keypoints", len(shots))
    bars = verify.Bars(*_template_bars(scores, truth),
                       _inlier_bar(judge, shots, likes, on_shot=steps.tick))
    return {verify.METADATA_KEY: verify.encode(labels, stack, refs, bars)}


def head_scores(
    base: CardClassifier, protos: Sequence[np.ndarray], pixel_weight: float
) -> Callable[[list[np.ndarray]], np.ndarray]:
    """Per-label scores of a head not yet built: ``protos`` against :func:`describe`."""

    def rank(crops: list[np.ndarray]) -> np.ndarray:
        query = describe(base, crops, pixel_weight)
        return np.stack([(query @ p.T).max(axis=1) for p in protos], axis=1)

    return rank


def _under(images: Mapping[str, np.ndarray], labels: Sequence[str], rng: random.Random) -> list:  # type: ignore[type-arg]
    return [images[rng.choice(labels)] for _ in range(rng.choice((0, 1, 1, 2)))]


def _template_bars(scores: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """The loosest template (score, lead) naming no left-out card and no negative, then
    raised by :data:`TEMPLATE_SAFETY` (a sample's worst case is not the world's)."""
    own = np.flatnonzero(truth >= 0)
    left_out = scores[own].copy()
    left_out[np.arange(own.size), truth[own]] = -1.0
    both = np.concatenate([scores, left_out])
    both_truth = np.concatenate([truth, np.full(own.size, NEGATIVE)])
    chosen = choose_thresholds(both, both_truth, max_false=0.0)
    return chosen["min_score"] + TEMPLATE_SAFETY, chosen["min_margin"] + TEMPLATE_SAFETY


def _inlier_bar(judge: verify.SecondLook, shots: list, likes: np.ndarray,  # type: ignore[type-arg]
                on_shot: Callable[[], None] | None = None) -> int:
    """The most inliers a wrong card gathered, with the card left out of the shortlist
    (the embedder's likeliest cards, as the scanner hands them over), times
    :data:`VERIFY_SAFETY`."""
    labels = judge.labels
    worst = 0
    for (i, (patch, quad)), row in zip(shots, likes, strict=True):
        rivals = [labels[j] for j in np.argsort(-row) if j != i][:SHORTLIST]
        found = judge.keypoints.look(patch, quad, rivals)
        if found.card is not None:
            worst = max(worst, found.inliers)
        if on_shot is not None:
            on_shot()
    return max(MIN_VERIFY_BAR, math.ceil(VERIFY_SAFETY * worst) + 1)


def back_bar(
    base: CardClassifier, back_crops: Sequence[np.ndarray], back: np.ndarray, a: float
) -> float:
    """The card-back score bar: met by nine in ten simulated captures of the back (the
    pixel check, not this bar, keeps other games' cards out)."""
    rng = random.Random(11)
    shots = [capture(back_crops[k % len(back_crops)], rng) for k in range(BAR_CAPTURES)]
    unit = back / (np.linalg.norm(back, axis=1, keepdims=True) + 1e-8)
    got = (describe(base, shots, a) @ unit.T).max(axis=1)
    return round(float(np.percentile(got, 10)), 3)


def back_check(back_crops: Sequence[np.ndarray], seed: int = 3) -> dict[str, str]:
    """Metadata for the pixel check of face-down cards: the first back image's template
    and the likeness bar between simulated captures of the backs and non-card crops."""
    template = back_features([back_crops[0]])[0]
    rng = random.Random(seed)
    backs = [capture(c, rng) for c in back_crops for _ in range(max(1, 120 // len(back_crops)))]
    others = null_crops(seed + 1, per_kind=60)
    bar = likeness_bar(back_features(backs) @ template, back_features(others) @ template)
    return {"back_template": encode_template(template), "min_back_likeness": str(bar)}


def with_views(crops: Sequence[np.ndarray], views: int, seed: int = 0) -> list[np.ndarray]:
    """The crops plus ``views`` simulated captures of each (seeded: enrolment repeats)."""
    rng = random.Random(seed)
    return [*crops, *(capture(c, rng) for c in crops for _ in range(views))]


def fit_thresholds(
    base: CardClassifier,
    crops: Sequence[Sequence[np.ndarray]],
    protos: Sequence[np.ndarray],
    nulls: np.ndarray | None = None,
    pixel_weight: float = 0.0,
    partial: bool = True,
    views: int = 8,
    seed: int = 0,
    scenes: int = ENROL_SCENES,
    on_scene: Callable[[], None] | None = None,
) -> dict[str, float]:
    """Open-set thresholds for new prototypes: the enrolment images put through simulated
    captures and laid in generated table scenes (cut out by the locator, hands and
    objects included) must be named right, and nothing may be named wrong more often
    than the base model allows. Seeded, so enrolment is repeatable."""
    rng = random.Random(seed)
    shots, truth = [], []
    for label, images in enumerate(crops):
        for k in range(views):
            shots.append(capture(images[k % len(images)], rng))
            truth.append(label)
    for k in range(max(60, len(shots) // 2)):
        label = rng.randrange(len(crops))
        kind = NEGATIVE_KINDS[k % len(NEGATIVE_KINDS)]
        shots.append(capture(crops[label][0], rng, kind))
        # A hand over a card may leave it recognisable: naming that card is not wrong.
        truth.append(label if kind == "hand" else NEGATIVE)
    faces = {str(label): images[0] for label, images in enumerate(crops)}
    more, more_truth = scene_crops(faces, scenes, seed + 100, base.input_size, on_scene)
    shots += more
    truth += more_truth
    emb = describe(base, shots, pixel_weight)
    scores = np.stack([(emb @ p.T).max(axis=1) for p in protos], axis=1)
    truth_arr = np.array(truth)
    null = None if nulls is None else (emb @ nulls.T).max(axis=1)
    # Leave one out: a card's captures scored without its own prototypes stand for a card
    # of the same design the user did not enrol, which must come out unknown.
    # (Only when some catalogue cards are left out: otherwise no such card exists.)
    own = np.flatnonzero(truth_arr[: len(crops) * views] >= 0) if partial else np.arange(0)
    others = scores[own].copy()
    others[np.arange(own.size), truth_arr[own]] = -1.0
    scores = np.concatenate([scores, others])
    truth_arr = np.concatenate([truth_arr, np.full(own.size, NEGATIVE)])
    if null is not None:
        null = np.concatenate([null, null[own]])
    return choose_thresholds(scores, truth_arr, max_false=0.001, null=null)
