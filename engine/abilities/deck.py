"""Abilities that turn deck cards over and place them (never a deploy), or bring banished
cards back to the deck or the table."""

from __future__ import annotations

from engine.abilities.primitives import (
    AT,
    DECLINE,
    Moved,
    banish_revealed,
    banished_choices,
    chosen_card,
    chosen_location,
    decide,
    index_in,
    location_choice,
    look,
    name_revealed,
    others,
    physical,
    place_face_down,
    place_on_top,
    place_under,
    to_deck,
    unbanish,
    with_data,
)
from engine.abilities.registry import deploy
from engine.board import Location
from engine.decisions import Kind
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import Choose, Event, Place, place
from engine.handlers import answer, step
from engine.state import ChangeKind, Slot
from engine.steps import Step

BANISH, TOP, BOTTOM = Choose("banish"), Choose("top"), Choose("bottom")

# --- "If deployed on …: reveal the deck's top 2 and put them under this card" ---------------


def _two_under(draft: Draft, s: Step, where: Location) -> None:
    if s.location is not where or draft.deck_count == 0:
        return
    count = min(2, draft.deck_count)
    for _ in range(count):
        draft.reveal_from_deck()
    # Shown to the table, then out of the camera's sight for good: the table names them.
    name_revealed(draft, s.player, s.then("two-under-named", count))


@step("two-under-named")
def _two_under_named(draft: Draft, s: Step) -> None:
    cards = draft.revealed[-s.data[0]:]
    if len(cards) == 1:
        _slide_under(draft, s, cards)
        return
    name = draft.players[s.player].name
    draft.ask(s.player, Kind.CHOOSE, f"{name}: which card goes directly under {s.card}?",
              [Choose(c) for c in cards], s.then("two-under-order", *cards))


@answer("two-under-order")
def _two_under_order(draft: Draft, s: Step, event: Event) -> None:
    top = chosen_card(event)
    _slide_under(draft, s, [*(c for c in s.data if c != top), top])


def _slide_under(draft: Draft, s: Step, cards: list[str | None]) -> None:
    """Slide the turned-over cards in directly under the deployed one, one at a time."""
    if cards:
        physical(draft, s, f"put a turned-over card directly under {s.card}",
                 Moved(target=s.location, card=cards[0], under=True),
                 with_data(s, "two-under-put", *cards))


@answer("two-under-put")
def _two_under_put(draft: Draft, s: Step, event: Event) -> None:
    assert s.location is not None
    index = index_in(draft, s.location, s.card)
    assert index is not None
    place_under(draft, s.location, index, s.data[0])
    _slide_under(draft, s, list(s.data[1:]))


for _card, _where in (
    ("administrator", Location.INSTITUTE),
    ("dataport-specialist", Location.JUPITER),
    ("dr-virany", Location.MARS),
    ("holo-designer", Location.LUNA),
):

    def _ability(draft: Draft, s: Step, where: Location = _where) -> None:
        _two_under(draft, s, where)

    _ability.__doc__ = (f"If deployed on {_where.label}: reveal the deck's top 2 cards and put "
                        "them under this card in any order.")
    deploy(_card)(_ability)


# --- Firewall Expert ----------------------------------------------------------------------


@deploy("firewall-expert")
def firewall_expert(draft: Draft, s: Step) -> None:
    """Look at the deck's top 3; put one face down on top of each other location (FAQ erratum).
    Face-down cards have no color."""
    count = min(3, draft.deck_count)
    for _ in range(count):
        look(draft)
    draft.push(with_data(s, "firewall-next", *others(s.location)))


@step("firewall-next")
def _firewall_next(draft: Draft, s: Step) -> None:
    """Pair the looked-at cards with the locations still waiting for one."""
    waiting: tuple[Location, ...] = s.data
    cards = [c for c in draft.revealed]
    if not cards:
        return
    # While tracking, the cards are unseen (options name only the location), and each
    # placement is still its own step: the camera sees them go down one by one.
    options: list[Event] = [
        AT[loc] if card is None else Choose(card, loc) for card in dict.fromkeys(cards)
        for loc in waiting
    ]
    name = draft.players[s.player].name
    decide(draft, s.player, Kind.CHOOSE, f"{name}: put which card face down where?", options,
           s.then("firewall-put"))


@answer("firewall-put")
def _firewall_put(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Choose) and event.location is not None
    card = event.value if event.value in draft.revealed else None
    place_face_down(draft, event.location, card)
    draft.push(with_data(s, "firewall-next", *(loc for loc in s.data if loc is not
                                                 event.location)))


# --- one turned-over card ---------------------------------------------------------------


@deploy("hacker")
def hacker(draft: Draft, s: Step) -> None:
    """Reveal the deck's top card; banish it or place (not deploy) it on another location."""
    if draft.deck_count > 0:
        draft.reveal_from_deck()
        draft.push(s.then("hacker-seen"))


@step("hacker-seen")
def _hacker_seen(draft: Draft, s: Step) -> None:
    card = draft.revealed[-1]
    options: list[Event] = [place(loc, card) for loc in others(s.location)]
    options.append(BANISH)
    name = draft.players[s.player].name
    draft.ask(s.player, Kind.PLACE, f"{name}: banish {card or 'the card'}, or place it on "
              "another location?", options, s.then("hacker-put"))


