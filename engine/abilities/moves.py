"""Abilities that move cards between (or within) stacks. A move is never a deploy, and a
card that moves itself still counts as deployed where it was deployed."""

from __future__ import annotations

from collections.abc import Callable

from engine.abilities.primitives import (
    AT,
    COLOR,
    CORE,
    DECLINE,
    Leave,
    SlotTest,
    chosen_location,
    colored,
    decide,
    ensure_named,
    gainable,
    index_in,
    leave,
    location_choice,
    may,
    named_card_options,
    named_or_down,
    nonempty,
    others,
    picked,
    slot_is,
    under,
    under_is,
    with_data,
)
from engine.abilities.registry import deploy
from engine.board import LOCATIONS, Location
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import Choose, Event
from engine.handlers import answer
from engine.state import Slot
from engine.steps import Step

Reward = Callable[[Draft, int], object]


def _helium(draft: Draft, player: int) -> object:
    return draft.add_helium(player)


def _fleet(draft: Draft, player: int) -> object:
    return draft.advance(player)


def _influence(draft: Draft, player: int) -> object:
    return draft.place_influence(player)


def _move_under(draft: Draft, s: Step, source: Location, index: int) -> int:
    """Move a card to directly under the deployed card; returns its new index."""
    assert s.location is not None
    to = index_in(draft, s.location, s.card)
    assert to is not None
    if source is s.location and index < to:
        to -= 1
    draft.move(source, index, s.location, to)
    return to


# --- "If deployed directly on a …: move it to the top of another location; reward" ---------

PUSH_OFF: dict[str, tuple[tuple[Color, ...], Reward]] = {}


def _push_off(draft: Draft, s: Step) -> None:
    assert s.card is not None
    colors, _ = PUSH_OFF[s.card]
    below = under(draft, s)
    if below is not None and under_is(draft, s, *colors):
        location_choice(draft, s, "move the card below to which location?", others(s.location),
                        s.then("push-off-to", below[0]))


@answer("push-off-to")
def _on_push_off(draft: Draft, s: Step, event: Event) -> None:
    assert s.location is not None and s.card is not None
    draft.move(s.location, s.data[0], chosen_location(event))
    PUSH_OFF[s.card][1](draft, s.player)


for _card, _colors, _reward, _doc in (
    ("artisan-chef", (Color.GOLD,), _influence,
     "If deployed directly on a Gold: move it to the top of another location; place 1 Influence."),
    ("gardener", (Color.VIOLET, Color.PINK), _helium,
     "If deployed directly on a Violet or Pink: move it to another location; gain 1 Helium."),
    ("janitor", (Color.GREEN, Color.YELLOW, Color.BLUE), _fleet,
     "If deployed directly on a Green, Yellow or Blue: move it to another location; advance 1."),
    ("mess-hall-cook", (Color.GRAY, Color.ORANGE), _fleet,
     "If deployed directly on a Gray or Orange: move it to another location; advance 1."),
    ("nanny", (Color.SILVER, Color.WHITE, Color.COPPER), _helium,
     "If deployed directly on a Silver, White or Copper: move it to another location; gain 1 He."),
):
    PUSH_OFF[_card] = (_colors, _reward)

    def _ability(draft: Draft, s: Step) -> None:
        _push_off(draft, s)

    _ability.__doc__ = _doc
    deploy(_card)(_ability)


# --- "Move a … from any location to directly under this card; you may gain it, ending" -----

PULL_UNDER: dict[str, SlotTest] = {}


def _pull_under(draft: Draft, s: Step) -> None:
    assert s.card is not None
    options = named_card_options(draft, s, LOCATIONS, PULL_UNDER[s.card], s.card)
    if options:
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.TARGET, f"{name}: move which card under {s.card}?", options,
                  s.then("pull-under-card"))


@answer("pull-under-card")
def _on_pull_under(draft: Draft, s: Step, event: Event) -> None:
    assert s.card is not None
    loc, index, _ = picked(draft, event, PULL_UNDER[s.card])
    at = _move_under(draft, s, loc, index)
    assert s.location is not None
    if gainable(draft, draft.stack_at(s.location)[at]):
        may(draft, s, "gain that card and end your turn?", GAIN, with_data(s, "pull-under-gain"))


GAIN = Choose("gain")


@answer("pull-under-gain")
def _on_pull_gain(draft: Draft, s: Step, event: Event) -> None:
    if event == GAIN:
        assert s.location is not None
        at = index_in(draft, s.location, s.card)
        assert at
        leave(draft, s, Leave.GAIN, (s.location, at - 1), with_data(s, "ability-end-turn"))


