"""Every command in the README's command table, run on the files in ``examples/``.

The table is read from the README itself: each row's command, with its placeholders
filled in (the row's own example file for its input, a temporary file for an output,
small numbers for counts) and its optional parts included, must exit as the README
says. The long-running ones (``demo``, ``run``) are started as processes, must serve
the page and stop cleanly on SIGTERM. ``doctor`` may report missing hardware.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from device.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "models" / "card_embedder_2026nov.onnx"
# The placeholder a row's example file fills in.
INPUTS = {(None, "GAME.json"), ("--state", "STATE.json"), ("--deck", "FILE"),
          ("--images", "DIR"), (None, "IMAGE..."), (None, "FRAME..."), (None, "GAME_DIR")}
FIXED = {("--card", "N"): "5", ("--players", "N"): "3", ("--games", "K"): "2",
         ("--seed", "S"): "1", ("--model", "FILE.onnx"): str(MODEL),
         ("--out", "FILE.onnx"): "{tmp}/mine.onnx", ("--out", "FILE"): "{tmp}/markers.pdf",
         ("--journal", "FILE"): "{tmp}/games.sqlite3", ("--record", "DIR"): "{tmp}/recordings"}
LONG_RUNNING = {"demo", "run"}
MAY_FAIL_A_CHECK = {"doctor"}  # no camera or GPIO on a build machine: exit 1, said so


@dataclass(frozen=True)
class Row:
    """One row of the README's command table."""

    command: str  # as written, e.g. "companion score GAME.json [--json]"
    example: str | None  # the example file named in the row, if any

    @property
    def words(self) -> list[str]:
        return self.command.replace("[", "").replace("]", "").split()[1:]

    @property
    def name(self) -> str:
        return " ".join(w for w in self.words[:2] if re.fullmatch(r"[a-z]+", w))


def readme_rows() -> list[Row]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## Commands"):].split("\n## ")[0]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.fullmatch(r"`(companion [^`]+)`", cells[0]) if line.startswith("|") else None
        if m is not None:
            example = re.search(r"`([^`]+)`", cells[2]) if len(cells) > 2 else None
            rows.append(Row(m.group(1), example.group(1) if example else None))
    return rows


ROWS = readme_rows()


def argv_of(row: Row, tmp: Path) -> list[str]:
    """The row's words with each placeholder filled in."""
    out: list[str] = []
    for word in row.words:
        if not re.fullmatch(r"[A-Z][A-Z_]*(\.[a-z]+|\.\.\.)?", word):
            out.append(word)
            continue
        key = (out[-1] if out and out[-1].startswith("--") else None, word)
        if key in INPUTS:
            assert row.example, f"README row {row.command!r} names no example for {word}"
            out.append(str(ROOT / row.example))
        else:
            assert key in FIXED, f"README row {row.command!r}: no value for {word}"
            out.append(FIXED[key].format(tmp=tmp))
    return out


def test_the_table_lists_every_command_the_cli_has() -> None:
    listed = {row.name for row in ROWS}
    for group, parser in _subparsers(build_parser()).items():
        actions = _subparsers(parser)
        names = {f"{group} {a}" for a in actions} if actions else {group}
        assert names <= listed, f"the README's command table lacks {sorted(names - listed)}"


def _subparsers(parser: object) -> dict[str, object]:
    for action in getattr(parser, "_actions", []):
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            return dict(action.choices)
    return {}


