"""The JSON document the page renders: one per service update, built once, then shared.

A document is the view of the update's state (:func:`web.view.game_view`), the tail
of the event log that led to it, and the update's own facts (sequence number, kind,
device message). Twenty phones receiving one update cost one build.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from typing import Any

from engine import narration
from engine.endgame import hand_wanted
from engine.errors import IllegalActionError
from engine.events import Event
from engine.game import Game
from engine.rules import apply
from engine.state import GameState, Phase
from engine.tracking import Question
from web import view
from web.history import play_view
from web.labels import Namer, public_cards
from web.service import HandSeen, Service, Update

# Not shown as a notice: game updates (the log says them), the camera's own reading
# (the tracker's moves reach the log; a raw change is for the device log), the
# tracker's question (it has its own panel), and moves going unsaved (the "unsaved"
# banner says it for as long as it lasts).
QUIET_KINDS = frozenset({"start", "event", "undo", "new-game", "camera", "question",
                         "storage-failed"})
FINISHED_SHOWN = 10  # finished games listed at the end of a game


class Documents:
    """Builds and caches the JSON document of recent updates, by sequence number."""

    KEEP = 32  # built documents
    REMEMBER = 1024  # states behind the documents, for telling a stale request

    def __init__(self, service: Service, *, boot: str = "",
                 log_limit: int = view.LOG_LIMIT) -> None:
        self.service = service
        self.boot = boot  # changes when the companion restarts (sequence numbers restart)
        self.log_limit = log_limit
        self._lock = threading.Lock()
        self._cache: OrderedDict[int, bytes] = OrderedDict()
        self._states: OrderedDict[int, GameState] = OrderedDict()  # what each seq showed

    def json(self, update: Update) -> bytes:
        """The update's document as compact JSON (UTF-8)."""
        with self._lock:
            cached = self._cache.get(update.seq)
            if cached is None:
                cached = json.dumps(self.build(update), separators=(",", ":")).encode()
                self._cache[update.seq] = cached
                self._states[update.seq] = update.state
                while len(self._cache) > self.KEEP:
                    self._cache.popitem(last=False)
                while len(self._states) > self.REMEMBER:
                    self._states.popitem(last=False)
            return cached

    def state_of(self, seq: int) -> GameState | None:
        """The game state a document this server sent showed (None if long gone)."""
        with self._lock:
            found = self._states.get(seq)
        if found is None:
            found = next((u.state for u in self.service.history() if u.seq == seq), None)
        return found

    def build(self, update: Update) -> dict[str, Any]:
        """The document as a dict."""
        events, states, start = history(self.service.game, update.state, self.log_limit)
        doc: dict[str, Any] = {
            "boot": self.boot,
            "seq": update.seq,
            "kind": update.kind,
            "source": update.source,
            "notice": None if update.kind in QUIET_KINDS else update.message or update.kind,
            "unsaved": self.service.unsaved,
        }
        doc.update(view.game_view(update.state))
        doc["last_roll"] = view.roll_view(events, states, start)
        if doc["automa"] is not None:
            doc["automa"]["turn"] = view.automa_turn_view(states)
        doc["log"] = view.log_view(events, states, start=start)
        doc["can_undo"] = start + len(events) > 1  # the setup itself is never undone here
        doc["question"] = question_view(self.service.question, update.state)
        doc["hand_seen"] = hand_seen_view(self.service.hand_seen, update.state)
        doc["finished"] = finished_games(self.service, update.state)
        doc["play"] = play_view(self.service.journal, update.state)
        return doc


def hand_seen_view(seen: HandSeen | None, state: GameState) -> dict[str, Any] | None:
    """The camera's reading of the hand the game waits for (stale readings are dropped)."""
    if seen is None or hand_wanted(state) != seen.player:
        return None
    return {"player": seen.player, "cards": list(seen.cards), "unnamed": seen.unnamed}


def history(game: Game, state: GameState, limit: int
            ) -> tuple[list[Event], list[GameState], int]:
    """The last ``limit`` events up to ``state``, the states around them, the first index.

    The engine thread may be appending while this reads, so the log is cut at the
    position of ``state`` itself (found by identity), never at the current end.
    """
    states = list(game.states)  # states first: the engine appends to the log first
    events = list(game.log)
    end = next((k for k in range(len(states) - 1, -1, -1) if states[k] is state), None)
    if end is None or end > len(events):
        end = min(len(events), len(states) - 1)
    start = max(0, end - limit)
    return events[start:end], states[start:end + 1], start


def question_view(question: Question | None, state: GameState) -> dict[str, Any] | None:
    """The tracker's open question, worded by the narration: its prompt and one button
    per reading (played from the question's ``start``). A location question ("what is on
    top of Luna?") also gives that location and its count now."""
    if question is None:
        return None
    ask = question.ask
    start = getattr(question, "start", None) or state  # where its readings are played from
    namer = Namer(public_cards(start) | public_cards(state) | _shown(ask, start))
    view = {"prompt": narration.question_text(ask), "kind": ask.kind.value,
            "options": [{"index": i, "label": narration.reading_text(r, start, ask.player,
                                                                    namer)}
                        for i, r in enumerate(ask.readings)]}
    return _located(view, ask.location, state)


def _shown(ask: narration.Phrasing, start: GameState) -> frozenset[str]:
    """Cards a reading puts face up on the table: the camera saw them there."""
    shown: frozenset[str] = frozenset()
    for reading in ask.readings:
        state = start
        with contextlib.suppress(IllegalActionError):
            for event in reading.events:
                state = apply(state, event)
        shown |= public_cards(state)
    return shown


def _located(view: dict[str, Any], where: Any, state: GameState) -> dict[str, Any]:
    if where is not None:
        view["location"] = where.value
        view["count"] = len(state.stack_at(where))
    return view


def finished_games(service: Service, state: GameState) -> list[dict[str, Any]] | None:
    """The games the journal holds as over, newest first, with their scores (listed
    before a game and after one; None while a game is being played)."""
    journal = service.journal
    if journal is None or state.phase not in (Phase.OVER, Phase.SETUP):
        return None
    games = []
    for game in journal.archive():
        scores = game.scores if isinstance(game.scores, dict) else None
        if game.status != "over" or scores is None:
            continue
        games.append({"id": game.id, "finished": game.finished,
                      "players": [{"name": str(p.get("name")), "total": p.get("total")}
                                  for p in scores.get("players", [])],
                      "winners": [str(w) for w in scores.get("winners", [])]})
        if len(games) == FINISHED_SHOWN:
            break
    return games
