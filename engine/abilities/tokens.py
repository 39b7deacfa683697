"""Abilities that give or take tokens: Helium, Influence, Fleet steps, the Sovereign."""

from __future__ import annotations

from engine.abilities.primitives import (
    DECLINE,
    asks_as_tracked,
    chosen_seat,
    ensure_named,
    hand_cards,
    is_color,
    may,
    reveal_cards,
    seat_choice,
    show,
    slot_is,
    with_data,
)
from engine.abilities.registry import deploy
from engine.board import FLEET_MAX, Bonus, Location
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import ROLLS, Choose, Event, Face, Roll
from engine.handlers import answer, step
from engine.state import ChangeKind
from engine.steps import Step

PLACE = Choose("place")
BONUS_CHOICES = (Choose(Bonus.HELIUM.value), Choose(Bonus.FLEET.value),
                 Choose(Bonus.INFLUENCE.value))
COLOR_CHOICES = tuple(Choose(c.value) for c in Color if c is not Color.SILVER)


def _if_deployed_on(location: Location, s: Step) -> bool:
    return s.location is location


def _sovereign(draft: Draft, s: Step) -> bool:
    return draft.sovereign == s.player


def _count_at(draft: Draft, s: Step, *colors: Color) -> int | None:
    """Cards of ``colors`` at this location, or None after asking for missing names."""
    assert s.location is not None
    stack = draft.stack_at(s.location)
    missing = [(s.location, i) for i, slot in enumerate(stack)
               if slot.card is None and not slot.face_down]
    if not ensure_named(draft, s, missing):
        return None
    return sum(1 for slot in stack if slot_is(slot, *colors))


# --- simple gains -----------------------------------------------------------------------


@deploy("deanna")
def deanna(draft: Draft, s: Step) -> None:
    """Gain 1 Helium."""
    draft.add_helium(s.player)


@deploy("uncle-narol")
def uncle_narol(draft: Draft, s: Step) -> None:
    """Gain 2 Helium."""
    draft.add_helium(s.player, 2)


@deploy("lawyer")
def lawyer(draft: Draft, s: Step) -> None:
    """Place 1 Influence."""
    draft.place_influence(s.player)


@deploy("boneriders")
def boneriders(draft: Draft, s: Step) -> None:
    """Gain the Sovereign."""
    draft.gain_sovereign(s.player)


@deploy("the-jackal")
def the_jackal(draft: Draft, s: Step) -> None:
    """Gain the Sovereign."""
    draft.gain_sovereign(s.player)


@deploy("pelus")
def pelus(draft: Draft, s: Step) -> None:
    """Advance 2 on the Fleet, then every other player advances 1."""
    _fleet_for_all(draft, s)


@deploy("virga")
def virga(draft: Draft, s: Step) -> None:
    """Advance 2 on the Fleet, then every other player advances 1."""
    _fleet_for_all(draft, s)


def _fleet_for_all(draft: Draft, s: Step) -> None:
    draft.advance(s.player, 2)
    for q in draft.opponents(s.player):
        draft.advance(q)  # the solo rules: she accepts whatever an ability offers her free


# --- "if deployed on …" ---------------------------------------------------------------------


@deploy("fitchner")
def fitchner(draft: Draft, s: Step) -> None:
    """If deployed on the Institute, place 1 Influence."""
    if _if_deployed_on(Location.INSTITUTE, s):
        draft.place_influence(s.player)


@deploy("invictus")
def invictus(draft: Draft, s: Step) -> None:
    """If deployed on Mars, advance 1 on the Fleet."""
    if _if_deployed_on(Location.MARS, s):
        draft.advance(s.player)


@deploy("morning-star")
def morning_star(draft: Draft, s: Step) -> None:
    """If deployed on Jupiter, advance 1 on the Fleet."""
    if _if_deployed_on(Location.JUPITER, s):
        draft.advance(s.player)


@deploy("quietus")
def quietus(draft: Draft, s: Step) -> None:
    """If deployed on the Institute, advance 1 on the Fleet."""
    if _if_deployed_on(Location.INSTITUTE, s):
        draft.advance(s.player)


@deploy("the-pax")
def the_pax(draft: Draft, s: Step) -> None:
    """If deployed on Luna, advance 1 on the Fleet."""
    if _if_deployed_on(Location.LUNA, s):
        draft.advance(s.player)


# --- "if you hold the Sovereign …" ----------------------------------------------------------


@deploy("magistrate")
def magistrate(draft: Draft, s: Step) -> None:
    """If you hold the Sovereign, gain 1 Helium."""
    if _sovereign(draft, s):
        draft.add_helium(s.player)


@deploy("orator")
def orator(draft: Draft, s: Step) -> None:
    """If you hold the Sovereign, place 1 Influence."""
    if _sovereign(draft, s):
        draft.place_influence(s.player)


@deploy("priestess")
def priestess(draft: Draft, s: Step) -> None:
    """If you hold the Sovereign, advance 1 on the Fleet."""
    if _sovereign(draft, s):
        draft.advance(s.player)


