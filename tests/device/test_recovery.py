"""A damaged journal never stops the companion: kept aside, every readable row recovered."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from devkit import policy, two_player_setup
from journalkit import (
    EMPTY,
    NOT_SQLITE,
    Damage,
    Rows,
    build,
    damage,
    random_bytes,
    readable,
    rows,
    truncated,
)

from device import recovery
from device.journal import Journal, JournalDamaged
from device.recovery import kept_aside, open_journal, plan
from device.salvage import Salvaged, read_pages, salvage
from device.service import NewGame, Play, Service, Undo
from engine.events import to_dict
from engine.game import Game

DAMAGES = [EMPTY, NOT_SQLITE, truncated(0.02), truncated(0.3), truncated(0.55),
           truncated(0.8), truncated(0.97),
           *(random_bytes(seed, hits=1 + seed % 4) for seed in range(8)),
           random_bytes(99, hits=1, size=60000)]


# One worker builds the module fixture (about 3 s) once for every test that uses it.
pytestmark = pytest.mark.xdist_group("pristine-journal")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three finished games and one in play (with undos), compacted."""
    path = tmp_path_factory.mktemp("pristine") / "journal.sqlite3"
    build(path, games=4, last=60)
    return path


def damaged_copy(pristine: Path, folder: Path, how: Damage) -> tuple[Path, bytes, bytes]:
    path = folder / "journal.sqlite3"
    shutil.copyfile(pristine, path)
    before = damage(path, how)
    return path, before, path.read_bytes()


def start(path: Path) -> tuple[Service, recovery.Recovery | None]:
    """What the appliance does at start: open (recovering), then rebuild the game."""
    journal, done = open_journal(path)
    return Service(rng=random.Random(1), journal=journal), done


def assert_nothing_readable_lost(got: Rows, want: Rows, truth: Rows) -> None:
    games, events = got
    for key, row in want[0].items():  # the game in play may have been set aside
        assert key in games and games[key][:2] + games[key][4:] == row[:2] + row[4:]
    assert all(events.get(key) == text for key, text in want[1].items())
    assert all(truth[1].get(key) == text for key, text in events.items()), \
        "a recovered event differs from what was written"
    differ = [(row, truth[0][key]) for key, row in games.items()  # "": stands in for a lost row
              if key in truth[0] and row[1] != "" and
              row[:2] + row[4:] != truth[0][key][:2] + truth[0][key][4:]]
    assert not differ, f"a recovered game differs from what was written: {differ}"


@pytest.mark.parametrize("how", DAMAGES, ids=lambda d: d.name)
def test_a_damaged_journal_starts_and_keeps_every_readable_row(
        pristine: Path, tmp_path: Path, how: Damage) -> None:
    truth = rows(pristine)
    path, before, after = damaged_copy(pristine, tmp_path, how)
    want = readable(before, after, truth)
    journal, done = open_journal(path)
    got = rows(path)
    service = Service(rng=random.Random(1), journal=journal)  # the game is rebuilt, or not
    assert service.game.state is not None
    journal.close()
    if done is None:  # SQLite found nothing wrong: the file is used as it is
        assert path.read_bytes()[:len(after)] == after or not after
        assert all(got[1].get(k) == v for k, v in want[1].items())
        return
    assert_nothing_readable_lost(got, want, truth)
    assert (done.games, done.events) == (len(got[0].keys() & truth[0].keys()), len(got[1]))
    assert kept_aside(path) == [done.kept]
    assert done.kept.read_bytes() == after  # kept exactly as found, never written to


def test_damage_inside_a_row_that_sqlite_cannot_see_costs_only_that_game(
        pristine: Path, tmp_path: Path) -> None:
    """Bytes changed inside the game in play's text: the file is sound to SQLite, so it is
    kept; the game cannot be rebuilt, stays in the archive, and a new one starts."""
    path = tmp_path / "journal.sqlite3"
    shutil.copyfile(pristine, path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET event = '{\"type\": \"Nonsense\"}' "
                   "WHERE game = 4 AND seq = 5")
    db.close()
    service, done = start(path)
    assert done is None and "could not rebuild" in service.restored
    assert service.journal is not None
    assert [g.status for g in service.journal.archive()][:2] == ["playing", "abandoned"]
    service.journal.close()
    assert rows(path)[1].keys() == rows(pristine)[1].keys()  # every row is still there


