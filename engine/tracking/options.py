"""The option filling: a pending decision's options, made concrete by the camera.

The engine's options leave out what only the table shows (which card was deployed,
where a card landed); :func:`candidates` fills them in from a view, and keeps only those
consistent with what changed on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.abilities.primitives import Moved
from engine.automa import AutomaGain
from engine.board import LOCATIONS, Location
from engine.decisions import Decision, Kind
from engine.events import (
    Choose,
    Decline,
    DrawFromDeck,
    Event,
    GainFrom,
    Lead,
    Place,
    Scout,
)
from engine.state import GameState, Slot
from engine.tracking.view import (
    DEEP_STACK,
    Button,
    Seen,
    TableView,
    Unread,
    top_named,
    unread_at,
)


def candidates(state: GameState, view: TableView, button: Button | None = None,
               wild: frozenset[Location] = frozenset(),
               unseen: frozenset[Location] = frozenset(), covered: bool = False,
               ) -> list[Event]:
    """The pending options worth trying, with card names the camera can fill in.

    ``wild``: unread locations where a move is tried anyway (anything may have changed
    there), to find what else could explain the rest; no move is ever played so.
    ``unseen``: locations the camera could not read for a while, so a step the rules
    force may have been made and undone there unseen, or a card deployed there whose
    ability then took the cards under it away.
    ``covered``: also a turned-over card put down there and covered at once, unnamed
    (tried only where nothing else explains the views: see Tracker._covered_places).
    """
    pending = state.pending
    if pending is None or pending.is_chance:
        return []
    if pending.kind is Kind.BLOCK:
        return [o for o in pending.options if isinstance(o, Decline)]
    touched = changed_at(state, view, wild)
    # A forced step (one option) is always tried: what the table shows next tells
    # whether it has happened yet.
    small = len(pending.options) <= MAX_BLIND_OPTIONS
    forced = len(pending.options) == 1
    unread = unread_at(view) - wild
    out: list[Event] = []
    for option in pending.options:
        filled = [] if only_where_unread(option, unread) else list(
            _fill(option, state, view, button, touched, small, forced, unseen, covered))
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


@dataclass(frozen=True)
class Touched:
    """Where the table changed since the engine's position."""

    grew: frozenset[Location]
    shrank: frozenset[Location]
    changed: frozenset[Location]  # same count, another top card

    @property
    def any(self) -> frozenset[Location]:
        return self.grew | self.shrank | self.changed


def changed_at(state: GameState, view: TableView, wild: frozenset[Location] = frozenset(),
               ) -> Touched:
    """Where the table changed: stacks that grew or shrank, tops that changed.

    The named top card counts as much as the count: a card from lower in the stack on
    top means cards left it, whatever the count reads (see DEPTH_SLACK).
    """
    grew: set[Location] = set()
    shrank: set[Location] = set()
    changed: set[Location] = set()
    for loc, seen in zip(LOCATIONS, view, strict=True):
        if isinstance(seen, Unread):
            if loc in wild:
                grew.add(loc)
                shrank.add(loc)
            continue  # nothing is inferred where the camera cannot see
        stack = state.stack_at(loc)
        cards = [slot.card for slot in stack]
        # A top turned (face down now, or a face-down top now named) changed the stack
        # as surely as another name: the count alone may not show it (DEPTH_SLACK).
        differs = bool(stack) and (stack[-1].face_down != seen.face_down or (
            seen.top is not None and cards[-1] not in (None, seen.top)))
        grown = seen.depth > len(stack)
        if grown or _new_on_deep(stack, seen):
            grew.add(loc)
        if grown:
            continue
        if seen.depth < len(stack) or (differs and seen.top in cards):
            shrank.add(loc)
        elif differs:
            changed.add(loc)
    return Touched(frozenset(grew), frozenset(shrank), frozenset(changed))


def _new_on_deep(stack: Sequence[Slot], seen: Seen) -> bool:
    """A card new to a deep stack on top of it: put there, whatever the count reads (a
    deep stack's count reads short, see DEEP_STACK)."""
    cards = [slot.card for slot in stack]
    return (len(stack) >= DEEP_STACK and seen.top is not None and not seen.face_down
            and seen.top not in cards)


