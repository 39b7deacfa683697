"""The breadth-first search: the shortest answers that pass through the evidence.

From a settled position the search plays the pending decisions' filled options
(:mod:`engine.tracking.options`) level by level, following forced answers for free, and
keeps the sequences that explain every view and button in order; failing that, the
nearest misses and the positions that must wait for the die or the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.board import LOCATIONS, Location
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import (
    DrawFromDeck,
    Event,
    Identify,
    Lead,
)
from engine.rules import apply
from engine.state import GameState, Phase
from engine.tracking.options import (
    candidates,
    covered_by_its_ability,
    gone_by_its_ability,
    names_needed,
    waits_for_table,
)
from engine.tracking.view import (
    Button,
    Seen,
    TableView,
    ahead,
    count_off,
    halfway,
    mismatch,
    replaced_later,
    top_named,
    unsure_in,
    view_of,
)


def shown_in(evidence: Sequence[TableView | Button]) -> frozenset[str]:
    """The cards the views name, on top or by their strips."""
    return frozenset(name for item in evidence if not isinstance(item, Button)
                     for seen in item if isinstance(seen, Seen)
                     for name in (seen.top, *(seen.under or ())) if name is not None)


class Search:
    """Bookkeeping for one search: the budget and the nearest misses."""

    def __init__(self, budget: int, evidence: tuple[TableView | Button, ...], last: TableView,
                 first: TableView, slack: int, wild: frozenset[Location] = frozenset(),
                 shown: frozenset[str] | None = None, covered: bool = False,
                 unread_before: frozenset[Location] = frozenset(),
                 refuted: tuple[tuple[GameState, Event], ...] = ()) -> None:
        self.budget = budget
        self.covered = covered  # see candidates
        self.slack = slack  # see DEPTH_SLACK
        self.wild = wild
        self.shown = shown  # if given, only cards among these are deployed (see expand)
        # the camera did not read them a while: in a view of the evidence, or since
        # before it began (see Tracker._unread_before)
        self.unseen = unsure_in(evidence) | unread_before
        self.evidence = evidence
        self.refuted = refuted  # moves the table took back, with where: never tried again
        self.last = last
        self.first = first
        self.best = 1 << 30
        self.nearest: list[tuple[Event, ...]] = []
        self.stops: list[Node] = []  # positions waiting for the table's answer
        # ... and, taken only where there are none: a deploy at a location the camera
        # could not read for a while, its card gone again (see gone_by_its_ability)
        self.gone: list[Node] = []

    def close(self, level: list[Node]) -> tuple[list[Node], list[Node]]:
        """Follow forced answers; returns every node reached and the next level's nodes."""
        closed: list[Node] = []
        branches: list[Node] = []
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

    def expand(self, node: Node) -> list[Node]:
        target, button = node.next_evidence(self.evidence)
        if target is not None:
            target = ahead(target, self.evidence[node.seen:])
        children = []
        for event in candidates(node.state, target or self.last, button, self.wild,
                                self.unseen, self.covered):
            if self.budget <= 0:
                break
            if any(event == moved and node.state == where for where, moved in self.refuted):
                continue
            if isinstance(event, Lead) and event.card is None:
                # A deploy the engine cannot play until the card is named: where its
                # ability covered it unseen (covered_by_its_ability), the way on waits
                # here for the table to name it; elsewhere it is no way on.
                view = target or self.last
                if covered_by_its_ability(event, node.state, view, self.unseen):
                    _add(self.stops, node)
                elif gone_by_its_ability(event, node.state, view, self.unseen):
                    _add(self.gone, node)
                continue
            if self.shown is not None and isinstance(event, Lead) and (
                    event.card is not None and event.card not in self.shown):
                continue  # a card no view shows, deployed where the camera could not read
            self.budget -= 1
            try:
                after = apply(node.state, event)
            except IllegalActionError:
                continue
            child = Node(after, (*node.seq, event), node.seen, node.turns, node.choices,
                         node.off)
            children.append(child.consume(self.evidence, self.slack))
            self._remember(child)
        return children

    def _stops_at(self, node: Node, expanded: bool) -> bool:
        """Is this a position to wait at: the die or the table must answer before the
        rest of the evidence can be explained, and it lies on the way to the last view?

        A choice the search could try blindly (a few options) blocks nothing: only one
        it could not try, or a card it cannot name, makes the table's answer necessary.
        On the way: a location may lie emptied of its old top with the new one still to
        come (see halfway), as when the camera never settled on the emptied location
        and saw the two changes as one: the table's answer may fall just there.
        """
        if node.seen == len(self.evidence):
            return False
        target = node.next_evidence(self.evidence)[0] or self.last
        if not awaits_die(node.state) and not names_needed(node.state, target) and (
                expanded or not waits_for_table(node.state, target)):
            return False
        seen = [e for e in self.evidence[:node.seen] if not isinstance(e, Button)]
        now = view_of(node.state)
        # Where the next view cannot read a location, what a later view (or the table's
        # answer) shows there still bounds the way: else any card the engine knows in
        # a hand could be put down there unseen to wait at the die, whatever card the
        # table then names there.
        return halfway(now, seen[-1] if seen else self.first, target, self.slack,
                       uncovering=True) and not replaced_later(
            now, target, ahead(target, self.evidence[node.seen:]))

    def best_stops(self) -> list[tuple[Event, ...]]:
        """The stops that explain the most evidence, shortest first among equals; and
        any longer one nearer what the table shows next (where a location went unread,
        as a later view or the table's answer shows it). The shortest may leave a card
        the table named still to come by a longer way on (Stained deployed unseen,
        banishing a card, where the table named Auctioneer there); the nearest may
        put a later player's card down early through a chain of abilities. Neither
        length nor nearness settles it, so both stand: the table picks."""
        stops = self.stops or self.gone
        if not stops:
            return []
        most = max(n.seen for n in stops)
        best = [n for n in stops if n.seen == most]
        shortest = min(len(n.seq) for n in best)
        short = [n for n in best if len(n.seq) == shortest]
        bar = min(self._off_next(n) for n in short)
        nearer = [n for n in best if len(n.seq) > shortest and self._off_next(n) < bar]
        return dedupe([n.seq for n in short + nearer])

    def _off_next(self, node: Node) -> int:
        """How far ``node`` is from the next view it must explain, read ahead."""
        target = node.next_evidence(self.evidence)[0] or self.last
        return mismatch(node.state, ahead(target, self.evidence[node.seen:]), self.slack)

    def _remember(self, child: Node) -> None:
        distance = mismatch(child.state, self.last, self.slack)
        if distance < self.best:
            self.best, self.nearest = distance, [child.seq]
        elif distance == self.best:
            self.nearest.append(child.seq)


