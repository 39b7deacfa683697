"""Readable text for the page: decision options, log lines and visible changes.

Every card name goes through a :class:`Namer`, which names only the cards the whole
table has seen and records when it had to withhold one, so the caller can drop an
option or keep a log line that would otherwise give a hidden card away.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine import finale
from engine.board import Location
from engine.cards import CARDS
from engine.decisions import Kind
from engine.events import (
    Block,
    Choose,
    Decline,
    DrawFromDeck,
    DrawUnknown,
    Event,
    GainFrom,
    Identify,
    Lead,
    Place,
    Resolve,
    RevealCard,
    Roll,
    Scout,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
    Setup,
)
from engine.state import Change, GameState, Phase, Slot

HIDDEN = "a hidden card"
UNIDENTIFIED = "an unidentified card"
FACE_DOWN = "a face-down card"
_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def public_cards(state: GameState) -> frozenset[str]:
    """Cards everyone at the table has seen: face-up stack cards, piles, shown hand cards.

    While tracking a physical game a hand's known cards were seen by the table (gained
    from a location, revealed); in a simulated game they were dealt privately. Au
    Toma's hand is never public.
    """
    seen = {s.card for stack in state.locations for s in stack if s.card and not s.face_down}
    seen.update(state.banished)
    seen.update(card for card in state.revealed if card)
    laid_out = state.phase in (Phase.FINALE, Phase.OVER)  # every hand is shown for scoring
    if state.hidden or laid_out:
        for player in state.players:
            if laid_out or not player.automa:
                seen.update(player.hand.known)
    return frozenset(seen)


_FACE_UP = frozenset({"reveal", "deploy", "place", "banish", "gain", "move", "block"})


def shown(changes: Sequence[Change]) -> frozenset[str]:
    """Cards these changes turned face up for everyone (even if a hand took them after)."""
    return frozenset(c.card for c in changes if c.kind in _FACE_UP and c.card in CARDS)


class Namer:
    """Names cards for one piece of text; ``redacted`` says a hidden card was withheld."""

    def __init__(self, public: frozenset[str]) -> None:
        self.public = public
        self.redacted = False

    def card(self, card: str | None) -> str:
        """The card's printed name, or a placeholder if the table has not seen it."""
        if card is None:
            return UNIDENTIFIED
        if card in self.public and card in CARDS:
            return CARDS[card].name
        self.redacted = True
        return HIDDEN

    def slot(self, slot: Slot | None) -> str:
        """A stack card as the table sees it (a face-down card is never named)."""
        if slot is None:
            return "nothing"
        if slot.face_down:
            return FACE_DOWN
        return self.card(slot.card)

    def text(self, text: str) -> str:
        """Free text with any hidden card id in it replaced."""
        return _TOKEN.sub(lambda m: self.card(m[0]) if m[0] in CARDS else m[0], text)


def possessive(name: str) -> str:
    """``"Ann"`` → ``"Ann's"``; the demo's player is called "You"."""
    return "Your" if name == "You" else f"{name}'s"


def player_name(state: GameState, index: int | None) -> str:
    """A seat's name (``"Chance"`` for a chance decision, ``"nobody"`` out of range)."""
    if index is None:
        return "Chance"
    if 0 <= index < len(state.players):
        return state.players[index].name
    return "nobody"


def titled(value: str) -> str:
    """``"the-jackal"`` → ``"The jackal"``: a readable form of a code word."""
    return value.replace("-", " ").capitalize()


# --- decision options -----------------------------------------------------------------


def option_label(event: Event, state: GameState, namer: Namer) -> str:
    """What choosing this option does, in a few words."""
    pending = state.pending
    if pending is not None and pending.kind is Kind.RANDOM and pending.is_chance:
        return "A random pick"  # the outcome (a shuffle's order) stays unseen
    if isinstance(event, Lead):
        if event.location is None:
            return "Skip the deploy (empty hand)"
        what = namer.card(event.card) if event.card else "the card played"
        return f"Deploy {what} to {event.location.label}"
    if isinstance(event, GainFrom):
        top = namer.slot(state.top(event.location))
        return f"Gain {top} from {event.location.label} (+{titled(event.location.bonus)})"
    if isinstance(event, Place):
        what = namer.card(event.card) if event.card else "the turned-over card"
        return f"Place {what} on {event.location.label}"
    if isinstance(event, Choose):
        return _choice_label(event, state, namer)
    return _simple_label(event, state, namer)


