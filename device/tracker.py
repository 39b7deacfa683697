"""The tracker: what the camera sees and the buttons say, turned into game events.

Pure logic (no I/O, no clock). The camera reports a stable :data:`View` of the four
locations (depth and identified top card of each); buttons report presses. The tracker
asks the engine itself which sequence of legal answers, from the last settled point,
would leave the table looking like that: it searches the pending decisions' options
(shortest explanations first), filling in the card names only the camera can give.

* exactly one shortest explanation → its events are played (and shown, and undoable);
* several → a :class:`Question` for the phone with each reading as an option (which
  covered card left a stack; which order two moves seen at once came in); where they
  part at a choice no camera can see, the engine's own decision waits for the table;
* the way on passes something only the table can say (a card to name) or the die →
  the events up to it are played and the tracker waits (:attr:`Verdict.wait`; after
  a roll, :attr:`Verdict.again`: explain the latest view again);
* none → a :class:`Question` with the nearest readings, "the camera is wrong" and
  "the table is as the camera sees it" (corrections), never a silent guess.

The engine waits at every card an ability moves (a ``Kind.CONFIRM`` whose one option,
a :class:`~engine.abilities.primitives.Moved`, the camera answers), so a view never
shows the engine ahead of the table; such forced steps cost the search nothing.

Later evidence can overturn an earlier reading within the same turn (a card put on
Mars followed by NEXT was a Scout, not a Lead), so a :class:`Verdict` says how many of
the tracker's own events to undo before playing the new ones. Die rolls and answers
given on the phone or by a button settle the past: the tracker never revises them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.abilities.primitives import Moved
from engine.automa import AutomaGain
from engine.board import LOCATIONS, Location
from engine.decisions import Decision, Kind
from engine.errors import IllegalActionError
from engine.events import (
    Choose,
    Decline,
    DrawFromDeck,
    Event,
    GainFrom,
    Identify,
    Lead,
    Place,
    Scout,
    SetLocation,
)
from engine.game import Game
from engine.rules import apply
from engine.state import GameState, Phase, Slot
from engine.wording import event_text


@dataclass(frozen=True)
class Seen:
    """The camera's stable view of one location."""

    depth: int
    top: str | None = None  # the identified top card; None when not identified
    face_down: bool = False
    # The table said so (an answer to "what is on top of Luna?") while the camera could
    # not read the location: it stands in for the camera until the camera reads it again.
    told: bool = False


@dataclass(frozen=True)
class Unread:
    """A location the camera cannot read (glare, a texture it misreads, something left on
    it). The tracker takes it as unconstrained and never infers a move there.
    ``overdue``: it has stayed unreadable long enough that the table is asked about it."""

    overdue: bool = False


UNREAD = Unread()
View = tuple[Seen | Unread, Seen | Unread, Seen | Unread, Seen | Unread]


class Button(StrEnum):
    """The companion's buttons (also on the keyboard and the page)."""

    DIE = "die"
    NEXT = "next"
    AUTOMA = "automa"


@dataclass(frozen=True)
class Reading:
    """One way to explain what was seen: the events, and a sentence for the phone."""

    events: tuple[Event, ...]
    text: str
    # True: the events replay the turn from the tracker's last settled point;
    # False: they apply to the table as it is now (ignore the camera, or correct it).
    from_anchor: bool = True


@dataclass(frozen=True)
class Question:
    """Something only the table can settle; each option is a reading to play."""

    prompt: str
    readings: tuple[Reading, ...]
    kind: str = "unexpected"  # UNEXPECTED, COVERED_CARD, ORDER or LOCATION
    location: Location | None = None  # LOCATION: the location asked about


# Question kinds. Unexpected: nothing explains what the camera saw. Covered card: a
# card left a stack from under others, and only depth changed. Order: several sequences
# of moves fit the views (two changes seen at once, say). Location: the camera cannot
# read a location; the answer is what lies there (Follow.on_tell), not a reading.
UNEXPECTED, COVERED_CARD, ORDER, LOCATION = "unexpected", "covered card", "order", "location"


def location_question(location: Location, again: bool = False) -> Question:
    """"What is on top of Luna?": answered with a card, a card face down, or nothing."""
    return Question(f"What is on top of {location.label}{' now' if again else ''}?", (),
                    LOCATION, location)


def location_answer(state: GameState, location: Location, top: str | None = None, *,
                    face_down: bool = False, depth: int | None = None) -> Seen:
    """The table's answer to a location question, as the camera would have seen it.

    ``top`` names the card on top, ``face_down`` says a card lies face down there, and
    neither says the location is empty. Without ``depth`` the count follows from the
    engine's stack: a card already in it has the cards above it gone, any other card
    (or a card face down on a face-up top) is one more.

    :raises IllegalActionError: a card and face down at once, or a count that does not
        fit (an empty location holds no card; a card needs a count of at least one).
    """
    if top is not None and face_down:
        raise IllegalActionError("a card cannot be named and face down at once", rule="tracker")
    if top is None and not face_down:
        if depth not in (None, 0):
            raise IllegalActionError(f"an empty location holds no cards, not {depth}",
                                     rule="tracker")
        return Seen(0)
    stack = state.stack_at(location)
    if depth is None:
        depth = len(stack) + 1
        if face_down and stack and stack[-1].face_down:
            depth = len(stack)
        cards = [slot.card for slot in stack]
        if top is not None and top in cards:
            depth = cards.index(top) + 1
    if not 1 <= depth <= MAX_TOLD_DEPTH:
        raise IllegalActionError(f"a count of {depth} cards is not possible here "
                                 f"(1 to {MAX_TOLD_DEPTH})", rule="tracker")
    return Seen(depth, top, face_down)


MAX_TOLD_DEPTH = 40  # more cards than any stack reaches in a game


@dataclass(frozen=True)
class Verdict:
    """What to do: undo this many of the tracker's own events, then play these."""

    undo: int = 0
    play: tuple[Event, ...] = ()
    question: Question | None = None
    text: str = ""
    # The camera cannot settle the engine's next decision (a card to name, a choice
    # nobody sees): the table answers it on the phone.
    wait: bool = False
    again: bool = False  # once applied (and the die rolled), explain the latest view again


def view_of(state: GameState) -> View:
    """What a perfect camera would see on the table in ``state``."""
    seen = []
    for loc in LOCATIONS:
        stack = state.stack_at(loc)
        top = stack[-1] if stack else None
        seen.append(Seen(len(stack), top.card if top and not top.face_down else None,
                         bool(top and top.face_down)))
    return (seen[0], seen[1], seen[2], seen[3])