def test_the_pages_alone_read_back_exactly_what_sqlite_reads(pristine: Path) -> None:
    found = read_pages(pristine.read_bytes(), b"")
    assert (found.games, found.events) == rows(pristine)


def test_undone_events_never_come_back_from_the_pages(tmp_path: Path) -> None:
    """An uncompacted journal full of undos: its freed cells and pages hold nothing stale."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    service = Service(rng=random.Random(4), journal=journal)
    service.call(NewGame(two_player_setup(4)))
    rng = random.Random(4)
    for _ in range(300):
        if service.game.is_over:
            break
        service.call(Play(policy(service.game)))  # type: ignore[arg-type]
        if rng.random() < 0.3 and len(service.game.log) > 2:
            service.call(Undo())
            service.call(Undo())
    journal.close()
    found = read_pages(path.read_bytes(), b"")
    assert (found.games, found.events) == rows(path)


def test_pages_still_in_the_write_ahead_log_are_read_too(tmp_path: Path) -> None:
    """A power cut leaves the latest commits in journal.sqlite3-wal: they count."""
    path = tmp_path / "journal.sqlite3"
    service = Service(rng=random.Random(2), journal=Journal(path))
    service.call(NewGame(two_player_setup(2)))
    for _ in range(40):
        service.call(Play(policy(service.game)))  # type: ignore[arg-type]
    cut = tmp_path / "cut"
    cut.mkdir()
    for suffix in ("", "-wal"):  # copied while the journal is open: as a power cut leaves it
        shutil.copyfile(f"{path}{suffix}", cut / f"journal.sqlite3{suffix}")
    assert service.journal is not None
    service.journal.close()
    wal = (cut / "journal.sqlite3-wal").read_bytes()
    assert wal, "the test needs commits still in the log"
    truth = rows(path)
    found = read_pages((cut / "journal.sqlite3").read_bytes(), wal)
    assert (found.games, found.events) == truth
    (cut / "journal.sqlite3").write_bytes(b"")  # the main file lost: the log still has it all
    assert salvage(cut / "journal.sqlite3").events == truth[1]


def test_the_log_files_go_aside_with_the_damaged_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(NOT_SQLITE.apply(b"x" * 8192))
    Path(f"{path}-wal").write_bytes(b"old log")
    Path(f"{path}-shm").write_bytes(b"old index")
    journal, done = open_journal(path)
    journal.close()
    assert done is not None
    assert Path(f"{done.kept}-wal").read_bytes() == b"old log"
    assert Path(f"{done.kept}-shm").exists()  # an index SQLite rebuilds: kept, not needed
    assert journal.path == path and rows(path) == ({}, {})


def test_a_second_recovery_keeps_both_damaged_files_and_the_history(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    build(path, games=2, last=10)
    damage(path, truncated(0.7))
    open_journal(path)[0].close()
    damage(path, random_bytes(3, hits=3))
    journal, done = open_journal(path)
    if done is None:  # the bytes landed where SQLite does not look: damage it for sure
        journal.close()
        damage(path, NOT_SQLITE)
        journal, done = open_journal(path)
    assert done is not None
    assert len(journal.recoveries()) >= 1 and journal.recoveries()[-1]["kept"] == done.kept.name
    journal.close()
    assert len(kept_aside(path)) == 2


def test_a_recovery_cut_short_by_a_power_cut_is_finished_at_the_next_start(
        pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _, after = damaged_copy(pristine, tmp_path, truncated(0.6))

    def power_cut(*_: object) -> None:
        raise KeyboardInterrupt  # stands for the process dying between the steps

    monkeypatch.setattr(recovery, "_swap", power_cut)
    with pytest.raises(KeyboardInterrupt):
        open_journal(path)
    assert path.read_bytes() == after and Path(f"{path}.recovered").exists()
    monkeypatch.undo()
    journal, done = open_journal(path)
    journal.close()
    assert done is not None and done.kept.read_bytes() == after
    assert not Path(f"{path}.recovered").exists()
    assert len(rows(path)[1]) == done.events


def test_a_half_written_fresh_journal_is_made_again(pristine: Path, tmp_path: Path) -> None:
    path, _, after = damaged_copy(pristine, tmp_path, truncated(0.6))
    Path(f"{path}.recovering").write_bytes(b"half")
    journal, done = open_journal(path)
    journal.close()
    assert done is not None and not Path(f"{path}.recovering").exists()
    assert done.kept.read_bytes() == after


def test_a_journal_that_cannot_be_opened_is_not_taken_for_damaged(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.mkdir()  # unreadable as a file: moving it aside would not help
    with pytest.raises(sqlite3.OperationalError):
        open_journal(path)
    assert path.is_dir() and kept_aside(path) == []


def test_opening_a_damaged_journal_writes_nothing_to_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    build(path, games=1, last=20)
    damage(path, truncated(0.5))
    after = path.read_bytes()
    with pytest.raises(JournalDamaged, match="is damaged"):
        Journal(path)
    assert path.read_bytes() == after


def _log(moves: int, finished: bool = False) -> list[str]:
    game = Game(rng=random.Random(3))
    game.play(two_player_setup(3))
    while not game.is_over and (finished or len(game.log) <= moves):
        game.play(policy(game))  # type: ignore[arg-type]
    return [json.dumps(to_dict(e)) for e in game.log]


def _found(games: dict[int, str], logs: dict[int, list[str]],
           missing: tuple[tuple[int, int], ...] = ()) -> Salvaged:
    rows_ = {g: (g, "2026-01-01", None, status, "[]", "fen" if status == "over" else None,
                 None) for g, status in games.items()}
    events = {(g, s): text for g, log in logs.items() for s, text in enumerate(log)}
    return Salvaged(rows_, {k: v for k, v in events.items() if k not in missing})


def test_the_game_in_play_is_resumed_when_its_log_is_whole() -> None:
    games, note = plan(_found({1: "over", 2: "playing"}, {2: _log(12)}))
    assert [g[3] for g in games] == ["over", "playing"] and note == ""


def test_a_game_in_play_with_a_gap_is_set_aside_and_a_fresh_one_starts() -> None:
    games, note = plan(_found({1: "over", 2: "playing"}, {2: _log(12)}, missing=((2, 5),)))
    assert [(g[0], g[3]) for g in games] == [(1, "over"), (2, "abandoned"), (3, "playing")]
    assert "game 2 could not be resumed (only 12 of its events could be read)" in note


def test_a_finished_game_missing_its_end_keeps_its_scores() -> None:
    log = _log(0, finished=True)
    games, note = plan(_found({1: "over"}, {1: log[:-3]}))
    assert games[0][3:6] == ("over", "[]", "fen")  # never reopened, never rescored
    assert games[1][3] == "playing" and "keeps its scores" in note
    whole, note = plan(_found({1: "over"}, {1: log}))
    assert len(whole) == 1 and note == ""


def test_events_whose_game_row_was_lost_get_an_abandoned_game() -> None:
    games, _ = plan(_found({1: "over"}, {3: _log(4)}, missing=((3, 0),)))
    assert {g[0]: g[3] for g in games}[3] == "abandoned"


def test_a_log_that_does_not_replay_is_not_resumed() -> None:
    log = _log(12)
    log[4] = json.dumps({"type": "Setup"})  # names an event, but not one the engine reads
    games, note = plan(_found({1: "playing"}, {1: log}))
    assert [g[3] for g in games] == ["abandoned", "playing"] and "game 1" in note
