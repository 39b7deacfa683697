"""The classic baseline works as a baseline: it names clean references and refuses noise."""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.baseline import ORB_SIZE, HashMatcher, OrbMatcher, phash
from vision.synth import cards
from vision.synth.crops import capture

IDS = ("aja", "sevro", "eo", "judge", "holiday", "virga")


def refs() -> dict[str, np.ndarray]:
    return {c: cv2.resize(cards.card_face(c, "classic"), ORB_SIZE) for c in IDS}


def test_hash_is_64_bits_and_stable() -> None:
    img = cards.card_face("aja", "classic")
    assert phash(img).shape == (64,) and np.array_equal(phash(img), phash(img.copy()))


def test_both_name_clean_captures_of_their_references() -> None:
    rng = random.Random(3)
    crops = {c: capture(cards.card_face(c, "classic"), rng, clean=True) for c in IDS}
    for matcher in (OrbMatcher(refs()), HashMatcher(refs())):
        named = [matcher.identify(cv2.resize(crops[c], ORB_SIZE)) for c in IDS]
        assert sum(n == c for n, c in zip(named, IDS, strict=True)) >= 5


def test_orb_refuses_a_blank_image() -> None:
    assert OrbMatcher(refs()).identify(np.full((176, 128, 3), 90, np.uint8)) is None
