"""The Sovereign token and the six house abilities.

A house ability fires every time the Sovereign comes to its player, even when they
already held it: from Luna's bonus, the die's Sovereign face, or a card (Boneriders,
The Jackal). The token is taken first, then the ability resolves. Justice and Martyr
let the holder keep the token when an opponent would take it.
"""

from __future__ import annotations

from engine.board import Bonus, House, Location
from engine.decisions import Kind
from engine.die import MINERVA
from engine.draft import Draft
from engine.events import Block, Decline, Event, choose
from engine.handlers import answer, step
from engine.reveals import reveal_and_place
from engine.state import ChangeKind
from engine.steps import Step

SOVEREIGN_BLOCKS = ("justice", "martyr")


def sovereign_blockers(draft: Draft, holder: int) -> list[str]:
    """The block cards the holder may reveal to keep the Sovereign (Au Toma has none)."""
    if draft.players[holder].automa:
        return []
    return [card for card in SOVEREIGN_BLOCKS if draft.may_hold(holder, card)]


@step("sovereign")
def sovereign(draft: Draft, s: Step) -> None:
    """The Sovereign comes to ``s.player``; a different holder may block first."""
    holder = draft.sovereign
    blockers = [] if holder in (None, s.player) else sovereign_blockers(draft, holder)
    if holder is not None and blockers:
        options: list[Event] = [Block(card) for card in blockers]
        options.append(Decline())
        taker = draft.players[s.player].name
        prompt = f"{draft.players[holder].name}: block {taker} taking the Sovereign?"
        draft.ask(holder, Kind.BLOCK, prompt, options, s.then("sovereign-block", holder))
        return
    take_sovereign(draft, s)


@answer("sovereign-block")
def on_sovereign_block(draft: Draft, s: Step, event: Event) -> None:
    if isinstance(event, Block):
        holder = int(s.data[0])
        # Reveal and banish the block card, keep the token, gain the deck's top card.
        draft.banish_from_hand(holder, event.card)
        draft.note(ChangeKind.BLOCK, player=holder, card=event.card)
        if draft.deck_count > 0:
            draft.draw(holder)
        return
    take_sovereign(draft, s)


def take_sovereign(draft: Draft, s: Step) -> None:
    draft.set_sovereign(s.player)
    draft.push(Step("house", s.player))


@step("house")
def house_ability(draft: Draft, s: Step) -> None:
    """Fire the house ability of ``s.player`` (Au Toma has no house)."""
    house = draft.players[s.player].house
    if house is House.APOLLO:
        reveal_and_place(draft, s, "Apollo: place the revealed card (no bonus)")
    elif house is House.CERES:
        ceres_banish(draft, s)
    elif house is House.DIANA:
        draft.gain_bonus(s.player, Bonus.INFLUENCE)
    elif house is House.JUPITER:
        draft.gain_bonus(s.player, Bonus.FLEET)
    elif house is House.MARS:
        draft.gain_bonus(s.player, Bonus.HELIUM)
    elif house is House.MINERVA:
        draft.push(Step("roll", s.player, data=(MINERVA,)))


def ceres_banish(draft: Draft, s: Step) -> None:
    """Banish any one card of any location (not only a top card, read literally)."""
    options = [
        choose(slot.card, loc, index)
        for loc in Location
        for index, slot in enumerate(draft.stack_at(loc))
    ]
    if options:
        draft.ask(s.player, Kind.TARGET, "Ceres: banish a card from a location", options,
                  s.then("banish-target"))


