"""The games' history: the ``/games`` page and its JSON (:mod:`web.history` builds it).

Reading only, open to everyone on the table's Wi-Fi like the game itself: what the
history shows of a finished game (names, houses, scores, the log) was public at the
table when it ended.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template

from web.errors import NotFound
from web.history import History
from web.service import Archive, Service

bp = Blueprint("games", __name__)


def _history() -> History:
    """The app's history (made on first use; setdefault keeps one if two requests race)."""
    found = current_app.extensions.get("companion_history")
    if found is None:
        found = current_app.extensions.setdefault("companion_history", History())
    assert isinstance(found, History)
    return found


def _journal() -> Archive | None:
    service: Service = current_app.extensions["companion"]
    return service.journal


@bp.get("/games")
def page() -> str:
    """The finished games, each player's record, and one game opened (HTML)."""
    return render_template("games.html")


@bp.get("/api/games")
def games() -> Response:
    """Every finished game in the journal (newest first), each player's and house's record."""
    return jsonify(_history().summary(_journal()))


@bp.get("/api/games/<int:game_id>")
def game(game_id: int) -> Response:
    """One finished game: its record, scorepad, tokens by round, score split and log."""
    found = _history().game(_journal(), game_id)
    if found is None:
        raise NotFound(f"the journal holds no finished game {game_id}")
    return Response(found, mimetype="application/json")
