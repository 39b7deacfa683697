"""The classic baselines work as baselines: they name clean references and refuse noise."""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.baseline import ORB_SIZE, HashMatcher, OrbMatcher, ShortlistMatcher, cut, phash
from vision.synth import cards
from vision.synth.crops import capture

IDS = ("aja", "sevro", "eo", "judge", "holiday", "virga")


def refs() -> dict[str, np.ndarray]:
    return {c: cv2.resize(cards.card_face(c, "classic"), ORB_SIZE) for c in IDS}


def clean_captures() -> dict[str, np.ndarray]:
    rng = random.Random(3)
    return {c: cv2.resize(capture(cards.card_face(c, "classic"), rng, clean=True), ORB_SIZE)
            for c in IDS}


def test_hash_is_64_bits_and_stable() -> None:
    img = cards.card_face("aja", "classic")
    assert phash(img).shape == (64,) and np.array_equal(phash(img), phash(img.copy()))


def test_every_baseline_names_clean_captures_of_its_references() -> None:
    crops = clean_captures()
    for matcher in (OrbMatcher(refs()), HashMatcher(refs()), ShortlistMatcher(refs(), k=2)):
        named = [matcher.identify(crops[c]) for c in IDS]
        assert sum(n == c for n, c in zip(named, IDS, strict=True)) >= 5, type(matcher)


def test_orb_refuses_a_blank_image() -> None:
    assert OrbMatcher(refs()).identify(np.full((176, 128, 3), 90, np.uint8)) is None


def test_orb_only_names_a_card_it_was_asked_about() -> None:
    orb, crop = OrbMatcher(refs()), clean_captures()["sevro"]
    assert orb.identify(crop, among=["sevro", "eo"]) == "sevro"
    assert orb.identify(crop, among=["eo", "judge"]) in (None, "eo", "judge")


def test_hash_lists_the_nearest_references_first() -> None:
    matcher = HashMatcher(refs())
    near = matcher.nearest(refs()["virga"], 3)
    assert len(near) == 3 and near[0] == "virga"


def test_cut_straightens_a_card_seen_at_a_slant() -> None:
    face = cv2.resize(cards.card_face("judge", "classic"), ORB_SIZE)
    corners = np.float32([[0, 0], [127, 0], [127, 175], [0, 175]])
    slanted = np.float32([[40, 30], [190, 50], [170, 260], [20, 240]])
    m = cv2.getPerspectiveTransform(corners, slanted)
    frame = cv2.warpPerspective(face, m, (240, 300))
    back = cut(frame, slanted)
    assert back.shape == (176, 128, 3)
    assert np.abs(back[8:-8, 8:-8].astype(int) - face[8:-8, 8:-8]).mean() < 12