def mismatch(state: GameState, view: View, slack: int = 0) -> int:
    """How far the engine's table is from the camera's view (0 = they agree).

    ``slack``: how many cards a stack's count may be off while the camera names the
    engine's top card of it (see DEPTH_SLACK).
    """
    total = 0
    for loc, seen in zip(LOCATIONS, view, strict=True):
        if isinstance(seen, Unread):
            continue  # unconstrained: whatever the engine holds there may be so
        stack = state.stack_at(loc)
        if not _depth_agrees(stack, seen, slack):
            total += abs(len(stack) - seen.depth)
        elif stack:
            top = stack[-1]
            named = seen.top is not None and top.card is not None
            if top.face_down != seen.face_down or (named and top.card != seen.top):
                total += 1
    return total


# The camera counts a stack by the strips of its older cards, and a deep or dimly lit
# stack can read a card more or fewer than it holds, while the top card it names is
# much more reliable (see benchmarks/vision_accuracy.py). When no reading explains the
# views as counted, the tracker tries again with a count one, then two off taken as no
# disagreement while the camera names the engine's own top card: the top card tells
# what happened. An exact count is still preferred, since only it can show a card
# taken from under others or slid under the top; but where the game as played fits
# the view with a count off, and only someone's choice would fit it exactly, the
# table is asked rather than the count believed (see Tracker._miscount_would_do).
DEPTH_SLACK = 2


def _depth_agrees(stack: Sequence[Slot], seen: Seen, slack: int) -> bool:
    off = abs(len(stack) - seen.depth)
    if off == 0:
        return True
    return (off <= slack and bool(stack) and seen.top is not None
            and not stack[-1].face_down and stack[-1].card == seen.top)