@dataclass(frozen=True)
class Node:
    """A search position: the state, the events so far, how much evidence they explain."""

    state: GameState
    seq: tuple[Event, ...]
    seen: int  # evidence items explained so far
    turns: int  # turns taken at the search's start or the last NEXT explained
    choices: int = 0  # real choices made since the last evidence explained
    # Cards the counts of the views explained so far were off by (with slack), but the
    # last view's: moves after it may yet make its counts right (see least_off).
    off: int = 0

    def next_evidence(self, evidence: Sequence[TableView | Button],
                      ) -> tuple[TableView | None, Button | None]:
        """The next view to reach, and the button pressed before it, if any."""
        button = None
        for item in evidence[self.seen:]:
            if isinstance(item, Button):
                button = button or item
            else:
                return item, button
        return None, button

    def consume(self, evidence: Sequence[TableView | Button], slack: int) -> Node:
        """Explain as much further evidence as this position does."""
        seen, turns, off = self.seen, self.turns, self.off
        node = self
        while seen < len(evidence):
            item = evidence[seen]
            if isinstance(item, Button):
                if not (_pressed(item, node, turns)
                        and _as_last_seen(node, evidence, seen, slack)):
                    break
                if item is Button.NEXT:
                    turns = turns_taken(node.state)  # the next NEXT needs another turn to end
            elif mismatch(node.state, item, slack) != 0:
                break
            else:
                node = node.named(item)
                if slack and any(not isinstance(e, Button) for e in evidence[seen + 1:]):
                    off += count_off(node.state, item)  # the last view: see least_off
            seen += 1
        return Node(node.state, node.seq, seen, turns,
                     0 if seen > self.seen else self.choices, off)

    def named(self, view: TableView) -> Node:
        """The position with the top cards the view names and the engine did not know
        (a card slid in under another, uncovered now)."""
        state, seq = self.state, self.seq
        for loc, seen in zip(LOCATIONS, view, strict=True):
            stack = state.stack_at(loc)
            top = top_named(seen)
            if top is None or not stack or stack[-1].card is not None or stack[-1].face_down:
                continue
            event = Identify(loc, len(stack) - 1, top)
            try:
                state = apply(state, event)
            except IllegalActionError:
                continue
            seq = (*seq, event)
        return self if seq is self.seq else Node(state, seq, self.seen, self.turns,
                                                  self.choices, self.off)


