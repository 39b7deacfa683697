"""The model card states the thresholds the committed model really uses."""

from __future__ import annotations

import re

from vision.model_card import card_path


def test_open_set_section_matches_the_model(classifier) -> None:
    text = card_path().read_text()
    section = text[text.index("## Open set") : text.index("## Training data")]
    bold = re.findall(r"\*\*([0-9.]+)\*\*", section)
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