# --- counting cards -----------------------------------------------------------------------


@deploy("nero")
def nero(draft: Draft, s: Step) -> None:
    """Gain 1 Helium per Red at this location."""
    count = _count_at(draft, s, Color.RED)
    if count:
        draft.add_helium(s.player, count)


@deploy("timony")
def timony(draft: Draft, s: Step) -> None:
    """Place 1 Influence for each Gold at the Institute."""
    stack = draft.stack_at(Location.INSTITUTE)
    missing = [(Location.INSTITUTE, i) for i, slot in enumerate(stack)
               if slot.card is None and not slot.face_down]
    if ensure_named(draft, s, missing):
        golds = sum(1 for slot in stack if slot_is(slot, Color.GOLD))
        if golds:
            draft.place_influence(s.player, golds)


@deploy("investor")
def investor(draft: Draft, s: Step) -> None:
    """Name a color other than Silver; gain 1 Helium per card of that color at this location."""
    if _count_at(draft, s) is not None:  # every card here has a name
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.CHOOSE, f"{name}: name a color other than Silver",
                  COLOR_CHOICES, s.then("investor-color"))


@answer("investor-color")
def _investor_color(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Choose) and event.value is not None
    count = _count_at(draft, s, Color(event.value))
    if count:
        draft.add_helium(s.player, count)


# --- revealing hand cards -------------------------------------------------------------------


@deploy("dancer")
def dancer(draft: Draft, s: Step) -> None:
    """Gain 1 Helium; reveal 2 or more other Reds from your hand to gain 2 more."""
    draft.add_helium(s.player)
    reveal_cards(draft, s, 2, (Color.RED,), s.then("dancer-revealed"), optional=False)


@step("dancer-revealed")
def _dancer_revealed(draft: Draft, s: Step) -> None:
    if s.data[-1]:
        draft.add_helium(s.player, 2)


@deploy("politician")
def politician(draft: Draft, s: Step) -> None:
    """You may reveal 2 Golds from your hand to place 2 Influence."""
    reveal_cards(draft, s, 2, (Color.GOLD,), s.then("politician-revealed"), optional=True)


@step("politician-revealed")
def _politician_revealed(draft: Draft, s: Step) -> None:
    if s.data[-1]:
        draft.place_influence(s.player, 2)


@deploy("eo")
def eo(draft: Draft, s: Step) -> None:
    """Each opponent reveals a Red from hand or loses 1 Helium."""
    draft.push(with_data(s, "eo-next", *draft.opponents(s.player)))


@step("eo-next")
def _eo_next(draft: Draft, s: Step) -> None:
    if not s.data:
        return
    q, rest = s.data[0], s.data[1:]
    hand = draft.hand(q)
    if draft.players[q].automa:
        _eo_automa(draft, s, q, rest)
    elif hand.unknown == 0 and not asks_as_tracked(draft):
        reds = [c for c in hand.known if is_color(c, Color.RED)]
        if reds:
            show(draft, q, reds[0])
        else:
            draft.lose_helium(q)
        draft.push(with_data(s, "eo-next", *rest))
    else:
        options: list[Event] = [Choose(c) for c in hand_cards(draft, q, _red)]
        options.append(DECLINE)
        if hand.unknown == 0:  # a known hand: the one true answer (its first Red, or none)
            del options[1:]
        name = draft.players[q].name
        draft.ask(q, Kind.CHOOSE, f"{name}: reveal a Red, or lose 1 Helium", options,
                  with_data(s, "eo-answer", q, *rest))


def _red(card: str) -> bool:
    return is_color(card, Color.RED)


def _eo_automa(draft: Draft, s: Step, q: int, rest: tuple[int, ...]) -> None:
    """Au Toma has a Red if one is among the top 6 cards of her hand (the solo variant's Eo
    rule)."""
    hand = draft.hand(q)
    if hand.unknown or asks_as_tracked(draft):
        red = any(_red(c) for c in hand.known[-6:])
        options = (Choose("red"), DECLINE) if hand.unknown else (
            (Choose("red"),) if red else (DECLINE,))
        draft.ask(s.player, Kind.CONFIRM, "Is a Red among the top 6 cards of Au Toma's hand?",
                  options, with_data(s, "eo-answer", q, *rest))
        return
    if not any(_red(c) for c in hand.known[-6:]):
        draft.lose_helium(q)
    draft.push(with_data(s, "eo-next", *rest))


@answer("eo-answer")
def _eo_answer(draft: Draft, s: Step, event: Event) -> None:
    q, rest = s.data[0], s.data[1:]
    if isinstance(event, Choose) and not draft.players[q].automa:
        show(draft, q, str(event.value))
    elif not isinstance(event, Choose):
        draft.lose_helium(q)
    draft.push(with_data(s, "eo-next", *rest))


# --- opponents ------------------------------------------------------------------------


