"""Shared fixtures for the vision tests: the committed model, small generated sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.classifier import CardClassifier

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"


@pytest.fixture(scope="session")
def classifier() -> CardClassifier:
    """The committed default classifier, one thread (as on the Pi)."""
    return CardClassifier()


@pytest.fixture(scope="session")
def photo_dir() -> Path:
    """The printed-card photos beside the project; skips when they are absent."""
    folder = REFERENCE / "card-photos"
    if not (folder / "aja.jpg").is_file():
        pytest.skip(f"printed-card photos not found in {folder}")
    return folder
