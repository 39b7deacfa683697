"""Narration: events, changes, decisions and the table's questions in plain words.

The one place where the game becomes English. The phone page, the voice and the
device's log all say what happened through these functions, so a card is always
called by its printed name (never its id), a die roll is recognised by its event (never
by its wording), and Au Toma's steps read the same on the page as they sound.

Every function that may name a card takes ``names``: a callable that turns a card id
into the words to use. The default, :func:`printed`, gives the printed name; the page
passes one that withholds the cards the table has not seen.

>>> from engine.board import Location
>>> from engine.events import Lead, Roll, Face
>>> event_text(Lead("colonel-valentin", Location.MARS))
'Deploy Colonel Valentin to Mars'
>>> roll_text(Face.SOVEREIGN, "Ann")
'Ann rolled the Sovereign'
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine import automa as her
from engine import finale
from engine.board import Location
from engine.cards import CARDS
from engine.decisions import Decision, Kind
from engine.errors import IllegalActionError
from engine.events import (
    Choose,
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
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
    Setup,
)
from engine.rules import apply
from engine.state import Change, ChangeKind, GameState, Slot
from engine.wording import (  # the event renderer, re-exported for narration's callers
    BONUSES as BONUSES,
)
from engine.wording import (
    FACES as FACES,
)
from engine.wording import (
    UNIDENTIFIED as UNIDENTIFIED,
)
from engine.wording import (
    UNKNOWN as UNKNOWN,
)
from engine.wording import (
    Names as Names,
)
from engine.wording import (
    automa_step_text as automa_step_text,
)
from engine.wording import (
    counted as counted,
)
from engine.wording import (
    event_text as event_text,
)
from engine.wording import (
    face_word as face_word,
)
from engine.wording import (
    ordinal as ordinal,
)
from engine.wording import (
    printed as printed,
)
from engine.wording import (
    setup_text as setup_text,
)
from engine.wording import (
    slot_name as slot_name,
)
from engine.wording import (
    titled as titled,
)

FACE_DOWN = "a face-down card"







def possessive(name: str) -> str:
    """``"Ann"`` → ``"Ann's"``; the demo's player is called "You" (→ "Your")."""
    return "Your" if name == "You" else f"{name}'s"


def player(state: GameState, index: int | None) -> str:
    """A seat's name (``"Chance"`` for nobody's decision, ``"nobody"`` out of range)."""
    if index is None:
        return "Chance"
    if 0 <= index < len(state.players):
        return state.players[index].name
    return "nobody"






def roll_text(face: str, who: str) -> str:
    """A die roll, said the same on the page and by the voice."""
    return f"{who} rolled {face_word(face)}"


def round_of(state: GameState) -> int:
    """The round: the current player's own turn number (both seats play in a round).

    >>> from engine.game import Game
    >>> from engine.setup import tracked_game
    >>> from engine.events import SeatSpec
    >>> game = Game(tracked_game((SeatSpec("Ann"), SeatSpec("Bo")),
    ...             (("darrow",), ("sevro",), ("lorn",), ("victra",)), first=0))
    >>> round_of(game.state)
    1
    """
    if state.turn is None or not state.players:
        return 0
    return state.players[state.current].turns + 1


# --- one event, without a game around it -----------------------------------------------
























# --- answers to a decision, in the game they answer --------------------------------------


def answer_text(event: Event, state: GameState, names: Names = printed) -> str:
    """An option of ``state``'s pending decision: what choosing it does, in a few words."""
    pending = state.pending
    if pending is not None and pending.is_chance and pending.kind is Kind.RANDOM:
        return "A random pick"  # the outcome (a shuffle's order) stays unseen
    if isinstance(event, GainFrom):
        top = slot_text(state.top(event.location), names)
        return (f"Gain {top} from {event.location.label}"
                f" (+{BONUSES[event.location.bonus]})")
    if isinstance(event, Choose) and event.location is not None and event.index is not None:
        stack = state.stack_at(event.location)
        slot = stack[event.index] if 0 <= event.index < len(stack) else Slot(event.value)
        return f"{slot_text(slot, names)} on {event.location.label}" \
               f" ({ordinal(event.index + 1)} from the bottom)"
    if isinstance(event, Choose) and event.value is not None and event.value.isdigit():
        return player(state, int(event.value))  # a seat (who loses, who picks first…)
    if isinstance(event, Resolve):
        return _resolve_text(event, state)
    done = automa_step_text(event, names) if pending is not None and _automa_step(
        pending, state) is not None else None
    if done is not None:
        return f"Done: {done[0].lower()}{done[1:]}"
    return event_text(event, names)


