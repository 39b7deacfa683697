"""Training further from a committed segmenter (the train extra: torch)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="needs the train extra: pip install -e '.[train]'")
ort = pytest.importorskip("onnxruntime")

from vision.train_segmenter import network, start_from  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"
SEGMENTER = MODELS / "table_segmenter_2026nov.onnx"


def test_a_network_started_from_the_committed_model_answers_as_it_does() -> None:
    """The export folded each batch norm into its convolution; unfolded into a fresh
    network, the same view gets the same parts and edges."""
    net = network()
    start_from(net, SEGMENTER)
    view = np.random.default_rng(0).uniform(0, 255, (1, 3, 120, 160)).astype(np.float32)
    parts, edges = ort.InferenceSession(str(SEGMENTER)).run(None, {"view": view})
    with torch.no_grad():
        out = net.eval()(torch.from_numpy(view))
    assert np.abs(torch.softmax(out[:, :4], 1).numpy() - parts).max() < 1e-4
    assert np.abs(torch.sigmoid(out[:, 4]).numpy() - edges).max() < 1e-4


def test_another_networks_weights_are_refused() -> None:
    with pytest.raises(ValueError, match="does not hold this network's weights"):
        start_from(network(), MODELS / "card_embedder_2026nov.onnx")
