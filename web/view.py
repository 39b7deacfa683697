"""The page's view of a game: pure functions from engine states to JSON-able dicts.

Hidden information stops here: hands are sizes, the deck is a count, face-down cards
and Au Toma's cards are never named, and a decision option or log line that would
name a card the table has not seen is withheld (options) or blanked (log lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import endgame, narration, rulings, scoring
from engine.board import LOCATIONS, Location
from engine.cards import CARDS
from engine.decisions import Kind
from engine.draft import TRIGGER_AT
from engine.events import Event, SetHandCount, SetLocation, SetSovereign, SetTokens, Setup
from engine.state import Change, ChangeKind, GameState, Phase, Player, Slot, TurnKind
from web import labels
from web.labels import Namer, public_cards

CONDITIONS = ("helium", "influence", "fleet")
LOG_LIMIT = 120  # events read for the log (Au Toma's reshuffle alone is 18)
LOG_TURNS = 12  # turns shown
SCORE_ROWS = {
    scoring.ScoreStep.END_OF_GAME: "End-of-game abilities",
    scoring.ScoreStep.CARDS_CORE: "Character cards: core values",
    scoring.ScoreStep.CARDS_BONUS: "Character cards: bonuses",
    scoring.ScoreStep.FLEET: "Fleet Track",
    scoring.ScoreStep.HELIUM: "Helium",
    scoring.ScoreStep.SOVEREIGNTY: "Sovereign",
    scoring.ScoreStep.INFLUENCE: "Influence",
    scoring.ScoreStep.EXCESS_CARDS: "Excess cards",
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
        "last_roll": None,  # the document sets it: a roll of this turn or the one before
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
        "caste_name": narration.titled(card.color.value),
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
    return f"House {narration.titled(player.house.value)}" if player.house else "No house"


def conditions(player: Player) -> dict[str, bool]:
    """Which of the three end-game conditions (7+ each) the player meets."""
    values = {"helium": player.helium, "influence": player.influence, "fleet": player.fleet}
    return {name: values[name] >= TRIGGER_AT for name in CONDITIONS}


def turn_view(state: GameState) -> dict[str, Any] | None:
    """Whose turn it is and the round (every seat plays once a round)."""
    if state.turn is None or not state.players:
        return None
    return {
        "round": narration.round_of(state),
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
        "by": None if trigger is None else narration.player(state, trigger.player),
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
    return not (state.turn is not None and state.turn.kind == TurnKind.APOLLO_LAST)


def _endgame_text(state: GameState, view: dict[str, Any]) -> str:
    if state.phase in (Phase.FINALE, Phase.OVER):
        return "Game over" if state.phase is Phase.OVER else "End-of-game abilities"
    if not view["triggered"]:
        return "Not triggered: all three conditions across the table, or two for one player"
    if state.turn is not None and state.turn.kind == TurnKind.APOLLO_LAST:
        return "End triggered — Apollo's last turn"
    n = view["total_left"]  # engine.endgame.turns_left counts a turn in progress
    text = f"End triggered — {n} turn{'' if n == 1 else 's'} left"
    return text + (", Apollo plays last" if view["apollo_last"] else "")


def roll_view(events: Sequence[Event], states: Sequence[GameState], start: int = 0
              ) -> dict[str, Any] | None:
    """The die rolled during this turn or the one before (older rolls are not shown).

    ``states[i]`` is the state before ``events[i]``; ``start`` the log index of
    ``events[0]``.
    """
    turns = 0
    for i in range(len(events) - 1, -1, -1):
        after = states[i + 1]
        for change in reversed(after.changes):
            if change.kind == ChangeKind.ROLL and change.card:
                who = narration.player(after, change.player) if change.player is not None \
                    else "The die"
                return {"face": change.card, "label": narration.face_word(change.card),
                        "text": narration.roll_text(change.card, who), "index": start + i}
            if change.kind == ChangeKind.TURN:
                turns += 1
                if turns == 2:
                    return None
        if isinstance(events[i], Setup):
            return None
    return None


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
        label = narration.answer_text(option, state, namer)
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
        "player_name": narration.player(state, decision.player),
        "chance": decision.is_chance,
        "prompt": narration.prompt_text(decision, state, Namer(public)),
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
    """Au Toma's facts: tokens, hand size, level, parity; never her cards (see
    :func:`automa_turn_view` for the card she is playing)."""
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
        "deck": len(deck) if isinstance(deck, tuple) else None,  # a count, never the order
        "turn": None,  # the document sets it from the history: automa_turn_view
    }


def automa_turn_view(states: Sequence[GameState]) -> dict[str, Any] | None:
    """Her card in play: its number, each step (done, now, next), what the table waits on.

    Her card numbers are public (she turns them face up); the cards she deploys are the
    deck's, named only once the table sees them.
    """
    turn = narration.automa_turn(states)
    if turn is None:
        return None
    state = states[-1]
    namer = Namer(public_cards(state))
    now = turn.now
    return {
        "card": turn.card,
        "name": state.players[turn.seat].name,
        "steps": [{"text": step.text(namer), "status": step.status.value}
                  for step in turn.steps],
        "waiting": narration.automa_waits_for(now.event) if now is not None else None,
    }


def _plain(value: object) -> str | int | None:
    """A plain number or word (never a structure that could hold card ids)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    return value


