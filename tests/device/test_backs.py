"""The card back learnt from the table: cut from the camera, taught, kept, taught again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from device.backs import BackLearner, teach
from engine.board import Location

FRAME = np.zeros((48, 64, 3), np.uint8)


class Classifier:
    def __init__(self) -> None:
        self.backs: list[np.ndarray] = []

    def learn_back(self, image: np.ndarray) -> None:
        self.backs.append(image)


class Scanner:
    """A scanner that finds a card only at Luna."""

    def __init__(self) -> None:
        self.classifier: Any = Classifier()

    def top_card_image(self, frame: np.ndarray, location: Location) -> np.ndarray | None:
        if location is not Location.LUNA:
            return None
        crop = np.full((88, 64, 3), 7, np.uint8)
        crop[0, 0] = (1, 2, 3)
        return crop


def camera(scanner: Scanner) -> Any:
    """Runs the work at once, as the capture thread would between two scans."""
    return lambda task: task(scanner, FRAME)


def test_the_back_on_top_of_a_location_is_taught_and_kept(tmp_path: Path) -> None:
    scanner, said = Scanner(), []
    learner = BackLearner(tmp_path / "card-back.png", camera(scanner), said.append)
    learner(Location.LUNA)
    assert len(scanner.classifier.backs) == 1 and scanner.classifier.backs[0][0, 0, 2] == 3
    assert (tmp_path / "card-back.png").exists()
    assert said == ["learnt the card back from Luna"]


def test_no_card_there_teaches_nothing(tmp_path: Path) -> None:
    scanner, said = Scanner(), []
    BackLearner(tmp_path / "card-back.png", camera(scanner), said.append)(Location.MARS)
    assert scanner.classifier.backs == [] and not (tmp_path / "card-back.png").exists()
    assert said == ["Mars: no card to learn the back from"]


def test_a_kept_back_is_taught_again_at_the_next_start(tmp_path: Path) -> None:
    BackLearner(tmp_path / "card-back.png", camera(Scanner()))(Location.LUNA)
    fresh = Scanner()
    BackLearner(tmp_path / "card-back.png", camera(fresh)).restore()
    assert len(fresh.classifier.backs) == 1
    assert np.array_equal(fresh.classifier.backs[0], Scanner().top_card_image(FRAME, Location.LUNA))


def test_a_classifier_that_returns_its_successor_is_replaced() -> None:
    class Successor:
        def identify(self, crops: list[np.ndarray]) -> list[object]:
            return []

    successor = Successor()

    class Returning:
        def learn_back(self, image: np.ndarray) -> Successor:
            return successor

    scanner = Scanner()
    scanner.classifier = Returning()
    assert teach(scanner, np.zeros((88, 64, 3), np.uint8))
    assert scanner.classifier is successor


def test_a_classifier_that_cannot_learn_a_back_is_left_alone() -> None:
    scanner = Scanner()
    scanner.classifier = object()
    assert not teach(scanner, np.zeros((88, 64, 3), np.uint8))
