"""Building blocks shared by the deploy abilities, beyond the Draft's own primitives.

Abilities read cards through predicates that answer True, False or None (None: a
face-up card nobody has named yet, while tracking a physical game), offer choices as
:class:`~engine.events.Choose` options, and continue after a decision by *pushing a
step*: a helper that may have to ask first takes a ``then`` step and pushes it once it
is done, so the same code runs whether or not a question was needed.

Visible changes are noted for the tracker as the Draft does; the kinds added here are
``place-under`` (a card put into a stack at index ``amount``), ``place-down`` (face down
on top), ``look`` (a card taken off the deck unseen by the others), ``to-deck``,
``steal``, ``give`` and ``block``.

While tracking, the engine never gets ahead of the table: every card an ability moves
is a :func:`physical` step, a ``Kind.CONFIRM`` decision whose one option, a
:class:`Moved`, the camera answers when it sees the card move (Au Toma's steps work the
same way). Tokens and hand-to-hand changes, which the camera cannot see, stay immediate.
A simulation does it all at once, unless the :data:`STEP_BY_STEP` variant asks it to
stop at every step as a tracked game does (scripted games, which film each step).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from engine import cards, events
from engine.board import LOCATIONS, Location, starting_hand_size
from engine.cards import ALL_IDS, CARDS, Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import Choose, Decline, Event, choose
from engine.handlers import ANSWERS, answer, step
from engine.state import ChangeKind, Slot, TurnKind
from engine.steps import Step

MULTIPLAYER_VARIANT = "multiplayer-variant"  # Setup.variants: the official FAQ variant
# Setup.variants: a simulated game waits at every physical step, as a tracked one does
# (scripted games use it so that the table they film moves one card at a time).
STEP_BY_STEP = "step-by-step"
DECLINE = Decline()
COLOR: dict[str, Color] = {cid: card.color for cid, card in CARDS.items()}
CORE: dict[str, int] = {cid: card.core for cid, card in CARDS.items()}
AT: dict[Location, Choose] = {loc: Choose(loc.value, loc) for loc in LOCATIONS}
SEAT: tuple[Choose, ...] = tuple(Choose(str(i)) for i in range(8))

SlotTest = Callable[[Slot], "bool | None"]
CardTest = Callable[[str], bool]


# --- reading cards ----------------------------------------------------------------------


def colored(*colors: Color) -> SlotTest:
    """A slot test: the card is one of ``colors`` (face-down cards have no color)."""
    wanted = frozenset(colors)

    def test(slot: Slot) -> bool | None:
        if slot.face_down:
            return False
        return None if slot.card is None else COLOR[slot.card] in wanted

    return test


def not_colored(*colors: Color) -> SlotTest:
    """A slot test: the card is none of ``colors`` (so any face-down card passes)."""
    wanted = frozenset(colors)

    def test(slot: Slot) -> bool | None:
        if slot.face_down:
            return True
        return None if slot.card is None else COLOR[slot.card] not in wanted

    return test


def any_card(slot: Slot) -> bool:
    return True


def named_or_down(slot: Slot) -> bool | None:
    """Any card, but a face-up one needs a name (what it is matters next)."""
    return True if slot.card is not None or slot.face_down else None


def is_color(card: str | None, *colors: Color) -> bool:
    return card is not None and COLOR[card] in colors


def slot_is(slot: Slot | None, *colors: Color) -> bool:
    """A face-up, named card of one of ``colors``."""
    return slot is not None and not slot.face_down and is_color(slot.card, *colors)


def card_test(*colors: Color) -> CardTest:
    wanted = frozenset(colors)
    return lambda card: COLOR[card] in wanted


# --- where cards are ----------------------------------------------------------------------


def index_in(draft: Draft, location: Location, card: str | None) -> int | None:
    """Where ``card`` sits in a stack (searched from the top), or None."""
    stack = draft.stack_at(location)
    for i in range(len(stack) - 1, -1, -1):
        if stack[i].card == card:
            return i
    return None


def find(draft: Draft, card: str | None) -> tuple[Location, int] | None:
    """The location and index of a named card on the table, or None."""
    for loc in LOCATIONS:
        index = index_in(draft, loc, card)
        if index is not None:
            return loc, index
    return None


def under(draft: Draft, s: Step) -> tuple[int, Slot] | None:
    """The card directly under the deployed one (read when the ability starts)."""
    assert s.location is not None
    index = index_in(draft, s.location, s.card)
    if not index:
        return None
    return index - 1, draft.stack_at(s.location)[index - 1]


def under_is(draft: Draft, s: Step, *colors: Color) -> bool | None:
    """Was the deployed card put directly on a card of ``colors``? (read at deploy time)

    None means the card below has no name yet: the table was asked, and ``s`` (the
    ability's step) runs again once it is named.
    """
    below = under(draft, s)
    if below is None:
        return False
    index, slot = below
    assert s.location is not None
    if not slot.face_down and not ensure_named(draft, s, [(s.location, index)]):
        return None
    return slot_is(slot, *colors)


def banished_choices(draft: Draft, test: CardTest | None = None) -> list[Event]:
    return [choose(c) for c in draft.banished if test is None or test(c)]


def card_options(
    draft: Draft, locations: Iterable[Location], test: SlotTest, skip: str | None = None
) -> list[Event]:
    """Every stack card at ``locations`` that passes (or may pass) ``test``."""
    options: list[Event] = []
    for loc in locations:
        for i, slot in enumerate(draft.stack_at(loc)):
            if (skip is None or slot.card != skip) and test(slot) is not False:
                options.append(choose(slot.card, loc, i))
    return options


def named_card_options(
    draft: Draft, s: Step, locations: Iterable[Location], test: SlotTest, skip: str | None = None
) -> list[Event] | None:
    """:func:`card_options`, once every card whose name decides whether it qualifies has one.

    While tracking, a face-up card nobody has named yet (slid in under another, say) is
    first named by the table (None: asked; ``s``, a step that has changed nothing yet,
    runs again once it is named): whether the ability can be used at all depends on it.
    """
    locations = tuple(locations)
    unnamed = [(loc, i) for loc in locations for i, slot in enumerate(draft.stack_at(loc))
               if (skip is None or slot.card != skip) and test(slot) is None]
    if not ensure_named(draft, s, unnamed):
        return None
    return card_options(draft, locations, test, skip)


def picked(draft: Draft, event: Event, test: SlotTest = any_card) -> tuple[Location, int, Slot]:
    """The stack card an answer chose, named if the answer names it, checked by ``test``.

    :raises IllegalActionError: if the named card does not qualify (nothing changes).
    """
    loc, index = _position(draft, event)
    slot = draft.stack_at(loc)[index]
    name = chosen_card(event)
    if name is not None:
        slot = draft.identify(loc, index, name)
    if test(slot) is not True:
        raise IllegalActionError(f"{slot.card or 'that card'} does not qualify", rule="ability")
    return loc, index, slot


def _position(draft: Draft, event: Event) -> tuple[Location, int]:
    """The stack position an answer names (a correction may have changed the stack)."""
    assert isinstance(event, Choose) and event.location is not None and event.index is not None
    if not 0 <= event.index < len(draft.stack_at(event.location)):
        raise IllegalActionError(f"{event.location.label} has no card {event.index + 1}",
                                 rule="location")
    return event.location, event.index


def chosen_location(event: Event) -> Location:
    assert isinstance(event, Choose) and event.location is not None
    return event.location


def chosen_seat(event: Event) -> int:
    assert isinstance(event, Choose) and event.value is not None
    return int(event.value)


def chosen_card(event: Event) -> str | None:
    assert isinstance(event, Choose)
    return event.value


def nonempty(draft: Draft, locations: Iterable[Location]) -> list[Location]:
    return [loc for loc in locations if draft.stack_at(loc)]


def others(location: Location | None) -> tuple[Location, ...]:
    """Every location but ``location`` ("another location")."""
    return tuple(loc for loc in LOCATIONS if loc is not location)


# --- physical steps ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """The table moved one card as an ability says (the camera confirms it while tracking).

    ``source`` and ``target`` are the locations the card left and arrived on (None: off
    the table, to or from a hand, the deck or the banished pile); ``under`` is True when
    it went in below the top card, out of the camera's sight. ``card`` names it: the
    engine fills in what it knows, the camera what lands face up on top of ``target``.
    """

    source: Location | None = None
    target: Location | None = None
    card: str | None = None
    under: bool = False


events.register(Moved)


def step_by_step(draft: Draft) -> bool:
    """Does each physical step wait for the table? Always while tracking (the camera sees
    each card move, so the engine must never get ahead of the table); in a simulation only
    with the :data:`STEP_BY_STEP` variant. Otherwise it happens at once, as before."""
    return draft.hidden or STEP_BY_STEP in draft.variants


def asks_as_tracked(draft: Draft) -> bool:
    """Does a simulated game ask the table's questions too (the step-by-step variant)?

    Where a tracked game must ask the table what only people can see (a card turned
    over, Au Toma's bottom card), such a game asks the same question with the one true
    answer, so that a scripted game holds the answers a tracked replay will need.
    """
    return not draft.hidden and STEP_BY_STEP in draft.variants


def physical(draft: Draft, s: Step, prompt: str, seen: Moved, then: Step) -> None:
    """One physical step: the answer ``then`` makes the change.

    Step by step, the table does it and the camera confirms ``seen`` (the decision's only
    option); otherwise the change is made at once. Call it last: nothing may follow it.
    """
    if step_by_step(draft):
        draft.ask(s.player, Kind.CONFIRM, f"{draft.players[s.player].name}: {prompt}", (seen,),
                  then)
    else:
        ANSWERS[then.name](draft, then, seen)


class Leave(StrEnum):
    """Where a stack card goes when it leaves the table by an ability."""

    GAIN = "gain"  # into the player's hand
    BANISH = "banish"
    GIVE = "give"  # to the right-hand player


_VERBS = {Leave.GAIN: "take", Leave.BANISH: "banish", Leave.GIVE: "hand over"}


def leave(draft: Draft, s: Step, how: Leave, where: tuple[Location, int] | None,
          then: Step | None = None) -> None:
    """A stack card leaves the table ``how``, one physical step. Then push ``then``."""
    if where is None:
        if then is not None:
            draft.push(then)
        return
    loc, index = where
    card = draft.stack_at(loc)[index].card
    physical(draft, s, f"{_VERBS[how]} {card or 'the card'} from {loc.label}",
             Moved(source=loc, card=card), with_data(s, "ability-leave", how, loc, index, then))


@answer("ability-leave")
def _on_leave(draft: Draft, s: Step, event: Event) -> None:
    how, loc, index, then = s.data
    if how is Leave.GAIN:
        draft.gain_from(s.player, loc, index)
    elif how is Leave.GIVE:
        draft.gain_from(right_of(draft, s.player), loc, index)
        draft.changes[-1] = draft.changes[-1]._replace(kind=ChangeKind.GIVE)
    else:
        draft.banish_at(loc, index)
    if then is not None:
        draft.push(then)


# --- decisions ------------------------------------------------------------------------------


def with_data(s: Step, name: str, *data: object) -> Step:
    """The same context continued by ``name`` with exactly ``data`` (may be empty)."""
    return Step(name, s.player, s.card, s.location, data)


def flagged(then: Step, flag: bool) -> Step:
    """``then`` with a success flag appended to its data."""
    return then._replace(data=(*then.data, flag))


def decide(
    draft: Draft, player: int | None, kind: Kind, prompt: str, options: Sequence[Event],
    then: Step,
) -> None:
    """Ask, unless exactly one complete answer is possible: then take it at once.

    Step by step, a lone answer naming a place on the table is still asked: what follows
    is a change the camera must see on its own. A simulation that asks as a tracked game
    does always asks: there, with hands unseen, the same question has many answers.
    """
    if len(options) == 1 and _complete(options[0]) and not asks_as_tracked(draft) and not (
            _on_table(options[0]) and step_by_step(draft)):
        ANSWERS[then.name](draft, then, options[0])
    else:
        draft.ask(player, kind, prompt, options, then)


def _complete(option: Event) -> bool:
    return not isinstance(option, Choose) or option.value is not None


def _on_table(option: Event) -> bool:
    return getattr(option, "location", None) is not None


def may(draft: Draft, s: Step, prompt: str, yes: Event, then: Step) -> None:
    """A "may": the player takes ``yes`` or declines."""
    draft.ask(s.player, Kind.CHOOSE, f"{draft.players[s.player].name}: {prompt}",
              (yes, DECLINE), then)


def location_choice(draft: Draft, s: Step, prompt: str, locations: Sequence[Location],
                    then: Step) -> None:
    """Choose one of ``locations`` (taken at once when there is only one)."""
    decide(draft, s.player, Kind.CHOOSE, f"{draft.players[s.player].name}: {prompt}",
           [AT[loc] for loc in locations], then)


def seat_choice(draft: Draft, s: Step, prompt: str, seats: Sequence[int], then: Step) -> None:
    decide(draft, s.player, Kind.CHOOSE, f"{draft.players[s.player].name}: {prompt}",
           [SEAT[q] for q in seats], then)


# --- names for cards nobody has seen (tracking) ---------------------------------------------


def unseen(draft: Draft, test: CardTest | None = None) -> list[str]:
    """Cards that could be anywhere hidden (deck or an unknown hand card)."""
    known = draft.known_cards()
    return [c for c in ALL_IDS if (test is None or test(c)) and c not in known]


def ensure_named(draft: Draft, s: Step, positions: Iterable[tuple[Location, int]]) -> bool:
    """True if every listed stack card has a name; else ask the table and re-run ``s``.

    ``s`` must be a step (not an answer) that has changed nothing yet, such as the
    "deploy-ability" step itself.
    """
    if not draft.hidden:
        return True
    for loc, index in positions:
        if draft.stack_at(loc)[index].card is None:
            options = [Choose(c, loc, index) for c in unseen(draft)]
            draft.ask(s.player, Kind.CONFIRM, f"Name the card at {loc.label} (#{index + 1})",
                      options, Step("ability-name-slot", s.player, data=(s,)))
            return False
    return True


@answer("ability-name-slot")
def _on_slot_named(draft: Draft, s: Step, event: Event) -> None:
    draft.identify(*_position(draft, event), chosen_card(event))
    draft.push(s.data[0])


def name_revealed(draft: Draft, player: int, then: Step) -> None:
    """Make sure every turned-over card has a name (asking the table), then push ``then``.

    With the step-by-step variant a simulated game asks too, with the one true answer:
    a scripted game then holds the answer a tracked game will need from the table.
    """
    _name_revealed_from(draft, player, then, 0)


def _name_revealed_from(draft: Draft, player: int, then: Step, start: int) -> None:
    mirror = asks_as_tracked(draft)
    for i in range(start, len(draft.revealed)):
        card = draft.revealed[i]
        if card is None or mirror:
            options = [Choose(c) for c in unseen(draft)] if card is None else [Choose(card)]
            draft.ask(player, Kind.CONFIRM, "Name the turned-over card", options,
                      Step("ability-name-revealed", player, then.card, then.location, (i, then)))
            return
    draft.push(then)


@answer("ability-name-revealed")
def _on_revealed_named(draft: Draft, s: Step, event: Event) -> None:
    index, then = s.data
    card = cards.check_id(chosen_card(event))
    if draft.revealed[index] is None:
        if draft.is_known_elsewhere(card):
            raise IllegalActionError(f"{card} is already somewhere else", rule="one-copy")
        draft.revealed[index] = card
    elif draft.revealed[index] != card:
        raise IllegalActionError(f"the turned-over card is {draft.revealed[index]}",
                                 rule="reveal")
    _name_revealed_from(draft, s.player, then, index + 1)


# --- hands ----------------------------------------------------------------------------------


def hand_cards(draft: Draft, player: int, test: CardTest | None = None) -> list[str]:
    """Cards passing ``test`` the player may hold: known ones, and unseen ones if any."""
    hand = draft.hand(player)
    found = [c for c in dict.fromkeys(hand.known) if test is None or test(c)]
    if hand.unknown:
        found += [c for c in unseen(draft, test) if c not in found]
    return found


def show(draft: Draft, player: int, card: str) -> None:
    """A player reveals a hand card: it becomes known and goes back to the hand."""
    hand = draft.hand(player)
    if card not in hand.known:
        draft.take_from_hand(player, card)  # validates; one unknown card becomes this one
        draft.add_to_hand(player, card)
    draft.note(ChangeKind.REVEAL, player=player, card=card, source="hand")


def bottom_of_hand(draft: Draft, player: int) -> str | None:
    """Au Toma's bottom hand card (an unseen one while her order is unknown)."""
    hand = draft.hand(player)
    if hand.unknown:
        return None
    return hand.known[0]


def take_hand_card(draft: Draft, player: int, card: str | None) -> None:
    """Remove a card from a hand: a named one, or (None) one nobody has seen."""
    if card is not None:
        draft.take_from_hand(player, card)
        return
    hand = draft.hand(player)
    if not hand.unknown:
        raise IllegalActionError("name the card", rule="hand")
    draft.players[player] = replace(draft.players[player], hand=replace(
        hand, unknown=hand.unknown - 1))


def reveal_cards(draft: Draft, s: Step, count: int, colors: tuple[Color, ...], then: Step,
                 *, optional: bool) -> None:
    """``s.player`` reveals ``count`` hand cards of ``colors``; push ``then`` + (revealed?,).

    With a fully known hand the engine sees whether it is possible ("may" still asks);
    while tracking, the player shows the cards one by one or declines (and a simulation
    with the step-by-step variant asks so too, each time with the one true answer).
    """
    hand = draft.hand(s.player)
    wanted = (count, colors, (), then)
    if hand.unknown == 0:
        found = [c for c in hand.known if COLOR[c] in colors][:count]
        if len(found) < count:
            _declined(draft, s.player, wanted)
        elif optional:
            may(draft, s, f"reveal {count} {'/'.join(colors)} cards?", REVEAL,
                Step("reveal-cards-may", s.player, s.card, s.location, (tuple(found), wanted)))
        elif asks_as_tracked(draft):
            _ask_reveal(draft, s.player, *wanted)
        else:
            _show_all(draft, s.player, found, then)
        return
    _ask_reveal(draft, s.player, *wanted)


REVEAL = Choose("reveal")


def _show_all(draft: Draft, player: int, found: Sequence[str], then: Step) -> None:
    for card in found:
        show(draft, player, card)
    draft.push(flagged(then, True))


def _declined(draft: Draft, player: int, wanted: tuple[object, ...]) -> None:
    then = wanted[-1]
    assert isinstance(then, Step)
    if asks_as_tracked(draft):
        draft.ask(player, Kind.CHOOSE, f"{draft.players[player].name}: reveal a card, or "
                  "decline", (DECLINE,), Step("reveal-cards-one", player, then.card,
                                              then.location, wanted))
    else:
        draft.push(flagged(then, False))


@answer("reveal-cards-may")
def _on_reveal_may(draft: Draft, s: Step, event: Event) -> None:
    found, wanted = s.data
    if event != REVEAL:
        _declined(draft, s.player, wanted)
    elif asks_as_tracked(draft):
        _ask_reveal(draft, s.player, *wanted)
    else:
        _show_all(draft, s.player, found, wanted[-1])


def _ask_reveal(draft: Draft, player: int, count: int, colors: tuple[Color, ...],
                shown: tuple[str, ...], then: Step) -> None:
    if len(shown) == count:
        draft.push(flagged(then, True))
        return
    held = hand_cards(draft, player, lambda c: COLOR[c] in colors and c not in shown)
    options: list[Event] = [Choose(c) for c in held]
    if asks_as_tracked(draft):
        del options[1:]  # the hand is known: the next card the player shows
    else:
        options.append(DECLINE)
    draft.ask(player, Kind.CHOOSE, f"{draft.players[player].name}: reveal a "
              f"{'/'.join(colors)} card ({len(shown) + 1} of {count}), or decline", options,
              Step("reveal-cards-one", player, then.card, then.location,
                   (count, colors, shown, then)))


@answer("reveal-cards-one")
def _on_reveal_one(draft: Draft, s: Step, event: Event) -> None:
    count, colors, shown, then = s.data
    if not isinstance(event, Choose) or event.value is None:
        draft.push(flagged(then, False))
        return
    show(draft, s.player, event.value)
    _ask_reveal(draft, s.player, count, colors, (*shown, event.value), then)


def start_size(draft: Draft, player: int) -> int:
    """Cards dealt at setup: 5, Ceres 6, Au Toma 2."""
    p = draft.players[player]
    return 2 if p.automa else starting_hand_size(p.house)


def targets(draft: Draft, player: int, *, variant_card: bool = False) -> list[int]:
    """Opponents holding cards; with the multiplayer variant, more than they were dealt."""
    seats = [q for q in draft.opponents(player) if draft.hand(q).size > 0]
    if variant_card and MULTIPLAYER_VARIANT in draft.variants:
        seats = [q for q in seats if draft.hand(q).size > start_size(draft, q)]
    return seats


# --- the deck ----------------------------------------------------------------------------


def deck_bottom(draft: Draft) -> str | None:
    """Take the deck's bottom card (None while its order is unknown)."""
    if draft.deck_count <= 0:
        raise IllegalActionError("the deck is empty", rule="empty-deck")
    draft.deck_count -= 1
    deck = draft.deck
    return deck.pop() if deck is not None else None


def to_deck(draft: Draft, card: str, *, bottom: bool) -> None:
    """Put a card on the top or bottom of the deck."""
    draft.deck_count += 1
    deck = draft.deck
    if deck is not None:
        if bottom:
            deck.append(card)
        else:
            deck.insert(0, card)
    draft.note(ChangeKind.TO_DECK, card=card, target="bottom" if bottom else "top")


def look(draft: Draft) -> None:
    """Take the deck's top card into the turned-over pile without showing it."""
    draft.revealed.append(_pop_top(draft))
    draft.note(ChangeKind.LOOK, source="deck")


def _pop_top(draft: Draft) -> str | None:
    if draft.deck_count <= 0:
        raise IllegalActionError("the deck is empty", rule="empty-deck")
    draft.deck_count -= 1
    deck = draft.deck
    return deck.pop(0) if deck is not None else None


def take_revealed(draft: Draft, card: str | None) -> str | None:
    """Remove a turned-over card: by name, or an unnamed one (which ``card`` then names).

    :raises IllegalActionError: for a card that is not turned over or is seen elsewhere.
    """
    revealed = draft.revealed
    if card in revealed:
        revealed.remove(card)
    elif None in revealed and card is not None:
        cards.check_id(card)
        if draft.is_known_elsewhere(card):
            raise IllegalActionError(f"{card} is already somewhere else", rule="one-copy")
        revealed.remove(None)
    else:
        raise IllegalActionError(f"{card} is not among the turned-over cards", rule="reveal")
    return card


def place_under(draft: Draft, location: Location, index: int, card: str | None) -> None:
    """Put a turned-over card into a stack at ``index`` (not a deploy)."""
    take_revealed(draft, card)
    draft.put_at(location, index, Slot(card))
    draft.note(ChangeKind.PLACE_UNDER, card=card, target=location.value, amount=index)


def place_face_down(draft: Draft, location: Location, card: str | None) -> None:
    """Put a turned-over card face down on top of a location (it has no color)."""
    take_revealed(draft, card)
    draft.put_top(location, Slot(card, face_down=True))
    draft.note(ChangeKind.PLACE_DOWN, target=location.value)


def place_on_top(draft: Draft, location: Location, card: str | None) -> None:
    """Place (not deploy) a turned-over card on top of a location."""
    take_revealed(draft, card)
    draft.put_top(location, Slot(card))
    draft.note(ChangeKind.PLACE, card=card, target=location.value)


def unbanish(draft: Draft, card: str) -> None:
    if card not in draft.banished:
        raise IllegalActionError(f"{card} is not banished", rule="banished")
    draft.banished.remove(card)


def banish_revealed(draft: Draft, card: str) -> None:
    take_revealed(draft, card)
    draft.banished.append(card)
    draft.note(ChangeKind.BANISH, card=card, source="deck")


def gain_revealed(draft: Draft, player: int, card: str | None) -> None:
    take_revealed(draft, card)
    draft.add_to_hand(player, card)
    draft.note(ChangeKind.GAIN, player=player, card=card, source="deck")


# --- the deployed card itself -----------------------------------------------------------


def banish_self(draft: Draft, s: Step, then: Step | None = None) -> None:
    """Banish the deployed card wherever it now is (nothing if it has left the table);
    a physical step. Then push ``then``."""
    leave(draft, s, Leave.BANISH, find(draft, s.card), then)


def regain_self(draft: Draft, s: Step, then: Step | None = None) -> None:
    """Take the deployed card back into its player's hand (a physical step), then ``then``."""
    leave(draft, s, Leave.GAIN, find(draft, s.card), then)


def give_self(draft: Draft, s: Step, then: Step | None = None) -> None:
    """Hand the deployed card to the right-hand player (on top of Au Toma's hand)."""
    leave(draft, s, Leave.GIVE, find(draft, s.card), then)


@step("ability-banish-self")
def _banish_self_step(draft: Draft, s: Step) -> None:
    banish_self(draft, s)


@step("ability-end-turn")
def _end_turn_step(draft: Draft, s: Step) -> None:
    draft.end_turn_early()


def gainable(draft: Draft, slot: Slot) -> bool:
    """Loan Shark's borrower may not gain Loan Shark during the borrowed turn."""
    turn = draft.turn
    return not (turn is not None and turn.kind is TurnKind.OUT_OF_ORDER
                and slot.card == "loan-shark")


def right_of(draft: Draft, player: int) -> int:
    """The player to the right (counter-clockwise)."""
    return (player - 1) % len(draft.players)


# --- once-per-turn trades -------------------------------------------------------------------


def trade_used(draft: Draft, card: str) -> bool:
    """True if this trading ability already fired this turn (trades work once per turn)."""
    turn = draft.turn
    return turn is not None and card in turn.trades_used


def use_trade(draft: Draft, card: str) -> None:
    turn = draft.turn
    if turn is not None:
        draft.turn = replace(turn, trades_used=turn.trades_used | {card})


def also_deployed(draft: Draft, location: Location) -> None:
    """Record a second deploy this turn (Orion, Modjob, Calliope): no gain from there."""
    turn = draft.turn
    if turn is not None and location is not turn.deployed_to:
        draft.turn = replace(turn, also_deployed_to=turn.also_deployed_to | {location})
