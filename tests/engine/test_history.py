"""After the game: records of finished games, players' records, tokens by round, score split."""

from __future__ import annotations

import doctest
import random
from types import SimpleNamespace

import pytest

from engine import history
from engine.automa import new_solo_game
from engine.board import House
from engine.endgame import final_table
from engine.events import SeatSpec, SetTokens
from engine.game import Game
from engine.history import (
    GameRecord,
    SeatRecord,
    archived_scores,
    house_records,
    player_records,
    record,
    records,
    score_split,
    token_series,
)
from engine.scoring import score
from engine.setup import new_game, tracked_game
from engine.simulate import simulate

START = "2026-05-01T19:00:00+00:00"
END = "2026-05-01T19:41:59+00:00"


def seat(name: str, house: str | None, score_: int | None, *, winner: bool = False,
         automa: bool = False) -> SeatRecord:
    return SeatRecord(name, house, automa, score_, winner, first=False)


def game(game_id: int, *seats: SeatRecord, level: int | None = None) -> GameRecord:
    return GameRecord(game_id, START, END, 41, seats,
                      tuple(s.name for s in seats if s.winner), level)


@pytest.mark.parametrize("module", ["engine.history", "engine.export"])
def test_doctests(module: str) -> None:
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


# --- a record from what the journal keeps ---------------------------------------------------


def test_a_record_reads_the_setup_and_the_archived_scores() -> None:
    setup = new_game(["Ann", "Bo", "Cy"], random.Random(4),
                     houses=[House.MARS, House.DIANA, House.CERES])
    scores = archived_scores(["Ann", "Bo", "Cy"], [120, 97, 120], ["Ann", "Cy"])
    found = record(5, START, END, setup, scores)
    assert [(s.name, s.house, s.score, s.winner) for s in found.seats] == [
        ("Ann", "mars", 120, True), ("Bo", "diana", 97, False), ("Cy", "ceres", 120, True)]
    assert [s.first for s in found.seats].index(True) == setup.first_player
    assert (found.id, found.minutes, found.winners, found.solo_level) == (5, 41, ("Ann", "Cy"),
                                                                          None)
    assert found.scored


def test_a_solo_record_names_au_tomas_level() -> None:
    setup = new_solo_game("Ann", random.Random(2), level=4)
    found = record(1, START, None, setup, archived_scores(["Ann", "Au Toma"], [150, 160],
                                                          ["Au Toma"]))
    assert found.solo_level == 4 and found.minutes is None
    assert [(s.name, s.automa, s.house is None) for s in found.seats][1] == ("Au Toma", True,
                                                                             True)


@pytest.mark.parametrize("scores", [None, "garbage", {"players": "x"}, {"winners": 3},
                                    {"players": [{"name": "Ann", "total": True}]},
                                    {"players": [{"name": "Ann", "total": "12"}, 7]},
                                    {"players": [{"total": 12}]}])
def test_scores_that_cannot_be_read_leave_the_scores_unknown(scores: object) -> None:
    setup = new_game(["Ann", "Bo"], random.Random(1))
    found = record(2, START, END, setup, scores)
    assert [s.score for s in found.seats] == [None, None] and not found.scored
    assert found.winners == ()


def test_a_winner_who_did_not_sit_at_the_table_is_dropped() -> None:
    setup = new_game(["Ann", "Bo"], random.Random(1))
    found = record(2, START, END, setup, archived_scores(["Ann", "Bo"], [1, 2], ["Zed"]))
    assert found.winners == () and not any(s.winner for s in found.seats)


@pytest.mark.parametrize(("start", "end", "minutes"), [
    (START, END, 41), (END, START, None), ("yesterday", END, None), (START, None, None),
    ("2026-05-01T19:00:00", "2026-05-01T21:30:00", 150)])
def test_minutes_between(start: str, end: str | None, minutes: int | None) -> None:
    assert history.minutes_between(start, end) == minutes


def test_records_leave_out_games_whose_log_does_not_open_with_a_setup() -> None:
    setup = new_game(["Ann", "Bo"], random.Random(1))
    stored = [SimpleNamespace(id=i, started=START, finished=END, scores=None) for i in (3, 2, 1)]
    found = records([(stored[0], setup), (stored[1], None), (stored[2], SetTokens(0, 1, 1, 1))])
    assert [g.id for g in found] == [3]


# --- across games ---------------------------------------------------------------------------


