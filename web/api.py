"""The JSON API: the state and the card list for anyone, controls for the table.

Controls (answer a decision, undo, corrections) need the table PIN and a CSRF token
(:mod:`web.auth`). Bodies are validated before anything is sent to the engine
(:mod:`web.validate`); the engine then checks the rules. Every refusal is a 4xx with
``{"error": message}`` and leaves the game as it was. A body may carry ``seq``, the
document the page showed: if the game has changed since, the request is refused (409)
instead of acting on a game the player did not see.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

from flask import Blueprint, Response, current_app

from engine.board import Location
from engine.cards import ALL_IDS
from engine.events import Event
from engine.tracking import LOCATION, MAX_TOLD_DEPTH, location_answer
from web import validate, view
from web.auth import require_table
from web.errors import BadInput, Conflict, Rejected, Unavailable
from web.service import (
    BUTTONS,
    AnswerQuestion,
    Command,
    NewGame,
    Play,
    Press,
    Service,
    Undo,
    Update,
)
from web.validate import Body

bp = Blueprint("api", __name__, url_prefix="/api")
OPENAPI = Path(__file__).with_name("openapi.yaml")


def service() -> Service:
    found: Service = current_app.extensions["companion"]
    return found


def document(update: Update) -> Response:
    """The update's document as the response body."""
    data = current_app.extensions["companion_web"].documents.json(update)
    return Response(data, mimetype="application/json")


@bp.get("/state")
def state() -> Response:
    """The current document (the same one the event stream sends)."""
    return document(service().snapshot())


@bp.get("/cards")
def cards() -> Response:
    """Every card, for the searchable picker."""
    data = current_app.extensions["companion_web"].cards_json
    return Response(data, mimetype="application/json")


@bp.get("/openapi.yaml")
def openapi() -> Response:
    """This API's description."""
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


# --- controls ------------------------------------------------------------------------


@bp.post("/answer")
@require_table
def answer() -> Response:
    """Answer the pending decision with one of its options (by index)."""
    body = _body()
    index = body.integer("index", 0, 10_000)
    seq = body.integer("seq", 0, 2**53)
    card = body.card(optional=True)
    hand = validate.hand(body)
    body.done()
    with _command_lock():
        _check_fresh(seq)
        pending = service().snapshot().state.pending
        if pending is None:
            raise Conflict("nothing is being asked right now")
        assert index is not None
        if index >= len(pending.options):
            raise Rejected(f"option {index} does not exist: there are {len(pending.options)}")
        return _play(validate.fill(pending.options[index], card, hand))


@bp.post("/game")
@require_table
def new_game() -> Response:
    """Start tracking a new physical game (the current one is set aside in the journal)."""
    body = _body()
    svc = service()
    setup = validate.new_game(body, svc.camera_reading, svc.rng)
    body.done()
    with _command_lock():
        return document(_call(NewGame(setup, source="web")))


@bp.post("/question")
@require_table
def question() -> Response:
    """Answer the tracker's open question: which reading of the table is right, or
    what lies on top of the location the camera cannot read."""
    body = _body()
    open_question = service().question
    if open_question is not None and open_question.kind == LOCATION:
        assert open_question.location is not None  # a location question names one
        return _tell(body, open_question.location)
    index = body.integer("index", 0, 10_000)
    body.done()
    if open_question is None:
        raise Conflict("there is no open question")
    assert index is not None
    if index >= len(open_question.readings):
        raise Rejected(f"answer {index} does not exist: there are "
                       f"{len(open_question.readings)}")
    with _command_lock():
        return document(_call(AnswerQuestion(index, source="web")))