for _card, _colors, _doc in (
    ("bridge", (Color.PINK, Color.VIOLET),
     "Move a Pink or Violet from any location to directly under this card; may gain it, ending."),
    ("colonel-valentin", (Color.GOLD,),
     "Move a Gold from any location to directly under this card; may gain it, ending."),
    ("danto", (Color.COPPER, Color.WHITE),
     "Move a Copper or White from any location to directly under this card; may gain it, ending."),
    ("holiday", (Color.ORANGE, Color.BLUE),
     "Move an Orange or Blue from any location to directly under this card; may gain it, ending."),
    ("sun-hwa", (Color.OBSIDIAN, Color.GREEN),
     "Move an Obsidian or Green from any location to directly under this card; may gain it."),
    ("trigg", (Color.GRAY, Color.YELLOW),
     "Move a Gray or Yellow from any location to under this card; may gain it, ending."),
    ("ugly-dan", (Color.RED, Color.BROWN),
     "Move a Red or Brown from any location to under this card; may gain it, ending."),
):
    PULL_UNDER[_card] = colored(*_colors)

    def _ability(draft: Draft, s: Step) -> None:
        _pull_under(draft, s)

    _ability.__doc__ = _doc
    deploy(_card)(_ability)


# --- a card from this location to another --------------------------------------------------


def _then_move(draft: Draft, s: Step, event: Event, test: SlotTest,
               targets: Callable[[Slot], list[Location]]) -> None:
    """After a card was picked: ask where it goes (``data`` keeps its index)."""
    loc, index, slot = picked(draft, event, test)
    where = targets(slot)
    if not where:
        raise IllegalActionError(f"{slot.card} cannot move anywhere", rule="ability")
    location_choice(draft, s, f"move {slot.card or 'it'} to which location?", where,
                    with_data(s, "move-card-to", loc, index, *s.data))


@answer("move-card-to")
def _on_move_to(draft: Draft, s: Step, event: Event) -> None:
    source, index = s.data[0], s.data[1]
    slot = draft.move(source, index, chosen_location(event))
    reward = MOVE_REWARDS.get(str(s.card))
    if reward is not None:
        reward(draft, s, slot)


def _pink_influence(draft: Draft, s: Step, slot: Slot) -> None:
    if slot_is(slot, Color.PINK):
        draft.place_influence(s.player)


def _silver_helium(draft: Draft, s: Step, slot: Slot) -> None:
    if slot_is(slot, Color.SILVER):
        draft.add_helium(s.player)


MOVE_REWARDS: dict[str, Callable[[Draft, Step, Slot], None]] = {
    "matteo": _pink_influence,
    "garden-trained-rose": _silver_helium,
}


def _ask_card(draft: Draft, s: Step, options: list[Event] | None, then: str) -> None:
    if options:
        name = draft.players[s.player].name
        decide(draft, s.player, Kind.TARGET, f"{name}: move which card?", options, s.then(then))


@deploy("matteo")
def matteo(draft: Draft, s: Step) -> None:
    """Move another card at this location to the top of another location; Pink: 1 Influence."""
    assert s.location is not None
    _ask_card(draft, s, named_card_options(draft, s, (s.location,), named_or_down, s.card),
              "matteo-card")


@answer("matteo-card")
def _matteo_card(draft: Draft, s: Step, event: Event) -> None:
    _then_move(draft, s, event, named_or_down, lambda slot: list(others(s.location)))


@deploy("garden-trained-rose")
def garden_trained_rose(draft: Draft, s: Step) -> None:
    """Move the card directly under this one to the top of another location; Silver: 1 Helium."""
    below = under(draft, s)
    assert s.location is not None
    if below is not None and ensure_named(draft, s, [(s.location, below[0])] if not below[
            1].face_down else []):
        location_choice(draft, s, "move the card below to which location?", others(s.location),
                        with_data(s, "move-card-to", s.location, below[0]))


def _parity(even: bool) -> SlotTest:
    def test(slot: Slot) -> bool | None:
        if slot.face_down:
            return False  # a face-down card shows no core value
        return None if slot.card is None else (CORE[slot.card] % 2 == 0) == even

    return test


@deploy("musician")
def musician(draft: Draft, s: Step) -> None:
    """Move a card with an even core value from this location to the top of another location."""
    assert s.location is not None
    _ask_card(draft, s, named_card_options(draft, s, (s.location,), _parity(True)),
              "musician-card")


@answer("musician-card")
def _musician_card(draft: Draft, s: Step, event: Event) -> None:
    _then_move(draft, s, event, _parity(True), lambda slot: list(others(s.location)))


@deploy("zanzibar")
def zanzibar(draft: Draft, s: Step) -> None:
    """Move a card with an odd core value from this location to the top of another location."""
    assert s.location is not None
    _ask_card(draft, s, named_card_options(draft, s, (s.location,), _parity(False)),
              "zanzibar-card")


