"""Identify canonical card images with the ONNX embedder + prototype head.

The model file holds the embedder and a prototype head (see :mod:`vision.enroll`): its
``scores`` output is the cosine similarity of the image to each label's closest
prototype, ``special`` the similarity to the card back. Labels live in the model's
metadata and in a ``.labels.txt`` file beside it; both are checked against the output
width at load time. Open set: below ``min_score`` or ``min_margin`` the answer is None.

Before None is final, a model that carries second-look data (``companion cards enroll``
stores it) looks at the card again in the camera frame, at more pixels: whole-card
templates, then local features for the shortlisted cards (:mod:`vision.verify`, see
:meth:`CardClassifier.second_look`). Card backs can be learnt at run time from one crop
(:meth:`CardClassifier.learn_back`).
"""

from __future__ import annotations

import platform
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import verify
from vision.bundled import model_file
from vision.crop import warp_card
from vision.synth.crops import capture, null_crops

if TYPE_CHECKING:
    import onnxruntime

MODEL_NAME = "card_embedder_2026nov"
FACE_DOWN = "face_down"
BACK_GRID = (16, 22)  # (W, H) of the pixel comparison with the card back
PIXEL_DIM = BACK_GRID[0] * BACK_GRID[1] * 3
BAR_CAPTURES = 60  # simulated captures of a card back that set its score bar
SHORTLIST = 6  # the likeliest cards an unsure answer hands to the second look
# A name that leads the runner-up (or bare table) by less than this goes to the second
# look before it is believed, when the model carries one. The model's own bars are fitted
# on one outline per capture; a scan tries several outlines per location and meets glare
# that clips part of a card, and there the names it gets wrong all lead by less than
# this (own held-out scenes, seeds apart from the benchmarks'; models/MODEL_CARD.md).
VERIFY_MARGIN = 0.12


class ModelError(ValueError):
    """A model file that is missing, unreadable or inconsistent with its labels."""


@cache
def int8_saturates() -> bool:
    """Would onnxruntime's fused int8 kernels saturate on this CPU?

    The embedder is quantized (int8 weights and activations). On x86 without VNNI (AVX2
    alone, as on some AMD EPYC machines that run CI), onnxruntime multiplies u8 by s8
    with an instruction whose 16-bit pair sums saturate: the fused kernels then score
    cards up to 0.79 off the model's own arithmetic (24 captured cards: 19 named, not
    24). With VNNI, and on Arm (the Pi), the products are widened and exact. Where they
    saturate, the session runs the quantized graph unfused (2x the time, the same
    scores within 0.003)."""
    if platform.machine().lower() not in ("x86_64", "amd64", "x86", "i686"):
        return False
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return True  # an x86 CPU that does not say: the safe arithmetic
    return "avx512_vnni" not in flags and "avx_vnni" not in flags


def embedder_session(path: Path, threads: int = 1) -> onnxruntime.InferenceSession:
    """An onnxruntime session for an embedder at ``path``, scoring as its graph does on
    any CPU (see :func:`int8_saturates`): the device's and the trainer's alike, so the
    thresholds a model is calibrated with are the ones it is read with. ``threads`` 0:
    onnxruntime's own choice."""
    # onnxruntime loads with the first model (the demo's, on the capture thread after
    # its page is up): +0.08 s of CPU before the page otherwise (import_costs.py)
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    if int8_saturates():
        options.add_session_config_entry("session.disable_quant_qdq", "1")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def default_model_path() -> Path:
    """The default classifier the package ships (:mod:`vision.bundled`)."""
    return model_file(f"{MODEL_NAME}.onnx")


def labels_path(model_path: Path) -> Path:
    """The labels text file that lies beside a model file."""
    return model_path.with_suffix(".labels.txt")


@dataclass(frozen=True, slots=True)
class Identification:
    """One card image's answer: a label (None: unknown), its score and margin.

    When unsure (no card named, not a back), ``candidates`` lists the likeliest cards, best
    first, for a second look; ``second_look`` is True for a card that look named."""

    card: str | None
    confidence: float
    margin: float
    face_down: bool = False
    candidates: tuple[str, ...] = ()
    second_look: bool = False