def test_every_example_the_table_names_exists() -> None:
    for row in ROWS:
        if row.example:
            assert (ROOT / row.example).exists(), row.example


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No command here reads or writes the user's own settings or journal."""
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.delenv("COMPANION_AUTOMA_DECK", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return tmp_path


@pytest.mark.parametrize("row", [r for r in ROWS if r.words[0] not in LONG_RUNNING],
                         ids=lambda r: r.name)
def test_the_command_runs_on_its_example(row: Row, home: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    if "FILE.onnx" in row.command and not MODEL.exists():
        pytest.skip(f"no classifier at {MODEL}")
    argv = argv_of(row, home)
    PREPARE.get(row.name, lambda *_: None)(argv, home)
    status = main(argv)
    out, err = capsys.readouterr()
    allowed = {0, 1} if row.words[0] in MAY_FAIL_A_CHECK else {0}
    assert status in allowed, f"{' '.join(argv)} exited {status}: {err}"
    assert out.strip(), f"{' '.join(argv)} printed nothing"
    if "--json" in argv:
        for line in out.splitlines():
            json.loads(line)
    CHECKS.get(row.name, lambda *_: None)(argv, out, home)


def _identified(argv: list[str], out: str, tmp: Path) -> None:
    for line in out.splitlines():
        found = json.loads(line)
        assert found["card"] == Path(found["image"]).stem


def _scanned(argv: list[str], out: str, tmp: Path) -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from generate import TABLE  # the layout examples/table.jpg was drawn from
    finally:
        sys.path.remove(str(ROOT / "examples"))
    locations = json.loads(out)["locations"]
    for name, stack in TABLE.items():
        assert (locations[name]["top"], locations[name]["depth"]) == (
            stack[-1] if stack else None, len(stack))


def _marked(argv: list[str], out: str, tmp: Path) -> None:
    assert (tmp / "markers.pdf").read_bytes().startswith(b"%PDF")


def _enrolled(argv: list[str], out: str, tmp: Path) -> None:
    labels = (tmp / "mine.labels.txt").read_text().split()
    assert labels == sorted(p.stem for p in (ROOT / "examples" / "cards").glob("*.png"))


def _finished_games(argv: list[str], tmp: Path) -> None:
    """A journal of finished games for ``companion games`` to read (simulated)."""
    journal = argv[argv.index("--journal") + 1]
    assert main(["simulate", "--players", "3", "--games", "2", "--seed", "1",
                 "--journal", journal, "--json"]) == 0


PREPARE = {"games list": _finished_games, "games export": _finished_games}
CHECKS = {"cards identify": _identified, "table scan": _scanned,
          "table markers": _marked, "cards enroll": _enrolled}


# --- demo and run: a process each, stopped once the page answers -----------------------

def _lines(stream: object) -> tuple[queue.Queue[str], threading.Thread]:
    """The process's output line by line, read on a thread that closes it at the end."""
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        with stream:  # type: ignore[attr-defined]
            for line in stream:  # type: ignore[attr-defined]
                lines.put(line)

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return lines, thread


@pytest.fixture
def launch(home: Path) -> Iterator[object]:
    started: list[subprocess.Popen[str]] = []

    def start(argv: list[str]) -> subprocess.Popen[str]:
        env = {**os.environ, "PYTHONUNBUFFERED": "1",
               "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state")}
        proc = subprocess.Popen([sys.executable, "-m", "device.cli", *argv], cwd=ROOT,
                                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _serves_then_stops(proc: subprocess.Popen[str]) -> None:
    lines, reader = _lines(proc.stdout)
    said = []
    while True:
        try:
            line = lines.get(timeout=60)
        except queue.Empty:
            pytest.fail(f"no page within 60 s; it said: {''.join(said)}")
        said.append(line)
        if (m := re.search(r"page on (http://127\.0\.0\.1:\d+)", line)) is not None:
            break
    with urllib.request.urlopen(m.group(1) + "/", timeout=10) as reply:
        assert reply.status == 200
    proc.send_signal(signal.SIGTERM)
    status = proc.wait(30)
    reader.join(10)
    assert status == 0, "".join(said)


@pytest.mark.slow
@pytest.mark.parametrize("row", [r for r in ROWS if r.words[0] in LONG_RUNNING],
                         ids=lambda r: r.name)
def test_the_long_running_command_serves_the_page_and_stops(row: Row, home: Path,
                                                            launch: object) -> None:
    argv = argv_of(row, home)
    config = home / "config.toml"
    # its own port, journal and no voice, so the test disturbs nothing on this machine
    config.write_text(f'[web]\nhost = "127.0.0.1"\nport = 0\n[voice]\nenabled = false\n'
                      f'[journal]\npath = "{home / "journal.sqlite3"}"\n', encoding="utf-8")
    _serves_then_stops(launch([*argv, "--config", str(config)]))  # type: ignore[operator]


# --- the example game folder replays to its truth ---------------------------------------

@pytest.mark.skipif(not MODEL.exists(), reason=f"no classifier at {MODEL}")
def test_the_example_game_replays_to_its_truth() -> None:
    from device.commands.replay import _vision
    from device.recording import GameFolder, replay
    from engine.board import LOCATIONS
    from engine.game import Game
    from engine.tracking.replay import turn_rows

    folder = GameFolder.read(ROOT / "examples" / "game")
    assert folder.script is not None
    scanner, stabilizer = _vision(None, folder.corners)
    done = replay(folder, scanner, stabilizer, oracle=True)
    truth = Game.replay(folder.script.truth).states
    tracked = done.service.game.states
    assert done.refused == [] and done.frames == 60
    assert turn_rows(tracked) == turn_rows(truth)

    def public(state: object) -> object:  # what everyone at the table can see
        return ([[c.card for c in state.stack_at(loc)] for loc in LOCATIONS],  # type: ignore[attr-defined]
                [(p.helium, p.influence, p.fleet, p.turns) for p in state.players],  # type: ignore[attr-defined]
                state.sovereign, state.banished)  # type: ignore[attr-defined]

    assert public(tracked[-1]) == public(truth[-1])


def test_the_examples_stay_small() -> None:
    files = [f for f in (ROOT / "examples").rglob("*") if f.is_file()]
    assert sum(f.stat().st_size for f in files) < 2_000_000
