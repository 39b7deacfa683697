"""The tracker's questions in words: the page, the voice and the log say each kind through
the narration, with card names as printed and never a card id."""

from __future__ import annotations

import random
import re

from device.hardware.voice import sentences
from device.service import Update
from device.tracking import LOCATION_QUESTION
from engine import narration
from engine.board import House, Location
from engine.cards import CARDS
from engine.events import Lead, SeatSpec
from engine.game import Game
from engine.setup import tracked_game
from engine.tracking import Follow, Question, Seen, TableView, location_question
from web.document import question_view

M, L = Location.MARS, Location.LUNA
START = [["lorn", "sevro"], ["eo", "nero"], ["aja", "darrow"], ["trigg", "mustang"]]
SLUGS = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, (c for c in CARDS if "-" in c)),
                                               key=len, reverse=True)) + r")\b")


def table() -> Follow:
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    return Follow(Game(tracked_game(seats, START, first=0), rng=random.Random(4)))


def seen(*stacks: list[str]) -> TableView:
    views = [Seen(len(s), s[-1] if s else None) for s in stacks]
    return (views[0], views[1], views[2], views[3])


def words(question: Question, follow: Follow) -> list[str]:
    page = question_view(question, follow.game.state)
    assert page is not None
    return [page["prompt"], *(o["label"] for o in page["options"])]


def no_ids(texts: list[str]) -> None:
    for text in texts:
        assert SLUGS.search(text) is None, text


def test_an_unexpected_change_is_worded_with_what_ignoring_and_correcting_do() -> None:
    follow = table()
    verdict = follow.on_view(seen(START[0], START[1][:1], START[2], START[3]))
    question = verdict.question
    assert question is not None and question.kind is narration.Ask.UNEXPECTED
    texts = words(question, follow)
    assert texts[0] == "The camera saw a change nobody expected:" == verdict.text
    assert texts[-2:] == ["The camera is wrong: ignore it",
                          "The table is as the camera sees it: correct it"]
    assert texts[1:] == question.texts()
    no_ids(texts)


def test_a_covered_card_question_names_the_location_and_each_card_as_printed() -> None:
    follow = table()
    follow.on_view(seen(START[0], [*START[1], "stained"], START[2], START[3]))
    verdict = follow.on_view(seen(START[0], ["nero", "stained"], START[2], START[3]))
    question = verdict.question
    assert question is not None and question.kind is narration.Ask.COVERED_CARD
    texts = words(question, follow)
    assert texts[0] == "Which card was taken from Mars?"
    assert "Nothing happened" in texts and any("Eo" in t for t in texts)
    no_ids(texts)


def test_an_order_question_words_each_reading_from_where_they_part() -> None:
    follow = table()
    state = follow.game.state
    ask = narration.Phrasing(narration.Ask.ORDER, (
        narration.Reading((Lead("morning-star", M),)),
        narration.Reading((Lead("morning-star", L),))), player=state.current)
    texts = words(Question(ask, state), follow)
    assert texts == ["The camera saw a move that could mean:",
                     "Ann: deployed Morning Star to Mars", "Ann: deployed Morning Star to Luna"]


def test_a_location_question_is_said_and_shown_the_same_and_again_with_now() -> None:
    follow = table()
    first, again = location_question(L), location_question(L, again=True)
    assert words(first, follow) == ["What is on top of Luna?"]
    assert words(again, follow) == ["What is on top of Luna now?"]
    page = question_view(first, follow.game.state)
    assert page is not None and (page["location"], page["count"]) == ("luna", 2)
    update = Update(1, LOCATION_QUESTION, follow.game.state, message=again.prompt)
    assert sentences(update, None) == ["What is on top of Luna now?"]


def test_the_moves_the_camera_saw_are_logged_with_printed_names() -> None:
    follow = table()
    verdict = follow.on_view(seen(START[0], [*START[1], "morning-star"], START[2], START[3]))
    assert verdict.play == (Lead("morning-star", M),)
    assert verdict.text == "Ann: deployed Morning Star to Mars"
