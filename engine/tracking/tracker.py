"""The tracker: what the camera sees and the buttons say, turned into game events.

Pure logic (no I/O, no clock). The camera reports a stable :data:`TableView` of the four
locations (depth and identified top card of each); buttons report presses. The tracker
asks the engine itself which sequence of legal answers, from the last settled point,
would leave the table looking like that: it searches the pending decisions' options
(shortest explanations first), filling in the card names only the camera can give.

* exactly one shortest explanation → its events are played (and shown, and undoable);
* several → the ones whose covered cards agree with the strips the camera names
  (:func:`~engine.tracking.view.strips_agree`); if still several, a :class:`Question`
  for the phone with each reading as an option (which covered card left a stack;
  which order two moves seen at once came in); where they part at a choice no camera
  can see, the engine's own decision waits for the table;
* the way on passes something only the table can say (a card to name) or the die →
  the events up to it are played and the tracker waits (:attr:`Then.WAIT`; after
  a roll, :attr:`Then.AGAIN`: explain the latest view again);
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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine import narration
from engine.board import LOCATIONS, Location
from engine.decisions import Decision, Kind
from engine.errors import IllegalActionError
from engine.events import (
    Block,
    Choose,
    DrawFromDeck,
    Event,
    GainFrom,
    Lead,
    Place,
    Scout,
)
from engine.game import Game
from engine.narration import Answer, Reading
from engine.rules import apply
from engine.state import GameState, Phase
from engine.tracking.options import candidates, is_blind, is_visible_choice, waits_for_table
from engine.tracking.question import COVERED_CARD, ORDER, UNEXPECTED, Question, Then, Verdict
from engine.tracking.search import (
    Node,
    Search,
    awaits_die,
    least_off,
    played_out,
    shown_in,
    turns_taken,
)
from engine.tracking.view import (
    DEPTH_SLACK,
    Button,
    Seen,
    TableView,
    corrections_for,
    mismatch,
    strips_agree,
    top_named,
    unread_at,
    unsure_at,
    unsure_in,
    view_of,
    without_halfway_views,
)

# Refuted moves kept (see Tracker._taken_back): the table takes back a wrong reading
# now and then, and a position long gone never comes back.
REFUTED_KEPT = 8


@dataclass
class Tracker:
    """Infers the table's moves; keeps what it played since the last settled point."""

    max_depth: int = 4
    budget: int = 1500  # engine applications per search, at most
    # Engine applications per explanation of a view, press or answer, over all its
    # searches, at most: past it the table is asked rather than the search run on
    # while the table waits. A count, not a clock, so a replay decides as the device
    # did. Late in a 5-6 player game an application costs up to ~0.16 ms here, and an
    # answer may explain twice (the answer, then the latest view again): 4000 keeps a
    # command well under a second; the tracker alone asks as often as with 16000.
    work: int = 4000
    anchor: int = 0  # log length of the last settled point
    played: list[Event] = field(default_factory=list)  # own events since the anchor
    # What was seen and pressed since the anchor, in order: explanations must pass
    # through every view in turn (the order of two moves matters, not only the result).
    evidence: list[TableView | Button] = field(default_factory=list)
    question: Question | None = None
    waiting_on: Decision | None = None  # the decision the table must answer, if any
    # Where the latest explanation failed for want of a reading: locations the camera
    # cannot read, or read only through an earlier answer of the table (see Follow).
    blind: frozenset[Location] = frozenset()
    _fresh: frozenset[Location] = frozenset()  # told by the table in the latest view itself
    # Unread in the last view of the evidence a settle closed: a stack there may have
    # changed twice unseen (the die's card put down, then a card deployed on it), and the
    # first view to read it again, in the new evidence, shows both at once.
    _unread_before: frozenset[Location] = frozenset()
    # While waiting for the table's answer: how much evidence the events up to the wait
    # explained (what came after, a DIE pressed meanwhile, is explained after the answer).
    _explained: int | None = None
    _slack: int = 0
    _settle_after: bool = False  # the next applied verdict closes the evidence
    _keep_view: bool = False  # ... and keeps the latest view, which it explains
    # Where a roll settled a reading NEXT may still overturn: anchor, own events, evidence.
    _before_roll: tuple[int, list[Event], list[TableView | Button]] | None = None
    # DIE pressed on a turn nothing readable showed yet, while these locations were
    # unread: the move was likelier made there than seen later elsewhere (see press).
    _die_unread: frozenset[Location] = frozenset()
    # The game came to a block through the table's answer while this much evidence was
    # already in: none of it can say that nobody blocked (see _unoffered_block).
    _offered_after: int | None = None
    # Evidence an answered reading left for after its roll (see _beyond).
    _rest: list[TableView | Button] = field(default_factory=list)
    _left: int | None = None  # the work left for the view being explained (see work)
    exhausted: bool = False  # the latest search ran out of budget before it was done
    # Moves the table took back (see _taken_back), each with the position it was played
    # from: never tried from there again.
    refuted: list[tuple[GameState, Event]] = field(default_factory=list)
    _offer: list[tuple[Event, ...]] = field(default_factory=list)  # readings found so far
    _near: list[tuple[Event, ...]] = field(default_factory=list)  # or the nearest misses

    # --- inputs -------------------------------------------------------------------

    def settle(self, log_length: int) -> None:
        """Everything up to here is final (a roll, a phone answer, a new turn)."""
        views = [e for e in self.evidence if not isinstance(e, Button)]
        if views:  # with none (buttons alone), what was unread before still is
            self._unread_before = unsure_at(views[-1])
        self.anchor = log_length
        self.played = []
        self.evidence = []
        self.question = None
        self._before_roll = None
        self._explained = None
        self._die_unread = frozenset()
        self._offered_after = None

    def observe(self, game: Game, view: TableView,
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

    def press(self, game: Game, button: Button, view: TableView) -> Verdict:
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
        # Nothing played this turn yet, and the table looks as the game stands.
        untouched = not self.played and pending is not None and (
            pending.kind is Kind.TURN and mismatch(game.state, view, DEPTH_SLACK) == 0)
        if button is Button.NEXT and untouched and not unread_at(view):
            # The turn it ends is over already (the camera settled it), unless it was
            # played where the camera cannot read.
            return Verdict()
        if button is Button.DIE and untouched:
            # The turn ended (a card drawn, the die to roll) with nothing seen played.
            # Either the camera has yet to settle on the card put down, or it was put
            # where the camera cannot read: then nothing is explained until that
            # location is read again (or told, once overdue), lest the next player's
            # change elsewhere be taken for this turn's move.
            self._die_unread = unread_at(view)
            if not self._die_unread:
                # The views so far show the table as the game stands: none was taken
                # after the move the press follows (the camera settles on it after).
                self.evidence = []
        self.evidence.append(button)
        return self._explain(game.states, view)

    def answer(self, game: Game, index: int) -> Verdict:
        """The table picked reading ``index`` of the open question."""
        question = self.question
        if question is None or not 0 <= index < len(question.readings):
            raise IllegalActionError("no such answer to the open question", rule="tracker")
        self._resync(game)
        reading, text = question.readings[index], question.texts()[index]
        self.question = None
        # The table's answer is final: later views are explained from where it leads.
        self._settle_after = True
        if reading.answer is Answer.PLAY:
            self._keep_view = True  # which the reading explains, or will after a roll
            start = game.states[self.anchor]
            rolls = awaits_die(played_out(start, reading.events))
            # What a reading that stops short (at the die, or a choice the table makes
            # next) leaves unexplained is explained after it, in order. (A reading of
            # "nothing explains it" explains the latest view alone: what came before it
            # is what nothing explains.)
            whole = rolls or question.kind is not UNEXPECTED
            self._rest = self._beyond(start, reading.events) if whole else []
            return replace(self._verdict_for(start, reading.events), text=text,
                           then=Then.AGAIN if rolls else Then.GO_ON)
        return Verdict(play=reading.events, text=text)

    def applied(self, game: Game, verdict: Verdict) -> None:
        """The service applied ``verdict`` (chance may have followed): move the anchor."""
        if verdict.then is Then.WAIT:
            self.waiting_on = game.state.pending
        if self._settle_after:
            views = [e for e in self.evidence if not isinstance(e, Button)]
            keep: list[TableView | Button] = [v for v in views[-1:] if self._keep_view and (
                mismatch(game.state, v, DEPTH_SLACK) == 0)]
            self._settle_after = self._keep_view = False
            rest, self._rest = self._rest, []
            self.settle(len(game.log))
            self.evidence = rest or keep
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
                if rolled and not mine:
                    evidence = self._beyond(states[self.anchor],
                                            game.log[self.anchor:length]) or evidence
                self.settle(length)
                self.played, self.evidence = mine, list(evidence)
                self._before_roll = reopen
                return

    def _beyond(self, start: GameState, events: Sequence[Event]) -> list[TableView | Button]:
        """The evidence ``events`` (played from ``start`` up to a roll) leave unexplained:
        what the table did after the roll (the next player's card, seen before the
        roll was played; a turn held back while a location was unread, see press) is
        explained after it, in order, not dropped. Each draw in ``events`` answered a
        DIE press: one the views left for later (pressed before the camera saw the move
        it follows, a hand over that stack) is spent all the same, not handed on to
        roll again for the next player."""
        seen = self._seen_by(start, events)
        spent = sum(isinstance(e, DrawFromDeck) for e in events) - sum(
            e is Button.DIE for e in self.evidence[:seen])
        rest: list[TableView | Button] = []
        for item in self.evidence[seen:]:
            if item is Button.DIE and spent > 0:
                spent -= 1
                continue
            rest.append(item)
        return rest

    def _may_be_a_scout(self, events: Sequence[Event]) -> bool:
        """Do these events begin with a deploy that NEXT could still turn into a Scout?"""
        return (bool(events) and isinstance(events[0], Lead) and events[0].location is not None
                and Button.NEXT not in self.evidence
                and not any(isinstance(e, GainFrom | DrawFromDeck | Scout) for e in events))

    def _resync(self, game: Game) -> None:
        """Events the tracker did not play (phone, buttons) settle the past; so does an
        undo that took back events from before the settled point (the table's UNDO).

        The latest view stays: it is still what the table looks like, and the new
        position may now explain it.
        """
        if self._taken_back(game):
            return
        if self.anchor > len(game.log) or _answered(game, self.anchor) != len(self.played):
            views: list[TableView | Button] = [e for e in self.evidence
                                               if not isinstance(e, Button)]
            after = [] if self._explained is None else self.evidence[self._explained:]
            self.settle(len(game.log))
            # What the events up to the table's answer did not explain stays to be
            # explained, in order, after the latest view if none of it is a view.
            self.evidence = after if any(not isinstance(e, Button) for e in after) else (
                views[-1:] + after)

    def _taken_back(self, game: Game) -> bool:
        """Did the table take back some of the tracker's own events since the anchor
        (UNDO: "that is not what happened")? Then the first of them is refuted: it is
        never inferred again from where it was played, else the same views would put it
        straight back. The evidence stands, to be explained again without it."""
        if self.anchor > len(game.log):
            return False
        kept = [e for i, e in enumerate(game.log[self.anchor:], self.anchor)
                if not _by_chance(game.states, i)]
        if len(kept) >= len(self.played) or kept != self.played[:len(kept)]:
            return False  # nothing taken back, or the table played something itself
        self.refuted = [*self.refuted[-(REFUTED_KEPT - 1):],
                        (game.state, self.played[len(kept)])]
        self.played = kept
        self.question = None
        return True

    def waits_for_table(self, game: Game) -> bool:
        """Is the game's open decision one the tracker left for the table to answer?"""
        return self.waiting_on is not None and game.state.pending == self.waiting_on

    def recheck(self, game: Game) -> Verdict:
        """Explain the latest view again (after the table answered something)."""
        self._resync(game)
        pending = game.state.pending
        if pending is not None and pending.kind is Kind.BLOCK and self._offered_after is None:
            self._offered_after = len(self.evidence)
        views = [e for e in self.evidence if not isinstance(e, Button)]
        if not views:
            return Verdict()
        return self._explain(game.states, views[-1])

    # --- explaining ---------------------------------------------------------------

    def _held_at(self) -> frozenset[Location]:
        """Where the turn's move is awaited: DIE was pressed while these locations were
        unread and nothing readable had changed (see press), and no view since has read
        them or had them told."""
        if not self._die_unread or Button.DIE not in self.evidence:
            return frozenset()
        held = self._die_unread
        for item in self.evidence[self.evidence.index(Button.DIE) + 1:]:
            if not isinstance(item, Button):
                held &= unread_at(item)
        return held

    def _explain(self, states: Sequence[GameState], view: TableView) -> Verdict:
        """Explain the evidence within the work budget; past it, ask the table."""
        self._left, self._offer, self._near = self.work, [], []
        try:
            return self._explain_within(states, view)
        except _Spent:
            self._left = 0
            blind = unsure_at(view) - self._fresh
            if not self._offer or blind:
                # As when nothing explains the views: where the camera cannot read, the
                # table is asked what lies there (a move there may be what the search
                # could not reach), not offered the readings found so far.
                return self._unexplained_view(states, view, self._near)
            self.blind = frozenset()  # the readings found so far, for the table to pick
            self.question = self._unexplained(states[-1], states[self.anchor], view,
                                              self._offer[:3])
            return Verdict(question=self.question, text=self.question.prompt)
        finally:
            self._left = None

    def _explain_within(self, states: Sequence[GameState], view: TableView) -> Verdict:
        self.question = None  # a fresh explanation replaces any question still open
        self.blind = frozenset()
        self._explained = None
        held = self._held_at()
        if held:
            self.blind = held  # Follow asks there once it is overdue
            return Verdict()
        start = states[self.anchor]
        readings, nearest, stops = self._readings(start, 0)
        readings = self._by_strips(start, readings, view)
        self._slack = 0  # the slack the readings (or the stops) were found with
        asked = self._count_decides(states, start, view, readings or stops)
        if asked is None and readings and _covered_pick(readings):
            asked = self._count_doubted(start, readings)
        if asked is not None:
            return asked
        for slack in range(1, DEPTH_SLACK + 1):
            if readings or (Button.DIE in self.evidence and _rolls_next(start, stops)):
                break
            # Perhaps the camera miscounted a stack: trust the top cards it names, with
            # the count as far off as it must be (the least disagreement first). A way
            # that explains every view with a count off beats one that stops short at
            # the die or a choice: a roll is never taken back, so the die is not rolled
            # on part of the evidence while the whole of it has an explanation. Unless
            # the table pressed DIE and every count as read leads to the roll: then the
            # roll is what the table says happened, and a count taken as off to explain
            # it all without the die would hide a move the die brings (a card taken
            # from under another top, seen only as one card less).
            found, _, found_stops = self._readings(start, slack)
            found = self._by_strips(start, found, view)
            if found or not stops:
                self._slack = slack
            readings, stops = found, stops or found_stops
        if readings and self._slack:
            # A card put down where the camera could not read and covered at once (the
            # die's card, then the next player's deploy on it) explains the counts as
            # read: only the count tells it from a count taken as off, so the table says.
            covered = self._covered_places(start, slack=0)
            if covered:
                return self._ask(start, [*covered, *readings])
            # Found with a count taken as off elsewhere (see _least_off): the same holds.
            asked = self._count_decides(states, start, view, readings)
            if asked is not None:
                return asked
        if (readings or stops) and self._rivalled(start, readings or stops):
            # Something at a location the camera cannot read would explain it as well
            # (a card gained there, not a Scout): the table is asked there first.
            self.blind = unsure_at(view) - self._fresh
            return Verdict()
        if readings and all(self._invents(seq) for seq in readings):
            # Each reading deploys a card no view shows, where the camera could not read:
            # if another way explains the views with the cards they show (a choice nobody
            # sees, the table's answer), the table says which.
            found, _, honest = self.search(start, tuple(self.evidence), self._slack,
                                           shown=shown_in(self.evidence))
            if found or honest:
                return self._ask(start, [*readings, *(found or honest)], whole=not found)
        kept = self._played_on(start, readings)
        if kept:
            # What was played explains the new view too, carried on; the readings take
            # it back for a shorter way. Both fit: the table says which.
            return self._ask(start, [*kept, *readings])
        if len(readings) == 1 or _same_outcome(start, readings):
            return self._take(start, readings[0])
        if readings:
            return self._ask(start, readings)
        if stops and all(self._invents(seq) for seq in stops):
            # Each way on deploys a card no view shows, where the camera could not read,
            # and waits there: a card put down unseen and covered at once (a scouted
            # card, then the next player's deploy on it) may explain the views with the
            # cards they show. The table says which.
            covered = self._covered_places(start, slack=0)
            if covered:
                return self._ask(start, [*covered, *stops], whole=False)
        if stops:
            # The way on passes a decision only the table can answer (a card to name,
            # a choice nobody can see) or the die: go as far as the camera shows, then
            # wait for the answer or the roll.
            if len(stops) == 1 or _same_outcome(start, stops):
                return self._stop_at(start, stops[0])
            return self._ask(start, stops, whole=False)
        covered = self._covered_places(start)
        if len(covered) == 1 or (covered and _same_outcome(start, covered)):
            return self._take(start, covered[0])
        if covered:
            return self._ask(start, covered)
        return self._unexplained_view(states, view, nearest)

    def _short_of_played(self, start: GameState, stops: list[tuple[Event, ...]]) -> bool:
        """Do the stops take back some of what was played and explain less of the
        evidence than it does?"""
        played = tuple(self.played)
        if not played or any(seq[:len(played)] == played for seq in stops):
            return False
        # Counts as far off as the camera may miscount: the played events were perhaps
        # found so, and the stops are judged alike.
        return max(self._seen_by(start, seq, DEPTH_SLACK) for seq in stops) < self._seen_by(
            start, played, DEPTH_SLACK)

    def _covered_places(self, start: GameState,
                        slack: int | None = None) -> list[tuple[Event, ...]]:
        """A turned-over card a player put down where the camera could not read, covered
        at once (nobody has named it; the strips or the final count name it later).
        Tried last, before nothing explains the views, and as a rival where the only
        other ways take a count as off or deploy a card no view shows (with ``slack``
        0): offered everywhere, such a card explains too much and costs the search what
        it needs elsewhere."""
        if not unsure_in(self.evidence) | self._unread_before:
            return []  # only where the camera could not read (see candidates): spare the work
        slack = self._slack if slack is None else slack
        found, _, _ = self.search(start, tuple(self.evidence), slack, covered=True)
        return [seq for seq in found if _places_unnamed(start, seq)]

    def _unexplained_view(self, states: Sequence[GameState], view: TableView,
                          nearest: list[tuple[Event, ...]]) -> Verdict:
        """Nothing explains the evidence (or nothing did within the work budget)."""
        if mismatch(states[-1], view, DEPTH_SLACK) == 0 and all(
                isinstance(e, tuple) for e in self.evidence):
            return Verdict()
        # Perhaps what happened lies where the camera cannot read: the table is asked
        # about that location (Follow), never told the camera saw something unexpected.
        self.blind = unsure_at(view) - self._fresh
        if isinstance(self.evidence[-1], Button):
            return Verdict()  # pressed before the camera saw the move: wait for the view
        if self.blind:
            return Verdict()
        # Nothing passes through every view in turn. Perhaps a view in between was a
        # slip (a card put on the wrong stack, then moved): offer what explains the last.
        start = states[self.anchor]
        final = self.search(start, (view,), DEPTH_SLACK)[0] if self._left != 0 else []
        self.question = self._unexplained(states[-1], start, view, final or nearest)
        return Verdict(question=self.question, text=self.question.prompt)

    @staticmethod
    def _by_strips(start: GameState, readings: list[tuple[Event, ...]],
                   view: TableView) -> list[tuple[Event, ...]]:
        """The readings whose covered cards agree with the strips the camera names in
        ``view`` (which covered card a player took, say); all of them when none does: a
        strip misnamed must not hide the truth, only fail to settle the question."""
        if len(readings) < 2:
            return readings
        agree = [seq for seq in readings if strips_agree(played_out(start, seq), view)]
        return agree or readings

    def _count_decides(self, states: Sequence[GameState], start: GameState, view: TableView,
                       found: list[tuple[Event, ...]]) -> Verdict | None:
        """Only a stack's count says more happened than was played, and a count can be
        off: the table says which (see DEPTH_SLACK). None when that is not so."""
        if not found or not self._miscount_would_do(states, view):
            return None
        played = tuple(self.played)
        if played in found or all(_forced_after(start, seq, played) for seq in found):
            return None
        return self._ask(start, [*found, played])

    def _count_doubted(self, start: GameState,
                       readings: list[tuple[Event, ...]]) -> Verdict | None:
        """Every reading takes a card from under another (seen only as a stack one card
        less); when a shorter one with no such pick explains the views with a count
        taken as off, only the count tells them apart, and a count can be off: the
        table says which. None when no such reading exists."""
        for slack in range(1, DEPTH_SLACK + 1):
            found, _, _ = self.search(start, tuple(self.evidence), slack, shortest=True)
            simpler = [seq for seq in found
                       if len(seq) < len(readings[0]) and not _covered_pick([seq])]
            if simpler:
                return self._ask(start, [*readings, *simpler])
        return None

    def _miscount_would_do(self, states: Sequence[GameState], view: TableView) -> bool:
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
        hand one at a time), which need not be explained on their own. Unless all of
        it is explained with a count taken as further off: a settled view dropped as
        half-way lets a count one too deep invent a card deployed unseen under a top
        the camera saw put straight down."""
        readings, nearest, stops = self.search(start, tuple(self.evidence), slack)
        if stops and self._short_of_played(start, stops):
            # Waiting there would take back what the camera saw played and explain less
            # than it does (a deploy guessed where the camera cannot read, its card gone
            # again): the move lies where the camera cannot read, and the table is asked
            # there (see _unexplained_view).
            stops = []
        # Kept in case the work runs out: what explains the views, else what came nearest.
        self._offer = self._offer or readings or stops
        self._near = self._near or nearest
        if not readings:
            steady = without_halfway_views(start, tuple(self.evidence), slack)
            if len(steady) < len(self.evidence) and not any(
                    self.search(start, tuple(self.evidence), more)[0]
                    for more in range(slack + 1, DEPTH_SLACK + 1)):
                readings, _, _ = self.search(start, steady, slack)
                dropped = [e for e in self.evidence if e not in steady]
                readings = [seq for seq in readings if _shows_all(start, seq, dropped)]
        return readings, nearest, stops

    def _played_on(self, start: GameState,
                   readings: list[tuple[Event, ...]]) -> list[tuple[Event, ...]]:
        """Where every reading takes back some of what was played since the anchor (a
        deploy read as a Scout once the next view came): the ways that keep it and
        explain the evidence too. Shortest first wins the search, so the deploy's own
        ability, a choice or two longer, would else be dropped unasked."""
        played = tuple(self.played)
        if not readings or not played or any(seq[:len(played)] == played for seq in readings):
            return []
        found, _, _ = self.search(played_out(start, played), tuple(self.evidence), self._slack)
        return [played + seq for seq in found]

    def _take(self, start: GameState, seq: tuple[Event, ...]) -> Verdict:
        """The one reading left: played, up to any choice in it another answer would
        explain as well (see _blind_guess), which is left to the table."""
        guessed = self._blind_guess(start, seq)
        if guessed is not None:
            return self._stop_at(start, seq[:guessed])
        return self._verdict_for(start, seq)

    def _stop_at(self, start: GameState, seq: tuple[Event, ...]) -> Verdict:
        rolls = awaits_die(played_out(start, seq))
        if not rolls:
            self._explained = self._seen_by(start, seq)
        # After a roll, what the camera saw since is explained again.
        return replace(self._verdict_for(start, seq), then=Then.AGAIN if rolls else Then.WAIT)

    def _rivalled(self, start: GameState, readings: list[tuple[Event, ...]]) -> bool:
        """Would a move where the camera cannot read explain the evidence as well?"""
        views = [e for e in self.evidence if not isinstance(e, Button)]
        wild = unread_at(views[-1]) if views else frozenset()
        if not wild:
            return False  # what lies there now is read: a move made there would show
        if any(isinstance(e, Scout) for e in readings[0]):
            return True  # or a card deployed unseen there (no search can name it)
        found, _, stops = self.search(start, tuple(self.evidence), self._slack, wild=wild)
        if self.exhausted:
            return True  # a move there may explain it: the search ran out before it knew
        # (Ways that stop at the die or the table's answer rival each other too.)
        rivals = [seq for seq in found or stops if seq not in readings]
        return bool(rivals) and not _same_outcome(start, [readings[0], *rivals])

    def _invents(self, seq: tuple[Event, ...]) -> bool:
        """Does ``seq`` deploy a card that no view since the settled point shows, on top
        or by its strip? Then only the search put it there, where the camera could not
        read (a card the engine knew in the hand, deployed unseen)."""
        shown = shown_in(self.evidence)
        return any(isinstance(e, Lead) and e.card is not None and e.card not in shown
                   for e in seq)

    def _blind_guess(self, start: GameState, seq: tuple[Event, ...]) -> int | None:
        """Where ``seq`` answers a choice nobody can see that another answer would
        explain as well, however much longer (the shortest explanation is not evidence
        enough: a "may" declined looks like one used where all it did was unseen), or
        where the search could not try every answer; None when there is no such choice.
        Such a choice is left to the table. So is a block nobody was offered (see
        _unoffered_block) where blocking would explain the evidence as well."""
        evidence = tuple(self.evidence)
        last = next((e for e in reversed(evidence) if not isinstance(e, Button)), view_of(start))
        node = Node(start, (), 0, turns_taken(start)).consume(evidence, self._slack)
        for i, event in enumerate(seq):
            pending = node.state.pending
            if pending is not None and is_blind(pending) and node.seen < len(evidence):
                target, button = node.next_evidence(evidence)
                others = [o for o in candidates(node.state, target or last, button) if o != event]
                if len(others) < len(pending.options) - 1 or self._fits_too(node, others):
                    return i  # an answer the search never tried, or one that fits too
            elif pending is not None and self._unoffered_block(node.state, seq[:i]) and (
                    node.seen < len(evidence)
                    and self._fits_too(node, [o for o in pending.options if o != event])):
                return i  # a block nobody was offered, and taking it fits too
            elif pending is not None and _unnamed_rival(pending, event, last):
                return i  # a card nobody has named could have been the one taken
            node = Node(apply(node.state, event), (*node.seq, event), node.seen,
                         node.turns).consume(evidence, self._slack)
        return None

    def _fits_too(self, node: Node, others: Sequence[Event]) -> bool:
        """Would one of ``others``, played at ``node``, explain the rest of the evidence?"""
        rest = tuple(self.evidence[node.seen:])
        return any(self._explains(node.state, other, rest) for other in others)

    def _unoffered_block(self, state: GameState, before: tuple[Event, ...]) -> bool:
        """Is the pending decision of ``state``, reached by playing ``before`` from the
        anchor, a block the table has not had its chance to take? The search answers a
        block with no: once the phone has offered it, play going on says nobody took it.
        But a block that arises past where the game stands came and went between two
        changes the camera saw as one (the view of the first never settled): nobody has
        had the chance to take it. Nor has anybody when the table's own answer just led
        to it: what the camera saw before then (the player going on to gain, say) says
        nothing of the block. Nor when the player surely holds the card that blocks: a
        real choice of theirs, which the next player putting a card down a moment after
        the phone offered it says nothing of."""
        pending = state.pending
        if pending is None or pending.kind is not Kind.BLOCK:
            return False
        offered = before == tuple(self.played[:len(before)]) and not (
            len(before) == len(self.played) and self._offered_after == len(self.evidence))
        return not offered or _holds_blocker(state, pending)

    def _explains(self, state: GameState, event: Event,
                  evidence: tuple[TableView | Button, ...]) -> bool:
        """Could ``event`` played in ``state`` lead through ``evidence``?"""
        try:
            after = apply(state, event)
        except IllegalActionError:
            return False
        found, _, stops = self.search(after, evidence, self._slack, self.budget // 4)
        # ... or would, once the table names what it needs; or may, past the budget
        return bool(found or stops) or self.exhausted

    def _seen_by(self, start: GameState, seq: Sequence[Event], slack: int | None = None) -> int:
        """How many items of the evidence ``seq`` explains, played from ``start``."""
        evidence = tuple(self.evidence)
        slack = self._slack if slack is None else slack
        node = Node(start, (), 0, turns_taken(start)).consume(evidence, slack)
        for event in seq:
            node = Node(apply(node.state, event), (*node.seq, event), node.seen,
                         node.turns).consume(evidence, slack)
        return node.seen

    def _ask(self, start: GameState, readings: list[tuple[Event, ...]],
             whole: bool = True) -> Verdict:
        """Play what every reading agrees on; ask about where they part.

        When they part at a choice the camera cannot see (no card on the table names
        it), the engine's own decision is the question: it stays open for the phone.
        ``whole``: each reading explains every view (not one stopping short of the last
        at a decision), so the strips the last view names can settle it.
        """
        views = [e for e in self.evidence if not isinstance(e, Button)]
        if whole and views:  # (a button pressed with no view since has no strips)
            readings = self._by_strips(start, readings, views[-1])
            if len(readings) == 1:
                return self._take(start, readings[0])
        shared = _common_prefix(readings)
        verdict = self._verdict_for(start, shared)
        after = played_out(start, shared)
        if after.pending is not None and (not is_visible_choice(after.pending) or
                                          waits_for_table(after, views[-1])):
            self._explained = self._seen_by(start, shared)
            return replace(verdict, then=Then.WAIT)
        loc = _covered_choice([r[len(shared)] for r in readings if len(r) > len(shared)])
        ask = narration.Phrasing(ORDER if loc is None else COVERED_CARD, tuple(
            Reading(r[len(shared):]) for r in readings), after.current, loc)
        self.question = Question(ask, after, shared)
        return replace(verdict, question=self.question, text=self.question.prompt)

    def _verdict_for(self, start: GameState, events: tuple[Event, ...]) -> Verdict:
        """The verdict that turns what was played since ``start`` into ``events``."""
        common = 0
        while (common < len(self.played) and common < len(events)
               and self.played[common] == events[common]):
            common += 1
        new = events[common:]
        undo = len(self.played) - common
        if not new and not undo:
            return Verdict()
        before = played_out(start, events[:common])
        return Verdict(undo=undo, play=new,
                       text=narration.reading_text(Reading(new), before) if new else "")

    def search(
        self, start: GameState, evidence: tuple[TableView | Button, ...], slack: int = 0,
        budget: int | None = None, wild: frozenset[Location] = frozenset(),
        shortest: bool = False, shown: frozenset[str] | None = None, covered: bool = False,
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
        budget = budget or self.budget
        spending = self._left is not None and self._left < budget  # the view's work binds
        if spending:
            assert self._left is not None
            if self._left <= 0:
                raise _Spent
            budget = self._left
        search = Search(budget, evidence, last_view, view_of(start), slack, wild, shown,
                        covered, self._unread_before, tuple(self.refuted))
        level = [Node(start, (), 0, turns_taken(start)).consume(evidence, slack)]
        found: list[Node] = []
        while level and search.budget > 0:
            closed, branches = search.close(level)
            # An empty explanation is fine when nothing needs one (a button like
            # AUTOMA on its own says nothing about the table).
            deeper = bool(found)
            found += [n for n in closed if n.seen == len(evidence)]
            if found and (deeper or not slack or shortest):
                break
            # With a count taken as off (slack), one more choice may explain the counts
            # better (see least_off). The depth limit counts choices between two things
            # the camera saw.
            level = [n for n in branches if n.choices <= self.max_depth]
        # Cut short with levels still to try: finding nothing proves nothing.
        self.exhausted = search.budget <= 0 and bool(level) and not found
        if self._left is not None:
            self._left -= budget - search.budget
            if spending and self.exhausted:
                raise _Spent  # cut short by the view's work, not by its own budget
        if found:
            return least_off(found, last_view, slack, shortest), [], search.best_stops()
        return [], search.nearest[:3], search.best_stops()

    def _unexplained(
        self, current: GameState, start: GameState, view: TableView,
        nearest: list[tuple[Event, ...]],
    ) -> Question:
        """Nothing explains the views (or nothing did within the work budget): the
        readings that came nearest, "the camera is wrong", "the table is as the camera
        sees it"."""
        readings = [Reading(seq) for seq in nearest if seq]
        readings.append(Reading((), Answer.IGNORE))
        fixes = corrections_for(current, view)
        if fixes:
            readings.append(Reading(fixes, Answer.CORRECT))
        ask = narration.Phrasing(UNEXPECTED, tuple(readings), start.current)
        return Question(ask, start)


