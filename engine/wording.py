"""Events in words, without a game around them: the one renderer of an event.

Below :mod:`engine.rules` (whose refusals name the event) and above :mod:`engine.events`,
so :meth:`engine.events.Event`'s text never needs :mod:`engine.narration`, which plays
moves through the rules to word them. Narration re-exports these names.

>>> from engine.board import Location
>>> from engine.events import Lead, Roll, Face
>>> event_text(Lead("darrow", Location.MARS)), event_text(Roll(Face.SOVEREIGN))
('Deploy Darrow to Mars', 'The die shows the Sovereign')
"""

from __future__ import annotations

from collections.abc import Callable

from engine import automa as her
from engine.board import Bonus
from engine.cards import CARDS
from engine.events import (
    Block,
    Choose,
    Decline,
    DrawFromDeck,
    DrawUnknown,
    Event,
    Face,
    GainFrom,
    Identify,
    Lead,
    Place,
    Resolve,
    RevealCard,
    RevealHand,
    Roll,
    Scout,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
    Setup,
)

Names = Callable[[str | None], str]


UNIDENTIFIED = "an unidentified card"


UNKNOWN = "an unknown card"


FACES = {
    Face.HELIUM: "Helium",
    Face.FLEET: "Fleet",
    Face.INFLUENCE: "Influence",
    Face.SOVEREIGN: "the Sovereign",
    Face.REVEAL: "Reveal",
    Face.BANISH: "Banish",
}


BONUSES = {Bonus.HELIUM: "Helium", Bonus.FLEET: "Fleet", Bonus.INFLUENCE: "Influence",
           Bonus.SOVEREIGN: "the Sovereign"}



def printed(card: str | None) -> str:
    """A card's name as printed; never its id.

    >>> printed("the-jackal"), printed(None), printed("no-such-card")
    ('The Jackal', 'an unidentified card', 'an unknown card')
    """
    if card is None:
        return UNIDENTIFIED
    found = CARDS.get(card)
    return found.name if found is not None else UNKNOWN



def titled(value: str) -> str:
    """A code word made readable: ``"face-down"`` → ``"Face down"``."""
    return value.replace("-", " ").capitalize()



