"""The card catalogue: ids follow the contract, and the facts match the printed cards."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engine import cards
from engine.cards import CARDS, Color, card_id
from engine.errors import UnknownCardError

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "cards.json"


def test_catalogue_has_112_cards_seven_per_caste_and_21_golds() -> None:
    counts = Counter(card.color for card in CARDS.values())
    assert len(CARDS) == 112
    assert counts.pop(Color.GOLD) == 21
    assert set(counts.values()) == {7}
    assert len(counts) == 13


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Dr. Virany", "dr-virany"),
        ("4D Painter", "4d-painter"),
        ("Pax au Telemanus", "pax-au-telemanus"),
        ("The Jackal", "the-jackal"),
        ("  --Sun-Hwa!! ", "sun-hwa"),
    ],
)
def test_card_id_slug_rule(name: str, expected: str) -> None:
    assert card_id(name) == expected


def test_every_card_has_summaries_for_its_abilities() -> None:
    for card in CARDS.values():
        for text in (card.deploy, card.block, card.end_of_game, *card.bonuses):
            assert text is None or (text.strip() and "TODO" not in text), card.id


def test_unknown_id_is_a_clear_value_error() -> None:
    with pytest.raises(UnknownCardError, match="unknown card id 'nobody'"):
        cards.get("nobody")
    assert issubclass(UnknownCardError, ValueError)


def test_lookup_by_printed_name() -> None:
    assert cards.by_name("the jackal").id == "the-jackal"
    assert cards.by_name("Stock broker").core == 10


@pytest.mark.skipif(not REFERENCE.exists(), reason="../shared/reference/cards.json is absent")
def test_facts_match_the_reference_list() -> None:
    reference = {c["id"]: c for c in json.loads(REFERENCE.read_text())["cards"]}
    assert set(reference) == set(CARDS)
    for cid, ref in reference.items():
        card = CARDS[cid]
        assert (card.name, card.color.value, card.core, card.role) == (
            ref["name"], ref["color"], ref["core_value"], ref["role"],
        ), cid
        assert (card.deploy is None) == (ref["deploy"] is None), cid
        assert (card.block is None) == (ref["block"] is None), cid
        assert (card.end_of_game is None) == (ref["end_of_game"] is None), cid
        assert len(card.bonuses) == len(ref["bonuses"]), cid
