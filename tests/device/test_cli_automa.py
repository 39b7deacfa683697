"""``companion automa resolve`` (a contract) and ``companion automa deck``."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from device.cli import main

EXAMPLE = {  # docs/automa.md's example state
    "priorities": {"A": "mars", "B": "luna", "C": "jupiter", "D": "institute"},
    "locations": {"jupiter": 2, "mars": 0, "luna": 3, "institute": 1},
    "automa": {"helium": 3, "influence": 10, "fleet": 4, "sovereign": False},
}


def write(tmp_path: Path, data: Any, name: str = "state.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def resolve_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], card: int,
                 state: Any = None, *extra: str) -> dict[str, Any]:
    args = ["automa", "resolve", "--state", write(tmp_path, state or EXAMPLE),
            "--card", str(card), "--json", *extra]
    assert main(args) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        # Worked by hand for docs/automa.md's example (see tests/engine/test_automa.py).
        (1, {"deploy": "mars", "gain": "mars", "bonus": ["helium"],
             "banish_top_of_deck": False}),
        (2, {"deploy": "jupiter", "gain": "luna", "bonus": ["sovereign", "fleet"],
             "banish_top_of_deck": False}),
        (9, {"deploy": "jupiter", "gain": "luna", "bonus": [], "banish_top_of_deck": True}),
        (13, {"deploy": "mars", "gain": "institute", "bonus": ["sovereign", "fleet"],
              "banish_top_of_deck": False}),
        (20, {"deploy": "institute", "gain": "institute", "bonus": ["fleet"],
              "banish_top_of_deck": False}),
    ],
)
def test_resolve_json_contract(card: int, expected: dict[str, Any], tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    result = resolve_json(tmp_path, capsys, card)
    assert list(result) == ["card", "deploy", "gain", "bonus", "banish_top_of_deck"]
    assert result == {"card": card, **expected}


def test_resolve_with_every_location_empty_and_no_deploy_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = {**EXAMPLE, "locations": {"jupiter": 0, "mars": 0, "luna": 0, "institute": 0}}
    # Card 16: deploy B (Luna), gain The Institute, right: wraps round to Luna.
    assert resolve_json(tmp_path, capsys, 16, state)["gain"] == "luna"


def test_resolve_speaks_the_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = {**EXAMPLE, "automa": {**EXAMPLE["automa"], "sovereign": True}}
    assert main(["automa", "resolve", "--state", write(tmp_path, state), "--card", "4"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Au Toma plays card 4",
        "Au Toma: put the top card of the deck on Luna",
        "Au Toma: take the top card of Luna, face down on top of her hand",
        "Au Toma keeps the Sovereign token",
        "Au Toma: move her ship 1 space up the Fleet Track",
    ]


def shipped_rows() -> dict[str, Any]:
    text = resources.files("engine").joinpath("automa_deck.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def test_a_corrected_deck_changes_her_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    data = shipped_rows()
    data["cards"][1] = [2, "jupiter", "A", "left", "bonus"]  # card 2's arrow turned left
    deck = write(tmp_path, data, "deck.json")
    # Gain A = Mars is empty; left now leads to Jupiter (where she deployed): Fleet.
    flipped = resolve_json(tmp_path, capsys, 2, None, "--deck", deck)
    assert (flipped["gain"], flipped["bonus"]) == ("jupiter", ["fleet"])
    monkeypatch.setenv("COMPANION_AUTOMA_DECK", deck)
    assert resolve_json(tmp_path, capsys, 2)["gain"] == "jupiter"


def test_deck_listing_and_its_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["automa", "deck"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 23 and lines[5].split() == ["5", "B", "luna", "right", "bonus"]
    assert main(["automa", "deck", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == shipped_rows()["cards"]


def test_a_corrupted_deck_file_exits_2_naming_the_card(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = shipped_rows()
    data["cards"][4][2] = "lunar"
    deck = write(tmp_path, data, "deck.json")
    assert main(["automa", "deck", "--deck", deck]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{deck}: card 5: gain is 'lunar'" in err


@pytest.mark.parametrize(
    ("state", "card", "message"),
    [
        (EXAMPLE, "23", "--card must be a card ID from 1 to 22"),
        (EXAMPLE, "two", "--card must be a card ID from 1 to 22"),
        ("{not json", "1", "is not valid JSON"),
        ([], "1", "the state must be a JSON object"),
        ({**EXAMPLE, "priorities": {"A": "mars", "B": "mars", "C": "luna", "D": "jupiter"}},
         "1", "each location holds exactly one priority card"),
        ({**EXAMPLE, "priorities": {"A": "mars"}}, "1", "give exactly A, B, C and D"),
        ({**EXAMPLE, "locations": {"jupiter": 2, "mars": -1, "luna": 0, "institute": 0}},
         "1", "locations.mars must be a whole number, 0 or more, not -1"),
        ({**EXAMPLE, "locations": {"jupiter": 2, "luna": 0, "institute": 0}},
         "1", "locations.mars must be a whole number, 0 or more, not missing"),
        ({**EXAMPLE, "automa": {"helium": 3, "influence": 11, "fleet": 4}},
         "1", "automa.influence must be a whole number, 0 to 10, not 11"),
        ({**EXAMPLE, "automa": {"helium": 3, "influence": 1, "fleet": True}},
         "1", "automa.fleet must be a whole number, 0 to 10, not True"),
        ({**EXAMPLE, "automa": {"helium": 3, "influence": 1, "fleet": 1, "sovereign": "no"}},
         "1", "automa.sovereign must be true or false"),
        ({"locations": EXAMPLE["locations"], "automa": EXAMPLE["automa"]}, "1",
         "priorities must be a JSON object, not missing"),
    ],
)
def test_bad_input_exits_2_with_one_line(state: Any, card: str, message: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, state)
    assert main(["automa", "resolve", "--state", path, "--card", card]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_missing_state_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.json")
    assert main(["automa", "resolve", "--state", missing, "--card", "1"]) == 2
    assert f"state file {missing} does not exist" in capsys.readouterr().err
