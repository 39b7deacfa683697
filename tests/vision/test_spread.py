"""Scoring by camera: every face-up card in the play area, apart or in a cascade."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from vision import spread
from vision.crop import card_image
from vision.enroll import enroll
from vision.head import save
from vision.keypoints import REF_SIZE
from vision.synth import cards
from vision.synth.scene import SceneOptions, render_spread


def _near(quad: np.ndarray, quads: list[np.ndarray], tol: float) -> bool:
    return any(np.abs(quad.mean(axis=0) - q.mean(axis=0)).max() < tol for q in quads)


def test_cards_laid_apart_are_all_found_and_named(classifier) -> None:
    ids = ["aja", "sevro", "eo", "judge", "holiday", "virga"]
    for seed in range(3):
        frame, cal, placed = render_spread(
            ids, random.Random(seed), "row", SceneOptions(capture=False)
        )
        found = spread.find_cards(frame, cal, classifier)
        assert len(found) == len(ids)
        named = {card for card, _conf, _quad in found}
        assert named <= {*ids, None} and len(named - {None}) >= len(ids) - 1
        for card, _conf, quad in found:
            if card is not None:
                truth = next(q for c, q, _ in placed if c == card)
                assert _near(quad, [truth], 15)


def test_a_cascade_counts_its_cards_and_names_the_one_on_top(classifier) -> None:
    ids = ["aja", "sevro", "eo", "judge"]
    frame, cal, _placed = render_spread(
        ids, random.Random(7), "cascade", SceneOptions(capture=False)
    )
    found = spread.find_cards(frame, cal, classifier)
    assert abs(len(found) - len(ids)) <= 1
    named = [card for card, _conf, _quad in found if card is not None]
    assert named == ["judge"]


@pytest.mark.parametrize("kind", ["planks", "playmat"])
def test_a_fixed_camera_finds_every_card_laid_on_a_patterned_table(classifier, kind) -> None:
    """The bare table learnt at calibration: every card laid on it is outlined where it
    lies, and nothing else is."""
    from vision.scanner import TableScanner

    ids = ["aja", "sevro", "eo", "judge", "holiday"]
    options = SceneOptions(table=kind, capture=False)
    for seed in range(2):
        frame, cal, placed = render_spread(ids, random.Random(seed), "row", options)
        bare, _, _ = render_spread([], random.Random(seed), "row", options)
        scanner = TableScanner(classifier=classifier, calibration=cal)
        assert scanner.learn_table(bare) == []
        assert scanner.view is not None and scanner.reference is not None
        table = (scanner.view, scanner.reference)
        found = [cal.to_pixels(q) for q, _ in spread.outlines(frame, cal, table)]
        truths = [q for _c, q, _v in placed]
        assert len(found) == len(ids)
        assert all(_near(quad, truths, 15) for quad in found)


def test_a_card_the_embedder_is_unsure_of_gets_the_second_look(
    classifier, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Glare or a new printing leave the embedder unsure: the hand reader asks the second
    look (templates, keypoints) at the card's outline before leaving it unnamed. The
    printing here is the renderer's own, enrolled as a player enrols theirs, so the
    second look has its references (the default model's are the printed cards')."""
    from vision.classifier import CardClassifier, Identification

    ids = ["aja", "sevro", "eo"]
    images = {c: card_image(cards.card_face(c, "classic"), REF_SIZE) for c in ids}
    save(enroll(classifier, {c: [image] for c, image in images.items()}), tmp_path / "m.onnx")
    mine = CardClassifier(tmp_path / "m.onnx")
    options = SceneOptions(capture=False, style="classic")
    frame, cal, _placed = render_spread(ids, random.Random(3), "row", options)

    def unsure(crops: list[np.ndarray]) -> list[Identification]:
        return [Identification(None, 0.5, 0.0, candidates=tuple(ids)) for _ in crops]

    monkeypatch.setattr(mine, "identify", unsure)
    found = spread.find_cards(frame, cal, mine)
    named = {card for card, _conf, _quad in found}
    assert named <= {*ids, None} and len(named - {None}) >= 2
