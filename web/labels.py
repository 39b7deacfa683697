"""What the table may see: which cards are public, and a namer that withholds the rest.

The words themselves come from :mod:`engine.narration` (the one renderer for the page,
the voice and the log); this module only decides which card names it may use. A
:class:`Namer` is the ``names`` callable the narration takes: it gives a public card's
printed name and records when it had to withhold one, so the caller can drop an option
or keep a log line that would otherwise give a hidden card away.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import narration
from engine.cards import CARDS
from engine.events import Choose, Event, Lead, Place
from engine.state import Change, GameState, Phase, Slot

HIDDEN = "a hidden card"


def public_cards(state: GameState) -> frozenset[str]:
    """Cards everyone at the table has seen: face-up stack cards, piles, shown hand cards.

    While tracking a physical game a hand's known cards were seen by the table (gained
    from a location, revealed); in a simulated game they were dealt privately. Au
    Toma's hand is never public.
    """
    seen = {s.card for stack in state.locations for s in stack if s.card and not s.face_down}
    seen.update(state.banished)
    seen.update(card for card in state.revealed if card)
    laid_out = state.phase in (Phase.FINALE, Phase.OVER)  # every hand is shown for scoring
    if state.hidden or laid_out:
        for player in state.players:
            if laid_out or not player.automa:
                seen.update(player.hand.known)
    return frozenset(seen)


_FACE_UP = frozenset({"reveal", "deploy", "place", "banish", "gain", "move", "block"})


def shown(changes: Sequence[Change]) -> frozenset[str]:
    """Cards these changes turned face up for everyone (even if a hand took them after)."""
    return frozenset(c.card for c in changes if c.kind in _FACE_UP and c.card in CARDS)


class Namer:
    """Names cards for one piece of text; ``redacted`` says a hidden card was withheld."""

    def __init__(self, public: frozenset[str]) -> None:
        self.public = public
        self.redacted = False

    def __call__(self, card: str | None) -> str:
        return self.card(card)

    def card(self, card: str | None) -> str:
        """The card's printed name, or a placeholder if the table has not seen it."""
        if card is None:
            return narration.UNIDENTIFIED
        if card in self.public and card in CARDS:
            return CARDS[card].name
        self.redacted = True
        return HIDDEN

    def slot(self, slot: Slot | None) -> str:
        """A stack card as the table sees it (a face-down card is never named)."""
        return narration.slot_text(slot, self)


# --- decision options: how the page groups them -------------------------------------------


def option_group(event: Event, namer: Namer) -> str | None:
    """Options that deploy the same card share a group (one row of location buttons)."""
    if isinstance(event, Lead) and event.location is not None:
        return namer.card(event.card) if event.card else "a card from the hand"
    return None


def option_short(event: Event) -> str | None:
    """The word on a button inside its group (the location)."""
    if isinstance(event, Lead) and event.location is not None:
        return event.location.label
    return None


def names_card(event: Event) -> str | None:
    """Whether the answer names a card the option leaves open: "required", "optional".

    A deployed card must be named; a turned-over or targeted card the camera has not
    read may be named now or identified later.
    """
    if isinstance(event, Lead) and event.location is not None and event.card is None:
        return "required"
    if isinstance(event, Place) and event.card is None:
        return "optional"
    if isinstance(event, Choose) and event.value is None and event.location is not None:
        return "optional"
    return None
