"""``companion games``: the finished games a journal holds, to read or to take elsewhere.

    companion games list [--journal FILE]                  # newest first, then each player
    companion games export [--journal FILE] --format csv   # one row per game, oldest first
    companion games export --format json                   # one JSON object per line
    companion games export --format bgstats                # one BG Stats link per line

``--journal`` defaults to the companion's own journal (``[journal] path``,
docs/config.md). The file is only read, so this is safe while the companion runs.
docs/history.md describes every column and field.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from device import config as settings
from device.cli import UsageError

if TYPE_CHECKING:
    from engine.history import GameRecord

# The journal and the history's engine modules load in the handlers: +0.05 s of CPU on
# every command's start otherwise (benchmarks/import_costs.py).
FORMATS = ("csv", "json", "bgstats")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("games", help="list or export the finished games of a journal",
                            description="The finished games a journal holds: a list, or an "
                                        "export for a spreadsheet or BG Stats. Formats: "
                                        "docs/history.md.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="finished games, newest first, and each "
                                              "player's record")
    _journal_option(listing)
    listing.set_defaults(handler=list_command)
    export = actions.add_parser("export", help="one row or object per finished game, "
                                               "oldest first")
    _journal_option(export)
    export.add_argument("--format", choices=FORMATS, default="csv",
                        help="csv (default), json (one object per line) or bgstats "
                             "(one BG Stats link per line)")
    export.set_defaults(handler=export_command)


def _journal_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--journal", metavar="FILE",
                        help="the journal to read (default: the companion's own, "
                             "[journal] path)")
    parser.add_argument("--config", metavar="PATH",
                        help="a settings file read after the system and user ones")


def finished(args: argparse.Namespace) -> list[GameRecord]:
    """The journal's finished games, newest first.

    :raises UsageError: when there is no journal at the path.
    """
    from device.journal import Journal
    from engine.history import records

    path = Path(args.journal) if args.journal else _default_journal(args.config)
    if not path.is_file():
        raise UsageError(f"no journal at {path}" + ("" if args.journal else
                         ": no game has been played here yet (name one with --journal FILE)"))
    try:
        journal = Journal(path)
    except sqlite3.Error as exc:  # not a database, or not readable by this user
        raise UsageError(f"cannot read the journal {path}: {exc}") from None
    try:
        return records(journal.finished_games())
    finally:
        journal.close()


def _default_journal(config: str | None) -> Path:
    return settings.journal_path(settings.load(config))


def list_command(args: argparse.Namespace) -> int:
    games = finished(args)
    _write(f"{len(games)} finished game{'' if len(games) == 1 else 's'}\n"
           + "".join(_game_lines(game) for game in games) + _player_lines(games))
    return 0


def _player_lines(games: list[GameRecord]) -> str:
    from engine.history import player_records

    players = player_records(games)
    if not players:
        return ""
    lines = ["\nplayer          games  wins  average  best  favourite house\n"]
    for p in players:
        average = "-" if p.average is None else f"{p.average:.1f}"
        lines.append(f"{p.name[:15]:<15} {p.games:>5} {p.wins:>5} {average:>8} "
                     f"{'-' if p.best is None else p.best:>5}  {(p.house or '-').capitalize()}\n")
    return "".join(lines)


def _write(text: str) -> None:
    """Print ``text``; a reader that stopped early (``… | head``) is no error."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _game_lines(game: GameRecord) -> str:
    when = local_time(game.started)
    length = "" if game.minutes is None else f", {game.minutes} min"
    solo = "" if game.solo_level is None else f", solo (Au Toma level {game.solo_level})"
    seats = " · ".join(f"{s.name}{f' ({s.house.capitalize()})' if s.house else ''} "
                       f"{'?' if s.score is None else s.score}" for s in game.seats)
    won = " and ".join(game.winners) or "unknown"
    return f"\n#{game.id}  {when}{length}{solo}\n    {seats}\n    won: {won}\n"


def local_time(stamp: str) -> str:
    """An ISO 8601 time from the journal as this machine's local "YYYY-MM-DD HH:MM"."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def export_command(args: argparse.Namespace) -> int:
    games = sorted(finished(args), key=lambda g: g.id)  # oldest first, as played
    _write(export_text(games, args.format))
    return 0


def export_text(games: list[GameRecord], fmt: str) -> str:
    """The games in ``fmt`` (csv, json or bgstats), one row, object or link per game."""
    from engine.export import CSV_COLUMNS, bgstats_link, csv_row

    if fmt == "csv":
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        writer.writerows(csv_row(game) for game in games)
        return text.getvalue()
    return "".join((json.dumps(game.to_json(), sort_keys=True, ensure_ascii=False)
                    if fmt == "json" else bgstats_link(game)) + "\n" for game in games)