@dataclass
class Tracker:
    """Infers the table's moves; keeps what it played since the last settled point."""

    max_depth: int = 4
    budget: int = 1500  # engine applications per search, at most
    anchor: int = 0  # log length of the last settled point
    played: list[Event] = field(default_factory=list)  # own events since the anchor
    # What was seen and pressed since the anchor, in order: explanations must pass
    # through every view in turn (the order of two moves matters, not only the result).
    evidence: list[View | Button] = field(default_factory=list)
    question: Question | None = None
    waiting_on: Decision | None = None  # the decision the table must answer, if any
    # Where the latest explanation failed for want of a reading: locations the camera
    # cannot read, or read only through an earlier answer of the table (see Follow).
    blind: frozenset[Location] = frozenset()
    _fresh: frozenset[Location] = frozenset()  # told by the table in the latest view itself
    # While waiting for the table's answer: how much evidence the events up to the wait
    # explained (what came after, a DIE pressed meanwhile, is explained after the answer).
    _explained: int | None = None
    _slack: int = 0
    _settle_after: bool = False  # the next applied verdict closes the evidence
    _keep_view: bool = False  # ... and keeps the latest view, which it explains
    # Where a roll settled a reading NEXT may still overturn: anchor, own events, evidence.
    _before_roll: tuple[int, list[Event], list[View | Button]] | None = None

    # --- inputs -------------------------------------------------------------------

    def settle(self, log_length: int) -> None:
        """Everything up to here is final (a roll, a phone answer, a new turn)."""
        self.anchor = log_length
        self.played = []
        self.evidence = []
        self.question = None
        self._before_roll = None
        self._explained = None

    def observe(self, game: Game, view: View,
                fresh: frozenset[Location] = frozenset()) -> Verdict:
        """A new stable view: explain it from the anchor.

        ``fresh``: locations whose reading the table has just told (see :class:`Seen`).
        """
        self._resync(game)
        if self.evidence and self.evidence[-1] == view and not fresh:
            return Verdict()
        if not self.evidence or self.evidence[-1] != view:
            self.evidence.append(view)
        self._fresh = fresh  # an answer given again is explained again (without asking)
        return self._explain(game.states, view)

    def press(self, game: Game, button: Button, view: View) -> Verdict:
        """A button was pressed: it is evidence too (DIE = took the deck, NEXT = done)."""
        self._resync(game)
        if button is Button.NEXT and self._before_roll is not None:
            # NEXT after a card read as a Lead whose ability rolled the die: explain it
            # all again from before the roll (a Scout takes the roll back with the Lead).
            self.anchor, before, evidence = self._before_roll
            self.played = before + self.played
            self.evidence = evidence + [e for e in self.evidence if e not in evidence]
            self._before_roll = None
        pending = game.state.pending
        if button is Button.NEXT and not self.played and pending is not None and (
                pending.kind is Kind.TURN and mismatch(game.state, view, DEPTH_SLACK) == 0
                and not _unread(view)):
            # The turn it ends is over already (the camera settled it), unless it was
            # played where the camera cannot read.
            return Verdict()
        self.evidence.append(button)
        return self._explain(game.states, view)

    def answer(self, game: Game, index: int) -> Verdict:
        """The table picked reading ``index`` of the open question."""
        question = self.question
        if question is None or not 0 <= index < len(question.readings):
            raise IllegalActionError("no such answer to the open question", rule="tracker")
        self._resync(game)
        reading = question.readings[index]
        self.question = None
        # The table's answer is final: later views are explained from where it leads.
        self._settle_after = True
        if reading.from_anchor:
            self._keep_view = True  # which the reading explains, or will after a roll
            rolls = _rolls(_after(game.states[self.anchor], reading.events))
            return replace(self._verdict_for(reading.events), text=reading.text, again=rolls)
        return Verdict(play=reading.events, text=reading.text)

    def applied(self, game: Game, verdict: Verdict) -> None:
        """The service applied ``verdict`` (chance may have followed): move the anchor."""
        if verdict.wait:
            self.waiting_on = game.state.pending
        if self._settle_after:
            views = [e for e in self.evidence if not isinstance(e, Button)]
            keep: list[View | Button] = [v for v in views[-1:] if self._keep_view and (
                mismatch(game.state, v, DEPTH_SLACK) == 0)]
            self._settle_after = self._keep_view = False
            self.settle(len(game.log))
            self.evidence = keep
            return
        if verdict.undo:
            del self.played[len(self.played) - verdict.undo:]
        self.played.extend(verdict.play)
        self._rebase(game)

    def _rebase(self, game: Game) -> None:
        """Settle at the latest die roll or turn start: the past before it is final.

        Except for NEXT: a roll that a card read as a Lead brought (its ability rolled
        the die) may yet be taken back with it, if NEXT says it was a Scout.
        """
        states = game.states
        for length in range(len(game.log), self.anchor, -1):
            before = states[length - 1].pending
            after = states[length].pending
            rolled = before is not None and before.is_chance
            turn_start = after is not None and after.kind is Kind.TURN
            if rolled or turn_start or states[length].phase is not Phase.PLAYING:
                own = [e for i, e in enumerate(game.log[self.anchor:length], self.anchor)
                       if not _by_chance(states, i)]
                reopen = (self.anchor, own, list(self.evidence)) if (
                    rolled and not turn_start and self._may_be_a_scout(own)) else None
                mine = [e for e in game.log[length:]]
                evidence = self.evidence[-1:] if mine else []
                self.settle(length)
                self.played, self.evidence = mine, list(evidence)
                self._before_roll = reopen
                return

    def _may_be_a_scout(self, events: Sequence[Event]) -> bool:
        """Do these events begin with a deploy that NEXT could still turn into a Scout?"""
        return (bool(events) and isinstance(events[0], Lead) and events[0].location is not None
                and Button.NEXT not in self.evidence
                and not any(isinstance(e, GainFrom | DrawFromDeck | Scout) for e in events))

    def _resync(self, game: Game) -> None:
        """Events the tracker did not play (phone, buttons) settle the past.

        The latest view stays: it is still what the table looks like, and the new
        position may now explain it.
        """
        if _answered(game, self.anchor) != len(self.played):
            views: list[View | Button] = [e for e in self.evidence if not isinstance(e, Button)]
            after = [] if self._explained is None else self.evidence[self._explained:]
            self.settle(len(game.log))
            # What the events up to the table's answer did not explain stays to be
            # explained, in order, after the latest view if none of it is a view.
            self.evidence = after if any(not isinstance(e, Button) for e in after) else (
                views[-1:] + after)

    def waits_for_table(self, game: Game) -> bool:
        """Is the game's open decision one the tracker left for the table to answer?"""
        return self.waiting_on is not None and game.state.pending == self.waiting_on

    def recheck(self, game: Game) -> Verdict:
        """Explain the latest view again (after the table answered something)."""
        self._resync(game)
        views = [e for e in self.evidence if not isinstance(e, Button)]
        if not views:
            return Verdict()
        return self._explain(game.states, views[-1])

    # --- explaining ---------------------------------------------------------------

    def _explain(self, states: Sequence[GameState], view: View) -> Verdict:
        self.question = None  # a fresh explanation replaces any question still open
        self.blind = frozenset()
        self._explained = None
        start = states[self.anchor]
        readings, nearest, stops = self._readings(start, 0)
        self._slack = 0  # the slack the readings (or the stops) were found with
        if (readings or stops) and self._miscount_would_do(states, view):
            # Only a stack's count says more happened than was played, and a count can
            # be off: the table says which (see DEPTH_SLACK).
            found = readings or stops
            played = tuple(self.played)
            if played not in found and not all(_forced_after(start, seq, played)
                                               for seq in found):
                return self._ask(start, [*found, played])
        for slack in range(1, DEPTH_SLACK + 1):
            if readings:
                break
            # Perhaps the camera miscounted a stack: trust the top cards it names, with
            # the count as far off as it must be (the least disagreement first). A way
            # that explains every view with a count off beats one that stops short at
            # the die or a choice: a roll is never taken back, so the die is not rolled
            # on part of the evidence while the whole of it has an explanation.
            found, _, found_stops = self._readings(start, slack)
            if found or not stops:
                self._slack = slack
            readings, stops = found, stops or found_stops
        if (readings or stops) and self._rivalled(start, readings or stops):
            # Something at a location the camera cannot read would explain it as well
            # (a card gained there, not a Scout): the table is asked there first.
            self.blind = _unsure(view) - self._fresh
            return Verdict()
        if len(readings) == 1 or _same_outcome(start, readings):
            guessed = self._blind_guess(start, readings[0])
            if guessed is not None:
                return self._stop_at(start, readings[0][:guessed])
            return self._verdict_for(readings[0])
        if readings:
            return self._ask(start, readings)
        if stops:
            # The way on passes a decision only the table can answer (a card to name,
            # a choice nobody can see) or the die: go as far as the camera shows, then
            # wait for the answer or the roll.
            if len(stops) == 1 or _same_outcome(start, stops):
                return self._stop_at(start, stops[0])
            return self._ask(start, stops)
        if mismatch(states[-1], view, DEPTH_SLACK) == 0 and all(
                isinstance(e, tuple) for e in self.evidence):
            return Verdict()
        # Perhaps what happened lies where the camera cannot read: the table is asked
        # about that location (Follow), never told the camera saw something unexpected.
        self.blind = _unsure(view) - self._fresh
        if isinstance(self.evidence[-1], Button):
            return Verdict()  # pressed before the camera saw the move: wait for the view
        if self.blind:
            return Verdict()
        # Nothing passes through every view in turn. Perhaps a view in between was a
        # slip (a card put on the wrong stack, then moved): offer what explains the last.
        final, _, _ = self.search(start, (view,), DEPTH_SLACK)
        self.question = self._unexplained(states[-1], start, view, final or nearest)
        return Verdict(question=self.question, text=self.question.prompt)

    def _miscount_would_do(self, states: Sequence[GameState], view: View) -> bool:
        """Does the game as played agree with the camera but for a stack's count (one
        whose top card the camera names), with only views seen since the anchor?"""
        current = states[-1]
        return (all(isinstance(e, tuple) for e in self.evidence)
                and mismatch(current, view, 0) != 0
                and mismatch(current, view, DEPTH_SLACK) == 0)

    def _readings(self, start: GameState, slack: int) -> tuple[
            list[tuple[Event, ...]], list[tuple[Event, ...]], list[tuple[Event, ...]]]:
        """The search over all the evidence; failing that, over all but the views
        caught half-way through one move (an ability that moves three cards, done by
        hand one at a time), which need not be explained on their own."""
        readings, nearest, stops = self.search(start, tuple(self.evidence), slack)
        if not readings:
            steady = _without_halfway_views(start, tuple(self.evidence), slack)
            if len(steady) < len(self.evidence):
                readings, _, _ = self.search(start, steady, slack)
        return readings, nearest, stops

    def _stop_at(self, start: GameState, seq: tuple[Event, ...]) -> Verdict:
        rolls = _rolls(_after(start, seq))
        if not rolls:
            self._explained = self._seen_by(start, seq)
        # After a roll, what the camera saw since is explained again.
        return replace(self._verdict_for(seq), wait=not rolls, again=rolls)

    def _rivalled(self, start: GameState, readings: list[tuple[Event, ...]]) -> bool:
        """Would a move where the camera cannot read explain the evidence as well?"""
        views = [e for e in self.evidence if not isinstance(e, Button)]
        wild = _unread(views[-1]) if views else frozenset()
        if not wild:
            return False  # what lies there now is read: a move made there would show
        if any(isinstance(e, Scout) for e in readings[0]):
            return True  # or a card deployed unseen there (no search can name it)
        found, _, _ = self.search(start, tuple(self.evidence), self._slack, wild=wild)
        rivals = [seq for seq in found if seq not in readings]
        return bool(rivals) and not _same_outcome(start, [readings[0], *rivals])

    def _blind_guess(self, start: GameState, seq: tuple[Event, ...]) -> int | None:
        """Where ``seq`` answers a choice nobody can see that another answer would
        explain as well, however much longer (the shortest explanation is not evidence
        enough: a "may" declined looks like one used where all it did was unseen), or
        where the search could not try every answer; None when there is no such choice.
        Such a choice is left to the table."""
        evidence = tuple(self.evidence)
        last = next((e for e in reversed(evidence) if not isinstance(e, Button)), view_of(start))
        node = _Node(start, (), 0, _turns(start)).consume(evidence, self._slack)
        for i, event in enumerate(seq):
            pending = node.state.pending
            if pending is not None and _blind(pending) and node.seen < len(evidence):
                rest = evidence[node.seen:]
                target, button = node.next_evidence(evidence)
                others = [o for o in candidates(node.state, target or last, button) if o != event]
                if len(others) < len(pending.options) - 1 or any(
                        self._explains(node.state, other, rest) for other in others):
                    return i  # an answer the search never tried, or one that fits too
            node = _Node(apply(node.state, event), (*node.seq, event), node.seen,
                         node.turns).consume(evidence, self._slack)
        return None

    def _explains(self, state: GameState, event: Event,
                  evidence: tuple[View | Button, ...]) -> bool:
        """Could ``event`` played in ``state`` lead through ``evidence``?"""
        try:
            after = apply(state, event)
        except IllegalActionError:
            return False
        found, _, stops = self.search(after, evidence, self._slack, self.budget // 4)
        return bool(found or stops)  # or would, once the table names what it needs

    def _seen_by(self, start: GameState, seq: Sequence[Event]) -> int:
        """How many items of the evidence ``seq`` explains, played from ``start``."""
        evidence = tuple(self.evidence)
        node = _Node(start, (), 0, _turns(start)).consume(evidence, self._slack)
        for event in seq:
            node = _Node(apply(node.state, event), (*node.seq, event), node.seen,
                         node.turns).consume(evidence, self._slack)
        return node.seen

    def _ask(self, start: GameState, readings: list[tuple[Event, ...]]) -> Verdict:
        """Play what every reading agrees on; ask about where they part.

        When they part at a choice the camera cannot see (no card on the table names
        it), the engine's own decision is the question: it stays open for the phone.
        """
        shared = _common_prefix(readings)
        verdict = self._verdict_for(shared)
        after = _after(start, shared)
        views = [e for e in self.evidence if not isinstance(e, Button)]
        if after.pending is not None and (not _visible_choice(after.pending) or
                                          _waits_for_table(after, views[-1])):
            self._explained = self._seen_by(start, shared)
            return replace(verdict, wait=True)
        loc = _covered_choice([r[len(shared)] for r in readings if len(r) > len(shared)])
        prompt = (f"Which card was taken from {loc.label}?" if loc is not None
                  else "The camera saw a move that could mean:")
        self.question = Question(prompt, tuple(
            Reading(r, describe(after, r[len(shared):])) for r in readings),
            ORDER if loc is None else COVERED_CARD)
        return replace(verdict, question=self.question, text=self.question.prompt)

    def _verdict_for(self, events: tuple[Event, ...]) -> Verdict:
        common = 0
        while (common < len(self.played) and common < len(events)
               and self.played[common] == events[common]):
            common += 1
        new = events[common:]
        undo = len(self.played) - common
        if not new and not undo:
            return Verdict()
        return Verdict(undo=undo, play=new, text=describe_events(new))

    def search(
        self, start: GameState, evidence: tuple[View | Button, ...], slack: int = 0,
        budget: int | None = None, wild: frozenset[Location] = frozenset(),
    ) -> tuple[list[tuple[Event, ...]], list[tuple[Event, ...]], list[tuple[Event, ...]]]:
        """Shortest event sequences from ``start`` that pass through the evidence in order.

        A decision with a single plausible answer (Au Toma's next confirmation, say) is
        followed for free; only real choices count towards ``max_depth``, and only those
        made since the last view or button explained (a long turn seen step by step is
        explained whole). When none
        explains it all, also returns the sequences that came nearest to the last view,
        and the shortest ones that explain the most evidence before stopping at a
        decision only the table can answer.
        """
        views = [e for e in evidence if not isinstance(e, Button)]
        last_view = views[-1] if views else view_of(start)
        search = _Search(budget or self.budget, evidence, last_view, view_of(start), slack,
                         wild)
        level = [_Node(start, (), 0, _turns(start)).consume(evidence, slack)]
        while level and search.budget > 0:
            closed, branches = search.close(level)
            # An empty explanation is fine when nothing needs one (a button like
            # AUTOMA on its own says nothing about the table).
            found = [n.seq for n in closed if n.seen == len(evidence)]
            if found:
                shortest = min(len(seq) for seq in found)
                return _dedupe([seq for seq in found if len(seq) == shortest]), [], []
            # The depth limit counts choices between two things the camera saw.
            level = [n for n in branches if n.choices <= self.max_depth]
        return [], search.nearest[:3], search.best_stops()

    def _unexplained(
        self, current: GameState, start: GameState, view: View,
        nearest: list[tuple[Event, ...]],
    ) -> Question:
        readings = [Reading(seq, describe(start, seq)) for seq in nearest if seq]
        readings.append(Reading((), "The camera is wrong: ignore it", from_anchor=False))
        fixes = corrections_for(current, view)
        if fixes:
            readings.append(Reading(fixes, "The table is as the camera sees it: correct it",
                                    from_anchor=False))
        return Question("The camera saw a change nobody expected:", tuple(readings), UNEXPECTED)


class _Search:
    """Bookkeeping for one search: the budget and the nearest misses."""

    def __init__(self, budget: int, evidence: tuple[View | Button, ...], last: View,
                 first: View, slack: int, wild: frozenset[Location] = frozenset()) -> None:
        self.budget = budget
        self.slack = slack  # see DEPTH_SLACK
        self.wild = wild
        self.unseen = bool(_unread_in(evidence))
        self.evidence = evidence
        self.last = last
        self.first = first
        self.best = 1 << 30
        self.nearest: list[tuple[Event, ...]] = []
        self.stops: list[_Node] = []  # positions waiting for the table's answer

    def close(self, level: list[_Node]) -> tuple[list[_Node], list[_Node]]:
        """Follow forced answers; returns every node reached and the next level's nodes."""
        closed: list[_Node] = []
        branches: list[_Node] = []
        todo = list(level)
        while todo:
            node = todo.pop()
            closed.append(node)
            children = self.expand(node)
            if self._stops_at(node, bool(children)):
                self.stops.append(node)
            if len(children) == 1:
                todo.append(children[0])
            else:  # a real choice, unless what the camera saw settled it
                branches.extend(c if c.seen > node.seen else replace(c, choices=c.choices + 1)
                                for c in children)
        return closed, branches

    def expand(self, node: _Node) -> list[_Node]:
        target, button = node.next_evidence(self.evidence)
        if target is not None:
            target = _ahead(target, self.evidence[node.seen:])
        children = []
        for event in candidates(node.state, target or self.last, button, self.wild,
                                self.unseen):
            if self.budget <= 0:
                break
            self.budget -= 1
            try:
                after = apply(node.state, event)
            except IllegalActionError:
                continue
            child = _Node(after, (*node.seq, event), node.seen, node.turns, node.choices)
            children.append(child.consume(self.evidence, self.slack))
            self._remember(child)
        return children

    def _stops_at(self, node: _Node, expanded: bool) -> bool:
        """Is this a position to wait at: the die or the table must answer before the
        rest of the evidence can be explained, and it lies on the way to the last view?

        A choice the search could try blindly (a few options) blocks nothing: only one
        it could not try, or a card it cannot name, makes the table's answer necessary.
        """
        if node.seen == len(self.evidence):
            return False
        target = node.next_evidence(self.evidence)[0] or self.last
        if not _rolls(node.state) and not _names_needed(node.state, target) and (
                expanded or not _waits_for_table(node.state, target)):
            return False
        seen = [e for e in self.evidence[:node.seen] if not isinstance(e, Button)]
        return _halfway(view_of(node.state), seen[-1] if seen else self.first, target,
                        self.slack)

    def best_stops(self) -> list[tuple[Event, ...]]:
        """The stops that explain the most evidence, shortest first among equals."""
        if not self.stops:
            return []
        most = max(n.seen for n in self.stops)
        best = [n.seq for n in self.stops if n.seen == most]
        shortest = min(len(seq) for seq in best)
        return _dedupe([seq for seq in best if len(seq) == shortest])

    def _remember(self, child: _Node) -> None:
        distance = mismatch(child.state, self.last, self.slack)
        if distance < self.best:
            self.best, self.nearest = distance, [child.seq]
        elif distance == self.best:
            self.nearest.append(child.seq)


@dataclass(frozen=True)
class _Node:
    """A search position: the state, the events so far, how much evidence they explain."""

    state: GameState
    seq: tuple[Event, ...]
    seen: int  # evidence items explained so far
    turns: int  # turns taken at the search's start or the last NEXT explained
    choices: int = 0  # real choices made since the last evidence explained

    def next_evidence(self, evidence: Sequence[View | Button]) -> tuple[View | None, Button | None]:
        """The next view to reach, and the button pressed before it, if any."""
        button = None
        for item in evidence[self.seen:]:
            if isinstance(item, Button):
                button = button or item
            else:
                return item, button
        return None, button

    def consume(self, evidence: Sequence[View | Button], slack: int) -> _Node:
        """Explain as much further evidence as this position does."""
        seen, turns = self.seen, self.turns
        node = self
        while seen < len(evidence):
            item = evidence[seen]
            if isinstance(item, Button):
                if not (_pressed(item, node, turns)
                        and _as_last_seen(node, evidence, seen, slack)):
                    break
                if item is Button.NEXT:
                    turns = _turns(node.state)  # the next NEXT needs another turn to end
            elif mismatch(node.state, item, slack) != 0:
                break
            else:
                node = node.named(item)
            seen += 1
        return _Node(node.state, node.seq, seen, turns,
                     0 if seen > self.seen else self.choices)

    def named(self, view: View) -> _Node:
        """The position with the top cards the view names and the engine did not know
        (a card slid in under another, uncovered now)."""
        state, seq = self.state, self.seq
        for loc, seen in zip(LOCATIONS, view, strict=True):
            stack = state.stack_at(loc)
            top = _top(seen)
            if top is None or not stack or stack[-1].card is not None or stack[-1].face_down:
                continue
            event = Identify(loc, len(stack) - 1, top)
            try:
                state = apply(state, event)
            except IllegalActionError:
                continue
            seq = (*seq, event)
        return self if seq is self.seq else _Node(state, seq, self.seen, self.turns,
                                                  self.choices)


def _as_last_seen(node: _Node, evidence: Sequence[View | Button], index: int,
                  slack: int) -> bool:
    """Does the table look, at a press, as the camera last saw it before the press?

    A move made before a button was seen before it: the camera reports every change.
    (A press with no view before it since the settled point may come before the camera
    has settled on the move it follows.)
    """
    last = next((e for e in reversed(evidence[:index]) if not isinstance(e, Button)), None)
    return last is None or mismatch(node.state, last, slack) == 0


def _turns(state: GameState) -> int:
    return sum(p.turns for p in state.players)


def _pressed(button: Button, node: _Node, turns_before: int) -> bool:
    """Does the position agree with this press?

    DIE: the player just took the deck. NEXT: the player's own part is done — no gain
    step is still to come (a Scout, or a turn already over), though a house ability or
    a die roll may follow.
    """
    if button is Button.DIE:
        return bool(node.seq) and isinstance(node.seq[-1], DrawFromDeck)
    if button is Button.NEXT:
        state = node.state
        if state.phase is not Phase.PLAYING or _turns(state) > turns_before:
            return True
        pending = state.pending
        if not node.seq or pending is None or pending.kind in (Kind.GAIN, Kind.TURN):
            return False
        # A Lead whose ability is still under way has its gain step to come.
        return state.turn is None or state.turn.end_requested or not any(
            step.name == "gain" for step in state.stack)
    return True


def candidates(state: GameState, view: View, button: Button | None = None,
               wild: frozenset[Location] = frozenset(), unseen: bool = False) -> list[Event]:
    """The pending options worth trying, with card names the camera can fill in.

    ``wild``: unread locations where a move is tried anyway (anything may have changed
    there), to find what else could explain the rest; no move is ever played so.
    ``unseen``: the camera could not read a location for a while, so a step the rules
    force may have been made and undone there unseen.
    """
    pending = state.pending
    if pending is None or pending.is_chance:
        return []
    if pending.kind is Kind.BLOCK:
        return [o for o in pending.options if isinstance(o, Decline)]
    touched = _touched(state, view, wild)
    # A forced step (one option) is always tried: what the table shows next tells
    # whether it has happened yet.
    small = len(pending.options) <= MAX_BLIND_OPTIONS
    forced = len(pending.options) == 1
    unread = _unread(view) - wild
    out: list[Event] = []
    for option in pending.options:
        filled = [] if _only_where_unread(option, unread) else list(
            _fill(option, state, view, button, touched, small, forced))
        if forced and not filled and (unread or unseen):
            # The rules leave no choice (Au Toma's step), made perhaps while the camera
            # could not read there, and undone since: later views check it.
            filled = [option]
        out.extend(filled)
    return out


# A choice the camera cannot see directly (a colour, an opponent, "gain it?") is still
# tried when it has few options: if only one of them fits what the table shows next,
# that settles it; if several fit, the choice is left to the phone.
MAX_BLIND_OPTIONS = 12


def camera_answers(event: Event) -> bool:
    """Is this an answer the camera (or a button) gives: a card put down, taken or moved?"""
    return isinstance(event, CAMERA_EVENTS) or getattr(event, "location", None) is not None


CAMERA_EVENTS = (Lead, Scout, GainFrom, DrawFromDeck, Place, Moved, AutomaGain)


def _touched(state: GameState, view: View, wild: frozenset[Location] = frozenset(),
             ) -> dict[str, set[Location]]:
    """Where the table changed: stacks that grew or shrank, tops that changed.

    The named top card counts as much as the count: a card from lower in the stack on
    top means cards left it, whatever the count reads (see DEPTH_SLACK).
    """
    grew, shrank, changed = set(), set(), set()
    for loc, seen in zip(LOCATIONS, view, strict=True):
        if isinstance(seen, Unread):
            if loc in wild:
                grew.add(loc)
                shrank.add(loc)
            continue  # nothing is inferred where the camera cannot see
        stack = state.stack_at(loc)
        cards = [slot.card for slot in stack]
        differs = bool(stack) and seen.top is not None and cards[-1] not in (None, seen.top)
        if seen.depth > len(stack):
            grew.add(loc)
        elif seen.depth < len(stack) or (differs and seen.top in cards):
            shrank.add(loc)
        elif differs:
            changed.add(loc)
    return {"grew": grew, "shrank": shrank, "changed": changed,
            "any": grew | shrank | changed}


def _fill(option: Event, state: GameState, view: View, button: Button | None,
          touched: dict[str, set[Location]], small: bool, forced: bool = False,
          ) -> Iterable[Event]:
    """Concrete versions of ``option`` consistent with what changed on the table."""
    grew, shrank = touched["grew"], touched["shrank"]
    if isinstance(option, Lead):
        return _fill_lead(option, state, view, touched)
    if isinstance(option, Place):
        return _fill_place(option, view, touched)
    if isinstance(option, Moved):
        return [_named_by_camera(option, view)]
    if isinstance(option, GainFrom):
        # A new top at the same count may be a card gained and another put there since
        # (seen together when the camera could not read the location in between).
        return [option] if option.location in shrank | touched["changed"] else []
    if isinstance(option, DrawFromDeck):
        return [option] if button is Button.DIE else []
    if isinstance(option, Scout):
        return [option] if grew else []
    if isinstance(option, Choose):
        return _fill_choice(option, view, touched["any"], small, forced)
    if isinstance(option, Decline):
        return [option]  # passing is invisible; what happens next shows it
    return [option] if small else []  # Au Toma's confirmations, finale answers…


def _fill_lead(option: Lead, state: GameState, view: View,
               touched: dict[str, set[Location]]) -> list[Event]:
    """A deploy shows as a new card on top of a location (that grew, unless its ability
    took a card from there before the camera settled)."""
    if option.location is None:
        return [option] if touched["shrank"] else []
    if option.location not in touched["grew"] | touched["changed"]:
        return []
    top = _top(view[option.location.pos])
    if option.card is None:
        # A card already on the table was not deployed (it was moved, or one slid in
        # under it: the count grew under a top the camera already knew).
        return [Lead(top, option.location)] if top and not _on_table(state, top) else []
    return [option]


def _fill_place(option: Place, view: View, touched: dict[str, set[Location]]) -> list[Event]:
    """A placed card, named by what the camera reads on top."""
    if option.location not in touched["any"]:
        return []
    return [replace(option, card=option.card or _top(view[option.location.pos]))]


def _named_by_camera(option: Moved, view: View) -> Moved:
    """A card that lands face up on top of a location is named by what the camera reads."""
    if option.card is not None or option.target is None or option.under:
        return option
    top = _top(view[option.target.pos])
    return replace(option, card=top) if top else option


def _fill_choice(option: Choose, view: View, touched: set[Location], small: bool,
                 forced: bool) -> list[Event]:
    if option.location is None:
        return [option] if small else []
    if option.location not in touched and not forced:
        return []
    if option.value is None and option.index is None:
        # A card put down (face down, say) on top: the camera reads it if it can.
        return [replace(option, value=_top(view[option.location.pos]))]
    return [option]  # a card already in a stack: the camera cannot name it now


def _on_table(state: GameState, card: str) -> bool:
    return any(slot.card == card for stack in state.locations for slot in stack)


def _top(seen: Seen | Unread) -> str | None:
    """The card the camera names on top of a location (None: none named, or unread)."""
    return seen.top if isinstance(seen, Seen) else None


def _unread(view: View) -> frozenset[Location]:
    return frozenset(loc for loc, seen in zip(LOCATIONS, view, strict=True)
                     if isinstance(seen, Unread))


def _ahead(view: View, evidence: Sequence[View | Button]) -> View:
    """``view`` with each location it cannot read taken from the next view that reads
    it: a move made there unseen is inferred once a later view (or the table's answer)
    shows it, and only then."""
    out = view
    for loc in _unread(view):
        later = next((e[loc.pos] for e in evidence if not isinstance(e, Button)
                      and isinstance(e[loc.pos], Seen)), None)
        if later is not None:
            out = _with(out, loc, later)
    return out


def _unread_in(evidence: Sequence[View | Button]) -> frozenset[Location]:
    """Locations some view of the evidence could not read."""
    out: frozenset[Location] = frozenset()
    for item in evidence:
        if not isinstance(item, Button):
            out |= _unread(item)
    return out


def _unsure(view: View) -> frozenset[Location]:
    """Locations the camera does not read now (unread, or told by the table instead)."""
    return frozenset(loc for loc, seen in zip(LOCATIONS, view, strict=True)
                     if isinstance(seen, Unread) or seen.told)


def _only_where_unread(option: Event, unread: frozenset[Location]) -> bool:
    """Does ``option`` touch the table only at locations the camera cannot read? Such a
    move is never inferred: nothing seen shows it (the table is asked instead)."""
    places = {getattr(option, name, None) for name in ("location", "source", "target")}
    places.discard(None)
    return bool(places) and places <= unread


def _answered(game: Game, start: int) -> int:
    """Events logged since ``start`` that were not the die's (or another chance) answer."""
    return sum(1 for i in range(start, len(game.log)) if not _by_chance(game.states, i))


def _by_chance(states: Sequence[GameState], i: int) -> bool:
    """Did the event logged at ``i`` answer a chance decision (the die)?"""
    pending = states[i].pending
    return pending is not None and pending.is_chance


def _forced_after(start: GameState, seq: tuple[Event, ...], played: tuple[Event, ...]) -> bool:
    """Is ``seq`` what was played and then only steps with a single answer (a card slid
    under the top as the page said): nothing anyone chose, so no count can mislead it?"""
    if seq[:len(played)] != played:
        return False
    state = _after(start, played)
    for event in seq[len(played):]:
        if state.pending is None or len(state.pending.options) != 1:
            return False
        state = apply(state, event)
    return True


def _after(state: GameState, events: Sequence[Event]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state


def _rolls(state: GameState) -> bool:
    return state.pending is not None and state.pending.is_chance


def _waits_for_table(state: GameState, view: View) -> bool:
    """Is the position waiting on something only people can say (not the camera)?

    A question with no answer the camera gives (a name, a choice nobody sees), or a card
    in a stack the camera saw taken but cannot name.
    """
    pending = state.pending
    if pending is None or pending.is_chance or pending.kind is Kind.BLOCK:
        return False
    return not any(camera_answers(o) for o in pending.options) or _names_needed(state, view)


def _names_needed(state: GameState, view: View) -> bool:
    """Is a card the camera saw taken from a stack one it cannot name (covered, face down)?"""
    pending = state.pending
    if pending is None or pending.is_chance:
        return False
    touched = _touched(state, view)["any"]
    return any(isinstance(o, Choose) and o.value is None and o.index is not None
               and o.location in touched for o in pending.options)


def _same_outcome(start: GameState, readings: list[tuple[Event, ...]]) -> bool:
    outcomes = set()
    for seq in readings:
        state = start
        for event in seq:
            state = apply(state, event)
        outcomes.add(state.fen())
    return len(outcomes) == 1


def _without_halfway_views(
    start: GameState, evidence: tuple[View | Button, ...], slack: int = 0,
) -> tuple[View | Button, ...]:
    """The evidence without views that lie on the way from ``start`` to the last view.

    On the way: every stack's depth between where it started and where it ended, and
    its top card one of those two (or unseen). A card put down on the wrong stack and
    then moved is not on the way, and stays as evidence to be explained or asked about.
    """
    views = [e for e in evidence if not isinstance(e, Button)]
    if len(views) < 2:
        return evidence
    first, last = view_of(start), views[-1]
    return tuple(e for e in evidence
                 if isinstance(e, Button) or e is last or not _halfway(e, first, last, slack))


def _halfway(view: View, first: View, last: View, slack: int = 0) -> bool:
    for now, a, b in zip(view, first, last, strict=True):
        if isinstance(now, Unread) or isinstance(a, Unread) or isinstance(b, Unread):
            continue  # unread at either end: anything may lie there on the way
        off = slack if now.top is not None else 0
        if not min(a.depth, b.depth) - off <= now.depth <= max(a.depth, b.depth) + off:
            return False
        if now.top not in (None, a.top, b.top) or (
                now.face_down and not (a.face_down or b.face_down)):
            return False
    return True


def _blind(decision: Decision | None) -> bool:
    """A real choice nobody at the table sees made: several answers, none on the table."""
    return (decision is not None and not decision.is_chance and len(decision.options) > 1
            and decision.kind is not Kind.BLOCK and not _visible_choice(decision)
            and not any(camera_answers(o) for o in decision.options))


def _visible_choice(decision: Decision) -> bool:
    """Do the options name places on the table (so the camera can tell them apart)?"""
    return any(getattr(o, "location", None) is not None for o in decision.options)


def _covered_choice(parts: Sequence[Event]) -> Location | None:
    """The location, when the readings part only at which of its stack cards was chosen."""
    where = {e.location for e in parts if isinstance(e, Choose) and e.index is not None}
    if len(where) != 1 or not all(isinstance(e, Choose) and e.index is not None for e in parts):
        return None
    return next(iter(where))


def _common_prefix(seqs: list[tuple[Event, ...]]) -> tuple[Event, ...]:
    shortest = min(len(s) for s in seqs)
    n = 0
    while n < shortest and all(s[n] == seqs[0][n] for s in seqs):
        n += 1
    return seqs[0][:n]


def _dedupe(seqs: list[tuple[Event, ...]]) -> list[tuple[Event, ...]]:
    return list(dict.fromkeys(seqs))


def corrections_for(state: GameState, view: View) -> tuple[Event, ...]:
    """SetLocation corrections that make the engine's stacks look like the view.

    Only depth and the identified top card are known from the camera; covered cards
    keep their engine identity (the camera sees only their strips).
    """
    fixes: list[Event] = []
    for loc, seen in zip(LOCATIONS, view, strict=True):
        if isinstance(seen, Unread):
            continue  # the camera says nothing there: the engine's stack stays
        stack = state.stack_at(loc)
        cards: list[str | None] = [slot.card for slot in stack][: seen.depth]
        while len(cards) < seen.depth:
            cards.append(None)
        if seen.depth and seen.top is not None:
            cards[-1] = seen.top
        if tuple(cards) != tuple(slot.card for slot in stack):
            flags = tuple(False for _ in cards[:-1]) + ((seen.face_down,) if cards else ())
            fixes.append(SetLocation(loc, tuple(cards), flags, removed_to="banished"))
    return tuple(fixes)


def _plain(view: View) -> View:
    """The view as evidence: unread is unread, however long it has been."""
    seen = [UNREAD if isinstance(s, Unread) else s for s in view]
    return (seen[0], seen[1], seen[2], seen[3])


def _with(view: View, location: Location, seen: Seen | Unread) -> View:
    out = list(view)
    out[location.pos] = seen
    return (out[0], out[1], out[2], out[3])


def describe(start: GameState, events: Sequence[Event]) -> str:
    """A sentence for the phone: who did what."""
    name = start.players[start.current].name if start.players else "?"
    return f"{name}: {describe_events(events)}" if events else "nothing happened"


def describe_events(events: Sequence[Event]) -> str:
    return "; ".join(_sentence(e) for e in events)


def _sentence(event: Event) -> str:
    if isinstance(event, Lead):
        if event.location is None:
            return "Lead with an empty hand"
        return f"Lead: deployed {event.card} to {event.location.label}"
    if isinstance(event, Scout):
        return "Scout"
    if isinstance(event, Place):
        return f"placed {event.card or 'a card'} on {event.location.label}"
    if isinstance(event, GainFrom):
        return f"gained the top card of {event.location.label}"
    if isinstance(event, DrawFromDeck):
        return "took the deck's top card and rolled the die"
    if isinstance(event, Choose):
        where = f" on {event.location.label}" if event.location else ""
        return f"chose {event.value}{where}"
    return event_text(event)


def pending_hint(decision: Decision | None) -> str:
    """What the tracker is waiting to see next (for the page and the voice)."""
    if decision is None:
        return ""
    return {
        Kind.TURN: "waiting for a card to be deployed or scouted",
        Kind.GAIN: "waiting for a card to be taken (or DIE for the deck)",
        Kind.PLACE: "waiting for the card to be placed",
        Kind.TARGET: "waiting for the card to be banished",
        Kind.CONFIRM: decision.prompt,
    }.get(decision.kind, decision.prompt)


@dataclass
class Follow:
    """A game kept in step with the table: camera views and buttons in, events out.

    The service and ``companion replay`` both drive one of these, so what a replay
    shows is what the device did. ``game`` answers chance (the Rising die) from its rng.
    ``sources`` says, for every event in the log, where it came from: "camera" (the
    tracker inferred it), "asked" (a question settled it), "table" (a decision answered
    on the phone or by a button), "chance" (the companion's die or shuffle), "setup".

    A location the camera cannot read (:class:`Unread`) stops nothing: the tracker
    explains what the other three show. Once it is overdue, the table is asked what lies
    there (one :data:`LOCATION` question); the answer is explained as a view of its own,
    and from then on the engine's stack there stands until the camera reads the location
    again (that reading is explained like any other, so a wrong answer shows). The
    table is asked again only when the tracker cannot explain what the camera sees
    without a fresh answer there.
    """

    game: Game
    tracker: Tracker = field(default_factory=Tracker)
    last_view: View | None = None
    questions: int = 0  # questions the tracker had to ask
    _dice: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # log index → rng state
    kinds: list[str] = field(default_factory=list)  # Question.kind of each
    sources: list[str] = field(default_factory=list)
    told: set[Location] = field(default_factory=set)  # answered since they went unread
    overdue: frozenset[Location] = frozenset()  # unread long enough to ask about
    asking: Location | None = None  # the location the open location question is about

    def __post_init__(self) -> None:
        self.sources = ["setup"] * len(self.game.log)

    def on_view(self, view: View) -> Verdict:
        self.catch_up()
        self._read_again(view)
        self.overdue = frozenset(loc for loc, seen in zip(LOCATIONS, view, strict=True)
                                 if isinstance(seen, Unread) and seen.overdue)
        view = _plain(view)
        self.last_view = view
        was_open = self._open()
        return self._apply(self.tracker.observe(self.game, view), "camera", was_open)

    def on_button(self, button: Button) -> Verdict:
        self.catch_up()
        view = self.last_view or view_of(self.game.state)
        was_open = self._open()
        return self._apply(self.tracker.press(self.game, button, view), "camera", was_open)

    def on_tell(self, location: Location, seen: Seen) -> Verdict:
        """The table's answer to "what is on top of ``location``?" (:func:`location_answer`).

        :raises IllegalActionError: when that is not the open question.
        """
        self.catch_up()
        question = self.tracker.question
        if question is None or question.kind != LOCATION or question.location is not location:
            raise IllegalActionError(f"nobody asked what is on top of {location.label}",
                                     rule="tracker")
        self.tracker.question, self.asking = None, None
        self.told.add(location)  # asked again only when it holds something up
        view = _with(self.last_view or view_of(self.game.state), location,
                     replace(seen, told=True))
        # Only this view holds the answer: later ones leave the location unread, and the
        # engine's stack there stands (the table may change it unseen).
        return self._apply(self.tracker.observe(self.game, view, frozenset({location})), "asked")

    def on_idle(self) -> None:
        """The table has been still a long while and the game has not ended: whatever
        the camera still cannot read is asked about (the last move may lie there)."""
        if self.game.state.phase is Phase.PLAYING:
            self._maybe_ask(self.overdue)

    def _open(self) -> bool:
        """Is one of the tracker's own questions open (more views may refine it)?"""
        question = self.tracker.question
        return question is not None and question.kind != LOCATION

    def _read_again(self, view: View) -> None:
        """The camera reads these locations again: their answers stand in no longer."""
        for loc, seen in zip(LOCATIONS, view, strict=True):
            if isinstance(seen, Seen):
                self.told.discard(loc)
                if self.asking is loc:
                    self.asking = None  # its question is withdrawn (explaining clears it)

    def _maybe_ask(self, also: frozenset[Location] = frozenset()) -> None:
        """Ask about an overdue location (one question at a time): once when it went
        unread with cards on it (something may be happening there unseen), and again
        whenever the tracker cannot do without a fresh answer there. An empty location
        the camera cannot tell from the table is not asked about until it matters."""
        if self.tracker.question is not None:
            return
        state = self.game.state
        wanted = [loc for loc in LOCATIONS if loc in self.overdue and (
            loc in self.tracker.blind or loc in also
            or (loc not in self.told and state.stack_at(loc)))]
        if not wanted:
            self.asking = None
            return
        loc = wanted[0]
        self.tracker.question = location_question(loc, again=loc in self.told)
        if self.asking is not loc:  # re-raised after an explanation cleared it: still one
            self.questions += 1
            self.kinds.append(LOCATION)
        self.asking = loc

    def on_answer(self, index: int) -> Verdict:
        """The table answered the open question."""
        self.catch_up()
        return self._apply(self.tracker.answer(self.game, index), "asked")

    def on_event(self, event: Event) -> Verdict:
        """A decision answered on the phone or by a button; then the view is rechecked."""
        self._play(event, "table")
        return self.recheck()

    def recheck(self) -> Verdict:
        """Explain the latest view again (the table answered something meanwhile)."""
        self.catch_up()
        return self._apply(self.tracker.recheck(self.game), "camera")

    def catch_up(self) -> None:
        """Account for events played on the game by others (the service's page, buttons)."""
        states = self.game.states
        del self.sources[len(self.game.log):]  # …or taken back by them
        for i in range(len(self.sources), len(self.game.log)):
            before = states[i].pending
            self.sources.append("chance" if before is not None and before.is_chance
                                else "table")

    def count(self, source: str) -> int:
        return self.sources.count(source)

    def _apply(self, verdict: Verdict, source: str, was_open: bool = False) -> Verdict:
        for _ in range(verdict.undo):
            self._undo_own()
        for event in verdict.play:
            self._play(event, source)
        self.tracker.applied(self.game, verdict)
        if verdict.question is not None and not was_open:
            self.questions += 1  # a question still open and refined by more views is one
            self.kinds.append(verdict.question.kind)
        if verdict.again:
            return self._apply(self.tracker.recheck(self.game), source)
        self._maybe_ask()
        return verdict

    def _play(self, event: Event, source: str) -> None:
        before = len(self.game.log)
        rng = self.game.rng.getstate() if self.game.rng is not None else None
        self.game.play(event)
        self.sources.append(source)
        self.sources.extend(["chance"] * (len(self.game.log) - before - 1))
        if rng is not None and len(self.game.log) > before + 1:
            self._dice[before] = rng

    def _undo_own(self) -> None:
        """Undo one tracker event, with the die rolls that followed it.

        The die is wound back too: the same move played again rolls the same face (the
        table heard it once; taking a reading back does not re-roll it).
        """
        while self.sources and self.sources[-1] == "chance":
            self.game.undo()
            self.sources.pop()
        self.game.undo()
        self.sources.pop()
        rng = self._dice.pop(len(self.game.log), None)
        if rng is not None and self.game.rng is not None:
            self.game.rng.setstate(rng)
