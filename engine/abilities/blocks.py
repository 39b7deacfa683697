"""The five block cards, and the one place where offensive abilities meet them.

Judge, Pax au Telemanus and The Howlers stop an opponent stealing or banishing a card
from your hand; the block card is revealed and stays in hand. Justice and Martyr
keep the Sovereign token (their window is the "sovereign" step of
:mod:`engine.houses`). Offensive abilities never look for blocks themselves: they
call :func:`steal`, :func:`force_banish` or :func:`banish_from_hand`, which open the
block window. Au Toma never blocks; a victim may block with any card they may hold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from engine.abilities.primitives import (
    DECLINE,
    asks_as_tracked,
    bottom_of_hand,
    decide,
    hand_cards,
    show,
    take_hand_card,
)
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Block, Choose, Event, choose
from engine.handlers import answer, step
from engine.houses import SOVEREIGN_BLOCKS
from engine.state import ChangeKind
from engine.steps import Step


class Threat(StrEnum):
    """What a block card can stop (its value words the block's question)."""

    STEAL = "steal"
    BANISH = "banish"
    SOVEREIGN = "sovereign"


BLOCKS: dict[str, Callable[[Threat], bool]] = {}


def block(card: str) -> Callable[[Callable[[Threat], bool]], Callable[[Threat], bool]]:
    """Register ``fn(threat) -> bool``: does this block card stop ``threat``?"""

    def register(fn: Callable[[Threat], bool]) -> Callable[[Threat], bool]:
        BLOCKS[card] = fn
        return fn

    return register


@block("judge")
def judge(threat: Threat) -> bool:
    """Reveal to stop an opponent stealing or banishing any of your cards; it stays in hand."""
    return threat in (Threat.STEAL, Threat.BANISH)


@block("pax-au-telemanus")
def pax_au_telemanus(threat: Threat) -> bool:
    """Reveal to stop an opponent stealing or banishing any of your cards; it stays in hand."""
    return threat in (Threat.STEAL, Threat.BANISH)


@block("the-howlers")
def the_howlers(threat: Threat) -> bool:
    """Reveal to stop an opponent stealing or banishing any of your cards; it stays in hand."""
    return threat in (Threat.STEAL, Threat.BANISH)


@block("justice")
def justice(threat: Threat) -> bool:
    """If an opponent would take your Sovereign, reveal and banish this to keep it; draw."""
    return threat is Threat.SOVEREIGN  # resolved by engine.houses' "sovereign" step


@block("martyr")
def martyr(threat: Threat) -> bool:
    """If an opponent would take your Sovereign, reveal and banish this to keep it; draw."""
    return threat is Threat.SOVEREIGN


assert set(SOVEREIGN_BLOCKS) == {c for c, fn in BLOCKS.items() if fn(Threat.SOVEREIGN)}


def blockers(draft: Draft, victim: int, threat: Threat) -> list[str]:
    """The block cards ``victim`` may reveal against ``threat`` (Au Toma has none)."""
    if draft.players[victim].automa:
        return []
    return [card for card, stops in BLOCKS.items()
            if stops(threat) and draft.may_hold(victim, card)]


def attempt(draft: Draft, victim: int, threat: Threat, go: Step, blocked: Step | None) -> None:
    """Open the block window: push ``go`` unless the victim blocks (then ``blocked``)."""
    cards = blockers(draft, victim, threat)
    if not cards:
        draft.push(go)
        return
    options: list[Event] = [Block(card) for card in cards]
    options.append(DECLINE)
    name = draft.players[victim].name
    draft.ask(victim, Kind.BLOCK, f"{name}: block the {threat} of a card from your hand?",
              options, Step("block-window", victim, data=(go, blocked)))


@answer("block-window")
def _on_block(draft: Draft, s: Step, event: Event) -> None:
    go, blocked = s.data
    if isinstance(event, Block):
        show(draft, s.player, event.card)  # revealed, and it stays in hand
        draft.note(ChangeKind.BLOCK, player=s.player, card=event.card)
        if blocked is not None:
            draft.push(blocked)
    else:
        draft.push(go)


# --- stealing ---------------------------------------------------------------------------


def steal(draft: Draft, thief: int, victim: int, done: Step | None,
          blocked: Step | None = None) -> None:
    """``thief`` steals a card the victim picks (Au Toma: her bottom card)."""
    attempt(draft, victim, Threat.STEAL, Step("steal-pick", thief, data=(victim, done)), blocked)


@step("steal-pick")
def _steal_pick(draft: Draft, s: Step) -> None:
    victim = s.data[0]
    if draft.players[victim].automa:
        card = bottom_of_hand(draft, victim)
        if card is None and draft.hidden:  # her order is not known: the thief says
            _ask_bottom(draft, victim, "handed over", hand_cards(draft, victim),
                        s.then("steal-picked"))
        elif asks_as_tracked(draft) and card is not None:
            _ask_bottom(draft, victim, "handed over", [card], s.then("steal-picked"))
        else:
            _steal(draft, s, card)
        return
    hand = draft.hand(victim)
    options: list[Event] = [Choose(card) for card in dict.fromkeys(hand.known)]
    if hand.unknown:
        options.append(Choose(None))  # an unseen card: it stays unseen
    name = draft.players[victim].name
    decide(draft, victim, Kind.CHOOSE, f"{name}: pick the card to hand over", options,
           s.then("steal-picked"))


@answer("steal-picked")
def _on_steal_picked(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Choose)
    _steal(draft, s, event.value)


def _steal(draft: Draft, s: Step, card: str | None) -> None:
    victim, done = s.data
    take_hand_card(draft, victim, card)
    draft.add_to_hand(s.player, card)
    draft.note(ChangeKind.STEAL, player=s.player, card=card, source=str(victim))
    if done is not None:
        draft.push(done)


# --- forced banishes from a hand ----------------------------------------------------------


def force_banish(draft: Draft, victim: int, done: Step | None,
                 blocked: Step | None = None) -> None:
    """``victim`` banishes a hand card of their choice (Au Toma: her bottom card)."""
    attempt(draft, victim, Threat.BANISH, Step("forced-banish-pick", victim, data=(done,)), blocked)


@step("forced-banish-pick")
def _banish_pick(draft: Draft, s: Step) -> None:
    victim = s.player
    if draft.players[victim].automa:
        card = bottom_of_hand(draft, victim)
        if card is not None and not asks_as_tracked(draft):
            _banish(draft, victim, card, s.data[0])
            return
        # Unseen cards under her known ones may be anywhere in her stack: any card.
        _ask_bottom(draft, victim, "banished", [card] if card is not None else hand_cards(
            draft, victim), s.then("forced-banish-picked"))
        return
    name = draft.players[victim].name
    decide(draft, victim, Kind.CHOOSE, f"{name}: banish one of your cards",
           [choose(card) for card in hand_cards(draft, victim)], s.then("forced-banish-picked"))


def _ask_bottom(draft: Draft, victim: int, what: str, cards: Sequence[str],
                then: Step) -> None:
    """The table names Au Toma's bottom card, which was just ``what``."""
    name = draft.players[victim].name
    draft.ask(draft.current, Kind.CONFIRM, f"Name {name}'s bottom card, now {what}",
              [Choose(c) for c in cards], then)


@answer("forced-banish-picked")
def _on_banish_picked(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Choose) and event.value is not None
    _banish(draft, s.player, event.value, s.data[0])


def banish_from_hand(draft: Draft, victim: int, card: str, done: Step | None,
                     blocked: Step | None = None) -> None:
    """An opponent's ability banishes a known card from ``victim``'s hand (Arlus, Roque)."""
    attempt(draft, victim, Threat.BANISH, Step("hand-banish", victim, card, data=(done,)), blocked)


@step("hand-banish")
def _hand_banish(draft: Draft, s: Step) -> None:
    assert s.card is not None
    _banish(draft, s.player, s.card, s.data[0])


def _banish(draft: Draft, victim: int, card: str, done: Step | None) -> None:
    draft.banish_from_hand(victim, card)  # an unseen card is named as it is banished
    if done is not None:
        draft.push(done)