@deploy("harmony")
def harmony(draft: Draft, s: Step) -> None:
    """An opponent you pick loses 1 Helium."""
    seats = [q for q in draft.opponents(s.player) if draft.players[q].helium > 0]
    if seats:
        seat_choice(draft, s, "who loses 1 Helium?", seats, s.then("harmony-seat"))


@answer("harmony-seat")
def _harmony_seat(draft: Draft, s: Step, event: Event) -> None:
    draft.lose_helium(chosen_seat(event))


@deploy("quicksilver")
def quicksilver(draft: Draft, s: Step) -> None:
    """Take 1 Helium from the opponent who has the most (you break ties)."""
    most = max((draft.players[q].helium for q in draft.opponents(s.player)), default=0)
    if most > 0:
        seats = [q for q in draft.opponents(s.player) if draft.players[q].helium == most]
        seat_choice(draft, s, "take 1 Helium from whom?", seats, s.then("quicksilver-seat"))


@answer("quicksilver-seat")
def _quicksilver_seat(draft: Draft, s: Step, event: Event) -> None:
    draft.add_helium(s.player, draft.lose_helium(chosen_seat(event)))


@deploy("diplomat")
def diplomat(draft: Draft, s: Step) -> None:
    """You, and an opponent you pick, may each place 1 Influence."""
    may(draft, s, "place 1 Influence?", PLACE, s.then("diplomat-self"))


@answer("diplomat-self")
def _diplomat_self(draft: Draft, s: Step, event: Event) -> None:
    if event == PLACE:
        draft.place_influence(s.player)
    seat_choice(draft, s, "which opponent may place 1 Influence?",
                draft.opponents(s.player), s.then("diplomat-seat"))


@answer("diplomat-seat")
def _diplomat_seat(draft: Draft, s: Step, event: Event) -> None:
    q = chosen_seat(event)
    if draft.players[q].automa:
        draft.place_influence(q)  # the solo rules: she accepts what is offered free
        return
    name = draft.players[q].name
    draft.ask(q, Kind.CHOOSE, f"{name}: place 1 Influence?", (PLACE, DECLINE),
              s.then("diplomat-other", q))


@answer("diplomat-other")
def _diplomat_other(draft: Draft, s: Step, event: Event) -> None:
    if event == PLACE:
        draft.place_influence(s.data[0])


@deploy("auctioneer")
def auctioneer(draft: Draft, s: Step) -> None:
    """An opponent you pick takes one of 1 Helium, 1 Fleet step or 1 Influence; you the others."""
    seat_choice(draft, s, "who picks first?", draft.opponents(s.player),
                s.then("auctioneer-seat"))


@answer("auctioneer-seat")
def _auctioneer_seat(draft: Draft, s: Step, event: Event) -> None:
    q = chosen_seat(event)
    if draft.players[q].automa:
        _auctioneer_roll(draft, s.then("auctioneer-roll", q))
        return
    name = draft.players[q].name
    draft.ask(q, Kind.CHOOSE, f"{name}: take 1 Helium, 1 Fleet step or 1 Influence",
              BONUS_CHOICES, s.then("auctioneer-pick", q))


@answer("auctioneer-pick")
def _auctioneer_pick(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Choose) and event.value is not None
    _auctioneer_share(draft, s, s.data[0], Bonus(event.value))


def _auctioneer_share(draft: Draft, s: Step, q: int, taken: Bonus) -> None:
    draft.gain_bonus(q, taken)
    for choice in BONUS_CHOICES:
        if choice.value != taken.value:
            draft.gain_bonus(s.player, Bonus(str(choice.value)))


_FACE_BONUS = {Face.HELIUM: Bonus.HELIUM, Face.FLEET: Bonus.FLEET,
               Face.INFLUENCE: Bonus.INFLUENCE}


def _automa_can_take(draft: Draft, q: int, bonus: Bonus) -> bool:
    """Au Toma treats 10 Helium as a cap, like 10 Fleet and 10 Influence (her 10-cap
    substitution rule)."""
    p = draft.players[q]
    if bonus is Bonus.HELIUM:
        return p.helium < 10
    if bonus is Bonus.FLEET:
        return p.fleet < FLEET_MAX
    return p.supply > 0


def _auctioneer_roll(draft: Draft, then: Step) -> None:
    """Against Au Toma: roll until a bonus she can take comes up (the solo variant's
    Auctioneer rule)."""
    q = then.data[0]
    if any(_automa_can_take(draft, q, b) for b in _FACE_BONUS.values()):
        draft.ask(None, Kind.ROLL, "Auctioneer: roll the Rising die for Au Toma", ROLLS, then)


@answer("auctioneer-roll")
def _auctioneer_rolled(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Roll)
    q = s.data[0]
    draft.note(ChangeKind.ROLL, player=q, card=event.face.value)
    bonus = _FACE_BONUS.get(event.face)
    if bonus is not None and _automa_can_take(draft, q, bonus):
        _auctioneer_share(draft, s, q, bonus)
    else:
        _auctioneer_roll(draft, s)