def _tell(body: Body, where: Location) -> Response:
    """"What is on top of Luna?": ``top`` is "card" (with ``card``), "face_down" or
    "empty"; ``count``, the cards there, follows from the game when left out."""
    top = body.choice("top", ("card", "face_down", "empty"), default="")
    card = body.card(optional=True)
    count = body.integer("count", 0, MAX_TOLD_DEPTH, optional=True)
    body.done()
    if not top:
        raise BadInput("'top' must be one of card, face_down, empty")
    if (top == "card") != (card is not None):
        raise BadInput("'card' names the card on top, and only when 'top' is card")
    with _command_lock():
        try:
            told = location_answer(service().game.state, where, card,
                                   face_down=top == "face_down", depth=count)
        except ValueError as exc:
            raise Rejected(str(exc)) from exc
        return document(_call(AnswerQuestion(0, source="web", told=told)))


@bp.post("/undo")
@require_table
def undo() -> Response:
    """Take back the last event (with the die rolls it caused)."""
    body = _body()
    seq = body.integer("seq", 0, 2**53, optional=True)
    body.done()
    with _command_lock():
        _check_fresh(seq)
        game = service().game
        if len(game.log) <= 1:
            raise Conflict("nothing to undo: only the setup is left")
        return document(_call(Undo(source="web")))


@bp.post("/press")
@require_table
def press() -> Response:
    """Press one of the table's buttons (DIE, AUTOMA, NEXT, UNDO) from the page."""
    body = _body()
    button = body.choice("button", BUTTONS, default="")
    body.done()
    if not button:
        raise BadInput(f"'button' must be one of {', '.join(BUTTONS)}")
    with _command_lock():
        return document(_call(Press(button, source="web")))


def _correction(build: Callable[[Body], Event]) -> Response:
    body = _body()
    seq = body.integer("seq", 0, 2**53, optional=True)
    event = build(body)
    body.done()
    with _command_lock():
        _check_fresh(seq)
        return _play(event)


@bp.post("/corrections/location")
@require_table
def set_location() -> Response:
    """Set a location's cards, oldest first."""
    return _correction(validate.set_location)


@bp.post("/corrections/tokens")
@require_table
def set_tokens() -> Response:
    """Set a player's Helium, Influence placed and Fleet position."""
    return _correction(validate.set_tokens)


@bp.post("/corrections/sovereign")
@require_table
def set_sovereign() -> Response:
    """Give the Sovereign token to a player (or to nobody)."""
    return _correction(validate.set_sovereign)


@bp.post("/corrections/hand")
@require_table
def set_hand_count() -> Response:
    """Set how many cards a player holds."""
    return _correction(validate.set_hand_count)


@bp.post("/corrections/identify")
@require_table
def identify() -> Response:
    """Name an unidentified card on a location."""
    return _correction(validate.identify)


# --- helpers ----------------------------------------------------------------------------


def _body() -> Body:
    return validate.request_body()


def _command_lock() -> threading.Lock:
    lock: threading.Lock = current_app.extensions["companion_web"].command_lock
    return lock


def _check_fresh(seq: int | None) -> None:
    """Refuse a request made against a game state that has since changed.

    Device notices (camera lost…) advance the sequence without changing the game, so
    the test is whether the game state of update ``seq`` is still the current one.
    """
    if seq is None:
        return
    current = service().snapshot()
    if seq > current.seq:
        raise BadInput(f"'seq' {seq} is ahead of the game ({current.seq})")
    if seq == current.seq:
        return
    seen = current_app.extensions["companion_web"].documents.state_of(seq)
    if seen is None or seen is not current.state:
        raise Conflict(f"the game has changed since update {seq} (now {current.seq}): "
                       "look again and retry")


def _play(event: Event) -> Response:
    return document(_call(Play(event, source="web")))


def _call(command: Command) -> Update:
    timeout = float(current_app.config["ENGINE_TIMEOUT"])
    try:
        return service().call(command, timeout)
    except ValueError as exc:  # the engine's rule errors (IllegalActionError and kin)
        raise Rejected(str(exc)) from exc
    except FutureTimeout as exc:
        raise Unavailable("the engine did not answer in time; try again") from exc


def cards_payload() -> dict[str, object]:
    """The card list served by ``GET /api/cards``."""
    return {"cards": [view.card_view(cid) for cid in ALL_IDS]}