def _as_last_seen(node: Node, evidence: Sequence[TableView | Button], index: int,
                  slack: int) -> bool:
    """Does the table look, at a press, as the camera last saw it before the press?

    A move made before a button was seen before it: the camera reports every change.
    (A press with no view before it since the settled point may come before the camera
    has settled on the move it follows.)
    """
    last = next((e for e in reversed(evidence[:index]) if not isinstance(e, Button)), None)
    return last is None or mismatch(node.state, last, slack) == 0


def turns_taken(state: GameState) -> int:
    return sum(p.turns for p in state.players)


def _pressed(button: Button, node: Node, turns_before: int) -> bool:
    """Does the position agree with this press?

    DIE: the player just took the deck. NEXT: the player's own part is done — no gain
    step is still to come (a Scout, or a turn already over), though a house ability or
    a die roll may follow.
    """
    if button is Button.DIE:
        return bool(node.seq) and isinstance(node.seq[-1], DrawFromDeck)
    if button is Button.NEXT:
        state = node.state
        if state.phase is not Phase.PLAYING or turns_taken(state) > turns_before:
            return True
        pending = state.pending
        if not node.seq or pending is None or pending.kind in (Kind.GAIN, Kind.TURN):
            return False
        if pending.then.name == "scout-place":
            return False  # NEXT comes once the scouted card lies (not before)
        # A Lead whose ability is still under way has its gain step to come.
        return state.turn is None or state.turn.end_requested or not any(
            step.name == "gain" for step in state.stack)
    return True


def least_off(found: list[Node], last: TableView, slack: int,
              shortest: bool = False) -> list[tuple[Event, ...]]:
    """Of the sequences that explain all the evidence, those that need the fewest cards
    miscounted over all the views, shortest first among those: a count that is right
    where a stack changed is evidence, and one stack misread must not let another's
    real change pass unseen (a card taken from under its top, read one card less).
    The last view is judged on where a sequence ends, which must still agree with it.
    ``shortest``: the shortest sequences, however many cards they need miscounted."""
    scored = [(0 if shortest else n.off + count_off(n.state, last), len(n.seq), n.seq)
              for n in found if mismatch(n.state, last, slack) == 0]
    if not scored:
        return []
    best = min(score[:2] for score in scored)
    return dedupe([seq for off, length, seq in scored if (off, length) == best])


def played_out(state: GameState, events: Sequence[Event]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state


def awaits_die(state: GameState) -> bool:
    return state.pending is not None and state.pending.is_chance


def dedupe(seqs: list[tuple[Event, ...]]) -> list[tuple[Event, ...]]:
    return list(dict.fromkeys(seqs))


def _add(nodes: list[Node], node: Node) -> None:
    if node not in nodes:
        nodes.append(node)
