"""The page's view of a game: pure functions from engine states to JSON-able dicts.

Hidden information stops here: hands are sizes, the deck is a count, face-down cards
and Au Toma's cards are never named, and a decision option or log line that would
name a card the table has not seen is withheld (options) or blanked (log lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import endgame, rulings, scoring
from engine.board import LOCATIONS, Location
from engine.cards import CARDS
from engine.decisions import Kind
from engine.draft import TRIGGER_AT
from engine.events import Event
from engine.state import GameState, Phase, Player, Slot
from web import labels
from web.labels import Namer, public_cards

CONDITIONS = ("helium", "influence", "fleet")
LOG_LIMIT = 40
SCORE_ROWS = {
    scoring.Step.END_OF_GAME: "End-of-game abilities",
    scoring.Step.CARDS_CORE: "Character cards: core values",
    scoring.Step.CARDS_BONUS: "Character cards: bonuses",
    scoring.Step.FLEET: "Fleet Track",
    scoring.Step.HELIUM: "Helium",
    scoring.Step.SOVEREIGNTY: "Sovereign",
    scoring.Step.INFLUENCE: "Influence",
    scoring.Step.EXCESS_CARDS: "Excess cards",
}


def game_view(state: GameState) -> dict[str, Any]:
    """Everything the page shows about one state (no log: see :func:`log_view`)."""
    public = public_cards(state)
    return {
        "phase": state.phase.value,
        "turn": turn_view(state),
        "locations": [location_view(state, loc, public) for loc in LOCATIONS],
        "players": [player_view(state, i) for i in range(len(state.players))],
        "deck_count": state.deck_count,
        "banished": [Namer(public).card(c) for c in state.banished],
        "revealed": [Namer(public).card(c) for c in state.revealed],
        "sovereign": state.sovereign,
        "endgame": endgame_view(state),
        "last_roll": roll_view(state.last_roll),
        "pending": pending_view(state),
        "automa": automa_view(state),
        "scorepad": scorepad_view(state),
        "rulings": rulings.in_effect(state.variants),
    }


# --- cards and locations ------------------------------------------------------------------


def card_view(card_id: str) -> dict[str, Any]:
    """A catalogue card: name, caste (colour and its name), core value, ability summary."""
    card = CARDS[card_id]
    return {
        "id": card.id,
        "name": card.name,
        "caste": card.color.value,
        "caste_name": labels.titled(card.color.value),
        "core": card.core,
        "summary": ability_summary(card_id),
    }


def ability_summary(card_id: str) -> str:
    """The card's ability in one line: deploy, else block, else end of game."""
    card = CARDS[card_id]
    if card.deploy:
        return card.deploy
    if card.block:
        return f"Block: {card.block}"
    if card.end_of_game:
        return f"End of game: {card.end_of_game}"
    return "No ability; scores by its bonuses."


def slot_view(slot: Slot, public: frozenset[str]) -> dict[str, Any]:
    """A stack card as the table sees it."""
    if slot.face_down:
        return {"id": None, "name": "Face-down card", "face_down": True}
    if slot.card is None or slot.card not in public:
        return {"id": None, "name": "Unidentified card", "face_down": False}
    return {**card_view(slot.card), "face_down": False}


def location_view(state: GameState, location: Location,
                  public: frozenset[str] | None = None) -> dict[str, Any]:
    """One location: its top card in full, the depth, the covered cards oldest first."""
    public = public_cards(state) if public is None else public
    stack = state.stack_at(location)
    return {
        "id": location.value,
        "name": location.label,
        "bonus": location.bonus.value,
        "depth": len(stack),
        "top": slot_view(stack[-1], public) if stack else None,
        "covered": [slot_view(slot, public) for slot in stack[:-1]],
    }


# --- players, turn, end game ------------------------------------------------------------------