# --- the scorepad ---------------------------------------------------------------------------

SCORE_HELP = {
    scoring.ScoreStep.END_OF_GAME: "Points from the end-of-game abilities of cards in hand.",
    scoring.ScoreStep.CARDS_CORE: "The core value printed on each card in hand.",
    scoring.ScoreStep.CARDS_BONUS: "Each card's bonus clauses, scored against the final table.",
    scoring.ScoreStep.FLEET: "Points for the ship's position on the Fleet Track.",
    scoring.ScoreStep.HELIUM: f"{scoring.HELIUM_POINTS} points per Helium.",
    scoring.ScoreStep.SOVEREIGNTY: f"{scoring.SOVEREIGN_POINTS} points for the Sovereign token.",
    scoring.ScoreStep.INFLUENCE: "Influence on the Institute, per token by rank: "
                            + ", ".join(map(str, scoring.INFLUENCE_RATES)) + " points.",
    scoring.ScoreStep.EXCESS_CARDS: f"{scoring.EXCESS_PENALTY} points off per card past the"
                               f" {scoring.HAND_LIMIT}th in hand.",
}


def scorepad_view(state: GameState) -> dict[str, Any] | None:
    """The final scorepad, row by row as on the paper pad, once the game is over; each
    row carries its rule and every player's reasons (shown on tap)."""
    if state.phase is not Phase.OVER:
        return None
    try:
        table = endgame.final_table(state)
    except ValueError as exc:
        return {"available": False, "message": str(exc)}
    sheet = scoring.score(table, notes=False)
    columns = [sheet.players[i] for i in table.clockwise()]
    return {
        "available": True,
        "players": [c.name for c in columns],
        "rows": [{"step": step.value, "label": label, "help": SCORE_HELP[step],
                  "points": [c.points(step) for c in columns],
                  "why": [_reasons(c, step) for c in columns]}
                 for step, label in SCORE_ROWS.items()],
        "totals": [c.total for c in columns],
        "winners": list(sheet.winners),
        "by_sovereign": sheet.by_sovereign,
    }


def _reasons(column: scoring.PlayerScore, step: scoring.ScoreStep) -> list[str]:
    return [line for row in column.rows if row.step is step for line in row.lines]


# --- the log -------------------------------------------------------------------------------


def log_view(events: Sequence[Event], states: Sequence[GameState], *, limit: int = LOG_TURNS,
             start: int = 0) -> list[dict[str, Any]]:
    """The newest ``limit`` turns, newest first: one entry per turn, its moves inside.

    ``states[i]`` is the state before ``events[i]`` and ``states[-1]`` the one after the
    last; ``start`` is the log index of ``events[0]`` (when given the tail of a long log,
    whose first turn may be cut and is then left out).
    """
    if len(states) != len(events) + 1:
        raise ValueError("one state before each event and one after the last")
    groups = _turns(events, states)
    changes = _changes_by_turn(groups, states)
    entries = [_entry(start, events, states, group, seen)
               for group, seen in zip(groups, changes, strict=True)]
    if start > 0 and len(entries) > 1:
        entries = entries[1:]
    return entries[-limit:][::-1]


def _changes_by_turn(groups: list[list[int]], states: Sequence[GameState]
                     ) -> list[list[Change]]:
    """Each turn's changes: what follows the change that starts the next turn (Au Toma
    turning over her first card) belongs to that turn."""
    out: list[list[Change]] = [[] for _ in range(len(groups) + 1)]  # + the turn just begun
    for g, group in enumerate(groups):
        bucket = g
        for i in group:
            for change in states[i + 1].changes:
                if change.kind == ChangeKind.TURN:
                    bucket = g + 1
                out[bucket].append(change)
    return out[:-1]


