"""Events serialise to JSON and back; malformed input is a clear error."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine.automa import new_solo_game
from engine.automa_state import Arrow, Extra, Parity
from engine.board import Location
from engine.errors import IllegalActionError
from engine.events import (
    EVENT_TYPES,
    Block,
    Choose,
    Decline,
    DrawFromDeck,
    DrawUnknown,
    Face,
    GainFrom,
    Identify,
    Lead,
    Pile,
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
    from_dict,
    to_dict,
)
from engine.setup import new_game
from engine.wording import event_text

SAMPLES = [
    new_game(["A", "B"], random.Random(1)),
    Lead("darrow", Location.MARS), Lead(None, None), Scout(), GainFrom(Location.LUNA),
    DrawFromDeck(), Place(Location.JUPITER, None), Place(Location.JUPITER, "eo"),
    Roll(Face.BANISH), Choose("eo", Location.MARS, 0), Choose("fleet"), Decline(),
    Block("judge"), Identify(Location.LUNA, 2, "eo"), DrawUnknown(1, 2), SetHandCount(0, 3),
    SetLocation(Location.MARS, ("eo", None), (False, True), "deck"), SetTokens(0, 1, 2, 3),
    SetSovereign(None), SetSovereign(1), RevealCard(0, "eo"),
    RevealHand(1, ("eo", "nero")), RevealHand(0), Resolve(2), Resolve(0, ("eo",), "nero"),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_round_trip_through_json(event: object) -> None:
    data = json.loads(json.dumps(to_dict(event)))  # type: ignore[arg-type]
    assert from_dict(data) == event


def test_every_core_event_type_has_a_sample() -> None:
    core = {name for name, cls in EVENT_TYPES.items() if cls.__module__ == "engine.events"}
    assert core <= {type(e).__name__ for e in SAMPLES}


@pytest.mark.parametrize("data", [
    {"type": "Nope"},
    {"type": "Lead", "card": 3, "location": "mars"},
    {"type": "Lead", "card": "eo", "location": "venus"},
    {"type": "SetTokens", "player": "0", "helium": 1, "influence": 1, "fleet": 1},
    {"type": "SetTokens", "player": True, "helium": 1, "influence": 1, "fleet": 1},
    {"type": "Lead", "card": "eo"},
])
def test_malformed_events_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(IllegalActionError, match="malformed event"):
        from_dict(data)


def test_an_event_in_words_is_short_and_readable() -> None:
    # The narration's words, with the card's printed name (never its id).
    assert event_text(Lead("darrow", Location.MARS)) == "Deploy Darrow to Mars"
    assert event_text(Scout()) == "Scout: turn over the deck's top card"


def test_closed_sets_decode_to_their_enums_and_encode_as_the_same_words() -> None:
    moved = from_dict(json.loads(json.dumps(to_dict(SetLocation(Location.LUNA, (), (),
                                                                 Pile.DECK)))))
    assert isinstance(moved, SetLocation) and moved.removed_to is Pile.DECK
    assert to_dict(moved)["removed_to"] == "deck"
    setup = new_solo_game("Ann", random.Random(1))
    assert setup.automa is not None
    setup = replace(setup, automa=replace(setup.automa, parity=Parity.ODD))
    again = from_dict(json.loads(json.dumps(to_dict(setup))))
    assert isinstance(again, Setup) and again.automa is not None
    assert again.automa.parity is Parity.ODD
    card = again.automa.cards[0]
    assert isinstance(card.tiebreaker, Arrow) and isinstance(card.extra, Extra)