def player_view(state: GameState, index: int) -> dict[str, Any]:
    """A seat: house, tokens, Fleet points, Sovereign, hand size (never its cards)."""
    p = state.players[index]
    return {
        "index": index,
        "name": p.name,
        "house": p.house.value if p.house else None,
        "house_name": _house_name(p),
        "automa": p.automa,
        "helium": p.helium,
        "influence": p.influence,
        "fleet": p.fleet,
        "fleet_points": scoring.FLEET_POINTS[p.fleet],
        "sovereign": state.sovereign == index,
        "hand": p.hand.size,
        "turns": p.turns,
        "current": state.turn is not None and state.current == index,
        "conditions": conditions(p),
    }


def _house_name(player: Player) -> str:
    if player.automa:
        return "solo opponent"
    return f"House {labels.titled(player.house.value)}" if player.house else "No house"


def conditions(player: Player) -> dict[str, bool]:
    """Which of the three end-game conditions (7+ each) the player meets."""
    values = {"helium": player.helium, "influence": player.influence, "fleet": player.fleet}
    return {name: values[name] >= TRIGGER_AT for name in CONDITIONS}


def turn_view(state: GameState) -> dict[str, Any] | None:
    """Whose turn it is and the table's turn number (turns taken so far, plus this one)."""
    if state.turn is None or not state.players:
        return None
    return {
        "number": sum(p.turns for p in state.players) + 1,
        "player": state.current,
        "name": state.players[state.current].name,
        "kind": state.turn.kind,
    }


def endgame_view(state: GameState) -> dict[str, Any]:
    """The end-game meter: conditions per player, then the countdown once triggered."""
    left = endgame.turns_left(state)
    trigger = state.trigger
    view: dict[str, Any] = {
        "triggered": trigger is not None,
        "by": None if trigger is None else labels.player_name(state, trigger.player),
        "conditions": [] if trigger is None else list(trigger.conditions),
        "turns_left": {str(i): n for i, n in left.items()},
        "total_left": sum(left.values()),
        "apollo_last": _apollo_last(state, left),
    }
    view["text"] = _endgame_text(state, view)
    return view


def _apollo_last(state: GameState, left: dict[int, int]) -> bool:
    """True while House Apollo's extra last turn is still to come."""
    seat = endgame.apollo_seat(state.players)
    if seat is None or state.phase is not Phase.PLAYING or left.get(seat, 0) <= 0:
        return False
    return not (state.turn is not None and state.turn.kind == "apollo-last")


def _endgame_text(state: GameState, view: dict[str, Any]) -> str:
    if state.phase in (Phase.FINALE, Phase.OVER):
        return "Game over" if state.phase is Phase.OVER else "End-of-game abilities"
    if not view["triggered"]:
        return "Not triggered: all three conditions across the table, or two for one player"
    if state.turn is not None and state.turn.kind == "apollo-last":
        return "End triggered — Apollo's last turn"
    n = view["total_left"]  # engine.endgame.turns_left counts a turn in progress
    text = f"End triggered — {n} turn{'' if n == 1 else 's'} left"
    return text + (", Apollo plays last" if view["apollo_last"] else "")


def roll_view(face: str | None) -> dict[str, str] | None:
    """The last die roll."""
    return None if face is None else {"face": face, "label": labels.titled(face)}


# --- decisions --------------------------------------------------------------------------


def pending_view(state: GameState) -> dict[str, Any] | None:
    """The decision the game waits on, with the options the table may see as buttons."""
    decision = state.pending
    if decision is None:
        return None
    public = public_cards(state)
    options, hidden = [], 0
    if decision.is_chance and decision.kind is Kind.RANDOM:
        hidden = len(decision.options)  # a random outcome is the device's to draw, unseen
    for index, option in enumerate(decision.options[: 0 if hidden else None]):
        namer = Namer(public)
        label = labels.option_label(option, state, namer)
        group = labels.option_group(option, namer)
        if namer.redacted:
            hidden += 1  # answered where the card is known (the player, the camera)
            continue
        options.append({"index": index, "label": label, "group": group,
                        "short": labels.option_short(option),
                        "names_card": labels.names_card(option)})
    return {
        "kind": decision.kind.value,
        "player": decision.player,
        "player_name": labels.player_name(state, decision.player),
        "chance": decision.is_chance,
        "prompt": decision.prompt,
        "options": options,
        "hidden_options": hidden,
        "hand": hand_view(state),
    }


