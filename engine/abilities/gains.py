"""Abilities that take cards into a hand: from this location, a stack's bottom, the
banished pile or the deck; and the three that hand their own card to the right."""

from __future__ import annotations

from engine.abilities.primitives import (
    COLOR,
    DECLINE,
    Leave,
    SlotTest,
    banish_revealed,
    banish_self,
    banished_choices,
    chosen_card,
    colored,
    decide,
    deck_bottom,
    ensure_named,
    gain_revealed,
    gainable,
    give_self,
    is_color,
    leave,
    name_revealed,
    named_card_options,
    not_colored,
    picked,
    regain_self,
    right_of,
    slot_is,
    to_deck,
    under,
    under_is,
    with_data,
)
from engine.abilities.registry import deploy
from engine.board import Location
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Choose, Event, choose
from engine.handlers import answer, step
from engine.rulings import SELF_BANISH_ALONE
from engine.state import ChangeKind, Slot
from engine.steps import Step

# --- "You may gain … from this location; if you do, end your turn" -------------------------

MAY_GAIN: dict[str, SlotTest] = {}  # card → which cards it may take
REGAINS = frozenset({"alfrun", "jopho"})  # these also come back into hand


def _named(*names: str) -> SlotTest:
    def test(slot: Slot) -> bool | None:
        return None if slot.card is None and not slot.face_down else slot.card in names

    return test


def _may_gain(draft: Draft, s: Step) -> None:
    assert s.location is not None and s.card is not None
    test = MAY_GAIN[s.card]
    options = named_card_options(draft, s, (s.location,), lambda slot: _ok(draft, slot, test),
                                 s.card)
    if options:
        options.append(DECLINE)
        name = draft.players[s.player].name
        draft.ask(s.player, Kind.TARGET, f"{name}: gain a card here and end your turn?",
                  options, s.then("may-gain-card"))


def _ok(draft: Draft, slot: Slot, test: SlotTest) -> bool | None:
    return test(slot) if gainable(draft, slot) else False


@answer("may-gain-card")
def _on_may_gain(draft: Draft, s: Step, event: Event) -> None:
    if not isinstance(event, Choose):
        return
    assert s.card is not None
    loc, index, _ = picked(draft, event, MAY_GAIN[s.card])
    draft.gain_from(s.player, loc, index)
    if s.card in REGAINS:
        regain_self(draft, s, with_data(s, "ability-end-turn"))
    else:
        draft.end_turn_early()


def _register_may_gain(card: str, test: SlotTest, doc: str) -> None:
    MAY_GAIN[card] = test

    def ability(draft: Draft, s: Step) -> None:
        _may_gain(draft, s)

    ability.__name__ = card.replace("-", "_")
    ability.__doc__ = doc
    deploy(card)(ability)


_GOLD = colored(Color.GOLD)
for _card, _test, _doc in (
    ("aegis-craftsman", _GOLD, "You may gain a Gold from this location; if you do, end."),
    ("razor-designer", _GOLD, "You may gain a Gold from this location; if you do, end."),
    ("artificer", colored(Color.GOLD, Color.ORANGE),
     "You may gain a Gold or another Orange from this location; if you do, end."),
    ("cyther", colored(Color.BLUE), "You may gain a Blue from this location; if you do, end."),
    ("gravboot-cobbler", colored(Color.GOLD, Color.GRAY),
     "You may gain a Gold or Gray from this location; if you do, end."),
    ("pulse-armorer", colored(Color.GRAY),
     "You may gain a Gray from this location; if you do, end."),
    ("pulse-fist-engineer", colored(Color.OBSIDIAN),
     "You may gain an Obsidian from this location; if you do, end."),
    ("developer", lambda slot: True,
     "You may gain any other card from this location; if you do, end."),
    ("alfrun", _named("nero", "jopho"),
     "You may gain Nero or Jopho from here; if you do, take Alfrun back and end."),
    ("jopho", _named("alfrun", "nero"),
     "You may gain Alfrun or Nero from here; if you do, take Jopho back and end."),
):
    _register_may_gain(_card, _test, _doc)


# --- "Gain … from this location; banish this unless deployed on a Gold" ---------------------

RULING = "self_banish_needs_gain"  # the Rulings setting these abilities play by


def nothing_to_gain(draft: Draft, s: Step, *, spared: bool) -> None:
    """The gain before the card's own banish sentence has nothing to take.

    The rulebook lets a card be deployed and its ability skipped when it cannot be used.

    By default the whole ability is ignored and the card stays; the ``self-banish-alone``
    variant banishes it anyway. ``spared``: its own condition keeps it either way, so
    the reading decides nothing and nothing is noted; otherwise the log says which
    reading decided ("ruling", target "stay" or "banish").
    """
    if spared:
        return
    alone = SELF_BANISH_ALONE in draft.variants
    draft.note(ChangeKind.RULING, player=s.player, card=s.card, source=RULING,
               target="banish" if alone else "stay")
    if alone:
        banish_self(draft, s)


