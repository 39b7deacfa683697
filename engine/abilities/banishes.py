"""Abilities that banish cards from the locations (and Karnus' follow-up on a hand)."""

from __future__ import annotations

from engine.abilities.blocks import force_banish
from engine.abilities.primitives import (
    DECLINE,
    REVEAL,
    SEAT,
    Leave,
    Moved,
    card_options,
    colored,
    decide,
    ensure_named,
    leave,
    named_card_options,
    not_colored,
    others,
    physical,
    picked,
    regain_self,
    show,
    slot_is,
    targets,
    under,
    with_data,
)
from engine.abilities.registry import deploy
from engine.board import Location
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Choose, Event
from engine.handlers import answer, step
from engine.steps import Step


def _ask(draft: Draft, s: Step, prompt: str, options: list[Event], then: str) -> None:
    if options:
        name = draft.players[s.player].name
        decide(draft, s.player, Kind.TARGET, f"{name}: {prompt}", options, s.then(then))


def _below_named(draft: Draft, s: Step) -> tuple[int, Location] | None:
    """The index of the card directly under the deployed one, once it has a name."""
    below = under(draft, s)
    assert s.location is not None
    if below is None or not ensure_named(draft, s, [(s.location, below[0])]):
        return None
    return below[0], s.location


def _banish_below(draft: Draft, s: Step, below: tuple[int, Location],
                  then: Step | None = None) -> None:
    leave(draft, s, Leave.BANISH, (below[1], below[0]), then)


def _is_gold(draft: Draft, below: tuple[int, Location]) -> bool:
    return slot_is(draft.stack_at(below[1])[below[0]], Color.GOLD)


@deploy("assassin")
def assassin(draft: Draft, s: Step) -> None:
    """Banish the card directly under this one; if it was a Gold, place 1 Influence."""
    below = _below_named(draft, s)
    if below is not None:
        _banish_below(draft, s, below, with_data(s, "ability-influence") if _is_gold(
            draft, below) else None)


@step("ability-influence")
def _influence(draft: Draft, s: Step) -> None:
    draft.place_influence(s.player)


@deploy("helga")
def helga(draft: Draft, s: Step) -> None:
    """Banish the card directly under this one; if it was the only other card here, gain 1 He."""
    below = _below_named(draft, s)
    if below is not None:
        alone = len(draft.stack_at(below[1])) == 2
        _banish_below(draft, s, below, with_data(s, "helga-helium") if alone else None)


@step("helga-helium")
def _helga_helium(draft: Draft, s: Step) -> None:
    draft.add_helium(s.player)


@deploy("lorn")
def lorn(draft: Draft, s: Step) -> None:
    """If the card directly under this one is a Gold, banish it."""
    below = _below_named(draft, s)
    if below is not None and _is_gold(draft, below):
        _banish_below(draft, s, below)


@deploy("pathologist")
def pathologist(draft: Draft, s: Step) -> None:
    """Banish this location's bottom card, unless it is this card."""
    assert s.location is not None
    if draft.stack_at(s.location)[0].card != s.card and ensure_named(
            draft, s, [(s.location, 0)]):
        leave(draft, s, Leave.BANISH, (s.location, 0))


@deploy("bondilus")
def bondilus(draft: Draft, s: Step) -> None:
    """If deployed on Mars, banish one non-Gold card at this location."""
    if s.location is Location.MARS:
        options = named_card_options(draft, s, (s.location,), not_colored(Color.GOLD))
        if options is not None:
            _ask(draft, s, "banish which non-Gold here?", options, "bondilus-card")


@answer("bondilus-card")
def _bondilus_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, _ = picked(draft, event, not_colored(Color.GOLD))
    draft.banish_at(loc, index)


@deploy("stained")
def stained(draft: Draft, s: Step) -> None:
    """Banish another card from this location; if it is an Obsidian, place 1 Influence."""
    assert s.location is not None
    _ask(draft, s, "banish which other card here?",
         card_options(draft, (s.location,), lambda slot: True, s.card), "stained-card")


@answer("stained-card")
def _stained_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, _ = picked(draft, event)
    if slot_is(draft.banish_at(loc, index), Color.OBSIDIAN):
        draft.place_influence(s.player)


@deploy("ragnar")
def ragnar(draft: Draft, s: Step) -> None:
    """Banish another location's top card; if it is a Gold or Gray, place 1 Influence."""
    options: list[Event] = []
    for loc in others(s.location):
        stack = draft.stack_at(loc)
        if stack:
            options.append(Choose(stack[-1].card, loc, len(stack) - 1))
    _ask(draft, s, "banish the top card of which location?", options, "ragnar-card")


@answer("ragnar-card")
def _ragnar_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, _ = picked(draft, event)
    if slot_is(draft.banish_at(loc, index), Color.GOLD, Color.GRAY):
        draft.place_influence(s.player)


