"""The prototype head written into the embedder's ONNX graph, and the file it makes.

``scores`` is the best cosine similarity over each label's prototypes (one per
reference image, padded by repetition), ``special`` the similarity to the card back
and the null prototypes; :mod:`vision.enroll` chooses what goes in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.classifier import PIXEL_DIM, CardClassifier, ModelError, labels_path

HEAD = "head/"


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
    nulls: np.ndarray | None = None,
    pixel_weight: float = 0.0,
) -> onnx.ModelProto:
    """A complete classifier: ``embedder`` plus a prototype head for ``labels``.

    ``special`` holds, per image, the similarity to the card back and (given ``nulls``,
    embeddings of bare table, other games' cards and objects) to the place where the
    embedder puts everything that is no card of its own.

    With ``pixel_weight`` > 0 the model takes a second input, ``pixels`` (each crop's
    :func:`~vision.classifier.back_features`), and prototypes are :func:`describe`
    vectors: every similarity is then that blend of embedding and pixel likeness."""
    if len(labels) != len(prototypes) or not labels:
        raise ValueError("need one non-empty prototype list per label")
    matrix, k = _stack(prototypes)
    dim = matrix.shape[0]
    backs = np.zeros((1, dim), np.float32) if back is None else back.reshape(-1, dim)
    backs = backs / (np.linalg.norm(backs, axis=1, keepdims=True) + 1e-8)
    model = strip_head(embedder)
    g = model.graph
    query = _query(g, pixel_weight)
    g.initializer.extend(
        [
            numpy_helper.from_array(matrix, HEAD + "prototypes"),
            numpy_helper.from_array(np.array([-1, len(labels), k], np.int64), HEAD + "shape"),
            numpy_helper.from_array(backs.T.astype(np.float32).copy(), HEAD + "back"),
        ]
    )
    specials = [HEAD + "back_best"]
    if nulls is not None:
        unit = nulls / (np.linalg.norm(nulls, axis=1, keepdims=True) + 1e-8)
        null_init = numpy_helper.from_array(unit.T.astype(np.float32).copy(), HEAD + "null")
        g.initializer.append(null_init)
        specials.append(HEAD + "null_best")
        g.node.extend(
            [
                helper.make_node(
                    "MatMul", [query, HEAD + "null"], [HEAD + "nulls"], name=HEAD + "null_mm"
                ),
                helper.make_node(
                    "ReduceMax",
                    [HEAD + "nulls"],
                    [HEAD + "null_best"],
                    axes=[1],
                    keepdims=1,
                    name=HEAD + "null_max",
                ),
            ]
        )
    g.node.extend(
        [
            helper.make_node(
                "MatMul", [query, HEAD + "prototypes"], [HEAD + "all"], name=HEAD + "matmul"
            ),
            helper.make_node(
                "Reshape", [HEAD + "all", HEAD + "shape"], [HEAD + "grouped"], name=HEAD + "reshape"
            ),
            helper.make_node(
                "ReduceMax", [HEAD + "grouped"], ["scores"], axes=[2], keepdims=0, name=HEAD + "max"
            ),
            helper.make_node(
                "MatMul", [query, HEAD + "back"], [HEAD + "backs"], name=HEAD + "back_matmul"
            ),
            helper.make_node(
                "ReduceMax",
                [HEAD + "backs"],
                [HEAD + "back_best"],
                axes=[1],
                keepdims=1,
                name=HEAD + "back_max",
            ),
            helper.make_node("Concat", specials, ["special"], axis=1, name=HEAD + "special"),
        ]
    )
    g.output.insert(
        0, helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", len(labels)])
    )
    g.output.append(
        helper.make_tensor_value_info("special", TensorProto.FLOAT, ["batch", len(specials)])
    )
    meta = {
        **metadata,
        "labels": "\n".join(labels),
        "prototypes_per_label": str(k),
        "face_down": "1" if back is not None else "0",
        "pixel_weight": str(pixel_weight),
    }
    helper.set_model_props(model, meta)
    onnx.checker.check_model(model)
    return model


def _query(g: onnx.GraphProto, pixel_weight: float) -> str:
    """The vector the head compares with its prototypes: the embedding, or (with a pixel
    weight ``a``) the embedding scaled by √(1−a) joined to the pixel features by √a."""
    if pixel_weight <= 0:
        return "embedding"
    g.input.append(helper.make_tensor_value_info("pixels", TensorProto.FLOAT, ["batch", PIXEL_DIM]))
    g.initializer.extend(
        [
            numpy_helper.from_array(np.array(np.sqrt(1 - pixel_weight), np.float32), HEAD + "we"),
            numpy_helper.from_array(np.array(np.sqrt(pixel_weight), np.float32), HEAD + "wp"),
        ]
    )
    g.node.extend(
        [
            helper.make_node("Mul", ["embedding", HEAD + "we"], [HEAD + "e"], name=HEAD + "we"),
            helper.make_node("Mul", ["pixels", HEAD + "wp"], [HEAD + "p"], name=HEAD + "wp"),
            helper.make_node(
                "Concat", [HEAD + "e", HEAD + "p"], [HEAD + "query"], axis=1, name=HEAD + "query"
            ),
        ]
    )
    return HEAD + "query"


def save(model: onnx.ModelProto, path: Path) -> None:
    """Write the model and its labels text file beside it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    labels_path(path).write_text(meta["labels"] + "\n")


def stored_back(base: CardClassifier) -> np.ndarray | None:
    """The card-back prototypes in ``base``'s head (None when it has no back)."""
    if base.metadata.get("face_down") != "1":
        return None
    model = onnx.load(str(base.path))
    for init in model.graph.initializer:
        if init.name == HEAD + "back":
            return numpy_helper.to_array(init).T  # (prototypes, dim)
    raise ModelError(f"{base.path.name} says it has a card back but holds none")
