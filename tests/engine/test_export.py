"""A finished game as a CSV row and as BG Stats' import link."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

from engine.export import (
    BGSTATS_LINK,
    CSV_COLUMNS,
    GAME_NAME,
    SOURCE_NAME,
    bgstats_link,
    bgstats_play,
    csv_row,
)
from engine.history import GameRecord, SeatRecord

START = "2026-05-01T21:00:00+02:00"
END = "2026-05-01T21:52:30+02:00"


def three() -> GameRecord:
    return GameRecord(9, START, END, 52, (
        SeatRecord("Ann", "mars", False, 120, False, False),
        SeatRecord("Bö & Co", "diana", False, 131, True, True),
        SeatRecord("Cy", "ceres", False, 120, False, False)), ("Bö & Co",), None)


def decoded(link: str) -> dict[str, Any]:
    """The play a BG Stats link carries, read as the app would: the data parameter."""
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("bgstats", "app.bgstatsapp.com",
                                                        "/createPlay.html")
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    found: dict[str, Any] = json.loads(data)
    return found


def test_the_link_decodes_to_the_play_with_players_scores_and_winner() -> None:
    link = bgstats_link(three())
    assert link.startswith(BGSTATS_LINK) and " " not in link and "&" not in link[len(
        BGSTATS_LINK):]
    play = decoded(link)
    assert play == bgstats_play(three())
    assert play["sourceName"] == SOURCE_NAME
    assert play["game"] == {"name": GAME_NAME, "sourceGameId": "red-rising",
                            "highestWins": True, "noPoints": False}
    assert play["playDate"] == "2026-05-01 19:52:30"  # the end, in UTC
    assert play["durationMin"] == 52 and "comments" not in play
    players = [(p["name"], p["score"], p["winner"], p["startPlayer"], p["rank"], p["role"])
               for p in play["players"]]
    assert players == [("Ann", 120, False, False, 2, "House Mars"),
                       ("Bö & Co", 131, True, True, 1, "House Diana"),
                       ("Cy", 120, False, False, 2, "House Ceres")]
    assert {p["sourcePlayerId"] for p in play["players"]} == {"Ann", "Bö & Co", "Cy"}


def test_a_tie_broken_by_the_sovereign_ranks_the_holder_first() -> None:
    game = GameRecord(1, START, END, 30, (
        SeatRecord("Ann", "mars", False, 100, False, True),
        SeatRecord("Bo", "diana", False, 100, True, False),
        SeatRecord("Cy", "ceres", False, 90, False, False)), ("Bo",), None)
    assert [p["rank"] for p in bgstats_play(game)["players"]] == [2, 1, 3]


def test_a_solo_game_says_au_tomas_level_and_a_simulated_one_has_no_duration() -> None:
    game = GameRecord(4, START, START, 0, (
        SeatRecord("You", "apollo", False, 150, False, True),
        SeatRecord("Au Toma", None, True, 171, True, False)), ("Au Toma",), 3)
    play = bgstats_play(game)
    assert "durationMin" not in play
    assert play["comments"] == "Solo against Au Toma, level 3."
    assert [p["role"] for p in play["players"]] == ["House Apollo", "Au Toma, level 3"]


def test_an_unscored_seat_sends_no_score() -> None:
    game = GameRecord(4, START, END, 5, (
        SeatRecord("Ann", "mars", False, None, False, True),
        SeatRecord("Bo", None, False, None, False, False)), (), None)
    play = bgstats_play(game)
    assert all("score" not in p for p in play["players"])
    assert [p["role"] for p in play["players"]] == ["House Mars", ""]


def test_a_csv_row_has_every_column_and_every_seat() -> None:
    row = csv_row(three())
    assert len(row) == len(CSV_COLUMNS)
    named = dict(zip(CSV_COLUMNS, row, strict=True))
    assert named["winners"] == "Bö & Co" and named["first_player"] == "Bö & Co"
    assert (named["p3_name"], named["p3_house"], named["p3_score"]) == ("Cy", "ceres", 120)
    assert (named["p4_name"], named["p6_score"], named["solo_level"]) == ("", "", "")
