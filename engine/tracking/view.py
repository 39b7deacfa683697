"""The table as the camera reports it: the contract the camera fills.

A :data:`TableView` holds, for each of the four locations left to right, what the camera
reads there: a :class:`Seen` stack (its depth, its identified top card, face down or
not, and the covered cards it names from their strips) or :class:`Unread` (the camera
cannot read it now). Vision's stable readings are
turned into one in ``device/``; the tracker compares it with the engine's stacks
(:func:`mismatch`). Buttons pressed between views are evidence too (:class:`Button`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.board import LOCATIONS, Location
from engine.errors import IllegalActionError
from engine.events import Event, Pile, SetLocation
from engine.state import GameState, Slot


class Shown(StrEnum):
    """What the camera has settled on at a location (vision's stable reading states).

    Any other state (a hand over it, a reading still settling, unreadable) is no
    reading yet.
    """

    EMPTY = "empty"
    CARD = "card"
    FACE_DOWN = "face_down"


@dataclass(frozen=True)
class Seen:
    """The camera's stable view of one location."""

    depth: int
    top: str | None = None  # the identified top card; None when not identified
    face_down: bool = False
    # The table said so (an answer to "what is on top of Luna?") while the camera could
    # not read the location: it stands in for the camera until the camera reads it again.
    told: bool = False
    # The covered cards the camera reads from their strips, oldest first: a card id,
    # BACK for a card face down, None for a strip it found but could not name; None
    # when it did not read them (it reads them only where it found every strip, so the
    # count stands). Only a tie-breaker (which covered card was taken, whether a count
    # is right): see strips_agree. Never a move by itself.
    under: tuple[str | None, ...] | None = None


BACK = "(back)"  # a covered strip that shows a card's back (no card id has brackets)


@dataclass(frozen=True)
class Unread:
    """A location the camera cannot read (glare, a texture it misreads, something left on
    it). The tracker takes it as unconstrained and never infers a move there.
    ``overdue``: it has stayed unreadable long enough that the table is asked about it."""

    overdue: bool = False


UNREAD = Unread()


TableView = tuple[Seen | Unread, Seen | Unread, Seen | Unread, Seen | Unread]


class Button(StrEnum):
    """The companion's buttons (also on the keyboard and the page)."""

    DIE = "die"
    NEXT = "next"
    AUTOMA = "automa"


def view_of(state: GameState) -> TableView:
    """What a perfect camera would see on the table in ``state``."""
    seen = []
    for loc in LOCATIONS:
        stack = state.stack_at(loc)
        top = stack[-1] if stack else None
        seen.append(Seen(len(stack), top.card if top and not top.face_down else None,
                         bool(top and top.face_down)))
    return (seen[0], seen[1], seen[2], seen[3])


def mismatch(state: GameState, view: TableView, slack: int = 0) -> int:
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

# A stack past DEEP_STACK cards runs to the edge of the camera's reach and is pushed
# together: its strips crowd, and the camera counts it short, not long (16 cards read
# right 84 % of the time, 17 cards 73 %; a filmed 20-card stack read as 16). Once a
# count may be off at all, such a stack may read short by one card more for every
# DEEP_STEP cards past DEEP_STACK.
DEEP_STACK = 14
DEEP_STEP = 2
# Past the camera's reach the count saturates: a stack read as REACH cards or more may
# hold many more (a filmed 20-card stack read as 16; a 28-card Institute, The
# Telemanuses' doing, as 17). A reading that leaves it MASS cards or more deeper than
# that (a whole location moved onto it) is not charged for the count; one a card or
# three deeper still is, as the camera reads such stacks within a few cards.
REACH = 16
MASS = 4


def strips_agree(state: GameState, view: TableView) -> bool:
    """Do the engine's covered cards agree with the strips the camera reads?

    The camera reads a stack's strips only where it found every one of them, evenly
    spaced (none missed between or above): so a stack the engine holds with another
    count disagrees, and each strip named must be the engine's card there (a strip it
    could not name agrees with any).
    """
    for loc, seen in zip(LOCATIONS, view, strict=True):
        if isinstance(seen, Seen) and seen.under is not None and \
                not _strips_fit(state.stack_at(loc)[:-1], seen.under):
            return False
    return True


def _strips_fit(covered: Sequence[Slot], under: tuple[str | None, ...]) -> bool:
    if len(covered) != len(under):
        return False
    for slot, named in zip(covered, under, strict=True):
        if named is None:
            continue
        if (named == BACK) != slot.face_down:
            return False
        if named != BACK and slot.card is not None and slot.card != named:
            return False
    return True


def count_off(state: GameState, view: TableView) -> int:
    """How many cards the view's counts are off from the engine's stacks, in all. A
    deep stack read as short as the camera reads such stacks is not counted: there a
    count one short is no evidence that a card left it (see DEEP_STACK)."""
    off = 0
    for loc, seen in zip(LOCATIONS, view, strict=True):
        if isinstance(seen, Seen):
            stack = state.stack_at(loc)
            short = len(stack) - seen.depth
            read_short = len(stack) > DEEP_STACK and 0 < short <= 1 + _deep_short(stack, seen, 1)
            if not (read_short or _beyond_reach(stack, seen)):
                off += abs(short)
    return off


def _deep_short(stack: Sequence[Slot], seen: Seen, slack: int) -> int:
    """How many cards more a deep stack may read short by, once any count may be off
    (an exact count still comes first: only it shows a card taken from under others)."""
    if not slack or seen.depth >= len(stack):
        return 0
    return max(0, (len(stack) - DEEP_STACK) // DEEP_STEP)


def _beyond_reach(stack: Sequence[Slot], seen: Seen) -> bool:
    """Is the stack a whole location's worth deeper than a count at the camera's reach
    (see REACH)?"""
    return seen.depth >= REACH and len(stack) - seen.depth >= MASS and not seen.told


def _depth_agrees(stack: Sequence[Slot], seen: Seen, slack: int) -> bool:
    off = abs(len(stack) - seen.depth)
    if off == 0:
        return True
    if _beyond_reach(stack, seen):
        off = 0  # the top card must still be the engine's (below)
    if off > slack + _deep_short(stack, seen, slack) or not stack or seen.told:
        return False
    top = stack[-1]
    if top.face_down:  # the top the camera reads is "face down" itself
        return seen.face_down
    return seen.top is not None and top.card == seen.top


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


def corrections_for(state: GameState, view: TableView) -> tuple[Event, ...]:
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
            fixes.append(SetLocation(loc, tuple(cards), flags, removed_to=Pile.BANISHED))
    return tuple(fixes)


def top_named(seen: Seen | Unread) -> str | None:
    """The card the camera names on top of a location (None: none named, or unread)."""
    return seen.top if isinstance(seen, Seen) else None


def unread_at(view: TableView) -> frozenset[Location]:
    return frozenset(loc for loc, seen in zip(LOCATIONS, view, strict=True)
                     if isinstance(seen, Unread))


def ahead(view: TableView, evidence: Sequence[TableView | Button]) -> TableView:
    """``view`` with each location it cannot read taken from the next view that reads
    it: a move made there unseen is inferred once a later view (or the table's answer)
    shows it, and only then. Shows it: names the card on top, or says the location is
    empty. A count under a face-down card is no such evidence (a count can be off): a
    whole move never seen, inferred from one card too many, would be a guess."""
    out = view
    for loc in unread_at(view):
        later = next((e[loc.pos] for e in evidence if not isinstance(e, Button)
                      and isinstance(e[loc.pos], Seen)), None)
        if isinstance(later, Seen) and (later.top is not None or later.depth == 0
                                        or later.told):
            out = with_seen(out, loc, later)
    return out


def replaced_later(now: TableView, view: TableView, later: TableView) -> bool:
    """Does ``later`` show, where ``view`` cannot read, another top at the count ``now``
    has there? Then ``now`` lies on no short way to it: the card it put on top would
    have to be taken away again unseen and another put there (whereas one put on it
    since would show as a deeper stack)."""
    for loc in unread_at(view):
        here, there = now[loc.pos], later[loc.pos]
        if isinstance(here, Seen) and isinstance(there, Seen) and here.depth == there.depth \
                and (here.top, here.face_down) != (there.top, there.face_down):
            return True
    return False


def unsure_in(evidence: Sequence[TableView | Button]) -> frozenset[Location]:
    """Locations some view of the evidence did not read (unread, or told instead)."""
    out: frozenset[Location] = frozenset()
    for item in evidence:
        if not isinstance(item, Button):
            out |= unsure_at(item)
    return out


def unsure_at(view: TableView) -> frozenset[Location]:
    """Locations the camera does not read now (unread, or told by the table instead)."""
    return frozenset(loc for loc, seen in zip(LOCATIONS, view, strict=True)
                     if isinstance(seen, Unread) or seen.told)


def as_evidence(view: TableView) -> TableView:
    """The view as evidence: unread is unread, however long it has been."""
    seen = [UNREAD if isinstance(s, Unread) else s for s in view]
    return (seen[0], seen[1], seen[2], seen[3])


def with_seen(view: TableView, location: Location, seen: Seen | Unread) -> TableView:
    out = list(view)
    out[location.pos] = seen
    return (out[0], out[1], out[2], out[3])


def without_halfway_views(
    start: GameState, evidence: tuple[TableView | Button, ...], slack: int = 0,
) -> tuple[TableView | Button, ...]:
    """The evidence without views that lie on the way from ``start`` to the last view.

    On the way: every stack's depth between where it started and where it ended, and
    its top card one of those two (or unseen). A card put down on the wrong stack and
    then moved is not on the way, and stays as evidence to be explained or asked about.
    """
    views = [e for e in evidence if not isinstance(e, Button)]
    if len(views) < 2:
        return evidence
    first, last = view_of(start), views[-1]
    # A view before a press stays: it is how the table lay when the button was pressed
    # (the die taken, a turn ended), which orders the moves before the press and after.
    pressed = max((i for i, e in enumerate(evidence) if isinstance(e, Button)), default=-1)
    return tuple(e for i, e in enumerate(evidence)
                 if isinstance(e, Button) or e is last or i < pressed
                 or not halfway(e, first, last, slack))


def halfway(view: TableView, first: TableView, last: TableView, slack: int = 0,
            uncovering: bool = False) -> bool:
    """Does ``view`` lie on the way from ``first`` to ``last``?

    ``uncovering``: a location whose top changed may also lie one card lower than at
    either end, its old top taken and the new one not yet put down (whatever lay under
    the old top, or nothing, showing): the way between two views the camera saw as one
    change, having never settled on the location in between (emptied, say). Without
    it, the only position left to wait at may be a wrong one that explains less (the
    new card put on the old: a Scout, not a deploy and a gain), and it leaves a card
    under the new top that is not there, to surface turns later.
    """
    for now, a, b in zip(view, first, last, strict=True):
        if isinstance(now, Unread) or isinstance(a, Unread) or isinstance(b, Unread):
            continue  # unread at either end: anything may lie there on the way
        if uncovering and _uncovered(now, a, b):
            continue
        off = slack if now.top is not None else 0
        if not min(a.depth, b.depth) - off <= now.depth <= max(a.depth, b.depth) + off:
            return False
        if _covered_since(now, a, b):
            continue  # put down, then covered by the next card on the way
        if now.top not in (None, a.top, b.top) or (
                now.face_down and not (a.face_down or b.face_down)):
            return False
    return True


def _covered_since(now: Seen, a: Seen, b: Seen) -> bool:
    """Does ``now`` lie strictly between two counts, a stack grown by two or more cards:
    its top (whatever it is) covered on the way, as a card the die reveals covers the
    card just deployed?"""
    return a.depth < now.depth < b.depth


def _uncovered(now: Seen, a: Seen, b: Seen) -> bool:
    """Is ``now`` one card lower than both ``a`` and ``b``, whose tops differ: a's top
    taken and b's not yet put down?"""
    turned = (a.top, a.face_down) != (b.top, b.face_down)
    return turned and now.depth == min(a.depth, b.depth) - 1