def option_group(event: Event, namer: Namer) -> str | None:
    """Options that deploy the same card share a group (one row of location buttons)."""
    if isinstance(event, Lead) and event.location is not None:
        return namer.card(event.card) if event.card else "a card from the hand"
    return None


def option_short(event: Event) -> str | None:
    """The word on a button inside its group (the location)."""
    if isinstance(event, Lead) and event.location is not None:
        return event.location.label
    return None


def names_card(event: Event) -> str | None:
    """Whether the answer names a card the option leaves open: "required", "optional".

    A deployed card must be named; a turned-over or targeted card the camera has not
    read may be named now or identified later.
    """
    if isinstance(event, Lead) and event.location is not None and event.card is None:
        return "required"
    if isinstance(event, Place) and event.card is None:
        return "optional"
    if isinstance(event, Choose) and event.value is None and event.location is not None:
        return "optional"
    return None


def _choice_label(event: Choose, state: GameState, namer: Namer) -> str:
    if event.location is not None and event.index is not None:
        stack = state.stack_at(event.location)
        slot = stack[event.index] if 0 <= event.index < len(stack) else Slot(event.value)
        return f"{namer.slot(slot)} on {event.location.label} (card {event.index + 1})"
    if event.value in CARDS:
        return namer.card(event.value)
    return titled(str(event.value))


def _simple_label(event: Event, state: GameState, namer: Namer) -> str:
    named = _named_label(event, state, namer)
    if named is not None:
        return named
    if isinstance(event, Scout):
        return "Scout: turn over the deck's top card"
    if isinstance(event, DrawFromDeck):
        return "Draw the deck's top card and roll the die"
    if isinstance(event, Roll):
        return f"The die shows {titled(event.face)}"
    if isinstance(event, Decline):
        return "Decline"
    if isinstance(event, Block):
        return f"Block with {namer.card(event.card)}"
    return namer.text(event.describe())


def _named_label(event: Event, state: GameState, namer: Namer) -> str | None:
    """Labels for events of the Au Toma and end-of-game rules (looked up by name)."""
    kind = type(event).__name__
    fields = {name: getattr(event, name, None) for name in ("location", "bonus", "card")}
    if kind == "AutomaGain" and fields["location"] is not None:
        return f"Done: her card gained from {Location(fields['location']).label}"
    if kind == "AutomaToken" and fields["bonus"] is not None:
        return f"Done: she took {titled(str(fields['bonus']))}"
    if kind == "AutomaBanish":
        card = fields["card"]
        return f"Done: the deck's top card banished{f' ({namer.card(card)})' if card else ''}"
    if kind == "RevealHand":
        return "Done: the hand is laid out face up"
    if kind == "Resolve":
        return _resolve_label(event, state, namer)
    return None


def _resolve_label(event: Event, state: GameState, namer: Namer) -> str:
    """An end-of-game ability's option, as the engine's finale words it."""
    assert isinstance(event, Resolve)
    decision = finale.decision(state.finale) if state.finale is not None else None
    # A log line may be labelled against a state whose finale has moved on.
    if decision is None or not 0 <= event.index < len(decision.options):
        return f"End-of-game option {event.index}"
    return namer.text(decision.options[event.index].label)


# --- the log -----------------------------------------------------------------------------


def event_line(event: Event, before: GameState, after: GameState, namer: Namer) -> str:
    """One log line: who did what (corrections say what was corrected)."""
    if isinstance(event, Setup):
        seats = ", ".join(_seat(spec.name, spec.house, spec.automa) for spec in event.seats)
        first = event.seats[event.first_player].name
        return f"New game: {seats}; {first} goes first"
    correction = _correction_line(event, after, namer)
    if correction is not None:
        return correction
    pending = before.pending
    label = option_label(event, before, namer)
    if pending is None or pending.is_chance:
        return label if pending is None or pending.kind is not Kind.RANDOM else (
            f"{pending.prompt}: picked at random")
    return f"{player_name(before, pending.player)}: {label}"


