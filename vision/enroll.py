"""Prototype heads: turn embeddings of reference images into a classifier, without torch.

A head is appended to the embedder graph with the ``onnx`` package: ``scores`` is the
best cosine similarity over each label's prototypes (one per reference image, padded by
repetition), ``special`` the similarity to the card back. Enrolment reuses a model's
embedder with new prototypes, so a user adapts to their camera, light and sleeves, or to
card designs the embedder never saw, in the time it takes to embed their photos.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.classifier import FACE_DOWN, CardClassifier, ModelError, labels_path

HEAD = "head/"
VIEWS = 8  # simulated captures per enrolment image, each kept as a prototype
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
BACK_NAMES = ("back", FACE_DOWN, "face-down")
_LABEL = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def strip_head(model: onnx.ModelProto) -> onnx.ModelProto:
    """The embedder part of a model: every node, weight and output not in the head."""
    graph = model.graph
    nodes = [n for n in graph.node if not n.name.startswith(HEAD)]
    inits = [i for i in graph.initializer if not i.name.startswith(HEAD)]
    outputs = [o for o in graph.output if o.name == "embedding"]
    new_graph = helper.make_graph(nodes, graph.name, list(graph.input), outputs, inits)
    out = helper.make_model(new_graph, opset_imports=list(model.opset_import))
    out.ir_version = model.ir_version
    return out


def _stack(prototypes: Sequence[np.ndarray]) -> np.ndarray:
    """(N labels) lists of (k_i, D) vectors → (D, N*K) matrix, K = max k_i."""
    k = max(len(p) for p in prototypes)
    rows = [np.concatenate([p] * (k // len(p) + 1))[:k] for p in prototypes]
    mats = np.stack(rows).astype(np.float32)  # (N, K, D)
    mats /= np.linalg.norm(mats, axis=2, keepdims=True) + 1e-8
    return mats.reshape(-1, mats.shape[2]).T.copy(), k  # type: ignore[return-value]


def attach_head(
    embedder: onnx.ModelProto,
    labels: Sequence[str],
    prototypes: Sequence[np.ndarray],
    back: np.ndarray | None,
    metadata: Mapping[str, str],
) -> onnx.ModelProto:
    """A complete classifier: ``embedder`` plus a prototype head for ``labels``."""
    if len(labels) != len(prototypes) or not labels:
        raise ValueError("need one non-empty prototype list per label")
    matrix, k = _stack(prototypes)
    dim = matrix.shape[0]
    backs = np.zeros((1, dim), np.float32) if back is None else back.reshape(-1, dim)
    backs = backs / (np.linalg.norm(backs, axis=1, keepdims=True) + 1e-8)
    model = strip_head(embedder)
    g = model.graph
    g.initializer.extend(
        [
            numpy_helper.from_array(matrix, HEAD + "prototypes"),
            numpy_helper.from_array(np.array([-1, len(labels), k], np.int64), HEAD + "shape"),
            numpy_helper.from_array(backs.T.astype(np.float32).copy(), HEAD + "back"),
        ]
    )
    g.node.extend(
        [
            helper.make_node(
                "MatMul", ["embedding", HEAD + "prototypes"], [HEAD + "all"], name=HEAD + "matmul"
            ),
            helper.make_node(
                "Reshape", [HEAD + "all", HEAD + "shape"], [HEAD + "grouped"], name=HEAD + "reshape"
            ),
            helper.make_node(
                "ReduceMax", [HEAD + "grouped"], ["scores"], axes=[2], keepdims=0, name=HEAD + "max"
            ),
            helper.make_node(
                "MatMul", ["embedding", HEAD + "back"], [HEAD + "backs"], name=HEAD + "back_matmul"
            ),
            helper.make_node(
                "ReduceMax",
                [HEAD + "backs"],
                ["special"],
                axes=[1],
                keepdims=1,
                name=HEAD + "back_max",
            ),
        ]
    )
    g.output.insert(
        0, helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", len(labels)])
    )
    g.output.append(helper.make_tensor_value_info("special", TensorProto.FLOAT, ["batch", 1]))
    meta = {
        **metadata,
        "labels": "\n".join(labels),
        "prototypes_per_label": str(k),
        "face_down": "1" if back is not None else "0",
    }
    helper.set_model_props(model, meta)
    onnx.checker.check_model(model)
    return model


def save(model: onnx.ModelProto, path: Path) -> None:
    """Write the model and its labels text file beside it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    labels_path(path).write_text(meta["labels"] + "\n")


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
) -> onnx.ModelProto:
    """A classifier with ``base``'s embedder and one prototype per given crop.

    Each crop also yields ``views`` simulated captures of itself (light, blur, glare, a
    slightly wrong outline), each a prototype of its own: one clean photo then covers
    the ways a camera will see the card. Crops filed under a back name (``back``,
    ``face-down``) become the card-back prototype; otherwise the base model's card back
    is kept. With ``calibrate`` the open-set thresholds are fitted to the new prototypes
    (see :func:`fit_thresholds`); otherwise the base model's are kept.
    """
    labels = sorted(k for k in crops_by_label if k not in BACK_NAMES)
    if not labels:
        raise ValueError("no card images to enrol")
    protos = [
        embed_images(base, with_views(crops_by_label[k], views, seed=i))
        for i, k in enumerate(labels)
    ]
    back_crops = [c for name in BACK_NAMES for c in crops_by_label.get(name, ())]
    back = embed_images(base, with_views(back_crops, views)) if back_crops else _base_back(base)
    model = onnx.load(str(base.path))
    keep = {
        k: v
        for k, v in base.metadata.items()
        if k in ("min_score", "min_margin", "min_back", "embedder")
    }
    if calibrate:
        chosen = fit_thresholds(base, [crops_by_label[k] for k in labels], protos, seed=1)
        # Never looser than the base model: a user may enrol only some cards, and the
        # others must still come out unknown rather than as their nearest enrolled card.
        keep.update(
            {
                k: str(max(chosen[k], float(base.metadata.get(k, 0))))
                for k in ("min_score", "min_margin")
            }
        )
    return attach_head(model, labels, protos, back, {**keep, "head": note})


