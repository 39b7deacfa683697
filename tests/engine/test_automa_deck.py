"""Her deck file: the shipped one is valid and matches the reference facts; a corrupted
one is refused with a message naming the card and the field."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from engine.automa import default_deck
from engine.automa_state import AutomaCard, AutomaDeckError, check_deck, parse_deck, to_rows
from engine.errors import CatalogueError

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"


def shipped() -> dict[str, Any]:
    text = resources.files("engine").joinpath("automa_deck.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def corrupt(change: Any) -> str:
    """The shipped file's text after ``change(data)``."""
    data = shipped()
    change(data)
    return json.dumps(data)


def test_shipped_deck_has_22_cards_in_id_order() -> None:
    deck = default_deck()
    assert [c.id for c in deck] == list(range(1, 23))
    assert deck[4] == AutomaCard(5, "B", "luna", "right", "bonus")
    assert to_rows(deck) == shipped()["cards"]


def test_shipped_deck_matches_the_reference_transcription() -> None:
    path = REFERENCE / "automa_cards.json"
    if not path.exists():
        pytest.skip(f"reference data not present at {path}")
    facts = json.loads(path.read_text(encoding="utf-8"))["cards"]
    wanted = [[c["id"], c["deploy"], c["gain"], c["tiebreaker"], c["extra"]] for c in facts]
    assert to_rows(default_deck()) == wanted


def set_cell(card: int, column: int, value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        data["cards"][card - 1][column] = value
    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (set_cell(5, 2, "lunar"), "card 5: gain is 'lunar'; it must be one of jupiter, mars, "
                                  "luna, institute, A, B, C, D"),
        (set_cell(9, 1, "E"), "card 9: deploy is 'E'"),
        (set_cell(3, 3, "up"), "card 3: tiebreaker is 'up'; it must be one of left, right"),
        (set_cell(12, 4, "steal"), "card 12: extra is 'steal'; it must be one of none, bonus"),
        (set_cell(7, 2, 3), "card 7: gain must be a string, not 3"),
        (set_cell(6, 0, 5), "card 5 appears 2 times"),
        (set_cell(22, 0, 23), "card 23: id must be 1 to 22"),
        (set_cell(2, 0, "2"), 'row 2: id must be a whole number, not "2"'),
        (lambda d: d["cards"].pop(), "the deck has 21 cards; missing id 22"),
        (lambda d: d["cards"].__setitem__(0, [1, "mars", "A"]), "row 1 must be a list of 5"),
        (lambda d: d.__setitem__("columns", ["id", "gain", "deploy", "tiebreaker", "extra"]),
         '"columns" must be'),
        (lambda d: d.__setitem__("format", "v2"), '"format" must be "au-toma-deck 1"'),
        (lambda d: d.__setitem__("card", []), "unknown key 'card'"),
        (lambda d: d.__setitem__("cards", {}), '"cards" must be a list'),
    ],
)
def test_corrupted_deck_is_refused_with_a_clear_message(change: Any, message: str) -> None:
    with pytest.raises(AutomaDeckError) as err:
        parse_deck(corrupt(change), "my_deck.json")
    assert str(err.value).startswith("my_deck.json: ")
    assert message in str(err.value)


def test_broken_json_is_refused() -> None:
    with pytest.raises(AutomaDeckError, match=r"automa_deck.json: not valid JSON \(.*line 1"):
        parse_deck('{"format": ')
    with pytest.raises(CatalogueError, match="one JSON object"):
        parse_deck("[1, 2]")


def test_a_corrected_copy_is_accepted() -> None:
    def fix_card_5(data: dict[str, Any]) -> None:
        data["cards"][4] = [5, "B", "luna", "left", "bonus"]

    deck = parse_deck(corrupt(fix_card_5))
    assert deck[4].tiebreaker == "left" and deck[4].arrow == -1
    assert deck[5].arrow == 1


def test_rows_may_come_in_any_order() -> None:
    data = shipped()
    data["cards"].reverse()
    assert parse_deck(json.dumps(data)) == default_deck()


def test_check_deck_validates_cards_carried_by_a_setup() -> None:
    cards = list(default_deck())
    cards[0] = AutomaCard(1, "venus", "A", "left", "bonus")
    with pytest.raises(AutomaDeckError, match="card 1: deploy is 'venus'"):
        check_deck(cards)
