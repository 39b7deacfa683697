"""Scoring by camera: the hand reader turns frames of a hand laid out into one HandSeen."""

from __future__ import annotations

import random

import numpy as np
import pytest

from device.hands import HandReader
from device.service import HandSeen
from vision.scanner import TableScanner
from vision.synth.scene import SceneOptions, render_spread

HAND = ["aja", "sevro", "eo", "judge"]


@pytest.fixture(scope="module")
def laid_out() -> tuple[np.ndarray, TableScanner]:
    """A frame of four cards laid apart, and a scanner calibrated to its camera."""
    frame, calibration, _placed = render_spread(
        HAND, random.Random(1), "row", SceneOptions(capture=False))
    return frame, TableScanner(calibration=calibration)


def reader(seat: list[int | None], scanner: TableScanner, sent: list[HandSeen]) -> HandReader:
    return HandReader(lambda: seat[0], lambda: scanner, sent.append, every=2, agree=2)


def test_a_hand_read_the_same_twice_is_handed_on_once(laid_out) -> None:  # type: ignore[no-untyped-def]
    frame, scanner = laid_out
    sent: list[HandSeen] = []
    hands = reader([0], scanner, sent)
    for k in range(12):
        hands(frame, k / 10)
    assert len(sent) == 1
    assert sent[0].player == 0 and sent[0].unnamed == 0
    assert set(sent[0].cards) == set(HAND)


def test_nothing_is_read_while_no_hand_is_wanted(laid_out) -> None:  # type: ignore[no-untyped-def]
    frame, scanner = laid_out
    sent: list[HandSeen] = []
    calls: list[int] = []
    hands = HandReader(lambda: None, lambda: scanner, sent.append, every=1, agree=1,
                       find=lambda *args: calls.append(1) or [])
    for k in range(5):
        hands(frame, k / 10)
    assert sent == [] and calls == []


def test_a_changing_reading_waits_until_it_settles() -> None:
    readings = iter([["aja"], ["aja", "eo"], ["aja"], ["aja", "eo"], ["aja", "eo"],
                     ["aja", "eo"]])

    def find(*_args: object) -> list[tuple[str | None, float, None]]:
        return [(card, 0.9, None) for card in next(readings)]

    class Calibrated:
        calibration, classifier = object(), object()

    sent: list[HandSeen] = []
    hands = HandReader(lambda: 1, Calibrated, sent.append, every=1, agree=2, find=find)
    frame = np.zeros((4, 4, 3), np.uint8)
    for k in range(6):
        hands(frame, k)
    assert [s.cards for s in sent] == [("aja", "eo")]  # once, after two reads agreed


def test_the_next_players_hand_is_read_afresh(laid_out) -> None:  # type: ignore[no-untyped-def]
    frame, scanner = laid_out
    seat: list[int | None] = [0]
    sent: list[HandSeen] = []
    hands = reader(seat, scanner, sent)
    for k in range(6):
        hands(frame, k)
    seat[0] = 1  # the same cards still lie there when Bo's turn to lay out comes
    for k in range(6):
        hands(frame, k)
    assert [s.player for s in sent] == [0, 1]
