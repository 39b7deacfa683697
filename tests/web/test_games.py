"""The games' history over the API: the list, one game opened, the live scorepad's links."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask.testing import FlaskClient
from pagekit import make_app, play_demo_until, running
from test_openapi import check

from device.cli import main
from device.journal import Journal
from device.service import Service
from engine.game import Game
from engine.history import SOURCES, archived_scores
from engine.setup import new_game
from engine.simulate import simulate
from engine.state import Phase

SEED = 5


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    assert main(["simulate", "--players", "6", "--games", "2", "--seed", str(SEED),
                 "--journal", str(path), "--json"]) == 0
    assert main(["simulate", "--automa", "2", "--games", "1", "--seed", str(SEED),
                 "--journal", str(path), "--json"]) == 0
    return path


@pytest.fixture
def client(journal_path: Path) -> Iterator[FlaskClient]:
    service = Service(rng=random.Random(1), journal=Journal(journal_path))
    service.start()
    try:
        yield make_app(service).test_client()
    finally:
        service.stop()


def test_the_list_has_every_finished_game_and_each_players_record(client: FlaskClient) -> None:
    reply = client.get("/api/games")
    check(reply, "/api/games")
    data = reply.json
    assert data["journal"] is True
    assert [g["id"] for g in data["games"]] == [3, 2, 1]
    six = simulate(6, 2, SEED)
    assert [p["score"] for p in data["games"][2]["players"]] == list(six[0].totals)
    assert data["games"][0]["solo_level"] == 2
    records = {p["name"]: p for p in data["players"]}
    assert "Au Toma" not in records and records["P1"]["games"] == 2
    assert records["P1"]["best"] == max(r.totals[0] for r in six)
    assert sum(h["wins"] for h in data["houses"]) == sum(
        len(r.winners) for r in six) + ("You" in simulate(1, 1, SEED, setup=_solo)[0].winners)


def _solo(rng: random.Random) -> Any:
    from engine.automa import new_solo_game

    return new_solo_game("You", rng, level=2)


def test_a_game_opened_has_its_scorepad_plots_and_whole_log(client: FlaskClient) -> None:
    reply = client.get("/api/games/1")
    check(reply, "/api/games/{game_id}")
    data = reply.json
    result = simulate(6, 2, SEED)[0]
    assert data["available"] is True and data["message"] == ""
    pad = data["scorepad"]
    assert dict(zip(pad["players"], pad["totals"], strict=True)) == dict(
        zip(result.names, result.totals, strict=True))
    assert pad["winners"] == list(result.winners)
    series, split = data["series"], data["split"]
    assert series["players"] == pad["players"]  # the scorepad's order, first player first
    assert series["labels"][0] == "Start" and len(series["labels"]) > 5
    for track in ("helium", "influence", "fleet"):
        assert len(series[track]) == 6
        assert all(len(row) == len(series["labels"]) for row in series[track])
    assert [s["key"] for s in split["sources"]] == list(SOURCES)
    assert [p["name"] for p in split["players"]] == pad["players"]
    assert [p["total"] for p in split["players"]] == pad["totals"]
    assert all(sum(p["parts"]) + p["excess"] == p["total"] for p in split["players"])
    assert data["log"][-1]["title"] == "New game" and len(data["log"]) > 40
    link = data["game"]["bgstats"]
    (play,) = parse_qs(urlsplit(link).query)["data"]
    assert [p["score"] for p in json.loads(play)["players"]] == list(result.totals)


def test_a_game_is_built_once_then_served_from_memory(client: FlaskClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = client.get("/api/games/2").data
    monkeypatch.setattr(Journal, "archived_events", lambda *_: pytest.fail("read again"))
    assert client.get("/api/games/2").data == first


def test_an_unknown_game_is_404(client: FlaskClient) -> None:
    reply = client.get("/api/games/99")
    check(reply, "/api/games/{game_id}")
    assert reply.status_code == 404 and "no finished game 99" in reply.json["error"]
    assert client.get("/api/games/x").status_code == 404


def test_a_log_that_does_not_reach_its_end_is_said_so(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    setup = new_game(["Ann", "Bo"], random.Random(1))
    journal.begin([setup], ["Ann", "Bo"])  # archived as over, yet only its setup
    journal.sync([setup], "fen", archived_scores(["Ann", "Bo"], [10, 12], ["Bo"]))
    service = Service(Game(), rng=random.Random(1), journal=journal)  # game 1 stays as kept
    service.start()
    try:
        reply = make_app(service).test_client().get("/api/games/1")
    finally:
        service.stop()
    check(reply, "/api/games/{game_id}")
    assert reply.json["available"] is False and "does not reach its end" in reply.json["message"]
    assert [p["score"] for p in reply.json["game"]["players"]] == [10, 12]


def test_a_log_these_rules_refuse_is_said_so(tmp_path: Path) -> None:
    from engine.board import Location
    from engine.events import Lead

    journal = Journal(tmp_path / "j.sqlite3")
    setup = new_game(["Ann", "Bo"], random.Random(1))
    log = [setup, Lead("darrow", Location.MARS)]  # a card Ann is known not to hold
    journal.begin(log, ["Ann", "Bo"])
    journal.sync(log, "fen", archived_scores(["Ann", "Bo"], [10, 12], ["Bo"]))
    service = Service(Game(), rng=random.Random(1), journal=journal)
    service.start()
    try:
        client = make_app(service).test_client()
        reply = client.get("/api/games/1")
        check(reply, "/api/games/{game_id}")
        assert reply.json["available"] is False
        assert reply.json["message"].startswith("the game cannot be replayed: Ann is known")
        assert client.get("/api/games").json["games"][0]["players"][1]["score"] == 12
    finally:
        service.stop()


def test_without_a_journal_the_history_is_empty() -> None:
    from pagekit import tracked_setup

    with running(Game(tracked_setup())) as service:
        client = make_app(service).test_client()
        reply = client.get("/api/games")
        check(reply, "/api/games")
        assert reply.json == {"journal": False, "games": [], "players": [], "houses": []}
        assert client.get("/api/games/1").status_code == 404
        assert client.get("/games").status_code == 200


def test_the_live_scorepad_offers_the_finished_game() -> None:
    service = Service(rng=random.Random(3), journal=Journal(":memory:"))
    service.start()
    try:
        client = make_app(service).test_client()
        play_demo_until(service, lambda s: s.phase is Phase.PLAYING)
        assert client.get("/api/state").json["play"] is None  # nothing to log mid-game
        play_demo_until(service, lambda s: s.phase is Phase.OVER)
        state = client.get("/api/state")
        check(state, "/api/state")
        play = state.json["play"]
        finished = client.get(f"/api/games/{play['id']}").json
        assert play["bgstats"] == finished["game"]["bgstats"]
        assert finished["scorepad"]["totals"] == state.json["scorepad"]["totals"]
    finally:
        service.stop()
