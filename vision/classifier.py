"""Identify canonical card images with the ONNX embedder + prototype head.

The model file holds the embedder and a prototype head (see :mod:`vision.enroll`): its
``scores`` output is the cosine similarity of the image to each label's closest
prototype, ``special`` the similarity to the card back. Labels live in the model's
metadata and in a ``.labels.txt`` file beside it; both are checked against the output
width at load time. Open set: below ``min_score`` or ``min_margin`` the answer is None.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

MODEL_NAME = "card_embedder_2026nov"
FACE_DOWN = "face_down"
BACK_GRID = (16, 22)  # (W, H) of the pixel comparison with the card back
PIXEL_DIM = BACK_GRID[0] * BACK_GRID[1] * 3


class ModelError(ValueError):
    """A model file that is missing, unreadable or inconsistent with its labels."""


def default_model_path() -> Path:
    """The committed default classifier (``models/`` at the project root)."""
    return Path(__file__).resolve().parents[1] / "models" / f"{MODEL_NAME}.onnx"


def labels_path(model_path: Path) -> Path:
    """The labels text file that lies beside a model file."""
    return model_path.with_suffix(".labels.txt")


@dataclass(frozen=True, slots=True)
class Identification:
    """One card image's answer: a label (None: unknown), its score and margin."""

    card: str | None
    confidence: float
    margin: float
    face_down: bool = False


def preprocess(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops (H, W, 3) → float32 NCHW, scaled as in training: (x/255 − 0.5)/0.25.

    OpenCV's blob maker does the scaling and the transpose in one pass, several times
    cheaper than numpy's three."""
    return cv2.dnn.blobFromImages(crops, 1 / 63.75, None, (127.5, 127.5, 127.5), False, False)


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
) -> list[Identification]:
    """Pick the best label per row; None below the score or margin thresholds.

    ``special`` holds the card-back score and, when the model has one, the null score
    (likeness to bare table, other games' cards, objects): the margin is taken over the
    runner-up card or the null, whichever is closer. ``likeness`` is each crop's pixel
    likeness to the card back (:func:`back_features`).
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
    named = (best >= min_score) & (margin >= min_margin)
    out = []
    for i in range(n):
        if is_back[i]:
            out.append(Identification(None, float(back[i]), float(margin[i]), face_down=True))
        elif named[i]:
            out.append(Identification(labels[best_i[i]], float(best[i]), float(margin[i])))
        else:
            out.append(Identification(None, float(best[i]), float(margin[i])))
    return out


class CardClassifier:
    """An ONNX card classifier; ``identify`` runs all crops of a frame in one call."""

    def __init__(self, model_path: Path | str | None = None, threads: int = 1) -> None:
        import onnxruntime as ort

        self.path = Path(model_path) if model_path else default_model_path()
        if not self.path.is_file():
            raise ModelError(f"model file not found: {self.path}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(
                str(self.path), opts, providers=["CPUExecutionProvider"]
            )
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
        self.metadata = dict(meta)

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
        out = self.run(crops, ("scores", "special"))
        likeness = None
        if self.back_template is not None:
            # Only crops that could read face down need the (small) pixel comparison.
            likeness = np.full(len(crops), np.inf, np.float32)
            back = out["special"][:, 0]
            maybe = np.flatnonzero((back >= self.min_back) & (back > out["scores"].max(axis=1)))
            if maybe.size:
                feats = back_features([crops[i] for i in maybe])
                likeness[maybe] = feats @ self.back_template
        return postprocess(
            out["scores"],
            out["special"],
            self.labels,
            self.min_score,
            self.min_margin,
            self.min_back,
            likeness,
            self.min_likeness,
        )