class _Spent(Exception):
    """The work budget of the view being explained is spent."""


def _unnamed_rival(pending: Decision, event: Event, view: TableView) -> bool:
    """Does ``event`` take a named card from a stack where the same decision offers a
    card nobody has named yet (face down, say) from that stack? Taking either leaves the
    stack one card less: the search, which cannot play a card with no name, would pick
    the named one every time. Unless the camera named every covered card there (so it
    saw which one is left)."""
    if not isinstance(event, Choose) or event.index is None or event.location is None:
        return False
    where = event.location
    if not any(isinstance(o, Choose) and o.location is where and o.index is not None
               and o.value is None and o.index != event.index for o in pending.options):
        return False
    seen = view[where.pos]
    return not (isinstance(seen, Seen) and seen.under is not None
                and None not in seen.under)


def _places_unnamed(start: GameState, seq: tuple[Event, ...]) -> bool:
    """Does ``seq`` have a player put down a turned-over card nobody named? (Au Toma's
    card goes where her card says: no choice there.)"""
    state = start
    for event in seq:
        pending = state.pending
        if (isinstance(event, Place) and event.card is None and pending is not None
                and len(pending.options) > 1):
            return True
        state = apply(state, event)
    return False


def _covered_pick(readings: list[tuple[Event, ...]]) -> bool:
    """Does every reading pick a card from under others in a stack?"""
    return all(any(isinstance(e, Choose) and e.index is not None for e in seq)
               for seq in readings)


