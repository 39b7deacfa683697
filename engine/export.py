"""A finished game in the forms other tools read: a CSV row and a BG Stats play.

BG Stats (the play-logging app) imports a play from a link whose ``data`` parameter is
the play as URL-encoded JSON (docs/history.md cites its documentation). The companion
fills the fields it knows: the game, the date, the duration, each player's name, score,
rank, start player, winner flag and house (as the player's role).

>>> from engine.history import GameRecord, SeatRecord
>>> game = GameRecord(3, "2026-05-01T19:00:00+00:00", "2026-05-01T19:48:10+00:00", 48,
...     (SeatRecord("Ann", "mars", False, 120, True, True),
...      SeatRecord("Bo", "diana", False, 97, False, False)), ("Ann",), None)
>>> play = bgstats_play(game)
>>> play["playDate"], play["durationMin"], [(p["name"], p["rank"]) for p in play["players"]]
('2026-05-01 19:48:10', 48, [('Ann', 1), ('Bo', 2)])
>>> csv_row(game)[:8]
[3, '2026-05-01T19:00:00+00:00', '2026-05-01T19:48:10+00:00', 48, 2, '', 'Ann', 'Ann']
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from engine.history import AUTOMA_NAME, GameRecord, SeatRecord

GAME_NAME = "Red Rising"
SOURCE_NAME = "Red Rising table companion"
# BG Stats documents an https form (which opens the app where it is installed) and this
# app scheme; the scheme never leaves the table's Wi-Fi for a web page.
BGSTATS_LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
MAX_SEATS = 6

CSV_COLUMNS = (
    "id", "started", "finished", "minutes", "players", "solo_level", "first_player",
    "winners",
    *(f"p{k}_{field}" for k in range(1, MAX_SEATS + 1) for field in ("name", "house", "score")),
)


def csv_row(game: GameRecord) -> list[Any]:
    """One CSV row (:data:`CSV_COLUMNS`): the game, then every seat's name, house, score.

    Several winners (a tie the Sovereign did not break) are joined with " & ".
    """
    first = next((s.name for s in game.seats if s.first), "")
    row: list[Any] = [game.id, game.started, game.finished or "", _blank(game.minutes),
                      len(game.seats), _blank(game.solo_level), first, " & ".join(game.winners)]
    for k in range(MAX_SEATS):
        seat = game.seats[k] if k < len(game.seats) else None
        row += ["", "", ""] if seat is None else [seat.name, seat.house or "",
                                                  _blank(seat.score)]
    return row


def _blank(value: int | None) -> int | str:
    return "" if value is None else value


def bgstats_play(game: GameRecord) -> dict[str, Any]:
    """The play as BG Stats' import JSON."""
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{game.started}#{game.id}",
        "playDate": _play_date(game.finished or game.started),
        "game": {"name": GAME_NAME, "sourceGameId": "red-rising", "highestWins": True,
                 "noPoints": False},
        "players": [_player(game, seat) for seat in game.seats],
    }
    if game.minutes:  # a simulated game takes no time: no duration rather than zero
        play["durationMin"] = game.minutes
    if game.solo_level is not None:
        play["comments"] = f"Solo against {AUTOMA_NAME}, level {game.solo_level}."
    return play


def bgstats_link(game: GameRecord) -> str:
    """The link that opens BG Stats' import dialog with this play."""
    data = json.dumps(bgstats_play(game), separators=(",", ":"), ensure_ascii=False)
    return BGSTATS_LINK + quote(data, safe="")


def _player(game: GameRecord, seat: SeatRecord) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": seat.name, "sourcePlayerId": seat.name,
                             "startPlayer": seat.first, "winner": seat.winner,
                             "rank": rank(game, seat), "role": _role(game, seat)}
    if seat.score is not None:
        entry["score"] = seat.score
    return entry


def rank(game: GameRecord, seat: SeatRecord) -> int:
    """1 for the winners; otherwise one more than the players who scored more (equal
    scores share a rank), winners with an equal score counted as ahead."""
    if seat.winner:
        return 1
    mine = seat.score if seat.score is not None else -1
    ahead = [s for s in game.seats if s.winner or (s.score if s.score is not None else -1) > mine]
    return 1 + len(ahead)


def _role(game: GameRecord, seat: SeatRecord) -> str:
    if seat.automa:
        return f"{AUTOMA_NAME}, level {game.solo_level}" if game.solo_level else AUTOMA_NAME
    return f"House {seat.house.capitalize()}" if seat.house else ""


def _play_date(stamp: str) -> str:
    """BG Stats' "YYYY-MM-DD HH:MM:SS", in UTC like the journal's times."""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.strftime("%Y-%m-%d %H:%M:%S")