def hand_view(state: GameState) -> dict[str, Any] | None:
    """At the end, the hand the game waits to see laid out: its size and known cards."""
    seat = endgame.hand_wanted(state)
    if seat is None:
        return None
    hand = state.players[seat].hand
    return {"player": seat, "size": hand.size, "known": list(hand.known)}


# --- Au Toma -------------------------------------------------------------------------------


def automa_view(state: GameState) -> dict[str, Any] | None:
    """Au Toma's panel: current step, tokens, hand size, level, parity; never her cards."""
    seat = next((i for i, p in enumerate(state.players) if p.automa), None)
    if seat is None:
        return None
    p = state.players[seat]
    info = getattr(state, "automa", None)  # engine.automa_state.AutomaState, when set up
    deck = getattr(info, "deck", None)
    return {
        "player": seat, "name": p.name, "helium": p.helium, "influence": p.influence,
        "fleet": p.fleet, "fleet_points": scoring.FLEET_POINTS[p.fleet], "hand": p.hand.size,
        "level": _plain(getattr(info, "level", None)),
        "parity": _plain(getattr(info, "parity", None)),
        "step": _automa_step(state, seat),
        "deck": len(deck) if isinstance(deck, tuple) else None,  # a count, never the order
    }


def _automa_step(state: GameState, seat: int) -> str | None:
    """What she is doing: the instruction she waits on the table for, else her turn."""
    pending = state.pending
    if pending is not None and pending.player == seat:
        return Namer(public_cards(state)).text(pending.prompt)
    if state.turn is not None and state.current == seat:
        return f"{state.players[seat].name}'s turn"
    return None


def _plain(value: object) -> str | int | None:
    """A plain number or word (never a structure that could hold card ids)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    return value


# --- the scorepad ---------------------------------------------------------------------------


def scorepad_view(state: GameState) -> dict[str, Any] | None:
    """The final scorepad, row by row as on the paper pad, once the game is over."""
    if state.phase is not Phase.OVER:
        return None
    final_table = getattr(endgame, "final_table", None)
    if final_table is None:
        return {"available": False, "message": "This engine cannot score a live game yet."}
    try:
        table = final_table(state)
    except ValueError as exc:
        return {"available": False, "message": str(exc)}
    sheet = scoring.score(table, notes=False)
    order = table.clockwise()
    columns = [sheet.players[i] for i in order]
    return {
        "available": True,
        "players": [c.name for c in columns],
        "rows": [{"step": step.value, "label": label, "points": [c.points(step) for c in columns]}
                 for step, label in SCORE_ROWS.items()],
        "totals": [c.total for c in columns],
        "winners": list(sheet.winners),
        "by_sovereign": sheet.by_sovereign,
    }


# --- the log -------------------------------------------------------------------------------


def log_view(events: Sequence[Event], states: Sequence[GameState], *, limit: int = LOG_LIMIT,
             start: int = 0) -> list[dict[str, Any]]:
    """The newest ``limit`` events, newest first.

    ``states[i]`` is the state before ``events[i]`` and ``states[-1]`` the one after the
    last; ``start`` is the log index of ``events[0]`` (when given the tail of a long log).
    """
    if len(states) != len(events) + 1:
        raise ValueError("one state before each event and one after the last")
    first = max(0, len(events) - limit)
    return [log_entry(start + i, events[i], states[i], states[i + 1])
            for i in range(len(events) - 1, first - 1, -1)]


def log_entry(index: int, event: Event, before: GameState, after: GameState) -> dict[str, Any]:
    """One log line and the visible changes it caused."""
    namer = Namer(public_cards(before) | public_cards(after) | labels.shown(after.changes))
    return {
        "index": index,
        "text": labels.event_line(event, before, after, namer),
        "details": [labels.change_line(c, after, namer) for c in after.changes
                    if c.kind not in _SAID_BY_LINE.get(type(event).__name__, ())],
    }


_SAID_BY_LINE = {"Lead": ("deploy",), "Place": ("place",), "Roll": ("roll",),
                 "SetTokens": ("tokens",), "Resolve": ("end-of-game",)}