def _shows_all(start: GameState, seq: tuple[Event, ...],
               views: Sequence[TableView | Button]) -> bool:
    """Does the way ``seq`` goes put every card these views name on top where they name
    it? A view dropped as half-way through a move still saw that card there: a
    reading that never had it there (another card placed in its stead) is not one."""
    seen: set[tuple[Location, str]] = set()
    state = start
    for event in (None, *seq):
        if event is not None:
            state = apply(state, event)
        seen.update((loc, slot.card) for loc in LOCATIONS for slot in state.stack_at(loc)
                    if slot.card is not None)
    return all((loc, named) in seen for view in views if not isinstance(view, Button)
               for loc, named in zip(LOCATIONS, map(top_named, view), strict=True)
               if named is not None)


def _rolls_next(start: GameState, stops: list[tuple[Event, ...]]) -> bool:
    """Do these stops, found with every count as read, all wait for the die?"""
    return bool(stops) and all(awaits_die(played_out(start, seq)) for seq in stops)


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
    state = played_out(start, played)
    for event in seq[len(played):]:
        if state.pending is None or len(state.pending.options) != 1:
            return False
        state = apply(state, event)
    return True


def _same_outcome(start: GameState, readings: list[tuple[Event, ...]]) -> bool:
    outcomes = set()
    for seq in readings:
        state = start
        for event in seq:
            state = apply(state, event)
        outcomes.add(state.fen())
    return len(outcomes) == 1


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


def _holds_blocker(state: GameState, pending: Decision) -> bool:
    """Does the player asked to block surely hold one of the cards offered to block with?"""
    assert pending.player is not None
    known = state.players[pending.player].hand.known
    return any(isinstance(o, Block) and o.card in known for o in pending.options)