def test_player_records_count_games_wins_average_best_and_favourite_house() -> None:
    games = [
        game(1, seat("Ann", "mars", 100, winner=True), seat("Bo", "diana", 90)),
        game(2, seat("Ann", "ceres", 80), seat("Bo", "diana", 95, winner=True)),
        game(3, seat("Ann", "mars", None), seat("Au Toma", None, 200, winner=True, automa=True),
             level=2),
    ]
    found = {p.name: p for p in player_records(games)}
    assert set(found) == {"Ann", "Bo"}  # Au Toma is no named player
    ann, bo = found["Ann"], found["Bo"]
    assert (ann.games, ann.wins, ann.average, ann.best, ann.house) == (3, 1, 90.0, 100, "mars")
    assert (bo.games, bo.wins, bo.average, bo.best, bo.house) == (2, 1, 92.5, 95, "diana")
    assert [p.name for p in player_records(games)] == ["Ann", "Bo"]  # most games first


def test_the_favourite_house_tie_goes_to_the_house_won_with_then_the_name() -> None:
    won = [game(1, seat("Ann", "mars", 1)), game(2, seat("Ann", "ceres", 2, winner=True))]
    assert player_records(won)[0].house == "ceres"
    level = [game(1, seat("Ann", "mars", 1)), game(2, seat("Ann", "ceres", 2))]
    assert player_records(level)[0].house == "ceres"
    assert player_records([game(1, seat("Ann", None, 1))])[0].house is None


def test_house_records_rank_by_wins_then_games() -> None:
    games = [game(1, seat("Ann", "mars", 100, winner=True), seat("Bo", "diana", 90)),
             game(2, seat("Ann", "diana", 80), seat("Bo", "apollo", 95, winner=True)),
             game(3, seat("Ann", "mars", 70), seat("Bo", "diana", 60, winner=True))]
    found = [(h.house, h.games, h.wins, h.average) for h in house_records(games)]
    assert found == [("diana", 3, 1, 76.7), ("mars", 2, 1, 85.0), ("apollo", 1, 1, 95.0)]


def test_no_games_no_records() -> None:
    assert player_records([]) == [] and house_records([]) == []


# --- inside one game -----------------------------------------------------------------------


def replayed(players: int, seed: int) -> Game:
    result = simulate(players, 1, seed)[0]
    return Game.replay(result.log)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 3), (6, 5)])
def test_the_series_samples_the_deal_every_round_and_the_end(players: int, seed: int) -> None:
    game_ = replayed(players, seed)
    series = token_series(game_.states)
    played = [s for s in game_.states if s.players]
    rounds = min(p.turns for p in played[-1].players)
    assert series.labels[:rounds + 1] == ("Start", *map(str, range(1, rounds + 1)))
    assert series.players == tuple(p.name for p in played[-1].players)
    for track in history.TRACKS:
        rows = series.values[track]
        assert [row[0] for row in rows] == [getattr(p, track) for p in played[0].players]
        assert [row[-1] for row in rows] == [getattr(p, track) for p in played[-1].players]
        for r in range(1, rounds + 1):  # the first state in which every seat has played r turns
            at = next(s for s in played if min(p.turns for p in s.players) >= r)
            assert [row[r] for row in rows] == [getattr(p, track) for p in at.players]


def test_an_end_point_comes_only_when_tokens_moved_after_the_last_round() -> None:
    seats = (SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA))
    game_ = Game(tracked_game(seats, (("darrow",), ("sevro",), ("lorn",), ("victra",)),
                              first=0))
    assert token_series(game_.states).labels == ("Start",)
    game_.push(SetTokens(1, 3, 2, 1))  # a correction before anyone has played
    series = token_series(game_.states)
    assert series.labels == ("Start", "End")
    assert [row[-1] for row in series.values["helium"]] == [0, 3]


def test_a_log_without_players_has_no_series() -> None:
    with pytest.raises(ValueError, match="no players"):
        token_series(Game().states)


def test_the_split_adds_up_to_each_total() -> None:
    results = simulate(4, 6, 2) + simulate(1, 3, 2, setup=lambda rng: new_solo_game(
        "You", rng, level=3))
    for result in results:
        sheet = score(final_table(Game.replay(result.log).state), notes=False)
        split = score_split(sheet)
        assert tuple(s.total for s in split) == result.totals
        for part in split:
            assert sum(part.parts) + part.excess == part.total and part.excess <= 0
            assert len(part.parts) == len(history.SOURCES)
        if "Au Toma" in result.names:
            assert split[result.names.index("Au Toma")].parts[0] == 70  # her base points


def test_the_split_shows_the_excess_cards_apart() -> None:
    from engine.table import Seat, Table

    hand = ("eo", "judge", "aja", "pelus", "ragnar", "calliope", "ceo", "sevro", "darrow")
    split = score_split(score(Table(seats=(Seat("Ann", hand),)), notes=False))[0]
    assert split.excess == -20 and sum(split.parts) - 20 == split.total