def with_views(crops: Sequence[np.ndarray], views: int, seed: int = 0) -> list[np.ndarray]:
    """The crops plus ``views`` simulated captures of each (seeded: enrolment repeats)."""
    from vision.synth.crops import capture

    rng = random.Random(seed)
    return [*crops, *(capture(c, rng) for c in crops for _ in range(views))]


def fit_thresholds(
    base: CardClassifier,
    crops: Sequence[Sequence[np.ndarray]],
    protos: Sequence[np.ndarray],
    views: int = 3,
    seed: int = 0,
    scenes: int = 60,
) -> dict[str, float]:
    """Open-set thresholds for new prototypes: the enrolment images put through simulated
    captures and laid in generated table scenes (cut out by the locator, hands and
    objects included) must be named right, and nothing may be named wrong more often
    than the base model allows. Seeded, so enrolment is repeatable."""
    from vision.synth.crops import NEGATIVE_KINDS, capture
    from vision.thresholds import NEGATIVE, choose_thresholds, scene_crops

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
    more, more_truth = scene_crops(faces, scenes, seed + 100, base.input_size)
    shots += more
    truth += more_truth
    emb = embed_images(base, shots)
    scores = np.stack([(emb @ p.T).max(axis=1) for p in protos], axis=1)
    if scores.shape[1] < 2:
        scores = np.concatenate([scores, np.zeros_like(scores)], axis=1)
    return choose_thresholds(scores, np.array(truth), max_false=0.001)


def _base_back(base: CardClassifier) -> np.ndarray | None:
    if base.metadata.get("face_down") != "1":
        return None
    model = onnx.load(str(base.path))
    for init in model.graph.initializer:
        if init.name == HEAD + "back":
            return numpy_helper.to_array(init).T  # (prototypes, dim)
    raise ModelError(f"{base.path.name} says it has a card back but holds none")
