"""What the tracker asks the table, worded for the page and the voice."""

from __future__ import annotations

import random

from engine.board import House, Location
from engine.events import Lead
from engine.game import Game
from engine.narration import Ask, Phrasing, Reading
from engine.setup import SeatSpec, tracked_game
from engine.tracking.question import Question, location_question

START = [["lorn", "sevro"], ["eo", "nero"], ["aja", "darrow"], ["trigg", "mustang"]]


def test_a_location_is_asked_about_once_then_again_with_now() -> None:
    assert location_question(Location.LUNA).prompt == "What is on top of Luna?"
    again = location_question(Location.LUNA, again=True)
    assert again.prompt == "What is on top of Luna now?"
    assert again.location is Location.LUNA and again.kind is Ask.LOCATION


def test_each_reading_names_the_player_whose_moves_they_are_in_the_names_given() -> None:
    """A question about Bo's moves asked while it is Ann's turn (the camera saw Bo's
    turn late) names Bo, and the page's own card names are used."""
    setup = tracked_game([SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)],
                         START, first=0)
    start = Game(setup, rng=random.Random(0)).state
    assert start.current == 0
    deploy = Reading((Lead("quietus", Location.MARS),))
    question = Question(Phrasing(Ask.UNEXPECTED, (deploy,), player=1), start=start)
    [text] = question.texts(names=lambda card: (card or "").upper())
    assert text.startswith("Bo: ") and "QUIETUS" in text
    [told] = Question(Phrasing(Ask.UNEXPECTED, (deploy,)), start=start).texts()
    assert told.startswith("Ann: ") and "Quietus" in told
