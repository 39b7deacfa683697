"""After the game: finished games as records, each player's record, and how a game went.

A :class:`GameRecord` is what the history shows of one finished game: when, how long,
who sat where with which house, the scores and the winners. It is built from the two
things the journal keeps of every game, its opening :class:`~engine.events.Setup` and
the scores it archived (:func:`archived_scores` is their shape), so listing a hundred
games replays none of them. :func:`token_series` and :func:`score_split` look inside
one game: its players' Helium, Influence and Fleet at the end of every round, and where
each final score came from.

>>> import random
>>> from engine.setup import new_game
>>> setup = new_game(["Ann", "Bo"], random.Random(2))
>>> scores = {"players": [{"name": "Ann", "total": 120}, {"name": "Bo", "total": 97}],
...           "winners": ["Ann"]}
>>> game = record(7, "2026-05-01T19:00:00+00:00", "2026-05-01T19:52:30+00:00", setup, scores)
>>> game.minutes, [(s.name, s.score, s.winner) for s in game.seats]
(52, [('Ann', 120, True), ('Bo', 97, False)])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from statistics import mean
from typing import TYPE_CHECKING, Any, Protocol

from engine.events import Event, Setup

if TYPE_CHECKING:  # types only: listing games needs neither the rules nor scoring
    from engine.scoring import ScoreSheet
    from engine.state import GameState

AUTOMA_NAME = "Au Toma"


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a finished game: who, which house, the score, and how it ended."""

    name: str
    house: str | None  # a House value; None for Au Toma (or a seat without a tile)
    automa: bool
    score: int | None  # None when the game could not be scored
    winner: bool
    first: bool  # the start player


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game as the history lists it."""

    id: int
    started: str  # ISO 8601, UTC, as the journal stores it
    finished: str | None
    minutes: int | None  # from start to end; None when either time is unknown
    seats: tuple[SeatRecord, ...]  # in seat order
    winners: tuple[str, ...]
    solo_level: int | None  # Au Toma's difficulty in a solo game

    @property
    def scored(self) -> bool:
        return all(seat.score is not None for seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        """The record as plain JSON-able data (the page's and ``--format json``'s shape)."""
        return {
            "id": self.id, "started": self.started, "finished": self.finished,
            "minutes": self.minutes, "solo_level": self.solo_level,
            "winners": list(self.winners),
            "players": [{"name": s.name, "house": s.house, "automa": s.automa,
                         "score": s.score, "winner": s.winner, "first": s.first}
                        for s in self.seats],
        }


def archived_scores(names: Sequence[str], totals: Sequence[int],
                    winners: Sequence[str]) -> dict[str, Any]:
    """The scores the journal archives with a finished game (the device's scorer writes
    this shape for the games it follows).

    >>> archived_scores(["Ann", "Bo"], [120, 97], ["Ann"])
    {'players': [{'name': 'Ann', 'total': 120}, {'name': 'Bo', 'total': 97}], 'winners': ['Ann']}
    """
    return {"players": [{"name": n, "total": t} for n, t in zip(names, totals, strict=True)],
            "winners": list(winners)}


def record(game_id: int, started: str, finished: str | None, setup: Setup,
           scores: object) -> GameRecord:
    """A finished game's record from its Setup and its archived scores (any shape: what
    cannot be read as :func:`archived_scores` leaves the scores unknown)."""
    totals, winners = _read_scores(scores)
    seats = tuple(
        SeatRecord(name=spec.name, house=spec.house.value if spec.house else None,
                   automa=spec.automa, score=totals.get(spec.name),
                   winner=spec.name in winners, first=i == setup.first_player)
        for i, spec in enumerate(setup.seats))
    level = setup.automa.level if setup.automa is not None else None
    return GameRecord(game_id, started, finished, minutes_between(started, finished), seats,
                      tuple(n for n in winners if any(s.name == n for s in seats)), level)


class Archived(Protocol):
    """A game as the journal archives it (what :func:`records` reads of it)."""

    @property
    def id(self) -> int: ...
    @property
    def started(self) -> str: ...
    @property
    def finished(self) -> str | None: ...
    @property
    def scores(self) -> object: ...


def records(games: Iterable[tuple[Archived, Event | None]]) -> list[GameRecord]:
    """The records of archived games, each given with its opening event, in their order
    (one whose log does not open with a Setup is left out: nothing says who played)."""
    return [record(game.id, game.started, game.finished, setup, game.scores)
            for game, setup in games if isinstance(setup, Setup)]


def _read_scores(scores: object) -> tuple[dict[str, int], tuple[str, ...]]:
    if not isinstance(scores, Mapping):
        return {}, ()
    players = scores.get("players")
    totals: dict[str, int] = {}
    for p in players if isinstance(players, list) else ():
        total = p.get("total") if isinstance(p, Mapping) else None
        if isinstance(total, int) and not isinstance(total, bool) and "name" in p:
            totals[str(p["name"])] = total
    winners = scores.get("winners")
    return totals, tuple(str(w) for w in winners) if isinstance(winners, list) else ()


def minutes_between(started: str | None, finished: str | None) -> int | None:
    """Whole minutes from one ISO 8601 time to another (None if either is unreadable).

    >>> minutes_between("2026-05-01T19:00:00+00:00", "2026-05-01T20:05:59+00:00")
    65
    """
    if not started or not finished:
        return None
    try:
        seconds = (datetime.fromisoformat(finished) - datetime.fromisoformat(started))
    except (TypeError, ValueError):
        return None
    total = seconds.total_seconds()
    return int(total // 60) if total >= 0 else None


# --- across games -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A named player's games: how many, wins, average and best score, favourite house."""

    name: str
    games: int
    wins: int
    average: float | None  # over the scored games
    best: int | None
    house: str | None  # the house played most (ties: the one won with most, then by name)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": self.wins,
                "average": self.average, "best": self.best, "house": self.house}