def ordinal(n: int) -> str:
    """``3`` → ``"3rd"``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '22nd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"



def face_word(face: str) -> str:
    """A die face in words (``"sovereign"`` → ``"the Sovereign"``)."""
    try:
        return FACES[Face(face)]
    except ValueError:
        return titled(face)



def event_text(event: Event, names: Names = printed) -> str:
    """What an event does, without knowing who did it (an option's label, an error).

    >>> from engine.board import Location
    >>> event_text(GainFrom(Location.LUNA)), event_text(Scout())
    ('Gain the top card of Luna (+the Sovereign)', "Scout: turn over the deck's top card")
    """
    for kind, render in _TEXTS:
        if isinstance(event, kind):
            return render(event, names)
    return _extension_text(event, names)



def _lead(e: Lead, names: Names) -> str:
    if e.location is None:
        return "Skip the deploy (empty hand)"
    return f"Deploy {names(e.card) if e.card else 'the card played'} to {e.location.label}"



def _choose(e: Choose, names: Names) -> str:
    if e.location is not None and e.index is not None:
        return f"{slot_name(e.value, names)} on {e.location.label} ({ordinal(e.index + 1)}" \
               " from the bottom)"
    if e.location is not None:
        return e.location.label
    if e.value in CARDS:
        return names(e.value)
    return titled(str(e.value))



def slot_name(card: str | None, names: Names) -> str:
    return names(card) if card else UNIDENTIFIED



def setup_text(e: Setup, names: Names) -> str:
    seats = ", ".join(_seat(s.name, s.house, s.automa) for s in e.seats)
    return f"New game: {seats}; {e.seats[e.first_player].name} goes first"



def _seat(name: str, house: object, automa: bool) -> str:
    if automa:
        return name if name == her.AUTOMA_NAME else f"{name} (Au Toma)"
    return f"{name} (House {titled(str(house))})" if house else name



_TEXTS: tuple[tuple[type[Event], Callable[..., str]], ...] = (
    (Setup, setup_text),
    (Lead, _lead),
    (Scout, lambda e, n: "Scout: turn over the deck's top card"),
    (GainFrom, lambda e, n: f"Gain the top card of {e.location.label}"
                            f" (+{BONUSES[e.location.bonus]})"),
    (DrawFromDeck, lambda e, n: "Draw the deck's top card and roll the die"),
    (Place, lambda e, n: f"Place {n(e.card) if e.card else 'the turned-over card'} on"
                         f" {e.location.label}"),
    (Roll, lambda e, n: f"The die shows {face_word(e.face)}"),
    (Choose, _choose),
    (Decline, lambda e, n: "Decline"),
    (Block, lambda e, n: f"Block with {n(e.card)}"),
    (RevealHand, lambda e, n: "The hand is laid out face up"),
    (Resolve, lambda e, n: f"End-of-game option {e.index + 1}"),
    (Identify, lambda e, n: f"The {ordinal(e.index + 1)} card from the bottom of"
                            f" {e.location.label} is {n(e.card)}"),
    (DrawUnknown, lambda e, n: f"Player {e.player + 1} drew {counted(e.count, 'unseen card')}"),
    (SetHandCount, lambda e, n: f"Player {e.player + 1} holds {counted(e.count, 'card')}"),
    (SetLocation, lambda e, n: f"{e.location.label} holds "
                               f"{', '.join(slot_name(c, n) for c in e.cards) or 'no cards'}"),
    (SetTokens, lambda e, n: f"Player {e.player + 1} has {e.helium} Helium, {e.influence}"
                             f" Influence, Fleet {e.fleet}"),
    (SetSovereign, lambda e, n: "Nobody holds the Sovereign" if e.player is None
                                else f"Player {e.player + 1} holds the Sovereign"),
    (RevealCard, lambda e, n: f"Player {e.player + 1} showed {n(e.card)}"),
)



def counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"



def _extension_text(event: Event, names: Names) -> str:
    """Events registered by rule modules (Au Toma's confirmations), else the type's name."""
    step = automa_step_text(event, names)
    if step is not None:
        return f"{her.AUTOMA_NAME}: {step[0].lower()}{step[1:]}"
    if type(event).__name__ == "Moved":
        return _moved(event, names)
    return titled(_words(type(event).__name__))



def _moved(event: Event, names: Names) -> str:
    """An ability's card moved by the table (engine.abilities.primitives.Moved)."""
    card = getattr(event, "card", None)
    source, target = getattr(event, "source", None), getattr(event, "target", None)
    what = names(card) if card else "the card"
    text = "Done: " + (f"{what} moved" if source is None else
                       f"{what} moved from {source.label}")
    if target is not None:
        under = " (under the top card)" if getattr(event, "under", False) else ""
        text += f" to {target.label}{under}"
    return text



def _words(camel: str) -> str:
    return "".join(f"-{c.lower()}" if c.isupper() and i else c.lower()
                   for i, c in enumerate(camel))



def automa_step_text(event: Event, names: Names = printed) -> str | None:
    """One of Au Toma's physical steps, by the confirmation that settles it (else None).

    >>> from engine.board import Location
    >>> automa_step_text(her.GAINS[Location.MARS])
    'Gain the top card of Mars'
    """
    if isinstance(event, Place) and event.card is None:
        return f"Deploy the deck's top card to {event.location.label}"
    if isinstance(event, her.AutomaGain):
        return f"Gain the top card of {event.location.label}"
    if isinstance(event, her.AutomaToken):
        if event.bonus is Bonus.FLEET:
            return "Bonus: her ship 1 space up the Fleet Track"
        if event.bonus is Bonus.SOVEREIGN:
            return "Bonus: the Sovereign token"
        return f"Bonus: 1 {BONUSES[event.bonus]}"
    if isinstance(event, her.AutomaBanish):
        what = f" ({names(event.card)})" if event.card else ""
        return f"Banish the deck's top card{what}"
    return None
