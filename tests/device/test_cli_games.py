"""``companion simulate --journal`` and ``companion games list|export``: finished games
written as the companion archives them, read back in every format."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from device.cli import main
from device.journal import Journal, JournalLock
from device.service import final_scores
from engine.automa import new_solo_game
from engine.events import Setup
from engine.export import CSV_COLUMNS
from engine.game import Game
from engine.history import archived_scores
from engine.setup import new_game
from engine.simulate import simulate


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    """Five three-player games simulated with seed 1, kept as finished games."""
    path = tmp_path / "games.sqlite3"
    assert main(["simulate", "--players", "3", "--games", "5", "--seed", "1",
                 "--journal", str(path), "--json"]) == 0
    return path


def export(path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["games", "export", "--journal", str(path), "--format", fmt]) == 0
    return capsys.readouterr().out


def test_the_csv_export_has_a_row_per_game_with_simulates_own_scores(
        journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(export(journal, "csv", capsys))))
    results = simulate(3, 5, 1)
    assert len(rows) == 5 and list(rows[0]) == list(CSV_COLUMNS)
    for row, result in zip(rows, results, strict=True):  # oldest first: the order played
        seats = [(row[f"p{k}_name"], int(row[f"p{k}_score"])) for k in (1, 2, 3)]
        assert seats == list(zip(result.names, result.totals, strict=True))
        assert row["winners"] == " & ".join(result.winners) and row["players"] == "3"
        assert row["p4_name"] == "" and row["minutes"] == "0"


def test_the_json_export_is_one_object_per_game(journal: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    games = [json.loads(line) for line in export(journal, "json", capsys).splitlines()]
    results = simulate(3, 5, 1)
    assert [g["id"] for g in games] == [1, 2, 3, 4, 5]
    for found, result in zip(games, results, strict=True):
        assert [p["score"] for p in found["players"]] == list(result.totals)
        assert found["winners"] == list(result.winners)
        assert [p["house"] for p in found["players"]] == [
            s.house.value for s in result.log[0].seats]  # type: ignore[attr-defined]


def test_the_bgstats_export_is_one_link_per_game(journal: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    links = export(journal, "bgstats", capsys).splitlines()
    results = simulate(3, 5, 1)
    assert len(links) == 5
    for link, result in zip(links, results, strict=True):
        (data,) = parse_qs(urlsplit(link).query)["data"]
        play = json.loads(data)
        assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
            (n, t, n in result.winners) for n, t in zip(result.names, result.totals,
                                                          strict=True)]


def test_the_list_shows_each_game_and_each_player(journal: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["games", "list", "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("5 finished games\n")
    assert out.index("#5 ") < out.index("#1 ")  # newest first
    wins = {name: sum(name in r.winners for r in simulate(3, 5, 1)) for name in ("P1", "P2")}
    for line in out.splitlines():
        if line.startswith(("P1 ", "P2 ")):
            name, games, won = line.split()[:3]
            assert (int(games), int(won)) == (5, wins[name])


def test_solo_games_carry_au_tomas_level(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "solo.sqlite3"
    assert main(["simulate", "--automa", "4", "--games", "2", "--seed", "3",
                 "--journal", str(path)]) == 0
    assert f"kept as finished games in {path}" in capsys.readouterr().out
    games = [json.loads(line) for line in export(path, "json", capsys).splitlines()]
    assert [g["solo_level"] for g in games] == [4, 4]
    assert [p["automa"] for p in games[0]["players"]] == [False, True]


def test_the_games_stay_replayable_and_archived_as_the_service_does(journal: Path) -> None:
    stored = Journal(journal)
    try:
        finished = stored.finished_games()
        assert [g.id for g, _ in finished] == [5, 4, 3, 2, 1]
        game, setup = finished[-1]
        assert isinstance(setup, Setup) and game.status == "over"
        replayed = Game.replay(stored.archived_events(game.id))
        assert replayed.is_over and game.final == replayed.state.fen()
        assert game.scores == final_scores(replayed.state)  # the device's own scorer
        assert stored.finished_games(3)[0][0].id == 3 and stored.finished_games(99) == []
    finally:
        stored.close()


def test_finished_games_leave_out_games_in_play_and_abandoned(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    setup = new_game(["Ann", "Bo"], random.Random(1))
    journal.begin([setup], ["Ann", "Bo"])  # abandoned by the next
    journal.begin([setup], ["Ann", "Bo"])
    journal.sync([setup], "fen", archived_scores(["Ann", "Bo"], [1, 2], ["Bo"]))
    journal.begin([setup], ["Ann", "Bo"])  # in play
    assert [g.id for g, _ in journal.finished_games()] == [2]
    journal.close()


def test_a_missing_journal_is_refused_in_one_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "list", "--journal", str(tmp_path / "none.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no journal at" in err
    assert not (tmp_path / "none.sqlite3").exists()


def test_without_journal_the_companions_own_is_read(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    assert main(["games", "list"]) == 2
    assert "no game has been played here yet" in capsys.readouterr().err
    own = tmp_path / "state" / "companion" / "journal.sqlite3"
    assert main(["simulate", "--players", "2", "--games", "1", "--journal", str(own)]) == 0
    capsys.readouterr()
    assert main(["games", "list"]) == 0
    assert capsys.readouterr().out.startswith("1 finished game\n")


def test_simulate_will_not_set_aside_a_game_in_play(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.begin([new_solo_game("Ann", random.Random(1))], ["Ann", "Au Toma"])
    journal.close()
    assert main(["simulate", "--games", "1", "--journal", str(path)]) == 2
    assert "holds a game in play" in capsys.readouterr().err
    journal = Journal(path)
    assert [g.status for g in journal.archive()] == ["playing"]
    journal.close()


def test_simulate_will_not_write_to_a_journal_a_companion_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite3"
    lock = JournalLock(path)
    try:
        assert main(["simulate", "--games", "1", "--journal", str(path)]) == 2
        assert "in use by another companion" in capsys.readouterr().err
    finally:
        lock.release()
    assert not path.exists()


def test_the_docs_example_is_what_the_commands_print(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """docs/history.md's example, run again (the times of day aside)."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "history.md").read_text()
    example = page[page.index("### Example"):page.index("## Logging a play")]
    setup = example[example.index("```sh\n") + 6:].split("```")[0]
    for line in setup.splitlines():
        assert main(_argv(line.split("#")[0], tmp_path)) == 0, line
    session = example[example.index("```console\n") + 11:].split("```")[0]
    capsys.readouterr()
    for block in session.split("$ companion ")[1:]:
        command, *expected = block.splitlines()
        assert main(_argv(command, tmp_path)) == 0, command
        assert _timeless(capsys.readouterr().out.splitlines()) == _timeless(expected), command


def _argv(command: str, tmp: Path) -> list[str]:
    words = command.replace("games.sqlite3", str(tmp / "games.sqlite3")).split()
    return words[1:] if words[0] == "companion" else words


def _timeless(lines: list[str]) -> list[str]:
    """Lines with the journal's clock taken out (ISO times, and the list's local times)."""
    iso = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")
    local = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")
    return [local.sub("TIME", iso.sub("TIME", line)) for line in lines]