@dataclass(frozen=True, slots=True)
class HouseRecord:
    """How a house has done: games played with it, wins, average score."""

    house: str
    games: int
    wins: int
    average: float | None

    def to_json(self) -> dict[str, Any]:
        return {"house": self.house, "games": self.games, "wins": self.wins,
                "average": self.average}


def player_records(games: Iterable[GameRecord]) -> list[PlayerRecord]:
    """Every named player (Au Toma aside) across ``games``: most games first, then by name."""
    seats: dict[str, list[SeatRecord]] = {}
    for game in games:
        for seat in game.seats:
            if not seat.automa:
                seats.setdefault(seat.name, []).append(seat)
    found = [PlayerRecord(name, len(played), sum(s.winner for s in played),
                          *_average_best(played), _favourite(played))
             for name, played in seats.items()]
    return sorted(found, key=lambda p: (-p.games, p.name))


def house_records(games: Iterable[GameRecord]) -> list[HouseRecord]:
    """Every house played in ``games``: most wins first, then most games, then by name."""
    seats: dict[str, list[SeatRecord]] = {}
    for game in games:
        for seat in game.seats:
            if seat.house is not None:
                seats.setdefault(seat.house, []).append(seat)
    found = [HouseRecord(house, len(played), sum(s.winner for s in played),
                         _average_best(played)[0]) for house, played in seats.items()]
    return sorted(found, key=lambda h: (-h.wins, -h.games, h.house))


def _average_best(seats: Sequence[SeatRecord]) -> tuple[float | None, int | None]:
    scores = [s.score for s in seats if s.score is not None]
    return (round(mean(scores), 1), max(scores)) if scores else (None, None)


def _favourite(seats: Sequence[SeatRecord]) -> str | None:
    played = Counter(s.house for s in seats if s.house is not None)
    won = Counter(s.house for s in seats if s.house is not None and s.winner)
    return min(played, key=lambda h: (-played[h], -won[h], h)) if played else None


# --- inside one game ----------------------------------------------------------------------

TRACKS = ("helium", "influence", "fleet")


@dataclass(frozen=True, slots=True)
class TokenSeries:
    """Each player's Helium, Influence and Fleet at the start, after every round, at the end.

    ``values[track][player][point]``; players in seat order, points as ``labels``.
    """

    labels: tuple[str, ...]
    players: tuple[str, ...]
    values: Mapping[str, tuple[tuple[int, ...], ...]]

    def to_json(self) -> dict[str, Any]:
        return {"labels": list(self.labels), "players": list(self.players),
                **{track: [list(row) for row in self.values[track]] for track in TRACKS}}


def token_series(states: Sequence[GameState]) -> TokenSeries:
    """The tokens at the start, at the end of each round (every seat has played it), and
    at the end of the game if its last turns came after the last whole round (House
    Apollo's extra turn).

    ``states`` is a game's states in order (``engine.game.Game.states``).

    :raises ValueError: when no state has players (the log holds no Setup).
    """
    played = [s for s in states if s.players]
    if not played:
        raise ValueError("the game has no players: its log holds no Setup")
    points: list[tuple[str, GameState]] = [("Start", played[0])]
    for state in played:
        done = min(p.turns for p in state.players)
        while len(points) <= done:
            points.append((str(len(points)), state))
    last = played[-1]
    if _tokens(last) != _tokens(points[-1][1]):
        points.append(("End", last))
    values = {track: tuple(tuple(getattr(s.players[i], track) for _, s in points)
                           for i in range(len(last.players))) for track in TRACKS}
    return TokenSeries(tuple(label for label, _ in points),
                       tuple(p.name for p in last.players), values)


def _tokens(state: GameState) -> tuple[tuple[int, int, int], ...]:
    return tuple((p.helium, p.influence, p.fleet) for p in state.players)


# The stacked bar's segments, in the scorepad's order (excess cards are taken off after).
SOURCES = ("cards", "bonuses", "abilities", "fleet", "helium", "sovereign", "influence")


@dataclass(frozen=True, slots=True)
class ScoreSplit:
    """Where a player's final score came from: ``parts`` follow :data:`SOURCES`."""

    name: str
    parts: tuple[int, ...]
    excess: int  # points taken off for cards past the hand limit (0 or negative)
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "parts": list(self.parts), "excess": self.excess,
                "total": self.total}


def score_split(sheet: ScoreSheet) -> tuple[ScoreSplit, ...]:
    """Each player's total split by source (cards' core values, bonus clauses, end-of-game
    abilities, Fleet, Helium, the Sovereign, Influence), in the sheet's order.

    >>> from engine.scoring import score
    >>> from engine.table import Seat, Table
    >>> sheet = score(Table(seats=(Seat("Ann", ("eo",), helium=2, fleet=3),)))
    >>> score_split(sheet)[0]
    ScoreSplit(name='Ann', parts=(10, 0, 0, 6, 6, 0, 0), excess=0, total=22)
    """
    return tuple(
        ScoreSplit(p.name, (p.cards_core, p.cards_bonus, p.end_of_game, p.fleet, p.helium,
                            p.sovereignty, p.influence), p.excess_cards, p.total)
        for p in sheet.players)