def _fill(option: Event, state: GameState, view: TableView, button: Button | None,
          touched: Touched, small: bool, forced: bool = False,
          unseen: frozenset[Location] = frozenset(), covered: bool = False,
          ) -> Iterable[Event]:
    """Concrete versions of ``option`` consistent with what changed on the table."""
    grew, shrank = touched.grew, touched.shrank
    if isinstance(option, Lead):
        return _fill_lead(option, state, view, touched, unseen)
    if isinstance(option, Place):
        return _fill_place(option, state, view, touched, unseen if covered else frozenset())
    if isinstance(option, Moved):
        return [_named_by_camera(option, view)]
    if isinstance(option, GainFrom):
        # A new top at the same count may be a card gained and another put there since
        # (seen together when the camera could not read the location in between).
        return [option] if option.location in shrank | touched.changed else []
    if isinstance(option, DrawFromDeck):
        return [option] if button is Button.DIE else []
    if isinstance(option, Scout):
        return [option] if grew else []
    if isinstance(option, Choose):
        return _fill_choice(option, view, touched.any, small, forced)
    if isinstance(option, Decline):
        return [option]  # passing is invisible; what happens next shows it
    return [option] if small else []  # Au Toma's confirmations, finale answers…


def _fill_lead(option: Lead, state: GameState, view: TableView, touched: Touched,
               unseen: frozenset[Location] = frozenset()) -> list[Event]:
    """A deploy shows as a new card on top of a location (that grew, unless its ability
    took a card from there before the camera settled)."""
    if option.location is None:
        return [option] if touched.shrank else []
    top = top_named(view[option.location.pos])
    if option.location not in touched.grew | touched.changed and not _deployed_unseen(
            option, state, top, unseen):
        gone = [option] if gone_by_its_ability(option, state, view, unseen) else []
        return gone + _moved_on_unseen(option, state, view, touched, unseen)
    if option.card is None:
        # A card already on the table was not deployed (it was moved, or one slid in
        # under it: the count grew under a top the camera already knew).
        named = [Lead(top, option.location)] if top and not _on_table(state, top) else []
        return named + _covered_unseen(option, state, view)
    return [option]


def _covered_unseen(option: Lead, state: GameState, view: TableView) -> list[Event]:
    """A card nobody saw deployed: the stack grew by more than one card before the camera
    settled on it (the die's revealed card put on it, say), so the card under the new
    top stays to be named."""
    assert option.location is not None
    seen = view[option.location.pos]
    grew = isinstance(seen, Seen) and seen.depth - len(state.stack_at(option.location)) >= 2
    return [option] if grew else []


def covered_by_its_ability(option: Lead, state: GameState, view: TableView,
                           unseen: frozenset[Location]) -> bool:
    """Is ``option`` (no card named) a deploy whose card was covered at once by a card its
    ability moved there from another location? The stack grew by two or more under a
    top the engine holds elsewhere on the table: the deployed card lies under it, and
    only the table can name it (Masseuse moving Jupiter's top onto herself, say). Only
    at a location the camera could not read for a while (``unseen``): a stack seen
    growing by two there is a card put on the wrong stack, then moved."""
    if option.location not in unseen or option.card is not None:
        return False
    seen = view[option.location.pos]
    top = top_named(seen)
    stack = state.stack_at(option.location)
    return (isinstance(seen, Seen) and top is not None and seen.depth - len(stack) >= 2
            and _on_table(state, top) and all(slot.card != top for slot in stack))


def gone_by_its_ability(option: Lead, state: GameState, view: TableView,
                        unseen: frozenset[Location]) -> bool:
    """Is ``option`` (no card named) a deploy at a location the camera could not read
    for a while, read again just as the engine holds it? A card deployed there unseen
    may have left by its own ability before the camera read it again (Aja banishes
    herself, Vlogger goes to the player on the right): only the table can name it."""
    if option.location not in unseen or option.card is not None:
        return False
    seen = view[option.location.pos]
    stack = state.stack_at(option.location)
    return (isinstance(seen, Seen) and not seen.told and seen.depth == len(stack)
            and bool(stack) and stack[-1].card is not None
            and top_named(seen) == stack[-1].card)


def _deployed_unseen(option: Lead, state: GameState, top: str | None,
                     unseen: frozenset[Location]) -> bool:
    """Was ``option`` played at a location the camera could not read for a while, its
    card now on top of a stack that shrank? A card the engine does not hold in that
    stack was put there, and its ability took cards from under it before the location
    was read again: only the end of it was seen. Only that card can have been deployed
    there. (Where the camera saw each step, a card uncovered that the engine could not
    name is likelier.)"""
    location = option.location
    return (location in unseen and top is not None and option.card in (None, top)
            and all(slot.card != top for slot in state.stack_at(location)))


