"""Observations and corrections while tracking a physical game.

They can arrive at any time (the camera saw something, a player fixed a mistake on the
phone), are validated like any other event, and are undone like any other event.
Cards are conserved: a card that appears comes from wherever it is known to be, or
else from the deck; one that leaves a location goes to the banished pile or the deck.
"""

from __future__ import annotations

from dataclasses import replace

from engine import cards
from engine.board import FLEET_MAX, INFLUENCE_TOKENS
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import (
    DrawUnknown,
    Event,
    Identify,
    Pile,
    RevealCard,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
)
from engine.state import ChangeKind, Hand, Phase, Player, Slot


def observe(draft: Draft, event: Event) -> None:
    """Apply an observation or correction event."""
    if draft.phase is Phase.SETUP:
        raise IllegalActionError("set the game up first", rule="setup")
    handler = _HANDLERS[type(event)]
    handler(draft, event)
    draft.check_trigger()


def _player(draft: Draft, player: int) -> int:
    if not 0 <= player < len(draft.players):
        raise IllegalActionError(f"there is no player {player}", rule="player")
    return player


def _identify(draft: Draft, event: Event) -> None:
    assert isinstance(event, Identify)
    stack = draft.stack_at(event.location)
    if not 0 <= event.index < len(stack):
        raise IllegalActionError(f"{event.location.label} has no card {event.index}",
                                 rule="location")
    draft.identify(event.location, event.index, event.card)


def _draw_unknown(draft: Draft, event: Event) -> None:
    assert isinstance(event, DrawUnknown)
    player = _player(draft, event.player)
    if event.count < 1 or event.count > draft.deck_count:
        raise IllegalActionError(f"cannot draw {event.count} from a deck of {draft.deck_count}",
                                 rule="empty-deck")
    for _ in range(event.count):
        draft.draw(player)


def _set_hand_count(draft: Draft, event: Event) -> None:
    assert isinstance(event, SetHandCount)
    player = _player(draft, event.player)
    hand = draft.hand(player)
    unknown = event.count - len(hand.known)
    if unknown < 0:
        raise IllegalActionError(
            f"{draft.players[player].name} is known to hold {len(hand.known)} cards",
            rule="hand")
    delta = unknown - hand.unknown
    if delta > draft.deck_count:
        raise IllegalActionError("the deck does not hold that many cards", rule="empty-deck")
    _adjust_deck(draft, -delta)
    draft.players[player] = _with_hand(draft, player, Hand(hand.known, unknown))


def _set_location(draft: Draft, event: Event) -> None:
    assert isinstance(event, SetLocation)
    if event.removed_to not in tuple(Pile):
        raise IllegalActionError("removed cards go to 'banished' or 'deck'", rule="correction")
    flags = event.face_down or tuple(False for _ in event.cards)
    if len(flags) != len(event.cards):
        raise IllegalActionError("one face-down flag per card", rule="correction")
    old = draft.stack_at(event.location)
    named = [c for c in event.cards if c is not None]
    for card in named:
        cards.check_id(card)
    if len(named) != len(set(named)):
        raise IllegalActionError("a card appears twice", rule="one-copy")
    draft.locations[event.location.pos] = []
    for slot in old:
        if slot.card not in named:
            _send_away(draft, slot, event.removed_to)
    arrivals = sum(1 for c in event.cards if c is None) - sum(1 for s in old if s.card is None)
    for card in named:
        if all(slot.card != card for slot in old):
            _fetch(draft, card)
    if arrivals < 0 and event.removed_to == Pile.BANISHED:
        raise IllegalActionError("name the cards that were banished", rule="correction")
    _adjust_deck(draft, -arrivals)
    draft.locations[event.location.pos] = [
        Slot(c, f) for c, f in zip(event.cards, flags, strict=True)
    ]


def _send_away(draft: Draft, slot: Slot, where: Pile) -> None:
    if slot.card is None:
        return  # counted by the arrivals arithmetic
    if where == Pile.BANISHED:
        draft.banished.append(slot.card)
    else:
        _adjust_deck(draft, 1, card=slot.card)


def _fetch(draft: Draft, card: str) -> None:
    """Take ``card`` from wherever it is known to be, else from the deck."""
    if card in draft.banished:
        draft.banished.remove(card)
        return
    for loc_stack in draft.locations:
        for i, slot in enumerate(loc_stack):
            if slot.card == card:
                loc_stack.pop(i)
                return
    for p, player in enumerate(draft.players):
        if card in player.hand.known:
            draft.take_from_hand(p, card)
            return
    if draft.deck is not None:
        if card not in draft.deck:
            raise IllegalActionError(f"{card} is not in the deck", rule="one-copy")
        draft.deck.remove(card)
        draft.deck_count -= 1
        return
    _adjust_deck(draft, -1)


def _adjust_deck(draft: Draft, delta: int, card: str | None = None) -> None:
    if draft.deck_count + delta < 0:
        raise IllegalActionError("more cards than the deck holds", rule="conservation")
    draft.deck_count += delta
    if draft.deck is not None:
        if delta > 0 and card is not None:
            draft.deck.append(card)  # returned cards go to the bottom
        elif delta != 0:
            raise IllegalActionError("a simulated deck needs named cards", rule="conservation")


def _set_tokens(draft: Draft, event: Event) -> None:
    assert isinstance(event, SetTokens)
    player = _player(draft, event.player)
    if event.helium < 0:
        raise IllegalActionError("Helium cannot be negative", rule="tokens")
    if not 0 <= event.influence <= INFLUENCE_TOKENS:
        raise IllegalActionError("Influence placed is 0 to 10", rule="influence-cap")
    if not 0 <= event.fleet <= FLEET_MAX:
        raise IllegalActionError("the Fleet Track runs from 0 to 10", rule="fleet-cap")
    draft.players[player] = replace(
        draft.players[player], helium=event.helium, influence=event.influence, fleet=event.fleet
    )
    draft.note(ChangeKind.TOKENS, player=player)


def _set_sovereign(draft: Draft, event: Event) -> None:
    assert isinstance(event, SetSovereign)
    if event.player is not None:
        _player(draft, event.player)
    draft.set_sovereign(event.player)


def _reveal_card(draft: Draft, event: Event) -> None:
    assert isinstance(event, RevealCard)
    player = _player(draft, event.player)
    hand = draft.hand(player)
    if event.card in hand.known:
        return
    draft.take_from_hand(player, event.card)  # validates and removes one unknown
    draft.add_to_hand(player, event.card)


def _with_hand(draft: Draft, player: int, hand: Hand) -> Player:
    return replace(draft.players[player], hand=hand)


_HANDLERS = {
    Identify: _identify,
    DrawUnknown: _draw_unknown,
    SetHandCount: _set_hand_count,
    SetLocation: _set_location,
    SetTokens: _set_tokens,
    SetSovereign: _set_sovereign,
    RevealCard: _reveal_card,
}