_NON_GOLD = not_colored(Color.GOLD)


@deploy("alia-snowsparrow")
def alia_snowsparrow(draft: Draft, s: Step) -> None:
    """Banish the highest non-Gold card at any other location; gain 1 Helium unless it was
    Gray or Obsidian."""
    options: list[Event] = []
    for loc in others(s.location):
        stack = draft.stack_at(loc)
        for i in range(len(stack) - 1, -1, -1):  # a face-down card counts as non-Gold
            if _NON_GOLD(stack[i]) is not False:
                options.append(Choose(stack[i].card, loc, i))
                break
    _ask(draft, s, "banish the top non-Gold of which location?", options, "alia-card")


@answer("alia-card")
def _alia_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, slot = picked(draft, event, _NON_GOLD)
    draft.banish_at(loc, index)
    if not slot_is(slot, Color.GRAY, Color.OBSIDIAN):
        draft.add_helium(s.player)


@deploy("evey")
def evey(draft: Draft, s: Step) -> None:
    """Banish Evey and every card at this location; place 1 Influence per Gold (at most 3)."""
    assert s.location is not None
    stack = draft.stack_at(s.location)
    if ensure_named(draft, s, [(s.location, i) for i in range(len(stack))]):
        # The whole stack goes at once: one physical step.
        physical(draft, s, f"banish every card at {s.location.label}",
                 Moved(source=s.location, card=s.card), s.then("evey-banish"))


@answer("evey-banish")
def _evey_banish(draft: Draft, s: Step, event: Event) -> None:
    assert s.location is not None
    golds = sum(1 for slot in draft.stack_at(s.location) if slot_is(slot, Color.GOLD))
    while draft.stack_at(s.location):
        draft.banish_at(s.location, -1)
    if golds:
        draft.place_influence(s.player, min(golds, 3))


@deploy("ash-lord")
def ash_lord(draft: Draft, s: Step) -> None:
    """Banish every Blue at this location; if that is 2 or more, take Ash Lord back into hand."""
    assert s.location is not None
    stack = draft.stack_at(s.location)
    blue = colored(Color.BLUE)
    unnamed = [(s.location, i) for i, slot in enumerate(stack) if blue(slot) is None]
    if ensure_named(draft, s, unnamed):
        blues = [i for i, slot in enumerate(stack) if blue(slot)]
        draft.push(with_data(s, "ash-lord-next", len(blues) >= 2, *reversed(blues)))


@step("ash-lord-next")
def _ash_lord_next(draft: Draft, s: Step) -> None:
    """The Blues go one at a time, from the top down; then Ash Lord comes back if 2+."""
    assert s.location is not None
    back, blues = s.data[0], s.data[1:]
    if blues:
        leave(draft, s, Leave.BANISH, (s.location, blues[0]),
              with_data(s, "ash-lord-next", back, *blues[1:]))
    elif back:
        regain_self(draft, s)


@deploy("sevro")
def sevro(draft: Draft, s: Step) -> None:
    """Banish the card directly under this one, or reveal The Howlers to gain it instead."""
    below = _below_named(draft, s)
    if below is None:
        return
    if draft.may_hold(s.player, "the-howlers"):
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: reveal The Howlers to gain the card below?",
                  (REVEAL, DECLINE), s.then("sevro-howlers", below[0]))
    else:
        _banish_below(draft, s, below)


@answer("sevro-howlers")
def _sevro_howlers(draft: Draft, s: Step, event: Event) -> None:
    assert s.location is not None
    if event == REVEAL:
        show(draft, s.player, "the-howlers")
        leave(draft, s, Leave.GAIN, (s.location, s.data[0]))
    else:
        leave(draft, s, Leave.BANISH, (s.location, s.data[0]))


@deploy("karnus")
def karnus(draft: Draft, s: Step) -> None:
    """Banish the card directly under this one; if that was Mustang, The Jackal or Nero, you
    may have an opponent banish a card from hand."""
    below = _below_named(draft, s)
    if below is not None:
        card = draft.stack_at(below[1])[below[0]].card
        _banish_below(draft, s, below, with_data(s, "karnus-banished", card))


@step("karnus-banished")
def _karnus_banished(draft: Draft, s: Step) -> None:
    seats = targets(draft, s.player, variant_card=True)
    if s.data[0] in ("mustang", "the-jackal", "nero") and seats:
        options: list[Event] = [SEAT[q] for q in seats]
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: make an opponent banish a card?", options,
                  s.then("karnus-seat"))


@answer("karnus-seat")
def _karnus_seat(draft: Draft, s: Step, event: Event) -> None:
    if isinstance(event, Choose):
        force_banish(draft, int(str(event.value)), None)