@answer("hacker-put")
def _hacker_put(draft: Draft, s: Step, event: Event) -> None:
    if isinstance(event, Place):
        place_on_top(draft, event.location, event.card)  # while tracking, the camera names it
    else:
        # Off to the banished pile, out of the camera's sight: the table names it.
        name_revealed(draft, s.player, s.then("hacker-banish"))


@step("hacker-banish")
def _hacker_banish(draft: Draft, s: Step) -> None:
    card = draft.revealed[-1]
    assert card is not None
    banish_revealed(draft, card)


@deploy("seer")
def seer(draft: Draft, s: Step) -> None:
    """If you hold the Sovereign, reveal the deck's top card and place (not deploy) it on
    another location."""
    if draft.sovereign == s.player and draft.deck_count > 0:
        card = draft.reveal_from_deck()
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.PLACE, f"{name}: place the revealed card on another location",
                  [place(loc, card) for loc in others(s.location)], s.then("seer-put"))


@answer("seer-put")
def _seer_put(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Place)
    place_on_top(draft, event.location, event.card)


# --- banished cards back into play ------------------------------------------------------


@deploy("researcher")
def researcher(draft: Draft, s: Step) -> None:
    """Put a random banished card at the bottom of this location."""
    if not draft.banished:
        return
    options = banished_choices(draft)
    if draft.hidden:  # the table draws it and says which
        draft.ask(s.player, Kind.CONFIRM, "Researcher: which banished card was drawn?", options,
                  s.then("researcher-card"))
    else:
        draft.ask(None, Kind.RANDOM, "Researcher: a random banished card", options,
                  s.then("researcher-card"))


@answer("researcher-card")
def _researcher_card(draft: Draft, s: Step, event: Event) -> None:
    card = str(chosen_card(event))
    _check_banished(draft, card)
    physical(draft, s, f"put {card} at the bottom of {s.location.label if s.location else ''}",
             Moved(target=s.location, card=card, under=True), s.then("researcher-put", card))


@answer("researcher-put")
def _researcher_put(draft: Draft, s: Step, event: Event) -> None:
    assert s.location is not None
    card = s.data[0]
    unbanish(draft, card)
    draft.put_at(s.location, 0, Slot(card))
    draft.note(ChangeKind.PLACE_UNDER, card=card, source="banished", target=s.location.value)


@deploy("psychologist")
def psychologist(draft: Draft, s: Step) -> None:
    """You may place (not deploy) 1 or 2 banished cards on top of one location."""
    if draft.banished:
        options = banished_choices(draft)
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: place a banished card?", options,
                  s.then("psychologist-first"))


@answer("psychologist-first")
def _psychologist_first(draft: Draft, s: Step, event: Event) -> None:
    card = chosen_card(event) if isinstance(event, Choose) else None
    if card is not None:
        location_choice(draft, s, f"place {card} on which location?", list(Location),
                        s.then("psychologist-where", card))


@answer("psychologist-where")
def _psychologist_where(draft: Draft, s: Step, event: Event) -> None:
    location = chosen_location(event)
    _place_banished(draft, location, s.data[0])
    if draft.banished:
        options = banished_choices(draft)
        options.append(DECLINE)
        draft.ask(s.player, Kind.CHOOSE, f"Psychologist: place a second card on "
                  f"{location.label}?", options, s.then("psychologist-second", location))


@answer("psychologist-second")
def _psychologist_second(draft: Draft, s: Step, event: Event) -> None:
    card = chosen_card(event) if isinstance(event, Choose) else None
    if card is not None:
        _check_banished(draft, card)
        location: Location = s.data[0]
        physical(draft, s, f"place {card} on {location.label}",
                 Moved(target=location, card=card), s.then("psychologist-put", location, card))


@answer("psychologist-put")
def _psychologist_put(draft: Draft, s: Step, event: Event) -> None:
    _place_banished(draft, *s.data)


def _check_banished(draft: Draft, card: str) -> None:
    if card not in draft.banished:
        raise IllegalActionError(f"{card} is not banished", rule="banished")


def _place_banished(draft: Draft, location: Location, card: str) -> None:
    unbanish(draft, card)
    draft.put_top(location, Slot(card))
    draft.note(ChangeKind.PLACE, card=card, source="banished", target=location.value)


@deploy("group-counselor")
def group_counselor(draft: Draft, s: Step) -> None:
    """Pick up to 3 banished cards; put each on the top or the bottom of the deck."""
    draft.push(with_data(s, "counselor-next", 3))


@step("counselor-next")
def _counselor_next(draft: Draft, s: Step) -> None:
    if s.data[0] > 0 and draft.banished:
        options = banished_choices(draft)
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: return a banished card to the deck?",
                  options, s.then("counselor-card"))


@answer("counselor-card")
def _counselor_card(draft: Draft, s: Step, event: Event) -> None:
    card = chosen_card(event) if isinstance(event, Choose) else None
    if card is not None:
        draft.ask(s.player, Kind.CHOOSE, f"Put {card} on the top or the bottom of the deck?",
                  (TOP, BOTTOM), with_data(s, "counselor-side", s.data[0], card))


@answer("counselor-side")
def _counselor_side(draft: Draft, s: Step, event: Event) -> None:
    left, card = s.data
    unbanish(draft, card)
    to_deck(draft, card, bottom=event == BOTTOM)
    draft.push(with_data(s, "counselor-next", left - 1))