def _must_gain(draft: Draft, s: Step, test: SlotTest, then: Step,
               spared: bool | None = None) -> None:
    """Gain a card passing ``test`` here; ``spared`` (a card with its own banish
    sentence): would that sentence leave the card, should nothing qualify."""
    assert s.location is not None
    options = named_card_options(draft, s, (s.location,), lambda slot: _ok(draft, slot, test),
                                 s.card)
    if options:
        decide(draft, s.player, Kind.TARGET, f"{s.card}: gain which card?", options, then)
    elif options is not None and spared is not None:
        nothing_to_gain(draft, s, spared=spared)


@deploy("darrow")
def darrow(draft: Draft, s: Step) -> None:
    """Gain any other non-Gold card from this location; banish Darrow unless deployed on a Gold."""
    on_gold = under_is(draft, s, Color.GOLD)
    if on_gold is not None:
        _must_gain(draft, s, not_colored(Color.GOLD), s.then("darrow-card", on_gold), on_gold)


@answer("darrow-card")
def _darrow_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, _ = picked(draft, event, not_colored(Color.GOLD))
    draft.gain_from(s.player, loc, index)
    if not s.data[0]:
        banish_self(draft, s)


@deploy("romulus")
def romulus(draft: Draft, s: Step) -> None:
    """Gain a Blue from this location; banish Romulus unless deployed directly on a Gold."""
    on_gold = under_is(draft, s, Color.GOLD)
    if on_gold is not None:
        _must_gain(draft, s, colored(Color.BLUE), s.then("romulus-card", on_gold), on_gold)


@answer("romulus-card")
def _romulus_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, _ = picked(draft, event, colored(Color.BLUE))
    draft.gain_from(s.player, loc, index)
    if not s.data[0]:
        banish_self(draft, s)


@deploy("sefi")
def sefi(draft: Draft, s: Step) -> None:
    """Gain another Obsidian from this location."""
    _must_gain(draft, s, colored(Color.OBSIDIAN), s.then("sefi-card"))


@answer("sefi-card")
def _sefi_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, _ = picked(draft, event, colored(Color.OBSIDIAN))
    draft.gain_from(s.player, loc, index)


@deploy("victra")
def victra(draft: Draft, s: Step) -> None:
    """Gain this location's bottom card unless it is Victra; banish Victra unless on a Gold."""
    assert s.location is not None
    bottom = draft.stack_at(s.location)[0]
    on_gold = under_is(draft, s, Color.GOLD)
    if on_gold is None:
        return
    if bottom.card == s.card or not gainable(draft, bottom):
        nothing_to_gain(draft, s, spared=on_gold)
        return
    leave(draft, s, Leave.GAIN, (s.location, 0),
          None if on_gold else with_data(s, "ability-banish-self"))


@deploy("cassius")
def cassius(draft: Draft, s: Step) -> None:
    """Gain the card directly under this one; banish Cassius unless that card is a Gold."""
    assert s.location is not None
    below = under(draft, s)
    if below is None or not gainable(draft, below[1]):  # "that card" would be no Gold
        nothing_to_gain(draft, s, spared=below is not None and slot_is(below[1], Color.GOLD))
        return
    gold = under_is(draft, s, Color.GOLD)
    if gold is not None:
        leave(draft, s, Leave.GAIN, (s.location, below[0]),
              None if gold else with_data(s, "ability-banish-self"))


@deploy("octavia")
def octavia(draft: Draft, s: Step) -> None:
    """If you hold the Sovereign, gain Luna's bottom card (unless Octavia); banish Octavia
    unless that card is a Gold."""
    luna = draft.stack_at(Location.LUNA)
    if draft.sovereign != s.player:
        return  # the condition is the ability's own, not an impossible gain
    if not luna or luna[0].card == s.card or not gainable(draft, luna[0]):
        # Octavia herself at the bottom is "that card", a Gold: she stays either way.
        nothing_to_gain(draft, s, spared=bool(luna) and slot_is(luna[0], Color.GOLD))
        return
    if not ensure_named(draft, s, [(Location.LUNA, 0)]):
        return
    gold = slot_is(draft.stack_at(Location.LUNA)[0], Color.GOLD)
    leave(draft, s, Leave.GAIN, (Location.LUNA, 0),
          None if gold else with_data(s, "ability-banish-self"))


@deploy("mustang")
def mustang(draft: Draft, s: Step) -> None:
    """Gain one banished card; banish Mustang unless that card is a Gold."""
    if draft.banished:
        decide(draft, s.player, Kind.CHOOSE, "Mustang: gain which banished card?",
               banished_choices(draft), s.then("mustang-card"))
    else:
        nothing_to_gain(draft, s, spared=False)  # no card, so no Gold to spare him


