"""The narration with the page's namer: options, log lines and changes in words;
hidden cards stay hidden."""

from __future__ import annotations

import random

import pytest
from pagekit import Rolls, tracked_setup

from engine import narration
from engine.board import Location
from engine.decisions import Decision, Kind
from engine.events import Choose, Event, Face, Lead, Roll
from engine.game import Game
from engine.setup import new_game
from engine.state import Change, Phase, evolve
from engine.steps import Step
from web import view
from web.labels import Namer, public_cards, shown


def event_line(event: Event, before: object, after: object, namer: Namer) -> str:
    return narration.line(event, before, after, namer)  # type: ignore[arg-type]


def option_label(event: Event, state: object, namer: Namer) -> str:
    return narration.answer_text(event, state, namer)  # type: ignore[arg-type]


def change_line(change: Change, state: object, namer: Namer) -> str:
    return narration.change_text(change, state, namer)  # type: ignore[arg-type]


def simulated() -> Game:
    rng = random.Random(3)
    return Game(new_game(["Ann", "Bo"], rng), rng=rng)


def test_the_namer_names_public_cards_and_withholds_the_rest() -> None:
    namer = Namer(frozenset({"darrow"}))
    assert namer.card("darrow") == "Darrow" and not namer.redacted
    assert namer.card(None) == "an unidentified card" and not namer.redacted
    assert namer.card("sevro") == "a hidden card" and namer.redacted
    lead = Namer(frozenset())
    assert narration.event_text(Lead("sevro", Location.MARS), lead) == (
        "Deploy a hidden card to Mars") and lead.redacted


def test_hands_become_public_when_laid_out_for_scoring() -> None:
    state = simulated().state
    hand = set(state.players[0].hand.known)
    assert not hand & public_cards(state)
    assert hand <= public_cards(evolve(state, phase=Phase.FINALE))


def test_a_random_pick_is_never_shown() -> None:
    state = Game(tracked_setup(), rng=Rolls()).state
    shuffle = Decision(Kind.RANDOM, None, "Shuffle Au Toma's deck: card 1 of 22",
                       (Choose("7"), Choose("12")), Step("automa-shuffle-pick", 1))
    asking = evolve(state, pending=shuffle)
    pending = view.pending_view(asking)
    assert pending is not None and pending["options"] == [] and pending["hidden_options"] == 2
    line = event_line(Choose("12"), asking, state, Namer(frozenset()))
    assert line == "A card drawn at random"  # and the log leaves it out (test_view)
    assert "12" not in option_label(Choose("12"), asking, Namer(frozenset()))


def test_a_die_roll_is_shown() -> None:
    state = Game(tracked_setup(), rng=Rolls()).state
    roll = Decision(Kind.ROLL, None, "Roll the Rising die", (Roll(Face.FLEET),), Step("x", 0))
    rolled = evolve(state, changes=(Change("roll", 0, "fleet"),))
    line = event_line(Roll(Face.FLEET), evolve(state, pending=roll), rolled, Namer(frozenset()))
    assert line == "Ann rolled Fleet"


def test_change_lines_never_name_a_hidden_card() -> None:
    state = Game(tracked_setup(), rng=Rolls()).state
    namer = Namer(public_cards(state))
    assert change_line(Change("steal", 1, "eo", "0"), state, namer) == (
        "Bo took a hidden card from another hand")
    assert change_line(Change("draw", 0, "eo", "deck"), state, namer) == "Ann drew a card"
    assert change_line(Change("automa-card", 1, "7"), state, namer) == (
        "Bo played her card 7")
    assert change_line(Change("gain", 2, "sevro", "jupiter"), state, namer) == (
        "Cy gained Sevro from Jupiter")
    assert change_line(Change("fleet", 2, amount=-2), state, namer) == "Cy -2 Fleet"
    assert change_line(Change("banish", 0, "sevro", "hand"), state, namer) == (
        "Sevro banished from Ann's hand")
    assert change_line(Change("something-new", 0), state, namer) == "Something new"


def test_an_unknown_event_is_described_without_hidden_cards() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True, slots=True)
    class Whisper(Event):
        card: str

    state = Game(tracked_setup(), rng=Rolls()).state
    assert option_label(Whisper("eo"), state, Namer(public_cards(state))) == "Whisper"


def test_an_end_of_game_option_without_the_finale_says_its_number() -> None:
    from engine import events

    resolve = getattr(events, "Resolve", None)
    if resolve is None:
        pytest.skip("this engine has no end-of-game decisions")
    state = Game(tracked_setup(), rng=Rolls()).state
    assert option_label(resolve(3), state, Namer(frozenset())) == "End-of-game option 4"


def test_a_card_turned_face_up_during_an_event_is_named_in_its_log_line() -> None:
    state = Game(tracked_setup(), rng=Rolls()).state
    changes = (Change("reveal", None, "eo", "deck"), Change("gain", 1, "eo", "luna"),
               Change("draw", 1, "sevro", "deck"), Change("steal", 1, "holiday", "0"))
    assert shown(changes) == {"eo"}
    namer = Namer(public_cards(state) | shown(changes))
    assert change_line(changes[0], state, namer) == "Eo turned over from the deck"


def test_the_demo_player_you_reads_naturally() -> None:
    seats = Game(tracked_setup(), rng=Rolls()).state
    you = evolve(seats, players=(evolve(seats.players[0], name="You"), *seats.players[1:]))
    assert change_line(Change("turn", 0), you, Namer(frozenset())) == "Your turn"
    assert change_line(Change("turn", 1), you, Namer(frozenset())) == "Bo's turn"
