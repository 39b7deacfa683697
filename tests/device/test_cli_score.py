"""``companion score``: the contract's input and ``--json`` output, the scorepad text,
the extensions, and exit status 2 with one clear line for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from device.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONTRACT_KEYS = {"name", "cards_core", "cards_bonus", "fleet", "helium", "sovereignty",
                 "influence", "excess_cards", "total", "choices"}

# The input example of the contract, verbatim in content (Ann declares a choice for a
# Razor Designer she does not hold; it is checked and left out).
CONTRACT_GAME: dict[str, Any] = {
    "players": [
        {"name": "Ann", "house": "mars", "helium": 6, "influence": 9, "fleet": 0,
         "sovereign": True, "hand": ["judge", "holiday", "boneriders"],
         "choices": {"holiday": {"color": "blue"}, "razor-designer": {"name": "darrow"}}},
        {"name": "Au Toma", "automa": {"level": 2, "parity": "even"},
         "helium": 4, "influence": 4, "fleet": 10, "sovereign": False, "hand": ["eo", "sevro"]},
    ],
    "neutral_influence": 3,
    "locations": {"jupiter": ["diplomat", "modjob"], "mars": [], "luna": [], "institute": []},
    "banished": ["virga"],
}


def write(tmp_path: Path, game: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(game if isinstance(game, str) else json.dumps(game))
    return str(path)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["score", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_contract_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, write(tmp_path, CONTRACT_GAME))
    assert set(out) == {"players", "winners"}
    ann, automa = out["players"]
    assert set(ann) == CONTRACT_KEYS and set(automa) == CONTRACT_KEYS
    # Ann: Judge 10 + Holiday 15 + Boneriders 15 = 40; Judge 3×3 + Boneriders (a Gray) 15;
    # Helium 18, Sovereign 10, Influence 9 (top, neutral 3 third) → 36. Total 128.
    assert (ann["cards_core"], ann["cards_bonus"], ann["total"]) == (40, 24, 128)
    assert ann["choices"] == {"holiday": {"color": "blue"}}
    # Au Toma: 70; Eo 10 even (6) + Sevro 15 odd (3); Fleet 43, Helium 12, Influence 4 → 8.
    assert (automa["cards_core"], automa["cards_bonus"], automa["total"]) == (70, 9, 142)
    assert out["winners"] == ["Au Toma"]


@pytest.mark.parametrize(("name", "totals", "winners"), [
    ("two-player.json", [364, 281], ["Ann"]),
    ("solo-au-toma.json", [255, 267], ["Au Toma"]),
    ("four-player.json", [272, 220, 185, 237], ["Ann"]),
])
def test_examples(name: str, totals: list[int], winners: list[str],
                  capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, str(EXAMPLES / name))
    assert [p["total"] for p in out["players"]] == totals
    assert out["winners"] == winners
    assert all(set(p) >= CONTRACT_KEYS for p in out["players"])
    for p in out["players"]:
        rows = ("cards_core", "cards_bonus", "fleet", "helium", "sovereignty", "influence",
                "excess_cards")
        assert sum(p[k] for k in rows) + p.get("end_of_game", 0) == p["total"]


def test_human_scorepad(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "four-player.json")]) == 0
    text = capsys.readouterr().out
    for row in ("End-of-game abilities", "Character cards: core", "Character cards: bonuses",
                "Fleet", "Helium", "Sovereign", "Influence", "Excess cards", "Total"):
        assert row in text
    total_line = next(line for line in text.splitlines() if line.startswith("Total"))
    assert total_line.split()[1:] == ["272", "220", "185", "237"]
    assert "Winner: Ann" in text
    assert "Gravboot Cobbler takes the name Darrow (picked)" in text
    assert "Ugly Dan also counts as green (declared)" in text


def test_human_output_names_the_setting_that_decided(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "solo-au-toma.json")]) == 0
    text = capsys.readouterr().out
    assert "neutral_influence_in_conditions=False" in text


def test_json_stays_exactly_the_contract_unless_details_are_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    plain = run_json(capsys, str(EXAMPLES / "solo-au-toma.json"))
    assert set(plain) == {"players", "winners"}
    assert all(set(p) == CONTRACT_KEYS for p in plain["players"])
    rich = run_json(capsys, str(EXAMPLES / "solo-au-toma.json"), "--details")
    you = rich["players"][0]
    assert you["rulings"] == [{"setting": "neutral_influence_in_conditions", "value": False,
                               "difference": 15}]
    assert any("Administrator: +15" in line for line in you["lines"]["cards_bonus"])


def test_ruling_flag(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, str(EXAMPLES / "solo-au-toma.json"),
                   "--ruling", "neutral_influence_in_conditions=true")
    assert out["players"][0]["total"] == 255 - 15


def test_resolve_uses_the_deck_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, str(EXAMPLES / "resolve.json"), "--resolve")
    assert out["resolved"][0] == "Justice: gain Octavia from Luna"  # Cy plays first
    assert out["resolved"][-1].startswith("House Ceres: banish")
    # Cy's Hypnotist drew Orion first, so Hacker sees Virga (ruling 10, which it says).
    hacker = next(line for line in out["resolved"] if line.startswith("Hacker"))
    assert hacker.endswith("(Virga)") and "hacker_sees_deck_as_left=True" in hacker
    ann = out["players"][0]
    assert ann["end_of_game"] == 10


def test_resolve_without_a_deck_says_what_is_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = json.loads((EXAMPLES / "resolve.json").read_text())
    del game["deck"]
    assert main(["score", write(tmp_path, game), "--resolve"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Hypnotist reads the deck" in err[0]


def test_hacker_extension_scores_the_revealed_card(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = {"players": [{"name": "A", "helium": 0, "influence": 0, "fleet": 0,
                         "sovereign": False, "hand": ["hacker"], "hacker": "quicksilver"}]}
    out = run_json(capsys, write(tmp_path, game))
    assert out["players"][0]["end_of_game"] == 40
    assert out["players"][0]["total"] == 55


def test_face_down_location_extension(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = {"players": [{"name": "A", "helium": 0, "influence": 0, "fleet": 0,
                         "sovereign": False, "hand": ["firewall-expert"]}],
            "locations": {"jupiter": ["eo"], "mars": ["ceo"], "luna": ["aja"],
                          "institute": ["judge", {"card": "nero", "face_down": True}]}}
    assert run_json(capsys, write(tmp_path, game))["players"][0]["cards_bonus"] == 22


def _player(**changes: Any) -> dict[str, Any]:
    base = {"name": "A", "helium": 1, "influence": 1, "fleet": 1, "sovereign": False,
            "hand": ["eo"]}
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


BAD = {
    "unknown id": ({"players": [_player(hand=["nobody"])]}, "unknown card id \"nobody\""),
    "hand and location": ({"players": [_player()], "locations": {"mars": ["eo"]}},
                          "card eo is in the hand of A and Mars"),
    "hand and banished": ({"players": [_player()], "banished": ["eo"]},
                          "card eo is in the hand of A and the banished pile"),
    "two hands": ({"players": [_player(), _player(name="B")]},
                  "card eo is in the hand of A and the hand of B"),
    "twice in a hand": ({"players": [_player(hand=["eo", "eo"])]}, "card eo is twice in"),
    "negative helium": ({"players": [_player(helium=-1)]},
                        "helium must be a whole number, 0 or more, not -1"),
    "negative influence": ({"players": [_player(influence=-2)]},
                           "influence must be a whole number, 0 or more, not -2"),
    "fleet over 10": ({"players": [_player(fleet=11)]}, "fleet is 11"),
    "influence over 10": ({"players": [_player(influence=11)]}, "11 influence"),
    "missing field": ({"players": [_player(fleet=None)]}, "missing the required field 'fleet'"),
    "unknown house": ({"players": [_player(house="venus")]}, "unknown house 'venus'"),
    "name for a gray": ({"players": [_player(hand=["trigg"],
                                             choices={"trigg": {"name": "darrow"}})]},
                        "only Oranges take a name"),
    "gray as extra": ({"players": [_player(hand=["trigg"], choices={"trigg": {"color": "gray"}})]},
                      "must differ from gray"),
    "unknown color": ({"players": [_player(hand=["trigg"], choices={"trigg": {"color": "teal"}})]},
                      "unknown color 'teal'"),
    "no players": ({"players": []}, "\"players\" must be a non-empty list"),
    "two sovereigns": ({"players": [_player(sovereign=True),
                                    _player(name="B", hand=["aja"], sovereign=True)]},
                       "more than one player holds the Sovereign"),
    "bad location": ({"players": [_player()], "locations": {"venus": []}},
                     "unknown location 'venus'"),
    "typo field": ({"players": [_player(hands=["aja"])]}, "unknown field 'hands'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_exits_2_with_one_line(case: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    game, message = BAD[case]
    assert main(["score", write(tmp_path, game)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == ""
    assert len(lines) == 1 and lines[0].startswith("companion score: ")
    assert message in lines[0]


def test_malformed_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", write(tmp_path, "{\"players\": [")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not valid JSON" in err[0]


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(tmp_path / "absent.json")]) == 2
    assert "absent.json does not exist" in capsys.readouterr().err


def test_unknown_ruling_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "two-player.json"), "--ruling", "nope=true"]) == 2
    assert "unknown ruling 'nope'" in capsys.readouterr().err


def test_a_ruling_read_only_during_play_is_refused_by_score(
        capsys: pytest.CaptureFixture[str]) -> None:
    # self_banish_needs_gain decides whether a card is banished as it is deployed: by the
    # final table that has happened, so accepting it would print a score it never touched.
    game = str(EXAMPLES / "two-player.json")
    assert main(["score", game, "--ruling", "self_banish_needs_gain=false"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert captured.out == "" and len(err) == 1
    assert "ruling self_banish_needs_gain is read during play and cannot change a final " \
           "score (score takes: neutral_influence_in_conditions, " in err[0]
    assert err[0].endswith("hacker_sees_deck_as_left)")
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    settings = capsys.readouterr().out.split("Settings (--ruling)")[1]
    assert "gray_double_count=false" in settings and "self_banish_needs_gain" not in settings