@answer("mustang-card")
def _mustang_card(draft: Draft, s: Step, event: Event) -> None:
    card = str(chosen_card(event))
    draft.take_banished(s.player, card)
    if not is_color(card, Color.GOLD):
        banish_self(draft, s)


# --- from the deck -------------------------------------------------------------------------


@deploy("lysander")
def lysander(draft: Draft, s: Step) -> None:
    """Gain the deck's top card; banish Lysander unless deployed on Luna."""
    if draft.deck_count > 0:
        draft.draw(s.player)
        if s.location is not Location.LUNA:
            banish_self(draft, s)
    else:
        nothing_to_gain(draft, s, spared=s.location is Location.LUNA)


@deploy("codebreaker")
def codebreaker(draft: Draft, s: Step) -> None:
    """Reveal the deck's bottom card; gain it unless Gold or Silver. Banish Codebreaker
    unless deployed on a Gold or Silver."""
    on_gs = under_is(draft, s, Color.GOLD, Color.SILVER)
    if on_gs is None:
        return
    if draft.deck_count <= 0:
        nothing_to_gain(draft, s, spared=on_gs)
        return
    card = deck_bottom(draft)
    draft.revealed.append(card)
    draft.note(ChangeKind.REVEAL, card=card, source="deck-bottom")
    name_revealed(draft, s.player, s.then("codebreaker-seen", on_gs))


@step("codebreaker-seen")
def _codebreaker_seen(draft: Draft, s: Step) -> None:
    card = draft.revealed[-1]
    assert card is not None
    if is_color(card, Color.GOLD, Color.SILVER):
        draft.revealed.pop()
        to_deck(draft, card, bottom=True)  # left where it was
    else:
        gain_revealed(draft, s.player, card)
    if not s.data[0]:
        banish_self(draft, s)


@deploy("online-gambler")
def online_gambler(draft: Draft, s: Step) -> None:
    """Name 3 colors, reveal the deck's top card: on a match gain it and banish this card;
    otherwise banish the revealed card."""
    if draft.deck_count > 0:
        draft.push(with_data(s, "online-gambler-name"))


@step("online-gambler-name")
def _online_gambler_name(draft: Draft, s: Step) -> None:
    named = s.data
    if len(named) == 3:
        draft.reveal_from_deck()
        name_revealed(draft, s.player, s.then("online-gambler-seen"))
        return
    options = [choose(c.value) for c in Color if c.value not in named]
    name = draft.players[s.player].name
    draft.ask(s.player, Kind.CHOOSE, f"{name}: name a color ({len(named) + 1} of 3)", options,
              s.then("online-gambler-color"))


@answer("online-gambler-color")
def _online_gambler_color(draft: Draft, s: Step, event: Event) -> None:
    draft.push(with_data(s, "online-gambler-name", *s.data, chosen_card(event)))


@step("online-gambler-seen")
def _online_gambler_seen(draft: Draft, s: Step) -> None:
    card = draft.revealed[-1]
    assert card is not None
    if COLOR[card].value in s.data:
        gain_revealed(draft, s.player, card)
        banish_self(draft, s)
    else:
        banish_revealed(draft, card)


# --- "give this card to your right-hand player, gain the deck's top 2, end your turn" ------


def _give_and_draw(draft: Draft, s: Step) -> None:
    give_self(draft, s, with_data(s, "give-and-draw"))


@step("give-and-draw")
def _draw_two(draft: Draft, s: Step) -> None:
    for _ in range(min(2, draft.deck_count)):
        draft.draw(s.player)
    draft.end_turn_early()


@deploy("holo-host")
def holo_host(draft: Draft, s: Step) -> None:
    """If you have more Influence than your right-hand player: give them Holo Host, gain the
    deck's top 2 and end your turn."""
    right = draft.players[right_of(draft, s.player)]
    if draft.players[s.player].influence > right.influence:
        _give_and_draw(draft, s)


@deploy("reporter")
def reporter(draft: Draft, s: Step) -> None:
    """If you have more Helium than your right-hand player: give them Reporter, gain the
    deck's top 2 and end your turn."""
    right = draft.players[right_of(draft, s.player)]
    if draft.players[s.player].helium > right.helium:
        _give_and_draw(draft, s)


@deploy("vlogger")
def vlogger(draft: Draft, s: Step) -> None:
    """If you are further on the Fleet than your right-hand player: give them Vlogger, gain
    the deck's top 2 and end your turn."""
    right = draft.players[right_of(draft, s.player)]
    if draft.players[s.player].fleet > right.fleet:
        _give_and_draw(draft, s)

