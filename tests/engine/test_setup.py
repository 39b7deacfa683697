"""Setup: 2–6 seats, the deal, houses, the first player, the neutral house."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.board import House
from engine.errors import IllegalActionError
from engine.events import SeatSpec
from engine.game import Game
from engine.setup import new_game, tracked_game


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