def slot_text(slot: Slot | None, names: Names = printed) -> str:
    """A stack card as the table sees it (a face-down card is never named)."""
    if slot is None:
        return "nothing"
    if slot.face_down:
        return FACE_DOWN
    return slot_name(slot.card, names)


def _resolve_text(event: Resolve, state: GameState) -> str:
    """An end-of-game ability's option, as the finale words it (printed names already)."""
    decision = finale.decision(state.finale) if state.finale is not None else None
    if decision is None or not 0 <= event.index < len(decision.options):
        return f"End-of-game option {event.index + 1}"
    return decision.options[event.index].label


def prompt_text(decision: Decision, state: GameState, names: Names = printed) -> str:
    """The question a decision asks, with every card it carries called by its name.

    The engine's prompts are written where each rule asks; the cards they mention are
    the ability's own card and the cards offered, which the decision carries as data.
    """
    if decision.is_chance and decision.kind is Kind.RANDOM:
        return "A random pick (the companion draws it)"
    step = _automa_step(decision, state)
    if step is not None:
        return f"{player(state, decision.player)}: {step[0].lower()}{step[1:]}"
    text = decision.prompt
    for card in _carried(decision):
        text = text.replace(card, names(card))
    return text


def _carried(decision: Decision) -> list[str]:
    """The card ids a decision carries (longest first, so none is part of another)."""
    found = {decision.then.card} | {v for v in decision.then.data if isinstance(v, str)}
    for option in decision.options:
        found.update(getattr(option, name, None) for name in ("card", "value"))
    return sorted((c for c in found if isinstance(c, str) and c in CARDS), key=len,
                  reverse=True)


# --- a log line: who did what -------------------------------------------------------------


def line(event: Event, before: GameState, after: GameState, names: Names = printed) -> str:
    """One event in the log: who did what (corrections say what was corrected)."""
    if isinstance(event, Setup):
        return setup_text(event, names)
    if isinstance(event, Roll):
        rolled = next((c.player for c in after.changes if c.kind == ChangeKind.ROLL), None)
        return roll_text(event.face, player(before, rolled) if rolled is not None else "The die")
    correction = _correction(event, after, names)
    if correction is not None:
        return correction
    pending = before.pending
    if pending is None:
        return answer_text(event, before, names)
    if pending.is_chance:
        return "A card drawn at random" if pending.kind is Kind.RANDOM else \
            answer_text(event, before, names)
    who = player(before, pending.player)
    if automa_step_text(event) is not None and _is_automa(before, pending.player):
        return f"{who}: {_done(after, names) or automa_step_text(event, names)}"
    if isinstance(event, Choose) and pending.kind is Kind.CHOOSE:
        return f"{prompt_text(pending, before, names)} {answer_text(event, before, names)}"
    return f"{who}: {answer_text(event, before, names)}"


