"""Training the table segmenter: the scenes it learns from, and training further from a
committed model (the train extra: torch)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from vision.synth import cards as synth_cards
from vision.synth.cards import FACE_DOWN
from vision.train_segmenter import _band_tops, network, start_from

MODELS = Path(__file__).resolve().parents[2] / "models"
SEGMENTER = MODELS / "table_segmenter_2026nov.onnx"


def test_banded_scenes_give_every_top_card_art_made_of_other_cards_top_bands() -> None:
    photos = synth_cards.default_photo_dir()
    layout = {"jupiter": ["aja", "sevro"], "mars": [], "luna": ["eo", FACE_DOWN]}
    faces: dict[str, np.ndarray] = {}
    _band_tops(random.Random(1), layout, "photo", faces, photos)
    assert set(faces) == {"sevro"}  # covered cards, empty places and backs keep their look
    plain = synth_cards.card_face("sevro", "photo", photos)
    h = plain.shape[0]
    assert faces["sevro"].shape == plain.shape
    assert np.array_equal(faces["sevro"][: round(h * 0.13)], plain[: round(h * 0.13)])
    assert not np.array_equal(faces["sevro"], plain)  # the art below the header is bands


@pytest.fixture
def torch():  # type: ignore[no-untyped-def]
    return pytest.importorskip("torch", reason="needs the train extra: pip install -e '.[train]'")


def test_a_network_started_from_the_committed_model_answers_as_it_does(torch) -> None:  # type: ignore[no-untyped-def]
    """The export folded each batch norm into its convolution; unfolded into a fresh
    network, the same view gets the same parts and edges."""
    import onnxruntime as ort

    net = network()
    start_from(net, SEGMENTER)
    view = np.random.default_rng(0).uniform(0, 255, (1, 3, 120, 160)).astype(np.float32)
    parts, edges = ort.InferenceSession(str(SEGMENTER)).run(None, {"view": view})
    with torch.no_grad():
        out = net.eval()(torch.from_numpy(view))
    assert np.abs(torch.softmax(out[:, :4], 1).numpy() - parts).max() < 1e-4
    assert np.abs(torch.sigmoid(out[:, 4]).numpy() - edges).max() < 1e-4


def test_another_networks_weights_are_refused(torch) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="does not hold this network's weights"):
        start_from(network(), MODELS / "card_embedder_2026nov.onnx")
