"""The journal: durable settings, the log written before publishing, rebuild, archive."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from devkit import policy, two_player_setup

from device.journal import Journal, JournalError
from device.service import NewGame, Play, Service, Undo
from engine.board import Location
from engine.events import Lead, Place, Scout
from engine.game import Game
from engine.setup import arranged


def open_service(path: Path, seed: int = 1) -> Service:
    return Service(rng=random.Random(seed), journal=Journal(path))


def play_some(service: Service, count: int) -> None:
    for _ in range(count):
        service.call(Play(policy(service.game)))  # type: ignore[arg-type]


def test_the_journal_is_durable_wal_with_full_sync(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    assert journal.pragma("journal_mode") == "wal"
    assert journal.pragma("synchronous") == 2  # FULL: every commit reaches the disk


def test_a_restarted_service_rebuilds_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    first = open_service(path)
    first.call(NewGame(two_player_setup()))
    play_some(first, 30)
    first.call(Undo())
    state, log = first.game.state, list(first.game.log)
    first.journal.close()  # type: ignore[union-attr]

    second = open_service(path, seed=99)
    assert second.game.log == log
    assert second.game.state == state
    assert "resumed game 1" in second.restored


def test_each_command_is_written_before_listeners_hear_of_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    service = open_service(path)
    service.call(NewGame(two_player_setup()))
    seen: list[tuple[int, int]] = []  # (events on disk, events in memory) per update

    def listener(update: object) -> None:
        with sqlite3.connect(path) as db:
            on_disk = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        seen.append((on_disk, len(service.game.log)))

    service.listeners.append(listener)
    play_some(service, 3)
    service.call(Undo())
    assert len(seen) == 4
    assert all(on_disk == in_memory for on_disk, in_memory in seen)


def test_undo_removes_the_undone_events_from_disk(tmp_path: Path) -> None:
    service = open_service(tmp_path / "j.sqlite3")
    service.call(NewGame(two_player_setup()))
    play_some(service, 10)
    service.call(Undo())
    assert service.journal.events() == service.game.log  # type: ignore[union-attr]


def test_a_new_game_abandons_the_unfinished_one(tmp_path: Path) -> None:
    service = open_service(tmp_path / "j.sqlite3")
    service.call(NewGame(two_player_setup(2)))
    play_some(service, 5)
    service.call(NewGame(two_player_setup(3)))
    games = service.journal.archive()  # type: ignore[union-attr]
    assert [(g.id, g.status) for g in games] == [(2, "playing"), (1, "abandoned")]
    assert len(service.journal.archived_events(1)) == 6  # type: ignore[union-attr]


def test_a_finished_game_is_archived_with_its_scores(tmp_path: Path) -> None:
    service = open_service(tmp_path / "j.sqlite3")
    service.call(NewGame(two_player_setup(4)))
    while not service.game.is_over:
        play_some(service, 1)
    [game] = service.journal.archive()  # type: ignore[union-attr]
    assert game.status == "over" and game.final == service.game.state.fen()
    assert {p["name"] for p in game.scores["players"]} == {"Ann", "Bo"}
    assert game.scores["winners"]
    service.call(Undo())  # an undo after the end reopens the game
    assert service.journal.archive()[0].status == "playing"  # type: ignore[union-attr]


def test_a_log_the_engine_cannot_read_is_kept_and_a_new_game_starts(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    service = open_service(path)
    service.call(NewGame(two_player_setup()))
    play_some(service, 3)
    service.journal.close()  # type: ignore[union-attr]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET event = ? WHERE seq = 2",
                   (json.dumps({"type": "NoSuchEvent"}),))
    with pytest.raises(JournalError, match="journal event 2 cannot be read"):
        Journal(path).events()
    restarted = open_service(path)
    assert restarted.game.log == []
    assert "could not rebuild" in restarted.restored
    assert [g.status for g in restarted.journal.archive()] == ["playing", "abandoned"]  # type: ignore[union-attr]


def test_a_failed_write_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    service = open_service(tmp_path / "j.sqlite3")
    service.call(NewGame(two_player_setup()))
    play_some(service, 4)
    before = (list(service.game.log), service.game.state)
    service.journal.close()  # type: ignore[union-attr]  # every write now fails
    with pytest.raises(sqlite3.ProgrammingError):
        service.call(Play(policy(service.game)))  # type: ignore[arg-type]
    with pytest.raises(sqlite3.ProgrammingError):
        service.call(Undo())
    assert (list(service.game.log), service.game.state) == before


def test_a_commit_the_disk_refuses_leaves_the_journal_ready_for_the_next(
        tmp_path: Path) -> None:
    from faultkit import Faults

    journal = Journal(tmp_path / "j.sqlite3")
    faults = Faults(journal)
    game = Game(rng=random.Random(1))
    game.play(two_player_setup())
    journal.begin(game.log)
    for _ in range(3):
        game.play(policy(game))  # type: ignore[arg-type]
    faults.full = True  # the COMMIT fails with its transaction still open
    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        journal.sync(game.log)
    assert not journal._db.in_transaction
    assert journal.events() == game.log[:1]
    faults.full = False  # now the ROLLBACK after the failed COMMIT fails too
    faults.verbs, faults.rate = ("COMMIT", "ROLLBACK"), 1.0
    with pytest.raises(sqlite3.OperationalError):
        journal.sync(game.log)
    assert journal._db.in_transaction  # left open: the next write rolls it back first
    faults.rate = 0.0
    journal.sync(game.log)
    assert journal.events() == game.log


def test_replaying_the_journal_needs_no_randomness(tmp_path: Path) -> None:
    service = open_service(tmp_path / "j.sqlite3")
    service.call(NewGame(two_player_setup()))
    play_some(service, 40)
    rebuilt = Game.replay(service.journal.events())  # type: ignore[union-attr]
    assert rebuilt.state == service.game.state


def test_a_revised_reading_is_journaled_exactly(tmp_path: Path) -> None:
    """The tracker takes one event back and plays two others: the journal follows."""
    journal = Journal(tmp_path / "j.sqlite3")
    game = Game(arranged([["eo", "nero"], ["judge"]], [["pelus"], ["virga"], [], []],
                         deck=["quietus"]), rng=random.Random(1))
    service = Service(game, rng=game.rng, journal=journal)
    service.apply((Lead("eo", Location.MARS),))
    service.apply((Scout(), Place(Location.MARS, "quietus")), undo=1)  # it was a Scout
    assert [type(e).__name__ for e in service.game.log[1:]] == ["Scout", "Place"]
    journal.close()
    assert Journal(tmp_path / "j.sqlite3").events() == service.game.log
