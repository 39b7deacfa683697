"""The classifier's run-time learning of a card back, and the scanner's second look."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np

from engine.cards import ALL_IDS
from vision.classifier import CardClassifier, Identification
from vision.scanner import TableScanner
from vision.synth import cards
from vision.synth.crops import NEGATIVE_KINDS, capture, loose_photo
from vision.synth.scene import SceneOptions, render


def new_back() -> np.ndarray:
    """A card back unlike the one the default model was made with."""
    back = np.full((cards.FACE_H, cards.FACE_W, 3), (40, 90, 20), np.uint8)
    for k in range(-cards.FACE_H, cards.FACE_W, 24):
        cv2.line(back, (k, 0), (k + cards.FACE_H, cards.FACE_H), (60, 160, 200), 6)
    cv2.circle(back, (cards.FACE_W // 2, cards.FACE_H // 2), 60, (230, 230, 230), 8)
    return back


def test_a_back_learnt_from_one_crop_reads_face_down() -> None:
    classifier = CardClassifier()  # its own: learning changes it
    rng = random.Random(41)
    backs = [capture(new_back(), rng) for _ in range(31)]
    others = [capture(cards.card_face(rng.choice(ALL_IDS), "classic"), rng) for _ in range(20)]
    others += [capture(cards.card_face("aja", "classic"), rng, k) for k in NEGATIVE_KINDS * 5]
    before = sum(i.face_down for i in classifier.identify(backs[1:]))
    already = [i.face_down for i in classifier.identify(others)]
    classifier.learn_back(backs[0])
    after = classifier.identify(backs[1:])
    # Simulated captures are harsh (glare, blur, a wrong outline): one crop teaches a few.
    assert sum(i.face_down for i in after) >= before + 2
    assert all(i.card is None for i in after if i.face_down)
    # Nothing else turns face down (the model's own back may match an object already).
    assert [i.face_down for i in classifier.identify(others)] == already


def test_learning_a_back_leaves_other_classifiers_alone(classifier) -> None:
    rng = random.Random(42)
    mine = CardClassifier()
    mine.learn_back(capture(new_back(), rng))
    assert mine._backs and not classifier._backs


def test_the_scanner_asks_for_a_second_look_where_no_card_was_named(classifier) -> None:
    frame, truth = render(
        {"mars": ["aja"], "luna": ["eo", "judge"]}, random.Random(43), SceneOptions(hands=())
    )
    mine = CardClassifier()
    plain = mine.identify
    asked: list[tuple[str, ...]] = []

    def unsure(crops):  # type: ignore[no-untyped-def]
        return [replace(i, card=None, candidates=("aja", "eo")) for i in plain(crops)]

    def look(frame, quad, ident):  # type: ignore[no-untyped-def]
        asked.append(ident.candidates)
        return Identification("eo", 0.9, 0.5, second_look=True)

    mine.identify = unsure  # type: ignore[method-assign]
    mine.second_look = look  # type: ignore[method-assign]
    reading = TableScanner(calibration=truth.calibration, classifier=mine).scan(frame)
    assert reading["mars"].top == "eo" and reading["luna"].top == "eo"
    assert reading["jupiter"].state == "empty" and len(asked) == 2


def test_a_named_card_is_not_looked_at_again(classifier) -> None:
    frame, truth = render({"mars": ["aja"]}, random.Random(44))
    mine = CardClassifier()
    looked = []
    mine.second_look = lambda *a: looked.append(a) or a[2]  # type: ignore[method-assign]
    reading = TableScanner(calibration=truth.calibration, classifier=mine).scan(frame)
    assert reading["mars"].top == "aja" and not looked


def test_poster_style_is_its_own_and_held_out() -> None:
    poster = cards.card_face("aja", "poster")
    assert np.abs(poster.astype(int) - cards.card_face("aja", "modern")).mean() > 30
    assert len({cards.card_face(c, "poster").tobytes() for c in ALL_IDS[:20]}) == 20
    assert "poster" not in cards.TRAIN_STYLES


def test_a_loose_photo_holds_its_card() -> None:
    photo, quad = loose_photo(
        cards.card_face("aja", "poster"), random.Random(45), [cards.card_face("eo", "poster")]
    )
    h, w = photo.shape[:2]
    assert (quad[:, 0] > -0.1 * w).all() and (quad[:, 1] > -0.1 * h).all()
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    assert 0.6 < (sides[0] + sides[2]) / (sides[1] + sides[3]) < 0.85
