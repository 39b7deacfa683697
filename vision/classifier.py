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

import numpy as np

MODEL_NAME = "card_embedder_2026nov"
FACE_DOWN = "face_down"


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
    """BGR uint8 crops (H, W, 3) → float32 NCHW, scaled as in training."""
    batch = np.stack(crops).astype(np.float32)
    return np.ascontiguousarray(((batch / 255.0 - 0.5) / 0.25).transpose(0, 3, 1, 2))


def postprocess(
    scores: np.ndarray,
    special: np.ndarray,
    labels: tuple[str, ...],
    min_score: float,
    min_margin: float,
    min_back: float = 0.8,
) -> list[Identification]:
    """Pick the best label per row; None below the score or margin thresholds."""
    out = []
    for row, back in zip(scores, special, strict=True):
        order = np.argsort(row)[::-1]
        best = float(row[order[0]])
        margin = best - float(row[order[1]]) if len(order) > 1 else best
        # A card back: its prototypes beat every card and clear their own bar (plain
        # cards from other games come close to a back, so that bar is calibrated).
        if back.size and float(back.max()) > best and float(back.max()) >= min_back:
            out.append(Identification(None, float(back.max()), margin, face_down=True))
        elif best >= min_score and margin >= min_margin:
            out.append(Identification(labels[order[0]], best, margin))
        else:
            out.append(Identification(None, best, margin))
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
        self.input_name = inp.name
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
        self.metadata = dict(meta)

    def run(self, crops: list[np.ndarray]) -> dict[str, np.ndarray]:
        """All outputs (``scores``, ``special``, ``embedding``) for a batch of crops."""
        names = [o.name for o in self.session.get_outputs()]
        values = self.session.run(names, {self.input_name: preprocess(crops)})
        return dict(zip(names, values, strict=True))

    def identify(self, crops: list[np.ndarray]) -> list[Identification]:
        """One :class:`Identification` per canonical crop (empty list for no crops)."""
        if not crops:
            return []
        out = self.run(crops)
        return postprocess(
            out["scores"],
            out["special"],
            self.labels,
            self.min_score,
            self.min_margin,
            self.min_back,
        )