@answer("zanzibar-card")
def _zanzibar_card(draft: Draft, s: Step, event: Event) -> None:
    _then_move(draft, s, event, _parity(False), lambda slot: list(others(s.location)))


def _painter_targets(draft: Draft, s: Step, slot: Slot) -> list[Location]:
    """Other locations holding no card of the moved card's color (face-down: any)."""
    color = None if slot.face_down or slot.card is None else COLOR[slot.card]
    return [loc for loc in others(s.location)
            if color is None or not any(slot_is(c, color) for c in draft.stack_at(loc))]


@deploy("4d-painter")
def four_d_painter(draft: Draft, s: Step) -> None:
    """Move a card from this location onto another location holding no card of its color."""
    assert s.location is not None
    found = named_card_options(draft, s, (s.location,), named_or_down)
    _ask_card(draft, s, [o for o in found or () if _painter_ok(draft, s, o)], "4d-painter-card")


def _painter_ok(draft: Draft, s: Step, option: Event) -> bool:
    assert isinstance(option, Choose) and option.location is not None and option.index is not None
    slot = draft.stack_at(option.location)[option.index]
    return (slot.card is None and not slot.face_down) or bool(_painter_targets(draft, s, slot))


@answer("4d-painter-card")
def _painter_card(draft: Draft, s: Step, event: Event) -> None:
    _then_move(draft, s, event, named_or_down, lambda slot: _painter_targets(draft, s, slot))


# --- other moves ------------------------------------------------------------------------


@deploy("masseuse")
def masseuse(draft: Draft, s: Step) -> None:
    """Move another location's top card onto a different location; gain the bonus of the
    location it left."""
    sources = nonempty(draft, others(s.location))
    if sources:
        location_choice(draft, s, "move the top card of which location?", sources,
                        s.then("masseuse-from"))


@answer("masseuse-from")
def _masseuse_from(draft: Draft, s: Step, event: Event) -> None:
    source = chosen_location(event)
    location_choice(draft, s, f"move it from {source.label} to which location?",
                    others(source), with_data(s, "masseuse-to", source))


@answer("masseuse-to")
def _masseuse_to(draft: Draft, s: Step, event: Event) -> None:
    source: Location = s.data[0]
    draft.move(source, -1, chosen_location(event))
    draft.gain_bonus(s.player, source.bonus)  # the card grants it: a moved card
    # otherwise never gives a location bonus


@deploy("the-telemanuses")
def the_telemanuses(draft: Draft, s: Step) -> None:
    """Move every card beneath this one here onto the top of another location, in order."""
    assert s.location is not None
    if index_in(draft, s.location, s.card):
        location_choice(draft, s, "move the cards below to which location?",
                        others(s.location), s.then("telemanuses-to"))


@answer("telemanuses-to")
def _telemanuses_to(draft: Draft, s: Step, event: Event) -> None:
    assert s.location is not None
    target = chosen_location(event)
    for _ in range(index_in(draft, s.location, s.card) or 0):
        draft.move(s.location, 0, target)  # bottom first: the order is kept


@deploy("theodora")
def theodora(draft: Draft, s: Step) -> None:
    """You may move this location's bottom card onto this card; if it is a Gold or Red, gain
    it and end your turn."""
    assert s.location is not None
    stack = draft.stack_at(s.location)
    if stack[0].card != s.card and ensure_named(draft, s, [] if stack[0].face_down else [
            (s.location, 0)]):
        may(draft, s, "move the bottom card here onto Theodora?", AT[s.location],
            s.then("theodora-yes"))


@answer("theodora-yes")
def _theodora_yes(draft: Draft, s: Step, event: Event) -> None:
    if event == DECLINE:
        return
    assert s.location is not None
    at = index_in(draft, s.location, s.card)
    assert at is not None
    slot = draft.move(s.location, 0, s.location, at)  # Theodora drops one place
    if slot_is(slot, Color.GOLD, Color.RED) and gainable(draft, slot):
        leave(draft, s, Leave.GAIN, (s.location, at), with_data(s, "ability-end-turn"))


@deploy("conversationalist")
def conversationalist(draft: Draft, s: Step) -> None:
    """Move another location's top card under this card; if it is a White, gain it."""
    options: list[Event] = []
    for loc in nonempty(draft, others(s.location)):
        stack = draft.stack_at(loc)
        options.append(Choose(stack[-1].card, loc, len(stack) - 1))
    if options:
        name = draft.players[s.player].name
        decide(draft, s.player, Kind.TARGET, f"{name}: move which top card under this one?",
               options, s.then("conversationalist-card"))


@answer("conversationalist-card")
def _conversationalist_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, slot = picked(draft, event, named_or_down)
    at = _move_under(draft, s, loc, index)
    assert s.location is not None
    if slot_is(slot, Color.WHITE) and gainable(draft, slot):
        leave(draft, s, Leave.GAIN, (s.location, at))