CORRECTIONS = (SetLocation, SetTokens, SetSovereign, SetHandCount)  # an entry each


def _turns(events: Sequence[Event], states: Sequence[GameState]) -> list[list[int]]:
    groups: list[list[int]] = []
    key: object = None
    for i, event in enumerate(events):
        k: object = ("correction", i) if isinstance(event, CORRECTIONS) else _turn_key(states[i])
        if not groups or isinstance(event, Setup) or k != key:
            groups.append([])
        groups[-1].append(i)
        key = k
    return groups


def _turn_key(state: GameState) -> object:
    if state.turn is None or not state.players:
        return state.phase
    return state.current, state.players[state.current].turns


def _entry(start: int, events: Sequence[Event], states: Sequence[GameState],
           group: list[int], changes: list[Change]) -> dict[str, Any]:
    first = states[group[0]]
    lines = [text for i in group if (text := _line(events[i], states[i], states[i + 1]))]
    namer = _namer(states[group[0]], states[group[-1] + 1], changes)
    if isinstance(events[group[0]], CORRECTIONS):
        title, text = "Correction", lines[0].removeprefix("Correction: ")
    elif first.turn is not None and first.players and not isinstance(events[group[0]], Setup):
        who = first.players[first.current].name
        title = f"Round {narration.round_of(first)} · {who}"
        text = _summary(changes, first.current, states[group[-1] + 1], namer) or lines[0]
    else:
        title, text = _phase_title(first, events[group[0]]), lines[0] if lines else ""
    return {"index": start + group[0], "title": title, "text": text,
            "lines": lines, "round": narration.round_of(first) or None}


def _phase_title(state: GameState, event: Event) -> str:
    if isinstance(event, Setup):
        return "New game"
    return {Phase.FINALE: "End of the game", Phase.OVER: "Game over"}.get(state.phase, "Table")


def _namer(before: GameState, after: GameState, changes: Sequence[Change]) -> Namer:
    return Namer(public_cards(before) | public_cards(after) | labels.shown(changes))


def _line(event: Event, before: GameState, after: GameState) -> str | None:
    """One event's line; a random pick says nothing but the shuffle it completes."""
    pending = before.pending
    if pending is not None and pending.is_chance and pending.kind is Kind.RANDOM:
        shuffled = next((c for c in after.changes if c.kind == ChangeKind.AUTOMA_SHUFFLE), None)
        return None if shuffled is None else narration.change_text(shuffled, after)
    return narration.line(event, before, after, _namer(before, after, after.changes))


_SUMMARY = (
    ChangeKind.AUTOMA_CARD, ChangeKind.DEPLOY, ChangeKind.GAIN, ChangeKind.PLACE,
    ChangeKind.PLACE_UNDER, ChangeKind.PLACE_DOWN, ChangeKind.MOVE, ChangeKind.BANISH,
    ChangeKind.ROLL, ChangeKind.STEAL, ChangeKind.BLOCK, ChangeKind.SOVEREIGN,
    ChangeKind.TRIGGER, ChangeKind.AUTOMA_SHUFFLE, ChangeKind.DRAW, ChangeKind.RULING,
)


_TOKENS = (ChangeKind.HELIUM, ChangeKind.INFLUENCE, ChangeKind.FLEET)  # summed per player


def _summary(changes: Sequence[Change], seat: int, state: GameState, namer: Namer) -> str:
    """A turn in one line: its moves, then the tokens each player gained or lost."""
    parts = [_without_subject(narration.change_text(c, state, namer), state, seat, c)
             for c in changes if c.kind in _SUMMARY]
    totals: dict[tuple[int, str], int] = {}
    for c in changes:
        if c.kind in _TOKENS and c.player is not None:
            totals[(c.player, c.kind)] = totals.get((c.player, c.kind), 0) + c.amount
    for (who, kind), amount in totals.items():
        if amount:
            name = "" if who == seat else f"{narration.player(state, who)} "
            parts.append(f"{name}{amount:+d} {narration.titled(kind)}")
    return ", ".join(p for p in parts if p)


def _without_subject(text: str, state: GameState, seat: int, change: Change) -> str:
    name = narration.player(state, seat)
    if change.player == seat and text.startswith(f"{name} "):
        return text[len(name) + 1:]
    return text