def _is_automa(state: GameState, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < len(state.players) and state.players[seat].automa


def _done(after: GameState, names: Names) -> str:
    """What one of Au Toma's steps did, from its changes, without her name."""
    parts = []
    for change in after.changes:
        if change.kind == ChangeKind.PLACE:
            parts.append(f"put {names(change.card)} on {_place(change.target, '')}"
                         if change.card else f"put a card on {_place(change.target, '')}")
        elif change.kind in (ChangeKind.GAIN, ChangeKind.BANISH, ChangeKind.SOVEREIGN,
                             *_TOKEN_CHANGES):
            text = change_text(change, after, names)
            name = player(after, change.player)
            parts.append(text.removeprefix(f"{name} ") if change.player is not None else text)
    return ", ".join(parts)


def _correction(event: Event, state: GameState, names: Names) -> str | None:
    who = player(state, getattr(event, "player", None))
    if isinstance(event, SetLocation):
        return f"Correction: {event_text(event, names)}"
    if isinstance(event, SetTokens):
        return (f"Correction: {who} has {event.helium} Helium, {event.influence} Influence,"
                f" Fleet {event.fleet}")
    if isinstance(event, SetSovereign):
        return "Correction: nobody holds the Sovereign" if event.player is None else (
            f"Correction: the Sovereign is with {who}")
    if isinstance(event, SetHandCount):
        return f"Correction: {who} holds {counted(event.count, 'card')}"
    if isinstance(event, Identify):
        return (f"Identified: {names(event.card)}, the {ordinal(event.index + 1)} card from"
                f" the bottom of {event.location.label}")
    if isinstance(event, DrawUnknown):
        return f"{who} drew {counted(event.count, 'unseen card')}"
    if isinstance(event, RevealCard):
        return f"{who} showed {names(event.card)}"
    return None


# --- changes: the visible consequences of an event ---------------------------------------


def change_text(change: Change, state: GameState, names: Names = printed) -> str:
    """One visible consequence of an event, with its subject."""
    who = player(state, change.player)
    token = _TOKEN_CHANGES.get(change.kind)
    if token is not None:
        return f"{who} {change.amount:+d} {token}"
    if change.kind == ChangeKind.ROLL:  # the face travels in the card field
        return roll_text(change.card or "?", who)
    if change.kind == ChangeKind.AUTOMA_CARD:  # her card's number travels in the card field
        return f"{who} played her card {change.card}"
    if change.kind == ChangeKind.RULING:  # a play-time judgement call decided (engine.rulings)
        what = "banished anyway" if change.target == "banish" else "stays"
        return f"{names(change.card)} had nothing to gain: {what}"
    phrase = _CHANGES.get(change.kind)
    if phrase is None:
        return titled(change.kind)
    card = names(change.card) if change.card in CARDS else "a card"
    return phrase.format(who=who, whose=possessive(who), card=card,
                         source=_place(change.source, who), target=_place(change.target, who))


def _place(where: str | None, who: str) -> str:
    if where is None:
        return "somewhere"
    if where == "hand":
        return f"{possessive(who)} hand".replace("Your hand", "your hand")
    if where == "deck":
        return "the deck"
    if where == "banished":
        return "the banished pile"
    try:
        return Location(where).label
    except ValueError:
        return titled(where)


_TOKEN_CHANGES = {
    ChangeKind.HELIUM: "Helium", ChangeKind.INFLUENCE: "Influence", ChangeKind.FLEET: "Fleet",
}
_CHANGES = {
    ChangeKind.TURN: "{whose} turn",
    ChangeKind.DEPLOY: "{who} deployed {card} to {target}",
    ChangeKind.PLACE: "{card} placed on {target}",
    ChangeKind.GAIN: "{who} gained {card} from {source}",
    ChangeKind.DRAW: "{who} drew a card",
    ChangeKind.MOVE: "{card} moved from {source} to {target}",
    ChangeKind.BANISH: "{card} banished from {source}",
    ChangeKind.REVEAL: "{card} turned over from the deck",
    ChangeKind.SOVEREIGN: "{who} took the Sovereign",
    ChangeKind.TRIGGER: "{who} triggered the end of the game",
    ChangeKind.TOKENS: "{whose} tokens corrected",
    ChangeKind.BLOCK: "{who} blocked with {card}",
    ChangeKind.FINALE: "Every turn is played: end-of-game abilities",
    ChangeKind.END_OF_GAME: "{who}: {card}'s end-of-game ability resolved",
    ChangeKind.AUTOMA_CARD: "{who} turned over her next card",
    ChangeKind.AUTOMA_SHUFFLE: "{whose} deck was shuffled",
    ChangeKind.AUTOMA_SKIP: "{who} had nothing to do there",
    ChangeKind.STEAL: "{who} took {card} from another hand",
    ChangeKind.TO_DECK: "{card} went back into the deck",
    ChangeKind.LOOK: "{who} looked at the deck's top cards",
    ChangeKind.PLACE_UNDER: "{card} put under a card on {target}",
    ChangeKind.PLACE_DOWN: "A card placed face down on {target}",
    ChangeKind.OVER: "Game over",
}


# --- Au Toma's steps ------------------------------------------------------------------------




def automa_waits_for(event: Event) -> str:
    """What the companion waits for before her next step (the camera, or AUTOMA)."""
    if isinstance(event, Place):
        return f"The camera waits for the deck's top card on {event.location.label}"
    if isinstance(event, her.AutomaGain):
        return f"The camera waits for {possessive(event.location.label)} top card to go"
    return "Press AUTOMA once it is done"


def _automa_step(decision: Decision, state: GameState) -> str | None:
    if decision.kind is not Kind.CONFIRM or decision.player is None or not decision.options:
        return None
    if not _is_automa(state, decision.player):
        return None
    return automa_step_text(decision.options[0])


class StepStatus(StrEnum):
    """Where a step of her card stands."""

    DONE = "done"
    NOW = "now"
    NEXT = "next"


@dataclass(frozen=True, slots=True)
class AutomaStep:
    """One physical step of her card: the confirmation that settles it, and where it is."""

    event: Event
    status: StepStatus

    def text(self, names: Names = printed) -> str:
        return automa_step_text(self.event, names) or event_text(self.event, names)


@dataclass(frozen=True, slots=True)
class AutomaTurn:
    """Au Toma's card in play: its number and its steps, done, in progress and to come."""

    seat: int
    card: int
    steps: tuple[AutomaStep, ...]

    @property
    def now(self) -> AutomaStep | None:
        return next((s for s in self.steps if s.status is StepStatus.NOW), None)


def automa_turn(states: Sequence[GameState]) -> AutomaTurn | None:
    """Her card in play at ``states[-1]`` and its steps (None when she has no card out).

    ``states`` are consecutive states, oldest first; the steps already done are read from
    them, the one in progress is the pending confirmation, and those to come are found by
    confirming ahead on a copy (the rules are pure).
    """
    state = states[-1] if states else None
    card = _her_card(state)
    if state is None or card is None or state.automa is None:
        return None
    seat = state.automa.seat
    done = [AutomaStep(step, StepStatus.DONE) for s in _earlier(states, card)
            if (step := _her_confirm(s, seat)) is not None]
    return AutomaTurn(seat, card, (*done, *_ahead(state, seat, card)))


def _her_card(state: GameState | None) -> int | None:
    info = getattr(state, "automa", None)
    current = getattr(info, "current", None)
    return current if isinstance(current, int) else None


def _earlier(states: Sequence[GameState], card: int) -> list[GameState]:
    """The states since her card was turned over, before the latest."""
    out: list[GameState] = []
    for state in reversed(states[:-1]):
        if _her_card(state) != card:
            break
        out.append(state)
    return out[::-1]


def _her_confirm(state: GameState, seat: int) -> Event | None:
    pending = state.pending
    if pending is None or pending.player != seat or pending.kind is not Kind.CONFIRM:
        return None
    return pending.options[0] if len(pending.options) == 1 else None


def _ahead(state: GameState, seat: int, card: int) -> list[AutomaStep]:
    steps: list[AutomaStep] = []
    while (option := _her_confirm(state, seat)) is not None and _her_card(state) == card:
        steps.append(AutomaStep(option, StepStatus.NEXT if steps else StepStatus.NOW))
        try:
            state = apply(state, option)
        except IllegalActionError:
            break  # a step the table must name (her banish while tracking)
    return steps


# --- the tracker's questions -----------------------------------------------------------------


class Ask(StrEnum):
    """What the table is asked about what the camera saw (the tracker's question kinds)."""

    UNEXPECTED = "unexpected"  # nothing explains the change
    COVERED_CARD = "covered card"  # a card left from under others: which one?
    ORDER = "order"  # several sequences of moves fit the views
    LOCATION = "location"  # the camera cannot read a location: what is on top?


class Answer(StrEnum):
    """What choosing a reading does."""

    PLAY = "play"  # these moves happened (from the tracker's last settled point)
    IGNORE = "ignore"  # the camera is wrong
    CORRECT = "correct"  # the table is as the camera sees it: correct the game


@dataclass(frozen=True, slots=True)
class Reading:
    """One answer to a question: the events it plays and what kind of answer it is."""

    events: tuple[Event, ...]
    answer: Answer = Answer.PLAY

    @property
    def from_anchor(self) -> bool:
        """Played from the tracker's last settled point (else on the table as it is now)."""
        return self.answer is Answer.PLAY


@dataclass(frozen=True, slots=True)
class Phrasing:
    """What a question for the table says: its kind, what it is about, its readings.

    The tracker's :class:`engine.tracking.question.Question` holds one beside the state
    its readings are played from; this is only what the words need.

    ``player`` is whose moves the readings are; ``location`` the location asked about;
    ``again``: asked a second time (the camera still cannot read it).
    """

    kind: Ask
    readings: tuple[Reading, ...] = ()
    player: int | None = None
    location: Location | None = None
    again: bool = False


def question_text(question: Phrasing) -> str:
    """The question itself.

    >>> from engine.board import Location
    >>> question_text(Phrasing(Ask.LOCATION, location=Location.LUNA))
    'What is on top of Luna?'
    >>> question_text(Phrasing(Ask.COVERED_CARD, location=Location.MARS))
    'Which card was taken from Mars?'
    """
    where = question.location.label if question.location is not None else "there"
    if question.kind is Ask.LOCATION:
        return f"What is on top of {where}{' now' if question.again else ''}?"
    if question.kind is Ask.COVERED_CARD:
        return f"Which card was taken from {where}?"
    if question.kind is Ask.ORDER:
        return "The camera saw a move that could mean:"
    return "The camera saw a change nobody expected:"


def reading_text(reading: Reading, start: GameState, who: int | None = None,
                 names: Names = printed) -> str:
    """One reading as a button: who did what, or what ignoring or correcting does.

    ``start`` is the state the reading's events are played from.
    """
    if reading.answer is Answer.IGNORE:
        return "The camera is wrong: ignore it"
    if reading.answer is Answer.CORRECT:
        return "The table is as the camera sees it: correct it"
    if not reading.events:
        return "Nothing happened"
    seat = start.current if who is None and start.players else who
    return f"{player(start, seat)}: {moves_text(reading.events, start, names)}"


def moves_text(events: Sequence[Event], start: GameState, names: Names = printed) -> str:
    """A few moves played from ``start``, as one sentence without its subject."""
    parts, state = [], start
    for event in events:
        parts.append(_move(event, state, names))
        # Worded as far as the rules follow; the rest is worded against the last state.
        with contextlib.suppress(IllegalActionError):
            state = apply(state, event)
    return "; ".join(parts)


def _move(event: Event, state: GameState, names: Names) -> str:
    if isinstance(event, Lead) and event.location is not None:
        return f"deployed {names(event.card) if event.card else 'a card'} to" \
               f" {event.location.label}"
    if isinstance(event, GainFrom):
        return f"gained {slot_text(state.top(event.location), names)} from" \
               f" {event.location.label}"
    if isinstance(event, Place):
        return f"placed {names(event.card) if event.card else 'a card'} on" \
               f" {event.location.label}"
    if isinstance(event, DrawFromDeck):
        return "took the deck's top card and rolled the die"
    if isinstance(event, Choose) and event.location is not None and event.index is not None:
        return f"chose {answer_text(event, state, names)}"
    text = answer_text(event, state, names)
    # A sentence's verb goes lower-case; a card's printed name keeps its capital.
    if any(text.startswith(card.name) for card in CARDS.values()):
        return text
    return text[0].lower() + text[1:]
