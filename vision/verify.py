"""The second look: what the classifier does before it answers "unknown".

The embedder sees a card at 64 × 88 pixels, where glare, a hand's shadow or a printing it
never saw can leave two cards alike. The second look goes back to the camera frame and
looks at more of its pixels, in two ways, cheapest first:

1. whole-card templates (:mod:`vision.templates`), every enrolled card at once: named
   when the best card's score and its lead over the runner-up clear the model's bars
   (tried again with the card turned and sheared into place when they do not);
2. local features (:mod:`vision.keypoints`) for the shortlist (the embedder's likeliest
   cards and the templates'): named when enough keypoints agree on one placement.

Both bars are fitted when a model is made (:func:`vision.enroll.second_look_metadata`),
on simulated captures, so that no card of the same design that was not enrolled, no
other game's card and no object is named. Everything the look needs (each card's
template and own keypoints, the bars) is stored in the model's metadata as one text
value, written by :func:`encode` and read by :func:`decode`.
"""

from __future__ import annotations

import base64
import io
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision import keypoints as kp
from vision import templates as tp

METADATA_KEY = "second_look"
TEMPLATE_ALSO = 3  # the templates' likeliest cards the keypoints check as well
TEMPLATE_QUALITY = 90  # JPEG quality of the stored templates


class SecondLookError(ValueError):
    """Stored second-look data that cannot be read."""


@dataclass(frozen=True, slots=True)
class Bars:
    """What names a card: a template score and lead, or a number of keypoint inliers."""

    template_score: float = 1.0
    template_margin: float = 1.0
    min_inliers: int = kp.MIN_INLIERS


@dataclass(frozen=True, slots=True)
class Verdict:
    """The second look's answer: a card (None: still unknown), how sure, and by which
    look (``"templates"`` or ``"keypoints"``)."""

    card: str | None
    confidence: float = 0.0
    margin: float = 0.0
    how: str = ""


class SecondLook:
    """Both looks over one set of enrolled cards, with their bars."""

    def __init__(self, templates: tp.Templates, keypoints: kp.Keypoints, bars: Bars) -> None:
        self.templates = templates
        self.keypoints = keypoints
        self.bars = bars

    @property
    def labels(self) -> tuple[str, ...]:
        return self.templates.labels

    def look(self, frame: np.ndarray, quad_px: np.ndarray, shortlist: Sequence[str]) -> Verdict:
        """The card outlined by ``quad_px`` (TL, TR, BR, BL) in ``frame``, if a look names it;
        ``shortlist``: the embedder's likeliest cards, best first."""
        for refine in (False, True):
            scores = self.templates.look(frame, quad_px, refine)
            order = np.argsort(-scores)
            best, lead = float(scores[order[0]]), float(scores[order[0]] - scores[order[1]])
            if best >= self.bars.template_score and lead >= self.bars.template_margin:
                return Verdict(self.labels[order[0]], best, lead, "templates")
        also = [self.labels[i] for i in order[:TEMPLATE_ALSO]]
        found = self.keypoints.look(frame, quad_px, [*shortlist, *also])
        if found.card is None:
            return Verdict(None)
        bar = self.keypoints.min_inliers
        conf = found.inliers / (found.inliers + bar)
        lead = conf - found.runner_up / (found.runner_up + bar)
        return Verdict(found.card, conf, lead, "keypoints")


def references(images: Mapping[str, np.ndarray]) -> tuple[np.ndarray, dict[str, kp.Reference]]:
    """What the looks keep of each card image (cut to the card, at least
    :data:`vision.keypoints.REF_SIZE`): its template image and its own keypoints."""
    stack = np.stack([_as_stored(tp.template_image(img)) for img in images.values()])
    return stack, kp.build_references(images)


def _jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, TEMPLATE_QUALITY])
    if not ok:
        raise SecondLookError("a template image could not be encoded")
    return buf.tobytes()


def _as_stored(img: np.ndarray) -> np.ndarray:
    """A template as the model stores it (JPEG, half the bytes of lossless): the bars are
    fitted on what the looks will read back."""
    stored = cv2.imdecode(np.frombuffer(_jpeg(img), np.uint8), cv2.IMREAD_GRAYSCALE)
    assert stored is not None  # what _jpeg just wrote always decodes
    return stored


def assemble(
    labels: Sequence[str], stack: np.ndarray, refs: Mapping[str, kp.Reference], bars: Bars
) -> SecondLook:
    """A :class:`SecondLook` from stored parts."""
    templates = tp.Templates(dict(zip(labels, stack, strict=True)))
    return SecondLook(templates, kp.Keypoints(refs, bars.min_inliers), bars)


def encode(
    labels: Sequence[str], stack: np.ndarray, refs: Mapping[str, kp.Reference], bars: Bars
) -> str:
    """The parts and bars as one metadata text (base64 of a compressed npz)."""
    jpegs = [_jpeg(img) for img in stack]
    buf = io.BytesIO()
    np.savez_compressed(
        buf,
        labels=np.array(list(labels)),
        templates=np.frombuffer(b"".join(jpegs), np.uint8),
        template_sizes=np.array([len(j) for j in jpegs], np.int64),
        counts=np.array([len(refs[k].points_mm) for k in labels], np.int32),
        points=np.concatenate([refs[k].points_mm for k in labels]).astype(np.float16),
        descriptors=np.concatenate([refs[k].descriptors for k in labels]),
        bars=np.array([bars.template_score, bars.template_margin, bars.min_inliers], np.float64),
    )
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _templates(data: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    ends = np.cumsum(sizes)
    imgs = [
        cv2.imdecode(data[e - n : e], cv2.IMREAD_GRAYSCALE)
        for n, e in zip(sizes, ends, strict=True)
    ]
    found = [img for img in imgs if img is not None and img.shape == tp.SIZE[::-1]]
    if len(found) != len(imgs):
        raise ValueError("a stored template is not a card template image")
    return np.stack(found)


def decode(text: str) -> SecondLook:
    """The :class:`SecondLook` stored by :func:`encode`.

    :raises SecondLookError: when the text is not such a store.
    """
    try:
        data = np.load(io.BytesIO(base64.b64decode(text, validate=True)))
        labels = [str(k) for k in data["labels"]]
        stack = _templates(data["templates"], data["template_sizes"])
        counts, bars = data["counts"], data["bars"]
        points, des = data["points"].astype(np.float32), data["descriptors"]
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile, cv2.error) as exc:
        raise SecondLookError(f"unreadable second-look data: {exc}") from exc
    if not (len(labels) == len(stack) == len(counts)) or int(counts.sum()) != len(points):
        raise SecondLookError("second-look data: its parts disagree in length")
    ends = np.cumsum(counts)
    refs = {
        k: kp.Reference(points[e - n : e], des[e - n : e])
        for k, n, e in zip(labels, counts, ends, strict=True)
    }
    return assemble(labels, stack, refs, Bars(float(bars[0]), float(bars[1]), int(bars[2])))
