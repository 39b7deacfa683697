"""Abilities that deploy a second card (Orion, Modjob, Calliope).

The second card goes face up on top of its new location and its own ability fires; its
location then also counts as deployed to this turn, so the single gain step that follows
may not take from it (the rulebook's gain step: "a location you did not deploy to this
turn", read literally).
"""

from __future__ import annotations

from engine.abilities.primitives import (
    also_deployed,
    chosen_location,
    colored,
    decide,
    location_choice,
    name_revealed,
    named_card_options,
    others,
    picked,
    step_by_step,
    take_revealed,
    under,
    under_is,
)
from engine.abilities.registry import deploy
from engine.board import Location
from engine.cards import Color
from engine.decisions import Kind
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import Event, Place, place
from engine.handlers import answer, step
from engine.state import ChangeKind, Slot
from engine.steps import Step

_BLUE = colored(Color.BLUE)


def deploy_again(draft: Draft, player: int, card: str, target: Location) -> None:
    """Put ``card`` (already off its old place) face up on ``target`` as a deploy."""
    draft.put_top(target, Slot(card))
    draft.note(ChangeKind.DEPLOY, player=player, card=card, target=target.value)
    also_deployed(draft, target)
    draft.push(Step("deploy-ability", player, card, target))


@deploy("orion")
def orion(draft: Draft, s: Step) -> None:
    """If deployed on Mars, Luna or the Institute: deploy another Blue from this location onto
    Jupiter."""
    if s.location is None or s.location is Location.JUPITER:
        return
    options = named_card_options(draft, s, (s.location,), _BLUE, s.card)
    if options:
        name = draft.players[s.player].name
        decide(draft, s.player, Kind.TARGET, f"{name}: deploy which Blue onto Jupiter?",
               options, s.then("orion-card"))


@answer("orion-card")
def _orion_card(draft: Draft, s: Step, event: Event) -> None:
    loc, index, _ = picked(draft, event, _BLUE)
    slot = draft.take_at(loc, index)
    assert slot.card is not None
    deploy_again(draft, s.player, slot.card, Location.JUPITER)


@deploy("modjob")
def modjob(draft: Draft, s: Step) -> None:
    """If deployed directly on a Red or Brown, deploy that card on top of another location
    (its ability fires)."""
    below = under(draft, s)
    if below is not None and under_is(draft, s, Color.RED, Color.BROWN):
        location_choice(draft, s, "deploy the card below onto which location?",
                        others(s.location), s.then("modjob-to", below[0]))


@answer("modjob-to")
def _modjob_to(draft: Draft, s: Step, event: Event) -> None:
    assert s.location is not None
    slot = draft.take_at(s.location, s.data[0])
    assert slot.card is not None
    deploy_again(draft, s.player, slot.card, chosen_location(event))


@deploy("calliope")
def calliope(draft: Draft, s: Step) -> None:
    """Reveal the deck's top card and deploy it face up on another location (its ability
    fires)."""
    if draft.deck_count > 0:
        card = draft.reveal_from_deck()
        if step_by_step(draft):  # the camera names it where it lands
            name = draft.players[s.player].name
            draft.ask(s.player, Kind.PLACE, f"{name}: deploy the revealed card onto which "
                      "location?", [place(loc, card) for loc in others(s.location)],
                      s.then("calliope-placed"))
            return
        name_revealed(draft, s.player, s.then("calliope-seen"))


@step("calliope-seen")
def _calliope_seen(draft: Draft, s: Step) -> None:
    location_choice(draft, s, f"deploy {draft.revealed[-1]} onto which location?",
                    others(s.location), s.then("calliope-to"))


@answer("calliope-to")
def _calliope_to(draft: Draft, s: Step, event: Event) -> None:
    card = draft.revealed[-1]
    assert card is not None
    take_revealed(draft, card)
    deploy_again(draft, s.player, card, chosen_location(event))


@answer("calliope-placed")
def _calliope_placed(draft: Draft, s: Step, event: Event) -> None:
    assert isinstance(event, Place)
    card = take_revealed(draft, event.card or draft.revealed[-1])
    if card is None:
        raise IllegalActionError("name the card that was deployed", rule="deploy")
    deploy_again(draft, s.player, card, event.location)