def _seat(name: str, house: object, automa: bool) -> str:
    if automa:
        return f"{name} (Au Toma)"
    return f"{name} ({titled(str(house))})" if house else name


def _correction_line(event: Event, state: GameState, namer: Namer) -> str | None:
    if isinstance(event, SetLocation):
        cards = ", ".join(namer.card(c) for c in event.cards) or "no cards"
        return f"Correction: {event.location.label} holds {cards}"
    if isinstance(event, SetTokens):
        who = player_name(state, event.player)
        return (f"Correction: {who} has {event.helium} Helium, {event.influence} Influence,"
                f" Fleet {event.fleet}")
    if isinstance(event, SetSovereign):
        return f"Correction: the Sovereign is with {player_name(state, event.player)}"
    if isinstance(event, SetHandCount):
        return f"Correction: {player_name(state, event.player)} holds {event.count} cards"
    if isinstance(event, Identify):
        return (f"Identified {namer.card(event.card)} on {event.location.label}"
                f" (card {event.index + 1})")
    if isinstance(event, DrawUnknown):
        return f"{player_name(state, event.player)} drew {event.count} unseen card(s)"
    if isinstance(event, RevealCard):
        return f"{player_name(state, event.player)} showed {namer.card(event.card)}"
    return None


def change_line(change: Change, state: GameState, namer: Namer) -> str:
    """One visible consequence of an event."""
    who = player_name(state, change.player)
    text = _TOKEN_CHANGES.get(change.kind)
    if text is not None:
        return f"{who} {change.amount:+d} {text}"
    if change.kind == "roll":  # the face travels in the card field
        return f"The die shows {titled(change.card or '?')}"
    if change.kind == "ruling":  # a judgement call decided (engine.rulings, source)
        what = "banished anyway" if change.target == "banish" else "stays"
        return f"{namer.card(change.card)} had nothing to gain: {what} ({change.source})"
    phrase = _CHANGES.get(change.kind)
    if phrase is None:
        return titled(change.kind)
    if phrase.startswith("{who}'s"):
        phrase = phrase.replace("{who}'s", possessive(who), 1)
    card = "a card"
    if "{card}" in phrase and change.card:
        card = namer.card(change.card) if change.card in CARDS else titled(change.card)
    return phrase.format(who=who, card=card, source=_place(change.source, who),
                         target=_place(change.target, who))


def _place(where: str | None, who: str) -> str:
    if where is None:
        return "somewhere"
    if where == "hand":
        return f"{possessive(who)} hand"
    if where in ("deck", "banished"):
        return "the deck" if where == "deck" else "the banished pile"
    return Location(where).label if where in _LOCATION_IDS else where


_LOCATION_IDS = frozenset(loc.value for loc in Location)
_TOKEN_CHANGES = {"helium": "Helium", "influence": "Influence", "fleet": "Fleet"}
_CHANGES = {
    "turn": "{who}'s turn",
    "deploy": "{who} deployed {card} to {target}",
    "place": "{card} placed on {target}",
    "gain": "{who} gained {card} from {source}",
    "draw": "{who} drew a card",
    "move": "{card} moved from {source} to {target}",
    "banish": "{card} banished from {source}",
    "reveal": "{card} turned over from the deck",
    "sovereign": "{who} took the Sovereign",
    "trigger": "{who} triggered the end of the game",
    "tokens": "{who}'s tokens corrected",
    "block": "{who} blocked with {card}",
    "finale": "Every turn is played: end-of-game abilities",
    "end-of-game": "{who}: {card}'s end-of-game ability resolved",
    "automa-card": "{who} turned over her next card",
    "automa-shuffle": "{who}'s deck was shuffled",
    "automa-skip": "{who} had nothing to do there",
    "steal": "{who} took {card} from another hand",
    "to-deck": "{card} went back into the deck",
    "look": "{who} looked at the deck's top cards",
    "place-under": "{card} put under a card on {target}",
    "place-down": "A card placed face down on {target}",
    "over": "Game over",
}
