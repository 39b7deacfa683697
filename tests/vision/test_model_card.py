"""The model card states the thresholds the committed model really uses."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from vision import model_card
from vision.classifier import default_model_path
from vision.model_card import card_path


def test_open_set_section_matches_the_model(classifier) -> None:
    text = card_path().read_text()
    start = text.index("## Open set")
    section = text[start : text.index("\n## ", start)]
    bold = re.findall(r"\*\*(-?[0-9.]+)\*\*", section)
    meta = classifier.metadata
    assert bold == [
        meta["min_score"],
        meta["min_margin"],
        meta["min_back"],
        meta["min_back_likeness"],
    ]


def test_the_stated_file_size_is_the_committed_models() -> None:
    from vision.classifier import default_model_path

    stated = re.search(r"\(([0-9.]+) MB\)", card_path().read_text())
    assert stated is not None
    assert float(stated.group(1)) == round(default_model_path().stat().st_size / 1e6, 2)


def test_a_training_run_rewrites_its_own_sections_and_keeps_the_hand_written_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    card = tmp_path / "MODEL_CARD.md"
    card.write_text(card_path().read_text())
    monkeypatch.setattr(model_card, "card_path", lambda: card)
    args = argparse.Namespace(
        steps=7, batch=8, seed=1, fakes=2, workers=1, threads=1, int8=True,
        out=default_model_path(),
    )
    chosen = {"min_score": 0.5, "min_margin": 0.1, "accepted": 0.9, "false": 0.001}
    model_card.write_training(args, 3, chosen, minutes=1.5, cpu_minutes=2.0)
    text = card.read_text()
    assert "--steps 7 --batch 8 --seed 1 --fakes 2" in text and "took 1.5 minutes" in text
    for kept in ("## Second look", "## Honest limits", "<!-- vision-dev:start -->"):
        assert kept in text
    assert text.count("## Reproduce") == 1 and text.count("## Open set") == 1