def preprocess(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops (H, W, 3) → float32 NCHW, scaled as in training: (x/255 − 0.5)/0.25.

    OpenCV's blob maker does the scaling and the transpose in one pass, several times
    cheaper than numpy's three."""
    out: np.ndarray = cv2.dnn.blobFromImages(  # type: ignore[call-overload]  # mean as a tuple
        crops, 1 / 63.75, None, (127.5, 127.5, 127.5), False, False)
    return out


def back_features(crops: list[np.ndarray]) -> np.ndarray:
    """Unit vectors of small, band-passed, per-channel normalised crops: a picture's layout
    without its lighting, for comparing a crop with the card back pixel by pixel."""
    out = []
    for crop in crops:
        f = cv2.resize(
            cv2.GaussianBlur(crop.astype(np.float32), (5, 5), 1.5),
            BACK_GRID,
            interpolation=cv2.INTER_AREA,
        )
        f = (f - cv2.GaussianBlur(f, (0, 0), 6)).reshape(-1, 3)  # light gradients out
        f = ((f - f.mean(axis=0)) / (f.std(axis=0) + 1e-3)).ravel()
        out.append(f / (np.linalg.norm(f) + 1e-6))
    return np.array(out, np.float32)


def encode_template(vector: np.ndarray) -> str:
    """A back template as model metadata text."""
    return " ".join(f"{v:.4f}" for v in vector)


def decode_template(text: str) -> np.ndarray | None:
    """The back template stored in model metadata (None when the model has none)."""
    return np.array([float(v) for v in text.split()], np.float32) if text.strip() else None


def postprocess(
    scores: np.ndarray,
    special: np.ndarray,
    labels: tuple[str, ...],
    min_score: float,
    min_margin: float,
    min_back: float = 0.8,
    likeness: np.ndarray | None = None,
    min_likeness: float = -1.0,
    shortlist: int = 0,
    verify_margin: float = 0.0,
) -> list[Identification]:
    """Pick the best label per row; None below the score or margin thresholds.

    ``special`` holds the card-back score and, when the model has one, the null score
    (likeness to bare table, other games' cards, objects): the margin is taken over the
    runner-up card or the null, whichever is closer. ``likeness`` is each crop's pixel
    likeness to the card back (:func:`back_features`). An unsure row lists its
    ``shortlist`` best-scoring labels as candidates. A row whose margin clears
    ``min_margin`` but not ``verify_margin`` is unsure too: its name waits for the second
    look.
    """
    # Whole-batch arithmetic first: per-row numpy calls cost more than the model's head.
    n = len(scores)
    best_i = scores.argmax(axis=1)
    best = scores[np.arange(n), best_i]
    if scores.shape[1] > 1:
        rival = np.partition(scores, scores.shape[1] - 2, axis=1)[:, -2]
    else:
        rival = np.zeros(n, scores.dtype)
    if special.shape[1] > 1:
        rival = np.maximum(rival, special[:, 1])
    margin = best - rival
    back = special[:, 0] if special.shape[1] else np.full(n, -1.0, np.float32)
    # A card back: it beats every card and the null and clears its own bar; things near
    # the null come close to a back in the embedding, so its picture must also look like
    # one.
    looks = np.ones(n, bool) if likeness is None else likeness >= min_likeness
    beats_null = back > special[:, 1] if special.shape[1] > 1 else np.ones(n, bool)
    is_back = (back > best) & (back >= min_back) & looks & beats_null
    named = (best >= min_score) & (margin >= max(min_margin, verify_margin))
    unsure = np.flatnonzero(~named & ~is_back)
    k = min(shortlist, scores.shape[1])
    top = np.argsort(-scores[unsure], axis=1)[:, :k] if unsure.size and k else None
    out = []
    for i in range(n):
        if is_back[i]:
            out.append(Identification(None, float(back[i]), float(margin[i]), face_down=True))
        elif named[i]:
            out.append(Identification(labels[best_i[i]], float(best[i]), float(margin[i])))
        else:
            out.append(Identification(None, float(best[i]), float(margin[i])))
    if top is not None:
        for row, k in zip(top, unsure, strict=True):
            out[k] = replace(out[k], candidates=tuple(labels[j] for j in row))
    return out


class CardClassifier:
    """An ONNX card classifier; ``identify`` runs all crops of a frame in one call."""

    def __init__(self, model_path: Path | str | None = None, threads: int = 1) -> None:
        self.path = Path(model_path) if model_path else default_model_path()
        if not self.path.is_file():
            raise ModelError(f"model file not found: {self.path}")
        try:
            self.session = embedder_session(self.path, threads)
        except Exception as exc:  # onnxruntime raises its own types for corrupt files
            raise ModelError(f"cannot load model {self.path}: {exc}") from exc
        self._read_contract()

    def _read_contract(self) -> None:
        meta = self.session.get_modelmeta().custom_metadata_map
        inp = self.session.get_inputs()[0]
        self.takes_pixels = any(i.name == "pixels" for i in self.session.get_inputs())
        self.input_name = inp.name
        self.output_names = tuple(o.name for o in self.session.get_outputs())
        self.input_size = (int(inp.shape[3]), int(inp.shape[2]))  # (W, H) from the session
        self.labels = tuple(meta.get("labels", "").split())
        side = labels_path(self.path)
        if side.is_file() and tuple(side.read_text().split()) != self.labels:
            raise ModelError(f"{side.name} does not match the labels inside {self.path.name}")
        width = self.session.get_outputs()[0].shape[1]
        if not self.labels or (isinstance(width, int) and width != len(self.labels)):
            raise ModelError(f"{self.path.name}: {len(self.labels)} labels for {width} scores")
        self.min_score = float(meta.get("min_score", "0.5"))
        self.min_margin = float(meta.get("min_margin", "0.05"))
        self.min_back = float(meta.get("min_back", "0.8"))
        self.back_template = decode_template(meta.get("back_template", ""))
        self.min_likeness = float(meta.get("min_back_likeness", "-1"))
        self.pixel_weight = float(meta.get("pixel_weight", "0"))
        self.metadata = dict(meta)
        self.second_looker = self._read_second_look(meta)
        self._backs: tuple[LearntBack, ...] = ()

    def _read_second_look(self, meta: dict[str, str]) -> verify.SecondLook | None:
        text = meta.get(verify.METADATA_KEY, "")
        if not text:
            return None
        try:
            return verify.decode(text)
        except verify.SecondLookError as exc:
            raise ModelError(f"{self.path.name}: {exc}") from exc

    def run(
        self, crops: list[np.ndarray], outputs: tuple[str, ...] | None = None
    ) -> dict[str, np.ndarray]:
        """The named outputs (default: all of ``scores``, ``special``, ``embedding``) for a
        batch of crops."""
        names = list(outputs or self.output_names)
        feed = {self.input_name: preprocess(crops)}
        if self.takes_pixels:
            feed["pixels"] = back_features(crops)
        values = self.session.run(names, feed)
        return dict(zip(names, values, strict=True))

    def identify(self, crops: list[np.ndarray]) -> list[Identification]:
        """One :class:`Identification` per canonical crop (empty list for no crops)."""
        if not crops:
            return []
        out = self.run(crops, ("scores", "special", "embedding"))
        likeness = None
        if self.back_template is not None:
            # Only crops that could read face down need the (small) pixel comparison.
            likeness = np.full(len(crops), np.inf, np.float32)
            back = out["special"][:, 0]
            maybe = np.flatnonzero((back >= self.min_back) & (back > out["scores"].max(axis=1)))
            if maybe.size:
                feats = back_features([crops[i] for i in maybe])
                likeness[maybe] = feats @ self.back_template
        found = postprocess(
            out["scores"],
            out["special"],
            self.labels,
            self.min_score,
            self.min_margin,
            self.min_back,
            likeness,
            self.min_likeness,
            SHORTLIST if self.second_looker else 0,
            VERIFY_MARGIN if self.second_looker else 0.0,
        )
        return self._learnt_backs(crops, out, found) if self._backs else found

    def second_look(
        self, frame: np.ndarray, quad_px: np.ndarray, ident: Identification
    ) -> Identification:
        """``ident``, or when it is unsure, the card a second look at more of ``frame``'s
        pixels names where ``quad_px`` (TL, TR, BR, BL) outlines it (:mod:`vision.verify`).

        Such a card's confidence and margin are the look's own: a template score and its
        lead, or inliers / (inliers + the bar) and that less the runner-up's share."""
        if self.second_looker is None or not ident.candidates:
            return ident
        verdict = self.second_looker.look(frame, quad_px, ident.candidates)
        if verdict.card is None:
            return ident
        return Identification(verdict.card, verdict.confidence, verdict.margin, second_look=True)

    def identify_at(
        self, frame: np.ndarray, quads_px: Sequence[np.ndarray]
    ) -> list[Identification]:
        """The cards outlined by ``quads_px`` (TL, TR, BR, BL, pixels) in ``frame``: the
        embedder on their canonical crops, then a second look at those it is unsure of."""
        crops = [warp_card(frame, q, self.input_size) for q in quads_px]
        found = self.identify(crops)
        return [self.second_look(frame, q, i) for q, i in zip(quads_px, found, strict=True)]

    def learn_back(self, image: np.ndarray) -> None:
        """Learn a card back from one image of it, from now on read as face down.

        For the tracker: when the table says a face-down card lies at a location, pass
        the crop the scanner cut there (any size of BGR card image: a photo works too).
        The back's embedding and pixel layout join a small table beside the model's own
        back. A crop then reads face down when it is nearer that back than any card and
        than bare table, clears a score bar that nine in ten simulated captures of the
        image clear (light, glare, blur, a slightly wrong outline), and its pixels are
        likelier the back's than any simulated bare table, other game's card or object
        (so learning never turns those face down). Each call adds one view: call it for
        every face-down card the table confirms. About a second; readers in other
        threads see the old table or the new one, never half of it.
        """
        back = _learn_back(self, cv2.resize(image, self.input_size, interpolation=cv2.INTER_AREA))
        self._backs = (*self._backs, back)

    def query_vectors(self, crops: list[np.ndarray], embedding: np.ndarray) -> np.ndarray:
        """The vectors the head compares with its prototypes (see :mod:`vision.enroll`)."""
        a = self.pixel_weight
        if a <= 0:
            return embedding
        return np.hstack([np.sqrt(1 - a) * embedding, np.sqrt(a) * back_features(crops)])

    def _learnt_backs(
        self, crops: list[np.ndarray], out: dict[str, np.ndarray], found: list[Identification]
    ) -> list[Identification]:
        query = self.query_vectors(crops, out["embedding"])
        best_card = out["scores"].max(axis=1)
        null = out["special"][:, 1] if out["special"].shape[1] > 1 else np.full(len(crops), -1.0)
        result = list(found)
        for b in self._backs:
            score = query @ b.vector
            maybe = np.flatnonzero((score >= b.min_score) & (score > best_card) & (score > null))
            if not maybe.size:
                continue
            looks = back_features([crops[i] for i in maybe]) @ b.template >= b.min_likeness
            for i in maybe[looks]:
                result[i] = Identification(None, float(score[i]), 0.0, face_down=True)
        return result


@dataclass(frozen=True, slots=True)
class LearntBack:
    """A card back learnt at run time: its head vector, pixel template and their bars."""

    vector: np.ndarray
    template: np.ndarray
    min_score: float
    min_likeness: float


def _learn_back(classifier: CardClassifier, crop: np.ndarray) -> LearntBack:
    """A back's vector, template and bars from simulated captures of ``crop``: nine in ten
    captures clear the score bar (as enrolment sets it for a ``back.jpg``), and the pixel
    likeness bar lies above every simulated bare table, other game's card and object, so
    a back learnt in the middle of a game never turns those into face-down cards."""
    rng = random.Random(11)
    shots = [crop] + [capture(crop, rng) for _ in range(BAR_CAPTURES)]
    emb = classifier.run(shots, ("embedding",))["embedding"]
    query = classifier.query_vectors(shots, emb)
    vector = query[0] / (np.linalg.norm(query[0]) + 1e-8)
    template = back_features([crop])[0]
    others = back_features(null_crops(seed=12, per_kind=60)) @ template
    return LearntBack(
        vector.astype(np.float32),
        template,
        round(float(np.percentile(query[1:] @ vector, 10)), 3),
        round(float(others.max()) + 0.02, 3),
    )
