"""The games' history as the page shows it: the list, each player's record, one game.

The list is built from what the journal keeps of every finished game (its Setup and
archived scores: :mod:`engine.history`), so it replays nothing. Opening a game replays
its log once for the scorepad, the log, the tokens by round and the score split; the
result is kept (a finished game does not change; one reopened by an undo and finished
again has a new ``finished`` time, so a new key).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from engine import history
from engine.endgame import final_table
from engine.events import Event
from engine.export import bgstats_link
from engine.game import Game
from engine.scoring import score
from engine.state import GameState, Phase
from web import view
from web.service import Archive, ArchivedGame

SOURCE_LABELS = {
    "cards": "Cards", "bonuses": "Card bonuses", "abilities": "End-of-game abilities",
    "fleet": "Fleet", "helium": "Helium", "sovereign": "Sovereign", "influence": "Influence",
}
ALL_TURNS = 10_000  # the whole log of a finished game


class History:
    """Builds the history's JSON for one journal; keeps the last few games opened."""

    KEEP = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: OrderedDict[tuple[int, str | None], bytes] = OrderedDict()

    def summary(self, archive: Archive | None) -> dict[str, Any]:
        """Every finished game (newest first), each player's record, each house's."""
        games = _records(archive)
        return {"journal": archive is not None,
                "games": [game_json(g) for g in games],
                "players": [p.to_json() for p in history.player_records(games)],
                "houses": [h.to_json() for h in history.house_records(games)]}

    def game(self, archive: Archive | None, game_id: int) -> bytes | None:
        """One finished game as compact JSON (None: the journal holds no such game)."""
        found = _find(archive, game_id)
        if archive is None or found is None:
            return None
        stored, setup = found
        key = (stored.id, stored.finished)
        with self._lock:
            cached = self._games.get(key)
        if cached is not None:
            return cached
        built = json.dumps(detail(stored, setup, lambda: archive.archived_events(game_id)),
                           separators=(",", ":")).encode()
        with self._lock:
            self._games[key] = built
            while len(self._games) > self.KEEP:
                self._games.popitem(last=False)
        return built


def _records(archive: Archive | None) -> list[history.GameRecord]:
    return [] if archive is None else history.records(archive.finished_games())


def _find(archive: Archive | None, game_id: int
          ) -> tuple[ArchivedGame, Event | None] | None:
    if archive is None:
        return None
    return next(iter(archive.finished_games(game_id)), None)


def game_json(game: history.GameRecord) -> dict[str, Any]:
    """A record as the page lists it, with its BG Stats link."""
    return {**game.to_json(), "bgstats": bgstats_link(game) if game.scored else None}


def detail(stored: ArchivedGame, setup: Event | None,
           events: Callable[[], Sequence[Event]]) -> dict[str, Any]:
    """One game opened: its record, the scorepad, the plots' numbers and the whole log.

    ``events`` reads the game's log; a log that cannot be read back or replayed (an
    event these rules no longer accept) leaves the record alone, said so in ``message``.
    """
    found = history.records([(stored, setup)])
    out: dict[str, Any] = {"game": game_json(found[0]) if found else None}
    try:
        game = Game.replay(events())
    except ValueError as exc:  # the journal's JournalError, the engine's IllegalActionError
        return {**out, "available": False, "message": f"the game cannot be replayed: {exc}"}
    if game.state.phase is not Phase.OVER:
        return {**out, "available": False, "message": "the game's log does not reach its end"}
    return {**out, "available": True, "message": "", **plots(game.states),
            "scorepad": view.scorepad_view(game.state),
            "log": view.log_view(list(game.log), game.states, limit=ALL_TURNS)}


def plots(states: list[GameState]) -> dict[str, Any]:
    """The numbers behind the two plots, players in the scorepad's order (from the first
    player, clockwise)."""
    table = final_table(states[-1])
    order = table.clockwise()
    series = history.token_series(states).to_json()
    split = history.score_split(score(table, notes=False))
    return {
        "series": {"labels": series["labels"],
                   "players": [series["players"][i] for i in order],
                   **{t: [series[t][i] for i in order] for t in history.TRACKS}},
        "split": {"sources": [{"key": k, "label": SOURCE_LABELS[k]} for k in history.SOURCES],
                  "players": [split[i].to_json() for i in order]},
    }


def play_view(archive: Archive | None, state: GameState) -> dict[str, Any] | None:
    """The game just finished as the live scorepad offers it: its id in the history and
    its BG Stats link (None before the end, without a journal, or unscored)."""
    if archive is None or state.phase is not Phase.OVER or archive.game_id is None:
        return None
    found = _find(archive, archive.game_id)
    games = history.records([found]) if found is not None else []
    if not games or not games[0].scored:
        return None
    return {"id": games[0].id, "bgstats": bgstats_link(games[0])}
