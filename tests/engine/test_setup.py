"""Setup: 2–6 seats, the deal, houses, the first player, the neutral house."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from engine.board import House
from engine.errors import IllegalActionError
from engine.events import SeatSpec, Setup
from engine.game import Game
from engine.setup import arranged, new_game, tracked_game


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_deal_two_face_up_per_location_and_five_per_hand(seats: int) -> None:
    houses = [*[h for h in House if h is not House.CERES][: seats - 1], House.CERES]
    names = [f"P{i}" for i in range(seats)]
    game = Game(new_game(names, random.Random(seats), houses=houses))
    state = game.state
    assert [len(s) for s in state.locations] == [2, 2, 2, 2]
    assert [p.hand.size for p in state.players] == [5] * (seats - 1) + [6]
    assert state.cards_in_play() == 112
    assert state.deck_count == 112 - 8 - 5 * seats - 1


def test_random_houses_are_distinct_and_apollo_goes_first() -> None:
    for seed in range(30):
        game = Game(new_game(["A", "B", "C", "D", "E"], random.Random(seed)))
        houses = [p.house for p in game.state.players]
        assert len(set(houses)) == 5
        if House.APOLLO in houses:
            assert game.state.current == houses.index(House.APOLLO)


def test_without_apollo_the_first_player_is_random() -> None:
    houses = [House.MARS, House.DIANA, House.CERES]
    firsts = {
        Game(new_game(["A", "B", "C"], random.Random(s), houses=houses)).state.first_player
        for s in range(40)
    }
    assert firsts == {0, 1, 2}


def test_chosen_houses_are_kept() -> None:
    event = new_game(["A", "B"], random.Random(1), houses=[House.MINERVA, None])
    assert event.seats[0].house is House.MINERVA
    assert event.seats[1].house not in (None, House.MINERVA)


def test_two_seats_get_three_neutral_influence_others_none() -> None:
    assert new_game(["A", "B"], random.Random(1)).neutral_influence == 3
    assert new_game(["A", "B", "C"], random.Random(1)).neutral_influence == 0


def test_shared_house_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="share a house"):
        new_game(["A", "B"], random.Random(1), houses=[House.MARS, House.MARS])


@pytest.mark.parametrize("seats", [1, 7])
def test_seat_count_out_of_range_is_refused(seats: int) -> None:
    event = new_game(["A", "B"], random.Random(1))
    bad = replace(event, seats=tuple(SeatSpec(f"P{i}") for i in range(seats)))
    with pytest.raises(IllegalActionError, match="2 to 6 seats"):
        Game(bad)


def test_a_game_cannot_be_set_up_twice() -> None:
    event = new_game(["A", "B"], random.Random(1))
    game = Game(event)
    with pytest.raises(IllegalActionError, match="already been set up"):
        game.play(event)


def test_tracked_game_has_hidden_hands_and_deck() -> None:
    seats = [SeatSpec("Ann", House.CERES), SeatSpec("Bo", House.MARS)]
    locations = [["darrow", "sevro"], ["eo", "nero"], ["lorn", "aja"], ["judge", "trigg"]]
    game = Game(tracked_game(seats, locations, first=1))
    state = game.state
    assert state.hidden and state.deck is None
    assert [p.hand.unknown for p in state.players] == [6, 5]
    assert state.deck_count == 112 - 8 - 11
    assert state.current == 1


def test_a_tracked_game_of_two_has_the_neutral_house_and_of_three_not() -> None:
    """Rules, setup: with 2 players, 3 Influence of an unused house go on the Institute."""
    two = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    three = [*two, SeatSpec("Cy", House.CERES)]
    stacks = [["darrow"], ["eo"], ["lorn"], ["judge"]]
    assert Game(tracked_game(two, stacks, first=0)).state.neutral_influence == 3
    assert Game(tracked_game(three, stacks, first=0)).state.neutral_influence == 0


def test_an_arranged_position_defaults_to_the_first_seat_numbered_names_and_deal_rules() -> None:
    """arranged() sets up what it is given: the first seat first, P1.. names unless named,
    the neutral house for two seats, and the variants asked for."""
    two = arranged([["darrow"], ["sevro"]])
    assert (two.first_player, [s.name for s in two.seats]) == (0, ["P1", "P2"])
    assert (two.neutral_influence, two.total_cards) == (3, 112)
    three = arranged([["darrow"], ["sevro"], ["eo"]], names=["Ann", "Bo", "Cy"],
                     variants=["multiplayer-variant"])
    assert [s.name for s in three.seats] == ["Ann", "Bo", "Cy"]
    assert (three.neutral_influence, three.variants) == (0, ("multiplayer-variant",))


def _refused(event: Setup, message: str) -> None:
    with pytest.raises(IllegalActionError, match=rf"^{re.escape(message)} \[setup\]$"):
        Game(event)


def test_each_bad_setup_is_refused_in_one_line_naming_the_setup_rule() -> None:
    """Bad input gets one clear line: every setup refusal says what is wrong."""
    event = new_game(["A", "B"], random.Random(1))
    _refused(replace(event, hands=event.hands[:1]),
             "one hand per seat and four locations are needed")
    _refused(replace(event, locations=event.locations[:3]),
             "one hand per seat and four locations are needed")
    _refused(replace(event, first_player=2), "first player 2 is not a seat")
    on_table = event.locations[0][0]
    _refused(replace(event, hands=((on_table, *event.hands[0][1:]), event.hands[1])),
             "a card appears twice")
    deck = event.deck or ()
    _refused(replace(event, deck=deck[1:], deck_count=event.deck_count - 1),
             "the cards add up to 111, not 112")
    _refused(replace(event, deck=deck[1:]), "the deck's order and its count disagree")
    _refused(replace(event, unknown=(-1, 1)), "the cards add up to 112, not 112")
    with pytest.raises(IllegalActionError, match=r"^the game has already been set up \[setup\]$"):
        Game(event).play(event)


def test_an_arranged_position_refuses_a_seat_without_a_hand() -> None:
    """§2 Setup: every player is dealt a hand (and a house tile), so a position naming a
    third player, or a third house, beside two hands is refused as it is arranged; it
    is not quietly dealt as a game of two without them."""
    with pytest.raises(ValueError):
        arranged([["darrow"], ["sevro"]], names=["Ann", "Bo", "Cy"])
    with pytest.raises(ValueError):
        arranged([["darrow"], ["sevro"]], houses=[House.MARS, House.DIANA, House.CERES])