def _moved_on_unseen(option: Lead, state: GameState, view: TableView, touched: Touched,
                     unseen: frozenset[Location]) -> list[Event]:
    """Deploys at a location the camera could not read for a while of a card now new on
    top elsewhere: its ability may have moved it there before the location was read
    again, leaving that location as it was (a Musician, say). Only the end was seen."""
    if option.location not in unseen:
        return []
    new_tops = {top_named(view[loc.pos]) for loc in touched.grew | touched.changed}
    return [Lead(card, option.location) for card in sorted(c for c in new_tops if c)
            if option.card in (None, card) and not _on_table(state, card)]


def _fill_place(option: Place, state: GameState, view: TableView, touched: Touched,
                unseen: frozenset[Location]) -> list[Event]:
    """A placed card, named by what the camera reads on top; or, where the camera could
    not read for a while and the stack grew by two or more, perhaps covered at once
    (the die's card put down unseen, a card deployed on it): nobody has named it."""
    if option.location not in touched.any:
        return []
    named = replace(option, card=option.card or top_named(view[option.location.pos]))
    seen = view[option.location.pos]
    covered = (option.card is None and option.location in unseen and isinstance(seen, Seen)
               and seen.depth - len(state.stack_at(option.location)) >= 2)
    return [named, option] if covered else [named, *_carried_off(option, state, view)]


# Cards a stack must have grown by for a card new on it to be the die's card, carried
# off at once with the stack it was put on: one card more than a deploy and a count one
# off (the camera's commonest slip) make.
CARRIED = 3


def _carried_off(option: Place, state: GameState, view: TableView) -> list[Event]:
    """The placed card, carried off at once with the stack it lay on (The Telemanuses
    moving a location's cards): named by a card new on top of a stack that grew by
    CARRIED cards or more."""
    if option.card is not None:
        return []
    out: list[Event] = []
    for loc, seen in zip(LOCATIONS, view, strict=True):
        top = top_named(seen)
        if (loc is not option.location and top is not None and isinstance(seen, Seen)
                and seen.depth - len(state.stack_at(loc)) >= CARRIED
                and not _on_table(state, top)):
            out.append(replace(option, card=top))
    return out


def _named_by_camera(option: Moved, view: TableView) -> Moved:
    """A card that lands face up on top of a location is named by what the camera reads."""
    if option.card is not None or option.target is None or option.under:
        return option
    top = top_named(view[option.target.pos])
    return replace(option, card=top) if top else option


def _fill_choice(option: Choose, view: TableView, touched: frozenset[Location], small: bool,
                 forced: bool) -> list[Event]:
    if option.location is None:
        return [option] if small else []
    if option.location not in touched and not forced:
        return []
    if option.value is None and option.index is None:
        # A card put down (face down, say) on top: the camera reads it if it can.
        return [replace(option, value=top_named(view[option.location.pos]))]
    return [option]  # a card already in a stack: the camera cannot name it now


def _on_table(state: GameState, card: str) -> bool:
    return any(slot.card == card for stack in state.locations for slot in stack)


def only_where_unread(option: Event, unread: frozenset[Location]) -> bool:
    """Does ``option`` touch the table only at locations the camera cannot read? Such a
    move is never inferred: nothing seen shows it (the table is asked instead)."""
    places = {getattr(option, name, None) for name in ("location", "source", "target")}
    places.discard(None)
    return bool(places) and places <= unread


def waits_for_table(state: GameState, view: TableView) -> bool:
    """Is the position waiting on something only people can say (not the camera)?

    A question with no answer the camera gives (a name, a choice nobody sees), or a card
    in a stack the camera saw taken but cannot name.
    """
    pending = state.pending
    if pending is None or pending.is_chance or pending.kind is Kind.BLOCK:
        return False
    return not any(camera_answers(o) for o in pending.options) or names_needed(state, view)


def names_needed(state: GameState, view: TableView) -> bool:
    """Is a card the camera saw taken from a stack one it cannot name (covered, face down)?"""
    pending = state.pending
    if pending is None or pending.is_chance:
        return False
    touched = changed_at(state, view).any
    return any(isinstance(o, Choose) and o.value is None and o.index is not None
               and o.location in touched for o in pending.options)


def is_blind(decision: Decision | None) -> bool:
    """A real choice nobody at the table sees made: several answers, none on the table."""
    return (decision is not None and not decision.is_chance and len(decision.options) > 1
            and decision.kind is not Kind.BLOCK and not is_visible_choice(decision)
            and not any(camera_answers(o) for o in decision.options))


def is_visible_choice(decision: Decision) -> bool:
    """Do the options name places on the table (so the camera can tell them apart)?"""
    return any(getattr(o, "location", None) is not None for o in decision.options)
