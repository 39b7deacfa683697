"""A card turned over from the deck and placed on a location of the player's choice.

Scout, the die's reveal face, Apollo's house ability and some card abilities all end
this way; the place step gives a bonus only for Scout (scheduled by :mod:`engine.rules`).
"""

from __future__ import annotations

from engine.board import LOCATIONS
from engine.decisions import Kind
from engine.draft import Draft
from engine.events import Event, Place
from engine.events import place as place_event
from engine.handlers import answer
from engine.steps import Step


def ask_place(draft: Draft, then: Step, prompt: str) -> None:
    """Ask where the oldest turned-over card goes (any location)."""
    card = draft.revealed[0]
    options = [place_event(loc, card) for loc in LOCATIONS]
    draft.ask(then.player, Kind.PLACE, prompt, options, then)


def reveal_and_place(draft: Draft, s: Step, prompt: str) -> None:
    """Turn over the deck's top card and let ``s.player`` place it anywhere; no bonus."""
    if draft.deck_count > 0:
        draft.reveal_from_deck()
        ask_place(draft, s.then("place-revealed"), prompt)


@answer("place-revealed")
def on_place(draft: Draft, s: Step, action: Event) -> None:
    """Place a turned-over card with no bonus (Apollo, the die's reveal face, abilities)."""
    assert isinstance(action, Place)
    draft.place_revealed(action.location, action.card)
